/* samefile.c - no output may replace an input (cli.h). */
#include <sys/stat.h>

#include "cli.h"

int cli_refuse_input_overwrite(const char *out, const char *option, char *const *inputs, size_t ninputs)
{
    struct stat so, si;
    if (out == NULL || stat(out, &so) != 0 || !S_ISREG(so.st_mode))
        return 0; /* new, "-", a device or a FIFO: nothing to lose */
    for (size_t i = 0; i < ninputs; i++)
        if (inputs[i] != NULL && stat(inputs[i], &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
            cli_error("option '--%s': '%s' is the input '%s': refusing to overwrite an input", option, out,
                      inputs[i]);
            return KPCA_EUSAGE;
        }
    return 0;
}

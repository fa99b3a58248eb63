#include "file/clobber.h"

#include <string.h>
#include <sys/stat.h>

#include "file/source.h"
#include "support/mem.h"

/* stat() of an input spec's file part (FILE of FILE:GROUP); 0 or -1 */
static int stat_input(const char *spec, struct stat *st)
{
    char *file = NULL;
    const char *group;
    if (kpca_split_spec(spec, &file, &group, NULL) != KPCA_OK)
        return stat(spec, st);
    int r = stat(file, st);
    kpca_free(file);
    return r;
}

kpca_status kpca_input_check(const char *spec, kpca_error *err)
{
    struct stat st;
    if (stat_input(spec, &st) == 0 && S_ISDIR(st.st_mode))
        return kpca_fail(err, KPCA_EIO, "'%s' is a directory, not a file", spec);
    return KPCA_OK;
}

kpca_status kpca_output_check(const char *output, const char *const *inputs, size_t ninputs, kpca_error *err)
{
    struct stat out;
    if (strcmp(output, "-") == 0 || stat(output, &out) != 0 || !S_ISREG(out.st_mode))
        return KPCA_OK;
    for (size_t i = 0; i < ninputs; i++) {
        struct stat in;
        if (inputs[i] == NULL || stat_input(inputs[i], &in) != 0)
            continue;
        if (in.st_dev == out.st_dev && in.st_ino == out.st_ino) {
            if (strcmp(output, inputs[i]) == 0)
                return kpca_fail(err, KPCA_EUSAGE,
                                 "the output '%s' is also an input: writing it would destroy it; "
                                 "choose another output file", output);
            return kpca_fail(err, KPCA_EUSAGE,
                             "the output '%s' is the same file as the input '%s': writing it would destroy "
                             "the input; choose another output file", output, inputs[i]);
        }
    }
    return KPCA_OK;
}

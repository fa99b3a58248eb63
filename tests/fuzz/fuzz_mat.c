/* fuzz_mat.c - MATLAB MAT-files (file/matfile.h, through libmatio): as
 * data (detected, forced, and FILE:X), the listing of the variables, the
 * row source against the whole read, and as a labels file
 * (`--labels FILE:y`).  A read that succeeds holds finite values only
 * (fuzz_check_read); a listing that fails leaves nothing behind. */
#include "fuzz_common.h"

#include "file/matfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, ".mat");
    char spec[96];
    fuzz_read(path, KPCA_FMT_AUTO, NULL);
    fuzz_read(path, KPCA_FMT_MAT, "X");
    kpca_read_opts opts = {.format = KPCA_FMT_MAT};
    fuzz_rowsrc_same(path, &opts);

    kpca_mat_var *vars = NULL;
    size_t n = 0;
    kpca_error err;
    memset(&err, 0, sizeof err);
    if (kpca_mat_list(path, &vars, &n, &err) == KPCA_OK) {
        for (size_t i = 0; i < n; i++)
            if (vars[i].name == NULL || vars[i].cls == NULL)
                abort();
        kpca_mat_vars_free(vars, n);
    } else if (vars != NULL || n != 0 || err.msg[0] == '\0') {
        abort();
    }
    snprintf(spec, sizeof spec, "%s:y", path);
    opts.labels = spec;
    opts.group = "X";
    fuzz_read_opts(path, &opts);
    return 0;
}

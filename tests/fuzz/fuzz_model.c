/* fuzz_model.c - the model loader (an HDF5 file with a checksum), as
 * `kpca transform MODEL` and `kpca info MODEL` read.  A model that loads
 * must validate, and projecting one point with it must give finite numbers. */
#include "fuzz_common.h"

#include "lib/file/h5util.h"

#ifndef FUZZ_RESEAL /* fuzz_model_sealed.c: seal each input again first */
#define FUZZ_RESEAL 0
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path;
    if (FUZZ_RESEAL && size > KPCA_H5_SEAL_SIZE) {
        unsigned char *copy = malloc(size);
        if (copy == NULL)
            return 0;
        memcpy(copy, data, size);
        kpca_h5_seal_image(copy, size);
        path = fuzz_file(copy, size, ".model");
        free(copy);
    } else {
        path = fuzz_file(data, size, ".model");
    }
    kpca_model md;
    kpca_error err;
    memset(&md, 0, sizeof md);
    memset(&err, 0, sizeof err);
    if (kpca_model_load(path, &md, &err) != KPCA_OK) {
        if (err.msg[0] == '\0')
            abort();
        fuzz_check_hdf5_closed();
        return 0;
    }
    if (kpca_model_validate(&md, path, &err) != KPCA_OK)
        abort();
    if (md.dim <= 4096 && md.k <= 4096) {
        double *x = calloc(md.dim, sizeof(double)), *z = calloc(md.k, sizeof(double));
        if (x != NULL && z != NULL && kpca_model_transform(&md, x, 1, md.dim, md.k, z, &err) == KPCA_OK)
            for (size_t i = 0; i < md.k; i++)
                if (!(z[i] == z[i]))
                    abort();
        free(x);
        free(z);
    }
    kpca_model_free(&md);
    fuzz_check_hdf5_closed();
    return 0;
}

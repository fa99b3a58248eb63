/* source.c - what an input argument names (see source.h). */
#include "file/source.h"

#include <string.h>
#include <sys/stat.h>

#include "support/mem.h"

kpca_status kpca_split_spec(const char *spec, char **file, const char **group, kpca_error *err)
{
    struct stat st;
    *group = NULL;
    const char *colon = strrchr(spec, ':');
    if (colon != NULL && stat(spec, &st) != 0) {
        size_t len = (size_t)(colon - spec);
        char *f = kpca_malloc(len + 1);
        if (f == NULL)
            return kpca_fail(err, KPCA_ENOMEM, "out of memory");
        memcpy(f, spec, len);
        f[len] = '\0';
        if (stat(f, &st) == 0) {
            *file = f;
            *group = colon + 1;
            return KPCA_OK;
        }
        kpca_free(f);
    }
    size_t len = strlen(spec);
    char *f = kpca_malloc(len + 1);
    if (f == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory");
    memcpy(f, spec, len + 1);
    *file = f;
    return KPCA_OK;
}

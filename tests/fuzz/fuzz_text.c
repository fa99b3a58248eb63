/* fuzz_text.c - the text readers (ESL and LIBSVM, plain or gzip), with the
 * format detected from content as `kpca fit DATA` does, then forced to each
 * format in turn. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, ".txt");
    fuzz_read(path, KPCA_FMT_AUTO, NULL);
    fuzz_read(path, KPCA_FMT_ESL, NULL);
    fuzz_read(path, KPCA_FMT_LIBSVM, NULL);
    return 0;
}

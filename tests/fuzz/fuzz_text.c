/* fuzz_text.c - the text readers (ESL, LIBSVM and ARFF, plain or
 * compressed: gzip, bzip2, xz, zstd), with the format detected from
 * content as `kpca fit DATA` does, then forced to each format in turn; each read again by blocks of rows (io/rowsrc.h), which
 * must read what the whole read reads, and in parts as kpca-mpi's ranks
 * read it (fuzz_parts_same). */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, ".txt");
    fuzz_read(path, KPCA_FMT_AUTO, NULL);
    fuzz_read(path, KPCA_FMT_ESL, NULL);
    fuzz_read(path, KPCA_FMT_LIBSVM, NULL);
    fuzz_read(path, KPCA_FMT_ARFF, NULL);
    static const kpca_format fmts[4] = {KPCA_FMT_AUTO, KPCA_FMT_ESL, KPCA_FMT_LIBSVM, KPCA_FMT_ARFF};
    for (int f = 0; f < 4; f++) {
        fuzz_rowsrc_same(path, &(kpca_read_opts){.format = fmts[f]});
        fuzz_parts_same(path, &(kpca_read_opts){.format = fmts[f]});
    }
    return 0;
}

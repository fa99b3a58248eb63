/* fuzz_csv.c - the delimited-text reader (CSV, semicolon, TSV, and
 * whitespace text read with a label option), under the read options of
 * `kpca fit --header H --label L [--labels FILE]`: the header rule, the
 * label column (first, last, none, a number, a header name, the usual
 * names) and, for data read without labels, the same file as a labels
 * file (one label per line), which is how a one-column file of integers
 * gets read both ways. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const struct {
        kpca_format fmt;
        kpca_header header;
        const char *label;
    } runs[] = {
        {KPCA_FMT_CSV, KPCA_HEADER_AUTO, NULL},     {KPCA_FMT_CSV, KPCA_HEADER_YES, "last"},
        {KPCA_FMT_CSV, KPCA_HEADER_NO, "first"},    {KPCA_FMT_CSV, KPCA_HEADER_AUTO, "none"},
        {KPCA_FMT_CSV, KPCA_HEADER_YES, "species"}, {KPCA_FMT_CSV, KPCA_HEADER_NO, "2"},
        {KPCA_FMT_ESL, KPCA_HEADER_AUTO, "first"},  {KPCA_FMT_ESL, KPCA_HEADER_YES, "none"},
        {KPCA_FMT_AUTO, KPCA_HEADER_AUTO, NULL},
    };
    const char *path = fuzz_file(data, size, ".csv");
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        kpca_read_opts opts = {runs[r].fmt, NULL, 0, runs[r].header, runs[r].label, NULL};
        fuzz_read_opts(path, &opts);
    }
    /* unlabelled data given labels from a file (here: itself) */
    kpca_read_opts opts = {KPCA_FMT_CSV, NULL, 0, KPCA_HEADER_NO, "none", path};
    fuzz_read_opts(path, &opts);
    opts.dim = 1;
    fuzz_read_opts(path, &opts);
    return 0;
}

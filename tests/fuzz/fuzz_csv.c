/* fuzz_csv.c - the delimited-text reader (CSV, semicolon, TSV, and
 * whitespace text read with a label option), under the read options of
 * `kpca fit --header H --label L [--labels FILE] [--decimal ,] [--columns
 * LIST] [--drop LIST]`: the header rule, the label column (first, last,
 * none, a number, a header name, the usual names), decimal commas, the
 * columns kept (by name and number, a pandas index left out) and, for data
 * read without labels, the same file as a labels file (one label per
 * line), which is how a one-column file of integers gets read both ways.
 * A UTF-8 byte-order mark comes from the seeds (tests/fuzz/seeds.sh).
 * Every read is made again by blocks of rows (io/rowsrc.h), which must
 * read what the whole read reads.  Each CSV read is also made in 3 parts, in memory
 * and streamed in short stretches, which must read what one part reads:
 * the same status and message, rows, labels and names (else abort); and in
 * parts as kpca-mpi's ranks read it (fuzz_parts_same). */
#include "fuzz_common.h"

#include "lib/io/csv.h"

static void same_as_one_part(const char *path, const kpca_read_opts *o)
{
    static const size_t stretches[] = {KPCA_CSV_IN_MEMORY, 5, 64};
    kpca_dataset one, many;
    kpca_error e1, ek;
    kpca_status s1 = kpca_read_csv_parts(path, 0, o, 1, 0, KPCA_CSV_IN_MEMORY, &one, &e1);
    for (size_t k = 0; k < sizeof stretches / sizeof stretches[0]; k++) {
        kpca_status sk = kpca_read_csv_parts(path, 0, o, 3, 0, stretches[k], &many, &ek);
        if (sk != s1 || (s1 != KPCA_OK && strcmp(e1.msg, ek.msg) != 0))
            abort();
        if (s1 == KPCA_OK && (many.n != one.n || many.dim != one.dim || many.unlabelled != one.unlabelled ||
            many.nnames != one.nnames || memcmp(many.x, one.x, one.n * one.dim * sizeof *one.x) != 0 ||
            memcmp(many.y, one.y, one.n * sizeof *one.y) != 0 || many.label_col != one.label_col ||
            many.index_col != one.index_col || (many.colnames == NULL) != (one.colnames == NULL)))
            abort();
        for (size_t c = 0; s1 == KPCA_OK && one.colnames != NULL && c < one.dim; c++)
            if (strcmp(many.colnames[c], one.colnames[c]) != 0)
                abort();
        for (size_t c = 0; s1 == KPCA_OK && c < one.nnames; c++)
            if (strcmp(many.names[c], one.names[c]) != 0)
                abort();
        fuzz_check_read(sk, &many, &ek); /* and frees it */
    }
    if (s1 == KPCA_OK)
        kpca_dataset_free(&one);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const struct {
        kpca_format fmt;
        kpca_header header;
        const char *label, *columns, *drop;
        char decimal;
    } runs[] = {
        {KPCA_FMT_CSV, KPCA_HEADER_AUTO, NULL, NULL, NULL, 0},
        {KPCA_FMT_CSV, KPCA_HEADER_YES, "last", NULL, NULL, 0},
        {KPCA_FMT_CSV, KPCA_HEADER_NO, "first", NULL, NULL, 0},
        {KPCA_FMT_CSV, KPCA_HEADER_AUTO, "none", NULL, NULL, 0},
        {KPCA_FMT_CSV, KPCA_HEADER_YES, "species", NULL, NULL, 0},
        {KPCA_FMT_CSV, KPCA_HEADER_NO, "2", NULL, NULL, 0},
        {KPCA_FMT_CSV, KPCA_HEADER_AUTO, NULL, NULL, NULL, ','},
        {KPCA_FMT_CSV, KPCA_HEADER_AUTO, "first", NULL, "2", ','},
        {KPCA_FMT_CSV, KPCA_HEADER_AUTO, NULL, "b,1", NULL, 0},
        {KPCA_FMT_CSV, KPCA_HEADER_YES, NULL, NULL, "a,3", 0},
        {KPCA_FMT_ESL, KPCA_HEADER_AUTO, "first", NULL, NULL, 0},
        {KPCA_FMT_ESL, KPCA_HEADER_YES, "none", NULL, NULL, 0},
        {KPCA_FMT_AUTO, KPCA_HEADER_AUTO, NULL, NULL, NULL, 0},
        {KPCA_FMT_AUTO, KPCA_HEADER_AUTO, NULL, NULL, NULL, ','},
    };
    const char *path = fuzz_file(data, size, ".csv");
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        kpca_read_opts opts = {.format = runs[r].fmt, .header = runs[r].header, .label = runs[r].label,
                               .columns = runs[r].columns, .drop = runs[r].drop, .decimal = runs[r].decimal};
        fuzz_read_opts(path, &opts);
        if (runs[r].fmt == KPCA_FMT_CSV)
            same_as_one_part(path, &opts);
        fuzz_rowsrc_same(path, &opts);
        fuzz_parts_same(path, &opts);
    }
    /* unlabelled data given labels from a file (here: itself) */
    kpca_read_opts opts = {.format = KPCA_FMT_CSV, .header = KPCA_HEADER_NO, .label = "none", .labels = path};
    fuzz_read_opts(path, &opts);
    opts.dim = 1;
    fuzz_read_opts(path, &opts);
    return 0;
}

/* partial.h - the partial files of fit --partial and merge (partial.c). */
#ifndef KPCA_CLI_PARTIAL_H
#define KPCA_CLI_PARTIAL_H

#include "lib/kpca.h"
#include "rows.h"

/* A partial file (partial.c; docs/file-formats.md, "Partial file"): the
 * accumulator of a range of a Nyström fit's rows with everything kpca
 * merge needs to check that the partials belong together (the kernel, the
 * landmarks and basis themselves, the fit rows and how they were drawn, the
 * input options and the standardisation) and to make the sign pass over
 * DATA. */
#define CLI_PARTIAL_FORMAT "kpca-partial"
#define CLI_PARTIAL_VERSION 1
#define CLI_PARTIAL_NOPTS 9 /* the input options kept as text (the last, skip_rows, absent
                             * from a file written before --skip-rows: "") */
#define CLI_PARTIAL_OPT_MAX 512
extern const char *const cli_partial_opts[CLI_PARTIAL_NOPTS];
typedef struct {
    kpca_nys_setup setup; /* kernel, fit rows n, l, dim, method, seed, landmarks x and labels y, basis */
    double tol;           /* the fit's eigenvalue tolerance (resolved) */
    size_t want;          /* components asked for */
    size_t lo, hi;        /* this file's fit rows [lo, hi) */
    char data[KPCA_SOURCE_MAX]; /* DATA as the user named it */
    size_t nall;          /* DATA's rows */
    cli_draw draw;        /* how the fit rows were drawn from them (cli_draw_rows) */
    long seed;            /* with this seed */
    char subset[KPCA_SOURCE_MAX]; /* the model's text of it */
    double *std_mean, *std_scale; /* --standardize's (dim each, owned; NULL: none) */
    char opts[CLI_PARTIAL_NOPTS][CLI_PARTIAL_OPT_MAX]; /* --format, --header, --label, --labels, --columns,
                                                         * --drop, --decimal, --input-range, --skip-rows as
                                                         * given ("": none) */
    long round;           /* --round (-1: none) */
    double smooth;        /* --smooth (0: none) */
    double *acc;          /* the packed accumulator (kpca_nys_acc_pack; owned) */
} cli_partial;
/* Writes pt to path (sealed, all or nothing).  0 or the exit code. */
int cli_partial_write(const char *path, const cli_partial *pt);
/* Reads path into *pt, its arrays (landmarks, basis, accumulator,
 * standardisation) only when
 * `arrays`; checks the format, version, sizes and finite values.  0 or the
 * exit code (reported; *pt then empty). */
int cli_partial_read(const char *path, int arrays, cli_partial *pt);
void cli_partial_free(cli_partial *pt);

#endif

/* rows.h - a data file read a block of rows at a time with the input
 * options, and which of its rows are the fit rows (rows.c). */
#ifndef KPCA_CLI_ROWS_H
#define KPCA_CLI_ROWS_H

#include <stddef.h>

#include "input.h"
#include "lib/kpca.h"

/* A data file read a block of rows at a time (rows.c), for the streamed
 * Nyström fit: the row source (io/rowsrc.h) with the input options applied
 * to each block as cli_read_input applies them to a whole file (then
 * std_mean, std_scale when set: kpca_standardize), through
 * `feed` (core/nystream.h), which hands out the fit rows: the file's rows
 * idx[0..m) (ascending; all of them when idx is NULL).  The rows are also
 * checked against `kernel`'s rule for its data (chi2: non-negative), when
 * set, the message naming the row in the file.  Errors of a read name the
 * file as the user gave it.  Memory: the source's window and the caller's
 * block; nothing grows with the rows. */
typedef struct {
    kpca_rowsrc *src;
    const char *spec;
    const cli_input *in;
    double lo, hi;             /* --input-range */
    size_t side;               /* --smooth: the images' side (0: none) */
    const double *std_mean, *std_scale; /* a standardisation after the options (borrowed; NULL: none) */
    const kpca_kernel *kernel; /* borrowed; NULL: no check */
    const size_t *idx;         /* borrowed; NULL: all rows */
    size_t n;                  /* the file's rows (cli_rows_count) */
    size_t m;                  /* the fit rows */
    size_t at;                 /* the next fit row */
    kpca_rowfeed feed;
} cli_rows;
/* Opens spec with the input options of in (borrowed while r is open).  0,
 * or the exit code once reported (*r then holds nothing). */
int cli_rows_open(const char *spec, const cli_input *in, cli_rows *r);
/* cli_rows_open with src, a source of spec opened with in's read options
 * (taken over: closed on failure). */
int cli_rows_adopt(const char *spec, const cli_input *in, kpca_rowsrc *src, cli_rows *r);
/* The file's row count into *n (one pass over a text file), and
 * cli_read_input's summary line of it.  0 or the exit code (reported). */
int cli_rows_count(cli_rows *r, size_t *n);
/* The fit rows: idx[0..m) of the file's (ascending, borrowed; NULL: the
 * first m). */
void cli_rows_select(cli_rows *r, const size_t *idx, size_t m);
void cli_rows_close(cli_rows *r);
/* How fit's rows are drawn from a file's n rows (--subset, --sample):
 * FIRST the first m (all of them when m = n), RANDOM kpca_subset_indices,
 * STRATIFIED kpca_subset_stratified on the labels. */
typedef enum { CLI_DRAW_FIRST = 0, CLI_DRAW_RANDOM, CLI_DRAW_STRATIFIED } cli_draw;
/* The m fit rows of n (ascending, new: free them) as `draw` says with seed
 * (labels y: STRATIFIED only), the classes seen into *nclasses (may be
 * NULL).  0 or the exit code (reported). */
int cli_draw_rows(size_t n, const int *y, size_t m, cli_draw draw, long seed, size_t **idx, size_t *nclasses);
/* "first", "random", "stratified"; cli_draw_parse: 0, or -1 for other names. */
const char *cli_draw_name(cli_draw d);
int cli_draw_parse(const char *name, cli_draw *out);
/* The ranks of kpca-mpi on more than one rank, reading one file together
 * (io/rowsrc.h: kpca_rowsrc_open_shared; src/mpi/): the Nyström fit's and
 * transform's DATA, a text file cut into one part a rank; NULL otherwise. */
extern const kpca_rowsrc_share *cli_rowsrc_share;
/* Opens DATA's row source: with cli_rowsrc_share, collectively, a text
 * file cut into one part a rank (kpca_rowsrc_open_shared, counted on
 * return); else kpca_rowsrc_open. */
kpca_status cli_rowsrc_open(const char *spec, const kpca_read_opts *ro, kpca_rowsrc **src, kpca_error *err);

#endif

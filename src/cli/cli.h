/* cli.h - helpers shared by the subcommands: messages, exit codes, inputs. */
#ifndef KPCA_CLI_H
#define KPCA_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "lib/kpca.h"
#include "lib/file/atomic.h"
#include "lib/file/clobber.h"
#include "lib/io/rowsrc.h"
#include "lib/support/blas.h"
#include "lib/support/clock.h"
#include "opt.h"

extern int cli_quiet; /* -q: no informational messages */

/* The distributed build (kpca-mpi, src/mpi/) runs the commands on every MPI
 * rank.  cli_rank is this process's rank (0 in the plain kpca): only rank 0
 * prints and writes outputs; the others keep their last error message in
 * cli_last_error, which rank 0 reports for them.  cli_transform_out is how
 * transform splits its rows and writes them (one process, or each rank its
 * own run of rows: cli_transform_io below). */
extern int cli_rank;
extern char cli_last_error[KPCA_ERRMSG_MAX];
/* The command line's entry point (main.c): the program's main() calls it. */
int cli_main(int argc, char **argv);

/* "error: ..." on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "warning: ..." on stderr. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "note: ..." on stderr, -q or not: a choice made for the user that
 * changes the results (eval's backend when the default does not fit). */
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "kpca CMD: ..." on stderr unless -q. */
void cli_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The command being run (set by cli_parse). */
extern const cli_command *cli_current;
/* "error: ..." and the --help hint on stderr; returns KPCA_EUSAGE. */
int cli_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "see 'kpca CMD --help'" on stderr. */
void cli_hint(const cli_command *cmd);
/* Reports a library error and returns its status as the exit code. */
int cli_fail(const kpca_error *err);
/* The command's positional arguments, recorded by cli_parse: every
 * command's positional arguments are the files it reads (DATA, MODEL,
 * TRAIN, TEST). */
extern const char *const *cli_inputs;
extern size_t cli_ninputs;
/* Reports err, the failure to read the input `path`, in the user's terms
 * when path is one of the command's positional arguments and holds another
 * kind of file than that argument takes (io/sniff.h): "argument 1 of
 * transform is a MODEL (written by kpca fit); 'zip.test.gz' holds ESL text
 * data (gzip, 2007 x 256)", naming another argument that is the same file or
 * is the model (swapped arguments); KPCA_EFORMAT then.  Otherwise, and
 * always for KPCA_EIO and KPCA_ENOMEM, cli_fail(err).  Sniffing reads the
 * file: an error path only. */
int cli_fail_input(const kpca_error *err, const char *path);
/* The index of path among the command's positional arguments (the same
 * pointer first, else the same string) and what that argument should be
 * (*name "MODEL", "DATA"...; *what its description); -1 when path is none
 * of them or its role is not known. */
int cli_arg_role(const char *path, const char **name, const char **what);

/* Streams (spool.c).  At the start of every command (cli_begin), each
 * positional argument and the --labels FILE whose file is "-" (standard
 * input) or not a regular file (a pipe such as <(cmd), a FIFO, a
 * character device) is read once, whole, into a spool on disk
 * (lib/file/source.h: an unlinked file in $TMPDIR, reached as
 * /proc/self/fd/N), and the argument is replaced by the spool's path (with
 * its :GROUP): every later open (the readers, sniffing, the clobber checks,
 * the model loader) opens the spool, never the stream again.  "-:GROUP" is
 * HDF5 on standard input.  Refused (KPCA_EUSAGE): '-' twice; a stream in
 * kpca-mpi with more than one rank (cli_ranks), where every rank reads the
 * inputs.  A stream named twice (one FIFO, - and /dev/stdin) is read once.
 * The spool's own errors (TMPDIR) are reported.  0 or the exit code. */
int cli_spool_inputs(const cli_command *cmd, char **pos, int npos);
/* The number of processes that run the command (kpca-mpi's ranks; 1). */
extern int cli_ranks;
/* The name the user gave an input that was spooled ("<stdin>" for "-",
 * "/dev/fd/63", with its ":GROUP"), for the records a command writes
 * (a model's source, a feature file's provenance); any other path as it
 * is.  Messages need not call it: cli_error, cli_warn, cli_info and
 * cli_usage write every spool's path as its name (cli_unspool). */
const char *cli_arg_name(const char *path);
/* text with every spool's path replaced by the name the user gave it, into
 * out (cap bytes, truncated); returns the length the whole needs. */
size_t cli_unspool(const char *text, char *out, size_t cap);
/* 1 when an input was spooled (messages are then rewritten). */
int cli_spooled(void);
/* Closes every spool (at the end of the command). */
void cli_spool_close_all(void);

/* Input options shared by fit and transform. */
typedef struct {
    const char *format; /* NULL: auto */
    const char *range;  /* "LO,HI" mapped onto [-1,1]; NULL: none */
    long round;         /* decimals after rescaling; -1: none */
    double smooth;      /* Gaussian blur sigma in pixels of the square images; 0: none */
    const char *header; /* --header yes|no|auto; NULL: auto */
    const char *label;  /* --label COL; NULL: the default column */
    const char *labels; /* --labels FILE; NULL: none */
    const char *const *select; /* the value columns to read by header name, in
                                * this order (a model's fit columns: kpca_read_opts
                                * select); NULL: none */
    size_t nselect;
    const char *columns; /* --columns LIST; NULL: all */
    const char *drop;    /* --drop LIST; NULL: none */
    const char *decimal; /* --decimal MARK; NULL: '.' */
} cli_input;

/* The read options of the input options in (format, header, labels,
 * columns, decimal mark) into *ro, and --input-range's LO,HI into *lo,
 * *hi (0, 0 without it).  0, or KPCA_EUSAGE once reported. */
int cli_read_opts(const cli_input *in, kpca_read_opts *ro, double *lo, double *hi);
/* The summary line of a text data set read (CSV, ESL; others: nothing),
 * with its label column's number of classes (SIZE_MAX: not known, left
 * out) and the note of a value column that looks like the labels, which it
 * looks for in x (xrows rows of ds->dim values). */
void cli_read_summary(const char *spec, const cli_input *in, const kpca_dataset *ds, const double *x, size_t xrows,
                      size_t classes);
/* Reads a data set and applies the input options; 0 or an exit code.  A
 * LIBSVM file narrower than pad_dim is first widened with zeros.  file (may
 * be NULL) receives what a kpca feature file says of itself. */
int cli_read_input(const char *spec, const cli_input *in, size_t pad_dim, kpca_dataset *ds, kpca_featinfo *file);
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
/* The processes of kpca-mpi's Nyström fit (src/mpi/: every rank reads its
 * own rows); NULL in the plain kpca. */
extern const kpca_nys_comm *cli_nys_comm;
/* The ranks of kpca-mpi on more than one rank, reading one file together
 * (io/rowsrc.h: kpca_rowsrc_open_shared; src/mpi/): the Nyström fit's and
 * transform's DATA, a text file cut into one part a rank; NULL otherwise. */
extern const kpca_rowsrc_share *cli_rowsrc_share;
/* Opens DATA's row source: with cli_rowsrc_share, collectively, a text
 * file cut into one part a rank (kpca_rowsrc_open_shared, counted on
 * return); else kpca_rowsrc_open. */
kpca_status cli_rowsrc_open(const char *spec, const kpca_read_opts *ro, kpca_rowsrc **src, kpca_error *err);

/* The streamed Nyström fit of kpca fit (fit_rows.c): DATA read a block at
 * a time through cli_rows, the fit rows drawn by index.  The steps, in
 * order: open (DATA and its row count; in borrowed), labels (every row's,
 * for a stratified draw: one pass, n ints), select (the fit rows: idx
 * taken over, m of them, checked against kernel's data rule as they are
 * read), stats (a pass over the fit rows, each process its own with
 * cli_nys_comm: every column's mean, population sd, range; with
 * `standardize` the standardisation of kpca_standardize_fit, which the
 * rows get from then on, and rbf's default sigma of the rows as the fit
 * sees them), then run or partial, and close.  Each returns 0 or the exit
 * code once reported. */
typedef struct {
    cli_rows rows;
    size_t *idx;          /* the fit rows among DATA's (owned) */
    size_t nall, m;       /* DATA's rows, the fit rows */
    int unlabelled;       /* DATA has no labels */
    const char *data;     /* DATA as given (a spool's path for a stream) */
    char **colnames;      /* the value columns' names (owned; NULL: none) */
    double *mean, *sd, *lo, *hi; /* the fit rows' column statistics (dim each, one block, owned) */
    unsigned char *flag;  /* standardize: the constant columns (dim, owned) */
    size_t nconst;        /* their number */
    double *std_mean, *std_scale; /* standardize: the standardisation (owned; NULL: none) */
    double sigma;         /* rbf's default sigma of the fit rows */
    int ranged;           /* DATA was cut into parts: comm is cli_nys_comm with this rank's fit rows */
    kpca_nys_comm comm;
} cli_fit_rows;
int cli_fit_rows_open(cli_fit_rows *fr, const char *data, const cli_input *in);
int cli_fit_rows_labels(cli_fit_rows *fr, int **y);
/* The fit rows idx[0..m) (ascending, distinct; owned by fr from then on);
 * the first m rows keep no index (idx is freed): nothing a row. */
void cli_fit_rows_select(cli_fit_rows *fr, size_t *idx, size_t m, const kpca_kernel *kernel);
int cli_fit_rows_stats(cli_fit_rows *fr, int standardize, const kpca_nys_comm *comm);
/* The fit on the rows (kpca_nystrom_fit_rows; kpca-mpi: each rank its
 * rows, through cli_nys_comm): *model and *info as kpca_model_fit leaves
 * them. */
int cli_fit_rows_run(cli_fit_rows *fr, const kpca_fit_params *p, kpca_model *model, kpca_fit_info *info);
/* kpca fit --partial: the accumulator of the fit rows `range` ("A:B",
 * 0-based from A up to B, either end left out for the first or the last
 * row; or "I/P": part I of P equal parts, from 0; NULL: all) written to
 * the partial file `output` (cli_partial_write) with the landmarks and
 * basis of the whole fit and how its rows were drawn (subset: the model's
 * text of it; draw and seed). */
int cli_fit_rows_partial(cli_fit_rows *fr, const kpca_fit_params *p, const char *range, const cli_input *in,
                         const char *subset, cli_draw draw, long seed, const char *output);
void cli_fit_rows_close(cli_fit_rows *fr);

/* A partial file (partial.c; docs/file-formats.md, "Partial file"): the
 * accumulator of a range of a Nyström fit's rows with everything kpca
 * merge needs to check that the partials belong together (the kernel, the
 * landmarks and basis themselves, the fit rows and how they were drawn, the
 * input options and the standardisation) and to make the sign pass over
 * DATA. */
#define CLI_PARTIAL_FORMAT "kpca-partial"
#define CLI_PARTIAL_VERSION 1
#define CLI_PARTIAL_NOPTS 8 /* the input options kept as text */
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
                                                         * --drop, --decimal, --input-range as given ("": none) */
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

/* input.c: 0 when the input steps of `in` apply to rows of dim values (--smooth
 * needs square images); else KPCA_EUSAGE, reported, naming spec. */
int cli_input_check(const char *spec, const cli_input *in, size_t dim);
/* The input steps of `in`, in place on n rows x of dim values, row by row
 * (so a block at a time gives the same values): --input-range's map from
 * [lo, hi] onto [-1, 1], --round, --smooth (cli_input_check first).
 * Errors: the smoothing's (KPCA_ENOMEM). */
kpca_status cli_input_steps(const cli_input *in, double lo, double hi, double *x, size_t n, size_t dim,
                            kpca_error *err);

/* 1 when data of dim columns with these per-column ranges [lo[j], hi[j]]
 * look like images: dim a square of side >= 4 (16 values or more), and the
 * columns sharing one value range: at least half of them span at least
 * half of the overall range min lo .. max hi (pixels of one scale, such as
 * USPS's [-1, 1] or 0..255; tabular data, whose columns each have their own
 * range and unit, does not pass).  0 otherwise. */
int cli_image_like(size_t dim, const double *lo, const double *hi);
/* What is said of a data set read a block at a time, from statistics of a
 * size independent of its rows (kpca-mpi reduces them over the ranks).
 * cli_stats_raw takes rows as the file holds them (fdim values; their
 * labels, or NULL) starting at row `first` of the file: the first
 * KPCA_ESL_DECIDE_ROWS rows' first and last value (for the note of a
 * column that looks like labels) and the distinct labels (up to
 * CLI_LABELS_MAX); cli_stats_values takes the rows as the model sees them
 * (dim values, after the input steps): each column's smallest and largest
 * value. */
#define CLI_LABELS_MAX (1 << 16)
typedef struct {
    size_t fdim, dim;  /* values per row in the file, and as the model sees them */
    size_t n, rows;    /* the data's rows; of them, given to cli_stats_values */
    double *lo, *hi;   /* dim each */
    size_t nhead;      /* min(n, KPCA_ESL_DECIDE_ROWS) */
    size_t hcols;      /* 2, or 1 when fdim is 1 */
    double *head;      /* nhead x hcols: row r's first and last value (0 until seen) */
    int *labels;       /* the distinct labels seen, ascending */
    size_t nlabels;
    int labels_over;   /* 1: more than CLI_LABELS_MAX */
    /* with a model that has input points (cli_warn_range; else NULL): */
    double *mlo, *mhi; /* the model points' range per column, in DATA's units */
    int image;         /* the model points look like images (cli_image_like) */
    double flo, fhi;   /* the fit data's overall range, in DATA's units */
    unsigned long long *out; /* per column: values outside [mlo, mhi] by more than half its width */
} cli_data_stats;
/* model (may be NULL): the model DATA is checked against (cli_warn_range);
 * n: DATA's rows. */
kpca_status cli_stats_init(cli_data_stats *s, size_t fdim, size_t dim, size_t n, const kpca_model *model,
                           kpca_error *err);
void cli_stats_raw(cli_data_stats *s, size_t first, const double *x, const int *y, size_t rows);
void cli_stats_values(cli_data_stats *s, const double *x, size_t rows);
/* adds n distinct labels v (another process's), over: that it saw more */
void cli_stats_merge_labels(cli_data_stats *s, const int *v, size_t n, int over);
void cli_stats_free(cli_data_stats *s);
/* For text data (CSV, ESL): "read 'SPEC': N rows x D values, labels from
 * ..." (unless -q), and a note when unlabelled data has a value column that
 * looks like class labels; ds describes the data (its format, labels and
 * columns; its rows are not looked at). */
void cli_say_read(const char *spec, const cli_input *in, const kpca_dataset *ds, const cli_data_stats *s);
/* Checks that DATA (ds: its dim; rows not looked at) has MODEL's dimension
 * (else reports it and returns KPCA_EFORMAT; a precomputed kernel's: the
 * width of its kernel matrix; a file of the model's features is named as
 * such). */
int cli_check_model_dims(const kpca_model *model, const char *model_path, const kpca_dataset *ds,
                         const char *data_path);
/* modeldata.c: "'NAME'" of column j (0-based) when names has one, else
 * "column J" (1-based), into buf; returns buf. */
#define CLI_COLUMN_MAX 96
const char *cli_column_name(char *const *names, size_t j, char buf[CLI_COLUMN_MAX]);
/* Checks that DATA (as read: after --input-range, --round and the
 * smoothing, before the standardisation) fits MODEL: the same dimension,
 * and the same column names where both have them (else reports it and
 * returns KPCA_EFORMAT; a precomputed kernel's: the width of its kernel
 * matrix; cli_check_names), values the kernel takes (chi2: non-negative;
 * KPCA_EFORMAT); then cli_warn_range (not for a precomputed kernel, which
 * has no points). */
int cli_check_model_data(const kpca_model *model, const char *model_path, const kpca_dataset *ds,
                         const char *data_path);
/* DATA's value column names against the model's where both have them (the
 * same dimension): KPCA_EFORMAT (reported) for a difference, else 0. */
int cli_check_names(const kpca_model *model, const char *model_path, const kpca_dataset *ds, const char *data_path);
/* Warns of DATA's values outside the fit data's range by a margin that
 * matters (modeldata.c), the model's ranges taken back to DATA's units when
 * it standardises:
 *  - data that looks like images (cli_image_like of the model points'
 *    column ranges): when DATA's smallest or largest value lies more than a
 *    quarter of the fit range's width from the fit's (input_lo, input_hi),
 *    a warning that advises --input-range (a standardised model: no advice);
 *  - other data: when a value of column j lies outside the fit points'
 *    range [lo_j, hi_j] of that column by more than half its width
 *    (hi_j - lo_j; for a column constant at fit, any other value), a
 *    warning that names how many values and columns and the first such
 *    column, with no advice of --input-range.  The model points are the
 *    fit points for the kernel centring; for Nystrom and reduced models
 *    every column's range is the fit data's overall one (input_lo,
 *    input_hi).
 * An ordinary random train/test split stays inside those margins.  DATA is
 * seen through its statistics s (cli_stats_init with the model: the
 * model's side then, once; cli_stats_values: each column's range and its
 * values outside the margin, as the rows pass); colnames: DATA's column
 * names (NULL: the model's).  Nothing for a model without input points or
 * statistics without them (no memory). */
void cli_warn_range(const kpca_model *model, const cli_data_stats *s, char *const *colnames, const char *data_path);
/* Loads MODEL and reads DATA for it (cli_read_input, then
 * cli_check_model_data), smoothed as the model's fit data was (its `smooth`)
 * and, when the model has column names, its value columns selected by
 * those names (a text file with a header; other files by position): a
 * --smooth in `in` that differs from it is refused (KPCA_EUSAGE, both
 * values named), and so are --input-range and --round for a precomputed
 * kernel's model.  DATA is not standardised (cli_standardize).  0, or an
 * exit code (reported) with neither left allocated. */
int cli_load_model_data(const char *model_path, const char *data_path, const cli_input *in, kpca_model *model,
                        kpca_dataset *ds);
/* Loads MODEL for inputs read with `in`: the first half of
 * cli_load_model_data (its --smooth, --input-range and --round checks).
 * 0, or an exit code (reported) with nothing left allocated. */
int cli_load_model(const char *model_path, const cli_input *in, kpca_model *model);

/* datarows.c: DATA for MODEL read a block of rows at a time (transform):
 * cli_model_rows_open opens it as a row source with the options of `in`
 * and the model's smoothing, counts its rows (n; text: one pass, which
 * finds a bad row anywhere before any is projected) and checks its
 * dimension (cli_check_model_dims; a LIBSVM file narrower than the model is
 * widened); 0 or an exit code (reported), *mr then closed.
 * cli_model_rows_read reads the next rows from the position (kpca_rowsrc_seek
 * on mr->src moves it), at most max, into x (max x mr->dim) and y (labels;
 * may be NULL), applies the input steps and the kernel's check (chi2's
 * non-negative values, rows named from the file's start) and adds them to
 * mr->stats; *got 0 at the end; errors: the reader's, the check's
 * (KPCA_EFORMAT), KPCA_ENOMEM.  cli_model_rows_say says what
 * cli_load_model_data would have said of the data (cli_say_read,
 * cli_warn_range) from mr->stats.  Memory: the source's window, the
 * statistics, and for widened rows one block of the file's rows. */
typedef struct {
    kpca_rowsrc *src;
    const kpca_dataset *info; /* the source's description (kpca_rowsrc_info) */
    const kpca_model *model;
    const char *model_path, *data_path;
    cli_input in;             /* as fitted: the model's smoothing */
    double lo, hi;            /* --input-range */
    size_t n, fdim, dim;      /* rows; values per row in the file and for the model */
    double *raw;              /* a block of narrower rows (LIBSVM) */
    size_t raw_rows;
    cli_data_stats stats;
} cli_model_rows;
int cli_model_rows_open(const char *model_path, const char *data_path, const cli_input *in, const kpca_model *model,
                        cli_model_rows *mr);
kpca_status cli_model_rows_read(cli_model_rows *mr, size_t max, double *x, int *y, size_t *got, kpca_error *err);
void cli_model_rows_say(const cli_model_rows *mr);
void cli_model_rows_close(cli_model_rows *mr);

/* How transform splits its n rows and writes them (cmd_transform.c: one
 * process; kpca-mpi: each rank its own run of rows into the one file,
 * src/mpi/dist_out.c).  Every process calls open, then (when open
 * succeeded) agree, and then reduce when the agreed status is KPCA_OK,
 * then close: each is collective.
 *   rows   this process's rows [*first, *first + *count) of n (read from
 *          src), a run that starts at a multiple of KPCA_TRANSFORM_BLOCK
 *          (core/project.h)
 *   open   kpca_features_open's contract for this process's rows
 *   agree  the status of every process: st where all are KPCA_OK, else the
 *          first failure's, its message in err
 *   reduce the data's statistics over every process (into each's)
 *   close  with st KPCA_OK, commits the file (collectively), else removes
 *          it; frees w; the outcome on every process */
typedef struct {
    void (*rows)(size_t n, const kpca_rowsrc *src, size_t *first, size_t *count);
    kpca_status (*open)(const char *path, kpca_format fmt, size_t n, size_t k, int labelled,
                        const kpca_features_meta *meta, size_t first, size_t count, kpca_features_writer **w,
                        kpca_error *err);
    kpca_status (*agree)(kpca_status st, kpca_error *err);
    void (*reduce)(cli_data_stats *s);
    kpca_status (*close)(kpca_features_writer *w, kpca_status st, kpca_error *err);
} cli_transform_io;
extern const cli_transform_io *cli_transform_out;

/* Standardises the n rows x (the model's dim values each) as the model's
 * fit data was (kpca_standardize with its std_mean, std_scale); nothing for
 * a model without them. */
void cli_standardize(const kpca_model *model, double *x, size_t n);

/* prologue.c */
/* The options most commands share, as the command's own option table
 * stores them: NULL for one the command does not have. */
typedef struct {
    const int *quiet;                /* -q */
    const int *verbose;              /* -v: also starts the progress meter */
    const char *const *memory_limit; /* --memory-limit */
} cli_common;

/* The prologue of every command: parses argv with cmd's table (cli_parse,
 * positional arguments into pos, their count into *npos), then applies the
 * shared options that common points to: the memory budget, -q (cli_quiet)
 * and the progress meter.  0 to go on; -1 when --help was printed (exit 0);
 * else the exit code, the error already reported. */
int cli_begin(const cli_command *cmd, int argc, char **argv, char **pos, int *npos, cli_common common);

/* Sets the memory budget from a --memory-limit value (NULL: MemAvailable in
 * /proc/meminfo, or none where it cannot be read).  0 or KPCA_EUSAGE. */
int cli_set_memory_limit(const char *s);
/* Before the work, for each output path that is not NULL: refuses one that
 * is the same file as an input (kpca_output_check, through links too), after
 * refusing an input that is a directory (kpca_input_check); then checks that
 * it can be written (kpca_atomic_check), so that a long fit does not end in
 * "cannot create".  0, or the exit code once the error is printed. */
int cli_check_outputs(const char *a, const char *b, const char *c, const char *d);

/* The kpca(1) man page (roff) from the command tables. */
void cli_print_man(FILE *fp, const cli_command *const *cmds, size_t n);

/* The progress meter (on a terminal, unless quiet) and, when verbose, a
 * timing line per phase at the end; see progress.c.  Commands report their
 * own phases ("read", "write") with kpca_progress(). */
void cli_progress_begin(const char *cmd, int quiet, int verbose);
void cli_progress_end(void);
/* Erases the meter's line (before any other message on stderr). */
void cli_progress_clear(void);

/* Tables (table.c): CSV, Markdown and JSON with one column list. */
typedef enum { CLI_TABLE_CSV, CLI_TABLE_MARKDOWN, CLI_TABLE_JSON } cli_table_format;
#define CLI_CELL 40
#define CLI_TABLE_MAX_COLS 16
/* Fills cell[0..ncols-1] with row `row` as text ("" for a missing value). */
typedef void (*cli_row_cells)(size_t row, char (*cell)[CLI_CELL], void *ctx);
/* Writes the table into each of the paths that is not NULL ("-": stdout),
 * atomically and all or none: every file is opened before any is written
 * and committed only when all are complete.  0 or an exit code. */
int cli_table_write_all(const char *csv, const char *markdown, const char *json, const char *const *cols,
                        size_t ncols, size_t nrows, cli_row_cells cells, void *ctx);

/* The format of an output file: from --output-format NAME (hdf5, libsvm or
 * csv) when given, else from the file name's suffix (kpca_format_from_name;
 * LIBSVM for "-" and an existing device, FIFO or directory); a name of no
 * known suffix is refused.  0 or KPCA_EUSAGE (reported). */
int cli_output_format(const char *path, const char *name, kpca_format *out);
/* "a, b, c" of the first class names (", ..." after 12) into buf,
 * truncated to size. */
void cli_names_list(char *const *names, size_t n, char *buf, size_t size);
/* Warns when a data set with class names is written as LIBSVM, whose
 * labels are numbers: the codes are written, and the warning says which
 * name each stands for. */
void cli_warn_names_dropped(const kpca_dataset *ds, kpca_format fmt);
/* v as the shortest of %.15g, %.16g and %.17g that reads back as v, in buf;
 * returns buf. */
#define CLI_NUMBER_MAX 32
const char *cli_number(double v, char buf[CLI_NUMBER_MAX]);

int cmd_fit(int argc, char **argv);
int cmd_transform(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_spectrum(int argc, char **argv);
int cmd_denoise(int argc, char **argv);
int cmd_reduce(int argc, char **argv);
int cmd_cluster(int argc, char **argv);

extern const cli_command cli_fit_command;
extern const cli_command cli_transform_command;
extern const cli_command cli_eval_command;
extern const cli_command cli_info_command;
extern const cli_command cli_merge_command;
extern const cli_command cli_spectrum_command;
extern const cli_command cli_denoise_command;
extern const cli_command cli_reduce_command;
extern const cli_command cli_cluster_command;

#endif

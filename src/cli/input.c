/* input.c - reading a command's data files: the read options from the
 * command line, the input steps (--input-range, --round, --smooth), and
 * the summary of what was read, from the rows themselves or from statistics
 * that a few numbers per column hold (a stream's, cli_data_stats), and
 * whether data look like images (cli_image_like) (input.h);
 * rows.c and datarows.c read them a block at a time. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "input.h"
#include "cli.h"
#include "lib/io/labels.h"
#include "lib/io/read.h"
#include "opt.h"

/* What was read from a text file, where the labels came from and a column
 * left out, on one line (unless -q); a note when unlabelled data has a
 * column that looks like class labels.  n rows of fdim values in the file;
 * head: its first nhead rows (at most KPCA_ESL_DECIDE_ROWS looked at),
 * hcols values each: all fdim, or 2, the first and the last (the only
 * columns kpca_labels_class_like looks at); classes: " (N classes)" or "". */
static void say_read(const char *spec, const cli_input *in, const kpca_dataset *ds, size_t n, size_t fdim,
                     const double *head, size_t nhead, size_t hcols, const char *classes)
{
    if (ds->format != KPCA_FMT_CSV && ds->format != KPCA_FMT_ESL)
        return;
    char labels[160], index[160] = "";
    if (ds->label_col != 0)
        snprintf(labels, sizeof labels, "labels from column %zu%s%s%s%s", ds->label_col,
                 ds->label_name != NULL ? " '" : "", ds->label_name != NULL ? ds->label_name : "",
                 ds->label_name != NULL ? "'" : "", classes);
    else if (!ds->unlabelled)
        snprintf(labels, sizeof labels, "labels from '%s'%s", in->labels != NULL ? in->labels : "--labels",
                 ds->labels_indexed ? " (the second field of 'index,label' lines)" : "");
    else
        snprintf(labels, sizeof labels, "no labels");
    if (ds->index_col != 0)
        snprintf(index, sizeof index, "; column %zu, unnamed and all integers, left out as a row index (pandas' index, R's row names)",
                 ds->index_col);
    cli_info("read '%s': %zu rows x %zu values, %s%s", spec, n, fdim, labels, index);
    size_t h, distinct;
    if (ds->unlabelled && in->label == NULL && in->labels == NULL && fdim > 0 &&
        (h = kpca_labels_class_like(head, nhead, hcols, &distinct)) < hcols) {
        /* a head of the first and last values: 1 is the last */
        size_t c = hcols == fdim ? h : h == 1 ? fdim - 1 : 0;
        /* the value's column in the file: the value's index, past the left-out index column */
        char name[80] = "";
        if (ds->colnames != NULL && ds->colnames[c][0] != '\0')
            snprintf(name, sizeof name, " ('%.60s')", ds->colnames[c]);
        if (in->columns == NULL && in->drop == NULL)
            cli_info("note: value %zu%s holds %zu distinct integers, like class labels; if it holds the labels, give "
                     "--label %zu, so that it is not used as a value", c + 1, name, distinct,
                     c + 1 + (ds->index_col != 0));
        else
            cli_info("note: value %zu%s holds %zu distinct integers, like class labels; if it holds the labels, name "
                     "its column with --label", c + 1, name, distinct);
    }
}

void cli_read_summary(const char *spec, const cli_input *in, const kpca_dataset *ds, const double *x, size_t xrows,
                      size_t classes)
{
    char cls[48] = "";
    if (classes != (size_t)-1)
        snprintf(cls, sizeof cls, " (%zu classes)", classes);
    say_read(spec, in, ds, ds->n, ds->dim, x, xrows, ds->dim, cls);
}

void cli_say_read(const char *spec, const cli_input *in, const kpca_dataset *ds, const cli_data_stats *s)
{
    char cls[48] = "";
    if (ds->names != NULL)
        snprintf(cls, sizeof cls, " (%zu classes)", ds->nnames);
    else if (s->labels_over)
        snprintf(cls, sizeof cls, " (more than %d classes)", CLI_LABELS_MAX);
    else
        snprintf(cls, sizeof cls, " (%zu classes)", s->n > 0 ? s->nlabels : (size_t)0);
    say_read(spec, in, ds, s->n, s->fdim, s->head, s->nhead, s->hcols, cls);
}

int cli_read_opts(const cli_input *in, kpca_read_opts *ro, double *lo, double *hi)
{
    memset(ro, 0, sizeof *ro);
    ro->format = KPCA_FMT_AUTO;
    *lo = *hi = 0.0;
    if (in->format != NULL && kpca_format_parse(in->format, &ro->format) != 0)
        return cli_usage("option '--format': expected esl, libsvm, csv, npy, hdf5, mat, arff or auto, got '%s'", in->format);
    if (in->header != NULL) {
        if (strcmp(in->header, "yes") == 0)
            ro->header = KPCA_HEADER_YES;
        else if (strcmp(in->header, "no") == 0)
            ro->header = KPCA_HEADER_NO;
        else if (strcmp(in->header, "auto") != 0)
            return cli_usage("option '--header': expected yes, no or auto, got '%s'", in->header);
    }
    ro->label = in->label;
    ro->labels = in->labels;
    ro->select = in->select;
    ro->nselect = in->nselect;
    ro->columns = in->columns;
    ro->drop = in->drop;
    if (in->decimal != NULL) {
        if (strcmp(in->decimal, ",") != 0 && strcmp(in->decimal, ".") != 0)
            return cli_usage("option '--decimal': expected . or , (the decimal mark), got '%s'", in->decimal);
        ro->decimal = in->decimal[0];
    }
    ro->skip_rows = in->skip_rows;
    if (in->range == NULL && in->range_set) {
        *lo = in->range_lo;
        *hi = in->range_hi;
    }
    if (in->range != NULL && cli_parse_range(in->range, lo, hi) != 0)
        return cli_usage("option '--input-range': expected LO,HI with LO < HI, got '%s'", in->range);
    return 0;
}

int cli_input_check(const char *spec, const cli_input *in, size_t dim)
{
    if (in->smooth > 0.0 && kpca_image_side(dim) == 0) {
        cli_error("'%s': option '--smooth' needs square images, but the rows have %zu values", spec, dim);
        return KPCA_EUSAGE;
    }
    return 0;
}

kpca_status cli_input_steps(const cli_input *in, double lo, double hi, double *x, size_t n, size_t dim,
                            kpca_error *err)
{
    kpca_dataset view = {.n = n, .dim = dim, .x = x};
    if (in->range != NULL || in->range_set)
        kpca_dataset_rescale(&view, lo, hi);
    if (in->round >= 0)
        kpca_dataset_round(&view, (int)in->round);
    if (in->smooth > 0.0 && n > 0)
        return kpca_smooth_images(x, n, kpca_image_side(dim), in->smooth, err);
    return KPCA_OK;
}

/* ---- what is said of the data --------------------------------------------- */

int cli_image_like(size_t dim, const double *lo, const double *hi)
{
    if (kpca_image_side(dim) < 4)
        return 0;
    double a = lo[0], b = hi[0];
    for (size_t j = 1; j < dim; j++) {
        a = lo[j] < a ? lo[j] : a;
        b = hi[j] > b ? hi[j] : b;
    }
    if (!(b > a))
        return 0;
    size_t wide = 0;
    for (size_t j = 0; j < dim; j++)
        wide += hi[j] - lo[j] >= 0.5 * (b - a);
    return 2 * wide >= dim;
}

/* the model side of the range warning (cli_warn_range): the model points'
 * range per column in DATA's units, whether they look like images, the fit
 * data's overall range (s->mlo NULL for a model without input points) */
static kpca_status fit_ranges(cli_data_stats *s, const kpca_model *model, kpca_error *err)
{
    const size_t dim = model->dim;
    double *scratch = kpca_alloc_array(dim, 2, sizeof(double));
    s->mlo = kpca_alloc_array(dim, 4, sizeof(double));
    s->out = kpca_calloc(dim, sizeof *s->out);
    if (scratch == NULL || s->mlo == NULL || s->out == NULL) {
        kpca_free(scratch);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory");
    }
    s->mhi = s->mlo + dim;
    s->band_lo = s->mlo + 2 * dim;
    s->band_hi = s->mlo + 3 * dim;
    kpca_column_stats(model->fitx, model->m, dim, scratch, scratch + dim, s->mlo, s->mhi);
    kpca_free(scratch);
    s->image = cli_image_like(dim, s->mlo, s->mhi);
    /* the model points are the fit points for the kernel centring only;
     * landmarks and reduced-set vectors span less: the fit data's overall
     * range then stands for every column's */
    for (size_t j = 0; model->centring != KPCA_CENTRE_KERNEL && j < dim; j++) {
        s->mlo[j] = model->input_lo;
        s->mhi[j] = model->input_hi;
    }
    if (model->std_mean != NULL) /* the model points' ranges in DATA's units */
        for (size_t j = 0; j < dim; j++) {
            s->mlo[j] = s->mlo[j] * model->std_scale[j] + model->std_mean[j];
            s->mhi[j] = s->mhi[j] * model->std_scale[j] + model->std_mean[j];
        }
    s->flo = model->input_lo;
    s->fhi = model->input_hi;
    if (model->std_mean != NULL) { /* input_lo, input_hi are standardised values */
        s->flo = s->mlo[0];
        s->fhi = s->mhi[0];
        for (size_t j = 0; j < dim; j++) {
            s->flo = s->mlo[j] < s->flo ? s->mlo[j] : s->flo;
            s->fhi = s->mhi[j] > s->fhi ? s->mhi[j] : s->fhi;
        }
    }
    for (size_t j = 0; j < dim; j++) {
        /* half the range, as 0.5 hi - 0.5 lo: the same double, and no overflow near DBL_MAX */
        const double margin = 0.5 * s->mhi[j] - 0.5 * s->mlo[j];
        s->band_lo[j] = s->mlo[j] - margin;
        s->band_hi[j] = s->mhi[j] + margin;
    }
    return KPCA_OK;
}

kpca_status cli_stats_init(cli_data_stats *s, size_t fdim, size_t dim, size_t n, const kpca_model *model,
                           kpca_error *err)
{
    memset(s, 0, sizeof *s);
    s->dim = dim;
    s->fdim = fdim;
    s->n = n;
    s->nhead = n < KPCA_ESL_DECIDE_ROWS ? n : KPCA_ESL_DECIDE_ROWS;
    s->hcols = fdim > 1 ? 2 : 1;
    s->lo = kpca_alloc_array(dim ? dim : 1, 4, sizeof(double)); /* lo, hi, a block's lo, hi */
    s->head = kpca_calloc(s->nhead ? s->nhead : 1, s->hcols * sizeof(double));
    s->labels = kpca_alloc_array(CLI_LABELS_MAX, 1, sizeof(int));
    kpca_status st = s->lo == NULL || s->head == NULL || s->labels == NULL
                         ? kpca_fail(err, KPCA_ENOMEM, "out of memory")
                         : KPCA_OK;
    if (st == KPCA_OK && model != NULL && model->fitx != NULL && model->dim == dim && n > 0)
        st = fit_ranges(s, model, err);
    if (st != KPCA_OK) {
        cli_stats_free(s);
        return st;
    }
    s->hi = s->lo + (dim ? dim : 1);
    for (size_t j = 0; j < dim; j++) {
        s->lo[j] = HUGE_VAL;
        s->hi[j] = -HUGE_VAL;
    }
    return KPCA_OK;
}

void cli_stats_free(cli_data_stats *s)
{
    kpca_free(s->lo);
    kpca_free(s->mlo);
    kpca_free(s->out);
    kpca_free(s->head);
    kpca_free(s->labels);
    memset(s, 0, sizeof *s);
}

/* v into the sorted set s->labels (at most CLI_LABELS_MAX; past that,
 * labels_over) */
static void label_add(cli_data_stats *s, int v)
{
    size_t a = 0, b = s->nlabels;
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (s->labels[mid] < v)
            a = mid + 1;
        else
            b = mid;
    }
    if (a < s->nlabels && s->labels[a] == v)
        return;
    if (s->nlabels == CLI_LABELS_MAX) {
        s->labels_over = 1;
        return;
    }
    memmove(s->labels + a + 1, s->labels + a, (s->nlabels - a) * sizeof(int));
    s->labels[a] = v;
    s->nlabels++;
}

void cli_stats_raw(cli_data_stats *s, size_t first, const double *x, const int *y, size_t rows)
{
    for (size_t r = 0; r < rows && first + r < s->nhead; r++) {
        s->head[(first + r) * s->hcols] = x[r * s->fdim];
        if (s->hcols == 2)
            s->head[(first + r) * 2 + 1] = x[r * s->fdim + s->fdim - 1];
    }
    for (size_t r = 0; y != NULL && r < rows && !s->labels_over; r++)
        label_add(s, y[r]);
}

/* a row's values v (dim) into the minima lo and maxima hi: four columns
 * at a time, on arrays that do not overlap, so that the compiler pairs them
 * in vector registers (one pass over the rows at memory speed) */
static void minmax_row(double *restrict lo, double *restrict hi, const double *restrict v, size_t dim)
{
    size_t j = 0;
    for (; j + 4 <= dim; j += 4)
        for (size_t t = j; t < j + 4; t++) {
            lo[t] = v[t] < lo[t] ? v[t] : lo[t];
            hi[t] = v[t] > hi[t] ? v[t] : hi[t];
        }
    for (; j < dim; j++) {
        lo[j] = v[j] < lo[j] ? v[j] : lo[j];
        hi[j] = v[j] > hi[j] ? v[j] : hi[j];
    }
}

void cli_stats_values(cli_data_stats *s, const double *x, size_t rows)
{
    const size_t dim = s->dim;
    double *blo = s->hi + dim, *bhi = blo + dim; /* the block's own ranges */
    for (size_t j = 0; j < dim; j++) {
        blo[j] = HUGE_VAL;
        bhi[j] = -HUGE_VAL;
    }
    for (size_t r = 0; r < rows; r++)
        minmax_row(blo, bhi, x + r * dim, dim);
    for (size_t j = 0; j < dim; j++) {
        s->lo[j] = blo[j] < s->lo[j] ? blo[j] : s->lo[j];
        s->hi[j] = bhi[j] > s->hi[j] ? bhi[j] : s->hi[j];
        /* the values outside the fit range by more than half its width,
         * counted in the columns whose range in this block says there are */
        if (s->mlo == NULL || (blo[j] >= s->band_lo[j] && bhi[j] <= s->band_hi[j]))
            continue;
        unsigned long long c = 0;
        for (size_t r = 0; r < rows; r++)
            c += x[r * dim + j] < s->band_lo[j] || x[r * dim + j] > s->band_hi[j];
        s->out[j] += c;
    }
    s->rows += rows;
}

void cli_stats_merge_labels(cli_data_stats *s, const int *v, size_t n, int over)
{
    for (size_t i = 0; i < n && !s->labels_over; i++)
        label_add(s, v[i]);
    s->labels_over |= over;
}

int cli_read_input(const char *spec, const cli_input *in, size_t pad_dim, kpca_dataset *ds, kpca_featinfo *file)
{
    kpca_error err;
    kpca_read_opts ro;
    double lo, hi;
    int r = cli_read_opts(in, &ro, &lo, &hi);
    if (r != 0)
        return r;
    kpca_progress("read", 0, 1);
    kpca_status rst = kpca_dataset_read_info(spec, &ro, ds, file, &err);
    kpca_progress("read", 1, 1);
    if (rst != KPCA_OK)
        return cli_fail_input(&err, spec);
    cli_read_summary(spec, in, ds, ds->x, ds->n, kpca_dataset_classes(ds));
    /* LIBSVM omits zeros, trailing ones too: widen before any rescaling */
    if (ds->format == KPCA_FMT_LIBSVM && ds->dim < pad_dim && kpca_dataset_pad(ds, pad_dim, &err) != KPCA_OK) {
        kpca_dataset_free(ds);
        return cli_fail(&err);
    }
    if ((r = cli_input_check(spec, in, ds->dim)) == 0 &&
        cli_input_steps(in, lo, hi, ds->x, ds->n, ds->dim, &err) != KPCA_OK)
        r = cli_fail(&err);
    if (r != 0)
        kpca_dataset_free(ds);
    return r;
}

/* ", the same file as argument J" when another positional argument than
 * number at names the same file as path (into buf; "" when none) */
static void same_file(const char *path, int at, char *buf, size_t cap)
{
    struct stat a, b;
    buf[0] = '\0';
    if (stat(path, &a) != 0)
        return;
    for (size_t j = 0; j < cli_ninputs; j++)
        if ((int)j != at && stat(cli_inputs[j], &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
            snprintf(buf, cap, ", the same file as argument %zu", j + 1);
            return;
        }
}

/* "error: argument N of CMD is WHAT; 'PATH' DESCRIPTION" (the file as
 * kpca_file_describe sees it), with a hint when another argument is the
 * MODEL that this one should be (swapped arguments); KPCA_EFORMAT */
static int wrong_kind(int at, const char *what, const char *path, const kpca_file_info *fi, int model_wanted)
{
    char desc[200], same[64], swap[160] = "";
    kpca_file_describe(fi, desc, sizeof desc);
    same_file(path, at, same, sizeof same);
    for (size_t j = 0; j < cli_ninputs && model_wanted && swap[0] == '\0' && same[0] == '\0'; j++) {
        kpca_file_info other;
        if ((int)j == at)
            continue;
        kpca_file_sniff(cli_inputs[j], &other);
        if (other.kind == KPCA_FILE_MODEL)
            snprintf(swap, sizeof swap, " (argument %zu is a model: swapped? usage: kpca %s %s)", j + 1,
                     cli_current->name, cli_current->synopsis);
    }
    cli_error("argument %d of %s is %s; '%s' %s%s%s", at + 1, cli_current->name, what, path, desc, same, swap);
    cli_hint(cli_current);
    return KPCA_EFORMAT;
}

int cli_fail_input(const kpca_error *err, const char *path)
{
    const char *name, *what;
    int at = cli_arg_role(path, &name, &what);
    /* what cannot be read, or not in the memory allowed, is not of a kind */
    if (at < 0 || err->code == KPCA_EIO || err->code == KPCA_ENOMEM)
        return cli_fail(err);
    kpca_file_info fi;
    kpca_file_sniff(path, &fi);
    int model_wanted = strcmp(name, "MODEL") == 0;
    /* a missing, unreadable or directory argument: the reader's "cannot
     * open" says it; a file of the right kind, or a damaged one: the
     * reader's reason */
    int other_kind = model_wanted ? fi.kind != KPCA_FILE_MODEL && fi.kind != KPCA_FILE_MISSING &&
                                        fi.kind != KPCA_FILE_UNREADABLE && fi.kind != KPCA_FILE_DIRECTORY &&
                                        !fi.damaged
                                  : fi.kind == KPCA_FILE_MODEL;
    return other_kind ? wrong_kind(at, what, path, &fi, model_wanted) : cli_fail(err);
}

/* rowsrc.c - a data file read a block of rows at a time (see rowsrc.h).
 *
 * Each format reads through its own reader's row-by-row form, so that the
 * checks and messages are the whole-file reader's: NPY by pread
 * (kpca_npy_rows), HDF5 by hyperslab (kpca_h5_rows), whitespace text by
 * kpca_esl_rows, LIBSVM by kpca_libsvm_rows, and delimited text here, by
 * windows of the file parsed with csvrows.c's row reader.  Delimited text with
 * a label column is read once at open for the labels' verdict (integers or
 * names, labels.h) and, for names, once more for their order; a stream is
 * read through a spool (file/source.h). */
#include "io/rowsrc_in.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "io/csv.h"
#include "io/read.h"
#include "text/textfile.h"
#include "support/mem.h"

/* ---- the source ------------------------------------------------------------ */

/* The stream's name in place of its spool's path in err's message */
static kpca_status renamed(kpca_rowsrc *s, kpca_status st, kpca_error *err)
{
    if (st != KPCA_OK && err != NULL && s->spool.path != NULL && s->spool.name != NULL) {
        char msg[KPCA_ERRMSG_MAX];
        kpca_source_rename(err->msg, s->spool.path, s->spool.name, msg, sizeof msg);
        memcpy(err->msg, msg, sizeof msg);
    }
    return st;
}

/* CSV: one pass over the rows, with `each` (if any) called on every
 * window; scan: their labels (and pandas index) only, the values not
 * parsed (the data's read parses them and says what is wrong) */
typedef kpca_status (*win_fn)(kpca_rowsrc *s, csv_win *w, kpca_error *err);

static kpca_status csv_pass(kpca_rowsrc *s, win_fn each, int scan, kpca_error *err)
{
    csv_win w;
    kpca_status st = kpca_csv_win_open(&w, s->file, s->delim, &s->opts, err);
    w.scan = scan;
    int more = 1;
    while (st == KPCA_OK && (st = kpca_csv_win_next(&w, &more, err)) == KPCA_OK && more && w.R.n > 0)
        st = each != NULL ? each(s, &w, err) : KPCA_OK;
    if (st == KPCA_OK && w.R.taken + w.R.n == 0)
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': no data rows (only a header)", s->file);
    if (st == KPCA_OK)
        s->info.n = w.R.taken + w.R.n;
    kpca_csv_win_close(&w);
    return st;
}

/* the first pass: every label seen, the pandas index looked at */
kpca_status kpca_rowsrc_see_window(kpca_rowsrc *s, csv_win *w, kpca_error *err)
{
    csv_rows *R = &w->R;
    for (size_t i = 0; R->col != NO_COLUMN && i < R->n; i++) {
        kpca_status st = kpca_labelmap_see(s->labels, s->file, R->labtok[i], R->labline[i], R->col + 1, err);
        if (st != KPCA_OK)
            return st;
    }
    for (size_t i = 0; s->index != NO_COLUMN && i < R->n; i++) {
        double v = R->x[i * R->dim + s->index];
        if (!(fabs(v) <= 9007199254740992.0) || v != floor(v)) /* (NaN: no number) */
            s->index = NO_COLUMN;
    }
    return KPCA_OK;
}

kpca_status kpca_rowsrc_name_window(kpca_rowsrc *s, csv_win *w, kpca_error *err)
{
    for (size_t i = 0; i < w->R.n; i++) {
        kpca_status st = kpca_labelmap_name(s->labels, s->file, w->R.labtok[i], err);
        if (st != KPCA_OK)
            return st;
    }
    return KPCA_OK;
}

/* Opens delimited text: the layout, the first pass (the row count, the
 * labels' verdict, the pandas index) and, for names, the second. */
static kpca_status csv_open(kpca_rowsrc *s, kpca_error *err)
{
    kpca_status st = kpca_csv_win_open(&s->win, s->file, s->delim, &s->opts, err);
    if (st != KPCA_OK)
        return st;
    csv_rows *R = &s->win.R;
    s->index = R->index;
    if (R->col != NO_COLUMN && (s->labels = kpca_labelmap_new()) == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", s->file);
    return s->part_open ? KPCA_OK : kpca_rowsrc_csv_passes(s, err); /* a part: the passes are rowpart.c's */
}

/* The labels' pass and verdict of kpca_rowsrc_csv_passes, the values not
 * parsed (scan) unless the read is shared: the processes of a shared read
 * must each meet the file's first error at open, whichever rows they then
 * read (rowpart.h), not only the one whose rows hold it. */
static kpca_status labels_pass(kpca_rowsrc *s, int *names, kpca_error *err)
{
    csv_rows *R = &s->win.R;
    kpca_status st = csv_pass(s, kpca_rowsrc_see_window, !s->shared, err);
    if (st == KPCA_OK)
        s->counted = 1;
    *names = 0;
    if (st == KPCA_OK && s->labels != NULL)
        st = kpca_labelmap_verdict(s->labels, s->file, R->col + 1, names, err);
    if (st == KPCA_OK || st == KPCA_ENOMEM || s->shared)
        return st;
    /* The whole read parses every row before it looks at the labels: a
     * value that is no number, before or after this error's row, is its
     * first error.  A pass that parses finds it (errors are rare). */
    kpca_error why;
    kpca_status vst = csv_pass(s, NULL, 0, &why);
    if (vst != KPCA_OK && err != NULL)
        *err = why;
    return vst != KPCA_OK ? vst : st;
}

kpca_status kpca_rowsrc_csv_passes(kpca_rowsrc *s, kpca_error *err)
{
    int names;
    kpca_status st = labels_pass(s, &names, err);
    if (st != KPCA_OK)
        return st;
    if (names && (st = csv_pass(s, kpca_rowsrc_name_window, 1, err)) != KPCA_OK)
        return st;
    return kpca_rowsrc_csv_describe(s, names, err);
}

kpca_status kpca_rowsrc_csv_describe(kpca_rowsrc *s, int names, kpca_error *err)
{
    csv_rows *R = &s->win.R;
    if (R->dim < 2)
        s->index = NO_COLUMN;
    /* what the whole read says of the data */
    kpca_dataset *in = &s->info;
    in->dim = R->dim; /* as many as the names made here; less the index's below */
    in->unlabelled = R->col == NO_COLUMN;
    in->label_col = R->col != NO_COLUMN ? R->col + 1 : 0;
    if (kpca_csv_names(R, R->dim, in) != 0)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", s->file);
    if (s->index != NO_COLUMN) {
        if (in->colnames != NULL) {
            kpca_free(in->colnames[s->index]);
            memmove(in->colnames + s->index, in->colnames + s->index + 1, (R->dim - s->index - 1) * sizeof(char *));
        }
        in->index_col = 1;
        in->dim = R->dim - 1;
    }
    if (names) {
        size_t nn;
        char **list = kpca_labelmap_names(s->labels, &nn);
        if ((in->names = kpca_strings_dup(list, nn)) == NULL)
            return kpca_fail(err, KPCA_ENOMEM, "out of memory for the class names of '%s'", s->file);
        in->nnames = nn;
    }
    return KPCA_OK;
}

/* CSV rows into x and y: those of the window first, then the next windows'. */
static kpca_status csv_read(kpca_rowsrc *s, size_t max, double *x, int *y, size_t *got, kpca_error *err)
{
    csv_rows *R = &s->win.R;
    const size_t dim = s->info.dim;
    *got = 0;
    while (*got < max) {
        if (s->win_at == R->n) {
            int more;
            /* a fast window whose rows all fit may parse them into x (its
             * rows as the caller's, no pandas index to drop) */
            const int direct = s->index == NO_COLUMN && R->dim == dim;
            s->win.fast.dest = direct ? x + *got * dim : NULL;
            s->win.fast.dest_room = direct ? max - *got : 0;
            kpca_status st = kpca_csv_win_next(&s->win, &more, err);
            s->win.fast.dest = NULL;
            s->win_at = 0;
            if (st != KPCA_OK)
                return st;
            if (!more || R->n == 0)
                break;
        }
        const size_t i = s->win_at++;
        double *to = x + *got * dim;
        if (i < s->win.direct_n) {
            /* parsed there (in this call: the window's rows fit; R->x
             * holds none of them, perhaps not allocated) */
        } else if (s->index == NO_COLUMN) {
            memcpy(to, R->x + i * R->dim, dim * sizeof *to);
        } else {
            const double *row = R->x + i * R->dim;
            memcpy(to, row, s->index * sizeof *to);
            memcpy(to + s->index, row + s->index + 1, (dim - s->index) * sizeof *to);
        }
        if (y != NULL) {
            y[*got] = 0;
            if (R->col != NO_COLUMN) {
                kpca_status st = kpca_labelmap_code(s->labels, s->file, R->labtok[i], R->labline[i], &y[*got], err);
                if (st != KPCA_OK)
                    return st;
            }
        }
        ++*got;
    }
    return KPCA_OK;
}

kpca_status kpca_rowsrc_reader_open(kpca_rowsrc *s, kpca_error *err)
{
    size_t n, d, vd;
    int labelled;
    kpca_status st;
    switch (s->kind) {
    case SRC_CSV:
        kpca_csv_win_close(&s->win);
        s->win_at = 0;
        return kpca_csv_win_open(&s->win, s->file, s->delim, &s->opts, err);
    case SRC_ESL:
        if (s->esl != NULL && kpca_esl_rows_rewind(s->esl, NULL) == KPCA_OK)
            return KPCA_OK; /* opened before: its layout stands */
        kpca_esl_rows_close(s->esl);
        s->esl = NULL;
        st = kpca_esl_rows_open(s->file, s->opts.dim, s->opts.skip_rows, &s->esl, &vd, &labelled, err);
        if (st == KPCA_OK) {
            s->info.dim = vd;
            s->info.unlabelled = !labelled;
            s->info.label_col = labelled ? 1 : 0;
        }
        return st;
    case SRC_LIBSVM:
        if (s->svm != NULL) /* opened before: its count and dimension stand */
            return kpca_libsvm_rows_rewind(s->svm, err);
        kpca_libsvm_rows_close(s->svm);
        s->svm = NULL;
        st = kpca_libsvm_rows_open(s->file, s->opts.dim, &s->svm, &n, &d, err);
        if (st == KPCA_OK) {
            s->info.n = n;
            s->info.dim = d;
            s->counted = 1;
        }
        return st;
    default:
        return KPCA_OK;
    }
}

/* the rows of the format's reader (labels of opts.labels put in after) */
static kpca_status reader_read(kpca_rowsrc *s, size_t max, double *x, int *y, size_t *got, kpca_error *err)
{
    size_t left;
    kpca_status st;
    switch (s->kind) {
    case SRC_CSV: return csv_read(s, max, x, y, got, err);
    case SRC_ESL: return kpca_esl_rows_read(s->esl, max, x, y, got, err);
    case SRC_LIBSVM: return kpca_libsvm_rows_read(s->svm, max, x, y, got, err);
    case SRC_NPY:
        left = s->info.n - s->at;
        *got = max < left ? max : left;
        if (y != NULL)
            memset(y, 0, *got * sizeof *y);
        return kpca_npy_rows_read(s->npy, s->at, *got, x, err);
    case SRC_HDF5:
        left = s->info.n - s->at;
        *got = max < left ? max : left;
        st = kpca_h5_rows_read(s->h5, s->at, *got, x, y, err);
        return st;
    case SRC_HELD:
        left = s->info.n - s->at;
        *got = max < left ? max : left;
        if (*got > 0)
            memcpy(x, s->held.x + s->at * s->info.dim, *got * s->info.dim * sizeof *x);
        if (y != NULL && *got > 0)
            memcpy(y, s->held.y + s->at, *got * sizeof *y);
        return KPCA_OK;
    }
    return KPCA_EINTERNAL;
}

/* from where the reader is (s->at: the row count when the file ends) */
kpca_status kpca_rowsrc_skip_to(kpca_rowsrc *s, size_t row, int *ended, kpca_error *err)
{
    const size_t block = 256;
    *ended = 0;
    if (s->scratch == NULL && (s->scratch = kpca_alloc_array(block, s->info.dim ? s->info.dim : 1, sizeof(double))) == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", s->file);
    while (s->at < row) {
        size_t got, want = row - s->at < block ? row - s->at : block;
        kpca_status st = reader_read(s, want, s->scratch, NULL, &got, err);
        if (st != KPCA_OK)
            return st;
        if (got == 0) {
            *ended = 1;
            break;
        }
        s->at += got;
    }
    return KPCA_OK;
}

/* A format read whole (MATLAB, ARFF: files of a size that fits memory,
 * read by their own library or in one pass): s->held holds every row, the
 * description (names, header names, the label column) moves to s->info.
 * O(the data) memory, for as long as the source is open. */
static kpca_status held_open(kpca_rowsrc *s, kpca_format fmt, kpca_error *err)
{
    kpca_read_opts ro = s->opts;
    ro.format = fmt;
    ro.group = s->group;
    ro.labels = NULL; /* the source's own (kpca_rowsrc_open_as) */
    kpca_status st = kpca_dataset_read(s->file, &ro, &s->held, err);
    if (st != KPCA_OK)
        return st;
    kpca_dataset *h = &s->held, *i = &s->info;
    i->n = h->n;
    i->dim = h->dim;
    i->unlabelled = h->unlabelled;
    i->names = h->names;
    i->nnames = h->nnames;
    i->colnames = h->colnames;
    i->label_col = h->label_col;
    i->label_name = h->label_name;
    h->names = h->colnames = NULL;
    h->nnames = 0;
    h->label_name = NULL;
    s->counted = 1;
    return KPCA_OK;
}

kpca_status kpca_rowsrc_open(const char *spec, const kpca_read_opts *opts, kpca_rowsrc **out, kpca_error *err)
{
    return kpca_rowsrc_open_as(spec, opts, 0, out, err);
}

kpca_status kpca_rowsrc_open_as(const char *spec, const kpca_read_opts *opts, int part, kpca_rowsrc **out,
                                kpca_error *err)
{
    *out = NULL;
    kpca_rowsrc *s = kpca_calloc(1, sizeof *s);
    if (s == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", spec);
    s->spool.fd = -1;
    if (opts != NULL)
        s->opts = *opts;
    char *spooled = NULL;
    const char *group = NULL;
    kpca_status st = kpca_spool_spec(spec, &s->spool, &spooled, err);
    if (st == KPCA_OK && (s->spec_copy = kpca_strdup(spooled != NULL ? spooled : spec)) == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", spec);
    kpca_free(spooled);
    if (st == KPCA_OK)
        st = kpca_split_spec(s->spec_copy, &s->file, &group, err);
    if (st == KPCA_OK && s->opts.group != NULL)
        group = s->opts.group;
    s->group = group;
    kpca_format fmt = s->opts.format;
    int text_opts = 0;
    if (st == KPCA_OK)
        st = kpca_read_format(s->file, group, &s->opts, &fmt, &text_opts, err);
    const kpca_read_opts *o = &s->opts;
    size_t n = 0, d = 0;
    int labelled = 0;
    s->part_open = part && s->spool.fd < 0 && o->labels == NULL;
    s->shared = part;
    if (st == KPCA_OK) {
        s->info.format = fmt;
        switch (fmt) {
        case KPCA_FMT_ESL:
            if (!text_opts) {
                s->kind = SRC_ESL;
                st = kpca_rowsrc_reader_open(s, err);
                break;
            }
            s->delim = ' '; /* whitespace text with a text option: the delimited reader */
            /* fall through */
        case KPCA_FMT_CSV:
            s->kind = SRC_CSV;
            st = csv_open(s, err);
            break;
        case KPCA_FMT_LIBSVM:
            s->kind = SRC_LIBSVM;
            st = kpca_rowsrc_reader_open(s, err);
            break;
        case KPCA_FMT_NPY:
            s->kind = SRC_NPY;
            st = kpca_npy_rows_open(s->file, o->dim, &s->npy, &n, &d, err);
            s->info.n = n;
            s->info.dim = d;
            s->info.unlabelled = 1;
            s->counted = 1;
            break;
        case KPCA_FMT_HDF5: {
            s->kind = SRC_HDF5;
            char **names = NULL;
            size_t nn = 0;
            st = kpca_h5_rows_open(s->file, group != NULL ? group : "/", o->dim, &s->h5, &n, &d, &labelled, &names,
                                   &nn, err);
            s->info.n = n;
            s->info.dim = d;
            s->info.unlabelled = !labelled;
            s->counted = 1;
            if (st == KPCA_OK && nn > 0) {
                if ((s->info.names = kpca_strings_dup(names, nn)) == NULL)
                    st = kpca_fail(err, KPCA_ENOMEM, "out of memory for the class names of '%s'", s->file);
                else
                    s->info.nnames = nn;
            }
            break;
        }
        case KPCA_FMT_MAT:
        case KPCA_FMT_ARFF:
            s->kind = SRC_HELD;
            st = held_open(s, fmt, err);
            break;
        default: st = kpca_fail(err, KPCA_EUSAGE, "'%s': cannot read format '%s'", s->file, kpca_format_name(fmt));
        }
    }
    if (st == KPCA_OK && o->labels != NULL) { /* labels from a file of their own: every row's, held */
        if (!s->info.unlabelled) {
            st = kpca_fail(err, KPCA_EUSAGE, "'%s' has labels of its own: --labels FILE is for data without them "
                           "(a CSV file's label column is dropped with --label none)", s->file);
        } else if ((st = kpca_rowsrc_count(s, &n, err)) == KPCA_OK) {
            kpca_dataset l;
            memset(&l, 0, sizeof l);
            l.n = n;
            l.unlabelled = 1;
            if ((st = kpca_labels_read(o->labels, &l, err)) == KPCA_OK) {
                s->extra = l.y;
                s->info.names = l.names;
                s->info.nnames = l.nnames;
                s->info.unlabelled = 0;
                s->info.labels_indexed = l.labels_indexed;
            }
        }
    }
    if (st != KPCA_OK) {
        renamed(s, st, err);
        kpca_rowsrc_close(s);
        return st;
    }
    *out = s;
    return KPCA_OK;
}

size_t kpca_rowsrc_dim(const kpca_rowsrc *src)
{
    return src->info.dim;
}

kpca_format kpca_rowsrc_format(const kpca_rowsrc *src)
{
    return src->info.format;
}

int kpca_rowsrc_labelled(const kpca_rowsrc *src)
{
    return !src->info.unlabelled;
}

const kpca_dataset *kpca_rowsrc_info(const kpca_rowsrc *src)
{
    return &src->info;
}

kpca_status kpca_rowsrc_count(kpca_rowsrc *src, size_t *n, kpca_error *err)
{
    if (!src->counted && src->kind == SRC_ESL && !src->shared) { /* its lines counted, not parsed */
        kpca_status st = kpca_textfile_count_rows(src->file, src->opts.skip_rows, &src->info.n, err);
        if (st != KPCA_OK)
            return renamed(src, st, err);
        src->counted = 1;
    }
    if (!src->counted) { /* ESL read by several processes: a pass of its own, from the start, which parses */
        kpca_rowsrc *c = kpca_calloc(1, sizeof *c);
        if (c == NULL)
            return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", src->file);
        c->kind = src->kind;
        c->file = src->file;
        c->opts = src->opts;
        c->spool.fd = -1;
        int ended;
        kpca_status st = kpca_rowsrc_reader_open(c, err);
        if (st == KPCA_OK)
            st = kpca_rowsrc_skip_to(c, (size_t)-1, &ended, err);
        if (st == KPCA_OK) {
            src->info.n = c->at;
            src->counted = 1;
        }
        kpca_esl_rows_close(c->esl);
        kpca_free(c->scratch);
        kpca_free(c);
        if (st != KPCA_OK)
            return renamed(src, st, err);
    }
    *n = src->info.n;
    return KPCA_OK;
}

kpca_status kpca_rowsrc_read(kpca_rowsrc *src, size_t max, double *x, int *y, size_t *got, kpca_error *err)
{
    *got = 0;
    if (src->failed != KPCA_OK)
        return kpca_fail(err, src->failed, "%s", src->msg);
    kpca_status st = reader_read(src, max, x, y, got, err);
    if (st == KPCA_OK && y != NULL && src->extra != NULL)
        memcpy(y, src->extra + src->at, *got * sizeof *y);
    if (st != KPCA_OK) {
        renamed(src, st, err);
        src->failed = st;
        snprintf(src->msg, sizeof src->msg, "%s", err != NULL ? err->msg : "");
        *got = 0;
        return st;
    }
    src->at += *got;
    if (*got == 0 && !src->counted) {
        src->info.n = src->at;
        src->counted = 1;
    }
    return KPCA_OK;
}

kpca_status kpca_rowsrc_to_mark(kpca_rowsrc *s, kpca_error *err)
{
    kpca_status st;
    if (s->mark_row == 0)
        st = kpca_rowsrc_reader_open(s, err);
    else if (s->kind == SRC_ESL)
        st = kpca_esl_rows_jump(s->esl, s->mark_byte, s->mark_line, 0, err);
    else
        st = kpca_csv_win_jump(&s->win, s->mark_byte, s->mark_line, s->mark_row, err);
    s->win_at = 0;
    s->at = st == KPCA_OK ? s->mark_row : 0;
    return st;
}

kpca_status kpca_rowsrc_seek(kpca_rowsrc *src, size_t row, kpca_error *err)
{
    if (src->failed != KPCA_OK)
        return kpca_fail(err, src->failed, "%s", src->msg);
    kpca_status st = KPCA_OK;
    if (src->counted && row > src->info.n)
        return kpca_fail(err, KPCA_EUSAGE, "row %zu is beyond the %zu rows of the data", row, src->info.n);
    if (src->kind == SRC_NPY || src->kind == SRC_HDF5 || src->kind == SRC_HELD) {
        src->at = row;
        return KPCA_OK;
    }
    if (src->parted && row >= src->mark_row && (src->at < src->mark_row || row < src->at)) {
        if ((st = kpca_rowsrc_to_mark(src, err)) != KPCA_OK) /* from the part's start */
            return renamed(src, st, err);
    } else if (row < src->at) { /* from the start again */
        if ((st = kpca_rowsrc_reader_open(src, err)) != KPCA_OK)
            return renamed(src, st, err);
        src->at = 0;
    }
    int ended;
    st = kpca_rowsrc_skip_to(src, row, &ended, err);
    if (st == KPCA_OK && ended) {
        src->info.n = src->at;
        src->counted = 1;
        st = kpca_fail(err, KPCA_EUSAGE, "row %zu is beyond the %zu rows of the data", row, src->at);
    }
    return renamed(src, st, err);
}

size_t kpca_rowsrc_tell(const kpca_rowsrc *src)
{
    return src->at;
}

void kpca_rowsrc_close(kpca_rowsrc *src)
{
    if (src == NULL)
        return;
    kpca_npy_rows_close(src->npy);
    kpca_h5_rows_close(src->h5);
    kpca_esl_rows_close(src->esl);
    kpca_libsvm_rows_close(src->svm);
    kpca_dataset_free(&src->held);
    kpca_csv_win_close(&src->win);
    kpca_labelmap_free(src->labels);
    kpca_dataset_free(&src->info);
    kpca_free(src->extra);
    kpca_free(src->scratch);
    kpca_free(src->file);
    kpca_free(src->spec_copy);
    kpca_spool_close(&src->spool);
    kpca_free(src);
}

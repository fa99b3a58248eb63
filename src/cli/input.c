/* input.c - reading a command's data files: the read options from the
 * command line, the summary of what was read (cli.h); rows.c reads them a
 * block at a time. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "lib/io/labels.h"

/* What was read from a text file, where the labels came from and a column
 * left out, on one line (unless -q); a note when unlabelled data has a
 * column that looks like class labels. */
void cli_read_summary(const char *spec, const cli_input *in, const kpca_dataset *ds, const double *x, size_t xrows,
                      size_t classes)
{
    if (ds->format != KPCA_FMT_CSV && ds->format != KPCA_FMT_ESL)
        return;
    char labels[160], index[96] = "", cls[48] = "";
    if (classes != (size_t)-1)
        snprintf(cls, sizeof cls, " (%zu classes)", classes);
    if (ds->label_col != 0)
        snprintf(labels, sizeof labels, "labels from column %zu%s%s%s%s", ds->label_col,
                 ds->label_name != NULL ? " '" : "", ds->label_name != NULL ? ds->label_name : "",
                 ds->label_name != NULL ? "'" : "", cls);
    else if (!ds->unlabelled)
        snprintf(labels, sizeof labels, "labels from '%s'", in->labels != NULL ? in->labels : "--labels");
    else
        snprintf(labels, sizeof labels, "no labels");
    if (ds->index_col != 0)
        snprintf(index, sizeof index, "; column %zu, unnamed and all integers, left out as a row index (pandas)",
                 ds->index_col);
    cli_info("read '%s': %zu rows x %zu values, %s%s", spec, ds->n, ds->dim, labels, index);
    size_t c, distinct;
    if (ds->unlabelled && in->label == NULL && in->labels == NULL &&
        (c = kpca_labels_class_like(x, xrows, ds->dim, &distinct)) < ds->dim) {
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

int cli_read_opts(const cli_input *in, kpca_read_opts *ro, double *lo, double *hi)
{
    memset(ro, 0, sizeof *ro);
    ro->format = KPCA_FMT_AUTO;
    *lo = *hi = 0.0;
    if (in->format != NULL && kpca_format_parse(in->format, &ro->format) != 0) {
        return cli_usage("option '--format': expected esl, libsvm, csv, npy, hdf5 or auto, got '%s'", in->format);
    }
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
    if (in->range != NULL && cli_parse_range(in->range, lo, hi) != 0) {
        return cli_usage("option '--input-range': expected LO,HI with LO < HI, got '%s'", in->range);
    }
    return 0;
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
    if (in->range != NULL)
        kpca_dataset_rescale(ds, lo, hi);
    if (in->round >= 0)
        kpca_dataset_round(ds, (int)in->round);
    if (in->smooth > 0.0) {
        size_t side = kpca_image_side(ds->dim);
        if (side == 0) {
            cli_error("'%s': option '--smooth' needs square images, but the rows have %zu values", spec, ds->dim);
            kpca_dataset_free(ds);
            return KPCA_EUSAGE;
        }
        if (kpca_smooth_images(ds->x, ds->n, side, in->smooth, &err) != KPCA_OK) {
            kpca_dataset_free(ds);
            return cli_fail(&err);
        }
    }
    return 0;
}

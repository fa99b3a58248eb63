/* modeldata.c - what DATA is to a model's eyes: the columns' names in
 * messages, the warning of values outside
 * the fit range, the standardisation of inputs, and a model's DATA read and
 * checked against it (cli_check_model_data, cli_load_model_data; modeldata.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "modeldata.h"
#include "cli.h"
#include "input.h"
#include "opt.h"
#include "table.h"

const char *cli_column_name(char *const *names, size_t j, char buf[CLI_COLUMN_MAX])
{
    if (names != NULL && names[j] != NULL && names[j][0] != '\0')
        snprintf(buf, CLI_COLUMN_MAX, "'%.80s'", names[j]);
    else
        snprintf(buf, CLI_COLUMN_MAX, "column %zu", j + 1);
    return buf;
}

int cli_check_names(const kpca_model *model, const char *model_path, const kpca_dataset *ds, const char *data_path)
{
    /* the reader selects the model's columns by name (kpca_read_opts select):
     * names that still differ are not the columns the model was fit on */
    for (size_t j = 0; model->colnames != NULL && ds->colnames != NULL && j < model->dim; j++)
        if (strcmp(model->colnames[j], ds->colnames[j]) != 0) {
            cli_error("'%s': value column %zu is '%s', but the model '%s' was fit on '%s' there", data_path, j + 1,
                      ds->colnames[j], model_path, model->colnames[j]);
            return KPCA_EFORMAT;
        }
    return 0;
}

void cli_warn_range(const kpca_model *model, const cli_data_stats *s, char *const *colnames, const char *data_path)
{
    const size_t dim = s->dim;
    /* no data, a model without input points (a precomputed kernel's), or
     * no memory for a warning's statistics */
    if (s->rows == 0 || s->mlo == NULL)
        return;
    const double *dlo = s->lo, *dhi = s->hi, *mlo = s->mlo, *mhi = s->mhi;
    if (s->image) {
        double lo = dlo[0], hi = dhi[0], flo = s->flo, fhi = s->fhi;
        for (size_t j = 0; j < dim; j++) {
            lo = dlo[j] < lo ? dlo[j] : lo;
            hi = dhi[j] > hi ? dhi[j] : hi;
        }
        double span = fhi - flo;
        if (span > 0 && (fabs(lo - flo) > 0.25 * span || fabs(hi - fhi) > 0.25 * span))
            cli_warn("'%s' has values in [%g, %g] but the model was fit on values in [%g, %g]%s", data_path, lo, hi,
                     flo, fhi,
                     model->std_mean != NULL ? ""
                     : model->steps_unknown  ? "; rescale with --input-range?"
                     : model->ranged ? "; its fit maps its inputs from a range these values are not in: another scale?"
                                     : "; rescale with --input-range?");
        return;
    }
    /* tabular data: each column against its own fit range, with a margin of
     * half the range's width */
    unsigned long long nvalues = 0;
    size_t ncols = 0, first = dim;
    for (size_t j = 0; j < dim; j++) {
        double margin = 0.5 * (mhi[j] - mlo[j]);
        if (dlo[j] >= mlo[j] - margin && dhi[j] <= mhi[j] + margin)
            continue;
        ncols++;
        first = first < dim ? first : j;
        nvalues += s->out[j];
    }
    if (ncols > 0) {
        char col[CLI_COLUMN_MAX], fit[160];
        size_t j = first;
        double v = dlo[j] < mlo[j] - 0.5 * (mhi[j] - mlo[j]) ? dlo[j] : dhi[j];
        if (mlo[j] == mhi[j])
            snprintf(fit, sizeof fit, "constant %g in the fit data", mlo[j]);
        else
            snprintf(fit, sizeof fit, "%g .. %g in the fit data", mlo[j], mhi[j]);
        cli_warn("'%s': %llu value%s in %zu column%s lie%s outside the fit data's range by more than half its width "
                 "(%s: %g; %s): the model extrapolates there",
                 data_path, nvalues, nvalues == 1 ? "" : "s", ncols, ncols == 1 ? "" : "s", nvalues == 1 ? "s" : "",
                 cli_column_name(colnames != NULL ? colnames : model->colnames, j, col), v, fit);
    }
}

void cli_standardize(const kpca_model *model, double *x, size_t n)
{
    if (model->std_mean != NULL)
        kpca_standardize(x, n, model->dim, model->std_mean, model->std_scale);
}

int cli_check_model_dims(const kpca_model *model, const char *model_path, const kpca_dataset *ds,
                         const char *data_path)
{
    if (ds->dim != model->dim) {
        const char *name, *what;
        kpca_file_info fi = {.kind = KPCA_FILE_UNREADABLE};
        int at = cli_arg_role(data_path, &name, &what);
        if (at >= 0)
            kpca_file_sniff(data_path, &fi);
        if (fi.kind == KPCA_FILE_FEATURES) { /* features of a model, not its kind of data */
            char desc[200];
            cli_error("argument %d of %s is %s with the %zu values per point of the model '%s'; '%s' %s", at + 1,
                      cli_current->name, what, model->dim, model_path, data_path,
                      kpca_file_describe(&fi, desc, sizeof desc));
            cli_hint(cli_current);
            return KPCA_EFORMAT;
        }
        if (model->kernel.type == KPCA_KERNEL_PRECOMPUTED)
            cli_error("'%s' has %zu values per point but the model '%s' of a precomputed kernel needs %zu: each point's "
                      "kernel values with all %zu points of its kernel matrix, in that matrix's order",
                      data_path, ds->dim, model_path, model->dim, model->dim);
        else /* one more, without labels, in text (where --label applies): a label column read as
              * values (a file of one class has no labels by the guess of docs/own-data.md) */
            cli_error("'%s' has %zu values per point but the model '%s' expects %zu%s", data_path, ds->dim, model_path,
                      model->dim, ds->unlabelled && ds->dim == model->dim + 1 &&
                                  (ds->format == KPCA_FMT_ESL || ds->format == KPCA_FMT_CSV)
                          ? ": one more, as when a column of labels is read as values (whitespace text whose first "
                            "column holds one class only is read without labels): give --label first, last or the "
                            "column's number"
                          : "");
        return KPCA_EFORMAT;
    }
    return cli_check_names(model, model_path, ds, data_path) != 0 ? KPCA_EFORMAT : 0;
}

int cli_check_model_data(const kpca_model *model, const char *model_path, const kpca_dataset *ds,
                         const char *data_path)
{
    int r = cli_check_model_dims(model, model_path, ds, data_path);
    if (r != 0)
        return r;
    kpca_error err;
    if (kpca_kernel_check_data(&model->kernel, ds->x, ds->n, ds->dim, &err) != KPCA_OK) {
        cli_error("'%s': %s", data_path, err.msg);
        return err.code;
    }
    cli_data_stats stats;
    if (cli_stats_init(&stats, ds->dim, ds->dim, ds->n, model, &err) != KPCA_OK)
        return 0; /* no memory for a warning's statistics */
    cli_stats_values(&stats, ds->x, ds->n);
    cli_warn_range(model, &stats, ds->colnames, data_path);
    cli_stats_free(&stats);
    return 0;
}

void cli_model_steps_record(kpca_model *model, const cli_input *in)
{
    double lo = 0.0, hi = 0.0;
    model->smooth = in->smooth; /* transform and denoise apply it (cli_input_as_fitted) */
    model->ranged = in->range != NULL && cli_parse_range(in->range, &lo, &hi) == 0;
    model->range_lo = model->ranged ? lo : 0.0;
    model->range_hi = model->ranged ? hi : 0.0;
    model->rounded = in->round >= 0;
    model->round = model->rounded ? in->round : 0;
    model->steps_unknown = 0;
}

void cli_input_as_fitted(cli_input *in, const kpca_model *model)
{
    in->smooth = model->smooth;
    /* a model that maps or rounds its inputs does so to every input; one
     * that does not (or a file before version 5) leaves the options given:
     * a file on another scale than the fit data's is mapped onto it */
    if (model->ranged) {
        in->range = NULL;
        in->range_set = 1;
        in->range_lo = model->range_lo;
        in->range_hi = model->range_hi;
    }
    if (model->rounded)
        in->round = model->round;
    in->select = (const char *const *)model->colnames; /* by name where DATA names its columns */
    in->nselect = model->colnames != NULL ? model->dim : 0;
}

/* --input-range and --round given for a model that records its own: the
 * same, or KPCA_EUSAGE (reported) naming both */
static int steps_agree(const char *model_path, const cli_input *in, const kpca_model *model)
{
    double lo, hi;
    char a[CLI_NUMBER_MAX], b[CLI_NUMBER_MAX];
    if (model->ranged && in->range != NULL && cli_parse_range(in->range, &lo, &hi) == 0 &&
        (lo != model->range_lo || hi != model->range_hi))
        return cli_usage("option '--input-range': the model '%s' maps its inputs from %s,%s, not %s: drop "
                         "--input-range (the model applies its own) or give the model's",
                         model_path, cli_number(model->range_lo, a), cli_number(model->range_hi, b), in->range);
    if (model->rounded && in->round >= 0 && in->round != model->round)
        return cli_usage("option '--round': the model '%s' rounds its inputs to %ld decimals, not %ld: drop --round "
                         "(the model applies its own) or give the model's",
                         model_path, model->round, in->round);
    return 0;
}

int cli_load_model(const char *model_path, const cli_input *in, kpca_model *model)
{
    int r;
    kpca_error err;
    kpca_progress("load model", 0, 1);
    kpca_status st = kpca_model_load(model_path, model, &err);
    kpca_progress("load model", 1, 1);
    if (st != KPCA_OK)
        return cli_fail_input(&err, model_path);
    /* the model's smoothing is the one its inputs get: a --smooth given must agree */
    if (in->smooth != 0.0 && in->smooth != model->smooth) {
        char have[CLI_NUMBER_MAX], given[CLI_NUMBER_MAX];
        if (model->smooth == 0.0)
            cli_usage("option '--smooth': the model '%s' smooths no input (sigma 0), not with sigma %s: drop --smooth",
                      model_path, cli_number(in->smooth, given));
        else
            cli_usage("option '--smooth': the model '%s' smooths its inputs with sigma %s, not %s: drop --smooth or "
                      "give the model's sigma",
                      model_path, cli_number(model->smooth, have), cli_number(in->smooth, given));
        kpca_model_free(model);
        return KPCA_EUSAGE;
    }
    if ((r = steps_agree(model_path, in, model)) != 0) {
        kpca_model_free(model);
        return r;
    }
    if (model->kernel.type == KPCA_KERNEL_PRECOMPUTED && (in->range != NULL || in->round >= 0)) {
        cli_usage("option '%s' does not apply to the model '%s' of a precomputed kernel (its inputs are kernel values)",
                  in->range != NULL ? "--input-range" : "--round", model_path);
        kpca_model_free(model);
        return KPCA_EUSAGE;
    }
    return 0;
}

int cli_load_model_data(const char *model_path, const char *data_path, const cli_input *in, kpca_model *model,
                        kpca_dataset *ds)
{
    int r = cli_load_model(model_path, in, model);
    if (r != 0)
        return r;
    cli_input as_fitted = *in;
    cli_input_as_fitted(&as_fitted, model);
    r = cli_read_input(data_path, &as_fitted, model->dim, ds, NULL);
    if (r == 0 && (r = cli_check_model_data(model, model_path, ds, data_path)) != 0)
        kpca_dataset_free(ds);
    if (r != 0)
        kpca_model_free(model);
    return r;
}

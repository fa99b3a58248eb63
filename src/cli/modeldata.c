/* modeldata.c - what DATA is to a model's eyes: the columns' names in
 * messages, whether data look like images, the warning of values outside
 * the fit range, the standardisation of inputs, and a model's DATA read and
 * checked against it (cli_check_model_data, cli_load_model_data; cli.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

const char *cli_column_name(char *const *names, size_t j, char buf[CLI_COLUMN_MAX])
{
    if (names != NULL && names[j] != NULL && names[j][0] != '\0')
        snprintf(buf, CLI_COLUMN_MAX, "'%.80s'", names[j]);
    else
        snprintf(buf, CLI_COLUMN_MAX, "column %zu", j + 1);
    return buf;
}

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

void cli_warn_range(const kpca_model *model, const kpca_dataset *ds, const char *data_path)
{
    const size_t dim = model->dim;
    /* a model without input points (a precomputed kernel's) has no range */
    double *st = ds->n > 0 && model->fitx != NULL ? kpca_alloc_array(dim, 8, sizeof(double)) : NULL;
    if (st == NULL) /* no data or points, or no memory for a warning's statistics */
        return;
    double *dmean = st, *dsd = st + dim, *dlo = st + 2 * dim, *dhi = st + 3 * dim;
    double *mmean = st + 4 * dim, *msd = st + 5 * dim, *mlo = st + 6 * dim, *mhi = st + 7 * dim;
    kpca_column_stats(ds->x, ds->n, dim, dmean, dsd, dlo, dhi);
    kpca_column_stats(model->fitx, model->m, dim, mmean, msd, mlo, mhi);
    const int image = cli_image_like(dim, mlo, mhi);
    /* the model points are the fit points for the kernel centring only;
     * landmarks and reduced-set vectors span less: the fit data's overall
     * range then stands for every column's */
    for (size_t j = 0; model->centring != KPCA_CENTRE_KERNEL && j < dim; j++) {
        mlo[j] = model->input_lo;
        mhi[j] = model->input_hi;
    }
    if (model->std_mean != NULL) /* the model points' ranges in DATA's units */
        for (size_t j = 0; j < dim; j++) {
            mlo[j] = mlo[j] * model->std_scale[j] + model->std_mean[j];
            mhi[j] = mhi[j] * model->std_scale[j] + model->std_mean[j];
        }
    if (image) {
        double lo = dlo[0], hi = dhi[0], flo = model->input_lo, fhi = model->input_hi;
        for (size_t j = 0; j < dim; j++) {
            lo = dlo[j] < lo ? dlo[j] : lo;
            hi = dhi[j] > hi ? dhi[j] : hi;
        }
        if (model->std_mean != NULL) { /* input_lo, input_hi are standardised values */
            flo = mlo[0];
            fhi = mhi[0];
            for (size_t j = 0; j < dim; j++) {
                flo = mlo[j] < flo ? mlo[j] : flo;
                fhi = mhi[j] > fhi ? mhi[j] : fhi;
            }
        }
        double span = fhi - flo;
        if (span > 0 && (fabs(lo - flo) > 0.25 * span || fabs(hi - fhi) > 0.25 * span))
            cli_warn("'%s' has values in [%g, %g] but the model was fit on values in [%g, %g]%s", data_path, lo, hi,
                     flo, fhi, model->std_mean != NULL ? "" : "; rescale with --input-range?");
        kpca_free(st);
        return;
    }
    /* tabular data: each column against its own fit range, with a margin of
     * half the range's width */
    size_t nvalues = 0, ncols = 0, first = dim;
    for (size_t j = 0; j < dim; j++) {
        double margin = 0.5 * (mhi[j] - mlo[j]);
        if (dlo[j] >= mlo[j] - margin && dhi[j] <= mhi[j] + margin)
            continue;
        ncols++;
        first = first < dim ? first : j;
        for (size_t i = 0; i < ds->n; i++) {
            double v = ds->x[i * dim + j];
            nvalues += v < mlo[j] - margin || v > mhi[j] + margin;
        }
    }
    if (ncols > 0) {
        char col[CLI_COLUMN_MAX], fit[160];
        size_t j = first;
        double v = dlo[j] < mlo[j] - 0.5 * (mhi[j] - mlo[j]) ? dlo[j] : dhi[j];
        if (mlo[j] == mhi[j])
            snprintf(fit, sizeof fit, "constant %g in the fit data", mlo[j]);
        else
            snprintf(fit, sizeof fit, "%g .. %g in the fit data", mlo[j], mhi[j]);
        cli_warn("'%s': %zu value%s in %zu column%s lie%s outside the fit data's range by more than half its width "
                 "(%s: %g; %s): the model extrapolates there",
                 data_path, nvalues, nvalues == 1 ? "" : "s", ncols, ncols == 1 ? "" : "s", nvalues == 1 ? "s" : "",
                 cli_column_name(ds->colnames != NULL ? ds->colnames : model->colnames, j, col), v, fit);
    }
    kpca_free(st);
}

void cli_standardize(const kpca_model *model, double *x, size_t n)
{
    if (model->std_mean != NULL)
        kpca_standardize(x, n, model->dim, model->std_mean, model->std_scale);
}

int cli_check_model_data(const kpca_model *model, const char *model_path, const kpca_dataset *ds,
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
        else
            cli_error("'%s' has %zu values per point but the model '%s' expects %zu", data_path, ds->dim, model_path,
                      model->dim);
        return KPCA_EFORMAT;
    }
    if (cli_check_names(model, model_path, ds, data_path) != 0)
        return KPCA_EFORMAT;
    kpca_error err;
    if (kpca_kernel_check_data(&model->kernel, ds->x, ds->n, ds->dim, &err) != KPCA_OK) {
        cli_error("'%s': %s", data_path, err.msg);
        return err.code;
    }
    cli_warn_range(model, ds, data_path);
    return 0;
}

int cli_load_model_data(const char *model_path, const char *data_path, const cli_input *in, kpca_model *model,
                        kpca_dataset *ds)
{
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
    if (model->kernel.type == KPCA_KERNEL_PRECOMPUTED && (in->range != NULL || in->round >= 0)) {
        cli_usage("option '%s' does not apply to the model '%s' of a precomputed kernel (its inputs are kernel values)",
                  in->range != NULL ? "--input-range" : "--round", model_path);
        kpca_model_free(model);
        return KPCA_EUSAGE;
    }
    cli_input as_fitted = *in;
    as_fitted.smooth = model->smooth;
    as_fitted.select = (const char *const *)model->colnames; /* by name where DATA names its columns */
    as_fitted.nselect = model->colnames != NULL ? model->dim : 0;
    int r = cli_read_input(data_path, &as_fitted, model->dim, ds, NULL);
    if (r == 0 && (r = cli_check_model_data(model, model_path, ds, data_path)) != 0)
        kpca_dataset_free(ds);
    if (r != 0)
        kpca_model_free(model);
    return r;
}

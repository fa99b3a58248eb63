/* modeldata.c - what DATA is to a model's eyes: the columns' names in
 * messages, whether data look like images, the warning of values outside
 * the fit range (cli_check_model_data calls it) and the standardisation of
 * inputs (cli.h). */
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


/* cmd_info.c - kpca info: what a model file holds, as "key value" lines. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/input.h"
#include "cli/opt.h"
#include "cli/prologue.h"
#include "cli/table.h"

static struct {
    int eigenvalues, columns;
} o;

static const cli_option options[] = {
    {"eigenvalues", 'e', NULL, CLI_FLAG, &o.eigenvalues, 0, 0, "also print every eigenvalue, one per line"},
    {"columns", 'c', NULL, CLI_FLAG, &o.columns, 0, 0,
     "also print each fit column's name ('column J NAME') and standardisation ('standardize J MEAN SCALE')"},
};

const cli_command cli_info_command = {
    "info", "[options] MODEL", "print what a model holds, one 'key value' per line",
    "Keys: format, version (of the file's format), kernel, then its parameters\n"
    "(poly: degree, gamma, coef0; sigmoid: gamma, coef0; rbf: sigma; laplacian,\n"
    "chi2: gamma; linear, cosine, precomputed: none), solver, precision (of the\n"
    "fit's eigensolve, double or single; transform projects in it), centring\n"
    "(kernel, or nystrom: the model points are landmarks), fit_points (the\n"
    "points fitted on; unknown in old Nystrom models), model_points (the fit\n"
    "points, or the landmarks), dim (values per point; precomputed: M, the\n"
    "points of its kernel matrix, the width transform takes), components,\n"
    "trace, explained (sum of the kept eigenvalues / trace), input_lo, input_hi,\n"
    "input_range (LO,HI: fit --input-range, which transform and denoise give\n"
    "every input; none; unknown before version 5), round (the decimals of fit\n"
    "--round, given every input; none; unknown before version 5),\n"
    "smooth (the sigma of the blur fit gave its data, which transform and\n"
    "denoise give every input; 0: none), standardize (yes: fit --standardize;\n"
    "transform and denoise standardise every input as the fit data; no),\n"
    "column_names (yes: the fit file's header named the columns, and inputs\n"
    "with a header are read by those names; no), subset (how the fit rows\n"
    "were drawn, e.g. 'stratified by label 40 of 150 rows, seed 1'; unknown\n"
    "before version 4), source; with -e, then 'eigenvalue N MU' lines; with\n"
    "-c, 'column J NAME' and 'standardize J MEAN SCALE' lines.\n"
    "A reduced model (kpca reduce) has centring reduced,\n"
    "model_points = its reduced-set vectors, and adds reduction (how it was\n"
    "made), residual_mean and residual_max (of rho_c = |V_c - V~_c|^2, where\n"
    "|V_c| = 1), and with -e 'residual N RHO' lines.",
    options, sizeof options / sizeof options[0], cmd_info, 1, 1,
};

int cmd_info(int argc, char **argv)
{
    memset(&o, 0, sizeof o);
    char *pos[1];
    int npos;
    int r = cli_begin(&cli_info_command, argc, argv, pos, &npos, (cli_common){NULL, NULL, NULL});
    if (r != 0)
        return r < 0 ? 0 : r;
    kpca_model md;
    kpca_error err;
    if (kpca_model_load(pos[0], &md, &err) != KPCA_OK)
        return cli_fail_input(&err, pos[0]);
    printf("format %s\nversion %d\nkernel %s\n", KPCA_MODEL_FORMAT, md.version, kpca_kernel_name(md.kernel.type));
    /* the parameters the kernel has, no others */
    if (md.kernel.type == KPCA_KERNEL_POLY)
        printf("degree %d\n", md.kernel.degree);
    if (md.kernel.type == KPCA_KERNEL_POLY || md.kernel.type == KPCA_KERNEL_SIGMOID)
        printf("gamma %.17g\ncoef0 %.17g\n", md.kernel.gamma, md.kernel.coef0);
    if (md.kernel.type == KPCA_KERNEL_LAPLACIAN || md.kernel.type == KPCA_KERNEL_CHI2)
        printf("gamma %.17g\n", md.kernel.gamma);
    if (md.kernel.type == KPCA_KERNEL_RBF)
        printf("sigma %.17g\n", md.kernel.sigma);
    printf("solver %s\nprecision %s\ncentring %s\n", md.solver[0] ? md.solver : "exact", kpca_precision_name(md.precision),
           md.centring == KPCA_CENTRE_NYSTROM ? "nystrom" : md.centring == KPCA_CENTRE_REDUCED ? "reduced" : "kernel");
    if (md.centring == KPCA_CENTRE_REDUCED) {
        double sum = 0.0, mx = 0.0;
        for (size_t c = 0; c < md.k; c++) {
            sum += md.rho[c];
            mx = md.rho[c] > mx ? md.rho[c] : mx;
        }
        printf("reduction %s\nresidual_mean %.6g\nresidual_max %.6g\n", md.reduction, sum / (double)md.k, mx);
    }
    if (md.fit_n)
        printf("fit_points %zu\n", md.fit_n);
    else
        printf("fit_points unknown\n");
    printf("model_points %zu\ndim %zu\ncomponents %zu\ntrace %.17g\nexplained %.6f\n", md.m, md.dim, md.k, md.trace,
           kpca_model_explained(&md, 0, md.k));
    char smooth[CLI_NUMBER_MAX], lo[CLI_NUMBER_MAX], hi[CLI_NUMBER_MAX];
    printf("input_lo %.17g\ninput_hi %.17g\n", md.input_lo, md.input_hi);
    if (md.steps_unknown)
        printf("input_range unknown\nround unknown\n");
    else if (md.ranged)
        printf("input_range %s,%s\n", cli_number(md.range_lo, lo), cli_number(md.range_hi, hi));
    else
        printf("input_range none\n");
    if (!md.steps_unknown && md.rounded)
        printf("round %ld\n", md.round);
    else if (!md.steps_unknown)
        printf("round none\n");
    printf("smooth %s\nstandardize %s\ncolumn_names %s\nsubset %s\nsource %s\n",
           cli_number(md.smooth, smooth), md.std_mean != NULL ? "yes" : "no",
           md.colnames != NULL ? "yes" : "no", md.subset[0] ? md.subset : "unknown", md.source);
    if (o.eigenvalues)
        for (size_t c = 0; c < md.k; c++)
            printf("eigenvalue %zu %.17g\n", c + 1, md.eigval[c]);
    if (o.eigenvalues && md.centring == KPCA_CENTRE_REDUCED)
        for (size_t c = 0; c < md.k; c++)
            printf("residual %zu %.17g\n", c + 1, md.rho[c]);
    for (size_t j = 0; o.columns && md.colnames != NULL && j < md.dim; j++)
        printf("column %zu %s\n", j + 1, md.colnames[j]);
    for (size_t j = 0; o.columns && md.std_mean != NULL && j < md.dim; j++)
        printf("standardize %zu %.17g %.17g\n", j + 1, md.std_mean[j], md.std_scale[j]);
    kpca_model_free(&md);
    return 0;
}

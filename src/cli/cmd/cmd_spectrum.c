/* cmd_spectrum.c - kpca spectrum: a model's eigenvalues and the share of
 * the variance each component explains. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/input.h"
#include "cli/opt.h"
#include "cli/prologue.h"
#include "cli/table.h"

static struct {
    int bessel, quiet;
    const char *csv, *markdown, *json;
} o;

static const cli_option options[] = {
    {"bessel", 0, NULL, CLI_FLAG, &o.bessel, 0, 0,
     "covariance eigenvalues mu / (M - 1) instead of mu / M (Bessel's correction); nothing else changes"},
    {"csv", 0, "FILE", CLI_STRING, &o.csv, 0, 0, "also write the table as CSV to FILE (- : stdout only)"},
    {"markdown", 0, "FILE", CLI_STRING, &o.markdown, 0, 0, "also write the table as Markdown to FILE"},
    {"json", 0, "FILE", CLI_STRING, &o.json, 0, 0, "also write the table as JSON to FILE"},
    {"quiet", 'q', NULL, CLI_FLAG, &o.quiet, 0, 0, "print nothing but the table and errors"},
};

const cli_command cli_spectrum_command = {
    "spectrum", "[options] MODEL", "print the eigenvalues of a model and the variance they explain",
    "Columns: component; eigenvalue, mu of the centred kernel matrix K~ (the\n"
    "model's); variance, the eigenvalue of the feature-space covariance,\n"
    "mu / M (or mu / (M - 1) with --bessel); explained, mu / trace(K~); and\n"
    "cumulative, the running sum of explained.  trace(K~) sums all M\n"
    "eigenvalues, kept or not, so the table shows how much of the variance\n"
    "the kept components carry.  --bessel rescales the variance column only:\n"
    "explained, cumulative and every projection are unchanged.\n"
    "\n"
    "M is the number of points the model was fitted on: for a Nystrom model\n"
    "the fit points, not the landmarks (K~ is then the centred Nystrom\n"
    "approximation of the M x M kernel matrix).  The sigmoid kernel is not\n"
    "positive semi-definite: its trace(K~) also sums negative eigenvalues, so\n"
    "explained and cumulative are shares of that signed total and can pass 1.",
    options, sizeof options / sizeof options[0], cmd_spectrum, 1, 1,
};

static const char *const cols[] = {"component", "eigenvalue", "variance", "explained", "cumulative"};
#define NCOLS (sizeof cols / sizeof cols[0])

typedef struct {
    const kpca_model *md;
    double scale; /* 1/M or 1/(M-1) */
} spectrum;

static void cells(size_t i, char (*cell)[CLI_CELL], void *ctx)
{
    const spectrum *sp = ctx;
    const kpca_model *md = sp->md;
    snprintf(cell[0], CLI_CELL, "%zu", i + 1);
    snprintf(cell[1], CLI_CELL, "%.17g", md->eigval[i]);
    snprintf(cell[2], CLI_CELL, "%.17g", md->eigval[i] * sp->scale);
    snprintf(cell[3], CLI_CELL, "%.10f", kpca_model_explained(md, i, 1));
    snprintf(cell[4], CLI_CELL, "%.10f", kpca_model_explained(md, 0, i + 1));
}

int cmd_spectrum(int argc, char **argv)
{
    memset(&o, 0, sizeof o);
    char *pos[1];
    int npos;
    int r = cli_begin(&cli_spectrum_command, argc, argv, pos, &npos, (cli_common){&o.quiet, NULL, NULL});
    if (r != 0)
        return r < 0 ? 0 : r;
    if ((r = cli_check_outputs(o.csv, o.markdown, o.json, NULL)) != 0)
        return r;
    kpca_model md;
    kpca_error err;
    if (kpca_model_load(pos[0], &md, &err) != KPCA_OK)
        return cli_fail_input(&err, pos[0]);
    if (md.centring == KPCA_CENTRE_REDUCED) {
        kpca_fail(&err, KPCA_EUSAGE,
                  "'%s' is a reduced model (kpca reduce): its components are approximations; "
                  "take the spectrum of the full model it was reduced from",
                  pos[0]);
        kpca_model_free(&md);
        return cli_fail(&err);
    }
    if (md.fit_n < 2) {
        kpca_fail(&err, KPCA_EFORMAT,
                  "'%s': the model does not record how many points it was fitted on "
                  "(a Nystrom model written before the 'fit_points' attribute); fit it again",
                  pos[0]);
        kpca_model_free(&md);
        return cli_fail(&err);
    }
    const size_t n = md.fit_n;
    spectrum sp = {&md, 1.0 / (double)(o.bessel ? n - 1 : n)};
    int to_stdout = (o.csv && strcmp(o.csv, "-") == 0) || (o.markdown && strcmp(o.markdown, "-") == 0) ||
                    (o.json && strcmp(o.json, "-") == 0);
    if (!to_stdout) {
        printf("%9s %24s %24s %12s %12s\n", cols[0], cols[1], cols[2], cols[3], cols[4]);
        for (size_t c = 0; c < md.k; c++)
            printf("%9zu %24.17g %24.17g %12.8f %12.8f\n", c + 1, md.eigval[c], md.eigval[c] * sp.scale,
                   kpca_model_explained(&md, c, 1), kpca_model_explained(&md, 0, c + 1));
    }
    const double kept = kpca_model_explained(&md, 0, md.k);
    if (md.centring == KPCA_CENTRE_NYSTROM)
        cli_info("%zu components kept (of at most %zu, the landmarks), explaining %.4f%% of trace(K~) = %.17g; "
                 "variance = mu / %s, M = %zu fit points", md.k, md.m, 100.0 * kept, md.trace,
                 o.bessel ? "(M - 1)" : "M", n);
    else
        cli_info("%zu components kept (of at most M - 1 = %zu), explaining %.4f%% of trace(K~) = %.17g; "
                 "variance = mu / %s", md.k, n - 1, 100.0 * kept, md.trace, o.bessel ? "(M - 1)" : "M");
    if (md.std_mean != NULL) /* spectrum reads no data: nothing to standardise */
        cli_info("note: the model was fit on standardised columns (fit --standardize): these are the eigenvalues "
                 "of their kernel matrix");
    if (md.kernel.type == KPCA_KERNEL_SIGMOID)
        cli_info("note: the sigmoid kernel is indefinite; trace(K~) includes its negative eigenvalues, so "
                 "explained is a share of a signed total");
    r = cli_table_write_all(o.csv, o.markdown, o.json, cols, NCOLS, md.k, cells, &sp);
    kpca_model_free(&md);
    return r;
}

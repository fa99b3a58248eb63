/* cmd_denoise.c - kpca denoise: reconstruct points from their first K
 * components (pre-images, lib/ext/preimage.h), optionally after adding seeded
 * Gaussian noise, and report the mean squared error to the clean input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/input.h"
#include "cli/modeldata.h"
#include "cli/opt.h"
#include "cli/prologue.h"
#include "cli/spool.h"
#include "cli/table.h"
#include "lib/file/atomic.h"

static struct {
    size_t components, max_iter;
    double noise, tol;
    long seed;
    const char *output, *oformat, *noisy_output, *csv;
    int quiet, plain;
    const char *memory_limit;
    int verbose;
    cli_input in;
} o;

static const cli_option options[] = {
    {"components", 'k', "K", CLI_SIZE, &o.components, 1, 1e9, "reconstruct from the first K components (required)"},
    {"output", 'o', "FILE", CLI_STRING, &o.output, 0, 0,
     "write the pre-images (pixels, labels kept) to FILE; - is standard output (required)"},
    {"output-format", 'f', "FMT", CLI_STRING, &o.oformat, 0, 0,
     "hdf5, libsvm, csv or npy (default: from FILE's suffix: .h5 or .hdf5, .csv, .npy, .libsvm .svm or .txt; "
     "libsvm for -; another suffix needs -f)"},
    {"noise", 0, "S", CLI_DOUBLE, &o.noise, 0, 1e300,
     "first add Gaussian noise of standard deviation S to every value (default: 0, none)"},
    {"seed", 's', "N", CLI_INT, &o.seed, 0, 9007199254740992.0, "seed of the noise (default: 1)"},
    {"noisy-output", 0, "FILE", CLI_STRING, &o.noisy_output, 0, 0,
     "also write the noisy input to FILE (format from its suffix)"},
    {"max-iter", 0, "I", CLI_SIZE, &o.max_iter, 1, 1e9,
     "at most I fixed-point steps per point (default: " CLI_STR(KPCA_PREIMAGE_MAX_ITER) ")"},
    {"tol", 0, "T", CLI_DOUBLE, &o.tol, 1e-300, 1,
     "converged when a step moves z by <= T |z| (default: " CLI_STR(KPCA_PREIMAGE_TOL) ")"},
    {"plain", 0, NULL, CLI_FLAG, &o.plain, 0, 0,
     "take every fixed-point step as it is, without halving (the unguarded iteration, for comparison)"},
    {"csv", 0, "FILE", CLI_STRING, &o.csv, 0, 0, "also write the errors and iteration counts as a one-row CSV table to FILE"},
    {"quiet", 'q', NULL, CLI_FLAG, &o.quiet, 0, 0, "print nothing but errors"},
    CLI_MEMORY_OPTION(o.memory_limit),
    CLI_VERBOSE_OPTION(o.verbose),
    CLI_INPUT_OPTIONS(o.in),
};

const cli_command cli_denoise_command = {
    "denoise", "[options] MODEL DATA -k K -o OUT", "reconstruct DATA from K components of MODEL (pre-images)",
    "Each point (after --noise, if given) is projected onto the first K\n"
    "components and mapped back to input space: the pre-image z minimises\n"
    "|Phi(z) - P_K Phi(x)|^2. rbf: the fixed point of Mika et al. (1999);\n"
    "poly, sigmoid, linear: z = sum_i gamma_i f'(x_i.z) x_i / f'(z.z); every step is\n"
    "halved until it does not increase the objective. Starts at the point itself;\n"
    "linear is PCA reconstruction. Prints the mean squared error per value to\n"
    "the clean DATA.  Models of the exact and randomized solvers only (a\n"
    "Nystrom model's points are landmarks), of the kernels poly, rbf, sigmoid\n"
    "and linear (a precomputed kernel has no input space).",
    options, sizeof options / sizeof options[0], cmd_denoise, 2, 2,
};

/* mean over all values of (a - b)^2 */
static double mse(const double *a, const double *b, size_t count)
{
    double s = 0.0;
    for (size_t i = 0; i < count; i++)
        s += (a[i] - b[i]) * (a[i] - b[i]);
    return count ? s / (double)count : 0.0;
}

static int write_csv(const char *path, const char *model, size_t k, const kpca_dataset *ds, double mse_in,
                     double mse_out, const kpca_preimage_info *info)
{
    kpca_atomic at;
    kpca_error err;
    if (kpca_atomic_begin(&at, path, &err) != KPCA_OK)
        return cli_fail(&err);
    fprintf(at.fp, "model,components,points,dim,noise,seed,mse_input,mse_preimage,iter_mean,iter_max,"
                   "converged,max_iter_hit,restarted,stalled,halvings\n");
    /* the model path is quoted as CSV requires */
    fputc('"', at.fp);
    for (const char *c = model; *c; c++)
        fprintf(at.fp, *c == '"' ? "\"\"" : "%c", *c);
    fprintf(at.fp, "\",%zu,%zu,%zu,%.17g,%ld,%.17g,%.17g,%.6g,%zu,%zu,%zu,%zu,%zu,%zu\n", k, ds->n, ds->dim, o.noise,
            o.seed, mse_in, mse_out, info->iter_mean, info->iter_max, info->converged, info->max_iter_hit,
            info->restarted, info->stalled, info->halvings);
    if (ferror(at.fp)) {
        kpca_atomic_abort(&at);
        cli_error("cannot write '%s'", path);
        return KPCA_EIO;
    }
    return kpca_atomic_commit(&at, &err) == KPCA_OK ? 0 : cli_fail(&err);
}

int cmd_denoise(int argc, char **argv)
{
    memset(&o, 0, sizeof o);
    o.in.round = -1;
    o.seed = 1;
    o.max_iter = KPCA_PREIMAGE_MAX_ITER;
    o.tol = KPCA_PREIMAGE_TOL;
    char *pos[2];
    int npos;
    int r = cli_begin(&cli_denoise_command, argc, argv, pos, &npos,
                      (cli_common){&o.quiet, &o.verbose, &o.memory_limit});
    if (r != 0)
        return r < 0 ? 0 : r;
    if (o.output == NULL)
        return cli_usage("no output file: give one with -o OUT");
    if (o.components == 0)
        return cli_usage("no component count: give one with -k K");
    kpca_format ofmt, nfmt = KPCA_FMT_AUTO;
    if (cli_output_format(o.output, o.oformat, &ofmt) != 0 ||
        (o.noisy_output != NULL && cli_output_format(o.noisy_output, NULL, &nfmt) != 0))
        return KPCA_EUSAGE;
    if ((r = cli_check_outputs(o.output, o.noisy_output, o.csv, NULL)) != 0)
        return r;
    kpca_model model;
    kpca_dataset clean, noisy;
    kpca_error err;
    memset(&noisy, 0, sizeof noisy);
    if ((r = cli_load_model_data(pos[0], pos[1], &o.in, &model, &clean)) != 0)
        return r;
    if (clean.unlabelled && (ofmt == KPCA_FMT_LIBSVM || nfmt == KPCA_FMT_LIBSVM)) {
        cli_error("'%s' has no labels, and LIBSVM lines begin with one: write '%s' as csv, npy or hdf5 (-f)", pos[1],
                  ofmt == KPCA_FMT_LIBSVM ? o.output : o.noisy_output);
        r = KPCA_EUSAGE;
        goto out;
    }
    if (o.components > model.k) {
        cli_error("'%s' has %zu components: cannot reconstruct from %zu", pos[0], model.k, o.components);
        r = KPCA_EUSAGE;
        goto out;
    }
    const size_t n = clean.n, dim = clean.dim;
    kpca_status st = kpca_dataset_alloc(&noisy, n, dim, &err);
    double *z = st == KPCA_OK ? kpca_alloc_array(n ? n : 1, dim, sizeof(double)) : NULL;
    if (st == KPCA_OK && z == NULL)
        st = kpca_fail(&err, KPCA_ENOMEM, "out of memory for %zu x %zu pre-images", n, dim);
    if (st != KPCA_OK) {
        r = cli_fail(&err);
        goto out;
    }
    memcpy(noisy.x, clean.x, n * dim * sizeof(double));
    memcpy(noisy.y, clean.y, n * sizeof(int));
    if (o.noise > 0.0)
        kpca_dataset_add_noise(&noisy, o.noise, (uint64_t)o.seed);
    kpca_preimage_params pp = kpca_preimage_defaults();
    pp.max_iter = o.max_iter;
    pp.tol = o.tol;
    pp.plain = o.plain;
    kpca_preimage_info info;
    /* a standardised model works on standardised points: the pre-images
     * come back in DATA's units */
    double *in = noisy.x;
    if (model.std_mean != NULL && (in = kpca_alloc_array(n ? n : 1, dim, sizeof(double))) == NULL)
        st = kpca_fail(&err, KPCA_ENOMEM, "out of memory for %zu x %zu standardised points", n, dim);
    if (st == KPCA_OK && in != noisy.x) {
        memcpy(in, noisy.x, n * dim * sizeof(double));
        cli_standardize(&model, in, n);
    }
    if (st == KPCA_OK)
        st = kpca_preimage(&model, in, n, dim, o.components, &pp, z, NULL, &info, &err);
    if (st == KPCA_OK && model.std_mean != NULL)
        kpca_unstandardize(z, n, dim, model.std_mean, model.std_scale);
    if (in != noisy.x)
        kpca_free(in);
    double mse_in = mse(noisy.x, clean.x, n * dim), mse_out = mse(z, clean.x, n * dim);
    kpca_features_meta meta = {cli_arg_name(pos[0]), cli_arg_name(pos[1]), NULL, "kpca-preimages", 'x', 0, clean.names, clean.nnames};
    const int *labels = clean.unlabelled ? NULL : clean.y; /* none written for data without them */
    if (st == KPCA_OK) {
        cli_warn_names_dropped(&clean, ofmt);
        kpca_progress("write", 0, 1);
        st = kpca_features_write(o.output, ofmt, z, n, dim, labels, &meta, &err);
        kpca_progress("write", 1, 1);
    }
    if (st == KPCA_OK && o.noisy_output != NULL) {
        meta.model = NULL;
        meta.format = "kpca-noisy";
        st = kpca_features_write(o.noisy_output, nfmt, noisy.x, n, dim, labels, &meta, &err);
    }
    kpca_free(z);
    if (st != KPCA_OK) {
        r = cli_fail(&err);
        goto out;
    }
    cli_info("denoise: %zu points from %zu components -> '%s' (%s); steps mean %.1f, max %zu; "
             "%zu converged, %zu at --max-iter, %zu restarted, %zu stalled",
             n, o.components, o.output, kpca_format_name(ofmt), info.iter_mean, info.iter_max, info.converged,
             info.max_iter_hit, info.restarted, info.stalled);
    if (o.noise > 0.0)
        cli_info("denoise: mean squared error to the clean data: noisy %.6f, pre-images %.6f", mse_in, mse_out);
    else
        cli_info("denoise: mean squared error to the input: %.6f", mse_out);
    if (o.csv != NULL)
        r = write_csv(o.csv, cli_arg_name(pos[0]), o.components, &clean, mse_in, mse_out, &info);
out:
    kpca_dataset_free(&noisy);
    kpca_dataset_free(&clean);
    kpca_model_free(&model);
    return r;
}

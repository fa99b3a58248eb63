/* cmd_reduce.c - kpca reduce: a reduced-set model (reduce.h) of a fitted one. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/input.h"
#include "cli/opt.h"
#include "cli/progress.h"
#include "cli/prologue.h"

static struct {
    size_t vectors, components, iter;
    long seed;
    const char *output, *method, *init;
    int weight_eigval;
    int quiet;
    const char *memory_limit;
    int verbose;
} o;

static const cli_option options[] = {
    {"vectors", 'm', "M_RED", CLI_SIZE, &o.vectors, 1, 1e9,
     "the reduced set's size: M_RED vectors shared by all components, at most the fit points (required)"},
    {"output", 'o', "FILE", CLI_STRING, &o.output, 0, 0, "write the reduced model to FILE (HDF5; required)"},
    {"components", 'k', "K", CLI_SIZE, &o.components, 1, 1e9, "reduce the first K components (default: all)"},
    {"method", 0, "NAME", CLI_STRING, &o.method, 0, 0,
     "eig (eigenvectors of each component's quadratic form, kernel (gamma x.y)^2 only; exact with enough "
     "vectors), lbfgs (poly, rbf, linear; not sigmoid) or auto: eig when it is exact within M_RED, else lbfgs (default: auto)"},
    {"init", 0, "HOW", CLI_STRING, &o.init, 0, 0,
     "lbfgs: start at a random subset of the fit points (subset) or at their k-means centres (kmeans) "
     "(default: subset)"},
    {"iter", 0, "N", CLI_SIZE, &o.iter, 0, 100000,
     "lbfgs: optimise the vectors for at most N L-BFGS iterations; 0 keeps the start (default: 20)"},
    {"seed", 's', "S", CLI_INT, &o.seed, 1, 9007199254740992.0, "lbfgs: the seed of the start (default: 1)"},
    {"weight-eigenvalues", 0, NULL, CLI_FLAG, &o.weight_eigval, 0, 0,
     "minimise sum_c (mu_c/mu_1) rho_c instead of sum_c rho_c"},
    {"quiet", 'q', NULL, CLI_FLAG, &o.quiet, 0, 0, "print nothing but errors"},
    CLI_MEMORY_OPTION(o.memory_limit),
    CLI_VERBOSE_OPTION(o.verbose),
};

const cli_command cli_reduce_command = {
    "reduce", "[options] MODEL -m M_RED -o SMALL", "approximate MODEL's components on a reduced set of vectors",
    "The paper's section 4.3 (Burges 1996): each component V = sum_i alpha_i Phi(x_i)\n"
    "becomes V~ = sum_j beta_j Phi(z_j) on M_RED vectors z_j shared by all\n"
    "components, minimising the residuals rho = |V - V~|^2, so that a projection\n"
    "costs M_RED kernel values instead of one per fit point.  Projection keeps\n"
    "the full model's centring (the mean over its fit points).  The reduced\n"
    "model works with transform and info (which prints every residual with -e);\n"
    "spectrum and denoise refuse it.  MODEL must come from the exact or\n"
    "randomized solver, with the kernel poly, rbf or linear (a precomputed\n"
    "kernel has no input space for the vectors).",
    options, sizeof options / sizeof options[0], cmd_reduce, 1, 1,
};

int cmd_reduce(int argc, char **argv)
{
    memset(&o, 0, sizeof o);
    o.iter = (size_t)-1;
    char *pos[1];
    int npos;
    /* the progress meter starts after the model is loaded (below) */
    int r = cli_begin(&cli_reduce_command, argc, argv, pos, &npos, (cli_common){&o.quiet, NULL, &o.memory_limit});
    if (r != 0)
        return r < 0 ? 0 : r;
    if (o.vectors == 0)
        return cli_usage("no reduced-set size: give one with -m M_RED");
    if (o.output == NULL)
        return cli_usage("no output file: give one with -o SMALL");
    kpca_reduce_params p = kpca_reduce_defaults();
    p.vectors = o.vectors;
    p.components = o.components;
    p.weight_eigval = o.weight_eigval;
    if (o.iter != (size_t)-1)
        p.max_iter = o.iter;
    if (o.seed)
        p.seed = (uint64_t)o.seed;
    if (o.method && kpca_reduce_method_parse(o.method, &p.method) != 0)
        return cli_usage("unknown method '%s' (expected auto, eig or lbfgs)", o.method);
    if (o.init && kpca_reduce_init_parse(o.init, &p.init) != 0)
        return cli_usage("unknown start '%s' (expected subset or kmeans)", o.init);
    struct stat si, so;
    if (strcmp(o.output, pos[0]) == 0 ||
        (stat(pos[0], &si) == 0 && stat(o.output, &so) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino)) {
        cli_error("the output '%s' is the input model: write the reduced model to another file", o.output);
        return KPCA_EUSAGE;
    }
    if ((r = cli_check_outputs(o.output, NULL, NULL, NULL)) != 0)
        return r;
    kpca_model full, small;
    kpca_error err;
    if (kpca_model_load(pos[0], &full, &err) != KPCA_OK)
        return cli_fail_input(&err, pos[0]);
    cli_progress_begin("reduce", o.quiet, o.verbose, cli_rank);
    kpca_reduce_info info;
    kpca_status st = kpca_reduce(&full, &p, &small, &info, &err);
    if (st == KPCA_OK)
        st = kpca_model_save(&small, o.output, &err);
    if (st == KPCA_OK) {
        double worst = 0.0;
        for (size_t c = 0; c < small.k; c++)
            worst = small.rho[c] > worst ? small.rho[c] : worst;
        cli_info("%zu components of %zu fit points on %zu vectors (%s): total residual %.6g -> %.6g, largest %.3g; "
                 "%zu iterations, %.2f s -> '%s'",
                 small.k, full.m, small.m, kpca_reduce_method_name(info.method), info.rho_start, info.rho_final, worst,
                 info.iters, info.seconds, o.output);
        kpca_model_free(&small);
    }
    kpca_model_free(&full);
    return st == KPCA_OK ? 0 : cli_fail(&err);
}

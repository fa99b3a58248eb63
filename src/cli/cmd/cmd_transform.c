/* cmd_transform.c - kpca transform: project data onto a model's components. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static struct {
    size_t components;
    const char *output, *oformat, *precision;
    int quiet, no_primal;
    const char *memory_limit;
    int verbose;
    cli_input in;
} o;

static const cli_option options[] = {
    {"components", 'k', "K", CLI_SIZE, &o.components, 1, 1e9, "project onto the first K components (default: all)"},
    {"output", 'o', "FILE", CLI_STRING, &o.output, 0, 0, "write the features to FILE; - is standard output (required)"},
    {"output-format", 'f', "FMT", CLI_STRING, &o.oformat, 0, 0,
     "hdf5, libsvm, csv or npy (default: from FILE's suffix: .h5 or .hdf5, .csv, .npy, .libsvm .svm or .txt; "
     "libsvm for -; another suffix needs -f)"},
    CLI_PRECISION_OPTION(o.precision, "the projection's product with alpha (single: SGEMM on the centred kernel rows "
                                      "rounded; the features stay double; the primal weights are always double) "
                                      "(default: the model's, kpca info)"),
    {"no-primal", 0, NULL, CLI_FLAG, &o.no_primal, 0, 0,
     "compute each point's kernel row against all M model points even where the D x K primal weights give the same "
     "features faster (the default for linear and degree-1 kernels, coef0 0, D < M values per point)"},
    {"quiet", 'q', NULL, CLI_FLAG, &o.quiet, 0, 0, "print nothing but errors"},
    CLI_MEMORY_OPTION(o.memory_limit),
    CLI_VERBOSE_OPTION(o.verbose),
    CLI_INPUT_OPTIONS(o.in),
};

const cli_command cli_transform_command = {
    "transform", "[options] MODEL DATA -o FEATURES", "project DATA onto the components of MODEL",
    "Each point's kernel row against the fit points is centred with the fit's\n"
    "column means and grand mean, then multiplied by alpha; for a kernel gamma\n"
    "x.y with fewer values per point than model points, the centred point is\n"
    "multiplied by the D x K primal weights W = gamma Xc' alpha' instead (the\n"
    "same features to rounding; --no-primal: the kernel rows). The labels of DATA\n"
    "are kept with the features, class names too in HDF5 (class_names) and CSV;\n"
    "LIBSVM labels are numbers, so named classes are written as their codes\n"
    "0..C-1, with a warning saying which name each stands for.\n"
    "A model of --kernel precomputed takes as DATA the n x M kernel values\n"
    "k(x_new, x_j) of the new points against all M points of its kernel matrix\n"
    "GRAM, in GRAM's order (the model picks its fit points' columns); another\n"
    "width is refused.  DATA gets the model's input steps: its smoothing and\n"
    "standardisation (kpca info), and its fit columns by name from a file with a\n"
    "header (by position without).",
    options, sizeof options / sizeof options[0], cmd_transform, 2, 2,
};

int cmd_transform(int argc, char **argv)
{
    memset(&o, 0, sizeof o);
    o.in.round = -1;
    char *pos[2];
    int npos;
    int r = cli_begin(&cli_transform_command, argc, argv, pos, &npos,
                      (cli_common){&o.quiet, &o.verbose, &o.memory_limit});
    if (r != 0)
        return r < 0 ? 0 : r;
    if (o.output == NULL) {
        cli_error("no output file: give one with -o FEATURES");
        cli_hint(&cli_transform_command);
        return KPCA_EUSAGE;
    }
    kpca_format ofmt;
    if (cli_output_format(o.output, o.oformat, &ofmt) != 0)
        return KPCA_EUSAGE;
    kpca_precision prec = KPCA_PRECISION_DEFAULT;
    if (cli_parse_precision(o.precision, &prec) != 0)
        return KPCA_EUSAGE;
    if (cli_rank == 0 && (r = cli_check_outputs(o.output, NULL, NULL, NULL)) != 0)
        return r;
    kpca_model model;
    kpca_dataset ds;
    kpca_error err;
    if ((r = cli_load_model_data(pos[0], pos[1], &o.in, &model, &ds)) != 0)
        return r;
    if (ds.unlabelled && ofmt == KPCA_FMT_LIBSVM) {
        cli_error("'%s' has no labels, and LIBSVM lines begin with one: write '%s' as csv, npy or hdf5 (-f)", pos[1],
                  o.output);
        kpca_dataset_free(&ds);
        kpca_model_free(&model);
        return KPCA_EUSAGE;
    }
    if (o.precision != NULL) /* the model in memory projects in its precision */
        model.precision = prec;
    model.no_primal = o.no_primal;
    size_t k = o.components ? o.components : model.k;
    if (k > model.k) {
        cli_error("'%s' has %zu components: cannot project onto %zu", pos[0], model.k, k);
        kpca_dataset_free(&ds);
        kpca_model_free(&model);
        return KPCA_EUSAGE;
    }
    cli_standardize(&model, ds.x, ds.n); /* as the fit data was */
    double *z = kpca_alloc_array(ds.n, k, sizeof(double));
    kpca_status st = z == NULL ? kpca_fail(&err, KPCA_ENOMEM, "out of memory for %zu x %zu features", ds.n, k)
                               : cli_project(&model, ds.x, ds.n, ds.dim, k, z, &err);
    if (st == KPCA_OK && cli_rank == 0) {
        kpca_features_meta meta = {cli_arg_name(pos[0]), cli_arg_name(pos[1]), model.eigval, NULL, 0, kpca_model_fingerprint(&model),
                                   ds.unlabelled ? NULL : ds.names, ds.nnames};
        cli_warn_names_dropped(&ds, ofmt);
        kpca_progress("write", 0, 1);
        st = kpca_features_write(o.output, ofmt, z, ds.n, k, ds.unlabelled ? NULL : ds.y, &meta, &err);
        kpca_progress("write", 1, 1);
    }
    if (st == KPCA_OK)
        cli_info("transform: %zu points onto %zu components -> '%s' (%s)", ds.n, k, o.output, kpca_format_name(ofmt));
    kpca_free(z);
    kpca_dataset_free(&ds);
    kpca_model_free(&model);
    return st == KPCA_OK ? 0 : cli_fail(&err);
}

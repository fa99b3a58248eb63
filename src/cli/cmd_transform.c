/* cmd_transform.c - kpca transform: project data onto a model's components. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static struct {
    size_t components;
    const char *output, *oformat;
    int quiet;
    const char *memory_limit;
    int verbose;
    cli_input in;
} o;

static const cli_option options[] = {
    {"components", 'k', "K", CLI_SIZE, &o.components, 1, 1e9, "project onto the first K components (default: all)"},
    {"output", 'o', "FILE", CLI_STRING, &o.output, 0, 0, "write the features to FILE; - is standard output (required)"},
    {"output-format", 'f', "FMT", CLI_STRING, &o.oformat, 0, 0,
     "hdf5, libsvm or csv (default: from FILE's suffix: .h5 .csv, else libsvm)"},
    {"quiet", 'q', NULL, CLI_FLAG, &o.quiet, 0, 0, "print nothing but errors"},
    CLI_MEMORY_OPTION(o.memory_limit),
    CLI_VERBOSE_OPTION(o.verbose),
    CLI_INPUT_OPTIONS(o.in),
};

const cli_command cli_transform_command = {
    "transform", "[options] MODEL DATA -o FEATURES", "project DATA onto the components of MODEL",
    "Each point's kernel row against the fit points is centred with the fit's\n"
    "column means and grand mean, then multiplied by alpha. The labels of DATA\n"
    "are kept with the features.",
    options, sizeof options / sizeof options[0], cmd_transform, 2, 2,
};

int cmd_transform(int argc, char **argv)
{
    memset(&o, 0, sizeof o);
    o.in.round = -1;
    char *pos[2];
    int npos;
    int r = cli_parse(&cli_transform_command, argc, argv, pos, &npos);
    if (r != 0)
        return r == 1 ? 0 : r;
    if (cli_set_memory_limit(o.memory_limit) != 0)
        return KPCA_EUSAGE;
    cli_progress_begin("transform", o.quiet, o.verbose);
    cli_quiet = o.quiet;
    if (o.output == NULL) {
        cli_error("no output file: give one with -o FEATURES");
        cli_hint(&cli_transform_command);
        return KPCA_EUSAGE;
    }
    kpca_format ofmt = kpca_format_from_name(o.output);
    if (o.oformat != NULL && (kpca_format_parse(o.oformat, &ofmt) != 0 || ofmt == KPCA_FMT_ESL ||
                              ofmt == KPCA_FMT_AUTO)) {
        cli_usage("option '--output-format': expected hdf5, libsvm or csv, got '%s'", o.oformat);
        return KPCA_EUSAGE;
    }
    kpca_model model;
    kpca_error err;
    kpca_progress("load model", 0, 1);
    kpca_status lst = kpca_model_load(pos[0], &model, &err);
    kpca_progress("load model", 1, 1);
    if (lst != KPCA_OK)
        return cli_fail(&err);
    size_t k = o.components ? o.components : model.k;
    if (k > model.k) {
        cli_error("'%s' has %zu components: cannot project onto %zu", pos[0], model.k, k);
        kpca_model_free(&model);
        return KPCA_EUSAGE;
    }
    kpca_dataset ds;
    r = cli_read_input(pos[1], &o.in, model.dim, &ds);
    if (r != 0) {
        kpca_model_free(&model);
        return r;
    }
    if (ds.dim != model.dim) {
        cli_error("'%s' has %zu values per point but the model '%s' expects %zu", pos[1], ds.dim, pos[0], model.dim);
        kpca_dataset_free(&ds);
        kpca_model_free(&model);
        return KPCA_EFORMAT;
    }
    double lo, hi, span = model.input_hi - model.input_lo;
    kpca_dataset_range(&ds, &lo, &hi);
    if (span > 0 && (fabs(lo - model.input_lo) > 0.25 * span || fabs(hi - model.input_hi) > 0.25 * span))
        cli_warn("'%s' has values in [%g, %g] but the model was fit on values in [%g, %g]; "
                 "rescale with --input-range?", pos[1], lo, hi, model.input_lo, model.input_hi);
    double *z = kpca_alloc_array(ds.n, k, sizeof(double));
    kpca_status st = z == NULL ? kpca_fail(&err, KPCA_ENOMEM, "out of memory for %zu x %zu features", ds.n, k)
                               : kpca_model_transform(&model, ds.x, ds.n, ds.dim, k, z, &err);
    if (st == KPCA_OK) {
        kpca_features_meta meta = {pos[0], pos[1], model.eigval, NULL, 0};
        kpca_progress("write", 0, 1);
        st = kpca_features_write(o.output, ofmt, z, ds.n, k, ds.y, &meta, &err);
        kpca_progress("write", 1, 1);
    }
    if (st == KPCA_OK)
        cli_info("transform: %zu points onto %zu components -> '%s' (%s)", ds.n, k, o.output, kpca_format_name(ofmt));
    free(z);
    kpca_dataset_free(&ds);
    kpca_model_free(&model);
    return st == KPCA_OK ? 0 : cli_fail(&err);
}

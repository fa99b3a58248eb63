/* cmd_transform.c - kpca transform: project data onto a model's components,
 * a block of rows at a time: read (cli_model_rows), projected
 * (core/project.h) and written (io/featfile.h), so that memory does not
 * grow with the rows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd/cmd_transform.h"
#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/datarows.h"
#include "cli/input.h"
#include "cli/modeldata.h"
#include "cli/opt.h"
#include "cli/prologue.h"
#include "cli/spool.h"
#include "cli/table.h"
#include "lib/core/project.h"
#include "lib/support/blas.h"

static struct {
    size_t components, block;
    const char *output, *oformat, *precision;
    int quiet, no_primal;
    const char *memory_limit, *device;
    int verbose;
    cli_input in;
} o;

static const cli_option options[] = {
    {"components", 'k', "K", CLI_SIZE, &o.components, 1, 1e9, "project onto the first K components (default: all)"},
    {"output", 'o', "FILE", CLI_STRING, &o.output, 0, 0, "write the features to FILE; - is standard output (required)"},
    {"output-format", 'f', "FMT", CLI_STRING, &o.oformat, 0, 0,
     "hdf5, libsvm, csv or npy (default: from FILE's suffix: .h5 or .hdf5, .csv, .npy, .libsvm .svm or .txt; "
     "libsvm for -; another suffix needs -f)"},
    CLI_DEVICE_OPTION(o.device, "accepted, and cuda checks that a GPU is usable, but transform runs on the CPU for now "
                                "(its products move to the GPU when a measurement shows the copy pays)"),
    CLI_PRECISION_OPTION(o.precision, "the projection's product with alpha (single: SGEMM on the centred kernel rows "
                                      "rounded; the features stay double; the primal weights are always double) "
                                      "(default: the model's, kpca info)"),
    {"no-primal", 0, NULL, CLI_FLAG, &o.no_primal, 0, 0,
     "compute each point's kernel row against all M model points even where the D x K primal weights give the same "
     "features faster (the default for linear and degree-1 kernels, coef0 0, D < M values per point)"},
    {"block", 0, "ROWS", CLI_SIZE, &o.block, 1, 1e7,
     "read and write ROWS rows at a time; memory grows with it, the features do not change (default: 1024)"},
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
    "header (by position without).  DATA is read, projected and written a block\n"
    "of rows at a time: memory holds the model, a block of DATA and a block of\n"
    "features, whatever the rows (an HDF5 file to standard output is built in\n"
    "memory).  Standard input is read into a temporary file first (TMPDIR).",
    options, sizeof options / sizeof options[0], cmd_transform, 2, 2,
};

/* ---- one process: every row, one writer ------------------------------------ */

static void one_rows(size_t n, const kpca_rowsrc *src, size_t *first, size_t *count)
{
    (void)src;
    *first = 0;
    *count = n;
}

static kpca_status one_open(const char *path, kpca_format fmt, size_t n, size_t k, int labelled,
                            const kpca_features_meta *meta, size_t first, size_t count, kpca_features_writer **w,
                            kpca_error *err)
{
    (void)first;
    (void)count;
    return kpca_features_open(path, fmt, n, k, labelled, meta, w, err);
}

static kpca_status one_agree(kpca_status st, kpca_error *err)
{
    (void)err;
    return st;
}

static void one_reduce(cli_data_stats *s)
{
    (void)s;
}

static kpca_status one_close(kpca_features_writer *w, kpca_status st, kpca_error *err)
{
    if (st == KPCA_OK)
        return kpca_features_commit(w, err);
    kpca_features_abort(w);
    return st;
}

static const cli_transform_io one_process = {one_rows, one_open, one_agree, one_reduce, one_close};
const cli_transform_io *cli_transform_out = &one_process;

/* Rows [first, first + count) of mr: read `io` rows at a time into a buffer
 * of cap rows (whole projection blocks), projected, written `io` rows at a
 * time. */
static kpca_status stream(cli_model_rows *mr, kpca_projector *pj, kpca_features_writer *w, size_t first, size_t count,
                          size_t k, size_t io, size_t cap, kpca_error *err)
{
    const size_t dim = mr->dim;
    double *x = kpca_alloc_array(cap, dim, sizeof(double));
    double *z = kpca_alloc_array(cap, k, sizeof(double));
    int *y = kpca_alloc_array(cap, 1, sizeof(int));
    kpca_status st = KPCA_OK;
    if (x == NULL || z == NULL || y == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for blocks of %zu rows", cap);
    for (size_t done = 0; st == KPCA_OK && done < count;) {
        size_t have = 0, want = count - done < cap ? count - done : cap;
        while (st == KPCA_OK && have < want) {
            size_t got = 0, ask = want - have < io ? want - have : io;
            st = cli_model_rows_read(mr, ask, x + have * dim, y + have, &got, err);
            if (st == KPCA_OK && got == 0)
                st = kpca_fail(err, KPCA_EIO, "'%s' ended after %zu rows, not %zu", mr->data_path, first + done + have,
                               mr->n);
            have += got;
        }
        if (st == KPCA_OK)
            st = kpca_projector_run(pj, x, have, first + done, z, err);
        for (size_t put = 0; st == KPCA_OK && put < have; put += io) {
            size_t rows = have - put < io ? have - put : io;
            kpca_progress("write", first + done + put, mr->n);
            st = kpca_features_put(w, z + put * k, y + put, rows, err);
        }
        done += have;
    }
    kpca_free(x);
    kpca_free(z);
    kpca_free(y);
    return st;
}

int cmd_transform(int argc, char **argv)
{
    memset(&o, 0, sizeof o);
    o.in.round = -1;
    o.block = KPCA_TRANSFORM_BLOCK;
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
    if ((r = cli_device_begin(o.device, NULL)) != 0)
        return r;
    cli_device_cpu_for_now("transform's products");
    kpca_model model;
    cli_model_rows mr;
    kpca_error err;
    if ((r = cli_load_model(pos[0], &o.in, &model)) != 0)
        return r;
    if ((r = cli_model_rows_open(pos[0], pos[1], &o.in, &model, &mr)) != 0) {
        kpca_model_free(&model);
        return r;
    }
    const kpca_dataset *info = mr.info;
    size_t k = o.components ? o.components : model.k;
    if (info->unlabelled && ofmt == KPCA_FMT_LIBSVM) {
        cli_error("'%s' has no labels, and LIBSVM lines begin with one: write '%s' as csv, npy or hdf5 (-f)", pos[1],
                  o.output);
        r = KPCA_EUSAGE;
    } else if (k > model.k) {
        cli_error("'%s' has %zu components: cannot project onto %zu", pos[0], model.k, k);
        r = KPCA_EUSAGE;
    }
    if (r != 0) {
        cli_model_rows_close(&mr);
        kpca_model_free(&model);
        return r;
    }
    if (o.precision != NULL) /* the model in memory projects in its precision */
        model.precision = prec;
    model.no_primal = o.no_primal;
    const cli_transform_io *io = cli_transform_out;
    size_t first, count;
    io->rows(mr.n, mr.src, &first, &count);
    kpca_features_meta meta = {cli_arg_name(pos[0]), cli_arg_name(pos[1]), model.eigval, NULL, 0, kpca_model_fingerprint(&model),
                               info->unlabelled ? NULL : info->names, info->nnames};
    kpca_features_writer *w = NULL;
    kpca_projector *pj = NULL;
    kpca_status st = kpca_rowsrc_seek(mr.src, first, &err);
    /* whole projection blocks (their cuts fix the features' bits), filled
     * and emptied o.block rows at a time */
    const size_t cap = (o.block + KPCA_TRANSFORM_BLOCK - 1) / KPCA_TRANSFORM_BLOCK * KPCA_TRANSFORM_BLOCK;
    if (st == KPCA_OK)
        st = kpca_projector_new(&model, k, count < cap ? count : cap, &pj, &err);
    kpca_status ost = io->open(o.output, ofmt, mr.n, k, !info->unlabelled, &meta, first, count, &w, &err);
    if (ost != KPCA_OK) { /* every process failed here (open is collective) */
        kpca_projector_free(pj);
        cli_model_rows_close(&mr);
        kpca_model_free(&model);
        return cli_fail(&err);
    }
    /* A block's product too small to pay for OpenBLAS's workers runs on
     * one thread (the read's parsers take the cores), and the workers the
     * set-up's products woke are parked: they would spin through the first
     * windows' read.  (Large products wake them again.) */
    if (pj != NULL && kpca_projector_block_flops(pj) < KPCA_BLAS_SERIAL_FLOPS)
        kpca_blas_set_threads(1);
    kpca_blas_park();
    if (st == KPCA_OK && count > 0)
        st = stream(&mr, pj, w, first, count, k, o.block, cap, &err);
    kpca_projector_free(pj);
    st = io->agree(st, &err);
    if (st == KPCA_OK) {
        io->reduce(&mr.stats);
        cli_model_rows_say(&mr);
        cli_warn_names_dropped(info, ofmt);
    }
    kpca_progress("write", 0, 1);
    st = io->close(w, st, &err);
    kpca_progress("write", 1, 1);
    if (st == KPCA_OK)
        cli_info("transform: %zu points onto %zu components -> '%s' (%s)", mr.n, k, o.output, kpca_format_name(ofmt));
    cli_model_rows_close(&mr);
    kpca_model_free(&model);
    return st == KPCA_OK ? 0 : cli_fail(&err);
}

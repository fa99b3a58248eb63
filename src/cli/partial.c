/* partial.c - the partial files of kpca fit --solver nystrom --partial and
 * kpca merge (partial.h: cli_partial; the layout: docs/file-formats.md,
 * "Partial file"). */
#include <math.h>
#include <string.h>

#include "partial.h"
#include "cli.h"
#include "lib/file/h5util.h"
#include "lib/file/h5write.h"
#include "rows.h"

void cli_partial_free(cli_partial *pt)
{
    kpca_nys_setup_free(&pt->setup);
    kpca_free(pt->acc);
    kpca_free(pt->std_mean);
    kpca_free(pt->std_scale);
    memset(pt, 0, sizeof *pt);
}

int cli_partial_write(const char *path, const cli_partial *pt)
{
    const kpca_nys_setup *s = &pt->setup;
    const size_t l = s->l, r = s->basis.r;
    kpca_error err;
    kpca_h5_quiet();
    kpca_h5_writer w;
    kpca_status st = kpca_h5_writer_open(&w, path, &err);
    if (st != KPCA_OK)
        return cli_fail(&err);
    hid_t f = w.file;
    const size_t d_x[2] = {l, s->dim}, d_w[2] = {r, l}, d_acc[2] = {kpca_nys_acc_packed(l, r), 0};
    st = kpca_h5_attr_write_string(f, path, "format", CLI_PARTIAL_FORMAT, &err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_long(f, path, "version", CLI_PARTIAL_VERSION, &err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_string(f, path, "kpca_version", KPCA_VERSION, &err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_string(f, path, "kernel", kpca_kernel_name(s->kernel.type), &err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_long(f, path, "degree", s->kernel.degree, &err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_double(f, path, "gamma", s->kernel.gamma, &err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_double(f, path, "coef0", s->kernel.coef0, &err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_double(f, path, "sigma", s->kernel.sigma, &err);
    if (st == KPCA_OK)
        st = kpca_h5_attr_write_string(f, path, "landmark_method", kpca_landmark_method_name(s->method), &err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_long(f, path, "seed", (long)s->seed, &err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_long(f, path, "landmarks", (long)l, &err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_long(f, path, "dim", (long)s->dim, &err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_long(f, path, "features", (long)r, &err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_double(f, path, "tol", pt->tol, &err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_long(f, path, "components", (long)pt->want, &err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_long(f, path, "fit_rows", (long)s->n, &err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_long(f, path, "rows_from", (long)pt->lo, &err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_long(f, path, "rows_to", (long)pt->hi, &err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_string(f, path, "data", pt->data, &err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_long(f, path, "data_rows", (long)pt->nall, &err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_string(f, path, "sample", cli_draw_name(pt->draw), &err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_long(f, path, "sample_seed", pt->seed, &err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_string(f, path, "subset", pt->subset, &err);
    for (size_t i = 0; st == KPCA_OK && i < CLI_PARTIAL_NOPTS; i++)
        st = kpca_h5_attr_write_string(f, path, cli_partial_opts[i], pt->opts[i], &err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_long(f, path, "round", pt->round, &err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_double(f, path, "smooth", pt->smooth, &err);
    if (st == KPCA_OK) st = kpca_h5_write_doubles(f, path, "landmarks", d_x, s->x, &err);
    if (st == KPCA_OK) st = kpca_h5_write_ints(f, path, "landmark_labels", l, s->y, &err);
    if (st == KPCA_OK) st = kpca_h5_write_doubles(f, path, "basis", d_w, s->basis.w, &err);
    if (st == KPCA_OK) st = kpca_h5_write_doubles(f, path, "accumulator", d_acc, pt->acc, &err);
    const size_t d_dim[2] = {s->dim, 0};
    if (st == KPCA_OK && pt->std_mean != NULL)
        st = kpca_h5_write_doubles(f, path, "std_mean", d_dim, pt->std_mean, &err);
    if (st == KPCA_OK && pt->std_mean != NULL)
        st = kpca_h5_write_doubles(f, path, "std_scale", d_dim, pt->std_scale, &err);
    st = kpca_h5_writer_close(&w, st, &err);
    return st == KPCA_OK ? 0 : cli_fail(&err);
}

const char *const cli_partial_opts[CLI_PARTIAL_NOPTS] = {"input_format", "header",  "label",       "labels",
                                                         "columns",      "drop",    "decimal",     "input_range",
                                                         "skip_rows"};

/* the attributes of a partial file into pt, its arrays unread */
static kpca_status read_attrs(hid_t f, const char *path, cli_partial *pt, kpca_error *err)
{
    kpca_nys_setup *s = &pt->setup;
    char name[32];
    long v[11] = {0};
    static const char *const longs[11] = {"version",  "degree",    "seed",    "landmarks", "dim",       "features",
                                          "components", "fit_rows", "rows_from", "rows_to", "data_rows"};
    kpca_status st = kpca_h5_attr_read_string(f, path, "format", name, sizeof name, err);
    if (st == KPCA_OK && strcmp(name, CLI_PARTIAL_FORMAT) != 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s' is not a partial file of kpca fit --partial (format '%s')", path,
                         name);
    for (size_t i = 0; st == KPCA_OK && i < 11; i++)
        st = kpca_h5_attr_read_long(f, path, longs[i], &v[i], err);
    if (st != KPCA_OK)
        return st;
    if (v[0] != CLI_PARTIAL_VERSION)
        return kpca_fail(err, KPCA_EFORMAT, "'%s' is a partial file of version %ld; this kpca reads version %d", path,
                         v[0], CLI_PARTIAL_VERSION);
    for (size_t i = 1; i < 11; i++)
        if (v[i] < 0)
            return kpca_fail(err, KPCA_EFORMAT, "'%s': attribute %s is negative (%ld)", path, longs[i], v[i]);
    s->kernel.degree = (int)v[1];
    s->seed = (uint64_t)v[2];
    s->l = (size_t)v[3];
    s->dim = (size_t)v[4];
    s->basis.r = (size_t)v[5];
    s->basis.l = s->l;
    pt->want = (size_t)v[6];
    s->n = (size_t)v[7];
    pt->lo = (size_t)v[8];
    pt->hi = (size_t)v[9];
    pt->nall = (size_t)v[10];
    st = kpca_h5_attr_read_string(f, path, "kernel", name, sizeof name, err);
    if (st == KPCA_OK && kpca_kernel_parse(name, &s->kernel.type) != 0)
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': unknown kernel '%s'", path, name);
    if (st == KPCA_OK) st = kpca_h5_attr_read_double(f, path, "gamma", &s->kernel.gamma, err);
    if (st == KPCA_OK) st = kpca_h5_attr_read_double(f, path, "coef0", &s->kernel.coef0, err);
    if (st == KPCA_OK) st = kpca_h5_attr_read_double(f, path, "sigma", &s->kernel.sigma, err);
    if (st == KPCA_OK) st = kpca_h5_attr_read_string(f, path, "landmark_method", name, sizeof name, err);
    if (st == KPCA_OK && kpca_landmark_method_parse(name, &s->method) != 0)
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': unknown landmark method '%s'", path, name);
    if (st == KPCA_OK) st = kpca_h5_attr_read_double(f, path, "tol", &pt->tol, err);
    if (st == KPCA_OK) st = kpca_h5_attr_read_text(f, path, "data", pt->data, sizeof pt->data, err);
    if (st == KPCA_OK) st = kpca_h5_attr_read_string(f, path, "sample", name, sizeof name, err);
    if (st == KPCA_OK && cli_draw_parse(name, &pt->draw) != 0)
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': unknown sample '%s'", path, name);
    if (st == KPCA_OK) st = kpca_h5_attr_read_long(f, path, "sample_seed", &pt->seed, err);
    if (st == KPCA_OK) st = kpca_h5_attr_read_text(f, path, "subset", pt->subset, sizeof pt->subset, err);
    for (size_t i = 0; st == KPCA_OK && i < CLI_PARTIAL_NOPTS; i++)
        if (i + 1 < CLI_PARTIAL_NOPTS || H5Aexists(f, cli_partial_opts[i]) > 0) /* (no skip_rows: an older file) */
            st = kpca_h5_attr_read_text(f, path, cli_partial_opts[i], pt->opts[i], sizeof pt->opts[i], err);
    if (st == KPCA_OK) st = kpca_h5_attr_read_long(f, path, "round", &pt->round, err);
    if (st == KPCA_OK) st = kpca_h5_attr_read_double(f, path, "smooth", &pt->smooth, err);
    if (st != KPCA_OK)
        return st;
    kpca_error why;
    if (s->kernel.type == KPCA_KERNEL_PRECOMPUTED || kpca_kernel_check(&s->kernel, &why) != KPCA_OK)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': not a kernel of a partial fit (%s)", path,
                         s->kernel.type == KPCA_KERNEL_PRECOMPUTED ? "precomputed" : why.msg);
    if (s->l < 2 || s->dim < 1 || s->basis.r < 1 || s->basis.r > s->l || pt->want < 1 || pt->want > s->l ||
        s->l > s->n || s->n > pt->nall || pt->lo > pt->hi || pt->hi > s->n || !(pt->tol >= 0.0) || pt->round > 15 ||
        !(pt->smooth >= 0.0 && pt->smooth <= 16.0))
        return kpca_fail(err, KPCA_EFORMAT, "'%s': inconsistent sizes (landmarks %zu, dim %zu, features %zu, "
                         "components %zu, rows %zu:%zu of %zu fit rows of %zu)", path, s->l, s->dim, s->basis.r,
                         pt->want, pt->lo, pt->hi, s->n, pt->nall);
    return KPCA_OK;
}

/* dataset name of loc into *out with the dims expected (rank 1: d1 = 0) */
static kpca_status read_array(hid_t f, const char *path, const char *name, size_t d0, size_t d1, double **out,
                              kpca_error *err)
{
    size_t dims[2];
    kpca_status st = kpca_h5_read_doubles(f, path, name, d1 ? 2 : 1, dims, out, err);
    if (st == KPCA_OK && (dims[0] != d0 || dims[1] != (d1 ? d1 : 1))) {
        kpca_free(*out);
        *out = NULL;
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': %s is %zu x %zu, expected %zu x %zu", path, name, dims[0], dims[1],
                       d0, d1 ? d1 : 1);
    }
    return st;
}

int cli_partial_read(const char *path, int arrays, cli_partial *pt)
{
    memset(pt, 0, sizeof *pt);
    kpca_error err;
    hid_t f;
    kpca_h5_quiet();
    kpca_status st = kpca_h5_open_read(path, KPCA_SEAL_REQUIRED, &f, &err);
    if (st != KPCA_OK)
        return cli_fail_input(&err, path);
    kpca_nys_setup *s = &pt->setup;
    st = read_attrs(f, path, pt, &err);
    const size_t l = s->l, r = s->basis.r;
    if (!arrays) {
        H5Fclose(f);
        if (st != KPCA_OK)
            return cli_fail(&err);
        s->basis.tol = pt->tol;
        return 0;
    }
    if (st == KPCA_OK) st = read_array(f, path, "landmarks", l, s->dim, &s->x, &err);
    if (st == KPCA_OK) st = read_array(f, path, "basis", r, l, &s->basis.w, &err);
    if (st == KPCA_OK) st = read_array(f, path, "accumulator", kpca_nys_acc_packed(l, r), 0, &pt->acc, &err);
    if (st == KPCA_OK && H5Lexists(f, "std_mean", H5P_DEFAULT) > 0) {
        st = read_array(f, path, "std_mean", s->dim, 0, &pt->std_mean, &err);
        if (st == KPCA_OK) st = read_array(f, path, "std_scale", s->dim, 0, &pt->std_scale, &err);
        for (size_t j = 0; st == KPCA_OK && j < s->dim; j++)
            if (!isfinite(pt->std_mean[j]) || !(pt->std_scale[j] > 0.0 && isfinite(pt->std_scale[j])))
                st = kpca_fail(&err, KPCA_EFORMAT, "'%s': the standardisation of column %zu is not finite and "
                               "positive", path, j + 1);
    }
    size_t ny = 0;
    if (st == KPCA_OK) st = kpca_h5_read_ints(f, path, "landmark_labels", 0, &ny, &s->y, &err);
    if (st == KPCA_OK && ny != l)
        st = kpca_fail(&err, KPCA_EFORMAT, "'%s': %zu landmark labels for %zu landmarks", path,
                       ny, l);
    H5Fclose(f);
    for (size_t i = 0; st == KPCA_OK && i < l * s->dim; i++)
        if (!isfinite(s->x[i]))
            st = kpca_fail(&err, KPCA_EFORMAT, "'%s': landmark %zu has a non-finite value", path, i / s->dim + 1);
    for (size_t i = 0; st == KPCA_OK && i < r * l; i++)
        if (!isfinite(s->basis.w[i]))
            st = kpca_fail(&err, KPCA_EFORMAT, "'%s': the basis has a non-finite value", path);
    if (st == KPCA_OK && (pt->acc[0] != (double)l || pt->acc[1] != (double)r || pt->acc[2] != (double)(pt->hi - pt->lo)))
        st = kpca_fail(&err, KPCA_EFORMAT, "'%s': its accumulator holds %g rows, not the %zu of rows %zu:%zu", path,
                       pt->acc[2], pt->hi - pt->lo, pt->lo, pt->hi);
    for (size_t i = 3; st == KPCA_OK && i < kpca_nys_acc_packed(l, r); i++)
        if (!isfinite(pt->acc[i]) && !(i == 3 && pt->acc[3] == INFINITY) && !(i == 4 && pt->acc[4] == -INFINITY))
            st = kpca_fail(&err, KPCA_EFORMAT, "'%s': its accumulator has a non-finite value", path);
    if (st != KPCA_OK) {
        cli_partial_free(pt);
        return cli_fail(&err);
    }
    s->basis.tol = pt->tol;
    return 0;
}

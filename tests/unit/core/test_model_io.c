/* test_model_io.c - the model file's versions (docs/file-formats.md, "Model
 * file"): version 5 as kpca_model_save writes it (the input steps; version
 * 4's fit columns' names, the standardisation and the subset, each
 * optional; a checksum over every field), version 4 (tests/ref/model-v4),
 * version 3 (the smoothing attribute; tests/ref/model-v3-double)
 * and version 2 as the files of kpca before it (tests/ref/models-3038552,
 * tests/ref/model-v2-smooth) load: their own checksum rule, the smoothing
 * taken from their source text.  The damaged and truncated files of any
 * version: test_model.c. */
#include "testutil.h"

#include "lib/file/h5write.h"

#include <hdf5.h>
#include <sys/stat.h>

static const char *const v2_models[] = {"tests/ref/models-3038552/poly2.h5", "tests/ref/models-3038552/rbf.h5",
                                        "tests/ref/models-3038552/sigmoid.h5", "tests/ref/models-3038552/linear.h5",
                                        "tests/ref/models-3038552/nystrom.h5"};
#define NV2 (sizeof v2_models / sizeof v2_models[0])

static void fit_small(kpca_kernel kernel, kpca_solver solver, kpca_model *md)
{
    kpca_dataset ds;
    tu_random_dataset(&ds, 30, 16, 3, 7);
    kpca_fit_params p = kpca_fit_defaults(2);
    p.kernel = kernel;
    p.solver = solver;
    p.components = 5;
    p.landmarks = 10;
    kpca_error err;
    if (kpca_model_fit(&ds, &p, md, NULL, &err) != KPCA_OK)
        fail_msg("fit: %s", err.msg);
    kpca_dataset_free(&ds);
    snprintf(md->source, sizeof md->source, "random 30 x 16, seed 7");
}

static void save(const kpca_model *md, const char *path)
{
    kpca_error err;
    if (kpca_model_save(md, path, &err) != KPCA_OK)
        fail_msg("save '%s': %s", path, err.msg);
}

static void load(const char *path, kpca_model *md)
{
    kpca_error err;
    if (kpca_model_load(path, md, &err) != KPCA_OK)
        fail_msg("load '%s': %s", path, err.msg);
}

static void copy_file(const char *from, const char *to)
{
    size_t len;
    unsigned char *buf = tu_slurp(from, &len);
    tu_write_bytes(to, buf, len);
    free(buf);
}

static hid_t open_rw(const char *path)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    if (f < 0)
        fail_msg("cannot open '%s' with libhdf5", path);
    return f;
}

/* Rewrites a scalar attribute of path through libhdf5 (v in memory type
 * mt), then seals the file again, so that the edit meets the model's own
 * checksum, not the seal. */
static void set_number(const char *path, const char *name, hid_t mt, const void *v)
{
    hid_t f = open_rw(path);
    hid_t a = H5Aopen(f, name, H5P_DEFAULT);
    assert_true(a >= 0);
    assert_true(H5Awrite(a, mt, v) >= 0);
    H5Aclose(a);
    H5Fclose(f);
    tu_reseal(path);
}

static void set_double(const char *path, const char *name, double v)
{
    set_number(path, name, H5T_NATIVE_DOUBLE, &v);
}

static void set_long(const char *path, const char *name, long long v)
{
    set_number(path, name, H5T_NATIVE_LLONG, &v);
}

static void set_string(const char *path, const char *name, const char *v)
{
    hid_t f = open_rw(path);
    assert_true(H5Adelete(f, name) >= 0);
    kpca_error err;
    assert_int_equal(kpca_h5_attr_write_string(f, path, name, v, &err), KPCA_OK);
    H5Fclose(f);
    tu_reseal(path);
}

static long long get_long(const char *path, const char *name)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t a = H5Aopen(f, name, H5P_DEFAULT);
    assert_true(a >= 0);
    long long v = 0;
    assert_true(H5Aread(a, H5T_NATIVE_LLONG, &v) >= 0);
    H5Aclose(a);
    H5Fclose(f);
    return v;
}

static void expect_refused(const char *path, const char *fired, const char *what)
{
    kpca_model md;
    kpca_error err;
    kpca_error_clear(&err);
    kpca_status st = kpca_model_load(path, &md, &err);
    if (st != KPCA_EFORMAT)
        fail_msg("%s: load gave %d (%s), expected a format error", what, (int)st, err.msg);
    if (strstr(err.msg, fired) == NULL)
        fail_msg("%s: the wrong check fired: '%s', expected one saying '%s'", what, err.msg, fired);
    assert_null(md.alpha);
}

static void assert_same_fields(const kpca_model *a, const kpca_model *b)
{
    assert_int_equal(a->kernel.type, b->kernel.type);
    assert_int_equal(a->centring, b->centring);
    assert_int_equal(a->m, b->m);
    assert_int_equal(a->fit_n, b->fit_n);
    assert_int_equal(a->k, b->k);
    assert_int_equal(a->dim, b->dim);
    assert_memory_equal(&a->smooth, &b->smooth, sizeof(double));
    assert_memory_equal(&a->trace, &b->trace, sizeof(double));
    assert_memory_equal(a->fitx, b->fitx, a->m * a->dim * sizeof(double));
    assert_memory_equal(a->alpha, b->alpha, a->k * a->m * sizeof(double));
    assert_memory_equal(a->colmean, b->colmean, a->m * sizeof(double));
    assert_string_equal(a->solver, b->solver);
    assert_string_equal(a->source, b->source);
}

static void test_smooth_roundtrip(void **state)
{
    (void)state;
    kpca_model md, back;
    fit_small(kpca_kernel_poly(2), KPCA_SOLVER_EXACT, &md);
    assert_int_equal(md.version, 0); /* made in memory */
    assert_true(md.smooth == 0.0);   /* kpca_model_fit does not smooth */
    md.smooth = 0.75;
    save(&md, TEST_OUT "/io_v3.h5");
    assert_int_equal(get_long(TEST_OUT "/io_v3.h5", "version"), KPCA_MODEL_VERSION);
    load(TEST_OUT "/io_v3.h5", &back);
    assert_int_equal(back.version, KPCA_MODEL_VERSION);
    assert_same_fields(&md, &back);
    assert_int_equal(kpca_model_fingerprint(&md), kpca_model_fingerprint(&back));
    kpca_model_free(&back);

    /* a sigma that is neither 0 nor finite and positive is no model */
    const double bad[] = {-0.5, NAN, INFINITY};
    kpca_error err;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        md.smooth = bad[i];
        assert_int_equal(kpca_model_save(&md, TEST_OUT "/io_bad.h5", &err), KPCA_EFORMAT);
        assert_non_null(strstr(err.msg, "smoothing sigma"));
        struct stat sb;
        assert_int_not_equal(stat(TEST_OUT "/io_bad.h5", &sb), 0);
    }
    kpca_model_free(&md);
}

/* Every field of a version-3 file is under its checksum: an edit of any one
 * (sealed again) is refused; the file's own metadata is not a model field. */
static void test_v3_checksum_covers_every_field(void **state)
{
    (void)state;
    kpca_model poly, rbf, ny;
    fit_small(kpca_kernel_poly(2), KPCA_SOLVER_EXACT, &poly);
    poly.smooth = 0.5;
    fit_small(kpca_kernel_rbf(3.0), KPCA_SOLVER_EXACT, &rbf);
    fit_small(kpca_kernel_poly(2), KPCA_SOLVER_NYSTROM, &ny);
    save(&poly, TEST_OUT "/io_poly.h5");
    save(&rbf, TEST_OUT "/io_rbf.h5");
    save(&ny, TEST_OUT "/io_ny.h5");
    const char *bad = TEST_OUT "/io_edit.h5";
    kpca_model md;

    /* the controls: sealed again unchanged, or with kpca_version edited, it loads */
    copy_file(TEST_OUT "/io_poly.h5", bad);
    tu_reseal(bad);
    load(bad, &md);
    kpca_model_free(&md);
    set_string(bad, "kpca_version", "0.0.0");
    load(bad, &md);
    kpca_model_free(&md);

    const char *P = TEST_OUT "/io_poly.h5", *R = TEST_OUT "/io_rbf.h5", *N = TEST_OUT "/io_ny.h5";
    const struct {
        const char *file, *name;
        char type; /* d: double, i: integer, s: string */
        double d;
        long long i;
        const char *s;
    } edits[] = {{P, "smooth", 'd', 0.25, 0, NULL},       {P, "gamma", 'd', 0.5, 0, NULL},
                 {P, "coef0", 'd', 1.0, 0, NULL},         {P, "grandmean", 'd', 0.125, 0, NULL},
                 {P, "trace", 'd', 1.0, 0, NULL},         {P, "input_lo", 'd', -2.0, 0, NULL},
                 {P, "input_hi", 'd', 2.0, 0, NULL},      {R, "sigma", 'd', 2.5, 0, NULL},
                 {P, "degree", 'i', 0, 3, NULL},          {N, "fit_points", 'i', 0, 29, NULL},
                 {P, "source", 's', 0, 0, "another"},     {P, "solver", 's', 0, 0, "exact evd"},
                 {P, "kernel", 's', 0, 0, "linear"},      {N, "solver", 's', 0, 0, "nystrom kmeans l=10"},
                 {N, "centring", 's', 0, 0, "kernel"}};
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        copy_file(edits[i].file, bad);
        if (edits[i].type == 'd')
            set_double(bad, edits[i].name, edits[i].d);
        else if (edits[i].type == 'i')
            set_long(bad, edits[i].name, edits[i].i);
        else
            set_string(bad, edits[i].name, edits[i].s);
        char what[96];
        snprintf(what, sizeof what, "'%s' edited in %s", edits[i].name, edits[i].file);
        expect_refused(bad, "checksum mismatch: the file is damaged", what);
    }
    kpca_model_free(&poly);
    kpca_model_free(&rbf);
    kpca_model_free(&ny);
}

/* A provenance text with a control character is stored and hashed as it
 * reads back ('?'), so the model loads. */
static void test_v3_control_character_in_source(void **state)
{
    (void)state;
    kpca_model md, back;
    fit_small(kpca_kernel_poly(2), KPCA_SOLVER_EXACT, &md);
    snprintf(md.source, sizeof md.source, "a\nb.txt: first 30 rows");
    save(&md, TEST_OUT "/io_ctrl.h5");
    load(TEST_OUT "/io_ctrl.h5", &back);
    assert_string_equal(back.source, "a?b.txt: first 30 rows");
    kpca_model_free(&back);
    kpca_model_free(&md);
}

/* Version 2: each reference model loads, its checksum (the version-2 rule)
 * is its fingerprint, it has no smoothing; saved again it is a version-4
 * file of the same model. */
static void test_v2_models_load(void **state)
{
    (void)state;
    for (size_t i = 0; i < NV2; i++) {
        kpca_model md, back;
        load(v2_models[i], &md);
        assert_int_equal(md.version, 2);
        assert_true(md.smooth == 0.0);
        assert_int_equal((long long)kpca_model_fingerprint(&md), get_long(v2_models[i], "checksum"));
        save(&md, TEST_OUT "/io_resaved.h5");
        load(TEST_OUT "/io_resaved.h5", &back);
        assert_int_equal(back.version, KPCA_MODEL_VERSION);
        assert_same_fields(&md, &back);
        assert_int_equal(kpca_model_fingerprint(&md), kpca_model_fingerprint(&back));
        kpca_model_free(&back);
        kpca_model_free(&md);
    }
}

/* Version 2 as before: its checksum covers its numbers and arrays, not its
 * source, whose ", smoothed sigma=S" gives the model's smoothing. */
static void test_v2_rules(void **state)
{
    (void)state;
    const char *bad = TEST_OUT "/io_v2.h5";
    kpca_model md;
    copy_file(v2_models[0], bad);
    set_double(bad, "trace", 1.0);
    expect_refused(bad, "checksum mismatch: the file is damaged", "trace edited in a version-2 file");

    copy_file(v2_models[0], bad);
    set_string(bad, "source", "zip.train.gz: first 40 of 7291 rows, smoothed sigma=0.5");
    load(bad, &md);
    assert_true(md.smooth == 0.5);
    kpca_model_free(&md);

    load("tests/ref/model-v2-smooth/smooth.h5", &md);
    assert_int_equal(md.version, 2);
    assert_true(md.smooth == 0.75);
    kpca_model_free(&md);

    copy_file(v2_models[0], bad);
    set_string(bad, "source", "x, smoothed sigma=-1");
    expect_refused(bad, "smoothing sigma", "a negative sigma in a version-2 source");
}

static void test_versions_out_of_range(void **state)
{
    (void)state;
    kpca_model md;
    fit_small(kpca_kernel_poly(2), KPCA_SOLVER_EXACT, &md);
    save(&md, TEST_OUT "/io_version.h5");
    kpca_model_free(&md);
    const long long versions[] = {0, 1, KPCA_MODEL_VERSION + 1};
    for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
        copy_file(TEST_OUT "/io_version.h5", TEST_OUT "/io_edit.h5");
        set_long(TEST_OUT "/io_edit.h5", "version", versions[i]);
        expect_refused(TEST_OUT "/io_edit.h5", "versions 2 to 5", "a version out of range");
    }
}

/* The inputs of version 4 on a model fit on 30 x 16 points */
static const char *const names16[16] = {"a", "", "b c", "d,e", "\"q\"", "f", "g", "h",
                                        "\xc3\xa9t\xc3\xa9", "i", "j", "k", "l", "m", "n", "o"};

static void add_inputs(kpca_model *md, int names, int std)
{
    assert_int_equal(md->dim, 16);
    if (names) {
        md->colnames = kpca_strings_dup((char *const *)names16, 16);
        assert_non_null(md->colnames);
    }
    if (std) {
        md->std_mean = kpca_alloc_array(16, 1, sizeof(double));
        md->std_scale = kpca_alloc_array(16, 1, sizeof(double));
        assert_non_null(md->std_mean);
        assert_non_null(md->std_scale);
        for (size_t j = 0; j < 16; j++) {
            md->std_mean[j] = 0.25 * (double)j - 1.0;
            md->std_scale[j] = j == 3 ? 1.0 : 0.5 + 0.125 * (double)j;
        }
    }
    snprintf(md->subset, sizeof md->subset, "stratified by label 30 of 90 rows, seed 1");
}

/* Each of the three inputs, alone and together, is written and read back
 * as it was; absent ones stay absent; the fingerprint (the version-2 rule)
 * does not see them, the checksum does (below). */
static void test_v4_inputs_roundtrip(void **state)
{
    (void)state;
    for (int mask = 0; mask < 4; mask++) {
        kpca_model md, back;
        fit_small(kpca_kernel_poly(2), KPCA_SOLVER_EXACT, &md);
        unsigned long fp = kpca_model_fingerprint(&md);
        add_inputs(&md, mask & 1, mask & 2);
        if (mask == 0)
            md.subset[0] = '\0';
        save(&md, TEST_OUT "/io_v4.h5");
        load(TEST_OUT "/io_v4.h5", &back);
        assert_int_equal(back.version, KPCA_MODEL_VERSION);
        assert_same_fields(&md, &back);
        assert_string_equal(back.subset, md.subset);
        assert_int_equal(back.colnames != NULL, (mask & 1) != 0);
        for (size_t j = 0; back.colnames != NULL && j < 16; j++)
            assert_string_equal(back.colnames[j], names16[j]);
        assert_int_equal(back.std_mean != NULL, (mask & 2) != 0);
        assert_int_equal(back.std_scale != NULL, (mask & 2) != 0);
        if (mask & 2) {
            assert_memory_equal(back.std_mean, md.std_mean, 16 * sizeof(double));
            assert_memory_equal(back.std_scale, md.std_scale, 16 * sizeof(double));
        }
        assert_int_equal(kpca_model_fingerprint(&back), fp);
        /* a model made from it keeps them (kpca reduce) */
        kpca_model other;
        memset(&other, 0, sizeof other);
        other.dim = 16;
        kpca_error err;
        assert_int_equal(kpca_model_copy_inputs(&other, &back, &err), KPCA_OK);
        assert_string_equal(other.subset, md.subset);
        assert_int_equal(other.colnames != NULL, (mask & 1) != 0);
        assert_int_equal(other.std_mean != NULL, (mask & 2) != 0);
        if (mask & 2)
            assert_memory_equal(other.std_scale, md.std_scale, 16 * sizeof(double));
        kpca_model_free(&other);
        kpca_model_free(&back);
        kpca_model_free(&md);
    }
}

/* Rewrites a rank-1 dataset of path with n doubles (or n strings) and seals
 * the file again. */
static void set_doubles(const char *path, const char *name, const double *v, size_t n)
{
    hid_t f = open_rw(path);
    if (H5Lexists(f, name, H5P_DEFAULT) > 0)
        assert_true(H5Ldelete(f, name, H5P_DEFAULT) >= 0);
    kpca_error err;
    size_t dims[2] = {n, 0};
    assert_int_equal(kpca_h5_write_doubles(f, path, name, dims, v, &err), KPCA_OK);
    H5Fclose(f);
    tu_reseal(path);
}

static void set_strings(const char *path, const char *name, const char *const *v, size_t n)
{
    hid_t f = open_rw(path);
    assert_true(H5Ldelete(f, name, H5P_DEFAULT) >= 0);
    kpca_error err;
    assert_int_equal(kpca_h5_write_strings(f, path, name, n, v, &err), KPCA_OK);
    H5Fclose(f);
    tu_reseal(path);
}

static void drop(const char *path, const char *name, int attribute)
{
    hid_t f = open_rw(path);
    assert_true((attribute ? H5Adelete(f, name) : H5Ldelete(f, name, H5P_DEFAULT)) >= 0);
    H5Fclose(f);
    tu_reseal(path);
}

/* The inputs of version 4 are under its checksum: changed, added or
 * removed, the file is refused; shapes and values are checked as well. */
static void test_v4_inputs_checked(void **state)
{
    (void)state;
    kpca_model md, plain;
    fit_small(kpca_kernel_poly(2), KPCA_SOLVER_EXACT, &md);
    fit_small(kpca_kernel_poly(2), KPCA_SOLVER_EXACT, &plain);
    add_inputs(&md, 1, 1);
    const char *M = TEST_OUT "/io_in.h5", *P = TEST_OUT "/io_plain.h5", *bad = TEST_OUT "/io_edit.h5";
    save(&md, M);
    save(&plain, P);
    const char *chk = "checksum mismatch: the file is damaged";
    double v[16];
    memcpy(v, md.std_mean, sizeof v);
    v[5] += 0.5;
    copy_file(M, bad);
    set_doubles(bad, "standardize_mean", v, 16);
    expect_refused(bad, chk, "a mean edited");
    memcpy(v, md.std_scale, sizeof v);
    v[0] *= 2.0;
    copy_file(M, bad);
    set_doubles(bad, "standardize_scale", v, 16);
    expect_refused(bad, chk, "a scale edited");
    const char *renamed[16];
    memcpy(renamed, names16, sizeof renamed);
    renamed[2] = "b d";
    copy_file(M, bad);
    set_strings(bad, "columns", renamed, 16);
    expect_refused(bad, chk, "a column name edited");
    copy_file(M, bad);
    set_string(bad, "subset", "first 30 of 90 rows");
    expect_refused(bad, chk, "the subset edited");
    copy_file(M, bad);
    drop(bad, "subset", 1);
    expect_refused(bad, chk, "the subset removed");
    copy_file(M, bad);
    drop(bad, "columns", 0);
    expect_refused(bad, chk, "the column names removed");
    copy_file(M, bad);
    drop(bad, "standardize_mean", 0);
    drop(bad, "standardize_scale", 0);
    expect_refused(bad, chk, "the standardisation removed");
    copy_file(P, bad);
    set_doubles(bad, "standardize_mean", md.std_mean, 16);
    set_doubles(bad, "standardize_scale", md.std_scale, 16);
    expect_refused(bad, chk, "a standardisation added");
    /* shapes, and values kpca_model_validate refuses */
    copy_file(M, bad);
    set_strings(bad, "columns", names16, 15);
    expect_refused(bad, "dataset 'columns' has 15 names, expected 16", "15 names for 16 columns");
    copy_file(M, bad);
    set_doubles(bad, "standardize_scale", md.std_scale, 15);
    expect_refused(bad, "'standardize_scale' is 15 x 1, expected 16 x 1", "15 scales for 16 columns");
    copy_file(M, bad);
    drop(bad, "standardize_scale", 0);
    expect_refused(bad, "needs both the column means and the scales", "a mean without its scale");
    kpca_error err;
    const double bad_scale[] = {0.0, -1.0, INFINITY, NAN};
    for (size_t i = 0; i < sizeof bad_scale / sizeof bad_scale[0]; i++) {
        double keep = md.std_scale[7];
        md.std_scale[7] = bad_scale[i];
        assert_int_equal(kpca_model_save(&md, TEST_OUT "/io_bad.h5", &err), KPCA_EFORMAT);
        assert_non_null(strstr(err.msg, "scale of column 8"));
        md.std_scale[7] = keep;
    }
    md.std_mean[0] = NAN;
    assert_int_equal(kpca_model_save(&md, TEST_OUT "/io_bad.h5", &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "mean of column 1 is not finite"));
    kpca_model_free(&md);
    kpca_model_free(&plain);
}

/* A version-3 file (written before version 4) loads without the inputs of
 * version 4, which it cannot hold: an attribute or dataset of theirs in it
 * is not read (its checksum does not cover them). */
static void test_v3_file_has_no_inputs(void **state)
{
    (void)state;
    const char *v3 = "tests/ref/model-v3-double/poly2.h5", *bad = TEST_OUT "/io_edit.h5";
    kpca_model md, back;
    load(v3, &md);
    assert_int_equal(md.version, 3);
    assert_null(md.colnames);
    assert_null(md.std_mean);
    assert_string_equal(md.subset, "");
    save(&md, TEST_OUT "/io_resaved.h5");
    load(TEST_OUT "/io_resaved.h5", &back);
    assert_int_equal(back.version, KPCA_MODEL_VERSION);
    assert_same_fields(&md, &back);
    kpca_model_free(&back);
    double *v = calloc(md.dim, sizeof(double));
    assert_non_null(v);
    for (size_t j = 0; j < md.dim; j++)
        v[j] = 1.0;
    copy_file(v3, bad);
    set_doubles(bad, "standardize_mean", v, md.dim);
    set_doubles(bad, "standardize_scale", v, md.dim);
    free(v);
    load(bad, &back);
    assert_null(back.std_mean);
    kpca_model_free(&back);
    kpca_model_free(&md);
}

/* Version 5's input steps: saved and loaded as they were, under the
 * checksum (an edited, added or dropped step is refused); a version-4 file
 * (tests/ref/model-v4) loads with them unknown, and saved again records
 * none */
static void test_v5_steps(void **state)
{
    (void)state;
    kpca_model md, back;
    fit_small(kpca_kernel_poly(2), KPCA_SOLVER_EXACT, &md);
    save(&md, TEST_OUT "/io_nosteps.h5");
    md.ranged = 1;
    md.range_lo = 0.0;
    md.range_hi = 255.0;
    md.rounded = 1;
    md.round = 3;
    save(&md, TEST_OUT "/io_steps.h5");
    load(TEST_OUT "/io_steps.h5", &back);
    assert_int_equal(back.version, 5);
    assert_true(back.ranged && back.range_lo == 0.0 && back.range_hi == 255.0);
    assert_true(back.rounded && back.round == 3);
    assert_false(back.steps_unknown);
    assert_int_equal(kpca_model_fingerprint(&back), kpca_model_fingerprint(&md)); /* (version 2's rule) */
    kpca_model_free(&back);
    load(TEST_OUT "/io_nosteps.h5", &back);
    assert_false(back.ranged || back.rounded || back.steps_unknown);
    kpca_model_free(&back);
    const double other[2] = {0.0, 1.0};
    copy_file(TEST_OUT "/io_steps.h5", TEST_OUT "/io_edit.h5");
    set_long(TEST_OUT "/io_edit.h5", "round", 2);
    expect_refused(TEST_OUT "/io_edit.h5", "checksum", "another round");
    copy_file(TEST_OUT "/io_steps.h5", TEST_OUT "/io_edit.h5");
    set_doubles(TEST_OUT "/io_edit.h5", "input_range", other, 2);
    expect_refused(TEST_OUT "/io_edit.h5", "checksum", "another input range");
    copy_file(TEST_OUT "/io_steps.h5", TEST_OUT "/io_edit.h5");
    drop(TEST_OUT "/io_edit.h5", "round", 1);
    expect_refused(TEST_OUT "/io_edit.h5", "checksum", "a round dropped");
    copy_file(TEST_OUT "/io_nosteps.h5", TEST_OUT "/io_edit.h5");
    set_doubles(TEST_OUT "/io_edit.h5", "input_range", other, 2);
    expect_refused(TEST_OUT "/io_edit.h5", "checksum", "an input range added");
    kpca_model_free(&md);
    load("tests/ref/model-v4/ranged.h5", &md);
    assert_int_equal(md.version, 4);
    assert_true(md.steps_unknown);
    assert_false(md.ranged || md.rounded);
    save(&md, TEST_OUT "/io_resaved.h5");
    load(TEST_OUT "/io_resaved.h5", &back);
    assert_false(back.steps_unknown || back.ranged || back.rounded);
    kpca_model_free(&back);
    kpca_model_free(&md);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_smooth_roundtrip),
        cmocka_unit_test(test_v4_inputs_roundtrip),
        cmocka_unit_test(test_v4_inputs_checked),
        cmocka_unit_test(test_v3_file_has_no_inputs),
        cmocka_unit_test(test_v3_checksum_covers_every_field),
        cmocka_unit_test(test_v3_control_character_in_source),
        cmocka_unit_test(test_v2_models_load),
        cmocka_unit_test(test_v2_rules),
        cmocka_unit_test(test_versions_out_of_range),
        cmocka_unit_test(test_v5_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

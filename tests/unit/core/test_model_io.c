/* test_model_io.c - the model file's versions (docs/file-formats.md, "Model
 * file"): version 3 as kpca_model_save writes it (the smoothing attribute, a
 * checksum over every field), version 2 as the files of kpca before it
 * (tests/ref/models-3038552, tests/ref/model-v2-smooth) load: their own
 * checksum rule, the smoothing taken from their source text.  The damaged
 * and truncated files of any version: test_model.c. */
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
    mkdir("tests", 0777);
    mkdir("tests/out", 0777);
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

static void test_v3_smooth_roundtrip(void **state)
{
    (void)state;
    kpca_model md, back;
    fit_small(kpca_kernel_poly(2), KPCA_SOLVER_EXACT, &md);
    assert_int_equal(md.version, 0); /* made in memory */
    assert_true(md.smooth == 0.0);   /* kpca_model_fit does not smooth */
    md.smooth = 0.75;
    save(&md, "tests/out/io_v3.h5");
    assert_int_equal(get_long("tests/out/io_v3.h5", "version"), KPCA_MODEL_VERSION);
    load("tests/out/io_v3.h5", &back);
    assert_int_equal(back.version, 3);
    assert_same_fields(&md, &back);
    assert_int_equal(kpca_model_fingerprint(&md), kpca_model_fingerprint(&back));
    kpca_model_free(&back);

    /* a sigma that is neither 0 nor finite and positive is no model */
    const double bad[] = {-0.5, NAN, INFINITY};
    kpca_error err;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        md.smooth = bad[i];
        assert_int_equal(kpca_model_save(&md, "tests/out/io_bad.h5", &err), KPCA_EFORMAT);
        assert_non_null(strstr(err.msg, "smoothing sigma"));
        struct stat sb;
        assert_int_not_equal(stat("tests/out/io_bad.h5", &sb), 0);
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
    save(&poly, "tests/out/io_poly.h5");
    save(&rbf, "tests/out/io_rbf.h5");
    save(&ny, "tests/out/io_ny.h5");
    const char *bad = "tests/out/io_edit.h5";
    kpca_model md;

    /* the controls: sealed again unchanged, or with kpca_version edited, it loads */
    copy_file("tests/out/io_poly.h5", bad);
    tu_reseal(bad);
    load(bad, &md);
    kpca_model_free(&md);
    set_string(bad, "kpca_version", "0.0.0");
    load(bad, &md);
    kpca_model_free(&md);

    const char *P = "tests/out/io_poly.h5", *R = "tests/out/io_rbf.h5", *N = "tests/out/io_ny.h5";
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
    save(&md, "tests/out/io_ctrl.h5");
    load("tests/out/io_ctrl.h5", &back);
    assert_string_equal(back.source, "a?b.txt: first 30 rows");
    kpca_model_free(&back);
    kpca_model_free(&md);
}

/* Version 2: each reference model loads, its checksum (the version-2 rule)
 * is its fingerprint, it has no smoothing; saved again it is a version-3
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
        save(&md, "tests/out/io_resaved.h5");
        load("tests/out/io_resaved.h5", &back);
        assert_int_equal(back.version, 3);
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
    const char *bad = "tests/out/io_v2.h5";
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
    save(&md, "tests/out/io_version.h5");
    kpca_model_free(&md);
    const long long versions[] = {0, 1, 4};
    for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
        copy_file("tests/out/io_version.h5", "tests/out/io_edit.h5");
        set_long("tests/out/io_edit.h5", "version", versions[i]);
        expect_refused("tests/out/io_edit.h5", "versions 2 to 3", "a version out of range");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v3_smooth_roundtrip),
        cmocka_unit_test(test_v3_checksum_covers_every_field),
        cmocka_unit_test(test_v3_control_character_in_source),
        cmocka_unit_test(test_v2_models_load),
        cmocka_unit_test(test_v2_rules),
        cmocka_unit_test(test_versions_out_of_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

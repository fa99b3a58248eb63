/* test_alloc.c - SQLite-style allocation failure.
 *
 * For N = 0, 1, 2, ... the (N+1)th library allocation and every later one
 * fails (kpca_mem_fail_after(N)); each operation must then either succeed or
 * return KPCA_ENOMEM with a message - never crash, never report another
 * error, never succeed after swallowing a failed allocation - and leave no
 * HDF5 object open and no temporary file behind.  The loop ends when a run
 * succeeds without reaching the countdown.  Leaks show under `make asan`.
 */
#include "testutil.h"

#include <dirent.h>
#include <hdf5.h>
#include <sys/stat.h>
#include <zlib.h>

#include "io/csv.h"
#include "io/labels.h"
#include "io/npy.h"

typedef tu_alloc_op op_fn;

static long fail_loop(const char *name, op_fn op, int with_err)
{
    return tu_fail_loop(name, op, with_err);
}

static void loop_both(const char *name, op_fn op)
{
    long runs = fail_loop(name, op, 1);
    assert_true(runs >= 1); /* the operation allocates at least once */
    long runs2 = fail_loop(name, op, 0);
    assert_int_equal(runs, runs2);
}

/* ---- fixtures ----------------------------------------------------------------- */

#define ESL_PATH TEST_OUT "/alloc.txt"
#define ESL_GZ_PATH TEST_OUT "/alloc.txt.gz"
#define ESL_LONG_PATH TEST_OUT "/alloc_long.txt"
#define SVM_PATH TEST_OUT "/alloc.svm"
#define MODEL_PATH TEST_OUT "/alloc_model.h5"
#define CSV_PATH TEST_OUT "/alloc.csv"
#define CSV_NOLABEL_PATH TEST_OUT "/alloc_nolabel.csv"
#define CSV_PARTS_PATH TEST_OUT "/alloc_parts.csv"
#define NAMES_PATH TEST_OUT "/alloc_names.txt"
#define NPY_PATH TEST_OUT "/alloc.npy"
#define NPY_LABELS_PATH TEST_OUT "/alloc_labels.npy"

static const char *const class_names[3] = {"setosa", "versicolor", "virginica"};

/* A version 1.0 .npy of n int32 labels i % 3, written by hand (the library
 * writes float64 only). */
static int write_npy_labels(const char *path, int n)
{
    char head[192];
    int len = snprintf(head + 10, sizeof head - 10, "{'descr': '<i4', 'fortran_order': False, 'shape': (%d,), }", n);
    int total = 128;
    memset(head + 10 + len, ' ', (size_t)(total - 11 - len));
    head[total - 1] = '\n';
    memcpy(head, "\x93NUMPY\x01\x00", 8);
    head[8] = (char)(total - 10);
    head[9] = 0;
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(head, 1, (size_t)total, f) != (size_t)total)
        return -1;
    for (int32_t i = 0; i < n; i++) {
        int32_t v = i % 3;
        fwrite(&v, sizeof v, 1, f);
    }
    return fclose(f);
}

static kpca_dataset g_fit; /* 40 points, 16 values */
static kpca_model g_model;

static int setup(void **state)
{
    (void)state;
    kpca_mem_fail_after(-1);
    uint64_t s = 99;
    FILE *f = fopen(ESL_PATH, "w");
    FILE *l = fopen(SVM_PATH, "w");
    gzFile gz = gzopen(ESL_GZ_PATH, "wb");
    if (f == NULL || l == NULL || gz == NULL)
        return -1;
    for (int i = 0; i < 60; i++) {
        fprintf(f, "%d", i % 3);
        fprintf(l, "%d", i % 3);
        gzprintf(gz, "%d", i % 3);
        for (int j = 0; j < 16; j++) {
            double v = tu_rand(&s);
            fprintf(f, " %.4f", v);
            gzprintf(gz, " %.4f", v);
            if (j % 3 != 0)
                fprintf(l, " %d:%.4f", j + 1, v);
        }
        fputc('\n', f);
        fputc('\n', l);
        gzprintf(gz, "\n");
    }
    fclose(f);
    fclose(l);
    gzclose(gz);
    /* CSV: a header, quoted class names; the same values without labels,
     * and the names one per line */
    f = fopen(CSV_PATH, "w");
    l = fopen(CSV_NOLABEL_PATH, "w");
    FILE *nm = fopen(NAMES_PATH, "w");
    if (f == NULL || l == NULL || nm == NULL)
        return -1;
    FILE *pf = fopen(CSV_PARTS_PATH, "w");
    if (pf == NULL)
        return -1;
    fprintf(f, "a,\"b\",c,class\r\n");
    for (int i = 0; i < 30; i++) {
        double a = tu_rand(&s), b = tu_rand(&s), c = tu_rand(&s);
        fprintf(f, "%.4f,%.4f,%.4f,\"%s\"\r\n", a, b, c, class_names[i % 3]);
        fprintf(l, "%.4f;%.4f;%.4f\n", a, b, c);
        fprintf(nm, "%s\n", class_names[i % 3]);
        /* no quotes, the names in column 3, a blank line: the reader in parts */
        fprintf(pf, "%.4f,%.4f,%s,%.4f\n%s", a, b, class_names[i % 3], c, i == 17 ? "\n" : "");
    }
    fclose(f);
    fclose(l);
    fclose(nm);
    fclose(pf);
    if (write_npy_labels(NPY_LABELS_PATH, 40) != 0)
        return -1;
    /* lines longer than the reader's first buffer: its growth path */
    f = fopen(ESL_LONG_PATH, "w");
    if (f == NULL)
        return -1;
    for (int i = 0; i < 3; i++) {
        fprintf(f, "%d", i);
        for (int j = 0; j < 3000; j++)
            fprintf(f, " %.6f", tu_rand(&s));
        fputc('\n', f);
    }
    fclose(f);

    kpca_error err;
    kpca_dataset all;
    if (kpca_dataset_read(ESL_PATH, NULL, &all, &err) != KPCA_OK)
        return -1;
    size_t idx[40];
    if (kpca_subset_indices(all.n, 40, 3, idx, &err) != KPCA_OK ||
        kpca_dataset_select(&all, idx, 40, &g_fit, &err) != KPCA_OK)
        return -1;
    kpca_dataset_free(&all);
    kpca_fit_params p = kpca_fit_defaults(2);
    if (kpca_model_fit(&g_fit, &p, &g_model, NULL, &err) != KPCA_OK)
        return -1;
    snprintf(g_model.source, sizeof g_model.source, "alloc test");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    kpca_mem_fail_after(-1);
    kpca_dataset_free(&g_fit);
    kpca_model_free(&g_model);
    return 0;
}

/* ---- operations ----------------------------------------------------------------- */

static kpca_status read_and_check(const char *spec, const kpca_read_opts *o, size_t n, size_t dim, kpca_error *err)
{
    kpca_dataset ds;
    kpca_status st = kpca_dataset_read(spec, o, &ds, err);
    if (st != KPCA_OK) {
        assert_null(ds.x);
        assert_null(ds.y);
        return st;
    }
    assert_int_equal(ds.n, n);
    assert_int_equal(ds.dim, dim);
    kpca_dataset_free(&ds);
    return KPCA_OK;
}

static kpca_status op_read_esl(kpca_error *err)
{
    return read_and_check(ESL_PATH, NULL, 60, 16, err);
}

static kpca_status op_read_esl_gz(kpca_error *err)
{
    kpca_read_opts o = {.format = KPCA_FMT_ESL, .dim = 16};
    return read_and_check(ESL_GZ_PATH, &o, 60, 16, err);
}

static kpca_status op_read_esl_long(kpca_error *err)
{
    return read_and_check(ESL_LONG_PATH, NULL, 3, 3000, err);
}

static kpca_status op_read_libsvm(kpca_error *err)
{
    kpca_status st = read_and_check(SVM_PATH, NULL, 60, 15, err);
    if (st != KPCA_OK)
        return st;
    kpca_read_opts o = {.format = KPCA_FMT_LIBSVM, .dim = 20};
    return read_and_check(SVM_PATH, &o, 60, 20, err);
}

/* CSV with a header row and class names (both detected), the same with
 * both given, then the values alone given names from a file */
/* A read of the 30 named CSV rows: nothing left on failure, else the rows
 * and the three class names (freed). */
static kpca_status check_named(kpca_status st, kpca_dataset *ds)
{
    if (st != KPCA_OK) {
        assert_null(ds->x);
        assert_null(ds->names);
        return st;
    }
    assert_int_equal(ds->n, 30);
    assert_int_equal(ds->dim, 3);
    assert_int_equal(ds->nnames, 3);
    assert_string_equal(ds->names[2], class_names[2]);
    kpca_dataset_free(ds);
    return KPCA_OK;
}

static kpca_status op_read_csv(kpca_error *err)
{
    kpca_dataset ds;
    kpca_status st = check_named(kpca_dataset_read(CSV_PATH, NULL, &ds, err), &ds);
    if (st != KPCA_OK)
        return st;
    kpca_read_opts o = {.format = KPCA_FMT_CSV, .dim = 3, .header = KPCA_HEADER_YES, .label = "4"};
    if ((st = read_and_check(CSV_PATH, &o, 30, 3, err)) != KPCA_OK)
        return st;
    kpca_read_opts o2 = {.format = KPCA_FMT_AUTO, .header = KPCA_HEADER_NO, .label = "none", .labels = NAMES_PATH};
    return read_and_check(CSV_NOLABEL_PATH, &o2, 30, 3, err);
}

/* CSV in 3 parts by 3 threads, names in column 3, a blank line: streamed in
 * 64-byte stretches to there, then read in memory; the values alone streamed */
static kpca_status op_read_csv_parts(kpca_error *err)
{
    kpca_dataset ds;
    kpca_read_opts o = {.format = KPCA_FMT_CSV, .header = KPCA_HEADER_NO, .label = "3"}, o2 = o;
    kpca_status st = check_named(kpca_read_csv_parts(CSV_PARTS_PATH, 0, &o, 3, 0, 64, &ds, err), &ds);
    o2.label = "none";
    if (st == KPCA_OK && (st = kpca_read_csv_parts(CSV_NOLABEL_PATH, 0, &o2, 3, 0, 64, &ds, err)) == KPCA_OK) {
        assert_true(ds.n == 30 && ds.dim == 3 && ds.unlabelled);
        kpca_dataset_free(&ds);
    }
    return st;
}

/* the float64 writer, the data read back as NPY, and labels from a .npy */
static kpca_status op_npy(kpca_error *err)
{
    kpca_status st = kpca_npy_write(NPY_PATH, g_fit.x, g_fit.n, g_fit.dim, err);
    if (st != KPCA_OK)
        return st;
    kpca_read_opts o = {.format = KPCA_FMT_AUTO, .dim = 16, .labels = NPY_LABELS_PATH};
    kpca_dataset ds;
    if ((st = kpca_dataset_read(NPY_PATH, &o, &ds, err)) != KPCA_OK) {
        assert_null(ds.x);
        return st;
    }
    assert_int_equal(ds.n, 40);
    assert_int_equal(ds.unlabelled, 0);
    assert_int_equal(ds.y[4], 1);
    assert_memory_equal(ds.x, g_fit.x, 40 * 16 * sizeof(double));
    kpca_dataset_free(&ds);
    return KPCA_OK;
}

/* labels for data without them: names from text, integers from .npy */
static kpca_status op_labels(kpca_error *err)
{
    kpca_dataset ds;
    memset(&ds, 0, sizeof ds);
    ds.n = 30;
    ds.unlabelled = 1;
    kpca_status st = kpca_labels_read(NAMES_PATH, &ds, err);
    if (st == KPCA_OK) {
        assert_int_equal(ds.nnames, 3);
        assert_int_equal(ds.y[29], 2);
        kpca_dataset_free(&ds);
        ds.n = 40;
        ds.unlabelled = 1;
        st = kpca_labels_read(NPY_LABELS_PATH, &ds, err);
    }
    if (st == KPCA_OK)
        assert_int_equal(ds.y[5], 2);
    else
        assert_int_equal(ds.unlabelled, 1);
    kpca_dataset_free(&ds);
    return st;
}

static kpca_status op_read_hdf5(kpca_error *err)
{
    struct stat sb;
    if (stat("data/usps.h5", &sb) != 0)
        return KPCA_OK;
    return read_and_check("data/usps.h5:test", NULL, 2007, 256, err);
}

static kpca_status op_select(kpca_error *err)
{
    size_t idx[10];
    kpca_status st = kpca_subset_indices(g_fit.n, 10, 5, idx, err);
    if (st != KPCA_OK)
        return st;
    kpca_dataset sub;
    st = kpca_dataset_select(&g_fit, idx, 10, &sub, err);
    if (st == KPCA_OK)
        kpca_dataset_free(&sub);
    return st;
}

static kpca_status fit_with(int degree, size_t comps, kpca_eig_method eig, kpca_error *err)
{
    kpca_fit_params p = kpca_fit_defaults(degree);
    p.components = comps;
    p.eig = eig;
    kpca_model md;
    kpca_status st = kpca_model_fit(&g_fit, &p, &md, NULL, err);
    if (st != KPCA_OK) {
        assert_null(md.alpha);
        assert_null(md.fitx);
        return st;
    }
    assert_true(md.k >= 1);
    kpca_model_free(&md);
    return KPCA_OK;
}

static kpca_status op_fit(kpca_error *err)
{
    kpca_status st = fit_with(2, 0, KPCA_EIG_EVD, err);
    if (st == KPCA_OK)
        st = fit_with(2, 5, KPCA_EIG_EVR, err);
    return st;
}

static kpca_status op_transform(kpca_error *err)
{
    double z[40 * 8];
    return kpca_model_transform(&g_model, g_fit.x, 40, 16, 8, z, err);
}

static kpca_status op_preimage(kpca_error *err)
{
    double z[40 * 16];
    kpca_preimage_params p = kpca_preimage_defaults();
    p.max_iter = 5;
    return kpca_preimage(&g_model, g_fit.x, 40, 16, 8, &p, z, NULL, NULL, err);
}

static kpca_status op_save_load(kpca_error *err)
{
    kpca_status st = kpca_model_save(&g_model, MODEL_PATH, err);
    if (st != KPCA_OK)
        return st;
    kpca_model back;
    st = kpca_model_load(MODEL_PATH, &back, err);
    if (st != KPCA_OK) {
        assert_null(back.alpha);
        return st;
    }
    assert_int_equal(back.k, g_model.k);
    assert_memory_equal(back.alpha, g_model.alpha, back.k * back.m * sizeof(double));
    kpca_model_free(&back);
    return KPCA_OK;
}

static kpca_status op_features(kpca_error *err)
{
    double z[40 * 3];
    kpca_status st = kpca_model_transform(&g_model, g_fit.x, 40, 16, 3, z, err);
    const kpca_features_meta meta = {MODEL_PATH, ESL_PATH, g_model.eigval, NULL, 0, 1, NULL, 0};
    if (st == KPCA_OK)
        st = kpca_features_write(TEST_OUT "/alloc_feat.h5", KPCA_FMT_HDF5, z, 40, 3, g_fit.y, &meta, err);
    if (st == KPCA_OK)
        st = kpca_features_write(TEST_OUT "/alloc_feat.svm", KPCA_FMT_LIBSVM, z, 40, 3, g_fit.y, NULL, err);
    if (st == KPCA_OK)
        st = kpca_features_write(TEST_OUT "/alloc_feat.csv", KPCA_FMT_CSV, z, 40, 3, g_fit.y, NULL, err);
    return st;
}

/* tiny features: 3 classes around separate centres, 4 values */
static void tiny(double *x, int *y, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++) {
        y[i] = (int)(i % 3) + 1;
        for (size_t j = 0; j < 4; j++)
            x[i * 4 + j] = (j == i % 3 ? 3.0 : 0.0) + 0.8 * tu_rand(&seed);
    }
}

static kpca_status op_eval(kpca_error *err)
{
    double xtr[30 * 4], xte[12 * 4];
    int ytr[30], yte[12];
    tiny(xtr, ytr, 30, 1);
    tiny(xte, yte, 12, 2);
    const size_t pre[3] = {4, 2, 4};
    for (int sc = KPCA_MC_OVO; sc <= KPCA_MC_OVR; sc++)
        for (int b = KPCA_SVM_GRAM; b <= KPCA_SVM_SPARSE; b++)
            for (int s = KPCA_SCALE_NONE; s <= KPCA_SCALE_STD; s++) {
                kpca_eval_params p = kpca_eval_defaults();
                p.svm.scheme = (kpca_multiclass)sc;
                p.svm.backend = (kpca_svm_backend)b;
                p.scale = (kpca_scale)s;
                kpca_eval_row rows[3];
                kpca_status st = kpca_eval(xtr, ytr, 30, xte, yte, 12, 4, pre, 3, &p, rows, err);
                if (st != KPCA_OK)
                    return st;
                assert_int_equal(rows[0].total, 12);
            }
    return KPCA_OK;
}

static kpca_status op_classifier(kpca_error *err)
{
    double x[30 * 4];
    int y[30], pred[30];
    tiny(x, y, 30, 3);
    kpca_svm_params p = kpca_svm_defaults();
    p.backend = KPCA_SVM_SPARSE;
    kpca_classifier cl;
    kpca_status st = kpca_svm_train(x, 30, 4, 4, y, NULL, 1.0, &p, &cl, err);
    if (st != KPCA_OK) {
        assert_null(cl.w);
        return st;
    }
    st = kpca_classifier_predict(&cl, x, 30, 4, pred, err);
    kpca_classifier_free(&cl);
    return st;
}

/* ---- tests ---------------------------------------------------------------------- */

static void test_counter(void **state)
{
    (void)state;
    /* the hook counts allocations and fails the (N+1)th and later */
    kpca_mem_fail_after(-1);
    void *a = kpca_malloc(8), *b = kpca_calloc(2, 8);
    assert_int_equal(kpca_mem_fail_after(1), 2);
    void *c = kpca_malloc(8);
    void *d = kpca_malloc(8);
    void *e = kpca_realloc(NULL, 8);
    assert_int_equal(kpca_mem_fail_after(-1), 3);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    assert_null(d);
    assert_null(e);
    /* overflowing sizes fail without allocating */
    assert_null(kpca_alloc_array(SIZE_MAX / 2, 3, 1));
    assert_null(kpca_alloc_array(3, SIZE_MAX / 2, 8));
    kpca_free(a);
    kpca_free(b);
    kpca_free(c);
    kpca_free(NULL);
}

/* kpca_grow: doubling from `first`, the block kept when large enough, the
 * contents kept across growth, and on failure or overflow NULL with the old
 * block and capacity untouched */
static void test_grow(void **state)
{
    (void)state;
    kpca_mem_fail_after(-1);
    size_t cap = 0;
    int *a = kpca_grow(NULL, &cap, 1, sizeof *a, 4);
    assert_non_null(a);
    assert_int_equal(cap, 4);
    for (int i = 0; i < 4; i++)
        a[i] = i;
    assert_ptr_equal(kpca_grow(a, &cap, 4, sizeof *a, 4), a); /* big enough: unchanged */
    assert_int_equal(cap, 4);
    int *b = kpca_grow(a, &cap, 5, sizeof *a, 4);
    assert_non_null(b);
    assert_int_equal(cap, 8); /* doubled */
    a = b;
    b = kpca_grow(a, &cap, 100, sizeof *a, 4);
    assert_non_null(b);
    assert_int_equal(cap, 128); /* doubled until it holds 100 */
    a = b;
    for (int i = 0; i < 4; i++)
        assert_int_equal(a[i], i); /* contents kept */
    /* a failed allocation: NULL, the block and the capacity untouched */
    kpca_mem_fail_after(0);
    assert_null(kpca_grow(a, &cap, 129, sizeof *a, 4));
    assert_int_equal(kpca_mem_fail_after(-1), 1);
    assert_int_equal(cap, 128);
    assert_int_equal(a[3], 3);
    /* sizes that overflow fail without allocating: many elements, or a
     * capacity whose doubling passes SIZE_MAX / 2 */
    assert_null(kpca_grow(a, &cap, SIZE_MAX / 2, sizeof *a, 4));
    assert_null(kpca_grow(a, &cap, 129, SIZE_MAX / 64, 4));
    assert_int_equal(kpca_mem_fail_after(-1), 0);
    assert_int_equal(cap, 128);
    /* need 0 counts as 1; first 0 starts at need */
    size_t c0 = 0;
    char *z = kpca_grow(NULL, &c0, 0, 1, 0);
    assert_non_null(z);
    assert_int_equal(c0, 1);
    size_t c3 = 0;
    char *t = kpca_grow(NULL, &c3, 3, 1, 0);
    assert_non_null(t);
    assert_true(c3 >= 3);
    kpca_free(t);
    kpca_free(z);
    kpca_free(a);
}

/* the memory budget: single allocations above it fail, kpca_mem_check
 * refuses estimates above it with a message naming both sizes */
static void test_budget(void **state)
{
    (void)state;
    kpca_error err;
    kpca_mem_set_budget(4096);
    assert_int_equal(kpca_mem_budget(), 4096);
    void *a = kpca_malloc(4096);
    assert_non_null(a);
    assert_null(kpca_malloc(4097));
    assert_null(kpca_calloc(513, 8));
    assert_null(kpca_realloc(a, 8192));
    assert_null(kpca_alloc_array(64, 64, 8));
    assert_int_equal(kpca_mem_check(4096.0, "small", &err), KPCA_OK);
    assert_int_equal(kpca_mem_check(3.0 * 1073741824.0, "the big step", &err), KPCA_ENOMEM);
    assert_non_null(strstr(err.msg, "the big step needs about 3.0 GiB"));
    assert_non_null(strstr(err.msg, "budget of 4096 bytes"));
    /* a fit whose kernel matrix is beyond the budget fails before it allocates */
    kpca_dataset ds;
    tu_random_dataset(&ds, 40, 3, 2, 7);
    kpca_fit_params p = kpca_fit_defaults(2);
    kpca_model md;
    kpca_mem_fail_after(-1);
    assert_int_equal(kpca_model_fit(&ds, &p, &md, NULL, &err), KPCA_ENOMEM);
    assert_non_null(strstr(err.msg, "kernel PCA on 40 points needs about"));
    assert_int_equal(kpca_mem_fail_after(-1), 0); /* nothing was allocated */
    kpca_mem_set_budget(0);
    assert_int_equal(kpca_model_fit(&ds, &p, &md, NULL, &err), KPCA_OK);
    assert_int_equal(kpca_mem_check(1e30, "anything", &err), KPCA_OK);
    kpca_model_free(&md);
    kpca_dataset_free(&ds);
    kpca_free(a);
}

static void test_read_esl(void **state)
{
    (void)state;
    loop_both("read esl", op_read_esl);
    loop_both("read esl gzip", op_read_esl_gz);
}

static void test_read_esl_long_lines(void **state)
{
    (void)state;
    loop_both("read esl long lines", op_read_esl_long);
}

static void test_read_libsvm(void **state)
{
    (void)state;
    loop_both("read libsvm", op_read_libsvm);
}

static void test_read_hdf5(void **state)
{
    (void)state;
    loop_both("read hdf5", op_read_hdf5);
}

static void test_read_csv(void **state)
{
    (void)state;
    loop_both("read csv", op_read_csv);
    loop_both("read csv in parts", op_read_csv_parts);
}

static void test_npy(void **state)
{
    (void)state;
    loop_both("npy write and read", op_npy);
}

static void test_labels(void **state)
{
    (void)state;
    loop_both("labels", op_labels);
}

static void test_select(void **state)
{
    (void)state;
    loop_both("select", op_select);
}

static void test_fit(void **state)
{
    (void)state;
    loop_both("fit", op_fit);
}

static void test_transform(void **state)
{
    (void)state;
    loop_both("transform", op_transform);
}

static void test_preimage(void **state)
{
    (void)state;
    loop_both("preimage", op_preimage);
}

static void test_save_load(void **state)
{
    (void)state;
    loop_both("save and load", op_save_load);
}

static void test_features(void **state)
{
    (void)state;
    loop_both("features", op_features);
}

static void test_eval(void **state)
{
    (void)state;
    loop_both("eval", op_eval);
    loop_both("classifier", op_classifier);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counter),
        cmocka_unit_test(test_budget),
        cmocka_unit_test(test_grow),
        cmocka_unit_test(test_read_esl),
        cmocka_unit_test(test_read_esl_long_lines),
        cmocka_unit_test(test_read_libsvm),
        cmocka_unit_test(test_read_hdf5),
        cmocka_unit_test(test_read_csv),
        cmocka_unit_test(test_npy),
        cmocka_unit_test(test_labels),
        cmocka_unit_test(test_select),
        cmocka_unit_test(test_fit),
        cmocka_unit_test(test_transform),
        cmocka_unit_test(test_preimage),
        cmocka_unit_test(test_save_load),
        cmocka_unit_test(test_features),
        cmocka_unit_test(test_eval),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

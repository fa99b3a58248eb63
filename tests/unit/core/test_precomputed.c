/* test_precomputed.c - kernel PCA of a precomputed kernel matrix: the model
 * of a kernel's matrix is the model of the kernel (exact, subset,
 * randomized, Nystrom), its transform takes kernel rows against the whole
 * matrix, its file keeps the indices; what it refuses; the indefinite
 * warning's eigenvalue; and the commands that need an input space refuse it
 * and the kernels without a pre-image iteration. */
#include "testutil.h"

#include <lapacke.h>
#include <sys/stat.h>

#define NPTS 80 /* points of GRAM */
#define DIM 6
#define NNEW 30

/* the inhomogeneous quadratic kernel of random points: positive
 * semi-definite, of rank 28 < NPTS */
static kpca_kernel quad(void)
{
    kpca_kernel k = kpca_kernel_poly(2);
    k.coef0 = 1.0;
    return k;
}

/* x: NPTS points; G: their kernel matrix as a data set (NPTS x NPTS, labels
 * i % 3), by the plain loops; C: NNEW new points' rows against all NPTS */
static void setup_data(kpca_dataset *x, kpca_dataset *G, kpca_dataset *xnew, kpca_dataset *C)
{
    tu_random_dataset(x, NPTS, DIM, 3, 41);
    tu_random_dataset(xnew, NNEW, DIM, 3, 42);
    kpca_error err;
    kpca_kernel k = quad();
    assert_int_equal(kpca_dataset_alloc(G, NPTS, NPTS, &err), KPCA_OK);
    kpca_kernel_gram_ref(&k, x->x, NPTS, DIM, G->x);
    memcpy(G->y, x->y, NPTS * sizeof(int));
    assert_int_equal(kpca_dataset_alloc(C, NNEW, NPTS, &err), KPCA_OK);
    kpca_kernel_cross_ref(&k, xnew->x, NNEW, x->x, NPTS, DIM, C->x);
}

static void free_data(kpca_dataset *x, kpca_dataset *G, kpca_dataset *xnew, kpca_dataset *C)
{
    kpca_dataset_free(x);
    kpca_dataset_free(G);
    kpca_dataset_free(xnew);
    kpca_dataset_free(C);
}

/* |a - b| <= tol * max |b| over n values */
static void assert_close(const char *what, const double *a, const double *b, size_t n, double tol)
{
    double big = 0.0, worst = 0.0;
    for (size_t i = 0; i < n; i++) {
        big = fmax(big, fabs(b[i]));
        worst = fmax(worst, fabs(a[i] - b[i]));
    }
    if (!(worst <= tol * big))
        fail_msg("%s: differ by %.3g of %.3g", what, worst, big);
}

static void fit_ok(const kpca_dataset *ds, const kpca_fit_params *p, kpca_model *md, kpca_fit_info *info)
{
    kpca_error err;
    kpca_status st = kpca_model_fit(ds, p, md, info, &err);
    if (st != KPCA_OK)
        fail_msg("fit: %s", err.msg);
}

/* Fits `solver` on the rows idx (m of them; NULL: all) of the points with
 * the kernel and of GRAM as precomputed; the two models agree to 1e-10 and
 * so do the features of the new points (the kernel's rows against all of
 * GRAM for the precomputed one) */
static void compare(kpca_solver solver, const size_t *idx, size_t m, size_t k)
{
    kpca_dataset x, G, xnew, C, xs, Gs;
    setup_data(&x, &G, &xnew, &C);
    kpca_error err;
    size_t all[NPTS];
    for (size_t i = 0; i < NPTS; i++)
        all[i] = i;
    if (idx == NULL)
        idx = all;
    assert_int_equal(kpca_dataset_select(&x, idx, m, &xs, &err), KPCA_OK);
    assert_int_equal(kpca_dataset_select(&G, idx, m, &Gs, &err), KPCA_OK);
    kpca_fit_params p = kpca_fit_defaults(2);
    p.kernel = quad();
    p.solver = solver;
    p.components = k;
    p.landmarks = m / 2;
    kpca_model a, b;
    kpca_fit_info ia, ib;
    fit_ok(&xs, &p, &a, &ia);
    p.kernel = kpca_kernel_precomputed();
    p.gram_index = idx == all ? NULL : idx;
    fit_ok(&Gs, &p, &b, &ib);
    assert_int_equal(b.kernel.type, KPCA_KERNEL_PRECOMPUTED);
    assert_null(b.fitx);
    assert_non_null(b.gram_index);
    assert_int_equal(b.dim, NPTS);
    assert_int_equal(a.k, b.k);
    assert_int_equal(a.m, b.m);
    assert_int_equal(a.fit_n, b.fit_n);
    assert_true(ib.lowest == 0.0);
    for (size_t j = 0; j < b.m; j++) /* the model points: the fit rows (or landmarks) by their index */
        assert_int_equal(a.fity[j], b.fity[j]);
    if (solver != KPCA_SOLVER_NYSTROM)
        for (size_t j = 0; j < m; j++)
            assert_int_equal(b.gram_index[j], idx[j]);
    for (size_t j = 0; j < b.m; j++)
        for (size_t d = 0; d < DIM; d++)
            assert_true(a.fitx[j * DIM + d] == x.x[b.gram_index[j] * DIM + d]);
    assert_close("eigenvalues", b.eigval, a.eigval, a.k, 1e-10);
    assert_close("alpha", b.alpha, a.alpha, a.k * a.m, 1e-10);
    assert_close("colmean", b.colmean, a.colmean, a.m, 1e-10);
    assert_true(fabs(a.grandmean - b.grandmean) <= 1e-10 * fabs(a.grandmean));
    assert_true(fabs(a.trace - b.trace) <= 1e-10 * fabs(a.trace));
    double *za = tu_doubles(NNEW * a.k), *zb = tu_doubles(NNEW * a.k);
    assert_int_equal(kpca_model_transform(&a, xnew.x, NNEW, DIM, a.k, za, &err), KPCA_OK);
    assert_int_equal(kpca_model_transform(&b, C.x, NNEW, NPTS, b.k, zb, &err), KPCA_OK);
    assert_close("features", zb, za, NNEW * a.k, 1e-10);
    /* the model needs the rows against every point of GRAM: another width is refused */
    assert_int_equal(kpca_model_transform(&b, C.x, NNEW, NPTS - 1, b.k, zb, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "values per point but the model expects 80"));
    free(za);
    free(zb);
    kpca_model_free(&a);
    kpca_model_free(&b);
    kpca_dataset_free(&xs);
    kpca_dataset_free(&Gs);
    free_data(&x, &G, &xnew, &C);
}

static void test_exact_all(void **state)
{
    (void)state;
    compare(KPCA_SOLVER_EXACT, NULL, NPTS, 0);
}

static void test_exact_subset(void **state)
{
    (void)state;
    size_t idx[50];
    assert_int_equal(kpca_subset_indices(NPTS, 50, 9, idx, NULL), KPCA_OK);
    compare(KPCA_SOLVER_EXACT, idx, 50, 10);
}

static void test_randomized(void **state)
{
    (void)state;
    size_t idx[60];
    assert_int_equal(kpca_subset_indices(NPTS, 60, 3, idx, NULL), KPCA_OK);
    compare(KPCA_SOLVER_RANDOMIZED, idx, 60, 6);
}

static void test_nystrom(void **state)
{
    (void)state;
    compare(KPCA_SOLVER_NYSTROM, NULL, NPTS, 8);
    size_t idx[70];
    assert_int_equal(kpca_subset_indices(NPTS, 70, 5, idx, NULL), KPCA_OK);
    compare(KPCA_SOLVER_NYSTROM, idx, 70, 8);
}

/* the file keeps the indices (no points), the checksum covers them, and a
 * model point's index beyond GRAM is refused */
static void test_file(void **state)
{
    (void)state;
    kpca_dataset x, G, xnew, C, Gs;
    setup_data(&x, &G, &xnew, &C);
    size_t idx[40];
    assert_int_equal(kpca_subset_indices(NPTS, 40, 2, idx, NULL), KPCA_OK);
    kpca_error err;
    assert_int_equal(kpca_dataset_select(&G, idx, 40, &Gs, &err), KPCA_OK);
    kpca_fit_params p = kpca_fit_defaults(1);
    p.kernel = kpca_kernel_precomputed();
    p.gram_index = idx;
    p.components = 5;
    kpca_model md, back;
    fit_ok(&Gs, &p, &md, NULL);
    const char *path = TEST_OUT "/precomputed.h5";
    assert_int_equal(kpca_model_save(&md, path, &err), KPCA_OK);
    assert_int_equal(kpca_model_load(path, &back, &err), KPCA_OK);
    assert_int_equal(back.kernel.type, KPCA_KERNEL_PRECOMPUTED);
    assert_null(back.fitx);
    assert_int_equal(back.m, 40);
    assert_int_equal(back.dim, NPTS);
    for (size_t j = 0; j < 40; j++)
        assert_int_equal(back.gram_index[j], idx[j]);
    assert_memory_equal(back.alpha, md.alpha, md.k * md.m * sizeof(double));
    assert_memory_equal(back.colmean, md.colmean, md.m * sizeof(double));
    assert_true(kpca_model_fingerprint(&back) == kpca_model_fingerprint(&md));
    double *z1 = tu_doubles(NNEW * 5), *z2 = tu_doubles(NNEW * 5);
    assert_int_equal(kpca_model_transform(&md, C.x, NNEW, NPTS, 5, z1, &err), KPCA_OK);
    assert_int_equal(kpca_model_transform(&back, C.x, NNEW, NPTS, 5, z2, &err), KPCA_OK);
    assert_memory_equal(z1, z2, NNEW * 5 * sizeof(double));
    /* another index: another fingerprint */
    back.gram_index[3]++;
    if (back.gram_index[3] == back.gram_index[4])
        back.gram_index[3] -= 2;
    assert_true(kpca_model_fingerprint(&back) != kpca_model_fingerprint(&md));
    /* the invariants: indices ascending and below dim, no points beside them */
    back.gram_index[3] = back.gram_index[4];
    assert_int_equal(kpca_model_validate(&back, "m", &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "model point 5's index"));
    back.gram_index[3] = back.gram_index[2] + 1;
    back.gram_index[39] = NPTS;
    assert_int_equal(kpca_model_validate(&back, "m", &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "out of range or out of order"));
    back.gram_index[39] = NPTS - 1 > back.gram_index[38] ? NPTS - 1 : back.gram_index[38] + 1;
    assert_int_equal(kpca_model_validate(&back, "m", &err), KPCA_OK);
    back.kernel = kpca_kernel_linear(); /* a model of points needs its points */
    assert_int_equal(kpca_model_validate(&back, "m", &err), KPCA_EFORMAT);
    back.kernel = kpca_kernel_precomputed();
    free(z1);
    free(z2);
    kpca_model_free(&md);
    kpca_model_free(&back);
    kpca_dataset_free(&Gs);
    free_data(&x, &G, &xnew, &C);
}

/* an indefinite matrix: fitted on its positive part, info->lowest is the
 * smallest eigenvalue of the centred matrix (dsyevd's) */
static void test_indefinite(void **state)
{
    (void)state;
    const size_t n = 40;
    kpca_dataset pts, G;
    tu_random_dataset(&pts, n, 5, 2, 17);
    kpca_error err;
    assert_int_equal(kpca_dataset_alloc(&G, n, n, &err), KPCA_OK);
    kpca_kernel sg = kpca_kernel_sigmoid(0.8, -0.5);
    kpca_kernel_gram_ref(&sg, pts.x, n, 5, G.x);
    /* the centred matrix's spectrum, by LAPACK */
    double *Kc = tu_doubles(n * n), *w = tu_doubles(n), cm[40], gm;
    memcpy(Kc, G.x, n * n * sizeof(double));
    kpca_center_fit(Kc, n, cm, &gm);
    assert_int_equal(LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'N', 'U', (lapack_int)n, Kc, (lapack_int)n, w), 0);
    assert_true(w[0] < -1e-3 * w[n - 1]); /* clearly indefinite */
    kpca_fit_params p = kpca_fit_defaults(1);
    p.kernel = kpca_kernel_precomputed();
    kpca_model md;
    kpca_fit_info info;
    for (int s = 0; s < 3; s++) { /* exact with all components, a few, randomized */
        p.components = s == 0 ? 0 : 4;
        p.solver = s == 2 ? KPCA_SOLVER_RANDOMIZED : KPCA_SOLVER_EXACT;
        fit_ok(&G, &p, &md, &info);
        if (!(fabs(info.lowest - w[0]) <= 1e-12 * w[n - 1]))
            fail_msg("solver %d: lowest %.17g, dsyevd %.17g", s, info.lowest, w[0]);
        for (size_t c = 0; c < md.k; c++)
            assert_true(md.eigval[c] > 0.0);
        kpca_model_free(&md);
    }
    /* Nystrom: the landmarks' (uncentred) matrix, all of them here */
    p.solver = KPCA_SOLVER_NYSTROM;
    p.landmarks = n;
    p.components = 4;
    fit_ok(&G, &p, &md, &info);
    memcpy(Kc, G.x, n * n * sizeof(double));
    assert_int_equal(LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'N', 'U', (lapack_int)n, Kc, (lapack_int)n, w), 0);
    assert_true(w[0] < 0.0 && fabs(info.lowest - w[0]) <= 1e-12 * w[n - 1]);
    kpca_model_free(&md);
    free(Kc);
    free(w);
    kpca_dataset_free(&pts);
    kpca_dataset_free(&G);
}

static void expect_fit_error(const kpca_dataset *ds, const kpca_fit_params *p, kpca_status code, const char *text)
{
    kpca_model md;
    kpca_error err;
    kpca_status st = kpca_model_fit(ds, p, &md, NULL, &err);
    if (st != code)
        fail_msg("expected status %d, got %d (%s)", (int)code, (int)st, err.msg);
    if (strstr(err.msg, text) == NULL)
        fail_msg("message '%s' lacks '%s'", err.msg, text);
    assert_null(md.alpha);
}

static void test_refusals(void **state)
{
    (void)state;
    kpca_dataset x, G, xnew, C;
    setup_data(&x, &G, &xnew, &C);
    kpca_fit_params p = kpca_fit_defaults(1);
    p.kernel = kpca_kernel_precomputed();
    /* asymmetric beyond the tolerance: the largest asymmetry, 1-based */
    double keep = G.x[3 * NPTS + 7];
    G.x[3 * NPTS + 7] += 1.0;
    expect_fit_error(&G, &p, KPCA_EFORMAT, "not symmetric within 1e-06: row 4, column 8 is");
    G.x[3 * NPTS + 7] = keep * (1.0 + 1e-9); /* within: fitted, and made symmetric */
    kpca_model md;
    fit_ok(&G, &p, &md, NULL);
    kpca_model_free(&md);
    G.x[3 * NPTS + 7] = keep;
    /* not square without indices; indices out of order or beyond GRAM */
    kpca_dataset rows;
    kpca_error err;
    size_t idx[3] = {1, 5, 9};
    assert_int_equal(kpca_dataset_select(&G, idx, 3, &rows, &err), KPCA_OK);
    expect_fit_error(&rows, &p, KPCA_EFORMAT, "is square (M x M): this one is 3 x 80");
    size_t bad[3] = {1, 9, 5};
    p.gram_index = bad;
    expect_fit_error(&rows, &p, KPCA_EFORMAT, "fit point 3's index 5 in the 80 x 80 kernel matrix");
    bad[2] = NPTS;
    expect_fit_error(&rows, &p, KPCA_EFORMAT, "out of range or out of order");
    p.gram_index = NULL;
    /* k-means landmarks need an input space */
    p.solver = KPCA_SOLVER_NYSTROM;
    p.landmark_method = KPCA_LANDMARKS_KMEANS;
    const char *param = NULL;
    assert_int_equal(kpca_fit_check(&p, 0, &param, &err), KPCA_EUSAGE);
    assert_string_equal(param, "landmark_method");
    expect_fit_error(&G, &p, KPCA_EUSAGE, "k-means landmarks are points of an input space");
    /* chi2 refuses negative data in fit and in transform */
    p = kpca_fit_defaults(1);
    p.kernel = kpca_kernel_chi2(1.0);
    expect_fit_error(&x, &p, KPCA_EFORMAT, "the chi2 kernel needs non-negative values: row 1, column");
    for (size_t i = 0; i < NPTS * DIM; i++)
        x.x[i] = fabs(x.x[i]);
    p.components = 3;
    fit_ok(&x, &p, &md, NULL);
    double z[NNEW * 3];
    assert_int_equal(kpca_model_transform(&md, xnew.x, NNEW, DIM, 3, z, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "the chi2 kernel needs non-negative values"));
    kpca_model_free(&md);
    kpca_dataset_free(&rows);
    free_data(&x, &G, &xnew, &C);
}

/* pre-images and reduced sets need an input space and a kernel they can
 * differentiate: a precomputed model and the laplacian, cosine and chi2
 * kernels are refused, with the reason */
static void test_no_preimage_no_reduce(void **state)
{
    (void)state;
    kpca_dataset x, G, xnew, C;
    setup_data(&x, &G, &xnew, &C);
    for (size_t i = 0; i < NPTS * DIM; i++)
        x.x[i] = fabs(x.x[i]);
    const kpca_kernel ks[] = {kpca_kernel_precomputed(), kpca_kernel_laplacian(0.5), kpca_kernel_cosine(),
                              kpca_kernel_chi2(1.0)};
    for (size_t v = 0; v < 4; v++) {
        const int pre = ks[v].type == KPCA_KERNEL_PRECOMPUTED;
        kpca_fit_params p = kpca_fit_defaults(1);
        p.kernel = ks[v];
        p.components = 4;
        kpca_model md, small;
        fit_ok(pre ? &G : &x, &p, &md, NULL);
        const size_t dim = md.dim;
        kpca_error err;
        double *out = tu_doubles(2 * dim);
        kpca_preimage_params pp = kpca_preimage_defaults();
        kpca_status st = kpca_preimage(&md, pre ? G.x : x.x, 2, dim, 2, &pp, out, NULL, NULL, &err);
        assert_int_equal(st, KPCA_EUSAGE);
        assert_non_null(strstr(err.msg, pre ? "a precomputed kernel has none" : "pre-images need a kernel of x.y"));
        kpca_reduce_params rp = kpca_reduce_defaults();
        rp.vectors = 5;
        st = kpca_reduce(&md, &rp, &small, NULL, &err);
        assert_int_equal(st, KPCA_EUSAGE);
        assert_non_null(strstr(err.msg, pre ? "a precomputed kernel has none" : "a reduced set needs the gradient"));
        free(out);
        kpca_model_free(&md);
    }
    free_data(&x, &G, &xnew, &C);
}

/* ---- every allocation failing in turn (tu_fail_loop): KPCA_ENOMEM, never
 * another error or a crash; leaks show under ASan ---- */

static kpca_dataset a_rows; /* 30 fit rows of an 80 x 80 GRAM */
static kpca_dataset a_cross;
static size_t a_idx[30];
static kpca_model a_model;

static kpca_status op_fit(kpca_solver solver, kpca_error *err)
{
    kpca_fit_params p = kpca_fit_defaults(1);
    p.kernel = kpca_kernel_precomputed();
    p.gram_index = a_idx;
    p.solver = solver;
    p.components = 4;
    p.landmarks = 12;
    kpca_model md;
    kpca_status st = kpca_model_fit(&a_rows, &p, &md, NULL, err);
    if (st == KPCA_OK)
        kpca_model_free(&md);
    return st;
}

static kpca_status op_fit_exact(kpca_error *err)
{
    return op_fit(KPCA_SOLVER_EXACT, err);
}

static kpca_status op_fit_nystrom(kpca_error *err)
{
    return op_fit(KPCA_SOLVER_NYSTROM, err);
}

static kpca_status op_transform_save_load(kpca_error *err)
{
    double z[NNEW * 4];
    kpca_status st = kpca_model_transform(&a_model, a_cross.x, NNEW, NPTS, 4, z, err);
    if (st != KPCA_OK)
        return st;
    st = kpca_model_save(&a_model, TEST_OUT "/precomputed_alloc.h5", err);
    kpca_model back;
    if (st == KPCA_OK && (st = kpca_model_load(TEST_OUT "/precomputed_alloc.h5", &back, err)) == KPCA_OK)
        kpca_model_free(&back);
    return st;
}

static kpca_status op_lowest(kpca_error *err)
{
    double lowest;
    return kpca_eig_lowest(a_rows.x, 30, 0.0, &lowest, err); /* the first 30 x 30 of the rows: any matrix */
}

static void test_alloc_failures(void **state)
{
    (void)state;
    kpca_dataset x, G, xnew;
    setup_data(&x, &G, &xnew, &a_cross);
    assert_int_equal(kpca_subset_indices(NPTS, 30, 4, a_idx, NULL), KPCA_OK);
    assert_int_equal(kpca_dataset_select(&G, a_idx, 30, &a_rows, NULL), KPCA_OK);
    assert_int_equal(op_fit_exact(NULL), KPCA_OK);
    kpca_fit_params p = kpca_fit_defaults(1);
    p.kernel = kpca_kernel_precomputed();
    p.gram_index = a_idx;
    p.components = 4;
    fit_ok(&a_rows, &p, &a_model, NULL);
    assert_true(tu_fail_loop("precomputed fit", op_fit_exact, 1) >= 1);
    assert_true(tu_fail_loop("precomputed Nystrom fit", op_fit_nystrom, 1) >= 1);
    assert_true(tu_fail_loop("precomputed transform, save, load", op_transform_save_load, 1) >= 1);
    assert_true(tu_fail_loop("kpca_eig_lowest", op_lowest, 1) >= 1);
    kpca_model_free(&a_model);
    kpca_dataset_free(&a_rows);
    free_data(&x, &G, &xnew, &a_cross);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_all),
        cmocka_unit_test(test_exact_subset),
        cmocka_unit_test(test_randomized),
        cmocka_unit_test(test_nystrom),
        cmocka_unit_test(test_file),
        cmocka_unit_test(test_indefinite),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_no_preimage_no_reduce),
        cmocka_unit_test(test_alloc_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_evalpred.c - what kpca_eval_pred hands back, against computations
 * that do not go through it: the labels agree with the error counts of its
 * rows; the predictions, the error counts and the cross-validated C are
 * those of LIBSVM's own svm_train / svm_predict on the same scaled features
 * and the same folds; the folds (kpca_cv_folds) partition the points evenly
 * and follow the seed. */
#include "testutil.h"

#include "svmref.h"

#include "lib/kpca.h"

/* three Gaussian-ish classes along the first coordinates, seeded */
static void blobs(double *x, int *y, size_t n, size_t dim, uint64_t seed)
{
    for (size_t i = 0; i < n; i++) {
        y[i] = (int)(i % 3);
        for (size_t j = 0; j < dim; j++) {
            double u = (double)(kpca_splitmix64(&seed) >> 11) / 9007199254740992.0;
            x[i * dim + j] = (j == (size_t)y[i] ? 1.0 : 0.0) + 0.9 * (u - 0.5) * (j < 3 ? 2.0 : 1.0);
        }
    }
}

static void test_pred_matches_rows(void **state)
{
    (void)state;
    enum { NTR = 90, NTE = 60, DIM = 5, NP = 4 };
    double xtr[NTR * DIM], xte[NTE * DIM];
    int ytr[NTR], yte[NTE], pred[NP * NTE];
    blobs(xtr, ytr, NTR, DIM, 1);
    blobs(xte, yte, NTE, DIM, 2);
    const size_t pre[NP] = {5, 1, 3, 5};
    for (int sc = KPCA_MC_OVO; sc <= KPCA_MC_OVR; sc++) {
        kpca_eval_params p = kpca_eval_defaults();
        p.svm.scheme = (kpca_multiclass)sc;
        kpca_eval_row rows[NP];
        kpca_error err;
        for (size_t i = 0; i < NP * NTE; i++)
            pred[i] = -7; /* never a label: every cell must be written */
        assert_int_equal(kpca_eval_pred(xtr, ytr, NTR, xte, yte, NTE, DIM, pre, NP, &p, rows, pred, &err), KPCA_OK);
        size_t differ_1_5 = 0;
        for (size_t i = 0; i < NP; i++) {
            size_t e = 0;
            for (size_t j = 0; j < NTE; j++) {
                int l = pred[i * NTE + j];
                assert_true(l >= 0 && l <= 2);
                e += l != yte[j];
            }
            assert_int_equal(e, rows[i].errors);
        }
        for (size_t j = 0; j < NTE; j++) {
            assert_int_equal(pred[0 * NTE + j], pred[3 * NTE + j]); /* prefix 5 twice */
            differ_1_5 += pred[0 * NTE + j] != pred[1 * NTE + j];
        }
        assert_true(differ_1_5 > 0); /* 1 and 5 components: different classifiers */
    }
}

/* ---- LIBSVM by hand ------------------------------------------------------- */

/* The NORM factor by its definition: n over the sum of the squared norms
 * of the first k columns of the rows idx[0..n-1] of x (stride ld). */
static double norm_factor(const double *x, size_t ld, size_t k, const size_t *idx, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; c < k; c++)
            s += x[idx[i] * ld + c] * x[idx[i] * ld + c];
    return (double)n / s;
}

/* One-vs-one linear C-SVC trained by svm_train on the rows tr[0..ntr-1] of
 * x (first k columns times sqrt(f)), then svm_predict on the rows
 * te[0..nte-1] of xt; pred[j] the label of te[j]. */
static void libsvm_run(const double *x, const int *y, const size_t *tr, size_t ntr, const double *xt,
                       const size_t *te, size_t nte, size_t ld, size_t k, double f, double C, int *pred)
{
    struct svm_node *nodes = malloc(ntr * (k + 1) * sizeof *nodes);
    struct svm_node **rows = malloc(ntr * sizeof *rows);
    double *yd = malloc(ntr * sizeof *yd);
    struct svm_node *xn = malloc((k + 1) * sizeof *xn);
    assert_true(nodes && rows && yd && xn);
    const double sf = sqrt(f);
    for (size_t i = 0; i < ntr; i++) {
        rows[i] = nodes + i * (k + 1);
        for (size_t c = 0; c < k; c++) {
            rows[i][c].index = (int)c + 1;
            rows[i][c].value = sf * x[tr[i] * ld + c];
        }
        rows[i][k].index = -1;
        yd[i] = y[tr[i]];
    }
    struct svm_problem prob = {(int)ntr, yd, rows};
    struct svm_parameter par = svmref_linear(C);
    assert_null(svm_check_parameter(&prob, &par));
    struct svm_model *model = svm_train(&prob, &par);
    assert_non_null(model);
    for (size_t j = 0; j < nte; j++) {
        for (size_t c = 0; c < k; c++) {
            xn[c].index = (int)c + 1;
            xn[c].value = sf * xt[te[j] * ld + c];
        }
        xn[k].index = -1;
        pred[j] = (int)svm_predict(model, xn);
    }
    svm_free_and_destroy_model(&model);
    free(nodes);
    free(rows);
    free(yd);
    free(xn);
}

static void iota(size_t *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        a[i] = i;
}

/* Fixed C, NORM scaling, one-vs-one, both LIBSVM backends: every prediction
 * and every error count is LIBSVM's. */
static void test_pred_matches_libsvm(void **state)
{
    (void)state;
    enum { NTR = 120, NTE = 90, DIM = 6, NP = 3 };
    double xtr[NTR * DIM], xte[NTE * DIM];
    int ytr[NTR], yte[NTE], pred[NP * NTE], ref[NTE];
    size_t itr[NTR], ite[NTE];
    blobs(xtr, ytr, NTR, DIM, 5);
    blobs(xte, yte, NTE, DIM, 6);
    iota(itr, NTR);
    iota(ite, NTE);
    const size_t pre[NP] = {DIM, 2, 4};
    for (int b = KPCA_SVM_GRAM; b <= KPCA_SVM_SPARSE; b++) {
        kpca_eval_params p = kpca_eval_defaults();
        p.svm.backend = (kpca_svm_backend)b;
        p.svm.C = 0.5;
        kpca_eval_row rows[NP];
        kpca_error err;
        assert_int_equal(kpca_eval_pred(xtr, ytr, NTR, xte, yte, NTE, DIM, pre, NP, &p, rows, pred, &err), KPCA_OK);
        for (size_t i = 0; i < NP; i++) {
            size_t k = pre[i];
            libsvm_run(xtr, ytr, itr, NTR, xte, ite, NTE, DIM, k, norm_factor(xtr, DIM, k, itr, NTR), p.svm.C, ref);
            size_t errors = 0;
            for (size_t j = 0; j < NTE; j++) {
                if (pred[i * NTE + j] != ref[j])
                    fail_msg("backend %s, %zu components, test point %zu: eval %d, libsvm %d",
                             kpca_backend_name(p.svm.backend), k, j, pred[i * NTE + j], ref[j]);
                errors += ref[j] != yte[j];
            }
            assert_int_equal(rows[i].errors, errors);
            assert_int_equal(rows[i].total, NTE);
            assert_true(rows[i].C == p.svm.C);
            assert_true(rows[i].cv_error_pct < 0.0);
        }
    }
}

/* C by cross-validation: LIBSVM on each training fold of kpca_cv_folds
 * (NORM factor of that fold), the fewest validation errors, the smallest C
 * of a tie (eval.h); then eval's predictions are LIBSVM's with that C. */
static void test_cv_matches_libsvm(void **state)
{
    (void)state;
    enum { NTR = 150, NTE = 60, DIM = 5, FOLDS = 4, NC = 4 };
    double xtr[NTR * DIM], xte[NTE * DIM];
    int ytr[NTR], yte[NTE], pred[NTE], ref[NTR];
    size_t perm[NTR], tr[NTR], va[NTR], ite[NTE], all[NTR];
    int fold[NTR];
    blobs(xtr, ytr, NTR, DIM, 7);
    blobs(xte, yte, NTE, DIM, 8);
    iota(ite, NTE);
    iota(all, NTR);
    const double costs[NC] = {0.002, 3.001, 3, 300}; /* 3.001 and 3 tie */
    const size_t k = 3;
    kpca_cv_folds(NTR, FOLDS, KPCA_CV_SEED, perm, fold);
    size_t best = SIZE_MAX, cverr[NC];
    double bestC = 0.0;
    for (size_t c = 0; c < NC; c++) {
        cverr[c] = 0;
        for (int f = 0; f < FOLDS; f++) {
            size_t ntr = 0, nva = 0;
            for (size_t i = 0; i < NTR; i++) {
                if (fold[i] == f)
                    va[nva++] = i;
                else
                    tr[ntr++] = i;
            }
            libsvm_run(xtr, ytr, tr, ntr, xtr, va, nva, DIM, k, norm_factor(xtr, DIM, k, tr, ntr), costs[c], ref);
            for (size_t j = 0; j < nva; j++)
                cverr[c] += ref[j] != ytr[va[j]];
        }
        if (cverr[c] < best || (cverr[c] == best && costs[c] < bestC)) {
            best = cverr[c];
            bestC = costs[c];
        }
    }
    print_message("      cross-validation errors %zu %zu %zu %zu: C = %g\n", cverr[0], cverr[1], cverr[2], cverr[3], bestC);
    assert_true(cverr[0] > best && cverr[3] > best); /* neither end of the range */
    assert_true(cverr[1] == cverr[2] && bestC == 3); /* a tie: the smaller C, wherever it is listed */
    libsvm_run(xtr, ytr, all, NTR, xte, ite, NTE, DIM, k, norm_factor(xtr, DIM, k, all, NTR), bestC, ref);
    size_t errors = 0;
    for (size_t j = 0; j < NTE; j++)
        errors += ref[j] != yte[j];
    const double reversed[NC] = {costs[3], costs[2], costs[1], costs[0]};
    for (int r = 0; r < 2; r++) { /* the candidates in either order */
        kpca_eval_params p = kpca_eval_defaults();
        p.costs = r == 0 ? costs : reversed;
        p.ncost = NC;
        p.folds = FOLDS;
        kpca_eval_row row;
        kpca_error err;
        assert_int_equal(kpca_eval_pred(xtr, ytr, NTR, xte, yte, NTE, DIM, &k, 1, &p, &row, pred, &err), KPCA_OK);
        assert_true(row.C == bestC);
        assert_true(fabs(row.cv_error_pct - 100.0 * (double)best / NTR) < 1e-12);
        for (size_t j = 0; j < NTE; j++)
            assert_int_equal(pred[j], ref[j]);
        assert_int_equal(row.errors, errors);
    }
}

/* ---- the folds ------------------------------------------------------------ */

static void test_cv_folds(void **state)
{
    (void)state;
    enum { N = 103 };
    size_t perm[N];
    int a[N], b[N], c[N];
    const int folds[] = {2, 5, 7, N, N + 4};
    for (size_t t = 0; t < sizeof folds / sizeof folds[0]; t++) {
        int nf = folds[t];
        for (size_t i = 0; i < N; i++)
            a[i] = b[i] = c[i] = -1;
        kpca_cv_folds(N, nf, KPCA_CV_SEED, perm, a);
        kpca_cv_folds(N, nf, KPCA_CV_SEED, perm, b);
        kpca_cv_folds(N, nf, KPCA_CV_SEED + 1, perm, c);
        size_t size[N + 4] = {0};
        for (size_t i = 0; i < N; i++) {
            assert_true(a[i] >= 0 && a[i] < nf); /* every point in exactly one fold */
            size[a[i]]++;
        }
        size_t lo = SIZE_MAX, hi = 0;
        for (int f = 0; f < nf; f++) {
            lo = size[f] < lo ? size[f] : lo;
            hi = size[f] > hi ? size[f] : hi;
        }
        assert_true(hi - lo <= 1);
        assert_memory_equal(a, b, sizeof a); /* the seed names the folds */
        size_t moved = 0;
        for (size_t i = 0; i < N; i++)
            moved += a[i] != c[i];
        assert_true(moved > 0); /* another seed, other folds */
        if (nf < N) { /* not dealt in input order: the points are shuffled */
            size_t in_order = 0;
            for (size_t i = 0; i < N; i++)
                in_order += a[i] == (int)(i % (size_t)nf);
            assert_true(in_order < N);
        }
    }
    /* nothing to deal */
    kpca_cv_folds(0, 5, KPCA_CV_SEED, perm, a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pred_matches_rows),
        cmocka_unit_test(test_pred_matches_libsvm),
        cmocka_unit_test(test_cv_matches_libsvm),
        cmocka_unit_test(test_cv_folds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

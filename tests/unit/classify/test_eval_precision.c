/* test_eval_precision.c - kpca eval --precision single: the SVMs' Gram
 * matrix grown in binary32 (kpca_gram_striped_single), read by the GRAM
 * backend in place of the double one (kpca_svm_train_rows' gs), and
 * kpca_eval's switch between them.
 *
 * Two kinds of checks: on random features, the binary32 Gram matrix
 * against the double one within the error bound of a binary32 dot product
 * of k terms grown in steps, (k + 2) FLT_EPSILON sum_l |a_il a_jl|; on
 * features that are small integers (every product and sum exact in
 * binary32), the two matrices are equal, so everything trained on them
 * must be identical bit for bit: that isolates the plumbing. */
#include "testutil.h"

#include <float.h>

static void test_gram_single_within_bound(void **state)
{
    (void)state;
    const size_t n = 700, k = 12; /* two stripes of KPCA_GRAM_TILE */
    double *a = malloc(n * k * sizeof *a);
    float *af = malloc(n * k * sizeof *af);
    const size_t len = kpca_gram_striped_len(n);
    double *gd = malloc(len * sizeof *gd);
    float *gf = malloc(len * sizeof *gf);
    size_t *off = malloc(n * sizeof *off);
    assert_true(a && af && gd && gf && off);
    uint64_t seed = 5;
    for (size_t i = 0; i < n * k; i++) {
        a[i] = 3.0 * tu_rand(&seed);
        af[i] = (float)a[i];
    }
    kpca_gram_striped_offsets(n, off);
    /* grown as kpca_eval grows it: 5 columns, then the next 7 */
    kpca_gram_striped(n, 5, a, k, 0.0, gd);
    kpca_gram_striped(n, 7, a + 5, k, 1.0, gd);
    kpca_gram_striped_single(n, 5, af, k, 0.0f, gf);
    kpca_gram_striped_single(n, 7, af + 5, k, 1.0f, gf);
    size_t differ = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i; j < n; j++) {
            double s = 0.0;
            for (size_t l = 0; l < k; l++)
                s += fabs(a[i * k + l] * a[j * k + l]);
            double d = fabs((double)gf[off[i] + j] - gd[off[i] + j]);
            if (!(d <= (double)(k + 2) * FLT_EPSILON * s))
                fail_msg("G(%zu, %zu): single %.9g, double %.17g", i, j, (double)gf[off[i] + j], gd[off[i] + j]);
            differ += d > 0.0;
        }
    assert_true(differ > 0); /* it did run in binary32 */
    free(a);
    free(af);
    free(gd);
    free(gf);
    free(off);
}

/* n points of 3 classes: centres plus integer noise in -3..3, dim values
 * each; all small integers */
static void integer_features(size_t n, size_t dim, uint64_t seed, double *x, int *y)
{
    for (size_t i = 0; i < n; i++) {
        y[i] = (int)(i % 3) + 1;
        for (size_t c = 0; c < dim; c++) {
            double centre = c % 3 == i % 3 ? 6.0 : 0.0;
            x[i * dim + c] = centre + floor(3.5 * tu_rand(&seed));
        }
    }
}

static void assert_same_classifier(const kpca_classifier *a, const kpca_classifier *b)
{
    assert_int_equal(a->nmach, b->nmach);
    assert_int_equal(a->nsv, b->nsv);
    assert_memory_equal(a->w, b->w, a->nmach * a->dim * sizeof(double));
    assert_memory_equal(a->b, b->b, a->nmach * sizeof(double));
}

static void test_svm_reads_single_gram(void **state)
{
    (void)state;
    enum { N = 120, DIM = 6 };
    double x[N * DIM];
    int y[N];
    integer_features(N, DIM, 9, x, y);
    const size_t len = kpca_gram_striped_len(N);
    double *gd = malloc(len * sizeof *gd);
    float *gf = malloc(len * sizeof *gf), xf[N * DIM];
    size_t off[N];
    assert_true(gd && gf);
    for (size_t i = 0; i < N * DIM; i++)
        xf[i] = (float)x[i];
    kpca_gram_striped_offsets(N, off);
    kpca_gram_striped(N, DIM, x, DIM, 0.0, gd);
    kpca_gram_striped_single(N, DIM, xf, DIM, 0.0f, gf);
    for (size_t i = 0; i < N; i++)
        for (size_t j = i; j < N; j++)
            assert_true((double)gf[off[i] + j] == gd[off[i] + j]);
    kpca_error err;
    for (int sc = KPCA_MC_OVO; sc <= KPCA_MC_OVR; sc++) {
        kpca_svm_params p = kpca_svm_defaults();
        p.scheme = (kpca_multiclass)sc;
        p.C = 0.5;
        kpca_classifier a, b;
        assert_int_equal(kpca_svm_train_rows(x, DIM, DIM, y, gd, NULL, off, NULL, NULL, N, 0.3, &p, NULL, &a, &err),
                         KPCA_OK);
        assert_int_equal(kpca_svm_train_rows(x, DIM, DIM, y, NULL, gf, off, NULL, NULL, N, 0.3, &p, NULL, &b, &err),
                         KPCA_OK);
        assert_same_classifier(&a, &b);
        kpca_classifier_free(&a);
        kpca_classifier_free(&b);
        /* exactly one of the two matrices */
        assert_int_equal(kpca_svm_train_rows(x, DIM, DIM, y, gd, gf, off, NULL, NULL, N, 0.3, &p, NULL, &a, &err),
                         KPCA_EINTERNAL);
        assert_int_equal(kpca_svm_train_rows(x, DIM, DIM, y, NULL, NULL, off, NULL, NULL, N, 0.3, &p, NULL, &a, &err),
                         KPCA_EINTERNAL);
    }
    free(gd);
    free(gf);
}

/* kpca_eval on integer features: single and double give the same table
 * (cross-validation included); then on random features both run, and a
 * precision out of range is refused. */
static void test_eval_single_vs_double(void **state)
{
    (void)state;
    enum { NTR = 150, NTE = 60, DIM = 6 };
    double xtr[NTR * DIM], xte[NTE * DIM];
    int ytr[NTR], yte[NTE];
    integer_features(NTR, DIM, 31, xtr, ytr);
    integer_features(NTE, DIM, 32, xte, yte);
    const size_t prefixes[] = {2, 6, 4};
    const double costs[] = {0.1, 1.0};
    kpca_eval_row rd[3], rs[3];
    int pd[3 * NTE], ps[3 * NTE];
    kpca_error err;
    for (size_t nc = 1; nc <= 2; nc++) {
        kpca_eval_params p = kpca_eval_defaults();
        assert_int_equal(p.precision, KPCA_PRECISION_DOUBLE);
        p.costs = costs;
        p.ncost = nc;
        assert_int_equal(kpca_eval_pred(xtr, ytr, NTR, xte, yte, NTE, DIM, prefixes, 3, &p, rd, pd, &err), KPCA_OK);
        p.precision = KPCA_PRECISION_SINGLE;
        assert_int_equal(kpca_eval_pred(xtr, ytr, NTR, xte, yte, NTE, DIM, prefixes, 3, &p, rs, ps, &err), KPCA_OK);
        for (size_t i = 0; i < 3; i++) {
            assert_int_equal(rs[i].errors, rd[i].errors);
            assert_int_equal(rs[i].nsv, rd[i].nsv);
            assert_true(rs[i].C == rd[i].C);
            assert_true(rs[i].cv_error_pct == rd[i].cv_error_pct);
        }
        assert_memory_equal(ps, pd, sizeof pd);
    }
    kpca_eval_params p = kpca_eval_defaults();
    p.precision = (kpca_precision)5;
    assert_int_equal(kpca_eval(xtr, ytr, NTR, xte, yte, NTE, DIM, prefixes, 3, &p, rd, &err), KPCA_EUSAGE);
    assert_non_null(strstr(err.msg, "precision"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gram_single_within_bound),
        cmocka_unit_test(test_svm_reads_single_gram),
        cmocka_unit_test(test_eval_single_vs_double),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

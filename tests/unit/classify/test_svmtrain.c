/* test_svmtrain.c - the binary SVMs (classify/svmtrain.h) on a separable toy
 * problem, and the GRAM backend reading only the upper triangle of G. */
#include "testutil.h"

static double gauss(uint64_t *s)
{
    double u1 = 0.5 * (tu_rand(s) + 1.0), u2 = 0.5 * (tu_rand(s) + 1.0);
    if (u1 < 1e-300)
        u1 = 1e-300;
    return sqrt(-2.0 * log(u1)) * cos(2.0 * 3.14159265358979323846 * u2);
}

#define TD 5
static const int toy_labels[3] = {7, 3, 5};
static const double toy_centre[3][TD] = {{6, 0, 0, 1, 0}, {-3, 5, 0, 0, 1}, {-3, -5, 1, 0, 0}};

/* n points, labels cycling 7, 3, 5 (interleaved), sd 0.5 around the centres;
 * rows stored with stride ld >= TD (the extra columns hold junk). */
static void toy(size_t n, size_t ld, uint64_t seed, double *x, int *y)
{
    for (size_t i = 0; i < n; i++) {
        size_t c = i % 3;
        y[i] = toy_labels[c];
        for (size_t j = 0; j < ld; j++)
            x[i * ld + j] = j < TD ? toy_centre[c][j] + 0.5 * gauss(&seed) : 1e6;
    }
}

/* The n x n Gram matrix (malloc'd, both triangles) of the first TD columns
 * of x (stride ld). */
static double *toy_gram(const double *x, size_t n, size_t ld)
{
    double *g = malloc(n * n * sizeof *g);
    assert_non_null(g);
    for (size_t a = 0; a < n; a++)
        for (size_t b = 0; b < n; b++) {
            double s = 0.0;
            for (size_t j = 0; j < TD; j++)
                s += x[a * ld + j] * x[b * ld + j];
            g[a * n + b] = s;
        }
    return g;
}

static void test_toy_separable(void **state)
{
    (void)state;
    const size_t n = 90, ld = TD + 2;
    double x[90 * (TD + 2)], xt[300 * (TD + 2)];
    int y[90], yt[300], pred[300];
    toy(n, ld, 11, x, y);
    toy(300, ld, 12, xt, yt);
    double *g = toy_gram(x, n, ld); /* for the GRAM backend */
    for (int sc = KPCA_MC_OVO; sc <= KPCA_MC_OVR; sc++) {
        for (int b = KPCA_SVM_GRAM; b <= KPCA_SVM_LIBLINEAR; b++) {
            kpca_svm_params p = kpca_svm_defaults();
            p.scheme = (kpca_multiclass)sc;
            p.backend = (kpca_svm_backend)b;
            p.C = 10.0;
            kpca_classifier cl;
            kpca_error err;
            kpca_status st = kpca_svm_train(x, n, ld, TD, y, g, 1.0, &p, &cl, &err);
            if (st != KPCA_OK)
                fail_msg("train: %s", err.msg);
            assert_int_equal(cl.nclass, 3);
            assert_int_equal(cl.dim, TD);
            assert_int_equal(cl.nmach, 3); /* 3 pairs, or 3 one-vs-rest */
            for (size_t c = 0; c < 3; c++)
                assert_int_equal(cl.labels[c], toy_labels[c]); /* order of first appearance */
            for (size_t m = 0; m < cl.nmach; m++) {
                assert_true(cl.pos[m] >= 0 && cl.pos[m] < 3);
                if (sc == KPCA_MC_OVO)
                    assert_true(cl.neg[m] > cl.pos[m] && cl.neg[m] < 3);
                else
                    assert_int_equal(cl.neg[m], -1);
            }
            assert_true(cl.nsv >= 2 * cl.nmach && cl.nsv < 3 * n);
            /* training data, then fresh points: no errors */
            assert_int_equal(kpca_classifier_predict(&cl, x, n, ld, pred, &err), KPCA_OK);
            for (size_t i = 0; i < n; i++)
                if (pred[i] != y[i])
                    fail_msg("%s/%s: training point %zu predicted %d, label %d", kpca_multiclass_name(p.scheme),
                             kpca_backend_name(p.backend), i, pred[i], y[i]);
            assert_int_equal(kpca_classifier_predict(&cl, xt, 300, ld, pred, &err), KPCA_OK);
            for (size_t i = 0; i < 300; i++)
                assert_int_equal(pred[i], yt[i]);
            /* every machine separates its two sides of the training data
             * with a margin: y (w.x + b) >= 1 - small for all points */
            for (size_t m = 0; m < cl.nmach; m++) {
                for (size_t i = 0; i < n; i++) {
                    int c = (int)(i % 3);
                    double side;
                    if (c == cl.pos[m])
                        side = 1.0;
                    else if (c == cl.neg[m] || cl.neg[m] < 0)
                        side = -1.0;
                    else
                        continue;
                    double d = cl.b[m];
                    for (size_t j = 0; j < TD; j++)
                        d += cl.w[m * TD + j] * x[i * ld + j];
                    if (!(side * d >= 1.0 - 1e-2))
                        fail_msg("machine %zu point %zu: functional margin %g", m, i, side * d);
                }
            }
            /* no points: nothing to do */
            assert_int_equal(kpca_classifier_predict(&cl, x, 0, ld, pred, &err), KPCA_OK);
            kpca_classifier_free(&cl);
            assert_null(cl.w);
        }
    }
    /* a single class is not a classification problem */
    int same[90];
    for (size_t i = 0; i < n; i++)
        same[i] = 4;
    kpca_svm_params p = kpca_svm_defaults();
    kpca_classifier cl;
    kpca_error err;
    assert_int_equal(kpca_svm_train(x, n, ld, TD, same, g, 1.0, &p, &cl, &err), KPCA_EFORMAT);
    assert_null(cl.w);
    /* the GRAM backend needs its matrix */
    assert_int_not_equal(kpca_svm_train(x, n, ld, TD, y, NULL, 1.0, &p, &cl, &err), KPCA_OK);
    free(g);
}

/* The GRAM backend reads only the upper triangle of G (svmtrain.h; kpca_eval
 * never mirrors it): a G whose strict lower triangle is NaN gives the same
 * machines, bit for bit, as the full symmetric G, for one-vs-one problems
 * (whose points are not in G's order here: the toy's labels interleave)
 * and one-vs-rest. */
static void test_gram_upper_triangle_only(void **state)
{
    (void)state;
    const size_t n = 90, ld = TD;
    double x[90 * TD];
    int y[90];
    toy(n, ld, 21, x, y);
    double *full = toy_gram(x, n, ld), *upper = toy_gram(x, n, ld);
    for (size_t a = 0; a < n; a++)
        for (size_t b = 0; b < a; b++)
            upper[a * n + b] = NAN;
    for (int sc = KPCA_MC_OVO; sc <= KPCA_MC_OVR; sc++) {
        kpca_svm_params p = kpca_svm_defaults();
        p.scheme = (kpca_multiclass)sc;
        p.backend = KPCA_SVM_GRAM;
        p.C = 10.0;
        kpca_classifier a, b;
        kpca_error err;
        if (kpca_svm_train(x, n, ld, TD, y, full, 0.7, &p, &a, &err) != KPCA_OK)
            fail_msg("train (full G): %s", err.msg);
        if (kpca_svm_train(x, n, ld, TD, y, upper, 0.7, &p, &b, &err) != KPCA_OK)
            fail_msg("train (upper G): %s", err.msg);
        assert_int_equal(a.nmach, b.nmach);
        assert_int_equal(a.nsv, b.nsv);
        for (size_t m = 0; m < a.nmach; m++) {
            assert_true(isfinite(b.b[m]));
            assert_memory_equal(a.w + m * TD, b.w + m * TD, TD * sizeof(double));
            assert_memory_equal(&a.b[m], &b.b[m], sizeof(double));
        }
        kpca_classifier_free(&a);
        kpca_classifier_free(&b);
    }
    free(full);
    free(upper);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_toy_separable),
        cmocka_unit_test(test_gram_upper_triangle_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_evalpred.c - kpca_eval_pred hands back the labels kpca_eval counts:
 * per prefix, the predictions disagree with the test labels exactly
 * rows[i].errors times, a duplicate prefix gets the same column, and the
 * rows are those of kpca_eval without predictions. */
#include "testutil.h"

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
        kpca_svm_params p = kpca_svm_defaults();
        p.scheme = (kpca_multiclass)sc;
        kpca_eval_row rows[NP], plain[NP];
        kpca_error err;
        for (size_t i = 0; i < NP * NTE; i++)
            pred[i] = -7; /* never a label: every cell must be written */
        assert_int_equal(kpca_eval_pred(xtr, ytr, NTR, xte, yte, NTE, DIM, pre, NP, &p, rows, pred, &err), KPCA_OK);
        assert_int_equal(kpca_eval(xtr, ytr, NTR, xte, yte, NTE, DIM, pre, NP, &p, plain, &err), KPCA_OK);
        size_t differ_1_5 = 0;
        for (size_t i = 0; i < NP; i++) {
            size_t e = 0;
            for (size_t j = 0; j < NTE; j++) {
                int l = pred[i * NTE + j];
                assert_true(l >= 0 && l <= 2);
                e += l != yte[j];
            }
            assert_int_equal(e, rows[i].errors);
            assert_int_equal(rows[i].errors, plain[i].errors);
        }
        for (size_t j = 0; j < NTE; j++) {
            assert_int_equal(pred[0 * NTE + j], pred[3 * NTE + j]); /* prefix 5 twice */
            differ_1_5 += pred[0 * NTE + j] != pred[1 * NTE + j];
        }
        assert_true(differ_1_5 > 0); /* 1 and 5 components: different classifiers */
    }
}

static void test_pred_null_is_eval(void **state)
{
    (void)state;
    enum { NTR = 60, NTE = 30, DIM = 4 };
    double xtr[NTR * DIM], xte[NTE * DIM];
    int ytr[NTR], yte[NTE];
    blobs(xtr, ytr, NTR, DIM, 3);
    blobs(xte, yte, NTE, DIM, 4);
    const size_t pre[1] = {4};
    kpca_svm_params p = kpca_svm_defaults();
    kpca_eval_row a[1], b[1];
    kpca_error err;
    assert_int_equal(kpca_eval_pred(xtr, ytr, NTR, xte, yte, NTE, DIM, pre, 1, &p, a, NULL, &err), KPCA_OK);
    assert_int_equal(kpca_eval(xtr, ytr, NTR, xte, yte, NTE, DIM, pre, 1, &p, b, &err), KPCA_OK);
    assert_int_equal(a[0].errors, b[0].errors);
    assert_int_equal(a[0].nsv, b[0].nsv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pred_matches_rows),
        cmocka_unit_test(test_pred_null_is_eval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

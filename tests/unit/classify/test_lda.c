/* test_lda.c - the Gaussian linear classifier (classify/lda.h). */
#include "testutil.h"

/* LDA against a plain-loop implementation: class means, pooled covariance
 * inverted by Gauss-Jordan, priors n_c/n; every prediction agrees. */
static void test_lda_reference(void **state)
{
    (void)state;
    enum { N = 240, D = 5, NC = 3, NT = 120 };
    double x[N * D], xt[NT * D];
    int y[N], yt[NT];
    uint64_t seed = 42;
    for (int i = 0; i < N + NT; i++) {
        double *row = i < N ? x + i * D : xt + (i - N) * D;
        int c = (i * 7) % NC;
        for (int j = 0; j < D; j++)
            row[j] = (j == c ? 1.5 : 0.0) + (j == 4 ? 0.5 * c : 0.0) + tu_rand(&seed) + 0.3 * tu_rand(&seed);
        if (i < N)
            y[i] = c + 1;
        else
            yt[i - N] = c + 1;
    }
    /* reference: means, pooled covariance, its inverse */
    double mu[NC][D] = {{0}}, S[D][D] = {{0}}, A[D][2 * D];
    int cnt[NC] = {0};
    for (int i = 0; i < N; i++) {
        cnt[y[i] - 1]++;
        for (int j = 0; j < D; j++)
            mu[y[i] - 1][j] += x[i * D + j];
    }
    for (int c = 0; c < NC; c++)
        for (int j = 0; j < D; j++)
            mu[c][j] /= cnt[c];
    for (int i = 0; i < N; i++)
        for (int a = 0; a < D; a++)
            for (int b = 0; b < D; b++)
                S[a][b] += (x[i * D + a] - mu[y[i] - 1][a]) * (x[i * D + b] - mu[y[i] - 1][b]) / (N - NC);
    for (int a = 0; a < D; a++)
        for (int b = 0; b < 2 * D; b++)
            A[a][b] = b < D ? S[a][b] : (b - D == a);
    for (int p = 0; p < D; p++) {
        double piv = A[p][p];
        for (int b = 0; b < 2 * D; b++)
            A[p][b] /= piv;
        for (int r = 0; r < D; r++)
            if (r != p) {
                double f = A[r][p];
                for (int b = 0; b < 2 * D; b++)
                    A[r][b] -= f * A[p][b];
            }
    }
    kpca_classifier cl;
    kpca_error err;
    assert_int_equal(kpca_lda_train(x, D, D, y, NULL, N, &cl, &err), KPCA_OK);
    assert_true(cl.ridge == 0.0);
    int pred[NT];
    assert_int_equal(kpca_classifier_predict(&cl, xt, NT, D, pred, &err), KPCA_OK);
    int errors = 0;
    for (int i = 0; i < NT; i++) {
        double best = -1e300;
        int arg = 0;
        for (int c = 0; c < NC; c++) {
            double w[D], v = log((double)cnt[c] / N), q = 0;
            for (int a = 0; a < D; a++) {
                w[a] = 0;
                for (int b = 0; b < D; b++)
                    w[a] += A[a][D + b] * mu[c][b];
                v += w[a] * xt[i * D + a];
                q += w[a] * mu[c][a];
            }
            v -= 0.5 * q;
            if (v > best) {
                best = v;
                arg = c + 1;
            }
        }
        assert_int_equal(pred[i], arg);
        errors += pred[i] != yt[i];
    }
    assert_true(errors < NT / 4); /* the classes are separable enough */
    kpca_classifier_free(&cl);

    /* a duplicated feature makes S singular: regularised, still predicts */
    double x2[N * (D + 1)];
    for (int i = 0; i < N; i++) {
        memcpy(x2 + i * (D + 1), x + i * D, D * sizeof(double));
        x2[i * (D + 1) + D] = x[i * D];
    }
    assert_int_equal(kpca_lda_train(x2, D + 1, D + 1, y, NULL, N, &cl, &err), KPCA_OK);
    assert_true(cl.ridge > 0.0 && cl.ridge < 0.2);
    kpca_classifier_free(&cl);
}

/* The pooled covariance summed a block of rows at a time: blocks of 1, 7
 * and n rows give the one-block classifier to 1e-12, on all rows and on a
 * subset (as cross-validation trains). */
static void test_lda_blocks(void **state)
{
    (void)state;
    enum { N = 300, D = 6, NC = 4 };
    double *x = tu_doubles(N * D);
    int y[N];
    size_t sub[N];
    size_t nsub = 0;
    uint64_t seed = 9;
    for (size_t i = 0; i < N; i++) {
        y[i] = (int)((i * 5) % NC);
        for (size_t j = 0; j < D; j++)
            x[i * D + j] = (j == (size_t)y[i] ? 2.0 : 0.0) + tu_rand(&seed);
        if (i % 3 != 1)
            sub[nsub++] = i;
    }
    kpca_error err;
    for (int s = 0; s < 2; s++) {
        const size_t *rows = s ? sub : NULL;
        size_t n = s ? nsub : N;
        kpca_classifier one, cl;
        assert_int_equal(kpca_lda_train(x, D, D, y, rows, n, &one, &err), KPCA_OK);
        const size_t blocks[] = {1, 7, n};
        for (size_t b = 0; b < 3; b++) {
            assert_int_equal(kpca_lda_train_blocks(x, D, D, y, rows, n, blocks[b], &cl, &err), KPCA_OK);
            assert_int_equal(cl.nclass, one.nclass);
            assert_memory_equal(cl.labels, one.labels, one.nclass * sizeof(int));
            for (size_t i = 0; i < one.nmach * D; i++)
                if (!(fabs(cl.w[i] - one.w[i]) <= 1e-12 * fmax(1.0, fabs(one.w[i]))))
                    fail_msg("block %zu: w[%zu] %.17g, one block %.17g", blocks[b], i, cl.w[i], one.w[i]);
            for (size_t i = 0; i < one.nmach; i++)
                assert_true(fabs(cl.b[i] - one.b[i]) <= 1e-12 * fmax(1.0, fabs(one.b[i])));
            if (blocks[b] == n) /* one block: the same DSYRK */
                assert_memory_equal(cl.w, one.w, one.nmach * D * sizeof(double));
            kpca_classifier_free(&cl);
        }
        kpca_classifier_free(&one);
    }
    assert_int_equal(kpca_lda_block_rows(10, 2048), 10);
    assert_int_equal(kpca_lda_block_rows(100000, 2048), KPCA_LDA_BLOCK_BYTES / (8 * 2048));
    assert_int_equal(kpca_lda_block_rows(5, (size_t)1 << 40), 1);
    free(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lda_reference), cmocka_unit_test(test_lda_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

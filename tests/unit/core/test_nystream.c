/* test_nystream.c - the Nyström fit by blocks (nystream.h, nystrom.h's
 * reduction): the model of the commit before it (nystrom_ref.h: every row
 * and the n x l kernel block in memory) to 1e-10 on USPS and on 10^5 rows,
 * the same model whatever the block size or the split of the rows, the
 * pairwise update where raw sums lose every digit, k-means landmarks on a
 * sample, a precomputed kernel, a feed that fails half way. */
#include "testutil.h"

#include "lib/core/nystream.h"
#include "nystrom_ref.h"

/* max |a - b| over n values, relative to max |a| */
static double rel_diff(const double *a, const double *b, size_t n)
{
    double d = 0.0, big = 0.0;
    for (size_t i = 0; i < n; i++) {
        d = fmax(d, fabs(a[i] - b[i]));
        big = fmax(big, fabs(a[i]));
    }
    return big > 0.0 ? d / big : d;
}

/* Two Nyström models are the same to tol: sizes, landmarks, labels and
 * range exactly; eigenvalues relative to the largest, trace and colmean
 * relative to their size, each component's alpha relative to its largest
 * entry, with the same sign. */
static void same_model(const kpca_model *a, const kpca_model *b, double tol, const char *what)
{
    if (a->m != b->m || a->dim != b->dim || a->k != b->k || a->fit_n != b->fit_n || a->centring != b->centring)
        fail_msg("%s: sizes differ (m %zu/%zu, dim %zu/%zu, k %zu/%zu, fit_n %zu/%zu)", what, a->m, b->m, a->dim,
                 b->dim, a->k, b->k, a->fit_n, b->fit_n);
    if (a->fitx != NULL && memcmp(a->fitx, b->fitx, a->m * a->dim * sizeof(double)) != 0)
        fail_msg("%s: the landmarks differ", what);
    if (a->gram_index != NULL && memcmp(a->gram_index, b->gram_index, a->m * sizeof(size_t)) != 0)
        fail_msg("%s: the landmarks' indices differ", what);
    if (memcmp(a->fity, b->fity, a->m * sizeof(int)) != 0)
        fail_msg("%s: the landmarks' labels differ", what);
    if (a->input_lo != b->input_lo || a->input_hi != b->input_hi || strcmp(a->solver, b->solver) != 0)
        fail_msg("%s: range [%g, %g] / [%g, %g] or solver '%s' / '%s'", what, a->input_lo, a->input_hi, b->input_lo,
                 b->input_hi, a->solver, b->solver);
    for (size_t c = 0; c < a->k; c++)
        if (!(fabs(a->eigval[c] - b->eigval[c]) <= tol * a->eigval[0]))
            fail_msg("%s: eigenvalue %zu: %.17g vs %.17g", what, c + 1, a->eigval[c], b->eigval[c]);
    if (!(fabs(a->trace - b->trace) <= tol * a->trace))
        fail_msg("%s: trace %.17g vs %.17g", what, a->trace, b->trace);
    double d = rel_diff(a->colmean, b->colmean, a->m);
    if (!(d <= tol))
        fail_msg("%s: colmean differs by %g relative", what, d);
    for (size_t c = 0; c < a->k; c++) {
        d = rel_diff(a->alpha + c * a->m, b->alpha + c * a->m, a->m);
        if (!(d <= tol))
            fail_msg("%s: alpha of component %zu differs by %g relative (tolerance %g)", what, c + 1, d, tol);
    }
}

static kpca_fit_params nys_params(size_t l, size_t k)
{
    kpca_fit_params p = kpca_fit_defaults(3);
    p.solver = KPCA_SOLVER_NYSTROM;
    p.landmarks = l;
    p.components = k;
    return p;
}

static void fit_both(const kpca_dataset *ds, const kpca_fit_params *p, kpca_model *now, kpca_model *then)
{
    kpca_error err;
    if (kpca_model_fit(ds, p, now, NULL, &err) != KPCA_OK)
        fail_msg("kpca_model_fit: %s", err.msg);
    memset(then, 0, sizeof *then); /* as kpca_model_fit did before calling it */
    if (ref_nystrom_fit(ds, p, then, NULL, &err) != KPCA_OK)
        fail_msg("the previous fit: %s", err.msg);
}

static void test_usps_as_before(void **state)
{
    (void)state;
    kpca_dataset ds;
    tu_usps(&ds, "zip.train.gz", 0);
    kpca_model now, then;
    /* every component of l = 500 uniform landmarks on the 7291 digits */
    kpca_fit_params p = nys_params(500, 0);
    fit_both(&ds, &p, &now, &then);
    assert_int_equal(now.k, 500);
    same_model(&now, &then, 1e-10, "USPS, 500 uniform landmarks");
    kpca_model_free(&now);
    kpca_model_free(&then);
    /* k-means landmarks: 3000 points <= 20 l, so the sample is every point */
    kpca_dataset head;
    size_t *idx = malloc(3000 * sizeof *idx);
    kpca_error err;
    assert_int_equal(kpca_subset_indices(ds.n, 3000, 0, idx, &err), KPCA_OK);
    assert_int_equal(kpca_dataset_select(&ds, idx, 3000, &head, &err), KPCA_OK);
    p = nys_params(200, 40);
    p.landmark_method = KPCA_LANDMARKS_KMEANS;
    fit_both(&head, &p, &now, &then);
    same_model(&now, &then, 1e-10, "USPS, 3000 points, 200 k-means landmarks");
    kpca_model_free(&now);
    kpca_model_free(&then);
    free(idx);
    kpca_dataset_free(&head);
    kpca_dataset_free(&ds);
}

/* n x dim points around 4 centres of different spreads, labels 0..3 */
static void clusters(kpca_dataset *ds, size_t n, size_t dim, uint64_t seed)
{
    tu_random_dataset(ds, n, dim, 4, seed);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < dim; j++)
            ds->x[i * dim + j] = 0.3 * (double)(ds->y[i] + 1) * ds->x[i * dim + j] + (j % 4 == (size_t)ds->y[i]);
}

static void test_1e5_rows_as_before(void **state)
{
    (void)state;
    kpca_dataset ds;
    clusters(&ds, 100000, 16, 77);
    kpca_fit_params p = nys_params(60, 0);
    p.kernel.coef0 = 1.0;
    kpca_model now, then;
    fit_both(&ds, &p, &now, &then);
    same_model(&now, &then, 1e-10, "10^5 rows of 16 values, 60 landmarks");
    kpca_model_free(&now);
    kpca_model_free(&then);
    kpca_dataset_free(&ds);
}

static void test_block_sizes(void **state)
{
    (void)state;
    kpca_dataset ds;
    clusters(&ds, 3000, 8, 5);
    kpca_fit_params p = nys_params(40, 0);
    p.kernel = kpca_kernel_rbf(1.5);
    kpca_model m[3];
    const size_t blocks[3] = {1, 7, 10000};
    kpca_error err;
    for (int i = 0; i < 3; i++) {
        p.block = blocks[i];
        if (kpca_model_fit(&ds, &p, &m[i], NULL, &err) != KPCA_OK)
            fail_msg("blocks of %zu: %s", blocks[i], err.msg);
    }
    same_model(&m[2], &m[0], 1e-12, "blocks of 1 and 10^4 rows");
    same_model(&m[2], &m[1], 1e-12, "blocks of 7 and 10^4 rows");
    for (int i = 0; i < 3; i++)
        kpca_model_free(&m[i]);
    kpca_dataset_free(&ds);
}

/* The rows split three ways, accumulated apart and merged (as structures
 * and packed), give the model of the whole */
static void test_split_and_merge(void **state)
{
    (void)state;
    kpca_dataset ds;
    clusters(&ds, 2500, 6, 9);
    kpca_fit_params p = nys_params(50, 12);
    kpca_rowfeed f;
    kpca_rowfeed_dataset(&f, &ds);
    kpca_error err;
    kpca_model whole, merged, packed;
    assert_int_equal(kpca_nystrom_fit_rows(&f, &p, NULL, &whole, NULL, &err), KPCA_OK);
    kpca_nys_setup s;
    assert_int_equal(kpca_nys_setup_make(&f, &p, NULL, &s, &err), KPCA_OK);
    const size_t cut[4] = {0, 700, 701, 2500};
    kpca_nys_acc part[3], total;
    assert_int_equal(kpca_nys_acc_init(&total, s.l, s.basis.r, &err), KPCA_OK);
    const size_t np = kpca_nys_acc_packed(s.l, s.basis.r);
    double *buf = tu_doubles(np), *sum = tu_doubles(np);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(kpca_nys_acc_init(&part[i], s.l, s.basis.r, &err), KPCA_OK);
        assert_int_equal(kpca_nys_accumulate(&f, &s, cut[i], cut[i + 1], 64, &part[i], &err), KPCA_OK);
        assert_int_equal(part[i].n, cut[i + 1] - cut[i]);
        kpca_nys_acc_merge(&total, &part[i]);
        kpca_nys_acc_pack(&part[i], buf);
        if (i == 0)
            memcpy(sum, buf, np * sizeof(double));
        else
            assert_int_equal(kpca_nys_packed_merge(sum, buf), 0);
    }
    assert_int_equal(kpca_nys_complete(&f, &s, &total, 12, -1.0, 0, NULL, &merged, NULL, &err), KPCA_OK);
    same_model(&whole, &merged, 1e-12, "three parts merged");
    kpca_nys_acc back;
    assert_int_equal(kpca_nys_acc_init(&back, s.l, s.basis.r, &err), KPCA_OK);
    assert_int_equal(kpca_nys_acc_unpack(&back, sum, &err), KPCA_OK);
    assert_int_equal(back.n, 2500);
    assert_int_equal(kpca_nys_complete(&f, &s, &back, 12, -1.0, 0, NULL, &packed, NULL, &err), KPCA_OK);
    same_model(&whole, &packed, 1e-12, "three packed parts merged");
    /* a packed accumulator of other sizes is refused */
    sum[1] += 1.0;
    assert_int_equal(kpca_nys_acc_unpack(&back, sum, &err), KPCA_EFORMAT);
    assert_int_equal(kpca_nys_packed_merge(sum, buf), 1);
    for (int i = 0; i < 3; i++)
        kpca_nys_acc_free(&part[i]);
    kpca_nys_acc_free(&total);
    kpca_nys_acc_free(&back);
    kpca_nys_setup_free(&s);
    kpca_model_free(&whole);
    kpca_model_free(&merged);
    kpca_model_free(&packed);
    free(buf);
    free(sum);
    kpca_dataset_free(&ds);
}

/* 10^6 values 1e8 + u, u uniform in [-1, 1): the variance 1/3 is 1e-17 of
 * the squares' sums, so raw sums lose it all; the pairwise update keeps it */
static void test_pairwise_update(void **state)
{
    (void)state;
    enum { N = 1000000, B = 1000 };
    kpca_nys_basis b = {1, 1, 0.0, tu_doubles(1)};
    b.w[0] = 1.0; /* phi(x) = k_L(x): the accumulator of the values themselves */
    kpca_nys_acc a;
    kpca_error err;
    assert_int_equal(kpca_nys_acc_init(&a, 1, 1, &err), KPCA_OK);
    double *x = tu_doubles(B);
    uint64_t seed = 3;
    long double mean = 0.0L, raw = 0.0L, raw2 = 0.0L;
    double *all = tu_doubles(N);
    for (size_t i = 0; i < N; i++) {
        all[i] = 1e8 + tu_rand(&seed);
        mean += all[i];
    }
    mean /= N;
    long double m2 = 0.0L;
    for (size_t i = 0; i < N; i++) {
        m2 += (all[i] - mean) * (all[i] - mean);
        raw += all[i];
        raw2 += (long double)all[i] * all[i];
    }
    for (size_t i = 0; i < N; i += B) {
        memcpy(x, all + i, B * sizeof(double));
        assert_int_equal(kpca_nys_acc_add(&a, &b, x, B, &err), KPCA_OK);
    }
    const double var = (double)(m2 / N), got = a.m2[0] / (double)a.n;
    if (!(fabs(got - var) <= 1e-9 * var))
        fail_msg("the pairwise update's variance %.17g, two-pass %.17g", got, var);
    if (!(fabs(a.kbar[0] - (double)mean) <= 1e-15 * 1e8))
        fail_msg("mean %.17g, expected %.17g", a.kbar[0], (double)mean);
    /* the data are hard: the raw sums in double give nothing of the variance */
    const double rs = (double)raw, rs2 = (double)raw2, naive = rs2 / N - (rs / N) * (rs / N);
    assert_true(!(fabs(naive - var) <= 0.1 * var));
    kpca_nys_acc_free(&a);
    free(b.w);
    free(x);
    free(all);
}

/* k-means landmarks of 5000 points: the centres of a uniform sample of
 * 20 l rows (kpca_landmarks_uniform with the seed) */
static void test_kmeans_sample(void **state)
{
    (void)state;
    enum { N = 5000, L = 12, S = 20 * L, D = 5 };
    kpca_dataset ds;
    clusters(&ds, N, D, 21);
    kpca_fit_params p = nys_params(L, 0);
    p.landmark_method = KPCA_LANDMARKS_KMEANS;
    p.seed = 4;
    kpca_model m;
    kpca_error err;
    assert_int_equal(kpca_model_fit(&ds, &p, &m, NULL, &err), KPCA_OK);
    size_t idx[S];
    double sample[S * D], centres[L * D];
    assert_int_equal(kpca_landmarks_uniform(N, S, p.seed, idx, &err), KPCA_OK);
    for (size_t i = 0; i < S; i++)
        memcpy(sample + i * D, ds.x + idx[i] * D, D * sizeof(double));
    assert_int_equal(kpca_kmeans(sample, S, D, L, p.seed, p.kmeans_iter, centres, NULL, NULL, &err), KPCA_OK);
    assert_memory_equal(m.fitx, centres, sizeof centres);
    for (size_t j = 0; j < L; j++)
        assert_int_equal(m.fity[j], -1);
    assert_int_equal(m.fit_n, N);
    kpca_model_free(&m);
    kpca_dataset_free(&ds);
}

static void test_precomputed_as_before(void **state)
{
    (void)state;
    enum { M = 300, D = 5 };
    double *pts = tu_rand_doubles(M * D, 12);
    kpca_kernel rbf = kpca_kernel_rbf(1.0);
    kpca_dataset gram;
    kpca_error err;
    assert_int_equal(kpca_dataset_alloc(&gram, M, M, &err), KPCA_OK);
    kpca_kernel_gram(&rbf, pts, M, D, gram.x);
    kpca_fit_params p = nys_params(40, 10);
    p.kernel = kpca_kernel_precomputed();
    kpca_model now, then;
    fit_both(&gram, &p, &now, &then);
    assert_non_null(now.gram_index);
    assert_null(now.fitx);
    same_model(&now, &then, 1e-10, "a precomputed kernel");
    kpca_model_free(&now);
    kpca_model_free(&then);
    kpca_dataset_free(&gram);
    free(pts);
}

/* a feed over a data set that fails at row `bad` */
typedef struct {
    kpca_rowfeed inner;
    size_t bad;
} failing;

static kpca_status failing_seek(void *ctx, size_t row, kpca_error *err)
{
    failing *f = ctx;
    return f->inner.seek(f->inner.ctx, row, err);
}

static kpca_status failing_read(void *ctx, size_t max, double *x, int *y, size_t *got, kpca_error *err)
{
    failing *f = ctx;
    if (f->inner.at + max > f->bad)
        return kpca_fail(err, KPCA_EFORMAT, "data.csv, line %zu: expected 4 values", f->bad + 1);
    return f->inner.read(f->inner.ctx, max, x, y, got, err);
}

static void test_feed_fails(void **state)
{
    (void)state;
    kpca_dataset ds;
    clusters(&ds, 1000, 4, 2);
    kpca_fit_params p = nys_params(20, 5);
    p.block = 100;
    const size_t bads[2] = {999, 10}; /* in the passes; at a landmark */
    for (int t = 0; t < 2; t++) {
        failing f;
        kpca_rowfeed_dataset(&f.inner, &ds);
        f.bad = bads[t];
        kpca_rowfeed feed = {ds.n, ds.dim, &f, failing_seek, failing_read, NULL, 0};
        kpca_model m;
        kpca_error err;
        kpca_error_clear(&err);
        assert_int_equal(kpca_nystrom_fit_rows(&feed, &p, NULL, &m, NULL, &err), KPCA_EFORMAT);
        assert_non_null(strstr(err.msg, "expected 4 values"));
        assert_null(m.alpha);
        assert_null(m.fitx);
    }
    kpca_dataset_free(&ds);
}

/* one process through the collectives (size 1): the same model */
static kpca_status one_agree(void *ctx, kpca_status st, kpca_error *err)
{
    (void)ctx;
    (void)err;
    return st;
}
static void one_nothing(void *ctx, double *buf, size_t count)
{
    (void)ctx;
    (void)buf;
    (void)count;
}

static void test_one_process_comm(void **state)
{
    (void)state;
    kpca_dataset ds;
    clusters(&ds, 1500, 6, 31);
    kpca_fit_params p = nys_params(30, 8);
    const kpca_nys_comm comm = {0, 1, 0, NULL, one_agree, one_nothing, one_nothing, one_nothing, one_nothing, 0, 0, 0};
    kpca_rowfeed f;
    kpca_rowfeed_dataset(&f, &ds);
    kpca_model a, b;
    kpca_error err;
    assert_int_equal(kpca_nystrom_fit_rows(&f, &p, NULL, &a, NULL, &err), KPCA_OK);
    assert_int_equal(kpca_nystrom_fit_rows(&f, &p, &comm, &b, NULL, &err), KPCA_OK);
    same_model(&a, &b, 0.0, "one process, with and without collectives");
    size_t lo, hi;
    const kpca_nys_comm four = {3, 4, 0, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0};
    kpca_nys_range(10, &four, &lo, &hi);
    assert_true(lo == 7 && hi == 10);
    /* the rows of a text file's part: its own range, whatever n */
    const kpca_nys_comm part = {1, 4, 0, NULL, NULL, NULL, NULL, NULL, NULL, 1, 2, 9};
    kpca_nys_range(10, &part, &lo, &hi);
    assert_true(lo == 2 && hi == 9);
    kpca_model_free(&a);
    kpca_model_free(&b);
    kpca_dataset_free(&ds);
}

static kpca_dataset small; /* made before the failures start */

static kpca_status op_fit(kpca_error *err)
{
    kpca_fit_params p = nys_params(15, 4);
    p.block = 50;
    kpca_model m;
    kpca_status st = kpca_model_fit(&small, &p, &m, NULL, err);
    if (st == KPCA_OK)
        kpca_model_free(&m);
    return st;
}

static void test_alloc_failures(void **state)
{
    (void)state;
    clusters(&small, 200, 3, 8);
    assert_true(tu_fail_loop("the Nyström fit by blocks", op_fit, 1) >= 1);
    kpca_dataset_free(&small);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_usps_as_before),    cmocka_unit_test(test_1e5_rows_as_before),
        cmocka_unit_test(test_block_sizes),       cmocka_unit_test(test_split_and_merge),
        cmocka_unit_test(test_pairwise_update),   cmocka_unit_test(test_kmeans_sample),
        cmocka_unit_test(test_precomputed_as_before), cmocka_unit_test(test_feed_fails),
        cmocka_unit_test(test_one_process_comm),  cmocka_unit_test(test_alloc_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

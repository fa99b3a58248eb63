/* test_subset.c - kpca_subset_stratified (io/dataset.h): the allocation by
 * largest remainders, at least one row per class when there are rows
 * enough, selection sampling within each class, reproducible seeds; and
 * kpca_label_of_double, the one test of a double as a class label. */
#include "testutil.h"

/* Checks idx (m rows of n) ascending and in range, and counts its rows per
 * label value (labels 0..nl-1 after adding `shift`) into per[]. */
static void count_rows(const int *y, size_t n, const size_t *idx, size_t m, int shift, size_t *per, size_t nl)
{
    memset(per, 0, nl * sizeof *per);
    for (size_t i = 0; i < m; i++) {
        assert_true(idx[i] < n);
        if (i > 0)
            assert_true(idx[i] > idx[i - 1]);
        int c = y[idx[i]] + shift;
        assert_true(c >= 0 && (size_t)c < nl);
        per[c]++;
    }
}

/* Iris as scikit-learn orders it: 50 rows of each class, sorted. */
static void test_sorted_classes(void **state)
{
    (void)state;
    int y[150];
    for (size_t i = 0; i < 150; i++)
        y[i] = (int)(i / 50);
    size_t idx[150], idx2[150], per[3], nc = 0;
    kpca_error err;
    /* 40 * 50 / 150 = 13 1/3 each: 13 + 13 + 13, the row left to the
     * smallest label (the remainders tie) */
    assert_int_equal(kpca_subset_stratified(y, 150, 40, 1, idx, &nc, &err), KPCA_OK);
    assert_int_equal(nc, 3);
    count_rows(y, 150, idx, 40, 0, per, 3);
    assert_int_equal(per[0], 14);
    assert_int_equal(per[1], 13);
    assert_int_equal(per[2], 13);
    /* the same seed, the same rows; another seed, others; not the first rows */
    assert_int_equal(kpca_subset_stratified(y, 150, 40, 1, idx2, NULL, &err), KPCA_OK);
    assert_memory_equal(idx, idx2, 40 * sizeof(size_t));
    assert_int_equal(kpca_subset_stratified(y, 150, 40, 2, idx2, NULL, &err), KPCA_OK);
    assert_memory_not_equal(idx, idx2, 40 * sizeof(size_t));
    assert_true(idx[13] > 13);
    /* m = n: every row; m = 0: none; m > n: refused */
    assert_int_equal(kpca_subset_stratified(y, 150, 150, 7, idx, NULL, &err), KPCA_OK);
    for (size_t i = 0; i < 150; i++)
        assert_int_equal(idx[i], i);
    assert_int_equal(kpca_subset_stratified(y, 150, 0, 7, idx, &nc, &err), KPCA_OK);
    assert_int_equal(nc, 3);
    assert_int_equal(kpca_subset_stratified(y, 150, 151, 7, idx, NULL, &err), KPCA_EUSAGE);
    assert_non_null(strstr(err.msg, "only 150"));
}

/* Rare classes: proportions alone would leave them out; every class gets a
 * row, taken from the class holding the most.  Labels are any ints. */
static void test_every_class_once(void **state)
{
    (void)state;
    enum { N = 1006 };
    int y[N];
    for (size_t i = 0; i < N; i++)
        y[i] = i == 500 ? 42 : i % 200 == 7 ? -3 : 7; /* 1 row of 42, 5 of -3, 1000 of 7 */
    size_t idx[N], per[46];
    kpca_error err;
    /* 10 rows: 9 + 0 + 0 by the floors, the tenth to 7 (remainder 946 of
     * 1006), then -3 and 42 take one each from 7 */
    assert_int_equal(kpca_subset_stratified(y, N, 10, 5, idx, NULL, &err), KPCA_OK);
    count_rows(y, N, idx, 10, 3, per, 46);
    assert_int_equal(per[7 + 3], 8);
    assert_int_equal(per[-3 + 3], 1);
    assert_int_equal(per[42 + 3], 1);
    for (uint64_t seed = 1; seed <= 50; seed++) { /* whatever the seed, the one row of 42 is in */
        assert_int_equal(kpca_subset_stratified(y, N, 3, seed, idx, NULL, &err), KPCA_OK);
        count_rows(y, N, idx, 3, 3, per, 46);
        assert_int_equal(per[42 + 3], 1);
        assert_int_equal(per[-3 + 3], 1);
        assert_int_equal(per[7 + 3], 1);
    }
    /* fewer rows than classes: one row each for the classes of the largest
     * remainders, ties to the smaller labels */
    int z[10];
    for (size_t i = 0; i < 10; i++)
        z[i] = 4 - (int)(i % 5); /* classes 0..4, two rows each */
    assert_int_equal(kpca_subset_stratified(z, 10, 3, 9, idx, NULL, &err), KPCA_OK);
    count_rows(z, 10, idx, 3, 0, per, 5);
    assert_int_equal(per[0], 1);
    assert_int_equal(per[1], 1);
    assert_int_equal(per[2], 1);
    assert_int_equal(per[3] + per[4], 0);
}

/* One class: the draw is kpca_subset_indices's for the same seed. */
static void test_one_class_is_the_random_draw(void **state)
{
    (void)state;
    int y[500];
    for (size_t i = 0; i < 500; i++)
        y[i] = 3;
    size_t a[500], b[500];
    kpca_error err;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        assert_int_equal(kpca_subset_stratified(y, 500, 77, seed, a, NULL, &err), KPCA_OK);
        assert_int_equal(kpca_subset_indices(500, 77, seed, b, &err), KPCA_OK);
        assert_memory_equal(a, b, 77 * sizeof(size_t));
    }
}

/* Within a class, every row about equally likely: 3 of each class of 10
 * (two classes interleaved), over 6000 seeds each row is drawn about 1800
 * times (sd about 35). */
static void test_uniform_within_classes(void **state)
{
    (void)state;
    int y[20];
    for (size_t i = 0; i < 20; i++)
        y[i] = (int)(i % 2);
    long count[20] = {0};
    size_t idx[6], per[2];
    kpca_error err;
    for (uint64_t seed = 1; seed <= 6000; seed++) {
        assert_int_equal(kpca_subset_stratified(y, 20, 6, seed, idx, NULL, &err), KPCA_OK);
        count_rows(y, 20, idx, 6, 0, per, 2);
        assert_int_equal(per[0], 3);
        assert_int_equal(per[1], 3);
        for (size_t i = 0; i < 6; i++)
            count[idx[i]]++;
    }
    for (size_t i = 0; i < 20; i++)
        if (count[i] < 1625 || count[i] > 1975)
            fail_msg("row %zu drawn %ld times of 6000 (expected about 1800)", i, count[i]);
}

/* kpca_label_of_double: finite, integral, within int; else 0, *label untouched */
static void test_label_of_double(void **state)
{
    (void)state;
    const double no[] = {NAN, INFINITY, -INFINITY, 2.5, -2.5, (double)INT_MAX + 1.0, (double)INT_MIN - 1.0, 1e300};
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        int label = 7;
        assert_int_equal(kpca_label_of_double(no[i], &label), 0);
        assert_int_equal(label, 7);
        assert_int_equal(kpca_label_of_double(no[i], NULL), 0);
    }
    const double yes[] = {-0.0, 0.0, 3.0, -4.0, (double)INT_MAX, (double)INT_MIN};
    const int want[] = {0, 0, 3, -4, INT_MAX, INT_MIN};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        int label = 7;
        assert_int_equal(kpca_label_of_double(yes[i], &label), 1);
        assert_int_equal(label, want[i]);
        assert_int_equal(kpca_label_of_double(yes[i], NULL), 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_label_of_double),
        cmocka_unit_test(test_sorted_classes),
        cmocka_unit_test(test_every_class_once),
        cmocka_unit_test(test_one_class_is_the_random_draw),
        cmocka_unit_test(test_uniform_within_classes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

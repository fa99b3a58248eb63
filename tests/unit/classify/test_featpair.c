/* test_featpair.c - the rules that pair eval's training and test sets
 * (lib/classify/featpair.h): each fires alone, with the exit status its kind needs. */
#include "testutil.h"

static void make(kpca_dataset *ds, size_t dim, kpca_format fmt)
{
    tu_random_dataset(ds, 4, dim, 2, 1);
    ds->format = fmt;
}

/* kpca_featpair with no feature-file info on either side */
static kpca_status pair(kpca_dataset *tr, kpca_dataset *te, kpca_featpair_info *info, kpca_error *err)
{
    return kpca_featpair(tr, NULL, "a", te, NULL, "b", info, err);
}

static void test_featpair_rules(void **state)
{
    (void)state;
    kpca_dataset tr, te;
    kpca_error err;
    kpca_featpair_info info;
    kpca_featinfo fa = {1, 7}, fb = {1, 7}, plain = {0, 0};
    /* features of one model: paired, nothing padded */
    make(&tr, 3, KPCA_FMT_HDF5);
    make(&te, 3, KPCA_FMT_HDF5);
    assert_int_equal(kpca_featpair(&tr, &fa, "a", &te, &fb, "b", &info, &err), KPCA_OK);
    assert_int_equal(info.padded, 0);
    /* two models */
    fb.model_id = 8;
    assert_int_equal(kpca_featpair(&tr, &fa, "a", &te, &fb, "b", &info, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "two different models (ids 7 and 8)"));
    /* features against HDF5 that is no feature file (plain, or no info given) */
    assert_int_equal(kpca_featpair(&tr, &fa, "a", &te, &plain, "b", &info, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "'a' holds kpca features but 'b' holds raw data"));
    assert_int_equal(kpca_featpair(&te, NULL, "b", &tr, &fa, "a", &info, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "'a' holds kpca features but 'b' holds raw data"));
    kpca_dataset_free(&te);
    /* features against raw ESL text, either way round */
    make(&te, 3, KPCA_FMT_ESL);
    assert_int_equal(kpca_featpair(&tr, &fa, "a", &te, NULL, "b", &info, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "'a' holds kpca features but 'b' holds raw data"));
    assert_int_equal(kpca_featpair(&te, NULL, "b", &tr, &fa, "a", &info, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "'a' holds kpca features but 'b' holds raw data"));
    kpca_dataset_free(&tr);
    kpca_dataset_free(&te);
    /* two LIBSVM files: the narrower padded with zeros, either side */
    make(&tr, 5, KPCA_FMT_LIBSVM);
    make(&te, 3, KPCA_FMT_LIBSVM);
    double last = te.x[3 * 3 + 2];
    assert_int_equal(pair(&tr, &te, &info, &err), KPCA_OK);
    assert_int_equal(info.padded, 2);
    assert_int_equal(info.from, 3);
    assert_int_equal(info.to, 5);
    assert_int_equal(te.dim, 5);
    assert_true(te.x[3 * 5 + 2] == last && te.x[3 * 5 + 3] == 0.0 && te.x[3 * 5 + 4] == 0.0);
    kpca_dataset_free(&tr);
    make(&tr, 2, KPCA_FMT_LIBSVM);
    assert_int_equal(pair(&tr, &te, &info, &err), KPCA_OK);
    assert_int_equal(info.padded, 1);
    assert_int_equal(tr.dim, 5);
    kpca_dataset_free(&tr);
    kpca_dataset_free(&te);
    /* a dense file's width is never changed */
    make(&tr, 5, KPCA_FMT_LIBSVM);
    make(&te, 3, KPCA_FMT_ESL);
    assert_int_equal(pair(&tr, &te, &info, &err), KPCA_EFORMAT);
    assert_string_equal(err.msg, "'b' has 3 features per point but 'a' has 5");
    assert_int_equal(te.dim, 3);
    kpca_dataset_free(&tr);
    kpca_dataset_free(&te);
}

static void test_labels_unseen(void **state)
{
    (void)state;
    kpca_error err;
    int *u;
    size_t nu, np;
    const int ytr[] = {3, 1, 3, 10, -1};
    const int yte[] = {9, 1, 7, 9, -1, 2, 10};
    assert_int_equal(kpca_labels_unseen(ytr, 5, yte, 7, &u, &nu, &np, &err), KPCA_OK);
    assert_int_equal(nu, 3); /* 2, 7, 9: distinct, ascending */
    assert_int_equal(u[0], 2);
    assert_int_equal(u[1], 7);
    assert_int_equal(u[2], 9);
    assert_int_equal(np, 4); /* 9 twice, 7, 2 */
    kpca_free(u);
    /* every test label known: nothing */
    assert_int_equal(kpca_labels_unseen(ytr, 5, ytr, 5, &u, &nu, &np, &err), KPCA_OK);
    assert_null(u);
    assert_int_equal(nu, 0);
    assert_int_equal(np, 0);
    /* no label shared: every test point */
    const int other[] = {4, 5, 4};
    assert_int_equal(kpca_labels_unseen(ytr, 5, other, 3, &u, &nu, &np, &err), KPCA_OK);
    assert_int_equal(nu, 2);
    assert_int_equal(np, 3);
    kpca_free(u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_featpair_rules),
        cmocka_unit_test(test_labels_unseen),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

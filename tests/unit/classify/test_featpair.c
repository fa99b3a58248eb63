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

/* a data set of n points with class names: point i's name is names[y[i]] */
static void named(kpca_dataset *ds, const char *const *names, size_t nnames, const int *y, size_t n)
{
    kpca_error err;
    assert_int_equal(kpca_dataset_alloc(ds, n, 1, &err), KPCA_OK);
    memcpy(ds->y, y, n * sizeof *y);
    ds->names = kpca_calloc(nnames, sizeof(char *));
    assert_non_null(ds->names);
    for (size_t c = 0; c < nnames; c++) {
        ds->names[c] = kpca_malloc(strlen(names[c]) + 1);
        assert_non_null(ds->names[c]);
        strcpy(ds->names[c], names[c]);
    }
    ds->nnames = nnames;
}

static void test_labels_match_names(void **state)
{
    (void)state;
    kpca_dataset tr, te;
    kpca_error err;
    const char *trn[] = {"setosa", "versicolor", "virginica"};
    const int ytr[] = {0, 1, 2, 0};
    /* TEST's codes follow its own order of appearance; "iris" is unseen */
    const char *ten[] = {"virginica", "iris", "setosa"};
    const int yte[] = {0, 2, 1, 0, 2};
    named(&tr, trn, 3, ytr, 4);
    named(&te, ten, 3, yte, 5);
    assert_int_equal(kpca_labels_match_names(&tr, "a", &te, "b", &err), KPCA_OK);
    const int want[] = {2, 0, 3, 2, 0}; /* TRAIN's codes; the unseen name after them */
    assert_memory_equal(te.y, want, sizeof want);
    assert_int_equal(te.nnames, 4);
    assert_string_equal(te.names[3], "iris");
    for (size_t i = 0; i < 5; i++)
        assert_string_equal(te.names[te.y[i]], ten[yte[i]]);
    assert_memory_equal(tr.y, ytr, sizeof ytr); /* TRAIN untouched */
    int *u;
    size_t nu, np;
    assert_int_equal(kpca_labels_unseen(tr.y, tr.n, te.y, te.n, &u, &nu, &np, &err), KPCA_OK);
    assert_int_equal(nu, 1);
    assert_int_equal(u[0], 3);
    assert_int_equal(np, 1);
    kpca_free(u);
    kpca_dataset_free(&te);
    /* names against integers, either way round: refused, naming both files */
    tu_random_dataset(&te, 4, 1, 2, 1);
    assert_int_equal(kpca_labels_match_names(&tr, "a", &te, "b", &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "'a' has class names ('setosa', ...) but 'b' has integer labels"));
    assert_int_equal(kpca_labels_match_names(&te, "b", &tr, "a", &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "'a' has class names ('setosa', ...) but 'b' has integer labels"));
    kpca_dataset_free(&tr);
    /* integers on both sides: nothing changes */
    tu_random_dataset(&tr, 4, 1, 2, 2);
    int before[4];
    memcpy(before, te.y, sizeof before);
    assert_int_equal(kpca_labels_match_names(&tr, "a", &te, "b", &err), KPCA_OK);
    assert_memory_equal(te.y, before, sizeof before);
    assert_null(te.names);
    kpca_dataset_free(&tr);
    kpca_dataset_free(&te);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_featpair_rules),
        cmocka_unit_test(test_labels_unseen),
        cmocka_unit_test(test_labels_match_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

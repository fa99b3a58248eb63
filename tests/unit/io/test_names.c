/* test_names.c - class names through the feature files: HDF5 keeps them in
 * `class_names` beside the codes, CSV writes them in its label column, and
 * the readers give them back (io/featfile.h, io/dataset.h). */
#include "testutil.h"

#define N 8
#define K 2

/* names that need care: a blank, a comma, a quote, UTF-8, one unused */
static char *const g_names[] = {"Iris setosa", "a,b", "say \"hi\"", "caf\xc3\xa9", "unused"};
#define NNAMES 5
/* codes in an order other than first appearance: a reader that assigns
 * codes itself gives other numbers, and only the names per point agree */
static const int g_y[N] = {2, 0, 3, 1, 0, 2, 3, 1};

static void features(double *z)
{
    uint64_t s = 11;
    for (size_t i = 0; i < N * K; i++)
        z[i] = tu_rand(&s) - 0.5;
}

static kpca_status write_named(const char *path, kpca_format fmt, char *const *names, size_t nnames,
                               const int *y, kpca_error *err)
{
    double z[N * K];
    features(z);
    const kpca_features_meta meta = {"m.h5", "d.csv", NULL, NULL, 0, 0, names, nnames};
    return kpca_features_write(path, fmt, z, N, K, y, &meta, err);
}

/* every point's class name read back is the one written */
static void assert_names_per_point(const kpca_dataset *ds)
{
    assert_non_null(ds->names);
    assert_int_equal(ds->n, N);
    for (size_t i = 0; i < N; i++) {
        assert_true(ds->y[i] >= 0 && (size_t)ds->y[i] < ds->nnames);
        assert_string_equal(ds->names[ds->y[i]], g_names[g_y[i]]);
    }
}

static void test_hdf5_names_round_trip(void **state)
{
    (void)state;
    tu_write_file("names.keep", "");
    const char *path = TEST_OUT "/names.h5";
    kpca_error err;
    assert_int_equal(write_named(path, KPCA_FMT_HDF5, g_names, NNAMES, g_y, &err), KPCA_OK);
    kpca_dataset ds;
    if (kpca_dataset_read(path, NULL, &ds, &err) != KPCA_OK)
        fail_msg("%s", err.msg);
    /* the codes and the whole table, unused name included, as written */
    assert_memory_equal(ds.y, g_y, sizeof g_y);
    assert_int_equal(ds.nnames, NNAMES);
    for (size_t c = 0; c < NNAMES; c++)
        assert_string_equal(ds.names[c], g_names[c]);
    assert_names_per_point(&ds);
    double z[N * K];
    features(z);
    assert_memory_equal(ds.x, z, sizeof z);
    kpca_dataset_free(&ds);
    /* integer labels: no class_names written, none read */
    assert_int_equal(write_named(path, KPCA_FMT_HDF5, NULL, 0, g_y, &err), KPCA_OK);
    assert_int_equal(kpca_dataset_read(path, NULL, &ds, &err), KPCA_OK);
    assert_null(ds.names);
    assert_int_equal(ds.nnames, 0);
    kpca_dataset_free(&ds);
}

static void test_csv_names_round_trip(void **state)
{
    (void)state;
    tu_write_file("names.keep", "");
    const char *path = TEST_OUT "/names.csv";
    kpca_error err;
    assert_int_equal(write_named(path, KPCA_FMT_CSV, g_names, NNAMES, g_y, &err), KPCA_OK);
    size_t len;
    unsigned char *text = tu_slurp(path, &len);
    text[len] = '\0';
    /* the names as CSV fields: quoted where they need it, not otherwise */
    assert_non_null(strstr((char *)text, "\nIris setosa,"));
    assert_non_null(strstr((char *)text, "\n\"a,b\","));
    assert_non_null(strstr((char *)text, "\n\"say \"\"hi\"\"\","));
    free(text);
    kpca_dataset ds;
    if (kpca_dataset_read(path, NULL, &ds, &err) != KPCA_OK)
        fail_msg("%s", err.msg);
    assert_int_equal(ds.format, KPCA_FMT_CSV);
    assert_int_equal(ds.nnames, 4); /* the names that occur, by first appearance */
    assert_string_equal(ds.names[0], g_names[g_y[0]]);
    assert_names_per_point(&ds);
    double z[N * K];
    features(z);
    assert_memory_equal(ds.x, z, sizeof z);
    kpca_dataset_free(&ds);
    /* LIBSVM labels are numbers: the codes */
    assert_int_equal(write_named(TEST_OUT "/names.svm", KPCA_FMT_LIBSVM, g_names, NNAMES, g_y, &err), KPCA_OK);
    assert_int_equal(kpca_dataset_read(TEST_OUT "/names.svm", NULL, &ds, &err), KPCA_OK);
    assert_null(ds.names);
    assert_memory_equal(ds.y, g_y, sizeof g_y);
    kpca_dataset_free(&ds);
}

/* a class_names that does not fit its target is refused, naming it */
static void expect_bad(char *const *names, size_t nnames, const int *y, const char *want)
{
    const char *path = TEST_OUT "/badnames.h5";
    kpca_error err;
    assert_int_equal(write_named(path, KPCA_FMT_HDF5, names, nnames, y, &err), KPCA_OK);
    kpca_dataset ds;
    assert_int_equal(kpca_dataset_read(path, NULL, &ds, &err), KPCA_EFORMAT);
    if (strstr(err.msg, want) == NULL || strstr(err.msg, path) == NULL)
        fail_msg("expected '%s' naming the file, got: %s", want, err.msg);
    assert_null(ds.x);
    assert_null(ds.names);
}

static void test_hdf5_bad_names(void **state)
{
    (void)state;
    tu_write_file("names.keep", "");
    char *const two[] = {"a", "b"};
    expect_bad(two, 2, g_y, "'target' row 1 is 2, but 'class_names' names classes 0..1");
    char *const dup[] = {"a", "b", "a", "c"};
    expect_bad(dup, 4, g_y, "'class_names' holds 'a' twice");
    char *const empty[] = {"a", "", "b", "c"};
    expect_bad(empty, 4, g_y, "'class_names' entry 2 is empty");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hdf5_names_round_trip),
        cmocka_unit_test(test_csv_names_round_trip),
        cmocka_unit_test(test_hdf5_bad_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

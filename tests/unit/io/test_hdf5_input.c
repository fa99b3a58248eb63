/* test_hdf5_input.c - FILE.h5:/path naming a 2-D dataset: read without
 * labels (or with --labels FILE), and each refusal with its reason. */
#include "testutil.h"

#include <hdf5.h>
#include <math.h>
#include <sys/stat.h>

#define H5_PATH "tests/out/input_paths.h5"

static void put(hid_t loc, const char *name, hid_t type, int rank, const hsize_t *dims, const void *buf)
{
    hid_t sp = H5Screate_simple(rank, dims, NULL);
    hid_t d = H5Dcreate2(loc, name, type, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(sp >= 0 && d >= 0);
    hsize_t count = 1;
    for (int i = 0; i < rank; i++)
        count *= dims[i];
    if (count > 0)
        assert_true(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
    H5Dclose(d);
    H5Sclose(sp);
}

/* m: 3 x 4 doubles 0.5 i + j under /nested/deep; ints: 2 x 2 int32; v: a
 * vector; cube: 2 x 2 x 2; nan: 2 x 3 with a NaN at row 2, column 3;
 * empty: 0 x 3; grp: a data/target group as kpca reads by default */
static int setup(void **state)
{
    (void)state;
    mkdir("tests", 0777);
    mkdir("tests/out", 0777);
    hid_t f = H5Fcreate(H5_PATH, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (f < 0)
        return -1;
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    hid_t g = H5Gcreate2(f, "nested/deep", lcpl, H5P_DEFAULT, H5P_DEFAULT);
    H5Pclose(lcpl);
    double m[12], nan[6] = {1, 2, 3, 4, 5, NAN}, cube[8] = {0};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            m[i * 4 + j] = 0.5 * i + j;
    int ints[4] = {7, -8, 9, 10}, vec[3] = {1, 2, 3};
    put(g, "m", H5T_NATIVE_DOUBLE, 2, (hsize_t[]){3, 4}, m);
    H5Gclose(g);
    put(f, "ints", H5T_NATIVE_INT, 2, (hsize_t[]){2, 2}, ints);
    put(f, "v", H5T_NATIVE_INT, 1, (hsize_t[]){3}, vec);
    put(f, "cube", H5T_NATIVE_DOUBLE, 3, (hsize_t[]){2, 2, 2}, cube);
    put(f, "nan", H5T_NATIVE_DOUBLE, 2, (hsize_t[]){2, 3}, nan);
    put(f, "empty", H5T_NATIVE_DOUBLE, 2, (hsize_t[]){0, 3}, NULL);
    g = H5Gcreate2(f, "grp", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    put(g, "data", H5T_NATIVE_DOUBLE, 2, (hsize_t[]){3, 4}, m);
    put(g, "target", H5T_NATIVE_INT, 1, (hsize_t[]){3}, vec);
    H5Gclose(g);
    H5Fclose(f);
    return 0;
}

static void assert_closed(void)
{
    assert_int_equal(H5Fget_obj_count((hid_t)H5F_OBJ_ALL, H5F_OBJ_ALL), 0);
}

/* Reads spec, expects failure `code` with every fragment in the message. */
static void expect_fail(const char *spec, size_t dim, kpca_status code, const char *frag1, const char *frag2)
{
    kpca_read_opts o = {KPCA_FMT_AUTO, NULL, dim, KPCA_HEADER_AUTO, NULL, NULL};
    kpca_dataset ds;
    kpca_error err;
    kpca_error_clear(&err);
    assert_int_equal(kpca_dataset_read(spec, &o, &ds, &err), code);
    assert_null(ds.x);
    assert_null(ds.y);
    assert_closed();
    if (strstr(err.msg, H5_PATH) == NULL || strstr(err.msg, frag1) == NULL ||
        (frag2 != NULL && strstr(err.msg, frag2) == NULL))
        fail_msg("'%s': message lacks '%s' / '%s': %s", spec, frag1, frag2 ? frag2 : "", err.msg);
}

static void test_matrix_without_labels(void **state)
{
    (void)state;
    kpca_dataset ds;
    kpca_error err;
    assert_int_equal(kpca_dataset_read(H5_PATH ":/nested/deep/m", NULL, &ds, &err), KPCA_OK);
    assert_closed();
    assert_int_equal(ds.n, 3);
    assert_int_equal(ds.dim, 4);
    assert_int_equal(ds.format, KPCA_FMT_HDF5);
    assert_int_equal(ds.unlabelled, 1);
    assert_null(ds.names);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(ds.y[i], 0);
        for (int j = 0; j < 4; j++)
            assert_true(ds.x[i * 4 + j] == 0.5 * i + j); /* row-major, exact */
    }
    kpca_dataset_free(&ds);
    /* the same without the leading slash, and given as the options' group */
    kpca_read_opts o = {KPCA_FMT_HDF5, "nested/deep/m", 4, KPCA_HEADER_AUTO, NULL, NULL};
    assert_int_equal(kpca_dataset_read(H5_PATH, &o, &ds, &err), KPCA_OK);
    assert_int_equal(ds.n * ds.dim, 12);
    assert_true(ds.x[11] == 1.0 + 3.0);
    kpca_dataset_free(&ds);
    /* integers are read as numbers */
    assert_int_equal(kpca_dataset_read(H5_PATH ":/ints", NULL, &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, 2);
    assert_int_equal(ds.dim, 2);
    assert_true(ds.x[0] == 7.0 && ds.x[1] == -8.0 && ds.x[2] == 9.0 && ds.x[3] == 10.0);
    kpca_dataset_free(&ds);
    assert_closed();
}

static void test_group_still_labelled(void **state)
{
    (void)state;
    kpca_dataset ds;
    kpca_error err;
    assert_int_equal(kpca_dataset_read(H5_PATH ":grp", NULL, &ds, &err), KPCA_OK);
    assert_int_equal(ds.unlabelled, 0);
    assert_int_equal(ds.n, 3);
    assert_int_equal(ds.y[0], 1);
    assert_int_equal(ds.y[2], 3);
    kpca_dataset_free(&ds);
    assert_closed();
}

static void test_matrix_with_labels_file(void **state)
{
    (void)state;
    const char *lab = tu_write_file("input_paths_labels.txt", "4\n\n5\n4\n");
    kpca_read_opts o = {KPCA_FMT_AUTO, NULL, 0, KPCA_HEADER_AUTO, NULL, lab};
    kpca_dataset ds;
    kpca_error err;
    assert_int_equal(kpca_dataset_read(H5_PATH ":/nested/deep/m", &o, &ds, &err), KPCA_OK);
    assert_int_equal(ds.unlabelled, 0);
    assert_int_equal(ds.y[0], 4);
    assert_int_equal(ds.y[1], 5);
    assert_int_equal(ds.y[2], 4);
    kpca_dataset_free(&ds);
    /* a count other than the rows' */
    o.labels = tu_write_file("input_paths_labels2.txt", "1\n2\n");
    kpca_error_clear(&err);
    assert_int_equal(kpca_dataset_read(H5_PATH ":/nested/deep/m", &o, &ds, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "has 2 labels but the data has 3 points"));
    assert_null(ds.x);
    /* a --label column option does not apply to HDF5 */
    kpca_read_opts o2 = {KPCA_FMT_AUTO, NULL, 0, KPCA_HEADER_AUTO, "last", NULL};
    assert_int_equal(kpca_dataset_read(H5_PATH ":/nested/deep/m", &o2, &ds, &err), KPCA_EUSAGE);
    assert_non_null(strstr(err.msg, "not to hdf5"));
    assert_closed();
}

static void test_refusals(void **state)
{
    (void)state;
    expect_fail(H5_PATH ":/v", 0, KPCA_EFORMAT, "dataset '/v' has rank 1", "expected a matrix (rank 2)");
    expect_fail(H5_PATH ":/cube", 0, KPCA_EFORMAT, "dataset '/cube' has rank 3", "expected a matrix (rank 2)");
    expect_fail(H5_PATH ":/nested/deep/nosuch", 0, KPCA_EFORMAT, "'/nested/deep/nosuch'", "groups here: grp, nested");
    expect_fail(H5_PATH ":/nope/m", 0, KPCA_EFORMAT, "'/nope/m'", NULL);
    expect_fail(H5_PATH ":/nested/deep/m", 5, KPCA_EFORMAT, "'/nested/deep/m' has 4 columns, expected 5", NULL);
    expect_fail(H5_PATH ":/nan", 0, KPCA_EFORMAT, "'/nan' row 2 column 3 is not a finite number", NULL);
    expect_fail(H5_PATH ":/empty", 0, KPCA_EFORMAT, "'/empty' is empty (0 x 3)", NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matrix_without_labels),
        cmocka_unit_test(test_group_still_labelled),
        cmocka_unit_test(test_matrix_with_labels_file),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}

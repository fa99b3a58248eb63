/* test_dataset_h5.c - HDF5 inputs (io/dataset_h5.c): the USPS copy, its
 * errors, FILE:GROUP specs, the text and HDF5 copies of USPS agreeing, and
 * FILE.h5:/path naming a 2-D dataset. */
#include "testutil.h"

#include "io_fixture.h"
#include "io/dataset_h5.h"

#include <hdf5.h>
#include <math.h>

/* ---- HDF5 --------------------------------------------------------------------- */

static const int usps_test_counts[10] = {359, 264, 198, 166, 200, 160, 170, 147, 166, 177};

static void skip_without(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        print_message("skipping: %s is missing\n", path);
        skip();
    }
}

static void test_hdf5_usps_test(void **state)
{
    (void)state;
    skip_without("data/usps.h5");
    kpca_dataset ds;
    kpca_error err;
    kpca_status st = kpca_dataset_read("data/usps.h5:test", NULL, &ds, &err);
    if (st != KPCA_OK)
        fail_msg("%s", err.msg);
    assert_int_equal(ds.n, 2007);
    assert_int_equal(ds.dim, 256);
    int counts[10] = {0};
    for (size_t i = 0; i < ds.n; i++) {
        assert_true(ds.y[i] >= 0 && ds.y[i] <= 9);
        counts[ds.y[i]]++;
    }
    for (int c = 0; c < 10; c++)
        assert_int_equal(counts[c], usps_test_counts[c]);
    double lo, hi;
    kpca_dataset_range(&ds, &lo, &hi);
    assert_true(lo >= 0.0 && hi <= 1.0 && lo < hi);
    kpca_dataset_free(&ds);

    /* the group through the options, and through the reader itself */
    kpca_read_opts o = {.format = KPCA_FMT_AUTO, .group = "test", .dim = 256};
    assert_int_equal(kpca_dataset_read("data/usps.h5", &o, &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, 2007);
    kpca_dataset_free(&ds);
    assert_int_equal(kpca_read_hdf5("data/usps.h5", "test", 0, &ds, NULL, &err), KPCA_OK);
    assert_int_equal(ds.n, 2007);
    kpca_dataset_free(&ds);
    assert_int_equal(kpca_read_hdf5("data/usps.h5", "/test", 0, &ds, NULL, &err), KPCA_OK);
    assert_int_equal(ds.n, 2007);
    kpca_dataset_free(&ds);
    /* wrong expected dim */
    assert_int_equal(kpca_read_hdf5("data/usps.h5", "test", 255, &ds, NULL, &err), KPCA_EFORMAT);
    assert_msg_names(&err, "data/usps.h5", 0);
    assert_null(ds.x);
    /* the training group is larger */
    assert_int_equal(kpca_read_hdf5("data/usps.h5", "train", 256, &ds, NULL, &err), KPCA_OK);
    assert_int_equal(ds.n, 7291);
    kpca_dataset_free(&ds);

    kpca_format f;
    assert_int_equal(kpca_detect_format("data/usps.h5", &f, &err), KPCA_OK);
    assert_int_equal(f, KPCA_FMT_HDF5);
}

static void test_hdf5_errors(void **state)
{
    (void)state;
    skip_without("data/usps.h5");
    kpca_dataset ds;
    kpca_error err;
    /* a missing group names the groups present */
    kpca_status st = kpca_dataset_read("data/usps.h5:nosuch", NULL, &ds, &err);
    assert_true(st == KPCA_EFORMAT || st == KPCA_EUSAGE);
    assert_null(ds.x);
    assert_non_null(strstr(err.msg, "nosuch"));
    assert_non_null(strstr(err.msg, "train"));
    assert_non_null(strstr(err.msg, "test"));
    assert_non_null(strstr(err.msg, "data/usps.h5"));
    assert_int_equal(kpca_read_hdf5("data/usps.h5", "nosuch", 0, &ds, NULL, &err), st);

    /* the root has no data: choose a group */
    assert_int_equal(kpca_dataset_read("data/usps.h5", NULL, &ds, &err), KPCA_EUSAGE);
    assert_null(ds.x);
    assert_non_null(strstr(err.msg, "train"));
    assert_non_null(strstr(err.msg, "test"));
    assert_int_equal(kpca_read_hdf5("data/usps.h5", "/", 0, &ds, NULL, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_read_hdf5("data/usps.h5", "", 0, &ds, NULL, &err), KPCA_EUSAGE);

    /* a text file forced to HDF5, and HDF5 forced to text */
    char path[256];
    write_text("not_hdf5.txt", good_esl, path, sizeof path);
    expect_read_fail(path, KPCA_FMT_HDF5, KPCA_EFORMAT, 0);
    assert_int_equal(kpca_read_hdf5(path, "/", 0, &ds, NULL, &err), KPCA_EFORMAT);
    kpca_read_opts o = {.format = KPCA_FMT_ESL};
    assert_int_equal(kpca_dataset_read("data/usps.h5", &o, &ds, &err), KPCA_EFORMAT);
    assert_null(ds.x);

    /* a group given for a text file */
    char spec[300];
    snprintf(spec, sizeof spec, "%s:test", path);
    assert_int_equal(kpca_dataset_read(spec, NULL, &ds, &err), KPCA_EUSAGE);

    /* a truncated HDF5 file */
    size_t len;
    unsigned char *buf = tu_slurp("data/usps.h5", &len);
    const char *cut = OUT "usps_cut.h5";
    tu_write_bytes(cut, buf, len / 2);
    free(buf);
    st = kpca_dataset_read(TEST_OUT "/usps_cut.h5:test", NULL, &ds, &err);
    assert_int_equal(st, KPCA_EFORMAT);
    assert_null(ds.x);
}

static void test_split_spec(void **state)
{
    (void)state;
    skip_without("data/usps.h5");
    char *file = NULL;
    const char *group = NULL;
    kpca_error err;
    assert_int_equal(kpca_split_spec("data/usps.h5:train", &file, &group, &err), KPCA_OK);
    assert_string_equal(file, "data/usps.h5");
    assert_non_null(group);
    assert_string_equal(group, "train");
    kpca_free(file);
    assert_int_equal(kpca_split_spec("data/usps.h5", &file, &group, &err), KPCA_OK);
    assert_string_equal(file, "data/usps.h5");
    assert_null(group);
    kpca_free(file);
    /* neither FILE nor its prefix exists: the whole spec is the file */
    assert_int_equal(kpca_split_spec(TEST_OUT "/nope:x", &file, &group, &err), KPCA_OK);
    assert_string_equal(file, TEST_OUT "/nope:x");
    assert_null(group);
    kpca_free(file);
}

/* ---- USPS: the text and HDF5 copies agree ---------------------------------- */

static void test_usps_text_equals_hdf5(void **state)
{
    (void)state;
    skip_without("data/usps.h5");
    skip_without("data/zip.test.gz");
    kpca_dataset t, h;
    kpca_error err;
    kpca_format f;
    assert_int_equal(kpca_detect_format("data/zip.test.gz", &f, &err), KPCA_OK);
    assert_int_equal(f, KPCA_FMT_ESL);
    kpca_status st = kpca_dataset_read("data/zip.test.gz", NULL, &t, &err);
    if (st != KPCA_OK)
        fail_msg("%s", err.msg);
    st = kpca_dataset_read("data/usps.h5:test", NULL, &h, &err);
    if (st != KPCA_OK)
        fail_msg("%s", err.msg);
    assert_int_equal(t.n, 2007);
    assert_int_equal(t.dim, 256);
    assert_int_equal(h.n, t.n);
    assert_int_equal(h.dim, t.dim);
    double lo, hi;
    kpca_dataset_range(&t, &lo, &hi);
    assert_true(lo >= -1.0 && hi <= 1.0);
    kpca_dataset_rescale(&h, 0.0, 1.0);
    kpca_dataset_round(&h, 3);
    size_t diff = 0, first = 0;
    for (size_t i = 0; i < t.n * t.dim; i++) {
        if (t.x[i] != h.x[i]) {
            if (diff++ == 0)
                first = i;
        }
    }
    if (diff != 0)
        fail_msg("%zu values differ; first at row %zu col %zu: %.17g vs %.17g", diff, first / 256, first % 256,
                 t.x[first], h.x[first]);
    for (size_t i = 0; i < t.n; i++)
        assert_int_equal(t.y[i], h.y[i]);
    kpca_dataset_free(&t);
    kpca_dataset_free(&h);
}


/* ---- FILE.h5:/path naming a 2-D dataset: read without labels (or with
 * --labels FILE), and each refusal with its reason ----------------------- */

#define H5_PATH TEST_OUT "/input_paths.h5"

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
    kpca_read_opts o = {.format = KPCA_FMT_AUTO, .dim = dim};
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
    kpca_read_opts o = {.format = KPCA_FMT_HDF5, .group = "nested/deep/m", .dim = 4};
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
    kpca_read_opts o = {.format = KPCA_FMT_AUTO, .labels = lab};
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
    kpca_read_opts o2 = {.format = KPCA_FMT_AUTO, .label = "last"};
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
    ensure_out();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hdf5_usps_test),
        cmocka_unit_test(test_hdf5_errors),
        cmocka_unit_test(test_split_spec),
        cmocka_unit_test(test_usps_text_equals_hdf5),
        cmocka_unit_test(test_matrix_without_labels),
        cmocka_unit_test(test_group_still_labelled),
        cmocka_unit_test(test_matrix_with_labels_file),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}

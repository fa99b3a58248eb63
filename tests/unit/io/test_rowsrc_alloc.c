/* test_rowsrc_alloc.c - the row source (io/rowsrc.h) under every allocation
 * failure (tu_fail_loop): opened, counted, read to its end by blocks and
 * sought back, in every format, with class names, a pandas index, a label
 * file and the labels' second pass; each run succeeds or is out of memory,
 * with nothing left open. */
#include "testutil.h"

#include <sys/stat.h>

#include "lib/io/npy.h"
#include "lib/io/rowsrc.h"

static char g_path[512];
static kpca_read_opts g_opts;

/* open, count, read all by blocks of 5, seek back to row 3 and read one */
static kpca_status op_read(kpca_error *err)
{
    kpca_rowsrc *src;
    kpca_status st = kpca_rowsrc_open(g_path, &g_opts, &src, err);
    if (st != KPCA_OK)
        return st;
    size_t n, got, total = 0, d = kpca_rowsrc_dim(src);
    double x[5 * 8];
    int y[5];
    assert_true(d <= 8);
    st = kpca_rowsrc_count(src, &n, err);
    while (st == KPCA_OK && (st = kpca_rowsrc_read(src, 5, x, y, &got, err)) == KPCA_OK && got > 0)
        total += got;
    if (st == KPCA_OK)
        assert_int_equal(total, n);
    if (st == KPCA_OK)
        st = kpca_rowsrc_seek(src, 3, err);
    if (st == KPCA_OK)
        st = kpca_rowsrc_read(src, 1, x, y, &got, err);
    kpca_rowsrc_close(src);
    return st;
}

static void loop(const char *name, const char *text, kpca_read_opts opts)
{
    const char *p = tu_write_file(name, text);
    snprintf(g_path, sizeof g_path, "%s", p);
    g_opts = opts;
    assert_true(tu_fail_loop(name, op_read, 1) >= 1);
}

static void test_text(void **state)
{
    (void)state;
    char big[40000], *o = big + sprintf(big, ",a,\"b, c\",class\n");
    for (int i = 0; i < 900; i++)
        o += sprintf(o, "%d,%d.5,\"%d\",%s\n", i, i, -i, i % 4 ? "cat" : "\"dog\nhound\"");
    loop("ra_names.csv", big, (kpca_read_opts){.format = KPCA_FMT_AUTO});
    loop("ra_drop.csv", big, (kpca_read_opts){.drop = "a", .label = "class"});
    loop("ra.txt", "1 0.5 0.25\n2 1 2\n1 3 4\n2 5 6\n", (kpca_read_opts){.format = KPCA_FMT_AUTO});
    loop("ra.svm", "1 1:0.5 3:1\n2 2:1\n1 1:2\n2 3:3\n", (kpca_read_opts){.format = KPCA_FMT_AUTO});
    const char *lp = tu_write_file("ra_labels.txt", "a\nb\na\nb\n");
    static char labels[512];
    snprintf(labels, sizeof labels, "%s", lp);
    loop("ra_unl.csv", "1,7\n3,4\n5,6\n7,8\n", (kpca_read_opts){.labels = labels});
}

static void test_binary(void **state)
{
    (void)state;
    kpca_dataset ds;
    tu_random_dataset(&ds, 20, 4, 3, 5);
    kpca_error err;
    assert_int_equal(kpca_npy_write(TEST_OUT "/ra.npy", ds.x, ds.n, ds.dim, &err), KPCA_OK);
    kpca_dataset_free(&ds);
    snprintf(g_path, sizeof g_path, TEST_OUT "/ra.npy");
    g_opts = (kpca_read_opts){.format = KPCA_FMT_AUTO};
    assert_true(tu_fail_loop("npy", op_read, 1) >= 1);
    /* HDF5 with class names (a feature file of kpca's, read at its root) */
    static const char *const names[3] = {"ant", "bee", "cat"};
    static const int y[20] = {0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1};
    double z[20 * 3];
    for (int i = 0; i < 60; i++)
        z[i] = i * 0.25;
    kpca_features_meta meta = {.names = (char *const *)names, .nnames = 3};
    assert_int_equal(kpca_features_write(TEST_OUT "/ra.h5", KPCA_FMT_HDF5, z, 20, 3, y, &meta, &err), KPCA_OK);
    snprintf(g_path, sizeof g_path, TEST_OUT "/ra.h5");
    assert_true(tu_fail_loop("hdf5", op_read, 1) >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_binary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

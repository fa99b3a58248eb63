/* test_npy.c - the NumPy .npy reader and writer: every dtype, both orders,
 * versions 1-3, each refusal with its reason, labels, the round trip. */
#include "testutil.h"

#include <sys/stat.h>

#include "lib/io/labels.h"
#include "lib/io/npy.h"

static char path_buf[256];

/* Writes an .npy file by hand: version major, the header dict, raw data. */
static const char *make_npy(const char *name, int major, const char *dict, const void *data, size_t nbytes)
{
    snprintf(path_buf, sizeof path_buf, TEST_OUT "/%s", name);
    FILE *f = fopen(path_buf, "wb");
    assert_non_null(f);
    size_t pre = major == 1 ? 10 : 12, len = strlen(dict) + 1;
    size_t hlen = (pre + len + 63) / 64 * 64 - pre;
    unsigned char head[12] = {0x93, 'N', 'U', 'M', 'P', 'Y', (unsigned char)major, 0};
    head[8] = (unsigned char)(hlen & 0xff);
    head[9] = (unsigned char)(hlen >> 8);
    head[10] = head[11] = 0;
    fwrite(head, 1, pre, f);
    fputs(dict, f);
    for (size_t i = len; i < hlen; i++)
        fputc(' ', f);
    fputc('\n', f);
    if (nbytes)
        fwrite(data, 1, nbytes, f);
    fclose(f);
    return path_buf;
}

/* The 2 x 3 matrix [[0 1 2] [3 4 5]] (+ offset) in the given dtype and order. */
#define FILL(T)                                                                                                \
    do {                                                                                                       \
        T v[6];                                                                                                \
        for (int i = 0; i < 2; i++)                                                                            \
            for (int j = 0; j < 3; j++)                                                                        \
                v[fortran ? j * 2 + i : i * 3 + j] = (T)(i * 3 + j + off);                                     \
        memcpy(buf, v, sizeof v);                                                                              \
        *nbytes = sizeof v;                                                                                    \
    } while (0)

static void fill(const char *descr, int fortran, int off, unsigned char *buf, size_t *nbytes)
{
    if (strcmp(descr, "<f8") == 0) FILL(double);
    else if (strcmp(descr, "<f4") == 0) FILL(float);
    else if (strcmp(descr, "<i8") == 0) FILL(int64_t);
    else if (strcmp(descr, "<i4") == 0) FILL(int32_t);
    else if (strcmp(descr, "<i2") == 0) FILL(int16_t);
    else if (strcmp(descr, "|i1") == 0) FILL(int8_t);
    else if (strcmp(descr, "<u8") == 0) FILL(uint64_t);
    else if (strcmp(descr, "<u4") == 0) FILL(uint32_t);
    else if (strcmp(descr, "<u2") == 0) FILL(uint16_t);
    else FILL(uint8_t);
}

static void test_every_dtype_and_order(void **state)
{
    (void)state;
    static const char *const descr[] = {"<f8", "<f4", "<i8", "<i4", "<i2", "|i1", "<u8", "<u4", "<u2", "|u1"};
    for (size_t d = 0; d < 10; d++)
        for (int fortran = 0; fortran < 2; fortran++) {
            int off = -2; /* negative values for the signed types */
            if (descr[d][1] == 'u')
                off = 1;
            unsigned char buf[64];
            size_t nb;
            fill(descr[d], fortran, off, buf, &nb);
            char dict[128];
            snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': %s, 'shape': (2, 3), }", descr[d],
                     fortran ? "True" : "False");
            const char *p = make_npy("t.npy", 1 + (int)(d % 3), dict, buf, nb); /* versions 1, 2, 3 */
            kpca_dataset ds;
            kpca_error err;
            if (kpca_dataset_read(p, NULL, &ds, &err) != KPCA_OK)
                fail_msg("%s %s: %s", descr[d], fortran ? "F" : "C", err.msg);
            assert_int_equal(ds.format, KPCA_FMT_NPY);
            assert_int_equal(ds.n, 2);
            assert_int_equal(ds.dim, 3);
            assert_true(ds.unlabelled);
            for (int i = 0; i < 6; i++)
                if (ds.x[i] != (double)(i + off))
                    fail_msg("%s %s: x[%d] = %g, expected %d", descr[d], fortran ? "F" : "C", i, ds.x[i], i + off);
            kpca_dataset_free(&ds);
        }
}

static void expect_refused(const char *name, int major, const char *dict, size_t nbytes, const char *why)
{
    unsigned char zeros[256] = {0};
    const char *p = make_npy(name, major, dict, zeros, nbytes);
    kpca_dataset ds;
    kpca_error err;
    kpca_status st = kpca_dataset_read(p, NULL, &ds, &err);
    if (st != KPCA_EFORMAT || strstr(err.msg, why) == NULL || strstr(err.msg, name) == NULL)
        fail_msg("%s: status %d, message '%s', expected '%s'", name, (int)st, st ? err.msg : "", why);
    assert_null(ds.x);
}

static void test_refusals(void **state)
{
    (void)state;
    expect_refused("be.npy", 1, "{'descr': '>f8', 'fortran_order': False, 'shape': (2, 3), }", 48, "big-endian");
    expect_refused("obj.npy", 1, "{'descr': '|O', 'fortran_order': False, 'shape': (2, 3), }", 48, "Python objects");
    expect_refused("rec.npy", 1, "{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (2,), }", 16,
                   "structured");
    expect_refused("bool.npy", 1, "{'descr': '|b1', 'fortran_order': False, 'shape': (2, 3), }", 6, "dtype '|b1'");
    expect_refused("c16.npy", 1, "{'descr': '<c16', 'fortran_order': False, 'shape': (1, 1), }", 16, "dtype");
    expect_refused("r3.npy", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2, 2), }", 64, "3-D array");
    expect_refused("r1.npy", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }", 32, "1-D array");
    expect_refused("short.npy", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 3), }", 48,
                   "declares 3 x 3 values of 8 bytes, but the file holds 48 bytes");
    expect_refused("long.npy", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1), }", 16, "holds 16 bytes");
    expect_refused("huge.npy", 1,
                   "{'descr': '<f8', 'fortran_order': False, 'shape': (4000000000000000000, 4000000000000000000), }",
                   16, "declares");
    expect_refused("v4.npy", 4, "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1), }", 8, "version 4");
    expect_refused("key.npy", 1, "{'descr': '<f8', 'shape': (1, 1), }", 8, "lacks");
    expect_refused("empty.npy", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (0, 3), }", 0, "empty");
    double nan = NAN;
    const char *p = make_npy("nan.npy", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1), }", &nan, 8);
    kpca_dataset ds;
    kpca_error err;
    assert_int_equal(kpca_dataset_read(p, NULL, &ds, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "row 1, column 1 is not a finite number"));
    assert_null(ds.x);
    /* the first value that is not finite, row by row, in both layouts: in
     * C order the NaN (row 2, column 1); in Fortran order the infinity
     * (row 1, column 3) comes before the NaN (row 2, column 2) */
    double c[6] = {1, 2, 3, NAN, INFINITY, 6};
    p = make_npy("inf.npy", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", c, sizeof c);
    assert_int_equal(kpca_dataset_read(p, NULL, &ds, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "row 2, column 1 is not a finite number"));
    p = make_npy("inff.npy", 1, "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }", c, sizeof c);
    assert_int_equal(kpca_dataset_read(p, NULL, &ds, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "row 1, column 3 is not a finite number"));
    assert_null(ds.x);
}

/* A file large enough to be read in parts (9 MiB of values): read back
 * bit for bit, and a value that is not finite in the last part, found by
 * the scan as the parts land, named by its row and column; a float32 file
 * of the same size (converted after the read) as well. */
static void test_large(void **state)
{
    (void)state;
    enum { N = 1200, D = 1000 };
    double *v = malloc(sizeof(double) * N * D);
    float *w = malloc(sizeof(float) * N * D * 2);
    assert_non_null(v);
    assert_non_null(w);
    for (size_t i = 0; i < (size_t)N * D; i++)
        v[i] = (double)((i * 2654435761u) % 1000003) / 7.0 - 50000.0;
    const char *p = make_npy("large.npy", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1200, 1000), }", v,
                             sizeof(double) * N * D);
    kpca_dataset ds;
    kpca_error err;
    assert_int_equal(kpca_dataset_read(p, NULL, &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, N);
    assert_int_equal(ds.dim, D);
    assert_memory_equal(ds.x, v, sizeof(double) * N * D);
    kpca_dataset_free(&ds);
    /* streamed in blocks of 700 rows (5.6 MB: parts on every CPU), then of
     * 3 rows from row 1185 on: the same values */
    double *blk = malloc(sizeof(double) * 700 * D);
    assert_non_null(blk);
    kpca_npy_rows *nr;
    size_t rn, rd;
    assert_int_equal(kpca_npy_rows_open(p, 0, &nr, &rn, &rd, &err), KPCA_OK);
    assert_int_equal(rn, N);
    assert_int_equal(rd, D);
    assert_int_equal(kpca_npy_rows_read(nr, 0, 700, blk, &err), KPCA_OK);
    assert_memory_equal(blk, v, sizeof(double) * 700 * D);
    assert_int_equal(kpca_npy_rows_read(nr, 700, 500, blk, &err), KPCA_OK);
    assert_memory_equal(blk, v + (size_t)700 * D, sizeof(double) * 500 * D);
    kpca_npy_rows_close(nr);
    v[(size_t)1187 * D + 654] = NAN;
    p = make_npy("large.npy", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1200, 1000), }", v,
                 sizeof(double) * N * D);
    assert_int_equal(kpca_dataset_read(p, NULL, &ds, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "row 1188, column 655 is not a finite number"));
    assert_null(ds.x);
    /* the streamed read finds it in the last part of a block, and in a
     * small block; the block before it is read */
    assert_int_equal(kpca_npy_rows_open(p, 0, &nr, &rn, &rd, &err), KPCA_OK);
    assert_int_equal(kpca_npy_rows_read(nr, 0, 500, blk, &err), KPCA_OK);
    assert_int_equal(kpca_npy_rows_read(nr, 500, 700, blk, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "row 1188, column 655 is not a finite number"));
    assert_int_equal(kpca_npy_rows_read(nr, 1182, 3, blk, &err), KPCA_OK);
    assert_int_equal(kpca_npy_rows_read(nr, 1185, 3, blk, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "row 1188, column 655 is not a finite number"));
    kpca_npy_rows_close(nr);
    free(blk);
    for (size_t i = 0; i < (size_t)N * D * 2; i++)
        w[i] = (float)(i % 977) - 400.0f;
    p = make_npy("large32.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2400, 1000), }", w,
                 sizeof(float) * N * D * 2);
    assert_int_equal(kpca_dataset_read(p, NULL, &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, 2 * N);
    for (size_t i = 0; i < (size_t)N * D * 2; i++)
        if (ds.x[i] != (double)w[i])
            fail_msg("value %zu: %g, expected %g", i, ds.x[i], (double)w[i]);
    kpca_dataset_free(&ds);
    free(v);
    free(w);
}

static void test_write_round_trip(void **state)
{
    (void)state;
    double x[6] = {1.5, -2, 3e-300, 4, 5, 6.25};
    kpca_error err;
    assert_int_equal(kpca_npy_write(TEST_OUT "/w.npy", x, 3, 2, &err), KPCA_OK);
    FILE *f = fopen(TEST_OUT "/w.npy", "rb");
    assert_non_null(f);
    char head[128];
    assert_int_equal(fread(head, 1, 128, f), 128);
    fclose(f);
    assert_memory_equal(head, "\x93NUMPY\x01\x00", 8);
    assert_int_equal((unsigned char)head[8] + 10, 128); /* header padded to 64 */
    assert_non_null(strstr(head + 10, "'shape': (3, 2)"));
    kpca_dataset ds;
    assert_int_equal(kpca_dataset_read(TEST_OUT "/w.npy", NULL, &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, 3);
    assert_int_equal(ds.dim, 2);
    assert_memory_equal(ds.x, x, sizeof x);
    kpca_dataset_free(&ds);
}

static void test_labels(void **state)
{
    (void)state;
    int64_t y[3] = {10, -1, 10};
    double x[6] = {1, 2, 3, 4, 5, 6};
    kpca_error err;
    assert_int_equal(kpca_npy_write(TEST_OUT "/x.npy", x, 3, 2, &err), KPCA_OK);
    make_npy("y.npy", 1, "{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }", y, sizeof y);
    kpca_read_opts o = {.format = KPCA_FMT_AUTO, .labels = TEST_OUT "/y.npy"};
    kpca_dataset ds;
    assert_int_equal(kpca_dataset_read(TEST_OUT "/x.npy", &o, &ds, &err), KPCA_OK);
    assert_false(ds.unlabelled);
    assert_int_equal(ds.y[0], 10);
    assert_int_equal(ds.y[1], -1);
    kpca_dataset_free(&ds);
    make_npy("y2.npy", 1, "{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }", y, 16);
    o.labels = TEST_OUT "/y2.npy";
    assert_int_equal(kpca_dataset_read(TEST_OUT "/x.npy", &o, &ds, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "2 labels but the data has 3 points"));
    double frac[3] = {1, 2.5, 3};
    make_npy("yf.npy", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }", frac, sizeof frac);
    o.labels = TEST_OUT "/yf.npy";
    assert_int_equal(kpca_dataset_read(TEST_OUT "/x.npy", &o, &ds, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "label 2 (2.5) is not an integer"));
    /* a label option makes no sense for an array */
    o.labels = NULL;
    o.label = "last";
    assert_int_equal(kpca_dataset_read(TEST_OUT "/x.npy", &o, &ds, &err), KPCA_EUSAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_dtype_and_order),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_large),
        cmocka_unit_test(test_write_round_trip),
        cmocka_unit_test(test_labels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

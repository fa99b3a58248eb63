/* test_matfile.c - MATLAB MAT-files (file/matfile.h): files written here
 * by libmatio in versions 5 (plain, compressed) and 7.3, read back through
 * kpca_mat_read as MATLAB shows them (rows are points), every numeric
 * class, the choice of the one matrix, each refusal, cut and damaged
 * files, and allocation failure. */
#include "testutil.h"

#include <stdint.h>

#include <matio.h>

#include "lib/file/matfile.h"
#include "lib/support/mem.h"

#define OUT_DIR TEST_OUT

static const enum mat_ft versions[] = {MAT_FT_MAT5, MAT_FT_MAT5, MAT_FT_MAT73};
static const enum matio_compression packs[] = {MAT_COMPRESSION_NONE, MAT_COMPRESSION_ZLIB, MAT_COMPRESSION_NONE};

/* value (i, j) of the test matrices: every one distinct */
static double value(size_t i, size_t j)
{
    return (double)(i * 10 + j) + 0.25;
}

/* writes variable name (rows x cols of value(), columns first, as class
 * cls of element type t and size sz) to the open file */
static void put(mat_t *m, const char *name, enum matio_classes cls, enum matio_types t, size_t sz, size_t rows,
                size_t cols, enum matio_compression z)
{
    unsigned char *d = malloc(rows * cols * sz);
    assert_non_null(d);
    for (size_t j = 0; j < cols; j++)
        for (size_t i = 0; i < rows; i++) {
            double v = cls == MAT_C_DOUBLE || cls == MAT_C_SINGLE ? value(i, j) : (double)(i * 10 + j);
            unsigned char *p = d + (j * rows + i) * sz;
            if (cls == MAT_C_DOUBLE)
                memcpy(p, &v, 8);
            else if (cls == MAT_C_SINGLE) {
                float f = (float)v;
                memcpy(p, &f, 4);
            } else if (cls == MAT_C_INT16) {
                int16_t w = (int16_t)-v;
                memcpy(p, &w, 2);
            } else if (cls == MAT_C_UINT8) {
                uint8_t w = (uint8_t)v;
                memcpy(p, &w, 1);
            } else {
                int64_t w = (int64_t)v;
                memcpy(p, &w, 8);
            }
        }
    size_t dims[2] = {rows, cols};
    matvar_t *v = Mat_VarCreate(name, cls, t, 2, dims, d, 0);
    assert_non_null(v);
    assert_int_equal(Mat_VarWrite(m, v, z), 0);
    Mat_VarFree(v);
    free(d);
}

static const char *file_of(int k)
{
    static char path[64];
    snprintf(path, sizeof path, OUT_DIR "/m%d.mat", k);
    return path;
}

/* a file of version k: X (5 x 3 double), y (5 x 1 int64), s (a char row) */
static const char *write_file(int k)
{
    const char *path = file_of(k);
    mat_t *m = Mat_CreateVer(path, NULL, versions[k]);
    assert_non_null(m);
    put(m, "X", MAT_C_DOUBLE, MAT_T_DOUBLE, 8, 5, 3, packs[k]);
    put(m, "y", MAT_C_INT64, MAT_T_INT64, 8, 5, 1, packs[k]);
    put(m, "F", MAT_C_SINGLE, MAT_T_SINGLE, 4, 2, 4, packs[k]);
    put(m, "I", MAT_C_INT16, MAT_T_INT16, 2, 2, 4, packs[k]);
    put(m, "U", MAT_C_UINT8, MAT_T_UINT8, 1, 4, 2, packs[k]);
    size_t cdims[2] = {1, 5};
    matvar_t *s = Mat_VarCreate("s", MAT_C_CHAR, MAT_T_UINT8, 2, cdims, "hello", 0);
    assert_int_equal(Mat_VarWrite(m, s, packs[k]), 0);
    Mat_VarFree(s);
    Mat_Close(m);
    return path;
}

static void test_versions_and_classes(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        const char *path = write_file(k);
        double *x;
        size_t r, c;
        char *name;
        kpca_error err;
        assert_int_equal(kpca_mat_read(path, "X", &x, &r, &c, &name, &err), KPCA_OK);
        assert_int_equal(r, 5);
        assert_int_equal(c, 3);
        assert_string_equal(name, "X");
        for (size_t i = 0; i < r; i++) /* row-major: MATLAB's X(i, j) at x[i * c + j] */
            for (size_t j = 0; j < c; j++)
                assert_true(x[i * c + j] == value(i, j));
        kpca_free(x);
        kpca_free(name);
        assert_int_equal(kpca_mat_read(path, "F", &x, &r, &c, NULL, &err), KPCA_OK);
        assert_true(r == 2 && c == 4 && x[1 * 4 + 3] == (double)(float)value(1, 3));
        kpca_free(x);
        assert_int_equal(kpca_mat_read(path, "I", &x, &r, &c, NULL, &err), KPCA_OK);
        assert_true(r == 2 && c == 4 && x[1 * 4 + 2] == -12.0);
        kpca_free(x);
        assert_int_equal(kpca_mat_read(path, "U", &x, &r, &c, NULL, &err), KPCA_OK);
        assert_true(r == 4 && c == 2 && x[3 * 2 + 1] == 31.0);
        kpca_free(x);
        assert_int_equal(kpca_mat_read(path, "y", &x, &r, &c, NULL, &err), KPCA_OK);
        assert_true(r == 5 && c == 1 && x[4] == 40.0);
        kpca_free(x);

        /* the listing: every variable, its shape and class (in the
         * file's order in version 5, by name in 7.3: HDF5's) */
        kpca_mat_var *vars;
        size_t n;
        assert_int_equal(kpca_mat_list(path, &vars, &n, &err), KPCA_OK);
        assert_int_equal(n, 6);
        size_t X = n, s = n, I = n;
        for (size_t i = 0; i < n; i++) {
            X = strcmp(vars[i].name, "X") == 0 ? i : X;
            s = strcmp(vars[i].name, "s") == 0 ? i : s;
            I = strcmp(vars[i].name, "I") == 0 ? i : I;
        }
        assert_true(X < n && s < n && I < n);
        if (k < 2)
            assert_int_equal(X, 0);
        assert_string_equal(vars[X].cls, "double");
        assert_true(vars[X].matrix && vars[X].dims[0] == 5 && vars[X].dims[1] == 3);
        assert_string_equal(vars[s].cls, "char");
        assert_false(vars[s].matrix);
        assert_string_equal(vars[I].cls, "int16");
        char shape[64];
        assert_string_equal(kpca_mat_shape(&vars[I], shape, sizeof shape), "2 x 4");
        kpca_mat_vars_free(vars, n);

        /* no name: five matrices, so refused, listing them */
        assert_int_equal(kpca_mat_read(path, NULL, &x, &r, &c, NULL, &err), KPCA_EFORMAT);
        assert_null(x);
        assert_non_null(strstr(err.msg, "holds several numeric matrices"));
        assert_non_null(strstr(err.msg, "'X' (5 x 3 double)"));
        assert_non_null(strstr(err.msg, "'y' (5 x 1 int64)"));
        assert_non_null(strstr(err.msg, "'s' (1 x 5 char)"));
        assert_int_equal(kpca_mat_read(path, "s", &x, &r, &c, NULL, &err), KPCA_EFORMAT);
        assert_non_null(strstr(err.msg, "variable 's' (1 x 5 char) is not numeric"));
        assert_int_equal(kpca_mat_read(path, "nope", &x, &r, &c, NULL, &err), KPCA_EFORMAT);
        assert_non_null(strstr(err.msg, "has no variable 'nope'"));
    }
}

/* the one matrix is read without a name; a non-finite value is refused */
static void test_one_matrix_and_nan(void **state)
{
    (void)state;
    const char *path = OUT_DIR "/one.mat";
    mat_t *m = Mat_CreateVer(path, NULL, MAT_FT_MAT5);
    assert_non_null(m);
    put(m, "data", MAT_C_DOUBLE, MAT_T_DOUBLE, 8, 4, 2, MAT_COMPRESSION_NONE);
    Mat_Close(m);
    double *x;
    size_t r, c;
    char *name;
    kpca_error err;
    assert_int_equal(kpca_mat_read(path, NULL, &x, &r, &c, &name, &err), KPCA_OK);
    assert_string_equal(name, "data");
    assert_true(r == 4 && c == 2);
    kpca_free(x);
    kpca_free(name);

    m = Mat_CreateVer(path, NULL, MAT_FT_MAT73);
    double d[6] = {1, 2, 3, 4, NAN, 6};
    size_t dims[2] = {3, 2};
    matvar_t *v = Mat_VarCreate("Z", MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims, d, 0);
    Mat_VarWrite(m, v, MAT_COMPRESSION_NONE);
    Mat_VarFree(v);
    size_t d3[3] = {2, 1, 3};
    v = Mat_VarCreate("A", MAT_C_DOUBLE, MAT_T_DOUBLE, 3, d3, d, 0);
    Mat_VarWrite(m, v, MAT_COMPRESSION_NONE);
    Mat_VarFree(v);
    Mat_Close(m);
    /* NaN is MATLAB's Z(2, 2): row 2, column 2 */
    assert_int_equal(kpca_mat_read(path, "Z", &x, &r, &c, NULL, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "variable 'Z' row 2, column 2: NaN"));
    assert_int_equal(kpca_mat_read(path, "A", &x, &r, &c, NULL, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "is an array of 2 x 1 x 3, not a matrix"));
}

/* cut files, damaged compressed data, not a MAT-file: refused, nothing read */
static void test_cut_and_damaged(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        const char *path = write_file(k);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        unsigned char buf[1 << 16];
        size_t len = fread(buf, 1, sizeof buf, f);
        fclose(f);
        assert_true(len > 300 && len < sizeof buf);
        const char *cut = OUT_DIR "/cut.mat";
        for (size_t at = 130; at < len; at += (len - 130) / 7 + 1) {
            f = fopen(cut, "wb");
            fwrite(buf, 1, at, f);
            fclose(f);
            double *x = (double *)buf;
            size_t r, c;
            kpca_error err;
            kpca_status st = kpca_mat_read(cut, "X", &x, &r, &c, NULL, &err);
            if (st == KPCA_OK) { /* X whole before the cut: its values, every one */
                assert_true(r == 5 && c == 3 && x[14] == value(4, 2));
                kpca_free(x);
            } else {
                assert_null(x);
                assert_int_equal(st, KPCA_EFORMAT);
            }
        }
    }
    /* a flipped byte in the compressed stream: zlib's check */
    const char *path = write_file(1);
    FILE *f = fopen(path, "r+b");
    fseek(f, 200, SEEK_SET);
    int ch = fgetc(f);
    fseek(f, 200, SEEK_SET);
    fputc(ch ^ 0xff, f);
    fclose(f);
    double *x;
    size_t r, c;
    kpca_error err;
    assert_int_equal(kpca_mat_read(path, "X", &x, &r, &c, NULL, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "does not inflate whole"));
    /* a header that claims 5 + 2^29 rows of X: refused before libmatio reads
     * on for minutes (a fuzzer's find), not a memory refusal */
    path = write_file(0);
    f = fopen(path, "r+b");
    unsigned char dim0[4];
    fseek(f, 160, SEEK_SET);
    assert_int_equal(fread(dim0, 1, 4, f), 4);
    assert_int_equal(dim0[0], 5); /* X's first dimension, little-endian int32 */
    fseek(f, 163, SEEK_SET);
    fputc(0x20, f);
    fclose(f);
    assert_int_equal(kpca_mat_read(path, "X", &x, &r, &c, NULL, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "claims 536870917 x 3 values, more than the file can hold"));
    /* a dimension count of 2^30 in a matrix of 72 bytes: libmatio reads
     * on for minutes (the fuzzer's second find) */
    path = write_file(0);
    f = fopen(path, "r+b");
    fseek(f, 156, SEEK_SET); /* the dimensions' byte count, after the tags of X and its flags */
    assert_int_equal(fread(dim0, 1, 4, f), 4);
    assert_int_equal(dim0[0], 8); /* 2 x int32 */
    fseek(f, 156, SEEK_SET);
    fwrite("\0\0\0\x40", 1, 4, f);
    fclose(f);
    assert_int_equal(kpca_mat_read(path, "X", &x, &r, &c, NULL, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "has parts that do not fit"));
    /* the fuzzer's third find: a v7.3 variable whose HDF5 type claims
     * 1919905385 bytes a value (libhdf5 converted it for a minute) */
    assert_int_equal(kpca_mat_read("tests/fuzz/corpus/mat/timeout-type-size", "y", &x, &r, &c, NULL, &err),
                     KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "HDF5 stores it as integers of 1919905385 bytes a value"));
    f = fopen(OUT_DIR "/text.mat", "w");
    fputs("1,2\n3,4\n", f);
    fclose(f);
    assert_int_equal(kpca_mat_read(OUT_DIR "/text.mat", NULL, &x, &r, &c, NULL, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "is not a MATLAB MAT-file of version 5 or 7.3"));
    assert_int_equal(kpca_mat_read(OUT_DIR "/none.mat", NULL, &x, &r, &c, NULL, &err), KPCA_EIO);
}

static const char *alloc_path;

static kpca_status read_op(kpca_error *err)
{
    double *x;
    size_t r, c;
    char *name;
    kpca_status st = kpca_mat_read(alloc_path, "X", &x, &r, &c, &name, err);
    if (st == KPCA_OK) {
        kpca_free(x);
        kpca_free(name);
    }
    return st;
}

static void test_alloc_failure(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        alloc_path = write_file(k);
        assert_true(tu_fail_loop("kpca_mat_read", read_op, 1) > 2);
    }
}

static void test_magic(void **state)
{
    (void)state;
    assert_true(kpca_mat_is((const unsigned char *)"MATLAB 5.0 MAT-file, Platform", 29));
    assert_true(kpca_mat_is((const unsigned char *)"MATLAB 7.3 MAT-file, Platform", 29));
    assert_false(kpca_mat_is((const unsigned char *)"MATLAB 4.0 MAT-file, Platform", 29));
    assert_false(kpca_mat_is((const unsigned char *)"MATLAB 5.0 MAT-fil", 18));
    assert_false(kpca_mat_is((const unsigned char *)"1,2,3\n", 6));
}

int main(void)
{
    if (system("mkdir -p " OUT_DIR) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_versions_and_classes), cmocka_unit_test(test_one_matrix_and_nan),
        cmocka_unit_test(test_cut_and_damaged),      cmocka_unit_test(test_alloc_failure),
        cmocka_unit_test(test_magic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

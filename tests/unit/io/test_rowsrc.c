/* test_rowsrc.c - the row source's contract (io/rowsrc.h): blocks of any
 * size, put end to end, are kpca_dataset_read's rows, labels and codes bit
 * for bit, in every format; seeks land on their row; the first error is
 * kpca_dataset_read's, message and all (at open, or in the read that
 * reaches its row). */
#include "testutil.h"

#include <sys/stat.h>
#include <zlib.h>

#include "lib/io/csvwin.h"
#include "lib/io/npy.h"
#include "lib/io/rowsrc.h"

/* Reads spec with opts through a source in blocks of `block` rows (after
 * a seek to `from`) and compares with kpca_dataset_read's rows from row
 * `from` on: same status, message, rows, labels, names. */
static void same_as_read(const char *spec, const kpca_read_opts *opts, size_t block, size_t from)
{
    kpca_dataset want;
    kpca_error ew, eg;
    kpca_error_clear(&ew);
    kpca_error_clear(&eg);
    kpca_status sw = kpca_dataset_read(spec, opts, &want, &ew);
    kpca_rowsrc *src = NULL;
    kpca_status sg = kpca_rowsrc_open(spec, opts, &src, &eg);
    size_t n = 0, dim = sg == KPCA_OK ? kpca_rowsrc_dim(src) : 0;
    double *x = NULL;
    int *y = NULL;
    if (sg == KPCA_OK && sw == KPCA_OK) {
        assert_int_equal(dim, want.dim);
        assert_int_equal(kpca_rowsrc_labelled(src), !want.unlabelled);
        assert_int_equal(kpca_rowsrc_format(src), want.format);
        size_t count;
        assert_int_equal(kpca_rowsrc_count(src, &count, &eg), KPCA_OK);
        assert_int_equal(count, want.n);
        const kpca_dataset *info = kpca_rowsrc_info(src);
        assert_int_equal(info->n, want.n);
        assert_int_equal(info->nnames, want.nnames);
        for (size_t c = 0; c < want.nnames; c++)
            assert_string_equal(info->names[c], want.names[c]);
        assert_int_equal(info->label_col, want.label_col);
        assert_int_equal(info->colnames == NULL, want.colnames == NULL);
        for (size_t j = 0; want.colnames != NULL && j < want.dim; j++)
            assert_string_equal(info->colnames[j], want.colnames[j]);
        assert_int_equal(kpca_rowsrc_seek(src, from, &eg), KPCA_OK);
        assert_int_equal(kpca_rowsrc_tell(src), from);
    }
    if (sg == KPCA_OK) { /* read to the end, or to the error */
        x = malloc(block * (dim ? dim : 1) * sizeof *x);
        y = malloc(block * sizeof *y);
        assert_non_null(x);
        assert_non_null(y);
        size_t got;
        n = from;
        while ((sg = kpca_rowsrc_read(src, block, x, y, &got, &eg)) == KPCA_OK && got > 0) {
            assert_true(got <= block);
            if (sw != KPCA_OK) { /* rows before a value's error in a later row, which the read reaches */
                n += got;
                continue;
            }
            assert_true(n + got <= want.n);
            assert_memory_equal(x, want.x + n * dim, got * dim * sizeof *x);
            assert_memory_equal(y, want.y + n, got * sizeof *y);
            n += got;
        }
        if (sg == KPCA_OK) { /* at the end it stays there */
            assert_int_equal(kpca_rowsrc_read(src, block, x, y, &got, &eg), KPCA_OK);
            assert_int_equal(got, 0);
        }
    }
    if (sg != sw || (sw != KPCA_OK && strcmp(eg.msg, ew.msg) != 0))
        fail_msg("'%s' by blocks of %zu: status %d '%s', read whole %d '%s'", spec, block, sg, eg.msg, sw, ew.msg);
    if (sw == KPCA_OK)
        assert_int_equal(n, want.n);
    free(x);
    free(y);
    kpca_rowsrc_close(src);
    if (sw == KPCA_OK)
        kpca_dataset_free(&want);
}

static void every_block(const char *spec, const kpca_read_opts *opts)
{
    static const size_t blocks[] = {1, 7, 10000};
    for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++)
        same_as_read(spec, opts, blocks[b], 0);
    same_as_read(spec, opts, 7, 3);
}

static void test_usps_forms(void **state)
{
    (void)state;
    struct stat st;
    if (stat("data/zip.test.gz", &st) != 0 || stat("data/usps.h5", &st) != 0)
        skip();
    every_block("data/zip.test.gz", NULL);
    every_block("data/usps.h5:test", NULL);
}

static void test_text_forms(void **state)
{
    (void)state;
    static const char *const texts[][2] = {
        {"rs.csv", "a,b,label\n1,2,cat\n3,4,dog\n5,6,cat\n7,8,emu\n9,1,dog\n2,3,cat\n4,5,ant\n6,7,cat\n8,9,dog\n"},
        {"rs_int.csv", "x;y;class\n1,5;2;3\n3;4;-1\n5;6;3\n7;8;10\n"},
        {"rs.txt", "3 0.5 0.25\n1 0.5 0.75\n\n3 1e-3 2\n2 0 0\n1 1 1\n3 2 2\n1 3 3\n2 4 4\n"},
        {"rs.svm", "1 1:0.5 3:0.25\n2 2:1\n1\n3 1:1 2:2 3:3 5:1\n"},
        {"rs_pd.csv", ",a,b,target\n0,1,2,0\n1,3,4,1\n2,5,6,0\n3,7,8,1\n4,9,0,0\n"},
        {"rs_nolab.csv", "1,7,3\n4,5,6\n7,8,9\n"},
    };
    for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
        const char *path = tu_write_file(texts[t][0], texts[t][1]);
        char copy[512];
        snprintf(copy, sizeof copy, "%s", path);
        every_block(copy, NULL);
    }
    /* options: a label column by name, decimal commas, columns, none */
    const char *path = tu_write_file("rs_opt.csv", "id;a;b;y\ns1;1,5;2;1\ns2;3;4,25;2\ns3;5;6;1\n");
    char copy[512];
    snprintf(copy, sizeof copy, "%s", path);
    every_block(copy, &(kpca_read_opts){.decimal = ',', .drop = "id"});
    every_block(copy, &(kpca_read_opts){.decimal = ',', .columns = "b,2", .label = "none"});
    /* gzip */
    gzFile gz = gzopen(TEST_OUT "/rs.csv.gz", "wb");
    assert_non_null(gz);
    gzputs(gz, texts[0][1]);
    gzclose(gz);
    every_block(TEST_OUT "/rs.csv.gz", NULL);
}

/* An error in a late row is the whole read's error; an error at the start
 * too. */
static void test_errors(void **state)
{
    (void)state;
    char text[200000];
    char *o = text + sprintf(text, "a,b,label\n");
    for (int i = 0; i < 5000; i++)
        o += sprintf(o, i == 4321 ? "%d,%d\n" : "%d,%d,%d\n", i, -i, i % 3);
    const char *path = tu_write_file("rs_ragged.csv", text);
    char copy[512];
    snprintf(copy, sizeof copy, "%s", path);
    same_as_read(copy, NULL, 100, 0);
    o = text;
    for (int i = 0; i < 5000; i++)
        o += sprintf(o, i == 3000 ? "%d x 0.5\n" : "%d 0.5 0.25\n", i % 4);
    path = tu_write_file("rs_bad.txt", text);
    snprintf(copy, sizeof copy, "%s", path);
    same_as_read(copy, NULL, 64, 0);
    same_as_read(TEST_OUT "/does-not-exist.csv", NULL, 10, 0);
    /* The labels' pass does not parse the values, but the whole read
     * parses them all before it looks at the labels: an empty label early
     * (line 4), then a value that is no number late (line 4002), a short
     * row, or nothing: the whole read's first error each time */
    static const char *const late[] = {"%d,x%d,%d\n", "%d,%d\n", NULL};
    for (int k = 0; k < 3; k++) {
        o = text + sprintf(text, "a,b,label\n");
        for (int i = 0; i < 5000; i++)
            o += sprintf(o, i == 2 ? "%d,%d,\n" : i == 4000 && late[k] != NULL ? late[k] : "%d,%d,%d\n", i, -i, i % 3);
        path = tu_write_file("rs_label_then_value.csv", text);
        snprintf(copy, sizeof copy, "%s", path);
        same_as_read(copy, NULL, 100, 0);
    }
}

/* A random NumPy array in C and Fortran order, float64 and float32. */
static void test_npy(void **state)
{
    (void)state;
    kpca_dataset ds;
    tu_random_dataset(&ds, 97, 5, 3, 11);
    kpca_error err;
    assert_int_equal(kpca_npy_write(TEST_OUT "/rs.npy", ds.x, ds.n, ds.dim, &err), KPCA_OK);
    every_block(TEST_OUT "/rs.npy", NULL);
    kpca_dataset_free(&ds);
}

/* Files of several windows (1 MiB each): rows cut anywhere, quoted fields
 * with line breaks and delimiters across a window's end, class names first
 * seen late, CRLF, a pandas index; whitespace text past the rows the label
 * rule is decided on; LIBSVM; an error in a late window; a seek back. */
static void test_large(void **state)
{
    (void)state;
    FILE *f = fopen(TEST_OUT "/rs_big.csv", "wb");
    assert_non_null(f);
    fprintf(f, ",x1,\"x, 2\",x3,class\r\n");
    for (int i = 0; i < 60000; i++) {
        const char *name = i < 50000 ? (i % 3 ? "setosa" : "\"vers\ni,color\"") : "virginica";
        fprintf(f, "%d,%.6f,%d.25,\"%de-3\",%s\r\n", i, i * 0.001, i % 97, i, name);
    }
    fclose(f);
    every_block(TEST_OUT "/rs_big.csv", NULL);
    same_as_read(TEST_OUT "/rs_big.csv", &(kpca_read_opts){.drop = "x1", .label = "class"}, 1000, 45000);
    /* a bad number in a late window: the whole read's message */
    f = fopen(TEST_OUT "/rs_bad_late.csv", "wb");
    assert_non_null(f);
    fprintf(f, "a,b,label\n");
    for (int i = 0; i < 100000; i++)
        fprintf(f, i == 99000 ? "%d,x%d,%d\n" : "%d,%d,%d\n", i, -i, i % 5);
    fclose(f);
    same_as_read(TEST_OUT "/rs_bad_late.csv", NULL, 4096, 0);
    /* a quote inside an unquoted label (5"3, no quoted field: csv.c opens
     * one at a field's start only), then a quoted label with a line break
     * in the first window: a count of quotes would cut the window there */
    f = fopen(TEST_OUT "/rs_literal_quote.csv", "wb");
    assert_non_null(f);
    fprintf(f, "a,label\n");
    for (int i = 0; i < 60000; i++)
        fprintf(f, i == 0 ? "%d,5\"3\n" : i == 20000 ? "%d,\"two\nlines\"\n" : "%d.125,class %d\n", i, i % 3);
    fclose(f);
    every_block(TEST_OUT "/rs_literal_quote.csv", NULL);
    /* windows with no quote, parsed in parts (one thread each), their
     * labels found by the first pass without parsing the values: a pandas
     * index (dropped; then kept, for one value that is not an integer),
     * names in the last column found from the row's end, CRLF, blank lines */
    for (int keep = 0; keep < 2; keep++) {
        f = fopen(TEST_OUT "/rs_pd_big.csv", "wb");
        assert_non_null(f);
        fprintf(f, ",a,b,c,name\r\n");
        for (int i = 0; i < 80000; i++)
            fprintf(f, keep && i == 70000 ? "%d.5,%d.5,-%d,0.%d,%s\r\n%s" : "%d,%d.5,-%d,0.%d,%s\r\n%s", i, i % 91, i,
                    i % 7, i % 5 ? "iris setosa" : "versicolor", i % 9999 == 0 ? "\r\n" : "");
        fclose(f);
        every_block(TEST_OUT "/rs_pd_big.csv", NULL);
    }
    /* the label in a middle column; a row short of a field in a late window
     * (the first pass's error, as the whole read words it), then a label
     * that is no class there (the labels' verdict) */
    for (int bad = 0; bad < 2; bad++) {
        f = fopen(TEST_OUT "/rs_mid_big.csv", "wb");
        assert_non_null(f);
        fprintf(f, "a,label,b,c\n");
        for (int i = 0; i < 80000; i++)
            fprintf(f, i != 71234 ? "%d,%d,%d,%d\n" : bad ? "%d,%d.5,%d,%d\n" : "%d,%d,%d\n", i, i % 4, -i, i % 13);
        fclose(f);
        same_as_read(TEST_OUT "/rs_mid_big.csv", NULL, 1024, 0);
    }
    /* whitespace text, labels decided on the first 10000 rows */
    f = fopen(TEST_OUT "/rs_big.txt", "wb");
    assert_non_null(f);
    for (int i = 0; i < 25000; i++)
        fprintf(f, "%d %.4f %.4f\n", i % 10, i * 1e-4, -i * 1e-4);
    fclose(f);
    every_block(TEST_OUT "/rs_big.txt", NULL);
    f = fopen(TEST_OUT "/rs_big.svm", "wb");
    assert_non_null(f);
    for (int i = 0; i < 20000; i++)
        fprintf(f, "%d %d:%.3f %d:1\n", i % 4, 1 + i % 5, i * 0.5, 6 + i % 3);
    fclose(f);
    every_block(TEST_OUT "/rs_big.svm", NULL);
    /* a seek back, then on */
    kpca_rowsrc *src;
    kpca_error err;
    assert_int_equal(kpca_rowsrc_open(TEST_OUT "/rs_big.csv", NULL, &src, &err), KPCA_OK);
    kpca_dataset all;
    assert_int_equal(kpca_dataset_read(TEST_OUT "/rs_big.csv", NULL, &all, &err), KPCA_OK);
    double x[3 * 10];
    int y[10];
    size_t got;
    static const size_t at[] = {59990, 17, 40000, 0};
    for (size_t k = 0; k < 4; k++) {
        assert_int_equal(kpca_rowsrc_seek(src, at[k], &err), KPCA_OK);
        assert_int_equal(kpca_rowsrc_read(src, 10, x, y, &got, &err), KPCA_OK);
        assert_int_equal(got, 10);
        assert_memory_equal(x, all.x + at[k] * 3, sizeof x);
        assert_memory_equal(y, all.y + at[k], sizeof y);
    }
    assert_int_equal(kpca_rowsrc_seek(src, 60001, &err), KPCA_EUSAGE);
    kpca_dataset_free(&all);
    kpca_rowsrc_close(src);
}

/* Seeks back and forth over whitespace and LIBSVM text, plain and gzip:
 * each lands on its row, and a seek back to the start keeps the layout the
 * open decided (no second pass over the rows held for it: no allocation) */
static void test_rewind(void **state)
{
    (void)state;
    FILE *f = fopen(TEST_OUT "/rw.txt", "wb");
    gzFile g = gzopen(TEST_OUT "/rw.txt.gz", "wb");
    FILE *s = fopen(TEST_OUT "/rw.svm", "wb");
    assert_non_null(f);
    assert_non_null(g);
    assert_non_null(s);
    for (int i = 0; i < 12000; i++) { /* more rows than the 10000 the ESL rule holds */
        fprintf(f, "%d %.4f %.4f\n", i % 10, i * 1e-4, -i * 1e-4);
        gzprintf(g, "%d %.4f %.4f\n", i % 10, i * 1e-4, -i * 1e-4);
        fprintf(s, "%d %d:%.3f %d:1\n", i % 4, 1 + i % 5, i * 0.5, 6 + i % 3);
    }
    fclose(f);
    gzclose(g);
    fclose(s);
    static const char *const files[] = {TEST_OUT "/rw.txt", TEST_OUT "/rw.txt.gz", TEST_OUT "/rw.svm"};
    for (size_t i = 0; i < 3; i++) {
        kpca_rowsrc *src;
        kpca_dataset all;
        kpca_error err;
        assert_int_equal(kpca_rowsrc_open(files[i], NULL, &src, &err), KPCA_OK);
        assert_int_equal(kpca_dataset_read(files[i], NULL, &all, &err), KPCA_OK);
        const size_t dim = all.dim;
        double x[8 * 10];
        int y[10];
        size_t got;
        static const size_t at[] = {11990, 0, 10000, 9995, 0, 5};
        for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
            kpca_mem_fail_after(-1);
            assert_int_equal(kpca_rowsrc_seek(src, at[k], &err), KPCA_OK);
            const long allocs = kpca_mem_fail_after(-1);
            if (at[k] == 0 && i < 2 && allocs != 0)
                fail_msg("'%s': the seek to row 0 made %ld allocations (a new open)", files[i], allocs);
            assert_int_equal(kpca_rowsrc_read(src, 10, x, y, &got, &err), KPCA_OK);
            assert_int_equal(got, 10);
            assert_memory_equal(x, all.x + at[k] * dim, 10 * dim * sizeof *x);
            assert_memory_equal(y, all.y + at[k], sizeof y);
        }
        kpca_dataset_free(&all);
        kpca_rowsrc_close(src);
    }
}

/* A labels file for unlabelled rows; a group of HDF5; a stream is spooled. */
static void test_labels_file(void **state)
{
    (void)state;
    const char *p = tu_write_file("rs_u.csv", "1,7\n3,4\n5,6\n");
    char data[512];
    snprintf(data, sizeof data, "%s", p);
    p = tu_write_file("rs_u_labels.txt", "cat\ndog\ncat\n");
    char labels[512];
    snprintf(labels, sizeof labels, "%s", p);
    every_block(data, &(kpca_read_opts){.labels = labels});
}

/* The fast windows of a plain file, cut small (windows of 2000 bytes in
 * parts of at least 200 on 3 threads, after the row reader's first 64
 * KiB): a window whose rows fit in the
 * caller's block is parsed into it, and one that does not through the
 * window's rows; blocks of 1, 7, 50, 10000 rows mix both.  Integer labels
 * and names, a pandas index (never parsed into the block), a quoted label
 * with a line break (the fast path stops there, the row reader reads on),
 * and a bad value late: the whole read's rows, labels and message. */
static void test_fast_windows(void **state)
{
    (void)state;
    kpca_csv_win_test_sizes(2000, 200, 3);
    FILE *f = fopen(TEST_OUT "/rs_fast.csv", "wb");
    assert_non_null(f);
    for (int i = 0; i < 12000; i++)
        fprintf(f, "%d,%d.5,-%d.25,%d\n", i % 10, i, i % 77, i * 3);
    fclose(f);
    static const size_t blocks[] = {1, 7, 50, 10000};
    for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
        same_as_read(TEST_OUT "/rs_fast.csv", &(kpca_read_opts){.label = "first"}, blocks[b], 0);
        same_as_read(TEST_OUT "/rs_fast.csv", &(kpca_read_opts){.label = "none"}, blocks[b], 0);
    }
    same_as_read(TEST_OUT "/rs_fast.csv", &(kpca_read_opts){.label = "first"}, 50, 9876);
    for (int index = 0; index < 2; index++) { /* a header, then one with a pandas index */
        f = fopen(TEST_OUT "/rs_fast_names.csv", "wb");
        assert_non_null(f);
        fprintf(f, "%sa,b,name\n", index ? "," : "z,");
        for (int i = 0; i < 12000; i++)
            fprintf(f, i == 7700 ? "%d,%d,%d,\"two\nlines\"\n" : "%d,%d,%d,class%d\n", i, i % 13, i, i % 4);
        fclose(f);
        for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++)
            same_as_read(TEST_OUT "/rs_fast_names.csv", &(kpca_read_opts){.label = "name"}, blocks[b], 0);
    }
    f = fopen(TEST_OUT "/rs_fast_bad.csv", "wb");
    assert_non_null(f);
    for (int i = 0; i < 12000; i++)
        fprintf(f, i == 10600 ? "%d,x%d,1\n" : "%d,%d,1\n", i % 3, i);
    fclose(f);
    for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++)
        same_as_read(TEST_OUT "/rs_fast_bad.csv", &(kpca_read_opts){.label = "first"}, blocks[b], 0);
    kpca_csv_win_test_sizes(0, 0, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_usps_forms),
        cmocka_unit_test(test_text_forms),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_npy),
        cmocka_unit_test(test_large),
        cmocka_unit_test(test_rewind),
        cmocka_unit_test(test_labels_file),
        cmocka_unit_test(test_fast_windows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

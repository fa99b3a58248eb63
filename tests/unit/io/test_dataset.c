/* test_dataset.c - the text readers (ESL, LIBSVM), format names, and the
 * data set helpers (rescaling, rounding, selection, subsets, a double as a
 * label).  HDF5 inputs: test_dataset_h5.c; feature files: test_featfile.c;
 * CSV and NPY: test_csv.c, test_npy.c. */
#include "testutil.h"

#include <limits.h>

#include "io_fixture.h"
#include "io/dataset_h5.h"
#include "io/dataset_text.h"
#include "io/labels.h"

/* ---- ESL ------------------------------------------------------------------ */

static void test_esl_good_plain_and_gzip(void **state)
{
    (void)state;
    char plain[256], gz[256];
    write_text("esl_good.txt", good_esl, plain, sizeof plain);
    write_gz("esl_good.txt.gz", good_esl, gz, sizeof gz);
    const char *paths[2] = {plain, gz};
    for (int i = 0; i < 2; i++) {
        kpca_dataset ds;
        kpca_error err;
        kpca_status st = kpca_dataset_read(paths[i], NULL, &ds, &err);
        if (st != KPCA_OK)
            fail_msg("%s: %s", paths[i], err.msg);
        check_good(&ds);
        kpca_dataset_free(&ds);
        assert_null(ds.x);

        /* the format-specific reader, with and without the expected dim */
        assert_int_equal(kpca_read_esl(paths[i], 0, 0, &ds, &err), KPCA_OK);
        check_good(&ds);
        kpca_dataset_free(&ds);
        assert_int_equal(kpca_read_esl(paths[i], 3, 0, &ds, &err), KPCA_OK);
        check_good(&ds);
        kpca_dataset_free(&ds);
        assert_int_equal(kpca_read_esl(paths[i], 4, 0, &ds, &err), KPCA_EFORMAT);
        assert_msg_names(&err, paths[i], 0);

        kpca_format f = KPCA_FMT_AUTO;
        assert_int_equal(kpca_detect_format(paths[i], &f, &err), KPCA_OK);
        assert_int_equal(f, KPCA_FMT_ESL);
    }
}

/* --skip-rows on whitespace text: the lines skipped hold anything, and the
 * rows after them are read as the file without them is, labels guessed
 * alike (the delimited reader, which guesses none, once read them); past
 * the file's lines it is refused with their count */
static void test_esl_skip_rows(void **state)
{
    (void)state;
    static const char pre[] = "USPS-like digits, 5 rows: 1 2 3\n\"a quote opens nothing\n";
    char text[sizeof pre + sizeof good_esl], plain[256], gz[256];
    snprintf(text, sizeof text, "%s%s", pre, good_esl);
    write_text("esl_skip.txt", text, plain, sizeof plain);
    write_gz("esl_skip.txt.gz", text, gz, sizeof gz);
    const char *paths[2] = {plain, gz};
    for (int i = 0; i < 2; i++) {
        kpca_dataset ds;
        kpca_error err;
        assert_int_equal(kpca_read_esl(paths[i], 0, 2, &ds, &err), KPCA_OK);
        check_good(&ds);
        kpca_dataset_free(&ds);
        kpca_read_opts o = {.skip_rows = 2};
        kpca_status st = kpca_dataset_read(paths[i], &o, &ds, &err);
        if (st != KPCA_OK)
            fail_msg("%s: %s", paths[i], err.msg);
        check_good(&ds);
        kpca_dataset_free(&ds);
        assert_int_equal(kpca_read_esl(paths[i], 0, 11, &ds, &err), KPCA_EUSAGE);
        assert_non_null(strstr(err.msg, "has only 10 lines: --skip-rows 11"));
    }
}

/* Values are read bit for bit as strtod reads them, whatever their form:
 * the reader's fast path for plain decimals of up to 15 digits (one
 * correctly rounded division) and strtod for everything else (more digits,
 * exponents, "1.", ".5", a leading +, -0) must agree on every value of a
 * file of 4000 of them drawn at random. */
static void test_esl_values_as_strtod(void **state)
{
    (void)state;
    enum { ROWS = 500, COLS = 8 };
    static char text[ROWS * COLS * 40 + ROWS * 8];
    static char tok[ROWS][COLS][40];
    size_t len = 0;
    unsigned long long r = 88172645463325252ull;
    for (int i = 0; i < ROWS; i++) {
        len += (size_t)sprintf(text + len, "%d", i % 10);
        for (int j = 0; j < COLS; j++) {
            char *t = tok[i][j];
            size_t n = 0;
            r ^= r << 13, r ^= r >> 7, r ^= r << 17;
            int form = (int)(r % 8), whole = (int)((r >> 8) % 10), fracd = (int)((r >> 16) % 19);
            if ((r >> 24) % 3 == 0)
                t[n++] = '-';
            else if ((r >> 24) % 7 == 1)
                t[n++] = '+';
            for (int k = 0; k < whole && form != 5; k++)
                t[n++] = (char)('0' + (r >> (28 + 2 * k)) % 10);
            if (form != 6) {
                t[n++] = '.';
                for (int k = 0; k < fracd; k++) {
                    r ^= r << 13, r ^= r >> 7, r ^= r << 17;
                    t[n++] = (char)('0' + r % 10);
                }
            }
            if (n == 0 || (n == 1 && (t[0] == '-' || t[0] == '+' || t[0] == '.')) ||
                (n == 2 && t[1] == '.' && (t[0] == '-' || t[0] == '+')))
                t[n++] = '7';
            if (form == 7)
                n += (size_t)sprintf(t + n, "e%d", (int)(r % 9) - 4);
            t[n] = '\0';
            len += (size_t)sprintf(text + len, " %s", t);
        }
        text[len++] = '\n';
    }
    text[len] = '\0';
    char path[256];
    write_text("esl_values.txt", text, path, sizeof path);
    kpca_dataset ds;
    kpca_error err;
    if (kpca_read_esl(path, COLS, 0, &ds, &err) != KPCA_OK)
        fail_msg("%s", err.msg);
    assert_int_equal(ds.n, ROWS);
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++) {
            double want = strtod(tok[i][j], NULL), got = ds.x[(size_t)i * COLS + (size_t)j];
            if (memcmp(&want, &got, sizeof want) != 0)
                fail_msg("'%s': read %.17g, strtod %.17g", tok[i][j], got, want);
        }
    kpca_dataset_free(&ds);
}

static void test_esl_long_lines(void **state)
{
    (void)state;
    /* rows far longer than the reader's initial 8 KiB line buffer */
    const size_t dim = 3000, n = 4;
    size_t cap = n * dim * 24 + 64;
    char *text = malloc(cap);
    assert_non_null(text);
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        len += (size_t)snprintf(text + len, cap - len, "%zu", i);
        for (size_t j = 0; j < dim; j++)
            len += (size_t)snprintf(text + len, cap - len, " %.10f", (double)(i * dim + j) / 1024.0); /* exact */
        len += (size_t)snprintf(text + len, cap - len, "\n");
    }
    char path[256];
    write_gz("esl_long.txt.gz", text, path, sizeof path);
    free(text);
    kpca_dataset ds;
    kpca_error err;
    assert_int_equal(kpca_dataset_read(path, NULL, &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, n);
    assert_int_equal(ds.dim, dim);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(ds.y[i], (int)i);
        for (size_t j = 0; j < dim; j++)
            assert_true(ds.x[i * dim + j] == (double)(i * dim + j) / 1024.0);
    }
    kpca_dataset_free(&ds);
}

typedef struct {
    const char *name;
    const char *text;
    int line; /* line the message must name; 0: none */
} bad_case;

static void test_esl_bad_files(void **state)
{
    (void)state;
    static const bad_case cases[] = {
        {"esl_too_few.txt", "1 0.5 0.5\n2 0.25 0.25\n3 0.125\n4 1 1\n", 3},
        {"esl_too_many.txt", "1 0.5 0.5\n2 0.25 0.25\n3 0.125 1 2\n", 3},
        {"esl_label_only.txt", "1 0.5 0.5\n\n3\n", 3},
        {"esl_nonnum.txt", "1 0.5 0.5\n2 0.25 0.25\n3 abc 1\n", 3},
        {"esl_suffix.txt", "1 0.5 0.5\n2 0.25 0.25\n3 0.5x 1\n", 3},
        {"esl_nan.txt", "1 0.5 0.5\n2 0.25 0.25\n3 nan 1\n", 3},
        {"esl_inf.txt", "1 0.5 0.5\n2 0.25 0.25\n3 1 -inf\n", 3},
        {"esl_huge.txt", "1 0.5 0.5\n2 0.25 0.25\n3 1 1e999\n", 3},
        {"esl_label_word.txt", "1 0.5 0.5\n2 0.25 0.25\nseven 1 1\n", 3},
        {"esl_label_nan.txt", "1 0.5 0.5\n2 0.25 0.25\nnan 1 1\n", 3},
        {"esl_first_nan.txt", "\n\n1 0.5 nan\n", 3},
        {"esl_first_bad.txt", "\n1 0.5 0.5\n2 0.25 x\n", 3},
        {"esl_blank_first.txt", "1 0.5 0.5\n\n3 0.5 0.5 0.5\n", 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[256];
        write_text(cases[i].name, cases[i].text, path, sizeof path);
        expect_read_fail(path, KPCA_FMT_AUTO, KPCA_EFORMAT, cases[i].line);
        expect_read_fail(path, KPCA_FMT_ESL, KPCA_EFORMAT, cases[i].line);
        /* the same content compressed */
        char gzname[128], gzpath[256];
        snprintf(gzname, sizeof gzname, "%s.gz", cases[i].name);
        write_gz(gzname, cases[i].text, gzpath, sizeof gzpath);
        expect_read_fail(gzpath, KPCA_FMT_AUTO, KPCA_EFORMAT, cases[i].line);
    }
}

/* Reads text (written to name) with the default options. */
static void read_text(const char *name, const char *text, kpca_dataset *ds)
{
    char path[256];
    kpca_error err;
    write_text(name, text, path, sizeof path);
    if (kpca_dataset_read(path, NULL, ds, &err) != KPCA_OK)
        fail_msg("%s: %s", path, err.msg);
}

/* Whitespace text: the first column is the labels only when it holds few
 * distinct integers and the other columns are not all integers (ESL);
 * otherwise every column is a value and the data has no labels. */
static void test_esl_label_rule(void **state)
{
    (void)state;
    kpca_dataset ds;
    /* a fraction in the first column: values, no labels */
    read_text("rule_frac.txt", "1 0.5 0.5\n2 0.25 0.25\n1.5 1 1\n", &ds);
    assert_true(ds.unlabelled);
    assert_int_equal(ds.dim, 3);
    assert_int_equal(ds.label_col, 0);
    assert_true(ds.x[6] == 1.5);
    kpca_dataset_free(&ds);
    /* an integer beyond int's range: no label */
    read_text("rule_big.txt", "1 0.5 0.5\n2 0.25 0.25\n1e12 1 1\n", &ds);
    assert_true(ds.unlabelled);
    assert_int_equal(ds.dim, 3);
    kpca_dataset_free(&ds);
    /* every column integral (pixels 0..255, counts, 0/1, numpy.savetxt's
     * '%d'): nothing sets the first column apart, no labels (it took the
     * first pixel for the labels) */
    read_text("rule_ints.txt", "1 5 7\n2 6 8\n1 9 9\n", &ds);
    assert_true(ds.unlabelled);
    assert_int_equal(ds.dim, 3);
    kpca_dataset_free(&ds);
    /* a constant first column is no labels (1 class) */
    read_text("rule_const.txt", "0 0.5 7\n0 0.25 8\n0 1.5 9\n", &ds);
    assert_true(ds.unlabelled);
    assert_int_equal(ds.dim, 3);
    kpca_dataset_free(&ds);
    /* scikit-learn's diabetes_data_raw: an integer age first, 20 distinct
     * values in 40 rows (more than max(10, sqrt(40))): data */
    char text[4096] = "";
    for (int i = 0; i < 40; i++) {
        char line[64];
        snprintf(line, sizeof line, "%d %d %.1f 101.0\n", 19 + (i * 7) % 20, 1 + i % 2, 20.0 + 0.3 * i);
        strcat(text, line);
    }
    read_text("rule_diabetes.txt", text, &ds);
    assert_true(ds.unlabelled);
    assert_int_equal(ds.dim, 4);
    assert_true(ds.x[0] == 19.0);
    kpca_dataset_free(&ds);
    /* 10 classes among 40 rows, decimals after: ESL, labels from column 1 */
    text[0] = '\0';
    for (int i = 0; i < 40; i++) {
        char line[64];
        snprintf(line, sizeof line, "%d %.2f -%.2f\n", i % 10, 0.01 * i, 0.02 * i);
        strcat(text, line);
    }
    read_text("rule_esl.txt", text, &ds);
    assert_false(ds.unlabelled);
    assert_int_equal(ds.label_col, 1);
    assert_int_equal(ds.dim, 2);
    assert_int_equal(ds.y[13], 3);
    assert_true(ds.x[2 * 13] == 0.13);
    kpca_dataset_free(&ds);
    /* labels but for one value in 200 rows (zip.train.gz with a damaged
     * line): refused on its line, not read as 3 unlabelled values; past 1 %
     * of the rows the column is values */
    for (int many = 0; many < 2; many++) {
        char big[16384] = "", path[512];
        for (int i = 0; i < 200; i++) {
            char line[64];
            snprintf(line, sizeof line, (i == 122 || (many && i % 50 == 7)) ? "%d.5 %.2f -%.2f\n" : "%d %.2f -%.2f\n",
                     i % 10, 0.01 * i, 0.02 * i);
            strcat(big, line);
        }
        write_text("rule_damaged.txt", big, path, sizeof path);
        kpca_error err;
        kpca_status st = kpca_dataset_read(path, NULL, &ds, &err);
        if (many) {
            assert_int_equal(st, KPCA_OK);
            assert_true(ds.unlabelled);
            assert_int_equal(ds.dim, 3);
            kpca_dataset_free(&ds);
        } else {
            assert_int_equal(st, KPCA_EFORMAT);
            if (strstr(err.msg, "line 123: the first column holds class labels (integers, 10 classes) but for 2.5 here") ==
                NULL)
                fail_msg("%s", err.msg);
        }
    }
}

/* The rule is decided on the first KPCA_ESL_DECIDE_ROWS rows; a later row
 * that breaks it is an error naming its line, not a change of mind. */
static void test_esl_label_rule_decided(void **state)
{
    (void)state;
    char path[256];
    ensure_out();
    snprintf(path, sizeof path, TEST_OUT "/rule_late.txt");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int i = 0; i < KPCA_ESL_DECIDE_ROWS; i++)
        fprintf(f, "%d 0.%d 0.5\n", i % 10, i % 7);
    fprintf(f, "2.5 0.5 0.5\n");
    fclose(f);
    kpca_dataset ds;
    kpca_error err;
    assert_int_equal(kpca_dataset_read(path, NULL, &ds, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "line 10001: expected an integer label (as in the first column of the lines "
                                    "before), found '2.5'"));
    assert_null(ds.x);
}

static void test_esl_empty_and_blank(void **state)
{
    (void)state;
    char path[256];
    write_text("esl_empty.txt", "", path, sizeof path);
    expect_read_fail(path, KPCA_FMT_AUTO, KPCA_EFORMAT, 0);
    expect_read_fail(path, KPCA_FMT_ESL, KPCA_EFORMAT, 0);
    kpca_format f;
    kpca_error err;
    assert_int_equal(kpca_detect_format(path, &f, &err), KPCA_EFORMAT);

    write_text("esl_blank.txt", "\n  \n\r\n\t\n", path, sizeof path);
    expect_read_fail(path, KPCA_FMT_AUTO, KPCA_EFORMAT, 0);
    expect_read_fail(path, KPCA_FMT_ESL, KPCA_EFORMAT, 0);

    write_gz("esl_empty.txt.gz", "", path, sizeof path);
    expect_read_fail(path, KPCA_FMT_AUTO, KPCA_EFORMAT, 0);
    expect_read_fail(path, KPCA_FMT_ESL, KPCA_EFORMAT, 0);
}

static void test_esl_nul_byte(void **state)
{
    (void)state;
    char path[256];
    ensure_out();
    snprintf(path, sizeof path, OUT "esl_nul.txt");
    const unsigned char bytes[] = "1 0.5 0.5\n2 0.25 0.25\n3 0.5\0 0.5\n";
    tu_write_bytes(path, bytes, sizeof bytes - 1);
    expect_read_fail(path, KPCA_FMT_ESL, KPCA_EFORMAT, 3);
}

/* A gzip file of `rows` random ESL rows; returns the text's first row count. */
static void write_random_gz(const char *path, size_t rows, size_t dim)
{
    uint64_t s = 42;
    gzFile gz = gzopen(path, "wb");
    assert_non_null(gz);
    for (size_t i = 0; i < rows; i++) {
        gzprintf(gz, "%d", (int)(i % 10));
        for (size_t j = 0; j < dim; j++)
            gzprintf(gz, " %.4f", tu_rand(&s));
        gzprintf(gz, "\n");
    }
    assert_int_equal(gzclose(gz), Z_OK);
}

static void test_esl_truncated_gzip(void **state)
{
    (void)state;
    ensure_out();
    const char *full = OUT "esl_full.txt.gz";
    write_random_gz(full, 400, 64);
    kpca_dataset ds;
    kpca_error err;
    assert_int_equal(kpca_dataset_read(full, NULL, &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, 400);
    assert_int_equal(ds.dim, 64);
    kpca_dataset_free(&ds);

    size_t len;
    unsigned char *buf = tu_slurp(full, &len);
    assert_true(len > 1000);
    /* cut in the middle of the deflate data, just before the end of it, and
     * inside the 8-byte trailer (CRC and length) */
    const size_t cuts[] = {len / 2, len / 3, len - 12, len - 4, len - 1};
    for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
        const char *cut = OUT "esl_cut.txt.gz";
        tu_write_bytes(cut, buf, cuts[c]);
        kpca_error e2;
        kpca_error_clear(&e2);
        kpca_status st = kpca_dataset_read(cut, NULL, &ds, &e2);
        if (st != KPCA_EFORMAT)
            fail_msg("cut at %zu of %zu: status %d (%s)", cuts[c], len, (int)st, e2.msg);
        assert_null(ds.x);
        assert_msg_names(&e2, cut, 0);
        assert_non_null(strstr(e2.msg, "line"));
        assert_int_equal(kpca_read_esl(cut, 0, 0, &ds, &e2), KPCA_EFORMAT);
        assert_msg_names(&e2, cut, 0);
        assert_int_equal(kpca_read_esl(cut, 0, 0, &ds, NULL), KPCA_EFORMAT); /* same status without err */
    }
    /* a corrupted byte in the deflate data: CRC or inflate error */
    buf[len / 2] ^= 0x55;
    const char *bad = OUT "esl_corrupt.txt.gz";
    tu_write_bytes(bad, buf, len);
    assert_int_equal(kpca_dataset_read(bad, NULL, &ds, &err), KPCA_EFORMAT);
    assert_msg_names(&err, bad, 0);
    free(buf);
}

static void test_missing_file(void **state)
{
    (void)state;
    const char *path = OUT "no/such/file.txt";
    kpca_dataset ds;
    kpca_error err;
    assert_int_equal(kpca_dataset_read(path, NULL, &ds, &err), KPCA_EIO);
    assert_int_equal(err.code, KPCA_EIO);
    assert_msg_names(&err, path, 0);
    assert_int_equal(kpca_read_esl(path, 0, 0, &ds, &err), KPCA_EIO);
    assert_msg_names(&err, path, 0);
    assert_int_equal(kpca_read_libsvm(path, 0, &ds, &err), KPCA_EIO);
    assert_int_equal(kpca_read_hdf5(path, "/", 0, &ds, NULL, &err), KPCA_EIO);
    assert_msg_names(&err, path, 0);
    kpca_format f;
    assert_int_equal(kpca_detect_format(path, &f, &err), KPCA_EIO);
    kpca_read_opts o = {.format = KPCA_FMT_HDF5, .group = "test"};
    assert_int_equal(kpca_dataset_read(path, &o, &ds, &err), KPCA_EIO);
    /* NULL err is allowed */
    assert_int_equal(kpca_dataset_read(path, NULL, &ds, NULL), KPCA_EIO);
}

/* ---- LIBSVM ----------------------------------------------------------------- */

static void test_libsvm_good(void **state)
{
    (void)state;
    static const char text[] =
        "1 1:0.5 3:-1\r\n"
        "\n"
        "-1 2:0.25   \n"
        "2\n"                   /* no features: all zero */
        "3 1:1e-2 2:2 3:3 4:4"; /* last line without a line end */
    static const double want[4][4] = {{0.5, 0, -1, 0}, {0, 0.25, 0, 0}, {0, 0, 0, 0}, {0.01, 2, 3, 4}};
    static const int wy[4] = {1, -1, 2, 3};
    char plain[256], gz[256];
    write_text("svm_good.txt", text, plain, sizeof plain);
    write_gz("svm_good.txt.gz", text, gz, sizeof gz);
    const char *paths[2] = {plain, gz};
    for (int p = 0; p < 2; p++) {
        kpca_format f;
        kpca_error err;
        assert_int_equal(kpca_detect_format(paths[p], &f, &err), KPCA_OK);
        assert_int_equal(f, KPCA_FMT_LIBSVM);
        for (size_t given = 0; given <= 6; given += 6) { /* dim from the file, then dim 6 */
            kpca_read_opts o = {.format = KPCA_FMT_AUTO, .dim = given};
            kpca_dataset ds;
            kpca_status st = kpca_dataset_read(paths[p], &o, &ds, &err);
            if (st != KPCA_OK)
                fail_msg("%s: %s", paths[p], err.msg);
            size_t d = given ? given : 4;
            assert_int_equal(ds.n, 4);
            assert_int_equal(ds.dim, d);
            for (size_t i = 0; i < 4; i++) {
                assert_int_equal(ds.y[i], wy[i]);
                for (size_t j = 0; j < d; j++)
                    assert_true(ds.x[i * d + j] == (j < 4 ? want[i][j] : 0.0));
            }
            kpca_dataset_free(&ds);
        }
    }
}

/* A LIBSVM file whose first points have no index:value pair (all-zero
 * points) is still LIBSVM; a one-column ESL file stays ESL. */
static void test_libsvm_empty_first_rows(void **state)
{
    (void)state;
    kpca_error err;
    kpca_format f;
    const char *path = tu_write_file("svm_empty_first.svm", "3\n1\n1 1:0.5 3:2\n2 2:0.25\n");
    assert_int_equal(kpca_detect_format(path, &f, &err), KPCA_OK);
    assert_int_equal(f, KPCA_FMT_LIBSVM);
    kpca_dataset ds;
    assert_int_equal(kpca_dataset_read(path, NULL, &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, 4);
    assert_int_equal(ds.dim, 3);
    assert_true(ds.x[0] == 0.0 && ds.x[1] == 0.0 && ds.x[2] == 0.0);
    assert_true(ds.x[2 * 3 + 0] == 0.5 && ds.x[2 * 3 + 2] == 2.0);
    kpca_dataset_free(&ds);
    path = tu_write_file("esl_one_column.txt", "1 0.5\n2 0.25\n");
    assert_int_equal(kpca_detect_format(path, &f, &err), KPCA_OK);
    assert_int_equal(f, KPCA_FMT_ESL);
}

static void test_libsvm_bad(void **state)
{
    (void)state;
    static const bad_case cases[] = {
        {"svm_desc.txt", "1 1:1 2:1\n2 1:1\n1 3:1 2:1\n", 3},
        {"svm_dup.txt", "1 1:1 2:1\n2 1:1\n1 2:1 2:1\n", 3},
        {"svm_zero.txt", "1 1:1 2:1\n2 1:1\n1 0:1 2:1\n", 3},
        {"svm_nocolon.txt", "1 1:1 2:1\n2 1:1\n1 1:1 2\n", 3},
        {"svm_nocolon2.txt", "1 1:1 2:1\n2 1:1\n1 1:1 2=0.5\n", 3},
        {"svm_negidx.txt", "1 1:1 2:1\n2 1:1\n1 -1:1\n", 3},
        {"svm_badval.txt", "1 1:1 2:1\n2 1:1\n1 1:x\n", 3},
        {"svm_nanval.txt", "1 1:1 2:1\n2 1:1\n1 1:nan\n", 3},
        {"svm_noval.txt", "1 1:1 2:1\n2 1:1\n1 1: 2:1\n", 3},
        {"svm_label.txt", "1 1:1 2:1\n2 1:1\n0.5 1:1\n", 3},
        {"svm_hugeidx.txt", "1 1:1 2:1\n2 1:1\n1 99999999999999999999:1\n", 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[256];
        write_text(cases[i].name, cases[i].text, path, sizeof path);
        expect_read_fail(path, KPCA_FMT_LIBSVM, KPCA_EFORMAT, cases[i].line);
        expect_read_fail(path, KPCA_FMT_AUTO, KPCA_EFORMAT, cases[i].line);
    }
    /* index beyond the given dimension (fine without it) */
    char path[256];
    write_text("svm_beyond.txt", "1 1:1 2:1\n2 1:1\n1 1:1 5:1\n", path, sizeof path);
    kpca_read_opts o = {.format = KPCA_FMT_AUTO, .dim = 4};
    kpca_dataset ds;
    kpca_error err;
    assert_int_equal(kpca_dataset_read(path, &o, &ds, &err), KPCA_EFORMAT);
    assert_msg_names(&err, path, 3);
    assert_null(ds.x);
    assert_int_equal(kpca_read_libsvm(path, 4, &ds, &err), KPCA_EFORMAT);
    o.dim = 5;
    assert_int_equal(kpca_dataset_read(path, &o, &ds, &err), KPCA_OK);
    assert_int_equal(ds.dim, 5);
    assert_true(ds.x[2 * 5 + 4] == 1.0);
    kpca_dataset_free(&ds);
    o.dim = 0;
    assert_int_equal(kpca_dataset_read(path, &o, &ds, &err), KPCA_OK);
    assert_int_equal(ds.dim, 5);
    kpca_dataset_free(&ds);

    /* labels only, no features anywhere (forced LIBSVM) */
    write_text("svm_nofeat.txt", "1\n2\n", path, sizeof path);
    expect_read_fail(path, KPCA_FMT_LIBSVM, KPCA_EFORMAT, 0);
}

/* ---- transforms --------------------------------------------------------------- */

static void test_rescale_round_range(void **state)
{
    (void)state;
    kpca_dataset ds;
    kpca_error err;
    assert_int_equal(kpca_dataset_alloc(&ds, 2, 3, &err), KPCA_OK);
    for (size_t i = 0; i < 6; i++) {
        assert_true(ds.x[i] == 0.0);
    }
    const double v[6] = {0.0, 1.0, 0.5, 0.25, 0.0004, 0.99951};
    memcpy(ds.x, v, sizeof v);
    kpca_dataset_rescale(&ds, 0.0, 1.0);
    for (size_t i = 0; i < 6; i++)
        assert_true(fabs(ds.x[i] - (2.0 * v[i] - 1.0)) <= 1e-15);
    double lo, hi;
    kpca_dataset_range(&ds, &lo, &hi);
    assert_true(lo == -1.0 && hi == 1.0);
    kpca_dataset_round(&ds, 3);
    const double want[6] = {-1.0, 1.0, 0.0, -0.5, -0.999, 0.999};
    for (size_t i = 0; i < 6; i++) {
        assert_true(ds.x[i] == want[i]);
        assert_false(signbit(ds.x[i]) && ds.x[i] == 0.0); /* no negative zero */
    }
    kpca_dataset_free(&ds);
    kpca_dataset empty;
    assert_int_equal(kpca_dataset_alloc(&empty, 0, 3, &err), KPCA_OK);
    kpca_dataset_range(&empty, &lo, &hi);
    assert_true(lo == 0.0 && hi == 0.0);
    kpca_dataset_free(&empty);
}

static void test_select(void **state)
{
    (void)state;
    kpca_dataset ds, sub;
    kpca_error err;
    tu_random_dataset(&ds, 20, 4, 3, 7);
    const size_t idx[3] = {19, 0, 7};
    assert_int_equal(kpca_dataset_select(&ds, idx, 3, &sub, &err), KPCA_OK);
    assert_int_equal(sub.n, 3);
    assert_int_equal(sub.dim, 4);
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(sub.y[i], ds.y[idx[i]]);
        assert_memory_equal(sub.x + i * 4, ds.x + idx[i] * 4, 4 * sizeof(double));
    }
    kpca_dataset_free(&sub);
    const size_t bad[2] = {1, 20};
    assert_int_equal(kpca_dataset_select(&ds, bad, 2, &sub, &err), KPCA_EUSAGE);
    assert_null(sub.x);
    kpca_dataset_free(&ds);
}

static void test_subset_indices(void **state)
{
    (void)state;
    kpca_error err;
    size_t idx[1000], idx2[1000];
    const size_t n = 1000, m = 137;
    assert_int_equal(kpca_subset_indices(n, m, 0, idx, &err), KPCA_OK);
    for (size_t i = 0; i < m; i++)
        assert_int_equal(idx[i], i);

    for (uint64_t seed = 1; seed <= 20; seed++) {
        assert_int_equal(kpca_subset_indices(n, m, seed, idx, &err), KPCA_OK);
        for (size_t i = 0; i < m; i++) {
            assert_true(idx[i] < n);
            if (i > 0)
                assert_true(idx[i] > idx[i - 1]); /* ascending, hence distinct */
        }
        assert_int_equal(kpca_subset_indices(n, m, seed, idx2, &err), KPCA_OK);
        assert_memory_equal(idx, idx2, m * sizeof(size_t));
        assert_int_equal(kpca_subset_indices(n, m, seed + 1000, idx2, &err), KPCA_OK);
        assert_memory_not_equal(idx, idx2, m * sizeof(size_t));
        /* not just the first m rows */
        assert_true(idx[m - 1] > m - 1);
    }
    /* m == n: everything; m == 0: nothing */
    assert_int_equal(kpca_subset_indices(n, n, 99, idx, &err), KPCA_OK);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(idx[i], i);
    assert_int_equal(kpca_subset_indices(n, 0, 99, idx, &err), KPCA_OK);
    /* too many */
    assert_int_equal(kpca_subset_indices(10, 11, 0, idx, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_subset_indices(10, 11, 5, idx, &err), KPCA_EUSAGE);
    assert_true(err.msg[0] != '\0');

    /* uniformity: over many seeds each of 20 rows is drawn about m/n of the time */
    enum { N = 20, M = 5, SEEDS = 4000 };
    long count[N] = {0};
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        assert_int_equal(kpca_subset_indices(N, M, seed, idx, &err), KPCA_OK);
        for (size_t i = 0; i < M; i++)
            count[idx[i]]++;
    }
    /* expected 1000 each, sd about 27 */
    for (size_t i = 0; i < N; i++)
        if (count[i] < 850 || count[i] > 1150)
            fail_msg("row %zu drawn %ld times of %d (expected about 1000)", i, count[i], SEEDS);
}

static void test_format_names(void **state)
{
    (void)state;
    const char *names[] = {"esl", "libsvm", "hdf5", "csv"};
    const kpca_format fmts[] = {KPCA_FMT_ESL, KPCA_FMT_LIBSVM, KPCA_FMT_HDF5, KPCA_FMT_CSV};
    for (size_t i = 0; i < 4; i++) {
        kpca_format f;
        assert_int_equal(kpca_format_parse(names[i], &f), 0);
        assert_int_equal(f, fmts[i]);
        assert_string_equal(kpca_format_name(fmts[i]), names[i]);
    }
    kpca_format f;
    assert_int_equal(kpca_format_parse("h5", &f), 0);
    assert_int_equal(f, KPCA_FMT_HDF5);
    assert_int_equal(kpca_format_parse("xml", &f), -1);
    assert_null(kpca_format_name((kpca_format)99));
}

int main(void)
{
    ensure_out();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_esl_good_plain_and_gzip),
        cmocka_unit_test(test_esl_skip_rows),
        cmocka_unit_test(test_esl_long_lines),
        cmocka_unit_test(test_esl_bad_files),
        cmocka_unit_test(test_esl_label_rule),
        cmocka_unit_test(test_esl_label_rule_decided),
        cmocka_unit_test(test_esl_empty_and_blank),
        cmocka_unit_test(test_esl_nul_byte),
        cmocka_unit_test(test_esl_values_as_strtod),
        cmocka_unit_test(test_esl_truncated_gzip),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_libsvm_good),
        cmocka_unit_test(test_libsvm_bad),
        cmocka_unit_test(test_libsvm_empty_first_rows),
        cmocka_unit_test(test_rescale_round_range),
        cmocka_unit_test(test_select),
        cmocka_unit_test(test_subset_indices),
        cmocka_unit_test(test_format_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

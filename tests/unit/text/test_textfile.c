/* test_textfile.c - the bytes of a text file (text/textfile.h): the whole
 * read in parts, and every check's message, written once: cannot open,
 * damaged gzip (with and without the line), a wide encoding, a NUL byte on
 * its line, the byte-order mark dropped; the rows of whitespace text
 * counted without parsing them, as the ESL reader reads them. */
#include "testutil.h"

#include <sys/stat.h>
#include <zlib.h>

#include <dirent.h>

#include "lib/io/dataset.h"
#include "lib/text/bytes.h"
#include "lib/text/textfile.h"
#include "lib/text/textnum.h"

static void expect_msg(const kpca_error *err, const char *a, const char *b)
{
    if (strstr(err->msg, a) == NULL || (b != NULL && strstr(err->msg, b) == NULL))
        fail_msg("expected '%s' and '%s' in: %s", a, b != NULL ? b : "", err->msg);
}

/* A plain file of 8 MiB and more is read by several threads, each into its
 * own stretch of the buffer: the bytes are the file's, and a NUL byte in a
 * late stretch is found on its line. */
static void test_read_text_parts(void **state)
{
    (void)state;
    const size_t size = ((size_t)9 << 20) + 12345;
    char *text = malloc(size + 1);
    assert_non_null(text);
    size_t lines = 1;
    for (size_t i = 0; i < size; i++) {
        text[i] = i % 97 == 96 ? '\n' : (char)('0' + (i * 7919) % 10);
        lines += text[i] == '\n';
    }
    text[size] = '\0';
    FILE *f = fopen(TEST_OUT "/parts.txt", "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, size, f), size);
    fclose(f);
    char *buf = NULL;
    size_t len = 0;
    kpca_error err;
    assert_int_equal(kpca_read_text_file(TEST_OUT "/parts.txt", &buf, &len, &err), KPCA_OK);
    assert_int_equal(len, size);
    assert_memory_equal(buf, text, size + 1);
    kpca_free(buf);
    /* a NUL byte in the last stretch, on its line */
    size_t at = size - 1000;
    size_t line = 1;
    for (size_t i = 0; i < at; i++)
        line += text[i] == '\n';
    text[at] = '\0';
    f = fopen(TEST_OUT "/parts.txt", "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, size, f), size);
    fclose(f);
    assert_int_equal(kpca_read_text_file(TEST_OUT "/parts.txt", &buf, &len, &err), KPCA_EFORMAT);
    assert_null(buf);
    char want[64];
    snprintf(want, sizeof want, "line %zu: contains a NUL byte", line);
    if (strstr(err.msg, want) == NULL)
        fail_msg("expected '%s' in: %s", want, err.msg);
    free(text);
}

/* A gzip file cut short: the whole read and a chunked reader name it,
 * the reader with the line it was near. */
static void test_gzip_damage(void **state)
{
    (void)state;
    gzFile w = gzopen(TEST_OUT "/cut.txt.gz", "wb");
    assert_non_null(w);
    for (int i = 0; i < 20000; i++)
        gzprintf(w, "%d %d.5 line of text\n", i, i * 7);
    gzclose(w);
    FILE *f = fopen(TEST_OUT "/cut.txt.gz", "rb");
    assert_non_null(f);
    static char z[1 << 20];
    size_t n = fread(z, 1, sizeof z, f);
    fclose(f);
    f = fopen(TEST_OUT "/cut.txt.gz", "wb");
    assert_int_equal(fwrite(z, 1, n / 2, f), n / 2);
    fclose(f);
    char *buf = NULL;
    size_t len = 0;
    kpca_error err;
    assert_int_equal(kpca_read_text_file(TEST_OUT "/cut.txt.gz", &buf, &len, &err), KPCA_EFORMAT);
    assert_null(buf);
    expect_msg(&err, "'" TEST_OUT "/cut.txt.gz': corrupt or truncated gzip data (", NULL);
    kpca_bytes *gz;
    assert_int_equal(kpca_bytes_open(TEST_OUT "/cut.txt.gz", &gz, &err), KPCA_OK);
    static char chunk[4096];
    size_t got = 1;
    kpca_status st = KPCA_OK;
    while (st == KPCA_OK && got > 0)
        st = kpca_bytes_read(gz, chunk, sizeof chunk, 77, &got, &err);
    kpca_bytes_close(gz);
    assert_int_equal(st, KPCA_EFORMAT);
    expect_msg(&err, "'" TEST_OUT "/cut.txt.gz' near line 77: corrupt or truncated gzip data (", NULL);
}

static void test_checks(void **state)
{
    (void)state;
    kpca_error err;
    kpca_bytes *gz;
    assert_int_equal(kpca_bytes_open(TEST_OUT "/no-such-file.txt", &gz, &err), KPCA_EIO);
    expect_msg(&err, "cannot open '" TEST_OUT "/no-such-file.txt': ", "No such file");
    /* the byte-order mark, and a wide encoding */
    size_t bom = 9;
    assert_int_equal(kpca_textfile_head("t", "\xEF\xBB\xBF" "1,2\n", 7, &bom, &err), KPCA_OK);
    assert_int_equal(bom, 3);
    assert_int_equal(kpca_textfile_head("t", "1,2\n", 4, &bom, &err), KPCA_OK);
    assert_int_equal(bom, 0);
    static const char u16[] = {'\xFF', '\xFE', '1', 0, ',', 0, '2', 0, '\n', 0};
    assert_int_equal(kpca_textfile_head("w.csv", u16, sizeof u16, &bom, &err), KPCA_EFORMAT);
    expect_msg(&err, "'w.csv' is UTF-16LE text", "iconv");
    /* a NUL byte: the line counted from the given one; none before `from` looked at */
    static const char t[] = "a\nb\nc\0d\n";
    assert_int_equal(kpca_textfile_nul("n.txt", t, 0, sizeof t - 1, 1, &err), KPCA_EFORMAT);
    expect_msg(&err, "'n.txt' line 3: contains a NUL byte (binary data?)", NULL);
    assert_int_equal(kpca_textfile_nul("n.txt", t, 0, sizeof t - 1, 10, &err), KPCA_EFORMAT);
    expect_msg(&err, "line 12: contains a NUL byte", NULL);
    assert_int_equal(kpca_textfile_nul("n.txt", t, 6, sizeof t - 1, 1, &err), KPCA_OK);
    assert_int_equal(kpca_textfile_nul("n.txt", t, 0, 5, 1, &err), KPCA_OK);
    /* the whole read drops the mark */
    FILE *f = fopen(TEST_OUT "/bom.txt", "wb");
    fputs("\xEF\xBB\xBF" "1 2\n", f);
    fclose(f);
    char *buf;
    size_t len;
    assert_int_equal(kpca_read_text_file(TEST_OUT "/bom.txt", &buf, &len, &err), KPCA_OK);
    assert_int_equal(len, 4);
    assert_string_equal(buf, "1 2\n");
    kpca_free(buf);
}

static size_t count_skip(const char *name, const char *text, size_t len, size_t skip)
{
    char path[256];
    snprintf(path, sizeof path, TEST_OUT "/%s", name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    fclose(f);
    size_t n = 99;
    kpca_error err;
    if (kpca_textfile_count_rows(path, skip, &n, &err) != KPCA_OK)
        fail_msg("%s: %s", path, err.msg);
    return n;
}

static size_t count_of(const char *name, const char *text, size_t len)
{
    return count_skip(name, text, len, 0);
}

/* Lines with a byte that is no blank: blank lines, CRLF, a last line
 * without its end, a BOM alone on the first line, lines across the 1 MiB
 * stretches, gzip; and on every file of the text corpus that the ESL
 * reader reads, its row count. */
static void test_count_rows(void **state)
{
    (void)state;
    const char *t = "1 2\n\n  \n3 4\r\n\t\n\r\n5 6";
    assert_int_equal(count_of("cr1.txt", t, strlen(t)), 3);
    /* --skip-rows: the first lines, blank or not, are none of the rows */
    assert_int_equal(count_skip("cr1.txt", t, strlen(t), 1), 2);
    assert_int_equal(count_skip("cr1.txt", t, strlen(t), 3), 2);
    assert_int_equal(count_skip("cr1.txt", t, strlen(t), 4), 1);
    assert_int_equal(count_skip("cr1.txt", t, strlen(t), 7), 0);
    assert_int_equal(count_skip("cr1.txt", t, strlen(t), 99), 0);
    t = "\xef\xbb\xbf\n1 2\n \n";
    assert_int_equal(count_of("cr2.txt", t, strlen(t)), 1);
    assert_int_equal(count_of("cr3.txt", "", 0), 0);
    const size_t big = ((size_t)1 << 20) + 7;
    char *b = malloc(big + 3);
    assert_non_null(b);
    memset(b, ' ', big);
    memcpy(b + big, "7\n", 2); /* blanks across the stretches, then a value */
    assert_int_equal(count_of("cr4.txt", b, big + 2), 1);
    b[big] = '\n'; /* blanks only */
    assert_int_equal(count_of("cr5.txt", b, big + 1), 0);
    b[(size_t)1 << 20] = '\n'; /* a line end right at a stretch's start */
    b[3] = 'x';
    b[big] = 'y';
    assert_int_equal(count_of("cr6.txt", b, big + 1), 2);
    assert_int_equal(count_skip("cr6.txt", b, big + 1, 1), 1); /* the skipped line spans the stretches */
    free(b);
    gzFile gz = gzopen(TEST_OUT "/cr7.txt.gz", "wb");
    assert_non_null(gz);
    gzputs(gz, "1 2\n\n3 4\n");
    gzclose(gz);
    size_t n;
    kpca_error err;
    assert_int_equal(kpca_textfile_count_rows(TEST_OUT "/cr7.txt.gz", 0, &n, &err), KPCA_OK);
    assert_int_equal(n, 2);
    assert_int_equal(kpca_textfile_count_rows(TEST_OUT "/no-such-file.txt", 0, &n, &err), KPCA_EIO);
    DIR *d = opendir("tests/fuzz/corpus/text");
    assert_non_null(d);
    size_t compared = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char path[1024];
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "tests/fuzz/corpus/text/%s", e->d_name);
        kpca_dataset ds;
        kpca_read_opts o = {.format = KPCA_FMT_ESL};
        if (kpca_dataset_read(path, &o, &ds, &err) != KPCA_OK)
            continue;
        assert_int_equal(kpca_textfile_count_rows(path, 0, &n, &err), KPCA_OK);
        if (n != ds.n)
            fail_msg("%s: %zu rows counted, %zu read", path, n, ds.n);
        kpca_dataset_free(&ds);
        compared++;
    }
    closedir(d);
    print_message("rows counted as the ESL reader reads them: %zu corpus files\n", compared);
    assert_true(compared >= 50); /* the corpus is there */
}

/* UTF-8 as RFC 3629 has it: overlong forms, surrogates and code points
 * past U+10FFFF are not; a message shows the bytes that are not ASCII */
static void test_utf8(void **state)
{
    (void)state;
    static const char *const good[] = {"", "abc", "caf\xc3\xa9", "\xe6\x97\xa5", "\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf"};
    static const char *const bad[] = {"\xe9", "caf\xe9", "\xc3", "\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80",
                                      "\xf4\x90\x80\x80", "\x80", "\xf8\x88\x80\x80\x80", "\xc3\xa9\xff"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        if (!kpca_text_utf8(good[i]))
            fail_msg("good[%zu] refused", i);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (kpca_text_utf8(bad[i]))
            fail_msg("bad[%zu] taken", i);
    char out[64];
    kpca_text_escape("caf\xe9\tx", out, sizeof out);
    assert_string_equal(out, "caf\\xE9\\x09x");
    kpca_error err;
    assert_int_equal(kpca_text_utf8_fail("f.csv", 3, 2, "class name", "caf\xe9", &err), KPCA_EFORMAT);
    expect_msg(&err, "'f.csv' line 3, column 2: the class name 'caf\\xE9' is not UTF-8", "iconv -f latin1");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_text_parts),
        cmocka_unit_test(test_gzip_damage),
        cmocka_unit_test(test_checks),
        cmocka_unit_test(test_count_rows),
        cmocka_unit_test(test_utf8),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

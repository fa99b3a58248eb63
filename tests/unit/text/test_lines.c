/* test_lines.c - the lines of a text file (text/lines.h): line ends LF
 * and CRLF, a last line without one, the byte-order mark dropped; where
 * each line starts (kpca_lines_tell), read again from there
 * (kpca_lines_jump) with its number, up to a byte, in a plain file and in
 * gzip. */
#include "testutil.h"

#include <zlib.h>

#include "lib/text/lines.h"

static const char text[] = "\xEF\xBB\xBF"
                           "1 2\r\n"
                           "3 4\n"
                           "\n"
                           "5 6";
static const char *const want[] = {"1 2", "3 4", "", "5 6"};

static void write_file(const char *path, int gzip)
{
    if (gzip) {
        gzFile g = gzopen(path, "wb");
        assert_non_null(g);
        assert_int_equal(gzwrite(g, text, sizeof text - 1), (int)(sizeof text - 1));
        gzclose(g);
        return;
    }
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, sizeof text - 1, f), sizeof text - 1);
    fclose(f);
}

static void lines_of(const char *path)
{
    kpca_lines lr;
    kpca_error err;
    unsigned long long at[4];
    assert_int_equal(kpca_lines_open(&lr, path, &err), KPCA_OK);
    for (size_t i = 0; i < 4; i++) {
        at[i] = kpca_lines_tell(&lr);
        assert_int_equal(kpca_lines_next(&lr, &err), 1);
        assert_string_equal(lr.line, want[i]);
        assert_int_equal(lr.lineno, i + 1);
    }
    assert_int_equal(kpca_lines_next(&lr, &err), 0);
    /* the first line starts at byte 0 (the mark is part of it); the others
     * after the line ends before them */
    assert_int_equal(at[0], 0);
    assert_int_equal(at[1], 3 + 5);
    assert_int_equal(at[2], 3 + 5 + 4);
    assert_int_equal(at[3], 3 + 5 + 4 + 1);
    /* read again from line 2's start, with line 2's number, to the end */
    assert_int_equal(kpca_lines_jump(&lr, at[1], 2, 0, &err), KPCA_OK);
    for (size_t i = 1; i < 4; i++) {
        assert_int_equal(kpca_lines_next(&lr, &err), 1);
        assert_string_equal(lr.line, want[i]);
        assert_int_equal(lr.lineno, i + 1);
    }
    assert_int_equal(kpca_lines_next(&lr, &err), 0);
    /* up to the start of line 4: lines 2 and 3 only */
    assert_int_equal(kpca_lines_jump(&lr, at[1], 2, at[3], &err), KPCA_OK);
    assert_int_equal(kpca_lines_next(&lr, &err), 1);
    assert_string_equal(lr.line, "3 4");
    assert_int_equal(kpca_lines_next(&lr, &err), 1);
    assert_string_equal(lr.line, "");
    assert_int_equal(kpca_lines_next(&lr, &err), 0);
    /* and back to the start: the mark dropped again */
    assert_int_equal(kpca_lines_jump(&lr, 0, 1, 0, &err), KPCA_OK);
    assert_int_equal(kpca_lines_next(&lr, &err), 1);
    assert_string_equal(lr.line, "1 2");
    kpca_lines_close(&lr);
}

static void test_plain(void **state)
{
    (void)state;
    write_file(TEST_OUT "/lines.txt", 0);
    lines_of(TEST_OUT "/lines.txt");
}

static void test_gzip(void **state)
{
    (void)state;
    write_file(TEST_OUT "/lines.txt.gz", 1);
    lines_of(TEST_OUT "/lines.txt.gz");
}

/* a NUL byte is refused on its line, after a jump too */
static void test_nul(void **state)
{
    (void)state;
    FILE *f = fopen(TEST_OUT "/lines_nul.txt", "wb");
    assert_non_null(f);
    fwrite("1\n2\n3\0\n", 1, 7, f);
    fclose(f);
    kpca_lines lr;
    kpca_error err;
    assert_int_equal(kpca_lines_open(&lr, TEST_OUT "/lines_nul.txt", &err), KPCA_OK);
    assert_int_equal(kpca_lines_jump(&lr, 2, 2, 0, &err), KPCA_OK);
    assert_int_equal(kpca_lines_next(&lr, &err), 1);
    assert_int_equal(kpca_lines_next(&lr, &err), -1);
    assert_int_equal(lr.status, KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "line 3: contains a NUL byte"));
    kpca_lines_close(&lr);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain),
        cmocka_unit_test(test_gzip),
        cmocka_unit_test(test_nul),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* io_fixture.h - what the reader tests share: small files written to
 * tests/out/ (plain and gzip), a failed read's message checked for the file
 * and line, and one good ESL file with its values. */
#ifndef KPCA_TEST_IO_FIXTURE_H
#define KPCA_TEST_IO_FIXTURE_H

#include <sys/stat.h>
#include <zlib.h>

#define OUT TEST_OUT "/"


static inline void ensure_out(void)
{
}

/* Writes text to tests/out/NAME and copies the path into path (cap bytes). */
static inline void write_text(const char *name, const char *text, char *path, size_t cap)
{
    const char *p = tu_write_file(name, text);
    snprintf(path, cap, "%s", p);
}

/* Writes text gzip-compressed (zlib gzwrite) to tests/out/NAME. */
static inline void write_gz(const char *name, const char *text, char *path, size_t cap)
{
    ensure_out();
    snprintf(path, cap, OUT "%s", name);
    gzFile gz = gzopen(path, "wb");
    assert_non_null(gz);
    size_t len = strlen(text);
    assert_int_equal(gzwrite(gz, text, (unsigned)len), (int)len);
    assert_int_equal(gzclose(gz), Z_OK);
}

/* Asserts the message names the file and (if line > 0) "line N". */
static inline void assert_msg_names(const kpca_error *err, const char *path, int line)
{
    if (strstr(err->msg, path) == NULL)
        fail_msg("message does not name '%s': %s", path, err->msg);
    if (line > 0) {
        char want[32];
        snprintf(want, sizeof want, "line %d", line);
        const char *hit = strstr(err->msg, want);
        /* "line 3" must not be the prefix of "line 30" */
        if (hit == NULL || (hit[strlen(want)] >= '0' && hit[strlen(want)] <= '9'))
            fail_msg("message does not name %s: %s", want, err->msg);
    }
    assert_true(err->msg[0] != '\0');
}

/* Reads path with format auto-detection and expects failure `code`. */
static inline void expect_read_fail(const char *path, kpca_format fmt, kpca_status code, int line)
{
    kpca_read_opts o = {.format = fmt};
    kpca_dataset ds;
    kpca_error err;
    kpca_error_clear(&err);
    kpca_status st = kpca_dataset_read(path, &o, &ds, &err);
    if (st != code)
        fail_msg("'%s': status %d, expected %d (%s)", path, (int)st, (int)code, err.msg);
    assert_int_equal(err.code, code);
    assert_null(ds.x);
    assert_null(ds.y);
    assert_int_equal(ds.n, 0);
    assert_msg_names(&err, path, line);
}

static const char good_esl[] =
    "3 0.5 -0.25 1\n"
    "\n"
    "2 1e-3 -1.0000 0\r\n"
    "   \t \r\n"
    "7.000 -0.5 0.125 2.5   \t\n"
    "0 0 0 -0\r\n"
    "\r\n"
    "1 9 8 7"; /* last line without a line end */

static const double good_x[5][3] = {
    {0.5, -0.25, 1}, {1e-3, -1, 0}, {-0.5, 0.125, 2.5}, {0, 0, 0}, {9, 8, 7}};
static const int good_y[5] = {3, 2, 7, 0, 1};

static inline void check_good(const kpca_dataset *ds)
{
    assert_int_equal(ds->n, 5);
    assert_int_equal(ds->dim, 3);
    for (size_t i = 0; i < 5; i++) {
        assert_int_equal(ds->y[i], good_y[i]);
        for (size_t j = 0; j < 3; j++)
            assert_true(ds->x[i * 3 + j] == good_x[i][j]);
    }
}

#endif

/* test_csvwin.c - the row source's windows of delimited text (io/csvwin.h)
 * with their fast path (io/csvpart.h: kpca_csv_fastwin_next) against the
 * same windows read by the row reader alone: the same rows bit for bit,
 * the same labels on the same lines, the same error and message, the same
 * end, for windows and parts cut small so that rows, long rows and line
 * ends fall on every kind of boundary; and the fast path taken where it
 * should be (a plain file), and not where it should not (gzip). */
#include "testutil.h"

#include <limits.h>
#include <stdint.h>

#include "io_fixture.h"
#include "lib/io/csvwin.h"

/* What a pass over the windows gave. */
typedef struct {
    kpca_status st;
    char msg[KPCA_ERRMSG_MAX];
    size_t rows, dim;
    uint64_t hash;        /* of every value, bit for bit, in order */
    char labels[1 << 16]; /* "line:label\n" for each row's label, in order (truncated) */
    size_t lablen;
    unsigned long long tell, fast_rows;
    size_t line;
    size_t head_rows; /* the rows of the first window, which holds the first row (the row reader's) */
} pass;

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211u;
    return h;
}

/* One pass over path's windows; fast 0: the row reader alone.  jump/limit
 * (0: none): from byte `jump`, a row's start on line `jline` after
 * `jbefore` rows, to byte `limit`.  scan: labels and the index only. */
typedef struct {
    int fast, scan;
    size_t span, part, parts, stretch;
    unsigned long long jump, limit;
    size_t jline, jbefore;
    const kpca_read_opts *opts;
} how;

static void read_pass(const char *path, const how *h, pass *out)
{
    memset(out, 0, sizeof *out);
    out->hash = 14695981039346656037u;
    csv_win w;
    kpca_error err;
    kpca_error_clear(&err);
    kpca_status st = kpca_csv_win_open(&w, path, 0, h->opts, &err);
    if (st == KPCA_OK) {
        w.scan = h->scan;
        w.fast_off = !h->fast;
        w.span = h->span;
        w.fast_part = h->part;
        w.fast_parts = h->parts;
        w.fast.stretch = h->stretch;
        if (h->jump != 0)
            st = kpca_csv_win_jump(&w, h->jump, h->jline, h->jbefore, &err);
        if (st == KPCA_OK && h->limit != 0)
            kpca_csv_win_limit(&w, h->limit);
        w.fast_off = !h->fast; /* (a jump tries the fast path again) */
    }
    int more = 1, head = st == KPCA_OK && w.have;
    while (st == KPCA_OK && (st = kpca_csv_win_next(&w, &more, &err)) == KPCA_OK && more && w.R.n > 0) {
        out->dim = w.R.dim;
        out->head_rows = head ? w.R.n : out->head_rows;
        head = 0;
        for (size_t i = 0; i < w.R.n; i++) {
            if (!h->scan)
                out->hash = mix(out->hash, w.R.x + i * w.R.dim, w.R.dim * sizeof(double));
            else if (w.R.index != NO_COLUMN)
                out->hash = mix(out->hash, w.R.x + i * w.R.dim + w.R.index, sizeof(double));
            if (w.R.col != NO_COLUMN && out->lablen + 64 < sizeof out->labels)
                out->lablen += (size_t)snprintf(out->labels + out->lablen, sizeof out->labels - out->lablen,
                                                "%zu:%s\n", w.R.labline[i], w.R.labtok[i]);
        }
        out->rows += w.R.n;
    }
    out->st = st;
    snprintf(out->msg, sizeof out->msg, "%s", st != KPCA_OK ? err.msg : "");
    out->tell = kpca_csv_win_tell(&w);
    out->line = w.s.line;
    out->fast_rows = w.fast_rows;
    kpca_csv_win_close(&w);
}

/* The fast path's pass equals the row reader's, for each way of cutting
 * (windows of 1000 bytes in parts of 100 on 2, 3 and 8 threads; 64 KiB in
 * 16 KiB parts), the labels' pass reading 7 bytes at a time in one and
 * 1000 in another (rows read on past many reads, their starts moved);
 * returns the fewest rows the fast path took.  all: every row after the
 * first window is the fast path's (a file it takes whole). */
static unsigned long long same_passes(const char *path, how h, int all)
{
    static pass slow, fast; /* (large: not on the stack) */
    h.fast = 0;
    h.span = 1000;
    h.part = 100;
    read_pass(path, &h, &slow);
    assert_int_equal(slow.fast_rows, 0);
    static const size_t cut[][4] = {{1000, 100, 2, 0}, {1000, 100, 3, 7}, {1000, 100, 8, 0}, {65536, 16384, 0, 1000}};
    unsigned long long took = ULLONG_MAX;
    for (size_t c = 0; c < sizeof cut / sizeof cut[0]; c++) {
        h.fast = 1;
        h.span = cut[c][0];
        h.part = cut[c][1];
        h.parts = cut[c][2];
        h.stretch = cut[c][3];
        read_pass(path, &h, &fast);
        if (fast.st != slow.st || strcmp(fast.msg, slow.msg) != 0)
            fail_msg("'%s' cut %zu/%zu/%zu/%zu: status %d '%s', the row reader's %d '%s'", path, h.span, h.part, h.parts, h.stretch,
                     fast.st, fast.msg, slow.st, slow.msg);
        if (slow.st != KPCA_OK) /* (the rows before the error come in other windows) */
            continue;
        assert_int_equal(fast.rows, slow.rows);
        assert_true(fast.hash == slow.hash);
        assert_string_equal(fast.labels, slow.labels);
        assert_int_equal(fast.tell, slow.tell);
        assert_int_equal(fast.line, slow.line);
        if (all && fast.fast_rows != fast.rows - fast.head_rows)
            fail_msg("'%s' cut %zu/%zu/%zu: the fast path took %llu of the %zu rows after the first window", path,
                     h.span, h.part, h.parts, fast.fast_rows, fast.rows - fast.head_rows);
        took = fast.fast_rows < took ? fast.fast_rows : took;
    }
    return took;
}

/* rows of "label,v1,v2,v3": names, CRLF on some lines, every 37th row
 * with a value of 3000 digits (a row across many parts); `extra` (may be
 * NULL) called for each row to write it differently */
typedef int (*row_fn)(FILE *f, int i);

static const char *write_rows(const char *name, int rows, int trailing_nl, row_fn extra)
{
    static char path[512];
    snprintf(path, sizeof path, OUT "%s", name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fprintf(f, "label,a,b,c\n");
    for (int i = 0; i < rows; i++) {
        if (extra != NULL && extra(f, i))
            continue;
        const char *lab = i % 3 == 0 ? "cat" : i % 3 == 1 ? "dog" : "emu";
        if (i % 37 == 5) {
            fprintf(f, "%s,%d.", lab, i);
            for (int k = 0; k < 3000; k++)
                fputc('0' + k % 10, f);
            fprintf(f, ",1,2");
        } else {
            fprintf(f, "%s,%.17g,%d,%.3e", lab, i * 0.37 - 100, -i, i * 1e-7);
        }
        if (i + 1 < rows || trailing_nl)
            fputs(i % 5 == 2 ? "\r\n" : "\n", f);
    }
    fclose(f);
    return path;
}

static int blank_lines(FILE *f, int i)
{
    if (i == 700 || i == 701)
        fputs("\n", f);
    return 0;
}

static int quoted(FILE *f, int i)
{
    if (i == 500) {
        fputs("\"a,b\",1,2,3\n", f);
        return 1;
    }
    if (i == 900) {
        fputs("\"line\nbreak\",4,5,6\n", f);
        return 1;
    }
    if (i == 1200 || i == 1500) { /* quoted, and its fields count right: unquoted by the row reader */
        fputs(i == 1200 ? "\"emu\",7,8,9\n" : "gnu,\"7\",8,9\n", f);
        return 1;
    }
    return 0;
}

static int bad_number(FILE *f, int i)
{
    if (i == 1100) {
        fputs("cat,1,x2,3\n", f);
        return 1;
    }
    return 0;
}

static int ragged(FILE *f, int i)
{
    if (i == 1300) {
        fputs("cat,1,2\n", f);
        return 1;
    }
    return 0;
}

static int nul_byte(FILE *f, int i)
{
    if (i == 1200) {
        fputs("cat,1,", f);
        fputc('\0', f);
        fputs("2,3\n", f);
        return 1;
    }
    return 0;
}

static int blank_run(FILE *f, int i)
{
    if (i == 1000)
        for (int k = 0; k < 3000; k++)
            fputs(k % 2 ? "\n" : "  \r\n", f);
    return 0;
}

static int numeric_labels(FILE *f, int i)
{
    fprintf(f, "%d,%d,%d,%d\n", i % 4, i, 2 * i, 3 * i);
    return 1;
}

static void test_plain(void **state)
{
    (void)state;
    how h = {0};
    /* clean text, with a last line end and without */
    same_passes(write_rows("cw_clean.csv", 2000, 1, NULL), h, 1);
    same_passes(write_rows("cw_clean_end.csv", 2000, 0, NULL), h, 1);
    same_passes(write_rows("cw_ints.csv", 3000, 1, numeric_labels), h, 1);
    /* the labels' pass */
    h.scan = 1;
    same_passes(write_rows("cw_clean.csv", 2000, 1, NULL), h, 1);
}

static void test_stops(void **state)
{
    (void)state;
    how h = {0};
    /* rows the fast path does not take: it stops there, the row reader
     * reads on, and the fast path takes the rows after it again */
    unsigned long long took = same_passes(write_rows("cw_blank.csv", 2000, 1, blank_lines), h, 0);
    assert_true(took > 1000);
    assert_true(same_passes(write_rows("cw_quoted.csv", 2000, 1, quoted), h, 0) > 100);
    /* a run of blank lines longer than a window: passed over, not the end */
    static pass run;
    const char *runs = write_rows("cw_blank_run.csv", 2000, 1, blank_run);
    same_passes(runs, h, 0);
    how all = {.fast = 1, .span = 1000, .part = 100};
    read_pass(runs, &all, &run);
    assert_int_equal(run.st, KPCA_OK);
    assert_int_equal(run.rows, 2000);
    all.fast = 0;
    read_pass(runs, &all, &run);
    assert_int_equal(run.rows, 2000);
    /* blank lines, CRLF and blanks after the last row */
    const char *tail = write_rows("cw_tail.csv", 2000, 1, NULL);
    FILE *f = fopen(tail, "ab");
    assert_non_null(f);
    fputs("\r\n\n  \n\r\n", f);
    fclose(f);
    assert_true(same_passes(tail, h, 0) > 1000);
    h.scan = 1;
    assert_true(same_passes(write_rows("cw_quoted.csv", 2000, 1, quoted), h, 0) > 100);
    h.scan = 0;
    /* errors: the row reader's, message and line */
    same_passes(write_rows("cw_badnum.csv", 2000, 1, bad_number), h, 0);
    same_passes(write_rows("cw_ragged.csv", 2000, 1, ragged), h, 0);
    same_passes(write_rows("cw_nul.csv", 2000, 1, nul_byte), h, 0);
    h.scan = 1;
    same_passes(write_rows("cw_ragged.csv", 2000, 1, ragged), h, 0);
    same_passes(write_rows("cw_nul.csv", 2000, 1, nul_byte), h, 0);
}

/* the read options through the fast windows: a preamble skipped, decimal
 * commas between semicolons, columns left out and reordered, a label
 * column by name, a pandas index, no header */
static void test_options(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, OUT "cw_opts.csv");
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs("# made by hand\n# units: none\nid;x,1;kind;y\n", f);
    for (int i = 0; i < 3000; i++)
        fprintf(f, "%d;%d,%03d;%s;-%d,5\n", i, i, i % 1000, i % 2 ? "odd" : "even", i);
    fclose(f);
    how h = {.opts = &(kpca_read_opts){.skip_rows = 2, .decimal = ',', .label = "kind", .drop = "id"}};
    same_passes(path, h, 1);
    h.opts = &(kpca_read_opts){.skip_rows = 2, .decimal = ',', .label = "kind", .columns = "4,2"};
    same_passes(path, h, 1);
    h.scan = 1;
    same_passes(path, h, 1);
    /* pandas: an unnamed first column of row numbers */
    snprintf(path, sizeof path, OUT "cw_index.csv");
    f = fopen(path, "wb");
    assert_non_null(f);
    fputs(",a,b,label\n", f);
    for (int i = 0; i < 3000; i++)
        fprintf(f, "%d,%g,%g,%c\n", i, i * 0.5, -i * 0.25, 'p' + i % 3);
    fclose(f);
    h = (how){0};
    same_passes(path, h, 1);
    h.scan = 1;
    same_passes(path, h, 1);
    /* no header: the first row is data, the row reader's first window */
    snprintf(path, sizeof path, OUT "cw_noheader.csv");
    f = fopen(path, "wb");
    assert_non_null(f);
    for (int i = 0; i < 3000; i++)
        fprintf(f, "%d,%d,%d\n", i % 5, i, 3 * i);
    fclose(f);
    h = (how){.opts = &(kpca_read_opts){.label = "first"}};
    same_passes(path, h, 1);
}

static void test_jump_limit(void **state)
{
    (void)state;
    /* a part of the file (kpca-mpi's): from a row's start to a byte within
     * a later row (read as the text's last), as rowpart.c reads it */
    const char *path = write_rows("cw_part.csv", 3000, 1, numeric_labels);
    size_t tlen;
    char *text = (char *)tu_slurp(path, &tlen);
    text[tlen] = '\0';
    size_t line = 1, rows = 0;
    unsigned long long jump = 0, limit = 0;
    size_t jline = 0, jbefore = 0;
    for (const char *p = text; *p != '\0'; p++) {
        if (*p != '\n')
            continue;
        line++;
        rows += line > 2;
        if (rows == 800 && jump == 0) {
            jump = (unsigned long long)(p + 1 - text);
            jline = line;
            jbefore = rows;
        }
        if (rows == 2500)
            limit = (unsigned long long)(p + 1 - text);
    }
    free(text);
    how h = {.jump = jump, .jline = jline, .jbefore = jbefore, .limit = limit};
    same_passes(path, h, 1);
    /* cut within a row: that row is the text's last, and refused, short */
    h.limit = limit + 3;
    same_passes(path, h, 0);
    h.limit = jump + 50000; /* within the last rows */
    same_passes(path, h, 1);
}

static void test_not_plain(void **state)
{
    (void)state;
    /* gzip: the row reader alone, the same rows */
    const char *path = write_rows("cw_gz.csv", 1500, 1, NULL);
    size_t tlen;
    char *text = (char *)tu_slurp(path, &tlen);
    text[tlen] = '\0';
    char gz[512];
    write_gz("cw_gz.csv.gz", text, gz, sizeof gz);
    free(text);
    how h = {0};
    assert_int_equal(same_passes(gz, h, 0), 0);
    static pass plain, packed;
    h = (how){.fast = 1, .span = 1000, .part = 100};
    read_pass(path, &h, &plain);
    read_pass(gz, &h, &packed);
    assert_int_equal(plain.st, KPCA_OK);
    assert_int_equal(packed.rows, plain.rows);
    assert_true(packed.hash == plain.hash);
    assert_string_equal(packed.labels, plain.labels);
}

/* A window in more parts than the crew has helpers (a small first window,
 * then a jump) gets a crew as large as it needs; the rows are the row
 * reader's all the same. */
static void test_crew_grows(void **state)
{
    (void)state;
    const char *path = write_rows("cw_crew.csv", 3000, 1, NULL);
    static pass slow;
    how h = {.fast = 0, .span = 1000, .part = 100};
    read_pass(path, &h, &slow);
    csv_win w;
    kpca_error err;
    assert_int_equal(kpca_csv_win_open(&w, path, 0, NULL, &err), KPCA_OK);
    w.span = 1000;
    w.fast_part = 100;
    w.fast_parts = 2;
    int more = 1;
    size_t rows = 0, windows = 0;
    while (kpca_csv_win_next(&w, &more, &err) == KPCA_OK && more && w.R.n > 0) {
        rows += w.R.n;
        if (w.fast.crew != NULL && ++windows == 3) /* two parts a window, then five */
            w.fast_parts = 5;
    }
    assert_int_equal(rows, slow.rows);
    assert_true(w.fast_rows > 0);
    assert_int_equal(kpca_crew_helpers(w.fast.crew), 4);
    kpca_csv_win_close(&w);
}

/* every allocation failure on the fast path: out of memory, or the pass */
static const char *g_alloc_path;

static kpca_status op_pass(kpca_error *err)
{
    csv_win w;
    kpca_status st = kpca_csv_win_open(&w, g_alloc_path, 0, NULL, err);
    w.span = 1000;
    w.fast_part = 100;
    w.fast_parts = 3;
    int more = 1;
    size_t rows = 0;
    while (st == KPCA_OK && (st = kpca_csv_win_next(&w, &more, err)) == KPCA_OK && more && w.R.n > 0)
        rows += w.R.n;
    if (st == KPCA_OK && (rows != 600 || w.fast_rows == 0))
        fail_msg("the pass read %zu rows, %llu of them fast: not 600, some fast", rows, w.fast_rows);
    kpca_csv_win_close(&w);
    return st;
}

static void test_alloc(void **state)
{
    (void)state;
    g_alloc_path = write_rows("cw_alloc.csv", 600, 1, NULL);
    assert_true(tu_fail_loop("the fast windows", op_pass, 1) >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain),
        cmocka_unit_test(test_stops),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_jump_limit),
        cmocka_unit_test(test_not_plain),
        cmocka_unit_test(test_crew_grows),
        cmocka_unit_test(test_alloc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

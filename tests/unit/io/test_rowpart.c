/* test_rowpart.c - one file read by several processes, each over its own
 * part (io/rowsrc.h: kpca_rowsrc_open_shared), with the processes played
 * by threads and the collectives by a barrier: for 1 to 8 parts, the parts'
 * rows, put end to end, are kpca_dataset_read's rows, labels and codes bit
 * for bit, every part has the whole file's description (the row count, the
 * class names in the order they first appear, the pandas index left out),
 * and a bad file gives every part kpca_dataset_read's first error, message
 * and line; a quoted field with a line break at a cut is refused. */
#include "testutil.h"

#include <unistd.h>

#include "io_fixture.h"
#include "parts_harness.h"

/* spec read by `parts` processes: as kpca_dataset_read reads it, or its
 * error; *parted: whether the file was cut */
static void parts_read(const char *spec, const kpca_read_opts *opts, int parts, int *parted)
{
    kpca_dataset want;
    kpca_error ew;
    kpca_error_clear(&ew);
    kpca_status sw = kpca_dataset_read(spec, opts, &want, &ew);
    world w;
    proc ps[MAXP];
    run_parts(spec, opts, parts, &w, ps);
    size_t next = 0;
    *parted = ps[0].parted;
    for (int q = 0; q < parts; q++) {
        proc *p = &ps[q];
        assert_int_equal(w.collectives[q], w.collectives[0]);
        if (p->st != sw || (sw != KPCA_OK && strcmp(p->err.msg, ew.msg) != 0))
            fail_msg("'%s' in %d parts, part %d: status %d '%s'; read whole: %d '%s'", spec, parts, q, p->st,
                     p->err.msg, sw, ew.msg);
        if (sw == KPCA_OK) {
            assert_int_equal(p->parted, *parted);
            assert_int_equal(p->n, want.n);
            assert_int_equal(p->dim, want.dim);
            assert_int_equal(p->first, next);
            assert_memory_equal(p->x, want.x + p->first * want.dim, p->count * want.dim * sizeof(double));
            assert_memory_equal(p->y, want.y + p->first, p->count * sizeof(int));
            assert_int_equal(p->nnames, want.nnames);
            for (size_t c = 0; c < want.nnames; c++)
                assert_string_equal(p->names[c], want.names[c]);
            next += p->count;
        }
    }
    free_parts(ps, parts);
    if (sw == KPCA_OK) {
        assert_int_equal(next, want.n);
        kpca_dataset_free(&want);
    }
}

/* in 1 to 8 parts; 1 when the file was cut into more than one */
static int every_parts(const char *spec, const kpca_read_opts *opts)
{
    int cut = 0;
    for (int parts = 1; parts <= MAXP; parts++) {
        int parted;
        parts_read(spec, opts, parts, &parted);
        cut = cut || (parts > 1 && parted);
    }
    return cut;
}

/* ---- files --------------------------------------------------------------------- */

/* n rows of a CSV file: a header, three values and a label column that is
 * a name (one of them first met in the last tenth), or an integer */
static char *csv_text(size_t n, int names, const char *eol, size_t bad_row, const char *bad)
{
    size_t cap = 64 + n * 80, at = 0;
    char *t = malloc(cap);
    assert_non_null(t);
    at += (size_t)snprintf(t + at, cap - at, "a,b,c,label%s", eol);
    uint64_t s = 7;
    for (size_t i = 0; i < n; i++) {
        const int c = i >= n - n / 10 && i % 3 == 0 ? 3 : (int)((i * 7 + i / 5) % 3);
        static const char *const nm[] = {"setosa", "\"versi, color\"", "virginica", "late one"};
        if (i == bad_row)
            at += (size_t)snprintf(t + at, cap - at, "%s%s", bad, eol);
        else if (names)
            at += (size_t)snprintf(t + at, cap - at, "%.6f,%.6f,%.6f,%s%s", tu_rand(&s), tu_rand(&s), tu_rand(&s),
                                   nm[c], eol);
        else
            at += (size_t)snprintf(t + at, cap - at, "%.6f,%.6f,%.6f,%d%s", tu_rand(&s), tu_rand(&s), tu_rand(&s),
                                   c, eol);
        if (i % 97 == 5) /* blank lines are skipped */
            at += (size_t)snprintf(t + at, cap - at, "%s", eol);
    }
    return t;
}

static void named_csv_parts(void **state)
{
    (void)state;
    char path[256];
    char *t = csv_text(3000, 1, "\n", (size_t)-1, NULL);
    write_text("parts_named.csv", t, path, sizeof path);
    assert_true(every_parts(path, NULL));
    free(t);
    t = csv_text(2000, 0, "\r\n", (size_t)-1, NULL); /* integer labels, CRLF */
    write_text("parts_int.csv", t, path, sizeof path);
    assert_true(every_parts(path, NULL));
    write_gz("parts_int.csv.gz", t, path, sizeof path); /* gzip: read whole by every part */
    assert_false(every_parts(path, NULL));
    free(t);
}

static void text_kinds_parts(void **state)
{
    (void)state;
    char path[256];
    size_t cap = 200000, at = 0;
    char *t = malloc(cap);
    assert_non_null(t);
    /* a UTF-8 BOM, a pandas index, no labels */
    at += (size_t)snprintf(t + at, cap - at, "\xEF\xBB\xBF,u,v\n");
    for (size_t i = 0; i < 2500; i++)
        at += (size_t)snprintf(t + at, cap - at, "%zu,%zu.5,%zu\n", i, i * 3, i % 11);
    write_text("parts_index.csv", t, path, sizeof path);
    assert_true(every_parts(path, NULL));
    at += (size_t)snprintf(t + at, cap - at, "2500.5,1,2\n"); /* not an index after all: one value says so, last */
    write_text("parts_noindex.csv", t, path, sizeof path);
    assert_true(every_parts(path, NULL));
    /* ESL: integer labels first, blank-separated */
    at = 0;
    for (size_t i = 0; i < 2500; i++)
        at += (size_t)snprintf(t + at, cap - at, "%zu  %zu.25 -%zu %zu\n%s", i % 4, i, i % 13, i % 5,
                               i % 301 == 0 ? "\n" : "");
    write_text("parts_esl.txt", t, path, sizeof path);
    assert_true(every_parts(path, NULL));
    kpca_read_opts o = {.label = "first"}; /* whitespace text read as delimited */
    assert_true(every_parts(path, &o));
    /* a file of three rows: most parts empty */
    write_text("parts_tiny.csv", "x,y\n1,2\n3,4\n5,6\n", path, sizeof path);
    every_parts(path, NULL);
    free(t);
}

/* every part gets the whole read's first error, on its line */
static void errors_parts(void **state)
{
    (void)state;
    char path[256];
    static const struct {
        size_t row;
        const char *bad;
    } cases[] = {
        {2600, "1,2,oops,x"},         /* not a number, late */
        {1400, "1,2,3"},              /* a field short */
        {2900, "1,2,3,"},             /* an empty label: the verdict's error */
        {100, "1,2,3,4,5"},           /* a field too many, early */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char *t = csv_text(3000, 1, "\n", cases[c].row, cases[c].bad);
        write_text("parts_bad.csv", t, path, sizeof path);
        every_parts(path, NULL);
        free(t);
    }
    /* integer labels with one number that is no integer, late */
    char *t = csv_text(3000, 0, "\n", 2700, "1,2,3,2.5");
    write_text("parts_badint.csv", t, path, sizeof path);
    every_parts(path, NULL);
    free(t);
    /* ESL with a row short of values, late */
    size_t cap = 100000, at = 0;
    t = malloc(cap);
    for (size_t i = 0; i < 2000; i++)
        at += (size_t)snprintf(t + at, cap - at, i == 1800 ? "%zu 1\n" : "%zu 1 2 3\n", i % 3);
    write_text("parts_ragged.txt", t, path, sizeof path);
    every_parts(path, NULL);
    free(t);
}

/* a quoted field with line breaks across the middle of the file: a cut
 * inside it would misread the rows after it, so every part reads the whole
 * file instead (not cut), as one process does; a stray quote gives the
 * whole read's first error */
static void quoted_break_parts(void **state)
{
    (void)state;
    char path[256];
    size_t cap = 20000, at = 0;
    char *t = malloc(cap);
    at += (size_t)snprintf(t + at, cap - at, "a,label\n");
    for (int i = 0; i < 20; i++)
        at += (size_t)snprintf(t + at, cap - at, "%d,c%d\n", i, i % 2);
    at += (size_t)snprintf(t + at, cap - at, "5,\"a name");
    for (int i = 0; i < 300; i++)
        at += (size_t)snprintf(t + at, cap - at, "\n");
    at += (size_t)snprintf(t + at, cap - at, "ends here\"\n");
    for (int i = 0; i < 20; i++)
        at += (size_t)snprintf(t + at, cap - at, "%d,c%d\n", i, i % 2);
    write_text("parts_quoted.csv", t, path, sizeof path);
    for (int parts = 1; parts <= 4; parts++) {
        int parted;
        parts_read(path, NULL, parts, &parted);
        assert_false(parted);
    }
    memmove(t + 2, t + 1, strlen(t + 1) + 1); /* a"x,label: a quote inside a name is no quoted field, */
    t[1] = '"';                                 /* and a count of quotes would miss the break */
    write_text("parts_quoted2.csv", t, path, sizeof path);
    for (int parts = 2; parts <= 4; parts++) {
        int parted;
        parts_read(path, NULL, parts, &parted);
        assert_false(parted);
    }
    at = 0;
    at += (size_t)snprintf(t + at, cap - at, "a,b\n");
    for (int i = 0; i < 400; i++)
        at += (size_t)snprintf(t + at, cap - at, i == 10 ? "1,2\"x\n" : "%d,%d\n", i, i + 1);
    write_text("parts_stray.csv", t, path, sizeof path);
    every_parts(path, NULL);
    free(t);
}

/* what one part alone cannot know: that its labels, all integers, are
 * names (another part has a name); that its first row is not the file's */
static void part_alone_parts(void **state)
{
    (void)state;
    char path[256];
    size_t cap = 40000, at = 0;
    char *t = malloc(cap);
    at += (size_t)snprintf(t + at, cap - at, "x,label\n");
    for (int i = 0; i < 700; i++)
        at += (size_t)snprintf(t + at, cap - at, "%d.5,%s\n", i, i < 150 ? "7" : i < 300 ? "8" : i % 50 == 0 ? "7" : "cat");
    write_text("parts_intnames.csv", t, path, sizeof path);
    assert_true(every_parts(path, NULL));
    at = 0;
    at += (size_t)snprintf(t + at, cap - at, "a,b\n");
    for (int i = 0; i < 99; i++)
        at += (size_t)snprintf(t + at, cap - at, i == 49 ? "1,x\n" : "1,2\n");
    write_text("parts_firstrow.csv", t, path, sizeof path);
    every_parts(path, NULL);
    free(t);
}

/* every allocation failing from the Nth on, in whichever part makes it:
 * every part returns the same status, KPCA_OK or KPCA_ENOMEM (no part left
 * waiting in a collective: alarm() ends a hang) */
static char alloc_path[256];

static kpca_status op_parts(kpca_error *err)
{
    world w;
    proc ps[2];
    run_parts(alloc_path, NULL, 2, &w, ps);
    free_parts(ps, 2);
    for (int q = 0; q < 2; q++) {
        if (ps[q].open_st != ps[0].open_st || strcmp(ps[q].open_err.msg, ps[0].open_err.msg) != 0)
            fail_msg("part %d opened with status %d '%s', part 0 with %d '%s'", q, ps[q].open_st, ps[q].open_err.msg,
                     ps[0].open_st, ps[0].open_err.msg);
    }
    /* the reads after the open are each part's own (kpca-mpi agrees after them) */
    const int q = ps[0].st != KPCA_OK ? 0 : 1;
    if (err != NULL)
        *err = ps[q].err;
    return ps[q].st;
}

static void alloc_failures_parts(void **state)
{
    (void)state;
    char *t = csv_text(400, 1, "\n", (size_t)-1, NULL);
    write_text("parts_alloc.csv", t, alloc_path, sizeof alloc_path);
    free(t);
    alarm(120);
    assert_true(tu_fail_loop("two parts of a CSV file with class names", op_parts, 1) > 10);
    alarm(0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(named_csv_parts),
        cmocka_unit_test(text_kinds_parts),
        cmocka_unit_test(errors_parts),
        cmocka_unit_test(quoted_break_parts),
        cmocka_unit_test(part_alone_parts),
        cmocka_unit_test(alloc_failures_parts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_csv.c - the delimited-text reader: delimiters, header, quoting, CRLF,
 * gzip, the label column, class names, and errors naming line and column. */
#include "testutil.h"

#include <pthread.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "lib/io/csv.h"
#include "lib/io/csvpart.h"
#include "lib/io/labels.h"

static const char *put(const char *name, const char *text)
{
    return tu_write_file(name, text);
}

/* Reads text as file NAME with the given label option and header rule. */
static kpca_status read_as(const char *name, const char *text, const char *label, kpca_header header,
                           kpca_dataset *ds, kpca_error *err)
{
    kpca_read_opts o = {.format = KPCA_FMT_AUTO, .header = header, .label = label};
    kpca_error_clear(err);
    return kpca_dataset_read(put(name, text), &o, ds, err);
}

/* Expects a failure whose message holds every one of the given pieces. */
static void expect_fail(const char *name, const char *text, const char *label, const char *a, const char *b)
{
    kpca_dataset ds;
    kpca_error err;
    kpca_status st = read_as(name, text, label, KPCA_HEADER_AUTO, &ds, &err);
    if (st == KPCA_OK)
        fail_msg("'%s' was read, expected an error with '%s'", name, a);
    if (strstr(err.msg, name) == NULL || strstr(err.msg, a) == NULL || (b != NULL && strstr(err.msg, b) == NULL))
        fail_msg("message lacks '%s' / '%s' / '%s': %s", name, a, b ? b : "", err.msg);
    assert_null(ds.x);
    assert_null(ds.y);
}

static void test_detect(void **state)
{
    (void)state;
    kpca_format f;
    kpca_error err;
    assert_int_equal(kpca_detect_format(put("d.csv", "1,2,3\n"), &f, &err), KPCA_OK);
    assert_int_equal(f, KPCA_FMT_CSV);
    assert_int_equal(kpca_detect_format(put("d.ssv", "a;b\n1;2\n"), &f, &err), KPCA_OK);
    assert_int_equal(f, KPCA_FMT_CSV);
    assert_int_equal(kpca_detect_format(put("d.tsv", "label\tx y\n1\t2\n"), &f, &err), KPCA_OK);
    assert_int_equal(f, KPCA_FMT_CSV);
    assert_int_equal(kpca_detect_format(put("d.txt", "1 2 3\n"), &f, &err), KPCA_OK);
    assert_int_equal(f, KPCA_FMT_ESL);
    assert_int_equal(kpca_detect_format(put("d.svm", "1 1:2 3:4\n"), &f, &err), KPCA_OK);
    assert_int_equal(f, KPCA_FMT_LIBSVM);
}

static void test_header_quoting_crlf(void **state)
{
    (void)state;
    kpca_dataset ds;
    kpca_error err;
    assert_int_equal(read_as("q.csv", "\"a, x\",label,b\r\n\"2.5\",1,3\r\n4, 2 ,\"5\"\r\n", NULL, KPCA_HEADER_AUTO,
                             &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, 2);
    assert_int_equal(ds.dim, 2); /* the column named label is the label */
    assert_int_equal(ds.y[0], 1);
    assert_int_equal(ds.y[1], 2);
    assert_true(ds.x[0] == 2.5 && ds.x[1] == 3 && ds.x[2] == 4 && ds.x[3] == 5);
    assert_int_equal(ds.format, KPCA_FMT_CSV);
    assert_false(ds.unlabelled);
    kpca_dataset_free(&ds);
    /* a quoted field may hold the delimiter, a doubled quote and a line break */
    assert_int_equal(read_as("q2.csv", "name,v\n\"a \"\"b\"\",\nc\",1\nd,2\n", "name", KPCA_HEADER_AUTO, &ds, &err),
                     KPCA_OK);
    assert_int_equal(ds.nnames, 2);
    assert_string_equal(ds.names[0], "a \"b\",\nc");
    assert_string_equal(ds.names[1], "d");
    kpca_dataset_free(&ds);
    /* no header and no label option: no labels, every column a value */
    assert_int_equal(read_as("nh.csv", "3,1,2\n4,5,6\n", NULL, KPCA_HEADER_AUTO, &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, 2);
    assert_int_equal(ds.dim, 3);
    assert_true(ds.unlabelled);
    assert_int_equal(ds.label_col, 0);
    assert_null(ds.colnames);
    assert_true(ds.x[3] == 4 && ds.x[5] == 6);
    kpca_dataset_free(&ds);
    /* --label first takes them */
    assert_int_equal(read_as("nh.csv", "3,1,2\n4,5,6\n", "first", KPCA_HEADER_AUTO, &ds, &err), KPCA_OK);
    assert_int_equal(ds.y[1], 4);
    assert_int_equal(ds.label_col, 1);
    assert_true(ds.x[3] == 6);
    kpca_dataset_free(&ds);
    /* --header yes: an all-number first row is still a header */
    assert_int_equal(read_as("hy.csv", "1,2,3\n4,5,6\n", NULL, KPCA_HEADER_YES, &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, 1);
    kpca_dataset_free(&ds);
    /* --header no: a first row of names is data, and fails as such */
    assert_int_equal(read_as("hn.csv", "a,b\n1,2\n", NULL, KPCA_HEADER_NO, &ds, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "line 1, column 1"));
}

static void test_gzip(void **state)
{
    (void)state;
    const char *path = TEST_OUT "/g.csv.gz";
    gzFile gz = gzopen(path, "wb");
    assert_non_null(gz);
    const char *text = "y;a;b\n-1;1.5;2\n1;3;4e1\n";
    assert_int_equal(gzwrite(gz, text, (unsigned)strlen(text)), (int)strlen(text));
    assert_int_equal(gzclose(gz), Z_OK);
    kpca_dataset ds;
    kpca_error err;
    assert_int_equal(kpca_dataset_read(path, NULL, &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, 2);
    assert_int_equal(ds.y[0], -1);
    assert_int_equal(ds.y[1], 1);
    assert_true(ds.x[3] == 40.0);
    kpca_dataset_free(&ds);
}

static void test_label_options(void **state)
{
    (void)state;
    const char *text = "a,b,c\n1,2,10\n4,5,1\n";
    kpca_dataset ds;
    kpca_error err;
    assert_int_equal(read_as("l.csv", text, "last", KPCA_HEADER_AUTO, &ds, &err), KPCA_OK);
    assert_int_equal(ds.y[0], 10);
    assert_true(ds.x[0] == 1 && ds.x[1] == 2);
    kpca_dataset_free(&ds);
    assert_int_equal(read_as("l.csv", text, "2", KPCA_HEADER_AUTO, &ds, &err), KPCA_OK);
    assert_int_equal(ds.y[1], 5);
    assert_true(ds.x[2] == 4 && ds.x[3] == 1);
    kpca_dataset_free(&ds);
    assert_int_equal(read_as("l.csv", text, "B", KPCA_HEADER_AUTO, &ds, &err), KPCA_OK); /* case-insensitive */
    assert_int_equal(ds.y[0], 2);
    kpca_dataset_free(&ds);
    assert_int_equal(read_as("l.csv", text, "none", KPCA_HEADER_AUTO, &ds, &err), KPCA_OK);
    assert_int_equal(ds.dim, 3);
    assert_true(ds.unlabelled);
    assert_int_equal(ds.y[0], 0);
    kpca_dataset_free(&ds);
    expect_fail("l.csv", text, "4", "has 3 columns", NULL);
    expect_fail("l.csv", text, "zz", "no column of that name", NULL);
    expect_fail("nh2.csv", "1,2\n", "a", "no header row", NULL);
    /* whitespace text with a label option goes through the same reader */
    assert_int_equal(read_as("w.txt", "1 7  3\n4\t5 6\n", "last", KPCA_HEADER_AUTO, &ds, &err), KPCA_OK);
    assert_int_equal(ds.y[1], 6);
    assert_true(ds.x[2] == 4 && ds.x[3] == 5);
    kpca_dataset_free(&ds);
    /* quoted fields there end at a blank (a name with a space, CRLF after a
     * quote); text glued to a closing quote is still refused */
    assert_int_equal(read_as("wq.txt", "\"a b\" 1 2\r\nc\t\"3\" 4\r\n\"a b\"  5 \"6\"\r\n", "first", KPCA_HEADER_AUTO,
                             &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, 3);
    assert_int_equal(ds.dim, 2);
    assert_int_equal(ds.nnames, 2);
    assert_string_equal(ds.names[0], "a b");
    assert_true(ds.y[0] == 0 && ds.y[1] == 1 && ds.y[2] == 0);
    assert_true(ds.x[0] == 1 && ds.x[1] == 2 && ds.x[2] == 3 && ds.x[3] == 4 && ds.x[4] == 5 && ds.x[5] == 6);
    kpca_dataset_free(&ds);
    expect_fail("wq2.txt", "\"a\"b 1 2\n", "first", "line 1, column 1: text after a closing quote", NULL);
}

/* Header detection looks past the label column when its place is known:
 * names there are labels, not a header, unless a usual header name. */
static void test_header_beside_labels(void **state)
{
    (void)state;
    kpca_dataset ds;
    kpca_error err;
    const char *iris = "5.1,3.5,setosa\n4.9,3.0,setosa\n6.3,2.9,virginica\n";
    assert_int_equal(read_as("hl.csv", iris, "last", KPCA_HEADER_AUTO, &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, 3); /* the first row is data */
    assert_int_equal(ds.nnames, 2);
    assert_true(ds.x[0] == 5.1 && ds.y[0] == 0 && ds.y[2] == 1);
    kpca_dataset_free(&ds);
    assert_int_equal(read_as("hl3.csv", iris, "3", KPCA_HEADER_AUTO, &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, 3);
    kpca_dataset_free(&ds);
    /* no option and no header naming a label column: no labels, so that
     * the text makes the first row a header and the second row fails,
     * naming the options by the column's number (the "header" is data) */
    expect_fail("hf.csv", "setosa,1,2\nvirginica,3,4\n", NULL, "line 2, column 1 ('setosa'): expected a number, "
                "found 'virginica'; if that column holds the labels, give --label 1;", "--drop 1");
    assert_int_equal(read_as("hf.csv", "setosa,1,2\nvirginica,3,4\n", "1", KPCA_HEADER_AUTO, &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, 2);
    assert_string_equal(ds.names[1], "virginica");
    kpca_dataset_free(&ds);
    /* a usual name over the label column is a header, also when the other
     * columns are named by numbers */
    assert_int_equal(read_as("hn.csv", "Label,0,1\n3,1,2\n4,5,6\n", NULL, KPCA_HEADER_AUTO, &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, 2);
    assert_int_equal(ds.y[0], 3);
    assert_null(ds.names);
    kpca_dataset_free(&ds);
    assert_int_equal(read_as("hc.csv", "0,1, class \n1,2,7\n", "last", KPCA_HEADER_AUTO, &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, 1);
    assert_int_equal(ds.y[0], 7);
    kpca_dataset_free(&ds);
    /* --label none: every column is a value, so text anywhere is a header */
    assert_int_equal(read_as("hx.csv", "a,1\n2,3\n", "none", KPCA_HEADER_AUTO, &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, 1);
    kpca_dataset_free(&ds);
}

static void test_class_names(void **state)
{
    (void)state;
    kpca_dataset ds;
    kpca_error err;
    assert_int_equal(read_as("n.csv", "x,class\n1,virginica\n2,setosa\n3, virginica\n4,10\n", NULL,
                             KPCA_HEADER_AUTO, &ds, &err), KPCA_OK);
    assert_int_equal(ds.nnames, 3);
    assert_string_equal(ds.names[0], "virginica");
    assert_string_equal(ds.names[1], "setosa");
    assert_string_equal(ds.names[2], "10"); /* among names a number is a name */
    assert_int_equal(ds.y[0], 0);
    assert_int_equal(ds.y[1], 1);
    assert_int_equal(ds.y[2], 0);
    assert_int_equal(ds.y[3], 2);
    /* selecting rows keeps the names */
    size_t idx[1] = {1};
    kpca_dataset sub;
    assert_int_equal(kpca_dataset_select(&ds, idx, 1, &sub, &err), KPCA_OK);
    assert_int_equal(sub.nnames, 3);
    assert_string_equal(sub.names[sub.y[0]], "setosa");
    kpca_dataset_free(&sub);
    kpca_dataset_free(&ds);
}

/* Rows of plain numbers take the reader's one-pass path; the same rows with
 * every field quoted take the general one: the two must agree bit for bit
 * (values as strtod reads them, labels, names), whatever the number's form,
 * the label's place or the line end. */
static void test_one_pass_rows(void **state)
{
    (void)state;
    static const char *const nums[] = {"-0.211234", "1e-3", "0.1", "+.5", "123456789012345678", "-7", "-1.25E-2",
                                       "3.14159265358979312", "2.5E+10", "0.000001"};
    static const char *const labs[] = {"3", "cat", "-1", "10"};
    for (int last = 0; last < 2; last++) {
        for (int crlf = 0; crlf < 2; crlf++) {
            char plain[2048] = "", quoted[2048] = "";
            for (int r = 0; r < 8; r++) {
                char *out[2] = {plain, quoted};
                for (int q = 0; q < 2; q++) {
                    const char *fmt = q ? "\"%s\"%s" : "%s%s";
                    char *o = out[q] + strlen(out[q]);
                    if (!last)
                        o += sprintf(o, fmt, labs[r % 4], ",");
                    for (int j = 0; j < 3; j++)
                        o += sprintf(o, fmt, nums[(r * 3 + j) % 10], j < 2 || last ? "," : "");
                    if (last)
                        o += sprintf(o, fmt, labs[r % 4], "");
                    sprintf(o, "%s", crlf ? "\r\n" : "\n");
                }
            }
            kpca_dataset a, b;
            kpca_error err;
            const char *lab = last ? "last" : "first";
            assert_int_equal(read_as("p1.csv", plain, lab, KPCA_HEADER_NO, &a, &err), KPCA_OK);
            assert_int_equal(read_as("p2.csv", quoted, lab, KPCA_HEADER_NO, &b, &err), KPCA_OK);
            assert_int_equal(a.n, 8);
            assert_int_equal(a.dim, 3);
            assert_int_equal(b.n, a.n);
            assert_int_equal(b.dim, a.dim);
            for (size_t i = 0; i < a.n * a.dim; i++) {
                double want = strtod(nums[((i / 3) * 3 + i % 3) % 10], NULL);
                assert_memory_equal(&a.x[i], &want, sizeof want);
                assert_memory_equal(&b.x[i], &want, sizeof want);
            }
            assert_memory_equal(a.y, b.y, a.n * sizeof *a.y);
            assert_int_equal(a.nnames, b.nnames);
            for (size_t k = 0; k < a.nnames; k++)
                assert_string_equal(a.names[k], b.names[k]);
            kpca_dataset_free(&a);
            kpca_dataset_free(&b);
        }
    }
    /* a ragged row and a bad number after rows of the one-pass path: the
     * general path's messages, with the line and column */
    expect_fail("r1.csv", "1,7,3\n4,5,6\n7,8\n", NULL, "line 3", "2 fields");
    expect_fail("r2.csv", "1,7,3\n4,5,6\n7,8,x9\n", NULL, "line 3, column 3", "x9");
    expect_fail("r3.csv", "1,7,3\n4,5,6\n7,8,\n9,1,2\n", NULL, "line 3, column 3", "empty");
}

static void test_errors(void **state)
{
    (void)state;
    expect_fail("na.csv", "a,b,c\n1,2,3\n4,NA,6\n", NULL, "line 3, column 2 ('b'): expected a number, found 'NA'", NULL);
    expect_fail("empty.csv", "a,b,c\n1,2,3\n\n4,5,\n", NULL, "line 4, column 3", "empty field");
    expect_fail("ragged.csv", "a,b,c\n1,2,3\n4,5\n", NULL, "line 3: 2 fields, expected 3", NULL);
    expect_fail("inf.csv", "a,b,c\n1,2,inf\n", NULL, "line 2, column 3 ('c'): expected a finite number", NULL);
    expect_fail("open.csv", "1,7\n3,\"4\n", NULL, "line 2, column 2: a quoted field is not closed", NULL);
    expect_fail("after.csv", "1,\"2\"x\n", NULL, "line 1, column 2: text after a closing quote", NULL);
    expect_fail("frac.csv", "1.5,2\n", "first", "line 1, column 1", "--label none");
    expect_fail("hdronly.csv", "a,b\n", NULL, "no data rows", NULL);
    kpca_dataset ds;
    kpca_error err;
    kpca_read_opts first = {.format = KPCA_FMT_CSV, .label = "first"};
    assert_int_equal(kpca_read_csv(put("only.csv", "a\n1\n"), 0, &first, &ds, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "no value columns"));
}

static void test_labels_file(void **state)
{
    (void)state;
    kpca_dataset ds;
    kpca_error err;
    kpca_read_opts o = {.format = KPCA_FMT_AUTO, .label = "none"};
    char lab[256]; /* put() returns one static buffer */
    snprintf(lab, sizeof lab, "%s", put("lab.txt", "cat\n\ndog\ncat\n"));
    o.labels = lab;
    assert_int_equal(kpca_dataset_read(put("u.csv", "1,7\n3,4\n5,6\n"), &o, &ds, &err), KPCA_OK);
    assert_false(ds.unlabelled);
    assert_int_equal(ds.nnames, 2);
    assert_int_equal(ds.y[2], 0);
    kpca_dataset_free(&ds);
    snprintf(lab, sizeof lab, "%s", put("lab2.txt", "1\n2\n"));
    assert_int_equal(kpca_dataset_read(put("u.csv", "1,7\n3,4\n5,6\n"), &o, &ds, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "2 labels but the data has 3 points"));
    assert_null(ds.x);
    o.label = NULL; /* data with labels of its own */
    assert_int_equal(kpca_dataset_read(put("u.csv", "label,v\n1,2\n3,4\n"), &o, &ds, &err), KPCA_EUSAGE);
    assert_non_null(strstr(err.msg, "labels of its own"));
}

/* labels files read by the quoting rule of delimited text; 'index label'
 * lines with ',', ';', a tab or blanks; an index that does not count the
 * lines from 0 or 1 refused, never read past the lines (it read tok[n]);
 * a header word above integer labels */
static void test_labels_file_shapes(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int names; /* the labels' names joined by '|', or their codes */
        const char *want;
    } ok[] = {
        {"\"setosa\"\n\"a,b\"\n\"say \"\"hi\"\"\"\n", 1, "setosa|a,b|say \"hi\""},
        {"\"species\"\n0\n1\n1\n", 0, "0 1 1"},
        {"species\n2\n1\n1\n", 0, "2 1 1"},
        {"\"\",\"species\"\n\"1\",\"b\"\n\"2\",\"a\"\n\"3\",\"b\"\n", 1, "b|a"},
        {"0 0\n1 1\n2 1\n", 0, "0 1 1"},
        {"0;2\n1;1\n2;1\n", 0, "2 1 1"},
        {"0\t0\n1\t1\n2\t1\n", 0, "0 1 1"},
        {"Iris setosa\nIris virginica\nIris setosa\n", 1, "Iris setosa|Iris virginica"},
    };
    for (size_t k = 0; k < sizeof ok / sizeof ok[0]; k++) {
        kpca_dataset ds;
        kpca_error err;
        char lab[256], got[128] = "";
        snprintf(lab, sizeof lab, "%s", put("shape.txt", ok[k].text));
        kpca_read_opts o = {.format = KPCA_FMT_AUTO, .label = "none", .labels = lab};
        if (kpca_dataset_read(put("u3.csv", "1,7\n3,4\n5,6\n"), &o, &ds, &err) != KPCA_OK)
            fail_msg("labels %zu: %s", k, err.msg);
        for (size_t i = 0; i < (ok[k].names ? ds.nnames : ds.n); i++)
            if (ok[k].names)
                snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", i ? "|" : "", ds.names[i]);
            else
                snprintf(got + strlen(got), sizeof got - strlen(got), "%s%d", i ? " " : "", ds.y[i]);
        assert_string_equal(got, ok[k].want);
        kpca_dataset_free(&ds);
    }
    static const char *const bad[][2] = {
        {",0\n5,0\n6,1\n7,1\n", "line 2: '5,0' is an index 5 where 0 or 1 starts the count"},
        {"5,a\n6,b\n7,a\n", "line 1: '5,a' is an index 5 where 0 or 1 starts the count"},
        {"100 0\n101 1\n102 1\n", "line 1: '100 0' is an index 100 where 0 or 1 starts the count"},
        {"0;0\n2;1\n3;1\n", "line 2: '2;1' is an index 2 where 1 counts the lines"},
        {"\"open\nb\nc\n", "line 1: '\"open' has a quoted field not closed on its line"},
        {"0,a\n1,b\n\"2,c\n", "line 3: '\"2,c' has a quoted field not closed on its line"},
        {"species\nsetosa\nvirginica\nsetosa\n", "if line 1 ('species') is a header"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        kpca_dataset ds;
        kpca_error err;
        char lab[256];
        snprintf(lab, sizeof lab, "%s", put("shape.txt", bad[k][0]));
        kpca_read_opts o = {.format = KPCA_FMT_AUTO, .label = "none", .labels = lab};
        assert_int_equal(kpca_dataset_read(put("u3.csv", "1,7\n3,4\n5,6\n"), &o, &ds, &err), KPCA_EFORMAT);
        if (strstr(err.msg, bad[k][1]) == NULL)
            fail_msg("labels %zu: %s", k, err.msg);
    }
}

/* a and b hold the same rows, labels and class names, bit for bit */
static void assert_same_data(const kpca_dataset *a, const kpca_dataset *b)
{
    assert_int_equal(a->n, b->n);
    assert_int_equal(a->dim, b->dim);
    assert_memory_equal(a->x, b->x, a->n * a->dim * sizeof *a->x);
    assert_memory_equal(a->y, b->y, a->n * sizeof *a->y);
    assert_int_equal(a->unlabelled, b->unlabelled);
    assert_int_equal(a->nnames, b->nnames);
    for (size_t k = 0; k < a->nnames; k++)
        assert_string_equal(a->names[k], b->names[k]);
}

/* Reads path in `parts` parts (any part size) into *ds; the message in msg. */
static kpca_status read_in_parts(const char *path, const char *label, size_t parts, size_t stretch,
                                 kpca_dataset *ds, char *msg, size_t cap)
{
    kpca_read_opts o = {.format = KPCA_FMT_CSV, .label = label};
    kpca_error err;
    kpca_error_clear(&err);
    kpca_status st = kpca_read_csv_parts(path, 0, &o, parts, 0, stretch, ds, &err);
    snprintf(msg, cap, "%s", st == KPCA_OK ? "" : err.msg);
    return st;
}

/* A large file is parsed in parts by several threads: split anywhere, the
 * rows, labels, names and the first error are those of one part, whatever
 * stands before a cut (blank lines, CRLF, an unterminated last line, rows
 * the one-pass path does not take), wherever the label column is (or none),
 * with commas or tabs, and wherever the error is. */
static void test_parts(void **state)
{
    (void)state;
    static const char *const labs[] = {"3", "cat", "-1", "dog"};
    static const char *const where[] = {"first", "last", "2", "none"};
    char text[8192], msg1[1100], msgk[1100];
    for (int variant = 0; variant < 12 * 4 * 2; variant++) {
        int v = variant % 12, lw = variant / 12 % 4;
        char sep = variant / 48 ? '\t' : ',';
        char *o = text;
        if (v % 3 == 1)
            o += sprintf(o, "label%ca%cb\n", sep, sep);
        for (int r = 0; r < 40; r++) {
            const char *eol = v % 2 ? "\r\n" : "\n";
            /* the label's field, or a number where the column holds none */
            char lab[16];
            snprintf(lab, sizeof lab, "%s", lw == 3 ? "7" : labs[r % 4]);
            if (v >= 4 && r % 9 == 4)
                o += sprintf(o, "%s", eol); /* a blank line */
            char f1[32], f2[32];
            if (v >= 6 && r % 7 == 3) { /* blanks: the general path */
                snprintf(f1, sizeof f1, " %d.5 ", r);
                snprintf(f2, sizeof f2, "%d", -r);
            } else {
                snprintf(f1, sizeof f1, "%d.25", r);
                snprintf(f2, sizeof f2, "%de-3", r * 7);
            }
            if (lw == 1) /* label last */
                o += sprintf(o, "%s%c%s%c%s%s", f1, sep, f2, sep, lab, eol);
            else if (lw == 2) /* label in column 2 */
                o += sprintf(o, "%s%c%s%c%s%s", f1, sep, lab, sep, f2, eol);
            else
                o += sprintf(o, "%s%c%s%c%s%s", lab, sep, f1, sep, f2, eol);
        }
        if (v >= 8) { /* an error, near the end or in the middle */
            char bad[64];
            if (v >= 10)
                snprintf(bad, sizeof bad, "9%c1%c2\n7%c8\n1%c2%c3\n", sep, sep, sep, sep, sep);
            else /* a bad number in a value column */
                snprintf(bad, sizeof bad, lw == 1 ? "9%c1%c2\nx8%c7%c1\n1%c2%c3\n" : "9%c1%c2\n7%c1%cx8\n1%c2%c3\n",
                         sep, sep, sep, sep, sep, sep);
            sprintf(text + (v % 2 ? strlen(text) / 2 : strlen(text) - 12), "%s", bad);
        } else if (v % 4 == 3) {
            text[strlen(text) - 1 - (v % 2)] = '\0'; /* no line end after the last row */
        }
        kpca_dataset one, many;
        const char *path = put("parts.csv", text);
        kpca_status st1 = read_in_parts(path, where[lw], 1, 0, &one, msg1, sizeof msg1);
        if (v >= 8)
            assert_int_not_equal(st1, KPCA_OK);
        else if (st1 != KPCA_OK)
            fail_msg("variant %d: %s", variant, msg1);
        /* in memory, and streamed in stretches shorter than a row, of a
         * few rows, and of 1 MiB (the whole file) */
        static const size_t stretches[] = {KPCA_CSV_IN_MEMORY, 13, 100, 0};
        for (size_t pk = 2 * 4; pk < 9 * 4; pk++) {
            size_t parts = pk / 4, stretch = stretches[pk % 4];
            kpca_status stk = read_in_parts(path, where[lw], parts, stretch, &many, msgk, sizeof msgk);
            assert_int_equal(stk, st1);
            assert_string_equal(msgk, msg1);
            if (st1 != KPCA_OK) {
                assert_null(many.x);
                continue;
            }
            assert_same_data(&many, &one);
            kpca_dataset_free(&many);
        }
        if (st1 == KPCA_OK) {
            assert_int_equal(one.n, 40);
            assert_int_equal(one.dim, lw == 3 ? 3 : 2);
            assert_int_equal(one.nnames, lw == 3 ? 0 : 4); /* 3, cat, -1, dog: names, as some are */
            size_t c = lw == 3 ? 1 : 0; /* the first value's column in x */
            assert_true(one.x[one.dim * 5 + c] == (v >= 6 && 5 % 7 == 3 ? 5.5 : 5.25));
        }
        kpca_dataset_free(&one);
    }
}

/* The streamed read takes a file whose rows are all plain, and leaves any
 * other (and gzip) to the read in memory: taken, it reads what that read
 * reads; left, it leaves nothing behind. */
static void test_stream(void **state)
{
    (void)state;
    static const struct {
        const char *text, *label;
        int taken;
    } cases[] = {
        {"label,a,b\n1,0.5,2\n2,1.5,-3\n1,2.5,4e2\n3,3.5,5\n", NULL, 1},   /* a header naming the labels */
        {"cat,0.5,2\r\ndog,1.5,-3\r\ncat,2.5,4\r\nemu,3.5,5", "first", 1},  /* CRLF, no line end at the end */
        {"0.5;2;7\n1.5;-3;8\n2.5;4;7\n3.5;5;8\n", "last", 1},              /* semicolons, labels last */
        {"a\tb\n0.5\t2\n1.5\t-3\n2.5\t4\n3.5\t5\n", "none", 1},           /* tabs, a header, no labels */
        {"a_label_of_16_by,0.5,2\nb,1.5,-3\nc,2.5,4\nd,3.5,5\n", "first", 0}, /* a label past 15 bytes */
        {"1,0.5,2\n2,1.5,-3\n\n1,2.5,4\n3,3.5,5\n", "first", 0},            /* a blank line */
        {"1,0.5,2\n2,\"1.5\",-3\n1,2.5,4\n3,3.5,5\n", "first", 0},          /* quotes */
        {"1,0.5,2\n2,1.5, -3\n1,2.5,4\n3,3.5,5\n", "first", 0},             /* a blank in a field */
        {"1,0.5,2\n2,1.5,NA\n1,2.5,4\n3,3.5,5\n", "first", 0},              /* an error, said by the other read */
        {"\n1,0.5,2\n2,1.5,-3\n1,2.5,4\n", "first", 0},                     /* a blank first line */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        kpca_read_opts o = {.format = KPCA_FMT_CSV, .label = cases[c].label};
        kpca_dataset a, b;
        kpca_error err;
        const char *path = put("stream.csv", cases[c].text);
        int taken = kpca_csv_stream(path, 0, &o, 2, 0, 0, &a, &err);
        if (taken != cases[c].taken)
            fail_msg("case %zu: taken %d, expected %d", c, taken, cases[c].taken);
        kpca_status st = kpca_read_csv_parts(path, 0, &o, 1, 0, KPCA_CSV_IN_MEMORY, &b, &err);
        if (!taken) {
            assert_null(a.x);
            assert_null(a.y);
            assert_int_equal(st, c == 8 ? KPCA_EFORMAT : KPCA_OK);
            kpca_dataset_free(&b);
            continue;
        }
        assert_int_equal(st, KPCA_OK);
        assert_int_equal(a.n, 4);
        assert_same_data(&a, &b);
        kpca_dataset_free(&a);
        kpca_dataset_free(&b);
    }
    /* 9 MiB of rows, a label column of names last: streamed by the default
     * read, in 1 MiB stretches, as the read in memory reads it */
    FILE *f = fopen(TEST_OUT "/stream9.csv", "wb");
    assert_non_null(f);
    fprintf(f, "x1,x2,x3,x4,class\n");
    size_t rows = 0;
    for (long written = 0; written < (9L << 20); rows++)
        written += fprintf(f, "%.6f,%ld,%.3e,-%zu.5,%s\n", (double)(rows % 1000) / 7, (long)(rows * 31 % 997),
                           (double)rows * 1.5, rows % 13, rows % 3 ? "versicolor" : "setosa");
    fclose(f);
    kpca_dataset big, mem;
    kpca_error err;
    assert_int_equal(kpca_read_csv(TEST_OUT "/stream9.csv", 0, NULL, &big, &err), KPCA_OK);
    assert_int_equal(kpca_read_csv_parts(TEST_OUT "/stream9.csv", 0, NULL, 1, 0, KPCA_CSV_IN_MEMORY, &mem, &err),
                     KPCA_OK);
    assert_int_equal(big.n, rows);
    assert_int_equal(big.dim, 4);
    assert_same_data(&big, &mem);
    assert_int_equal(big.nnames, 2);
    assert_string_equal(big.names[big.y[0]], "setosa");
    kpca_dataset_free(&big);
    kpca_dataset_free(&mem);
    /* large enough to cut (200 bytes, parts of 100) only with its header
     * (190 bytes after it): read in memory */
    char text[256], *o = text + sprintf(text, "aaaa,bbbb\n");
    for (int i = 0; o - text < 200; i++)
        o += sprintf(o, "%d,%d\n", i % 10, i % 7);
    assert_true(o - text >= 200 && o - text < 206);
    kpca_read_opts none = {.format = KPCA_FMT_CSV, .label = "none"};
    assert_int_equal(kpca_read_csv_parts(put("cut.csv", text), 0, &none, 2, 100, 0, &big, &err), KPCA_OK);
    assert_int_equal(big.dim, 2);
    assert_true(big.x[2] == 1 && big.x[3] == 1);
    kpca_dataset_free(&big);
    /* gzip: read in memory */
    gzFile gz = gzopen(TEST_OUT "/stream.csv.gz", "wb");
    assert_non_null(gz);
    gzputs(gz, cases[0].text);
    gzclose(gz);
    assert_int_equal(kpca_csv_stream(TEST_OUT "/stream.csv.gz", 0, NULL, 2, 0, 0, &big, &err), 0);
    assert_null(big.x);
}

/* A FIFO is no plain file: read once, as a stream (opened to look at it
 * first, the writer's data would be lost with the close and the read would
 * wait for a writer for ever; the alarm fails the test then). */
static void *fifo_writer(void *arg)
{
    FILE *f = fopen(arg, "w");
    if (f != NULL) {
        for (int i = 0; i < 100; i++)
            fprintf(f, "%d,%d.5,%d\n", i % 3, i, -i);
        fclose(f);
    }
    return NULL;
}

static void test_fifo(void **state)
{
    (void)state;
    const char *path = TEST_OUT "/fifo.csv";
    unlink(path);
    assert_int_equal(mkfifo(path, 0600), 0);
    for (int run = 0; run < 5; run++) {
        pthread_t w;
        assert_int_equal(pthread_create(&w, NULL, fifo_writer, (void *)path), 0);
        nanosleep(&(struct timespec){0, 20000000}, NULL); /* the writer in place first, as `cat x >fifo &` */
        alarm(20);
        kpca_dataset ds;
        kpca_error err;
        assert_int_equal(kpca_read_csv_parts(path, 0, NULL, 2, 0, 0, &ds, &err), KPCA_OK);
        alarm(0);
        pthread_join(w, NULL);
        assert_int_equal(ds.n, 100);
        assert_int_equal(ds.dim, 3); /* no header naming labels: every column a value */
        kpca_dataset_free(&ds);
    }
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_detect),
        cmocka_unit_test(test_header_quoting_crlf), cmocka_unit_test(test_gzip),
        cmocka_unit_test(test_label_options), cmocka_unit_test(test_class_names),
        cmocka_unit_test(test_errors),        cmocka_unit_test(test_one_pass_rows),
        cmocka_unit_test(test_labels_file),   cmocka_unit_test(test_header_beside_labels),
        cmocka_unit_test(test_labels_file_shapes),
        cmocka_unit_test(test_parts),
        cmocka_unit_test(test_stream),        cmocka_unit_test(test_fifo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

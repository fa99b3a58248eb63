/* test_arff.c - the ARFF reader (io/dataset_arff.h): OpenML's USPS layout,
 * quoted names, comments (whole lines and trailing), CRLF, values
 * separated by blanks, a nominal in the middle, gzip; the
 * detection from @relation; each refusal's message; the labels of two
 * files that declare one list; the allocation-failure loop. */
#include "testutil.h"

#include "lib/io/dataset_arff.h"
#include "lib/io/read.h"

/* reads text written to tests/out/NAME with the given --label (NULL:
 * none given) and --drop; the status, *ds filled, err's message */
static kpca_status read_text(const char *name, const char *text, const char *label, const char *drop,
                             kpca_dataset *ds, kpca_error *err)
{
    const char *path = tu_write_file(name, text);
    kpca_read_opts o = {.format = KPCA_FMT_AUTO, .label = label, .drop = drop};
    return kpca_dataset_read(path, &o, ds, err);
}

/* the read of text fails with code, its message holding each of the
 * NULL-terminated texts, *ds left empty */
static void refused(const char *text, const char *label, kpca_status code, ...)
{
    kpca_dataset ds;
    kpca_error err;
    kpca_status st = read_text("r.arff", text, label, NULL, &ds, &err);
    if (st != code)
        fail_msg("status %d, want %d (%s)", (int)st, (int)code, st == KPCA_OK ? "read" : err.msg);
    assert_null(ds.x);
    assert_null(ds.y);
    assert_null(ds.names);
    assert_null(ds.colnames);
    va_list ap;
    va_start(ap, code);
    for (const char *want; (want = va_arg(ap, const char *)) != NULL;)
        if (strstr(err.msg, want) == NULL)
            fail_msg("message '%s' lacks '%s'", err.msg, want);
    va_end(ap);
}

static const char usps[] = "% OpenML's USPS, three pixels\n"
                           "@RELATION usps\n\n"
                           "@ATTRIBUTE int0 NUMERIC\n@ATTRIBUTE double1 REAL\n@ATTRIBUTE int2 integer\n"
                           "@ATTRIBUTE class {1,2,3,4,5,6,7,8,9,10}\n"
                           "@DATA\n-1,0.5,1e-3,10\n0.25,-0.75,2,1\n% a comment\n\n1,1,1,3\n";

static void test_usps_layout(void **state)
{
    (void)state;
    kpca_dataset ds;
    kpca_error err;
    assert_int_equal(read_text("u.arff", usps, NULL, NULL, &ds, &err), KPCA_OK);
    assert_int_equal(ds.format, KPCA_FMT_ARFF);
    assert_int_equal(ds.n, 3);
    assert_int_equal(ds.dim, 3);
    const double x[] = {-1, 0.5, 1e-3, 0.25, -0.75, 2, 1, 1, 1};
    for (size_t i = 0; i < 9; i++)
        assert_true(ds.x[i] == x[i]);
    /* integer classes: the labels are their values, no names */
    assert_int_equal(ds.y[0], 10);
    assert_int_equal(ds.y[1], 1);
    assert_int_equal(ds.y[2], 3);
    assert_null(ds.names);
    assert_false(ds.unlabelled);
    assert_int_equal(ds.label_col, 4);
    assert_string_equal(ds.label_name, "class");
    assert_string_equal(ds.colnames[0], "int0");
    assert_string_equal(ds.colnames[2], "int2");
    kpca_dataset_free(&ds);

    /* gzip'd: the same, detected through the compression */
    assert_int_equal(system("gzip -c " TEST_OUT "/u.arff >" TEST_OUT "/u.arff.gz"), 0);
    kpca_format fmt;
    assert_int_equal(kpca_detect_format(TEST_OUT "/u.arff.gz", &fmt, &err), KPCA_OK);
    assert_int_equal(fmt, KPCA_FMT_ARFF);
    assert_int_equal(kpca_dataset_read(TEST_OUT "/u.arff.gz", NULL, &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, 3);
    assert_int_equal(ds.y[0], 10);
    kpca_dataset_free(&ds);

    /* the sniff's description */
    kpca_file_info fi;
    char desc[200];
    kpca_file_sniff(TEST_OUT "/u.arff", &fi);
    kpca_file_describe(&fi, desc, sizeof desc);
    assert_string_equal(desc, "holds ARFF data (3 x 3)");
}

/* quoted names, CRLF, the nominal in the middle, class names in the
 * declared order (not the rows'), a comment before @relation */
static void test_quoted_crlf_middle(void **state)
{
    (void)state;
    const char *text = "% made by hand\r\n%\r\n@relation 'a b'\r\n"
                       "@attribute 'pixel one' numeric\r\n"
                       "@attribute \"kind\" {'c d', plain, \"q\\\"x\"}\r\n"
                       "@attribute two{a,b}\r\n"
                       "@data\r\n"
                       "1.5, plain , a\r\n"
                       "2,'c d',b\r\n"
                       "3,\"q\\\"x\",a\r\n";
    kpca_dataset ds;
    kpca_error err;
    kpca_status st = read_text("q.arff", text, "kind", "two", &ds, &err);
    if (st != KPCA_OK)
        fail_msg("%s", err.msg);
    assert_int_equal(ds.n, 3);
    assert_int_equal(ds.dim, 1);
    assert_true(ds.x[0] == 1.5 && ds.x[1] == 2 && ds.x[2] == 3);
    assert_int_equal(ds.nnames, 3);
    assert_string_equal(ds.names[0], "c d");
    assert_string_equal(ds.names[1], "plain");
    assert_string_equal(ds.names[2], "q\"x");
    assert_int_equal(ds.y[0], 1);
    assert_int_equal(ds.y[1], 0);
    assert_int_equal(ds.y[2], 2);
    assert_string_equal(ds.colnames[0], "pixel one");
    assert_string_equal(ds.label_name, "kind");
    assert_int_equal(ds.label_col, 2);
    kpca_dataset_free(&ds);
}

/* a train and a test file that declare one list map their labels alike,
 * whichever class comes first in their rows */
static void test_same_list_same_codes(void **state)
{
    (void)state;
    const char *a = "@relation r\n@attribute v numeric\n@attribute c {dog,cat,eel}\n@data\n1,cat\n2,eel\n";
    const char *b = "@relation r\n@attribute v numeric\n@attribute c {dog,cat,eel}\n@data\n1,eel\n2,dog\n3,cat\n";
    kpca_dataset da, db;
    kpca_error err;
    assert_int_equal(read_text("a.arff", a, NULL, NULL, &da, &err), KPCA_OK);
    assert_int_equal(read_text("b.arff", b, NULL, NULL, &db, &err), KPCA_OK);
    assert_int_equal(da.nnames, 3);
    assert_int_equal(db.nnames, 3);
    assert_int_equal(da.y[0], 1); /* cat */
    assert_int_equal(da.y[1], 2); /* eel */
    assert_int_equal(db.y[0], 2);
    assert_int_equal(db.y[1], 0);
    assert_int_equal(db.y[2], 1);
    kpca_dataset_free(&da);
    kpca_dataset_free(&db);
}

/* no nominal: unlabelled; --label picks a numeric attribute of integers */
static void test_unlabelled_and_numeric_label(void **state)
{
    (void)state;
    const char *text = "@relation r\n@attribute a numeric\n@attribute y integer\n@data\n0.5,1\n1.5,2\n";
    kpca_dataset ds;
    kpca_error err;
    assert_int_equal(read_text("n.arff", text, NULL, NULL, &ds, &err), KPCA_OK);
    assert_true(ds.unlabelled);
    assert_int_equal(ds.dim, 2);
    assert_int_equal(ds.label_col, 0);
    kpca_dataset_free(&ds);
    assert_int_equal(read_text("n.arff", text, "y", NULL, &ds, &err), KPCA_OK);
    assert_false(ds.unlabelled);
    assert_int_equal(ds.dim, 1);
    assert_int_equal(ds.y[1], 2);
    kpca_dataset_free(&ds);
}

static void test_refusals(void **state)
{
    (void)state;
    const char *h = "@relation r\n@attribute a numeric\n@attribute b numeric\n@attribute c {x,y}\n@data\n";
    char text[512];
    snprintf(text, sizeof text, "%s1,2,x\n{0 1, 2 y}\n", h);
    refused(text, NULL, KPCA_EFORMAT, "'" TEST_OUT "/r.arff' line 7: sparse ARFF data", NULL);
    snprintf(text, sizeof text, "%s1,2,x\n3,?,y\n", h);
    refused(text, NULL, KPCA_EFORMAT, "'" TEST_OUT "/r.arff' line 7, column 2 ('b'): missing value '?'",
            "kpca needs every value", NULL);
    snprintf(text, sizeof text, "%s1,2,x\n3,4,?\n", h);
    refused(text, NULL, KPCA_EFORMAT, "line 7, column 3 ('c'): missing value '?'", NULL);
    snprintf(text, sizeof text, "%s1,2,z\n", h);
    refused(text, NULL, KPCA_EFORMAT, "line 6, column 3 ('c'): 'z' is not among the values that line 4 declares",
            NULL);
    snprintf(text, sizeof text, "%s1,2\n", h);
    refused(text, NULL, KPCA_EFORMAT, "line 6: 2 values, expected 3", NULL);
    snprintf(text, sizeof text, "%s1,NA,x\n", h);
    refused(text, NULL, KPCA_EFORMAT, "line 6, column 2 ('b'): expected a number, found 'NA'", NULL);
    snprintf(text, sizeof text, "%s1,'2,x\n", h);
    refused(text, NULL, KPCA_EFORMAT, "line 6, column 2: a quote (') that is not closed", NULL);
    refused("@relation r\n@attribute a numeric\n@attribute s string\n@data\n1,x\n", NULL, KPCA_EFORMAT,
            "line 3: attribute 's' (column 2) is of type string", "--drop 2", NULL);
    refused("@relation r\n@attribute a numeric\n@attribute d date \"yyyy\"\n@data\n1,2000\n", NULL, KPCA_EFORMAT,
            "attribute 'd' (column 2) is of type date", NULL);
    refused("@relation r\n@attribute a numeric\n@attribute b relational\n", NULL, KPCA_EFORMAT,
            "line 3: attribute 'b' is relational", NULL);
    refused("@relation r\n@attribute a numeric\n@attribute s {p,q}\n@attribute c {x,y}\n@data\n1,p,x\n", NULL,
            KPCA_EUSAGE, "has 2 nominal attributes: 's' (column 2), 'c' (column 3)", "--label", "--drop", NULL);
    /* --label picks one; the other is still no number */
    refused("@relation r\n@attribute a numeric\n@attribute s {p,q}\n@attribute c {x,y}\n@data\n1,p,x\n", "c",
            KPCA_EFORMAT, "attribute 's' (column 2) is of type nominal", "--drop 2", NULL);
    refused("@relation r\n@attribute a numeric\n", NULL, KPCA_EFORMAT, "no @data line", NULL);
    refused("@relation r\n@attribute a numeric\n@data\n% none\n", NULL, KPCA_EFORMAT, "no data rows after @data",
            NULL);
    refused("@relation r\n@attribute a numeric\n@attribute c {x,x}\n@data\n1,x\n", NULL, KPCA_EFORMAT,
            "declares the value 'x' twice", NULL);
    refused("@relation r\n@attribute a wide\n@data\n1\n", NULL, KPCA_EFORMAT,
            "line 2: attribute 'a': expected a type", NULL);
    refused("@relation r\n@attribute a numeric\nfoo\n@data\n1\n", NULL, KPCA_EFORMAT,
            "line 3: expected @relation, @attribute or @data, found 'foo'", NULL);
}

/* Weka's tokenizer: values separated by blanks on a line without a comma,
 * a '%' that starts a token ends the line (in the header too), a comma
 * line keeps the blanks inside a field; both give the comma file's read */
static void test_blanks_and_trailing_comments(void **state)
{
    (void)state;
    const char *commas = "@relation r\n@attribute a numeric\n@attribute 'b %' numeric\n"
                         "@attribute c {x,'y z',w}\n@data\n1,-2.5,x\n3,4e1,'y z'\n5,6,w\n7,8,w\n";
    const char *blanks = "@relation r % why\n@attribute a numeric % the first\n@attribute 'b %' numeric\n"
                         "@attribute c {x 'y z' w } % three\n@data\n1 -2.5\tx % one\n"
                         "  3   4e1 'y z'%two\n5 , 6, w\n7 8 w %\n";
    kpca_dataset a, b;
    kpca_error err;
    if (read_text("commas.arff", commas, NULL, NULL, &a, &err) != KPCA_OK)
        fail_msg("%s", err.msg);
    if (read_text("blanks.arff", blanks, NULL, NULL, &b, &err) != KPCA_OK)
        fail_msg("%s", err.msg);
    assert_int_equal(a.n, 4);
    assert_int_equal(b.n, 4);
    assert_int_equal(b.dim, 2);
    assert_memory_equal(a.x, b.x, 8 * sizeof *a.x);
    assert_memory_equal(a.y, b.y, 4 * sizeof *a.y);
    assert_true(b.x[2] == 3 && b.x[3] == 40);
    assert_int_equal(b.nnames, 3);
    assert_string_equal(b.names[1], "y z");
    assert_string_equal(b.colnames[1], "b %");
    kpca_dataset_free(&a);
    kpca_dataset_free(&b);
    /* a comma line: 'Iris setosa' unquoted is one field, as declared */
    const char *iris = "@relation r\n@attribute a numeric\n@attribute c {Iris setosa,Iris virginica}\n@data\n"
                       "1,Iris virginica\n2 , Iris setosa\n";
    if (read_text("iris.arff", iris, NULL, NULL, &a, &err) != KPCA_OK)
        fail_msg("%s", err.msg);
    assert_int_equal(a.nnames, 2);
    assert_string_equal(a.names[1], "Iris virginica");
    assert_int_equal(a.y[0], 1);
    assert_int_equal(a.y[1], 0);
    kpca_dataset_free(&a);
    /* what is still no number, or no field */
    const char *h = "@relation r\n@attribute a numeric\n@attribute b numeric\n@data\n";
    char text[256];
    snprintf(text, sizeof text, "%s1 50%%\n", h);
    refused(text, NULL, KPCA_EFORMAT, "line 5, column 2 ('b'): expected a number, found '50%'", NULL);
    snprintf(text, sizeof text, "%s1 2,3\n", h);
    refused(text, NULL, KPCA_EFORMAT, "line 5, column 1 ('a'): expected a number, found '1 2'", NULL);
    snprintf(text, sizeof text, "%s'1'2 3\n", h);
    refused(text, NULL, KPCA_EFORMAT, "line 5, column 1: text after the closing quote: '2 3'", NULL);
    snprintf(text, sizeof text, "%s1 2 3\n", h);
    refused(text, NULL, KPCA_EFORMAT, "line 5: 3 values, expected 2", NULL);
}

/* --header and --decimal are CSV's; a group is HDF5's */
static void test_text_options(void **state)
{
    (void)state;
    const char *path = tu_write_file("o.arff", usps);
    kpca_dataset ds;
    kpca_error err;
    kpca_read_opts o = {.format = KPCA_FMT_AUTO, .header = KPCA_HEADER_YES};
    assert_int_equal(kpca_dataset_read(path, &o, &ds, &err), KPCA_EUSAGE);
    assert_non_null(strstr(err.msg, "--header applies to CSV and whitespace text, not to ARFF"));
    o = (kpca_read_opts){.format = KPCA_FMT_AUTO, .decimal = ','};
    assert_int_equal(kpca_dataset_read(path, &o, &ds, &err), KPCA_EUSAGE);
    assert_non_null(strstr(err.msg, "--decimal"));
    /* --columns by attribute name keeps that order */
    o = (kpca_read_opts){.format = KPCA_FMT_ARFF, .columns = "int2,int0"};
    assert_int_equal(kpca_dataset_read(path, &o, &ds, &err), KPCA_OK);
    assert_int_equal(ds.dim, 2);
    assert_true(ds.x[0] == 1e-3 && ds.x[1] == -1);
    assert_string_equal(ds.colnames[0], "int2");
    kpca_dataset_free(&ds);
}

static kpca_status alloc_read(kpca_error *err)
{
    kpca_dataset ds;
    kpca_read_opts o = {.format = KPCA_FMT_ARFF, .label = "kind", .drop = "two"};
    kpca_status st = kpca_dataset_read(TEST_OUT "/q.arff", &o, &ds, err);
    if (st == KPCA_OK)
        kpca_dataset_free(&ds);
    return st;
}

static kpca_status alloc_read_usps(kpca_error *err)
{
    kpca_dataset ds;
    kpca_status st = kpca_dataset_read(TEST_OUT "/u.arff.gz", NULL, &ds, err);
    if (st == KPCA_OK)
        kpca_dataset_free(&ds);
    return st;
}

static void test_alloc_failures(void **state)
{
    (void)state;
    assert_true(tu_fail_loop("an ARFF file with class names", alloc_read, 1) > 5);
    assert_true(tu_fail_loop("an ARFF file in gzip", alloc_read_usps, 0) > 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_usps_layout),
        cmocka_unit_test(test_quoted_crlf_middle),
        cmocka_unit_test(test_same_list_same_codes),
        cmocka_unit_test(test_unlabelled_and_numeric_label),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_blanks_and_trailing_comments),
        cmocka_unit_test(test_text_options),
        cmocka_unit_test(test_alloc_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_csvcols.c - what a user's text file is read as: the byte-order mark
 * and wide encodings, decimal commas, the columns kept (--columns, --drop,
 * a model's names, a pandas index) and where the labels came from; every
 * case read in one part, in parts in memory and streamed, which must agree. */
#include "testutil.h"

#include <sys/stat.h>
#include <zlib.h>

#include "lib/io/csv.h"
#include "lib/io/csvcols.h"
#include "lib/text/textnum.h"

static const char *put(const char *name, const char *text)
{
    return tu_write_file(name, text);
}

/* Reads path with opts in one part; then in 3 parts in memory and streamed
 * in 13-byte stretches, each of which must give the same rows, labels,
 * names and message. */
static kpca_status read3(const char *path, const kpca_read_opts *opts, kpca_dataset *ds, kpca_error *err)
{
    kpca_error_clear(err);
    kpca_status st = kpca_dataset_read(path, opts, ds, err);
    kpca_format fmt = KPCA_FMT_AUTO;
    kpca_error e2;
    if (kpca_detect_format(path, &fmt, &e2) != KPCA_OK || fmt != KPCA_FMT_CSV)
        return st;
    static const size_t stretches[] = {KPCA_CSV_IN_MEMORY, 13};
    for (int k = 0; k < 2; k++) {
        kpca_dataset other;
        kpca_error_clear(&e2);
        kpca_status s2 = kpca_read_csv_parts(path, 0, opts, 3, 0, stretches[k], &other, &e2);
        if (s2 != st || strcmp(e2.msg, st == KPCA_OK ? "" : err->msg) != 0)
            fail_msg("'%s' in parts (stretch %zu): status %d '%s', in one part %d '%s'", path, stretches[k], s2,
                     e2.msg, st, st == KPCA_OK ? "" : err->msg);
        if (st == KPCA_OK) {
            assert_int_equal(other.n, ds->n);
            assert_int_equal(other.dim, ds->dim);
            assert_memory_equal(other.x, ds->x, ds->n * ds->dim * sizeof *ds->x);
            assert_memory_equal(other.y, ds->y, ds->n * sizeof *ds->y);
            assert_int_equal(other.label_col, ds->label_col);
            assert_int_equal(other.index_col, ds->index_col);
            assert_int_equal(other.colnames == NULL, ds->colnames == NULL);
            for (size_t j = 0; ds->colnames != NULL && j < ds->dim; j++)
                assert_string_equal(other.colnames[j], ds->colnames[j]);
        }
        kpca_dataset_free(&other);
    }
    return st;
}

static kpca_status read_text(const char *name, const char *text, const kpca_read_opts *opts, kpca_dataset *ds,
                             kpca_error *err)
{
    return read3(put(name, text), opts, ds, err);
}

static void expect_msg(const kpca_error *err, const char *piece)
{
    if (strstr(err->msg, piece) == NULL)
        fail_msg("expected '%s' in: %s", piece, err->msg);
}

/* Excel's "CSV UTF-8" starts with a byte-order mark: no part of the first
 * name or number (the first row was lost as a header, or the first label
 * got an invisible class). */
static void test_bom(void **state)
{
    (void)state;
    kpca_dataset ds;
    kpca_error err;
    assert_int_equal(read_text("bom_h.csv", "\xef\xbb\xbfsepal,petal,species\n5.1,1.4,setosa\n6.3,4.9,virginica\n",
                               &(kpca_read_opts){.label = "species"}, &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, 2);
    assert_string_equal(ds.colnames[0], "sepal");
    assert_string_equal(ds.label_name, "species");
    assert_true(ds.x[0] == 5.1);
    kpca_dataset_free(&ds);
    /* the first header name is found by --label and --columns */
    assert_int_equal(read_text("bom_l.csv", "\xef\xbb\xbfy,a,b\n1,0.5,2\n2,1.5,3\n",
                               &(kpca_read_opts){.label = "y", .columns = "b"}, &ds, &err), KPCA_OK);
    assert_int_equal(ds.dim, 1);
    assert_int_equal(ds.y[1], 2);
    kpca_dataset_free(&ds);
    /* no header: the first row is data, not a header of one odd name */
    assert_int_equal(read_text("bom_n.csv", "\xef\xbb\xbf" "0,5.1,1.4\n1,6.3,4.9\n", &(kpca_read_opts){.label = "first"},
                               &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, 2);
    assert_int_equal(ds.y[0], 0);
    assert_null(ds.names);
    kpca_dataset_free(&ds);
    /* whitespace text and LIBSVM too */
    assert_int_equal(read_text("bom.txt", "\xef\xbb\xbf" "1 0.5 0.25\n2 0.5 0.75\n", NULL, &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, 2);
    assert_int_equal(ds.y[0], 1);
    kpca_dataset_free(&ds);
    assert_int_equal(read_text("bom.svm", "\xef\xbb\xbf" "1 1:0.5 2:0.25\n2 1:0.5\n", NULL, &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, 2);
    assert_int_equal(ds.y[0], 1);
    kpca_dataset_free(&ds);
    /* through gzip */
    gzFile gz = gzopen(TEST_OUT "/bom.csv.gz", "wb");
    gzputs(gz, "\xef\xbb\xbf" "a,b\n1,2\n3,4\n");
    gzclose(gz);
    assert_int_equal(read3(TEST_OUT "/bom.csv.gz", NULL, &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, 2);
    assert_string_equal(ds.colnames[0], "a");
    kpca_dataset_free(&ds);
    /* a large file, streamed by threads: the mark skipped there too */
    FILE *f = fopen(TEST_OUT "/bom_big.csv", "wb");
    assert_non_null(f);
    fputs("\xef\xbb\xbf", f);
    for (int i = 0; i < 400000; i++)
        fprintf(f, "%d.5,%d,%d\n", i, i % 7, -i);
    fclose(f);
    kpca_dataset mem;
    assert_int_equal(kpca_read_csv(TEST_OUT "/bom_big.csv", 0, NULL, &ds, &err), KPCA_OK);
    assert_int_equal(kpca_read_csv_parts(TEST_OUT "/bom_big.csv", 0, NULL, 1, 0, KPCA_CSV_IN_MEMORY, &mem, &err),
                     KPCA_OK);
    assert_int_equal(ds.n, 400000);
    assert_true(ds.x[0] == 0.5);
    assert_memory_equal(ds.x, mem.x, ds.n * ds.dim * sizeof *ds.x);
    kpca_dataset_free(&ds);
    kpca_dataset_free(&mem);
}

/* UTF-16 and UTF-32 text (Excel's "Unicode text") is refused by name. */
static void test_wide(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        const char *bytes;
        size_t len;
        const char *enc;
    } cases[] = {
        {"w16le.csv", "\xff\xfe" "a\0,\0b\0\n\0" "1\0,\0" "2\0\n\0", 18, "UTF-16LE"},
        {"w16be.csv", "\xfe\xff\0a\0,\0b\0\n\0" "1\0,\0" "2\0\n", 18, "UTF-16BE"},
        {"w16nb.csv", "a\0,\0b\0\n\0" "1\0,\0" "2\0\n\0", 16, "UTF-16LE"},
        {"w32le.csv", "\xff\xfe\0\0" "1\0\0\0,\0\0\0" "2\0\0\0\n\0\0\0", 16, "UTF-32LE"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char path[256];
        snprintf(path, sizeof path, TEST_OUT "/%s", cases[c].name);
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        fwrite(cases[c].bytes, 1, cases[c].len, f);
        fclose(f);
        kpca_dataset ds;
        kpca_error err;
        for (int forced = 0; forced < 2; forced++) {
            kpca_read_opts o = {.format = forced ? KPCA_FMT_CSV : KPCA_FMT_AUTO};
            assert_int_equal(kpca_dataset_read(path, &o, &ds, &err), KPCA_EFORMAT);
            char want[400];
            snprintf(want, sizeof want, "'%s' is %s text: kpca reads UTF-8 or ASCII text", path, cases[c].enc);
            expect_msg(&err, want);
            assert_null(ds.x);
        }
    }
    assert_null(kpca_text_wide((const unsigned char *)"a,b\n1,2\n", 8));
}

/* --decimal , reads "5,1" as 5.1, between fields of ';', tab or blanks;
 * without it such a field is refused with the option named. */
static void test_decimal_comma(void **state)
{
    (void)state;
    kpca_dataset ds;
    kpca_error err;
    const char *semi = "a;b;class\n5,1;-0,25;setosa\n6,3;1e-1;virginica\n7;1,5e2;setosa\n";
    assert_int_equal(read_text("dc.csv", semi, NULL, &ds, &err), KPCA_EFORMAT);
    expect_msg(&err, "line 2, column 1 ('a'): expected a number, found '5,1', written with a decimal comma: give "
                     "--decimal , to read decimal commas");
    kpca_read_opts o = {.decimal = ','};
    assert_int_equal(read_text("dc.csv", semi, &o, &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, 3);
    assert_true(ds.x[0] == 5.1 && ds.x[1] == -0.25 && ds.x[2] == 6.3 && ds.x[3] == 0.1 && ds.x[4] == 7 &&
                ds.x[5] == 150);
    assert_int_equal(ds.nnames, 2);
    kpca_dataset_free(&ds);
    /* tabs, and blanks (whitespace text) */
    assert_int_equal(read_text("dc.tsv", "1\t2,5\n0\t3,25\n", &(kpca_read_opts){.decimal = ',', .label = "first"}, &ds,
                               &err), KPCA_OK);
    assert_true(ds.x[0] == 2.5 && ds.x[1] == 3.25 && ds.y[0] == 1);
    kpca_dataset_free(&ds);
    assert_int_equal(read_text("dc.txt", "1 2,5 0,5\n0 3,25 1\n", &o, &ds, &err), KPCA_OK);
    assert_int_equal(ds.dim, 3);
    assert_true(ds.x[1] == 2.5 && ds.x[5] == 1);
    kpca_dataset_free(&ds);
    /* a point with --decimal , is no number (a thousands separator is not guessed) */
    assert_int_equal(read_text("dc2.csv", "a;b\n1.000,5;2\n", &o, &ds, &err), KPCA_EFORMAT);
    expect_msg(&err, "found '1.000,5'");
    /* commas between the fields cannot be decimal commas too */
    assert_int_equal(read_text("dc3.csv", "a,b\n1,2\n", &o, &ds, &err), KPCA_EUSAGE);
    expect_msg(&err, "--decimal , reads decimal commas between fields separated by ';'");
    /* the parser itself */
    const char *p = "3,75;";
    double v;
    assert_int_equal(kpca_parse_number_mark(&p, ';', ',', &v), 0);
    assert_true(v == 3.75 && *p == ';');
    p = "3.75";
    assert_int_equal(kpca_parse_number_mark(&p, '\0', ',', &v), -1);
    p = "-1,234567890123456789e-3"; /* past the plain path's 15 digits: strtod's value */
    assert_int_equal(kpca_parse_number_mark(&p, '\0', ',', &v), 0);
    assert_true(v == strtod("-1.234567890123456789e-3", NULL));
    assert_true(kpca_text_decimal_comma(" 5,1 ", '\0'));
    assert_false(kpca_text_decimal_comma("5,", '\0'));
    assert_false(kpca_text_decimal_comma("a,1", '\0'));
}

/* --columns keeps columns in its order, --drop leaves some out: names or
 * numbers from 1; every name that is not there is listed. */
static void test_columns_drop(void **state)
{
    (void)state;
    kpca_dataset ds;
    kpca_error err;
    const char *text = "id,a,b,c,label\ns1,1,2,3,0\ns2,4,5,6,1\n";
    assert_int_equal(read_text("cd.csv", text, NULL, &ds, &err), KPCA_EFORMAT);
    expect_msg(&err, "line 2, column 1 ('id'): expected a number, found 's1'; if that column holds the labels, give "
                     "--label 1 (or 'id'); if it is an identifier, leave it out with --drop 1 (or 'id')");
    assert_int_equal(read_text("cd.csv", text, &(kpca_read_opts){.drop = "id"}, &ds, &err), KPCA_OK);
    assert_int_equal(ds.dim, 3);
    assert_int_equal(ds.label_col, 5);
    assert_string_equal(ds.colnames[2], "c");
    assert_true(ds.x[3] == 4 && ds.y[1] == 1);
    kpca_dataset_free(&ds);
    /* kept in the order given, by name and number */
    assert_int_equal(read_text("cd.csv", text, &(kpca_read_opts){.columns = "c,2"}, &ds, &err), KPCA_OK);
    assert_int_equal(ds.dim, 2);
    assert_string_equal(ds.colnames[0], "c");
    assert_string_equal(ds.colnames[1], "a");
    assert_true(ds.x[0] == 3 && ds.x[1] == 1 && ds.x[2] == 6 && ds.x[3] == 4);
    kpca_dataset_free(&ds);
    /* names that are not there: all of them said */
    assert_int_equal(read_text("cd.csv", text, &(kpca_read_opts){.columns = "a,zz,9,yy"}, &ds, &err), KPCA_EUSAGE);
    expect_msg(&err, "--columns: no column 'zz', '9', 'yy'");
    assert_int_equal(read_text("cd.csv", text, &(kpca_read_opts){.drop = "label"}, &ds, &err), KPCA_EUSAGE);
    expect_msg(&err, "column 5 ('label') is the label column");
    assert_int_equal(read_text("cd.csv", text, &(kpca_read_opts){.drop = "id", .columns = "id"}, &ds, &err),
                     KPCA_EUSAGE);
    expect_msg(&err, "named twice");
    /* a number that is another column's name is ambiguous */
    assert_int_equal(read_text("cn.csv", "2,1\n5,6\n", &(kpca_read_opts){.header = KPCA_HEADER_YES, .columns = "1"},
                               &ds, &err), KPCA_EUSAGE);
    expect_msg(&err, "both a column's name and another column's number");
    /* no header: numbers only */
    assert_int_equal(read_text("nh.csv", "1,7,3\n4,5,6\n", &(kpca_read_opts){.drop = "2"}, &ds, &err), KPCA_OK);
    assert_int_equal(ds.dim, 2);
    assert_true(ds.x[1] == 3 && ds.x[2] == 4);
    assert_null(ds.colnames);
    kpca_dataset_free(&ds);
    assert_int_equal(read_text("nh.csv", "1,7,3\n4,5,6\n", &(kpca_read_opts){.columns = "a"}, &ds, &err), KPCA_EUSAGE);
    expect_msg(&err, "the file has no header row");
    /* a trailing empty column: refused with --drop named, then left out */
    assert_int_equal(read_text("te.csv", "a,b,\n1,2,\n3,4,\n", NULL, &ds, &err), KPCA_EFORMAT);
    expect_msg(&err, "line 2, column 3: expected a number, found an empty field (a delimiter at the end of the "
                     "line?); to leave the column out, give --drop 3");
    assert_int_equal(read_text("te.csv", "a,b,\n1,2,\n3,4,\n", &(kpca_read_opts){.drop = "3"}, &ds, &err), KPCA_OK);
    assert_int_equal(ds.dim, 2);
    kpca_dataset_free(&ds);
    /* a model's columns by name, from a file in another order */
    const char *const names[3] = {"c", "a", "b"};
    kpca_read_opts sel = {.select = names, .nselect = 3};
    assert_int_equal(read_text("sel.csv", "b,label,c,x,a\n2,0,3,9,1\n5,1,6,9,4\n", &sel, &ds, &err), KPCA_OK);
    assert_int_equal(ds.dim, 3);
    assert_true(ds.x[0] == 3 && ds.x[1] == 1 && ds.x[2] == 2 && ds.x[3] == 6);
    assert_int_equal(ds.y[1], 1);
    kpca_dataset_free(&ds);
    assert_int_equal(read_text("sel2.csv", "b,label,x\n2,0,3\n", &sel, &ds, &err), KPCA_EFORMAT);
    expect_msg(&err, "lacks 2 of the model's 3 columns: 'c', 'a'");
    /* without a header: by position */
    assert_int_equal(read_text("sel3.csv", "1,7,3\n4,5,6\n", &sel, &ds, &err), KPCA_OK);
    assert_true(ds.x[0] == 1 && ds.dim == 3);
    kpca_dataset_free(&ds);
    /* a name given to more value columns than the model uses it: refused,
     * naming the first two; as many as the model's: its k-th is the k-th */
    assert_int_equal(read_text("dup.csv", "a,c,b,a,x\n1,3,2,9,0\n", &sel, &ds, &err), KPCA_EFORMAT);
    expect_msg(&err, "the header names 2 columns 'a' (1 and 4 among them), and the model has 1 of that name");
    assert_int_equal(read_text("dup.csv", "a,c,b,a,x\n1,3,2,9,0\n", &(kpca_read_opts){.select = names, .nselect = 3,
                                                                                     .drop = "4"}, &ds, &err), KPCA_OK);
    assert_true(ds.dim == 3 && ds.x[0] == 3 && ds.x[1] == 1 && ds.x[2] == 2);
    kpca_dataset_free(&ds);
    const char *const twice[3] = {"a", "b", "a"};
    assert_int_equal(read_text("dup2.csv", "a,b,a\n1,2,3\n", &(kpca_read_opts){.select = twice, .nselect = 3}, &ds,
                               &err), KPCA_OK);
    assert_true(ds.dim == 3 && ds.x[0] == 1 && ds.x[1] == 2 && ds.x[2] == 3);
    kpca_dataset_free(&ds);
    /* two columns of a label name, without --label: refused; --label picks */
    assert_int_equal(read_text("twolab.csv", "Label,a,label\n0,1,1\n1,2,0\n", NULL, &ds, &err), KPCA_EUSAGE);
    expect_msg(&err, "the header names 2 columns 'Label' (1 and 3), and any could hold the labels");
    assert_int_equal(read_text("twolab.csv", "Label,a,label\n0,1,1\n1,2,0\n", &(kpca_read_opts){.label = "3"}, &ds,
                               &err), KPCA_OK);
    assert_true(ds.dim == 2 && ds.y[0] == 1 && ds.x[0] == 0);
    kpca_dataset_free(&ds);
}

/* pandas' to_csv() writes the row index first, under an empty name: left
 * out when all its values are integers (on data sorted by class it would
 * give the class away), kept otherwise. */
static void test_pandas_index(void **state)
{
    (void)state;
    kpca_dataset ds;
    kpca_error err;
    assert_int_equal(read_text("pd.csv", ",a,b,target\n0,5.1,3.5,0\n1,4.9,3.0,0\n2,6.3,2.9,1\n", NULL, &ds, &err),
                     KPCA_OK);
    assert_int_equal(ds.index_col, 1);
    assert_int_equal(ds.dim, 2);
    assert_string_equal(ds.colnames[0], "a");
    assert_string_equal(ds.colnames[1], "b");
    assert_true(ds.x[0] == 5.1 && ds.x[5] == 2.9);
    assert_int_equal(ds.label_col, 4);
    kpca_dataset_free(&ds);
    /* any integers (a shuffled or filtered frame), and no label column */
    assert_int_equal(read_text("pd2.csv", ",a,b\n17,5.1,3.5\n3,4.9,3.0\n", NULL, &ds, &err), KPCA_OK);
    assert_int_equal(ds.index_col, 1);
    assert_int_equal(ds.dim, 2);
    assert_true(ds.unlabelled);
    kpca_dataset_free(&ds);
    /* a fraction there: a value of an unnamed column */
    assert_int_equal(read_text("pd3.csv", ",a\n0.5,1\n2,3\n", NULL, &ds, &err), KPCA_OK);
    assert_int_equal(ds.index_col, 0);
    assert_int_equal(ds.dim, 2);
    assert_string_equal(ds.colnames[0], "");
    kpca_dataset_free(&ds);
    /* --columns decides alone */
    assert_int_equal(read_text("pd.csv", ",a,b,target\n0,5.1,3.5,0\n1,4.9,3.0,0\n", &(kpca_read_opts){.columns = "1,b"},
                               &ds, &err), KPCA_OK);
    assert_int_equal(ds.index_col, 0);
    assert_true(ds.x[0] == 0 && ds.x[1] == 3.5);
    kpca_dataset_free(&ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bom),          cmocka_unit_test(test_wide),         cmocka_unit_test(test_decimal_comma),
        cmocka_unit_test(test_columns_drop), cmocka_unit_test(test_pandas_index),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

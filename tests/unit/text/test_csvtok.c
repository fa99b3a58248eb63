/* test_csvtok.c - the quoting rule of delimited text (text/csvtok.h): the
 * closing quote, the row-end scan, the delimiter count and the delimiter
 * sniffer; the row-end
 * scan ends where csv.c's row parser's last whole row ends, on every input
 * of the fuzz corpora, whatever the delimiter. */
#include "testutil.h"

#include "lib/io/csvrows.h"
#include "lib/text/csvtok.h"

static void test_close(void **state)
{
    (void)state;
    const char *t = "\"ab\"\"c\",d";
    assert_ptr_equal(kpca_csvtok_close(t, t + strlen(t)), t + 6); /* "" inside is a quote */
    const char *u = "\"ab\"\"";
    assert_null(kpca_csvtok_close(u, u + strlen(u))); /* a pair at the end closes nothing */
    const char *v = "\"a\nb\"";
    assert_ptr_equal(kpca_csvtok_close(v, v + strlen(v)), v + 4); /* line ends are text */
}

/* the fields of one line by the rule: quotes undone, "" a quote, a
 * delimiter inside quotes text; blanks as the delimiter; the errors */
static void test_fields(void **state)
{
    (void)state;
    kpca_csvtok_field f[2];
    char a[] = "\"a,b\",\"say \"\"hi\"\"\"";
    assert_int_equal(kpca_csvtok_fields(a, ',', f, 2), 2);
    assert_string_equal(kpca_csvtok_text(&f[1]), "say \"hi\"");
    assert_string_equal(kpca_csvtok_text(&f[0]), "a,b");
    char b[] = "0  \"Iris setosa\" \r";
    assert_int_equal(kpca_csvtok_fields(b, ' ', f, 2), 2);
    assert_string_equal(kpca_csvtok_text(&f[1]), "Iris setosa");
    assert_string_equal(kpca_csvtok_text(&f[0]), "0");
    char c[] = "1;2;3,4", d[] = "\"x\" \t,y", e[] = ",";
    assert_int_equal(kpca_csvtok_fields(c, ';', f, 2), 3);
    assert_int_equal(kpca_csvtok_fields(c, ',', f, 2), 2);
    assert_int_equal(kpca_csvtok_fields(d, ',', f, 2), 2); /* blanks after a closing quote */
    assert_int_equal(kpca_csvtok_fields(e, ',', f, 2), 2);
    assert_int_equal(f[1].len, 0);
    char g[] = "\"open", h[] = "\"a\"b", i[] = "a\"b\"";
    assert_int_equal(kpca_csvtok_fields(g, ',', f, 2), -1);
    assert_int_equal(kpca_csvtok_fields(h, ',', f, 2), -1);
    assert_int_equal(kpca_csvtok_fields(i, ',', f, 2), 1); /* a quote inside a field is text */
    assert_string_equal(kpca_csvtok_text(&f[0]), "a\"b\"");
}

static void test_rows_end(void **state)
{
    (void)state;
    assert_int_equal(kpca_csvtok_rows_end("1,2\n3,4\n5,", 10, ','), 8);
    assert_int_equal(kpca_csvtok_rows_end("1,2", 3, ','), 0);
    /* a line end inside a quoted field ends no row */
    assert_int_equal(kpca_csvtok_rows_end("a,\"x\ny\"\n1,", 11, ','), 8);
    assert_int_equal(kpca_csvtok_rows_end("a,\"x\ny", 6, ','), 0);
    /* a quote inside a field is text: the line end after it ends the row */
    assert_int_equal(kpca_csvtok_rows_end("size\"in;w\n1;2\n", 14, ';'), 14);
    assert_int_equal(kpca_csvtok_rows_end("a, \"b\nc\n", 8, ','), 8); /* ' "b' is not quoted */
    /* whitespace text: a quote after blanks starts a field */
    assert_int_equal(kpca_csvtok_rows_end("1  \"a\nb\"\n2", 11, ' '), 9);
}

/* whitespace text: a '#' that starts a field starts a comment to the
 * line's end, a quote in it opening nothing; the scan and the parser agree */
static long parser_rows_end(const char *text, size_t len, char delim);
static void test_rows_end_comments(void **state)
{
    (void)state;
    const char *line = "1 2\n# \"x\n3 4\n5", *tail = "1 2 # \"x\n3 4\n5", *field = "1 a#\"x\n3 4\n";
    assert_int_equal(kpca_csvtok_rows_end(line, strlen(line), ' '), 13);
    assert_int_equal(parser_rows_end(line, strlen(line), ' '), 13);
    assert_int_equal(kpca_csvtok_rows_end(tail, strlen(tail), ' '), 13);
    assert_int_equal(parser_rows_end(tail, strlen(tail), ' '), 13);
    /* no comment: a '#' inside a field, and a '#' in delimited text */
    assert_int_equal(kpca_csvtok_rows_end(field, strlen(field), ' '), 11);
    assert_int_equal(parser_rows_end(field, strlen(field), ' '), 11);
    assert_int_equal(kpca_csvtok_rows_end("1,2\n#,\"x\n3,4\n", 14, ','), 4);
}

static void test_sniff(void **state)
{
    (void)state;
    assert_int_equal(kpca_csv_sniff("a,b,c\n1,2,3\n", 12, '.'), ',');
    assert_int_equal(kpca_csv_sniff("a;b;c\n1,5;2;3\n", 14, '.'), ';');
    assert_int_equal(kpca_csv_sniff("a\tb\n1\t2\n", 8, '.'), '\t');
    assert_int_equal(kpca_csv_sniff("\"x,y\";b\n1;2\n", 12, '.'), ';'); /* quoted comma skipped */
    assert_int_equal(kpca_csv_sniff("1 2 3\n", 6, '.'), 0);
    /* decimal commas separate no fields */
    assert_int_equal(kpca_csv_sniff("1,5\t2,5\n3,5\t4,0\n", 16, ','), '\t');
    assert_int_equal(kpca_csv_sniff("1,5 2,5\n3,5 4,0\n", 16, ','), 0);
    assert_int_equal(kpca_csv_sniff("1,5 2,5\n3,5 4,0\n", 16, '.'), ',');
    /* a quote inside a field is text, as the parser reads it: the ';' after
     * it separates (a sniffer that toggled on every quote saw one column) */
    const char *q = "size\"in;weight\n1;2\n3;4\n5;6\n";
    assert_int_equal(kpca_csv_sniff(q, strlen(q), '.'), ';');
    const char *r = "a\"b,c\"d,e\n1,2,3\n";
    assert_int_equal(kpca_csv_sniff(r, strlen(r), '.'), ',');
    /* a quoted field spanning lines is one row */
    const char *m = "\"a\nb\";c\n1;2\n";
    assert_int_equal(kpca_csv_sniff(m, strlen(m), '.'), ';');
    /* blank lines are skipped, as the parser skips them */
    const char *b = "a;b\n\n  \n1;2\n";
    assert_int_equal(kpca_csv_sniff(b, strlen(b), '.'), ';');
}

/* The end of the last whole row of text[0, len) by the row parser: after
 * the last row it returns that ended at a line end, and after the blank
 * lines that follow it; 0 for none; -1 when the parser stops on an error. */
static long parser_rows_end(const char *text, size_t len, char delim)
{
    char *buf = malloc(len + 1);
    assert_non_null(buf);
    memcpy(buf, text, len);
    buf[len] = '\0';
    csv_state s = {.path = "t", .p = buf, .end = buf + len, .line = 1, .delim = delim, .mark = '.'};
    kpca_error err;
    long end = 0;
    int r;
    /* (the parser ends fields with NUL in its copy: the line ends are text's) */
    while ((r = kpca_csv_next_row(&s, &err)) == 1)
        if (s.p > buf && text[s.p - buf - 1] == '\n')
            end = s.p - buf;
    /* and the blank lines after it, which belong to no row (the parser
     * skips them before the next one) */
    for (size_t i = (size_t)end; i < len; i++) {
        if (text[i] == '\n')
            end = (long)i + 1;
        else if (!kpca_text_blank(text[i]))
            break;
    }
    free(s.f);
    free(s.fline);
    free(buf);
    return r < 0 ? -1 : end;
}

/* Every prefix at a stride of `step` bytes (and the whole) of every file
 * of dir: the row-end scan and the parser agree, for each delimiter. */
static size_t agree_on_corpus(const char *dir, size_t step, size_t *compared)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        fail_msg("cannot open %s (run from the repository root)", dir);
    static const char delims[4] = {',', ';', '\t', ' '};
    size_t files = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *fp = fopen(path, "rb");
        assert_non_null(fp);
        char *text = malloc(1 << 20);
        assert_non_null(text);
        size_t n = fread(text, 1, 1 << 20, fp);
        fclose(fp);
        files++;
        for (size_t len = n; ; len = len > step ? len - step : 0) {
            /* the parser stops at a NUL (the readers refuse it before) */
            size_t l = strnlen(text, len);
            for (int k = 0; k < 4; k++) {
                long want = parser_rows_end(text, l, delims[k]);
                if (want < 0)
                    continue; /* the parser refuses the text: no rows to agree on */
                size_t got = kpca_csvtok_rows_end(text, l, delims[k]);
                if ((long)got != want)
                    fail_msg("%s, first %zu bytes, delimiter '%c': the row-end scan ends at %zu, the parser's last "
                             "row at %ld", path, l, delims[k] == '\t' ? 't' : delims[k], got, want);
                (*compared)++;
            }
            if (len == 0)
                break;
        }
        free(text);
    }
    closedir(d);
    return files;
}

/* the count against a byte-by-byte one, by each instruction set this CPU
 * has (isa; KPCA_CSVTOK_AVX512 + 1: kpca_csvtok_count's own choice): every
 * length and start up to a few blocks, bytes with the high bit set, and
 * runs of matches longer than a lane holds (255 blocks of 16) */
static size_t count_by(const char *text, size_t len, char c, int isa)
{
    return isa > KPCA_CSVTOK_AVX512 ? kpca_csvtok_count(text, len, c)
                                    : kpca_csvtok_count_by(text, len, c, (kpca_csvtok_isa)isa);
}

static void count_each(int isa);

static void test_count(void **state)
{
    (void)state;
    int paths = 0;
    for (int isa = KPCA_CSVTOK_WORDS; isa <= KPCA_CSVTOK_AVX512 + 1; isa++) {
        if (count_by(",", 1, ',', isa) == SIZE_MAX) {
            print_message("test_count: this CPU or build has no path %d\n", isa);
            continue;
        }
        count_each(isa);
        paths++;
    }
    assert_true(paths >= 2); /* the words and the chosen one, at least */
#if defined(__x86_64__)
    assert_int_not_equal(kpca_csvtok_count_by(",", 1, ',', KPCA_CSVTOK_SSE2), SIZE_MAX); /* every x86-64 */
#endif
}

static void count_each(int isa)
{
    enum { LEN = 9000 };
    char *text = malloc(LEN);
    assert_non_null(text);
    uint64_t seed = 7;
    for (size_t i = 0; i < LEN; i++) {
        const double u = tu_rand(&seed);
        text[i] = u < 0.3 ? ',' : u < 0.4 ? (char)0xff : u < 0.5 ? '\n' : (char)('0' + (int)(u * 100) % 10);
    }
    memset(text + 2000, ',', 4500); /* 281 blocks of matches */
    const char want[] = {',', (char)0xff, '\n', '7'};
    for (size_t w = 0; w < sizeof want; w++) {
        for (size_t from = 0; from < 40; from += 3) {
            for (size_t len = 0; from + len <= LEN; len += len < 100 ? 1 : 997) {
                size_t n = 0;
                for (size_t i = from; i < from + len; i++)
                    n += text[i] == want[w];
                if (count_by(text + from, len, want[w], isa) != n)
                    fail_msg("path %d: count of 0x%02x in [%zu, %zu): %zu, not %zu", isa, (unsigned char)want[w], from,
                             from + len, count_by(text + from, len, want[w], isa), n);
            }
        }
    }
    size_t all = 0;
    for (size_t i = 0; i < LEN; i++)
        all += text[i] == ',';
    assert_int_equal(count_by(text, LEN, ',', isa), all);
    /* a lane meets a match in each of more than 255 blocks of 16 in a row */
    for (size_t from = 2000; from < 2016; from++)
        assert_int_equal(count_by(text + from, 4400, ',', isa), 4400);
    free(text);
}

static void test_rows_end_is_the_parsers(void **state)
{
    (void)state;
    size_t compared = 0;
    size_t files = agree_on_corpus("tests/fuzz/corpus/csv", 7, &compared);
    files += agree_on_corpus("tests/fuzz/corpus/text", 13, &compared);
    print_message("row-end scan and parser agree on %zu prefixes of %zu corpus files\n", compared, files);
    assert_true(files >= 100); /* the corpora are there */
    assert_true(compared >= 10000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_close),
        cmocka_unit_test(test_fields),
        cmocka_unit_test(test_rows_end),
        cmocka_unit_test(test_rows_end_comments),
        cmocka_unit_test(test_sniff),
        cmocka_unit_test(test_count),
        cmocka_unit_test(test_rows_end_is_the_parsers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

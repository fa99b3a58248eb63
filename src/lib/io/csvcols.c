/* csvcols.c - which columns of delimited text become values (see csvcols.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "io/csvcols.h"
#include "text/textnum.h"
#include "support/mem.h"

/* 1 when s is a column number: digits only */
static int all_digits(const char *s, size_t len)
{
    if (len == 0)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return 1;
}

size_t kpca_csv_find_name(char **hdr, size_t ncols, const char *s, size_t len, size_t *count)
{
    size_t named = NO_COLUMN;
    *count = 0;
    for (int pass = 0; pass < 2 && hdr != NULL && named == NO_COLUMN; pass++)
        for (size_t j = 0; j < ncols; j++)
            if (strlen(hdr[j]) == len && (pass == 0 ? strncmp(hdr[j], s, len) == 0 : strncasecmp(hdr[j], s, len) == 0)) {
                named = named == NO_COLUMN ? j : named;
                ++*count;
            }
    return named;
}

/* The column (from 0) that the list item s[0..len) names, NO_COLUMN when
 * none; *why says why (for the message).  A header name first (exactly,
 * then ignoring case), else a number from 1; a number that is also
 * another column's name is ambiguous, and so is a name the header gives
 * to several columns. */
static size_t find_column(const char *s, size_t len, char **hdr, size_t ncols, const char **why)
{
    size_t times;
    const size_t named = kpca_csv_find_name(hdr, ncols, s, len, &times);
    if (times > 1) {
        *why = "several";
        return NO_COLUMN;
    }
    if (!all_digits(s, len)) {
        *why = hdr == NULL ? "no header" : "no such name";
        return named;
    }
    size_t c = 0;
    for (size_t i = 0; i < len && c <= ncols; i++)
        c = c * 10 + (size_t)(s[i] - '0');
    size_t numbered = c >= 1 && c <= ncols ? c - 1 : NO_COLUMN;
    if (named != NO_COLUMN && numbered != NO_COLUMN && named != numbered) {
        *why = "ambiguous";
        return NO_COLUMN;
    }
    *why = "out of range";
    return named != NO_COLUMN ? named : numbered;
}

/* The refusal of a list item or --label s[0..len) that is a number and
 * also another column's name (find_column's "ambiguous"). */
static kpca_status ambiguous_fail(const char *path, const char *optname, const char *s, size_t len, kpca_error *err)
{
    return kpca_fail(err, KPCA_EUSAGE, "'%s': %s: '%.*s' is both a column's name and another column's number; give "
                     "the other column's name instead", path, optname, (int)len, s);
}

/* Appends ", 'item'" (or "'item'" first) to buf (cap bytes, cut short
 * with "..." when full). */
static void list_add(char *buf, size_t cap, const char *s, size_t len)
{
    size_t at = strlen(buf);
    if (at + 4 >= cap)
        return;
    int w = snprintf(buf + at, cap - at, "%s'%.*s'", at ? ", " : "", (int)(len > 40 ? 40 : len), s);
    if (w < 0 || (size_t)w >= cap - at)
        snprintf(buf + cap - 4, 4, "...");
}

/* Marks the columns named by the comma-separated list (opt, the option's
 * name for messages) as `mark` in role[]; KPCA_EUSAGE naming every item that
 * names no column, or one named twice, or one already given a role. */
static kpca_status mark_list(const char *path, const char *optname, const char *list, char **hdr, size_t ncols,
                             int *role, int mark, size_t *order, size_t *count, kpca_error *err)
{
    char missing[512] = "", why_text[256] = "";
    size_t nmissing = 0;
    for (const char *p = list;; p++) {
        size_t len = strcspn(p, ",");
        const char *why = "";
        size_t j = find_column(p, len, hdr, ncols, &why);
        if (len == 0) {
            return kpca_fail(err, KPCA_EUSAGE, "'%s': %s '%s': an empty item (expected header names or column "
                             "numbers from 1, separated by commas)", path, optname, list);
        } else if (j == NO_COLUMN && strcmp(why, "several") == 0) {
            return kpca_fail(err, KPCA_EUSAGE, "'%s': %s: the header names several columns '%.*s'; name the one "
                             "meant by its number from 1", path, optname, (int)len, p);
        } else if (j == NO_COLUMN && strcmp(why, "ambiguous") == 0) {
            return ambiguous_fail(path, optname, p, len, err);
        } else if (j == NO_COLUMN) {
            list_add(missing, sizeof missing, p, len);
            nmissing++;
            if (why_text[0] == '\0' && strcmp(why, "no header") == 0)
                snprintf(why_text, sizeof why_text, " (the file has no header row: name columns by number from 1, "
                         "or give --header yes if its first row names them)");
            else if (why_text[0] == '\0' && strcmp(why, "out of range") == 0)
                snprintf(why_text, sizeof why_text, " (the file has %zu columns)", ncols);
            else if (why_text[0] == '\0' && hdr != NULL && hdr[0][0] == '#' && hdr[0][1] == ' ' &&
                     strlen(hdr[0] + 2) == len && strncmp(hdr[0] + 2, p, len) == 0)
                snprintf(why_text, sizeof why_text, " (the first column is named '%.40s', as numpy.savetxt writes "
                         "its header after '# ': name it so, or by number, or save with comments='')", hdr[0]);
        } else if (role[j] != 0) {
            return kpca_fail(err, KPCA_EUSAGE, "'%s': %s: column %zu%s%s%s is %s", path, optname, j + 1,
                             hdr ? " ('" : "", hdr ? hdr[j] : "", hdr ? "')" : "",
                             role[j] == CSV_ROLE_LABEL ? "the label column (--label)" : "named twice");
        } else {
            role[j] = mark;
            if (order != NULL)
                order[(*count)++] = j;
        }
        p += len;
        if (*p == '\0')
            break;
    }
    if (nmissing > 0)
        return kpca_fail(err, KPCA_EUSAGE, "'%s': %s: no column %s%s", path, optname, missing, why_text);
    return KPCA_OK;
}

typedef struct {
    const char *name;
    size_t col;
} named_col;

static int cmp_by_name(const void *a, const void *b)
{
    const named_col *x = a, *y = b;
    const int c = strcmp(x->name, y->name);
    return c != 0 ? c : (x->col > y->col) - (x->col < y->col);
}

/* A name that the header gives to more value columns (role 0) than the
 * model uses it: which of them the model meant is unknown, so it is
 * refused (KPCA_EFORMAT) rather than matched to the first.  Cost: a sort
 * of the names, O(ncols log ncols) strcmps, and a pass over the model's
 * names per name given twice; ENOMEM when the sort's ncols slots cannot
 * be had. */
static kpca_status select_unique(const char *path, const kpca_read_opts *opts, char **hdr, size_t ncols,
                                 const int *role, kpca_error *err)
{
    named_col *v = kpca_alloc_array(ncols ? ncols : 1, 1, sizeof *v);
    if (v == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
    size_t n = 0;
    for (size_t j = 0; j < ncols; j++)
        if (role[j] == 0)
            v[n++] = (named_col){hdr[j], j};
    qsort(v, n, sizeof *v, cmp_by_name);
    kpca_status st = KPCA_OK;
    for (size_t a = 0, b; st == KPCA_OK && a < n; a = b) {
        for (b = a + 1; b < n && strcmp(v[b].name, v[a].name) == 0; b++)
            ;
        size_t used = 0;
        for (size_t i = 0; b - a > 1 && i < opts->nselect; i++)
            used += strcmp(opts->select[i], v[a].name) == 0;
        if (used > 0 && used < b - a)
            st = kpca_fail(err, KPCA_EFORMAT, "'%s': the header names %zu columns '%.40s' (%zu and %zu among them), "
                           "and the model has %zu of that name: which %s meant is unknown; rename them, or leave the "
                           "others out with --drop", path, b - a, v[a].name, v[a].col + 1, v[a + 1].col + 1, used,
                           used == 1 ? "one is" : "are");
    }
    kpca_free(v);
    return st;
}

kpca_status kpca_csv_columns(const char *path, const kpca_read_opts *opts, char **hdr, size_t ncols, size_t col,
                             int **dest, size_t *dim, kpca_error *err)
{
    *dest = NULL;
    *dim = ncols - (col != NO_COLUMN);
    const char *keep = opts != NULL ? opts->columns : NULL, *drop = opts != NULL ? opts->drop : NULL;
    const int select = opts != NULL && opts->select != NULL && hdr != NULL; /* else by position */
    if (keep == NULL && drop == NULL && !select)
        return KPCA_OK;
    if (keep != NULL && select)
        return kpca_fail(err, KPCA_EUSAGE, "'%s': --columns names the columns of the data a model is fit on; "
                         "the model's own columns are read here", path);
    int *role = kpca_calloc(ncols, sizeof *role);
    size_t *order = kpca_calloc(ncols, sizeof *order);
    int *d = kpca_alloc_array(ncols, 1, sizeof *d);
    kpca_status st = KPCA_OK;
    size_t count = 0;
    if (role == NULL || order == NULL || d == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
        goto done;
    }
    if (col != NO_COLUMN)
        role[col] = CSV_ROLE_LABEL;
    if (drop != NULL)
        st = mark_list(path, "--drop", drop, hdr, ncols, role, CSV_ROLE_SKIP, NULL, NULL, err);
    if (st == KPCA_OK && keep != NULL)
        st = mark_list(path, "--columns", keep, hdr, ncols, role, CSV_ROLE_VALUE, order, &count, err);
    if (st == KPCA_OK && select)
        st = select_unique(path, opts, hdr, ncols, role, err);
    if (st == KPCA_OK && select) {
        /* a model's fit columns, by name only: every one must be there */
        char missing[512] = "";
        size_t nmissing = 0;
        for (size_t i = 0; i < opts->nselect; i++) {
            const char *name = opts->select[i];
            /* a name the header gives several columns: its k-th use in
             * the model is its k-th column here, in file order */
            size_t j = NO_COLUMN, other = NO_COLUMN;
            for (size_t c = 0; c < ncols && j == NO_COLUMN; c++)
                if (strcmp(hdr[c], name) == 0 && role[c] == 0)
                    j = c;
                else if (strcmp(hdr[c], name) == 0 && other == NO_COLUMN && role[c] != CSV_ROLE_VALUE)
                    other = c;
            if (j == NO_COLUMN && other != NO_COLUMN) {
                st = kpca_fail(err, KPCA_EUSAGE, "'%s': the model's column '%s' is %s here", path, name,
                               role[other] == CSV_ROLE_LABEL ? "the label column" : "left out by --drop");
                goto done;
            } else if (j == NO_COLUMN) {
                list_add(missing, sizeof missing, name, strlen(name));
                nmissing++;
            } else {
                role[j] = CSV_ROLE_VALUE;
                order[count++] = j;
            }
        }
        if (nmissing > 0) {
            st = kpca_fail(err, KPCA_EFORMAT, "'%s' lacks %zu of the model's %zu columns: %s", path, nmissing,
                           opts->nselect, missing);
            goto done;
        }
    }
    if (st != KPCA_OK)
        goto done;
    if (keep == NULL && !select) /* --drop alone: every other column, in file order */
        for (size_t j = 0; j < ncols; j++)
            if (role[j] == 0)
                order[count++] = j;
    for (size_t j = 0; j < ncols; j++)
        d[j] = -1;
    for (size_t i = 0; i < count; i++)
        d[order[i]] = (int)i;
    if (count == 0) {
        st = kpca_fail(err, KPCA_EUSAGE, "'%s': no value columns left (--columns and --drop leave none)", path);
        goto done;
    }
    *dest = d;
    *dim = count;
    d = NULL;
done:
    kpca_free(role);
    kpca_free(order);
    kpca_free(d);
    return st;
}

/* header names that mark the label column when no option names it */
static const char *const usual_names[] = {"label", "target", "class", "y"};

int kpca_csv_usual_name(char *field)
{
    for (size_t u = 0; u < sizeof usual_names / sizeof usual_names[0]; u++)
        if (strcasecmp(kpca_text_trim(field), usual_names[u]) == 0)
            return 1;
    return 0;
}

int kpca_csv_label_by_position(const char *opt)
{
    return opt == NULL || strcmp(opt, "none") == 0 || strcmp(opt, "first") == 0 || strcmp(opt, "last") == 0 ||
           (opt[0] >= '0' && opt[0] <= '9' && strspn(opt, "0123456789") == strlen(opt));
}

kpca_status kpca_csv_label_column(const char *path, const char *opt, char **hdr, size_t ncols, size_t *col,
                                  kpca_error *err)
{
    *col = 0;
    if (opt == NULL) { /* a column named for labels, else none; two of one name are refused */
        for (size_t u = 0; hdr != NULL && u < sizeof usual_names / sizeof usual_names[0]; u++) {
            size_t first = NO_COLUMN, second = NO_COLUMN, times = 0;
            for (size_t j = 0; j < ncols; j++) {
                if (strcasecmp(hdr[j], usual_names[u]) != 0)
                    continue;
                if (times == 0)
                    first = j;
                else if (times == 1)
                    second = j;
                times++;
            }
            if (times > 1)
                return kpca_fail(err, KPCA_EUSAGE, "'%s': the header names %zu columns '%s' (%zu and %zu%s), and any "
                                 "could hold the labels: give --label with the number from 1 of the one that does, "
                                 "or --label none if none does", path, times, hdr[first], first + 1, second + 1,
                                 times > 2 ? " among them" : "");
            if (first != NO_COLUMN) {
                *col = first;
                return KPCA_OK;
            }
        }
        *col = NO_COLUMN;
        return KPCA_OK;
    }
    if (strcmp(opt, "none") == 0) {
        *col = NO_COLUMN;
        return KPCA_OK;
    }
    if (strcmp(opt, "first") == 0)
        return KPCA_OK;
    if (strcmp(opt, "last") == 0) {
        *col = ncols - 1;
        return KPCA_OK;
    }
    if (opt[0] >= '0' && opt[0] <= '9' && strspn(opt, "0123456789") == strlen(opt)) {
        const char *why = ""; /* a number, as --columns and --drop take one */
        if ((*col = find_column(opt, strlen(opt), hdr, ncols, &why)) != NO_COLUMN)
            return KPCA_OK;
        if (strcmp(why, "ambiguous") == 0)
            return ambiguous_fail(path, "--label", opt, strlen(opt), err);
        if (strcmp(why, "out of range") == 0)
            return kpca_fail(err, KPCA_EUSAGE, "'%s': --label %s: the file has %zu columns", path, opt, ncols);
    }
    if (hdr == NULL)
        return kpca_fail(err, KPCA_EUSAGE,
                         "'%s': --label %s names a column, but the file has no header row (--header yes if its "
                         "first row is one)", path, opt);
    size_t times;
    if ((*col = kpca_csv_find_name(hdr, ncols, opt, strlen(opt), &times)) != NO_COLUMN && times == 1)
        return KPCA_OK;
    if (times > 1)
        return kpca_fail(err, KPCA_EUSAGE, "'%s': --label %s: the header names several columns '%s'; name the one "
                         "meant by its number from 1", path, opt, opt);
    return kpca_fail(err, KPCA_EUSAGE, "'%s': --label %s: no column of that name in the header", path, opt);
}

void kpca_csv_left_out(const kpca_read_opts *opts, size_t ncols, unsigned char *out)
{
    memset(out, 0, ncols);
    const char *drop = opts != NULL && opts->select == NULL ? opts->drop : NULL;
    for (const char *p = drop; p != NULL; p++) {
        const char *why;
        const size_t len = strcspn(p, ","), j = all_digits(p, len) ? find_column(p, len, NULL, ncols, &why) : NO_COLUMN;
        if (j == NO_COLUMN) { /* a name, or a number out of range */
            memset(out, 0, ncols);
            return;
        }
        out[j] = 1;
        p += len;
        if (*p == '\0')
            break;
    }
}

/* The fields f of a first row but those skip marks, when they are plain
 * non-negative integers (digits only, at most 9, no leading 0), at least
 * two, each larger than the one before: their count, *first the first and
 * *step 1 when each is one more than the one before; 0 otherwise. */
static size_t increasing_row(char **f, size_t ncols, const unsigned char *skip, size_t *first, int *step)
{
    size_t n = 0, last = 0;
    *step = 1;
    for (size_t j = 0; j < ncols; j++) {
        if (skip[j])
            continue;
        const char *t = kpca_text_trim(f[j]);
        size_t v = 0, len = strspn(t, "0123456789");
        if (len == 0 || len > 9 || t[len] != '\0' || (t[0] == '0' && len > 1))
            return 0;
        for (size_t k = 0; k < len; k++)
            v = v * 10 + (size_t)(t[k] - '0');
        if (n > 0 && v <= last)
            return 0;
        *step = *step && (n == 0 || v == last + 1);
        if (n++ == 0)
            *first = v;
        last = v;
    }
    return n >= 2 ? n : 0;
}

/* The first line from p (up to end) with text other than blanks: NULL when
 * none, else its start, *len its length */
static const char *next_line(const char *p, const char *end, size_t *len)
{
    while (p < end && (*p == '\n' || *p == '\r' || kpca_text_blank(*p)))
        p++;
    if (p >= end)
        return NULL;
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    *len = (size_t)((nl != NULL ? nl : end) - p);
    return p;
}

/* 1 when every field of f but those skip marks is a number */
static int numbers_only_row(char **f, size_t ncols, const unsigned char *skip, char mark)
{
    for (size_t j = 0; j < ncols; j++) {
        const char *p = kpca_text_trim(f[j]);
        double v;
        if (!skip[j] && (*p == '\0' || kpca_parse_number_mark(&p, '\0', mark, &v) != 0 || *p != '\0'))
            return 0;
    }
    return 1;
}

kpca_status kpca_csv_numbers_row(const char *path, size_t line, char **f, size_t ncols, unsigned char *skip,
                                 size_t named, const char *next, const char *end, char mark, int *header,
                                 int *numbered, kpca_error *err)
{
    *header = *numbered = 0;
    size_t first = 0, len = 0;
    int step;
    /* pandas' to_csv(): its index unnamed, then the columns' default names
     * from 0 or 1 (or some of them): as a data row, refused for its empty
     * field */
    const unsigned char skip0 = skip[0];
    skip[0] = 1;
    *header = ncols >= 3 && *kpca_text_trim(f[0]) == '\0' && increasing_row(f, ncols, skip, &first, &step) > 0 &&
              first <= 1;
    skip[0] = skip0;
    if (*header)
        return KPCA_OK;
    /* a name only where --drop leaves a column out, numbers elsewhere: a
     * header over values, or a data row with its identifier */
    if (named != NO_COLUMN && numbers_only_row(f, ncols, skip, mark))
        return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: its only text, '%.40s', is in column %zu, which --drop "
                         "leaves out: is the line a header (give --header yes) or a data row (give --header no)?",
                         path, line, kpca_text_trim(f[named]), named + 1);
    const size_t n = increasing_row(f, ncols, skip, &first, &step);
    if (n == 0)
        return KPCA_OK;
    /* 0..D-1 or 1..D: pandas' default names, column numbers, or data;
     * three or more other increasing integers above values that are not
     * all integers: some columns' default names, years, or data.  The row
     * is data when it is the only one. */
    *numbered = step && first <= 1;
    const char *l = next_line(next, end, &len);
    if (l == NULL || (!*numbered && (n < 3 || memchr(l, mark, len) == NULL)))
        return KPCA_OK;
    char held[80] = "";
    if (*numbered) {
        if (n == 2)
            snprintf(held, sizeof held, "%zu, %zu", first, first + 1);
        else
            snprintf(held, sizeof held, "%zu, %zu, ..., %zu", first, first + 1, first + n - 1);
        return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu holds %s: %s? or a data row? give --header yes to take it "
                         "as the header, or --header no to read it as a data row", path, line, held,
                         first == 0 ? "pandas' default column names" : "column numbers as names");
    }
    for (size_t j = 0, shown = 0, at = 0; j < ncols && shown < 3; j++)
        if (!skip[j])
            at += (size_t)snprintf(held + at, sizeof held - at, "%s%.12s", shown++ ? ", " : "", kpca_text_trim(f[j]));
    return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu holds the increasing integers %s%s above values that are not "
                     "all integers: column names (pandas' default names of some columns, years)? or a data row? give "
                     "--header yes to take it as the header, or --header no to read it as a data row", path, line,
                     held, n > 3 ? ", ..." : "");
}

int kpca_csv_fitted_header(const kpca_read_opts *opts, char **f, size_t ncols, size_t lcol)
{
    size_t k = 0;
    for (size_t j = 0; opts != NULL && opts->select != NULL && j < ncols; j++)
        if (j != lcol && (k >= opts->nselect || strcmp(kpca_text_trim(f[j]), opts->select[k++]) != 0))
            return 0;
    return opts != NULL && opts->select != NULL && k == opts->nselect;
}

kpca_status kpca_csv_hash_header(const char *path, size_t line, char **f, size_t *fline, size_t *ncols,
                                 const char *next, const char *end, kpca_error *err)
{
    while (next < end && (kpca_text_blank(*next) || *next == '\n'))
        next++;
    if (next < end && *next == '#')
        return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu begins with '#', and so does the next line: which one "
                         "names the columns (--header yes)? give --skip-rows N to start at it", path, line);
    if (f[0][1] != '\0') {
        f[0]++;
        return KPCA_OK;
    }
    if (*ncols < 2)
        return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: a header of no names ('#')", path, line);
    memmove(f, f + 1, (*ncols - 1) * sizeof *f);
    memmove(fline, fline + 1, (*ncols - 1) * sizeof *fline);
    --*ncols;
    return KPCA_OK;
}

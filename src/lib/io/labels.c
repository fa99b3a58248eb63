/* labels.c - class labels from text, label files. */
#include "io/labels.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "file/matfile.h"
#include "io/npy.h"
#include "text/csvtok.h"
#include "text/textfile.h"
#include "text/textnum.h"
#include "support/mem.h"
#include "support/parts.h"

/* 1 with *v for an integer label, 0 for a non-number, -1 for a number that
 * is no int. */
static int int_label(const char *s, int *v)
{
    const char *p = s;
    double d;
    if (kpca_parse_number(&p, '\0', &d) != 0 || *p != '\0')
        return 0;
    return kpca_label_of_double(d, v) ? 1 : -1;
}

int kpca_labels_missing_mark(const char *t)
{
    if (t[0] != '\0' && strchr("?Nn#<-1", t[0]) == NULL)
        return 0; /* (a label's first byte rules out most: the labels' pass meets every row's) */
    static const char *const marks[] = {"", "?", "NA", "N/A", "n/a", "#N/A", "#N/A N/A", "#NA", "<NA>", "NaN",
                                        "nan", "-NaN", "-nan", "NAN", "NULL", "null", "None", "-1.#IND", "1.#IND",
                                        "-1.#QNAN", "1.#QNAN"};
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (strcmp(t, marks[i]) == 0)
            return 1;
    return 0;
}

/* The missing labels' error: how many, the first few lines, the mark. */
static kpca_status missing_error(kpca_error *err, const char *path, size_t col, unsigned long long count,
                                 const unsigned long long *lines, const char *mark)
{
    char where[32] = "", at[96] = "", what[48];
    if (col != 0)
        snprintf(where, sizeof where, ", column %zu", col);
    const size_t shown = count < KPCA_LABELS_MISSING_SHOWN ? (size_t)count : KPCA_LABELS_MISSING_SHOWN;
    for (size_t i = 0, o = 0; i < shown && o < sizeof at; i++)
        o += (size_t)snprintf(at + o, sizeof at - o, "%s%llu", i == 0 ? "" : ", ", lines[i]);
    if (mark[0] == '\0')
        snprintf(what, sizeof what, "an empty field");
    else
        snprintf(what, sizeof what, "'%s'", mark);
    const char *fix = col != 0 ? "drop those rows first (pandas: df.dropna(subset=[label column]))"
                               : "drop those lines and the data's rows with them first, or leave --labels out";
    return kpca_fail(err, KPCA_EFORMAT,
                     "'%s' line %llu%s: the label is missing (%s); %llu label%s missing in all, on line%s %s%s: a "
                     "point without a class is neither fitted nor scored; %s",
                     path, lines[0], where, what, count, count == 1 ? " is" : "s are", shown == 1 ? "" : "s", at,
                     count > shown ? ", ..." : "", fix);
}

static uint64_t hash_name(const char *s)
{
    uint64_t h = 1469598103934665603u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        kpca_free(names[i]);
    kpca_free(names);
}

/* Maps names to codes in order of first appearance into y. */
static kpca_status map_names(const char *path, char *const *tok, size_t n, int *y, char ***names_out,
                             size_t *nnames_out, kpca_error *err)
{
    size_t slots = 64;
    while (slots < 2 * n)
        slots *= 2;
    size_t *table = kpca_alloc_array(slots, 1, sizeof(size_t)); /* name index + 1; 0: empty */
    char **names = kpca_alloc_array(n ? n : 1, 1, sizeof(char *));
    size_t nnames = 0;
    if (table == NULL || names == NULL) {
        kpca_free(table);
        kpca_free(names);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for the class names of '%s'", path);
    }
    memset(table, 0, slots * sizeof(size_t));
    for (size_t i = 0; i < n; i++) {
        const char *s = tok[i];
        size_t h = (size_t)(hash_name(s) & (slots - 1));
        while (table[h] != 0 && strcmp(names[table[h] - 1], s) != 0)
            h = (h + 1) & (slots - 1);
        if (table[h] == 0) {
            if (nnames == (size_t)INT_MAX || (names[nnames] = kpca_malloc(strlen(s) + 1)) == NULL) {
                free_names(names, nnames);
                kpca_free(table);
                return kpca_fail(err, KPCA_ENOMEM, "out of memory for the class names of '%s'", path);
            }
            strcpy(names[nnames], s);
            table[h] = ++nnames;
        }
        y[i] = (int)(table[h] - 1);
    }
    kpca_free(table);
    *names_out = names;
    *nnames_out = nnames;
    return KPCA_OK;
}

static kpca_status label_error(kpca_error *err, const char *path, const size_t *line, size_t col, size_t i,
                               const char *what, const char *tok, const char *hint)
{
    char where[96] = "";
    if (line != NULL && col != 0)
        snprintf(where, sizeof where, " line %zu, column %zu", line[i], col);
    else if (line != NULL)
        snprintf(where, sizeof where, " line %zu", line[i]);
    else
        snprintf(where, sizeof where, " label %zu", i + 1);
    if (tok == NULL)
        return kpca_fail(err, KPCA_EFORMAT, "'%s'%s: %s%s", path, where, what, hint);
    return kpca_fail(err, KPCA_EFORMAT, "'%s'%s: %s'%.40s'%s%s", path, where, what, tok,
                     strlen(tok) > 40 ? "..." : "", hint);
}

kpca_status kpca_labels_from_text(const char *path, char *const *tok, const size_t *line, size_t col, size_t n,
                                  kpca_dataset *ds, kpca_error *err)
{
    int *y = kpca_alloc_array(n ? n : 1, 1, sizeof(int));
    if (y == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for %zu labels of '%s'", n, path);
    int names = 0;
    size_t first_bad = n;
    char **t = kpca_alloc_array(n ? n : 1, 1, sizeof(char *));
    if (t == NULL) {
        kpca_free(y);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for %zu labels of '%s'", n, path);
    }
    unsigned long long missing = 0, at[KPCA_LABELS_MISSING_SHOWN];
    size_t first_missing = 0, first_not_utf8 = n;
    for (size_t i = 0; i < n; i++) {
        t[i] = kpca_text_trim(tok[i]);
        if (kpca_labels_missing_mark(t[i])) {
            if (missing < KPCA_LABELS_MISSING_SHOWN)
                at[missing] = line != NULL ? line[i] : i + 1;
            if (missing++ == 0)
                first_missing = i;
            continue;
        }
        int r = int_label(t[i], &y[i]);
        if (r == 0 && first_not_utf8 == n && !kpca_text_utf8(t[i]))
            first_not_utf8 = i;
        if (r == 0)
            names = 1;
        else if (r < 0 && first_bad == n)
            first_bad = i;
    }
    kpca_status st = KPCA_OK;
    if (missing > 0) {
        st = missing_error(err, path, col, missing, at, t[first_missing]);
    } else if (first_not_utf8 < n) {
        st = kpca_text_utf8_fail(path, line != NULL ? line[first_not_utf8] : first_not_utf8 + 1, col, "class name",
                                 t[first_not_utf8], err);
    } else if (!names && first_bad < n) {
        st = label_error(err, path, line, col, first_bad,
                         "labels are integers or names, found the number ", t[first_bad],
                         " (data without labels: --label none; another column: --label COL)");
    } else if (names) {
        st = map_names(path, t, n, y, &ds->names, &ds->nnames, err);
    }
    kpca_free(t);
    if (st != KPCA_OK) {
        kpca_free(y);
        return st;
    }
    ds->y = y;
    return KPCA_OK;
}

/* 1 with *idx when field f is an index: 1 to 18 digits, quoted or not. */
static int index_field(const kpca_csvtok_field *f, size_t *idx)
{
    const char *p = f->p + f->quoted, *e = f->p + f->len;
    if (e == p || e - p > 18)
        return 0;
    size_t v = 0;
    for (; p < e; p++) {
        if (*p < '0' || *p > '9')
            return 0;
        v = v * 10 + (size_t)(*p - '0');
    }
    *idx = v;
    return 1;
}

/* The separator of "index<sep>label" lines over tok[from, n): the first
 * of ',', tab, ';' and blanks under which every line is two fields, the
 * first an index; 0 when none is. */
static char index_sep(char **tok, size_t from, size_t n)
{
    static const char seps[] = {',', '\t', ';', ' '};
    kpca_csvtok_field f[2];
    size_t idx;
    for (size_t k = 0; k < sizeof seps && from < n; k++) {
        size_t i = from;
        while (i < n && kpca_csvtok_fields(tok[i], seps[k], f, 2) == 2 && index_field(&f[0], &idx))
            i++;
        if (i == n)
            return seps[k];
    }
    return 0;
}

/* Field k (0 or 1) of line s under sep (0: ','), copied into b (size
 * bytes), unquoted and trimmed, *nf the line's fields; NULL for a line
 * longer than b or without field k. */
static char *field_copy(const char *s, char sep, int k, int *nf, char *b, size_t size)
{
    kpca_csvtok_field f[2];
    if (strlen(s) >= size)
        return NULL;
    strcpy(b, s);
    *nf = kpca_csvtok_fields(b, sep != 0 ? sep : ',', f, 2);
    return *nf > k ? kpca_text_trim(kpca_csvtok_text(&f[k])) : NULL;
}

/* A header line s above labels whose index separator is sep (0: none):
 * its first field (unquoted) empty before another (pandas' ",0"), a usual
 * name of a labels column (R's "x" of a vector, pandas' "0" of an unnamed
 * Series) whatever the case; or, with `word` set, the line's one field a
 * name (no number, no missing mark). */
static int header_line(const char *s, char sep, int word)
{
    static const char *const names[] = {"0", "label", "labels", "target", "class", "y", "x", "index"};
    char h[128];
    int nf, v;
    const char *t = field_copy(s, sep, 0, &nf, h, sizeof h);
    if (t == NULL || t[0] == '\0')
        return t != NULL && nf > 1;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcasecmp(t, names[i]) == 0)
            return 1;
    return word && nf == 1 && int_label(t, &v) == 0 && !kpca_labels_missing_mark(t) && kpca_text_utf8(t);
}

/* 1 when the label of every line of tok[from, n) is an integer. */
static int integer_labels(char **tok, size_t from, size_t n, char sep)
{
    char b[64];
    int nf, v;
    for (size_t i = from; i < n; i++) {
        const char *t = field_copy(tok[i], sep, sep != 0, &nf, b, sizeof b);
        if (t == NULL || nf != 1 + (sep != 0) || int_label(t, &v) != 1)
            return 0;
    }
    return 1;
}

/* The refusal of labels line `line`, tok, for the shape `what`. */
static kpca_status shape_error(const char *path, const char *tok, size_t line, const char *what, const char *fix,
                               kpca_error *err)
{
    return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: '%.40s' %s: a labels file holds one label a line, or "
                     "'index,label' lines whose indices count them from 0 or 1 (pandas' Series.to_csv; ';', a tab "
                     "or blanks for the comma alike)%s",
                     path, line, tok, what, fix);
}

/* The shape of a labels file's n lines (want: the data's points, 0: not
 * known), fields read by the quoting rule: one label a line, or
 * "index<sep>label" lines (sep ',', tab, ';' or blanks on every line) whose
 * indices count the lines from 0 or 1 (*indexed), either after one header
 * line (*skip 1) where the lines are one more than the points; any other
 * shape refused, naming it.  The lines cut to their labels, unquoted. */
static kpca_status labels_shape(const char *path, char **tok, const size_t *line, size_t n, size_t want,
                                size_t *skip, int *indexed, kpca_error *err)
{
    static const char reindex[] = ": a filtered pandas Series keeps its index: write it with s.reset_index(drop=True)"
                                  ".to_csv(FILE) or s.to_csv(FILE, index=False) (names such as '3 stars': quoted)";
    static const char unclosed[] = "has a quoted field not closed on its line, or text after its closing quote";
    *skip = 0;
    char sep = 0;
    if (n >= 2 && (want == 0 || n == want + 1)) {
        sep = index_sep(tok, 1, n);
        if (header_line(tok[0], sep, 0) || (header_line(tok[0], sep, 1) && integer_labels(tok, 1, n, sep)))
            *skip = 1;
    }
    if (*skip == 0)
        sep = index_sep(tok, 0, n);
    const char *one = n - *skip == 1 && want > 1 ? tok[*skip] : NULL; /* every label on one line? */
    if (one != NULL && one[strcspn(one, ", \t")] != '\0')
        return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu holds all its labels, separated by %s: a labels file holds "
                         "one label a line: write them so, e.g. tr -s '%s' '\\n' <'%s' >labels.txt",
                         path, line[*skip], strchr(one, ',') != NULL ? "commas" : "blanks",
                         strchr(one, ',') != NULL ? "," : " ", path);
    kpca_csvtok_field f[2];
    size_t idx, first = 0;
    char what[96];
    for (size_t i = *skip; sep != 0 && i < n; i++) { /* the indices count the lines from 0 or 1 */
        kpca_csvtok_fields(tok[i], sep, f, 2);
        index_field(&f[0], &idx);
        first = i == *skip ? idx : first;
        if (first > 1 || idx != first + (i - *skip)) {
            snprintf(what, sizeof what, "is an index %zu where %zu %s", idx, first > 1 ? 0 : first + (i - *skip),
                     first > 1 ? "or 1 starts the count" : "counts the lines");
            return shape_error(path, tok[i], line[i], what, reindex, err);
        }
    }
    for (size_t i = *skip; sep == 0 && i < n; i++) { /* one label a line: no field separator */
        const int nc = kpca_csvtok_fields(tok[i], ',', f, 2), nt = nc < 0 ? 0 : kpca_csvtok_fields(tok[i], '\t', f, 2);
        if (nc < 0 || nt < 0)
            return shape_error(path, tok[i], line[i], unclosed, "", err);
        if (nc > 1 || nt > 1) {
            const char d = nc > 1 ? ',' : '\t';
            size_t bad = *skip;
            int nf;
            while ((nf = kpca_csvtok_fields(tok[bad], d, f, 2)) == 2 && index_field(&f[0], &idx))
                bad++;
            snprintf(what, sizeof what, "is %d field%s", nf, nf == 1 ? ", where other lines have more" : "s");
            return shape_error(path, tok[bad], line[bad], nf < 0 ? unclosed : what, " (a class name with a comma: "
                               "quoted, \"a,b\")", err);
        }
    }
    for (size_t i = *skip; i < n; i++) {
        kpca_csvtok_fields(tok[i], sep != 0 ? sep : ',', f, 2);
        tok[i] = kpca_csvtok_text(&f[sep != 0]);
    }
    *indexed = sep != 0; /* (set only on success: the caller's is 0) */
    if (*skip == 0 && want != 0 && n == want + 1 && header_line(tok[0], 0, 1))
        return kpca_fail(err, KPCA_EFORMAT, "'%s' has %zu labels but the data has %zu points; if line %zu ('%.40s') "
                         "is a header, delete it (tail -n +2) or write the file without it (pandas: header=False): a "
                         "first line is taken for one when it names a labels column (label, target, class, y, x, 0), "
                         "is empty before its separator (',0') or stands above integer labels",
                         path, n, want, line[0], tok[0]);
    return KPCA_OK;
}

static kpca_status labels_from_lines(const char *path, size_t want, kpca_dataset *out, size_t *count,
                                     kpca_error *err)
{
    char *buf;
    size_t len;
    kpca_status st = kpca_read_text_file(path, &buf, &len, err);
    if (st != KPCA_OK)
        return st;
    size_t n = 0, cap = 0, lineno = 0;
    char **tok = NULL;
    size_t *line = NULL;
    for (char *p = buf; p < buf + len;) {
        char *nl = memchr(p, '\n', (size_t)(buf + len - p));
        char *end = nl != NULL ? nl : buf + len;
        *end = '\0';
        lineno++;
        char *s = p;
        p = end + 1;
        while (kpca_text_blank(*s))
            s++;
        if (*s == '\0')
            continue;
        if (n == cap) {
            size_t c2 = cap;
            char **nt = kpca_grow(tok, &cap, n + 1, sizeof *tok, 1024);
            size_t *nlines = nt == NULL ? NULL : kpca_grow(line, &c2, n + 1, sizeof *line, 1024);
            if (nt != NULL)
                tok = nt;
            if (nlines == NULL) {
                st = kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
                break;
            }
            line = nlines;
        }
        tok[n] = s;
        line[n++] = lineno;
    }
    size_t skip = 0;
    if (st == KPCA_OK)
        st = labels_shape(path, tok, line, n, want, &skip, &out->labels_indexed, err);
    if (st == KPCA_OK)
        st = kpca_labels_from_text(path, tok + skip, line + skip, 0, n - skip, out, err);
    *count = n - skip;
    kpca_free(tok);
    kpca_free(line);
    kpca_free(buf);
    return st;
}

/* The labels of "FILE.mat:VAR" (VAR: a vector of integers; none: the
 * file's one numeric variable) into *y (*n of them) */
static kpca_status mat_labels(const char *file, const char *var, int **y, size_t *n, kpca_error *err)
{
    double *x;
    size_t r, c;
    char *name;
    kpca_status st = kpca_mat_read(file, var, &x, &r, &c, &name, err);
    if (st != KPCA_OK)
        return st;
    if (r != 1 && c != 1)
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': variable '%s' (%zu x %zu) is not a vector of labels (n x 1 or 1 x n)",
                       file, name, r, c);
    else if ((*y = kpca_alloc_array(r * c, 1, sizeof **y)) == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for the labels of '%s'", file);
    for (size_t i = 0; st == KPCA_OK && i < r * c; i++) {
        if (!kpca_label_of_double(x[i], &(*y)[i]))
            st = kpca_fail(err, KPCA_EFORMAT, "'%s': variable '%s' element %zu is %.17g, not an integer label", file,
                           name, i + 1, x[i]);
    }
    if (st == KPCA_OK)
        *n = r * c;
    else {
        kpca_free(*y);
        *y = NULL;
    }
    kpca_free(x);
    kpca_free(name);
    return st;
}

kpca_status kpca_labels_read(const char *path, kpca_dataset *ds, kpca_error *err)
{
    kpca_dataset l;
    memset(&l, 0, sizeof l);
    size_t count = 0;
    kpca_status st;
    struct stat sb;
    char *file = NULL;
    const char *var = NULL;
    if (kpca_split_spec(path, &file, &var, NULL) == KPCA_OK && kpca_mat_file(file)) { /* FILE.mat[:VAR] */
        st = mat_labels(file, var, &l.y, &count, err);
    } else if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && kpca_npy_is(path)) {
        /* only a regular file is sniffed for the NPY magic: a pipe (--labels
         * <(cmd)) can be read once, so it is taken as text */
        st = kpca_npy_read_labels(path, &l.y, &count, err);
    } else {
        st = labels_from_lines(path, ds->n, &l, &count, err);
    }
    kpca_free(file);
    if (st != KPCA_OK)
        return st;
    if (count != ds->n) {
        kpca_dataset_free(&l);
        return kpca_fail(err, KPCA_EFORMAT, "'%s' has %zu labels but the data has %zu points", path, count, ds->n);
    }
    kpca_free(ds->y);
    free_names(ds->names, ds->nnames);
    ds->y = l.y;
    ds->names = l.names;
    ds->nnames = l.nnames;
    ds->unlabelled = 0;
    ds->labels_indexed = l.labels_indexed;
    return KPCA_OK;
}

/* The distinct values of column c of the first n rows of x (stride values
 * apart), counted up to limit + 1 (limit <= KPCA_CLASSES_MAX), when all
 * are integers in int's range; 0 when one is not.  No allocation: O(n
 * limit) at most. */
static size_t integer_classes(const double *x, size_t n, size_t stride, size_t c, size_t limit)
{
    double seen[KPCA_CLASSES_MAX + 1];
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++) {
        double v = x[i * stride + c];
        if (!kpca_label_of_double(v, NULL))
            return 0;
        size_t k = 0;
        while (k < distinct && seen[k] != v)
            k++;
        if (k == distinct && distinct <= limit)
            seen[distinct++] = v;
    }
    return distinct;
}

/* max(KPCA_CLASSES_FEW, floor(sqrt(n))) for the first n <= KPCA_ESL_DECIDE_ROWS rows */
static size_t few_classes(size_t n)
{
    size_t r = (size_t)floor(sqrt((double)n));
    return r > KPCA_CLASSES_FEW ? r : KPCA_CLASSES_FEW;
}

int kpca_labels_esl_like(const double *x, size_t n, size_t ncol, size_t *classes, size_t *bad)
{
    if (n > KPCA_ESL_DECIDE_ROWS)
        n = KPCA_ESL_DECIDE_ROWS;
    const size_t limit = few_classes(n);
    double seen[KPCA_CLASSES_MAX + 1];
    size_t distinct = 0, nbad = 0;
    int others_integral = 1;
    *bad = n;
    for (size_t i = 0; i < n; i++) {
        const double *row = x + i * ncol, v = row[0];
        for (size_t j = 1; j < ncol && others_integral; j++)
            others_integral = row[j] == floor(row[j]);
        if (!kpca_label_of_double(v, NULL)) {
            *bad = nbad++ == 0 ? i : *bad;
            continue;
        }
        size_t k = 0;
        while (k < distinct && seen[k] != v)
            k++;
        if (k == distinct && distinct <= limit)
            seen[distinct++] = v;
    }
    *classes = distinct;
    /* set apart from the other columns: integers of 2 to `limit` values,
     * beside values that are not all integers (pixels, counts and 0/1
     * matrices are every column integral) */
    if (others_integral || distinct < 2 || distinct > limit)
        return 0;
    if (nbad == 0)
        return 1;
    return 100 * nbad <= n ? -1 : 0; /* labels but for a few values: a damaged line */
}

size_t kpca_labels_class_like(const double *x, size_t n, size_t dim, size_t *classes)
{
    if (n > KPCA_ESL_DECIDE_ROWS)
        n = KPCA_ESL_DECIDE_ROWS;
    size_t cols[2] = {dim - 1, 0};
    for (int t = 0; t < (dim > 1 ? 2 : 1) && dim > 0; t++) {
        size_t c = integer_classes(x, n, dim, cols[t], few_classes(n));
        if (c >= 2 && c <= few_classes(n) && 2 * c <= n) {
            *classes = c;
            return cols[t];
        }
    }
    *classes = 0;
    return dim;
}

struct kpca_labelmap {
    kpca_labelmap_seen seen; /* its missing labels (the rest below) */
    int names;         /* 1: a label that is no number was seen */
    size_t first_bad;  /* the line of the first number that is no int; 0: none */
    char bad[48];      /* that label, cut short */
    size_t *table;     /* name index + 1 (0: empty), slots entries */
    size_t slots;
    char **list;       /* the names, in order of first appearance */
    size_t n, cap;
};

kpca_labelmap *kpca_labelmap_new(void)
{
    return kpca_calloc(1, sizeof(kpca_labelmap));
}

void kpca_labelmap_seen_get(const kpca_labelmap *m, kpca_labelmap_seen *seen)
{
    *seen = m->seen;
    seen->first_bad = m->first_bad;
    seen->names = m->names;
    memcpy(seen->bad, m->bad, sizeof seen->bad);
}

void kpca_labelmap_seen_add(kpca_labelmap *m, const kpca_labelmap_seen *seen)
{
    for (unsigned long long i = 0; i < seen->missing && m->seen.missing + i < KPCA_LABELS_MISSING_SHOWN; i++)
        m->seen.missing_at[m->seen.missing + i] = seen->missing_at[i];
    if (m->seen.missing == 0 && seen->missing != 0)
        memcpy(m->seen.mark, seen->mark, sizeof m->seen.mark);
    m->seen.missing += seen->missing;
    if (m->seen.not_utf8 == 0 && seen->not_utf8 != 0) {
        m->seen.not_utf8 = seen->not_utf8;
        m->seen.not_utf8_col = seen->not_utf8_col;
        memcpy(m->seen.not_utf8_name, seen->not_utf8_name, sizeof m->seen.not_utf8_name);
    }
    if (m->first_bad == 0 && seen->first_bad != 0) {
        m->first_bad = (size_t)seen->first_bad;
        memcpy(m->bad, seen->bad, sizeof m->bad);
        m->bad[sizeof m->bad - 1] = '\0';
    }
    m->names = m->names || seen->names;
}

void kpca_labelmap_free(kpca_labelmap *m)
{
    if (m == NULL)
        return;
    free_names(m->list, m->n);
    kpca_free(m->table);
    kpca_free(m);
}

kpca_status kpca_labelmap_see(kpca_labelmap *m, const char *path, char *tok, size_t line, size_t col,
                              kpca_error *err)
{
    (void)path;
    (void)err;
    const char *t = kpca_text_trim(tok);
    if (kpca_labels_missing_mark(t)) { /* said by the verdict: after the rows' own errors, as the whole read says it */
        if (m->seen.missing < KPCA_LABELS_MISSING_SHOWN)
            m->seen.missing_at[m->seen.missing] = line;
        if (m->seen.missing++ == 0)
            snprintf(m->seen.mark, sizeof m->seen.mark, "%s", t);
        return KPCA_OK;
    }
    int v;
    int r = int_label(t, &v);
    if (r == 0 && !kpca_text_utf8(t) && m->seen.not_utf8 == 0) { /* said by the verdict, as a missing label */
        m->seen.not_utf8 = line;
        m->seen.not_utf8_col = col;
        snprintf(m->seen.not_utf8_name, sizeof m->seen.not_utf8_name, "%s", t);
    }
    if (r == 0)
        m->names = 1;
    else if (r < 0 && m->first_bad == 0) {
        m->first_bad = line;
        snprintf(m->bad, sizeof m->bad, "%s", t);
    }
    return KPCA_OK;
}

kpca_status kpca_labelmap_verdict(kpca_labelmap *m, const char *path, size_t col, int *names, kpca_error *err)
{
    *names = m->names;
    if (m->seen.missing != 0)
        return missing_error(err, path, col, m->seen.missing, m->seen.missing_at, m->seen.mark);
    if (m->seen.not_utf8 != 0)
        return kpca_text_utf8_fail(path, m->seen.not_utf8, col, "class name", m->seen.not_utf8_name, err);
    if (!m->names && m->first_bad != 0)
        return label_error(err, path, &m->first_bad, col, 0, "labels are integers or names, found the number ", m->bad,
                           " (data without labels: --label none; another column: --label COL)");
    return KPCA_OK;
}

/* the slot of name s in the table (empty when s is new) */
static size_t slot_of(const kpca_labelmap *m, const char *s)
{
    size_t h = (size_t)(hash_name(s) & (m->slots - 1));
    while (m->table[h] != 0 && strcmp(m->list[m->table[h] - 1], s) != 0)
        h = (h + 1) & (m->slots - 1);
    return h;
}

kpca_status kpca_labelmap_name(kpca_labelmap *m, const char *path, char *tok, kpca_error *err)
{
    const char *t = kpca_text_trim(tok);
    if (m->table == NULL || 2 * (m->n + 1) > m->slots) { /* the table at most half full: grown and filled again */
        size_t slots = m->slots ? 2 * m->slots : 64;
        size_t *nt = kpca_calloc(slots, sizeof *nt);
        if (nt == NULL)
            return kpca_fail(err, KPCA_ENOMEM, "out of memory for the class names of '%s'", path);
        kpca_free(m->table);
        m->table = nt;
        m->slots = slots;
        for (size_t i = 0; i < m->n; i++)
            m->table[slot_of(m, m->list[i])] = i + 1;
    }
    size_t h = slot_of(m, t);
    if (m->table[h] != 0)
        return KPCA_OK;
    if (m->n == (size_t)INT_MAX)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for the class names of '%s'", path);
    char **nl = kpca_grow(m->list, &m->cap, m->n + 1, sizeof *m->list, 16);
    if (nl == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for the class names of '%s'", path);
    m->list = nl;
    if ((m->list[m->n] = kpca_strdup(t)) == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for the class names of '%s'", path);
    m->table[h] = ++m->n;
    return KPCA_OK;
}

kpca_status kpca_labelmap_code(kpca_labelmap *m, const char *path, char *tok, size_t line, int *code,
                               kpca_error *err)
{
    const char *t = kpca_text_trim(tok);
    if (!m->names) {
        if (int_label(t, code) == 1)
            return KPCA_OK;
    } else if (m->table != NULL) {
        size_t h = slot_of(m, t);
        if (m->table[h] != 0) {
            *code = (int)(m->table[h] - 1);
            return KPCA_OK;
        }
    }
    return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: the label '%.40s' was not there when the file was first "
                     "read (did it change?)", path, line, t);
}

char **kpca_labelmap_names(const kpca_labelmap *m, size_t *n)
{
    *n = m->names ? m->n : 0;
    return m->names ? m->list : NULL;
}

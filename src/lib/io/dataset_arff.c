/* dataset_arff.c - Weka's ARFF text, dense (see dataset_arff.h).
 *
 * The text is read whole through the text layer (text/textfile.h: plain
 * or compressed, the encoding and NUL checks) and parsed in place: names,
 * declared values and fields are NUL-terminated where they stand, quotes
 * undone.  ARFF's quoting is not CSV's (text/csvtok.h): ' or " opens a
 * quoted token and a backslash escapes the next character in it (Weka's
 * tokenizer), where CSV has '"' alone and doubles it; so it is written
 * here.  The columns are chosen as a CSV file's, by the attribute names
 * (io/csvcols.h, kpca_csv_label_column); the numbers are the text
 * readers' (text/textnum.h); labels from a numeric attribute are a CSV
 * label column's (io/labels.h). */
#include "io/dataset_arff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "io/csvcols.h"
#include "io/csvrows.h"
#include "io/labels.h"
#include "text/textfile.h"
#include "text/textnum.h"
#include "support/mem.h"

typedef enum { ATTR_NUMERIC, ATTR_NOMINAL, ATTR_STRING, ATTR_DATE } attr_kind;
static const char *const kind_name[] = {"numeric", "nominal", "string", "date"};

typedef struct {
    attr_kind kind;
    size_t line;   /* the line that declares it */
    char **values; /* nominal: the declared values (in the text), owned array */
    size_t nvalues;
} arff_attr;

/* a declared nominal value and its place in the declaration */
typedef struct {
    const char *s;
    size_t i;
} nominal_value;

typedef struct {
    const char *path;
    char *text, *p, *end; /* the text, the next line, the text's end */
    size_t line;          /* the line at p */
    arff_attr *attr;
    char **name; /* the attributes' names (in the text) */
    size_t nattr, acap;
    char **f;    /* the current row's fields (in the text) */
    int *quoted; /* whether each was quoted */
    size_t nf, fcap;
} arff;

static kpca_status no_memory(const arff *a, kpca_error *err)
{
    return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", a->path);
}

/* 1 for the start of a line that is a row or a header line: neither blank
 * nor a comment (s: after its leading blanks) */
static int content(const char *s, const char *end)
{
    return s < end && *s != '\n' && *s != '%';
}

/* The closing quote of the quoted token that opens at q (' or "): the
 * next q[0], a backslash taking the byte after it as it is; NULL when the
 * line (NUL-terminated) ends first.  ARFF's one quoting rule: cut_comment,
 * has_comma and unquote all go by it.  O(length of the token). */
static const char *quote_end(const char *q)
{
    const char c = *q;
    for (q++; *q != '\0' && *q != c; q++)
        if (*q == '\\' && q[1] != '\0')
            q++;
    return *q == c ? q : NULL;
}

/* 1 for a byte that opens a quoted token where a token starts */
static int opens_quote(char c)
{
    return c == '\'' || c == '"';
}

/* Where the line s (NUL-terminated at e) ends without its comment: at a
 * '%' that starts a token outside quotes (after the line's start, a blank,
 * a comma, a '{' or a closing quote), as Weka's tokenizer reads
 * "1,2 % why" (1 and 2); e when there is none.  A quote that starts a
 * token is skipped to its close (quote_end); one left open is split()'s
 * to refuse.  '50%' keeps its '%', and is then no number.  O(e - s). */
static char *cut_comment(char *s, char *e)
{
    int start = 1;
    for (char *p = s; p < e; p++) {
        if (start && opens_quote(*p)) {
            const char *close = quote_end(p);
            if (close == NULL)
                return e;
            p += close - p;
            start = 1; /* the quote ends the token: "'a'% why" */
            continue;
        }
        if (start && *p == '%') {
            *p = '\0';
            return p;
        }
        start = kpca_text_blank(*p) || *p == ',' || *p == '{';
    }
    return e;
}

/* The next line that is neither blank nor a comment, NUL-terminated in
 * the text without its leading and trailing blanks (CR among them) and
 * its trailing comment (cut_comment), its number in *line; NULL at the
 * end of the text. */
static char *next_line(arff *a, size_t *line)
{
    while (a->p < a->end) {
        char *s = a->p, *nl = memchr(s, '\n', (size_t)(a->end - s));
        char *e = nl != NULL ? nl : a->end;
        a->p = nl != NULL ? nl + 1 : a->end;
        *line = a->line++;
        while (s < e && kpca_text_blank(*s))
            s++;
        if (!content(s, e))
            continue;
        *e = '\0'; /* (the text's own NUL at its end) */
        e = cut_comment(s, e);
        while (e > s && kpca_text_blank(e[-1]))
            *--e = '\0';
        return s;
    }
    return NULL;
}

/* The rows from p to end: the lines next_line would return.  O(length). */
static size_t count_rows(const char *p, const char *end)
{
    size_t n = 0;
    while (p < end) {
        while (p < end && kpca_text_blank(*p))
            p++;
        n += content(p, end);
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl != NULL ? nl + 1 : end;
    }
    return n;
}

/* Undoes the quotes of the token that opens at q (' or ", closed where
 * quote_end says), in place: its text NUL-terminated from q; the byte
 * after the closing quote, NULL when the line ends first.  A backslash
 * takes the next byte as it is (\n, \t and \r: those controls). */
static char *unquote(char *q)
{
    const char *close = quote_end(q);
    if (close == NULL)
        return NULL;
    char *w = q, *r = q + 1, *const end = q + (close - q);
    for (; r < end; r++) {
        if (*r == '\\') { /* (a backslash is never the last byte before the close) */
            r++;
            *w++ = *r == 'n' ? '\n' : *r == 't' ? '\t' : *r == 'r' ? '\r' : *r;
        } else {
            *w++ = *r;
        }
    }
    *w = '\0';
    return end + 1;
}

/* 1 when the line s has a comma outside quotes (a quote opens a token:
 * at the line's start or after a blank or comma; quote_end closes it).
 * O(strlen(s)). */
static int has_comma(const char *s)
{
    for (int start = 1; *s != '\0'; s++) {
        if (start && opens_quote(*s)) {
            if ((s = quote_end(s)) == NULL)
                return 0;
        } else if (*s == ',') {
            return 1;
        }
        start = kpca_text_blank(*s) || *s == ',';
    }
    return 0;
}

/* Splits the line s into a->f (a->nf fields, unquoted fields without
 * their surrounding blanks) and a->quoted: at the commas outside quotes,
 * or, on a line without one, at runs of blanks ("1 2 'a b'" is three
 * fields, as Weka's tokenizer reads it).  A comma line keeps the blanks
 * inside a field ("1,Iris setosa" is two), so no line is split both
 * ways; "1,,3" has an empty second field. */
static kpca_status split(arff *a, char *s, size_t line, kpca_error *err)
{
    const char sep = has_comma(s) ? ',' : ' ';
    a->nf = 0;
    for (;;) {
        while (kpca_text_blank(*s))
            s++;
        if (sep == ' ' && *s == '\0' && a->nf > 0) /* blanks after the last field ("{a b }") */
            return KPCA_OK;
        char *field = s, *next;
        const char qc = *s;
        const int q = opens_quote(qc);
        if (q) {
            if ((next = unquote(s)) == NULL)
                return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu, column %zu: a quote (%c) that is not closed",
                                 a->path, line, a->nf + 1, qc);
            if (*next != '\0' && !kpca_text_blank(*next) && *next != sep)
                return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu, column %zu: text after the closing quote: '%.40s'",
                                 a->path, line, a->nf + 1, next);
            while (sep == ',' && kpca_text_blank(*next))
                next++;
            if (sep == ',' && *next != ',' && *next != '\0')
                return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu, column %zu: text after the closing quote: '%.40s'",
                                 a->path, line, a->nf + 1, next);
        } else {
            next = s + strcspn(s, sep == ',' ? "," : " \t\r\v\f");
            for (char *e = next; sep == ',' && e > s && kpca_text_blank(e[-1]); e--)
                e[-1] = '\0';
        }
        const int last = *next == '\0';
        *next = '\0';
        size_t cap = a->fcap;
        char **f = kpca_grow(a->f, &cap, a->nf + 1, sizeof *f, 16);
        if (f != NULL)
            a->f = f;
        cap = a->fcap;
        int *qd = f != NULL ? kpca_grow(a->quoted, &cap, a->nf + 1, sizeof *qd, 16) : NULL;
        if (qd == NULL)
            return no_memory(a, err);
        a->quoted = qd;
        a->fcap = cap;
        a->f[a->nf] = field;
        a->quoted[a->nf++] = q;
        if (last)
            return KPCA_OK;
        s = next + 1;
    }
}

/* 1 when the line s starts with the keyword kw (any case) and a blank or
 * its end; *rest: what follows, after blanks */
static int keyword(char *s, const char *kw, char **rest)
{
    const size_t n = strlen(kw);
    if (strncasecmp(s, kw, n) != 0 || (s[n] != '\0' && !kpca_text_blank(s[n])))
        return 0;
    for (*rest = s + n; kpca_text_blank(**rest);)
        ++*rest;
    return 1;
}

/* The type of the attribute declared on `line` as `name`, from t (the
 * line after the name): a nominal's values split into at->values. */
static kpca_status attr_type(arff *a, char *t, const char *name, size_t line, arff_attr *at, kpca_error *err)
{
    if (*t == '{') {
        const size_t len = strlen(t);
        if (t[len - 1] != '}')
            return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: attribute '%.40s': the nominal values' '{' is not "
                             "closed by a '}' at the end of the line", a->path, line, name);
        t[len - 1] = '\0';
        kpca_status st = split(a, t + 1, line, err);
        if (st != KPCA_OK)
            return st;
        if (a->nf == 1 && a->f[0][0] == '\0' && !a->quoted[0])
            return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: nominal attribute '%.40s' declares no values",
                             a->path, line, name);
        if ((at->values = kpca_alloc_array(a->nf, 1, sizeof *at->values)) == NULL)
            return no_memory(a, err);
        memcpy(at->values, a->f, a->nf * sizeof *at->values);
        at->nvalues = a->nf;
        at->kind = ATTR_NOMINAL;
        return KPCA_OK;
    }
    const size_t w = strcspn(t, " \t\r\v\f");
    static const char *const numeric[] = {"numeric", "real", "integer"};
    for (size_t i = 0; i < 3; i++)
        if (w == strlen(numeric[i]) && strncasecmp(t, numeric[i], w) == 0) {
            at->kind = ATTR_NUMERIC;
            return KPCA_OK;
        }
    if (w == 6 && strncasecmp(t, "string", 6) == 0) {
        at->kind = ATTR_STRING;
        return KPCA_OK;
    }
    if (w == 4 && strncasecmp(t, "date", 4) == 0) {
        at->kind = ATTR_DATE;
        return KPCA_OK;
    }
    if (w == 10 && strncasecmp(t, "relational", 10) == 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: attribute '%.40s' is relational (multi-instance data), "
                         "which kpca does not read", a->path, line, name);
    return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: attribute '%.40s': expected a type (numeric, real, integer, "
                     "{nominal values}, string or date), found '%.40s'", a->path, line, name, t);
}

/* The @attribute line `line`, after its keyword (s), onto a->attr. */
static kpca_status attribute(arff *a, char *s, size_t line, kpca_error *err)
{
    char *name = s, *t;
    if (*s == '\'' || *s == '"') {
        const char q = *s;
        if ((t = unquote(s)) == NULL)
            return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: the attribute's name opens a quote (%c) that is "
                             "not closed", a->path, line, q);
        if (*t != '\0' && *t != '{' && !kpca_text_blank(*t))
            return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: text after the closing quote of the attribute's "
                             "name: '%.40s'", a->path, line, t);
    } else {
        t = s + strcspn(s, " \t\r\v\f{");
        if (*t == '{') { /* name{a,b}: the name moves back one byte, onto the blank after @attribute */
            memmove(s - 1, s, (size_t)(t - s));
            name = s - 1;
            t[-1] = '\0';
        }
    }
    if (kpca_text_blank(*t))
        *t++ = '\0';
    while (kpca_text_blank(*t))
        t++;
    if (*name == '\0' || *t == '\0')
        return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: expected @attribute NAME TYPE, found %s", a->path, line,
                         *name == '\0' ? "no name" : "no type");
    size_t cap = a->acap;
    arff_attr *at = kpca_grow(a->attr, &cap, a->nattr + 1, sizeof *at, 64);
    if (at != NULL)
        a->attr = at;
    cap = a->acap;
    char **names = at != NULL ? kpca_grow(a->name, &cap, a->nattr + 1, sizeof *names, 64) : NULL;
    if (names == NULL)
        return no_memory(a, err);
    a->name = names;
    a->acap = cap;
    at = &a->attr[a->nattr];
    memset(at, 0, sizeof *at);
    at->line = line;
    kpca_status st = attr_type(a, t, name, line, at, err);
    if (st == KPCA_OK)
        a->name[a->nattr++] = name;
    else
        kpca_free(at->values);
    return st;
}

/* The header, up to and with its @data line. */
static kpca_status header(arff *a, kpca_error *err)
{
    size_t line;
    char *s, *rest;
    while ((s = next_line(a, &line)) != NULL) {
        kpca_status st;
        if (keyword(s, "@relation", &rest))
            continue;
        if (keyword(s, "@attribute", &rest)) {
            if ((st = attribute(a, rest, line, err)) != KPCA_OK)
                return st;
            continue;
        }
        if (keyword(s, "@data", &rest) && *rest == '\0') {
            if (a->nattr == 0)
                return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: @data, but no @attribute before it", a->path,
                                 line);
            return KPCA_OK;
        }
        return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: expected @relation, @attribute or @data, found '%.40s%s'",
                         a->path, line, s, strlen(s) > 40 ? "..." : "");
    }
    return kpca_fail(err, KPCA_EFORMAT, "'%s': no @data line (the data of an ARFF file follow one)", a->path);
}

/* The attributes' names and kinds into a list for a message: "'a'
 * (column 1), 'b' (column 4)" (the first few). */
static void list_nominals(const arff *a, char *buf, size_t cap, size_t *count)
{
    size_t at = 0;
    *count = 0;
    buf[0] = '\0';
    for (size_t j = 0; j < a->nattr; j++) {
        if (a->attr[j].kind != ATTR_NOMINAL)
            continue;
        if (++*count <= 4 && at < cap) {
            int w = snprintf(buf + at, cap - at, "%s'%.40s' (column %zu)", at ? ", " : "", a->name[j], j + 1);
            at += w > 0 ? (size_t)w : 0;
        }
    }
    if (*count > 4 && at + 5 < cap)
        snprintf(buf + at, cap - at, ", ...");
}

/* The labels' attribute (NO_COLUMN: none) and the value columns (dest,
 * dim: kpca_csv_columns'), from the options and the attributes' kinds. */
static kpca_status columns(arff *a, const kpca_read_opts *opts, size_t *col, int **dest, size_t *dim, kpca_error *err)
{
    kpca_status st;
    size_t nominals;
    char list[256];
    list_nominals(a, list, sizeof list, &nominals);
    *col = NO_COLUMN;
    if (opts->label == NULL && nominals > 1)
        return kpca_fail(err, KPCA_EUSAGE, "'%s' has %zu nominal attributes: %s; kpca takes one for the labels and "
                         "reads numbers in the others: give --label with the labels' one, and --drop the others",
                         a->path, nominals, list);
    for (size_t j = 0; opts->label == NULL && j < a->nattr; j++)
        if (a->attr[j].kind == ATTR_NOMINAL)
            *col = j;
    if (opts->label != NULL &&
        (st = kpca_csv_label_column(a->path, opts->label, a->name, a->nattr, col, err)) != KPCA_OK)
        return st;
    if ((st = kpca_csv_columns(a->path, opts, a->name, a->nattr, *col, dest, dim, err)) != KPCA_OK)
        return st;
    for (size_t j = 0; j < a->nattr; j++) {
        const arff_attr *at = &a->attr[j];
        const int kept = j != *col && (*dest == NULL || (*dest)[j] >= 0);
        if ((kept || j == *col) && !kpca_text_utf8(a->name[j]))
            return kpca_text_utf8_fail(a->path, at->line, 0, "attribute name", a->name[j], err);
        if (!kept || at->kind == ATTR_NUMERIC)
            continue;
        char also[96] = "";
        if (at->kind == ATTR_NOMINAL && *col == NO_COLUMN)
            snprintf(also, sizeof also, ", or take it for the labels with --label %zu", j + 1);
        return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: attribute '%.40s' (column %zu) is of type %s, and kpca reads "
                         "numbers: leave it out with --drop %zu%s", a->path, at->line, a->name[j], j + 1,
                         kind_name[at->kind], j + 1, also);
    }
    if (*dim == 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': no numeric attributes besides the labels", a->path);
    if (opts->dim != 0 && *dim != opts->dim)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': rows have %zu values, expected %zu", a->path, *dim, opts->dim);
    return KPCA_OK;
}

static int by_text(const void *x, const void *y)
{
    return strcmp(((const nominal_value *)x)->s, ((const nominal_value *)y)->s);
}

/* The labels' nominal attribute at: its values sorted (*sorted, for the
 * rows' look-up), each value's code (*code: the integer it is when every
 * value is one, else its place) and, for names, ds->names.  A value
 * declared twice is refused. */
static kpca_status nominal_codes(const arff *a, const arff_attr *at, size_t j, nominal_value **sorted, int **code,
                                 kpca_dataset *ds, kpca_error *err)
{
    const size_t k = at->nvalues;
    *sorted = kpca_alloc_array(k, 1, sizeof **sorted);
    *code = kpca_alloc_array(k, 1, sizeof **code);
    if (*sorted == NULL || *code == NULL)
        return no_memory(a, err);
    int integers = 1;
    for (size_t i = 0; i < k; i++) {
        const char *p = at->values[i];
        double v;
        int label = 0;
        if (!kpca_text_utf8(p))
            return kpca_text_utf8_fail(a->path, at->line, j + 1, "class name", p, err);
        integers = integers && kpca_parse_number(&p, '\0', &v) == 0 && *p == '\0' && kpca_label_of_double(v, &label);
        (*code)[i] = integers ? label : (int)i;
        (*sorted)[i] = (nominal_value){at->values[i], i};
    }
    qsort(*sorted, k, sizeof **sorted, by_text);
    for (size_t i = 1; i < k; i++)
        if (strcmp((*sorted)[i - 1].s, (*sorted)[i].s) == 0)
            return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: nominal attribute '%.40s' declares the value "
                             "'%.40s' twice", a->path, at->line, a->name[j], (*sorted)[i].s);
    if (integers)
        return KPCA_OK;
    for (size_t i = 0; i < k; i++)
        (*code)[i] = (int)i;
    if ((ds->names = kpca_strings_dup(at->values, k)) == NULL)
        return no_memory(a, err);
    ds->nnames = k;
    return KPCA_OK;
}

/* The error of field j of the row on `line`, which holds no number. */
static kpca_status value_error(const arff *a, size_t line, size_t j, const char *what, kpca_error *err)
{
    const char *f = a->f[j];
    if (!a->quoted[j] && strcmp(f, "?") == 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu, column %zu ('%.40s'): missing value '?'; kpca needs "
                         "every value (leave out or fill in the rows that miss one)", a->path, line, j + 1, a->name[j]);
    if (f[0] == '\0')
        return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu, column %zu ('%.40s'): expected %s, found an empty field",
                         a->path, line, j + 1, a->name[j], what);
    return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu, column %zu ('%.40s'): expected %s, found '%.40s%s'", a->path,
                     line, j + 1, a->name[j], what, f, strlen(f) > 40 ? "..." : "");
}

/* The rows after @data into ds (x, y; names of a nominal's labels). */
static kpca_status rows(arff *a, size_t col, const int *dest, size_t dim, kpca_dataset *ds, kpca_error *err)
{
    const size_t n = count_rows(a->p, a->end);
    if (n == 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': no data rows after @data", a->path);
    const arff_attr *lab = col != NO_COLUMN ? &a->attr[col] : NULL;
    const int nominal = lab != NULL && lab->kind == ATTR_NOMINAL;
    nominal_value *sorted = NULL;
    int *code = NULL;
    char **labtok = NULL;
    size_t *labline = NULL;
    kpca_status st = KPCA_OK;
    ds->x = kpca_alloc_array(n, dim, sizeof *ds->x);
    if (ds->x == NULL || (ds->y = kpca_calloc(n, sizeof *ds->y)) == NULL)
        st = no_memory(a, err);
    else if (nominal)
        st = nominal_codes(a, lab, col, &sorted, &code, ds, err);
    else if (lab != NULL && ((labtok = kpca_alloc_array(n, 1, sizeof *labtok)) == NULL ||
                             (labline = kpca_alloc_array(n, 1, sizeof *labline)) == NULL))
        st = no_memory(a, err);
    ds->n = n;
    ds->dim = dim;
    size_t line;
    for (size_t i = 0; st == KPCA_OK && i < n; i++) {
        char *s = next_line(a, &line);
        if (*s == '{') {
            st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: sparse ARFF data ('%.40s%s'), which kpca does not read: "
                           "write the file dense first (Weka: weka.filters.unsupervised.instance.SparseToNonSparse)",
                           a->path, line, s, strlen(s) > 40 ? "..." : "");
            break;
        }
        if ((st = split(a, s, line, err)) != KPCA_OK)
            break;
        if (a->nf != a->nattr) {
            st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: %zu values, expected %zu (one for each @attribute)",
                           a->path, line, a->nf, a->nattr);
            break;
        }
        double *x = ds->x + i * dim;
        for (size_t j = 0, k = 0; st == KPCA_OK && j < a->nattr; j++) {
            if (j == col && nominal) {
                nominal_value key = {a->f[j], 0}, *hit = bsearch(&key, sorted, lab->nvalues, sizeof key, by_text);
                if (hit != NULL && (a->quoted[j] || strcmp(a->f[j], "?") != 0))
                    ds->y[i] = code[hit->i];
                else if (!a->quoted[j] && strcmp(a->f[j], "?") == 0)
                    st = value_error(a, line, j, "a label", err);
                else
                    st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu, column %zu ('%.40s'): '%.40s' is not among the "
                                   "values that line %zu declares", a->path, line, j + 1, a->name[j], a->f[j],
                                   lab->line);
            } else if (j == col) {
                labtok[i] = a->f[j];
                labline[i] = line;
            } else if (dest == NULL || dest[j] >= 0) {
                const char *p = a->f[j];
                double v;
                int r = kpca_parse_number(&p, '\0', &v);
                if (r == 0 && *p == '\0')
                    x[dest != NULL ? (size_t)dest[j] : k++] = v;
                else
                    st = value_error(a, line, j, r == -2 ? "a finite number" : "a number", err);
            }
        }
    }
    if (st == KPCA_OK && labtok != NULL) {
        kpca_free(ds->y);
        ds->y = NULL;
        st = kpca_labels_from_text(a->path, labtok, labline, col + 1, n, ds, err);
    }
    kpca_free(sorted);
    kpca_free(code);
    kpca_free(labtok);
    kpca_free(labline);
    return st;
}

kpca_status kpca_read_arff(const char *path, const kpca_read_opts *opts, kpca_dataset *ds, kpca_error *err)
{
    static const kpca_read_opts defaults = {.format = KPCA_FMT_ARFF};
    if (opts == NULL)
        opts = &defaults;
    memset(ds, 0, sizeof *ds);
    arff a;
    memset(&a, 0, sizeof a);
    a.path = path;
    a.line = 1;
    size_t len, col = NO_COLUMN, dim = 0;
    int *dest = NULL;
    kpca_status st = kpca_read_text_file(path, &a.text, &len, err);
    if (st != KPCA_OK)
        return st;
    a.p = a.text;
    a.end = a.text + len;
    if ((st = header(&a, err)) == KPCA_OK && (st = columns(&a, opts, &col, &dest, &dim, err)) == KPCA_OK &&
        (st = rows(&a, col, dest, dim, ds, err)) == KPCA_OK) {
        csv_rows names = {.hdr = a.name, .ncols = a.nattr, .col = col, .dest = dest};
        ds->unlabelled = col == NO_COLUMN;
        ds->label_col = col != NO_COLUMN ? col + 1 : 0;
        if (kpca_csv_names(&names, dim, ds) != 0)
            st = no_memory(&a, err);
    }
    if (st != KPCA_OK)
        kpca_dataset_free(ds);
    for (size_t j = 0; j < a.nattr; j++)
        kpca_free(a.attr[j].values);
    kpca_free(a.attr);
    kpca_free(a.name);
    kpca_free(a.f);
    kpca_free(a.quoted);
    kpca_free(dest);
    kpca_free(a.text);
    return st;
}

int kpca_arff_head(const char *text, size_t len)
{
    const char *p = text + kpca_text_bom(text, len), *end = text + len;
    while (p < end && (*p == '%' || kpca_text_blank(*p) || *p == '\n')) {
        if (*p == '%') /* a comment line */
            while (p < end && *p != '\n')
                p++;
        else
            p++;
    }
    return (size_t)(end - p) >= 9 && strncasecmp(p, "@relation", 9) == 0;
}

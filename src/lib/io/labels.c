/* labels.c - class labels from text, label files. */
#include "io/labels.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "io/npy.h"
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
    if (d != floor(d) || d < INT_MIN || d > INT_MAX)
        return -1;
    *v = (int)d;
    return 1;
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
    for (size_t i = 0; i < n; i++) {
        t[i] = kpca_text_trim(tok[i]);
        if (t[i][0] == '\0') {
            kpca_free(y);
            kpca_free(t);
            return label_error(err, path, line, col, i, "expected a label, found an empty field", NULL, "");
        }
        int r = int_label(t[i], &y[i]);
        if (r == 0)
            names = 1;
        else if (r < 0 && first_bad == n)
            first_bad = i;
    }
    kpca_status st = KPCA_OK;
    if (!names && first_bad < n) {
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

static kpca_status labels_from_lines(const char *path, kpca_dataset *out, size_t *count, kpca_error *err)
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
    if (st == KPCA_OK)
        st = kpca_labels_from_text(path, tok, line, 0, n, out, err);
    *count = n;
    kpca_free(tok);
    kpca_free(line);
    kpca_free(buf);
    return st;
}

kpca_status kpca_labels_read(const char *path, kpca_dataset *ds, kpca_error *err)
{
    kpca_dataset l;
    memset(&l, 0, sizeof l);
    size_t count = 0;
    kpca_status st;
    struct stat sb;
    /* only a regular file is sniffed for the NPY magic: a pipe (--labels
     * <(cmd)) can be read once, so it is taken as text */
    if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && kpca_npy_is(path)) {
        st = kpca_npy_read_labels(path, &l.y, &count, err);
    } else {
        st = labels_from_lines(path, &l, &count, err);
    }
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
        if (v != floor(v) || v < INT_MIN || v > INT_MAX)
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

int kpca_labels_esl_like(const double *x, size_t n, size_t ncol, size_t *classes)
{
    if (n > KPCA_ESL_DECIDE_ROWS)
        n = KPCA_ESL_DECIDE_ROWS;
    *classes = integer_classes(x, n, ncol, 0, few_classes(n));
    return *classes != 0 && *classes <= few_classes(n);
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
    size_t first_empty; /* the line of the first empty label; 0: none */
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
    memset(seen, 0, sizeof *seen);
    seen->first_empty = m->first_empty;
    seen->first_bad = m->first_bad;
    seen->names = m->names;
    memcpy(seen->bad, m->bad, sizeof seen->bad);
}

void kpca_labelmap_seen_add(kpca_labelmap *m, const kpca_labelmap_seen *seen)
{
    if (m->first_empty == 0)
        m->first_empty = (size_t)seen->first_empty;
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
    (void)col;
    (void)err;
    const char *t = kpca_text_trim(tok);
    if (t[0] == '\0') { /* said by the verdict: after the rows' own errors, as the whole read says it */
        if (m->first_empty == 0)
            m->first_empty = line;
        return KPCA_OK;
    }
    int v;
    int r = int_label(t, &v);
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
    if (m->first_empty != 0)
        return label_error(err, path, &m->first_empty, col, 0, "expected a label, found an empty field", NULL, "");
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

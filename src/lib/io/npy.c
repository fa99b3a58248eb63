/* npy.c - NumPy .npy reader and writer (see npy.h). */
#include "io/npy.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "file/atomic.h"
#include "support/crew.h"
#include "support/mem.h"
#include "support/parts.h"

#define NPY_MAX_RANK 8

typedef struct {
    char kind;       /* 'f', 'i' or 'u' */
    size_t itemsize; /* bytes per value */
    int fortran;
    int rank;
    size_t shape[NPY_MAX_RANK];
    size_t count;    /* product of the shape */
    long offset;     /* where the data starts */
} npy_header;

static const char npy_magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

int kpca_npy_is(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return 0;
    char head[6];
    int is = fread(head, 1, 6, f) == 6 && memcmp(head, npy_magic, 6) == 0;
    fclose(f);
    return is;
}

static int host_little(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

/* A quoted Python string at p into out; returns the position after it or
 * NULL. */
static const char *py_string(const char *p, const char *end, char *out, size_t cap)
{
    if (p >= end || (*p != '\'' && *p != '"'))
        return NULL;
    char q = *p++;
    size_t n = 0;
    while (p < end && *p != q) {
        if (n + 1 >= cap)
            return NULL;
        out[n++] = *p++;
    }
    out[n] = '\0';
    return p < end ? p + 1 : NULL;
}

static kpca_status bad(kpca_error *err, const char *path, const char *why)
{
    return kpca_fail(err, KPCA_EFORMAT, "'%s': not a NumPy array kpca can read: %s", path, why);
}

static kpca_status parse_descr(const char *path, const char *d, npy_header *h, kpca_error *err)
{
    char order = d[0];
    if (order != '<' && order != '>' && order != '|' && order != '=')
        return kpca_fail(err, KPCA_EFORMAT, "'%s': unsupported dtype '%s'", path, d);
    char kind = d[1];
    char *endp;
    errno = 0;
    unsigned long size = d[1] ? strtoul(d + 2, &endp, 10) : 0;
    int ok_size = d[1] && d[2] && *endp == '\0' && errno == 0;
    if (kind == 'O')
        return kpca_fail(err, KPCA_EFORMAT, "'%s': an array of Python objects (dtype '%s'): kpca reads arrays of numbers",
                         path, d);
    int numeric = ok_size && ((kind == 'f' && (size == 4 || size == 8)) ||
                              ((kind == 'i' || kind == 'u') && (size == 1 || size == 2 || size == 4 || size == 8)));
    if (!numeric)
        return kpca_fail(err, KPCA_EFORMAT,
                         "'%s': dtype '%s' is not one kpca reads (float64, float32, int64/32/16/8, uint64/32/16/8)", path,
                         d);
    if (order == '>' && size > 1)
        return kpca_fail(err, KPCA_EFORMAT,
                         "'%s': big-endian data (dtype '%s'): save it little-endian (numpy: a.astype('<%c%lu'))", path,
                         d, kind, size);
    h->kind = kind;
    h->itemsize = size;
    return KPCA_OK;
}

static kpca_status parse_shape(const char *path, const char **pp, const char *end, npy_header *h, kpca_error *err)
{
    const char *p = *pp;
    if (p >= end || *p != '(')
        return bad(err, path, "the header's 'shape' is not a tuple");
    p++;
    h->rank = 0;
    for (;;) {
        p = skip_ws(p, end);
        if (p < end && *p == ')')
            break;
        if (p >= end || *p < '0' || *p > '9')
            return bad(err, path, "the header's 'shape' is not a tuple of integers");
        unsigned long long v = 0;
        for (; p < end && *p >= '0' && *p <= '9'; p++) {
            if (v > (ULLONG_MAX - 9) / 10)
                return bad(err, path, "a dimension in the header's 'shape' is too large");
            v = v * 10 + (unsigned)(*p - '0');
        }
        if (p < end && *p == 'L')
            p++;
        if (h->rank == NPY_MAX_RANK)
            return bad(err, path, "more than 8 dimensions");
        if (v > SIZE_MAX)
            return bad(err, path, "a dimension in the header's 'shape' is too large");
        h->shape[h->rank++] = (size_t)v;
        p = skip_ws(p, end);
        if (p < end && *p == ',')
            p++;
    }
    *pp = p + 1;
    return KPCA_OK;
}

/* Reads and checks the header; on success the stream is at the data. */
static kpca_status read_header(FILE *f, const char *path, npy_header *h, kpca_error *err)
{
    memset(h, 0, sizeof *h);
    unsigned char pre[12];
    if (fread(pre, 1, 10, f) != 10 || memcmp(pre, npy_magic, 6) != 0)
        return bad(err, path, "no NumPy magic \"\\x93NUMPY\" at the start");
    int major = pre[6];
    size_t hlen, start;
    if (major == 1) {
        hlen = (size_t)pre[8] | (size_t)pre[9] << 8;
        start = 10;
    } else if (major == 2 || major == 3) {
        if (fread(pre + 10, 1, 2, f) != 2)
            return bad(err, path, "the file ends inside the header");
        hlen = (size_t)pre[8] | (size_t)pre[9] << 8 | (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
        start = 12;
    } else {
        return kpca_fail(err, KPCA_EFORMAT, "'%s': NumPy format version %d.%d (kpca reads 1.0 to 3.0)", path, major,
                         pre[7]);
    }
    if (hlen > (1u << 20))
        return bad(err, path, "a header longer than 1 MiB");
    char *text = kpca_malloc(hlen + 1);
    if (text == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
    if (fread(text, 1, hlen, f) != hlen) {
        kpca_free(text);
        return bad(err, path, "the file ends inside the header");
    }
    text[hlen] = '\0';
    const char *p = skip_ws(text, text + hlen), *end = text + hlen;
    kpca_status st = KPCA_OK;
    int have_descr = 0, have_order = 0, have_shape = 0;
    if (p >= end || *p++ != '{')
        st = bad(err, path, "the header is not a Python dict");
    while (st == KPCA_OK) {
        char key[32], val[64];
        p = skip_ws(p, end);
        if (p < end && *p == '}')
            break;
        if ((p = py_string(p, end, key, sizeof key)) == NULL || (p = skip_ws(p, end)) >= end || *p++ != ':') {
            st = bad(err, path, "the header is not a Python dict");
            break;
        }
        p = skip_ws(p, end);
        if (strcmp(key, "descr") == 0) {
            if (p < end && *p == '[') {
                st = kpca_fail(err, KPCA_EFORMAT, "'%s': a structured array (fields): kpca reads a plain 2-D array "
                               "of numbers", path);
                break;
            }
            if ((p = py_string(p, end, val, sizeof val)) == NULL) {
                st = bad(err, path, "the header's 'descr' is not a string");
                break;
            }
            st = parse_descr(path, val, h, err);
            have_descr = 1;
        } else if (strcmp(key, "fortran_order") == 0) {
            if (end - p >= 4 && memcmp(p, "True", 4) == 0) {
                h->fortran = 1;
                p += 4;
            } else if (end - p >= 5 && memcmp(p, "False", 5) == 0) {
                p += 5;
            } else {
                st = bad(err, path, "the header's 'fortran_order' is neither True nor False");
            }
            have_order = 1;
        } else if (strcmp(key, "shape") == 0) {
            st = parse_shape(path, &p, end, h, err);
            have_shape = 1;
        } else {
            st = bad(err, path, "an unknown key in the header");
        }
        p = skip_ws(p, end);
        if (p < end && *p == ',')
            p++;
    }
    kpca_free(text);
    if (st != KPCA_OK)
        return st;
    if (!have_descr || !have_order || !have_shape)
        return bad(err, path, "the header lacks 'descr', 'fortran_order' or 'shape'");
    if (!host_little())
        return kpca_fail(err, KPCA_EFORMAT, "'%s': .npy files are read on little-endian machines only", path);
    /* the shape must account for the file's size exactly */
    size_t count = 1;
    int overflow = 0;
    for (int i = 0; i < h->rank; i++) {
        if (h->shape[i] != 0 && count > SIZE_MAX / h->shape[i])
            overflow = 1;
        else
            count *= h->shape[i];
    }
    struct stat sb;
    if (fstat(fileno(f), &sb) != 0)
        return kpca_fail(err, KPCA_EIO, "cannot read '%s': %s", path, strerror(errno));
    size_t have = (size_t)sb.st_size > start + hlen ? (size_t)sb.st_size - start - hlen : 0;
    if (overflow || count > SIZE_MAX / h->itemsize || count * h->itemsize != have) {
        char shape[160] = "";
        for (int i = 0; i < h->rank; i++) {
            size_t len = strlen(shape);
            snprintf(shape + len, sizeof shape - len, "%s%zu", i ? " x " : "", h->shape[i]);
        }
        return kpca_fail(err, KPCA_EFORMAT,
                         "'%s': the header declares %s values of %zu bytes, but the file holds %zu bytes of data", path,
                         h->rank ? shape : "a scalar of", h->itemsize, have);
    }
    h->count = count;
    h->offset = (long)(start + hlen);
    return KPCA_OK;
}

/* Value i (in file order) as a double. */
static double value_at(const unsigned char *raw, const npy_header *h, size_t i)
{
    const unsigned char *p = raw + i * h->itemsize;
    switch (h->kind == 'f' ? (int)h->itemsize : h->kind == 'i' ? 10 + (int)h->itemsize : 20 + (int)h->itemsize) {
    case 8: { double v; memcpy(&v, p, 8); return v; }
    case 4: { float v; memcpy(&v, p, 4); return (double)v; }
    case 18: { int64_t v; memcpy(&v, p, 8); return (double)v; }
    case 14: { int32_t v; memcpy(&v, p, 4); return (double)v; }
    case 12: { int16_t v; memcpy(&v, p, 2); return (double)v; }
    case 11: return (double)(int8_t)p[0];
    case 28: { uint64_t v; memcpy(&v, p, 8); return (double)v; }
    case 24: { uint32_t v; memcpy(&v, p, 4); return (double)v; }
    case 22: { uint16_t v; memcpy(&v, p, 2); return (double)v; }
    default: return (double)p[0];
    }
}

/* Opens path, reads its header and its raw data (*raw, count * itemsize
 * bytes; NULL when count is 0). */
static kpca_status read_raw(const char *path, npy_header *h, unsigned char **raw, kpca_error *err)
{
    *raw = NULL;
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return kpca_fail(err, KPCA_EIO, "cannot open '%s': %s", path, strerror(errno));
    kpca_status st = read_header(f, path, h, err);
    if (st == KPCA_OK && h->count > 0) {
        *raw = kpca_alloc_array(h->count, h->itemsize, 1);
        if (*raw == NULL)
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory for the %zu values of '%s'", h->count, path);
        else if (fread(*raw, h->itemsize, h->count, f) != h->count)
            st = kpca_fail(err, KPCA_EIO, "cannot read '%s': %s", path, ferror(f) ? strerror(errno) : "file shrank");
    }
    fclose(f);
    if (st != KPCA_OK) {
        kpca_free(*raw);
        *raw = NULL;
    }
    return st;
}

/* 1 when one of v's n doubles is an infinity or a NaN (its exponent bits
 * all ones: adding 1 to them carries into the top bit), in four lanes
 * without an early exit, so that the loop runs in vector registers */
static int any_not_finite(const double *v, size_t n)
{
    const uint64_t expo = 0x7FF0000000000000ULL, one = 1ULL << 52;
    uint64_t acc[4] = {0, 0, 0, 0};
    size_t i = 0;
    for (; i + 4 <= n; i += 4)
        for (size_t t = 0; t < 4; t++) {
            uint64_t u;
            memcpy(&u, &v[i + t], sizeof u);
            acc[t] |= (u & expo) + one;
        }
    uint64_t a = acc[0] | acc[1] | acc[2] | acc[3];
    for (; i < n; i++) {
        uint64_t u;
        memcpy(&u, &v[i], sizeof u);
        a |= (u & expo) + one;
    }
    return (int)(a >> 63);
}

/* kpca_part_scan: 1 when the float64s there are not all finite */
static int not_finite(const void *bytes, size_t len)
{
    return any_not_finite(bytes, len / sizeof(double));
}

/* The first value of x (n x d, row-major, rows from the file's row0 + 1 on)
 * that is not finite: an error naming its row and column, or KPCA_OK. */
static kpca_status check_finite_from(const char *path, const double *x, size_t n, size_t d, size_t row0,
                                     kpca_error *err)
{
    if (!any_not_finite(x, n * d))
        return KPCA_OK;
    size_t i = 0;
    while (isfinite(x[i]))
        i++;
    return kpca_fail(err, KPCA_EFORMAT, "'%s': row %zu, column %zu is not a finite number", path, row0 + i / d + 1,
                     i % d + 1);
}

static kpca_status check_finite(const char *path, const double *x, size_t n, size_t d, kpca_error *err)
{
    return check_finite_from(path, x, n, d, 0, err);
}

/* Opens path and reads the header of a 2-D array of n x d values (d as
 * expected when dim != 0); *f open at the data on success. */
static kpca_status open_matrix(const char *path, size_t dim, FILE **f, npy_header *h, kpca_error *err)
{
    *f = fopen(path, "rb");
    if (*f == NULL)
        return kpca_fail(err, KPCA_EIO, "cannot open '%s': %s", path, strerror(errno));
    kpca_status st = read_header(*f, path, h, err);
    size_t n = h->shape[0], d = h->shape[1];
    if (st != KPCA_OK)
        ;
    else if (h->rank != 2)
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': a %d-D array; kpca reads 2-D arrays (points x values)", path, h->rank);
    else if (n == 0 || d == 0)
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': the array is empty (%zu x %zu)", path, n, d);
    else if (dim != 0 && d != dim)
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': the array has %zu columns, expected %zu", path, d, dim);
    if (st != KPCA_OK) {
        fclose(*f);
        *f = NULL;
    }
    return st;
}

kpca_status kpca_read_npy(const char *path, size_t dim, kpca_dataset *ds, kpca_error *err)
{
    memset(ds, 0, sizeof *ds);
    FILE *f;
    npy_header h;
    kpca_status st = open_matrix(path, dim, &f, &h, err);
    if (st != KPCA_OK)
        return st;
    size_t n = h.shape[0], d = h.shape[1];
    /* the values land in ds->x: read there straight from the file when
     * the file holds them as they are kept (float64, row after row) */
    int direct = h.kind == 'f' && h.itemsize == 8 && (!h.fortran || n == 1 || d == 1);
    int flagged = 1; /* 0 once the read found every value finite */
    unsigned char *raw = NULL;
    ds->x = kpca_alloc_array(n, d, sizeof(double));
    ds->y = kpca_calloc(n, sizeof(int));
    if (!direct && ds->x != NULL)
        raw = kpca_alloc_array(h.count, h.itemsize, 1);
    if (ds->x == NULL || ds->y == NULL || (!direct && raw == NULL))
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for the %zu x %zu values of '%s'", n, d, path);
    else {
        /* straight from the file by one thread per CPU (support/parts.h):
         * the copy and the first touch of the fresh pages, most of the
         * time, then run on every core */
        off_t at = ftello(f);
        int errnum = 0;
        if (at < 0 || !kpca_pread_parts(fileno(f), direct ? (void *)ds->x : (void *)raw, h.count * h.itemsize, at,
                                        h.itemsize, KPCA_PART_MIN, direct ? not_finite : NULL, &flagged, &errnum))
            st = kpca_fail(err, KPCA_EIO, "cannot read '%s': %s", path,
                           at < 0 ? strerror(errno) : errnum ? strerror(errnum) : "file shrank");
    }
    fclose(f);
    for (size_t i = 0; st == KPCA_OK && !direct && i < n; i++)
        for (size_t j = 0; j < d; j++)
            ds->x[i * d + j] = value_at(raw, &h, h.fortran ? j * n + i : i * d + j);
    kpca_free(raw);
    if (st == KPCA_OK && (!direct || flagged))
        st = check_finite(path, ds->x, n, d, err);
    if (st != KPCA_OK) {
        kpca_dataset_free(ds);
        return st;
    }
    ds->n = n;
    ds->dim = d;
    ds->unlabelled = 1;
    return KPCA_OK;
}

struct kpca_npy_rows {
    kpca_crew *crew; /* the threads of its reads, kept from block to block */
    int crew_tried;
    FILE *f;
    char *path; /* for messages */
    npy_header h;
    unsigned char *raw; /* the file's bytes of a read, for a type other than float64 (reused) */
    size_t rawcap;
};

kpca_status kpca_npy_rows_open(const char *path, size_t dim, kpca_npy_rows **r, size_t *n, size_t *d,
                               kpca_error *err)
{
    *r = NULL;
    kpca_npy_rows *nr = kpca_calloc(1, sizeof *nr);
    if (nr == NULL || (nr->path = kpca_strdup(path)) == NULL) {
        kpca_free(nr);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
    }
    kpca_status st = open_matrix(path, dim, &nr->f, &nr->h, err);
    if (st != KPCA_OK) {
        kpca_npy_rows_close(nr);
        return st;
    }
    *n = nr->h.shape[0];
    *d = nr->h.shape[1];
    *r = nr;
    return KPCA_OK;
}

/* pread of len bytes at off into dst: 1, or 0 with errno (0: the file shrank) */
static int read_at(int fd, void *dst, size_t len, off_t off)
{
    int errnum = 0;
    if (kpca_pread_all(fd, dst, len, off, &errnum))
        return 1;
    errno = errnum;
    return 0;
}

kpca_status kpca_npy_rows_read(kpca_npy_rows *r, size_t row0, size_t rows, double *x, kpca_error *err)
{
    const npy_header *h = &r->h;
    const size_t n = h->shape[0], d = h->shape[1], isz = h->itemsize;
    if (row0 > n || rows > n - row0)
        return kpca_fail(err, KPCA_EINTERNAL, "'%s': rows %zu..%zu beyond its %zu", r->path, row0 + 1, row0 + rows, n);
    if (rows == 0)
        return KPCA_OK;
    const int fd = fileno(r->f);
    const int direct = h->kind == 'f' && isz == 8 && (!h->fortran || n == 1 || d == 1);
    unsigned char *raw = (unsigned char *)x;
    if (!direct) { /* one buffer for every read, grown when a read is larger */
        if (rows * d * isz > r->rawcap) {
            unsigned char *nr = kpca_alloc_array(rows * d, isz, 1);
            if (nr == NULL)
                return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s' (%zu rows)", r->path, rows);
            kpca_free(r->raw);
            r->raw = nr;
            r->rawcap = rows * d * isz;
        }
        raw = r->raw;
    }
    int ok = 1, flagged = 1; /* flagged: 0 once the read found every value finite */
    if (direct) { /* straight into x by a thread per CPU, each stretch checked as it lands (as kpca_read_npy) */
        int errnum = 0;
        /* on threads kept from block to block (a thread started and joined
         * for each block cost a fifth of the read) */
        const size_t parts = kpca_parts_plan(rows * d * isz, 0, KPCA_PREAD_PART_MIN);
        kpca_crew *crew = kpca_crew_for(&r->crew, &r->crew_tried, parts);
        ok = kpca_pread_parts_on(crew, fd, x, rows * d * isz, (off_t)h->offset + (off_t)(row0 * d * isz), isz,
                              KPCA_PREAD_PART_MIN, not_finite, &flagged, &errnum);
        errno = errnum;
    } else if (!h->fortran || n == 1 || d == 1) {
        ok = read_at(fd, raw, rows * d * isz, (off_t)h->offset + (off_t)(row0 * d * isz));
    } else { /* a column at a time: its rows are adjacent */
        for (size_t j = 0; ok && j < d; j++)
            ok = read_at(fd, raw + j * rows * isz, rows * isz, (off_t)h->offset + (off_t)((j * n + row0) * isz));
    }
    if (ok && !direct)
        for (size_t i = 0; i < rows; i++)
            for (size_t j = 0; j < d; j++) {
                const size_t at = h->fortran && n > 1 && d > 1 ? j * rows + i : i * d + j;
                x[i * d + j] = value_at(raw, h, at);
            }
    if (!ok)
        return kpca_fail(err, KPCA_EIO, "cannot read '%s': %s", r->path, errno ? strerror(errno) : "file shrank");
    return flagged ? check_finite_from(r->path, x, rows, d, row0, err) : KPCA_OK;
}

void kpca_npy_rows_close(kpca_npy_rows *r)
{
    if (r == NULL)
        return;
    if (r->f != NULL)
        fclose(r->f);
    kpca_crew_free(r->crew);
    kpca_free(r->raw);
    kpca_free(r->path);
    kpca_free(r);
}

kpca_status kpca_npy_read_labels(const char *path, int **y, size_t *n, kpca_error *err)
{
    *y = NULL;
    *n = 0;
    npy_header h;
    unsigned char *raw;
    kpca_status st = read_raw(path, &h, &raw, err);
    if (st != KPCA_OK)
        return st;
    if (h.rank != 1 && !(h.rank == 2 && h.shape[1] == 1)) {
        kpca_free(raw);
        return kpca_fail(err, KPCA_EFORMAT, "'%s': labels must be a 1-D array, found a %d-D one", path, h.rank);
    }
    int *out = kpca_alloc_array(h.count ? h.count : 1, 1, sizeof(int));
    if (out == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for the %zu labels of '%s'", h.count, path);
    for (size_t i = 0; st == KPCA_OK && i < h.count; i++) {
        double v = value_at(raw, &h, i);
        if (!kpca_label_of_double(v, &out[i]))
            st = kpca_fail(err, KPCA_EFORMAT, "'%s': label %zu (%g) is not an integer", path, i + 1, v);
    }
    kpca_free(raw);
    if (st != KPCA_OK) {
        kpca_free(out);
        return st;
    }
    *y = out;
    *n = h.count;
    return KPCA_OK;
}

size_t kpca_npy_header(size_t n, size_t k, char head[KPCA_NPY_HEADER_MAX])
{
    int len = snprintf(head + 10, KPCA_NPY_HEADER_MAX - 10,
                       "{'descr': '<f8', 'fortran_order': False, 'shape': (%zu, %zu), }", n, k);
    size_t total = 10 + (size_t)len + 1;
    size_t padded = (total + 63) / 64 * 64;
    memset(head + 10 + len, ' ', padded - total);
    head[padded - 1] = '\n';
    memcpy(head, npy_magic, 6);
    head[6] = 1;
    head[7] = 0;
    head[8] = (char)((padded - 10) & 0xff);
    head[9] = (char)((padded - 10) >> 8);
    return padded;
}

kpca_status kpca_npy_write(const char *path, const double *x, size_t n, size_t k, kpca_error *err)
{
    if (!host_little())
        return kpca_fail(err, KPCA_EUSAGE, "'%s': .npy files are written on little-endian machines only", path);
    char head[KPCA_NPY_HEADER_MAX];
    size_t padded = kpca_npy_header(n, k, head);
    kpca_atomic a;
    kpca_status st = kpca_atomic_begin(&a, path, err);
    if (st != KPCA_OK)
        return st;
    if (fwrite(head, 1, padded, a.fp) != padded || (n * k > 0 && fwrite(x, sizeof(double), n * k, a.fp) != n * k)) {
        kpca_atomic_abort(&a);
        return kpca_fail(err, KPCA_EIO, "cannot write '%s': %s", path, strerror(errno));
    }
    return kpca_atomic_commit(&a, err);
}

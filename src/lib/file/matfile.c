/* matfile.c - MATLAB MAT-files through libmatio (matfile.h). */
#include "file/matfile.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <matio.h>
#include <zlib.h>

#include "file/h5util.h"
#include "support/mem.h"

int kpca_mat_is(const unsigned char *head, size_t n)
{
    return n >= 19 && memcmp(head, "MATLAB ", 7) == 0 &&
           (memcmp(head + 7, "5.0", 3) == 0 || memcmp(head + 7, "7.3", 3) == 0) &&
           memcmp(head + 10, " MAT-file", 9) == 0;
}

int kpca_mat_file(const char *path)
{
    struct stat sb;
    unsigned char head[32];
    FILE *f = stat(path, &sb) == 0 && S_ISREG(sb.st_mode) ? fopen(path, "rb") : NULL;
    if (f == NULL)
        return 0;
    size_t got = fread(head, 1, sizeof head, f);
    fclose(f);
    return kpca_mat_is(head, got);
}

/* libmatio's last error or critical message: it would print them itself */
static char mat_msg[256];

static void mat_log(int level, char *message)
{
    if (level > 2 || message == NULL) /* LOG_LEVEL_ERROR 1, LOG_LEVEL_CRITICAL 2 */
        return;
    /* an HDF5 error stack (v7.3) says what went wrong on its "minor:" line */
    const char *minor = strstr(message, "minor:");
    snprintf(mat_msg, sizeof mat_msg, "%s", minor != NULL ? minor + 6 + strspn(minor + 6, " ") : message);
    mat_msg[strcspn(mat_msg, "\n")] = '\0';
}

/* ": <libmatio's message>" when it gave one, else "" */
static const char *said(void)
{
    static char buf[sizeof mat_msg + 2];
    snprintf(buf, sizeof buf, "%s%s", mat_msg[0] != '\0' ? ": " : "", mat_msg);
    return buf;
}

static uint32_t word(const unsigned char *p, int swap)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return swap ? (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24) : v;
}

/* 1 when the first n bytes h of a miMATRIX element's `bytes` of data hold
 * subelements that end within it: the array flags (a tag and 8 bytes),
 * the dimensions (miINT32, 2 to 32 of them), the name's tag and length.
 * libmatio allocates and reads what they claim: a dimension count of 2^30
 * in a 72-byte element took it minutes (a fuzzer's find). */
static int matrix_head_fits(const unsigned char *h, size_t n, uint32_t bytes, int swap)
{
    if (bytes == 0)
        return 1; /* an empty element: libmatio skips it */
    if (n < 24 || bytes < 24)
        return 0;
    uint32_t t = word(h + 16, swap), nb = word(h + 20, swap);
    if (t != 5 || nb % 4 != 0 || nb < 8 || nb > 32 * 4 || 24 + (uint64_t)nb + 8 > bytes)
        return 0;
    const size_t at = 24 + ((nb + 7) & ~7u); /* the name's tag */
    if (at + 8 > bytes || at + 8 > n)
        return at + 8 <= bytes; /* past what was looked at: libmatio's own checks */
    t = word(h + at, swap);
    if ((t >> 16) != 0) /* the small format: the length in the tag's top half, at most 4 */
        return (t >> 16) <= 4;
    return at + 8 + (uint64_t)word(h + at + 4, swap) <= bytes;
}

/* 1 when the next `bytes` bytes of f are one whole zlib stream whose
 * check matches (libmatio reads on past a damaged one), and the element it
 * holds begins with a miMATRIX head that fits (matrix_head_fits) */
static int inflates(FILE *f, uint32_t bytes, int swap)
{
    unsigned char in[16384], out[65536], head[256];
    size_t got = 0;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK)
        return 0;
    int ret = Z_OK;
    while (ret == Z_OK && bytes > 0) {
        size_t want = bytes < sizeof in ? bytes : sizeof in;
        if (fread(in, 1, want, f) != want)
            break;
        bytes -= (uint32_t)want;
        z.next_in = in;
        z.avail_in = (uInt)want;
        do {
            z.next_out = out;
            z.avail_out = sizeof out;
            ret = inflate(&z, Z_NO_FLUSH);
            size_t made = sizeof out - z.avail_out, keep = sizeof head - got < made ? sizeof head - got : made;
            memcpy(head + got, out, keep);
            got += keep;
        } while (ret == Z_OK && z.avail_out == 0);
    }
    inflateEnd(&z);
    if (ret != Z_STREAM_END || got < 8)
        return 0;
    return word(head, swap) != 14 || matrix_head_fits(head + 8, got - 8, word(head + 4, swap), swap);
}

/* A version 5 file's top-level elements (an 8-byte tag: type, byte
 * count; then the bytes) each end within the file: libmatio reads a cut
 * one's missing bytes as what the buffer held, without a word; and each
 * matrix's head fits in it (matrix_head_fits).  swap: the file's byte
 * order is not ours; *packed: set to 1 when an element is compressed. */

static kpca_status v5_fits(const char *path, FILE *f, int swap, int *packed, kpca_error *err)
{
    if (fseek(f, 0, SEEK_END) != 0)
        return KPCA_OK; /* not a file that seeks: libmatio's own checks */
    const long long size = ftell(f);
    long long at = 128;
    while (at < size) {
        unsigned char tag[8];
        uint32_t bytes = 0;
        int whole = fseek(f, (long)at, SEEK_SET) == 0 && fread(tag, 1, sizeof tag, f) == sizeof tag;
        if (whole)
            bytes = word(tag + 4, swap);
        if (!whole || at + 8 + (long long)bytes > size)
            return kpca_fail(err, KPCA_EFORMAT,
                             "'%s' is cut short: its MAT-file element at byte %lld needs %lld bytes, the file has %lld",
                             path, at, whole ? at + 8 + (long long)bytes : at + 8, size);
        const uint32_t type = word(tag, swap);
        unsigned char head[256];
        size_t got;
        *packed |= type == 15;
        if (type == 15 && !inflates(f, bytes, swap)) /* miCOMPRESSED */
            return kpca_fail(err, KPCA_EFORMAT,
                             "'%s' is damaged: its compressed MAT-file element at byte %lld does not inflate whole "
                             "(zlib's check fails) or holds a matrix whose parts do not fit in it",
                             path, at);
        if (type == 14 && (got = fread(head, 1, bytes < sizeof head ? bytes : sizeof head, f)) > 0 &&
            !matrix_head_fits(head, got, bytes, swap)) /* miMATRIX */
            return kpca_fail(err, KPCA_EFORMAT,
                             "'%s' is damaged: its MAT-file matrix at byte %lld has parts that do not fit in its "
                             "%lu bytes",
                             path, at, (unsigned long)bytes);
        at += 8 + (long long)bytes;
    }
    return KPCA_OK;
}

/* The most values a variable of the file can hold, from its size: a
 * stored value takes a byte at least (MATLAB keeps a double matrix of
 * small integers as uint8), a compressed one (zlib in version 5, HDF5's
 * filters in 7.3) 1/1032 of a byte at most (deflate's largest ratio).  A
 * header that claims more is damaged: libmatio would read on for minutes
 * past the end, or ask for terabytes. */
static double most_values(FILE *f, int packed)
{
    if (fseek(f, 0, SEEK_END) != 0)
        return 1e300;
    return (double)ftell(f) * (packed ? 1032.0 : 1.0);
}

/* Opens path with libmatio into *out after checking its header: *most,
 * the most values a variable can hold (most_values); *v73, whether the
 * header says version 7.3 (HDF5) rather than 5. */
static kpca_status mat_open(const char *path, mat_t **out, double *most, int *v73, kpca_error *err)
{
    *out = NULL;
    *v73 = 0;
    kpca_h5_quiet(); /* a v7.3 file is HDF5 */
    Mat_LogInitFunc("kpca", mat_log);
    mat_msg[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return kpca_fail(err, KPCA_EIO, "cannot open '%s': %s", path, strerror(errno));
    unsigned char head[128];
    size_t got = fread(head, 1, sizeof head, f);
    kpca_status st = KPCA_OK;
    if (!kpca_mat_is(head, got))
        st = kpca_fail(err, KPCA_EFORMAT,
                       "'%s' is not a MATLAB MAT-file of version 5 or 7.3 (its first bytes are not "
                       "'MATLAB 5.0 MAT-file' or 'MATLAB 7.3 MAT-file')",
                       path);
    else if (got < sizeof head)
        st = kpca_fail(err, KPCA_EFORMAT, "'%s' is cut short: %zu bytes, less than a MAT-file's header", path, got);
    *v73 = memcmp(head + 7, "7.3", 3) == 0;
    int packed = *v73;
    if (st == KPCA_OK && !packed) /* head[126..127]: "IM" written little-endian */
        st = v5_fits(path, f, (head[126] == 'I') != (*(const unsigned char *)&(uint16_t){1} == 1), &packed, err);
    *most = most_values(f, packed);
    fclose(f);
    if (st != KPCA_OK)
        return st;
    if ((*out = Mat_Open(path, MAT_ACC_RDONLY)) == NULL)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': libmatio cannot read this MAT-file%s (damaged or cut short?)",
                         path, said());
    return KPCA_OK;
}

static const char *class_name(const matvar_t *v)
{
    if (v->isLogical)
        return "logical";
    switch (v->class_type) {
    case MAT_C_DOUBLE: return "double";
    case MAT_C_SINGLE: return "single";
    case MAT_C_INT8: return "int8";
    case MAT_C_UINT8: return "uint8";
    case MAT_C_INT16: return "int16";
    case MAT_C_UINT16: return "uint16";
    case MAT_C_INT32: return "int32";
    case MAT_C_UINT32: return "uint32";
    case MAT_C_INT64: return "int64";
    case MAT_C_UINT64: return "uint64";
    case MAT_C_CHAR: return "char";
    case MAT_C_CELL: return "cell";
    case MAT_C_STRUCT: return "struct";
    case MAT_C_SPARSE: return "sparse";
    case MAT_C_OBJECT: return "object";
    case MAT_C_FUNCTION: return "function handle";
    case MAT_C_OPAQUE: return "opaque object";
    case MAT_C_EMPTY: return "empty";
    }
    return "unknown";
}

static void describe(const matvar_t *v, kpca_mat_var *d)
{
    d->rank = v->rank;
    for (int k = 0; k < 4; k++)
        d->dims[k] = k < v->rank && v->dims != NULL ? v->dims[k] : 0;
    d->cls = class_name(v);
    d->complex = v->isComplex != 0;
    d->matrix = v->class_type >= MAT_C_DOUBLE && v->class_type <= MAT_C_UINT64 && !v->isComplex && v->rank == 2 &&
                v->dims != NULL;
}

const char *kpca_mat_shape(const kpca_mat_var *v, char *buf, size_t cap)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int k = 0; k < v->rank && at < cap; k++) {
        int w = k < 4 ? snprintf(buf + at, cap - at, "%s%zu", k ? " x " : "", v->dims[k])
                      : snprintf(buf + at, cap - at, " x ...");
        if (w < 0 || k >= 4)
            break;
        at += (size_t)w;
    }
    return buf;
}

void kpca_mat_vars_free(kpca_mat_var *vars, size_t n)
{
    if (vars == NULL)
        return;
    for (size_t i = 0; i < n; i++)
        kpca_free(vars[i].name);
    kpca_free(vars);
}

/* the variables of an open file */
static kpca_status list_open(const char *path, mat_t *m, kpca_mat_var **vars, size_t *n, kpca_error *err)
{
    *vars = NULL;
    *n = 0;
    size_t cap = 0;
    matvar_t *v;
    kpca_status st = KPCA_OK;
    while (st == KPCA_OK && (v = Mat_VarReadNextInfo(m)) != NULL) {
        if (*n == cap) {
            kpca_mat_var *grown = kpca_realloc(*vars, (cap = cap ? 2 * cap : 8) * sizeof *grown);
            if (grown == NULL) {
                Mat_VarFree(v);
                st = kpca_fail(err, KPCA_ENOMEM, "out of memory listing the variables of '%s'", path);
                break;
            }
            *vars = grown;
        }
        kpca_mat_var *d = &(*vars)[*n];
        describe(v, d);
        d->name = kpca_strdup(v->name != NULL ? v->name : "");
        Mat_VarFree(v);
        if (d->name == NULL)
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory listing the variables of '%s'", path);
        else
            (*n)++;
    }
    if (st == KPCA_OK && mat_msg[0] != '\0')
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': libmatio cannot read this MAT-file%s (damaged or cut short?)", path,
                       said());
    if (st != KPCA_OK) {
        kpca_mat_vars_free(*vars, *n);
        *vars = NULL;
        *n = 0;
    }
    return st;
}

kpca_status kpca_mat_list(const char *path, kpca_mat_var **vars, size_t *n, kpca_error *err)
{
    mat_t *m;
    double most;
    int v73;
    *vars = NULL;
    *n = 0;
    kpca_status st = mat_open(path, &m, &most, &v73, err);
    if (st != KPCA_OK)
        return st;
    st = list_open(path, m, vars, n, err);
    Mat_Close(m);
    return st;
}

/* "'X' (2000 x 256 double), 'y' (2000 x 1 double)" of vars into buf */
static void list_names(const kpca_mat_var *vars, size_t n, char *buf, size_t cap)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && at + 1 < cap; i++) {
        char shape[96];
        int w = snprintf(buf + at, cap - at, "%s'%s' (%s %s%s)", i ? ", " : "", vars[i].name,
                         kpca_mat_shape(&vars[i], shape, sizeof shape), vars[i].complex ? "complex " : "",
                         vars[i].cls);
        if (w < 0)
            break;
        at += (size_t)w;
    }
}

/* The one matrix of the file when name is NULL, named into *chosen (into
 * vars); else the named one's description (NULL when there is none). */
static kpca_status choose(const char *path, const kpca_mat_var *vars, size_t n, const char *name,
                          const kpca_mat_var **chosen, kpca_error *err)
{
    char list[1024];
    size_t matrices = 0;
    *chosen = NULL;
    for (size_t i = 0; i < n; i++) {
        if (name != NULL ? strcmp(vars[i].name, name) == 0 : vars[i].matrix) {
            *chosen = &vars[i];
            matrices++;
        }
    }
    if (matrices == 1)
        return KPCA_OK;
    if (name == NULL && matrices == 0 && n == 1) { /* the one variable: refused for what it is (refuse_kind) */
        *chosen = &vars[0];
        return KPCA_OK;
    }
    list_names(vars, n, list, sizeof list);
    if (name != NULL)
        return kpca_fail(err, KPCA_EFORMAT, "'%s' has no variable '%s'; it holds %s", path, name,
                         n ? list : "no variables");
    if (n == 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s' holds no variables", path);
    return kpca_fail(err, KPCA_EFORMAT,
                     "'%s' holds %s numeric matrices among its variables %s: name the one to read as '%s:NAME' "
                     "(and labels from a vector with --labels '%s:NAME')",
                     path, matrices ? "several" : "no", list, path, path);
}

/* Why v (named d) cannot be read as a matrix; KPCA_OK when it can */
static kpca_status refuse_kind(const char *path, const kpca_mat_var *d, kpca_error *err)
{
    char shape[96];
    kpca_mat_shape(d, shape, sizeof shape);
    const char *n = d->name;
    if (d->matrix)
        return KPCA_OK;
    if (d->complex)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': variable '%s' (%s) holds complex values; kpca reads real ones "
                         "(save real(%s) or abs(%s))", path, n, shape, n, n);
    if (strcmp(d->cls, "sparse") == 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': variable '%s' (%s) is a sparse matrix; kpca reads full ones: "
                         "in MATLAB, %s = full(%s), or write it as LIBSVM text", path, n, shape, n, n);
    if (d->rank > 2 && (d->matrix || strcmp(d->cls, "double") == 0 || strcmp(d->cls, "single") == 0 ||
                        strstr(d->cls, "int") != NULL || strcmp(d->cls, "logical") == 0))
        return kpca_fail(err, KPCA_EFORMAT,
                         "'%s': variable '%s' is an array of %s, not a matrix: kpca reads a 2-D variable, a point per "
                         "row.  When its first dimension holds a point's values (as in Roweis' usps_all.mat), make it "
                         "one in MATLAB: X = double(reshape(%s, size(%s, 1), [])'); save('x.mat', 'X'); or in "
                         "Python: d = scipy.io.loadmat('%s')['%s']; numpy.save('x.npy', "
                         "d.reshape(d.shape[0], -1, order='F').T.astype(float))",
                         path, n, shape, n, n, path, n);
    return kpca_fail(err, KPCA_EFORMAT, "'%s': variable '%s' (%s %s) is not numeric; kpca reads a matrix of numbers",
                     path, n, shape, d->cls);
}

/* x (r x c, row-major) from v's column-major data of its class */
static int convert(const matvar_t *v, double *x, size_t r, size_t c)
{
#define COPY(T)                                                                                                        \
    do {                                                                                                               \
        if (v->data_size != (int)sizeof(T))                                                                            \
            return -1;                                                                                                 \
        const T *s = v->data;                                                                                          \
        for (size_t j = 0; j < c; j++)                                                                                 \
            for (size_t i = 0; i < r; i++)                                                                             \
                x[i * c + j] = (double)s[j * r + i];                                                                   \
    } while (0)
    switch (v->class_type) {
    case MAT_C_DOUBLE: COPY(double); break;
    case MAT_C_SINGLE: COPY(float); break;
    case MAT_C_INT8: COPY(int8_t); break;
    case MAT_C_UINT8: COPY(uint8_t); break;
    case MAT_C_INT16: COPY(int16_t); break;
    case MAT_C_UINT16: COPY(uint16_t); break;
    case MAT_C_INT32: COPY(int32_t); break;
    case MAT_C_UINT32: COPY(uint32_t); break;
    case MAT_C_INT64: COPY(int64_t); break;
    case MAT_C_UINT64: COPY(uint64_t); break;
    default: return -1;
    }
#undef COPY
    return 0;
}

/* A version 7.3 variable is an HDF5 dataset at the root: its type must be
 * a number of 8 bytes at most and its shape hold r x c values.  libhdf5
 * converts to a type of the size the file claims: a damaged one of 2 GB a
 * value kept it busy for a minute (a fuzzer's find).  For a version 7.3
 * file only (mat_open's *v73). */
static kpca_status v73_sane(const char *path, const kpca_mat_var *d, size_t r, size_t c, kpca_error *err)
{
    kpca_h5_quiet();
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t ds = f >= 0 ? H5Dopen2(f, d->name, H5P_DEFAULT) : -1;
    hid_t t = ds >= 0 ? H5Dget_type(ds) : -1, sp = ds >= 0 ? H5Dget_space(ds) : -1;
    const H5T_class_t cls = t >= 0 ? H5Tget_class(t) : H5T_NO_CLASS;
    const size_t size = t >= 0 ? H5Tget_size(t) : 0;
    const hssize_t n = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : -1;
    if (sp >= 0)
        H5Sclose(sp);
    if (t >= 0)
        H5Tclose(t);
    if (ds >= 0)
        H5Dclose(ds);
    if (f >= 0)
        H5Fclose(f);
    if ((cls != H5T_INTEGER && cls != H5T_FLOAT) || size == 0 || size > 8 || n < 0 || (size_t)n != r * c)
        return kpca_fail(err, KPCA_EFORMAT,
                         "'%s': variable '%s' is damaged: HDF5 stores it as %s of %zu bytes a value and %lld values, "
                         "not the %zu x %zu numbers MATLAB's header says",
                         path, d->name, cls == H5T_INTEGER ? "integers" : cls == H5T_FLOAT ? "floats" : "no numbers",
                         size, (long long)n, r, c);
    return KPCA_OK;
}

/* reads the matrix d of the open file into *x (most and v73: mat_open's) */
static kpca_status read_matrix(const char *path, mat_t *m, const kpca_mat_var *d, double most, int v73, double **x,
                               size_t *rows, size_t *cols, kpca_error *err)
{
    const size_t r = d->dims[0], c = d->dims[1];
    if (r == 0 || c == 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': variable '%s' is empty (%zu x %zu)", path, d->name, r, c);
    if ((double)r * (double)c > most)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': variable '%s' claims %zu x %zu values, more than the file can "
                         "hold (damaged?)", path, d->name, r, c);
    char what[160];
    snprintf(what, sizeof what, "variable '%s' of '%s' (%zu x %zu)", d->name, path, r, c);
    kpca_status st = kpca_mem_check((double)r * (double)c * 16.0, what, err); /* libmatio's copy and ours */
    if (st == KPCA_OK && v73)
        st = v73_sane(path, d, r, c, err);
    if (st != KPCA_OK)
        return st;
    matvar_t *v = Mat_VarRead(m, d->name);
    if (v == NULL)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': libmatio cannot read variable '%s'%s (damaged or cut short?)",
                         path, d->name, said());
    if (v->data == NULL || v->rank != 2 || v->dims[0] != r || v->dims[1] != c || v->data_size <= 0 ||
        v->nbytes / (size_t)v->data_size < r * c)
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': variable '%s' holds fewer values than its %zu x %zu%s (damaged?)",
                       path, d->name, r, c, said());
    else if ((*x = kpca_alloc_array(r, c, sizeof **x)) == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for the %zu x %zu values of '%s:%s'", r, c, path, d->name);
    else if (convert(v, *x, r, c) != 0)
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': variable '%s' has values of a size libmatio did not convert (%d "
                       "bytes for %s)", path, d->name, v->data_size, d->cls);
    Mat_VarFree(v);
    for (size_t k = 0; st == KPCA_OK && k < r * c; k++)
        if (!isfinite((*x)[k]))
            st = kpca_fail(err, KPCA_EFORMAT, "'%s': variable '%s' row %zu, column %zu: %s; kpca needs finite values",
                           path, d->name, k / c + 1, k % c + 1, isnan((*x)[k]) ? "NaN" : "an infinity");
    if (st == KPCA_OK) {
        *rows = r;
        *cols = c;
    } else {
        kpca_free(*x);
        *x = NULL;
    }
    return st;
}

kpca_status kpca_mat_read(const char *path, const char *name, double **x, size_t *rows, size_t *cols,
                          char **name_out, kpca_error *err)
{
    *x = NULL;
    *rows = *cols = 0;
    if (name_out != NULL)
        *name_out = NULL;
    if (name != NULL && name[0] == '/') /* FILE:/VAR, as an HDF5 path is written */
        name++;
    mat_t *m;
    double most;
    int v73;
    kpca_status st = mat_open(path, &m, &most, &v73, err);
    if (st != KPCA_OK)
        return st;
    kpca_mat_var *vars;
    size_t n;
    const kpca_mat_var *d = NULL;
    if ((st = list_open(path, m, &vars, &n, err)) == KPCA_OK) {
        if ((st = choose(path, vars, n, name, &d, err)) == KPCA_OK && (st = refuse_kind(path, d, err)) == KPCA_OK)
            st = read_matrix(path, m, d, most, v73, x, rows, cols, err);
        if (st == KPCA_OK && name_out != NULL && (*name_out = kpca_strdup(d->name)) == NULL) {
            kpca_free(*x);
            *x = NULL;
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
        }
        kpca_mat_vars_free(vars, n);
    }
    Mat_Close(m);
    return st;
}

/* model_io.c - the HDF5 model file: kpca_model_save writes version
 * KPCA_MODEL_VERSION, kpca_model_load reads versions KPCA_MODEL_VERSION_MIN
 * and up.  The file's layout and its checksum rules (one per version) are
 * specified in docs/file-formats.md, "Model file"; its seal in "The seal".
 */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "file/h5util.h"
#include "file/h5write.h"
#include "support/mem.h"
#include "core/model.h"
#include "support/version.h"

static unsigned long crc_bytes(unsigned long crc, const void *p, size_t n)
{
    const unsigned char *b = p;
    while (n > 0) {
        uInt chunk = n > (1u << 30) ? (1u << 30) : (uInt)n;
        crc = crc32(crc, b, chunk);
        b += chunk;
        n -= chunk;
    }
    return crc;
}

/* The version-2 checksum: native bytes, and some fields only when they
 * differ from the defaults of the models written before them. */
static unsigned long checksum_v2(const kpca_model *md)
{
    unsigned long crc = crc32(0L, Z_NULL, 0);
    long long sizes[4] = {(long long)md->m, (long long)md->dim, (long long)md->k, (long long)md->kernel.degree};
    double scalars[6] = {md->kernel.gamma, md->kernel.coef0, md->grandmean, md->trace, md->input_lo, md->input_hi};
    crc = crc_bytes(crc, sizes, sizeof sizes);
    crc = crc_bytes(crc, scalars, sizeof scalars);
    if (md->centring != KPCA_CENTRE_KERNEL) {
        long long c = (long long)md->centring;
        crc = crc_bytes(crc, &c, sizeof c);
    }
    if (md->fit_n != 0 && md->fit_n != md->m) {
        long long n = (long long)md->fit_n;
        crc = crc_bytes(crc, &n, sizeof n);
    }
    if (md->kernel.type != KPCA_KERNEL_POLY) {
        long long type = (long long)md->kernel.type;
        crc = crc_bytes(crc, &type, sizeof type);
        crc = crc_bytes(crc, &md->kernel.sigma, sizeof md->kernel.sigma);
    }
    if (md->kernel.type == KPCA_KERNEL_PRECOMPUTED) { /* its points: indices in GRAM */
        for (size_t i = 0; i < md->m; i++) {
            long long g = (long long)md->gram_index[i];
            crc = crc_bytes(crc, &g, sizeof g);
        }
    } else {
        crc = crc_bytes(crc, md->fitx, md->m * md->dim * sizeof(double));
    }
    crc = crc_bytes(crc, md->fity, md->m * sizeof(int));
    crc = crc_bytes(crc, md->alpha, md->k * md->m * sizeof(double));
    crc = crc_bytes(crc, md->eigval, md->k * sizeof(double));
    crc = crc_bytes(crc, md->colmean, md->m * sizeof(double));
    if (md->centring == KPCA_CENTRE_REDUCED) {
        crc = crc_bytes(crc, md->rho, md->k * sizeof(double));
        crc = crc_bytes(crc, md->reduction, strlen(md->reduction));
    }
    return crc;
}

/* ---- the version-3 checksum: every field, always, in little-endian bytes ---- */

static unsigned long crc_le(unsigned long crc, uint64_t v, size_t bytes)
{
    unsigned char b[8];
    for (size_t i = 0; i < bytes; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    return crc32(crc, b, (uInt)bytes);
}

static unsigned long crc_int(unsigned long crc, size_t v)
{
    return crc_le(crc, (uint64_t)v, 8);
}

static unsigned long crc_doubles(unsigned long crc, const double *v, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* the doubles' bytes are already little-endian: no copy */
    for (const unsigned char *b = (const unsigned char *)v; n > 0;) {
        size_t take = n < ((size_t)1 << 27) ? n : ((size_t)1 << 27);
        crc = crc32(crc, b, (uInt)(8 * take));
        b += 8 * take;
        n -= take;
    }
#else
    unsigned char buf[4096];
    while (n > 0) {
        size_t take = n < sizeof buf / 8 ? n : sizeof buf / 8;
        for (size_t i = 0; i < take; i++) {
            uint64_t u;
            memcpy(&u, &v[i], 8);
            for (size_t j = 0; j < 8; j++)
                buf[8 * i + j] = (unsigned char)(u >> (8 * j));
        }
        crc = crc32(crc, buf, (uInt)(8 * take));
        v += take;
        n -= take;
    }
#endif
    return crc;
}

static unsigned long crc_ints(unsigned long crc, const int *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        crc = crc_le(crc, (uint64_t)(uint32_t)v[i], 4);
    return crc;
}

/* A text as the file holds it: its byte count, then its bytes, a control
 * character counted as '?' (as kpca_h5_attr_read_text reads it back). */
static unsigned long crc_text(unsigned long crc, const char *s)
{
    size_t len = strlen(s);
    crc = crc_int(crc, len);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = iscntrl((unsigned char)s[i]) ? (unsigned char)'?' : (unsigned char)s[i];
        crc = crc32(crc, &c, 1);
    }
    return crc;
}

static const char *centring_name(kpca_centring c)
{
    return c == KPCA_CENTRE_NYSTROM ? "nystrom" : c == KPCA_CENTRE_REDUCED ? "reduced" : "kernel";
}

/* with_precision: the file holds `precision` (every file written since it
 * exists; it is absent from the older version-3 files, which the rule
 * without it still reads) */
static unsigned long checksum_v3(const kpca_model *md, int with_precision)
{
    const int reduced = md->centring == KPCA_CENTRE_REDUCED;
    unsigned long crc = crc32(0L, Z_NULL, 0);
    crc = crc_int(crc, (size_t)md->kernel.degree);
    crc = crc_int(crc, md->m);
    crc = crc_int(crc, md->fit_n);
    crc = crc_int(crc, md->dim);
    crc = crc_int(crc, md->k);
    const double nums[8] = {md->kernel.gamma, md->kernel.coef0, md->kernel.type == KPCA_KERNEL_RBF ? md->kernel.sigma : 0.0,
                            md->grandmean,    md->trace,        md->input_lo,
                            md->input_hi,     md->smooth};
    crc = crc_doubles(crc, nums, 8);
    crc = crc_text(crc, kpca_kernel_name(md->kernel.type));
    crc = crc_text(crc, centring_name(md->centring));
    crc = crc_text(crc, md->solver);
    crc = crc_text(crc, reduced ? md->reduction : "");
    crc = crc_text(crc, md->source);
    if (with_precision)
        crc = crc_text(crc, kpca_precision_name(md->precision));
    if (md->kernel.type == KPCA_KERNEL_PRECOMPUTED) /* its points: indices in GRAM */
        for (size_t i = 0; i < md->m; i++)
            crc = crc_int(crc, md->gram_index[i]);
    else
        crc = crc_doubles(crc, md->fitx, md->m * md->dim);
    crc = crc_ints(crc, md->fity, md->m);
    crc = crc_doubles(crc, md->alpha, md->k * md->m);
    crc = crc_doubles(crc, md->eigval, md->k);
    crc = crc_doubles(crc, md->colmean, md->m);
    if (reduced)
        crc = crc_doubles(crc, md->rho, md->k);
    return crc;
}

/* The version-4 checksum: the version-3 rule (with `precision` where the
 * file has it, as every file kpca writes does), then the fields of version
 * 4, absent ones included as empty: the text `subset`;
 * the number of column names (0: none), then each name as its length and
 * its bytes (a name reads back as it was written); 1 and the means and
 * scales for a standardised model, else 0. */
static unsigned long checksum_v4(const kpca_model *md, int with_precision)
{
    unsigned long crc = checksum_v3(md, with_precision);
    crc = crc_text(crc, md->subset);
    crc = crc_int(crc, md->colnames != NULL ? md->dim : 0);
    for (size_t j = 0; md->colnames != NULL && j < md->dim; j++) {
        crc = crc_int(crc, strlen(md->colnames[j]));
        crc = crc_bytes(crc, md->colnames[j], strlen(md->colnames[j]));
    }
    crc = crc_int(crc, md->std_mean != NULL);
    if (md->std_mean != NULL) {
        crc = crc_doubles(crc, md->std_mean, md->dim);
        crc = crc_doubles(crc, md->std_scale, md->dim);
    }
    return crc;
}

/* The version-5 checksum: the version-4 rule, then the input steps: 1 and
 * the range's two ends when ranged, else 0; 1 and the decimals when
 * rounded, else 0. */
static unsigned long checksum_v5(const kpca_model *md, int with_precision)
{
    unsigned long crc = checksum_v4(md, with_precision);
    crc = crc_int(crc, (size_t)(md->ranged != 0));
    if (md->ranged) {
        const double ends[2] = {md->range_lo, md->range_hi};
        crc = crc_doubles(crc, ends, 2);
    }
    crc = crc_int(crc, (size_t)(md->rounded != 0));
    if (md->rounded)
        crc = crc_int(crc, (size_t)md->round);
    return crc;
}

unsigned long kpca_model_fingerprint(const kpca_model *md)
{
    return checksum_v2(md);
}

/* A precomputed kernel's model points: their indices in GRAM as the labels'
 * 32-bit integers (validated: below dim <= 10^8) */
static kpca_status write_gram_index(hid_t f, const char *path, const kpca_model *md, kpca_error *err)
{
    int *v = kpca_alloc_array(md->m, 1, sizeof(int));
    if (v == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for %zu indices", md->m);
    for (size_t i = 0; i < md->m; i++)
        v[i] = (int)md->gram_index[i];
    kpca_status st = kpca_h5_write_ints(f, path, "gram_index", md->m, v, err);
    kpca_free(v);
    return st;
}

static kpca_status read_gram_index(hid_t f, const char *path, kpca_model *md, kpca_error *err)
{
    int *v = NULL;
    size_t n = 0;
    kpca_status st = kpca_h5_read_ints(f, path, "gram_index", 0, &n, &v, err);
    if (st == KPCA_OK && n != md->m)
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': dataset 'gram_index' has %zu indices, expected %zu", path, n, md->m);
    if (st == KPCA_OK && (md->gram_index = kpca_alloc_array(md->m, 1, sizeof(size_t))) == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for %zu indices", md->m);
    for (size_t i = 0; st == KPCA_OK && i < md->m; i++) {
        if (v[i] < 0)
            st = kpca_fail(err, KPCA_EFORMAT, "'%s': dataset 'gram_index' holds the negative index %d", path, v[i]);
        else
            md->gram_index[i] = (size_t)v[i];
    }
    kpca_free(v);
    return st;
}

kpca_status kpca_model_save(const kpca_model *md, const char *path, kpca_error *err)
{
    kpca_h5_quiet();
    kpca_status st = kpca_model_validate(md, path, err);
    if (st != KPCA_OK)
        return st;
    kpca_h5_writer w;
    st = kpca_h5_writer_open(&w, path, err);
    if (st != KPCA_OK)
        return st;
    hid_t f = w.file;
    size_t d_fitx[2] = {md->m, md->dim}, d_alpha[2] = {md->k, md->m}, d_m[2] = {md->m, 0}, d_k[2] = {md->k, 0};
    st = kpca_h5_attr_write_string(f, path, "format", KPCA_MODEL_FORMAT, err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_long(f, path, "version", KPCA_MODEL_VERSION, err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_string(f, path, "kpca_version", KPCA_VERSION, err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_string(f, path, "kernel", kpca_kernel_name(md->kernel.type), err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_long(f, path, "degree", md->kernel.degree, err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_double(f, path, "gamma", md->kernel.gamma, err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_double(f, path, "coef0", md->kernel.coef0, err);
    if (st == KPCA_OK && md->kernel.type == KPCA_KERNEL_RBF)
        st = kpca_h5_attr_write_double(f, path, "sigma", md->kernel.sigma, err);
    if (st == KPCA_OK && md->centring != KPCA_CENTRE_KERNEL)
        st = kpca_h5_attr_write_string(f, path, "centring", centring_name(md->centring), err);
    if (st == KPCA_OK && md->centring == KPCA_CENTRE_REDUCED)
        st = kpca_h5_attr_write_string(f, path, "reduction", md->reduction, err);
    if (st == KPCA_OK && md->solver[0] != '\0')
        st = kpca_h5_attr_write_string(f, path, "solver", md->solver, err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_long(f, path, "m", (long)md->m, err);
    if (st == KPCA_OK && md->fit_n != 0)
        st = kpca_h5_attr_write_long(f, path, "fit_points", (long)md->fit_n, err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_long(f, path, "dim", (long)md->dim, err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_long(f, path, "k", (long)md->k, err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_double(f, path, "grandmean", md->grandmean, err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_double(f, path, "trace", md->trace, err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_double(f, path, "input_lo", md->input_lo, err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_double(f, path, "input_hi", md->input_hi, err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_double(f, path, "smooth", md->smooth, err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_string(f, path, "source", md->source, err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_string(f, path, "precision", kpca_precision_name(md->precision), err);
    if (st == KPCA_OK && md->subset[0] != '\0')
        st = kpca_h5_attr_write_string(f, path, "subset", md->subset, err);
    if (st == KPCA_OK && md->ranged) {
        const size_t d2[2] = {2, 0};
        const double ends[2] = {md->range_lo, md->range_hi};
        st = kpca_h5_write_doubles(f, path, "input_range", d2, ends, err);
    }
    if (st == KPCA_OK && md->rounded)
        st = kpca_h5_attr_write_long(f, path, "round", md->round, err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_long(f, path, "checksum", (long)checksum_v5(md, 1), err);
    if (st == KPCA_OK && md->kernel.type == KPCA_KERNEL_PRECOMPUTED)
        st = write_gram_index(f, path, md, err);
    else if (st == KPCA_OK)
        st = kpca_h5_write_doubles(f, path, "fit_x", d_fitx, md->fitx, err);
    if (st == KPCA_OK) st = kpca_h5_write_ints(f, path, "fit_y", md->m, md->fity, err);
    if (st == KPCA_OK) st = kpca_h5_write_doubles(f, path, "alpha", d_alpha, md->alpha, err);
    if (st == KPCA_OK) st = kpca_h5_write_doubles(f, path, "eigenvalues", d_k, md->eigval, err);
    if (st == KPCA_OK) st = kpca_h5_write_doubles(f, path, "colmean", d_m, md->colmean, err);
    if (st == KPCA_OK && md->centring == KPCA_CENTRE_REDUCED)
        st = kpca_h5_write_doubles(f, path, "rho", d_k, md->rho, err);
    size_t d_dim[2] = {md->dim, 0};
    if (st == KPCA_OK && md->colnames != NULL)
        st = kpca_h5_write_strings(f, path, "columns", md->dim, (const char *const *)md->colnames, err);
    if (st == KPCA_OK && md->std_mean != NULL)
        st = kpca_h5_write_doubles(f, path, "standardize_mean", d_dim, md->std_mean, err);
    if (st == KPCA_OK && md->std_mean != NULL)
        st = kpca_h5_write_doubles(f, path, "standardize_scale", d_dim, md->std_scale, err);
    return kpca_h5_writer_close(&w, st, err);
}

static kpca_status read_size(hid_t f, const char *path, const char *name, long lo, long hi, size_t *out,
                             kpca_error *err)
{
    long v;
    kpca_status st = kpca_h5_attr_read_long(f, path, name, &v, err);
    if (st != KPCA_OK)
        return st;
    if (v < lo || v > hi)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': attribute '%s' = %ld out of range (%ld..%ld)", path, name, v, lo, hi);
    *out = (size_t)v;
    return KPCA_OK;
}

static kpca_status expect_dims(const char *path, const char *name, const size_t got[2], size_t r, size_t c,
                               kpca_error *err)
{
    if (got[0] != r || got[1] != c)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': dataset '%s' is %zu x %zu, expected %zu x %zu", path, name,
                         got[0], got[1], r, c);
    return KPCA_OK;
}

/* A version-2 file records fit's smoothing in its source only: the text
 * ", smoothed sigma=S" that fit appended there. */
#define V2_SMOOTH_TEXT ", smoothed sigma="

static double v2_smooth(const char *source)
{
    const char *s = strstr(source, V2_SMOOTH_TEXT);
    return s != NULL ? strtod(s + strlen(V2_SMOOTH_TEXT), NULL) : 0.0;
}

/* The optional datasets of version 4: the column names and the
 * standardisation, each of dim entries. */
static kpca_status read_inputs(hid_t f, const char *path, kpca_model *md, kpca_error *err)
{
    kpca_status st = KPCA_OK;
    size_t dims[2], n = 0;
    if (H5Lexists(f, "columns", H5P_DEFAULT) > 0) {
        st = kpca_h5_read_strings(f, path, "columns", &n, &md->colnames, err);
        if (st == KPCA_OK && n != md->dim) {
            kpca_free_strings(md->colnames, n);
            md->colnames = NULL;
            st = kpca_fail(err, KPCA_EFORMAT, "'%s': dataset 'columns' has %zu names, expected %zu", path, n, md->dim);
        }
    }
    const int with_mean = H5Lexists(f, "standardize_mean", H5P_DEFAULT) > 0;
    if (st == KPCA_OK && with_mean != (H5Lexists(f, "standardize_scale", H5P_DEFAULT) > 0))
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': a standardisation needs both the column means and the scales", path);
    if (st == KPCA_OK && with_mean) {
        st = kpca_h5_read_doubles(f, path, "standardize_mean", 1, dims, &md->std_mean, err);
        if (st == KPCA_OK) st = expect_dims(path, "standardize_mean", dims, md->dim, 1, err);
        if (st == KPCA_OK) st = kpca_h5_read_doubles(f, path, "standardize_scale", 1, dims, &md->std_scale, err);
        if (st == KPCA_OK) st = expect_dims(path, "standardize_scale", dims, md->dim, 1, err);
    }
    return st;
}

kpca_status kpca_model_load(const char *path, kpca_model *md, kpca_error *err)
{
    memset(md, 0, sizeof *md);
    hid_t f;
    kpca_status st = kpca_h5_open_read(path, KPCA_SEAL_REQUIRED, &f, err);
    if (st != KPCA_OK)
        return st;
    char fmt[64], kname[32];
    long version = 0, degree = 0, checksum = 0;
    size_t dims[2], ny = 0;
    st = kpca_h5_attr_read_string(f, path, "format", fmt, sizeof fmt, err);
    if (st == KPCA_OK && strcmp(fmt, KPCA_MODEL_FORMAT) != 0)
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': not a kpca model (format '%s')", path, fmt);
    if (st == KPCA_OK) st = kpca_h5_attr_read_long(f, path, "version", &version, err);
    if (st == KPCA_OK && (version < KPCA_MODEL_VERSION_MIN || version > KPCA_MODEL_VERSION))
        st = kpca_fail(err, KPCA_EFORMAT,
                       "'%s': model version %ld is not supported (this kpca reads versions %d to %d)", path, version,
                       KPCA_MODEL_VERSION_MIN, KPCA_MODEL_VERSION);
    md->version = (int)version;
    if (st == KPCA_OK) st = kpca_h5_attr_read_string(f, path, "kernel", kname, sizeof kname, err);
    if (st == KPCA_OK && kpca_kernel_parse(kname, &md->kernel.type) != 0)
        st = kpca_fail(err, KPCA_EFORMAT,
                       "'%s': unknown kernel '%s' (expected poly, rbf, sigmoid, linear, laplacian, cosine, chi2 or "
                       "precomputed)", path, kname);
    if (st == KPCA_OK) st = kpca_h5_attr_read_long(f, path, "degree", &degree, err);
    if (st == KPCA_OK && (degree < 1 || degree > KPCA_MAX_DEGREE))
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': degree %ld out of range", path, degree);
    md->kernel.degree = (int)degree;
    if (st == KPCA_OK) st = kpca_h5_attr_read_double(f, path, "gamma", &md->kernel.gamma, err);
    if (st == KPCA_OK) st = kpca_h5_attr_read_double(f, path, "coef0", &md->kernel.coef0, err);
    if (st == KPCA_OK && md->kernel.type == KPCA_KERNEL_RBF)
        st = kpca_h5_attr_read_double(f, path, "sigma", &md->kernel.sigma, err);
    /* optional: absent in the models of the exact solver before them */
    md->centring = KPCA_CENTRE_KERNEL;
    if (st == KPCA_OK && H5Aexists(f, "centring") > 0) {
        char cname[32];
        st = kpca_h5_attr_read_string(f, path, "centring", cname, sizeof cname, err);
        if (st == KPCA_OK && strcmp(cname, "nystrom") == 0)
            md->centring = KPCA_CENTRE_NYSTROM;
        else if (st == KPCA_OK && strcmp(cname, "reduced") == 0)
            md->centring = KPCA_CENTRE_REDUCED;
        else if (st == KPCA_OK && strcmp(cname, "kernel") != 0)
            st = kpca_fail(err, KPCA_EFORMAT, "'%s': unknown centring '%s' (expected kernel, nystrom or reduced)",
                           path, cname);
    }
    if (st == KPCA_OK && md->centring == KPCA_CENTRE_REDUCED)
        st = kpca_h5_attr_read_text(f, path, "reduction", md->reduction, sizeof md->reduction, err);
    if (st == KPCA_OK && H5Aexists(f, "solver") > 0)
        st = kpca_h5_attr_read_string(f, path, "solver", md->solver, sizeof md->solver, err);
    const int reduced = md->centring == KPCA_CENTRE_REDUCED;
    if (st == KPCA_OK) st = read_size(f, path, "m", reduced ? 1 : 2, 100000000L, &md->m, err);
    if (st == KPCA_OK) /* optional: absent before it; m for kernel-centred models */
        md->fit_n = md->centring == KPCA_CENTRE_KERNEL ? md->m : 0;
    if (st == KPCA_OK && H5Aexists(f, "fit_points") > 0)
        st = read_size(f, path, "fit_points", 2, 100000000L, &md->fit_n, err);
    if (st == KPCA_OK) st = read_size(f, path, "dim", 1, 100000000L, &md->dim, err);
    if (st == KPCA_OK) st = read_size(f, path, "k", 1, reduced ? 100000000L : (long)md->m, &md->k, err);
    if (st == KPCA_OK) st = kpca_h5_attr_read_double(f, path, "grandmean", &md->grandmean, err);
    if (st == KPCA_OK) st = kpca_h5_attr_read_double(f, path, "trace", &md->trace, err);
    if (st == KPCA_OK) st = kpca_h5_attr_read_double(f, path, "input_lo", &md->input_lo, err);
    if (st == KPCA_OK) st = kpca_h5_attr_read_double(f, path, "input_hi", &md->input_hi, err);
    if (st == KPCA_OK && version >= 3) st = kpca_h5_attr_read_double(f, path, "smooth", &md->smooth, err);
    if (st == KPCA_OK) st = kpca_h5_attr_read_text(f, path, "source", md->source, sizeof md->source, err);
    if (st == KPCA_OK && version == 2)
        md->smooth = v2_smooth(md->source);
    /* optional: absent in the version-3 files before it, which are double
     * (a file without it, of any version, is read as double: its checksum
     * then leaves it out) */
    const int with_precision = version >= 3 && H5Aexists(f, "precision") > 0;
    md->precision = KPCA_PRECISION_DOUBLE;
    if (st == KPCA_OK && with_precision) {
        char pname[32];
        st = kpca_h5_attr_read_string(f, path, "precision", pname, sizeof pname, err);
        if (st == KPCA_OK && kpca_precision_parse(pname, &md->precision) != 0)
            st = kpca_fail(err, KPCA_EFORMAT, "'%s': unknown precision '%s' (expected double or single)", path, pname);
    }
    /* optional in version 4, absent before it */
    if (st == KPCA_OK && version >= 4 && H5Aexists(f, "subset") > 0)
        st = kpca_h5_attr_read_text(f, path, "subset", md->subset, sizeof md->subset, err);
    /* optional in version 5: the input steps; before it, not recorded */
    md->steps_unknown = version < 5;
    if (st == KPCA_OK && version >= 5 && H5Aexists(f, "round") > 0) {
        st = kpca_h5_attr_read_long(f, path, "round", &md->round, err);
        md->rounded = 1;
        if (st == KPCA_OK && (md->round < 0 || md->round > 15))
            st = kpca_fail(err, KPCA_EFORMAT, "'%s': round %ld is not 0..15 decimals", path, md->round);
    }
    if (st == KPCA_OK && version >= 5 && H5Lexists(f, "input_range", H5P_DEFAULT) > 0) {
        size_t d2[2] = {2, 0};
        double *ends = NULL;
        st = kpca_h5_read_doubles(f, path, "input_range", 1, d2, &ends, err);
        if (st == KPCA_OK && (d2[0] != 2 || !(isfinite(ends[0]) && isfinite(ends[1]) && ends[0] < ends[1])))
            st = kpca_fail(err, KPCA_EFORMAT, "'%s': input_range is not LO < HI, both finite", path);
        if (st == KPCA_OK) {
            md->ranged = 1;
            md->range_lo = ends[0];
            md->range_hi = ends[1];
        }
        kpca_free(ends);
    }
    if (st == KPCA_OK) st = kpca_h5_attr_read_long(f, path, "checksum", &checksum, err);
    if (st == KPCA_OK && md->kernel.type == KPCA_KERNEL_PRECOMPUTED) {
        st = read_gram_index(f, path, md, err);
    } else if (st == KPCA_OK) {
        st = kpca_h5_read_doubles(f, path, "fit_x", 2, dims, &md->fitx, err);
        if (st == KPCA_OK) st = expect_dims(path, "fit_x", dims, md->m, md->dim, err);
    }
    if (st == KPCA_OK) st = kpca_h5_read_ints(f, path, "fit_y", 0, &ny, &md->fity, err);
    if (st == KPCA_OK && ny != md->m)
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': dataset 'fit_y' has %zu labels, expected %zu", path, ny, md->m);
    if (st == KPCA_OK) st = kpca_h5_read_doubles(f, path, "alpha", 2, dims, &md->alpha, err);
    if (st == KPCA_OK) st = expect_dims(path, "alpha", dims, md->k, md->m, err);
    if (st == KPCA_OK) st = kpca_h5_read_doubles(f, path, "eigenvalues", 1, dims, &md->eigval, err);
    if (st == KPCA_OK) st = expect_dims(path, "eigenvalues", dims, md->k, 1, err);
    if (st == KPCA_OK) st = kpca_h5_read_doubles(f, path, "colmean", 1, dims, &md->colmean, err);
    if (st == KPCA_OK) st = expect_dims(path, "colmean", dims, md->m, 1, err);
    if (st == KPCA_OK && reduced) st = kpca_h5_read_doubles(f, path, "rho", 1, dims, &md->rho, err);
    if (st == KPCA_OK && reduced) st = expect_dims(path, "rho", dims, md->k, 1, err);
    if (st == KPCA_OK && version >= 4)
        st = read_inputs(f, path, md, err);
    H5Fclose(f);
    if (st == KPCA_OK && (unsigned long)checksum != (version == 2   ? checksum_v2(md)
                                                     : version == 3 ? checksum_v3(md, with_precision)
                                                     : version == 4 ? checksum_v4(md, with_precision)
                                                                    : checksum_v5(md, with_precision)))
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': checksum mismatch: the file is damaged or was altered", path);
    if (st == KPCA_OK)
        st = kpca_model_validate(md, path, err);
    if (st != KPCA_OK)
        kpca_model_free(md);
    return st;
}

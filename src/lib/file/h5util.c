#include "file/h5util.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file/h5seal.h"
#include "file/matfile.h"
#include "file/source.h"
#include "support/mem.h"

void kpca_h5_quiet(void)
{
    static int done = 0;
    if (!done) {
        H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
        done = 1;
    }
}

kpca_status kpca_h5_open_read(const char *path, kpca_seal_mode mode, hid_t *file, kpca_error *err)
{
    int sealed;
    return kpca_h5_open_read_sealed(path, mode, file, &sealed, err);
}

/* kpca_h5_open_read_sealed of a file that is not a stream */
static kpca_status open_read_sealed(const char *path, kpca_seal_mode mode, hid_t *file, int *sealed_out,
                                    kpca_error *err)
{
    *sealed_out = 0;
    kpca_h5_quiet();
    struct stat st;
    if (stat(path, &st) != 0)
        return kpca_fail(err, KPCA_EIO, "cannot open '%s': %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return kpca_fail(err, KPCA_EIO, "cannot open '%s': Is a directory", path);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return kpca_fail(err, KPCA_EIO, "cannot open '%s': %s", path, strerror(errno));
    int sealed = 0;
    kpca_status sst = kpca_h5_seal_check_fd(fd, path, &sealed, err);
    int bad_sb = sst == KPCA_OK && kpca_h5_superblock_implausible(fd, st.st_size);
    close(fd);
    if (sst != KPCA_OK)
        return sst;
    if (sealed == 0 && mode == KPCA_SEAL_REQUIRED)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': no kpca seal: not a file written by this kpca (or its first bytes are damaged)",
                         path);
    htri_t is = H5Fis_hdf5(path);
    if (is < 0)
        return kpca_fail(err, KPCA_EIO, "cannot read '%s'", path);
    if (is == 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': not an HDF5 file (or a damaged one)", path);
    if (bad_sb)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': damaged HDF5 superblock (sizes or end of file out of range)", path);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': cannot open as HDF5 (damaged file?)", path);
    *file = f;
    *sealed_out = sealed;
    return KPCA_OK;
}

kpca_status kpca_h5_open_read_sealed(const char *path, kpca_seal_mode mode, hid_t *file, int *sealed_out,
                                     kpca_error *err)
{
    if (!kpca_source_is_stream(path))
        return open_read_sealed(path, mode, file, sealed_out, err);
    /* a model or HDF5 data through a pipe: read once into a spool, which
     * libhdf5 keeps open after the spool's own descriptor and name are gone */
    kpca_spool sp;
    *sealed_out = 0;
    kpca_status st = kpca_spool_open(path, &sp, err);
    if (st == KPCA_OK)
        st = open_read_sealed(sp.path, mode, file, sealed_out, err);
    if (st != KPCA_OK)
        return kpca_spool_finish(&sp, st, err);
    kpca_spool_close(&sp);
    return KPCA_OK;
}

/* Opens dataset `name`, checks rank and class (want_int 0: numbers, 1:
 * integers, 2: strings); fills dims. */
static kpca_status open_checked(hid_t loc, const char *path, const char *name, int rank_lo, int rank_hi,
                                int want_int, hid_t *dset, hsize_t dims[2], kpca_error *err)
{
    htri_t ex = H5Lexists(loc, name, H5P_DEFAULT);
    if (ex <= 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': no dataset '%s'", path, name);
    hid_t d = H5Dopen2(loc, name, H5P_DEFAULT);
    if (d < 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': '%s' is not a readable dataset", path, name);
    /* MATLAB writes columns first: HDF5 shows the matrix transposed.  Only a
     * file with MATLAB's header is asked for the attribute: libhdf5's
     * H5Aexists has a use-after-free on damaged files (docs/guarantees.md) */
    if (kpca_mat_file(path) && H5Aexists(d, "MATLAB_class") > 0) {
        H5Dclose(d);
        return kpca_fail(err, KPCA_EFORMAT,
                         "'%s': dataset '%s' is a MATLAB variable (it carries MATLAB_class), which HDF5 shows "
                         "transposed: read it as MATLAB shows it, as '%s:%s' without --format hdf5",
                         path, name, path, name[0] == '/' ? name + 1 : name);
    }
    hid_t sp = H5Dget_space(d);
    int rank = sp >= 0 ? H5Sget_simple_extent_ndims(sp) : -1;
    hsize_t dd[H5S_MAX_RANK];
    if (rank >= 0 && rank <= H5S_MAX_RANK)
        H5Sget_simple_extent_dims(sp, dd, NULL);
    if (sp >= 0)
        H5Sclose(sp);
    if (rank < rank_lo || rank > rank_hi || (rank == 2 && rank_hi == 2 && rank_lo == 1 && dd[1] != 1)) {
        H5Dclose(d);
        return kpca_fail(err, KPCA_EFORMAT, "'%s': dataset '%s' has rank %d, expected %s", path, name, rank,
                         rank_hi == 1 || (rank_lo == 1 && rank_hi == 2) ? "a vector" : rank_lo == 2 ? "a matrix (rank 2)" : "rank 1 or 2");
    }
    hid_t t = H5Dget_type(d);
    H5T_class_t cls = t >= 0 ? H5Tget_class(t) : H5T_NO_CLASS;
    if (t >= 0)
        H5Tclose(t);
    if (want_int == 2 ? cls != H5T_STRING
                      : want_int == 1 ? cls != H5T_INTEGER : (cls != H5T_FLOAT && cls != H5T_INTEGER)) {
        H5Dclose(d);
        return kpca_fail(err, KPCA_EFORMAT, "'%s': dataset '%s' has the wrong type, expected %s", path, name,
                         want_int == 2 ? "strings" : want_int == 1 ? "integers"
                                       : want_int == 3 ? "integer labels (integers, or floats that are integers)"
                                                       : "numbers (float or integer)");
    }
    dims[0] = rank >= 1 ? dd[0] : 1;
    dims[1] = rank >= 2 ? dd[1] : 1;
    *dset = d;
    return KPCA_OK;
}

/* bytes per value in the file (8 when unknown) */
static size_t file_type_size(hid_t d)
{
    size_t tsize = 8;
    hid_t ft = H5Dget_type(d);
    if (ft >= 0) {
        size_t sz = H5Tget_size(ft);
        if (sz > 0)
            tsize = sz;
        H5Tclose(ft);
    }
    return tsize;
}

/* Why dataset d could not be read: a filter of its pipeline this libhdf5
 * lacks (h5py's LZF, a Blosc or zstd plugin), named with the fix; else a
 * damaged file.  Call before d is closed. */
static kpca_status read_failed(hid_t d, const char *path, const char *name, kpca_error *err)
{
    hid_t pl = H5Dget_create_plist(d);
    const int nf = pl >= 0 ? H5Pget_nfilters(pl) : 0;
    for (int i = 0; i < nf; i++) {
        unsigned flags = 0, cfg = 0;
        size_t nel = 0;
        char fname[80] = "";
        const H5Z_filter_t id = H5Pget_filter2(pl, (unsigned)i, &flags, &nel, NULL, sizeof fname, fname, &cfg);
        if (id < 0 || H5Zfilter_avail(id) > 0)
            continue;
        H5Pclose(pl);
        const char *known = id == 32000 ? "LZF, h5py's compression='lzf'"
                            : id == 32001 ? "Blosc" : id == 32004 ? "LZ4" : id == 32008 ? "bitshuffle"
                            : id == 32015 ? "Zstandard" : id == 307 ? "bzip2" : fname[0] ? fname : "unnamed";
        return kpca_fail(err, KPCA_EFORMAT,
                         "'%s': dataset '%s' is compressed with HDF5 filter %d (%s), which this HDF5 library "
                         "lacks: write it again with gzip where that filter is at hand, e.g. in h5py: "
                         "create_dataset('%s', data=x, compression='gzip')",
                         path, name, (int)id, known, name);
    }
    if (pl >= 0)
        H5Pclose(pl);
    return kpca_fail(err, KPCA_EFORMAT, "'%s': cannot read dataset '%s' (damaged file?)", path, name);
}

kpca_status kpca_h5_read_doubles(hid_t loc, const char *path, const char *name, int want_rank,
                                 size_t dims[2], double **out, kpca_error *err)
{
    hid_t d;
    hsize_t hd[2];
    kpca_status st = open_checked(loc, path, name, want_rank, want_rank, 0, &d, hd, err);
    if (st != KPCA_OK)
        return st;
    char what[160];
    snprintf(what, sizeof what, "dataset '%s' in '%s' (%llu x %llu)", name, path, (unsigned long long)hd[0],
             (unsigned long long)hd[1]);
    /* our doubles, plus libhdf5's conversion buffer (a value of the file's type each) */
    st = kpca_mem_check((double)hd[0] * (double)hd[1] * (double)(sizeof(double) + file_type_size(d)), what, err);
    if (st != KPCA_OK) {
        H5Dclose(d);
        return st;
    }
    double *buf = kpca_alloc_array((size_t)hd[0], (size_t)hd[1], sizeof(double));
    if (buf == NULL) {
        H5Dclose(d);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for '%s' in '%s' (%llu x %llu)", name, path,
                         (unsigned long long)hd[0], (unsigned long long)hd[1]);
    }
    herr_t r = (hd[0] * hd[1] == 0) ? 0 : H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
    st = r < 0 ? read_failed(d, path, name, err) : KPCA_OK;
    H5Dclose(d);
    if (st != KPCA_OK) {
        kpca_free(buf);
        return st;
    }
    dims[0] = (size_t)hd[0];
    dims[1] = (size_t)hd[1];
    *out = buf;
    return KPCA_OK;
}

/* Opens a vector dataset (rank 1, or n x 1 when rank_hi is 2) of the kind
 * open_checked takes, after checking the memory budget for its n values:
 * `per` bytes each and `per_file` times a value of the file's type. */
static kpca_status open_vector(hid_t loc, const char *path, const char *name, int rank_hi, int kind, size_t per,
                               int per_file, hid_t *d, hsize_t hd[2], kpca_error *err)
{
    kpca_status st = open_checked(loc, path, name, 1, rank_hi, kind, d, hd, err);
    if (st != KPCA_OK)
        return st;
    char what[160];
    snprintf(what, sizeof what, "dataset '%s' in '%s' (%llu values)", name, path, (unsigned long long)hd[0]);
    st = kpca_mem_check((double)hd[0] * (double)(per + (size_t)per_file * file_type_size(*d)), what, err);
    if (st != KPCA_OK)
        H5Dclose(*d);
    return st;
}

/* v as an int into *out, or the error naming the row: beyond int, or (a
 * float label) no integer */
static kpca_status int_of(double v, const char *path, const char *name, size_t row, int *out, kpca_error *err)
{
    if (v != floor(v))
        return kpca_fail(err, KPCA_EFORMAT, "'%s': dataset '%s' row %zu: label %.17g is no integer (labels are "
                         "classes)", path, name, row, v);
    if (v < INT_MIN || v > INT_MAX)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': dataset '%s' row %zu: label %.0f is beyond int", path, name, row, v);
    *out = (int)v;
    return KPCA_OK;
}

kpca_status kpca_h5_read_ints(hid_t loc, const char *path, const char *name, int floats, size_t *n, int **out,
                              kpca_error *err)
{
    hid_t d;
    hsize_t hd[2];
    kpca_status st = open_vector(loc, path, name, 2, floats ? 3 : 1, sizeof(double) + sizeof(int), 1, &d, hd, err);
    if (st != KPCA_OK)
        return st;
    /* read as doubles and checked: HDF5 would clamp into int and truncate
     * a float silently (an int beyond 2^53 is beyond int's range anyway) */
    double *wide = kpca_alloc_array((size_t)hd[0], 1, sizeof(double));
    int *buf = kpca_alloc_array((size_t)hd[0], 1, sizeof(int));
    if (wide == NULL || buf == NULL) {
        H5Dclose(d);
        kpca_free(wide);
        kpca_free(buf);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for '%s' in '%s'", name, path);
    }
    herr_t r = hd[0] == 0 ? 0 : H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, wide);
    if (r < 0)
        st = read_failed(d, path, name, err);
    H5Dclose(d);
    for (size_t i = 0; st == KPCA_OK && i < (size_t)hd[0]; i++)
        st = int_of(wide[i], path, name, i + 1, &buf[i], err);
    kpca_free(wide);
    if (st != KPCA_OK) {
        kpca_free(buf);
        return st;
    }
    *n = (size_t)hd[0];
    *out = buf;
    return KPCA_OK;
}

kpca_status kpca_h5_open_numbers(hid_t loc, const char *path, const char *name, int want_rank, hid_t *d,
                                 size_t dims[2], kpca_error *err)
{
    hsize_t hd[2];
    kpca_status st = open_checked(loc, path, name, want_rank, want_rank, 0, d, hd, err);
    if (st == KPCA_OK) {
        dims[0] = (size_t)hd[0];
        dims[1] = (size_t)hd[1];
    }
    return st;
}

kpca_status kpca_h5_open_ints(hid_t loc, const char *path, const char *name, hid_t *d, size_t *n, kpca_error *err)
{
    hsize_t hd[2];
    kpca_status st = open_checked(loc, path, name, 1, 2, 3, d, hd, err);
    if (st == KPCA_OK)
        *n = (size_t)hd[0];
    return st;
}

/* rows [row0, row0 + rows) of d (ncols columns, rank 1 when its space
 * says so) into buf as memtype; 0 or -1 */
static int read_hyperslab(hid_t d, size_t row0, size_t rows, size_t ncols, hid_t memtype, void *buf)
{
    hid_t fs = H5Dget_space(d);
    int rank = fs >= 0 ? H5Sget_simple_extent_ndims(fs) : -1;
    hsize_t start[2] = {row0, 0}, count[2] = {rows, rank >= 2 ? ncols : 1};
    hid_t ms = rank >= 1 ? H5Screate_simple(rank, count, NULL) : -1;
    herr_t r = ms >= 0 ? H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) : -1;
    if (r >= 0)
        r = H5Dread(d, memtype, ms, fs, H5P_DEFAULT, buf);
    if (ms >= 0)
        H5Sclose(ms);
    if (fs >= 0)
        H5Sclose(fs);
    return r < 0 ? -1 : 0;
}

kpca_status kpca_h5_read_rows(hid_t d, const char *path, const char *name, size_t row0, size_t rows, size_t ncols,
                              double *buf, kpca_error *err)
{
    if (rows > 0 && read_hyperslab(d, row0, rows, ncols, H5T_NATIVE_DOUBLE, buf) != 0)
        return read_failed(d, path, name, err);
    return KPCA_OK;
}

kpca_status kpca_h5_read_int_rows(hid_t d, const char *path, const char *name, size_t row0, size_t rows, int *buf,
                                  kpca_error *err)
{
    double wide[1024];
    for (size_t done = 0; done < rows;) {
        size_t take = rows - done < 1024 ? rows - done : 1024;
        if (read_hyperslab(d, row0 + done, take, 1, H5T_NATIVE_DOUBLE, wide) != 0)
            return read_failed(d, path, name, err);
        for (size_t i = 0; i < take; i++) {
            kpca_status st = int_of(wide[i], path, name, row0 + done + i + 1, &buf[done + i], err);
            if (st != KPCA_OK)
                return st;
        }
        done += take;
    }
    return KPCA_OK;
}

/* the strings of a string dataset d (n of them) as NUL-terminated copies */
static kpca_status read_strings(hid_t d, const char *path, const char *name, size_t n, char **out, kpca_error *err)
{
    hid_t ft = H5Dget_type(d);
    int vlen = ft >= 0 && H5Tis_variable_str(ft) > 0;
    size_t width = ft >= 0 ? H5Tget_size(ft) : 0;
    H5T_cset_t cset = ft >= 0 ? H5Tget_cset(ft) : H5T_CSET_ERROR; /* HDF5 converts no character set */
    if (ft >= 0)
        H5Tclose(ft);
    hid_t mt = H5Tcopy(H5T_C_S1);
    herr_t r = mt < 0 || cset == H5T_CSET_ERROR ? -1 : H5Tset_cset(mt, cset);
    if (r >= 0)
        r = vlen ? H5Tset_size(mt, H5T_VARIABLE) : H5Tset_size(mt, width + 1);
    if (r >= 0 && !vlen)
        r = H5Tset_strpad(mt, H5T_STR_NULLTERM);
    char **ptrs = vlen ? kpca_calloc(n, sizeof(char *)) : NULL;
    char *flat = vlen ? NULL : kpca_alloc_array(n, width + 1, 1);
    kpca_status st = KPCA_OK;
    int got = 0; /* 1: read, variable-length strings to reclaim */
    if (ptrs == NULL && flat == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for '%s' in '%s'", name, path);
    else if (r < 0 || H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, vlen ? (void *)ptrs : (void *)flat) < 0)
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': cannot read dataset '%s' (damaged file?)", path, name);
    else
        got = vlen;
    for (size_t i = 0; i < n && st == KPCA_OK; i++) {
        const char *s = vlen ? (ptrs[i] != NULL ? ptrs[i] : "") : flat + i * (width + 1);
        if ((out[i] = kpca_malloc(strlen(s) + 1)) == NULL)
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory for '%s' in '%s'", name, path);
        else
            strcpy(out[i], s);
    }
    if (got) {
        hid_t sp = H5Dget_space(d);
        if (sp >= 0) {
            H5Dvlen_reclaim(mt, sp, H5P_DEFAULT, ptrs);
            H5Sclose(sp);
        }
    }
    if (mt >= 0)
        H5Tclose(mt);
    kpca_free(ptrs);
    kpca_free(flat);
    return st;
}

kpca_status kpca_h5_read_strings(hid_t loc, const char *path, const char *name, size_t *n, char ***out,
                                 kpca_error *err)
{
    hid_t d;
    hsize_t hd[2];
    kpca_status st = open_vector(loc, path, name, 1, 2, 2 * sizeof(char *) + 2, 2, &d, hd, err);
    if (st != KPCA_OK)
        return st;
    char **v = kpca_calloc(hd[0] ? (size_t)hd[0] : 1, sizeof(char *));
    if (v == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for '%s' in '%s'", name, path);
    if (st == KPCA_OK && hd[0] > 0)
        st = read_strings(d, path, name, (size_t)hd[0], v, err);
    H5Dclose(d);
    if (st != KPCA_OK) {
        for (size_t i = 0; v != NULL && i < (size_t)hd[0]; i++)
            kpca_free(v[i]);
        kpca_free(v);
        return st;
    }
    *n = (size_t)hd[0];
    *out = v;
    return KPCA_OK;
}

static kpca_status attr_open(hid_t loc, const char *path, const char *name, H5T_class_t want, hid_t *a,
                             kpca_error *err)
{
    if (H5Aexists(loc, name) <= 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': missing attribute '%s'", path, name);
    hid_t h = H5Aopen(loc, name, H5P_DEFAULT);
    if (h < 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': cannot open attribute '%s'", path, name);
    hid_t sp = H5Aget_space(h);
    int scalar = sp >= 0 && H5Sget_simple_extent_type(sp) == H5S_SCALAR;
    if (sp >= 0)
        H5Sclose(sp);
    hid_t t = H5Aget_type(h);
    H5T_class_t cls = t >= 0 ? H5Tget_class(t) : H5T_NO_CLASS;
    if (t >= 0)
        H5Tclose(t);
    if (!scalar || cls != want) {
        H5Aclose(h);
        return kpca_fail(err, KPCA_EFORMAT, "'%s': attribute '%s' has the wrong type or shape", path, name);
    }
    *a = h;
    return KPCA_OK;
}

kpca_status kpca_h5_attr_read_double(hid_t loc, const char *path, const char *name, double *v, kpca_error *err)
{
    hid_t a;
    kpca_status st = attr_open(loc, path, name, H5T_FLOAT, &a, err);
    if (st != KPCA_OK)
        return st;
    herr_t r = H5Aread(a, H5T_NATIVE_DOUBLE, v);
    H5Aclose(a);
    if (r < 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': cannot read attribute '%s'", path, name);
    return KPCA_OK;
}

kpca_status kpca_h5_attr_read_long(hid_t loc, const char *path, const char *name, long *v, kpca_error *err)
{
    hid_t a;
    kpca_status st = attr_open(loc, path, name, H5T_INTEGER, &a, err);
    if (st != KPCA_OK)
        return st;
    long long ll = 0;
    herr_t r = H5Aread(a, H5T_NATIVE_LLONG, &ll);
    H5Aclose(a);
    if (r < 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': cannot read attribute '%s'", path, name);
    *v = (long)ll;
    return KPCA_OK;
}

static kpca_status read_string(hid_t loc, const char *path, const char *name, char *buf, size_t cap, int text,
                               kpca_error *err)
{
    hid_t a;
    kpca_status st = attr_open(loc, path, name, H5T_STRING, &a, err);
    if (st != KPCA_OK)
        return st;
    hid_t ft = H5Aget_type(a);
    size_t sz = ft >= 0 ? H5Tget_size(ft) : 0;
    htri_t vl = ft >= 0 ? H5Tis_variable_str(ft) : -1;
    if (ft >= 0)
        H5Tclose(ft);
    if (vl != 0 || sz == 0 || sz > 65536) {
        H5Aclose(a);
        return kpca_fail(err, KPCA_EFORMAT, "'%s': attribute '%s' is not a fixed-length string", path, name);
    }
    char *tmp = kpca_malloc(sz + 1);
    if (tmp == NULL) {
        H5Aclose(a);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory");
    }
    hid_t mt = H5Tcopy(H5T_C_S1);
    H5Tset_size(mt, sz);
    H5Tset_strpad(mt, H5T_STR_NULLPAD); /* every byte, whatever padding the file used */
    herr_t r = H5Aread(a, mt, tmp);
    H5Tclose(mt);
    H5Aclose(a);
    if (r < 0) {
        kpca_free(tmp);
        return kpca_fail(err, KPCA_EFORMAT, "'%s': cannot read attribute '%s'", path, name);
    }
    tmp[sz] = '\0';
    size_t len = strlen(tmp);
    kpca_status st2 = KPCA_OK;
    if (len >= cap)
        st2 = kpca_fail(err, KPCA_EFORMAT, "'%s': attribute '%s' is %zu characters long, expected at most %zu", path,
                        name, len, cap - 1);
    for (size_t i = 0; st2 == KPCA_OK && i < len; i++)
        if (!iscntrl((unsigned char)tmp[i]))
            continue;
        else if (text)
            tmp[i] = '?';
        else
            st2 = kpca_fail(err, KPCA_EFORMAT, "'%s': attribute '%s' holds a control character at byte %zu", path,
                            name, i + 1);
    if (st2 == KPCA_OK)
        memcpy(buf, tmp, len + 1);
    kpca_free(tmp);
    return st2;
}

kpca_status kpca_h5_attr_read_string(hid_t loc, const char *path, const char *name, char *buf, size_t cap,
                                     kpca_error *err)
{
    return read_string(loc, path, name, buf, cap, 0, err);
}

kpca_status kpca_h5_attr_read_text(hid_t loc, const char *path, const char *name, char *buf, size_t cap,
                                   kpca_error *err)
{
    return read_string(loc, path, name, buf, cap, 1, err);
}

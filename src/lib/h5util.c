#include "h5util.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "atomic.h"
#include "mem.h"

void kpca_h5_quiet(void)
{
    static int done = 0;
    if (!done) {
        H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
        done = 1;
    }
}

#define SEAL_MAGIC "kpca-seal 1 "

static int seal_parse(const unsigned char *head, unsigned long long *len, unsigned long *crc)
{
    char line[96];
    memcpy(line, head, sizeof line - 1);
    line[sizeof line - 1] = '\0';
    if (strncmp(line, SEAL_MAGIC, strlen(SEAL_MAGIC)) != 0)
        return 0;
    if (sscanf(line, SEAL_MAGIC "length=%llu crc32=%8lx", len, crc) != 2)
        return -1;
    return 1;
}

void kpca_h5_seal_image(unsigned char *buf, size_t n)
{
    unsigned long c = crc32(0L, Z_NULL, 0);
    for (size_t off = KPCA_H5_SEAL_SIZE; off < n;) {
        uInt chunk = n - off > (1u << 30) ? (1u << 30) : (uInt)(n - off);
        c = crc32(c, buf + off, chunk);
        off += chunk;
    }
    memset(buf, 0, KPCA_H5_SEAL_SIZE);
    snprintf((char *)buf, KPCA_H5_SEAL_SIZE, SEAL_MAGIC "length=%llu crc32=%08lx\n", (unsigned long long)n, c);
}

/* *sealed = 1 when the file has a seal and it matches, 0 when it has none;
 * any other outcome is an error status */
static kpca_status seal_check_fd(int fd, const char *path, int *sealed, kpca_error *err)
{
    unsigned char head[KPCA_H5_SEAL_SIZE];
    ssize_t got = pread(fd, head, sizeof head, 0);
    *sealed = 0;
    if (got < 0)
        return kpca_fail(err, KPCA_EIO, "cannot read '%s': %s", path, strerror(errno));
    unsigned long long len;
    unsigned long crc;
    int r = got == (ssize_t)sizeof head ? seal_parse(head, &len, &crc) : 0;
    if (r == 0)
        return KPCA_OK;
    if (r < 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': damaged kpca seal (the file's first bytes)", path);
    unsigned char *buf = kpca_malloc((size_t)1 << 20);
    if (buf == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory checking '%s'", path);
    unsigned long c = crc32(0L, Z_NULL, 0);
    unsigned long long total = KPCA_H5_SEAL_SIZE;
    off_t off = KPCA_H5_SEAL_SIZE;
    for (;;) {
        ssize_t n = pread(fd, buf, (size_t)1 << 20, off);
        if (n < 0) {
            kpca_free(buf);
            return kpca_fail(err, KPCA_EIO, "cannot read '%s': %s", path, strerror(errno));
        }
        if (n == 0)
            break;
        c = crc32(c, buf, (uInt)n);
        off += n;
        total += (unsigned long long)n;
    }
    kpca_free(buf);
    if (total != len)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': %llu bytes where its seal says %llu: the file is truncated or damaged",
                         path, total, len);
    if (c != crc)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': checksum mismatch (kpca seal): the file is damaged or was altered",
                         path);
    *sealed = 1;
    return KPCA_OK;
}

/* A sanity check of the HDF5 superblock before libhdf5 reads the file:
 * libhdf5 1.10.8 trusts it and can allocate gigabytes for a damaged one
 * (fuzzing: 3.2 GB and 9 s for a 3 KB file whose superblock gave an end of
 * file of 16 bytes and a driver-info block inside the data).  Checks the
 * first superblock (at 0, 512, 1024, ...): a known version, offset and
 * length sizes of 2..32 bytes, and an end-of-file address that lies after
 * the superblock and within the file.  0 when plausible. */
static int superblock_implausible(int fd, off_t fsize)
{
    unsigned char sb[128];
    for (off_t at = 0; at + 8 <= fsize; at = at == 0 ? 512 : at * 2) {
        memset(sb, 0, sizeof sb);
        ssize_t got = pread(fd, sb, sizeof sb, at);
        if (got < 8)
            return 1;
        if (memcmp(sb, "\211HDF\r\n\032\n", 8) != 0)
            continue;
        if (got < 16)
            return 1; /* a signature and no superblock after it */
        int ver = sb[8];
        size_t so, sl, eof_at, sb_len;
        if (ver == 0 || ver == 1) {
            so = sb[13];
            sl = sb[14];
            eof_at = (ver == 0 ? 24 : 28) + 2 * so;    /* base, free-space, then end of file */
            sb_len = (ver == 0 ? 24 : 28) + 4 * so + 40; /* + driver info, root entry (about) */
        } else if (ver == 2 || ver == 3) {
            so = sb[9];
            sl = sb[10];
            eof_at = 12 + 2 * so; /* base, extension, then end of file */
            sb_len = 12 + 4 * so + 4;
        } else {
            return 1;
        }
        if (so < 2 || so > 8 || sl < 2 || sl > 32 || (so & (so - 1)) != 0 || (sl & (sl - 1)) != 0)
            return 1;
        if ((ssize_t)(eof_at + so) > got)
            return 1;
        unsigned long long eof = 0, base = 0;
        for (size_t i = 0; i < so; i++) {
            eof |= (unsigned long long)sb[eof_at + i] << (8 * i);
            base |= (unsigned long long)sb[(ver <= 1 ? (ver == 0 ? 24 : 28) : 12) + i] << (8 * i);
        }
        /* the stored end of file is absolute (it counts a user block) */
        if (base > (unsigned long long)fsize || eof < base + sb_len || eof > (unsigned long long)fsize)
            return 1;
        return 0;
    }
    return 1; /* no signature: libhdf5 would refuse it anyway */
}

kpca_status kpca_h5_open_read(const char *path, kpca_seal_mode mode, hid_t *file, kpca_error *err)
{
    int sealed;
    return kpca_h5_open_read_sealed(path, mode, file, &sealed, err);
}

kpca_status kpca_h5_open_read_sealed(const char *path, kpca_seal_mode mode, hid_t *file, int *sealed_out,
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
    kpca_status sst = seal_check_fd(fd, path, &sealed, err);
    int bad_sb = sst == KPCA_OK && superblock_implausible(fd, st.st_size);
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

kpca_status kpca_h5_image_create(const char *path, hid_t *file, kpca_error *err)
{
    static unsigned long serial = 0;
    char name[64];
    kpca_h5_quiet();
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl < 0)
        return kpca_fail(err, KPCA_ENOMEM, "cannot create '%s' (HDF5 property list)", path);
    herr_t r = H5Pset_fapl_core(fapl, (size_t)8 << 20, 0);
    /* Default (earliest) file format: HDF5 1.10.8 writes a wrong superblock
     * checksum into H5Fget_file_image of the v1.8+ formats.  The model file
     * carries its own CRC-32 of every array and number instead. */
    snprintf(name, sizeof name, "kpca-image-%lu", ++serial);
    hid_t fcpl = H5Pcreate(H5P_FILE_CREATE); /* with a user block for the seal */
    if (fcpl < 0 || H5Pset_userblock(fcpl, KPCA_H5_SEAL_SIZE) < 0 || H5Pset_obj_track_times(fcpl, 0) < 0)
        r = -1;
    hid_t f = r >= 0 ? H5Fcreate(name, H5F_ACC_TRUNC, fcpl, fapl) : -1;
    if (fcpl >= 0)
        H5Pclose(fcpl);
    H5Pclose(fapl);
    if (f < 0)
        return kpca_fail(err, KPCA_ENOMEM, "cannot create '%s' (HDF5 in-memory file)", path);
    *file = f;
    return KPCA_OK;
}

kpca_status kpca_h5_image_save(hid_t file, kpca_status ok, const char *path, kpca_error *err)
{
    if (ok != KPCA_OK) {
        H5Fclose(file);
        return ok;
    }
    void *buf = NULL;
    kpca_status why = KPCA_EINTERNAL; /* HDF5 failed, unless the copy buffer did */
    ssize_t size = H5Fflush(file, H5F_SCOPE_GLOBAL) < 0 ? -1 : H5Fget_file_image(file, NULL, 0);
    if (size > 0) {
        /* the image starts at the superblock: the user block (the seal) goes in front */
        buf = kpca_malloc((size_t)size + KPCA_H5_SEAL_SIZE);
        if (buf == NULL)
            why = KPCA_ENOMEM;
        if (buf == NULL || H5Fget_file_image(file, (unsigned char *)buf + KPCA_H5_SEAL_SIZE, (size_t)size) != size)
            size = -1;
        else
            size += KPCA_H5_SEAL_SIZE;
    }
    H5Fclose(file);
    if (size <= 0) {
        kpca_free(buf);
        return kpca_fail(err, why, "cannot write '%s' (HDF5 image%s)", path, why == KPCA_ENOMEM ? ": out of memory" : "");
    }
    kpca_h5_seal_image(buf, (size_t)size);
    kpca_atomic at;
    kpca_status st = kpca_atomic_begin(&at, path, err);
    if (st == KPCA_OK) {
        if (fwrite(buf, 1, (size_t)size, at.fp) != (size_t)size) {
            st = kpca_fail(err, KPCA_EIO, "cannot write '%s': %s", path, strerror(errno));
            kpca_atomic_abort(&at);
        } else {
            st = kpca_atomic_commit(&at, err);
        }
    }
    kpca_free(buf);
    return st;
}

/* Opens dataset `name`, checks rank and class; fills dims. */
static kpca_status open_checked(hid_t loc, const char *path, const char *name, int rank_lo, int rank_hi,
                                int want_int, hid_t *dset, hsize_t dims[2], kpca_error *err)
{
    htri_t ex = H5Lexists(loc, name, H5P_DEFAULT);
    if (ex <= 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': no dataset '%s'", path, name);
    hid_t d = H5Dopen2(loc, name, H5P_DEFAULT);
    if (d < 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': '%s' is not a readable dataset", path, name);
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
    if (want_int ? cls != H5T_INTEGER : (cls != H5T_FLOAT && cls != H5T_INTEGER)) {
        H5Dclose(d);
        return kpca_fail(err, KPCA_EFORMAT, "'%s': dataset '%s' has the wrong type, expected %s", path, name,
                         want_int ? "integers" : "numbers (float or integer)");
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
    H5Dclose(d);
    if (r < 0) {
        kpca_free(buf);
        return kpca_fail(err, KPCA_EFORMAT, "'%s': cannot read dataset '%s' (damaged file?)", path, name);
    }
    dims[0] = (size_t)hd[0];
    dims[1] = (size_t)hd[1];
    *out = buf;
    return KPCA_OK;
}

kpca_status kpca_h5_read_ints(hid_t loc, const char *path, const char *name, size_t *n, int **out, kpca_error *err)
{
    hid_t d;
    hsize_t hd[2];
    kpca_status st = open_checked(loc, path, name, 1, 2, 1, &d, hd, err);
    if (st != KPCA_OK)
        return st;
    char what[160];
    snprintf(what, sizeof what, "dataset '%s' in '%s' (%llu values)", name, path, (unsigned long long)hd[0]);
    st = kpca_mem_check((double)hd[0] * (double)(sizeof(long long) + sizeof(int) + file_type_size(d)), what, err);
    if (st != KPCA_OK) {
        H5Dclose(d);
        return st;
    }
    /* read as 64-bit and range-check: HDF5 would clamp silently into int */
    long long *wide = kpca_alloc_array((size_t)hd[0], 1, sizeof(long long));
    int *buf = kpca_alloc_array((size_t)hd[0], 1, sizeof(int));
    if (wide == NULL || buf == NULL) {
        H5Dclose(d);
        kpca_free(wide);
        kpca_free(buf);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for '%s' in '%s'", name, path);
    }
    herr_t r = hd[0] == 0 ? 0 : H5Dread(d, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, wide);
    H5Dclose(d);
    if (r < 0) {
        kpca_free(wide);
        kpca_free(buf);
        return kpca_fail(err, KPCA_EFORMAT, "'%s': cannot read dataset '%s' (damaged file?)", path, name);
    }
    for (size_t i = 0; i < (size_t)hd[0]; i++) {
        if (wide[i] < INT_MIN || wide[i] > INT_MAX) {
            st = kpca_fail(err, KPCA_EFORMAT, "'%s': dataset '%s' row %zu: label %lld is beyond int", path, name,
                           i + 1, wide[i]);
            kpca_free(wide);
            kpca_free(buf);
            return st;
        }
        buf[i] = (int)wide[i];
    }
    kpca_free(wide);
    *n = (size_t)hd[0];
    *out = buf;
    return KPCA_OK;
}

static kpca_status write_any(hid_t loc, const char *path, const char *name, int rank, const hsize_t *dims,
                             hid_t filetype, hid_t memtype, const void *data, kpca_error *err)
{
    hid_t sp = H5Screate_simple(rank, dims, NULL);
    if (sp < 0)
        return kpca_fail(err, KPCA_EIO, "'%s': cannot create dataspace for '%s'", path, name);
    /* no modification times in the object headers: the same data must give
     * the same bytes (determinism.bats) */
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    hid_t d = -1;
    if (dcpl >= 0 && H5Pset_obj_track_times(dcpl, 0) >= 0)
        d = H5Dcreate2(loc, name, filetype, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    H5Sclose(sp);
    if (d < 0)
        return kpca_fail(err, KPCA_EIO, "'%s': cannot create dataset '%s'", path, name);
    herr_t r = 0;
    hsize_t total = 1;
    for (int i = 0; i < rank; i++)
        total *= dims[i];
    if (total > 0)
        r = H5Dwrite(d, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
    if (H5Dclose(d) < 0 || r < 0)
        return kpca_fail(err, KPCA_EIO, "'%s': cannot write dataset '%s'", path, name);
    return KPCA_OK;
}

kpca_status kpca_h5_write_doubles(hid_t loc, const char *path, const char *name, const size_t dims[2],
                                  const double *data, kpca_error *err)
{
    hsize_t hd[2] = {dims[0], dims[1]};
    return write_any(loc, path, name, dims[1] == 0 ? 1 : 2, hd, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, data, err);
}

kpca_status kpca_h5_write_ints(hid_t loc, const char *path, const char *name, size_t n, const int *data,
                               kpca_error *err)
{
    hsize_t hd[1] = {n};
    return write_any(loc, path, name, 1, hd, H5T_STD_I32LE, H5T_NATIVE_INT, data, err);
}

static kpca_status attr_write(hid_t loc, const char *path, const char *name, hid_t ftype, hid_t mtype,
                              const void *v, kpca_error *err)
{
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = sp >= 0 ? H5Acreate2(loc, name, ftype, sp, H5P_DEFAULT, H5P_DEFAULT) : -1;
    herr_t r = a >= 0 ? H5Awrite(a, mtype, v) : -1;
    if (a >= 0 && H5Aclose(a) < 0)
        r = -1;
    if (sp >= 0)
        H5Sclose(sp);
    if (r < 0)
        return kpca_fail(err, KPCA_EIO, "'%s': cannot write attribute '%s'", path, name);
    return KPCA_OK;
}

kpca_status kpca_h5_attr_write_double(hid_t loc, const char *path, const char *name, double v, kpca_error *err)
{
    return attr_write(loc, path, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &v, err);
}

kpca_status kpca_h5_attr_write_long(hid_t loc, const char *path, const char *name, long v, kpca_error *err)
{
    long long ll = v;
    return attr_write(loc, path, name, H5T_STD_I64LE, H5T_NATIVE_LLONG, &ll, err);
}

kpca_status kpca_h5_attr_write_string(hid_t loc, const char *path, const char *name, const char *v, kpca_error *err)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t < 0)
        return kpca_fail(err, KPCA_EIO, "'%s': cannot write attribute '%s'", path, name);
    H5Tset_size(t, strlen(v) + 1);
    H5Tset_strpad(t, H5T_STR_NULLTERM);
    kpca_status st = attr_write(loc, path, name, t, t, v, err);
    H5Tclose(t);
    return st;
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

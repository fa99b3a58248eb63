/* h5write.c - HDF5 files written all or nothing, sealed (see h5write.h). */
#include "file/h5write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file/h5seal.h"
#include "file/h5util.h"
#include "support/mem.h"

/* room reserved past the data for HDF5's metadata (object headers,
 * attributes, the root group: 5 KiB in a model file) */
#define RESERVE_SLACK ((unsigned long long)64 << 10)

/* A file that HDF5 writes to disk itself (the sec2 driver, the writer's
 * direct mode) gets its disk blocks reserved (posix_fallocate) for `bytes`
 * past its current end, and RESERVE_SLACK more, before HDF5 writes there:
 * libhdf5 1.10.8 crashes at exit after a failed write (a full disk, a
 * quota, ulimit -f), so no HDF5 write may fail for want of space, and a
 * reservation that fails is an ordinary error here.  Files in memory (the
 * core driver) need none. */
static kpca_status reserve(hid_t loc, const char *path, unsigned long long bytes, kpca_error *err)
{
    hid_t f = H5Iget_file_id(loc);
    hid_t fapl = f >= 0 ? H5Fget_access_plist(f) : -1;
    kpca_status st = KPCA_OK;
    if (fapl >= 0 && H5Pget_driver(fapl) == H5FD_SEC2) {
        int *fd = NULL;
        haddr_t eoa = HADDR_UNDEF;
        int e = H5Fget_vfd_handle(f, fapl, (void **)&fd) < 0 || fd == NULL || H5Fget_eoa(f, &eoa) < 0 ? EBADF
                : posix_fallocate(*fd, 0, (off_t)(eoa + bytes + RESERVE_SLACK));
        if (e != 0)
            st = kpca_fail(err, KPCA_EIO, "cannot write '%s': %s", path, strerror(e));
    }
    if (fapl >= 0)
        H5Pclose(fapl);
    if (f >= 0)
        H5Fclose(f);
    return st;
}

/* the file-creation properties of every file kpca writes: a user block for
 * the seal, no modification times (the same data gives the same bytes) */
static hid_t writer_fcpl(void)
{
    hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
    if (fcpl >= 0 && (H5Pset_userblock(fcpl, KPCA_H5_SEAL_SIZE) < 0 || H5Pset_obj_track_times(fcpl, 0) < 0)) {
        H5Pclose(fcpl);
        fcpl = -1;
    }
    return fcpl;
}

kpca_status kpca_h5_writer_open(kpca_h5_writer *w, const char *path, kpca_error *err)
{
    static unsigned long serial = 0;
    memset(w, 0, sizeof *w);
    w->file = -1;
    w->path = path;
    kpca_h5_quiet();
    kpca_status st = kpca_atomic_begin(&w->out, path, err);
    if (st != KPCA_OK)
        return st;
    /* HDF5 writes a regular file itself when its blocks can be reserved
     * (room for the metadata, tried before HDF5 touches the file); a file
     * system that cannot reserve gets the in-memory image */
    w->direct = 0;
    if (w->out.tmp != NULL) {
        int e = posix_fallocate(fileno(w->out.fp), 0, KPCA_H5_SEAL_SIZE + RESERVE_SLACK);
        if (e != 0 && e != EOPNOTSUPP && e != EINVAL) {
            kpca_atomic_abort(&w->out);
            return kpca_fail(err, KPCA_EIO, "cannot write '%s': %s", path, strerror(e));
        }
        w->direct = e == 0;
    }
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    hid_t fcpl = writer_fcpl();
    herr_t r = fapl >= 0 && fcpl >= 0 ? 0 : -1;
    char name[64];
    const char *target = w->out.tmp;
    if (r >= 0 && w->direct) {
        /* a private temporary file: no locks needed (some file systems refuse them) */
        r = H5Pset_fapl_sec2(fapl);
        if (r >= 0)
            r = H5Pset_file_locking(fapl, 0, 1);
    } else if (r >= 0) {
        /* Default (earliest) file format: HDF5 1.10.8 writes a wrong superblock
         * checksum into H5Fget_file_image of the v1.8+ formats.  The model file
         * carries its own CRC-32 of every array and number besides. */
        r = H5Pset_fapl_core(fapl, (size_t)8 << 20, 0);
        snprintf(name, sizeof name, "kpca-image-%lu", ++serial);
        target = name;
    }
    w->file = r >= 0 ? H5Fcreate(target, H5F_ACC_TRUNC, fcpl, fapl) : -1;
    if (fcpl >= 0)
        H5Pclose(fcpl);
    if (fapl >= 0)
        H5Pclose(fapl);
    if (w->file >= 0 && w->direct && reserve(w->file, path, 0, err) != KPCA_OK) {
        H5Fclose(w->file); /* nothing of HDF5's past the first KiB yet (the space was there a moment ago) */
        kpca_atomic_abort(&w->out);
        return KPCA_EIO;
    }
    if (w->file < 0) {
        int e = errno;
        kpca_atomic_abort(&w->out);
        if (w->direct)
            return kpca_fail(err, KPCA_EIO, "cannot create '%s' (HDF5%s%s)", path, e ? ": " : "", e ? strerror(e) : "");
        return kpca_fail(err, KPCA_ENOMEM, "cannot create '%s' (HDF5 in-memory file)", path);
    }
    return KPCA_OK;
}

/* the in-memory image: copies it out, seals it and writes it to w->out */
static kpca_status image_write(kpca_h5_writer *w, kpca_error *err)
{
    void *buf = NULL;
    kpca_status why = KPCA_EINTERNAL; /* HDF5 failed, unless the copy buffer did */
    ssize_t size = H5Fflush(w->file, H5F_SCOPE_GLOBAL) < 0 ? -1 : H5Fget_file_image(w->file, NULL, 0);
    if (size > 0) {
        /* the image starts at the superblock: the user block (the seal) goes in front */
        buf = kpca_malloc((size_t)size + KPCA_H5_SEAL_SIZE);
        if (buf == NULL)
            why = KPCA_ENOMEM;
        if (buf == NULL || H5Fget_file_image(w->file, (unsigned char *)buf + KPCA_H5_SEAL_SIZE, (size_t)size) != size)
            size = -1;
        else
            size += KPCA_H5_SEAL_SIZE;
    }
    H5Fclose(w->file);
    w->file = -1;
    if (size <= 0) {
        kpca_free(buf);
        kpca_atomic_abort(&w->out);
        return kpca_fail(err, why, "cannot write '%s' (HDF5 image%s)", w->path, why == KPCA_ENOMEM ? ": out of memory" : "");
    }
    kpca_h5_seal_image(buf, (size_t)size);
    kpca_status st = KPCA_OK;
    if (fwrite(buf, 1, (size_t)size, w->out.fp) != (size_t)size) {
        st = kpca_fail(err, KPCA_EIO, "cannot write '%s': %s", w->path, strerror(errno));
        kpca_atomic_abort(&w->out);
    } else {
        st = kpca_atomic_commit(&w->out, err);
    }
    kpca_free(buf);
    return st;
}

/* the file HDF5 wrote: closes HDF5's handle and cuts the file at the end
 * its superblock says (its blocks were reserved past that); on failure
 * the temporary file is removed */
static kpca_status direct_close(kpca_h5_writer *w, kpca_error *err)
{
    errno = 0;
    herr_t r = H5Fclose(w->file);
    int e = errno;
    w->file = -1;
    if (r < 0) {
        kpca_atomic_abort(&w->out);
        return kpca_fail(err, KPCA_EIO, "cannot write '%s': %s", w->path, e ? strerror(e) : "HDF5 could not finish the file");
    }
    int fd = fileno(w->out.fp);
    struct stat sz;
    unsigned long long base, eof;
    size_t sb_len;
    if (fstat(fd, &sz) != 0 || kpca_h5_superblock_read(fd, sz.st_size, &base, &eof, &sb_len) != 0 ||
        eof <= KPCA_H5_SEAL_SIZE || eof > (unsigned long long)sz.st_size) {
        kpca_atomic_abort(&w->out);
        return kpca_fail(err, KPCA_EINTERNAL, "cannot write '%s': HDF5 left no readable superblock", w->path);
    }
    if (ftruncate(fd, (off_t)eof) != 0) {
        e = errno;
        kpca_atomic_abort(&w->out);
        return kpca_fail(err, KPCA_EIO, "cannot write '%s': %s", w->path, strerror(e));
    }
    return KPCA_OK;
}

/* the closed file: seals it in place and renames it */
static kpca_status direct_seal(kpca_h5_writer *w, kpca_error *err)
{
    int fd = fileno(w->out.fp);
    unsigned long c;
    unsigned long long n;
    kpca_status st = kpca_h5_crc_fd(fd, w->path, &c, &n, err);
    if (st == KPCA_OK) {
        unsigned char head[KPCA_H5_SEAL_SIZE];
        kpca_h5_seal_format(head, n, c);
        if (pwrite(fd, head, sizeof head, 0) != (ssize_t)sizeof head)
            st = kpca_fail(err, KPCA_EIO, "cannot write '%s': %s", w->path, strerror(errno ? errno : EIO));
    }
    if (st != KPCA_OK) {
        kpca_atomic_abort(&w->out);
        return st;
    }
    return kpca_atomic_commit(&w->out, err);
}

kpca_status kpca_h5_writer_detach(kpca_h5_writer *w, int *fd, kpca_error *err)
{
    *fd = -1;
    if (!w->direct || w->file < 0)
        return kpca_fail(err, KPCA_EINTERNAL, "'%s': an HDF5 file built in memory cannot be written in place",
                         w->path);
    kpca_status st = direct_close(w, err);
    if (st != KPCA_OK)
        return st;
    w->detached = 1;
    *fd = fileno(w->out.fp);
    return KPCA_OK;
}

kpca_status kpca_h5_writer_close(kpca_h5_writer *w, kpca_status ok, kpca_error *err)
{
    if (w->detached) {
        w->detached = 0;
        if (ok != KPCA_OK) {
            kpca_atomic_abort(&w->out);
            return ok;
        }
        return direct_seal(w, err);
    }
    if (w->file < 0)
        return ok;
    if (ok != KPCA_OK) {
        H5Fclose(w->file);
        w->file = -1;
        kpca_atomic_abort(&w->out);
        return ok;
    }
    if (!w->direct)
        return image_write(w, err);
    kpca_status st = direct_close(w, err);
    return st == KPCA_OK ? direct_seal(w, err) : st;
}

/* Creates dataset `name` (rank 1 or 2, dims) and writes it: whole from
 * data, or with data NULL only its first element, as zeros, so that its
 * contiguous storage is allocated there (at the file's end, its blocks
 * reserved first) for rows written later; *at (may be NULL): the storage's
 * offset in the file (0 for an empty dataset, which gets none). */
static kpca_status write_any(hid_t loc, const char *path, const char *name, int rank, const hsize_t *dims,
                             hid_t filetype, hid_t memtype, const void *data, unsigned long long *at,
                             kpca_error *err)
{
    if (at != NULL)
        *at = 0;
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
    if (d < 0) {
        H5Sclose(sp);
        return kpca_fail(err, KPCA_EIO, "'%s': cannot create dataset '%s'", path, name);
    }
    herr_t r = 0;
    hsize_t total = 1;
    for (int i = 0; i < rank; i++)
        total *= dims[i];
    if (total > 0) {
        /* the data goes at the file's end (allocated at this write) */
        kpca_status st = reserve(loc, path, total * H5Tget_size(filetype), err);
        if (st != KPCA_OK) {
            H5Sclose(sp);
            H5Dclose(d);
            return st;
        }
        if (data != NULL) {
            r = H5Dwrite(d, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
        } else {
            const hsize_t start[2] = {0, 0}, one[2] = {1, 1};
            const unsigned char zero[16] = {0};
            hid_t ms = H5Screate_simple(1, one, NULL);
            r = ms < 0 || H5Tget_size(memtype) > sizeof zero ||
                        H5Sselect_hyperslab(sp, H5S_SELECT_SET, start, NULL, one, NULL) < 0
                    ? -1
                    : H5Dwrite(d, memtype, ms, sp, H5P_DEFAULT, zero);
            if (ms >= 0)
                H5Sclose(ms);
        }
        if (r >= 0 && at != NULL) {
            haddr_t off = H5Dget_offset(d);
            if (off == HADDR_UNDEF)
                r = -1;
            else
                *at = (unsigned long long)off;
        }
    }
    H5Sclose(sp);
    if (H5Dclose(d) < 0 || r < 0)
        return kpca_fail(err, KPCA_EIO, "'%s': cannot write dataset '%s'", path, name);
    return KPCA_OK;
}

kpca_status kpca_h5_write_doubles(hid_t loc, const char *path, const char *name, const size_t dims[2],
                                  const double *data, kpca_error *err)
{
    hsize_t hd[2] = {dims[0], dims[1]};
    return write_any(loc, path, name, dims[1] == 0 ? 1 : 2, hd, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, data, NULL, err);
}

kpca_status kpca_h5_write_ints(hid_t loc, const char *path, const char *name, size_t n, const int *data,
                               kpca_error *err)
{
    hsize_t hd[1] = {n};
    return write_any(loc, path, name, 1, hd, H5T_STD_I32LE, H5T_NATIVE_INT, data, NULL, err);
}

kpca_status kpca_h5_create_doubles(hid_t loc, const char *path, const char *name, const size_t dims[2],
                                   unsigned long long *at, kpca_error *err)
{
    hsize_t hd[2] = {dims[0], dims[1]};
    return write_any(loc, path, name, dims[1] == 0 ? 1 : 2, hd, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, NULL, at, err);
}

kpca_status kpca_h5_create_ints(hid_t loc, const char *path, const char *name, size_t n, unsigned long long *at,
                                kpca_error *err)
{
    hsize_t hd[1] = {n};
    return write_any(loc, path, name, 1, hd, H5T_STD_I32LE, H5T_NATIVE_INT, NULL, at, err);
}

kpca_status kpca_h5_write_rows(hid_t loc, const char *path, const char *name, size_t row0, size_t rows,
                               const void *data, kpca_error *err)
{
    if (rows == 0)
        return KPCA_OK;
    hid_t d = H5Dopen2(loc, name, H5P_DEFAULT);
    hid_t fs = d >= 0 ? H5Dget_space(d) : -1;
    hid_t ft = d >= 0 ? H5Dget_type(d) : -1;
    int rank = fs >= 0 ? H5Sget_simple_extent_ndims(fs) : -1;
    hsize_t dims[2] = {0, 1}, start[2] = {row0, 0}, count[2] = {rows, 1};
    herr_t r = rank == 1 || rank == 2 ? H5Sget_simple_extent_dims(fs, dims, NULL) : -1;
    count[1] = rank == 2 ? dims[1] : 1;
    hid_t ms = r >= 0 && row0 + rows <= dims[0] ? H5Screate_simple(rank, count, NULL) : -1;
    hid_t mt = ft < 0 ? -1 : H5Tget_class(ft) == H5T_FLOAT ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT;
    r = ms < 0 || mt < 0 || H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) < 0
            ? -1
            : H5Dwrite(d, mt, ms, fs, H5P_DEFAULT, data);
    if (ms >= 0)
        H5Sclose(ms);
    if (ft >= 0)
        H5Tclose(ft);
    if (fs >= 0)
        H5Sclose(fs);
    if ((d >= 0 && H5Dclose(d) < 0) || r < 0)
        return kpca_fail(err, KPCA_EIO, "'%s': cannot write rows %zu to %zu of dataset '%s'", path, row0 + 1,
                         row0 + rows, name);
    return KPCA_OK;
}

kpca_status kpca_h5_write_strings(hid_t loc, const char *path, const char *name, size_t n,
                                  const char *const *v, kpca_error *err)
{
    size_t width = 1;
    for (size_t i = 0; i < n; i++)
        if (strlen(v[i]) > width)
            width = strlen(v[i]);
    char *buf = kpca_alloc_array(n ? n : 1, width, 1);
    hid_t t = buf != NULL ? H5Tcopy(H5T_C_S1) : -1;
    if (t < 0 || H5Tset_size(t, width) < 0 || H5Tset_strpad(t, H5T_STR_NULLPAD) < 0 ||
        H5Tset_cset(t, H5T_CSET_UTF8) < 0) {
        if (t >= 0)
            H5Tclose(t);
        kpca_free(buf);
        return kpca_fail(err, buf == NULL ? KPCA_ENOMEM : KPCA_EIO, "'%s': cannot write dataset '%s'", path, name);
    }
    memset(buf, 0, (n ? n : 1) * width);
    for (size_t i = 0; i < n; i++)
        memcpy(buf + i * width, v[i], strlen(v[i]));
    hsize_t hd[1] = {n};
    kpca_status st = write_any(loc, path, name, 1, hd, t, t, buf, NULL, err);
    H5Tclose(t);
    kpca_free(buf);
    return st;
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

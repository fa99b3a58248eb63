/* h5write.h - writing kpca's HDF5 files (models, features): all or
 * nothing, sealed (h5seal.h), the same bytes for the same data.  Like the
 * readers (h5util.h) these never print and report through kpca_error. */
#ifndef KPCA_H5WRITE_H
#define KPCA_H5WRITE_H

#include <hdf5.h>
#include <stddef.h>

#include "file/atomic.h"
#include "support/error.h"

/* An HDF5 file being written, all or nothing (kpca_atomic).  For a regular
 * file, HDF5 writes the temporary file beside the destination itself (its
 * sec2 driver), and kpca_h5_writer_close seals it and renames it into place:
 * the data goes from the caller's arrays to the page cache once, with no
 * copy of the file in memory (a 120 MB feature file cost three first-touched
 * copies through the in-memory image before).  For standard output ("-"), a
 * device or a FIFO, which HDF5 cannot seek in, the file is built in memory
 * (the core driver) and written out at close.  Any failure, HDF5's own
 * writes included, leaves no output and reports KPCA_EIO: libhdf5 1.10.8
 * crashes at exit after one of its writes failed, so every dataset's disk
 * blocks are reserved (posix_fallocate) before HDF5 writes it, and a file
 * system that cannot reserve gets the in-memory image. */
typedef struct {
    hid_t file;       /* where the caller writes its datasets and attributes */
    kpca_atomic out;  /* the destination (its temporary file when direct) */
    const char *path; /* the destination as the caller named it (borrowed) */
    int direct;       /* 1: HDF5 writes out.tmp itself; 0: in-memory image */
    int detached;     /* 1: HDF5 is closed, the caller writes out.tmp (detach) */
} kpca_h5_writer;

/* Starts writing `path` (borrowed until close): creates the temporary file
 * (or opens the device) now, so an output that cannot be created fails here. */
kpca_status kpca_h5_writer_open(kpca_h5_writer *w, const char *path, kpca_error *err);
/* Closes w->file, whether or not `ok`; when ok is KPCA_OK seals the file and
 * puts it in place (or writes the image out), else removes what was
 * written and returns ok.  Cost: one pass over the file for its CRC-32 (from
 * the page cache) and an fsync. */
kpca_status kpca_h5_writer_close(kpca_h5_writer *w, kpca_status ok, kpca_error *err);
/* A file HDF5 writes itself (w->direct): closes HDF5's handle, so that
 * every object is in place, and leaves the temporary file open for the
 * caller to write raw values into the storage of datasets made by
 * kpca_h5_create_doubles / _ints (at their offsets, little-endian):
 * *fd is its descriptor (w's: not to be closed).  kpca_h5_writer_close then
 * seals and commits the file (or removes it).  KPCA_EINTERNAL for a file
 * built in memory (w->direct 0: write its rows with kpca_h5_write_rows);
 * on any failure the temporary file is removed. */
kpca_status kpca_h5_writer_detach(kpca_h5_writer *w, int *fd, kpca_error *err);

/* Writes a rank-1 or rank-2 dataset (dims[1] == 0 means rank 1). */
kpca_status kpca_h5_write_doubles(hid_t loc, const char *path, const char *name, const size_t dims[2],
                                  const double *data, kpca_error *err);
kpca_status kpca_h5_write_ints(hid_t loc, const char *path, const char *name, size_t n,
                               const int *data, kpca_error *err);
/* The same datasets, created empty to be written later by rows: their
 * contiguous storage is allocated now, where kpca_h5_write_doubles /
 * _ints would put it (the file's end, its blocks reserved first), by a
 * write of their first element (0); *at is the storage's offset from the
 * file's start (the seal's user block included; 0 for an empty dataset).
 * Writing every row later (kpca_h5_write_rows, or raw after detach) gives
 * the bytes that writing the dataset whole gives. */
kpca_status kpca_h5_create_doubles(hid_t loc, const char *path, const char *name, const size_t dims[2],
                                   unsigned long long *at, kpca_error *err);
kpca_status kpca_h5_create_ints(hid_t loc, const char *path, const char *name, size_t n, unsigned long long *at,
                                kpca_error *err);
/* Writes rows [row0, row0 + rows) of the rank-1 or rank-2 dataset `name`
 * (doubles or ints, as created) from data, in the native type. */
kpca_status kpca_h5_write_rows(hid_t loc, const char *path, const char *name, size_t row0, size_t rows,
                               const void *data, kpca_error *err);
/* Writes v[0..n-1] as a rank-1 dataset of fixed-length UTF-8 strings,
 * null-padded to the longest (h5py reads them as bytes, numpy dtype S). */
kpca_status kpca_h5_write_strings(hid_t loc, const char *path, const char *name, size_t n,
                                  const char *const *v, kpca_error *err);

/* Scalar attributes on `loc`. */
kpca_status kpca_h5_attr_write_double(hid_t loc, const char *path, const char *name, double v, kpca_error *err);
kpca_status kpca_h5_attr_write_long(hid_t loc, const char *path, const char *name, long v, kpca_error *err);
kpca_status kpca_h5_attr_write_string(hid_t loc, const char *path, const char *name, const char *v, kpca_error *err);

#endif

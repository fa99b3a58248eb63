/* magic.h - what a file's first bytes say it is, written once: the
 * compressions the text readers read through (text/bytes.h), and the
 * binary formats a stream may hold (file/source.h's first-block check).
 *
 *   gzip   1f 8b              bzip2  "BZh" 1-9
 *   xz     fd "7zXZ" 00       zstd   28 b5 2f fd
 *
 * No I/O. */
#ifndef KPCA_MAGIC_H
#define KPCA_MAGIC_H

#include <stddef.h>

typedef enum { KPCA_CODEC_NONE, KPCA_CODEC_GZIP, KPCA_CODEC_BZIP2, KPCA_CODEC_XZ, KPCA_CODEC_ZSTD } kpca_codec;

/* The compression whose magic number starts head (n bytes; KPCA_CODEC_NONE
 * for none).  O(1). */
kpca_codec kpca_codec_of(const unsigned char *head, size_t n);
/* "gzip", "bzip2", "xz", "zstd"; "" for none */
const char *kpca_codec_name(kpca_codec c);

/* 1 when head (n bytes, n >= 1) starts a format kpca reads or names in
 * its messages that is not plain text: a compression above, NumPy .npy,
 * HDF5 (its signature, or kpca's seal before one), a zip archive (.npz,
 * .xlsx), a MATLAB file (its text header), UTF-16 or UTF-32 text (a
 * byte-order mark); else 0.  O(1). */
int kpca_magic_known(const unsigned char *head, size_t n);

/* The formats kpca reads, as the messages that refuse a file list them. */
#define KPCA_FORMATS_READ \
    "ESL, LIBSVM, CSV, TSV or ARFF text, plain or compressed with gzip, bzip2, xz or zstd; NumPy .npy; HDF5; " \
    "MATLAB .mat"

#endif

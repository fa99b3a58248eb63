/* h5seal.h - the seal of the HDF5 files kpca writes, and a plausibility
 * check of an HDF5 superblock before libhdf5 reads it.
 *
 * Every HDF5 file kpca writes is sealed: its first KPCA_H5_SEAL_SIZE bytes
 * are an HDF5 user block (which HDF5 and other tools skip) holding the line
 * "kpca-seal 1 length=N crc32=XXXXXXXX" for the bytes after the block.  A
 * sealed file is checked whole before libhdf5 parses it, so a truncated or
 * damaged file is refused by kpca rather than handed to libhdf5 1.10.8,
 * which has memory-safety bugs on corrupt files (fuzzing found a
 * use-after-free in H5Aexists after H5Fopen of a damaged model).
 * Written by h5write.c, checked by h5util.c (kpca_h5_open_read). */
#ifndef KPCA_H5SEAL_H
#define KPCA_H5SEAL_H

#include <stddef.h>
#include <sys/types.h>

#include "support/error.h"

#define KPCA_H5_SEAL_SIZE 512

/* Writes the seal into the first KPCA_H5_SEAL_SIZE bytes of an image of n
 * bytes (n > KPCA_H5_SEAL_SIZE) made with a user block. */
void kpca_h5_seal_image(unsigned char *buf, size_t n);
/* The seal's block for a file of n bytes in all whose bytes after the block
 * have CRC-32 c. */
void kpca_h5_seal_format(unsigned char head[KPCA_H5_SEAL_SIZE], unsigned long long n, unsigned long c);
/* The CRC-32 of fd's bytes after the seal's block and the file's length in
 * all (the block included), read with pread in 1 MiB pieces; `path` names
 * the file in errors (KPCA_EIO, KPCA_ENOMEM). */
kpca_status kpca_h5_crc_fd(int fd, const char *path, unsigned long *crc, unsigned long long *total, kpca_error *err);
/* *sealed = 1 when fd has a seal and it matches, 0 when it has none; a
 * damaged seal, a wrong length or checksum is KPCA_EFORMAT. */
kpca_status kpca_h5_seal_check_fd(int fd, const char *path, int *sealed, kpca_error *err);

/* Finds the first HDF5 superblock of fd (at 0, 512, 1024, ... below fsize)
 * and reads its base address, its end-of-file address (absolute: it counts
 * a user block) and about how long it is.  0 when found with a known
 * version and offset and length sizes of 2..32 bytes. */
int kpca_h5_superblock_read(int fd, off_t fsize, unsigned long long *base, unsigned long long *eof, size_t *sb_len);
/* 0 when fd's superblock is plausible: readable, and an end of file that
 * lies after the superblock and within the file's fsize bytes.  libhdf5
 * 1.10.8 trusts it and can allocate gigabytes for a damaged one. */
int kpca_h5_superblock_implausible(int fd, off_t fsize);

#endif

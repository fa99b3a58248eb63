/* h5seal.c - the kpca seal of HDF5 files and a check of their superblock
 * (see h5seal.h). */
#include "file/h5seal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "support/mem.h"

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

/* The CRC-32 of fd's bytes after the seal's block and the file's length in
 * all (the block included), read with pread in 1 MiB pieces. */
kpca_status kpca_h5_crc_fd(int fd, const char *path, unsigned long *crc, unsigned long long *total, kpca_error *err)
{
    unsigned char *buf = kpca_malloc((size_t)1 << 20);
    if (buf == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
    unsigned long c = crc32(0L, Z_NULL, 0);
    off_t off = KPCA_H5_SEAL_SIZE;
    for (;;) {
        ssize_t n = pread(fd, buf, (size_t)1 << 20, off);
        if (n < 0) {
            int e = errno;
            kpca_free(buf);
            return kpca_fail(err, KPCA_EIO, "cannot read '%s': %s", path, strerror(e));
        }
        if (n == 0)
            break;
        c = crc32(c, buf, (uInt)n);
        off += n;
    }
    kpca_free(buf);
    *crc = c;
    *total = (unsigned long long)off;
    return KPCA_OK;
}

void kpca_h5_seal_format(unsigned char head[KPCA_H5_SEAL_SIZE], unsigned long long n, unsigned long c)
{
    memset(head, 0, KPCA_H5_SEAL_SIZE);
    snprintf((char *)head, KPCA_H5_SEAL_SIZE, SEAL_MAGIC "length=%llu crc32=%08lx\n", n, c);
}

void kpca_h5_seal_image(unsigned char *buf, size_t n)
{
    unsigned long c = crc32(0L, Z_NULL, 0);
    for (size_t off = KPCA_H5_SEAL_SIZE; off < n;) {
        uInt chunk = n - off > (1u << 30) ? (1u << 30) : (uInt)(n - off);
        c = crc32(c, buf + off, chunk);
        off += chunk;
    }
    kpca_h5_seal_format(buf, (unsigned long long)n, c);
}

/* *sealed = 1 when the file has a seal and it matches, 0 when it has none;
 * any other outcome is an error status */
kpca_status kpca_h5_seal_check_fd(int fd, const char *path, int *sealed, kpca_error *err)
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
    unsigned long c;
    unsigned long long total;
    kpca_status st = kpca_h5_crc_fd(fd, path, &c, &total, err);
    if (st != KPCA_OK)
        return st;
    if (total != len)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': %llu bytes where its seal says %llu: the file is truncated or damaged",
                         path, total, len);
    if (c != crc)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': checksum mismatch (kpca seal): the file is damaged or was altered",
                         path);
    *sealed = 1;
    return KPCA_OK;
}

/* Finds the first HDF5 superblock of fd (at 0, 512, 1024, ... below fsize)
 * and reads its base address, its end-of-file address (absolute: it counts
 * a user block) and about how long it is.  0 when found with a known
 * version and offset and length sizes of 2..32 bytes. */
int kpca_h5_superblock_read(int fd, off_t fsize, unsigned long long *base, unsigned long long *eof, size_t *sb_len)
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
        size_t so, sl, eof_at, base_at;
        if (ver == 0 || ver == 1) {
            so = sb[13];
            sl = sb[14];
            base_at = ver == 0 ? 24 : 28;
            eof_at = base_at + 2 * so;           /* base, free-space, then end of file */
            *sb_len = base_at + 4 * so + 40; /* + driver info, root entry (about) */
        } else if (ver == 2 || ver == 3) {
            so = sb[9];
            sl = sb[10];
            base_at = 12;
            eof_at = 12 + 2 * so; /* base, extension, then end of file */
            *sb_len = 12 + 4 * so + 4;
        } else {
            return 1;
        }
        if (so < 2 || so > 8 || sl < 2 || sl > 32 || (so & (so - 1)) != 0 || (sl & (sl - 1)) != 0)
            return 1;
        if ((ssize_t)(eof_at + so) > got)
            return 1;
        *eof = 0;
        *base = 0;
        for (size_t i = 0; i < so; i++) {
            *eof |= (unsigned long long)sb[eof_at + i] << (8 * i);
            *base |= (unsigned long long)sb[base_at + i] << (8 * i);
        }
        return 0;
    }
    return 1; /* no signature: libhdf5 would refuse it anyway */
}

/* A sanity check of the HDF5 superblock before libhdf5 reads the file:
 * libhdf5 1.10.8 trusts it and can allocate gigabytes for a damaged one
 * (fuzzing: 3.2 GB and 9 s for a 3 KB file whose superblock gave an end of
 * file of 16 bytes and a driver-info block inside the data).  Checks the
 * first superblock: readable (superblock_read), and an end-of-file address
 * that lies after the superblock and within the file.  0 when plausible. */
int kpca_h5_superblock_implausible(int fd, off_t fsize)
{
    unsigned long long base, eof;
    size_t sb_len;
    if (kpca_h5_superblock_read(fd, fsize, &base, &eof, &sb_len) != 0)
        return 1;
    return base > (unsigned long long)fsize || eof < base + sb_len || eof > (unsigned long long)fsize;
}

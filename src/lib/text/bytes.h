/* bytes.h - the one byte source under every text reader: a file's bytes,
 * plain or compressed, the compression found from its first bytes (its
 * magic number), never from its name:
 *
 *   gzip   1f 8b              zlib's inflate
 *   bzip2  "BZh" 1-9          libbz2
 *   xz     fd "7zXZ" 00       liblzma
 *   zstd   28 b5 2f fd        libzstd
 *
 * (A plain file, and a path that is no regular file, a FIFO, go through
 * zlib's gzFile, which reads gzip or plain text as it finds it and stops
 * at a gzip stream's end: the commands spool streams into files first.)
 * Streams written one after another (`cat a.gz b.gz`, pbzip2, pixz, zstd
 * -T0) are read as the tools read them, one after the other.  Damaged or
 * truncated compressed data is an error naming the file, the format and,
 * when the caller knows it, the line near it:
 *
 *   "'PATH' near line N: corrupt or truncated CODEC data (WHY)"  (KPCA_EFORMAT)
 *
 * Bytes after the last stream that are no stream are damage too (WHY "not
 * bzip2 data", "bytes after the last member are not gzip data", ...), but
 * for zero bytes to the end after gzip's last member, tar's padding, read
 * past as gzip reads them.
 *
 * A seek in a compressed file reads it again from its start up to the
 * byte (a plain file seeks).  Memory: one input buffer of 128 KiB and the
 * decoder's state (xz up to its dictionary, 64 MiB at -9; zstd up to its
 * window, 8 MiB by default, at most 128 MiB here).  No printing. */
#ifndef KPCA_BYTES_H
#define KPCA_BYTES_H

#include <stddef.h>

#include "file/magic.h"
#include "support/error.h"

typedef struct kpca_bytes kpca_bytes;

/* Opens path: *b, closed with kpca_bytes_close.  KPCA_EIO (KPCA_ENOMEM)
 * "cannot open 'PATH': REASON". */
kpca_status kpca_bytes_open(const char *path, kpca_bytes **b, kpca_error *err);
void kpca_bytes_close(kpca_bytes *b);
kpca_codec kpca_bytes_codec(const kpca_bytes *b);

/* Up to room bytes of the (decompressed) text into buf: *got, 0 at the
 * end.  Damaged data: the error above, near_line in it when not 0; every
 * later read fails the same way. */
kpca_status kpca_bytes_read(kpca_bytes *b, void *buf, size_t room, size_t near_line, size_t *got, kpca_error *err);

/* The next read starts at byte `off` of the text (past its end: reads
 * give 0 bytes): 0, or -1 when it cannot (a damaged stream before it, the
 * file not seekable). */
int kpca_bytes_seek(kpca_bytes *b, unsigned long long off);
/* the bytes of text read so far (after a seek: from off) */
unsigned long long kpca_bytes_tell(const kpca_bytes *b);

#endif

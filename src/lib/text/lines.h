/* lines.h - the lines of a text file, plain or gzip (text/textfile.h's
 * bytes), for the line-at-a-time readers of ESL and LIBSVM text
 * (io/dataset_text.c).  It reads chunks of text/bytes.h's bytes and splits
 * lines itself, so that NUL bytes and damaged compressed data are seen
 * wherever they are,
 * with textfile.h's checks and messages; a line ends at LF or CRLF, and a
 * UTF-8 byte-order mark is no part of the first.  A line longer than
 * 1 GiB is refused ("'PATH' line N: line longer than 1 GiB").  Memory: the
 * longest line, and 64 KiB.  No printing. */
#ifndef KPCA_LINES_H
#define KPCA_LINES_H

#include <stddef.h>

#include "text/bytes.h"
#include "support/error.h"

typedef struct {
    kpca_bytes *bytes;
    const char *path;   /* the caller's, kept while open */
    char *buf;          /* chunk buffer: bytes [pos, fill) not yet returned */
    size_t cap, pos, fill;
    int eof, limited;   /* limited: no more than `left` bytes more of the file */
    unsigned long long left;
    char *line;         /* the current line, NUL-terminated, inside buf */
    size_t lineno;      /* lines handed out (the current one's number) */
    kpca_status status; /* why kpca_lines_next last returned -1 (err may be NULL) */
} kpca_lines;

/* Opens path (kpca_textfile_open's errors; KPCA_ENOMEM). */
kpca_status kpca_lines_open(kpca_lines *lr, const char *path, kpca_error *err);
void kpca_lines_close(kpca_lines *lr);

/* The next line into lr->line, without its line end: 1 on a line, 0 at
 * the end of the file (or of the bytes a jump allowed), -1 on an error
 * (err set, lr->status its code). */
int kpca_lines_next(kpca_lines *lr, kpca_error *err);

/* Goes on from byte `byte` of the file, the start of line `line`, reading
 * no byte at or after `end` (0: to the end).  KPCA_EIO when the file
 * cannot seek (a compressed file seeks by reading again from its start). */
kpca_status kpca_lines_jump(kpca_lines *lr, unsigned long long byte, size_t line, unsigned long long end,
                            kpca_error *err);

/* The byte of the text where the next line starts. */
unsigned long long kpca_lines_tell(const kpca_lines *lr);

#endif

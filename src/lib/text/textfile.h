/* textfile.h - the bytes of a text file, plain or gzip (zlib reads both),
 * for every reader of text: the whole read, the CSV windows, the ESL and
 * LIBSVM line reader, format detection and label files.  The checks each
 * of them makes of the bytes, and their messages, are written here once:
 *
 *   "cannot open 'PATH': REASON"                         (KPCA_EIO; ENOMEM)
 *   "'PATH': corrupt or truncated gzip data (ZLIB'S)"    (KPCA_EFORMAT;
 *   "'PATH' near line N: corrupt or truncated gzip ..."   ENOMEM from zlib)
 *   "'PATH' is ENC text: kpca reads UTF-8 or ASCII ..."  (a wide encoding)
 *   "'PATH' line N: contains a NUL byte (binary data?)"  (KPCA_EFORMAT)
 *
 * and a UTF-8 byte-order mark is no part of the text.  No printing. */
#ifndef KPCA_TEXTFILE_H
#define KPCA_TEXTFILE_H

#include <stddef.h>
#include <zlib.h>

#include "support/error.h"

/* Opens path for reading through zlib (a plain file is read as it is):
 * *gz, to be closed with gzclose.  KPCA_EIO (KPCA_ENOMEM) naming the file
 * and the reason when it cannot. */
kpca_status kpca_textfile_open(const char *path, gzFile *gz, kpca_error *err);

/* The lines of path (plain or gzip) with a byte that is no blank
 * (kpca_text_blank; a UTF-8 BOM on the first line is none): the rows of
 * whitespace text, which a reader of its rows hands out when it reads to
 * the end without an error.  Counted at memchr's pace, nothing parsed;
 * one pass in 1 MiB stretches.  Errors: kpca_textfile_open's and
 * kpca_textfile_read's. */
kpca_status kpca_textfile_count_rows(const char *path, size_t *n, kpca_error *err);

/* Reads up to room bytes (at most 1 GiB at a time) of gz into buf: *got,
 * 0 at the end.  Damaged gzip data is an error naming path, and the line
 * near_line when it is not 0 (a line reader knows it). */
kpca_status kpca_textfile_read(gzFile gz, const char *path, size_t near_line, char *buf, size_t room, size_t *got,
                               kpca_error *err);

/* The damaged-gzip error of gz's last read (zlib's message), as
 * kpca_textfile_read gives it; KPCA_OK when zlib reports none. */
kpca_status kpca_textfile_gzip_check(gzFile gz, const char *path, size_t near_line, kpca_error *err);

/* The start of a text file (its first n bytes at p): a wide encoding
 * (UTF-16, UTF-32) is refused; *bom (may be NULL) is the length of a UTF-8
 * byte-order mark there, to skip (0 or 3). */
kpca_status kpca_textfile_head(const char *path, const char *p, size_t n, size_t *bom, kpca_error *err);

/* KPCA_OK when text[from, len) holds no NUL byte; else the error naming
 * the line of the first, counted from `line`, text[0]'s.  O(len). */
kpca_status kpca_textfile_nul(const char *path, const char *text, size_t from, size_t len, size_t line,
                              kpca_error *err);

/* Reads a whole file, through gzip when compressed, into a new
 * NUL-terminated buffer *out (*len bytes before the NUL), without a UTF-8
 * byte-order mark at its start; every check above.  A plain file of 8 MiB
 * and more is read by one thread per online CPU (at most 8), each into its
 * own stretch of the buffer; one that changes size meanwhile is read again
 * as a stream.  Free with kpca_free.  Memory: the text. */
kpca_status kpca_read_text_file(const char *path, char **out, size_t *len, kpca_error *err);

#endif

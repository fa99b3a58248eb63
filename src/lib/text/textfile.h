/* textfile.h - the checks every reader of text makes of a file's bytes
 * (text/bytes.h gives them, plain or compressed): the whole read, the CSV
 * windows, the ESL and LIBSVM lines (text/lines.h), format detection and
 * label files.  Their messages are written here once (bytes.h has those of
 * opening and of damaged compressed data):
 *
 *   "'PATH' is ENC text: kpca reads UTF-8 or ASCII ..."  (a wide encoding)
 *   "'PATH' line N: contains a NUL byte (binary data?)"  (KPCA_EFORMAT)
 *
 * and a UTF-8 byte-order mark is no part of the text.  No printing. */
#ifndef KPCA_TEXTFILE_H
#define KPCA_TEXTFILE_H

#include <stddef.h>

#include "support/error.h"

/* The lines of path (plain or compressed) with a byte that is no blank
 * (kpca_text_blank; a UTF-8 BOM on the first line is none), the first of
 * them no '#' (a comment line, as numpy.loadtxt reads one), after its
 * first `skip` lines (--skip-rows, as kpca_textfile_skip counts them): the
 * rows of whitespace text, which a reader of its rows hands out when it
 * reads to the end without an error.  Counted at memchr's pace, nothing
 * parsed; one pass in 1 MiB stretches.  Errors: kpca_bytes_open's and
 * kpca_bytes_read's. */
kpca_status kpca_textfile_count_rows(const char *path, size_t skip, size_t *n, kpca_error *err);

/* The start of a text file (its first n bytes at p): a wide encoding
 * (UTF-16, UTF-32) is refused; *bom (may be NULL) is the length of a UTF-8
 * byte-order mark there, to skip (0 or 3). */
kpca_status kpca_textfile_head(const char *path, const char *p, size_t n, size_t *bom, kpca_error *err);

/* KPCA_OK when text[from, len) holds no NUL byte; else the error naming
 * the line of the first, counted from `line`, text[0]'s.  O(len). */
kpca_status kpca_textfile_nul(const char *path, const char *text, size_t from, size_t len, size_t line,
                              kpca_error *err);

/* --skip-rows N (kpca_read_opts.skip_rows): the first n lines of text[0,
 * len), which starts a line, skipped.  Lines are physical lines, as
 * numpy.loadtxt's skiprows counts them: each ends at an LF (a CR before it
 * is part of it), a quote in one opens nothing, and a last line without an
 * LF counts.  The byte after them (len when the text ends first), *lines
 * how many were there (n, or fewer).  At memchr's pace: O(the bytes
 * skipped). */
size_t kpca_textfile_skip(const char *text, size_t len, size_t n, size_t *lines);

/* The refusal of --skip-rows n where the text ends within the lines
 * skipped (it has only `lines`): KPCA_EUSAGE, "'PATH' has only L lines:
 * --skip-rows N leaves no data to read". */
kpca_status kpca_textfile_skip_fail(const char *path, size_t lines, size_t n, kpca_error *err);

/* Reads a whole file, decompressed when compressed (text/bytes.h), into a new
 * NUL-terminated buffer *out (*len bytes before the NUL), without a UTF-8
 * byte-order mark at its start; every check above.  A plain file of 8 MiB
 * and more is read by one thread per online CPU (at most 8), each into its
 * own stretch of the buffer; one that changes size meanwhile is read again
 * as a stream.  Free with kpca_free.  Memory: the text. */
kpca_status kpca_read_text_file(const char *path, char **out, size_t *len, kpca_error *err);

#endif

/* csvtok.h - the quoting rule of delimited text, written once: the CSV
 * row parser (io/csvrows.c), the delimiter sniffer (here), the row-end scan
 * that cuts a file into windows (io/csvwin.c) and the lines of a labels
 * file (io/labels.c) all follow it, so that they cannot disagree on where
 * a field or a row ends.
 *
 * The rules (RFC 4180's, with whitespace text's blanks as its delimiter):
 * a field starts at the start of a line, after the delimiter, or, in
 * whitespace text (delimiter ' '), after a blank (kpca_text_blank).  A '"'
 * that starts a field opens a quoted field: inside it "" is a quote, line
 * ends are text, and the next lone '"' closes it.  Any other '"' is text
 * ('size"in' is one field of seven bytes).  A row ends at a line end
 * outside a quoted field.  In whitespace text a '#' that starts a field
 * starts a comment to the line's end, in which no quote opens (as
 * numpy.loadtxt reads numpy.savetxt's header and footer).  The blanks and
 * the comment rule are textnum.h's (kpca_text_blank, kpca_text_comment),
 * which the text readers below this file (textfile.c's row counter) share. */
#ifndef KPCA_CSVTOK_H
#define KPCA_CSVTOK_H

#include <stddef.h>

#include "text/textnum.h"

/* 1 when the byte c ends a field in text delimited by delim (',', ';',
 * '\t', or ' ' for runs of blanks), so that the byte after it starts one:
 * a line end, the delimiter, or in whitespace text a blank. */
static inline int kpca_csvtok_sep(char c, char delim)
{
    return c == '\n' || c == delim || (delim == ' ' && kpca_text_blank(c));
}

/* The closing quote of the quoted field opened by the '"' at open, in text
 * that ends at end: the first '"' after open that is not one of a pair
 * ("").  NULL when the text ends first (the field is not closed).
 * O(the field's length). */
const char *kpca_csvtok_close(const char *open, const char *end);

/* Undoes, in place, the quotes of the field opened by the '"' at open and
 * closed by the '"' at close (kpca_csvtok_close): its text, "" as one
 * quote, moved to open and NUL-terminated there (before close).  The line
 * ends the text holds, counted.  O(the field's length). */
size_t kpca_csvtok_unquote(char *open, const char *close);

/* A field of one line of delimited text: its bytes [p, p + len); for a
 * quoted field (quoted 1) from its opening '"' up to its closing one. */
typedef struct {
    char *p;
    size_t len;
    int quoted;
} kpca_csvtok_field;

/* The fields of the line s (NUL-terminated, no line end) by this rule with
 * the delimiter delim (' ': runs of blanks, and blanks after the last
 * field end the line): the first max of them into f, their count; -1 for
 * a quoted field not closed on the line or text after its closing quote
 * (blanks aside).  Reads s only.  O(strlen(s)). */
int kpca_csvtok_fields(char *s, char delim, kpca_csvtok_field *f, int max);

/* The text of field f (from kpca_csvtok_fields), unquoted and
 * NUL-terminated in place (the byte after a bare field overwritten): its
 * start, f->p.  O(f->len). */
char *kpca_csvtok_text(const kpca_csvtok_field *f);

/* The end of the last whole row of text[0, len), which starts a row: the
 * byte after its last line end outside quoted fields, 0 when there is
 * none.  Text without a '"' is scanned at memchr speed.  O(len). */
size_t kpca_csvtok_rows_end(const char *text, size_t len, char delim);

/* How many bytes of text[0, len) are c: a row's delimiters counted at
 * memchr's pace, 64 bytes at a time where the CPU has AVX-512BW, 32 with
 * AVX2, 16 with SSE2 (every x86-64), else 8 in a word (the CPU asked at
 * each call: the build needs no -march).  O(len). */
size_t kpca_csvtok_count(const char *text, size_t len, char c);
/* The same by one instruction set, for tests: SIZE_MAX when this build
 * or CPU lacks it. */
typedef enum { KPCA_CSVTOK_WORDS, KPCA_CSVTOK_SSE2, KPCA_CSVTOK_AVX2, KPCA_CSVTOK_AVX512 } kpca_csvtok_isa;
size_t kpca_csvtok_count_by(const char *text, size_t len, char c, kpca_csvtok_isa isa);

/* The delimiter of delimited text from its first bytes: the one of ',',
 * ';', tab found the same number of times (>= 1) on each of the first
 * lines (quoted parts skipped), preferred in that order; else the one
 * found most on the first line; else 0.  With mark ',' (decimal commas)
 * only ';' and tab.  O(len). */
char kpca_csv_sniff(const char *text, size_t len, char mark);

/* The delimiter of text (its first len bytes) when none is given:
 * kpca_csv_sniff, and with decimal commas and no ';' or tab, blanks (' ')
 * unless the first line has a comma that is no decimal comma (then ',',
 * which the first row refuses). */
char kpca_csv_delim(const char *text, size_t len, char mark);

#endif

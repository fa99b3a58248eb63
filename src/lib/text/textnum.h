/* textnum.h - the number parser of the text readers (ESL, LIBSVM, CSV). */
#ifndef KPCA_TEXTNUM_H
#define KPCA_TEXTNUM_H

#include <stddef.h>

#include "support/error.h"

/* 1 for a blank inside a line: space, tab, CR, VT, FF (the set of
 * Python's str.split(), which numpy.loadtxt splits whitespace text with).
 * The one blank set of every text reader and of csvtok.h's quoting rule.  A line of blanks only is no row; in whitespace text a run of
 * them separates fields; around a number in a field they are no part of
 * it. */
static inline int kpca_text_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* 1 when the byte c, where a field starts (a line's first byte that is no
 * blank, or in whitespace text one after a blank), starts a comment to the
 * line's end: a '#' in whitespace text (delim ' '), as numpy.loadtxt reads
 * numpy.savetxt's header and footer; no quote opens in it.  Comma,
 * semicolon and tab text (delim ',', ';', '\t') have none: pandas reads
 * none, and a first field may be "#3".  The one comment rule of the row
 * parser (io/csvrows.c), the row-end scan (csvtok.c), the ESL reader
 * (io/dataset_text.c), the row counters (textfile.c, io/rowpart.c) and
 * format detection (io/read.c). */
static inline int kpca_text_comment(char c, char delim)
{
    return c == '#' && delim == ' ';
}

/* s without leading blanks, its trailing blanks cut off in place. */
char *kpca_text_trim(char *s);

/* Parses a finite double at *pp that ends at a blank, the end of the string
 * or the character `stop` ('\0': none).  Plain decimals of at most 15
 * digits take an exact fast path; anything else goes to strtod (so the
 * value is strtod's), but for hexadecimal spellings (0x10, 0x1p3), which
 * are no number here.  0 with *v set and *pp past the number; -1 when it is
 * not a number; -2 when it is not finite (inf, nan, overflow).  O(length). */
int kpca_parse_number(const char **pp, char stop, double *v);

/* kpca_parse_number with `mark` ('.' or ',') as the decimal mark.  With
 * ',', a '.' anywhere in the number makes it no number (a thousands
 * separator is not guessed at), and the value is the one the number with
 * '.' in place of ',' has.  O(length). */
int kpca_parse_number_mark(const char **pp, char stop, char mark, double *v);

/* 1 when the text s (up to a blank, the end or `stop`) is a number written
 * with a decimal comma ("5,1", "-0,25"): for the message that names
 * --decimal. */
int kpca_text_decimal_comma(const char *s, char stop);
/* 1 when s (blanks first) starts as numpy writes a complex number:
 * "(1.5e+00-2.0e+00j)". */
int kpca_text_complex(const char *s);
/* For the message of a field that is no number: the hint when it is a
 * complex number (kpca_text_complex), or its decimal mark is the other way
 * round, else NULL.  A comma-separated
 * field of digits with tabs between them ("5<TAB>1": tab-separated values
 * with decimal commas, split at the commas) names --decimal ,; under
 * --decimal , (mark ',') a number written with a point (not one before
 * exactly three digits, which may group thousands) names leaving it out. */
const char *kpca_text_mark_hint(const char *field, char delim, char mark);

/* 1 when the NUL-terminated s is valid UTF-8 (no overlong form, no
 * surrogate, nothing past U+10FFFF), else 0.  O(length). */
int kpca_text_utf8(const char *s);

/* s for a message: its first bytes (up to 40) with every byte that is not
 * printable ASCII written \xNN, into out (cap bytes, NUL-terminated). */
void kpca_text_escape(const char *s, char *out, size_t cap);

/* The error for a name (what: "column name", "class name") that is not
 * UTF-8, on `line` (and column col from 1; 0: none) of path: the bytes
 * escaped, and the iconv line that converts a Latin-1 file.  KPCA_EFORMAT. */
kpca_status kpca_text_utf8_fail(const char *path, size_t line, size_t col, const char *what, const char *name,
                                kpca_error *err);

/* The length of a UTF-8 byte-order mark (EF BB BF, which Excel's "CSV
 * UTF-8" writes) at the start of the n bytes p: 3, else 0. */
size_t kpca_text_bom(const char *p, size_t n);

/* The name of a wide text encoding that kpca does not read, told by the
 * first n bytes of a file: its byte-order mark, or NUL bytes in the
 * pattern of ASCII characters in UTF-16 or UTF-32 ("UTF-16LE", "UTF-16BE",
 * "UTF-32LE", "UTF-32BE"); NULL for anything else.  O(min(n, 64)). */
const char *kpca_text_wide(const unsigned char *p, size_t n);

/* The refusal of such a file: KPCA_EFORMAT, "'PATH' is ENC text: kpca reads
 * UTF-8 or ASCII text; convert it first (iconv -f ENC -t UTF-8 ...)". */
kpca_status kpca_text_wide_fail(const char *path, const char *enc, kpca_error *err);

#endif

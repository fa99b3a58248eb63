/* textnum.h - the number parser of the text readers (ESL, LIBSVM, CSV). */
#ifndef KPCA_TEXTNUM_H
#define KPCA_TEXTNUM_H

/* 1 for a blank inside a line: space, tab, CR, VT, FF. */
int kpca_text_blank(char c);

/* s without leading blanks, its trailing blanks cut off in place. */
char *kpca_text_trim(char *s);

/* Parses a finite double at *pp that ends at a blank, the end of the string
 * or the character `stop` ('\0': none).  Plain decimals of at most 15
 * digits take an exact fast path; anything else goes to strtod (so the
 * value is strtod's).  0 with *v set and *pp past the number; -1 when it is
 * not a number; -2 when it is not finite (inf, nan, overflow).  O(length). */
int kpca_parse_number(const char **pp, char stop, double *v);

#endif

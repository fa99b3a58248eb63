/* textnum.c - the number parser of the text readers. */
#include "io/textnum.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int kpca_text_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

char *kpca_text_trim(char *s)
{
    while (kpca_text_blank(*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && kpca_text_blank(s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* A number's token ends at a blank, the end of the line or `stop` ('\0':
 * none). */
static int ends_token(char c, char stop)
{
    return c == '\0' || kpca_text_blank(c) || (stop != '\0' && c == stop);
}

/* A plain decimal of at most 15 digits ([+-]digits[.digits], as USPS and
 * most data files write them): its digits m make an integer below 2^53 and
 * 10^f (f <= 15 fraction digits) is exact, so m / 10^f is one correctly
 * rounded division, the very double strtod returns.  1 with *v and *end
 * when the token ends there (ends_token); 0 for anything else (exponents, more digits, inf, nan, hex...), left to strtod. */
static int parse_plain(const char *p, char stop, double *v, const char **end)
{
    static const double p10[16] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    const char *s = p;
    int neg = *s == '-';
    if (*s == '-' || *s == '+')
        s++;
    uint64_t m = 0;
    int digits = 0, frac = 0;
    for (; *s >= '0' && *s <= '9'; s++, digits++)
        m = m * 10 + (uint64_t)(*s - '0');
    if (*s == '.')
        for (s++; *s >= '0' && *s <= '9'; s++, digits++, frac++)
            m = m * 10 + (uint64_t)(*s - '0');
    if (digits == 0 || digits > 15 || !ends_token(*s, stop))
        return 0;
    double d = (double)m / p10[frac];
    *v = neg ? -d : d;
    *end = s;
    return 1;
}

/* Parses a finite double ending at a blank, end of line or `stop` char. */
int kpca_parse_number(const char **pp, char stop, double *v)
{
    const char *p = *pp;
    const char *plain_end;
    if (parse_plain(p, stop, v, &plain_end)) {
        *pp = plain_end;
        return 0;
    }
    char *end;
    errno = 0;
    double d = strtod(p, &end);
    if (end == p || !ends_token(*end, stop))
        return -1;
    if (!isfinite(d))
        return -2;
    if (errno == ERANGE && fabs(d) > 1.0)
        return -2;
    *v = d;
    *pp = end;
    return 0;
}


/* textnum.c - the number parser of the text readers. */
#include "text/textnum.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

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
static inline __attribute__((always_inline)) int ends_token(char c, char stop)
{
    return c == '\0' || kpca_text_blank(c) || (stop != '\0' && c == stop);
}

/* A plain decimal of at most 15 digits ([+-]digits[.digits], as USPS and
 * most data files write them): its digits m make an integer below 2^53 and
 * 10^f (f <= 15 fraction digits) is exact, so m / 10^f is one correctly
 * rounded division, the very double strtod returns.  1 with *v and *end
 * when the token ends there (ends_token); 0 for anything else (exponents, more digits, inf, nan, hex...), left to strtod. */
static inline __attribute__((always_inline)) int parse_plain(const char *p, char stop, char mark, double *v,
                                                             const char **end)
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
    if (*s == mark)
        for (s++; *s >= '0' && *s <= '9'; s++, digits++, frac++)
            m = m * 10 + (uint64_t)(*s - '0');
    if (digits == 0 || digits > 15 || !ends_token(*s, stop))
        return 0;
    double d = (double)m / p10[frac];
    *v = neg ? -d : d;
    *end = s;
    return 1;
}

/* strtod on the token at p with ',' as the decimal mark: the token (at
 * most 63 bytes: longer is no number) copied with '.' for ','; *end is
 * placed in p's text. */
static double strtod_comma(const char *p, char stop, const char **end)
{
    char tok[64];
    size_t len = 0;
    *end = p;
    while (!ends_token(p[len], stop) && len < sizeof tok - 1) {
        if (p[len] == '.')
            return 0.0; /* *end == p: no number */
        tok[len] = p[len] == ',' ? '.' : p[len];
        len++;
    }
    if (!ends_token(p[len], stop))
        return 0.0;
    tok[len] = '\0';
    char *e;
    double d = strtod(tok, &e);
    *end = p + (e - tok);
    return d;
}

/* The one parser; inlined into each entry point, so that '.' is a
 * constant in the common one. */
static inline __attribute__((always_inline)) int parse_number(const char **pp, char stop, char mark, double *v);

int kpca_parse_number(const char **pp, char stop, double *v)
{
    return parse_number(pp, stop, '.', v);
}

int kpca_parse_number_mark(const char **pp, char stop, char mark, double *v)
{
    return parse_number(pp, stop, mark, v);
}

static inline __attribute__((always_inline)) int parse_number(const char **pp, char stop, char mark, double *v)
{
    const char *p = *pp;
    const char *plain_end;
    if (parse_plain(p, stop, mark, v, &plain_end)) {
        *pp = plain_end;
        return 0;
    }
    const char *end;
    errno = 0;
    double d;
    if (mark == ',') {
        d = strtod_comma(p, stop, &end);
    } else {
        char *e;
        d = strtod(p, &e);
        end = e;
    }
    if (end == p || !ends_token(*end, stop))
        return -1;
    for (const char *q = p; q < end; q++) /* strtod reads C's hexadecimal (0x10, 0x1p3): values are decimal */
        if (*q == 'x' || *q == 'X')
            return -1;
    if (!isfinite(d))
        return -2;
    if (errno == ERANGE && fabs(d) > 1.0)
        return -2;
    *v = d;
    *pp = end;
    return 0;
}


int kpca_text_decimal_comma(const char *s, char stop)
{
    while (kpca_text_blank(*s))
        s++;
    if (*s == '-' || *s == '+')
        s++;
    size_t before = 0, after = 0;
    while (*s >= '0' && *s <= '9')
        s++, before++;
    if (*s != ',')
        return 0;
    for (s++; *s >= '0' && *s <= '9'; s++)
        after++;
    while (kpca_text_blank(*s))
        s++;
    return before > 0 && after > 0 && (*s == '\0' || *s == stop);
}

/* 1 when s holds digits, then only digits or a sign and digits after each
 * tab (the pieces of tab-separated decimal commas split at the commas:
 * "5<TAB>1" of "0,5<TAB>1,25"), at least one tab */
static int tab_digits(const char *s)
{
    size_t tabs = 0;
    for (const char *p = s;; p++) {
        if (p != s && (*p == '-' || *p == '+'))
            p++;
        const size_t d = strspn(p, "0123456789");
        if (d == 0)
            return 0;
        p += d;
        if (*p != '\t')
            return *p == '\0' && tabs > 0;
        tabs++;
    }
}

int kpca_text_complex(const char *s)
{
    while (kpca_text_blank(*s))
        s++;
    char *e, *f;
    if (*s != '(')
        return 0;
    (void)strtod(s + 1, &e); /* a message's test: strtod's rounding does not matter */
    if (e == s + 1 || (*e != '+' && *e != '-'))
        return 0;
    (void)strtod(e, &f);
    return f != e && f[0] == 'j' && f[1] == ')';
}

const char *kpca_text_mark_hint(const char *field, char delim, char mark)
{
    const char *p = field, *dot = strchr(field, '.');
    double v;
    if (kpca_text_complex(field))
        return "a complex number (numpy.savetxt of a complex array): kpca reads real values; save the real and "
               "imaginary parts as columns (numpy.column_stack([z.real, z.imag]))";
    if (delim == ',' && mark == '.' && tab_digits(field))
        return "a tab inside a field: tab-separated values with decimal commas? give --decimal ,";
    /* a point before exactly three digits may group thousands (1.234,5) */
    if (mark == ',' && dot != NULL && strspn(dot + 1, "0123456789") != 3 &&
        kpca_parse_number_mark(&p, '\0', '.', &v) == 0 && *p == '\0')
        return "written with a decimal point: leave out --decimal ,";
    return NULL;
}

size_t kpca_text_bom(const char *p, size_t n)
{
    return n >= 3 && (unsigned char)p[0] == 0xef && (unsigned char)p[1] == 0xbb && (unsigned char)p[2] == 0xbf ? 3 : 0;
}

const char *kpca_text_wide(const unsigned char *p, size_t n)
{
    if (n >= 4 && p[0] == 0xff && p[1] == 0xfe && p[2] == 0 && p[3] == 0)
        return "UTF-32LE";
    if (n >= 4 && p[0] == 0 && p[1] == 0 && p[2] == 0xfe && p[3] == 0xff)
        return "UTF-32BE";
    if (n >= 2 && p[0] == 0xff && p[1] == 0xfe)
        return "UTF-16LE";
    if (n >= 2 && p[0] == 0xfe && p[1] == 0xff)
        return "UTF-16BE";
    /* no mark: ASCII characters in wide units, NUL in every other byte
     * (every fourth byte not NUL for UTF-32) */
    size_t m = n < 64 ? n & ~(size_t)3 : 64;
    if (m < 4)
        return NULL;
    size_t zero[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < m; i++)
        zero[i % 4] += p[i] == 0;
    size_t q = m / 4;
    if (zero[0] == 0 && zero[1] == q && zero[2] == q && zero[3] == q)
        return "UTF-32LE";
    if (zero[0] == q && zero[1] == q && zero[2] == q && zero[3] == 0)
        return "UTF-32BE";
    if (zero[0] == 0 && zero[2] == 0 && zero[1] == q && zero[3] == q)
        return "UTF-16LE";
    if (zero[1] == 0 && zero[3] == 0 && zero[0] == q && zero[2] == q)
        return "UTF-16BE";
    return NULL;
}

kpca_status kpca_text_wide_fail(const char *path, const char *enc, kpca_error *err)
{
    const char *family = strncmp(enc, "UTF-32", 6) == 0 ? "UTF-32" : "UTF-16";
    return kpca_fail(err, KPCA_EFORMAT,
                     "'%s' is %s text: kpca reads UTF-8 or ASCII text; convert it first, e.g. iconv -f %s -t UTF-8 "
                     "'%s' >utf8.csv (a spreadsheet saves it so as 'CSV UTF-8')",
                     path, enc, family, path);
}

int kpca_text_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p != 0) {
        if (*p < 0x80) {
            p++;
            continue;
        }
        size_t len = *p >= 0xC2 && *p <= 0xDF ? 2 : *p >= 0xE0 && *p <= 0xEF ? 3 : *p >= 0xF0 && *p <= 0xF4 ? 4 : 0;
        if (len == 0)
            return 0; /* a continuation byte first, an overlong C0/C1 lead, or past F4 */
        for (size_t k = 1; k < len; k++)
            if ((p[k] & 0xC0) != 0x80)
                return 0;
        if ((p[0] == 0xE0 && p[1] < 0xA0) || (p[0] == 0xED && p[1] > 0x9F) || (p[0] == 0xF0 && p[1] < 0x90) ||
            (p[0] == 0xF4 && p[1] > 0x8F))
            return 0; /* overlong, a surrogate, past U+10FFFF */
        p += len;
    }
    return 1;
}

void kpca_text_escape(const char *s, char *out, size_t cap)
{
    size_t o = 0;
    for (size_t i = 0; s[i] != '\0' && i < 40 && o + 5 < cap; i++) {
        const unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7F)
            out[o++] = (char)c;
        else
            o += (size_t)snprintf(out + o, cap - o, "\\x%02X", c);
    }
    if (cap > 0)
        out[o < cap ? o : cap - 1] = '\0';
}

kpca_status kpca_text_utf8_fail(const char *path, size_t line, size_t col, const char *what, const char *name,
                                kpca_error *err)
{
    char shown[200], at[48] = "";
    kpca_text_escape(name, shown, sizeof shown);
    if (col != 0)
        snprintf(at, sizeof at, ", column %zu", col);
    return kpca_fail(err, KPCA_EFORMAT,
                     "'%s' line %zu%s: the %s '%s' is not UTF-8 (a Latin-1 or Windows-1252 file?): kpca reads UTF-8 "
                     "text; convert it first, e.g. iconv -f latin1 -t utf-8 '%s' >utf8.csv",
                     path, line, at, what, shown, path);
}

/* csvtok.c - the quoting rule of delimited text (see csvtok.h). */
#include "text/csvtok.h"

#include <stdint.h>
#include <string.h>
#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define CSVTOK_WIDE 1 /* AVX2 and AVX-512BW counts, each taken only where the CPU has it */
#endif

#include "text/textnum.h"


const char *kpca_csvtok_close(const char *open, const char *end)
{
    for (const char *r = open + 1; r < end; r++) {
        if (*r != '"')
            continue;
        if (r + 1 < end && r[1] == '"') {
            r++; /* "" is a quote */
            continue;
        }
        return r;
    }
    return NULL;
}

size_t kpca_csvtok_unquote(char *open, const char *close)
{
    char *w = open;
    const char *r = open + 1;
    size_t lines = 0;
    while (r < close) {
        if (*r == '"')
            r++;
        else if (*r == '\n')
            lines++;
        *w++ = *r++;
    }
    *w = '\0';
    return lines;
}

int kpca_csvtok_fields(char *s, char delim, kpca_csvtok_field *f, int max)
{
    char *p = s, *const end = s + strlen(s);
    for (int n = 0;; n++) {
        kpca_csvtok_field x = {p, 0, *p == '"'};
        if (x.quoted) {
            const char *close = kpca_csvtok_close(p, end);
            if (close == NULL)
                return -1;
            x.len = (size_t)(close - p);
            p += x.len + 1;
            while (delim != ' ' && p < end && kpca_text_blank(*p) && *p != delim)
                p++; /* blanks up to the delimiter, as the row parser skips them */
            if (p < end && !kpca_csvtok_sep(*p, delim))
                return -1;
        } else {
            while (p < end && !kpca_csvtok_sep(*p, delim))
                p++;
            x.len = (size_t)(p - x.p);
        }
        if (n < max)
            f[n] = x;
        if (p < end && delim == ' ') /* a run of blanks, which may end the line */
            while (p + 1 < end && kpca_text_blank(p[1]))
                p++;
        if (p >= end || (delim == ' ' && p + 1 >= end))
            return n + 1;
        p++;
    }
}

char *kpca_csvtok_text(const kpca_csvtok_field *f)
{
    if (f->quoted)
        kpca_csvtok_unquote(f->p, f->p + f->len);
    else
        f->p[f->len] = '\0';
    return f->p;
}

size_t kpca_csvtok_rows_end(const char *text, size_t len, char delim)
{
    if (memchr(text, '"', len) == NULL) { /* no quoted field: the last line end */
        for (size_t i = len; i > 0; i--)
            if (text[i - 1] == '\n')
                return i;
        return 0;
    }
    const char *p = text, *end = text + len;
    size_t cut = 0;
    int start = 1; /* p starts a field */
    while (p < end) {
        if (*p == '"' && start) {
            const char *close = kpca_csvtok_close(p, end);
            if (close == NULL) /* open to the end: no row ends in it */
                break;
            p = close + 1;
            start = 0;
            continue;
        }
        if (start && kpca_text_comment(*p, delim)) { /* a comment: no quote opens in it */
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            if (nl == NULL)
                break;
            p = nl;
            continue;
        }
        if (*p == '\n')
            cut = (size_t)(p - text) + 1;
        start = kpca_csvtok_sep(*p, delim);
        p++;
    }
    return cut;
}

/* The counts of kpca_csvtok_count, one per instruction set: each counts
 * the bytes of text[0, len) that are c in whole vectors, *done the bytes
 * it took, and leaves the rest to count_words. */
#if defined(__SSE2__) && defined(__x86_64__)
/* sixteen bytes at a time (every x86-64 has SSE2): each match adds 1 to
 * its byte lane, at most 255 times before the lanes are summed */
static size_t count_sse2(const char *text, size_t len, char c, size_t *done)
{
    size_t n = 0, i = 0;
    const __m128i want = _mm_set1_epi8(c), none = _mm_setzero_si128();
    while (len - i >= 16) {
        __m128i lanes = none;
        const size_t end = i + ((len - i) / 16 < 255 ? (len - i) / 16 : 255) * 16;
        for (; i < end; i += 16)
            lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(text + i)), want));
        const __m128i sums = _mm_sad_epu8(lanes, none); /* two 16-bit sums, one per half */
        n += (size_t)_mm_cvtsi128_si32(sums) + (size_t)_mm_extract_epi16(sums, 4);
    }
    *done = i;
    return n;
}
#endif

#ifdef CSVTOK_WIDE
/* 32 bytes at a time: a compare, its mask and a popcount */
__attribute__((target("avx2,popcnt"))) static size_t count_avx2(const char *text, size_t len, char c, size_t *done)
{
    const __m256i want = _mm256_set1_epi8(c);
    size_t n = 0, i = 0;
    for (; len - i >= 32; i += 32) {
        const __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(text + i));
        n += (size_t)__builtin_popcount((unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, want)));
    }
    *done = i;
    return n;
}

/* 64 bytes at a time: a compare into a mask register and a popcount */
__attribute__((target("avx512bw,popcnt"))) static size_t count_avx512(const char *text, size_t len, char c,
                                                                      size_t *done)
{
    const __m512i want = _mm512_set1_epi8(c);
    size_t n = 0, i = 0;
    for (; len - i >= 64; i += 64)
        n += (size_t)__builtin_popcountll(_mm512_cmpeq_epi8_mask(_mm512_loadu_si512((const void *)(text + i)), want));
    *done = i;
    return n;
}
#endif

/* eight bytes at a time in a 64-bit word, then one at a time */
static size_t count_words(const char *text, size_t len, char c)
{
    size_t n = 0, i = 0;
    const uint64_t ones = 0x0101010101010101u, low7 = 0x7f7f7f7f7f7f7f7fu;
    const uint64_t pat = ones * (unsigned char)c;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, text + i, 8);
        w ^= pat; /* a byte 0 where text has c */
        /* the high bit of each byte set where that byte is 0, exactly */
        const uint64_t zero = ~(((w & low7) + low7) | w | low7);
        n += (size_t)(((zero >> 7) * ones) >> 56); /* the bytes' high bits summed */
    }
    for (; i < len; i++)
        n += text[i] == c;
    return n;
}

size_t kpca_csvtok_count_by(const char *text, size_t len, char c, kpca_csvtok_isa isa)
{
    size_t n = 0, done = 0;
    switch (isa) {
    case KPCA_CSVTOK_WORDS:
        break;
#if defined(__SSE2__) && defined(__x86_64__)
    case KPCA_CSVTOK_SSE2:
        n = count_sse2(text, len, c, &done);
        break;
#endif
#ifdef CSVTOK_WIDE
    case KPCA_CSVTOK_AVX2:
        if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("popcnt"))
            return SIZE_MAX;
        n = count_avx2(text, len, c, &done);
        break;
    case KPCA_CSVTOK_AVX512:
        if (!__builtin_cpu_supports("avx512bw") || !__builtin_cpu_supports("popcnt"))
            return SIZE_MAX;
        n = count_avx512(text, len, c, &done);
        break;
#endif
    default:
        return SIZE_MAX;
    }
    return n + count_words(text + done, len - done, c);
}

size_t kpca_csvtok_count(const char *text, size_t len, char c)
{
#ifdef CSVTOK_WIDE
    if (len >= 64 && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("popcnt"))
        return kpca_csvtok_count_by(text, len, c, KPCA_CSVTOK_AVX512);
    if (len >= 32 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt"))
        return kpca_csvtok_count_by(text, len, c, KPCA_CSVTOK_AVX2);
#endif
#if defined(__SSE2__) && defined(__x86_64__)
    return kpca_csvtok_count_by(text, len, c, KPCA_CSVTOK_SSE2);
#else
    return count_words(text, len, c);
#endif
}

/* How often delim separates fields on each of the first (at most 10)
 * non-blank lines of text read by the quoting rule with delim as the
 * delimiter: first: the first line's count; *consistent 0 when a later
 * line's differs.  A blank line (blanks only) is skipped, as the parser
 * skips it; an unterminated last line counts only when it is the first. */
static void sniff_count(const char *text, size_t len, char delim, size_t *first, int *consistent)
{
    const char *p = text, *end = text + len;
    size_t count = 0;
    int lines = 0, start = 1, blank_line = 1;
    *first = 0;
    *consistent = 1;
    while (p < end && lines < 10) {
        if (*p == '"' && start) { /* a quoted field: its delimiters are text */
            const char *close = kpca_csvtok_close(p, end);
            if (close == NULL)
                break;
            p = close + 1;
            start = 0;
            blank_line = 0;
            continue;
        }
        if (*p == '\n') {
            if (!blank_line) {
                if (lines == 0)
                    *first = count;
                else if (count != *first)
                    *consistent = 0;
                lines++;
            }
            count = 0;
            blank_line = 1;
        } else {
            count += *p == delim;
            blank_line &= kpca_text_blank(*p);
        }
        start = kpca_csvtok_sep(*p, delim);
        p++;
    }
    if (lines == 0) /* one line, unterminated */
        *first = count;
}

char kpca_csv_sniff(const char *text, size_t len, char mark)
{
    static const char cand[3] = {',', ';', '\t'};
    const int from = mark == ',' ? 1 : 0; /* a decimal comma separates no fields */
    size_t first[3] = {0, 0, 0};
    int consistent[3] = {1, 1, 1};
    for (int k = from; k < 3; k++)
        sniff_count(text, len, cand[k], &first[k], &consistent[k]);
    for (int k = from; k < 3; k++)
        if (consistent[k] && first[k] > 0)
            return cand[k];
    int best = -1;
    for (int k = from; k < 3; k++)
        if (first[k] > 0 && (best < 0 || first[k] > first[best]))
            best = k;
    return best < 0 ? 0 : cand[best];
}

/* 1 when the first non-blank line of text has a blank-separated token
 * with a comma that is no decimal-comma number ("a,b", "1,2,3"): commas
 * there separate fields */
static int comma_fields(const char *text, size_t len)
{
    const char *p = text + kpca_text_bom(text, len), *end = text + len;
    while (p < end && (kpca_text_blank(*p) || *p == '\n'))
        p++;
    while (p < end && *p != '\n') {
        while (p < end && kpca_text_blank(*p))
            p++;
        char tok[64];
        size_t n = 0;
        int comma = 0;
        for (; p < end && *p != '\n' && !kpca_text_blank(*p); p++) {
            comma |= *p == ',';
            if (n < sizeof tok - 1)
                tok[n++] = *p;
        }
        tok[n] = '\0';
        if (comma && !kpca_text_decimal_comma(tok, '\0'))
            return 1;
    }
    return 0;
}

char kpca_csv_delim(const char *text, size_t len, char mark)
{
    char delim = kpca_csv_sniff(text, len < 65536 ? len : 65536, mark);
    if (delim == 0 && mark == ',') /* decimal commas, no ';' or tab: blanks between the values */
        delim = comma_fields(text, len) ? ',' : ' ';
    return delim;
}

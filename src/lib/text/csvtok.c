/* csvtok.c - the quoting rule of delimited text (see csvtok.h). */
#include "text/csvtok.h"

#include <string.h>

#include "text/textnum.h"


static int blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

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
        if (*p == '\n')
            cut = (size_t)(p - text) + 1;
        start = kpca_csvtok_sep(*p, delim);
        p++;
    }
    return cut;
}

char kpca_csv_sniff(const char *text, size_t len, char mark)
{
    static const char cand[3] = {',', ';', '\t'};
    const int from = mark == ',' ? 1 : 0; /* a decimal comma separates no fields */
    size_t first[3] = {0, 0, 0}, count[3] = {0, 0, 0};
    int consistent[3] = {1, 1, 1}, lines = 0, quoted = 0;
    for (size_t i = 0; i < len && lines < 10; i++) {
        char c = text[i];
        if (c == '"')
            quoted = !quoted;
        for (int k = 0; k < 3 && !quoted; k++)
            count[k] += c == cand[k];
        if (c == '\n' && !quoted) {
            int blank = count[0] + count[1] + count[2] == 0 && (i == 0 || text[i - 1] == '\n' || text[i - 1] == '\r');
            if (blank)
                continue;
            for (int k = 0; k < 3; k++) {
                if (lines == 0)
                    first[k] = count[k];
                else if (count[k] != first[k])
                    consistent[k] = 0;
                count[k] = 0;
            }
            lines++;
        }
    }
    if (lines == 0) /* one line, unterminated */
        memcpy(first, count, sizeof first);
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
    while (p < end && (blank(*p) || *p == '\n'))
        p++;
    while (p < end && *p != '\n') {
        while (p < end && blank(*p))
            p++;
        char tok[64];
        size_t n = 0;
        int comma = 0;
        for (; p < end && *p != '\n' && !blank(*p); p++) {
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

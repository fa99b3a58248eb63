/* csvwin.c - delimited text read by windows of the file (csvwin.h): each
 * window cut at the end of a whole row (text/csvtok.h), parsed by csvrows.c's
 * row reader; the row source's reader of CSV (io/rowsrc.c). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "io/csvwin.h"
#include "io/csvpart.h"
#include "text/bytes.h"
#include "text/csvtok.h"
#include "text/textfile.h"
#include "text/textnum.h"
#include "support/mem.h"
#include "support/parts.h"

/* the bytes of delimited text parsed at a time (a window grows to hold a
 * longer row) */
#define CSV_WINDOW ((size_t)4 << 20)
/* the bytes read at open, for the delimiter and the first row (more as
 * a longer first row needs), so that a process reading its part of the
 * file (rowpart.h) reads no window of another's */
#define CSV_HEAD ((size_t)64 << 10)
/* a window is parsed in parts of at least this many bytes, one thread each
 * (a thread costs some 30 us; a part of 256 KiB, 1-2 ms of parsing) */
#define CSV_WIN_PART ((size_t)256 << 10)
/* the fast windows in a row that stop at their first row before the row
 * reader reads the rest of the file alone */
#define CSV_FAST_MISSES 3


void kpca_csv_win_close(csv_win *w)
{
    kpca_csv_fastwin_close(&w->fast);
    kpca_bytes_close(w->bytes);
    kpca_free_strings(w->hdr, w->hdr != NULL ? w->R.ncols : 0); /* R.hdr, the array, points at them */
    kpca_csv_rows_free(&w->R);
    kpca_free(w->s.f);
    kpca_free(w->s.fline);
    kpca_free(w->buf);
    memset(w, 0, sizeof *w);
}

/* The end of the last whole row in [from, len), read from `from` (a
 * row's start) by the quoting rule (text/csvtok.h); the whole text at the
 * end of the file. */
static size_t csvwin_cut(const csv_win *w, size_t from)
{
    if (w->eof)
        return w->len;
    return from + kpca_csvtok_rows_end(w->buf + from, w->len - from, w->s.delim ? w->s.delim : ',');
}

/* Reads more of the file after buf[0, len), at most `most` bytes (0: a
 * window's worth); KPCA_OK at the end too (eof set).  A NUL byte is the
 * whole read's error, on its line (line: the line of buf[0]). */
static kpca_status csvwin_fill(csv_win *w, size_t line, size_t most, kpca_error *err)
{
    const size_t span = w->span; /* (set at open, before the first fill) */
    if (w->cap - w->len < span / 2 + 1) {
        size_t c = w->cap;
        char *nb = kpca_grow(w->buf, &c, w->len + span + 1, 1, span + 1);
        if (nb == NULL)
            return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", w->path);
        w->buf = nb;
        w->cap = c;
    }
    size_t room = w->cap - w->len - 1;
    if (w->limited && room > w->left)
        room = (size_t)w->left;
    /* most 0: a window's worth, or as much as is held (a long row: the
     * window doubles, and the cut's scans of it stay linear in its length) */
    const size_t lim = most != 0 ? most : span > w->len ? span : w->len;
    if (room > lim)
        room = lim;
    if (room == 0) { /* the end of the part read */
        w->eof = 1;
        w->buf[w->len] = '\0';
        return KPCA_OK;
    }
    size_t got;
    kpca_status st = kpca_bytes_read(w->bytes, w->buf + w->len, room, 0, &got, err);
    if (st == KPCA_OK && w->base == 0 && w->len == 0) /* the file's first bytes: UTF-16 is named, not its NULs */
        st = kpca_textfile_head(w->path, w->buf, got, NULL, err);
    if (st == KPCA_OK)
        st = kpca_textfile_nul(w->path, w->buf, w->len, w->len + got, line, err);
    if (st != KPCA_OK)
        return st;
    w->len += got;
    w->left -= w->limited ? (unsigned long long)got : 0;
    w->eof = got == 0;
    w->buf[w->len] = '\0';
    return KPCA_OK;
}

/* --skip-rows skip: the text's first `skip` lines leave the window, read
 * on past the head as long as they are, and the head is filled again
 * after them (the delimiter is sniffed there, as the whole read sniffs
 * it); *line: the line of buf[0] then.  The refusal of a text that ends
 * within them. */
static kpca_status csvwin_skip(csv_win *w, size_t skip, size_t *line, kpca_error *err)
{
    kpca_status st = KPCA_OK;
    size_t skipped = 0;
    while (st == KPCA_OK && skipped < skip && w->len > 0) {
        size_t k, from = kpca_textfile_skip(w->buf, w->len, skip - skipped, &k);
        /* a line that goes on past the window is counted at its line end */
        if (from == w->len && w->buf[w->len - 1] != '\n' && !w->eof)
            k--;
        skipped += k;
        memmove(w->buf, w->buf + from, w->len - from + 1);
        w->len -= from;
        w->base += from;
        if (w->len == 0 && !w->eof)
            st = csvwin_fill(w, 1 + skipped, CSV_HEAD, err);
    }
    while (st == KPCA_OK && !w->eof && w->len < CSV_HEAD)
        st = csvwin_fill(w, 1 + skipped, CSV_HEAD - w->len, err);
    if (st == KPCA_OK && w->len == 0)
        st = kpca_textfile_skip_fail(w->path, skipped, skip, err);
    *line = 1 + skipped;
    return st;
}

static size_t test_span, test_part, test_parts; /* kpca_csv_win_test_sizes */

void kpca_csv_win_test_sizes(size_t span, size_t part, size_t parts)
{
    test_span = span;
    test_part = part;
    test_parts = parts;
}

/* Opens the text and reads its first row (the header, or the first data
 * row, then in s.f): the layout in R, as the whole read finds it. */
kpca_status kpca_csv_win_open(csv_win *w, const char *path, char delim, const kpca_read_opts *opts, kpca_error *err)
{
    memset(w, 0, sizeof *w);
    w->path = path;
    w->R.col = w->R.index = NO_COLUMN;
    w->span = test_span != 0 ? test_span : CSV_WINDOW;
    w->fast_part = test_part != 0 ? test_part : CSV_WIN_PART;
    w->fast_parts = test_parts;
    w->stop = ULLONG_MAX;
    kpca_status st = kpca_bytes_open(path, &w->bytes, err);
    /* the head: 64 KiB for the delimiter (as the whole read sniffs it) */
    while (st == KPCA_OK && !w->eof && w->len < CSV_HEAD)
        st = csvwin_fill(w, 1, CSV_HEAD - w->len, err);
    if (st != KPCA_OK)
        return st;
    /* (the first fill refused a wide encoding) */
    const size_t bom = kpca_text_bom(w->buf, w->len);
    memmove(w->buf, w->buf + bom, w->len - bom + 1);
    w->len -= bom;
    w->base = bom;
    size_t line = 1; /* the line of buf[0] */
    const size_t skip = opts != NULL ? opts->skip_rows : 0;
    if (skip > 0 && (st = csvwin_skip(w, skip, &line, err)) != KPCA_OK)
        return st;
    const char mark = opts != NULL && opts->decimal == ',' ? ',' : '.';
    if (delim == 0)
        delim = kpca_csv_delim(w->buf, w->len, mark);
    w->s.delim = delim ? delim : ','; /* (the rows' cut needs it) */
    /* the first row whole */
    size_t cut;
    while ((cut = csvwin_cut(w, 0)) == 0 && !w->eof && (st = csvwin_fill(w, line, CSV_HEAD, err)) == KPCA_OK)
        ;
    /* and the row after it, or the end: whether the first is a header may
     * rest on it (kpca_csv_numbers_row), as in the whole read */
    if (st == KPCA_OK && !w->eof && kpca_csvtok_rows_end(w->buf, cut - 1, w->s.delim) == 0) /* one row */
        for (const size_t one = cut; st == KPCA_OK && !w->eof && cut == one;)
            if ((st = csvwin_fill(w, line, CSV_HEAD, err)) == KPCA_OK)
                cut = csvwin_cut(w, one); /* (looks only past the first row) */
    if (st != KPCA_OK)
        return st;
    w->s = (csv_state){.path = path, .p = w->buf, .end = w->buf + cut, .line = line, .delim = delim ? delim : ',',
                       .mark = mark};
    int header;
    if ((st = kpca_csv_first_row(&w->s, &w->R, opts, &header, err)) != KPCA_OK)
        return st;
    if (header) { /* the names outlive the window */
        if ((w->hdr = kpca_strings_dup(w->R.hdr, w->R.ncols)) == NULL)
            return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
        for (size_t j = 0; j < w->R.ncols; j++)
            w->R.hdr[j] = w->hdr[j];
    }
    w->have = !header;
    /* whitespace text's blanks are no delimiter the one-pass path takes */
    if (w->s.delim != ' ' && kpca_bytes_codec(w->bytes) == KPCA_CODEC_NONE)
        kpca_csv_fastwin_open(&w->fast, path);
    return KPCA_OK;
}

/* Parses the window's rows, s.p .. s.end, into R (scan: their labels
 * only, kpca_csv_scan_rows): in parts, one thread
 * each, as the whole read does (csvpart.h), where it has no quote and is
 * large enough; the rows and the first error as a read in one part. */
static kpca_status win_parse(csv_win *w, kpca_error *err)
{
    const size_t parts = kpca_csv_plan(&w->s, 0, CSV_WIN_PART);
    if (parts < 2)
        return w->scan ? kpca_csv_scan_rows(&w->s, &w->R, w->have, err)
                       : kpca_csv_read_rows(&w->s, &w->R, w->have, w->s.delim != ' ', err);
    char *cut[KPCA_PARTS_MAX + 1];
    size_t nl[KPCA_PARTS_MAX];
    const size_t lines = 3 + kpca_csv_cut(&w->s, parts, cut, nl);
    return kpca_csv_read_parts(&w->s, &w->R, w->have, parts, cut, nl, lines, w->scan, err);
}

/* The next window by the fast path: its rows in R, up to the first row it
 * does not take (none when that is its first: after CSV_FAST_MISSES such
 * windows in a row it is tried no more); the row reader's window left
 * empty at the byte after them. */
static kpca_status win_fast(csv_win *w, kpca_error *err)
{
    unsigned long long from = kpca_csv_win_tell(w);
    int declined;
    kpca_status st = kpca_csv_fastwin_next(&w->fast, &w->s, &w->R, &from, w->stop, w->span, w->fast_parts,
                                           w->fast_part, w->scan, &declined, err);
    if (st != KPCA_OK)
        return st;
    w->direct_n = w->fast.direct ? w->R.n : 0;
    w->fast_rows += w->R.n;
    w->base = from;
    w->len = 0;
    w->buf[0] = '\0';
    w->s.p = w->s.end = w->buf;
    w->reseek = 1;
    /* a file whose windows stop at their first row (quotes on every row)
     * is the row reader's after a few */
    w->fast_miss = declined && w->R.n == 0 ? w->fast_miss + 1 : 0;
    w->fast_off = w->fast_miss >= CSV_FAST_MISSES;
    w->fell = declined;
    return KPCA_OK;
}

/* The byte source moved to base (after fast windows): the row reader's
 * window is read from there, up to the limit. */
static kpca_status win_reseek(csv_win *w, kpca_error *err)
{
    if (kpca_bytes_seek(w->bytes, w->base) != 0)
        return kpca_fail(err, KPCA_EIO, "'%s': cannot seek to byte %llu", w->path, w->base);
    w->reseek = 0;
    w->eof = 0;
    if (w->limited)
        w->left = w->stop > w->base ? w->stop - w->base : 0;
    return KPCA_OK;
}

/* The next window's rows, perhaps none (a window of blank lines) */
static kpca_status win_once(csv_win *w, int *more, kpca_error *err)
{
    kpca_status st = KPCA_OK;
    w->R.taken += w->R.n;
    w->R.n = 0;
    w->direct_n = 0;
    *more = 1;
    if (!w->have && w->fast.opened && !w->fast_off && !w->fell &&
        ((st = win_fast(w, err)) != KPCA_OK || w->R.n > 0)) /* (none at the text's end) */
        return st;
    w->fell = 0; /* the row reader's window, then the fast path again */
    if (w->reseek && (st = win_reseek(w, err)) != KPCA_OK)
        return st;
    if (!w->have) {
        /* the rows parsed so far leave the window; the rest moves to its start */
        size_t done = (size_t)(w->s.p - w->buf);
        memmove(w->buf, w->buf + done, w->len - done + 1);
        w->len -= done;
        w->base += done;
        size_t cut;
        while ((cut = csvwin_cut(w, 0)) == 0 && !w->eof && (st = csvwin_fill(w, w->s.line, 0, err)) == KPCA_OK)
            ;
        if (st == KPCA_OK && !w->eof && w->len < w->span / 2) { /* a window's worth, cut at a row */
            st = csvwin_fill(w, w->s.line, 0, err);
            cut = csvwin_cut(w, 0);
        }
        if (st != KPCA_OK)
            return st;
        w->s.p = w->buf;
        w->s.end = w->buf + cut;
        if (cut == 0) {
            *more = 0;
            return KPCA_OK;
        }
    }
    st = win_parse(w, err);
    w->have = 0;
    return st;
}

/* Parses the next window's rows into R (R.n of them, R.taken before
 * them; windows of blank lines alone passed over); *more 0 at the end of
 * the file (R.n 0).  The label tokens point into the window until the
 * next call. */
kpca_status kpca_csv_win_next(csv_win *w, int *more, kpca_error *err)
{
    kpca_status st;
    while ((st = win_once(w, more, err)) == KPCA_OK && *more && w->R.n == 0)
        ;
    return st;
}

unsigned long long kpca_csv_win_tell(const csv_win *w)
{
    return w->base + (unsigned long long)(w->s.p - w->buf);
}

void kpca_csv_win_limit(csv_win *w, unsigned long long end)
{
    w->stop = end;
    w->limited = 1;
    w->left = 0;
    if (w->base + w->len > end) { /* read beyond it already: cut there */
        w->len = end > w->base ? (size_t)(end - w->base) : 0;
        w->buf[w->len] = '\0';
        w->eof = 1;
        if (w->s.end > w->buf + w->len)
            w->s.end = w->buf + w->len;
    } else if (!w->eof) {
        w->left = end - w->base - w->len;
    }
}

kpca_status kpca_csv_win_jump(csv_win *w, unsigned long long byte, size_t line, size_t before, kpca_error *err)
{
    if (kpca_bytes_seek(w->bytes, byte) != 0)
        return kpca_fail(err, KPCA_EIO, "'%s': cannot seek to byte %llu", w->path, byte);
    w->base = byte;
    w->len = 0;
    w->eof = 0;
    w->limited = 0;
    w->stop = ULLONG_MAX;
    w->reseek = w->fell = w->fast_off = w->fast_miss = 0;
    w->buf[0] = '\0';
    w->s.p = w->s.end = w->buf;
    w->s.line = line;
    w->have = 0;
    w->R.taken = before; /* (csvrows.c names the file's first row as such) */
    w->R.n = 0;
    w->direct_n = 0;
    return KPCA_OK;
}

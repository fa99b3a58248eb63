/* csvpart.c - the CSV read in parts, one thread each (see csvpart.h). */
#include "io/csvpart.h"
#include "text/bytes.h"
#include "text/csvtok.h"
#include "text/textfile.h"
#include "text/textnum.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/crew.h"
#include "support/mem.h"
#include "support/parts.h"

/* One part after the first: [s.p, s.end), its first line s.line, its rows
 * written from row `at` of the shared x (and labtok, labline) on.  The
 * thread takes the one-pass path only and stops at the first row that path
 * does not take (s.p there; the caller reads on from it). */
typedef struct {
    csv_state s;
    double *x; /* R's arrays, copied: the thread reads nothing R's reader writes */
    char **labtok;
    size_t *labline;
    size_t ncols, col, dim, index;
    size_t at, n;
    pthread_t tid;
    int started;
    int scan; /* the labels only (kpca_csv_scan_row) */
} csv_part;

static void *part_run(void *arg)
{
    csv_part *pt = arg;
    while (pt->s.p < pt->s.end) {
        size_t line = pt->s.line, i = pt->at + pt->n;
        char *ltok = NULL;
        double *row = pt->x + i * pt->dim;
        if (pt->scan ? !kpca_csv_scan_row(&pt->s, pt->ncols, pt->col, pt->index, &ltok, row)
                     : !kpca_csv_fast_row(&pt->s, pt->ncols, pt->col, row, &ltok))
            break;
        if (pt->col != NO_COLUMN) {
            pt->labtok[i] = ltok;
            pt->labline[i] = line;
        }
        pt->n++;
    }
    return NULL;
}

size_t kpca_csv_plan(const csv_state *s, size_t parts, size_t min_part)
{
    size_t len = (size_t)(s->end - s->p);
    parts = kpca_parts_plan(len, parts, min_part);
    if (parts < 2 || s->delim == ' ' || memchr(s->p, '"', len) != NULL)
        return 1;
    return parts;
}

size_t kpca_csv_cut(const csv_state *s, size_t parts, char **cut, size_t *nl)
{
    size_t len = (size_t)(s->end - s->p), total = 0;
    cut[0] = s->p;
    for (size_t k = 0; k < parts; k++) {
        cut[k + 1] = s->end;
        if (k + 1 < parts) {
            char *want = s->p + len / parts * (k + 1);
            char *eol = want > cut[k] ? memchr(want, '\n', (size_t)(s->end - want)) : NULL;
            if (eol != NULL)
                cut[k + 1] = eol + 1;
        }
        nl[k] = 0;
        for (const char *q = cut[k]; (q = memchr(q, '\n', (size_t)(cut[k + 1] - q))) != NULL; q++)
            nl[k]++;
        total += nl[k];
    }
    return total;
}

int kpca_csv_rows_room(csv_rows *R, size_t rows, int values)
{
    if (values) {
        double *nx = kpca_grow(R->x, &R->xcap, rows * R->dim, sizeof *R->x, 1);
        if (nx == NULL)
            return 0;
        R->x = nx;
    }
    if (R->col != NO_COLUMN) {
        size_t c2 = R->lcap, c3 = R->lcap;
        char **nt = kpca_grow(R->labtok, &c2, rows, sizeof *R->labtok, 1);
        if (nt != NULL)
            R->labtok = nt;
        size_t *nl = nt == NULL ? NULL : kpca_grow(R->labline, &c3, rows, sizeof *R->labline, 1);
        if (nl == NULL)
            return 0;
        R->labline = nl;
        R->lcap = c2;
    }
    return 1;
}

/* s for a part's thread, from `line` on: its own field arrays (none yet) */
static csv_state part_state(const csv_state *s, size_t line)
{
    csv_state ps = *s;
    ps.f = NULL;
    ps.fline = NULL;
    ps.nf = ps.capf = 0;
    ps.line = line;
    return ps;
}

kpca_status kpca_csv_read_parts(csv_state *s, csv_rows *R, int have, size_t parts, char *const *cut, const size_t *nl,
                              size_t lines, int scan, kpca_error *err)
{
    /* room for every row there can be (lines counts the first row, one per
     * line end after it, an unterminated last line and one more): no part's
     * rows move while others run, and part 0's reader never grows x */
    if (!kpca_csv_rows_room(R, lines, 1)) /* the one-part reader grows as it goes */
        return scan ? kpca_csv_scan_rows(s, R, have, err) : kpca_csv_read_rows(s, R, have, 1, err);
    csv_part pt[KPCA_PARTS_MAX];
    char *end = s->end;
    size_t at = R->n + (have != 0), line = s->line;
    for (size_t k = 0; k < parts; k++) {
        csv_state ps = part_state(s, line);
        ps.p = cut[k];
        ps.end = cut[k + 1];
        pt[k] = (csv_part){ps, R->x, R->labtok, R->labline, R->ncols, R->col, R->dim, R->index, at, 0, pthread_self(), 0,
                           scan};
        at += nl[k];
        line += nl[k];
    }
    for (size_t k = 1; k < parts; k++)
        pt[k].started = pt[k].s.p < pt[k].s.end && pthread_create(&pt[k].tid, NULL, part_run, &pt[k]) == 0;
    /* part 0 here, in full */
    s->end = pt[0].s.end;
    kpca_status st = scan ? kpca_csv_scan_rows(s, R, have, err) : kpca_csv_read_rows(s, R, have, 1, err);
    for (size_t k = 1; k < parts; k++)
        if (pt[k].started)
            pthread_join(pt[k].tid, NULL);
    /* then each part in turn: its rows moved up to R->n (blank lines or
     * several-line rows before them leave a gap), the rest read here */
    for (size_t k = 1; k < parts && st == KPCA_OK; k++) {
        if (pt[k].n > 0 && pt[k].at != R->n) {
            memmove(R->x + R->n * R->dim, R->x + pt[k].at * R->dim, pt[k].n * R->dim * sizeof *R->x);
            if (R->col != NO_COLUMN) {
                memmove(R->labtok + R->n, R->labtok + pt[k].at, pt[k].n * sizeof *R->labtok);
                memmove(R->labline + R->n, R->labline + pt[k].at, pt[k].n * sizeof *R->labline);
            }
        }
        R->n += pt[k].n;
        s->p = pt[k].s.p;
        s->end = pt[k].s.end;
        s->line = pt[k].s.line;
        if (s->p < s->end)
            st = scan ? kpca_csv_scan_rows(s, R, 0, err) : kpca_csv_read_rows(s, R, 0, 1, err);
    }
    s->end = end;
    return st;
}

/* ---- the row source's fast windows (kpca_csv_fastwin_next) ----------------
 * Part k of a span [from, from + span) is the rows that start in its
 * bytes [lo, hi): the first at lo for part 0 (a row's start), else after
 * the first line end at or after lo - 1.  A first round of threads reads
 * each part's bytes and counts its rows (one a line end before hi), so
 * that each knows the row its first lands at; a second parses them.  The
 * labels' pass without a pandas index takes one round (fw_scan: its
 * labels are put in place after it).  The one-pass path takes no quote,
 * so line ends before the first part that stops are row ends, and the
 * parts after it are dropped. */
#define FW_MARGIN ((size_t)4 << 10) /* read past a part's bytes for its last row, at first */

typedef struct {
    csv_fastwin *f;
    size_t k;
    unsigned long long lo, hi, stop; /* the rows that start in [lo, hi); the text ends at stop */
    unsigned long long blo;          /* the file's byte at buf[0] */
    size_t blen;                     /* bytes read into buf */
    size_t start, end;               /* in buf: the first row's start, the last row's end */
    size_t rows;                     /* rows that start in [lo, hi) */
    int read_ok, nomem;
    /* the parse */
    csv_state s;
    csv_rows *R;
    int scan;
    double *x;     /* where row i's values go: x + i R->dim (R->x, or the caller's rows) */
    size_t at, n;  /* rows [at, at + n) of R taken */
    int stopped;   /* at a row the one-pass path does not take, at s.p */
} fw_part;

/* buf holds bytes [blo, blo + want) of the file (want <= stop - blo) */
static int fw_read(fw_part *fp, size_t want)
{
    csv_fastwin *f = fp->f;
    if (want + 1 > f->cap[fp->k]) {
        size_t c = f->cap[fp->k];
        char *nb = kpca_grow(f->buf[fp->k], &c, want + 1, 1, 1);
        if (nb == NULL) {
            fp->nomem = 1;
            return 0;
        }
        f->buf[fp->k] = nb;
        f->cap[fp->k] = c;
    }
    if (want > fp->blen &&
        !kpca_pread_all(f->fd, f->buf[fp->k] + fp->blen, want - fp->blen, (off_t)(fp->blo + fp->blen), NULL))
        return 0; /* declined, whatever the cause */
    fp->blen = want;
    return 1;
}

static void *fw_count(void *arg)
{
    fw_part *fp = arg;
    fp->rows = 0;
    fp->blo = fp->lo - (fp->k > 0);
    fp->blen = 0;
    size_t want = (size_t)(fp->hi - fp->blo) + FW_MARGIN;
    if (want > fp->stop - fp->blo)
        want = (size_t)(fp->stop - fp->blo);
    if (!fw_read(fp, want))
        return NULL;
    const char *buf = fp->f->buf[fp->k];
    const size_t hi = (size_t)(fp->hi - fp->blo);
    fp->start = 0;
    if (fp->k > 0) {
        const char *q = memchr(buf, '\n', hi);
        fp->start = q != NULL ? (size_t)(q - buf) + 1 : hi;
    }
    size_t last = fp->start;
    if (fp->start < hi) { /* a row at start, and one after each line end before hi - 1 */
        fp->rows = 1;
        for (const char *q = buf + fp->start; (q = memchr(q, '\n', (size_t)(buf + hi - 1 - q))) != NULL; q++) {
            fp->rows++;
            last = (size_t)(q - buf) + 1;
        }
    }
    fp->end = fp->start;
    while (fp->rows > 0) { /* the last row's end: read on as long as it is */
        buf = fp->f->buf[fp->k];
        const char *e = memchr(buf + last, '\n', fp->blen - last);
        if (e != NULL || fp->blo + fp->blen == fp->stop) {
            fp->end = e != NULL ? (size_t)(e - buf) + 1 : fp->blen;
            break;
        }
        want = fp->blen + (fp->blen - hi > FW_MARGIN ? fp->blen - hi : FW_MARGIN); /* twice as far past hi */
        if (want > fp->stop - fp->blo)
            want = (size_t)(fp->stop - fp->blo);
        if (!fw_read(fp, want))
            return NULL;
    }
    fp->read_ok = 1;
    return NULL;
}

static void *fw_parse(void *arg)
{
    fw_part *fp = arg;
    char *buf = fp->f->buf[fp->k];
    csv_rows *R = fp->R;
    const int values = !fp->scan || R->index != NO_COLUMN;
    buf[fp->end] = '\0';
    fp->s.p = buf + fp->start;
    fp->s.end = buf + fp->end;
    fp->n = 0;
    /* the scan takes no row with a quote (kpca_csv_scan_rows looks first)
     * or a NUL byte (the row reader's window refuses it as it lands) */
    const char *quote = NULL;
    if (fp->scan) {
        const char *q = memchr(fp->s.p, '"', fp->end - fp->start), *z = memchr(fp->s.p, '\0', fp->end - fp->start);
        quote = q == NULL || (z != NULL && z < q) ? z : q;
    }
    while (fp->n < fp->rows) {
        const size_t i = fp->at + fp->n, line = fp->s.line;
        char *ltok = NULL, *at = fp->s.p;
        double *row = values ? fp->x + i * R->dim : NULL;
        if (fp->scan ? !kpca_csv_scan_row(&fp->s, R->ncols, R->col, R->index, &ltok, row)
                     : !kpca_csv_fast_row(&fp->s, R->ncols, R->col, row, &ltok))
            break;
        if (quote != NULL && quote < fp->s.p) { /* this row holds it */
            fp->s.p = at;
            fp->s.line = line;
            break;
        }
        if (R->col != NO_COLUMN) {
            R->labtok[i] = ltok;
            R->labline[i] = line;
        }
        fp->n++;
    }
    fp->stopped = fp->n < fp->rows || fp->s.p != buf + fp->end;
    return NULL;
}

#define FW_STRETCH ((size_t)256 << 10) /* the labels' pass: bytes read at a time, while they are in the cache */

/* A label's bytes (len, and a NUL) at the end of part k's labels, its
 * offset kept: 0 when out of memory. */
static int keep_label(csv_fastwin *f, size_t k, size_t n, const char *lab, size_t len)
{
    if (n + 1 > f->locap[k]) {
        size_t c = f->locap[k];
        size_t *nl = kpca_grow(f->loff[k], &c, n + 1, sizeof *nl, 64);
        if (nl == NULL)
            return 0;
        f->loff[k] = nl;
        f->locap[k] = c;
    }
    char *nb = kpca_grow(f->lab[k], &f->labcap[k], f->lablen[k] + len + 1, 1, 1024);
    if (nb == NULL)
        return 0;
    f->lab[k] = nb;
    memcpy(nb + f->lablen[k], lab, len + 1);
    f->loff[k][n] = f->lablen[k];
    f->lablen[k] += len + 1;
    return 1;
}

/* The labels' pass of a part in one round, for a window without a pandas
 * index: the rows that start in [lo, hi), read FW_STRETCH bytes at a time
 * into buf (the partial row at its end carried), each taken as fw_parse
 * takes it, its bytes looked at for a quote or a NUL just before, while
 * they are in the cache.  Labels are copied out (f->lab[k]: the stretch
 * that held them is read over) and put in R in order after the round;
 * s.line counts from 0, and blo + (s.p - buf) is where the part stopped
 * or ended.  No count first, so no second round. */
static void *fw_scan(void *arg)
{
    fw_part *fp = arg;
    csv_fastwin *f = fp->f;
    const size_t k = fp->k;
    const csv_rows *R = fp->R;
    fp->blo = fp->lo - (k > 0); /* part k > 0 starts after the first line end at or after lo - 1 */
    fp->blen = 0;
    fp->n = 0;
    f->lablen[k] = 0;
    int found = k == 0; /* the part's first row */
    size_t at = 0;      /* in buf: the next row's start, or where to look for the first */
    size_t look = 0;    /* in buf: no line end in [at, look) */
    for (;;) {
        char *buf = f->buf[k];
        if (look < at)
            look = at;
        const char *e = fp->blen > look ? memchr(buf + look, '\n', fp->blen - look) : NULL;
        const int ended = fp->blo + fp->blen >= fp->stop;
        if (!found && e != NULL) { /* the first row: after the first line end */
            at = (size_t)(e - buf) + 1;
            found = 1;
            continue;
        }
        if (found && fp->blo + at >= fp->hi)
            break; /* the rows that start before hi taken */
        if (found && (e != NULL || (ended && at < fp->blen))) {
            const size_t end = e != NULL ? (size_t)(e - buf) + 1 : fp->blen;
            buf[fp->blen] = '\0';
            fp->s.p = buf + at;
            fp->s.end = buf + fp->blen;
            char *lab = NULL;
            /* the scan takes no row with a quote (kpca_csv_scan_rows looks
             * first) or a NUL byte (the row reader's window refuses it as
             * it lands) */
            if (memchr(buf + at, '"', end - at) != NULL || memchr(buf + at, '\0', end - at) != NULL ||
                !kpca_csv_scan_row(&fp->s, R->ncols, R->col, NO_COLUMN, &lab, NULL)) {
                fp->stopped = 1;
                break;
            }
            if (R->col != NO_COLUMN && !keep_label(f, k, fp->n, lab, strlen(lab))) {
                fp->nomem = 1;
                return NULL;
            }
            fp->n++;
            at = (size_t)(fp->s.p - buf);
            continue;
        }
        if (ended || (!found && fp->blo + fp->blen >= fp->hi))
            break; /* the file's end, or no row starts in the part */
        /* read on: the partial row moved to the start (the bytes looked
         * through for the first row dropped), a stretch after it */
        look = fp->blen;
        if (!found)
            at = fp->blen;
        if (at > 0) {
            memmove(buf, buf + at, fp->blen - at);
            fp->blo += at;
            fp->blen -= at;
            look -= at;
            at = 0;
        }
        size_t want = fp->blen + (f->stretch != 0 ? f->stretch : FW_STRETCH);
        if (want > fp->stop - fp->blo)
            want = (size_t)(fp->stop - fp->blo);
        if (!fw_read(fp, want))
            return NULL;
    }
    fp->s.p = f->buf[k] + at;
    fp->read_ok = 1;
    return NULL;
}

/* The labels' pass over a window in one round (fw_scan), its parts' labels
 * put in R in order, up to the first row a part did not take
 * (kpca_csv_fastwin_next's contract). */
static kpca_status scan_window(csv_fastwin *f, fw_part *fp, size_t parts, csv_state *s, csv_rows *R,
                               unsigned long long *from, int *declined, kpca_error *err)
{
    for (size_t k = 0; k < parts; k++)
        fp[k].s = part_state(s, 0);
    kpca_crew_run(f->crew, fp, parts, sizeof fp[0], fw_scan);
    size_t rows = R->n;
    for (size_t k = 0; k < parts && fp[k].read_ok; k++) {
        if (fp[k].nomem)
            break;
        rows += fp[k].n;
        if (fp[k].stopped)
            break;
    }
    for (size_t k = 0; k < parts; k++)
        if (fp[k].nomem)
            return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", s->path);
    if (!kpca_csv_rows_room(R, rows, 0))
        return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s' (%zu rows)", s->path, rows);
    for (size_t k = 0; k < parts; k++) {
        if (!fp[k].read_ok) { /* the parts before the first that could not be read */
            *declined = 1;
            return KPCA_OK;
        }
        for (size_t j = 0; R->col != NO_COLUMN && j < fp[k].n; j++) {
            R->labtok[R->n + j] = f->lab[k] + f->loff[k][j];
            R->labline[R->n + j] = s->line + j;
        }
        R->n += fp[k].n;
        s->line += fp[k].s.line;
        if (fp[k].n > 0 || fp[k].stopped)
            *from = fp[k].blo + (unsigned long long)(fp[k].s.p - f->buf[k]);
        if (fp[k].stopped) {
            *declined = 1;
            return KPCA_OK;
        }
    }
    return KPCA_OK;
}

int kpca_csv_fastwin_open(csv_fastwin *f, const char *path)
{
    memset(f, 0, sizeof *f);
    struct stat st;
    /* a regular file before it is opened: opening a FIFO would wait for a writer */
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uintmax_t)st.st_size >= SIZE_MAX / 4) {
        if (fd >= 0)
            close(fd);
        return 0;
    }
    f->fd = fd;
    f->opened = 1;
    f->size = (unsigned long long)st.st_size;
    return 1;
}

void kpca_csv_fastwin_close(csv_fastwin *f)
{
    if (f->opened)
        close(f->fd);
    kpca_crew_free(f->crew);
    for (size_t k = 0; k < KPCA_PARTS_MAX; k++) {
        kpca_free(f->buf[k]);
        kpca_free(f->loff[k]);
        kpca_free(f->lab[k]);
    }
    memset(f, 0, sizeof *f);
}

kpca_status kpca_csv_fastwin_next(csv_fastwin *f, csv_state *s, csv_rows *R, unsigned long long *from,
                                  unsigned long long stop, size_t span, size_t want, size_t min_part, int scan,
                                  int *declined, kpca_error *err)
{
    *declined = 0;
    f->direct = 0;
    struct stat now; /* the text ends where the file does now, as the row reader reads it */
    if (fstat(f->fd, &now) == 0 && S_ISREG(now.st_mode) && (uintmax_t)now.st_size < SIZE_MAX / 4)
        f->size = (unsigned long long)now.st_size;
    if (stop > f->size)
        stop = f->size;
    if (*from >= stop)
        return KPCA_OK;
    if (span > stop - *from)
        span = (size_t)(stop - *from);
    const size_t parts = kpca_parts_plan(span, want, min_part);
    /* the threads the next windows use too (a larger crew after a jump
     * past a small first window) */
    kpca_crew_for(&f->crew, &f->crew_tried, parts);
    fw_part fp[KPCA_PARTS_MAX];
    for (size_t k = 0; k < parts; k++)
        fp[k] = (fw_part){.f = f, .k = k, .lo = *from + span / parts * k,
                          .hi = k + 1 < parts ? *from + span / parts * (k + 1) : *from + span, .stop = stop,
                          .R = R, .scan = scan};
    if (scan && R->index == NO_COLUMN)
        return scan_window(f, fp, parts, s, R, from, declined, err);
    kpca_crew_run(f->crew, fp, parts, sizeof fp[0], fw_count);
    for (size_t k = 0; k < parts; k++)
        if (fp[k].nomem)
            return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", s->path);
    /* each part's first row in R and its line: the rows before it (a row a line) */
    size_t rows = R->n, line = s->line, k = 0;
    for (; k < parts && fp[k].read_ok; k++) {
        fp[k].s = part_state(s, line);
        fp[k].at = rows;
        rows += fp[k].rows;
        line += fp[k].rows;
    }
    const size_t nparts = k; /* the parts before the first that could not be read */
    if (nparts == 0) {
        *declined = 1;
        return KPCA_OK;
    }
    /* the caller's rows, when the window's fit there */
    f->direct = f->dest != NULL && !scan && R->index == NO_COLUMN && R->n == 0 && rows <= f->dest_room;
    if (!kpca_csv_rows_room(R, rows, !f->direct && (!scan || R->index != NO_COLUMN)))
        return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s' (%zu rows)", s->path, rows);
    for (k = 0; k < nparts; k++)
        fp[k].x = f->direct ? f->dest : R->x;
    kpca_crew_run(f->crew, fp, nparts, sizeof fp[0], fw_parse);
    /* the parts' rows in order, up to the first row one did not take */
    for (k = 0; k < nparts; k++) {
        R->n = fp[k].at + fp[k].n;
        s->line = fp[k].s.line;
        if (fp[k].rows > 0 || fp[k].stopped)
            *from = fp[k].blo + (unsigned long long)(fp[k].s.p - f->buf[k]);
        if (fp[k].stopped) {
            *declined = 1;
            return KPCA_OK;
        }
    }
    *declined = nparts < parts;
    return KPCA_OK;
}

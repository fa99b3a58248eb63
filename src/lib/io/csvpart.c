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

/* Room in R for `rows` rows: their values (values 1) and, with a label
 * column, their labels' tokens and lines.  0 when out of memory (the
 * arrays as they were or grown; lcap what both label arrays hold). */
static int rows_room(csv_rows *R, size_t rows, int values)
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

kpca_status kpca_csv_read_parts(csv_state *s, csv_rows *R, int have, size_t parts, char *const *cut, const size_t *nl,
                              size_t lines, int scan, kpca_error *err)
{
    /* room for every row there can be (lines counts the first row, one per
     * line end after it, an unterminated last line and one more): no part's
     * rows move while others run, and part 0's reader never grows x */
    if (!rows_room(R, lines, 1)) /* the one-part reader grows as it goes */
        return scan ? kpca_csv_scan_rows(s, R, have, err) : kpca_csv_read_rows(s, R, have, 1, err);
    csv_part pt[KPCA_PARTS_MAX];
    char *end = s->end;
    size_t at = R->n + (have != 0), line = s->line;
    for (size_t k = 0; k < parts; k++) {
        csv_state ps = *s;
        ps.p = cut[k];
        ps.end = cut[k + 1];
        ps.line = line;
        ps.f = NULL;
        ps.fline = NULL;
        ps.nf = ps.capf = 0;
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
/* The streamed read (kpca_csv_stream).  The file's text after the first
 * row (or from it, when it holds data) is cut into parts of about equal
 * bytes; a first pass counts each part's line ends, so that every part
 * knows the row its lines start at (a line that is no row ends the
 * streamed read), then each part is parsed stretch by stretch into x. */
#define CSV_HEAD ((size_t)1 << 20) /* the first row is read from at most this much */
#define CSV_STRETCH ((size_t)1 << 20)
#define LABEL_SLOT (KPCA_CSV_LABEL_MAX + 1)

typedef struct {
    int fd;
    char *buf; /* 2 stretches + 1 bytes: a stretch read after a partial line */
    size_t stretch;
    off_t from, to; /* the bytes of this part */
    /* the count pass: line ends in [from, to), the first of them */
    size_t nl;
    off_t first_nl;
    /* the parse pass: rows [at, at + rows) of x, the first on `line` */
    csv_state s;
    size_t ncols, col, dim;
    double *x;
    char *slots;
    size_t *labline;
    size_t at, rows, n;
    int ok;
} stream_part;

/* kpca_pread_all, its errno left unread: a failed read is declined */
static int pread_all(int fd, char *dst, size_t len, off_t off)
{
    int errnum;
    return kpca_pread_all(fd, dst, len, off, &errnum);
}

static void *count_run(void *arg)
{
    stream_part *sp = arg;
    sp->nl = 0;
    sp->first_nl = -1;
    for (off_t at = sp->from; at < sp->to;) {
        size_t len = (size_t)(sp->to - at) < sp->stretch ? (size_t)(sp->to - at) : sp->stretch;
        if (!pread_all(sp->fd, sp->buf, len, at))
            return NULL;
        for (const char *q = sp->buf, *end = sp->buf + len; (q = memchr(q, '\n', (size_t)(end - q))) != NULL; q++) {
            if (sp->nl++ == 0)
                sp->first_nl = at + (q - sp->buf);
        }
        at += (off_t)len;
    }
    sp->ok = 1;
    return NULL;
}

/* The rows of [buf, buf + lim) (lim: after a line end, or the part's end),
 * each taken by the one-pass path: 1, or 0 at the first that is not. */
static int parse_lines(stream_part *sp, size_t lim)
{
    char save = sp->buf[lim]; /* a byte read, or the one past them, set to NUL by parse_run */
    sp->buf[lim] = '\0';
    sp->s.p = sp->buf;
    sp->s.end = sp->buf + lim;
    int ok = 1;
    while (ok && sp->s.p < sp->s.end) {
        size_t i = sp->at + sp->n, line = sp->s.line;
        char *ltok = NULL;
        if (sp->n == sp->rows || !kpca_csv_fast_row(&sp->s, sp->ncols, sp->col, sp->x + i * sp->dim, &ltok)) {
            ok = 0;
            break;
        }
        if (sp->col != NO_COLUMN) {
            size_t len = strlen(ltok);
            if (len > KPCA_CSV_LABEL_MAX) {
                ok = 0;
                break;
            }
            memcpy(sp->slots + i * LABEL_SLOT, ltok, len + 1);
            sp->labline[i] = line;
        }
        sp->n++;
    }
    sp->buf[lim] = save;
    return ok;
}

static void *parse_run(void *arg)
{
    stream_part *sp = arg;
    size_t carry = 0;
    off_t at = sp->from;
    sp->ok = 0;
    while (at < sp->to) {
        size_t len = (size_t)(sp->to - at) < sp->stretch ? (size_t)(sp->to - at) : sp->stretch;
        if (!pread_all(sp->fd, sp->buf + carry, len, at))
            return NULL;
        at += (off_t)len;
        size_t fill = carry + len, lim = fill;
        sp->buf[fill] = '\0';
        if (at < sp->to) { /* up to the last line end; the rest carried */
            while (lim > 0 && sp->buf[lim - 1] != '\n')
                lim--;
        }
        if (lim > 0 && !parse_lines(sp, lim))
            return NULL;
        carry = fill - lim;
        if (carry > sp->stretch)
            return NULL; /* a line longer than a stretch: no room to read on */
        memmove(sp->buf, sp->buf + lim, carry);
    }
    sp->ok = carry == 0 && sp->n == sp->rows;
    return NULL;
}

/* Runs fn on every part (an array of `parts` structs of `size` bytes),
 * parts 1.. on threads of their own; a part whose thread cannot start is
 * run here after the others. */
static void run_parts(void *part, size_t parts, size_t size, void *(*fn)(void *))
{
    pthread_t tid[KPCA_PARTS_MAX];
    int started[KPCA_PARTS_MAX] = {0};
    char *p = part;
    for (size_t k = 1; k < parts; k++)
        started[k] = pthread_create(&tid[k], NULL, fn, p + k * size) == 0;
    fn(p);
    for (size_t k = 1; k < parts; k++) {
        if (started[k])
            pthread_join(tid[k], NULL);
        else
            fn(p + k * size);
    }
}

int kpca_csv_stream(const char *path, char delim, const kpca_read_opts *opts, size_t parts, size_t min_part,
                    size_t stretch, kpca_dataset *ds, kpca_error *err)
{
    memset(ds, 0, sizeof *ds);
    if (stretch == 0)
        stretch = CSV_STRETCH;
    struct stat before, after;
    /* a regular file, large enough, before it is opened: opening a FIFO
     * would wait for a writer, and closing it would lose what it wrote */
    if (delim == ' ' || stat(path, &before) != 0 || !S_ISREG(before.st_mode) ||
        (uintmax_t)before.st_size >= SIZE_MAX / 4 || kpca_parts_plan((size_t)before.st_size, parts, min_part) < 2)
        return 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    char *head = NULL, *slots = NULL;
    stream_part sp[KPCA_PARTS_MAX];
    size_t nparts = 0;
    csv_rows R = {.col = NO_COLUMN, .index = NO_COLUMN};
    const char mark = opts != NULL && opts->decimal == ',' ? ',' : '.';
    csv_state s = {.path = path, .line = 1, .delim = ',', .mark = mark};
    int done = 0, header = 0;
    if (fstat(fd, &before) != 0 || !S_ISREG(before.st_mode) || (uintmax_t)before.st_size >= SIZE_MAX / 4)
        goto out;
    size_t size = (size_t)before.st_size, hlen = size < CSV_HEAD ? size : CSV_HEAD;
    char tail[3];
    if (kpca_parts_plan(size, parts, min_part) < 2 || hlen < 3 || !pread_all(fd, tail, 3, (off_t)size - 3) ||
        (tail[2] == '\n' && (tail[1] == '\n' || (tail[1] == '\r' && tail[0] == '\n'))))
        goto out; /* a blank line at the end, which the one-pass path does not take: read in memory */
    if ((head = kpca_malloc(hlen + 1)) == NULL || !pread_all(fd, head, hlen, 0))
        goto out;
    head[hlen] = '\0';
    if (kpca_codec_of((const unsigned char *)head, hlen) != KPCA_CODEC_NONE || memchr(head, '\0', hlen) != NULL)
        goto out; /* compressed, or binary data: read in memory */
    size_t hend = hlen;
    while (hend > 0 && head[hend - 1] != '\n')
        hend--;
    if (hend == 0)
        goto out; /* the first row is longer than the head */
    /* the text after a BOM and the lines --skip-rows skips (all in the head) */
    size_t skip = opts != NULL ? opts->skip_rows : 0, skipped = 0, bom = kpca_text_bom(head, hend);
    bom += kpca_textfile_skip(head + bom, hend - bom, skip, &skipped);
    if (skipped < skip || bom == hend)
        goto out; /* skipped past the head: read in memory */
    if (delim == 0)
        delim = kpca_csv_sniff(head + bom, (hlen < 65536 ? hlen : 65536) - bom, mark);
    if (delim == 0 && mark == ',')
        goto out; /* blanks between decimal-comma values: read in memory */
    s.delim = delim ? delim : ',';
    s.p = head + bom;
    s.end = head + hend;
    s.line = 1 + skipped;
    if (kpca_csv_first_row(&s, &R, opts, &header, err) != KPCA_OK || R.first_line != 1 + skipped || R.numbered)
        goto out;
    /* the streamed text: after the header, or from the first row */
    off_t body = (off_t)(header ? (size_t)(s.p - head) : bom);
    size_t body_line = header ? s.line : 1 + skipped;
    size_t np = kpca_parts_plan(size - (size_t)body, parts, min_part);
    if (np < 2)
        goto out; /* nparts stays 0: no part to free */
    nparts = np;
    for (size_t k = 0; k < nparts; k++) {
        size_t len = size - (size_t)body;
        memset(&sp[k], 0, sizeof sp[k]);
        sp[k].fd = fd;
        sp[k].buf = kpca_malloc(2 * stretch + 1);
        sp[k].stretch = stretch;
        sp[k].from = body + (off_t)(len / nparts * k);
        sp[k].to = k + 1 < nparts ? body + (off_t)(len / nparts * (k + 1)) : (off_t)size;
        if (sp[k].buf == NULL) {
            nparts = k + 1;
            goto out;
        }
    }
    run_parts(sp, nparts, sizeof sp[0], count_run);
    /* part k (k >= 1) starts after the first line end in its bytes */
    size_t rows = 0, line = body_line;
    int ends_nl = 0;
    char last;
    if (!pread_all(fd, &last, 1, (off_t)size - 1))
        goto out;
    ends_nl = last == '\n';
    for (size_t k = 0; k < nparts; k++)
        if (!sp[k].ok || (k > 0 && sp[k].first_nl < 0))
            goto out;
    for (size_t k = 0; k < nparts; k++) {
        off_t to = k + 1 < nparts ? sp[k + 1].first_nl + 1 : (off_t)size;
        size_t n = (k == 0 ? sp[k].nl : sp[k].nl - 1) + (k + 1 < nparts) + (k + 1 == nparts && !ends_nl);
        if (k > 0)
            sp[k].from = sp[k].first_nl + 1;
        sp[k].to = to;
        if (sp[k].from >= to)
            n = 0;
        sp[k].s = s;
        sp[k].s.f = NULL;
        sp[k].s.fline = NULL;
        sp[k].s.nf = sp[k].s.capf = 0;
        sp[k].s.line = line;
        sp[k].ncols = R.ncols;
        sp[k].col = R.col;
        sp[k].dim = R.dim;
        sp[k].at = rows;
        sp[k].rows = n;
        sp[k].n = 0;
        rows += n;
        line += n;
    }
    /* a row takes at least 2 bytes a field: more line ends than that are
     * blank lines, which the one-pass path does not take */
    if (rows == 0 || rows > (size - (size_t)body) / (2 * R.ncols) + 1)
        goto out;
    R.x = kpca_alloc_array(rows, R.dim, sizeof *R.x);
    if (R.col != NO_COLUMN) {
        slots = kpca_alloc_array(rows, LABEL_SLOT, 1);
        R.labtok = kpca_alloc_array(rows, 1, sizeof *R.labtok);
        R.labline = kpca_alloc_array(rows, 1, sizeof *R.labline);
    }
    if (R.x == NULL || (R.col != NO_COLUMN && (slots == NULL || R.labtok == NULL || R.labline == NULL)))
        goto out;
    for (size_t k = 0; k < nparts; k++) {
        sp[k].x = R.x;
        sp[k].slots = slots;
        sp[k].labline = R.labline;
    }
    run_parts(sp, nparts, sizeof sp[0], parse_run);
    for (size_t k = 0; k < nparts; k++)
        if (!sp[k].ok)
            goto out;
    /* the file as it was counted: else read it again, in memory */
    if (fstat(fd, &after) != 0 || after.st_size != before.st_size ||
        after.st_mtim.tv_sec != before.st_mtim.tv_sec || after.st_mtim.tv_nsec != before.st_mtim.tv_nsec)
        goto out;
    R.n = rows;
    for (size_t i = 0; R.col != NO_COLUMN && i < rows; i++)
        R.labtok[i] = slots + i * LABEL_SLOT;
    done = kpca_csv_finish(path, &R, ds, err) == KPCA_OK;
out:
    if (!done)
        kpca_dataset_free(ds);
    for (size_t k = 0; k < nparts; k++)
        kpca_free(sp[k].buf);
    kpca_csv_rows_free(&R);
    kpca_free(slots);
    kpca_free(s.f);
    kpca_free(s.fline);
    kpca_free(head);
    close(fd);
    return done;
}

/* ---- the row source's fast windows (kpca_csv_fastwin_next) ----------------
 * Part k of a span [from, from + span) is the rows that start in its
 * bytes [lo, hi): the first at lo for part 0 (a row's start), else after
 * the first line end at or after lo - 1.  A first round of threads reads
 * each part's bytes and counts its rows (one a line end before hi), so
 * that each knows the row its first lands at; a second parses them.  The
 * one-pass path takes no quote, so line ends before the first part that
 * stops are row ends, and the parts after it are dropped. */
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
    if (want > fp->blen && !pread_all(f->fd, f->buf[fp->k] + fp->blen, want - fp->blen, (off_t)(fp->blo + fp->blen)))
        return 0;
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
        double *row = values ? R->x + i * R->dim : NULL;
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

/* a round of the parts: on the crew's threads, else each on a thread
 * started for it */
static void fw_run(csv_fastwin *f, fw_part *fp, size_t parts, void *(*fn)(void *))
{
    if (f->crew != NULL)
        kpca_crew_run(f->crew, fp, parts, sizeof fp[0], fn);
    else
        run_parts(fp, parts, sizeof fp[0], fn);
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
    for (size_t k = 0; k < KPCA_PARTS_MAX; k++)
        kpca_free(f->buf[k]);
    memset(f, 0, sizeof *f);
}

kpca_status kpca_csv_fastwin_next(csv_fastwin *f, csv_state *s, csv_rows *R, unsigned long long *from,
                                  unsigned long long stop, size_t span, size_t want, size_t min_part, int scan,
                                  int *declined, kpca_error *err)
{
    *declined = 0;
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
    if (parts > 1 && !f->crew_tried) { /* the first window in parts starts the threads the next ones use */
        f->crew = kpca_crew_new(parts - 1);
        f->crew_tried = 1;
    }
    fw_part fp[KPCA_PARTS_MAX];
    for (size_t k = 0; k < parts; k++)
        fp[k] = (fw_part){.f = f, .k = k, .lo = *from + span / parts * k,
                          .hi = k + 1 < parts ? *from + span / parts * (k + 1) : *from + span, .stop = stop,
                          .R = R, .scan = scan};
    fw_run(f, fp, parts, fw_count);
    for (size_t k = 0; k < parts; k++)
        if (fp[k].nomem)
            return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", s->path);
    /* each part's first row in R and its line: the rows before it (a row a line) */
    size_t rows = R->n, line = s->line, k = 0;
    for (; k < parts && fp[k].read_ok; k++) {
        fp[k].s = *s;
        fp[k].s.f = NULL;
        fp[k].s.fline = NULL;
        fp[k].s.nf = fp[k].s.capf = 0;
        fp[k].s.line = line;
        fp[k].at = rows;
        rows += fp[k].rows;
        line += fp[k].rows;
    }
    const size_t nparts = k; /* the parts before the first that could not be read */
    if (nparts == 0) {
        *declined = 1;
        return KPCA_OK;
    }
    if (!rows_room(R, rows, !scan || R->index != NO_COLUMN))
        return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s' (%zu rows)", s->path, rows);
    fw_run(f, fp, nparts, fw_parse);
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

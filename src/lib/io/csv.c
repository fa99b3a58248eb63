/* csv.c - delimited text reader (see csv.h): the whole read, in one part
 * or in several (csvpart.c), or streamed from a large plain file, of the
 * rows csvrows.c parses. */
#include "io/csv.h"

#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/csvpart.h"
#include "io/csvrows.h"
#include "io/labels.h"
#include "text/bytes.h"
#include "text/csvtok.h"
#include "text/textfile.h"
#include "text/textnum.h"
#include "support/crew.h"
#include "support/mem.h"
#include "support/parts.h"


kpca_status kpca_read_csv_parts(const char *path, char delim, const kpca_read_opts *opts, size_t parts,
                                size_t min_part, size_t stretch, kpca_dataset *ds, kpca_error *err)
{
    memset(ds, 0, sizeof *ds);
    /* a large plain file: parsed as it is read, by one thread per CPU */
    if (stretch != KPCA_CSV_IN_MEMORY && kpca_csv_stream(path, delim, opts, parts, min_part, stretch, ds, err))
        return KPCA_OK;
    kpca_error_clear(err); /* what the streamed read saw before it gave up */
    char *buf;
    size_t len;
    kpca_status st = kpca_read_text_file(path, &buf, &len, err);
    if (st != KPCA_OK)
        return st;
    const char mark = opts != NULL && opts->decimal == ',' ? ',' : '.';
    /* --skip-rows: the text starts after the lines skipped, on the file's next line */
    const size_t skip = opts != NULL ? opts->skip_rows : 0;
    size_t skipped = 0, from = kpca_textfile_skip(buf, len, skip, &skipped);
    if (skip > 0 && from == len) {
        kpca_free(buf);
        return kpca_textfile_skip_fail(path, skipped, skip, err);
    }
    if (delim == 0)
        delim = kpca_csv_delim(buf + from, len - from, mark);
    csv_state s = {.path = path, .p = buf + from, .end = buf + len, .line = 1 + skipped,
                   .delim = delim ? delim : ',', .mark = mark};
    csv_rows R = {.col = NO_COLUMN, .index = NO_COLUMN};
    int header;
    if ((st = kpca_csv_first_row(&s, &R, opts, &header, err)) != KPCA_OK)
        goto done;
    /* room for the rows there can be: the row read, one per line left (and
     * the loop's look past the last), and no more than rows of ncols
     * one-character fields (when that allocation fails, x grows) */
    char *cut[KPCA_PARTS_MAX + 1];
    size_t nl[KPCA_PARTS_MAX];
    parts = kpca_csv_plan(&s, parts, min_part);
    size_t lines = 3 + kpca_csv_cut(&s, parts, cut, nl);
    size_t most = (size_t)(s.end - s.p) / (2 * R.ncols) + 3;
    if ((R.x = kpca_alloc_array(lines < most ? lines : most, R.dim, sizeof *R.x)) != NULL)
        R.xcap = (lines < most ? lines : most) * R.dim;
    if (parts > 1 && lines <= most)
        st = kpca_csv_read_parts(&s, &R, !header, parts, cut, nl, lines, 0, err);
    else
        st = kpca_csv_read_rows(&s, &R, !header, s.delim != ' ', err);
    if (st == KPCA_OK)
        st = kpca_csv_finish(path, &R, ds, err);
done:
    if (st != KPCA_OK)
        kpca_dataset_free(ds);
    kpca_csv_rows_free(&R);
    kpca_free(s.f);
    kpca_free(s.fline);
    kpca_free(buf);
    return st;
}

kpca_status kpca_read_csv(const char *path, char delim, const kpca_read_opts *opts, kpca_dataset *ds,
                          kpca_error *err)
{
    return kpca_read_csv_parts(path, delim, opts, 0, KPCA_PART_MIN, 0, ds, err);
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

static void *count_run(void *arg)
{
    stream_part *sp = arg;
    sp->nl = 0;
    sp->first_nl = -1;
    for (off_t at = sp->from; at < sp->to;) {
        size_t len = (size_t)(sp->to - at) < sp->stretch ? (size_t)(sp->to - at) : sp->stretch;
        if (!kpca_pread_all(sp->fd, sp->buf, len, at, NULL))
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
        if (!kpca_pread_all(sp->fd, sp->buf + carry, len, at, NULL))
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
    if (kpca_parts_plan(size, parts, min_part) < 2 || hlen < 3 ||
        !kpca_pread_all(fd, tail, 3, (off_t)size - 3, NULL) || /* (a failed read is declined) */
        (tail[2] == '\n' && (tail[1] == '\n' || (tail[1] == '\r' && tail[0] == '\n'))))
        goto out; /* a blank line at the end, which the one-pass path does not take: read in memory */
    if ((head = kpca_malloc(hlen + 1)) == NULL || !kpca_pread_all(fd, head, hlen, 0, NULL))
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
    kpca_crew_run(NULL, sp, nparts, sizeof sp[0], count_run);
    /* part k (k >= 1) starts after the first line end in its bytes */
    size_t rows = 0, line = body_line;
    int ends_nl = 0;
    char last;
    if (!kpca_pread_all(fd, &last, 1, (off_t)size - 1, NULL))
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
    kpca_crew_run(NULL, sp, nparts, sizeof sp[0], parse_run);
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

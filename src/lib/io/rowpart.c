/* rowpart.c - one text file read by several processes, each over its own
 * part (rowsrc.h: kpca_rowsrc_open_shared).
 *
 * Part p of P is the bytes [cut(p), cut(p + 1)) of the file, cut(p) the
 * first line start at or after byte p S / P (and after the first row);
 * cut(0) is 0 and cut(P) the size S.  A part passes once over its bytes
 * for its line ends and lines with more than blanks (the line each part
 * starts on, whether a data row comes before it), then parses its rows
 * with its reader jumped to its first byte and line (io/csvwin.h,
 * io/dataset.h), so that every row is checked once, by one part, with the
 * line number of the whole file.  Whether a cut fell inside a quoted field
 * is the parser's to say (text/csvtok.h's quoting rule has one home): the first
 * part that fails reads on past its end, and if its rows parse there, the
 * cut was inside a field and every part reads the whole file.  What a
 * single pass over the file decides (the row count, the labels' verdict
 * and the class names' order, the pandas index) is agreed from the parts'
 * facts, gathered in file order. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/rowpart.h"
#include "io/rowsrc_in.h"
#include "text/bytes.h"
#include "text/textnum.h"
#include "support/mem.h"

#define SCAN_BYTES ((size_t)1 << 20)

/* what a part tells the others */
typedef struct {
    unsigned long long bytes;    /* the part's bytes */
    unsigned long long lines;    /* line ends in the part */
    unsigned long long filled;   /* lines in it, after the first row, with more than blanks */
    unsigned long long failed;   /* its rows' pass failed */
    unsigned long long rows;     /* its rows */
    unsigned long long index_ok; /* the pandas index's values are integers there */
    kpca_labelmap_seen seen;     /* its labels */
} part_facts;

/* a plain regular file: *size its bytes; 0 for compressed text (text/bytes.h:
 * read whole by every process), a stream, a device */
static int plain_file(const char *path, unsigned long long *size)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    struct stat sb;
    unsigned char magic[6] = {0};
    ssize_t got = 0;
    int plain = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && (got = pread(fd, magic, sizeof magic, 0)) >= 0 &&
                kpca_codec_of(magic, (size_t)got) == KPCA_CODEC_NONE;
    *size = plain ? (unsigned long long)sb.st_size : 0;
    close(fd);
    return plain;
}

/* The first line start at or after byte q (>= 1): the byte after the first
 * line end at or after q - 1; size when there is none. */
static kpca_status line_start(int fd, const char *path, unsigned long long size, unsigned long long q, char *buf,
                              unsigned long long *at, kpca_error *err)
{
    size_t want = 4096; /* a line's worth, then more */
    for (unsigned long long from = q - 1; from < size; want = want < SCAN_BYTES ? 2 * want : want) {
        ssize_t got = pread(fd, buf, want, (off_t)from);
        if (got <= 0)
            return kpca_fail(err, KPCA_EIO, "cannot read '%s': %s", path, got < 0 ? strerror(errno) : "it shrank");
        const char *nl = memchr(buf, '\n', (size_t)got);
        if (nl != NULL) {
            *at = from + (unsigned long long)(nl - buf) + 1;
            return KPCA_OK;
        }
        from += (unsigned long long)got;
    }
    *at = size;
    return KPCA_OK;
}

/* The line ends of the bytes [from, to), and the lines at or after byte
 * `first` with more than blanks (csvrows.c's rule); with comments
 * (whitespace text, ESL or read as delimited text), not those whose first
 * byte that is no blank starts a comment (kpca_text_comment). */
static kpca_status scan_bytes(int fd, const char *path, unsigned long long from, unsigned long long to,
                              unsigned long long first, int comments, char *buf, part_facts *f, kpca_error *err)
{
    int filled = 0, comment = 0;
    while (from < to) {
        const size_t want = to - from < SCAN_BYTES ? (size_t)(to - from) : SCAN_BYTES;
        ssize_t got = pread(fd, buf, want, (off_t)from);
        if (got <= 0)
            return kpca_fail(err, KPCA_EIO, "cannot read '%s': %s", path, got < 0 ? strerror(errno) : "it shrank");
        for (ssize_t i = 0; i < got; i++) {
            const char c = buf[i];
            if (c == '\n') {
                f->lines++;
                f->filled += (unsigned long long)(filled && !comment);
                filled = comment = 0;
            } else if (!filled && !kpca_text_blank(c) && from + (unsigned long long)i >= first) {
                filled = 1;
                comment = kpca_text_comment(c, comments ? ' ' : ',');
            }
        }
        from += (unsigned long long)got;
    }
    f->filled += (unsigned long long)(filled && !comment);
    return KPCA_OK;
}

/* cut(p) of the file (see above); first: the byte after the first row */
static kpca_status cut_at(int fd, const char *path, unsigned long long size, unsigned long long first, int p,
                          int parts, char *buf, unsigned long long *at, kpca_error *err)
{
    if (p == 0 || p == parts) {
        *at = p == 0 ? 0 : size;
        return KPCA_OK;
    }
    const unsigned long long pp = (unsigned long long)p, np = (unsigned long long)parts;
    unsigned long long q = size / np * pp + size % np * pp / np;
    q = q > first ? q : first;
    return line_start(fd, path, size, q > 0 ? q : 1, buf, at, err);
}

/* The rows of the part [from, to) starting on line `line` (before: data
 * rows before it, 0 or more; only whether there are counts), each seen by
 * `each` (CSV), into *rows. */
typedef kpca_status (*window_fn)(kpca_rowsrc *s, csv_win *w, kpca_error *err);

static kpca_status part_pass(kpca_rowsrc *s, int first_part, unsigned long long from, unsigned long long to,
                             size_t line, size_t before, window_fn each, size_t *rows, kpca_error *err)
{
    kpca_status st = KPCA_OK;
    *rows = 0;
    if (s->kind == SRC_ESL) {
        if ((st = kpca_esl_rows_jump(s->esl, from, line, to, err)) != KPCA_OK)
            return st;
        int ended;
        s->at = 0;
        st = kpca_rowsrc_skip_to(s, (size_t)-1, &ended, err);
        *rows = s->at;
        return st;
    }
    csv_win *w = &s->win;
    if (first_part) /* from the file's start: the header, or the first row held */
        st = kpca_rowsrc_reader_open(s, err);
    else
        st = kpca_csv_win_jump(w, from, line, before, err);
    if (st != KPCA_OK)
        return st;
    kpca_csv_win_limit(w, to);
    int more = 1;
    while ((st = kpca_csv_win_next(w, &more, err)) == KPCA_OK && more && w->R.n > 0) {
        *rows += w->R.n;
        if (each != NULL && (st = each(s, w, err)) != KPCA_OK)
            break;
    }
    return st;
}

/* Every part's class names, in file order, numbered in the order they first
 * appear: the labels' map of the whole file (replacing s->labels); st: this
 * process's pass. */
static kpca_status agree_names(kpca_rowsrc *s, const kpca_rowsrc_share *sh, kpca_status st, kpca_error *err)
{
    size_t nn = 0, bytes = 0;
    char **names = st == KPCA_OK ? kpca_labelmap_names(s->labels, &nn) : NULL;
    for (size_t i = 0; i < nn; i++)
        bytes += strlen(names[i]) + 1;
    char *mine = kpca_malloc(bytes ? bytes : 1), *every = NULL;
    if (st == KPCA_OK && mine == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for the class names of '%s'", s->file);
    for (size_t i = 0, at = 0; st == KPCA_OK && i < nn; i++) {
        const size_t len = strlen(names[i]) + 1;
        memcpy(mine + at, names[i], len);
        at += len;
    }
    if ((st = sh->agree(sh->ctx, st, err)) == KPCA_OK)
        st = sh->gatherv(sh->ctx, mine, bytes, &every, &bytes, err);
    kpca_free(mine);
    kpca_labelmap *m = st == KPCA_OK ? kpca_labelmap_new() : NULL;
    if (st == KPCA_OK && m == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for the class names of '%s'", s->file);
    kpca_labelmap_seen seen; /* the whole file's verdict, which the part's map holds */
    if (st == KPCA_OK) {
        kpca_labelmap_seen_get(s->labels, &seen);
        kpca_labelmap_seen_add(m, &seen);
    }
    for (size_t at = 0; st == KPCA_OK && at < bytes; at += strlen(every + at) + 1)
        st = kpca_labelmap_name(m, s->file, every + at, err);
    kpca_free(every);
    if (st != KPCA_OK) {
        kpca_labelmap_free(m);
        return st;
    }
    kpca_labelmap_free(s->labels);
    s->labels = m;
    return KPCA_OK;
}

/* 1 when the rows from byte `from` (line `line`, after `before` data rows),
 * read on past the part's end, fail in a row that starts before line
 * `next` (the next part's first): the part's first error is the file's;
 * 0 when they do not (the part's end cut a quoted field). */
static int error_before(kpca_rowsrc *s, int first_part, unsigned long long from, size_t line, size_t before,
                        size_t next, kpca_status *st, kpca_error *err)
{
    csv_win *w = &s->win;
    kpca_error why;
    kpca_status rs = first_part ? kpca_rowsrc_reader_open(s, &why) : kpca_csv_win_jump(w, from, line, before, &why);
    int more = 1;
    while (rs == KPCA_OK && w->s.line < next && (rs = kpca_csv_win_next(w, &more, &why)) == KPCA_OK && more &&
           w->R.n > 0)
        ;
    if (rs == KPCA_OK || rs == KPCA_ENOMEM || w->s.row_line >= next)
        return 0;
    *st = rs; /* the row's error as the whole file's read finds it */
    if (err != NULL)
        *err = why;
    return 1;
}

/* The whole file's passes on every process, as kpca_rowsrc_open and
 * kpca_rowsrc_count make them (collective); after_parts: after a pass over
 * this process's part, which is undone first. */
static kpca_status whole_file(kpca_rowsrc *s, const kpca_rowsrc_share *sh, int after_parts, kpca_error *err)
{
    size_t n;
    kpca_status st = KPCA_OK;
    if (after_parts && s->kind == SRC_CSV) { /* after a pass over a part: as just opened */
        kpca_labelmap_free(s->labels);
        s->labels = NULL;
        if ((st = kpca_rowsrc_reader_open(s, err)) == KPCA_OK && s->win.R.col != NO_COLUMN &&
            (s->labels = kpca_labelmap_new()) == NULL)
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", s->file);
        s->index = s->win.R.index;
        s->at = 0;
    }
    if (st == KPCA_OK && s->part_open && s->kind == SRC_CSV)
        st = kpca_rowsrc_csv_passes(s, err);
    if (st == KPCA_OK)
        st = kpca_rowsrc_count(s, &n, err);
    return sh->agree(sh->ctx, st, err);
}

/* Whether every process cuts the file (collective): a process that sees
 * another kind of file than the others (a plain file where they see gzip,
 * another path's file) stops them all, instead of leaving them waiting in
 * collectives of their own. */
static kpca_status same_cut(const kpca_rowsrc_share *sh, int cut, unsigned long long size, const char *path,
                            kpca_error *err)
{
    unsigned long long mine[2] = {(unsigned long long)cut, size}, *all = kpca_calloc((size_t)sh->parts, sizeof mine);
    kpca_status st = sh->agree(sh->ctx, all == NULL ? kpca_fail(err, KPCA_ENOMEM, "out of memory") : KPCA_OK, err);
    if (st == KPCA_OK)
        sh->gather(sh->ctx, mine, sizeof mine, all);
    for (int p = 1; st == KPCA_OK && p < sh->parts; p++)
        if (all[2 * p] != all[0] || all[2 * p + 1] != all[1])
            st = kpca_fail(err, KPCA_EUSAGE, "'%s' is not the same file for every process (process %d reads it "
                           "%s, of %llu bytes; process 0 %s, of %llu bytes): give every process the same DATA", path,
                           p, all[2 * p] ? "in parts" : "whole", all[2 * p + 1], all[0] ? "in parts" : "whole",
                           all[1]);
    kpca_free(all);
    return st;
}

/* The parts' passes (collective). */
static kpca_status part_passes(kpca_rowsrc *s, const kpca_rowsrc_share *sh, unsigned long long size, kpca_error *err)
{
    const int me = sh->part, np = sh->parts, csv = s->kind == SRC_CSV;
    char *buf = kpca_malloc(SCAN_BYTES);
    part_facts mine, *all = kpca_calloc((size_t)np, sizeof *all);
    memset(&mine, 0, sizeof mine);
    kpca_status st = KPCA_OK;
    if (buf == NULL || all == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", s->file);
    int fd = st == KPCA_OK ? open(s->file, O_RDONLY) : -1;
    if (st == KPCA_OK && fd < 0)
        st = kpca_fail(err, KPCA_EIO, "cannot open '%s': %s", s->file, strerror(errno));
    /* the part's bytes and its line ends; whitespace text's from the byte
     * after the lines --skip-rows skips, on the line after them */
    unsigned long long first = 0, from = 0, to = 0, line = 1;
    if (csv) {
        first = kpca_csv_win_tell(&s->win);
    } else {
        size_t start_line;
        kpca_esl_rows_start(s->esl, &first, &start_line);
        line = start_line;
    }
    if (st == KPCA_OK)
        st = cut_at(fd, s->file, size, first, me, np, buf, &from, err);
    if (st == KPCA_OK && !csv && me == 0)
        from = first;
    if (st == KPCA_OK)
        st = cut_at(fd, s->file, size, first, me + 1, np, buf, &to, err);
    if (st == KPCA_OK)
        st = scan_bytes(fd, s->file, from, to, first, !csv || s->delim == ' ', buf, &mine, err);
    mine.bytes = to - from;
    if (fd >= 0)
        close(fd);
    kpca_free(buf);
    if ((st = sh->agree(sh->ctx, st, err)) != KPCA_OK) {
        kpca_free(all);
        return st;
    }
    sh->gather(sh->ctx, &mine, sizeof mine, all);
    /* the line each part starts on (and the next part's) */
    unsigned long long myline = 1, nextline = 1, filled = 0, filled_before = 0;
    for (int p = 0; p < np; p++) {
        myline = p == me ? line : myline;
        filled_before = p == me ? filled : filled_before;
        line += all[p].lines;
        nextline = p == me ? line : nextline;
        filled += all[p].filled;
    }
    /* the data rows before the part: whether there are (csvrows.c's first row rule) */
    const size_t some_before = me > 0 && (filled_before > 0 || s->win.have) ? 1 : 0;
    /* the rows, checked; the labels seen; the pandas index looked at */
    size_t rows = 0;
    const size_t index = csv ? s->index : NO_COLUMN;
    if (st == KPCA_OK)
        st = part_pass(s, me == 0, from, to, (size_t)myline, some_before, csv ? kpca_rowsrc_see_window : NULL, &rows,
                       err);
    mine.rows = rows;
    mine.index_ok = csv && s->index != NO_COLUMN;
    mine.failed = st != KPCA_OK;
    if (csv && s->labels != NULL)
        kpca_labelmap_seen_get(s->labels, &mine.seen);
    /* the first failing part's error is the file's first, unless its part
     * ends inside a quoted field (csvtok.h's quotes: no part knows by itself
     * whether it starts inside one); then every part reads the whole file */
    sh->gather(sh->ctx, &mine, sizeof mine, all);
    int f = 0;
    while (f < np && !all[f].failed)
        f++;
    if (f < np && csv && all[f].bytes > 0) { /* (every part knows f; f's verdict is sent to all) */
        int inside = f == me && st != KPCA_ENOMEM && to < size &&
                     !error_before(s, me == 0, from, (size_t)myline, some_before, (size_t)nextline, &st, err);
        if (f == me)
            mine.failed = (unsigned long long)inside;
        sh->gather(sh->ctx, &mine, sizeof mine, all);
        if (all[f].failed) { /* f's end is inside a quoted field */
            kpca_free(all);
            return whole_file(s, sh, 1, err);
        }
    }
    if ((st = sh->agree(sh->ctx, st, err)) != KPCA_OK) {
        kpca_free(all);
        return st;
    }
    size_t n = 0, before = 0;
    int index_ok = 1;
    for (int p = 0; p < np; p++) {
        before += p < me ? (size_t)all[p].rows : 0;
        n += (size_t)all[p].rows;
        index_ok = index_ok && all[p].index_ok;
    }
    if (csv) {
        int names = 0;
        s->index = index_ok ? index : NO_COLUMN;
        if (n == 0)
            st = kpca_fail(err, KPCA_EFORMAT, "'%s': no data rows (only a header)", s->file);
        if (st == KPCA_OK && s->labels != NULL) {
            /* the whole file's first pass: every part's, in file order, in
             * a map of its own that the part's names then go into (names,
             * though this part's labels may all look like numbers) */
            kpca_labelmap *v = kpca_labelmap_new();
            for (int p = 0; v != NULL && p < np; p++)
                kpca_labelmap_seen_add(v, &all[p].seen);
            kpca_labelmap_free(s->labels);
            s->labels = v;
            st = v == NULL ? kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", s->file)
                           : kpca_labelmap_verdict(v, s->file, s->win.R.col + 1, &names, err);
        }
        /* the verdict is every part's (from the same facts), its memory not */
        if ((st = sh->agree(sh->ctx, st, err)) == KPCA_OK && names) { /* the class names, numbered in the whole file's order */
            size_t again = 0;
            st = part_pass(s, me == 0, from, to, (size_t)myline, some_before, kpca_rowsrc_name_window, &again, err);
            st = agree_names(s, sh, st, err);
        }
        if (st == KPCA_OK)
            st = kpca_rowsrc_csv_describe(s, names, err);
    }
    kpca_free(all);
    s->parted = 1;
    s->mark_row = before;
    s->mark_line = (size_t)myline;
    s->mark_byte = from;
    s->part_rows = rows;
    s->info.n = n;
    s->counted = 1;
    if (st == KPCA_OK)
        st = kpca_rowsrc_to_mark(s, err);
    return sh->agree(sh->ctx, st, err);
}

kpca_status kpca_rowsrc_open_shared(const char *spec, const kpca_read_opts *opts, const kpca_rowsrc_share *sh,
                                    kpca_rowsrc **out, kpca_error *err)
{
    *out = NULL;
    kpca_rowsrc *s = NULL;
    kpca_status st = kpca_rowsrc_open_as(spec, opts, sh->parts > 1, &s, err);
    unsigned long long size = 0;
    const int cut = st == KPCA_OK && s->part_open && (s->kind == SRC_CSV || s->kind == SRC_ESL) &&
                    plain_file(s->file, &size);
    if ((st = sh->agree(sh->ctx, st, err)) == KPCA_OK && sh->parts > 1)
        st = same_cut(sh, cut, size, s->file, err);
    if (st == KPCA_OK && cut) {
        st = part_passes(s, sh, size, err);
    } else if (st == KPCA_OK) { /* gzip, LIBSVM, ...: the whole file's passes */
        st = whole_file(s, sh, 0, err);
    }
    if (st != KPCA_OK) {
        kpca_rowsrc_close(s);
        return st;
    }
    *out = s;
    return KPCA_OK;
}

int kpca_rowsrc_part(const kpca_rowsrc *src, size_t *first, size_t *count)
{
    *first = src->parted ? src->mark_row : 0;
    *count = src->parted ? src->part_rows : src->info.n;
    return src->parted;
}

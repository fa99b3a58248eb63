/* lines.c - the lines of a text file (lines.h). */
#include <string.h>

#include "text/lines.h"
#include "text/textfile.h"
#include "support/mem.h"

#define LR_MAX_LINE ((size_t)1 << 30)

kpca_status kpca_lines_open(kpca_lines *lr, const char *path, kpca_error *err)
{
    memset(lr, 0, sizeof *lr);
    lr->path = path;
    kpca_status st = kpca_bytes_open(path, &lr->bytes, err);
    if (st != KPCA_OK)
        return st;
    lr->cap = 65536;
    lr->buf = kpca_malloc(lr->cap);
    if (lr->buf == NULL) {
        kpca_bytes_close(lr->bytes);
        lr->bytes = NULL;
        return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
    }
    return KPCA_OK;
}

void kpca_lines_close(kpca_lines *lr)
{
    if (lr->bytes != NULL)
        kpca_bytes_close(lr->bytes);
    kpca_free(lr->buf);
    lr->bytes = NULL;
    lr->buf = NULL;
}

/* Cuts the line [pos, end) out of buf, NUL-terminates it (dropping a CR
 * before the LF) and checks it for NUL bytes. */
static int take(kpca_lines *lr, size_t end, size_t next, kpca_error *err)
{
    char *line = lr->buf + lr->pos;
    size_t len = end - lr->pos;
    lr->lineno++;
    size_t bom = 0; /* a UTF-8 byte-order mark is no part of the text */
    kpca_status st = lr->lineno == 1 ? kpca_textfile_head(lr->path, line, len, &bom, err) : KPCA_OK;
    if (st == KPCA_OK)
        st = kpca_textfile_nul(lr->path, line, 0, len, lr->lineno, err);
    if (st != KPCA_OK) {
        lr->status = st;
        return -1;
    }
    if (len > 0 && line[len - 1] == '\r')
        len--;
    line[len] = '\0';
    line += bom < len ? bom : len;
    lr->line = line;
    lr->pos = next;
    return 1;
}

int kpca_lines_next(kpca_lines *lr, kpca_error *err)
{
    size_t scanned = lr->pos;
    for (;;) {
        char *nl = memchr(lr->buf + scanned, '\n', lr->fill - scanned);
        if (nl != NULL) {
            size_t end = (size_t)(nl - lr->buf);
            return take(lr, end, end + 1, err);
        }
        if (lr->eof) {
            if (lr->pos == lr->fill)
                return 0;
            return take(lr, lr->fill, lr->fill, err); /* last line, no LF */
        }
        /* keep the partial line, make room, read another chunk */
        size_t keep = lr->fill - lr->pos;
        if (lr->pos > 0) {
            memmove(lr->buf, lr->buf + lr->pos, keep);
            lr->pos = 0;
            lr->fill = keep;
        }
        scanned = keep;
        if (lr->cap - lr->fill < 4096) {
            if (lr->cap >= LR_MAX_LINE) {
                lr->status = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: line longer than 1 GiB", lr->path,
                                       lr->lineno + 1);
                return -1;
            }
            char *nb = kpca_grow(lr->buf, &lr->cap, lr->cap + 1, 1, 0); /* doubles */
            if (nb == NULL) {
                lr->status =
                    kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s' line %zu", lr->path, lr->lineno + 1);
                return -1;
            }
            lr->buf = nb;
        }
        size_t room = lr->cap - lr->fill - 1; /* one byte for the final NUL */
        room = lr->limited && room > lr->left ? (size_t)lr->left : room;
        size_t got;
        kpca_status st = kpca_bytes_read(lr->bytes, lr->buf + lr->fill, room, lr->lineno + 1, &got, err);
        if (st != KPCA_OK) {
            lr->status = st;
            return -1;
        }
        if (got == 0)
            lr->eof = 1;
        lr->fill += got;
        lr->left -= lr->limited ? (unsigned long long)got : 0;
    }
}

kpca_status kpca_lines_jump(kpca_lines *lr, unsigned long long byte, size_t line, unsigned long long end,
                            kpca_error *err)
{
    if (kpca_bytes_seek(lr->bytes, byte) != 0)
        return kpca_fail(err, KPCA_EIO, "'%s': cannot seek to byte %llu", lr->path, byte);
    lr->status = KPCA_OK;
    lr->pos = lr->fill = 0;
    lr->eof = 0;
    lr->lineno = line - 1;
    lr->limited = end != 0;
    lr->left = end > byte ? end - byte : 0;
    return KPCA_OK;
}

unsigned long long kpca_lines_tell(const kpca_lines *lr)
{
    return kpca_bytes_tell(lr->bytes) - (lr->fill - lr->pos); /* the bytes read, less those not yet handed out */
}

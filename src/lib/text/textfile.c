/* textfile.c - the bytes of a text file, and their checks (see textfile.h). */
#include "text/textfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "text/bytes.h"
#include "text/textnum.h"
#include "support/mem.h"
#include "support/parts.h"

kpca_status kpca_textfile_head(const char *path, const char *p, size_t n, size_t *bom, kpca_error *err)
{
    if (bom != NULL)
        *bom = 0;
    const char *wide = kpca_text_wide((const unsigned char *)p, n);
    if (wide != NULL)
        return kpca_text_wide_fail(path, wide, err);
    if (bom != NULL)
        *bom = kpca_text_bom(p, n);
    return KPCA_OK;
}

kpca_status kpca_textfile_nul(const char *path, const char *text, size_t from, size_t len, size_t line,
                              kpca_error *err)
{
    const char *nul = from < len ? memchr(text + from, '\0', len - from) : NULL;
    if (nul == NULL)
        return KPCA_OK;
    for (const char *p = text; p < nul; p++)
        line += *p == '\n';
    return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: contains a NUL byte (binary data?)", path, line);
}

size_t kpca_textfile_skip(const char *text, size_t len, size_t n, size_t *lines)
{
    size_t at = 0, k = 0;
    while (k < n && at < len) {
        const char *nl = memchr(text + at, '\n', len - at);
        at = nl != NULL ? (size_t)(nl - text) + 1 : len;
        k++;
    }
    *lines = k;
    return at;
}

kpca_status kpca_textfile_skip_fail(const char *path, size_t lines, size_t n, kpca_error *err)
{
    return kpca_fail(err, KPCA_EUSAGE, "'%s' has only %zu line%s: --skip-rows %zu leaves no data to read", path,
                     lines, lines == 1 ? "" : "s", n);
}

static int has_nul(const void *bytes, size_t len)
{
    return memchr(bytes, '\0', len) != NULL;
}

/* Reads the size bytes of the plain file path into buf in parts, one
 * thread each (support/parts.h).  1 when every byte was read and the file
 * ends there; 0 when it could not be read so (a part failed, the file
 * changed size, too small to cut): the caller then reads it as a stream.
 * On success *nul is 0 when no NUL byte is in it (looked for as it
 * landed), else 1. */
static int read_in_parts(const char *path, char *buf, size_t size, int *nul)
{
    if (kpca_parts_plan(size, 0, KPCA_PART_MIN) < 2)
        return 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    int errnum;
    int flagged;
    int ok = kpca_pread_parts(fd, buf, size, 0, 1, KPCA_PART_MIN, has_nul, &flagged, &errnum);
    char extra;
    ssize_t more;
    while ((more = pread(fd, &extra, 1, (off_t)size)) < 0 && errno == EINTR)
        ;
    close(fd);
    if (!ok || more != 0)
        return 0;
    *nul = flagged;
    return 1;
}

kpca_status kpca_read_text_file(const char *path, char **out, size_t *len, kpca_error *err)
{
    *out = NULL;
    *len = 0;
    kpca_bytes *b;
    kpca_status st = kpca_bytes_open(path, &b, err);
    if (st != KPCA_OK)
        return st;
    size_t cap = 0, fill = 0;
    char *buf = NULL;
    int maybe_nul = 1; /* 0 once a read in parts found none */
    struct stat sb;
    /* a plain file is read whole into one block of its size (large blocks
     * get huge pages: support/mem.h), not grown and copied as it comes */
    if (kpca_bytes_codec(b) == KPCA_CODEC_NONE && stat(path, &sb) == 0 && S_ISREG(sb.st_mode) &&
        (uintmax_t)sb.st_size < SIZE_MAX / 2 &&
        (buf = kpca_malloc((size_t)sb.st_size + 65536 + 2)) != NULL) {
        cap = (size_t)sb.st_size + 65536 + 2;
        if (read_in_parts(path, buf, (size_t)sb.st_size, &maybe_nul)) {
            fill = (size_t)sb.st_size;
            goto whole;
        }
    }
    for (;;) {
        if (cap - fill < 4096 + 1) { /* grown only when nearly full: a small file takes one small buffer */
            char *nb = kpca_grow(buf, &cap, fill + 65536 + 1, 1, 65536 + 1);
            if (nb == NULL) {
                kpca_bytes_close(b);
                kpca_free(buf);
                return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s' (%zu bytes)", path, fill);
            }
            buf = nb;
        }
        size_t got;
        if ((st = kpca_bytes_read(b, buf + fill, cap - fill - 1, 0, &got, err)) != KPCA_OK) {
            kpca_bytes_close(b);
            kpca_free(buf);
            return st;
        }
        if (got == 0)
            break;
        fill += (size_t)got;
    }
whole:
    kpca_bytes_close(b);
    buf[fill] = '\0';
    size_t bom;
    if ((st = kpca_textfile_head(path, buf, fill, &bom, err)) == KPCA_OK && maybe_nul)
        st = kpca_textfile_nul(path, buf, bom, fill, 1, err);
    if (st != KPCA_OK) {
        kpca_free(buf);
        return st;
    }
    if (bom > 0) { /* what follows the mark is the text */
        memmove(buf, buf + bom, fill - bom + 1);
        fill -= bom;
    }
    *out = buf;
    *len = fill;
    return KPCA_OK;
}

kpca_status kpca_textfile_count_rows(const char *path, size_t skip, size_t *n, kpca_error *err)
{
    *n = 0;
    kpca_bytes *b;
    kpca_status st = kpca_bytes_open(path, &b, err);
    if (st != KPCA_OK)
        return st;
    const size_t cap = (size_t)1 << 20;
    char *buf = kpca_malloc(cap);
    if (buf == NULL) {
        kpca_bytes_close(b);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
    }
    size_t rows = 0, lines = 0, got; /* lines: the line ends before the stretch (damage is near the next) */
    int seen = 0, first = 1; /* the line so far: blanks (0), a row (1), a comment (2); the first stretch */
    while ((st = kpca_bytes_read(b, buf, cap, lines + 1, &got, err)) == KPCA_OK && got > 0) {
        size_t at = first ? kpca_text_bom(buf, got) : 0;
        first = 0;
        while (at < got) {
            const char *nl = memchr(buf + at, '\n', got - at);
            const size_t end = nl != NULL ? (size_t)(nl - buf) : got;
            for (size_t i = at; !seen && i < end; i++)
                seen = kpca_text_blank(buf[i]) ? 0 : kpca_text_comment(buf[i], ' ') ? 2 : 1;
            if (nl == NULL)
                break;
            rows += (size_t)(seen == 1 && lines >= skip);
            lines++;
            seen = 0;
            at = end + 1;
        }
    }
    rows += (size_t)(seen == 1 && lines >= skip); /* a last line without a line end */
    kpca_free(buf);
    kpca_bytes_close(b);
    if (st == KPCA_OK)
        *n = rows;
    return st;
}

/* bytes.c - a file's bytes, plain or compressed (bytes.h): zlib's gzFile
 * for plain files and streams, zlib's inflate, libbz2, liblzma and libzstd
 * for the compressed files, each behind one read that fills the caller's
 * buffer. */
#include "text/bytes.h"

#include <bzlib.h>
#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "support/mem.h"

#define IN_CAP ((size_t)128 << 10)

struct kpca_bytes {
    char *path;
    kpca_codec codec;
    gzFile gz; /* NONE (a stream: gzip or not, as zlib finds it) */
    FILE *fp;  /* GZIP, BZIP2, XZ, ZSTD: the compressed bytes */
    unsigned char *in;
    size_t in_len, in_pos;
    int in_eof;
    int started;  /* a decoder is set up (bzip2: inside a stream) */
    int pending;  /* zstd: a frame begun and not ended */
    int padding;  /* gzip: zero bytes seen after the last member */
    const char *late; /* gzip: damage found after text this read handed out, for the next read */
    int z_ready;  /* gzip: z set up (reset for each member) */
    z_stream z;
    bz_stream bz;
    lzma_stream xz;
    ZSTD_DStream *zs;
    unsigned long long pos; /* text bytes handed out */
    kpca_status failed;
    char msg[KPCA_ERRMSG_MAX];
};

kpca_codec kpca_bytes_codec(const kpca_bytes *b)
{
    return b->codec;
}

/* sets up (again) the decoder of b's codec: 0, or -1 out of memory */
static int decoder_start(kpca_bytes *b)
{
    switch (b->codec) {
    case KPCA_CODEC_GZIP:
        if (b->z_ready)
            return inflateReset(&b->z) == Z_OK ? 0 : -1;
        memset(&b->z, 0, sizeof b->z);
        if (inflateInit2(&b->z, 15 + 16) != Z_OK) /* (gzip only) */
            return -1;
        b->z_ready = 1;
        return 0;
    case KPCA_CODEC_BZIP2:
        memset(&b->bz, 0, sizeof b->bz);
        return BZ2_bzDecompressInit(&b->bz, 0, 0) == BZ_OK ? 0 : -1;
    case KPCA_CODEC_XZ:
        b->xz = (lzma_stream)LZMA_STREAM_INIT;
        return lzma_stream_decoder(&b->xz, UINT64_MAX, LZMA_CONCATENATED) == LZMA_OK ? 0 : -1;
    case KPCA_CODEC_ZSTD:
        if (b->zs == NULL && (b->zs = ZSTD_createDStream()) == NULL)
            return -1;
        return ZSTD_isError(ZSTD_initDStream(b->zs)) ? -1 : 0;
    default: return 0;
    }
}

static void decoder_end(kpca_bytes *b)
{
    if (!b->started)
        return;
    if (b->codec == KPCA_CODEC_BZIP2)
        BZ2_bzDecompressEnd(&b->bz);
    else if (b->codec == KPCA_CODEC_XZ)
        lzma_end(&b->xz);
    b->started = 0;
}

void kpca_bytes_close(kpca_bytes *b)
{
    if (b == NULL)
        return;
    decoder_end(b);
    if (b->z_ready)
        inflateEnd(&b->z);
    if (b->zs != NULL)
        ZSTD_freeDStream(b->zs);
    if (b->gz != NULL)
        gzclose(b->gz);
    if (b->fp != NULL)
        fclose(b->fp);
    kpca_free(b->in);
    kpca_free(b->path);
    kpca_free(b);
}

kpca_status kpca_bytes_open(const char *path, kpca_bytes **out, kpca_error *err)
{
    *out = NULL;
    kpca_bytes *b = kpca_calloc(1, sizeof *b);
    if (b == NULL || (b->path = kpca_strdup(path)) == NULL) {
        kpca_free(b);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
    }
    /* opened once: a FIFO read by a library caller gives its bytes once
     * (the commands spool streams into files first) */
    errno = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        const int e = errno;
        kpca_bytes_close(b);
        return kpca_fail(err, e == ENOMEM ? KPCA_ENOMEM : KPCA_EIO, "cannot open '%s': %s", path,
                         e ? strerror(e) : "open failed");
    }
    /* the magic number of a regular file, read in place; a stream goes
     * through zlib, which reads gzip or plain text */
    struct stat sb;
    unsigned char head[6];
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode)) {
        const ssize_t n = pread(fd, head, sizeof head, 0);
        b->codec = kpca_codec_of(head, n > 0 ? (size_t)n : 0);
    }
    if (b->codec == KPCA_CODEC_NONE) {
        b->gz = gzdopen(fd, "rb"); /* (owns fd from here) */
        if (b->gz == NULL)
            close(fd);
    } else if ((b->fp = fdopen(fd, "rb")) == NULL) {
        close(fd);
    }
    if (b->gz == NULL && b->fp == NULL) {
        kpca_bytes_close(b);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
    }
    if (b->fp != NULL && (b->in = kpca_malloc(IN_CAP)) == NULL) {
        kpca_bytes_close(b);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
    }
    *out = b;
    return KPCA_OK;
}

/* Keeps b's damage (why) as its error from now on, and reports it. */
static kpca_status damaged(kpca_bytes *b, kpca_status st, const char *why, size_t near_line, kpca_error *err)
{
    if (b->codec == KPCA_CODEC_NONE)
        snprintf(b->msg, sizeof b->msg, "cannot read '%s': %s", b->path, why);
    else if (near_line != 0)
        snprintf(b->msg, sizeof b->msg, "'%s' near line %zu: corrupt or truncated %s data (%s)", b->path, near_line,
                 kpca_codec_name(b->codec), why);
    else
        snprintf(b->msg, sizeof b->msg, "'%s': corrupt or truncated %s data (%s)", b->path,
                 kpca_codec_name(b->codec), why);
    b->failed = st;
    return kpca_fail(err, st, "%s", b->msg);
}

static kpca_status gz_read(kpca_bytes *b, void *buf, size_t room, size_t near_line, size_t *got, kpca_error *err)
{
    int n = gzread(b->gz, buf, (unsigned)(room > (1u << 30) ? (1u << 30) : room));
    if (n > 0) {
        *got = (size_t)n;
        return KPCA_OK;
    }
    int zerr = Z_OK;
    const char *msg = gzerror(b->gz, &zerr);
    if ((zerr == Z_OK || zerr == Z_STREAM_END) && n == 0)
        return KPCA_OK;
    const char *why = msg != NULL && *msg != '\0' && zerr != Z_OK ? msg : "read error";
    /* zlib's message begins with the name it was opened by, "<fd:N>: "
     * (gzdopen): the file is named already, and N varies */
    if (strncmp(why, "<fd:", 4) == 0 && strstr(why, ": ") != NULL)
        why = strstr(why, ": ") + 2;
    kpca_status st = damaged(b, zerr == Z_MEM_ERROR ? KPCA_ENOMEM : KPCA_EFORMAT, why, near_line, err);
    b->failed = KPCA_OK; /* zlib keeps its own error state */
    return st;
}

/* Between gzip members (avail > 0 bytes of b->in left): 1 when another
 * member begins there (a first byte 1f: inflate checks the rest of its
 * header); else 0, past zero bytes, which may pad the file to its end as
 * tar pads (gzip reads on silently), or -1 at the first other byte: bytes
 * after the last member, which gunzip ignores with a warning and kpca
 * refuses, as it does after the last bzip2, xz or zstd stream. */
static int gz_between(kpca_bytes *b, const char **why)
{
    if (!b->padding && b->in[b->in_pos] == 0x1f)
        return 1;
    while (b->in_pos < b->in_len && b->in[b->in_pos] == 0)
        b->in_pos++;
    b->padding = 1;
    if (b->in_pos == b->in_len)
        return 0;
    *why = "bytes after the last member are not gzip data";
    return -1;
}

/* one step of inflate (decode below) */
static int gz_decode(kpca_bytes *b, unsigned char *out, size_t room, size_t *made, const char **why)
{
    b->z.next_in = b->in + b->in_pos;
    b->z.avail_in = (uInt)(b->in_len - b->in_pos);
    b->z.next_out = out;
    b->z.avail_out = (uInt)room;
    const int r = inflate(&b->z, Z_NO_FLUSH);
    b->in_pos = b->in_len - b->z.avail_in;
    *made = room - b->z.avail_out;
    if (r == Z_STREAM_END) { /* another member may follow */
        decoder_end(b);
        return 0;
    }
    if (r == Z_OK && (*made > 0 || b->z.avail_in > 0 || !b->in_eof))
        return 0;
    if (r == Z_BUF_ERROR && b->z.avail_in == 0 && !b->in_eof) /* (more to read first) */
        return 0;
    *why = r == Z_OK || r == Z_BUF_ERROR ? "unexpected end of file"
           : r == Z_MEM_ERROR ? "out of memory"
           : r == Z_DATA_ERROR && b->z.msg != NULL ? b->z.msg : "bad data";
    return -1;
}

/* one step of the decoder over b->in into [out, out + room): *made bytes
 * out; 1 at the end of the text, 0 to go on, -1 on damage (*why) */
static int decode(kpca_bytes *b, unsigned char *out, size_t room, size_t *made, const char **why)
{
    const size_t avail = b->in_len - b->in_pos;
    *made = 0;
    if (!b->started) {
        if (avail == 0)
            return b->in_eof ? 1 : 0; /* the end, between streams; or more to read first */
        if (b->codec == KPCA_CODEC_GZIP) { /* (the first member begins with 1f: its magic number) */
            const int next = gz_between(b, why);
            if (next <= 0)
                return next;
        }
        if (decoder_start(b) != 0) {
            *why = "out of memory";
            return -1;
        }
        b->started = 1;
    }
    room = room > (1u << 30) ? (1u << 30) : room;
    if (b->codec == KPCA_CODEC_GZIP)
        return gz_decode(b, out, room, made, why);
    if (b->codec == KPCA_CODEC_BZIP2) {
        b->bz.next_in = (char *)b->in + b->in_pos;
        b->bz.avail_in = (unsigned)avail;
        b->bz.next_out = (char *)out;
        b->bz.avail_out = (unsigned)room;
        const int r = BZ2_bzDecompress(&b->bz);
        b->in_pos = b->in_len - b->bz.avail_in;
        *made = room - b->bz.avail_out;
        if (r == BZ_STREAM_END) { /* another stream may follow */
            decoder_end(b);
            return 0;
        }
        if (r == BZ_OK && (*made > 0 || b->bz.avail_in > 0 || !b->in_eof))
            return 0;
        *why = r == BZ_OK ? "the file ends inside a stream"
               : r == BZ_DATA_ERROR_MAGIC ? "not bzip2 data"
               : r == BZ_MEM_ERROR ? "out of memory" : "bad data";
        return -1;
    }
    if (b->codec == KPCA_CODEC_XZ) {
        b->xz.next_in = b->in + b->in_pos;
        b->xz.avail_in = avail;
        b->xz.next_out = out;
        b->xz.avail_out = room;
        const lzma_ret r = lzma_code(&b->xz, b->in_eof ? LZMA_FINISH : LZMA_RUN);
        b->in_pos = b->in_len - b->xz.avail_in;
        *made = room - b->xz.avail_out;
        if (r == LZMA_STREAM_END) {
            decoder_end(b);
            b->in_pos = b->in_len; /* (LZMA_CONCATENATED: the last stream and its padding) */
            b->in_eof = 1;
            return *made > 0 ? 0 : 1;
        }
        if (r == LZMA_OK)
            return 0;
        *why = r == LZMA_BUF_ERROR ? "the file ends inside a stream"
               : r == LZMA_MEM_ERROR ? "out of memory"
               : r == LZMA_FORMAT_ERROR ? "not xz data" : "bad data";
        return -1;
    }
    ZSTD_inBuffer in = {b->in + b->in_pos, avail, 0};
    ZSTD_outBuffer o = {out, room, 0};
    const size_t r = ZSTD_decompressStream(b->zs, &o, &in);
    b->in_pos += in.pos;
    *made = o.pos;
    if (ZSTD_isError(r)) {
        *why = ZSTD_getErrorName(r);
        return -1;
    }
    if (in.pos > 0 || o.pos > 0) /* (a call that does nothing answers with the next frame's header size) */
        b->pending = r != 0;
    if (*made > 0 || b->in_pos < b->in_len || !b->in_eof)
        return 0;
    if (b->pending) {
        *why = "the file ends inside a frame";
        return -1;
    }
    return 1;
}

kpca_status kpca_bytes_read(kpca_bytes *b, void *buf, size_t room, size_t near_line, size_t *got, kpca_error *err)
{
    *got = 0;
    if (b->failed != KPCA_OK)
        return kpca_fail(err, b->failed, "%s", b->msg);
    if (b->late != NULL)
        return damaged(b, strcmp(b->late, "out of memory") == 0 ? KPCA_ENOMEM : KPCA_EFORMAT, b->late, near_line, err);
    if (b->gz != NULL) {
        kpca_status st = gz_read(b, buf, room, near_line, got, err);
        b->pos += *got;
        return st;
    }
    unsigned char *out = buf;
    while (*got < room) {
        if (b->in_pos == b->in_len && !b->in_eof) {
            b->in_len = fread(b->in, 1, IN_CAP, b->fp);
            b->in_pos = 0;
            if (b->in_len == 0) {
                if (ferror(b->fp))
                    return damaged(b, KPCA_EIO, strerror(errno ? errno : EIO), near_line, err);
                b->in_eof = 1;
            }
        }
        size_t made;
        const char *why = "";
        const int r = decode(b, out + *got, room - *got, &made, &why);
        if (r < 0 && b->codec == KPCA_CODEC_GZIP && *got > 0) {
            /* the text before the damage first, and the damage at the next
             * read, with the line near it (as zlib's gzread does) */
            b->late = why;
            break;
        }
        *got += made;
        if (r < 0) {
            *got = 0;
            return damaged(b, strcmp(why, "out of memory") == 0 ? KPCA_ENOMEM : KPCA_EFORMAT, why, near_line, err);
        }
        if (r > 0)
            break; /* the end */
    }
    b->pos += *got;
    return KPCA_OK;
}

int kpca_bytes_seek(kpca_bytes *b, unsigned long long off)
{
    if (b->gz != NULL) {
        if (gzseek(b->gz, (z_off_t)off, SEEK_SET) < 0)
            return -1;
        b->pos = off;
        return 0;
    }
    if (off < b->pos || b->failed != KPCA_OK) { /* from the start again */
        decoder_end(b);
        if (fseek(b->fp, 0, SEEK_SET) != 0)
            return -1;
        clearerr(b->fp);
        b->in_len = b->in_pos = 0;
        b->in_eof = b->pending = b->padding = 0;
        b->late = NULL;
        b->pos = 0;
        b->failed = KPCA_OK;
    }
    char skip[16384];
    while (b->pos < off) {
        const unsigned long long left = off - b->pos;
        size_t got;
        if (kpca_bytes_read(b, skip, left < sizeof skip ? (size_t)left : sizeof skip, 0, &got, NULL) != KPCA_OK)
            return -1;
        if (got == 0) /* past the end: there, as zlib seeks a plain file */
            b->pos = off;
    }
    return 0;
}

unsigned long long kpca_bytes_tell(const kpca_bytes *b)
{
    return b->pos;
}

/* source.c - what an input argument names, and the spool (see source.h). */
#include "file/source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "file/atomic.h"
#include "file/magic.h"
#include "support/mem.h"

#define GIB (1ULL << 30)

/* the spool's cap (kpca_spool_set_limit): set 0, the default */
static int limit_set;
static unsigned long long limit_bytes;

void kpca_spool_set_limit(int set, unsigned long long bytes)
{
    limit_set = set;
    limit_bytes = bytes;
}

/* the most bytes a spool in dir may take (0: no cap), and what it is in
 * words, for the message */
static unsigned long long spool_cap(const char *dir, char *what, size_t cap)
{
    if (limit_set) {
        snprintf(what, cap, "--spool-limit or KPCA_SPOOL_LIMIT");
        return limit_bytes;
    }
    struct statvfs vs;
    if (statvfs(dir, &vs) != 0) {
        snprintf(what, cap, "no cap: the free space of %s is not known", dir);
        return 0;
    }
    const unsigned long long avail = (unsigned long long)vs.f_bavail * (unsigned long long)vs.f_frsize;
    snprintf(what, cap, "the free space of %s, %llu bytes, less 1 GiB", dir, avail);
    return avail > GIB ? avail - GIB : 1; /* (no room: the first byte is over) */
}

kpca_status kpca_split_spec(const char *spec, char **file, const char **group, kpca_error *err)
{
    struct stat st;
    *group = NULL;
    const char *colon = strrchr(spec, ':');
    if (colon != NULL && stat(spec, &st) != 0) {
        size_t len = (size_t)(colon - spec);
        char *f = kpca_malloc(len + 1);
        if (f == NULL)
            return kpca_fail(err, KPCA_ENOMEM, "out of memory");
        memcpy(f, spec, len);
        f[len] = '\0';
        if (stat(f, &st) == 0) {
            *file = f;
            *group = colon + 1;
            return KPCA_OK;
        }
        kpca_free(f);
    }
    size_t len = strlen(spec);
    char *f = kpca_malloc(len + 1);
    if (f == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory");
    memcpy(f, spec, len + 1);
    *file = f;
    return KPCA_OK;
}

const char *kpca_source_name(const char *path)
{
    return strcmp(path, "-") == 0 ? KPCA_STDIN_NAME : path;
}

int kpca_source_is_stream(const char *path)
{
    struct stat st;
    if (strcmp(path, "-") == 0)
        return 1;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* The temporary directory and how the message names it: "TMPDIR '/x'", or
 * "'/tmp' (TMPDIR is not set)" */
static const char *tmp_dir(char *said, size_t cap)
{
    const char *dir = getenv("TMPDIR");
    if (dir != NULL && dir[0] != '\0') {
        snprintf(said, cap, "TMPDIR '%s'", dir);
        return dir;
    }
    snprintf(said, cap, "'/tmp' (TMPDIR is not set)");
    return "/tmp";
}

/* writes all of buf[0..len) to fd, counting what is written in *done; 0,
 * or -1 with errno */
static int write_all(int fd, const char *buf, size_t len, unsigned long long *done)
{
    while (len > 0) {
        ssize_t w = write(fd, buf, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO;
            return -1;
        }
        buf += w;
        len -= (size_t)w;
        *done += (unsigned long long)w;
    }
    return 0;
}

/* "/proc/self/fd/N" of sp->fd into sp->path when it reaches the same file
 * (not where /proc is not mounted); 0 or -1 */
static int proc_path(kpca_spool *sp)
{
    char p[40];
    struct stat a, b;
    snprintf(p, sizeof p, "/proc/self/fd/%d", sp->fd);
    if (fstat(sp->fd, &a) != 0 || stat(p, &b) != 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino)
        return -1;
    sp->path = kpca_strdup(p);
    return sp->path != NULL ? 0 : -1;
}

/* copies src to its end into the spool sp->fd; on error the message names
 * the stream and the directory */
/* Copies the stream src into the spool: its first block must be text
 * (no NUL byte) or a format kpca knows (file/magic.h), and the whole at
 * most `cap` bytes (0: no cap; what: the cap in words). */
static kpca_status copy_stream(int src, kpca_spool *sp, const char *said, unsigned long long cap, const char *what,
                               kpca_error *err)
{
    char buf[65536];
    for (;;) {
        ssize_t got = read(src, buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return kpca_fail(err, KPCA_EIO, "cannot read '%s': %s", sp->name, strerror(errno));
        if (got == 0)
            return KPCA_OK;
        const unsigned char *u = (const unsigned char *)buf;
        if (sp->bytes == 0 && memchr(buf, '\0', (size_t)got) != NULL && !kpca_magic_known(u, (size_t)got))
            return kpca_fail(err, KPCA_EFORMAT,
                             "'%s' starts with bytes %02x %02x %02x %02x...: neither text nor a format kpca reads "
                             "(" KPCA_FORMATS_READ ")",
                             sp->name, u[0], got > 1 ? u[1] : 0, got > 2 ? u[2] : 0, got > 3 ? u[3] : 0);
        if (cap != 0 && sp->bytes + (unsigned long long)got > cap)
            return kpca_fail_limit(err,
                             "'%s' is more than a stream may take on disk: %llu bytes, the cap (%s), read and more "
                             "to come (kpca keeps a stream in %s to read it; give a file, set TMPDIR to a larger "
                             "disk, or raise the cap with --spool-limit SIZE or KPCA_SPOOL_LIMIT)",
                             sp->name, cap, what, said);
        if (write_all(sp->fd, buf, (size_t)got, &sp->bytes) != 0)
            return kpca_fail(err, KPCA_EIO,
                             "cannot copy '%s' into %s after %llu bytes: %s (kpca keeps a stream on disk to read it "
                             "once; set TMPDIR to a directory with room for all of it)",
                             sp->name, said, sp->bytes, strerror(errno));
    }
}

/* the temporary file of sp, made in the temporary directory and tracked */
static kpca_status make_temp(kpca_spool *sp, const char *said, const char *dir, kpca_error *err)
{
    size_t len = strlen(dir) + sizeof "/kpca-spool.XXXXXX";
    if ((sp->path = kpca_malloc(len)) == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory");
    snprintf(sp->path, len, "%s/kpca-spool.XXXXXX", dir);
    if ((sp->fd = mkstemp(sp->path)) < 0 || kpca_atomic_track(sp->path) != 0) {
        int e = sp->fd < 0 ? errno : EMFILE;
        if (sp->fd >= 0) {
            unlink(sp->path);
            close(sp->fd);
            sp->fd = -1;
        }
        return kpca_fail(err, KPCA_EIO,
                         "cannot create a temporary file in %s to read '%s' into: %s (kpca keeps a stream on disk to "
                         "read it once; set TMPDIR to a writable directory with room for all of it)",
                         said, sp->name, strerror(e));
    }
    sp->temporary = 1;
    if (fcntl(sp->fd, F_SETFD, FD_CLOEXEC) != 0)
        return kpca_fail(err, KPCA_EIO, "cannot read '%s': %s", sp->name, strerror(errno));
    return KPCA_OK;
}

kpca_status kpca_spool_open(const char *path, kpca_spool *sp, kpca_error *err)
{
    const int is_stdin = strcmp(path, "-") == 0;
    struct stat st;
    memset(sp, 0, sizeof *sp);
    sp->fd = -1;
    if ((sp->name = kpca_strdup(kpca_source_name(path))) == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory");
    /* standard input redirected from a file, unread: that file is the spool */
    if (is_stdin && fstat(0, &st) == 0 && S_ISREG(st.st_mode) && lseek(0, 0, SEEK_CUR) == 0 &&
        (sp->fd = fcntl(0, F_DUPFD_CLOEXEC, 3)) >= 0) {
        sp->bytes = (unsigned long long)st.st_size;
        sp->src_dev = st.st_dev;
        sp->src_ino = st.st_ino;
        if (proc_path(sp) == 0)
            return KPCA_OK;
        close(sp->fd); /* no /proc: copied as any stream */
        sp->fd = -1;
    }
    int src = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);
    kpca_status rst = KPCA_OK;
    if (src < 0)
        rst = kpca_fail(err, KPCA_EIO, "cannot open '%s': %s", sp->name, strerror(errno));
    else if (isatty(src))
        rst = kpca_fail(err, KPCA_EIO, "'%s' is a terminal: pipe the data in (cat data.csv | kpca ...) or give a "
                                       "file", sp->name);
    if (rst == KPCA_OK && fstat(src, &st) == 0) {
        sp->src_dev = st.st_dev;
        sp->src_ino = st.st_ino;
    }
    char said[4200], what[4400];
    const char *dir = tmp_dir(said, sizeof said);
    const unsigned long long cap = spool_cap(dir, what, sizeof what);
    if (rst == KPCA_OK)
        rst = make_temp(sp, said, dir, err);
    if (rst == KPCA_OK)
        rst = copy_stream(src, sp, said, cap, what, err);
    if (src > 0)
        close(src);
    if (rst != KPCA_OK)
        kpca_spool_close(sp);
    return rst;
}

void kpca_spool_close(kpca_spool *sp)
{
    if (sp->temporary && sp->path != NULL) {
        unlink(sp->path);
        kpca_atomic_untrack(sp->path);
    }
    if (sp->fd >= 0 && sp->path != NULL) /* a zeroed spool does not own descriptor 0 */
        close(sp->fd);
    kpca_free(sp->path);
    kpca_free(sp->name);
    sp->fd = -1;
    sp->path = sp->name = NULL;
    sp->temporary = 0;
}

kpca_status kpca_spool_spec(const char *spec, kpca_spool *sp, char **spooled, kpca_error *err)
{
    memset(sp, 0, sizeof *sp);
    sp->fd = -1;
    *spooled = NULL;
    char *file = NULL;
    const char *group = NULL;
    kpca_status st = kpca_split_spec(spec, &file, &group, err);
    if (st != KPCA_OK || !kpca_source_is_stream(file)) {
        kpca_free(file);
        return st;
    }
    st = kpca_spool_open(file, sp, err);
    kpca_free(file);
    if (st != KPCA_OK)
        return st;
    size_t len = strlen(sp->path) + (group != NULL ? 1 + strlen(group) : 0) + 1;
    if ((*spooled = kpca_malloc(len)) == NULL) {
        kpca_spool_close(sp);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory");
    }
    snprintf(*spooled, len, "%s%s%s", sp->path, group != NULL ? ":" : "", group != NULL ? group : "");
    return KPCA_OK;
}

kpca_status kpca_spool_finish(kpca_spool *sp, kpca_status st, kpca_error *err)
{
    if (st != KPCA_OK && err != NULL && sp->path != NULL && sp->name != NULL) {
        char msg[KPCA_ERRMSG_MAX];
        kpca_source_rename(err->msg, sp->path, sp->name, msg, sizeof msg);
        memcpy(err->msg, msg, sizeof msg);
    }
    kpca_spool_close(sp);
    return st;
}

size_t kpca_source_rename(const char *text, const char *from, const char *to, char *out, size_t cap)
{
    const size_t flen = strlen(from), tlen = strlen(to);
    size_t n = 0;
    for (const char *p = text; *p != '\0';) {
        const char *piece = p;
        size_t len = 1;
        if (flen > 0 && strncmp(p, from, flen) == 0 && !(p[flen] >= '0' && p[flen] <= '9')) {
            piece = to;
            len = tlen;
            p += flen;
        } else {
            p++;
        }
        for (size_t i = 0; i < len; i++, n++)
            if (n + 1 < cap)
                out[n] = piece[i];
    }
    if (cap > 0)
        out[n < cap ? n : cap - 1] = '\0';
    return n;
}

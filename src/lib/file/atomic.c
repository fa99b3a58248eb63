#include "file/atomic.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/mem.h"

/* the temporary files in existence (outputs in progress, spools), for
 * signal handlers */
static const char *volatile pending[KPCA_ATOMIC_MAX_PENDING];

const char *kpca_atomic_pending(size_t i)
{
    return i < KPCA_ATOMIC_MAX_PENDING ? pending[i] : NULL;
}

int kpca_atomic_track(const char *tmp)
{
    for (size_t i = 0; i < KPCA_ATOMIC_MAX_PENDING; i++)
        if (pending[i] == NULL) {
            pending[i] = tmp;
            return 0;
        }
    return -1;
}

void kpca_atomic_untrack(const char *tmp)
{
    for (size_t i = 0; i < KPCA_ATOMIC_MAX_PENDING; i++)
        if (pending[i] == tmp)
            pending[i] = NULL;
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = kpca_malloc(n);
    if (d != NULL)
        memcpy(d, s, n);
    return d;
}

static void release(kpca_atomic *a)
{
    kpca_free(a->final);
    kpca_free(a->tmp);
    memset(a, 0, sizeof *a);
}

kpca_status kpca_atomic_begin(kpca_atomic *a, const char *path, kpca_error *err)
{
    memset(a, 0, sizeof *a);
    if (path[0] == '\0')
        return kpca_fail(err, KPCA_EUSAGE, "empty output file name");
    struct stat st;
    if (strcmp(path, "-") == 0) {
        a->fp = stdout;
        return KPCA_OK;
    }
    /* a device or FIFO, through a link too (/dev/stdout on a pipe, whose
     * link leads to no path): write in place */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        if ((a->final = dup_str(path)) == NULL)
            return kpca_fail(err, KPCA_ENOMEM, "out of memory");
        if ((a->fp = fopen(path, "w")) == NULL) {
            int e = errno;
            release(a);
            return kpca_fail(err, KPCA_EIO, "cannot open '%s': %s", path, strerror(e));
        }
        return KPCA_OK;
    }
    /* a symbolic link: replace what it points to and keep the link */
    char *target = NULL;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        char *real = realpath(path, NULL);
        if (real == NULL)
            return kpca_fail(err, KPCA_EIO, "cannot write '%s': a symbolic link to a missing place", path);
        target = dup_str(real);
        free(real);
        if (target == NULL)
            return kpca_fail(err, KPCA_ENOMEM, "out of memory");
    }
    a->final = target != NULL ? target : dup_str(path);
    if (a->final == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory");
    if (stat(a->final, &st) == 0 && S_ISDIR(st.st_mode)) {
        release(a);
        return kpca_fail(err, KPCA_EIO, "cannot write '%s': Is a directory", path);
    }
    const char *slash = strrchr(a->final, '/');
    size_t dirlen = slash ? (size_t)(slash - a->final + 1) : 0;
    const char *base = a->final + dirlen;
    size_t len = dirlen + 1 + strlen(base) + strlen(".tmp.XXXXXX") + 1;
    a->tmp = kpca_malloc(len);
    if (a->tmp == NULL) {
        release(a);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory");
    }
    snprintf(a->tmp, len, "%.*s.%s.tmp.XXXXXX", (int)dirlen, a->final, base);
    int fd = mkstemp(a->tmp);
    if (fd < 0) {
        int e = errno;
        release(a);
        return kpca_fail(err, KPCA_EIO, "cannot create '%s': %s", path, strerror(e));
    }
    if (kpca_atomic_track(a->tmp) != 0) {
        close(fd);
        unlink(a->tmp);
        release(a);
        return kpca_fail(err, KPCA_EINTERNAL, "more than %d outputs in progress", KPCA_ATOMIC_MAX_PENDING);
    }
    mode_t um = umask(0); /* mkstemp makes 0600: give the file the usual mode */
    umask(um);
    (void)fchmod(fd, 0666 & ~um);
    a->fp = fdopen(fd, "w");
    if (a->fp == NULL) {
        int e = errno;
        close(fd);
        kpca_atomic_abort(a);
        return kpca_fail(err, KPCA_EIO, "cannot create '%s': %s", path, strerror(e));
    }
    return KPCA_OK;
}

kpca_status kpca_atomic_close(kpca_atomic *a, kpca_error *err)
{
    kpca_status st = KPCA_OK;
    if (a->fp == NULL) /* closed already */
        return KPCA_OK;
    if (a->fp == stdout) {
        if (fflush(stdout) != 0 || ferror(stdout)) {
            st = kpca_fail(err, KPCA_EIO, "cannot write to standard output: %s", strerror(errno));
            release(a);
            return st;
        }
        a->fp = NULL;
        return KPCA_OK;
    }
    errno = 0;
    int bad = ferror(a->fp) || fflush(a->fp) != 0;
    int e = errno;
    if (!bad && a->tmp != NULL && fsync(fileno(a->fp)) != 0 && errno != EINVAL)
        bad = 1, e = errno;
    if (fclose(a->fp) != 0 && !bad)
        bad = 1, e = errno;
    a->fp = NULL;
    if (bad) {
        st = kpca_fail(err, KPCA_EIO, "cannot write '%s': %s", a->final, strerror(e ? e : EIO));
        kpca_atomic_abort(a);
        return st;
    }
    return KPCA_OK;
}

kpca_status kpca_atomic_commit(kpca_atomic *a, kpca_error *err)
{
    kpca_status st = kpca_atomic_close(a, err);
    if (st != KPCA_OK)
        return st;
    if (a->tmp != NULL && rename(a->tmp, a->final) != 0) {
        st = kpca_fail(err, KPCA_EIO, "cannot create '%s': %s", a->final, strerror(errno));
        kpca_atomic_abort(a);
        return st;
    }
    if (a->tmp != NULL)
        kpca_atomic_untrack(a->tmp);
    release(a);
    return KPCA_OK;
}

void kpca_atomic_abort(kpca_atomic *a)
{
    if (a->fp != NULL && a->fp != stdout)
        fclose(a->fp);
    if (a->tmp != NULL) {
        unlink(a->tmp);
        kpca_atomic_untrack(a->tmp);
    }
    release(a);
}

kpca_status kpca_atomic_check(const char *path, kpca_error *err)
{
    struct stat st;
    if (strcmp(path, "-") == 0)
        return KPCA_OK;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
        return KPCA_OK;
    kpca_atomic a;
    kpca_status s = kpca_atomic_begin(&a, path, err);
    if (s == KPCA_OK)
        kpca_atomic_abort(&a);
    return s;
}

/* parts.c - work cut into parts, one thread each (see parts.h). */
#include "support/parts.h"

#include <errno.h>
#include <unistd.h>

size_t kpca_parts_plan(size_t len, size_t want, size_t min_part)
{
    size_t parts = want;
    if (parts == 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        parts = cpus > 1 ? (size_t)cpus : 1;
    }
    if (parts > KPCA_PARTS_MAX)
        parts = KPCA_PARTS_MAX;
    if (min_part > 0 && len / min_part < parts)
        parts = len / min_part;
    return parts > 0 ? parts : 1;
}

/* a stretch: read and scanned while it is in the cache */
#define STRETCH ((size_t)1 << 20)

typedef struct {
    int fd;
    char *dst;
    size_t len, got, unit;
    off_t off;
    kpca_part_scan scan;
    int flagged;
    int err; /* errno of a failed pread, else 0 */
} pread_part;

int kpca_pread_all(int fd, void *dst, size_t len, off_t off, int *errnum)
{
    char *d = dst;
    while (len > 0) {
        ssize_t r = pread(fd, d, len, off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (errnum != NULL)
                *errnum = r < 0 ? errno : 0;
            return 0;
        }
        d += r;
        len -= (size_t)r;
        off += r;
    }
    return 1;
}

static void *pread_run(void *arg)
{
    pread_part *rp = arg;
    size_t stretch = STRETCH > rp->unit ? STRETCH / rp->unit * rp->unit : rp->unit;
    while (rp->got < rp->len) {
        size_t want = rp->len - rp->got < stretch ? rp->len - rp->got : stretch, whole = want / rp->unit * rp->unit;
        if (!kpca_pread_all(rp->fd, rp->dst + rp->got, want, rp->off + (off_t)rp->got, &rp->err))
            break;
        if (rp->scan != NULL && whole > 0 && rp->scan(rp->dst + rp->got, whole))
            rp->flagged = 1;
        rp->got += want;
    }
    return NULL;
}

int kpca_pread_parts(int fd, void *buf, size_t size, off_t off, size_t unit, size_t min_part, kpca_part_scan scan,
                     int *flagged, int *errnum)
{
    return kpca_pread_parts_on(NULL, fd, buf, size, off, unit, min_part, scan, flagged, errnum);
}

int kpca_pread_parts_on(kpca_crew *crew, int fd, void *buf, size_t size, off_t off, size_t unit, size_t min_part,
                        kpca_part_scan scan, int *flagged, int *errnum)
{
    if (unit == 0)
        unit = 1;
    size_t parts = kpca_parts_plan(size, 0, min_part), units = size / unit;
    pread_part rp[KPCA_PARTS_MAX];
    for (size_t k = 0; k < parts; k++) {
        size_t a = units / parts * k * unit, b = k + 1 < parts ? units / parts * (k + 1) * unit : size;
        rp[k] = (pread_part){fd, (char *)buf + a, b - a, 0, unit, off + (off_t)a, scan, 0, 0};
    }
    kpca_crew_run(crew, rp, parts, sizeof rp[0], pread_run);
    int ok = 1;
    *errnum = 0;
    *flagged = 0;
    for (size_t k = 0; k < parts; k++) {
        *flagged |= rp[k].flagged;
        if (ok && (rp[k].err != 0 || rp[k].got != rp[k].len)) {
            ok = 0;
            *errnum = rp[k].err;
        }
    }
    return ok;
}

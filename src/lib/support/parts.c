/* parts.c - work cut into parts, one thread each (see parts.h). */
#include "support/parts.h"

#include <errno.h>
#include <pthread.h>
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
    pthread_t tid;
    int started;
} pread_part;

static void *pread_run(void *arg)
{
    pread_part *rp = arg;
    size_t stretch = STRETCH > rp->unit ? STRETCH / rp->unit * rp->unit : rp->unit, done = 0; /* scanned */
    while (rp->got < rp->len) {
        size_t want = rp->len - rp->got < stretch ? rp->len - rp->got : stretch;
        ssize_t r = pread(rp->fd, rp->dst + rp->got, want, rp->off + (off_t)rp->got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            rp->err = errno;
        if (r <= 0)
            break;
        rp->got += (size_t)r;
        size_t upto = rp->got / rp->unit * rp->unit;
        if (rp->scan != NULL && upto > done && rp->scan(rp->dst + done, upto - done))
            rp->flagged = 1;
        done = upto;
    }
    return NULL;
}

int kpca_pread_parts(int fd, void *buf, size_t size, off_t off, size_t unit, kpca_part_scan scan, int *flagged,
                     int *errnum)
{
    if (unit == 0)
        unit = 1;
    size_t parts = kpca_parts_plan(size, 0, KPCA_PART_MIN), units = size / unit;
    pread_part rp[KPCA_PARTS_MAX];
    for (size_t k = 0; k < parts; k++) {
        size_t a = units / parts * k * unit, b = k + 1 < parts ? units / parts * (k + 1) * unit : size;
        rp[k] = (pread_part){fd, (char *)buf + a, b - a, 0, unit, off + (off_t)a, scan, 0, 0, pthread_self(), 0};
    }
    for (size_t k = 1; k < parts; k++)
        rp[k].started = pthread_create(&rp[k].tid, NULL, pread_run, &rp[k]) == 0;
    pread_run(&rp[0]);
    int ok = 1;
    *errnum = 0;
    *flagged = 0;
    for (size_t k = 0; k < parts; k++) {
        if (k > 0 && rp[k].started)
            pthread_join(rp[k].tid, NULL);
        else if (k > 0)
            pread_run(&rp[k]);
        *flagged |= rp[k].flagged;
        if (ok && (rp[k].err != 0 || rp[k].got != rp[k].len)) {
            ok = 0;
            *errnum = rp[k].err;
        }
    }
    return ok;
}

/* parts.h - work cut into parts, one thread each: the part-count rule and
 * a plain file's bytes read by threads.
 *
 * Large reads (a CSV's text, a .npy's values) are cut into parts of at
 * least a few MiB, one per online CPU and at most KPCA_PARTS_MAX, so that
 * the copy out of the page cache and the first touch of fresh pages run on
 * every core.  This is the one home of that rule. */
#ifndef KPCA_PARTS_H
#define KPCA_PARTS_H

#include <stddef.h>
#include <sys/types.h>

#include "support/crew.h"

#define KPCA_PARTS_MAX KPCA_CREW_PARTS_MAX
#define KPCA_PART_MIN ((size_t)4 << 20) /* bytes: below, a thread costs more than it saves */
/* bytes of a plain copy out of the page cache (a streamed .npy's block):
 * about 0.1 ms of copying, three times a thread's start */
#define KPCA_PREAD_PART_MIN ((size_t)1 << 20)

/* How many parts `len` bytes are cut into: `want` (0: one per online CPU),
 * at most KPCA_PARTS_MAX, and no more than len / min_part (min_part 0: any
 * size).  At least 1.  O(1). */
size_t kpca_parts_plan(size_t len, size_t want, size_t min_part);

/* Reads exactly len bytes at offset off of fd into dst (EINTR retried): 1;
 * 0 when a read failed (its errno in *errnum) or the file ended first
 * (*errnum 0).  errnum NULL: the caller declines a failed read whatever
 * its cause. */
int kpca_pread_all(int fd, void *dst, size_t len, off_t off, int *errnum);

/* A check run on each stretch of a read as it lands (while it is in the
 * cache): nonzero when the stretch holds something the caller must look
 * at (a NUL byte, a value that is not finite).  Called concurrently from
 * several threads: it must only read its arguments. */
typedef int (*kpca_part_scan)(const void *bytes, size_t len);

/* Reads the `size` bytes at offset `off` of the open file fd into buf, in
 * kpca_parts_plan(size, 0, min_part) parts, one thread each (the
 * caller's thread takes the first; a thread that cannot start has its part
 * read by the caller).  Parts and stretches start at multiples of `unit`
 * bytes (1, or an element's size); scan (may be NULL) sees every whole
 * unit (not a last partial one when size is no multiple of unit), and
 * *flagged is 1 when it returned nonzero for any stretch.  1 when every byte
 * was read; 0 when a read failed or the file ended first (errno of the
 * failure in *errnum, 0 for an early end).  Allocates nothing; buf is the
 * caller's. */
int kpca_pread_parts(int fd, void *buf, size_t size, off_t off, size_t unit, size_t min_part, kpca_part_scan scan,
                     int *flagged, int *errnum);

/* kpca_pread_parts with its parts on crew's threads (support/crew.h; NULL:
 * threads started for this read): for a reader that reads block after
 * block, so that each block does not start its threads again. */
int kpca_pread_parts_on(kpca_crew *crew, int fd, void *buf, size_t size, off_t off, size_t unit, size_t min_part,
                        kpca_part_scan scan, int *flagged, int *errnum);

#endif

/* source.h - what an input argument names: "FILE", or "FILE:GROUP" for a
 * group of an HDF5 file; and the spool, through which a stream (standard
 * input, a pipe, a FIFO, a character device) is read exactly once.  No
 * printing. */
#ifndef KPCA_SOURCE_H
#define KPCA_SOURCE_H

#include <sys/types.h>

#include "support/error.h"

/* Splits "FILE:GROUP" when FILE exists and FILE:GROUP does not.  Writes a
 * newly allocated file name to *file and a pointer into spec (or NULL) to
 * *group. */
kpca_status kpca_split_spec(const char *spec, char **file, const char **group, kpca_error *err);

/* The name standard input ("-") goes by in messages and records. */
#define KPCA_STDIN_NAME "<stdin>"

/* The name of the file `path` in messages: KPCA_STDIN_NAME for "-", else
 * path itself. */
const char *kpca_source_name(const char *path);

/* 1 when `path` (a file name, not FILE:GROUP) must be spooled before it is
 * read: "-" (standard input), or an existing path that is neither a regular
 * file nor a directory (a pipe such as /dev/fd/63 of `<(cmd)`, a FIFO, a
 * character device).  0 otherwise: regular files, directories and missing
 * paths are read (or refused) by their readers.  One stat(); opens nothing. */
int kpca_source_is_stream(const char *path);

/* A stream read once, whole, into a temporary file on disk.  Every reader
 * (which opens files by name, some several times: format sniffing,
 * threaded preads, gzip, HDF5, .npy) opens `path`, a regular file, as long
 * as the spool is open.  The file has a name because libhdf5 (1.10) takes
 * the real path of what it opens, which an unlinked file reached through
 * /proc/self/fd/N does not have. */
typedef struct {
    int fd;                     /* open on the spool; -1: none (closed) */
    char *path;                 /* the spool's path (owned) */
    char *name;                 /* the stream's name in messages (owned) */
    int temporary;              /* 1: path is a temporary file, removed on close */
    unsigned long long bytes;   /* its size */
    dev_t src_dev;              /* the stream's device and inode (fstat of */
    ino_t src_ino;              /* what was read), to tell one named twice */
} kpca_spool;

/* Reads the stream `path` ("-": file descriptor 0, left open; else opened
 * with open(2), which for a FIFO waits for a writer as any reader does) to
 * its end into a temporary file made with mkstemp in $TMPDIR (/tmp when
 * unset or empty) as kpca-spool.XXXXXX, mode 0600, and removed by
 * kpca_spool_close; until then it is on the list of temporary files that
 * kpca's signal handlers remove (kpca_atomic_track, file/atomic.h).
 * Standard input that is a regular file at offset 0 (`kpca fit - <x.csv`)
 * is not copied: the spool is /proc/self/fd/N of a duplicate of descriptor
 * 0 (a copy is made where /proc is not mounted).  A terminal is refused
 * (nobody types data).  Cost: one pass over the stream through a 64 KiB
 * buffer on the stack (no heap beyond the names, no memory budget: memory
 * does not grow with the input); disk: the input's size in $TMPDIR.
 * Ownership: the caller closes the spool with kpca_spool_close (the
 * descriptor is close-on-exec).  Errors (messages name the stream as
 * kpca_source_name does): KPCA_EIO when the stream cannot be opened or
 * read or is a terminal, or when no temporary file can be created or
 * written in $TMPDIR (a full disk, a missing or read-only directory: the
 * message names TMPDIR and its value); KPCA_EFORMAT when its first block
 * holds a NUL byte and no format kpca knows (file/magic.h: /dev/zero,
 * /dev/urandom), at once; KPCA_ENOMEM, with the sizes, when it is larger
 * than the cap (kpca_spool_set_limit), and for the names.  On error *sp is
 * closed (fd -1) and nothing is left on disk. */
kpca_status kpca_spool_open(const char *path, kpca_spool *sp, kpca_error *err);

/* The most bytes kpca_spool_open copies of a stream: set 1 with bytes (0:
 * no cap), or set 0 for the default, the free space of the spool's
 * directory less 1 GiB when the spool opens.  Process-wide. */
void kpca_spool_set_limit(int set, unsigned long long bytes);

/* Closes the spool, removes its temporary file and frees its names; a
 * closed or zeroed one is left alone. */
void kpca_spool_close(kpca_spool *sp);

/* For a reader of the library handed `spec` ("FILE" or "FILE:GROUP"):
 * when FILE is a stream (kpca_source_is_stream), spools it and sets
 * *spooled to "SPOOL" or "SPOOL:GROUP" (kpca_malloc'd: kpca_free it), the
 * spec to read instead; else *spooled is NULL and sp->fd -1.  Cost and
 * errors: those of kpca_split_spec and kpca_spool_open. */
kpca_status kpca_spool_spec(const char *spec, kpca_spool *sp, char **spooled, kpca_error *err);

/* Ends a read begun with kpca_spool_spec: when st is not KPCA_OK, the
 * spool's path in err->msg becomes the stream's name (kpca_source_rename);
 * then closes sp.  Returns st. */
kpca_status kpca_spool_finish(kpca_spool *sp, kpca_status st, kpca_error *err);

/* Copies `text` into out (cap bytes, truncated, terminated when cap > 0)
 * with every occurrence of `from` that is not followed by a digit (so that
 * "/proc/self/fd/5" is not found in "/proc/self/fd/57") replaced by `to`:
 * how a spool's path in a message becomes the name the user gave.  Returns
 * the length the whole result needs (as snprintf). */
size_t kpca_source_rename(const char *text, const char *from, const char *to, char *out, size_t cap);

#endif

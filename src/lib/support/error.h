/* error.h - status codes and the error record every library call fills.
 *
 * Contract: the library never prints and never exits.  A function that can
 * fail takes a `kpca_error *err` (may be NULL), returns a kpca_status, and on
 * failure writes a one-line, lower-case message naming the subject (file,
 * line, field) into err->msg.  The status values double as the CLI's exit
 * codes (see docs/guarantees.md, "Exit codes").
 */
#ifndef KPCA_ERROR_H
#define KPCA_ERROR_H

#include <stdarg.h>
#include <stddef.h>

typedef enum {
    KPCA_OK = 0,
    KPCA_EINTERNAL = 1, /* a bug or an unexpected library failure */
    KPCA_EUSAGE = 2,    /* bad option or parameter */
    KPCA_EFORMAT = 3,   /* malformed or inconsistent input file */
    KPCA_EIO = 4,       /* cannot open, read or write a file; no usable GPU (gpu/cuew.h) */
    KPCA_ENUMERIC = 5,  /* numerical failure (no convergence, no components) */
    KPCA_ENOMEM = 6     /* allocation failed */
} kpca_status;

#define KPCA_ERRMSG_MAX 1024

typedef struct {
    kpca_status code;
    char msg[KPCA_ERRMSG_MAX];
    int relayed; /* 1: the failure happened in another process and is reported
                  * here (the distributed build, src/mpi/); kpca_fail sets 0 */
    int own_limit; /* 1: a KPCA_ENOMEM of a limit other than the memory
                    * budget, which its message names (kpca_fail_limit);
                    * kpca_fail sets 0 */
} kpca_error;

/* Sets err (if non-NULL) and returns code, so callers can `return kpca_fail(...)`. */
kpca_status kpca_fail(kpca_error *err, kpca_status code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* KPCA_ENOMEM for a limit of its own that the message names (a stream's
 * room on disk, the GPU's memory), not the memory budget: kpca_fail with
 * err->own_limit set, so that the command line does not point at
 * --memory-limit. */
kpca_status kpca_fail_limit(kpca_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* kpca_fail with a va_list, for functions that forward their arguments. */
kpca_status kpca_vfail(kpca_error *err, kpca_status code, const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 0)))
#endif
    ;

/* The largest status: the exit codes are KPCA_OK .. KPCA_STATUS_LAST. */
#define KPCA_STATUS_LAST KPCA_ENOMEM

/* Short name of a status ("format error", ...). Never NULL. */
const char *kpca_status_name(kpca_status code);
/* What a status means as kpca's exit code, one line: the one text that the
 * usage message, the man page and the "Exit codes" table of
 * docs/guarantees.md print.  Never NULL. */
const char *kpca_status_meaning(kpca_status code);

/* Clears err to KPCA_OK with an empty message. */
void kpca_error_clear(kpca_error *err);

#endif

/* cli.h - the messages of the command line (cli.c): error, warning, note
 * and info on stderr, a path shown as the name the user gave it, a library
 * error as the exit code, and the run state every file of src/cli shares
 * (-q, kpca-mpi's rank).  Only progress.c is ranked before it
 * (docs/hacking.md, Layout): usage errors and the --help hint, which name
 * the command, are opt.h's. */
#ifndef KPCA_CLI_H
#define KPCA_CLI_H

#include <stdarg.h>
#include <stddef.h>

#include "lib/kpca.h"

extern int cli_quiet; /* -q: no informational messages */

/* The distributed build (kpca-mpi, src/mpi/) runs the commands on every MPI
 * rank.  cli_rank is this process's rank (0 in the plain kpca): only rank 0
 * prints and writes outputs; the others keep their last error message in
 * cli_last_error, which rank 0 reports for them.  kpca-mpi's other hooks
 * are cli_ranks (spool.h), cli_rowsrc_share (rows.h), cli_nys_comm
 * (cmd/fit_rows.h) and cli_transform_out (cmd/cmd_transform.h). */
extern int cli_rank;
extern char cli_last_error[KPCA_ERRMSG_MAX];

/* "error: ..." on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same from a va_list (cli_usage's). */
void cli_verror(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* "warning: ..." on stderr. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "note: ..." on stderr, -q or not: a choice made for the user that
 * changes the results (eval's backend when the default does not fit). */
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "kpca CMD: ..." on stderr unless -q. */
void cli_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Reports a library error and returns its status as the exit code. */
int cli_fail(const kpca_error *err);

/* The names messages show.  cli_name_add: from now on every message (the
 * library's too) writes path, wherever it appears, as name (spool.c: a
 * spool's path as the stream the user named); 0, KPCA_ENOMEM, or
 * KPCA_EUSAGE past four names.  cli_names_clear forgets them all.
 * cli_unspool: text with each such path replaced, into out (cap bytes,
 * truncated); returns the length the whole needs. */
int cli_name_add(const char *path, const char *name);
void cli_names_clear(void);
size_t cli_unspool(const char *text, char *out, size_t cap);

#endif

/* cli.h - the base of the command line (cli.c): messages, exit codes and
 * the run state every file of src/cli shares (-q, the command being run,
 * its positional arguments, kpca-mpi's rank).  The base's other files are
 * opt.h, progress.h and spool.h; docs/hacking.md (Layout) ranks the rest. */
#ifndef KPCA_CLI_H
#define KPCA_CLI_H

#include <stddef.h>

#include "lib/kpca.h"
#include "opt.h"

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
/* "warning: ..." on stderr. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "note: ..." on stderr, -q or not: a choice made for the user that
 * changes the results (eval's backend when the default does not fit). */
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "kpca CMD: ..." on stderr unless -q. */
void cli_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The command being run (set by cli_parse). */
extern const cli_command *cli_current;
/* "error: ..." and the --help hint on stderr; returns KPCA_EUSAGE. */
int cli_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "see 'kpca CMD --help'" on stderr. */
void cli_hint(const cli_command *cmd);
/* Reports a library error and returns its status as the exit code. */
int cli_fail(const kpca_error *err);
/* The command's positional arguments, recorded by cli_parse: every
 * command's positional arguments are the files it reads (DATA, MODEL,
 * TRAIN, TEST). */
extern const char *const *cli_inputs;
extern size_t cli_ninputs;
/* Reports err, the failure to read the input `path`, in the user's terms
 * when path is one of the command's positional arguments and holds another
 * kind of file than that argument takes (io/read.h): "argument 1 of
 * transform is a MODEL (written by kpca fit); 'zip.test.gz' holds ESL text
 * data (gzip, 2007 x 256)", naming another argument that is the same file or
 * is the model (swapped arguments); KPCA_EFORMAT then.  Otherwise, and
 * always for KPCA_EIO and KPCA_ENOMEM, cli_fail(err).  Sniffing reads the
 * file: an error path only. */
int cli_fail_input(const kpca_error *err, const char *path);
/* The index of path among the command's positional arguments (the same
 * pointer first, else the same string) and what that argument should be
 * (*name "MODEL", "DATA"...; *what its description); -1 when path is none
 * of them or its role is not known. */
int cli_arg_role(const char *path, const char **name, const char **what);

#endif

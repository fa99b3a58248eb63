/* progress.h - the progress meter and -v's timing line (progress.c). */
#ifndef KPCA_CLI_PROGRESS_H
#define KPCA_CLI_PROGRESS_H

/* The progress meter (on a terminal, unless quiet, on kpca-mpi's rank 0)
 * and, when verbose, a timing line per phase at the end, which a rank other
 * than 0 signs with its rank; see progress.c.  Commands report their own
 * phases ("read", "write") with kpca_progress(). */
void cli_progress_begin(const char *cmd, int quiet, int verbose, int rank);
void cli_progress_end(void);
/* Adds `seconds` of reading rows to the current phase: -v then gives a
 * streamed pass's reading and computing apart. */
void cli_progress_read(double seconds);
/* Erases the meter's line (before any other message on stderr). */
void cli_progress_clear(void);

#endif

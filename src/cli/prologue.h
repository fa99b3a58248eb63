/* prologue.h - what every command does before its work (prologue.c). */
#ifndef KPCA_CLI_PROLOGUE_H
#define KPCA_CLI_PROLOGUE_H

#include "opt.h"

/* The options most commands share, as the command's own option table
 * stores them: NULL for one the command does not have. */
typedef struct {
    const int *quiet;                /* -q */
    const int *verbose;              /* -v: also starts the progress meter */
    const char *const *memory_limit; /* --memory-limit */
} cli_common;

/* The prologue of every command: parses argv with cmd's table (cli_parse,
 * positional arguments into pos, their count into *npos), then applies the
 * shared options that common points to: the memory budget, -q (cli_quiet)
 * and the progress meter.  0 to go on; -1 when --help was printed (exit 0);
 * else the exit code, the error already reported. */
int cli_begin(const cli_command *cmd, int argc, char **argv, char **pos, int *npos, cli_common common);

/* Sets the memory budget from a --memory-limit value (NULL: MemAvailable in
 * /proc/meminfo, or none where it cannot be read).  0 or KPCA_EUSAGE. */
int cli_set_memory_limit(const char *s);
/* Before the work, for each output path that is not NULL: refuses one that
 * is the same file as an input (kpca_output_check, through links too), after
 * refusing an input that is a directory (kpca_input_check); then checks that
 * it can be written (kpca_atomic_check), so that a long fit does not end in
 * "cannot create".  0, or the exit code once the error is printed. */
int cli_check_outputs(const char *a, const char *b, const char *c, const char *d);

#endif

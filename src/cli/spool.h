/* spool.h - the inputs that are streams, read once into spools (spool.c). */
#ifndef KPCA_CLI_SPOOL_H
#define KPCA_CLI_SPOOL_H

#include <stddef.h>

#include "opt.h"

/* Streams (spool.c).  At the start of every command (cli_begin), each
 * positional argument and the --labels FILE whose file is "-" (standard
 * input) or not a regular file (a pipe such as <(cmd), a FIFO, a
 * character device) is read once, whole, into a spool on disk
 * (lib/file/source.h: an unlinked file in $TMPDIR, reached as
 * /proc/self/fd/N), and the argument is replaced by the spool's path (with
 * its :GROUP): every later open (the readers, sniffing, the clobber checks,
 * the model loader) opens the spool, never the stream again.  "-:GROUP" is
 * HDF5 on standard input.  Refused (KPCA_EUSAGE): '-' twice; a stream in
 * kpca-mpi with more than one rank (cli_ranks), where every rank reads the
 * inputs.  A stream named twice (one FIFO, - and /dev/stdin) is read once.
 * The spool's own errors (TMPDIR) are reported.  0 or the exit code. */
int cli_spool_inputs(const cli_command *cmd, char **pos, int npos);
/* The number of processes that run the command (kpca-mpi's ranks; 1). */
extern int cli_ranks;
/* The name the user gave an input that was spooled ("<stdin>" for "-",
 * "/dev/fd/63", with its ":GROUP"), for the records a command writes
 * (a model's source, a feature file's provenance); any other path as it
 * is.  Messages need not call it: each spool's path is given to
 * cli_name_add (cli.h) as it is made, so that every message writes it as
 * its name. */
const char *cli_arg_name(const char *path);
/* Closes every spool and forgets their names (at the end of the command). */
void cli_spool_close_all(void);

#endif

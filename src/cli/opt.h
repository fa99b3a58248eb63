/* opt.h - options declared as data.
 *
 * Each subcommand declares a table of cli_option; one parser reads argv with
 * it and one printer makes `--help` from it, so the description of an
 * option lives in exactly one place; `kpca help --man` (man.c) makes the
 * kpca(1) man page from the same tables.
 */
#ifndef KPCA_OPT_H
#define KPCA_OPT_H

#include <stddef.h>
#include <stdio.h>

typedef enum {
    CLI_FLAG,   /* int, set to 1 */
    CLI_INT,    /* long, range-checked */
    CLI_SIZE,   /* size_t, range-checked */
    CLI_DOUBLE, /* double, range-checked, finite */
    CLI_STRING  /* const char *, checked by the command */
} cli_type;

typedef struct {
    const char *name;  /* long name, without "--" */
    char short_name;   /* 0: none */
    const char *arg;   /* metavariable; NULL for flags */
    cli_type type;
    void *dest;
    double min, max;   /* inclusive range for numbers */
    const char *help;  /* one line; "(default: ...)" is part of it */
} cli_option;

typedef struct {
    const char *name;     /* "fit" */
    const char *synopsis; /* "[options] DATA -o MODEL" */
    const char *summary;  /* one line */
    const char *details;  /* paragraphs for --help and the man page (may be NULL) */
    const cli_option *options;
    size_t noptions;
    int (*run)(int argc, char **argv);
    int npos_min, npos_max; /* positional arguments accepted */
} cli_command;

/* A numeric constant as a string literal, so that a help text's
 * "(default: N)" is the library's own constant: CLI_STR(KPCA_X). */
#define CLI_STR_(x) #x
#define CLI_STR(x) CLI_STR_(x)

/* Parses argv[1..] (argv[0] is the subcommand) with cmd's table.  Writes the
 * positional arguments into pos (at most cmd->npos_max) and their count into
 * *npos.  Returns 0 to go on, 1 when --help was printed, or 2 on a usage error
 * (already reported). */
int cli_parse(const cli_command *cmd, int argc, char **argv, char **pos, int *npos);

/* Reports a positional argument beyond cmd's last, `extra`, after
 * pos[0..np-1]: when one of them is a kpca model where the synopsis has
 * none (`kpca fit MODEL DATA`), says which ("argument 1 of fit is DATA;
 * 'm.h5' is a kpca model") and returns KPCA_EFORMAT; else "unexpected
 * argument" with the synopsis, KPCA_EUSAGE.  Sniffs the arguments (an
 * error path only), never a stream (file/source.h). */
int cli_extra_argument(const cli_command *cmd, char *const *pos, int np, const char *extra);

/* The name of positional argument i (from 0) in cmd's synopsis ("MODEL",
 * "DATA", ...) into buf; "" when the synopsis has none there or it does not
 * fit in cap bytes. */
void cli_synopsis_arg(const cli_command *cmd, size_t i, char *buf, size_t cap);

/* What every command's --help and the man page say of inputs and outputs
 * named "-" and of streams (cli_spool_inputs, cli.h). */
#define CLI_STREAMS_HELP                                                                                   \
    "An input given as - is standard input (-:GROUP: a group of HDF5 data on it); standard\n"              \
    "input, a pipe such as <(zcat x.csv.gz) or a FIFO is read once, whole, into a temporary\n"             \
    "file in $TMPDIR (default /tmp), removed when kpca ends, and then read as that file.\n"               \
    "An output given as - is standard output."

/* Prints the usage and option table of cmd. */
void cli_print_help(const cli_command *cmd, FILE *fp);

/* Strict number parsing: the whole string, finite, within [min, max]. */
int cli_parse_double(const char *s, double min, double max, double *out);
int cli_parse_long(const char *s, double min, double max, long *out);

#endif

/* opt.h - options declared as data, and the command being run.
 *
 * Each subcommand declares a table of cli_option; one parser reads argv with
 * it and one printer makes `--help` from it, so the description of an
 * option lives in exactly one place; `kpca help --man` (man.c) makes the
 * kpca(1) man page from the same tables.  The parser records the command
 * and its positional arguments, which usage errors, their --help hint and
 * the roles of the arguments (cli_arg_role) are made from.
 */
#ifndef KPCA_OPT_H
#define KPCA_OPT_H

#include <stddef.h>
#include <stdio.h>

#include "lib/support/precision.h"

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
 * named "-" and of streams (cli_spool_inputs, spool.h). */
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
/* Parses "LO,HI" (LO < HI). */
int cli_parse_range(const char *s, double *lo, double *hi);
/* Parses "X1,X2,..." of numbers in [min, max] into a new array. */
int cli_parse_double_list(const char *s, double min, double max, double **out, size_t *n);
/* Parses "N1,N2,..." of decimal integers in 1..max (digits only: no sign,
 * blank, exponent or fraction) into a new array (free it), for the option
 * --OPTION.  0, or the exit code (KPCA_EUSAGE, KPCA_ENOMEM) once the error
 * is reported, naming the value at fault and why (empty, negative, not a
 * whole number, too large, zero). */
int cli_parse_size_list(const char *option, const char *s, size_t max, size_t **out, size_t *n);
/* The value of --precision into *out (left as it is when s is NULL); else
 * a usage error, "expected single or double", and KPCA_EUSAGE. */
int cli_parse_precision(const char *s, kpca_precision *out);
/* Parses "123", "1.5G", "512M", "64K", "2T" (powers of 1024) into bytes. */
int cli_parse_bytes(const char *s, size_t *out);

/* The rows of the options that several commands share, for their option
 * tables (`in`: a cli_input).
 *
 * --header, --label and --labels: how a data file's labels are found. */
#define CLI_HEADER_OPTION(dest)                                                                                \
    {"header", 0, "yes|no", CLI_STRING, &(dest), 0, 0,                                                         \
     "CSV: whether the first row names the columns (default: when it is not all numbers)"}
#define CLI_LABEL_OPTION(dest)                                                                                 \
    {"label", 0, "COL", CLI_STRING, &(dest), 0, 0,                                                             \
     "text: the label column: first, last, none, a number from 1 or a header name (default: a column named "   \
     "label, target, class or y; in whitespace text without a header, the first column when it holds few "     \
     "distinct integers (ESL); in ARFF, its nominal attribute; else no labels)"}
#define CLI_LABEL_OPTIONS(in)                                                                                  \
    CLI_HEADER_OPTION((in).header), CLI_LABEL_OPTION((in).label),                                              \
    {"labels", 0, "FILE", CLI_STRING, &(in).labels, 0, 0,                                                      \
     "labels for data without them (NPY, HDF5, MATLAB, --label none): a 1-D .npy, a MATLAB vector "       \
     "FILE.mat:VAR or one label per line"},                                                                  \
    CLI_COLUMN_OPTIONS(in)
/* --columns, --drop, --decimal and --skip-rows: which columns of a text
 * file are values, how their numbers are written, and the lines before
 * them (a preamble) */
#define CLI_COLUMN_OPTIONS(in)                                                                                 \
    {"columns", 0, "LIST", CLI_STRING, &(in).columns, 0, 0,                                                    \
     "text: the value columns to use, in this order: header names or numbers from 1, comma-separated "          \
     "(default: every column but the label's and a pandas index)"},                                            \
    {"drop", 0, "LIST", CLI_STRING, &(in).drop, 0, 0,                                                          \
     "text: columns to leave out (an identifier, an empty last column): names or numbers from 1"},             \
    {"decimal", 0, "MARK", CLI_STRING, &(in).decimal, 0, 0,                                                    \
     "text: the decimal mark, . or , (decimal commas need ; or tab or blanks between fields) (default: .)"},    \
    {"skip-rows", 0, "N", CLI_SIZE, &(in).skip_rows, 0, 1e9,                                                  \
     "text: skip the first N lines (after decompression), whatever they hold, before the header or first row: "  \
     "a preamble such as the line of counts that starts scikit-learn's wine_data.csv (--skip-rows 1); line "    \
     "numbers stay the file's (default: 0)"}

#define CLI_INPUT_OPTIONS(in)                                                                                  \
    {"format", 0, "FMT", CLI_STRING, &(in).format, 0, 0,                                                       \
     "input format: esl, libsvm, csv, npy, hdf5, mat or arff (default: detected)"},                            \
    CLI_LABEL_OPTIONS(in),                                                                                     \
    {"input-range", 0, "LO,HI", CLI_STRING, &(in).range, 0, 0,                                                 \
     "map input values from [LO,HI] onto [-1,1] (use 0,1 for usps.h5); fit records it in the model, which "   \
     "then applies it to every input (another LO,HI is refused)"},                                             \
    {"round", 0, "N", CLI_INT, &(in).round, 0, 15,                                                             \
     "round values to N decimals after mapping (3 for usps.h5); fit records it, as --input-range"},          \
    {"smooth", 0, "SIGMA", CLI_DOUBLE, &(in).smooth, 0.01, 16,                                                 \
     "blur each square image (16 x 16 for USPS) by a Gaussian of SIGMA pixels after mapping; fit records it in the "  \
     "model, which then applies it to every input (another SIGMA is refused)"}

/* --spool-limit SIZE of every command with --memory-limit (cli_begin reads
 * it, else KPCA_SPOOL_LIMIT): NULL when not given */
extern const char *cli_spool_limit;

/* --memory-limit: the library's memory budget (lib/support/mem.h); and
 * --spool-limit, the disk a stream may take (lib/file/source.h). */
#define CLI_MEMORY_OPTION(dest)                                                                                \
    {"memory-limit", 0, "SIZE", CLI_STRING, &(dest), 0, 0,                                                     \
     "refuse work that needs more than SIZE bytes (suffix K, M, G or T; 0: no limit) (default: the memory available now)"}, \
    {"spool-limit", 0, "SIZE", CLI_STRING, &cli_spool_limit, 0, 0,                                             \
     "refuse a stream (standard input, a pipe) larger than SIZE bytes, which kpca copies to TMPDIR to read (0: no "    \
     "limit; KPCA_SPOOL_LIMIT sets it too) (default: the free space of TMPDIR less 1 GiB)"}

/* --precision of fit, transform and eval: the row of the option table,
 * `text` saying what the precision governs and its default; the value is
 * read by cli_parse_precision. */
#define CLI_PRECISION_OPTION(dest, text) {"precision", 0, "P", CLI_STRING, &(dest), 0, 0, "single or double: " text}

/* -v: the timing line of every phase (progress.c). */
#define CLI_VERBOSE_OPTION(dest) \
    {"verbose", 'v', NULL, CLI_FLAG, &(dest), 0, 0,                                                                   \
     "end with a timing line per phase on stderr (a streamed pass: its reading and computing apart)"}

/* The command being run (set by cli_parse). */
extern const cli_command *cli_current;
/* "error: ..." and the --help hint of the command being run on stderr;
 * returns KPCA_EUSAGE. */
int cli_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "see 'kpca CMD --help'" on stderr. */
void cli_hint(const cli_command *cmd);
/* The command's positional arguments, recorded by cli_parse: every
 * command's positional arguments are the files it reads (DATA, MODEL,
 * TRAIN, TEST). */
extern const char *const *cli_inputs;
extern size_t cli_ninputs;
/* The index of path among the command's positional arguments (the same
 * pointer first, else the same string) and what that argument should be
 * (*name "MODEL", "DATA"...; *what its description); -1 when path is none
 * of them or its role is not known. */
int cli_arg_role(const char *path, const char **name, const char **what);

#endif

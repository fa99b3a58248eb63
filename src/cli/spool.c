/* spool.c - the command's inputs that are streams ("-", pipes, FIFOs), each
 * read once into a spool (lib/file/source.h) at the start of the command,
 * its name given to cli.c for every message, and to the records a command
 * writes (see spool.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "spool.h"
#include "cli.h"
#include "lib/file/source.h"
#include "lib/support/mem.h"
#include "opt.h"

int cli_ranks = 1;

/* the positional arguments and --labels: at most three inputs */
#define MAX_SPOOLS 4

static kpca_spool spools[MAX_SPOOLS];
static size_t nspools = 0;
static struct {
    char *spec;    /* what the readers are given instead: "SPOOL[:GROUP]" */
    char *display; /* what the user gave: "<stdin>[:GROUP]", "/dev/fd/63" */
} args[MAX_SPOOLS];
static size_t nargs = 0;

const char *cli_arg_name(const char *path)
{
    for (size_t i = 0; path != NULL && i < nargs; i++)
        if (strcmp(path, args[i].spec) == 0)
            return args[i].display;
    return path;
}

void cli_spool_close_all(void)
{
    cli_names_clear();
    for (size_t i = 0; i < nspools; i++)
        kpca_spool_close(&spools[i]);
    for (size_t i = 0; i < nargs; i++) {
        free(args[i].spec);
        free(args[i].display);
    }
    nspools = nargs = 0;
}

/* "argument N" or "option '--labels'" for input slot i of n positionals */
static void slot_name(size_t i, size_t npos, char *buf, size_t cap)
{
    if (i < npos)
        snprintf(buf, cap, "argument %zu", i + 1);
    else
        snprintf(buf, cap, "option '--labels'");
}

/* "A:B" (B may be NULL: "A") newly allocated */
static char *join(const char *a, const char *b)
{
    size_t len = strlen(a) + (b != NULL ? strlen(b) + 1 : 0) + 1;
    char *s = malloc(len);
    if (s != NULL)
        snprintf(s, len, "%s%s%s", a, b != NULL ? ":" : "", b != NULL ? b : "");
    return s;
}

/* Spools the input *arg (slot `at`) when its file is a stream and points
 * *arg at the spool; 0 or the exit code (reported) */
static int spool_one(const char **arg, size_t at, size_t npos, int *stdin_at)
{
    kpca_error err;
    char *file = NULL;
    const char *group = NULL;
    if (strcmp(*arg, "-") == 0 || strncmp(*arg, "-:", 2) == 0) { /* "-:GROUP": HDF5 on standard input */
        file = kpca_strdup("-");
        group = (*arg)[1] == ':' ? *arg + 2 : NULL;
    } else if (kpca_split_spec(*arg, &file, &group, &err) != KPCA_OK) {
        file = NULL;
    }
    if (file == NULL) {
        cli_error("out of memory");
        return KPCA_ENOMEM;
    }
    int r = 0;
    struct stat st;
    const int is_stdin = strcmp(file, "-") == 0;
    if (!kpca_source_is_stream(file) || nargs == MAX_SPOOLS) { /* no command takes more inputs */
        kpca_free(file);
        return 0;
    }
    char here[40], there[40];
    slot_name(at, npos, here, sizeof here);
    if (is_stdin && *stdin_at >= 0) {
        slot_name((size_t)*stdin_at, npos, there, sizeof there);
        if (at < npos) /* both positional */
            r = cli_usage("standard input can be read only once, but arguments %d and %zu both read it ('-')",
                          *stdin_at + 1, at + 1);
        else
            r = cli_usage("standard input can be read only once, but %s and %s both read standard input ('-')",
                          there, here);
    } else if (cli_ranks > 1) {
        r = cli_usage("%s, '%s', is %s: kpca-mpi reads its inputs on every rank, so they must be regular files "
                      "(save the stream to a file first)",
                      here, kpca_source_name(file), is_stdin ? "standard input" : "a pipe, FIFO or device");
    }
    if (r != 0) {
        kpca_free(file);
        return r;
    }
    if (is_stdin)
        *stdin_at = (int)at;
    /* one stream named twice (a FIFO, /dev/stdin and -) is read once */
    size_t s = 0;
    if ((is_stdin ? fstat(0, &st) : stat(file, &st)) == 0)
        while (s < nspools && !(spools[s].src_dev == st.st_dev && spools[s].src_ino == st.st_ino))
            s++;
    else
        s = nspools;
    if (s == nspools) {
        kpca_progress("read stream", 0, 1); /* the meter, and -v's timing of the copy */
        r = kpca_spool_open(file, &spools[s], &err) != KPCA_OK ? cli_fail(&err) : 0;
        kpca_progress("read stream", 1, 1);
        if (r == 0)
            nspools++;
        if (r == 0 && cli_name_add(spools[s].path, spools[s].name) != 0) { /* messages show the stream's name */
            cli_error("out of memory");
            r = KPCA_ENOMEM;
        }
    }
    kpca_free(file);
    if (r != 0)
        return r;
    args[nargs].spec = join(spools[s].path, group);
    args[nargs].display = join(spools[s].name, group);
    if (args[nargs].spec == NULL || args[nargs].display == NULL) {
        free(args[nargs].spec);
        free(args[nargs].display);
        cli_error("out of memory");
        return KPCA_ENOMEM;
    }
    *arg = args[nargs++].spec;
    return 0;
}

int cli_spool_inputs(const cli_command *cmd, char **pos, int npos)
{
    int stdin_at = -1, r = 0;
    for (int i = 0; i < npos && r == 0; i++) {
        const char *a = pos[i];
        r = spool_one(&a, (size_t)i, (size_t)npos, &stdin_at);
        pos[i] = (char *)a; /* the spool's spec, owned here */
    }
    for (size_t j = 0; j < cmd->noptions && r == 0; j++) {
        const cli_option *o = &cmd->options[j];
        if (o->type == CLI_STRING && strcmp(o->name, "labels") == 0 && *(const char **)o->dest != NULL)
            r = spool_one((const char **)o->dest, (size_t)npos, (size_t)npos, &stdin_at);
    }
    return r;
}

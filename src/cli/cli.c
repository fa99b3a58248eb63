/* cli.c - the base of the command line: the messages (error, warning, note,
 * info, usage and their --help hint; a spool's path shown as the name the
 * user gave it), a library error reported as the exit code, an input of
 * the wrong kind reported in the user's terms, and the run state (cli.h). */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/io/read.h"
#include "opt.h"
#include "progress.h"
#include "spool.h"

int cli_quiet = 0;
const cli_command *cli_current = NULL;
int cli_rank = 0;
char cli_last_error[KPCA_ERRMSG_MAX];

/* is_error: an error message, kept in cli_last_error as well.  A spool's
 * path becomes the name the user gave the stream (cli_unspool): the one
 * place where messages, the library's too, are rewritten. */
static void vmsg(const char *prefix, int is_error, const char *fmt, va_list ap)
{
    char *shown = NULL;
    if (cli_spooled()) {
        va_list copy;
        va_copy(copy, ap);
        int len = vsnprintf(NULL, 0, fmt, copy);
        va_end(copy);
        char *text = len >= 0 ? malloc((size_t)len + 1) : NULL;
        if (text != NULL) {
            va_copy(copy, ap);
            vsnprintf(text, (size_t)len + 1, fmt, copy);
            va_end(copy);
            size_t need = cli_unspool(text, NULL, 0);
            if ((shown = malloc(need + 1)) != NULL)
                cli_unspool(text, shown, need + 1);
            free(text);
        }
    }
    if (is_error) {
        va_list copy;
        va_copy(copy, ap);
        if (shown != NULL)
            snprintf(cli_last_error, sizeof cli_last_error, "%s", shown);
        else
            vsnprintf(cli_last_error, sizeof cli_last_error, fmt, copy);
        va_end(copy);
    }
    if (cli_rank == 0) { /* rank 0 speaks for the distributed job */
        fflush(stdout);
        cli_progress_clear();
        fputs(prefix, stderr);
        if (shown != NULL)
            fputs(shown, stderr);
        else
            vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
    }
    free(shown);
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg("error: ", 1, fmt, ap);
    va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg("warning: ", 0, fmt, ap);
    va_end(ap);
}

void cli_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg("note: ", 0, fmt, ap);
    va_end(ap);
}

void cli_info(const char *fmt, ...)
{
    if (cli_quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    vmsg("", 0, fmt, ap);
    va_end(ap);
}

int cli_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg("error: ", 1, fmt, ap);
    va_end(ap);
    if (cli_current != NULL)
        cli_hint(cli_current);
    return KPCA_EUSAGE;
}

void cli_hint(const cli_command *cmd)
{
    if (cli_rank == 0)
        fprintf(stderr, "see 'kpca %s --help'\n", cmd->name);
}

int cli_fail(const kpca_error *err)
{
    cli_error("%s", err->msg[0] ? err->msg : kpca_status_name(err->code));
    /* the budget hint is about this process's budget: not for an error that
     * another MPI rank reported (kpca-mpi), nor for a limit of its own (the
     * spool's cap, the GPU's memory), whose message names it */
    if (err->code == KPCA_ENOMEM && kpca_mem_budget() != 0 && cli_rank == 0 && !err->relayed && !err->own_limit) {
        char have[32];
        fprintf(stderr, "hint: the memory budget is %s: --memory-limit (default: the memory available now; 0: none)\n",
                kpca_mem_human((double)kpca_mem_budget(), have, sizeof have));
    }
    return err->code == KPCA_OK ? 1 : (int)err->code;
}

const char *const *cli_inputs = NULL;
size_t cli_ninputs = 0;

/* What each positional argument of the synopses should be. */
static const struct {
    const char *name, *what;
} arg_roles[] = {
    {"MODEL", "a MODEL (written by kpca fit)"},
    {"DATA", "DATA (ESL, LIBSVM, CSV or ARFF text, NumPy .npy or HDF5 data)"},
    {"FEATURES", "FEATURES (written by kpca transform, or data)"},
    {"TRAIN", "TRAIN (features written by kpca transform, or data)"},
    {"TEST", "TEST (features written by kpca transform, or data)"},
};

int cli_arg_role(const char *path, const char **name, const char **what)
{
    int at = -1;
    for (size_t i = 0; i < cli_ninputs && at < 0; i++)
        if (cli_inputs[i] == path)
            at = (int)i;
    for (size_t i = 0; i < cli_ninputs && at < 0; i++)
        if (strcmp(cli_inputs[i], path) == 0)
            at = (int)i;
    if (at < 0 || cli_current == NULL)
        return -1;
    char role[32];
    cli_synopsis_arg(cli_current, (size_t)at, role, sizeof role);
    for (size_t r = 0; r < sizeof arg_roles / sizeof arg_roles[0]; r++)
        if (strcmp(arg_roles[r].name, role) == 0) {
            *name = arg_roles[r].name;
            *what = arg_roles[r].what;
            return at;
        }
    return -1;
}

/* ", the same file as argument J" when another positional argument than
 * number at names the same file as path (into buf; "" when none) */
static void same_file(const char *path, int at, char *buf, size_t cap)
{
    struct stat a, b;
    buf[0] = '\0';
    if (stat(path, &a) != 0)
        return;
    for (size_t j = 0; j < cli_ninputs; j++)
        if ((int)j != at && stat(cli_inputs[j], &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
            snprintf(buf, cap, ", the same file as argument %zu", j + 1);
            return;
        }
}

/* "error: argument N of CMD is WHAT; 'PATH' DESCRIPTION" (the file as
 * kpca_file_describe sees it), with a hint when another argument is the
 * MODEL that this one should be (swapped arguments); KPCA_EFORMAT */
static int wrong_kind(int at, const char *what, const char *path, const kpca_file_info *fi, int model_wanted)
{
    char desc[200], same[64], swap[160] = "";
    kpca_file_describe(fi, desc, sizeof desc);
    same_file(path, at, same, sizeof same);
    for (size_t j = 0; j < cli_ninputs && model_wanted && swap[0] == '\0' && same[0] == '\0'; j++) {
        kpca_file_info other;
        if ((int)j == at)
            continue;
        kpca_file_sniff(cli_inputs[j], &other);
        if (other.kind == KPCA_FILE_MODEL)
            snprintf(swap, sizeof swap, " (argument %zu is a model: swapped? usage: kpca %s %s)", j + 1,
                     cli_current->name, cli_current->synopsis);
    }
    cli_error("argument %d of %s is %s; '%s' %s%s%s", at + 1, cli_current->name, what, path, desc, same, swap);
    cli_hint(cli_current);
    return KPCA_EFORMAT;
}

int cli_fail_input(const kpca_error *err, const char *path)
{
    const char *name, *what;
    int at = cli_arg_role(path, &name, &what);
    /* what cannot be read, or not in the memory allowed, is not of a kind */
    if (at < 0 || err->code == KPCA_EIO || err->code == KPCA_ENOMEM)
        return cli_fail(err);
    kpca_file_info fi;
    kpca_file_sniff(path, &fi);
    int model_wanted = strcmp(name, "MODEL") == 0;
    /* a missing, unreadable or directory argument: the reader's "cannot
     * open" says it; a file of the right kind, or a damaged one: the
     * reader's reason */
    int other_kind = model_wanted ? fi.kind != KPCA_FILE_MODEL && fi.kind != KPCA_FILE_MISSING &&
                                        fi.kind != KPCA_FILE_UNREADABLE && fi.kind != KPCA_FILE_DIRECTORY &&
                                        !fi.damaged
                                  : fi.kind == KPCA_FILE_MODEL;
    return other_kind ? wrong_kind(at, what, path, &fi, model_wanted) : cli_fail(err);
}

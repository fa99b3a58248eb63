/* cli.c - the messages of the command line (error, warning, note, info; a
 * path shown as the name the user gave it), a library error reported as
 * the exit code, and the run state (cli.h). */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/file/source.h"
#include "lib/support/mem.h"
#include "progress.h"

int cli_quiet = 0;
int cli_rank = 0;
char cli_last_error[KPCA_ERRMSG_MAX];

/* the paths that messages show by another name (cli_name_add) */
#define MAX_NAMES 4
static struct {
    char *path, *name;
} names[MAX_NAMES];
static size_t nnames = 0;

int cli_name_add(const char *path, const char *name)
{
    if (nnames == MAX_NAMES)
        return KPCA_EUSAGE;
    char *p = kpca_strdup(path), *n = kpca_strdup(name);
    if (p == NULL || n == NULL) {
        kpca_free(p);
        kpca_free(n);
        return KPCA_ENOMEM;
    }
    names[nnames].path = p;
    names[nnames].name = n;
    nnames++;
    return 0;
}

void cli_names_clear(void)
{
    for (size_t i = 0; i < nnames; i++) {
        kpca_free(names[i].path);
        kpca_free(names[i].name);
    }
    nnames = 0;
}

size_t cli_unspool(const char *text, char *out, size_t cap)
{
    size_t len = strlen(text);
    char *cur = malloc(len + 1);
    if (cur != NULL)
        memcpy(cur, text, len + 1);
    for (size_t i = 0; cur != NULL && i < nnames; i++) {
        size_t need = kpca_source_rename(cur, names[i].path, names[i].name, NULL, 0);
        char *next = malloc(need + 1);
        if (next != NULL)
            kpca_source_rename(cur, names[i].path, names[i].name, next, need + 1);
        free(cur);
        cur = next;
    }
    size_t need = (size_t)snprintf(out, cap, "%s", cur != NULL ? cur : text); /* out of memory: as it is */
    free(cur);
    return need;
}

/* is_error: an error message, kept in cli_last_error as well.  A spool's
 * path becomes the name the user gave the stream (cli_unspool): the one
 * place where messages, the library's too, are rewritten. */
static void vmsg(const char *prefix, int is_error, const char *fmt, va_list ap)
{
    char *shown = NULL;
    if (nnames > 0) {
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

void cli_verror(const char *fmt, va_list ap)
{
    vmsg("error: ", 1, fmt, ap);
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

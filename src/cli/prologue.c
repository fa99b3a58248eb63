/* prologue.c - what every command does before its work: cli_begin (the
 * options parsed, the memory budget, -q, the progress meter, the streams
 * spooled) and cli_check_outputs (the outputs refused or checked writable
 * before a long run). */
#include <stdio.h>
#include <stdlib.h>

#include "prologue.h"
#include "cli.h"
#include "lib/file/atomic.h"
#include "lib/file/clobber.h"
#include "lib/file/source.h"
#include "opt.h"
#include "progress.h"
#include "spool.h"

/* the disk a stream may take: --spool-limit, else KPCA_SPOOL_LIMIT, else
 * the library's default */
static int set_spool_limit(void)
{
    const char *env = getenv("KPCA_SPOOL_LIMIT"), *s = cli_spool_limit != NULL ? cli_spool_limit : env;
    size_t b;
    if (s == NULL || *s == '\0') {
        kpca_spool_set_limit(0, 0);
        return 0;
    }
    if (cli_parse_bytes(s, &b) != 0)
        return cli_usage("%s: expected a size such as 512M or 8G (0: no limit), got '%s'",
                         cli_spool_limit != NULL ? "option '--spool-limit'" : "KPCA_SPOOL_LIMIT", s);
    kpca_spool_set_limit(1, (unsigned long long)b);
    return 0;
}

int cli_begin(const cli_command *cmd, int argc, char **argv, char **pos, int *npos, cli_common common)
{
    int r = cli_parse(cmd, argc, argv, pos, npos);
    if (r != 0)
        return r == 1 ? -1 : r;
    if (common.memory_limit != NULL && cli_set_memory_limit(*common.memory_limit) != 0)
        return KPCA_EUSAGE;
    if ((r = set_spool_limit()) != 0)
        return r;
    const int quiet = common.quiet != NULL && *common.quiet;
    if (common.verbose != NULL)
        cli_progress_begin(cmd->name, quiet, *common.verbose);
    cli_quiet = quiet;
    return cli_spool_inputs(cmd, pos, *npos);
}

/* MemAvailable from /proc/meminfo in bytes; 0 when it cannot be read */
static size_t mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (f == NULL)
        return 0;
    char line[256];
    unsigned long long kb = 0;
    while (fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
            break;
    fclose(f);
    return (size_t)kb * 1024u;
}

int cli_set_memory_limit(const char *s)
{
    size_t b;
    if (s == NULL) {
        kpca_mem_set_budget(mem_available());
        return 0;
    }
    if (cli_parse_bytes(s, &b) != 0)
        return cli_usage("option '--memory-limit': expected a size such as 512M or 8G (0: no limit), got '%s'", s);
    kpca_mem_set_budget(b);
    return 0;
}

int cli_check_outputs(const char *a, const char *b, const char *c, const char *d)
{
    const char *paths[4] = {a, b, c, d};
    kpca_error err;
    for (size_t i = 0; i < cli_ninputs; i++)
        if (kpca_input_check(cli_inputs[i], &err) != KPCA_OK)
            return cli_fail(&err);
    for (int i = 0; i < 4; i++)
        if (paths[i] != NULL && kpca_output_check(paths[i], cli_inputs, cli_ninputs, &err) != KPCA_OK)
            return cli_fail(&err);
    for (int i = 0; i < 4; i++)
        if (paths[i] != NULL && kpca_atomic_check(paths[i], &err) != KPCA_OK)
            return cli_fail(&err);
    return 0;
}

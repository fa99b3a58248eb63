/* prologue.c - what every command does before its work: cli_begin (the
 * options parsed, the memory budget, -q, the progress meter, the streams
 * spooled) and cli_check_outputs (the outputs refused or checked writable
 * before a long run); the device of fit and transform (--device and
 * KPCA_DEVICE: CUDA loaded before any work, auto's choice and its line). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        cli_progress_begin(cmd->name, quiet, *common.verbose, cli_rank);
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

/* ---- --device (prologue.h) ---- */

typedef enum { DEV_CPU, DEV_CUDA, DEV_AUTO } device_kind;

int cli_device_mpi = 0;

static device_kind kind = DEV_CPU;
static kpca_cuda *cuda;
static kpca_error why_not; /* auto without a usable GPU: why */

int cli_device_begin(const char *opt, const char *cpu_only)
{
    /* the messages name the setting: option '--device cuda' or KPCA_DEVICE='cuda' */
    const char *s = opt, *from = "option '--device ";
    if (s == NULL && (s = getenv("KPCA_DEVICE")) != NULL && s[0] != '\0')
        from = "KPCA_DEVICE='";
    kind = DEV_CPU;
    if (s == NULL || s[0] == '\0' || strcmp(s, "cpu") == 0)
        return 0;
    if (strcmp(s, "cuda") == 0)
        kind = DEV_CUDA;
    else if (strcmp(s, "auto") == 0)
        kind = DEV_AUTO;
    else
        return cli_usage("%s%s': expected cpu, cuda or auto", from, s);
    kpca_error_clear(&why_not);
    if (cpu_only != NULL) {
        if (kind == DEV_CUDA)
            return cli_usage("%scuda': %s runs on the CPU only", from, cpu_only);
        cli_info("device: cpu (auto: %s runs on the CPU only)", cpu_only);
        kind = DEV_CPU;
        return 0;
    }
    if (cli_device_mpi) {
        if (kind == DEV_CUDA)
            return cli_usage("%scuda': kpca-mpi runs on the MPI ranks' CPUs only; kpca --device cuda runs on a GPU",
                             from);
        cli_info("device: cpu (auto: kpca-mpi runs on CPUs only)");
        kind = DEV_CPU;
        return 0;
    }
    kpca_error err;
    kpca_status st = kpca_cuda_open(NULL, &cuda, &err);
    if (st == KPCA_OK)
        return 0;
    if (kind == DEV_CUDA)
        return cli_fail(&err);
    why_not = err;
    return 0;
}

void cli_device_cpu_for_now(const char *what)
{
    if (kind != DEV_CPU)
        cli_info("device: cpu (%s run on the CPU for now)", what);
}

kpca_cuda *cli_device_pick(size_t m, const char *what)
{
    if (kind == DEV_CPU)
        return NULL;
    if (cuda == NULL) {
        cli_info("device: cpu (auto: no usable GPU: %s)", why_not.msg);
        return NULL;
    }
    if (what == NULL) {
        cli_info("device: cpu (the eigensolve is of the D x D covariance (the primal fit), small: it stays on the CPU)");
        return NULL;
    }
    if (kind == DEV_AUTO && m < CLI_DEVICE_AUTO_MIN_POINTS) {
        cli_info("device: cpu (auto: %zu points, fewer than the %d from which the GPU is taken)", m,
                 CLI_DEVICE_AUTO_MIN_POINTS);
        return NULL;
    }
    cli_info("device: cuda, %s on %s (%s)", what, cuda->gpu_name,
             kind == DEV_CUDA ? "asked for" : "auto: a usable GPU and enough points");
    return cuda;
}

void cli_device_end(void)
{
    kpca_cuda_close(cuda);
    cuda = NULL;
    kind = DEV_CPU;
}

void cli_device_version(FILE *fp)
{
    kpca_cuda *cu = NULL;
    kpca_error err;
    char line[4096];
    if (kpca_cuda_open(NULL, &cu, &err) != KPCA_OK) {
        fprintf(fp, "cuda: none (%s)\n", err.msg);
        return;
    }
    kpca_cuda_describe(cu, line, sizeof line);
    fprintf(fp, "cuda: %s\n", line);
    kpca_cuda_close(cu);
}

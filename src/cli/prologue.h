/* prologue.h - what every command does before its work (prologue.c),
 * among it the device of fit and transform (--device, KPCA_DEVICE;
 * docs/gpu.md) and the cuda: line of kpca --version. */
#ifndef KPCA_CLI_PROLOGUE_H
#define KPCA_CLI_PROLOGUE_H

#include <stddef.h>
#include <stdio.h>

#include "lib/gpu/cuew.h"
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

/* ---- --device cpu|cuda|auto of fit and transform ---- */
/* auto takes the GPU from this many fit points on.  To be measured (issue
 * 43, item 5): the H200's figures in shared/design/gpu-notes.md put
 * the GPU's eigensolve 25x ahead at M = 7291, so the crossover lies far
 * below; 4000 keeps small fits off the GPU's start-up cost meanwhile. */
#define CLI_DEVICE_AUTO_MIN_POINTS 4000

/* The row of the option table: `text` says what the device runs. */
#define CLI_DEVICE_OPTION(dest, text)                                                                          \
    {"device", 0, "DEV", CLI_STRING, &(dest), 0, 0,                                                            \
     "cpu, cuda (GPU 0, NVIDIA's libraries loaded at run time: docs/gpu.md) or auto (cuda where a GPU is "    \
     "usable and M >= " CLI_STR(CLI_DEVICE_AUTO_MIN_POINTS) ", else cpu): " text                              \
     " (default: cpu, or KPCA_DEVICE)"}

/* 1 in kpca-mpi (set by its main()): cuda is refused, auto is cpu. */
extern int cli_device_mpi;

/* The device of this command: `opt` (--device; NULL when not given), else
 * $KPCA_DEVICE, else cpu.  cuda: the CUDA libraries are loaded and the GPU
 * found now, before any work, or the command is refused (exit 4, naming
 * what is missing and every path tried); auto: loaded when they can be,
 * why not kept for cli_device_pick.  cpu_only non-NULL: what of the
 * command's options keeps it off the GPU ("--solver nystrom"): cuda is
 * refused (exit 2), auto is the CPU.  Returns 0, or the exit code once
 * reported (an unknown name: 2).  Call cli_device_end after (main.c's
 * finish does). */
int cli_device_begin(const char *opt, const char *cpu_only);

/* The GPU to use for `m` points (NULL: the CPU), with the line that says
 * which and why ("device: ...", on stderr unless -q); `what` names the
 * work ("the eigensolve"); NULL: the fit is primal (D x D), on the CPU. */
kpca_cuda *cli_device_pick(size_t m, const char *what);

/* A command that takes --device but runs on the CPU for now: says so
 * ("device: cpu (WHAT run on the CPU for now)") unless the device is cpu. */
void cli_device_cpu_for_now(const char *what);

/* Closes the libraries cli_device_begin loaded. */
void cli_device_end(void);

/* kpca --version's last line: "cuda: GPU, libraries" or "cuda: none (why)". */
void cli_device_version(FILE *fp);

#endif

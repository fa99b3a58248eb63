/* coretype.h - OpenBLAS's kernels for this CPU: a program's main() sets
 * OPENBLAS_CORETYPE and runs itself again when OpenBLAS picked slow ones.
 *
 * Debian 12's OpenBLAS (0.3.21) is built with DYNAMIC_ARCH: when it loads,
 * it reads the CPU's family and model and picks matching kernels.  A CPU
 * newer than the library (Intel family 6 model 207, Emerald Rapids, say)
 * is not in its table, and it falls back to its generic "Prescott" SSE3
 * kernels: DGEMM at 19 GFLOP/s where the same machine gives 129 with the
 * SkylakeX kernels.  OpenBLAS reads the environment variable
 * OPENBLAS_CORETYPE when it loads, so the fix has to come from outside the
 * process, and it is process policy: kpca, kpca-mpi and the benches call
 * cli_coretype_reexec() first thing in main(); libkpca never does.  With
 * another BLAS than OpenBLAS there is nothing to choose and nothing done. */
#ifndef KPCA_CLI_CORETYPE_H
#define KPCA_CLI_CORETYPE_H

/* The OpenBLAS core type to set in OPENBLAS_CORETYPE so that this CPU's
 * vector units are used, or NULL when nothing needs doing: the variable is
 * already set (the user's choice wins), the BLAS is not OpenBLAS, the
 * detected core is not one of OpenBLAS's generic fallbacks, or the CPU has
 * neither AVX-512 nor AVX2 + FMA (as the compiler's CPU probe, which checks
 * that the operating system saves the wide registers, reports them).
 * A static string. */
const char *cli_coretype_hint(void);

/* For a program's main(), before anything else (before MPI_Init in
 * kpca-mpi): where cli_coretype_hint() names a core, set OPENBLAS_CORETYPE
 * to it and execute /proc/self/exe again with the same argv, so that
 * OpenBLAS loads with the right kernels.  Returns (doing nothing) when no
 * hint applies, and also when setenv or execv fails: the program then goes
 * on, only slower.  It never loops: the re-executed program finds the
 * variable set. */
void cli_coretype_reexec(char **argv);

#endif

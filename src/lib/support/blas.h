/* blas.h - facts about the BLAS kpca runs on (OpenBLAS), and one fix-up.
 *
 * Debian 12's OpenBLAS (0.3.21) is built with DYNAMIC_ARCH: when it loads,
 * it reads the CPU's family and model and picks matching kernels.  A CPU
 * newer than the library (Intel family 6 model 207, Emerald Rapids, say)
 * is not in its table, and it falls back to its generic "Prescott" SSE3
 * kernels: DGEMM at 19 GFLOP/s where the same machine gives 129 with the
 * SkylakeX kernels.  OpenBLAS reads the environment variable
 * OPENBLAS_CORETYPE when it loads, so the fix has to come from outside the
 * process: kpca_blas_core_hint() names the core to ask for, and the
 * program re-executes itself with OPENBLAS_CORETYPE set (see main.c). */
#ifndef KPCA_BLAS_H
#define KPCA_BLAS_H

/* The core type OpenBLAS picked when it loaded ("SkylakeX", "Prescott"...).
 * A static string; never NULL. */
const char *kpca_blas_core(void);

/* The OpenBLAS core type to set in OPENBLAS_CORETYPE so that this CPU's
 * vector units are used, or NULL when nothing needs doing: the variable is
 * already set (the user's choice wins), the detected core is not one of
 * OpenBLAS's generic fallbacks, or the CPU has neither AVX-512 nor
 * AVX2 + FMA (as the compiler's CPU probe, which checks that the operating
 * system saves the wide registers, reports them).  A static string. */
const char *kpca_blas_core_hint(void);

/* For a program's main(), before anything else: where kpca_blas_core_hint()
 * names a core, set OPENBLAS_CORETYPE to it and execute /proc/self/exe
 * again with the same argv, so that OpenBLAS loads with the right kernels.
 * Returns (doing nothing) when no hint applies, and also when setenv or
 * execv fails: the program then goes on, only slower.  It never loops: the
 * re-executed program finds the variable set.  The one function of the
 * library with a process-wide effect; the library itself never calls it. */
void kpca_blas_reexec(char **argv);

/* Parks OpenBLAS's worker threads now: after a parallel call they spin
 * (sched_yield) for about 2^28 cycles waiting for the next one, taking a
 * core from threads of kpca's own (the SVM workers) that start meanwhile.
 * The next parallel BLAS call starts them again.  Call it only when no
 * BLAS call is running in any thread. */
void kpca_blas_park(void);

#endif

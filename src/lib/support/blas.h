/* blas.h - which BLAS kpca runs on, and the parking of OpenBLAS's threads.
 *
 * kpca builds and runs on any CBLAS + LAPACKE (Debian's reference BLAS, for
 * one: make BLAS=reference).  Two OpenBLAS functions make it faster on
 * OpenBLAS; the library refers to them weakly, so that with another BLAS
 * they are absent and what they do is skipped: kpca_blas_core() then names
 * no core and kpca_blas_park() does nothing.  (A program that makes no BLAS
 * call of its own, through libkpca or directly, has no OpenBLAS either: the
 * linker's --as-needed drops a library that weak references alone name.)
 *
 * Choosing OpenBLAS's kernels (OPENBLAS_CORETYPE, read when it loads) is a
 * program's business, not the library's: src/cli/coretype.h. */
#ifndef KPCA_BLAS_H
#define KPCA_BLAS_H

/* The name OpenBLAS reports for the kernels it runs ("SkylakeX",
 * "Haswell", "Prescott"...), "unknown (not OpenBLAS)" when the BLAS linked
 * is not OpenBLAS.  A static string; never NULL; O(1). */
const char *kpca_blas_core(void);

/* 1 when the BLAS linked is OpenBLAS (its core name is known), else 0.  O(1). */
int kpca_blas_is_openblas(void);

/* The number of threads OpenBLAS runs a parallel call on
 * (OPENBLAS_NUM_THREADS, else one per CPU), for work of kpca's own that
 * takes the place of a BLAS call (kernel.h's direct kernels); 0 when the
 * BLAS is not OpenBLAS (not known).  O(1). */
int kpca_blas_threads(void);

/* Parks OpenBLAS's worker threads now: after a parallel call they spin
 * (sched_yield) for about 2^28 cycles waiting for the next one, taking a
 * core from threads of kpca's own (the SVM workers) that start meanwhile.
 * The next parallel BLAS call starts them again.  Call it only when no
 * BLAS call is running in any thread.  With another BLAS than OpenBLAS it
 * does nothing (and costs nothing): such a BLAS either runs single-threaded
 * or parks its threads by its own rules. */
void kpca_blas_park(void);

/* Has OpenBLAS run its next calls on `threads` threads (1: in the caller's
 * thread alone; its workers then stay parked) and returns the count it ran
 * them on before, for the caller to restore; 0, doing nothing, when the
 * BLAS is not OpenBLAS.  For products too small to pay for waking the
 * workers, whose spinning afterwards would take the cores from threads of
 * kpca's own (a read's parsers).  Not while a BLAS call runs in another
 * thread.  O(1) when the workers exist. */
int kpca_blas_set_threads(int threads);

/* A product of fewer flops than this runs on one thread (a few ms on one
 * core: less than waking the workers and their spin after it cost). */
#define KPCA_BLAS_SERIAL_FLOPS 6.4e7

#endif

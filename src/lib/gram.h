/* gram.h - symmetric rank-k products C = beta C + A A', the Gram matrices of
 * the kernel (kernel.c) and of the SVMs (eval.c).
 *
 * OpenBLAS's DSYRK runs far below its DGEMM on some kernels (Haswell/AVX2:
 * 9-11 GFLOP/s against 65-70 on a 2-core AMD EPYC; SkylakeX: 38 against
 * 117), so kpca_gram_upper computes the upper triangle as DGEMM calls on
 * square tiles: n(n+1)/2 k multiply-adds plus the lower halves of the
 * diagonal tiles (about T/n of the work more).  The diagonal tiles are made
 * exactly symmetric; entries strictly below them are not touched. */
#ifndef KPCA_GRAM_H
#define KPCA_GRAM_H

#include <stddef.h>

/* The tile edge: large enough that each DGEMM runs at full speed on every
 * thread, small enough that the diagonal tiles waste little. */
#define KPCA_GRAM_TILE 512

/* Row-major A (n x k, leading dimension lda), C (n x n, ldc): the upper
 * triangle of C, and the whole of each diagonal tile, becomes
 * beta C + A A'.  Cost n^2 k flops (2 per multiply-add, counting the upper
 * triangle only); no allocation, cannot fail.  Same values as
 * cblas_dsyrk(RowMajor, Upper, NoTrans) up to the summation order. */
void kpca_gram_upper(size_t n, size_t k, const double *a, size_t lda, double beta, double *c, size_t ldc);

/* Copies the strict upper triangle of C (n x n, ldc) onto the lower one, in
 * cache-sized tiles. */
void kpca_gram_mirror(double *c, size_t n, size_t ldc);

#endif

/* gram.h - symmetric rank-k products C = beta C + A A', the Gram matrices of
 * the kernel (kernel.c) and of the SVMs (eval.c), and the mirror that fills
 * the lower triangle: one home for what both did.
 *
 * kpca_gram_upper computes the upper triangle as DGEMM calls on row stripes
 * of square tiles: n(n+1)/2 k multiply-adds plus the lower halves of the
 * diagonal tiles (about T/n of the work more).  It was written when DSYRK
 * seemed to run at a tenth of DGEMM's rate on AMD's Haswell kernels; that
 * measurement was taken on a loaded machine, and `make bench` on the idle
 * machine found the two alike (DSYRK 91-100 GFLOP/s, DGEMM 96-101 at the
 * kernel's and the SVMs' shapes).  The fit's kernel matrix is bit-identical
 * either way; the SVMs' Gram matrix differs from DSYRK's in the last bit of
 * a few entries (the grid's cells are identical).  The diagonal tiles are
 * made exactly symmetric; entries strictly below them are not touched. */
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

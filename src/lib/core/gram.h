/* gram.h - symmetric rank-k products C = beta C + A A', the Gram matrices of
 * the kernel (kernel.c, full storage, mirrored) and of the SVMs (eval.c,
 * striped upper-triangle storage): one home for what both did.
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

/* The same product kept in striped storage, for a caller that reads the
 * upper triangle only (eval.c's SVMs): stripe s, rows i0 = sT .. i0 + T - 1
 * (T = KPCA_GRAM_TILE; the last stripe may be shorter), holds columns
 * i0..n-1 row-major with leading dimension n - i0, and the stripes follow
 * one another.  kpca_gram_striped_len(n) doubles, about n(n + T)/2: half of
 * the n^2 to allocate and to touch for the first time (on a virtual
 * machine, first touch runs near 0.5 GB/s).  Entry (i, j), i <= j, is
 * data[off[i] + j] with the offsets from kpca_gram_striped_offsets (n of
 * them; unsigned arithmetic, so off[i] may wrap below zero).  The diagonal
 * tiles are whole and exactly symmetric.  kpca_gram_striped computes
 * data = beta data + A A' with the values kpca_gram_upper gives (same
 * calls, same shapes): no allocation, cannot fail. */
size_t kpca_gram_striped_len(size_t n);
void kpca_gram_striped_offsets(size_t n, size_t *off);
void kpca_gram_striped(size_t n, size_t k, const double *a, size_t lda, double beta, double *data);

/* kpca_gram_striped in binary32 (SGEMM, same calls and shapes): the
 * SVMs' Gram matrix of `kpca eval --precision single`, in half the memory. */
void kpca_gram_striped_single(size_t n, size_t k, const float *a, size_t lda, float beta, float *data);

/* Copies the strict upper triangle of C (n x n, ldc) onto the lower one, in
 * cache-sized tiles. */
void kpca_gram_mirror(double *c, size_t n, size_t ldc);

#endif

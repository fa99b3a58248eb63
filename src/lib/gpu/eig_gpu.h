/* eig_gpu.h - the top eigenpairs of a dense symmetric matrix with cuSOLVER.
 *
 * The matrix goes to GPU 0 once, on a stream of kpca's own (cuSOLVER's
 * syevd has a reported bug on the per-thread default stream), is solved by
 * the 64-bit generic API (cusolverDnXsyevd for all pairs, cusolverDnXsyevdx
 * with a range of indices for the top k), and only the k wanted vectors come
 * back.  In single precision the GPU holds and solves a binary32 copy
 * (CUDA_R_32F data and compute types), rounded on the host a block of rows
 * at a time as it is copied, and the pairs come back widened to double.
 * Core applies kpca's sign rule and tolerance to them as to LAPACK's
 * (core/model.c); this layer uses support/ only.
 */
#ifndef KPCA_EIG_GPU_H
#define KPCA_EIG_GPU_H

#include <stddef.h>

#include "gpu/cuew.h"
#include "support/error.h"
#include "support/precision.h"

/* The largest k/n for which cusolverDnXsyevdx (range I) is used instead of
 * cusolverDnXsyevd.  To be measured on a GPU (issue 43: k = 256 and 2048 at
 * M = 7291 and 15000); syevdx saves the back-transformation of the
 * unwanted vectors only, so the CPU's EVR fraction is taken meanwhile. */
#define KPCA_GPU_EVDX_MAX_FRACTION 0.25

/* The host bytes of binary32 rows rounded and copied to the GPU at a time in
 * single precision (at least one row). */
#define KPCA_GPU_UPLOAD_BLOCK ((size_t)1 << 24)

/* The device bytes the eigensolve of an n x n matrix for k pairs in
 * precision prec needs (the matrix, eigenvalues, info and cuSOLVER's device
 * workspace as its _bufferSize call says, in elements of 8 bytes, or 4 in
 * single precision) into *need, and the device's free bytes into
 * *free_bytes (either may be NULL).  KPCA_ENOMEM when need > free, saying
 * both; KPCA_EIO for a driver or cuSOLVER failure.  Cost: device 0's
 * primary context retained into cu the first time (kept there for the
 * solve, released by kpca_cuda_close: making it takes tens to hundreds of
 * ms on a GPU), a cuSOLVER handle made and released; no transfer. */
kpca_status kpca_gpu_eig_check(kpca_cuda *cu, size_t n, size_t k, kpca_precision prec, size_t *need,
                               size_t *free_bytes, kpca_error *err);

/* The k largest eigenvalues of the symmetric n x n matrix a (row-major, the
 * lower triangle of its column-major view read, i.e. both triangles set; not
 * modified) into evals (descending) and their unit eigenvectors into the
 * rows of evecs (k x n, row-major), unsigned (the caller applies
 * kpca_eig_fix_sign).  1 <= k <= n.  prec KPCA_PRECISION_SINGLE: solved in
 * binary32 on the GPU (a rounded to floats on the way, a block of
 * KPCA_GPU_UPLOAD_BLOCK bytes at a time), the pairs widened to double.
 * Device memory as kpca_gpu_eig_check says; host memory: cuSOLVER's host
 * workspace, n doubles and in single precision the upload block.  Errors:
 * KPCA_ENOMEM at any allocation, device or host, saying the bytes needed and
 * free; KPCA_ENUMERIC when cuSOLVER's info is not 0; KPCA_EIO for any other
 * driver or cuSOLVER failure.  Everything allocated is freed on every path;
 * the primary context stays retained in cu (kpca_gpu_eig_check). */
kpca_status kpca_gpu_eig_top(kpca_cuda *cu, const double *a, size_t n, size_t k, kpca_precision prec, double *evals,
                             double *evecs, kpca_error *err);

/* For tests: the upload block of single precision in bytes (0: back to
 * KPCA_GPU_UPLOAD_BLOCK), so that a small matrix goes up in several blocks.
 * Not thread-safe; no cost. */
void kpca_gpu_set_upload_block(size_t bytes);

#endif

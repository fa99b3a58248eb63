/* eig_gpu.h - the top eigenpairs of a dense symmetric matrix with cuSOLVER.
 *
 * The matrix goes to GPU 0 once, on a stream of kpca's own (cuSOLVER's
 * syevd has a reported bug on the per-thread default stream), is solved by
 * the 64-bit generic API (cusolverDnXsyevd for all pairs, cusolverDnXsyevdx
 * with a range of indices for the top k), and only the k wanted vectors come
 * back.  Core applies kpca's sign rule and tolerance to them as to LAPACK's
 * (core/model.c); this layer uses support/ only.
 */
#ifndef KPCA_EIG_GPU_H
#define KPCA_EIG_GPU_H

#include <stddef.h>

#include "gpu/cuew.h"
#include "support/error.h"

/* The largest k/n for which cusolverDnXsyevdx (range I) is used instead of
 * cusolverDnXsyevd.  To be measured on a GPU (issue 43: k = 256 and 2048 at
 * M = 7291 and 15000); syevdx saves the back-transformation of the
 * unwanted vectors only, so the CPU's EVR fraction is taken meanwhile. */
#define KPCA_GPU_EVDX_MAX_FRACTION 0.25

/* The device bytes the eigensolve of an n x n matrix for k pairs needs (the
 * matrix, eigenvalues, info and cuSOLVER's device workspace as its
 * _bufferSize call says) into *need, and the device's free bytes into
 * *free_bytes (either may be NULL).  KPCA_ENOMEM when need > free, saying
 * both; KPCA_EIO for a driver or cuSOLVER failure.  Cost: a context and a
 * cuSOLVER handle made and released (tens of ms on a GPU), no transfer. */
kpca_status kpca_gpu_eig_check(kpca_cuda *cu, size_t n, size_t k, size_t *need, size_t *free_bytes,
                               kpca_error *err);

/* The k largest eigenvalues of the symmetric n x n matrix a (row-major, the
 * lower triangle of its column-major view read, i.e. both triangles set; not
 * modified) into evals (descending) and their unit eigenvectors into the
 * rows of evecs (k x n, row-major), unsigned (the caller applies
 * kpca_eig_fix_sign).  1 <= k <= n.  Device memory as kpca_gpu_eig_check
 * says; host memory: cuSOLVER's host workspace and n doubles.  Errors:
 * KPCA_ENOMEM at any allocation, device or host, saying the bytes needed and
 * free; KPCA_ENUMERIC when cuSOLVER's info is not 0; KPCA_EIO for any other
 * driver or cuSOLVER failure.  Everything allocated is freed on every path. */
kpca_status kpca_gpu_eig_top(kpca_cuda *cu, const double *a, size_t n, size_t k, double *evals, double *evecs,
                             kpca_error *err);

#endif

/* eig.h - the top eigenpairs of a dense symmetric matrix, with LAPACKE.
 *
 * Methods: EVD, dsyevd's stages (dsytrd, dstedc divide and conquer) with the
 * back-transformation (dormtr) applied to the k wanted vectors only - fastest
 * when many are wanted; EVR, dsyevr (MRRR, a range of pairs) - fastest for
 * few.  AUTO picks by k/n with the crossover measured by bench/bench_eig.
 */
#ifndef KPCA_EIG_H
#define KPCA_EIG_H

#include <stddef.h>

#include "support/error.h"

/* ELPA: ELPA's two-stage solver, which only the distributed build has
 * (Debian's libelpa needs MPI); a single-process fit refuses it. */
typedef enum { KPCA_EIG_AUTO = 0, KPCA_EIG_EVD, KPCA_EIG_EVR, KPCA_EIG_ELPA } kpca_eig_method;

/* Largest k/n for which AUTO uses dsyevr.  Measured with bench/bench_eig on
 * USPS, M = 3000, degree 3, 2 cores: dsyevd 3.9-5.9 s for any k; dsyevr
 * 1.8-3.3 s for k <= 512, 7.0 s for k = 1024, 26 s for k = 2048. */
#define KPCA_EIG_EVR_MAX_FRACTION 0.25

const char *kpca_eig_method_name(kpca_eig_method m);
int kpca_eig_method_parse(const char *name, kpca_eig_method *out);
/* The driver AUTO resolves to for k of n pairs; EVR when EVD is asked (or
 * AUTO would choose it) and the EVD driver cannot take n
 * (kpca_eig_evd_fits); ELPA stays ELPA. */
kpca_eig_method kpca_eig_resolve(kpca_eig_method m, size_t n, size_t k);

/* KPCA_OK when kpca_eig_evd_fits(n), else KPCA_EUSAGE saying why. */
kpca_status kpca_eig_evd_check(size_t n, kpca_error *err);

/* 1 when the EVD driver's largest workspace (dstedc: 1 + 4n + n^2 doubles)
 * can be sized in LAPACK's 32-bit int: n <= 46338. */
int kpca_eig_evd_fits(size_t n);

/* The k largest eigenvalues of the symmetric n x n matrix a (row-major, both
 * triangles set; destroyed) into evals (descending) and their unit
 * eigenvectors into the rows of evecs (k x n, row-major).  Each eigenvector
 * is signed so that its entry of largest magnitude (the first such) is
 * positive.  Returns KPCA_ENUMERIC if LAPACK fails to converge. */
kpca_status kpca_eig_top(double *a, size_t n, size_t k, kpca_eig_method method, double *evals,
                         double *evecs, kpca_error *err);

/* The most negative eigenvalue of the symmetric n x n matrix a (row-major,
 * both triangles set; not modified) when it lies below -shift, shift = tol
 * max(sum_i |a_ii|, |a|_F) (tol >= 0: what counts as rounding), into
 * *lowest; else *lowest = 0.  A Cholesky factorisation (dpotrf) of a copy of
 * a + shift I decides: when it succeeds, every eigenvalue exceeds -shift
 * (up to the rounding of the factorisation, about n eps |a|); only when it
 * fails is the smallest eigenvalue computed (dsyevr, no vectors) and
 * compared.  Cost: n^2 doubles and n^3/3 flops (BLAS 3), and the
 * tridiagonal reduction, 4n^3/3 flops, more when the factorisation fails.
 * Errors: KPCA_ENOMEM, KPCA_ENUMERIC (dsyevr: kpca_eig_lapack_status);
 * *lowest is 0 then. */
kpca_status kpca_eig_lowest(const double *a, size_t n, double tol, double *lowest, kpca_error *err);

/* The sign rule of every eigenvector kpca returns (exact and randomized
 * solvers, Nystrom components): the first entry of largest magnitude is
 * made positive.  v has n entries, stride apart; returns 1 if it was
 * negated. */
int kpca_eig_fix_sign(double *v, size_t n, size_t stride);

/* A LAPACK(E) status other than 0 as a kpca error naming the driver:
 * LAPACKE's work or transpose memory errors are KPCA_ENOMEM, an illegal
 * argument (info < 0) KPCA_EINTERNAL, anything else (no convergence)
 * KPCA_ENUMERIC. */
kpca_status kpca_eig_lapack_status(int info, const char *driver, kpca_error *err);

/* Chooses how many eigenpairs to keep from all n eigenvalues (descending);
 * returns a count in 1..n. */
typedef size_t (*kpca_eig_chooser)(const double *evals_desc, size_t n, void *ctx);

/* Like kpca_eig_top with the EVD driver (KPCA_EUSAGE when
 * !kpca_eig_evd_fits(n)), but the count is chosen by
 * choose() once all eigenvalues are known (e.g. enough components to
 * explain 95 % of the trace).  evals must hold n values (on return the first
 * *k are the kept ones) and evecs n x n (the first *k rows are set). */
kpca_status kpca_eig_top_chosen(double *a, size_t n, kpca_eig_chooser choose, void *ctx, size_t *k, double *evals,
                                double *evecs, kpca_error *err);

/* The same in binary32 (--precision single): a is the n x n matrix as floats
 * (symmetric, both triangles set; destroyed), solved by ssytrd, sstedc and
 * sormtr on the wanted vectors (EVD) or ssyevr (EVR).  choose == NULL:
 * the k largest pairs by `method` as kpca_eig_top resolves it; else, like
 * kpca_eig_top_chosen, the EVD driver with the count chosen from all n
 * eigenvalues (evals then holds n, evecs n x n).  The pairs come back as
 * double (the floats widened), descending, signed by kpca_eig_fix_sign;
 * *kout (if not NULL) gets the count.  Workspace: EVD 2 n^2 + O(n) floats,
 * half of the double driver's.  Errors as kpca_eig_top. */
kpca_status kpca_eig_top_single(float *a, size_t n, size_t k, kpca_eig_method method, kpca_eig_chooser choose,
                                void *ctx, size_t *kout, double *evals, double *evecs, kpca_error *err);

#endif

/* reduce_eig.h - the exact eigen-expansion of a component of the
 * homogeneous quadratic kernel (gamma x.y)^2 (reduce.h, method EIG): the
 * start of kpca_reduce for that kernel, internal to the library.
 *
 * Component c is the symmetric matrix S_c = sum_i a_ci x_i x_i' (dim x
 * dim); its eigenvectors u with eigenvalues l give V_c = sum l Phi(u)
 * exactly, at most dim vectors per component, ranked by w_c gamma^2 l^2. */
#ifndef KPCA_REDUCE_EIG_H
#define KPCA_REDUCE_EIG_H

#include <stddef.h>

#include "support/error.h"
#include "core/model.h"

/* The eigen-expansion's start for the k components a (k x M, centred
 * alpha) of `full` weighted by w (k): the (at most `want`) vectors with the
 * largest weighted l^2 over all components in *z_out (mr x dim), their
 * beta in *beta_out (k x mr), mr in *mr_out; both arrays allocated with
 * kpca_malloc, the caller's to free.  With only_exact, when the exact
 * expansion needs more than `want` vectors, nothing is made and *mr_out =
 * 0.  Cost: one dsyevd of dim x dim per component (twice for the kept
 * ones, with vectors).  Errors: KPCA_ENOMEM, KPCA_ENUMERIC (LAPACK). */
kpca_status kpca_reduce_eig_start(const kpca_model *full, const double *a, const double *w, size_t k, size_t want,
                                  int only_exact, double **z_out, double **beta_out, size_t *mr_out,
                                  kpca_error *err);

#endif

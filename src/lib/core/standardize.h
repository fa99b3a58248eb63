/* standardize.h - per-column statistics of a data matrix: the
 * standardisation of `kpca fit --standardize` (each column centred by its
 * mean and divided by its standard deviation, as scikit-learn's
 * StandardScaler), and the column ranges and spreads that the command line
 * compares inputs with.
 *
 * x is n rows of dim values, row-major.  Nothing here allocates or fails;
 * every array is caller-owned, dim entries.  Cost O(n dim) each.
 */
#ifndef KPCA_STANDARDIZE_H
#define KPCA_STANDARDIZE_H

#include <stddef.h>

/* For each column j: mean[j], the population standard deviation sd[j]
 * (divided by n, scikit-learn's ddof 0; two passes over the rows; exactly 0
 * for a constant column), and the smallest and largest value lo[j], hi[j].
 * n >= 1. */
void kpca_column_stats(const double *x, size_t n, size_t dim, double *mean, double *sd, double *lo, double *hi);

/* The standardisation of the n rows x: mean[j] and scale[j] = sd[j] of
 * kpca_column_stats (lo, hi: its column ranges, filled as there), except
 * that a constant column (all its values equal; or, past a double's range,
 * a deviation that is 0 or infinite) gets scale[j] = 1 and, when constant,
 * mean[j] = its value exactly, so that it maps to 0 (scikit-learn also
 * leaves a zero variance's scale at 1).  const_col (may be NULL; dim
 * entries) receives 1 for each such column.  Returns their number.
 * n >= 1. */
size_t kpca_standardize_fit(const double *x, size_t n, size_t dim, double *mean, double *scale, double *lo,
                            double *hi, unsigned char *const_col);

/* x[i][j] = (x[i][j] - mean[j]) / scale[j], in place (scale[j] > 0). */
void kpca_standardize(double *x, size_t n, size_t dim, const double *mean, const double *scale);

/* The inverse: x[i][j] = x[i][j] * scale[j] + mean[j], in place. */
void kpca_unstandardize(double *x, size_t n, size_t dim, const double *mean, const double *scale);

/* The mean and standard deviation (over n) of the n values x[0],
 * x[stride], ... computed in units of s (their largest magnitude), so that
 * neither overflows where the values' squares would: kpca_column_stats's
 * second try for a column of values near DBL_MAX.  O(n). */
void kpca_column_spread_scaled(const double *x, size_t n, size_t stride, double s, double *mean, double *sd);

/* The Euclidean norm of v (dim values), scaled by its largest magnitude so
 * that it overflows only where the norm itself does: sqrt of a total
 * variance from the columns' deviations.  O(dim). */
double kpca_spread_norm(const double *v, size_t dim);

#endif

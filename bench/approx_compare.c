/* approx_compare.c - how far an approximate kernel PCA model is from the
 * exact one, for scripts/approx.sh.
 *
 * usage: approx_compare EXACT.h5 APPROX.h5 DATA ROWS K
 * Projects the first ROWS points of DATA (the exact model's fit points, so
 * that the exact columns are sqrt(mu) u) with both models onto their first
 * K components and prints one CSV line:
 *   k,eig_max_relerr,eig_mean_relerr,subspace_sin_max,subspace_mean
 * eig_*: |mu_c - mu~_c| / mu_c over c < K.  subspace: principal angles
 * between the column spans of the two ROWS x K projection matrices (QR of
 * each, singular values s of Q1^T Q2): sin of the largest angle,
 * sqrt(1 - min s^2), and the mean, sqrt(sum (1 - s^2) / K). */
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/coretype.h"
#include "lib/kpca.h"
#include "lib/core/gram.h"
#include "lib/support/clock.h"

static int orthonormal_columns(double *z, size_t n, size_t k)
{
    double *tau = malloc(k * sizeof *tau);
    if (tau == NULL)
        return -1;
    lapack_int info = LAPACKE_dgeqrf(LAPACK_ROW_MAJOR, (lapack_int)n, (lapack_int)k, z, (lapack_int)k, tau);
    if (info == 0)
        info = LAPACKE_dorgqr(LAPACK_ROW_MAJOR, (lapack_int)n, (lapack_int)k, (lapack_int)k, z, (lapack_int)k, tau);
    free(tau);
    return info == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    cli_coretype_reexec(argv);
    if (argc != 6) {
        fprintf(stderr, "usage: approx_compare EXACT.h5 APPROX.h5 DATA ROWS K\n");
        return 2;
    }
    size_t rows = (size_t)atol(argv[4]), k = (size_t)atol(argv[5]);
    kpca_error err;
    kpca_model ex, ap;
    kpca_dataset all;
    if (kpca_model_load(argv[1], &ex, &err) != KPCA_OK || kpca_model_load(argv[2], &ap, &err) != KPCA_OK ||
        kpca_dataset_read(argv[3], NULL, &all, &err) != KPCA_OK) {
        fprintf(stderr, "approx_compare: %s\n", err.msg);
        return 1;
    }
    if (k == 0 || k > ex.k || k > ap.k || rows < k || rows > all.n) {
        fprintf(stderr, "approx_compare: K = %zu, ROWS = %zu do not fit (models: %zu and %zu components, %zu rows)\n",
                k, rows, ex.k, ap.k, all.n);
        return 2;
    }
    double *z1 = malloc(rows * k * sizeof *z1), *z2 = malloc(rows * k * sizeof *z2), *c = malloc(k * k * sizeof *c);
    double *s = malloc(k * sizeof *s), *sup = malloc(k * sizeof *sup);
    if (!z1 || !z2 || !c || !s || !sup) {
        fprintf(stderr, "approx_compare: out of memory\n");
        return 1;
    }
    if (kpca_model_transform(&ex, all.x, rows, all.dim, k, z1, &err) != KPCA_OK ||
        kpca_model_transform(&ap, all.x, rows, all.dim, k, z2, &err) != KPCA_OK) {
        fprintf(stderr, "approx_compare: %s\n", err.msg);
        return 1;
    }
    double emax = 0.0, emean = 0.0;
    for (size_t j = 0; j < k; j++) {
        double e = fabs(ap.eigval[j] - ex.eigval[j]) / ex.eigval[j];
        emax = fmax(emax, e);
        emean += e / (double)k;
    }
    if (orthonormal_columns(z1, rows, k) != 0 || orthonormal_columns(z2, rows, k) != 0) {
        fprintf(stderr, "approx_compare: QR failed\n");
        return 1;
    }
    /* C = Q1^T Q2 (k x k) */
    for (size_t a = 0; a < k; a++)
        for (size_t b = 0; b < k; b++) {
            double v = 0.0;
            for (size_t i = 0; i < rows; i++)
                v += z1[i * k + a] * z2[i * k + b];
            c[a * k + b] = v;
        }
    if (LAPACKE_dgesvd(LAPACK_ROW_MAJOR, 'N', 'N', (lapack_int)k, (lapack_int)k, c, (lapack_int)k, s, NULL, 1,
                       NULL, 1, sup) != 0) {
        fprintf(stderr, "approx_compare: SVD failed\n");
        return 1;
    }
    double smin = fmin(s[k - 1], 1.0), sum = 0.0;
    for (size_t j = 0; j < k; j++)
        sum += 1.0 - fmin(s[j] * s[j], 1.0);
    printf("%zu,%.3e,%.3e,%.3e,%.3e\n", k, emax, emean, sqrt(fmax(0.0, 1.0 - smin * smin)), sqrt(sum / (double)k));
    free(z1);
    free(z2);
    free(c);
    free(s);
    free(sup);
    kpca_model_free(&ex);
    kpca_model_free(&ap);
    kpca_dataset_free(&all);
    return 0;
}

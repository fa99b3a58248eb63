/* bench_eig.c - time dsyevd (all pairs) against dsyevr (top k) on a centred
 * USPS kernel matrix, to set KPCA_EIG_EVR_MAX_FRACTION.
 * usage: bench_eig [M [DEGREE [K...]]]   (run from the repository root) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/coretype.h"
#include "lib/kpca.h"
#include "lib/core/gram.h"
#include "lib/support/clock.h"

int main(int argc, char **argv)
{
    cli_coretype_reexec(argv); /* the right OpenBLAS kernels, as kpca itself */
    size_t m = argc > 1 ? (size_t)atol(argv[1]) : 3000;
    int degree = argc > 2 ? atoi(argv[2]) : 3;
    size_t ks_default[] = {64, 128, 256, 384, 512, 1024, 2048};
    size_t nk = argc > 3 ? (size_t)(argc - 3) : sizeof ks_default / sizeof ks_default[0];
    kpca_error err;
    kpca_dataset all, fit;
    if (kpca_dataset_read("data/zip.train.gz", NULL, &all, &err) != KPCA_OK) {
        fprintf(stderr, "bench_eig: %s\n", err.msg);
        return 1;
    }
    size_t *idx = malloc(m * sizeof *idx);
    kpca_subset_indices(all.n, m, 0, idx, &err);
    kpca_dataset_select(&all, idx, m, &fit, &err);
    kpca_kernel k = kpca_kernel_poly(degree);
    double *K = malloc(m * m * sizeof(double)), *A = malloc(m * m * sizeof(double));
    double *mu = malloc(m * sizeof(double)), *u = malloc(m * m * sizeof(double)), *cm = malloc(m * sizeof(double));
    double g;
    kpca_kernel_gram(&k, fit.x, m, fit.dim, K);
    kpca_center_fit(K, m, cm, &g);
    printf("M = %zu, degree %d\n%6s %8s %8s\n", m, degree, "k", "evd_s", "evr_s");
    double evd = -1;
    for (size_t i = 0; i < nk; i++) {
        size_t kk = argc > 3 ? (size_t)atol(argv[3 + i]) : ks_default[i];
        if (kk > m)
            continue;
        double t[2];
        for (int meth = 0; meth < 2; meth++) {
            if (meth == 0 && evd >= 0) {
                t[0] = evd; /* dsyevd computes all pairs whatever k is */
                continue;
            }
            memcpy(A, K, m * m * sizeof(double));
            double t0 = kpca_now();
            if (kpca_eig_top(A, m, kk, meth == 0 ? KPCA_EIG_EVD : KPCA_EIG_EVR, mu, u, &err) != KPCA_OK) {
                fprintf(stderr, "bench_eig: %s\n", err.msg);
                return 1;
            }
            t[meth] = kpca_now() - t0;
        }
        evd = t[0];
        printf("%6zu %8.2f %8.2f\n", kk, t[0], t[1]);
        fflush(stdout);
    }
    return 0;
}

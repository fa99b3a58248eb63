/* bench_approx.c - the randomized eigensolver (randeig.h) against the exact
 * one (kpca_eig_top, AUTO driver) on a centred USPS kernel matrix: seconds,
 * worst relative eigenvalue error and worst 1 - |u.v| over the top k.
 * Not part of `make bench`; build with make build/bench/bench_approx.
 * usage: bench_approx [M [DEGREE [OVERSAMPLE [POWER_ITERS [K...]]]]]   (from the repository root) */
#include <math.h>
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
    size_t p = argc > 3 ? (size_t)atol(argv[3]) : KPCA_RSVD_OVERSAMPLE;
    size_t q = argc > 4 ? (size_t)atol(argv[4]) : KPCA_RSVD_POWER_ITERS;
    size_t ks_default[] = {16, 64, 256};
    size_t nk = argc > 5 ? (size_t)(argc - 5) : sizeof ks_default / sizeof ks_default[0];
    kpca_error err;
    kpca_dataset all, fit;
    if (kpca_dataset_read("data/zip.train.gz", NULL, &all, &err) != KPCA_OK) {
        fprintf(stderr, "bench_approx: %s\n", err.msg);
        return 1;
    }
    if (m > all.n)
        m = all.n;
    size_t *idx = malloc(m * sizeof *idx);
    kpca_subset_indices(all.n, m, 0, idx, &err);
    kpca_dataset_select(&all, idx, m, &fit, &err);
    kpca_kernel kern = kpca_kernel_poly(degree);
    double *K = malloc(m * m * sizeof(double)), *A = malloc(m * m * sizeof(double));
    double *mu = malloc(m * sizeof(double)), *u = malloc(m * m * sizeof(double)), *cm = malloc(m * sizeof(double));
    double *rmu = malloc(m * sizeof(double)), *ru = malloc(m * m * sizeof(double));
    double g;
    kpca_kernel_gram(&kern, fit.x, m, fit.dim, K);
    kpca_center_fit(K, m, cm, &g);
    printf("M = %zu, degree %d, oversample %zu, power iterations %zu\n%6s %8s %8s %10s %10s %10s\n", m, degree, p, q,
           "k", "exact_s", "rand_s", "max_relerr", "relerr_k/2", "max_1-|uv|");
    for (size_t i = 0; i < nk; i++) {
        size_t kk = argc > 5 ? (size_t)atol(argv[5 + i]) : ks_default[i];
        if (kk == 0 || kk > m)
            continue;
        memcpy(A, K, m * m * sizeof(double));
        double t0 = kpca_now();
        kpca_status st = kpca_eig_top(A, m, kk, KPCA_EIG_AUTO, mu, u, &err);
        double t1 = kpca_now();
        if (st == KPCA_OK)
            st = kpca_eig_randomized(K, m, kk, p, q, 1, rmu, ru, &err);
        double t2 = kpca_now();
        if (st != KPCA_OK) {
            fprintf(stderr, "bench_approx: %s\n", err.msg);
            return 1;
        }
        double rel = 0.0, ang = 0.0;
        for (size_t j = 0; j < kk; j++) {
            double dot = 0.0;
            for (size_t t = 0; t < m; t++)
                dot += u[j * m + t] * ru[j * m + t];
            rel = fmax(rel, fabs(rmu[j] - mu[j]) / mu[j]);
            ang = fmax(ang, 1.0 - fabs(dot));
        }
        double half = fabs(rmu[kk / 2] - mu[kk / 2]) / mu[kk / 2]; /* mid-range: less gap-limited than the k-th */
        printf("%6zu %8.2f %8.2f %10.2e %10.2e %10.2e\n", kk, t1 - t0, t2 - t1, rel, half, ang);
        fflush(stdout);
    }
    return 0;
}

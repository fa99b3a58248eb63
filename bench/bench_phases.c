/* bench_phases.c - time every phase of one grid column (one degree), in
 * process, with the library's own functions: read, Gram matrix, kernel
 * power, centring, each LAPACK eigensolver the fit can use, the whole fit,
 * projection of the training and test digits, and the SVMs (training and
 * prediction per prefix).  Prints a Markdown table; GFLOP/s where the phase
 * is dense linear algebra with a known operation count; peak RSS at the end.
 *
 * usage: bench_phases [DEGREE [M [K]]]    (from the repository root; reads
 *        data/zip.train.gz and data/zip.test.gz; default 3 3000 2048)
 * Phases run one after another, so each has the whole machine (OpenBLAS's
 * threads for BLAS and LAPACK, one worker per CPU for the SVMs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <lapacke.h>

#include "lib/kpca.h"

static void row(const char *phase, double sec, double gflop, const char *note)
{
    if (gflop > 0)
        printf("| %s | %.3f | %.1f | %s |\n", phase, sec, gflop / sec, note);
    else
        printf("| %s | %.3f | | %s |\n", phase, sec, note);
    fflush(stdout);
}

static void die(const char *what, const kpca_error *err)
{
    fprintf(stderr, "bench_phases: %s: %s\n", what, err->msg);
    exit(1);
}

int main(int argc, char **argv)
{
    kpca_blas_reexec(argv); /* the right OpenBLAS kernels, as kpca itself */
    int degree = argc > 1 ? atoi(argv[1]) : 3;
    size_t m = argc > 2 ? (size_t)atol(argv[2]) : 3000;
    size_t k = argc > 3 ? (size_t)atol(argv[3]) : 2048;
    kpca_error err;
    kpca_dataset tr, te, fit;
    char note[256];

    printf("| phase (d = %d, M = %zu, k = %zu) | seconds | GFLOP/s | notes |\n|---|---:|---:|---|\n", degree, m, k);
    double t0 = kpca_now();
    if (kpca_dataset_read("data/zip.train.gz", NULL, &tr, &err) != KPCA_OK)
        die("read", &err);
    if (kpca_dataset_read("data/zip.test.gz", NULL, &te, &err) != KPCA_OK)
        die("read", &err);
    snprintf(note, sizeof note, "%zu + %zu digits, gzip text", tr.n, te.n);
    row("read", kpca_now() - t0, 0, note);
    size_t *idx = malloc(m * sizeof *idx);
    if (idx == NULL || kpca_subset_indices(tr.n, m, 0, idx, &err) != KPCA_OK ||
        kpca_dataset_select(&tr, idx, m, &fit, &err) != KPCA_OK)
        die("subset", &err);
    free(idx);

    double *K = malloc(m * m * sizeof(double)), *A = malloc(m * m * sizeof(double));
    double *mu = malloc(m * sizeof(double)), *u = malloc(m * k * sizeof(double));
    double *cm = malloc(m * sizeof(double));
    if (K == NULL || A == NULL || mu == NULL || u == NULL || cm == NULL) {
        fprintf(stderr, "bench_phases: out of memory\n");
        return 1;
    }
    kpca_kernel lin = kpca_kernel_poly(1), poly = kpca_kernel_poly(degree);
    t0 = kpca_now();
    kpca_kernel_gram(&lin, fit.x, m, fit.dim, K);
    row("Gram matrix X X' (DSYRK)", kpca_now() - t0, (double)m * (double)m * (double)fit.dim * 1e-9,
        "M^2 dim flops");
    t0 = kpca_now();
    kpca_kernel_apply(&poly, K, m);
    row("kernel: elementwise power", kpca_now() - t0, 0, "");
    double g;
    t0 = kpca_now();
    kpca_center_fit(K, m, cm, &g);
    row("centring", kpca_now() - t0, 0, "");

    /* LAPACK's own drivers, called directly: the reference for the fit */
    double fastest = 0;
    lapack_int *isuppz = malloc(2 * k * sizeof *isuppz);
    double *w = malloc(m * sizeof(double)), *z = malloc(m * k * sizeof(double));
    if (isuppz == NULL || w == NULL || z == NULL) {
        fprintf(stderr, "bench_phases: out of memory\n");
        return 1;
    }
    for (int s = 0; s < 2; s++) {
        memcpy(A, K, m * m * sizeof(double));
        lapack_int found = 0, info;
        t0 = kpca_now();
        if (s == 0)
            info = LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'L', (lapack_int)m, A, (lapack_int)m, w);
        else
            info = LAPACKE_dsyevr(LAPACK_COL_MAJOR, 'V', 'I', 'L', (lapack_int)m, A, (lapack_int)m, 0.0, 0.0,
                                  (lapack_int)(m - k + 1), (lapack_int)m, 0.0, &found, w, z, (lapack_int)m, isuppz);
        double sec = kpca_now() - t0;
        if (info != 0) {
            fprintf(stderr, "bench_phases: LAPACK info %d\n", (int)info);
            return 1;
        }
        if (fastest == 0 || sec < fastest)
            fastest = sec;
        row(s == 0 ? "LAPACKE_dsyevd (all pairs)" : "LAPACKE_dsyevr (top k)", sec, 0, "LAPACK's driver, for reference");
    }
    free(isuppz);
    free(w);
    free(z);
    memcpy(A, K, m * m * sizeof(double));
    t0 = kpca_now();
    if (kpca_eig_top(A, m, k, KPCA_EIG_EVD, mu, u, &err) != KPCA_OK)
        die("eigensolver", &err);
    row("kpca's evd: dsytrd + dstedc + dormtr on k vectors", kpca_now() - t0, 0, "what `kpca fit` runs for k > M/4");
    free(A);
    free(K);
    free(u);
    free(mu);
    free(cm);

    kpca_fit_params fp = kpca_fit_defaults(degree);
    fp.components = k;
    kpca_model model;
    kpca_fit_info info;
    t0 = kpca_now();
    if (kpca_model_fit(&fit, &fp, &model, &info, &err) != KPCA_OK)
        die("fit", &err);
    double sec = kpca_now() - t0;
    snprintf(note, sizeof note, "%s; %.2f x the fastest LAPACK driver above", kpca_eig_method_name(info.eig_used),
             sec / fastest);
    row("fit (kernel + centring + eigensolver + alpha)", sec, 0, note);

    size_t kk = model.k;
    double *ztr = malloc(tr.n * kk * sizeof(double)), *zte = malloc(te.n * kk * sizeof(double));
    if (ztr == NULL || zte == NULL) {
        fprintf(stderr, "bench_phases: out of memory\n");
        return 1;
    }
    t0 = kpca_now();
    if (kpca_model_transform(&model, tr.x, tr.n, tr.dim, kk, ztr, &err) != KPCA_OK ||
        kpca_model_transform(&model, te.x, te.n, te.dim, kk, zte, &err) != KPCA_OK)
        die("transform", &err);
    double n = (double)(tr.n + te.n);
    snprintf(note, sizeof note, "%zu points: cross kernel + centring + GEMM", tr.n + te.n);
    row("projection", kpca_now() - t0, n * (double)m * ((double)tr.dim + 2.0 * (double)kk) * 1e-9, note);

    size_t prefixes[] = {64, 128, 256, 512, 1024, 2048};
    size_t np = 0;
    while (np < 6 && prefixes[np] <= kk)
        np++;
    kpca_eval_row rows[6];
    kpca_svm_params sp = kpca_svm_defaults();
    sp.C = 10;
    t0 = kpca_now();
    if (kpca_eval(ztr, tr.y, tr.n, zte, te.y, te.n, kk, prefixes, np, &sp, rows, &err) != KPCA_OK)
        die("eval", &err);
    double all = kpca_now() - t0, train = 0, pred = 0;
    for (size_t i = 0; i < np; i++) {
        snprintf(note, sizeof note, "%zu components: %.2f %% test error, %zu support vectors", rows[i].components,
                 rows[i].error_pct, rows[i].nsv);
        row("SVM training (45 one-vs-one machines)", rows[i].sec_train, 0, note);
        train += rows[i].sec_train;
        pred += rows[i].sec_predict;
    }
    row("SVM prediction, all prefixes", pred, 0, "one GEMM per prefix");
    double gram_flops = (double)tr.n * (double)tr.n * (double)prefixes[np - 1] * 1e-9;
    snprintf(note, sizeof note, "its %.0f GFLOP grow the SVMs' Gram matrix (DSYRK) prefix by prefix",
             gram_flops);
    row("eval, the rest", all - train - pred, 0, note);

    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("\npeak RSS: %.0f MB\n", (double)ru.ru_maxrss / 1024.0);
    kpca_model_free(&model);
    kpca_dataset_free(&tr);
    kpca_dataset_free(&te);
    kpca_dataset_free(&fit);
    free(ztr);
    free(zte);
    return 0;
}

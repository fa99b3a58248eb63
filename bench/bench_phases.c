/* bench_phases.c - time every phase of one grid column (one degree), in
 * process, with the library's own functions: read, Gram matrix, kernel
 * power, centring, each LAPACK eigensolver the fit can use, the whole fit,
 * projection of the training and test digits, and the SVMs (training and
 * prediction per prefix).  Prints a Markdown table; GFLOP/s where the phase
 * is dense linear algebra with a known operation count; peak RSS at the end.
 *
 * Then the floor of every phase, from rates measured in the same run: the
 * machine's DGEMM (and, for comparison, DSYRK) at the shapes the phases
 * use, LAPACKE_dsyevd on the fit's matrix, and LIBSVM's own solver time.
 *
 * usage: bench_phases [DEGREE [M [K [FLOORS]]]]   (from the repository root;
 *        reads data/zip.train.gz and data/zip.test.gz; default 3 3000 2048;
 *        FLOORS: also write the floors as KEY=VALUE lines to that file)
 * Phases run one after another, so each has the whole machine (OpenBLAS's
 * threads for BLAS and LAPACK, one worker per CPU for the SVMs). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cblas.h>
#include <lapacke.h>
#include <stdint.h>

#include "cli/coretype.h"
#include "lib/kpca.h"
#include "lib/core/gram.h"
#include "lib/support/clock.h"

static void row(const char *phase, double sec, double gflop, const char *note)
{
    if (gflop > 0)
        printf("| %s | %.3f | %.1f | %s |\n", phase, sec, gflop / sec, note);
    else
        printf("| %s | %.3f | | %s |\n", phase, sec, note);
    fflush(stdout);
}

/* GFLOP/s of C = A B' (m x n, inner k; 2mnk flops), or with syrk of the
 * upper triangle of C = A A' (n = m; m^2 k flops): the best of three runs
 * on random operands, so that page faults and thread start-up are not
 * counted */
static double blas_rate(size_t m, size_t n, size_t k, int syrk)
{
    double *a = malloc(m * k * sizeof(double)), *b = malloc(n * k * sizeof(double)), *c = malloc(m * n * sizeof(double));
    if (a == NULL || b == NULL || c == NULL) {
        fprintf(stderr, "bench_phases: out of memory\n");
        exit(1);
    }
    uint64_t seed = 1;
    for (size_t i = 0; i < m * k; i++)
        a[i] = (double)(kpca_splitmix64(&seed) >> 11) / 9007199254740992.0 - 0.5;
    for (size_t i = 0; i < n * k; i++)
        b[i] = (double)(kpca_splitmix64(&seed) >> 11) / 9007199254740992.0 - 0.5;
    double best = 1e300;
    for (int r = 0; r < 3; r++) {
        double t0 = kpca_now();
        if (syrk)
            cblas_dsyrk(CblasRowMajor, CblasUpper, CblasNoTrans, (int)m, (int)k, 1.0, a, (int)k, 0.0, c, (int)m);
        else
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)m, (int)n, (int)k, 1.0, a, (int)k, b, (int)k,
                        0.0, c, (int)n);
        double sec = kpca_now() - t0;
        if (sec < best)
            best = sec;
    }
    free(a);
    free(b);
    free(c);
    double flops = syrk ? (double)m * (double)m * (double)k : 2.0 * (double)m * (double)n * (double)k;
    return flops * 1e-9 / best;
}

static void floor_row(const char *phase, double sec, double floor, const char *how)
{
    printf("| %s | %.3f | %.3f | %.2f | %s |\n", phase, sec, floor, sec / floor, how);
    fflush(stdout);
}

static void die(const char *what, const kpca_error *err)
{
    fprintf(stderr, "bench_phases: %s: %s\n", what, err->msg);
    exit(1);
}

int main(int argc, char **argv)
{
    cli_coretype_reexec(argv); /* the right OpenBLAS kernels, as kpca itself */
    int degree = argc > 1 ? atoi(argv[1]) : 3;
    size_t m = argc > 2 ? (size_t)atol(argv[2]) : 3000;
    size_t k = argc > 3 ? (size_t)atol(argv[3]) : 2048;
    kpca_error err;
    kpca_dataset tr, te, fit;
    char note[256];

    printf("| phase (d = %d, M = %zu, k = %zu) | seconds | GFLOP/s | notes |\n|---|---:|---:|---|\n", degree, m, k);
    const char *floors_path = argc > 4 ? argv[4] : NULL;
    double t0 = kpca_now();
    if (kpca_dataset_read("data/zip.train.gz", NULL, &tr, &err) != KPCA_OK)
        die("read", &err);
    double sec_read_train = kpca_now() - t0;
    if (kpca_dataset_read("data/zip.test.gz", NULL, &te, &err) != KPCA_OK)
        die("read", &err);
    snprintf(note, sizeof note, "%zu + %zu digits, gzip text", tr.n, te.n);
    double sec_read = kpca_now() - t0;
    row("read", sec_read, 0, note);
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
    double sec_kernel_gram = kpca_now() - t0;
    row("Gram matrix X X' (DGEMM on tiles)", sec_kernel_gram, (double)m * (double)m * (double)fit.dim * 1e-9,
        "M^2 dim flops");
    t0 = kpca_now();
    kpca_kernel_apply(&poly, K, m);
    row("kernel: elementwise power", kpca_now() - t0, 0, "");
    double g;
    t0 = kpca_now();
    kpca_center_fit(K, m, cm, &g);
    row("centring", kpca_now() - t0, 0, "");

    /* LAPACK's own drivers, called directly: the reference for the fit */
    double fastest = 0, sec_dsyevd = 0;
    lapack_int *isuppz = malloc(2 * k * sizeof *isuppz);
    double *w = malloc(m * sizeof(double)), *z = malloc(m * k * sizeof(double));
    if (isuppz == NULL || w == NULL || z == NULL) {
        fprintf(stderr, "bench_phases: out of memory\n");
        return 1;
    }
    for (int s = 0; s < 2; s++) {
        /* dsyevd, the fit's floor, the median of three runs (as the fit's) */
        int reps = s == 0 ? 3 : 1;
        double runs[3];
        for (int r = 0; r < reps; r++) {
            memcpy(A, K, m * m * sizeof(double));
            lapack_int found = 0, info;
            t0 = kpca_now();
            if (s == 0)
                info = LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'L', (lapack_int)m, A, (lapack_int)m, w);
            else
                info = LAPACKE_dsyevr(LAPACK_COL_MAJOR, 'V', 'I', 'L', (lapack_int)m, A, (lapack_int)m, 0.0, 0.0,
                                      (lapack_int)(m - k + 1), (lapack_int)m, 0.0, &found, w, z, (lapack_int)m,
                                      isuppz);
            runs[r] = kpca_now() - t0;
            if (info != 0) {
                fprintf(stderr, "bench_phases: LAPACK info %d\n", (int)info);
                return 1;
            }
        }
        double sec = runs[0];
        char lnote[96] = "LAPACK's driver, for reference";
        if (reps == 3) {
            double lo = fmin(runs[0], fmin(runs[1], runs[2])), hi = fmax(runs[0], fmax(runs[1], runs[2]));
            sec = runs[0] + runs[1] + runs[2] - lo - hi;
            snprintf(lnote, sizeof lnote, "LAPACK's driver, for reference; median of %.3f, %.3f, %.3f", runs[0],
                     runs[1], runs[2]);
        }
        if (fastest == 0 || sec < fastest)
            fastest = sec;
        if (s == 0)
            sec_dsyevd = sec;
        row(s == 0 ? "LAPACKE_dsyevd (all pairs)" : "LAPACKE_dsyevr (top k)", sec, 0, lnote);
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
    double sec = kpca_now() - t0, sec_fit = sec;
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
    double sec_proj = kpca_now() - t0;
    /* 2 flops per multiply-add: the cross kernel (dim) and the projection (k) */
    double proj_flops = 2.0 * n * (double)m * ((double)tr.dim + (double)kk) * 1e-9;
    snprintf(note, sizeof note, "%zu points: cross kernel + centring + GEMM", tr.n + te.n);
    row("projection", sec_proj, proj_flops, note);
    t0 = kpca_now();
    kpca_features_meta meta = {NULL, NULL, model.eigval, NULL, 0, 0, NULL, 0};
    if (kpca_features_write("build/bench/phases-features.h5", KPCA_FMT_HDF5, ztr, tr.n, kk, tr.y, &meta, &err) !=
        KPCA_OK)
        die("write", &err);
    double sec_write = kpca_now() - t0;
    snprintf(note, sizeof note, "%zu x %zu training features, %.0f MB, sealed (CRC-32)", tr.n, kk,
             8e-6 * (double)tr.n * (double)kk);
    row("write features (HDF5)", sec_write, 0, note);
    t0 = kpca_now();
    kpca_dataset back;
    if (kpca_dataset_read("build/bench/phases-features.h5", NULL, &back, &err) != KPCA_OK)
        die("read features", &err);
    double sec_readf = kpca_now() - t0;
    kpca_dataset_free(&back);
    row("read features (HDF5)", sec_readf, 0, "the same file, seal checked");
    remove("build/bench/phases-features.h5");

    size_t prefixes[] = {64, 128, 256, 512, 1024, 2048};
    size_t np = 0;
    while (np < 6 && prefixes[np] <= kk)
        np++;
    kpca_eval_row rows[6];
    kpca_eval_params sp = kpca_eval_defaults();
    sp.svm.C = 10;
    t0 = kpca_now();
    if (kpca_eval(ztr, tr.y, tr.n, zte, te.y, te.n, kk, prefixes, np, &sp, rows, &err) != KPCA_OK)
        die("eval", &err);
    double all = kpca_now() - t0, train = 0, pred = 0, gram = 0, solver = 0;
    long nth = sp.svm.threads > 0 ? sp.svm.threads : sysconf(_SC_NPROCESSORS_ONLN);
    if (nth < 1)
        nth = 1;
    for (size_t i = 0; i < np; i++) {
        snprintf(note, sizeof note, "%zu components: %.2f %% test error, %zu support vectors; %.3f s in LIBSVM's solver",
                 rows[i].components, rows[i].error_pct, rows[i].nsv, rows[i].sec_solver / (double)nth);
        row("SVM training (45 one-vs-one machines)", rows[i].sec_train, 0, note);
        train += rows[i].sec_train;
        pred += rows[i].sec_predict;
        gram += rows[i].sec_gram;
        solver += rows[i].sec_solver / (double)nth;
    }
    row("SVM prediction, all prefixes", pred, 0, "one GEMM per prefix");
    double gram_flops = (double)tr.n * (double)tr.n * (double)prefixes[np - 1] * 1e-9;
    snprintf(note, sizeof note, "%.0f GFLOP: the SVMs' Gram matrix grown prefix by prefix", gram_flops);
    row("SVM Gram matrix (DGEMM on tiles)", gram, gram_flops, note);
    row("eval, the rest", all - train - pred - gram, 0, "scaling, labels, class order");

    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("\npeak RSS: %.0f MB\n", (double)ru.ru_maxrss / 1024.0);

    /* ---- floors, from rates measured now, on this machine ---- */
    double r_kernel = blas_rate(m, m, tr.dim, 0);
    double r_proj = blas_rate(KPCA_TRANSFORM_BLOCK, kk, m, 0);
    double r_gram = blas_rate(KPCA_GRAM_TILE, tr.n, prefixes[np - 1] / 2, 0);
    double r_best = r_kernel > r_proj ? r_kernel : r_proj;
    r_best = r_best > r_gram ? r_best : r_gram;
    double r_syrk_k = blas_rate(m, m, tr.dim, 1), r_syrk_g = blas_rate(tr.n, tr.n, prefixes[np - 1] / 2, 1);
    printf("\nBLAS rates measured in this run (GFLOP/s, best of 3):\n\n");
    printf("| shape | DGEMM | DSYRK |\n|---|---:|---:|\n");
    printf("| fit kernel: %zu x %zu, inner %zu | %.1f | %.1f |\n", m, m, tr.dim, r_kernel, r_syrk_k);
    printf("| projection: %d x %zu, inner %zu | %.1f | |\n", KPCA_TRANSFORM_BLOCK, kk, m, r_proj);
    printf("| SVM Gram: %d x %zu, inner %zu (a stripe) / %zu x %zu | %.1f | %.1f |\n", KPCA_GRAM_TILE, tr.n,
           prefixes[np - 1] / 2, tr.n, tr.n, r_gram, r_syrk_g);
    double f_fit = sec_dsyevd;
    double f_proj = proj_flops / r_best;
    double f_gram = gram_flops / r_best;
    double f_svm = solver;
    printf("\nFloors (the best DGEMM rate above for dense products, LAPACK's driver for the eigensolver,\n"
           "LIBSVM's own solver time divided over the %ld worker threads for the SVMs):\n\n", nth);
    printf("| phase | seconds | floor (s) | ratio | floor |\n|---|---:|---:|---:|---|\n");
    floor_row("fit (in process)", sec_fit, f_fit, "LAPACKE_dsyevd on the same centred kernel matrix");
    floor_row("projection of train + test", sec_proj, f_proj, "2 M n (dim + k) flops at the best DGEMM rate");
    floor_row("SVM Gram matrix", gram, f_gram, "n^2 k_max flops at the best DGEMM rate");
    floor_row("SVM training, all prefixes", train, f_svm, "LIBSVM's svm_train time / threads");
    floor_row("eval (Gram + SVMs + prediction + rest)", all, f_gram + f_svm + pred, "the two floors above + prediction");
    if (floors_path != NULL) {
        FILE *f = fopen(floors_path, "w");
        if (f == NULL) {
            perror(floors_path);
            return 1;
        }
        fprintf(f, "dsyevd=%.4f\nfit=%.4f\nread_train=%.4f\nread=%.4f\nwrite_train=%.4f\nread_features=%.4f\n",
                sec_dsyevd, sec_fit, sec_read_train, sec_read, sec_write, sec_readf);
        fprintf(f, "proj_train_floor=%.4f\nproj_floor=%.4f\ngram_floor=%.4f\nsvm_floor=%.4f\npredict=%.4f\n",
                proj_flops / r_best * (double)tr.n / n, f_proj, f_gram, f_svm, pred);
        fprintf(f, "rate_dgemm=%.2f\nrate_dsyrk=%.2f\nrss_mb=%.0f\n", r_best, r_syrk_g, (double)ru.ru_maxrss / 1024.0);
        fclose(f);
    }
    kpca_model_free(&model);
    kpca_dataset_free(&tr);
    kpca_dataset_free(&te);
    kpca_dataset_free(&fit);
    free(ztr);
    free(zte);
    return 0;
}

/* test_eig_gpu.c - the cuSOLVER glue (gpu/eig_gpu.h) against the stand-in
 * libraries with the real sonames (tests/gpu/fake_cuda.c, built by the
 * Makefile in GPU_FAKE_DIR): the copies, the workspace sizes (the stand-in
 * refuses any other than its _bufferSize said), the error codes, an
 * out-of-memory at each device and host allocation, everything freed on
 * every path.  The stand-in solves with LAPACKE, so that the pairs equal the
 * CPU path's checks the glue only (which columns come back, in which order,
 * the sign rule applied after), never that a GPU computes right: make
 * gpu-check does that on a GPU.  Single precision (CUDA_R_32F, the stand-in's
 * ssyevd/ssyevr) against the CPU's binary32 path, uploaded in one block and
 * in several. */
#include "testutil.h"

#include <dlfcn.h>

#include "lib/core/eig.h"
#include "lib/gpu/eig_gpu.h"

static kpca_cuda *cu;
static long (*cuda_live)(void), (*solver_live)(void);
static void (*cuda_reset)(void);

static int setup(void **state)
{
    (void)state;
    kpca_cuda_paths p;
    memset(&p, 0, sizeof p);
    p.dirs[p.ndirs++] = GPU_FAKE_DIR "/ok";
    kpca_error err;
    if (kpca_cuda_open(&p, &cu, &err) != KPCA_OK) {
        print_error("%s\n", err.msg);
        return -1;
    }
    /* the stand-ins' counters of what is allocated and not freed */
    void *d = dlopen(GPU_FAKE_DIR "/ok/libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    void *s = dlopen(GPU_FAKE_DIR "/ok/libcusolver.so.12", RTLD_NOW | RTLD_NOLOAD);
    if (d == NULL || s == NULL)
        return -1;
    void *f = dlsym(d, "fake_cuda_live"), *g = dlsym(s, "fake_cusolver_live"), *r = dlsym(d, "fake_cuda_reset");
    memcpy(&cuda_live, &f, sizeof f);
    memcpy(&solver_live, &g, sizeof g);
    memcpy(&cuda_reset, &r, sizeof r);
    dlclose(d);
    dlclose(s);
    return cuda_live != NULL && solver_live != NULL && cuda_reset != NULL ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    kpca_cuda_close(cu);
    return 0;
}

static void all_freed(void)
{
    assert_int_equal(cuda_live(), 0);
    assert_int_equal(solver_live(), 0);
}

static double *rand_sym(size_t n, uint64_t seed)
{
    double *a = tu_doubles(n * n);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j <= i; j++)
            a[i * n + j] = a[j * n + i] = tu_rand(&seed);
    return a;
}

/* the GPU path (signed as core signs it) against kpca_eig_top */
static void same_as_cpu(size_t n, size_t k)
{
    double *a = rand_sym(n, 7 + n + k), *c = tu_doubles(n * n);
    memcpy(c, a, n * n * sizeof *c);
    double *ev = tu_doubles(k), *vec = tu_doubles(k * n), *ev0 = tu_doubles(k), *vec0 = tu_doubles(k * n);
    kpca_error err;
    assert_int_equal(kpca_gpu_eig_top(cu, a, n, k, KPCA_PRECISION_DOUBLE, ev, vec, &err), KPCA_OK);
    for (size_t i = 0; i < n * n; i++) /* the matrix is not modified */
        assert_true(a[i] == c[i]);
    for (size_t j = 0; j < k; j++)
        kpca_eig_fix_sign(vec + j * n, n, 1);
    assert_int_equal(kpca_eig_top(c, n, k, KPCA_EIG_EVD, ev0, vec0, &err), KPCA_OK);
    for (size_t j = 0; j < k; j++) {
        if (j > 0)
            assert_true(ev[j] <= ev[j - 1]);
        assert_true(fabs(ev[j] - ev0[j]) <= 1e-10 * fabs(ev0[0]));
        for (size_t i = 0; i < n; i++)
            if (fabs(vec[j * n + i] - vec0[j * n + i]) > 1e-8)
                fail_msg("n %zu k %zu: vector %zu entry %zu: %g against the CPU's %g", n, k, j, i, vec[j * n + i],
                         vec0[j * n + i]);
    }
    all_freed();
    free(a), free(c), free(ev), free(vec), free(ev0), free(vec0);
}

/* single precision: against kpca_eig_top_single of the same matrix rounded
 * to floats (both LAPACK's binary32), and within binary32 of the double */
static void same_as_cpu_single(size_t n, size_t k, size_t block)
{
    double *a = rand_sym(n, 11 + n + k), *ev = tu_doubles(k), *vec = tu_doubles(k * n), *ev0 = tu_doubles(k),
           *vec0 = tu_doubles(k * n), *evd = tu_doubles(k), *vecd = tu_doubles(k * n);
    float *af = malloc(n * n * sizeof *af);
    assert_non_null(af);
    for (size_t i = 0; i < n * n; i++)
        af[i] = (float)a[i];
    kpca_error err;
    kpca_gpu_set_upload_block(block);
    assert_int_equal(kpca_gpu_eig_top(cu, a, n, k, KPCA_PRECISION_SINGLE, ev, vec, &err), KPCA_OK);
    kpca_gpu_set_upload_block(0);
    for (size_t j = 0; j < k; j++)
        kpca_eig_fix_sign(vec + j * n, n, 1);
    assert_int_equal(kpca_eig_top_single(af, n, k, KPCA_EIG_EVD, NULL, NULL, NULL, ev0, vec0, &err), KPCA_OK);
    assert_int_equal(kpca_eig_top(a, n, k, KPCA_EIG_EVD, evd, vecd, &err), KPCA_OK); /* a destroyed */
    for (size_t j = 0; j < k; j++) {
        if (fabs(ev[j] - ev0[j]) > 1e-5 * fabs(ev0[0]) || fabs(ev[j] - evd[j]) > 1e-5 * fabs(evd[0]))
            fail_msg("n %zu k %zu: eigenvalue %zu %.9g against the CPU's %.9g in single, %.9g in double", n, k, j,
                     ev[j], ev0[j], evd[j]);
        for (size_t i = 0; i < n; i++)
            if (fabs(vec[j * n + i] - vec0[j * n + i]) > 1e-4)
                fail_msg("n %zu k %zu: vector %zu entry %zu: %g against the CPU's %g", n, k, j, i, vec[j * n + i],
                         vec0[j * n + i]);
    }
    all_freed();
    free(a), free(af), free(ev), free(vec), free(ev0), free(vec0), free(evd), free(vecd);
}

static void test_pairs_single(void **state)
{
    (void)state;
    const size_t row = 40 * sizeof(float);
    same_as_cpu_single(40, 40, 0);       /* syevd, one block */
    same_as_cpu_single(40, 30, 3 * row); /* 14 blocks, the last of one row */
    same_as_cpu_single(40, 5, 1);        /* syevdx, a row per block */
    same_as_cpu_single(1, 1, 0);
}

static void test_pairs(void **state)
{
    (void)state;
    same_as_cpu(40, 40); /* all: cusolverDnXsyevd */
    same_as_cpu(40, 30); /* many: syevd, the top 30 columns */
    same_as_cpu(40, 5);  /* few: cusolverDnXsyevdx, range I */
    same_as_cpu(1, 1);
    same_as_cpu(2, 1);
}

/* the precision of run() */
static kpca_precision run_prec = KPCA_PRECISION_DOUBLE;

/* one eigensolve of a 12 x 12 matrix for k pairs; its status and message */
static kpca_status run(size_t k, kpca_error *err)
{
    const size_t n = 12;
    double *a = rand_sym(n, 3), *ev = tu_doubles(n), *vec = tu_doubles(n * n);
    cuda_reset();
    kpca_status st = kpca_gpu_eig_top(cu, a, n, k, run_prec, ev, vec, err);
    free(a), free(ev), free(vec);
    all_freed();
    return st;
}

static void expect(size_t k, kpca_status want, const char *m1, const char *m2)
{
    kpca_error err;
    kpca_error_clear(&err);
    kpca_status st = run(k, &err);
    if (st != want)
        fail_msg("status %d, expected %d (%s)", (int)st, (int)want, err.msg);
    if (m1 != NULL && strstr(err.msg, m1) == NULL)
        fail_msg("'%s' not in '%s'", m1, err.msg);
    if (m2 != NULL && strstr(err.msg, m2) == NULL)
        fail_msg("'%s' not in '%s'", m2, err.msg);
}

static void test_device_out_of_memory(void **state)
{
    (void)state;
    /* the matrix, the eigenvalues, info, the workspace: each may fail */
    static const char *const what[] = {"the kernel matrix", "the eigenvalues", "cuSOLVER's info",
                                       "cuSOLVER's workspace"};
    for (int prec = 0; prec < 2; prec++) {
        run_prec = prec ? KPCA_PRECISION_SINGLE : KPCA_PRECISION_DOUBLE;
        for (size_t k = 2; k <= 12; k += 10)
            for (int i = 0; i < 4; i++) {
                char nth[16];
                snprintf(nth, sizeof nth, "%d", i + 1);
                setenv("FAKE_CUDA_FAIL_ALLOC", nth, 1);
                expect(k, KPCA_ENOMEM, what[i], "on the GPU, which has 8.0 GiB free");
            }
        unsetenv("FAKE_CUDA_FAIL_ALLOC");
        expect(12, KPCA_OK, NULL, NULL);
    }
    run_prec = KPCA_PRECISION_DOUBLE;
}

static kpca_status run_all(kpca_error *err) { return run(12, err); }
static kpca_status run_few(kpca_error *err) { return run(2, err); }

static void test_host_out_of_memory(void **state)
{
    (void)state;
    assert_true(tu_fail_loop("kpca_gpu_eig_top (syevd)", run_all, 1) >= 2);
    assert_true(tu_fail_loop("kpca_gpu_eig_top (syevdx)", run_few, 1) >= 2);
    run_prec = KPCA_PRECISION_SINGLE; /* and the upload block */
    assert_true(tu_fail_loop("kpca_gpu_eig_top (syevd, single)", run_all, 1) >= 3);
    assert_true(tu_fail_loop("kpca_gpu_eig_top (syevdx, single)", run_few, 1) >= 3);
    run_prec = KPCA_PRECISION_DOUBLE;
}

static void test_solver_errors(void **state)
{
    (void)state;
    setenv("FAKE_CUSOLVER_INFO", "3", 1);
    expect(12, KPCA_ENUMERIC, "cusolverDnXsyevd failed on the 12 x 12 matrix (info 3)", NULL);
    expect(2, KPCA_ENUMERIC, "cusolverDnXsyevdx failed", "(info 3)");
    setenv("FAKE_CUSOLVER_INFO", "-4", 1);
    expect(12, KPCA_EINTERNAL, "(info -4)", NULL);
    unsetenv("FAKE_CUSOLVER_INFO");
    setenv("FAKE_CUSOLVER_STATUS", "2", 1); /* CUSOLVER_STATUS_ALLOC_FAILED */
    expect(12, KPCA_ENOMEM, "cusolverDnXsyevd failed (cusolverStatus 2)", NULL);
    setenv("FAKE_CUSOLVER_STATUS", "7", 1);
    expect(2, KPCA_EIO, "cusolverDnXsyevdx failed (cusolverStatus 7)", NULL);
    unsetenv("FAKE_CUSOLVER_STATUS");
    kpca_error err;
    double x = 1.0, v = 0.0, e = 0.0;
    assert_int_equal(kpca_gpu_eig_top(cu, &x, 1, 2, KPCA_PRECISION_DOUBLE, &e, &v, &err), KPCA_EINTERNAL);
    assert_int_equal(kpca_gpu_eig_top(cu, &x, 1, 0, KPCA_PRECISION_DOUBLE, &e, &v, &err), KPCA_EINTERNAL);
}

/* a fit's memory check and its solve share one primary context: retained
 * once, by the check, held by the kpca_cuda record through the solves and
 * released by kpca_cuda_close (a release in between would destroy it, and
 * the solve would make it again: tens to hundreds of ms on a GPU) */
static void test_context_shared(void **state)
{
    (void)state;
    void *d = dlopen(GPU_FAKE_DIR "/ok/libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    assert_non_null(d);
    long (*retains)(void), (*refs)(void);
    void *f = dlsym(d, "fake_cuda_retains"), *g = dlsym(d, "fake_cuda_ctx_refs");
    assert_non_null(f);
    assert_non_null(g);
    memcpy(&retains, &f, sizeof f);
    memcpy(&refs, &g, sizeof g);
    kpca_cuda_paths p;
    memset(&p, 0, sizeof p);
    p.dirs[p.ndirs++] = GPU_FAKE_DIR "/ok";
    kpca_cuda *c2;
    kpca_error err;
    assert_int_equal(kpca_cuda_open(&p, &c2, &err), KPCA_OK);
    const long r0 = retains(), h0 = refs();
    const size_t n = 40;
    double *a = rand_sym(n, 5), *ev = tu_doubles(n), *vec = tu_doubles(n * n);
    assert_int_equal(kpca_gpu_eig_check(c2, n, 4, KPCA_PRECISION_DOUBLE, NULL, NULL, &err), KPCA_OK);
    assert_int_equal(kpca_gpu_eig_top(c2, a, n, 4, KPCA_PRECISION_DOUBLE, ev, vec, &err), KPCA_OK);
    assert_int_equal(kpca_gpu_eig_top(c2, a, n, n, KPCA_PRECISION_SINGLE, ev, vec, &err), KPCA_OK);
    assert_int_equal(retains() - r0, 1);
    assert_int_equal(refs() - h0, 1);
    all_freed();
    kpca_cuda_close(c2);
    assert_int_equal(refs(), h0);
    dlclose(d);
    free(a), free(ev), free(vec);
}

static void test_check(void **state)
{
    (void)state;
    kpca_error err;
    size_t need = 0, freeb = 0;
    /* the stand-in's workspace is 8 n + 256 bytes */
    assert_int_equal(kpca_gpu_eig_check(cu, 100, 100, KPCA_PRECISION_DOUBLE, &need, &freeb, &err), KPCA_OK);
    assert_int_equal(need, 8 * 100 * 100 + 8 * 100 + sizeof(int) + 8 * 100 + 256);
    assert_int_equal(freeb, (size_t)1 << 33);
    /* single: the matrix and eigenvalues in 4-byte elements */
    assert_int_equal(kpca_gpu_eig_check(cu, 100, 100, KPCA_PRECISION_SINGLE, &need, &freeb, &err), KPCA_OK);
    assert_int_equal(need, 4 * 100 * 100 + 4 * 100 + sizeof(int) + 8 * 100 + 256);
    setenv("FAKE_CUDA_FREE", "50000", 1);
    assert_int_equal(kpca_gpu_eig_check(cu, 100, 10, KPCA_PRECISION_SINGLE, &need, &freeb, &err), KPCA_OK);
    assert_int_equal(kpca_gpu_eig_check(cu, 100, 10, KPCA_PRECISION_DOUBLE, &need, &freeb, &err), KPCA_ENOMEM);
    assert_non_null(strstr(err.msg, "the GPU's memory is too small: the eigensolve of the 100 x 100 kernel matrix "
                                    "in double precision"));
    assert_non_null(strstr(err.msg, "free (of 16.0 GiB)"));
    assert_int_equal(freeb, 50000);
    unsetenv("FAKE_CUDA_FREE");
    all_freed();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairs),        cmocka_unit_test(test_pairs_single),
        cmocka_unit_test(test_device_out_of_memory),
        cmocka_unit_test(test_host_out_of_memory), cmocka_unit_test(test_solver_errors),
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_context_shared),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

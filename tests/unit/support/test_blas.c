/* test_blas.c - the BLAS kpca runs on and the parking of OpenBLAS's threads
 * (lib/support/blas.h), with OpenBLAS and with another BLAS (make
 * unit-refblas).  Whether OpenBLAS is in the process is looked up here by
 * name (dlsym), apart from the library's weak references it checks. */
#include "testutil.h"

#include <cblas.h>
#include <dirent.h>
#include <dlfcn.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOT_OPENBLAS "unknown (not OpenBLAS)"

static const char *self; /* this program, to run again (core_in_child) */

/* OpenBLAS's function NAME in this process, or NULL without OpenBLAS: looked
 * up in the program's global scope (dlopen(NULL): the program and the
 * libraries it loads), as RTLD_DEFAULT would, which needs _GNU_SOURCE
 * before any header (tests/unit/testout.h comes first) */
static void *openblas_fn(const char *name)
{
    static void *global;
    if (global == NULL)
        global = dlopen(NULL, RTLD_LAZY);
    return global != NULL ? dlsym(global, name) : NULL;
}

/* the threads of this process (/proc/self/task) */
static int count_threads(void)
{
    DIR *d = opendir("/proc/self/task");
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* With OpenBLAS, the name it reports itself; without it, the fallback
 * the header promises. */
static void test_core_is_openblas_own(void **state)
{
    (void)state;
    void *fn = openblas_fn("openblas_get_corename");
    const char *core = kpca_blas_core();
    assert_non_null(core);
    assert_int_equal(kpca_blas_is_openblas(), fn != NULL);
    if (fn == NULL) {
        assert_string_equal(core, NOT_OPENBLAS);
        return;
    }
    char *(*corename)(void);
    memcpy(&corename, &fn, sizeof corename);
    assert_string_equal(core, corename());
    assert_string_not_equal(core, NOT_OPENBLAS);
}

/* kpca_blas_threads: OpenBLAS's own thread count (at least 1), 0 without
 * OpenBLAS */
static void test_threads_are_openblas_own(void **state)
{
    (void)state;
    void *fn = openblas_fn("openblas_get_num_threads");
    if (fn == NULL) {
        assert_int_equal(kpca_blas_threads(), 0);
        return;
    }
    int (*num_threads)(void);
    memcpy(&num_threads, &fn, sizeof num_threads);
    assert_true(kpca_blas_threads() >= 1);
    assert_int_equal(kpca_blas_threads(), num_threads());
}

/* kpca_blas_core() of a child run of this program with OPENBLAS_CORETYPE
 * set to CORE, into out */
static void core_in_child(const char *core, char *out, size_t size)
{
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fd[1], STDOUT_FILENO);
        close(fd[0]);
        close(fd[1]);
        setenv("OPENBLAS_CORETYPE", core, 1);
        execl(self, self, "--print-core", (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    size_t len = 0;
    for (ssize_t r; len + 1 < size && (r = read(fd[0], out + len, size - 1 - len)) > 0;)
        len += (size_t)r;
    out[len] = '\0';
    close(fd[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    out[strcspn(out, "\n")] = '\0';
}

/* OPENBLAS_CORETYPE, read by OpenBLAS when it loads, shows in
 * kpca_blas_core(): two cores every x86-64 CPU of their kind runs (SSE3,
 * and AVX2 + FMA where the CPU has them), each reported as asked.
 * Another BLAS ignores the variable. */
static void test_coretype_honoured(void **state)
{
    (void)state;
#if defined(__x86_64__)
    const char *want[2] = {"Prescott", NULL};
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        want[1] = "Haswell";
    int openblas = openblas_fn("openblas_get_corename") != NULL;
    for (size_t i = 0; i < 2 && want[i] != NULL; i++) {
        char got[128];
        core_in_child(want[i], got, sizeof got);
        assert_string_equal(got, openblas ? want[i] : NOT_OPENBLAS);
    }
#else
    print_message("skipping: OpenBLAS's core names are x86-64's here\n");
    skip();
#endif
}

/* C = A B' by a naive loop (the reference) and by DGEMM */
static double gemm_error(size_t n, const double *a, const double *b, double *c)
{
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)n, (int)n, (int)n, 1.0, a, (int)n, b, (int)n, 0.0, c,
                (int)n);
    double worst = 0.0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            double r = 0.0;
            for (size_t l = 0; l < n; l++)
                r += a[i * n + l] * b[j * n + l];
            double e = fabs(c[i * n + j] - r) / (1.0 + fabs(r));
            worst = e > worst ? e : worst;
        }
    return worst;
}

/* The BLAS's worker threads: OpenBLAS's count (the calling thread is one
 * of them) less one, or 0 without OpenBLAS. */
static int blas_workers(void)
{
    void *fn = openblas_fn("openblas_get_num_threads");
    if (fn == NULL)
        return 0;
    int (*num_threads)(void);
    memcpy(&num_threads, &fn, sizeof num_threads);
    return num_threads() - 1;
}

/* Parking ends OpenBLAS's worker threads and the next parallel call brings
 * them back: a DGEMM large enough to run threaded leaves all of them, a
 * park ends them (the process has that many threads fewer), the next
 * DGEMM starts them again with the same product; a park before any BLAS
 * call, and two in a row, are harmless.  Without OpenBLAS (or with one
 * OpenBLAS thread, OPENBLAS_NUM_THREADS=1 or one CPU) parking changes no
 * thread and no result. */
static void test_park_ends_workers(void **state)
{
    (void)state;
    enum { N = 400 };
    kpca_blas_park();
    int workers = blas_workers();
    print_message("%d BLAS worker threads\n", workers);
    double *a = malloc(sizeof(double) * N * N), *b = malloc(sizeof(double) * N * N);
    double *c0 = malloc(sizeof(double) * N * N), *c1 = malloc(sizeof(double) * N * N);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c0);
    assert_non_null(c1);
    for (size_t i = 0; i < (size_t)N * N; i++) {
        a[i] = sin(0.37 * (double)i);
        b[i] = cos(0.11 * (double)i);
    }
    assert_true(gemm_error(N, a, b, c0) < 1e-12);
    int running = count_threads();
    kpca_blas_park();
    assert_int_equal(count_threads(), running - workers);
    kpca_blas_park();
    assert_int_equal(count_threads(), running - workers);
    assert_true(gemm_error(N, a, b, c1) < 1e-12);
    assert_int_equal(count_threads(), running);
    assert_memory_equal(c0, c1, sizeof(double) * N * N);
    if (workers == 0 && openblas_fn("blas_thread_shutdown_") != NULL)
        print_message("one OpenBLAS thread: parking had nothing to end\n");
    free(a);
    free(b);
    free(c0);
    free(c1);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--print-core") == 0) {
        puts(kpca_blas_core()); /* for core_in_child */
        return 0;
    }
    /* argv[0] when it is a path: under valgrind /proc/self/exe is
     * valgrind's own tool */
    self = strchr(argv[0], '/') != NULL ? argv[0] : "/proc/self/exe";
    print_message("BLAS kernels: %s\n", kpca_blas_core());
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_core_is_openblas_own),
        cmocka_unit_test(test_threads_are_openblas_own),
        cmocka_unit_test(test_coretype_honoured),
        cmocka_unit_test(test_park_ends_workers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

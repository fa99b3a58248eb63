/* test_blas.c - the OpenBLAS core hint and the parking of its threads
 * (lib/support/blas.h). */
#include "testutil.h"

#include <cblas.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

static const char *const generic[] = {"Prescott", "Core2",       "Penryn", "Dunnington",
                                      "Nehalem",  "Sandybridge", "Atom",   "Unknown"};

static int is_generic(const char *name)
{
    for (size_t i = 0; i < sizeof generic / sizeof generic[0]; i++)
        if (strcmp(name, generic[i]) == 0)
            return 1;
    return 0;
}

/* a core type set by the user is never second-guessed, even an empty one */
static void test_hint_keeps_users_choice(void **state)
{
    (void)state;
    const char *old = getenv("OPENBLAS_CORETYPE");
    char *saved = old != NULL ? strdup(old) : NULL;
    assert_int_equal(setenv("OPENBLAS_CORETYPE", "Prescott", 1), 0);
    assert_null(kpca_blas_core_hint());
    assert_int_equal(setenv("OPENBLAS_CORETYPE", "", 1), 0);
    assert_null(kpca_blas_core_hint());
    if (saved != NULL) {
        setenv("OPENBLAS_CORETYPE", saved, 1);
        free(saved);
    } else {
        unsetenv("OPENBLAS_CORETYPE");
    }
}

/* without the variable: a hint only for a generic core, and then one of the
 * two this code knows; the core name is never empty */
static void test_hint_only_for_generic_cores(void **state)
{
    (void)state;
    const char *old = getenv("OPENBLAS_CORETYPE");
    char *saved = old != NULL ? strdup(old) : NULL;
    unsetenv("OPENBLAS_CORETYPE");
    const char *core = kpca_blas_core();
    assert_non_null(core);
    assert_true(core[0] != '\0');
    const char *hint = kpca_blas_core_hint();
    if (hint != NULL) {
        assert_true(is_generic(core));
        assert_true(strcmp(hint, "SkylakeX") == 0 || strcmp(hint, "Haswell") == 0);
    } else if (is_generic(core)) {
#if defined(__x86_64__)
        __builtin_cpu_init();
        assert_false(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"));
#endif
    }
    if (saved != NULL) {
        setenv("OPENBLAS_CORETYPE", saved, 1);
        free(saved);
    }
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

/* Parked threads come back: DGEMMs large enough to run threaded give the
 * same product before, after one park and after two in a row, and a park
 * before any BLAS call is harmless (OpenBLAS starts its threads lazily). */
static void test_park_then_gemm(void **state)
{
    (void)state;
    enum { N = 400 };
    kpca_blas_park();
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
    kpca_blas_park();
    assert_true(gemm_error(N, a, b, c1) < 1e-12);
    assert_memory_equal(c0, c1, sizeof(double) * N * N);
    kpca_blas_park();
    kpca_blas_park();
    memset(c1, 0, sizeof(double) * N * N);
    assert_true(gemm_error(N, a, b, c1) < 1e-12);
    assert_memory_equal(c0, c1, sizeof(double) * N * N);
    free(a);
    free(b);
    free(c0);
    free(c1);
}

int main(int argc, char **argv)
{
    (void)argc;
    /* `make unit` sets OPENBLAS_CORETYPE for every test, and OpenBLAS reads
     * it when it loads, before main: kpca_blas_core() would then be the
     * forced core, never a generic fallback, and the detection above could
     * not fail.  Run again without it (once), so that OpenBLAS picks. */
    if (getenv("OPENBLAS_CORETYPE") != NULL && getenv("KPCA_TEST_BLAS_AGAIN") == NULL) {
        unsetenv("OPENBLAS_CORETYPE");
        setenv("KPCA_TEST_BLAS_AGAIN", "1", 1);
        /* argv[0] when it is a path: under valgrind /proc/self/exe is
         * valgrind's own tool, which refuses to run (make valgrind) */
        execv(strchr(argv[0], '/') != NULL ? argv[0] : "/proc/self/exe", argv);
        perror("test_blas: cannot run again without OPENBLAS_CORETYPE");
        return 1;
    }
    print_message("OpenBLAS picked the %s kernels itself\n", kpca_blas_core());
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hint_keeps_users_choice),
        cmocka_unit_test(test_hint_only_for_generic_cores),
        cmocka_unit_test(test_park_then_gemm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

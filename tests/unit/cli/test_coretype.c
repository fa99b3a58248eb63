/* test_coretype.c - the OpenBLAS core hint behind the programs' re-exec
 * (src/cli/coretype.h). */
#include "testutil.h"

#include <cblas.h>
#include <unistd.h>

#include "cli/coretype.h"

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
    assert_null(cli_coretype_hint());
    assert_int_equal(setenv("OPENBLAS_CORETYPE", "", 1), 0);
    assert_null(cli_coretype_hint());
    if (saved != NULL) {
        setenv("OPENBLAS_CORETYPE", saved, 1);
        free(saved);
    } else {
        unsetenv("OPENBLAS_CORETYPE");
    }
}

/* without the variable: a hint only for a generic core, and then one of the
 * two this code knows; none on another BLAS than OpenBLAS (the program then
 * never runs itself again); the core name is never empty */
static void test_hint_only_for_generic_cores(void **state)
{
    (void)state;
    const char *old = getenv("OPENBLAS_CORETYPE");
    char *saved = old != NULL ? strdup(old) : NULL;
    unsetenv("OPENBLAS_CORETYPE");
    const char *core = kpca_blas_core();
    assert_non_null(core);
    assert_true(core[0] != '\0');
    const char *hint = cli_coretype_hint();
    if (strcmp(core, "unknown (not OpenBLAS)") == 0)
        assert_null(hint);
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

int main(int argc, char **argv)
{
    (void)argc;
    /* `make unit` sets OPENBLAS_CORETYPE for every test, and OpenBLAS reads
     * it when it loads, before main: kpca_blas_core() would then be the
     * forced core, never a generic fallback, and the detection above could
     * not fail.  Run again without it (once), so that OpenBLAS picks. */
    if (getenv("OPENBLAS_CORETYPE") != NULL && getenv("KPCA_TEST_CORETYPE_AGAIN") == NULL) {
        unsetenv("OPENBLAS_CORETYPE");
        setenv("KPCA_TEST_CORETYPE_AGAIN", "1", 1);
        /* argv[0] when it is a path: under valgrind /proc/self/exe is
         * valgrind's own tool, which refuses to run (make valgrind) */
        execv(strchr(argv[0], '/') != NULL ? argv[0] : "/proc/self/exe", argv);
        perror("test_coretype: cannot run again without OPENBLAS_CORETYPE");
        return 1;
    }
    /* a call into the BLAS: the linker (--as-needed) drops a library that
     * only weak references name, and OpenBLAS would then be absent */
    double one = 1.0;
    if (cblas_ddot(1, &one, 1, &one, 1) != 1.0)
        return 1;
    print_message("the BLAS picked the %s kernels itself\n", kpca_blas_core());
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hint_keeps_users_choice),
        cmocka_unit_test(test_hint_only_for_generic_cores),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

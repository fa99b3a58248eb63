/* test_exact_hook.c - kpca_model_set_exact_solver: a replaced exact solver
 * (what kpca-mpi plugs in) yields the model of the built-in one, its errors
 * reach the caller with nothing allocated, the solvers it cannot run are
 * refused, and Nyström runs beside it, as without it. */
#include "testutil.h"

static int hook_calls;

/* An independent exact solver: the kernel by plain loops, the centring by
 * its definition, every eigenpair (EVD) and the top `want` of them. */
static kpca_status ref_solver(const kpca_dataset *fit, kpca_exact_job *job, kpca_error *err)
{
    hook_calls++;
    const size_t m = fit->n;
    double *K = malloc(m * m * sizeof *K), *mu = malloc(m * sizeof *mu), *u = malloc(m * m * sizeof *u);
    assert_non_null(K);
    assert_non_null(mu);
    assert_non_null(u);
    kpca_kernel_gram_ref(&job->kernel, fit->x, m, fit->dim, K);
    double grand = 0.0, raw = 0.0, tr = 0.0;
    for (size_t j = 0; j < m; j++) {
        double s = 0.0;
        for (size_t i = 0; i < m; i++)
            s += K[i * m + j];
        job->colmean[j] = s / (double)m;
        grand += job->colmean[j] / (double)m;
        raw += fabs(K[j * m + j]);
    }
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++)
            K[i * m + j] += grand - job->colmean[i] - job->colmean[j];
    for (size_t i = 0; i < m; i++)
        tr += K[i * m + i];
    kpca_status st = kpca_eig_top(K, m, m, KPCA_EIG_EVD, mu, u, err);
    if (st == KPCA_OK) {
        memcpy(job->mu, mu, job->want * sizeof *mu);
        memcpy(job->u, u, job->want * m * sizeof *u);
        job->grandmean = grand;
        job->raw_trace = raw;
        job->trace = tr;
        snprintf(job->note, sizeof job->note, "reference");
    }
    free(K);
    free(mu);
    free(u);
    return st;
}

static kpca_status failing_solver(const kpca_dataset *fit, kpca_exact_job *job, kpca_error *err)
{
    (void)fit;
    (void)job;
    hook_calls++;
    return kpca_fail(err, KPCA_ENOMEM, "rank 1 of 2: out of memory");
}

static void fit_both(kpca_kernel kernel, size_t k)
{
    kpca_dataset ds;
    tu_random_dataset(&ds, 57, 6, 3, 11);
    kpca_fit_params p = kpca_fit_defaults(2);
    p.kernel = kernel;
    p.components = k;
    kpca_model a, b;
    kpca_error err;
    kpca_model_set_exact_solver(NULL);
    assert_int_equal(kpca_model_fit(&ds, &p, &a, NULL, &err), KPCA_OK);
    hook_calls = 0;
    kpca_model_set_exact_solver(ref_solver);
    kpca_status st = kpca_model_fit(&ds, &p, &b, NULL, &err);
    kpca_model_set_exact_solver(NULL);
    assert_int_equal(st, KPCA_OK);
    assert_int_equal(hook_calls, 1);
    assert_int_equal(a.k, b.k);
    assert_int_equal(a.m, b.m);
    assert_string_equal(b.solver, a.k * 4 <= a.m ? "exact evr reference" : "exact evd reference");
    for (size_t c = 0; c < a.k; c++) {
        assert_true(fabs(a.eigval[c] - b.eigval[c]) <= 1e-10 * a.eigval[0]);
        double big = 0.0, dev = 0.0;
        for (size_t i = 0; i < a.m; i++) {
            big = fmax(big, fabs(a.alpha[c * a.m + i]));
            dev = fmax(dev, fabs(a.alpha[c * a.m + i] - b.alpha[c * a.m + i]));
        }
        assert_true(dev <= 1e-8 * big); /* the same sign rule, or dev ~ 2 big */
    }
    for (size_t i = 0; i < a.m; i++)
        assert_true(fabs(a.colmean[i] - b.colmean[i]) <= 1e-12 * (1.0 + fabs(a.colmean[i])));
    assert_true(fabs(a.grandmean - b.grandmean) <= 1e-12 * (1.0 + fabs(a.grandmean)));
    assert_true(fabs(a.trace - b.trace) <= 1e-10 * fabs(a.trace));
    assert_int_equal(kpca_model_validate(&b, "hooked", &err), KPCA_OK);
    kpca_model_free(&a);
    kpca_model_free(&b);
    kpca_dataset_free(&ds);
}

static void test_hook_gives_the_same_model(void **state)
{
    (void)state;
    fit_both(kpca_kernel_poly(2), 5);
    fit_both(kpca_kernel_rbf(1.5), 30); /* k/M > 1/4: the EVD driver */
    fit_both(kpca_kernel_linear(), 4);
}

static void test_hook_failure_reaches_the_caller(void **state)
{
    (void)state;
    kpca_dataset ds;
    tu_random_dataset(&ds, 20, 3, 2, 5);
    kpca_fit_params p = kpca_fit_defaults(2);
    p.components = 3;
    kpca_model md;
    kpca_error err;
    hook_calls = 0;
    kpca_model_set_exact_solver(failing_solver);
    kpca_status st = kpca_model_fit(&ds, &p, &md, NULL, &err);
    kpca_model_set_exact_solver(NULL);
    assert_int_equal(st, KPCA_ENOMEM);
    assert_int_equal(hook_calls, 1);
    assert_string_equal(err.msg, "rank 1 of 2: out of memory");
    assert_null(md.alpha);
    assert_null(md.fitx);
    kpca_dataset_free(&ds);
}

static void test_hook_refuses_other_solvers_not_nystrom(void **state)
{
    (void)state;
    kpca_dataset ds;
    tu_random_dataset(&ds, 40, 3, 2, 9);
    kpca_model md;
    kpca_error err;
    kpca_fit_params p = kpca_fit_defaults(2);
    hook_calls = 0;
    kpca_model_set_exact_solver(ref_solver);
    p.components = 3;
    /* Nyström is no exact solve: it runs as without the hook, which it
     * never calls (kpca-mpi spreads it itself, nystream.h) */
    p.solver = KPCA_SOLVER_NYSTROM;
    p.landmarks = 10;
    kpca_model hooked, plain;
    assert_int_equal(kpca_model_fit(&ds, &p, &hooked, NULL, &err), KPCA_OK);
    assert_int_equal(hook_calls, 0);
    kpca_model_set_exact_solver(NULL);
    assert_int_equal(kpca_model_fit(&ds, &p, &plain, NULL, &err), KPCA_OK);
    kpca_model_set_exact_solver(ref_solver);
    assert_int_equal(hooked.k, plain.k);
    assert_memory_equal(hooked.alpha, plain.alpha, plain.k * plain.m * sizeof(double));
    kpca_model_free(&hooked);
    kpca_model_free(&plain);
    p.solver = KPCA_SOLVER_RANDOMIZED;
    assert_int_equal(kpca_model_fit(&ds, &p, &md, NULL, &err), KPCA_EUSAGE);
    assert_non_null(strstr(err.msg, "--solver randomized"));
    p.solver = KPCA_SOLVER_EXACT;
    p.components = 0;
    p.variance = 0.9;
    assert_int_equal(kpca_model_fit(&ds, &p, &md, NULL, &err), KPCA_EUSAGE);
    assert_non_null(strstr(err.msg, "variance fraction"));
    kpca_model_set_exact_solver(NULL);
    assert_int_equal(hook_calls, 0);
    /* without the hook the same variance fit works */
    assert_int_equal(kpca_model_fit(&ds, &p, &md, NULL, &err), KPCA_OK);
    kpca_model_free(&md);
    kpca_dataset_free(&ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hook_gives_the_same_model),
        cmocka_unit_test(test_hook_failure_reaches_the_caller),
        cmocka_unit_test(test_hook_refuses_other_solvers_not_nystrom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_model_errors.c - kernel PCA fit refusals (identical points, bad
 * arguments) and the progress hook. */
#include "testutil.h"

#include "lib/file/h5util.h"

#include <dirent.h>
#include <hdf5.h>
#include <lapacke.h>
#include <sys/stat.h>

#include "model_fixture.h"

/* ---- errors -------------------------------------------------------------------- */

static void test_identical_points(void **state)
{
    (void)state;
    data();
    const size_t n = 25;
    kpca_dataset ds;
    kpca_error err;
    for (size_t row = 0; row < 3; row++) {
        assert_int_equal(kpca_dataset_alloc(&ds, n, 256, &err), KPCA_OK);
        for (size_t i = 0; i < n; i++) {
            memcpy(ds.x + i * 256, g_fit.x + row * 256, 256 * sizeof(double));
            ds.y[i] = (int)i % 3;
        }
        for (int d = 1; d <= 4; d++) {
            kpca_fit_params p = kpca_fit_defaults(d);
            for (int e = KPCA_EIG_AUTO; e <= KPCA_EIG_EVR; e++) {
                p.eig = (kpca_eig_method)e;
                p.components = e == KPCA_EIG_EVR ? 2 : 0;
                kpca_model md;
                kpca_error_clear(&err);
                kpca_status st = kpca_model_fit(&ds, &p, &md, NULL, &err);
                if (st != KPCA_ENUMERIC)
                    fail_msg("row %zu degree %d eig %d: status %d (%s), k = %zu", row, d, e, (int)st, err.msg,
                             st == KPCA_OK ? md.k : 0);
                assert_true(err.msg[0] != '\0');
                assert_null(md.alpha);
                assert_null(md.fitx);
            }
        }
        /* one point moved: two distinct points in feature space span one
         * centred direction, so exactly one component, whatever the degree */
        ds.x[(n - 1) * 256 + 100] += 0.5;
        for (int d = 1; d <= 4; d++) {
            kpca_model md;
            fit(&ds, d, 0, KPCA_EIG_AUTO, &md, NULL);
            assert_int_equal(md.k, 1);
            kpca_model_free(&md);
            fit(&ds, d, 3, KPCA_EIG_EVR, &md, NULL);
            assert_int_equal(md.k, 1);
            kpca_model_free(&md);
        }
        kpca_dataset_free(&ds);
    }
}

static void test_bad_arguments(void **state)
{
    (void)state;
    data();
    kpca_model md;
    kpca_error err;
    kpca_fit_params p = kpca_fit_defaults(2);
    /* too few points, too many components, a bad kernel */
    kpca_dataset one;
    tu_random_dataset(&one, 1, 4, 1, 1);
    assert_int_equal(kpca_model_fit(&one, &p, &md, NULL, &err), KPCA_EFORMAT); /* the data's fault */
    assert_non_null(strstr(err.msg, "at least 2 fit points"));
    kpca_dataset_free(&one);
    kpca_dataset small;
    tu_random_dataset(&small, 10, 4, 2, 2);
    p.components = 11;
    assert_int_equal(kpca_model_fit(&small, &p, &md, NULL, &err), KPCA_EUSAGE);
    assert_null(md.alpha);
    p.components = 0;
    p.kernel.degree = 0;
    assert_int_equal(kpca_model_fit(&small, &p, &md, NULL, &err), KPCA_EUSAGE);
    p = kpca_fit_defaults(2);
    p.kernel.gamma = -1.0;
    assert_int_equal(kpca_model_fit(&small, &p, &md, NULL, &err), KPCA_EUSAGE);
    /* a kernel value overflow is a numerical error, not garbage */
    p = kpca_fit_defaults(20);
    for (size_t i = 0; i < small.n * small.dim; i++)
        small.x[i] *= 1e30;
    assert_int_equal(kpca_model_fit(&small, &p, &md, NULL, &err), KPCA_ENUMERIC);
    kpca_dataset_free(&small);

    /* transform: wrong dim, k = 0, k > model.k */
    fit(&g_fit, 2, 10, KPCA_EIG_AUTO, &md, NULL);
    assert_int_equal(md.k, 10);
    double z[2 * 11];
    kpca_error_clear(&err);
    assert_int_equal(kpca_model_transform(&md, g_new.x, 2, 255, 5, z, &err), KPCA_EFORMAT);
    assert_true(err.msg[0] != '\0');
    assert_int_equal(kpca_model_transform(&md, g_new.x, 2, 257, 5, z, &err), KPCA_EFORMAT);
    assert_int_equal(kpca_model_transform(&md, g_new.x, 2, 256, 0, z, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_model_transform(&md, g_new.x, 2, 256, 11, z, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_model_transform(&md, g_new.x, 2, 256, 10, z, &err), KPCA_OK);
    /* no points: nothing to do */
    assert_int_equal(kpca_model_transform(&md, g_new.x, 0, 256, 10, z, &err), KPCA_OK);
    /* validate catches broken invariants */
    assert_int_equal(kpca_model_validate(&md, "m", &err), KPCA_OK);
    double keep = md.eigval[3];
    md.eigval[3] = md.eigval[2] * 2.0;
    assert_int_equal(kpca_model_validate(&md, "m", &err), KPCA_EFORMAT);
    md.eigval[3] = keep;
    md.alpha[7] = NAN;
    assert_int_equal(kpca_model_validate(&md, "m", &err), KPCA_EFORMAT);
    md.alpha[7] = 0.0;
    assert_int_equal(kpca_model_validate(&md, "m", &err), KPCA_OK);
    md.fit_n = md.m + 1; /* a kernel-centred model is fitted on its own points */
    assert_int_equal(kpca_model_validate(&md, "m", &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "fit points"));
    kpca_model_free(&md);
}

/* the progress hook sees every phase of a fit and a projection, each ending
 * with done == total, and nothing once it is removed */
static char seen[8][32];
static size_t nseen, nends;
static void count_progress(const char *phase, size_t done, size_t total, void *user)
{
    (void)user;
    assert_true(done <= total);
    if (nseen == 0 || strcmp(seen[nseen - 1], phase) != 0) {
        assert_true(nseen < 8);
        snprintf(seen[nseen++], sizeof seen[0], "%s", phase);
    }
    nends += done == total;
}

static void test_progress_hook(void **state)
{
    (void)state;
    kpca_dataset ds;
    tu_random_dataset(&ds, 50, 4, 3, 11);
    kpca_fit_params p = kpca_fit_defaults(2);
    kpca_model md;
    kpca_error err;
    nseen = nends = 0;
    kpca_progress_set(count_progress, NULL);
    assert_int_equal(kpca_model_fit(&ds, &p, &md, NULL, &err), KPCA_OK);
    double z[50 * 3];
    assert_int_equal(kpca_model_transform(&md, ds.x, 50, 4, 3, z, &err), KPCA_OK);
    kpca_progress_set(NULL, NULL);
    assert_int_equal(nseen, 4);
    assert_string_equal(seen[0], "kernel");
    assert_string_equal(seen[1], "centring");
    assert_string_equal(seen[2], "eigensolve");
    assert_string_equal(seen[3], "projection");
    assert_int_equal(nends, 4);
    assert_int_equal(kpca_model_transform(&md, ds.x, 50, 4, 3, z, &err), KPCA_OK);
    assert_int_equal(nseen, 4); /* removed: no more calls */
    kpca_model_free(&md);
    kpca_dataset_free(&ds);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_identical_points),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_progress_hook),
    };
    return cmocka_run_group_tests(tests, NULL, teardown_all);
}

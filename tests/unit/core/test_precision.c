/* test_precision.c - single precision (--precision single) in the core:
 * the binary32 eigensolver against the double one, the fit's drop rule for
 * what binary32 cannot resolve, the projection's SGEMM, and the model
 * file's `precision` attribute (written, read, under the checksum; a
 * version-3 file without it reads as double).
 *
 * Tolerances: the single eigensolve's eigenvalues must lie within the floor
 * the fit drops below, KPCA_SINGLE_TOL_FACTOR * FLT_EPSILON * mu_1 (the
 * claim the drop rule rests on); projections within the error bound of a
 * binary32 dot product, (m + 2) FLT_EPSILON sum_i |k~_i alpha_i|.
 *
 * tests/ref/model-v3-double/poly2.h5: a version-3 model written before the
 * attribute (kpca at 26a77f3: kpca fit -q -d 2 -m 12 -k 3
 * data/zip.train.gz). */
#include "testutil.h"

#include "lib/file/h5util.h"
#include "lib/file/h5write.h"

#include <cblas.h>
#include <float.h>
#include <hdf5.h>
#include <sys/stat.h>

#define SINGLE_FLOOR (KPCA_SINGLE_TOL_FACTOR * FLT_EPSILON)

static void test_names(void **state)
{
    (void)state;
    kpca_precision p = KPCA_PRECISION_SINGLE;
    assert_int_equal(kpca_precision_parse("double", &p), 0);
    assert_int_equal(p, KPCA_PRECISION_DOUBLE);
    assert_int_equal(kpca_precision_parse("single", &p), 0);
    assert_int_equal(p, KPCA_PRECISION_SINGLE);
    const char *bad[] = {"", "float", "Single", "half", "double "};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(kpca_precision_parse(bad[i], &p), -1);
        assert_int_equal(p, KPCA_PRECISION_SINGLE); /* untouched */
    }
    assert_string_equal(kpca_precision_name(KPCA_PRECISION_DOUBLE), "double");
    assert_string_equal(kpca_precision_name(KPCA_PRECISION_SINGLE), "single");
    assert_string_equal(kpca_precision_name((kpca_precision)7), "?");
    /* the help texts' default is the constant's name */
    assert_string_equal(kpca_precision_name(KPCA_PRECISION_DEFAULT), KPCA_PRECISION_DEFAULT_NAME);
    assert_int_equal(kpca_fit_defaults(3).precision, KPCA_PRECISION_DEFAULT);
}

/* A PSD n x n matrix B B' (B n x r) with the columns of B scaled by
 * 1, 1/2, 1/3, ...: a decaying spectrum like a kernel matrix's. */
static double *psd(size_t n, size_t r, uint64_t seed)
{
    double *b = malloc(n * r * sizeof *b), *a = calloc(n * n, sizeof *a);
    assert_true(b && a);
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; c < r; c++)
            b[i * r + c] = tu_rand(&seed) / (double)(c + 1);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)n, (int)n, (int)r, 1.0, b, (int)r, b, (int)r, 0.0, a,
                (int)n);
    for (size_t i = 0; i < n; i++) /* exactly symmetric */
        for (size_t j = 0; j < i; j++)
            a[i * n + j] = a[j * n + i];
    free(b);
    return a;
}

static size_t choose_half(const double *mu, size_t n, void *ctx)
{
    (void)mu;
    *(int *)ctx += 1;
    return n / 2;
}

/* Each driver in binary32 against the double solve of the same matrix:
 * eigenvalues within the drop rule's floor, residuals ||A u - mu u|| of the
 * widened vectors within it as well, orthonormal to float accuracy, the
 * same sign rule. */
static void test_eig_single_vs_double(void **state)
{
    (void)state;
    const size_t n = 150, k = 20;
    double *A = psd(n, 60, 3);
    const kpca_eig_method methods[] = {KPCA_EIG_EVD, KPCA_EIG_EVR};
    double *ad = malloc(n * n * sizeof *ad), *ud = malloc(n * n * sizeof *ud), *us = malloc(n * n * sizeof *us);
    double *md = malloc(n * sizeof *md), *ms = malloc(n * sizeof *ms);
    float *af = malloc(n * n * sizeof *af);
    assert_true(ad && ud && us && md && ms && af);
    kpca_error err;
    for (size_t t = 0; t < 2; t++) {
        memcpy(ad, A, n * n * sizeof *ad);
        assert_int_equal(kpca_eig_top(ad, n, k, methods[t], md, ud, &err), KPCA_OK);
        for (size_t i = 0; i < n * n; i++)
            af[i] = (float)A[i];
        size_t got = 0;
        assert_int_equal(kpca_eig_top_single(af, n, k, methods[t], NULL, NULL, &got, ms, us, &err), KPCA_OK);
        assert_int_equal(got, k);
        const double tol = SINGLE_FLOOR * md[0];
        for (size_t j = 0; j < k; j++) {
            if (!(fabs(ms[j] - md[j]) <= tol))
                fail_msg("%s: eigenvalue %zu single %.9g, double %.9g: off by %.3g > %.3g",
                         kpca_eig_method_name(methods[t]), j, ms[j], md[j], fabs(ms[j] - md[j]), tol);
            const double *u = us + j * n;
            double r2 = 0.0, nn = 0.0;
            for (size_t i = 0; i < n; i++) {
                double s = -ms[j] * u[i];
                for (size_t l = 0; l < n; l++)
                    s += A[i * n + l] * u[l];
                r2 += s * s;
                nn += u[i] * u[i];
            }
            if (!(sqrt(r2) <= tol))
                fail_msg("%s: residual of pair %zu is %.3g > %.3g", kpca_eig_method_name(methods[t]), j, sqrt(r2), tol);
            assert_true(fabs(nn - 1.0) <= 10.0 * sqrt((double)n) * FLT_EPSILON);
            size_t arg = 0;
            for (size_t i = 1; i < n; i++)
                if (fabs(u[i]) > fabs(u[arg]))
                    arg = i;
            assert_true(u[arg] > 0.0);
        }
        /* a float solve is not a double one: the eigenvalues do differ */
        double diff = 0.0;
        for (size_t j = 0; j < k; j++)
            diff = fmax(diff, fabs(ms[j] - md[j]));
        assert_true(diff > 0.0);
    }
    /* with a chooser: all n eigenvalues offered once, the count it returns */
    for (size_t i = 0; i < n * n; i++)
        af[i] = (float)A[i];
    int calls = 0;
    size_t got = 0;
    double *all = malloc(n * sizeof *all);
    assert_non_null(all);
    assert_int_equal(kpca_eig_top_single(af, n, 0, KPCA_EIG_AUTO, choose_half, &calls, &got, all, us, &err), KPCA_OK);
    assert_int_equal(calls, 1);
    assert_int_equal(got, n / 2);
    assert_true(fabs(all[0] - md[0]) <= SINGLE_FLOOR * md[0]);
    /* bad counts */
    assert_int_equal(kpca_eig_top_single(af, n, 0, KPCA_EIG_EVD, NULL, NULL, NULL, ms, us, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_eig_top_single(af, n, n + 1, KPCA_EIG_EVD, NULL, NULL, NULL, ms, us, &err), KPCA_EUSAGE);
    free(all);
    free(A);
    free(ad);
    free(ud);
    free(us);
    free(md);
    free(ms);
    free(af);
}

/* m points in 4 dimensions whose coordinates have spreads 1, 0.3, 1e-2
 * and 3e-5: the linear kernel's centred eigenvalues relative to mu_1 are
 * about 1, 0.09, 1e-4 and 1e-9.  Double resolves all four; binary32's
 * noise (a few FLT_EPSILON mu_1 = some 1e-7) buries the last, which the
 * single fit must drop, and keep the other three. */
static void spread_dataset(kpca_dataset *ds, size_t m)
{
    const double spread[4] = {1.0, 0.3, 1e-2, 3e-5};
    kpca_error err;
    assert_int_equal(kpca_dataset_alloc(ds, m, 4, &err), KPCA_OK);
    uint64_t seed = 11;
    for (size_t i = 0; i < m; i++) {
        for (size_t c = 0; c < 4; c++)
            ds->x[i * 4 + c] = 0.5 + spread[c] * tu_rand(&seed);
        ds->y[i] = (int)(i % 3);
    }
}

static void fit_prec(const kpca_dataset *ds, kpca_precision prec, size_t comps, kpca_model *md, kpca_fit_info *info)
{
    kpca_fit_params p = kpca_fit_defaults(1);
    p.kernel = kpca_kernel_linear();
    p.primal = 0; /* the M x M path: the D x D primal fit is always double */
    p.components = comps;
    p.precision = prec;
    kpca_error err;
    if (kpca_model_fit(ds, &p, md, info, &err) != KPCA_OK)
        fail_msg("fit (%s): %s", kpca_precision_name(prec), err.msg);
}

static void test_fit_drops_what_float_cannot_resolve(void **state)
{
    (void)state;
    kpca_dataset ds;
    spread_dataset(&ds, 60);
    const size_t comps[] = {0, 4}; /* all (EVD), or 4 of 60 (EVR) */
    for (size_t t = 0; t < 2; t++) {
        kpca_model d, s;
        kpca_fit_info di, si;
        fit_prec(&ds, KPCA_PRECISION_DOUBLE, comps[t], &d, &di);
        fit_prec(&ds, KPCA_PRECISION_SINGLE, comps[t], &s, &si);
        assert_int_equal(d.k, 4);
        assert_int_equal(s.k, 3);
        assert_int_equal(d.precision, KPCA_PRECISION_DOUBLE);
        assert_int_equal(s.precision, KPCA_PRECISION_SINGLE);
        assert_true(si.tol == SINGLE_FLOOR);
        /* the dropped one is below the floor in double too, the kept above */
        assert_true(d.eigval[3] < SINGLE_FLOOR * d.eigval[0]);
        assert_true(d.eigval[2] > SINGLE_FLOOR * d.eigval[0]);
        for (size_t c = 0; c < 3; c++)
            assert_true(fabs(s.eigval[c] - d.eigval[c]) <= SINGLE_FLOOR * d.eigval[0]);
        assert_string_equal(s.solver, d.solver);
        kpca_model_free(&d);
        kpca_model_free(&s);
    }
    /* an explicit --tol replaces the rule: 1e-12 keeps the fourth, whatever
     * binary32 made of it */
    kpca_fit_params p = kpca_fit_defaults(1);
    p.kernel = kpca_kernel_linear();
    p.primal = 0;
    p.components = 4;
    p.precision = KPCA_PRECISION_SINGLE;
    p.tol = 1e-30;
    kpca_model md;
    kpca_error err;
    assert_int_equal(kpca_model_fit(&ds, &p, &md, NULL, &err), KPCA_OK);
    assert_true(md.k >= 3);
    kpca_model_free(&md);
    /* single precision is the exact solver's only */
    p = kpca_fit_defaults(1);
    p.precision = KPCA_PRECISION_SINGLE;
    p.solver = KPCA_SOLVER_NYSTROM;
    p.landmarks = 10;
    const char *param = NULL;
    assert_int_equal(kpca_fit_check(&p, 60, &param, &err), KPCA_EUSAGE);
    assert_string_equal(param, "precision");
    p.solver = KPCA_SOLVER_RANDOMIZED;
    p.components = 3;
    assert_int_equal(kpca_model_fit(&ds, &p, &md, NULL, &err), KPCA_EUSAGE);
    assert_null(md.alpha);
    kpca_dataset_free(&ds);
}

/* One model projected in double and in single: every feature within the
 * binary32 dot product's bound, and not all identical. */
static void test_transform_single_vs_double(void **state)
{
    (void)state;
    kpca_dataset fit, pts;
    tu_random_dataset(&fit, 80, 16, 3, 21);
    tu_random_dataset(&pts, 50, 16, 3, 22);
    kpca_fit_params p = kpca_fit_defaults(2);
    p.components = 12;
    kpca_model md;
    kpca_error err;
    assert_int_equal(kpca_model_fit(&fit, &p, &md, NULL, &err), KPCA_OK);
    const size_t m = md.m, k = md.k, n = pts.n;
    double *zd = malloc(n * k * sizeof *zd), *zs = malloc(n * k * sizeof *zs), *kt = malloc(n * m * sizeof *kt);
    assert_true(zd && zs && kt);
    assert_int_equal(kpca_model_transform(&md, pts.x, n, pts.dim, k, zd, &err), KPCA_OK);
    md.precision = KPCA_PRECISION_SINGLE;
    assert_int_equal(kpca_model_transform(&md, pts.x, n, pts.dim, k, zs, &err), KPCA_OK);
    kpca_kernel_cross(&md.kernel, pts.x, n, md.fitx, m, md.dim, kt);
    kpca_center_cross(kt, n, m, md.colmean, md.grandmean);
    size_t differ = 0;
    for (size_t r = 0; r < n; r++)
        for (size_t c = 0; c < k; c++) {
            double s = 0.0;
            for (size_t i = 0; i < m; i++)
                s += fabs(kt[r * m + i] * md.alpha[c * m + i]);
            double bound = (double)(m + 2) * FLT_EPSILON * s, d = fabs(zs[r * k + c] - zd[r * k + c]);
            if (!(d <= bound))
                fail_msg("point %zu component %zu: single %.9g, double %.9g (bound %.3g)", r, c, zs[r * k + c],
                         zd[r * k + c], bound);
            differ += d > 0.0;
        }
    assert_true(differ > 0);
    /* the fit points still project to mu alpha_j, in either precision */
    assert_int_equal(kpca_model_transform(&md, fit.x, 1, fit.dim, k, zs, &err), KPCA_OK);
    for (size_t c = 0; c < k; c++)
        assert_true(zs[c] == md.eigval[c] * md.alpha[c * m]);
    free(zd);
    free(zs);
    free(kt);
    kpca_model_free(&md);
    kpca_dataset_free(&fit);
    kpca_dataset_free(&pts);
}

/* ---- the model file ---- */

static void save(const kpca_model *md, const char *path)
{
    kpca_error err;
    if (kpca_model_save(md, path, &err) != KPCA_OK)
        fail_msg("save '%s': %s", path, err.msg);
}

static void attr_text(const char *path, const char *name, char *buf, size_t cap)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    kpca_error err;
    assert_int_equal(kpca_h5_attr_read_string(f, path, name, buf, cap, &err), KPCA_OK);
    H5Fclose(f);
}

/* Replaces (v != NULL) or deletes the text attribute `name`, then seals the
 * file again, so that the edit meets the model's checksum, not the seal. */
static void edit_text(const char *from, const char *to, const char *name, const char *v)
{
    size_t len;
    unsigned char *buf = tu_slurp(from, &len);
    tu_write_bytes(to, buf, len);
    free(buf);
    hid_t f = H5Fopen(to, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(f >= 0);
    assert_true(H5Adelete(f, name) >= 0);
    kpca_error err;
    if (v != NULL)
        assert_int_equal(kpca_h5_attr_write_string(f, to, name, v, &err), KPCA_OK);
    H5Fclose(f);
    tu_reseal(to);
}

static void expect_refused(const char *path, const char *fired)
{
    kpca_model md;
    kpca_error err;
    kpca_error_clear(&err);
    assert_int_equal(kpca_model_load(path, &md, &err), KPCA_EFORMAT);
    if (strstr(err.msg, fired) == NULL)
        fail_msg("'%s': the wrong check fired: '%s', expected one saying '%s'", path, err.msg, fired);
    assert_null(md.alpha);
}

static void test_model_file_precision(void **state)
{
    (void)state;
    kpca_dataset ds;
    spread_dataset(&ds, 40);
    kpca_model d, s, back;
    kpca_error err;
    fit_prec(&ds, KPCA_PRECISION_DOUBLE, 3, &d, NULL);
    fit_prec(&ds, KPCA_PRECISION_SINGLE, 3, &s, NULL);
    const char *D = TEST_OUT "/prec_double.h5", *S = TEST_OUT "/prec_single.h5", *E = TEST_OUT "/prec_edit.h5";
    save(&d, D);
    save(&s, S);
    char text[32];
    attr_text(D, "precision", text, sizeof text);
    assert_string_equal(text, "double");
    attr_text(S, "precision", text, sizeof text);
    assert_string_equal(text, "single");
    assert_int_equal(kpca_model_load(S, &back, &err), KPCA_OK);
    assert_int_equal(back.precision, KPCA_PRECISION_SINGLE);
    assert_int_equal(back.version, KPCA_MODEL_VERSION);
    assert_memory_equal(back.alpha, s.alpha, s.k * s.m * sizeof(double));
    /* the fingerprint (version-2 rule) does not see the precision */
    s.precision = KPCA_PRECISION_DOUBLE;
    assert_int_equal(kpca_model_fingerprint(&back), kpca_model_fingerprint(&s));
    kpca_model_free(&back);
    assert_int_equal(kpca_model_load(D, &back, &err), KPCA_OK);
    assert_int_equal(back.precision, KPCA_PRECISION_DOUBLE);
    kpca_model_free(&back);

    /* the control: the same text written again loads */
    edit_text(S, E, "precision", "single");
    assert_int_equal(kpca_model_load(E, &back, &err), KPCA_OK);
    assert_int_equal(back.precision, KPCA_PRECISION_SINGLE);
    kpca_model_free(&back);
    /* under the checksum: changed either way, or removed */
    edit_text(S, E, "precision", "double");
    expect_refused(E, "checksum mismatch");
    edit_text(D, E, "precision", "single");
    expect_refused(E, "checksum mismatch");
    edit_text(S, E, "precision", NULL);
    expect_refused(E, "checksum mismatch");
    edit_text(D, E, "precision", NULL);
    expect_refused(E, "checksum mismatch");
    edit_text(S, E, "precision", "half");
    expect_refused(E, "unknown precision 'half'");

    /* a version-3 file from before the attribute: double */
    const char *old = "tests/ref/model-v3-double/poly2.h5";
    hid_t f = H5Fopen(old, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    assert_true(H5Aexists(f, "precision") == 0);
    H5Fclose(f);
    assert_int_equal(kpca_model_load(old, &back, &err), KPCA_OK);
    assert_int_equal(back.version, 3);
    assert_int_equal(back.precision, KPCA_PRECISION_DOUBLE);
    /* written again, it gains the attribute and loads the same */
    save(&back, E);
    attr_text(E, "precision", text, sizeof text);
    assert_string_equal(text, "double");
    kpca_model again;
    assert_int_equal(kpca_model_load(E, &again, &err), KPCA_OK);
    assert_memory_equal(again.alpha, back.alpha, back.k * back.m * sizeof(double));
    kpca_model_free(&again);
    kpca_model_free(&back);
    kpca_model_free(&d);
    kpca_model_free(&s);
    kpca_dataset_free(&ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_eig_single_vs_double),
        cmocka_unit_test(test_fit_drops_what_float_cannot_resolve),
        cmocka_unit_test(test_transform_single_vs_double),
        cmocka_unit_test(test_model_file_precision),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

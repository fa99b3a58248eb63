/* model_fixture.h - what the model tests share: USPS digits loaded once
 * (MFIT fit points, MNEW new points), a fit of given degree, and the model
 * file written to tests/out/ and compared field by field. */
#ifndef KPCA_TEST_MODEL_FIXTURE_H
#define KPCA_TEST_MODEL_FIXTURE_H

#define MFIT 300
#define MNEW 1100 /* more than KPCA_TRANSFORM_BLOCK, to cross a block edge */

static kpca_dataset g_fit, g_new; /* loaded once (see data()) */
static int g_loaded = 0;

static inline void data(void)
{
    if (!g_loaded) {
        tu_usps(&g_fit, "zip.train.gz", MFIT);
        tu_usps(&g_new, "zip.test.gz", MNEW);
        g_loaded = 1;
    }
    assert_int_equal(g_fit.n, MFIT);
    assert_int_equal(g_fit.dim, 256);
    assert_int_equal(g_new.n, MNEW);
}

static inline int teardown_all(void **state)
{
    (void)state;
    if (g_loaded) {
        kpca_dataset_free(&g_fit);
        kpca_dataset_free(&g_new);
    }
    return 0;
}

static inline void ensure_out(void)
{
}

static inline void fit(const kpca_dataset *ds, int degree, size_t comps, kpca_eig_method eig, kpca_model *md,
                kpca_fit_info *info)
{
    kpca_fit_params p = kpca_fit_defaults(degree);
    p.components = comps;
    p.eig = eig;
    kpca_error err;
    kpca_status st = kpca_model_fit(ds, &p, md, info, &err);
    if (st != KPCA_OK)
        fail_msg("fit degree %d: %s", degree, err.msg);
}


static const char *const model_path = TEST_OUT "/model_d2.h5";

static inline void save_model(kpca_model *md)
{
    ensure_out();
    kpca_error err;
    kpca_status st = kpca_model_save(md, model_path, &err);
    if (st != KPCA_OK)
        fail_msg("save: %s", err.msg);
}

static inline void assert_models_identical(const kpca_model *a, const kpca_model *b)
{
    assert_int_equal(a->kernel.type, b->kernel.type);
    assert_int_equal(a->kernel.degree, b->kernel.degree);
    assert_memory_equal(&a->kernel.gamma, &b->kernel.gamma, sizeof(double));
    assert_memory_equal(&a->kernel.coef0, &b->kernel.coef0, sizeof(double));
    if (a->kernel.type == KPCA_KERNEL_RBF)
        assert_memory_equal(&a->kernel.sigma, &b->kernel.sigma, sizeof(double));
    assert_int_equal(a->m, b->m);
    assert_int_equal(a->dim, b->dim);
    assert_int_equal(a->k, b->k);
    assert_memory_equal(a->fitx, b->fitx, a->m * a->dim * sizeof(double));
    assert_memory_equal(a->fity, b->fity, a->m * sizeof(int));
    assert_memory_equal(a->alpha, b->alpha, a->k * a->m * sizeof(double));
    assert_memory_equal(a->eigval, b->eigval, a->k * sizeof(double));
    assert_memory_equal(a->colmean, b->colmean, a->m * sizeof(double));
    assert_memory_equal(&a->grandmean, &b->grandmean, sizeof(double));
    assert_memory_equal(&a->trace, &b->trace, sizeof(double));
    assert_memory_equal(&a->input_lo, &b->input_lo, sizeof(double));
    assert_memory_equal(&a->input_hi, &b->input_hi, sizeof(double));
    assert_string_equal(a->source, b->source);
}



#endif

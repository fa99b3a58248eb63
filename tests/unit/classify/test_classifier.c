/* test_classifier.c - linear SVMs on feature prefixes of USPS features
 * (kpca_eval, the classifier parameters, LIBSVM's own prediction). */
#include "testutil.h"

#include "svmref.h"

#define NTRAIN 500
#define NTEST 300
#define K 32

/* Features of USPS digits from a degree-2 model with K components (built once). */
static double *g_xtr, *g_xte;
static int *g_ytr, *g_yte;

static void features(void)
{
    if (g_xtr != NULL)
        return;
    kpca_dataset tr, te;
    tu_usps(&tr, "zip.train.gz", NTRAIN);
    tu_usps(&te, "zip.test.gz", NTEST);
    kpca_fit_params p = kpca_fit_defaults(2);
    p.components = K;
    kpca_model md;
    kpca_error err;
    kpca_status st = kpca_model_fit(&tr, &p, &md, NULL, &err);
    if (st != KPCA_OK)
        fail_msg("fit: %s", err.msg);
    assert_int_equal(md.k, K);
    g_xtr = malloc(NTRAIN * K * sizeof(double));
    g_xte = malloc(NTEST * K * sizeof(double));
    g_ytr = malloc(NTRAIN * sizeof(int));
    g_yte = malloc(NTEST * sizeof(int));
    assert_true(g_xtr && g_xte && g_ytr && g_yte);
    assert_int_equal(kpca_model_transform(&md, tr.x, NTRAIN, 256, K, g_xtr, &err), KPCA_OK);
    assert_int_equal(kpca_model_transform(&md, te.x, NTEST, 256, K, g_xte, &err), KPCA_OK);
    memcpy(g_ytr, tr.y, NTRAIN * sizeof(int));
    memcpy(g_yte, te.y, NTEST * sizeof(int));
    kpca_model_free(&md);
    kpca_dataset_free(&tr);
    kpca_dataset_free(&te);
}

static int teardown_all(void **state)
{
    (void)state;
    free(g_xtr);
    free(g_xte);
    free(g_ytr);
    free(g_yte);
    return 0;
}

static void eval(const size_t *prefixes, size_t np, const kpca_eval_params *p, kpca_eval_row *rows)
{
    kpca_error err;
    kpca_status st = kpca_eval(g_xtr, g_ytr, NTRAIN, g_xte, g_yte, NTEST, K, prefixes, np, p, rows, &err);
    if (st != KPCA_OK)
        fail_msg("kpca_eval: %s", err.msg);
    for (size_t i = 0; i < np; i++) {
        assert_int_equal(rows[i].components, prefixes[i]);
        assert_int_equal(rows[i].total, NTEST);
        assert_true(rows[i].errors <= NTEST);
        assert_true(fabs(rows[i].error_pct - 100.0 * (double)rows[i].errors / NTEST) < 1e-12);
        assert_true(rows[i].nsv > 0);
        assert_true(rows[i].sec_train >= 0.0 && rows[i].sec_predict >= 0.0);
    }
}

static void test_error_rate(void **state)
{
    (void)state;
    features();
    kpca_eval_params p = kpca_eval_defaults();
    assert_int_equal(kpca_eval_check(&p, NULL), KPCA_OK);
    const size_t pre[2] = {K, 2};
    kpca_eval_row rows[2];
    eval(pre, 2, &p, rows);
    print_message("      %zu components: %zu errors of %d (%.1f%%); 2 components: %.1f%%\n", rows[0].components,
                  rows[0].errors, NTEST, rows[0].error_pct, rows[1].error_pct);
    assert_true(rows[0].error_pct < 15.0);
    /* 2 components are far worse than 32 (the problem is not trivial) */
    assert_true(rows[1].error_pct > rows[0].error_pct + 10.0);
    /* one-vs-rest is a little weaker on this small problem (about 16%) */
    p.svm.scheme = KPCA_MC_OVR;
    eval(pre, 1, &p, rows);
    assert_true(rows[0].error_pct < 20.0);
}

static void test_backends_agree(void **state)
{
    (void)state;
    features();
    const size_t pre[3] = {4, 16, K};
    for (int sc = KPCA_MC_OVO; sc <= KPCA_MC_OVR; sc++) {
        for (int scale = KPCA_SCALE_NONE; scale <= KPCA_SCALE_STD; scale++) {
            kpca_eval_params p = kpca_eval_defaults();
            p.svm.scheme = (kpca_multiclass)sc;
            p.scale = (kpca_scale)scale;
            if (scale == KPCA_SCALE_NONE)
                p.svm.C = 0.01; /* raw components are large: keep the problem comparable */
            kpca_eval_row g[3], s[3];
            p.svm.backend = KPCA_SVM_GRAM;
            eval(pre, 3, &p, g);
            p.svm.backend = KPCA_SVM_SPARSE;
            eval(pre, 3, &p, s);
            for (size_t i = 0; i < 3; i++)
                if (g[i].errors != s[i].errors)
                    fail_msg("%s scale %s, %zu components: gram %zu errors, sparse %zu",
                             kpca_multiclass_name(p.svm.scheme), kpca_scale_name(p.scale), pre[i], g[i].errors,
                             s[i].errors);
            /* LIBLINEAR solves the same hinge-loss problem but regularises
             * the bias: close to LIBSVM, not equal */
            if (scale == KPCA_SCALE_NONE)
                continue; /* C = 0.01 on raw components: the bias term matters */
            kpca_eval_row l[3];
            p.svm.backend = KPCA_SVM_LIBLINEAR;
            eval(pre, 3, &p, l);
            for (size_t i = 2; i < 3; i++) /* all K components: 4 or 16 leave a hard problem */
                if (labs((long)l[i].errors - (long)g[i].errors) > NTEST / 50)
                    fail_msg("%s scale %s, %zu components: libsvm %zu errors, liblinear %zu",
                             kpca_multiclass_name(p.svm.scheme), kpca_scale_name(p.scale), pre[i], g[i].errors,
                             l[i].errors);
        }
    }
}

/* The binary machines are trained by worker threads; each machine depends on
 * its own problem only, so 1, 2 or 7 threads give bit-identical classifiers,
 * for both schemes and both backends, and the same cross-validated C. */
static void test_threads_identical(void **state)
{
    (void)state;
    features();
    for (int sc = KPCA_MC_OVO; sc <= KPCA_MC_OVR; sc++) {
        for (int b = KPCA_SVM_GRAM; b <= KPCA_SVM_LIBLINEAR; b++) {
            kpca_classifier ref, cl;
            kpca_error err;
            double *g = NULL;
            if (b == KPCA_SVM_GRAM) { /* full Gram of the first 16 columns */
                g = malloc(NTRAIN * NTRAIN * sizeof *g);
                assert_non_null(g);
                for (size_t i = 0; i < NTRAIN; i++)
                    for (size_t j = 0; j < NTRAIN; j++) {
                        double d = 0.0;
                        for (size_t c = 0; c < 16; c++)
                            d += g_xtr[i * K + c] * g_xtr[j * K + c];
                        g[i * NTRAIN + j] = d;
                    }
            }
            const int threads[3] = {1, 2, 7};
            for (int t = 0; t < 3; t++) {
                kpca_svm_params p = kpca_svm_defaults();
                p.scheme = (kpca_multiclass)sc;
                p.backend = (kpca_svm_backend)b;
                p.threads = threads[t];
                kpca_classifier *out = t == 0 ? &ref : &cl;
                if (kpca_svm_train(g_xtr, NTRAIN, K, 16, g_ytr, g, 0.01, &p, out, &err) != KPCA_OK)
                    fail_msg("train with %d threads: %s", threads[t], err.msg);
                if (t == 0)
                    continue;
                assert_int_equal(cl.nmach, ref.nmach);
                assert_int_equal(cl.nsv, ref.nsv);
                assert_memory_equal(cl.w, ref.w, ref.nmach * ref.dim * sizeof(double));
                assert_memory_equal(cl.b, ref.b, ref.nmach * sizeof(double));
                kpca_classifier_free(&cl);
            }
            kpca_classifier_free(&ref);
            free(g);
        }
    }
    const double costs[3] = {0.1, 1, 10};
    const size_t pre[2] = {8, K};
    kpca_eval_row r1[2], r2[2];
    kpca_eval_params p = kpca_eval_defaults();
    p.costs = costs;
    p.ncost = 3;
    p.svm.threads = 1;
    eval(pre, 2, &p, r1);
    p.svm.threads = 2;
    eval(pre, 2, &p, r2);
    for (size_t i = 0; i < 2; i++) {
        assert_true(r1[i].C == r2[i].C);
        assert_true(r1[i].cv_error_pct == r2[i].cv_error_pct);
        assert_int_equal(r1[i].errors, r2[i].errors);
    }
}

static void test_prefix_order(void **state)
{
    (void)state;
    features();
    const size_t pre[6] = {K, 4, 16, 4, 8, 1};
    for (int b = KPCA_SVM_GRAM; b <= KPCA_SVM_LIBLINEAR; b++) {
        kpca_eval_params p = kpca_eval_defaults();
        p.svm.backend = (kpca_svm_backend)b;
        kpca_eval_row all[6];
        eval(pre, 6, &p, all);
        for (size_t i = 0; i < 6; i++) {
            kpca_eval_row one;
            eval(&pre[i], 1, &p, &one);
            assert_int_equal(all[i].components, one.components);
            assert_int_equal(all[i].errors, one.errors);
            assert_int_equal(all[i].total, one.total);
            assert_int_equal(all[i].nsv, one.nsv);
            assert_true(all[i].error_pct == one.error_pct);
        }
        /* duplicates answer alike */
        assert_int_equal(all[1].errors, all[3].errors);
        assert_int_equal(all[1].nsv, all[3].nsv);
    }
}

static void test_norm_scaling_is_rescaled_C(void **state)
{
    (void)state;
    features();
    /* NORM multiplies the linear kernel by factor = n / trace(G) with G the
     * Gram matrix of the k leading training features; the dual with kernel
     * f*G and bound C is the dual with kernel G and bound f*C scaled by 1/f,
     * so the classifiers (and the errors) are the same. */
    const size_t pre[3] = {3, 12, K};
    for (int sc = KPCA_MC_OVO; sc <= KPCA_MC_OVR; sc++) {
        for (size_t i = 0; i < 3; i++) {
            size_t k = pre[i];
            double trace = 0.0;
            for (size_t r = 0; r < NTRAIN; r++)
                for (size_t c = 0; c < k; c++)
                    trace += g_xtr[r * K + c] * g_xtr[r * K + c];
            double factor = (double)NTRAIN / trace;
            kpca_eval_params p = kpca_eval_defaults();
            p.svm.scheme = (kpca_multiclass)sc;
            p.svm.backend = KPCA_SVM_SPARSE;
            p.svm.C = 2.0;
            p.scale = KPCA_SCALE_NORM;
            kpca_eval_row a, b, c;
            eval(&k, 1, &p, &a);
            p.scale = KPCA_SCALE_NONE;
            p.svm.C = 2.0 * factor;
            eval(&k, 1, &p, &b);
            /* the same errors; the support vectors may differ by rounding
             * at the margin */
            if (a.errors != b.errors || (double)(a.nsv > b.nsv ? a.nsv - b.nsv : b.nsv - a.nsv) > 0.01 * (double)a.nsv)
                fail_msg("%s k=%zu: norm C=2 gives %zu errors / %zu SVs, none C=%g gives %zu / %zu",
                         kpca_multiclass_name(p.svm.scheme), k, a.errors, a.nsv, p.svm.C, b.errors, b.nsv);
            /* the same with the GRAM backend */
            p.svm.backend = KPCA_SVM_GRAM;
            eval(&k, 1, &p, &c);
            assert_int_equal(c.errors, b.errors);
        }
    }
}


/* ---- agreement with LIBSVM's own prediction ----------------------------------- */


static void test_matches_libsvm_predict(void **state)
{
    (void)state;
    features();
    const size_t k = 16;
    struct svm_node *nodes = malloc(NTRAIN * (k + 1) * sizeof *nodes);
    struct svm_node **rows = malloc(NTRAIN * sizeof *rows);
    double *yd = malloc(NTRAIN * sizeof *yd);
    assert_true(nodes && rows && yd);
    for (size_t i = 0; i < NTRAIN; i++) {
        rows[i] = nodes + i * (k + 1);
        for (size_t j = 0; j < k; j++) {
            rows[i][j].index = (int)j + 1;
            rows[i][j].value = g_xtr[i * K + j];
        }
        rows[i][k].index = -1;
        yd[i] = g_ytr[i];
    }
    struct svm_problem prob = {NTRAIN, yd, rows};
    struct svm_parameter par = svmref_linear(0.05);
    assert_null(svm_check_parameter(&prob, &par));
    struct svm_model *model = svm_train(&prob, &par);
    assert_non_null(model);

    kpca_svm_params p = kpca_svm_defaults();
    p.C = par.C;
    p.backend = KPCA_SVM_SPARSE;
    p.scheme = KPCA_MC_OVO;
    p.cache_mb = 100;
    kpca_classifier cl;
    kpca_error err;
    assert_int_equal(kpca_svm_train(g_xtr, NTRAIN, K, k, g_ytr, NULL, 1.0, &p, &cl, &err), KPCA_OK);
    assert_int_equal(cl.nsv >= (size_t)svm_get_nr_sv(model), 1); /* SVs counted per machine */
    int pred[NTEST];
    assert_int_equal(kpca_classifier_predict(&cl, g_xte, NTEST, K, pred, &err), KPCA_OK);
    struct svm_node xn[K + 1];
    size_t disagree = 0, errors_lib = 0, errors_ours = 0;
    for (size_t i = 0; i < NTEST; i++) {
        for (size_t j = 0; j < k; j++) {
            xn[j].index = (int)j + 1;
            xn[j].value = g_xte[i * K + j];
        }
        xn[k].index = -1;
        int lib = (int)svm_predict(model, xn);
        disagree += lib != pred[i];
        errors_lib += lib != g_yte[i];
        errors_ours += pred[i] != g_yte[i];
    }
    print_message("      libsvm %zu errors, kpca %zu, %zu predictions differ\n", errors_lib, errors_ours, disagree);
    assert_int_equal(disagree, 0);
    kpca_classifier_free(&cl);
    svm_free_and_destroy_model(&model);

    /* one-vs-rest: a LIBSVM binary machine per class (+1 for the class),
     * the largest decision value wins */
    p.scheme = KPCA_MC_OVR;
    assert_int_equal(kpca_svm_train(g_xtr, NTRAIN, K, k, g_ytr, NULL, 1.0, &p, &cl, &err), KPCA_OK);
    assert_int_equal(kpca_classifier_predict(&cl, g_xte, NTEST, K, pred, &err), KPCA_OK);
    assert_int_equal(cl.nmach, cl.nclass);
    double *best = malloc(NTEST * sizeof *best);
    int *bestlab = malloc(NTEST * sizeof *bestlab);
    assert_true(best && bestlab);
    for (size_t i = 0; i < NTEST; i++)
        best[i] = -INFINITY;
    for (size_t c = 0; c < cl.nclass; c++) {
        int label = cl.labels[c];
        for (size_t i = 0; i < NTRAIN; i++)
            yd[i] = g_ytr[i] == label ? 1.0 : -1.0;
        model = svm_train(&prob, &par);
        assert_non_null(model);
        int labs[2];
        svm_get_labels(model, labs);
        for (size_t i = 0; i < NTEST; i++) {
            for (size_t j = 0; j < k; j++) {
                xn[j].index = (int)j + 1;
                xn[j].value = g_xte[i * K + j];
            }
            xn[k].index = -1;
            double dec;
            svm_predict_values(model, xn, &dec);
            if (labs[0] != 1)
                dec = -dec;
            if (dec > best[i]) {
                best[i] = dec;
                bestlab[i] = label;
            }
        }
        svm_free_and_destroy_model(&model);
    }
    disagree = 0;
    for (size_t i = 0; i < NTEST; i++)
        disagree += bestlab[i] != pred[i];
    print_message("      one-vs-rest: %zu predictions differ from LIBSVM machines\n", disagree);
    assert_int_equal(disagree, 0);
    free(best);
    free(bestlab);
    kpca_classifier_free(&cl);
    free(nodes);
    free(rows);
    free(yd);
}

/* ---- parameters --------------------------------------------------------------- */

static void test_params(void **state)
{
    (void)state;
    kpca_error err;
    kpca_svm_params p = kpca_svm_defaults();
    assert_int_equal(kpca_svm_check(&p, &err), KPCA_OK);
    const double badC[] = {0.0, -1.0, -0.0, NAN, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof badC / sizeof badC[0]; i++) {
        p = kpca_svm_defaults();
        p.C = badC[i];
        kpca_error_clear(&err);
        assert_int_equal(kpca_svm_check(&p, &err), KPCA_EUSAGE);
        assert_true(err.msg[0] != '\0');
    }
    p = kpca_svm_defaults();
    p.C = 1e-9;
    assert_int_equal(kpca_svm_check(&p, &err), KPCA_OK);
    p.eps = 0.0;
    assert_int_equal(kpca_svm_check(&p, &err), KPCA_EUSAGE);
    p = kpca_svm_defaults();
    p.cache_mb = -1.0;
    assert_int_equal(kpca_svm_check(&p, &err), KPCA_EUSAGE);
    p = kpca_svm_defaults();
    p.scheme = (kpca_multiclass)2;
    assert_int_equal(kpca_svm_check(&p, &err), KPCA_EUSAGE);
    p = kpca_svm_defaults();
    p.backend = (kpca_svm_backend)3;
    assert_int_equal(kpca_svm_check(&p, &err), KPCA_EUSAGE);

    /* the evaluation's own parameters: kind and scaling for every kind, the
     * SVMs' (and their candidate C values) for the SVM only */
    kpca_eval_params e = kpca_eval_defaults();
    assert_int_equal(kpca_eval_check(&e, &err), KPCA_OK);
    e.scale = (kpca_scale)3;
    assert_int_equal(kpca_eval_check(&e, &err), KPCA_EUSAGE);
    e = kpca_eval_defaults();
    e.classifier = (kpca_classifier_kind)2;
    assert_int_equal(kpca_eval_check(&e, &err), KPCA_EUSAGE);
    e = kpca_eval_defaults();
    e.svm.C = 0.0;
    assert_int_equal(kpca_eval_check(&e, &err), KPCA_EUSAGE);
    e.classifier = KPCA_CLF_LDA; /* LDA has no C */
    assert_int_equal(kpca_eval_check(&e, &err), KPCA_OK);

    /* kpca_eval refuses bad C and prefixes outside 1..dim */
    const double x[8] = {0, 1, 1, 0, 2, 2, 3, 1};
    const int y[4] = {0, 1, 0, 1};
    kpca_eval_row row;
    size_t pre = 1;
    e = kpca_eval_defaults();
    e.svm.C = 0.0;
    assert_int_equal(kpca_eval(x, y, 4, x, y, 4, 2, &pre, 1, &e, &row, &err), KPCA_EUSAGE);
    e.svm.C = 1.0;
    pre = 0;
    assert_int_equal(kpca_eval(x, y, 4, x, y, 4, 2, &pre, 1, &e, &row, &err), KPCA_EUSAGE);
    pre = 3;
    assert_int_equal(kpca_eval(x, y, 4, x, y, 4, 2, &pre, 1, &e, &row, &err), KPCA_EUSAGE);
    pre = 2;
    assert_int_equal(kpca_eval(x, y, 4, x, y, 4, 2, &pre, 1, &e, &row, &err), KPCA_OK);
    assert_int_equal(row.total, 4);

    /* names */
    kpca_multiclass mc;
    kpca_scale sc;
    kpca_svm_backend be;
    assert_int_equal(kpca_multiclass_parse("ovr", &mc), 0);
    assert_int_equal(mc, KPCA_MC_OVR);
    assert_string_equal(kpca_multiclass_name(KPCA_MC_OVO), "ovo");
    assert_int_equal(kpca_scale_parse("std", &sc), 0);
    assert_int_equal(sc, KPCA_SCALE_STD);
    assert_string_equal(kpca_scale_name(KPCA_SCALE_NORM), "norm");
    assert_int_equal(kpca_backend_parse("sparse", &be), 0);
    assert_int_equal(be, KPCA_SVM_SPARSE);
    assert_int_equal(kpca_backend_parse("liblinear", &be), 0);
    assert_int_equal(be, KPCA_SVM_LIBLINEAR);
    assert_string_equal(kpca_backend_name(KPCA_SVM_GRAM), "gram");
    assert_int_equal(kpca_multiclass_parse("x", &mc), -1);
    assert_int_equal(kpca_scale_parse("x", &sc), -1);
    assert_int_equal(kpca_backend_parse("x", &be), -1);
}

/* Cross-validated C: chosen from the training features alone, so scrambling
 * the test labels changes nothing but the test error; a single candidate is
 * the plain fixed-C run; the CV error is a real error rate of TRAIN. */
static void test_cross_validation(void **state)
{
    (void)state;
    features();
    const double costs[] = {0.1, 1, 10};
    const size_t pre[] = {8, 32};
    kpca_eval_params p = kpca_eval_defaults();
    p.costs = costs;
    p.ncost = 3;
    p.folds = 4;
    kpca_eval_row cv[2], scrambled[2], fixed[2];
    eval(pre, 2, &p, cv);
    for (size_t i = 0; i < 2; i++) {
        int is_candidate = cv[i].C == 0.1 || cv[i].C == 1 || cv[i].C == 10;
        assert_true(is_candidate);
        assert_true(cv[i].cv_error_pct > 0.0 && cv[i].cv_error_pct < 50.0);
    }
    /* the same choice with the test labels scrambled */
    int *saved = malloc(NTEST * sizeof(int));
    assert_non_null(saved);
    memcpy(saved, g_yte, NTEST * sizeof(int));
    for (size_t i = 0; i < NTEST; i++)
        g_yte[i] = (int)((i * 7) % 10);
    eval(pre, 2, &p, scrambled);
    memcpy(g_yte, saved, NTEST * sizeof(int));
    free(saved);
    for (size_t i = 0; i < 2; i++) {
        assert_true(scrambled[i].C == cv[i].C);
        assert_true(scrambled[i].cv_error_pct == cv[i].cv_error_pct);
    }
    /* training on all of TRAIN with the chosen C equals a fixed-C run */
    for (size_t i = 0; i < 2; i++) {
        kpca_eval_params q = kpca_eval_defaults();
        q.svm.C = cv[i].C;
        eval(&pre[i], 1, &q, &fixed[i]);
        assert_int_equal(fixed[i].errors, cv[i].errors);
        assert_true(fixed[i].cv_error_pct < 0.0);
    }
    /* bad candidates and folds are refused */
    kpca_error err;
    const double bad[] = {1, -1};
    p.costs = bad;
    p.ncost = 2;
    kpca_eval_row row;
    assert_int_equal(kpca_eval(g_xtr, g_ytr, NTRAIN, g_xte, g_yte, NTEST, K, pre, 1, &p, &row, &err), KPCA_EUSAGE);
    p.costs = costs;
    p.folds = 1;
    assert_int_equal(kpca_eval(g_xtr, g_ytr, NTRAIN, g_xte, g_yte, NTEST, K, pre, 1, &p, &row, &err), KPCA_EUSAGE);
}

/* kpca_eval_memory_need against its formulas (eval.h), and kpca_eval
 * under a budget: the estimate with one worker fits exactly, a byte less
 * is refused before anything is trained, and the table does not change. */
static void test_memory_budget(void **state)
{
    (void)state;
    features();
    size_t count[10] = {0}, top1 = 0, top2 = 0;
    for (size_t i = 0; i < NTRAIN; i++)
        count[g_ytr[i]]++;
    for (size_t c = 0; c < 10; c++) {
        if (count[c] > top1) {
            top2 = top1;
            top1 = count[c];
        } else if (count[c] > top2) {
            top2 = count[c];
        }
    }
    const double n = NTRAIN, t = NTEST, d = K, s = (double)(top1 + top2);
    const size_t pre[2] = {8, 20};
    const double k = 20.0, cache = fmin(200.0 * 1048576.0, 4.0 * s * s);
    kpca_eval_params p = kpca_eval_defaults();
    kpca_eval_memory m;
    kpca_error err;
    assert_int_equal(kpca_eval_memory_need(&p, g_ytr, NTRAIN, NTEST, K, pre, 2, 0, &m, &err), KPCA_OK);
    assert_true(m.largest == top1 + top2);
    assert_true(m.fixed == 48.0 * n + 8.0 * ((double)kpca_gram_striped_len(NTRAIN) + n * d));
    assert_true(m.worker == 16.0 * s * (s + 2.0) + cache);
    assert_non_null(strstr(m.what, "the 500 x 500 training Gram matrix"));
    p.svm.scheme = KPCA_MC_OVR;
    assert_int_equal(kpca_eval_memory_need(&p, g_ytr, NTRAIN, NTEST, K, pre, 2, 0, &m, &err), KPCA_OK);
    assert_true(m.fixed == 48.0 * n + 8.0 * ((double)kpca_gram_striped_len(NTRAIN) + n * d) + 16.0 * n * (n + 2.0));
    assert_true(m.worker == fmin(200.0 * 1048576.0, 4.0 * n * n));
    p.svm.backend = KPCA_SVM_LIBLINEAR;
    p.scale = KPCA_SCALE_STD;
    assert_int_equal(kpca_eval_memory_need(&p, g_ytr, NTRAIN, NTEST, K, pre, 2, 1, &m, &err), KPCA_OK);
    assert_true(m.fixed == 48.0 * n + 8.0 * (n + t) * d + 4.0 * 2.0 * t + 16.0 * n * (k + 2.0));
    assert_true(m.worker == 0.0);
    p.classifier = KPCA_CLF_LDA;
    assert_int_equal(kpca_eval_memory_need(&p, g_ytr, NTRAIN, NTEST, K, pre, 2, 0, &m, &err), KPCA_OK);
    assert_true(m.fixed == 48.0 * n + 8.0 * (n + t) * d + 8.0 * k * (2.0 * k + n));

    /* the default evaluation under budgets around its estimate */
    p = kpca_eval_defaults();
    p.svm.threads = 2; /* the budget holds one worker: the table is the same */
    kpca_eval_row free_rows[2], rows[2], spare[2];
    eval(pre, 2, &p, free_rows);
    assert_int_equal(kpca_eval_memory_need(&p, g_ytr, NTRAIN, NTEST, K, pre, 2, 0, &m, &err), KPCA_OK);
    kpca_mem_set_budget((size_t)(m.fixed + m.worker));
    kpca_status fits = kpca_eval(g_xtr, g_ytr, NTRAIN, g_xte, g_yte, NTEST, K, pre, 2, &p, rows, &err);
    kpca_mem_set_budget((size_t)(m.fixed + m.worker) - 1);
    kpca_error over;
    kpca_status refused = kpca_eval(g_xtr, g_ytr, NTRAIN, g_xte, g_yte, NTEST, K, pre, 2, &p, spare, &over);
    kpca_mem_set_budget(0);
    if (fits != KPCA_OK)
        fail_msg("the estimate as the budget: %s", err.msg);
    assert_int_equal(rows[0].errors, free_rows[0].errors);
    assert_int_equal(rows[0].nsv, free_rows[0].nsv);
    assert_int_equal(rows[1].errors, free_rows[1].errors);
    assert_int_equal(refused, KPCA_ENOMEM);
    assert_non_null(strstr(over.msg, "eval with the gram backend needs about"));
    assert_non_null(strstr(over.msg, "more than the memory budget"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_error_rate),
        cmocka_unit_test(test_backends_agree),
        cmocka_unit_test(test_prefix_order),
        cmocka_unit_test(test_threads_identical),
        cmocka_unit_test(test_norm_scaling_is_rescaled_C),
        cmocka_unit_test(test_matches_libsvm_predict),
        cmocka_unit_test(test_cross_validation),
        cmocka_unit_test(test_memory_budget),
    };
    return cmocka_run_group_tests(tests, NULL, teardown_all);
}

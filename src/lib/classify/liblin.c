/* liblin.c - see liblin.h. */
#include "classify/liblin.h"

#include <linear.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "support/mem.h"

struct kpca_liblinear_rows {
    size_t n, dim;
    double sfac;                /* sqrt(factor): the weights apply to x * sfac */
    struct feature_node *nodes; /* n x (dim + 2) */
};

static pthread_mutex_t rand_lock = PTHREAD_MUTEX_INITIALIZER;

static void quiet_print(const char *s)
{
    (void)s;
}

void kpca_liblinear_quiet(void)
{
    set_print_string_function(quiet_print);
}

kpca_liblinear_rows *kpca_liblinear_rows_new(const double *x, size_t ld, size_t dim, const size_t *rows, size_t n,
                                             double factor)
{
    kpca_liblinear_rows *r = kpca_calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->nodes = kpca_alloc_array(n, dim + 2, sizeof(struct feature_node));
    if (r->nodes == NULL) {
        kpca_free(r);
        return NULL;
    }
    r->n = n;
    r->dim = dim;
    r->sfac = sqrt(factor);
    for (size_t i = 0; i < n; i++) {
        const double *xr = x + (rows != NULL ? rows[i] : i) * ld;
        struct feature_node *row = r->nodes + i * (dim + 2);
        for (size_t c = 0; c < dim; c++) {
            row[c].index = (int)(c + 1);
            row[c].value = r->sfac * xr[c];
        }
        row[dim].index = (int)(dim + 1); /* the bias feature */
        row[dim].value = 1.0;
        row[dim + 1].index = -1;
    }
    return r;
}

void kpca_liblinear_rows_free(kpca_liblinear_rows *r)
{
    if (r == NULL)
        return;
    kpca_free(r->nodes);
    kpca_free(r);
}

kpca_status kpca_liblinear_train_binary(const kpca_liblinear_rows *r, const size_t *pos, const double *sign,
                                        size_t ns, double C, double eps, double *w, double *b, size_t *nsv,
                                        kpca_error *err)
{
    const size_t dim = r->dim;
    struct feature_node **x = kpca_alloc_array(ns ? ns : 1, 1, sizeof *x);
    double *y = kpca_alloc_array(ns ? ns : 1, 1, sizeof *y);
    if (x == NULL || y == NULL) {
        kpca_free(x);
        kpca_free(y);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for a LIBLINEAR problem of %zu points", ns);
    }
    for (size_t j = 0; j < ns; j++) {
        x[j] = r->nodes + pos[j] * (dim + 2);
        y[j] = sign[j];
    }
    struct problem prob;
    memset(&prob, 0, sizeof prob);
    prob.l = (int)ns;
    prob.n = (int)(dim + 1);
    prob.y = y;
    prob.x = x;
    prob.bias = -1; /* the bias feature is in the rows already */
    struct parameter par;
    memset(&par, 0, sizeof par);
    par.solver_type = L2R_L1LOSS_SVC_DUAL;
    par.eps = eps;
    par.C = C;
    kpca_status st = KPCA_OK;
    const char *msg = check_parameter(&prob, &par);
    struct model *m = NULL;
    if (msg == NULL) { /* LIBLINEAR shuffles with rand(): one machine at a time, from the same seed */
        pthread_mutex_lock(&rand_lock);
        srand(KPCA_LIBLINEAR_SEED);
        m = train(&prob, &par);
        pthread_mutex_unlock(&rand_lock);
    }
    if (msg != NULL)
        st = kpca_fail(err, KPCA_EUSAGE, "liblinear: %s", msg);
    else if (m == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "liblinear could not train a machine (out of memory?)");
    if (st == KPCA_OK) {
        int labels[2] = {1, -1};
        int nc = get_nr_class(m);
        get_labels(m, labels);
        /* the decision function of label +1 (one class only: constant) */
        int li = nc == 2 && labels[1] == 1 ? 1 : 0;
        double *coef = kpca_alloc_array(dim + 1, 1, sizeof(double));
        if (coef == NULL) {
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory");
        } else if (nc < 2) {
            memset(w, 0, dim * sizeof(double));
            *b = labels[0] == 1 ? 1.0 : -1.0;
        } else {
            for (size_t c = 0; c <= dim; c++)
                coef[c] = get_decfun_coef(m, (int)(c + 1), li);
            for (size_t c = 0; c < dim; c++)
                w[c] = r->sfac * coef[c];
            *b = coef[dim];
        }
        size_t count = 0;
        for (size_t j = 0; coef != NULL && j < ns; j++) { /* margin y (w.x + b) <= 1: a support vector */
            double f = 0.0;
            for (size_t c = 0; c <= dim; c++)
                f += coef[c] * x[j][c].value;
            count += nc < 2 || sign[j] * f <= 1.0 + 1e-12;
        }
        kpca_free(coef);
        *nsv = count;
    }
    if (m != NULL)
        free_and_destroy_model(&m);
    kpca_free(x);
    kpca_free(y);
    return st;
}

/* nystrom.c - the Nyström reduction: basis, accumulator, finish, signs (see
 * nystrom.h); the fits that drive it over rows are in nystream.c. */
#include "core/nystrom.h"

#include <cblas.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "core/eig.h"
#include "support/mem.h"

kpca_status kpca_nys_basis_make(const double *kll, size_t l, double tol, kpca_nys_basis *b, kpca_error *err)
{
    memset(b, 0, sizeof *b);
    if (l == 0 || l > (size_t)INT_MAX)
        return kpca_fail(err, KPCA_EUSAGE, "a Nyström basis needs 1 to %d landmarks, got %zu", INT_MAX, l);
    if (tol < 0.0)
        tol = (double)l * DBL_EPSILON;
    double *lam = kpca_alloc_array(l, 1, sizeof(double));
    double *c = kpca_alloc_array(l, l, sizeof(double));
    double *w = kpca_alloc_array(l, l, sizeof(double));
    kpca_status st = KPCA_OK;
    if (lam == NULL || c == NULL || w == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for a %zu x %zu landmark kernel", l, l);
        goto done;
    }
    /* K_LL = U Lambda U^T; W = Lambda_r^{-1/2} U_r^T (r x l, in place) */
    memcpy(c, kll, l * l * sizeof(double));
    st = kpca_eig_top(c, l, l, KPCA_EIG_AUTO, lam, w, err);
    if (st != KPCA_OK)
        goto done;
    if (!(lam[0] > 0.0) || !isfinite(lam[0])) {
        st = kpca_fail(err, KPCA_ENUMERIC, "the landmark kernel matrix has no positive eigenvalue (largest %g)",
                       lam[0]);
        goto done;
    }
    size_t r = 0;
    while (r < l && lam[r] > tol * lam[0])
        r++;
    for (size_t j = 0; j < r; j++)
        cblas_dscal((int)l, 1.0 / sqrt(lam[j]), w + j * l, 1);
    b->w = w; /* its first r rows are W; the rest is left unused */
    w = NULL;
    b->l = l;
    b->r = r;
    b->tol = tol;
done:
    kpca_free(lam);
    kpca_free(c);
    kpca_free(w);
    return st;
}

void kpca_nys_basis_free(kpca_nys_basis *b)
{
    if (b == NULL)
        return;
    kpca_free(b->w);
    memset(b, 0, sizeof *b);
}

kpca_status kpca_nys_acc_init(kpca_nys_acc *a, size_t l, size_t r, kpca_error *err)
{
    memset(a, 0, sizeof *a);
    const size_t l1 = l ? l : 1, r1 = r ? r : 1;
    a->kbar = kpca_calloc(l1, sizeof(double));
    a->bkbar = kpca_alloc_array(l1, 1, sizeof(double));
    a->mean = kpca_calloc(r1, sizeof(double));
    a->bmean = kpca_alloc_array(r1, 1, sizeof(double));
    a->m2 = kpca_alloc_array(r1, r1, sizeof(double));
    a->bm2 = kpca_alloc_array(r1, r1, sizeof(double));
    if (a->kbar == NULL || a->bkbar == NULL || a->mean == NULL || a->bmean == NULL || a->m2 == NULL ||
        a->bm2 == NULL) {
        kpca_nys_acc_free(a);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for the %zu x %zu covariance of the Nyström features", r,
                         r);
    }
    memset(a->m2, 0, r1 * r1 * sizeof(double));
    a->l = l;
    a->r = r;
    a->lo = INFINITY;
    a->hi = -INFINITY;
    return KPCA_OK;
}

void kpca_nys_acc_free(kpca_nys_acc *a)
{
    if (a == NULL)
        return;
    kpca_free(a->kbar);
    kpca_free(a->bkbar);
    kpca_free(a->mean);
    kpca_free(a->bmean);
    kpca_free(a->m2);
    kpca_free(a->bm2);
    kpca_free(a->phi);
    memset(a, 0, sizeof *a);
}

void kpca_nys_acc_range(kpca_nys_acc *a, double lo, double hi)
{
    a->lo = fmin(a->lo, lo);
    a->hi = fmax(a->hi, hi);
}

/* The pairwise update: a side of count nb, mean kernel row kb (l), mean
 * feature mb (r) and scatter Mb (r x r, upper triangle) merged into the
 * totals n, kbar, mean, m2 (the same layout) */
static void merge_into(size_t l, size_t r, size_t *n, double *kbar, double *mean, double *m2, size_t nb,
                       const double *kb, const double *mb, const double *Mb)
{
    if (nb == 0)
        return;
    if (*n == 0) {
        for (size_t i = 0; i < r; i++)
            memcpy(m2 + i * r + i, Mb + i * r + i, (r - i) * sizeof(double));
        memcpy(kbar, kb, l * sizeof(double));
        memcpy(mean, mb, r * sizeof(double));
        *n = nb;
        return;
    }
    const double na = (double)*n, nn = na + (double)nb, fb = (double)nb / nn, cross = na * (double)nb / nn;
    for (size_t i = 0; i < r; i++) {
        double *row = m2 + i * r;
        const double *brow = Mb + i * r;
        const double di = (mb[i] - mean[i]) * cross;
        for (size_t j = i; j < r; j++)
            row[j] += brow[j] + di * (mb[j] - mean[j]);
    }
    for (size_t j = 0; j < l; j++)
        kbar[j] += (kb[j] - kbar[j]) * fb;
    for (size_t i = 0; i < r; i++)
        mean[i] += (mb[i] - mean[i]) * fb;
    *n += nb;
}

kpca_status kpca_nys_acc_add(kpca_nys_acc *a, const kpca_nys_basis *b, const double *kx, size_t rows,
                             kpca_error *err)
{
    const size_t l = a->l, r = a->r;
    if (rows == 0)
        return KPCA_OK;
    if (rows > (size_t)INT_MAX)
        return kpca_fail(err, KPCA_EUSAGE, "a block of %zu rows is beyond BLAS's int indices", rows);
    if (rows > a->cap) {
        double *p = kpca_alloc_array(rows, r ? r : 1, sizeof(double));
        if (p == NULL)
            return kpca_fail(err, KPCA_ENOMEM, "out of memory for %zu x %zu Nyström features", rows, r);
        kpca_free(a->phi);
        a->phi = p;
        a->cap = rows;
    }
    const int ri = (int)r, li = (int)l, ni = (int)rows;
    const double inv = 1.0 / (double)rows;
    memset(a->bkbar, 0, l * sizeof(double));
    for (size_t i = 0; i < rows; i++)
        cblas_daxpy(li, 1.0, kx + i * l, 1, a->bkbar, 1);
    cblas_dscal(li, inv, a->bkbar, 1);
    if (r > 0) {
        double *phi = a->phi;
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, ni, ri, li, 1.0, kx, li, b->w, li, 0.0, phi, ri);
        memset(a->bmean, 0, r * sizeof(double));
        for (size_t i = 0; i < rows; i++)
            cblas_daxpy(ri, 1.0, phi + i * r, 1, a->bmean, 1);
        cblas_dscal(ri, inv, a->bmean, 1);
        for (size_t i = 0; i < rows; i++)
            cblas_daxpy(ri, -1.0, a->bmean, 1, phi + i * r, 1);
        cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, ri, ni, 1.0, phi, ri, 0.0, a->bm2, ri);
    }
    merge_into(l, r, &a->n, a->kbar, a->mean, a->m2, rows, a->bkbar, a->bmean, a->bm2);
    return KPCA_OK;
}

void kpca_nys_acc_merge(kpca_nys_acc *into, const kpca_nys_acc *from)
{
    merge_into(into->l, into->r, &into->n, into->kbar, into->mean, into->m2, from->n, from->kbar, from->mean,
               from->m2);
    kpca_nys_acc_range(into, from->lo, from->hi);
}

#define PACK_HEAD 5 /* l, r, n, lo, hi */

size_t kpca_nys_acc_packed(size_t l, size_t r)
{
    return PACK_HEAD + l + r + r * (r + 1) / 2;
}

void kpca_nys_acc_pack(const kpca_nys_acc *a, double *buf)
{
    const size_t l = a->l, r = a->r;
    buf[0] = (double)l;
    buf[1] = (double)r;
    buf[2] = (double)a->n;
    buf[3] = a->lo;
    buf[4] = a->hi;
    double *p = buf + PACK_HEAD;
    memcpy(p, a->kbar, l * sizeof(double));
    p += l;
    memcpy(p, a->mean, r * sizeof(double));
    p += r;
    for (size_t i = 0; i < r; i++) {
        memcpy(p, a->m2 + i * r + i, (r - i) * sizeof(double));
        p += r - i;
    }
}

kpca_status kpca_nys_acc_unpack(kpca_nys_acc *a, const double *buf, kpca_error *err)
{
    const size_t l = a->l, r = a->r;
    if (buf[0] != (double)l || buf[1] != (double)r)
        return kpca_fail(err, KPCA_EFORMAT, "an accumulator of %g landmarks and %g features, expected %zu and %zu",
                         buf[0], buf[1], l, r);
    if (!(buf[2] >= 0.0 && buf[2] < 9007199254740992.0 && buf[2] == floor(buf[2])))
        return kpca_fail(err, KPCA_EFORMAT, "an accumulator's row count %g is not a whole number", buf[2]);
    a->n = (size_t)buf[2];
    a->lo = buf[3];
    a->hi = buf[4];
    const double *p = buf + PACK_HEAD;
    memcpy(a->kbar, p, l * sizeof(double));
    p += l;
    memcpy(a->mean, p, r * sizeof(double));
    p += r;
    for (size_t i = 0; i < r; i++) {
        memcpy(a->m2 + i * r + i, p, (r - i) * sizeof(double));
        p += r - i;
    }
    return KPCA_OK;
}

/* merge_into on the packed form, whose scatter rows are r - i long */
int kpca_nys_packed_merge(double *into, const double *from)
{
    if (into[0] != from[0] || into[1] != from[1])
        return 1;
    const size_t l = (size_t)into[0], r = (size_t)into[1];
    const double na = into[2], nb = from[2];
    into[3] = fmin(into[3], from[3]);
    into[4] = fmax(into[4], from[4]);
    if (nb == 0.0)
        return 0;
    const size_t off = PACK_HEAD + l + r, len = l + r + r * (r + 1) / 2;
    if (na == 0.0) {
        memcpy(into + PACK_HEAD, from + PACK_HEAD, len * sizeof(double));
        into[2] = nb;
        return 0;
    }
    const double nn = na + nb, fb = nb / nn, cross = na * nb / nn;
    double *mean = into + PACK_HEAD + l;
    const double *mb = from + PACK_HEAD + l;
    double *m2 = into + off;
    const double *Mb = from + off;
    for (size_t i = 0; i < r; i++) {
        const double di = (mb[i] - mean[i]) * cross;
        for (size_t j = i; j < r; j++)
            *m2++ += *Mb++ + di * (mb[j] - mean[j]);
    }
    double *kbar = into + PACK_HEAD;
    const double *kb = from + PACK_HEAD;
    for (size_t j = 0; j < l; j++)
        kbar[j] += (kb[j] - kbar[j]) * fb;
    for (size_t i = 0; i < r; i++)
        mean[i] += (mb[i] - mean[i]) * fb;
    into[2] = nn;
    return 0;
}

kpca_status kpca_nys_finish(const kpca_nys_acc *acc, const kpca_nys_basis *b, size_t want, double tol,
                            kpca_nys_result *res, kpca_error *err)
{
    memset(res, 0, sizeof *res);
    const size_t l = acc->l, r = acc->r;
    if (acc->n < 2 || want == 0)
        return kpca_fail(err, KPCA_EUSAGE, "Nyström kernel PCA needs 2 or more points and components (got %zu, %zu)",
                         acc->n, want);
    if (want > (size_t)INT_MAX)
        return kpca_fail(err, KPCA_EUSAGE, "%zu components are beyond BLAS's int indices", want);
    if (tol < 0.0)
        tol = (double)l * DBL_EPSILON;
    const size_t kk = want < r ? want : r;
    double *c = kpca_alloc_array(r ? r : 1, r ? r : 1, sizeof(double));
    double *s = kpca_alloc_array(kk ? kk : 1, 1, sizeof(double));
    double *v = kpca_alloc_array(kk ? kk : 1, r ? r : 1, sizeof(double));
    res->a = kpca_alloc_array(want, l, sizeof(double));
    res->evals = kpca_calloc(want, sizeof(double));
    res->kbar = kpca_alloc_array(l, 1, sizeof(double));
    kpca_status st = KPCA_OK;
    if (c == NULL || s == NULL || v == NULL || res->a == NULL || res->evals == NULL || res->kbar == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for the %zu x %zu covariance of the Nyström features", r, r);
        goto done;
    }
    double trace = 0.0, norm2 = 0.0;
    for (size_t i = 0; i < r; i++) {
        trace += acc->m2[i * r + i];
        norm2 += acc->mean[i] * acc->mean[i];
        for (size_t j = i; j < r; j++)
            c[i * r + j] = c[j * r + i] = acc->m2[i * r + j];
    }
    const double raw_trace = trace + (double)acc->n * norm2;
    size_t nk = 0;
    if (kk > 0) {
        st = kpca_eig_top(c, r, kk, KPCA_EIG_AUTO, s, v, err);
        if (st != KPCA_OK)
            goto done;
        const double floor_s = tol * fmax(s[0], raw_trace);
        if (isfinite(s[0]))
            while (nk < kk && s[nk] > floor_s)
                nk++;
    }
    if (nk == 0) {
        st = kpca_fail(err, KPCA_ENUMERIC, "the centred Nyström features are zero: all points coincide in feature "
                       "space");
        goto done;
    }
    /* A = V W (nk x l); the rest zero */
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)nk, (int)l, (int)r, 1.0, v, (int)r, b->w, (int)l,
                0.0, res->a, (int)l);
    memset(res->a + nk * l, 0, (want - nk) * l * sizeof(double));
    memcpy(res->evals, s, nk * sizeof(double));
    memcpy(res->kbar, acc->kbar, l * sizeof(double));
    res->l = l;
    res->r = r;
    res->want = want;
    res->kept = nk;
    res->trace = trace;
    res->raw_trace = raw_trace;
done:
    kpca_free(c);
    kpca_free(s);
    kpca_free(v);
    if (st != KPCA_OK)
        kpca_nys_result_free(res);
    return st;
}

void kpca_nys_result_free(kpca_nys_result *res)
{
    if (res == NULL)
        return;
    kpca_free(res->a);
    kpca_free(res->evals);
    kpca_free(res->kbar);
    memset(res, 0, sizeof *res);
}

void kpca_nys_project(const kpca_nys_result *res, double *kx, size_t rows, double *z, size_t ldz)
{
    if (rows == 0 || res->kept == 0)
        return;
    kpca_nystrom_centre_rows(kx, rows, res->l, res->kbar);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)rows, (int)res->kept, (int)res->l, 1.0, kx,
                (int)res->l, res->a, (int)res->l, 0.0, z, (int)ldz);
}

kpca_status kpca_nys_signs_init(kpca_nys_signs *s, size_t k, kpca_error *err)
{
    memset(s, 0, sizeof *s);
    double *p = kpca_alloc_array(k ? k : 1, 3, sizeof(double));
    if (p == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory");
    s->k = k;
    s->best = p;
    s->neg = p + k;
    s->row = p + 2 * k;
    for (size_t c = 0; c < k; c++) {
        s->best[c] = -1.0;
        s->neg[c] = 0.0;
        s->row[c] = 0.0;
    }
    return KPCA_OK;
}

void kpca_nys_signs_free(kpca_nys_signs *s)
{
    if (s == NULL)
        return;
    kpca_free(s->best);
    memset(s, 0, sizeof *s);
}

void kpca_nys_signs_add(kpca_nys_signs *s, const double *z, size_t rows, size_t ldz, size_t row0)
{
    for (size_t i = 0; i < rows; i++) {
        const double *zi = z + i * ldz;
        for (size_t c = 0; c < s->k; c++) {
            const double a = fabs(zi[c]);
            if (a > s->best[c]) { /* strictly: the first of equals stays */
                s->best[c] = a;
                s->neg[c] = zi[c] < 0.0 ? 1.0 : 0.0;
                s->row[c] = (double)(row0 + i);
            }
        }
    }
}

size_t kpca_nys_signs_packed(size_t k)
{
    return 3 * k;
}

void kpca_nys_signs_packed_merge(double *into, const double *from, size_t k)
{
    for (size_t c = 0; c < k; c++) {
        const double b = from[c], a = into[c];
        if (b > a || (b == a && b >= 0.0 && from[2 * k + c] < into[2 * k + c])) {
            into[c] = b;
            into[k + c] = from[k + c];
            into[2 * k + c] = from[2 * k + c];
        }
    }
}

size_t kpca_nys_signs_apply(const kpca_nys_signs *s, kpca_nys_result *res)
{
    size_t flipped = 0;
    for (size_t c = 0; c < s->k && c < res->kept; c++)
        if (s->neg[c] != 0.0) {
            cblas_dscal((int)res->l, -1.0, res->a + c * res->l, 1);
            flipped++;
        }
    return flipped;
}

size_t kpca_nys_block_rows(size_t l, size_t r, size_t dim)
{
    const double per_row = 8.0 * ((double)l + (double)r + (double)dim + 1.0);
    double rows = (double)KPCA_NYS_BLOCK_BYTES / per_row;
    if (rows < 256.0)
        rows = 256.0;
    if (rows > 8192.0)
        rows = 8192.0;
    return (size_t)rows;
}

kpca_status kpca_nystrom_pca(const double *kll, const double *knl, size_t n, size_t l, size_t k, double tol,
                             double *proj, double *kbar, double *evals, double *zfit, size_t *kept,
                             double *trace, kpca_error *err)
{
    if (n < 2 || l == 0 || k == 0)
        return kpca_fail(err, KPCA_EUSAGE, "Nyström kernel PCA needs 2 or more points, landmarks and components "
                         "(got %zu, %zu, %zu)", n, l, k);
    if (n > (size_t)INT_MAX || l > (size_t)INT_MAX || k > (size_t)INT_MAX)
        return kpca_fail(err, KPCA_EUSAGE, "%zu points and %zu landmarks are beyond BLAS's int indices", n, l);
    *kept = 0;
    kpca_nys_basis b;
    kpca_nys_acc acc;
    kpca_nys_result res;
    kpca_nys_signs sg;
    memset(&acc, 0, sizeof acc);
    memset(&res, 0, sizeof res);
    memset(&sg, 0, sizeof sg);
    double *kx = NULL, *z = NULL;
    kpca_status st = kpca_nys_basis_make(kll, l, tol, &b, err);
    if (st == KPCA_OK)
        st = kpca_nys_acc_init(&acc, l, b.r, err);
    const size_t block = kpca_nys_block_rows(l, b.r, 0);
    for (size_t i = 0; st == KPCA_OK && i < n; i += block)
        st = kpca_nys_acc_add(&acc, &b, knl + i * l, n - i < block ? n - i : block, err);
    if (st == KPCA_OK)
        st = kpca_nys_finish(&acc, &b, k, tol, &res, err);
    kpca_nys_acc_free(&acc);
    if (st == KPCA_OK)
        st = kpca_nys_signs_init(&sg, res.kept, err);
    if (st == KPCA_OK) {
        kx = kpca_alloc_array(block, l, sizeof(double));
        z = zfit != NULL ? NULL : kpca_alloc_array(block, k, sizeof(double));
        if (kx == NULL || (zfit == NULL && z == NULL))
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory for %zu x %zu kernel rows", block, l);
    }
    /* the fit points' projections, for the signs (and zfit) */
    for (size_t i = 0; st == KPCA_OK && i < n; i += block) {
        const size_t nb = n - i < block ? n - i : block;
        double *zb = zfit != NULL ? zfit + i * k : z;
        memcpy(kx, knl + i * l, nb * l * sizeof(double));
        kpca_nys_project(&res, kx, nb, zb, k);
        kpca_nys_signs_add(&sg, zb, nb, k, i);
    }
    if (st == KPCA_OK) {
        kpca_nys_signs_apply(&sg, &res);
        for (size_t i = 0; zfit != NULL && i < n; i++)
            for (size_t c = 0; c < k; c++)
                zfit[i * k + c] = c >= res.kept ? 0.0 : sg.neg[c] != 0.0 ? -zfit[i * k + c] : zfit[i * k + c];
        memcpy(proj, res.a, k * l * sizeof(double));
        memcpy(kbar, res.kbar, l * sizeof(double));
        memcpy(evals, res.evals, k * sizeof(double));
        *kept = res.kept;
        if (trace != NULL)
            *trace = res.trace;
    }
    kpca_free(kx);
    kpca_free(z);
    kpca_nys_signs_free(&sg);
    kpca_nys_result_free(&res);
    kpca_nys_basis_free(&b);
    return st;
}

void kpca_nystrom_centre_rows(double *kt, size_t n, size_t l, const double *kbar)
{
    for (size_t r = 0; r < n; r++)
        cblas_daxpy((int)l, -1.0, kbar, 1, kt + r * l, 1);
}

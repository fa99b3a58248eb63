/* gram.c - see gram.h. */
#include "core/gram.h"

#include <cblas.h>

/* Row stripe i0 (ni rows) of beta C + A A': its diagonal tile and
 * everything right of it, one DGEMM into cs (the stripe's entry (i0, i0),
 * leading dimension ldcs), then the diagonal tile's lower half from its
 * upper half, so that the tile is exactly symmetric. */
static void stripe(size_t n, size_t k, const double *a, size_t lda, double beta, size_t i0, size_t ni, double *cs,
                   size_t ldcs)
{
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)ni, (int)(n - i0), (int)k, 1.0, a + i0 * lda, (int)lda,
                a + i0 * lda, (int)lda, beta, cs, (int)ldcs);
    for (size_t i = 1; i < ni; i++)
        for (size_t j = 0; j < i; j++)
            cs[i * ldcs + j] = cs[j * ldcs + i];
}

void kpca_gram_upper(size_t n, size_t k, const double *a, size_t lda, double beta, double *c, size_t ldc)
{
    const size_t T = KPCA_GRAM_TILE;
    for (size_t i0 = 0; i0 < n; i0 += T)
        stripe(n, k, a, lda, beta, i0, n - i0 < T ? n - i0 : T, c + i0 * ldc + i0, ldc);
}

size_t kpca_gram_striped_len(size_t n)
{
    const size_t T = KPCA_GRAM_TILE;
    size_t len = 0;
    for (size_t i0 = 0; i0 < n; i0 += T)
        len += (n - i0 < T ? n - i0 : T) * (n - i0);
    return len;
}

void kpca_gram_striped_offsets(size_t n, size_t *off)
{
    const size_t T = KPCA_GRAM_TILE;
    size_t base = 0;
    for (size_t i0 = 0; i0 < n; i0 += T) {
        size_t ni = n - i0 < T ? n - i0 : T;
        for (size_t i = 0; i < ni; i++)
            off[i0 + i] = base + i * (n - i0) - i0; /* unsigned: wraps, and j >= i0 wraps back */
        base += ni * (n - i0);
    }
}

void kpca_gram_striped(size_t n, size_t k, const double *a, size_t lda, double beta, double *data)
{
    const size_t T = KPCA_GRAM_TILE;
    size_t base = 0;
    for (size_t i0 = 0; i0 < n; i0 += T) {
        size_t ni = n - i0 < T ? n - i0 : T;
        stripe(n, k, a, lda, beta, i0, ni, data + base, n - i0);
        base += ni * (n - i0);
    }
}

/* stripe() in binary32 */
static void stripe_single(size_t n, size_t k, const float *a, size_t lda, float beta, size_t i0, size_t ni, float *cs,
                          size_t ldcs)
{
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)ni, (int)(n - i0), (int)k, 1.0f, a + i0 * lda, (int)lda,
                a + i0 * lda, (int)lda, beta, cs, (int)ldcs);
    for (size_t i = 1; i < ni; i++)
        for (size_t j = 0; j < i; j++)
            cs[i * ldcs + j] = cs[j * ldcs + i];
}

void kpca_gram_striped_single(size_t n, size_t k, const float *a, size_t lda, float beta, float *data)
{
    const size_t T = KPCA_GRAM_TILE;
    size_t base = 0;
    for (size_t i0 = 0; i0 < n; i0 += T) {
        size_t ni = n - i0 < T ? n - i0 : T;
        stripe_single(n, k, a, lda, beta, i0, ni, data + base, n - i0);
        base += ni * (n - i0);
    }
}

void kpca_gram_mirror(double *c, size_t n, size_t ldc)
{
    enum { B = 64 };
    for (size_t i0 = 0; i0 < n; i0 += B)
        for (size_t j0 = 0; j0 <= i0; j0 += B) /* tile rows i0.., columns j0.. of the lower part */
            for (size_t i = i0; i < i0 + B && i < n; i++)
                for (size_t j = j0; j < j0 + B && j < i; j++)
                    c[i * ldc + j] = c[j * ldc + i];
}

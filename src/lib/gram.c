/* gram.c - see gram.h. */
#include "gram.h"

#include <cblas.h>

void kpca_gram_upper(size_t n, size_t k, const double *a, size_t lda, double beta, double *c, size_t ldc)
{
    const size_t T = KPCA_GRAM_TILE;
    if (n == 0)
        return;
    for (size_t i0 = 0; i0 < n; i0 += T) {
        size_t ni = n - i0 < T ? n - i0 : T;
        /* row stripe i0: its diagonal tile and everything right of it, one call */
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)ni, (int)(n - i0), (int)k, 1.0, a + i0 * lda,
                    (int)lda, a + i0 * lda, (int)lda, beta, c + i0 * ldc + i0, (int)ldc);
        /* the diagonal tile's lower half from its upper half: exactly symmetric */
        for (size_t i = 1; i < ni; i++)
            for (size_t j = 0; j < i; j++)
                c[(i0 + i) * ldc + i0 + j] = c[(i0 + j) * ldc + i0 + i];
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

/* fake_cuda.c - stand-ins for libcuda.so.1, libcublas.so.N and
 * libcusolver.so.N, built with the real sonames (Makefile, GPU_FAKE) to test
 * kpca's loader and glue (src/lib/gpu/) on a machine without a GPU: "device
 * memory" is malloc, copies are memcpy, cuSOLVER's eigensolvers are
 * LAPACKE's (dsyevd/dsyevr for CUDA_R_64F, ssyevd/ssyevr for CUDA_R_32F:
 * the data and compute types must agree).  They test the glue only, never that a GPU computes right.
 * FAKE_PART_libcuda, _libcublas or _libcusolver picks the library;
 * FAKE_OMIT_SYEVDX leaves cusolverDnXsyevdx out (a missing symbol).
 *
 * Switches, read at each call (the tests set them with setenv):
 *   FAKE_CUDA_INIT=R      cuInit returns R (34: the stub's, 100: no device)
 *   FAKE_CUDA_FAIL_ALLOC=N the Nth cuMemAlloc since fake_cuda_reset() fails
 *                         with CUDA_ERROR_OUT_OF_MEMORY
 *   FAKE_CUDA_FREE=B      cuMemGetInfo says B bytes free
 *   FAKE_CUSOLVER_INFO=I  the eigensolvers write I into info
 *   FAKE_CUSOLVER_STATUS=S the eigensolvers return S */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <lapacke.h>

#pragma GCC diagnostic ignored "-Wmissing-prototypes"

static __attribute__((unused)) long env_long(const char *name, long dflt)
{
    const char *s = getenv(name);
    return s != NULL && s[0] != '\0' ? strtol(s, NULL, 10) : dflt;
}

#ifdef FAKE_PART_libcuda
static long allocs, live, ctx_refs;
static char ctx_dummy;

void fake_cuda_reset(void) { allocs = 0; }
long fake_cuda_live(void) { return live; }
int cuInit(unsigned int flags) { (void)flags; return (int)env_long("FAKE_CUDA_INIT", 0); }
int cuDriverGetVersion(int *v) { *v = 13000; return 0; }
int cuDeviceGetCount(int *n) { *n = (int)env_long("FAKE_CUDA_DEVICES", 1); return 0; }
int cuDeviceGet(int *d, int ordinal) { *d = ordinal; return 0; }
int cuDeviceGetName(char *name, int len, int dev) { (void)dev; strncpy(name, "kpca stand-in GPU", (size_t)len); return 0; }
int cuDeviceTotalMem_v2(size_t *b, int dev) { (void)dev; *b = (size_t)1 << 34; return 0; }
static long ctx_retains; /* calls, for fake_cuda_retains */
long fake_cuda_retains(void) { return ctx_retains; }
long fake_cuda_ctx_refs(void) { return ctx_refs; }
int cuDevicePrimaryCtxRetain(void **ctx, int dev) { (void)dev; *ctx = &ctx_dummy; ctx_refs++; ctx_retains++; return 0; }
int cuDevicePrimaryCtxRelease_v2(int dev) { (void)dev; ctx_refs--; return 0; }
int cuCtxSetCurrent(void *ctx) { return ctx == &ctx_dummy ? 0 : 201; }
int cuMemGetInfo_v2(size_t *f, size_t *t)
{
    *f = (size_t)env_long("FAKE_CUDA_FREE", 1L << 33);
    *t = (size_t)1 << 34;
    return 0;
}
int cuMemAlloc_v2(unsigned long long *p, size_t bytes)
{
    if (++allocs == env_long("FAKE_CUDA_FAIL_ALLOC", 0))
        return 2;
    if (bytes == 0)
        return 1;
    void *m = malloc(bytes);
    if (m == NULL)
        return 2;
    live++;
    *p = (unsigned long long)(uintptr_t)m;
    return 0;
}
int cuMemFree_v2(unsigned long long p) { free((void *)(uintptr_t)p); live--; return 0; }
int cuMemcpyHtoDAsync_v2(unsigned long long d, const void *s, size_t n, void *st)
{
    (void)st;
    memcpy((void *)(uintptr_t)d, s, n);
    return 0;
}
int cuMemcpyDtoHAsync_v2(void *d, unsigned long long s, size_t n, void *st)
{
    (void)st;
    memcpy(d, (const void *)(uintptr_t)s, n);
    return 0;
}
int cuStreamCreate(void **s, unsigned int flags) { (void)flags; *s = malloc(1); live++; return 0; }
int cuStreamDestroy_v2(void *s) { free(s); live--; return 0; }
int cuStreamSynchronize(void *s) { return s != NULL ? 0 : 400; }
int cuGetErrorString(int e, const char **s)
{
    *s = e == 2 ? "out of memory (stand-in)" : "stand-in error";
    return 0;
}
#endif

#ifdef FAKE_PART_libcublas
static char handle;
int cublasCreate_v2(void **h) { *h = &handle; return 0; }
int cublasDestroy_v2(void *h) { (void)h; return 0; }
int cublasSetStream_v2(void *h, void *s) { (void)h; (void)s; return 0; }
int cublasGetVersion_v2(void *h, int *v) { (void)h; *v = 130000; return 0; }
int cublasSetMathMode(void *h, unsigned int m) { (void)h; (void)m; return 0; }
#endif

#ifdef FAKE_PART_libcusolver
static long live;
long fake_cusolver_live(void) { return live; }
int cusolverDnCreate(void **h) { *h = malloc(1); live++; return 0; }
int cusolverDnDestroy(void *h) { free(h); live--; return 0; }
int cusolverDnSetStream(void *h, void *s) { return h != NULL && s != NULL ? 0 : 7; }
int cusolverDnCreateParams(void **p) { *p = malloc(1); live++; return 0; }
int cusolverDnDestroyParams(void *p) { free(p); live--; return 0; }
int cusolverGetProperty(unsigned int t, int *v) { *v = t == 0 ? 12 : 0; return 0; }

/* the data types: 1 CUDA_R_64F, 0 CUDA_R_32F, all three the same */
static int types_ok(unsigned int ta, unsigned int tw, unsigned int tc) { return (ta == 0 || ta == 1) && tw == ta && tc == ta; }

/* workspaces of a recognisable size, checked when the solver is called */
static size_t dev_bytes(int64_t n) { return (size_t)n * 8 + 256; }
#define HOST_BYTES 64

int cusolverDnXsyevd_bufferSize(void *h, void *p, unsigned int jobz, unsigned int uplo, int64_t n, unsigned int ta,
                                const void *a, int64_t lda, unsigned int tw, const void *w, unsigned int tc,
                                size_t *db, size_t *hb)
{
    (void)h; (void)p; (void)a; (void)w; (void)lda;
    if (jobz != 1 || uplo != 0 || !types_ok(ta, tw, tc))
        return 3;
    *db = dev_bytes(n);
    *hb = HOST_BYTES;
    return 0;
}

static int check_call(void *h, void *p, int64_t n, int64_t lda, void *dw, size_t db, void *hw, size_t hb)
{
    if (h == NULL || p == NULL || lda != n || dw == NULL || db != dev_bytes(n) || hw == NULL || hb != HOST_BYTES)
        return 3;
    memset(dw, 0xA5, db); /* the workspace is the size it was said to be */
    memset(hw, 0xA5, hb);
    return (int)env_long("FAKE_CUSOLVER_STATUS", 0);
}

int cusolverDnXsyevd(void *h, void *p, unsigned int jobz, unsigned int uplo, int64_t n, unsigned int ta, void *a,
                     int64_t lda, unsigned int tw, void *w, unsigned int tc, void *dw, size_t db, void *hw, size_t hb,
                     int *info)
{
    int st = check_call(h, p, n, lda, dw, db, hw, hb);
    if (st != 0 || jobz != 1 || uplo != 0 || !types_ok(ta, tw, tc))
        return st != 0 ? st : 3;
    int r = ta == 1 ? LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'L', (lapack_int)n, a, (lapack_int)lda, w)
                    : LAPACKE_ssyevd(LAPACK_COL_MAJOR, 'V', 'L', (lapack_int)n, a, (lapack_int)lda, w);
    *info = (int)env_long("FAKE_CUSOLVER_INFO", r);
    return 0;
}

#ifndef FAKE_OMIT_SYEVDX
int cusolverDnXsyevdx_bufferSize(void *h, void *p, unsigned int jobz, unsigned int range, unsigned int uplo,
                                 int64_t n, unsigned int ta, const void *a, int64_t lda, void *vl, void *vu,
                                 int64_t il, int64_t iu, int64_t *meig, unsigned int tw, const void *w,
                                 unsigned int tc, size_t *db, size_t *hb)
{
    (void)h; (void)p; (void)a; (void)w; (void)lda; (void)vl; (void)vu;
    if (jobz != 1 || range != 1002 || uplo != 0 || !types_ok(ta, tw, tc) || il < 1 || iu > n || il > iu)
        return 3;
    *meig = iu - il + 1;
    *db = dev_bytes(n);
    *hb = HOST_BYTES;
    return 0;
}

int cusolverDnXsyevdx(void *h, void *p, unsigned int jobz, unsigned int range, unsigned int uplo, int64_t n,
                      unsigned int ta, void *a, int64_t lda, void *vl, void *vu, int64_t il, int64_t iu, int64_t *meig,
                      unsigned int tw, void *w, unsigned int tc, void *dw, size_t db, void *hw, size_t hb, int *info)
{
    int st = check_call(h, p, n, lda, dw, db, hw, hb);
    if (st != 0 || jobz != 1 || range != 1002 || uplo != 0 || !types_ok(ta, tw, tc) || il < 1 || iu > n)
        return st != 0 ? st : 3;
    const size_t es = ta == 1 ? sizeof(double) : sizeof(float);
    void *z = malloc((size_t)n * (size_t)(iu - il + 1) * es);
    lapack_int *isuppz = malloc(2 * (size_t)n * sizeof *isuppz), m = 0;
    if (z == NULL || isuppz == NULL) {
        free(z);
        free(isuppz);
        return 2;
    }
    int r = ta == 1 ? LAPACKE_dsyevr(LAPACK_COL_MAJOR, 'V', 'I', 'L', (lapack_int)n, a, (lapack_int)lda, *(double *)vl,
                                     *(double *)vu, (lapack_int)il, (lapack_int)iu, 0.0, &m, w, z, (lapack_int)n, isuppz)
                    : LAPACKE_ssyevr(LAPACK_COL_MAJOR, 'V', 'I', 'L', (lapack_int)n, a, (lapack_int)lda, *(float *)vl,
                                     *(float *)vu, (lapack_int)il, (lapack_int)iu, 0.0f, &m, w, z, (lapack_int)n, isuppz);
    memcpy(a, z, (size_t)n * (size_t)m * es);
    free(z);
    free(isuppz);
    *meig = m;
    *info = (int)env_long("FAKE_CUSOLVER_INFO", r);
    return 0;
}
#endif
#endif

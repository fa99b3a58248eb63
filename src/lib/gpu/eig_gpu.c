/* eig_gpu.c - the top eigenpairs with cuSOLVER's 64-bit API (eig_gpu.h). */
#include <stdint.h>
#include <string.h>

#include "gpu/eig_gpu.h"
#include "support/mem.h"

/* one eigensolve's stream and cuSOLVER handle, in cu's context */
typedef struct {
    kpca_cuda *cu;
    struct CUstream_st *stream;
    struct cusolverDnContext *solver;
    struct cusolverDnParams *params;
} session;

static kpca_status drv_fail(const session *s, kpca_cu_result r, const char *call, kpca_error *err)
{
    char eb[160];
    return kpca_fail(err, r == KPCA_CUDA_ERROR_OUT_OF_MEMORY ? KPCA_ENOMEM : KPCA_EIO, "CUDA: %s failed: %s", call,
                     kpca_cuda_error_string(s->cu, r, eb, sizeof eb));
}

static kpca_status sol_fail(kpca_cu_status r, const char *call, kpca_error *err)
{
    return kpca_fail(err, r == KPCA_CUSOLVER_STATUS_ALLOC_FAILED ? KPCA_ENOMEM : KPCA_EIO,
                     "cuSOLVER: %s failed (cusolverStatus %u)", call, r);
}

static void session_close(session *s)
{
    const kpca_cuda_api *api = &s->cu->api;
    if (s->params != NULL)
        api->cusolverDnDestroyParams(s->params);
    if (s->solver != NULL)
        api->cusolverDnDestroy(s->solver);
    if (s->stream != NULL)
        api->cuStreamDestroy_v2(s->stream);
    memset(s, 0, sizeof *s); /* the context stays cu's (kpca_cuda_close releases it) */
}

static kpca_status session_open(kpca_cuda *cu, session *s, kpca_error *err)
{
    memset(s, 0, sizeof *s);
    s->cu = cu;
    const kpca_cuda_api *api = &cu->api;
    kpca_cu_result r;
    kpca_cu_status q;
    kpca_status st = KPCA_OK;
    if (!cu->ctx_held && (r = api->cuDeviceGet(&cu->ctx_dev, 0)) != KPCA_CUDA_SUCCESS)
        st = drv_fail(s, r, "cuDeviceGet", err);
    else if (!cu->ctx_held && (r = api->cuDevicePrimaryCtxRetain(&cu->ctx, cu->ctx_dev)) != KPCA_CUDA_SUCCESS)
        st = drv_fail(s, r, "cuDevicePrimaryCtxRetain", err);
    else if ((cu->ctx_held = 1, r = api->cuCtxSetCurrent(cu->ctx)) != KPCA_CUDA_SUCCESS)
        st = drv_fail(s, r, "cuCtxSetCurrent", err);
    else if ((r = api->cuStreamCreate(&s->stream, KPCA_CU_STREAM_NON_BLOCKING)) != KPCA_CUDA_SUCCESS)
        st = drv_fail(s, r, "cuStreamCreate", err);
    else if ((q = api->cusolverDnCreate(&s->solver)) != KPCA_CUSOLVER_STATUS_SUCCESS)
        st = sol_fail(q, "cusolverDnCreate", err);
    else if ((q = api->cusolverDnSetStream(s->solver, s->stream)) != KPCA_CUSOLVER_STATUS_SUCCESS)
        st = sol_fail(q, "cusolverDnSetStream", err);
    else if ((q = api->cusolverDnCreateParams(&s->params)) != KPCA_CUSOLVER_STATUS_SUCCESS)
        st = sol_fail(q, "cusolverDnCreateParams", err);
    if (st != KPCA_OK)
        session_close(s);
    return st;
}

/* the element of the matrix on the GPU: cudaDataType and bytes */
typedef struct {
    unsigned int type;
    size_t size;
} elem_kind;

static elem_kind elem_of(kpca_precision prec)
{
    elem_kind e = {KPCA_CUDA_R_64F, sizeof(double)};
    if (prec == KPCA_PRECISION_SINGLE)
        e = (elem_kind){KPCA_CUDA_R_32F, sizeof(float)};
    return e;
}

/* syevdx's vl and vu, of the data type (unused with range I) */
typedef union {
    double d;
    float f;
} bound;

/* syevdx (range I) for few pairs, syevd for many */
static int use_evdx(size_t n, size_t k)
{
    return k < n && (double)k <= KPCA_GPU_EVDX_MAX_FRACTION * (double)n;
}

/* cuSOLVER's workspaces for the problem (a, w: the device arrays, or 0) */
static kpca_status workspace(const session *s, size_t n, size_t k, elem_kind e, kpca_cu_deviceptr a,
                             kpca_cu_deviceptr w, size_t *dbytes, size_t *hbytes, kpca_error *err)
{
    const kpca_cuda_api *api = &s->cu->api;
    const int64_t nn = (int64_t)n;
    bound vl, vu;
    memset(&vl, 0, sizeof vl);
    memset(&vu, 0, sizeof vu);
    int64_t meig = 0;
    kpca_cu_status q;
    *dbytes = *hbytes = 0;
    if (use_evdx(n, k))
        q = api->cusolverDnXsyevdx_bufferSize(s->solver, s->params, KPCA_CUSOLVER_EIG_MODE_VECTOR,
                                              KPCA_CUSOLVER_EIG_RANGE_I, KPCA_CUBLAS_FILL_MODE_LOWER, nn,
                                              e.type, (const void *)(uintptr_t)a, nn, &vl, &vu, nn - (int64_t)k + 1,
                                              nn, &meig, e.type, (const void *)(uintptr_t)w, e.type, dbytes, hbytes);
    else
        q = api->cusolverDnXsyevd_bufferSize(s->solver, s->params, KPCA_CUSOLVER_EIG_MODE_VECTOR,
                                             KPCA_CUBLAS_FILL_MODE_LOWER, nn, e.type, (const void *)(uintptr_t)a, nn,
                                             e.type, (const void *)(uintptr_t)w, e.type, dbytes, hbytes);
    return q == KPCA_CUSOLVER_STATUS_SUCCESS ? KPCA_OK
                                             : sol_fail(q, use_evdx(n, k) ? "cusolverDnXsyevdx_bufferSize"
                                                                          : "cusolverDnXsyevd_bufferSize", err);
}

/* the device bytes besides the workspace: matrix, eigenvalues, info */
static double base_bytes(size_t n, elem_kind e)
{
    return (double)e.size * ((double)n * (double)n + (double)n) + (double)sizeof(int);
}

static kpca_status too_little(const session *s, const char *what, double bytes, double need, kpca_error *err)
{
    size_t freeb = 0, total = 0;
    if (s->cu->api.cuMemGetInfo_v2(&freeb, &total) != KPCA_CUDA_SUCCESS)
        freeb = 0;
    char b1[32], b2[32], b3[32];
    return kpca_fail_limit(err, "out of GPU memory for %s (%s): the eigensolve needs %s on the GPU, which has "
                           "%s free: fit on fewer points (--subset) or use --device cpu", what,
                           kpca_mem_human(bytes, b1, sizeof b1), kpca_mem_human(need, b2, sizeof b2),
                           kpca_mem_human((double)freeb, b3, sizeof b3));
}

kpca_status kpca_gpu_eig_check(kpca_cuda *cu, size_t n, size_t k, kpca_precision prec, size_t *need,
                               size_t *free_bytes, kpca_error *err)
{
    session s;
    kpca_status st = session_open(cu, &s, err);
    if (st != KPCA_OK)
        return st;
    size_t dbytes = 0, hbytes = 0, freeb = 0, total = 0;
    kpca_cu_result r;
    const elem_kind e = elem_of(prec);
    st = workspace(&s, n, k, e, 0, 0, &dbytes, &hbytes, err);
    if (st == KPCA_OK && (r = cu->api.cuMemGetInfo_v2(&freeb, &total)) != KPCA_CUDA_SUCCESS)
        st = drv_fail(&s, r, "cuMemGetInfo", err);
    const double want = base_bytes(n, e) + (double)dbytes;
    if (need != NULL)
        *need = (size_t)want;
    if (free_bytes != NULL)
        *free_bytes = freeb;
    if (st == KPCA_OK && want > (double)freeb) {
        char b1[32], b2[32], b3[32];
        st = kpca_fail_limit(err, "the GPU's memory is too small: the eigensolve of the %zu x %zu kernel matrix "
                             "in %s precision needs %s on the GPU, which has %s free (of %s): fit on fewer points "
                             "(--subset) or use --device cpu", n, n, kpca_precision_name(prec),
                             kpca_mem_human(want, b1, sizeof b1), kpca_mem_human((double)freeb, b2, sizeof b2),
                             kpca_mem_human((double)total, b3, sizeof b3));
    }
    session_close(&s);
    return st;
}

/* device arrays of one eigensolve */
typedef struct {
    kpca_cu_deviceptr a, w, info, work;
} device_arrays;

static kpca_status dev_alloc(const session *s, kpca_cu_deviceptr *p, double bytes, const char *what, double need,
                             kpca_error *err)
{
    kpca_cu_result r = s->cu->api.cuMemAlloc_v2(p, (size_t)bytes);
    if (r == KPCA_CUDA_SUCCESS)
        return KPCA_OK;
    *p = 0;
    return r == KPCA_CUDA_ERROR_OUT_OF_MEMORY ? too_little(s, what, bytes, need, err)
                                              : drv_fail(s, r, "cuMemAlloc", err);
}

/* reverses the order of the k rows of x (k x n) in place */
static void reverse_rows(double *x, size_t k, size_t n)
{
    for (size_t i = 0, j = k - 1; i < j; i++, j--)
        for (size_t c = 0; c < n; c++) {
            double t = x[i * n + c];
            x[i * n + c] = x[j * n + c];
            x[j * n + c] = t;
        }
}

/* binary32 values at the start of x widened in place to `count` doubles
 * (from the last: double i overwrites floats 2i and 2i + 1, already read) */
static void widen(double *x, size_t count)
{
    for (size_t i = count; i-- > 0;) {
        float f;
        memcpy(&f, (const unsigned char *)x + i * sizeof f, sizeof f);
        x[i] = (double)f;
    }
}

static size_t upload_block = KPCA_GPU_UPLOAD_BLOCK;

void kpca_gpu_set_upload_block(size_t bytes)
{
    upload_block = bytes != 0 ? bytes : KPCA_GPU_UPLOAD_BLOCK;
}

/* the rows of the n x n matrix rounded to binary32 at a time: upload_block's
 * bytes, at least one row */
static size_t upload_rows(size_t n)
{
    size_t rows = upload_block / (n * sizeof(float));
    return rows == 0 ? 1 : rows > n ? n : rows;
}

/* a to the device: as it is in double; in single rounded to binary32 by
 * blocks of rows in buf (upload_rows(n) x n floats), each block copied
 * before buf is filled again */
static kpca_status upload(const session *s, const double *a, size_t n, elem_kind e, float *buf, kpca_cu_deviceptr d,
                          kpca_error *err)
{
    const kpca_cuda_api *api = &s->cu->api;
    kpca_cu_result r;
    if (e.size == sizeof(double)) {
        if ((r = api->cuMemcpyHtoDAsync_v2(d, a, n * n * sizeof(double), s->stream)) != KPCA_CUDA_SUCCESS)
            return drv_fail(s, r, "cuMemcpyHtoDAsync (the matrix)", err);
        return KPCA_OK;
    }
    const size_t rows = upload_rows(n);
    for (size_t r0 = 0; r0 < n; r0 += rows) {
        const size_t count = (n - r0 < rows ? n - r0 : rows) * n;
        for (size_t i = 0; i < count; i++)
            buf[i] = (float)a[r0 * n + i];
        if ((r = api->cuMemcpyHtoDAsync_v2(d + r0 * n * sizeof(float), buf, count * sizeof(float), s->stream)) !=
            KPCA_CUDA_SUCCESS)
            return drv_fail(s, r, "cuMemcpyHtoDAsync (the matrix)", err);
        if ((r = api->cuStreamSynchronize(s->stream)) != KPCA_CUDA_SUCCESS)
            return drv_fail(s, r, "cuStreamSynchronize", err);
    }
    return KPCA_OK;
}

/* the solve itself on allocated arrays; the top k pairs copied back */
static kpca_status solve(session *s, size_t n, size_t k, elem_kind e, device_arrays *d, void *hwork, size_t dbytes,
                         size_t hbytes, double *wbuf, double *evals, double *evecs, kpca_error *err)
{
    const kpca_cuda_api *api = &s->cu->api;
    const int64_t nn = (int64_t)n;
    const int x = use_evdx(n, k);
    kpca_cu_result r;
    kpca_cu_status q;
    bound vl, vu;
    memset(&vl, 0, sizeof vl);
    memset(&vu, 0, sizeof vu);
    int64_t meig = (int64_t)n;
    if (x)
        q = api->cusolverDnXsyevdx(s->solver, s->params, KPCA_CUSOLVER_EIG_MODE_VECTOR, KPCA_CUSOLVER_EIG_RANGE_I,
                                   KPCA_CUBLAS_FILL_MODE_LOWER, nn, e.type, (void *)(uintptr_t)d->a, nn, &vl, &vu,
                                   nn - (int64_t)k + 1, nn, &meig, e.type, (void *)(uintptr_t)d->w, e.type,
                                   (void *)(uintptr_t)d->work, dbytes, hwork, hbytes, (int *)(uintptr_t)d->info);
    else
        q = api->cusolverDnXsyevd(s->solver, s->params, KPCA_CUSOLVER_EIG_MODE_VECTOR, KPCA_CUBLAS_FILL_MODE_LOWER, nn,
                                  e.type, (void *)(uintptr_t)d->a, nn, e.type, (void *)(uintptr_t)d->w, e.type,
                                  (void *)(uintptr_t)d->work, dbytes, hwork, hbytes, (int *)(uintptr_t)d->info);
    if (q != KPCA_CUSOLVER_STATUS_SUCCESS)
        return sol_fail(q, x ? "cusolverDnXsyevdx" : "cusolverDnXsyevd", err);
    int info = 0;
    if ((r = api->cuMemcpyDtoHAsync_v2(&info, d->info, sizeof info, s->stream)) != KPCA_CUDA_SUCCESS)
        return drv_fail(s, r, "cuMemcpyDtoHAsync (info)", err);
    if ((r = api->cuStreamSynchronize(s->stream)) != KPCA_CUDA_SUCCESS)
        return drv_fail(s, r, "cuStreamSynchronize", err);
    if (info != 0)
        return kpca_fail(err, info < 0 ? KPCA_EINTERNAL : KPCA_ENUMERIC, "cuSOLVER: %s failed on the %zu x %zu "
                         "matrix (info %d)", x ? "cusolverDnXsyevdx" : "cusolverDnXsyevd", n, n, info);
    if (meig < (int64_t)k)
        return kpca_fail(err, KPCA_ENUMERIC, "cuSOLVER: cusolverDnXsyevdx found %lld of the %zu eigenpairs asked for",
                         (long long)meig, k);
    /* ascending, column-major: the top k are the last k of the first meig;
     * binary32 comes back into the start of the same arrays, then widened */
    const size_t first = (size_t)meig - k;
    if ((r = api->cuMemcpyDtoHAsync_v2(evecs, d->a + first * n * e.size, k * n * e.size, s->stream)) !=
            KPCA_CUDA_SUCCESS ||
        (r = api->cuMemcpyDtoHAsync_v2(wbuf, d->w, (size_t)meig * e.size, s->stream)) != KPCA_CUDA_SUCCESS)
        return drv_fail(s, r, "cuMemcpyDtoHAsync (the eigenpairs)", err);
    if ((r = api->cuStreamSynchronize(s->stream)) != KPCA_CUDA_SUCCESS)
        return drv_fail(s, r, "cuStreamSynchronize", err);
    if (e.size == sizeof(float)) {
        widen(evecs, k * n);
        widen(wbuf, (size_t)meig);
    }
    reverse_rows(evecs, k, n);
    for (size_t i = 0; i < k; i++)
        evals[i] = wbuf[(size_t)meig - 1 - i];
    return KPCA_OK;
}

kpca_status kpca_gpu_eig_top(kpca_cuda *cu, const double *a, size_t n, size_t k, kpca_precision prec, double *evals,
                             double *evecs, kpca_error *err)
{
    if (n == 0 || k == 0 || k > n)
        return kpca_fail(err, KPCA_EINTERNAL, "kpca_gpu_eig_top: %zu pairs of a %zu x %zu matrix", k, n, n);
    session s;
    kpca_status st = session_open(cu, &s, err);
    if (st != KPCA_OK)
        return st;
    device_arrays d = {0, 0, 0, 0};
    void *hwork = NULL;
    double *wbuf = NULL;
    float *buf = NULL;
    size_t dbytes = 0, hbytes = 0;
    const elem_kind e = elem_of(prec);
    const double base = base_bytes(n, e);
    st = dev_alloc(&s, &d.a, (double)e.size * (double)n * (double)n, "the kernel matrix", base, err);
    if (st == KPCA_OK)
        st = dev_alloc(&s, &d.w, (double)e.size * (double)n, "the eigenvalues", base, err);
    if (st == KPCA_OK)
        st = dev_alloc(&s, &d.info, (double)sizeof(int), "cuSOLVER's info", base, err);
    if (st == KPCA_OK)
        st = workspace(&s, n, k, e, d.a, d.w, &dbytes, &hbytes, err);
    if (st == KPCA_OK && dbytes > 0)
        st = dev_alloc(&s, &d.work, (double)dbytes, "cuSOLVER's workspace", base + (double)dbytes, err);
    if (st == KPCA_OK && hbytes > 0 && (hwork = kpca_malloc(hbytes)) == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for cuSOLVER's host workspace (%zu bytes)", hbytes);
    if (st == KPCA_OK && (wbuf = kpca_alloc_array(n, 1, sizeof *wbuf)) == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for %zu eigenvalues", n);
    if (st == KPCA_OK && e.size == sizeof(float) && (buf = kpca_alloc_array(upload_rows(n), n, sizeof *buf)) == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for %zu rows of the matrix in binary32", upload_rows(n));
    if (st == KPCA_OK)
        st = upload(&s, a, n, e, buf, d.a, err);
    kpca_free(buf);
    if (st == KPCA_OK)
        st = solve(&s, n, k, e, &d, hwork, dbytes, hbytes, wbuf, evals, evecs, err);
    if (st != KPCA_OK && s.stream != NULL)
        cu->api.cuStreamSynchronize(s.stream); /* nothing in flight into what is freed */
    const kpca_cu_deviceptr all[4] = {d.work, d.info, d.w, d.a};
    for (size_t i = 0; i < 4; i++)
        if (all[i] != 0)
            cu->api.cuMemFree_v2(all[i]);
    kpca_free(hwork);
    kpca_free(wbuf);
    session_close(&s);
    return st;
}

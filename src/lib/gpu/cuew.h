/* cuew.h - the CUDA driver, cuBLAS and cuSOLVER, loaded at run time.
 *
 * In the style of Blender's cuew: kpca never includes NVIDIA's headers and
 * never links CUDA.  It declares here, itself, the few entry points it
 * calls (opaque handles as pointers to incomplete structs of the same tags,
 * enums as unsigned int, CUdeviceptr as unsigned long long, the constants
 * with the values of CUDA 10 to 13), finds the libraries with dlopen in the
 * order of kpca_cuda_default_paths and resolves every symbol before any is
 * used.  tests/gpu/decl_check.c checks each declaration against NVIDIA's
 * headers where they are installed (make gpu-decl-check).
 *
 * Layer: src/lib/gpu/ uses support/ only; core calls it.  Like every part of
 * the library it never prints and never exits.
 */
#ifndef KPCA_CUEW_H
#define KPCA_CUEW_H

#include <stddef.h>
#include <stdint.h>

#include "support/error.h"

/* ---- kpca's own declarations of the types and constants it uses ---- */
struct CUctx_st;          /* CUcontext */
struct CUstream_st;       /* CUstream, cudaStream_t */
struct cublasContext;     /* cublasHandle_t */
struct cusolverDnContext; /* cusolverDnHandle_t */
struct cusolverDnParams;  /* cusolverDnParams_t */

typedef unsigned long long kpca_cu_deviceptr; /* CUdeviceptr (64-bit) */
typedef unsigned int kpca_cu_result;          /* CUresult, an enum */
typedef unsigned int kpca_cu_status;          /* cublasStatus_t, cusolverStatus_t: enums */

enum {
    KPCA_CUDA_SUCCESS = 0,
    KPCA_CUDA_ERROR_OUT_OF_MEMORY = 2,
    KPCA_CUDA_ERROR_NO_DEVICE = 100,
    KPCA_CUDA_ERROR_STUB_LIBRARY = 34,
    KPCA_CUBLAS_STATUS_SUCCESS = 0,
    KPCA_CUSOLVER_STATUS_SUCCESS = 0,
    KPCA_CUSOLVER_STATUS_ALLOC_FAILED = 2,
    KPCA_CUBLAS_FILL_MODE_LOWER = 0,
    KPCA_CUBLAS_FILL_MODE_UPPER = 1,
    KPCA_CUBLAS_DEFAULT_MATH = 0,
    KPCA_CUBLAS_PEDANTIC_MATH = 2,
    KPCA_CUDA_R_32F = 0,
    KPCA_CUDA_R_64F = 1,
    KPCA_CUSOLVER_EIG_MODE_NOVECTOR = 0,
    KPCA_CUSOLVER_EIG_MODE_VECTOR = 1,
    KPCA_CUSOLVER_EIG_RANGE_ALL = 1001,
    KPCA_CUSOLVER_EIG_RANGE_I = 1002,
    KPCA_CUSOLVER_EIG_RANGE_V = 1003,
    KPCA_CU_STREAM_NON_BLOCKING = 1,
    KPCA_MAJOR_VERSION = 0, /* libraryPropertyType */
    KPCA_MINOR_VERSION = 1,
    KPCA_PATCH_LEVEL = 2
};

/* One typedef per entry point, the exported symbol's name after kpca_. */
typedef kpca_cu_result (*kpca_cuInit_fn)(unsigned int flags);
typedef kpca_cu_result (*kpca_cuDriverGetVersion_fn)(int *version);
typedef kpca_cu_result (*kpca_cuDeviceGetCount_fn)(int *count);
typedef kpca_cu_result (*kpca_cuDeviceGet_fn)(int *device, int ordinal);
typedef kpca_cu_result (*kpca_cuDeviceGetName_fn)(char *name, int len, int dev);
typedef kpca_cu_result (*kpca_cuDeviceTotalMem_v2_fn)(size_t *bytes, int dev);
typedef kpca_cu_result (*kpca_cuDevicePrimaryCtxRetain_fn)(struct CUctx_st **ctx, int dev);
typedef kpca_cu_result (*kpca_cuDevicePrimaryCtxRelease_v2_fn)(int dev);
typedef kpca_cu_result (*kpca_cuCtxSetCurrent_fn)(struct CUctx_st *ctx);
typedef kpca_cu_result (*kpca_cuMemGetInfo_v2_fn)(size_t *free_bytes, size_t *total_bytes);
typedef kpca_cu_result (*kpca_cuMemAlloc_v2_fn)(kpca_cu_deviceptr *dptr, size_t bytes);
typedef kpca_cu_result (*kpca_cuMemFree_v2_fn)(kpca_cu_deviceptr dptr);
typedef kpca_cu_result (*kpca_cuMemcpyHtoDAsync_v2_fn)(kpca_cu_deviceptr dst, const void *src, size_t bytes,
                                                        struct CUstream_st *stream);
typedef kpca_cu_result (*kpca_cuMemcpyDtoHAsync_v2_fn)(void *dst, kpca_cu_deviceptr src, size_t bytes,
                                                        struct CUstream_st *stream);
typedef kpca_cu_result (*kpca_cuStreamCreate_fn)(struct CUstream_st **stream, unsigned int flags);
typedef kpca_cu_result (*kpca_cuStreamDestroy_v2_fn)(struct CUstream_st *stream);
typedef kpca_cu_result (*kpca_cuStreamSynchronize_fn)(struct CUstream_st *stream);
typedef kpca_cu_result (*kpca_cuGetErrorString_fn)(kpca_cu_result error, const char **str);

typedef kpca_cu_status (*kpca_cublasCreate_v2_fn)(struct cublasContext **handle);
typedef kpca_cu_status (*kpca_cublasDestroy_v2_fn)(struct cublasContext *handle);
typedef kpca_cu_status (*kpca_cublasSetStream_v2_fn)(struct cublasContext *handle, struct CUstream_st *stream);
typedef kpca_cu_status (*kpca_cublasGetVersion_v2_fn)(struct cublasContext *handle, int *version);
typedef kpca_cu_status (*kpca_cublasSetMathMode_fn)(struct cublasContext *handle, unsigned int mode);

typedef kpca_cu_status (*kpca_cusolverDnCreate_fn)(struct cusolverDnContext **handle);
typedef kpca_cu_status (*kpca_cusolverDnDestroy_fn)(struct cusolverDnContext *handle);
typedef kpca_cu_status (*kpca_cusolverDnSetStream_fn)(struct cusolverDnContext *handle, struct CUstream_st *stream);
typedef kpca_cu_status (*kpca_cusolverDnCreateParams_fn)(struct cusolverDnParams **params);
typedef kpca_cu_status (*kpca_cusolverDnDestroyParams_fn)(struct cusolverDnParams *params);
typedef kpca_cu_status (*kpca_cusolverDnXsyevd_bufferSize_fn)(
    struct cusolverDnContext *handle, struct cusolverDnParams *params, unsigned int jobz, unsigned int uplo, int64_t n,
    unsigned int type_a, const void *a, int64_t lda, unsigned int type_w, const void *w, unsigned int compute_type,
    size_t *device_bytes, size_t *host_bytes);
typedef kpca_cu_status (*kpca_cusolverDnXsyevd_fn)(
    struct cusolverDnContext *handle, struct cusolverDnParams *params, unsigned int jobz, unsigned int uplo, int64_t n,
    unsigned int type_a, void *a, int64_t lda, unsigned int type_w, void *w, unsigned int compute_type,
    void *device_work, size_t device_bytes, void *host_work, size_t host_bytes, int *info);
typedef kpca_cu_status (*kpca_cusolverDnXsyevdx_bufferSize_fn)(
    struct cusolverDnContext *handle, struct cusolverDnParams *params, unsigned int jobz, unsigned int range,
    unsigned int uplo, int64_t n, unsigned int type_a, const void *a, int64_t lda, void *vl, void *vu, int64_t il,
    int64_t iu, int64_t *meig, unsigned int type_w, const void *w, unsigned int compute_type, size_t *device_bytes,
    size_t *host_bytes);
typedef kpca_cu_status (*kpca_cusolverDnXsyevdx_fn)(
    struct cusolverDnContext *handle, struct cusolverDnParams *params, unsigned int jobz, unsigned int range,
    unsigned int uplo, int64_t n, unsigned int type_a, void *a, int64_t lda, void *vl, void *vu, int64_t il,
    int64_t iu, int64_t *meig, unsigned int type_w, void *w, unsigned int compute_type, void *device_work,
    size_t device_bytes, void *host_work, size_t host_bytes, int *info);
typedef kpca_cu_status (*kpca_cusolverGetProperty_fn)(unsigned int type, int *value);

/* The resolved entry points. */
typedef struct {
    kpca_cuInit_fn cuInit;
    kpca_cuDriverGetVersion_fn cuDriverGetVersion;
    kpca_cuDeviceGetCount_fn cuDeviceGetCount;
    kpca_cuDeviceGet_fn cuDeviceGet;
    kpca_cuDeviceGetName_fn cuDeviceGetName;
    kpca_cuDeviceTotalMem_v2_fn cuDeviceTotalMem_v2;
    kpca_cuDevicePrimaryCtxRetain_fn cuDevicePrimaryCtxRetain;
    kpca_cuDevicePrimaryCtxRelease_v2_fn cuDevicePrimaryCtxRelease_v2;
    kpca_cuCtxSetCurrent_fn cuCtxSetCurrent;
    kpca_cuMemGetInfo_v2_fn cuMemGetInfo_v2;
    kpca_cuMemAlloc_v2_fn cuMemAlloc_v2;
    kpca_cuMemFree_v2_fn cuMemFree_v2;
    kpca_cuMemcpyHtoDAsync_v2_fn cuMemcpyHtoDAsync_v2;
    kpca_cuMemcpyDtoHAsync_v2_fn cuMemcpyDtoHAsync_v2;
    kpca_cuStreamCreate_fn cuStreamCreate;
    kpca_cuStreamDestroy_v2_fn cuStreamDestroy_v2;
    kpca_cuStreamSynchronize_fn cuStreamSynchronize;
    kpca_cuGetErrorString_fn cuGetErrorString;
    kpca_cublasCreate_v2_fn cublasCreate_v2;
    kpca_cublasDestroy_v2_fn cublasDestroy_v2;
    kpca_cublasSetStream_v2_fn cublasSetStream_v2;
    kpca_cublasGetVersion_v2_fn cublasGetVersion_v2;
    kpca_cublasSetMathMode_fn cublasSetMathMode;
    kpca_cusolverDnCreate_fn cusolverDnCreate;
    kpca_cusolverDnDestroy_fn cusolverDnDestroy;
    kpca_cusolverDnSetStream_fn cusolverDnSetStream;
    kpca_cusolverDnCreateParams_fn cusolverDnCreateParams;
    kpca_cusolverDnDestroyParams_fn cusolverDnDestroyParams;
    kpca_cusolverDnXsyevd_bufferSize_fn cusolverDnXsyevd_bufferSize;
    kpca_cusolverDnXsyevd_fn cusolverDnXsyevd;
    kpca_cusolverDnXsyevdx_bufferSize_fn cusolverDnXsyevdx_bufferSize;
    kpca_cusolverDnXsyevdx_fn cusolverDnXsyevdx;
    kpca_cusolverGetProperty_fn cusolverGetProperty;
} kpca_cuda_api;

#define KPCA_CUDA_PATH_MAX 1024
#define KPCA_CUDA_MAX_DIRS 48

/* What was found: the libraries' paths, the versions, device 0. */
typedef struct kpca_cuda {
    kpca_cuda_api api;
    char driver_path[KPCA_CUDA_PATH_MAX];  /* libcuda.so.1 as loaded */
    char cublas_path[KPCA_CUDA_PATH_MAX];  /* libcublas.so.N */
    char cusolver_path[KPCA_CUDA_PATH_MAX];
    int cuda_major;      /* 12 or 13: the major of the cuBLAS/cuSOLVER pair */
    int driver_version;  /* cuDriverGetVersion: 1000 major + 10 minor */
    int cublas_version;  /* cublasGetVersion_v2; 0 when it would not say */
    int cusolver_version[3]; /* major, minor, patch */
    int devices;         /* how many GPUs */
    char gpu_name[256];  /* device 0 */
    size_t gpu_memory;   /* device 0's total memory, bytes */
    void *handles[8];    /* dlopen handles (owned) */
    size_t nhandles;
    /* device 0's primary context, retained by the first eigensolve session
     * (gpu/eig_gpu.c) and released by kpca_cuda_close: a fit's memory check
     * and its solve share it, where a release in between would destroy it
     * and the solve would make it again */
    struct CUctx_st *ctx;
    int ctx_dev, ctx_held;
} kpca_cuda;

/* Where to look, in order: dirs (folders, each searched for the sonames);
 * use_default 1: the dynamic loader's own path (dlopen of the bare soname)
 * after dirs[0..ndefault_after-1]. */
typedef struct {
    const char *dirs[KPCA_CUDA_MAX_DIRS];
    size_t ndirs;
    int use_default;
    size_t default_after;
    char store[KPCA_CUDA_MAX_DIRS][KPCA_CUDA_PATH_MAX];
} kpca_cuda_paths;

/* The search list (docs/gpu.md): $KPCA_CUDA_PATH (a folder), then the
 * loader's path (LD_LIBRARY_PATH, the ld.so cache), then $CUDA_HOME/lib64,
 * /usr/local/cuda/lib64, then the nvidia/<x>/lib folders of Python's
 * site-packages and dist-packages under /usr/lib, /usr/local/lib and
 * $HOME/.local/lib (python3.*), sorted.  Folders named .../stubs/ are left
 * out.  Reads the environment; O(folders) globs; cannot fail (a list too
 * long is cut at KPCA_CUDA_MAX_DIRS). */
void kpca_cuda_default_paths(kpca_cuda_paths *p);

/* Loads the driver (libcuda.so.1), then cuBLAS and cuSOLVER of CUDA 13
 * (libcublas.so.13, libcusolver.so.12) or 12 (.12, .11) with their
 * dependencies (libcublasLt, libcusparse, libnvJitLink of the same major,
 * from the same folder first, RTLD_GLOBAL); resolves every entry point of
 * kpca_cuda_api; initialises the driver and reads the versions, the device
 * count and device 0's name and memory.  paths NULL: kpca_cuda_default_paths.
 * Errors (*out NULL, everything loaded closed again), each naming what is
 * missing and every path tried: KPCA_EIO for no driver (or only NVIDIA's
 * stub libcuda, refused), no GPU, no cuBLAS/cuSOLVER of a supported major
 * (one of another major is named), a library without a wanted symbol
 * (library path and symbol); KPCA_ENOMEM.  Cost: the dlopens (the real
 * cuSOLVER is hundreds of MB, mapped) and cuInit, well under a second.
 * Close with kpca_cuda_close. */
kpca_status kpca_cuda_open(const kpca_cuda_paths *paths, kpca_cuda **out, kpca_error *err);

/* dlcloses the libraries (which stay mapped: RTLD_NODELETE, cuew.c) and
 * frees cu (NULL: nothing). */
void kpca_cuda_close(kpca_cuda *cu);

/* One line for kpca --version: the GPU, its memory, CUDA major and library
 * versions, the driver's.  Into buf (cap bytes, cut to fit). */
void kpca_cuda_describe(const kpca_cuda *cu, char *buf, size_t cap);

/* A driver error as text ("CUDA_ERROR_OUT_OF_MEMORY: out of memory" where
 * cuGetErrorString says it, else "CUDA error N"); static or library-owned. */
const char *kpca_cuda_error_string(const kpca_cuda *cu, kpca_cu_result r, char *buf, size_t cap);

#endif

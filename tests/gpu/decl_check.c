/* decl_check.c - kpca's own CUDA declarations (src/lib/gpu/cuew.h) against
 * NVIDIA's headers: every constant by _Static_assert, every prototype by
 * assigning the real function to a pointer of kpca's type, compiled with
 * -Werror=incompatible-pointer-types (make gpu-decl-check; skipped where
 * the headers are not installed).  Compiled only: nothing runs. */
#include <cublas_api.h>
#include <cuda.h>
#include <cusolverDn.h>
#include <library_types.h>

#include "gpu/cuew.h"

#define SAME(kpca, nvidia) _Static_assert((long long)(kpca) == (long long)(nvidia), #kpca " != " #nvidia)
SAME(KPCA_CUDA_SUCCESS, CUDA_SUCCESS);
SAME(KPCA_CUDA_ERROR_OUT_OF_MEMORY, CUDA_ERROR_OUT_OF_MEMORY);
SAME(KPCA_CUDA_ERROR_NO_DEVICE, CUDA_ERROR_NO_DEVICE);
SAME(KPCA_CUDA_ERROR_STUB_LIBRARY, CUDA_ERROR_STUB_LIBRARY);
SAME(KPCA_CUBLAS_STATUS_SUCCESS, CUBLAS_STATUS_SUCCESS);
SAME(KPCA_CUSOLVER_STATUS_SUCCESS, CUSOLVER_STATUS_SUCCESS);
SAME(KPCA_CUSOLVER_STATUS_ALLOC_FAILED, CUSOLVER_STATUS_ALLOC_FAILED);
SAME(KPCA_CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_LOWER);
SAME(KPCA_CUBLAS_FILL_MODE_UPPER, CUBLAS_FILL_MODE_UPPER);
SAME(KPCA_CUBLAS_DEFAULT_MATH, CUBLAS_DEFAULT_MATH);
SAME(KPCA_CUBLAS_PEDANTIC_MATH, CUBLAS_PEDANTIC_MATH);
SAME(KPCA_CUDA_R_32F, CUDA_R_32F);
SAME(KPCA_CUDA_R_64F, CUDA_R_64F);
SAME(KPCA_CUSOLVER_EIG_MODE_NOVECTOR, CUSOLVER_EIG_MODE_NOVECTOR);
SAME(KPCA_CUSOLVER_EIG_MODE_VECTOR, CUSOLVER_EIG_MODE_VECTOR);
SAME(KPCA_CUSOLVER_EIG_RANGE_ALL, CUSOLVER_EIG_RANGE_ALL);
SAME(KPCA_CUSOLVER_EIG_RANGE_I, CUSOLVER_EIG_RANGE_I);
SAME(KPCA_CUSOLVER_EIG_RANGE_V, CUSOLVER_EIG_RANGE_V);
SAME(KPCA_CU_STREAM_NON_BLOCKING, CU_STREAM_NON_BLOCKING);
SAME(KPCA_MAJOR_VERSION, MAJOR_VERSION);
SAME(KPCA_MINOR_VERSION, MINOR_VERSION);
SAME(KPCA_PATCH_LEVEL, PATCH_LEVEL);
_Static_assert(sizeof(kpca_cu_deviceptr) == sizeof(CUdeviceptr), "CUdeviceptr");
_Static_assert(sizeof(kpca_cu_result) == sizeof(CUresult), "CUresult");
_Static_assert(sizeof(unsigned int) == sizeof(cudaDataType), "cudaDataType");
_Static_assert(sizeof(unsigned int) == sizeof(cusolverEigMode_t), "cusolverEigMode_t");

/* the header's macros rename cuMemAlloc to cuMemAlloc_v2 etc.: the names
 * below are the symbols kpca resolves */
#define FN(name) kpca_##name##_fn name##_p = name; (void)name##_p
void kpca_decl_check(void);
void kpca_decl_check(void)
{
    FN(cuInit); FN(cuDriverGetVersion); FN(cuDeviceGetCount); FN(cuDeviceGet); FN(cuDeviceGetName);
    FN(cuDeviceTotalMem_v2); FN(cuDevicePrimaryCtxRetain); FN(cuDevicePrimaryCtxRelease_v2);
    FN(cuCtxSetCurrent); FN(cuMemGetInfo_v2); FN(cuMemAlloc_v2); FN(cuMemFree_v2); FN(cuMemcpyHtoDAsync_v2);
    FN(cuMemcpyDtoHAsync_v2); FN(cuStreamCreate); FN(cuStreamDestroy_v2); FN(cuStreamSynchronize);
    FN(cuGetErrorString);
    FN(cublasCreate_v2); FN(cublasDestroy_v2); FN(cublasSetStream_v2); FN(cublasGetVersion_v2); FN(cublasSetMathMode);
    FN(cusolverDnCreate); FN(cusolverDnDestroy); FN(cusolverDnSetStream); FN(cusolverDnCreateParams);
    FN(cusolverDnDestroyParams); FN(cusolverDnXsyevd_bufferSize); FN(cusolverDnXsyevd);
    FN(cusolverDnXsyevdx_bufferSize); FN(cusolverDnXsyevdx); FN(cusolverGetProperty);
}

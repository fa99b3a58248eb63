/* cuew.c - the CUDA driver, cuBLAS and cuSOLVER, loaded at run time (cuew.h). */
#define _GNU_SOURCE /* dlinfo: the path the loader found */
#include <dirent.h>
#include <dlfcn.h>
#include <glob.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu/cuew.h"
#include "support/mem.h"

/* the sonames per supported CUDA major: cuBLAS, cuSOLVER (CUDA's major
 * minus one) and cuSOLVER's dependencies, loaded first */
typedef struct {
    int major;
    const char *cublas, *cusolver;
    const char *deps[3];
} cuda_sonames;

static const cuda_sonames majors[] = {
    {13, "libcublas.so.13", "libcusolver.so.12", {"libcublasLt.so.13", "libnvJitLink.so.13", "libcusparse.so.12"}},
    {12, "libcublas.so.12", "libcusolver.so.11", {"libcublasLt.so.12", "libnvJitLink.so.12", "libcusparse.so.12"}},
};
#define NMAJORS (sizeof majors / sizeof majors[0])

enum { LIB_DRIVER, LIB_CUBLAS, LIB_CUSOLVER };

/* NVIDIA's libraries are never unmapped (RTLD_NODELETE; kpca_cuda_close
 * only drops kpca's references): they keep process-wide state, and each
 * allocates at load time what only its own static data points to, which
 * would show as a leak once it is unloaded */
#define LOAD_FLAGS (RTLD_NOW | RTLD_NODELETE)

/* every entry point: its symbol, library and place in kpca_cuda_api */
typedef struct {
    const char *name;
    int lib;
    size_t offset;
} entry_point;

#define EP(lib, name) {#name, lib, offsetof(kpca_cuda_api, name)}
static const entry_point entry_points[] = {
    EP(LIB_DRIVER, cuInit), EP(LIB_DRIVER, cuDriverGetVersion), EP(LIB_DRIVER, cuDeviceGetCount),
    EP(LIB_DRIVER, cuDeviceGet), EP(LIB_DRIVER, cuDeviceGetName), EP(LIB_DRIVER, cuDeviceTotalMem_v2),
    EP(LIB_DRIVER, cuDevicePrimaryCtxRetain), EP(LIB_DRIVER, cuDevicePrimaryCtxRelease_v2),
    EP(LIB_DRIVER, cuCtxSetCurrent), EP(LIB_DRIVER, cuMemGetInfo_v2), EP(LIB_DRIVER, cuMemAlloc_v2),
    EP(LIB_DRIVER, cuMemFree_v2), EP(LIB_DRIVER, cuMemcpyHtoDAsync_v2), EP(LIB_DRIVER, cuMemcpyDtoHAsync_v2),
    EP(LIB_DRIVER, cuStreamCreate), EP(LIB_DRIVER, cuStreamDestroy_v2), EP(LIB_DRIVER, cuStreamSynchronize),
    EP(LIB_DRIVER, cuGetErrorString),
    EP(LIB_CUBLAS, cublasCreate_v2), EP(LIB_CUBLAS, cublasDestroy_v2), EP(LIB_CUBLAS, cublasSetStream_v2),
    EP(LIB_CUBLAS, cublasGetVersion_v2), EP(LIB_CUBLAS, cublasSetMathMode),
    EP(LIB_CUSOLVER, cusolverDnCreate), EP(LIB_CUSOLVER, cusolverDnDestroy), EP(LIB_CUSOLVER, cusolverDnSetStream),
    EP(LIB_CUSOLVER, cusolverDnCreateParams), EP(LIB_CUSOLVER, cusolverDnDestroyParams),
    EP(LIB_CUSOLVER, cusolverDnXsyevd_bufferSize), EP(LIB_CUSOLVER, cusolverDnXsyevd),
    EP(LIB_CUSOLVER, cusolverDnXsyevdx_bufferSize), EP(LIB_CUSOLVER, cusolverDnXsyevdx),
    EP(LIB_CUSOLVER, cusolverGetProperty),
};
#undef EP

static void add_dir(kpca_cuda_paths *p, const char *dir)
{
    if (dir == NULL || dir[0] == '\0' || p->ndirs >= KPCA_CUDA_MAX_DIRS || strstr(dir, "/stubs") != NULL)
        return;
    for (size_t i = 0; i < p->ndirs; i++)
        if (strcmp(p->dirs[i], dir) == 0)
            return;
    snprintf(p->store[p->ndirs], KPCA_CUDA_PATH_MAX, "%s", dir);
    p->dirs[p->ndirs] = p->store[p->ndirs];
    p->ndirs++;
}

static void add_glob(kpca_cuda_paths *p, const char *pattern)
{
    glob_t g;
    if (glob(pattern, GLOB_ONLYDIR, NULL, &g) == 0)
        for (size_t i = 0; i < g.gl_pathc; i++)
            add_dir(p, g.gl_pathv[i]);
    globfree(&g);
}

void kpca_cuda_default_paths(kpca_cuda_paths *p)
{
    memset(p, 0, sizeof *p);
    char buf[KPCA_CUDA_PATH_MAX];
    const char *over = getenv("KPCA_CUDA_PATH");
    if (over != NULL && over[0] != '\0') {
        /* the override is kept even under stubs/, to be refused by name */
        snprintf(p->store[0], KPCA_CUDA_PATH_MAX, "%s", over);
        p->dirs[0] = p->store[0];
        p->ndirs = 1;
    }
    p->use_default = 1;
    p->default_after = p->ndirs;
    const char *home = getenv("CUDA_HOME");
    if (home != NULL && home[0] != '\0') {
        snprintf(buf, sizeof buf, "%s/lib64", home);
        add_dir(p, buf);
    }
    add_dir(p, "/usr/local/cuda/lib64");
    /* CUDA 13 wheels: nvidia/cu13/lib; CUDA 12 wheels: nvidia/<lib>/lib */
    static const char *const roots[] = {"/usr/local/lib/python3*/dist-packages", "/usr/lib/python3*/dist-packages",
                                        "/usr/local/lib/python3*/site-packages", "/usr/lib/python3*/site-packages"};
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
        snprintf(buf, sizeof buf, "%s/nvidia/*/lib", roots[i]);
        add_glob(p, buf);
    }
    const char *user = getenv("HOME");
    if (user != NULL && user[0] != '\0') {
        snprintf(buf, sizeof buf, "%s/.local/lib/python3*/site-packages/nvidia/*/lib", user);
        add_glob(p, buf);
    }
}

/* the searched places in order: i < ndirs + use_default; NULL is the loader */
static const char *place(const kpca_cuda_paths *p, size_t i)
{
    if (p->use_default && i == p->default_after)
        return NULL;
    return p->dirs[p->use_default && i > p->default_after ? i - 1 : i];
}

static void append(char *buf, size_t cap, const char *s)
{
    size_t len = strlen(buf);
    if (len + 1 < cap)
        snprintf(buf + len, cap - len, "%s", s);
}

/* dlopen of soname in dir (NULL: the loader's path); the path it has into
 * path; the attempt appended to tried */
static void *open_in(const char *dir, const char *soname, int flags, char *path, char *tried, size_t cap)
{
    char full[KPCA_CUDA_PATH_MAX];
    if (dir != NULL)
        snprintf(full, sizeof full, "%s/%s", dir, soname);
    else
        snprintf(full, sizeof full, "%s", soname);
    if (tried != NULL) {
        append(tried, cap, tried[0] != '\0' ? ", " : "");
        append(tried, cap, dir != NULL ? full : soname);
        append(tried, cap, dir != NULL ? "" : " (the loader's path)");
    }
    void *h = dlopen(full, flags);
    if (h == NULL && tried != NULL && dir != NULL && access(full, F_OK) == 0) {
        const char *why = dlerror(); /* there, but the loader refused it */
        append(tried, cap, " (");
        append(tried, cap, why != NULL ? why : "not loadable");
        append(tried, cap, ")");
    }
    if (h != NULL && path != NULL) {
        struct link_map *lm = NULL;
        snprintf(path, KPCA_CUDA_PATH_MAX, "%s", full);
        if (dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm != NULL && lm->l_name != NULL && lm->l_name[0] != '\0')
            snprintf(path, KPCA_CUDA_PATH_MAX, "%s", lm->l_name);
    }
    return h;
}

static int keep(kpca_cuda *cu, void *h)
{
    if (cu->nhandles >= sizeof cu->handles / sizeof cu->handles[0]) {
        dlclose(h);
        return 0;
    }
    cu->handles[cu->nhandles++] = h;
    return 1;
}

static kpca_status resolve(kpca_cuda *cu, int lib, void *h, const char *path, kpca_error *err)
{
    for (size_t i = 0; i < sizeof entry_points / sizeof entry_points[0]; i++) {
        if (entry_points[i].lib != lib)
            continue;
        dlerror();
        void *sym = dlsym(h, entry_points[i].name);
        if (sym == NULL)
            return kpca_fail(err, KPCA_EIO, "CUDA: %s has no symbol %s, which kpca calls (a damaged or foreign "
                             "library?)", path, entry_points[i].name);
        /* POSIX: a data pointer from dlsym holds the function's address */
        memcpy((char *)&cu->api + entry_points[i].offset, &sym, sizeof sym);
    }
    return KPCA_OK;
}

static kpca_status load_driver(kpca_cuda *cu, const kpca_cuda_paths *p, kpca_error *err)
{
    char tried[700] = "";
    const size_t nplaces = p->ndirs + (p->use_default ? 1 : 0);
    void *h = NULL;
    for (size_t i = 0; i < nplaces && h == NULL; i++)
        h = open_in(place(p, i), "libcuda.so.1", LOAD_FLAGS | RTLD_LOCAL, cu->driver_path, tried, sizeof tried);
    if (h == NULL)
        return kpca_fail(err, KPCA_EIO, "CUDA: no NVIDIA driver (libcuda.so.1 not found; tried %s): install the "
                         "driver, or set KPCA_CUDA_PATH to the folder that holds it", tried);
    if (!keep(cu, h))
        return kpca_fail(err, KPCA_EINTERNAL, "CUDA: too many libraries");
    if (strstr(cu->driver_path, "/stubs/") != NULL)
        return kpca_fail(err, KPCA_EIO, "CUDA: %s is the CUDA toolkit's stub libcuda, for linking only, not a driver: "
                         "install the NVIDIA driver", cu->driver_path);
    kpca_status st = resolve(cu, LIB_DRIVER, h, cu->driver_path, err);
    if (st != KPCA_OK)
        return st;
    kpca_cu_result r = cu->api.cuInit(0);
    char eb[160];
    if (r == KPCA_CUDA_ERROR_STUB_LIBRARY)
        return kpca_fail(err, KPCA_EIO, "CUDA: %s is the CUDA toolkit's stub libcuda (cuInit: CUDA_ERROR_STUB_LIBRARY), "
                         "not a driver: install the NVIDIA driver", cu->driver_path);
    if (r == KPCA_CUDA_ERROR_NO_DEVICE)
        return kpca_fail(err, KPCA_EIO, "CUDA: no GPU (the driver %s found none)", cu->driver_path);
    if (r != KPCA_CUDA_SUCCESS)
        return kpca_fail(err, KPCA_EIO, "CUDA: the driver %s would not start (cuInit: %s)", cu->driver_path,
                         kpca_cuda_error_string(cu, r, eb, sizeof eb));
    if (cu->api.cuDriverGetVersion(&cu->driver_version) != KPCA_CUDA_SUCCESS)
        cu->driver_version = 0;
    if (cu->api.cuDeviceGetCount(&cu->devices) != KPCA_CUDA_SUCCESS || cu->devices < 1)
        return kpca_fail(err, KPCA_EIO, "CUDA: no GPU (the driver %s found none)", cu->driver_path);
    int dev = 0;
    if ((r = cu->api.cuDeviceGet(&dev, 0)) != KPCA_CUDA_SUCCESS ||
        (r = cu->api.cuDeviceGetName(cu->gpu_name, (int)sizeof cu->gpu_name, dev)) != KPCA_CUDA_SUCCESS ||
        (r = cu->api.cuDeviceTotalMem_v2(&cu->gpu_memory, dev)) != KPCA_CUDA_SUCCESS)
        return kpca_fail(err, KPCA_EIO, "CUDA: GPU 0 cannot be queried (%s)", kpca_cuda_error_string(cu, r, eb, sizeof eb));
    cu->gpu_name[sizeof cu->gpu_name - 1] = '\0';
    return KPCA_OK;
}

/* a libcublas.so.N of an unsupported major in the searched folders, into found */
static int other_major(const kpca_cuda_paths *p, char *found, size_t cap)
{
    for (size_t i = 0; i < p->ndirs; i++) {
        DIR *d = opendir(p->dirs[i]);
        if (d == NULL)
            continue;
        struct dirent *e;
        int hit = 0;
        while (!hit && (e = readdir(d)) != NULL) {
            int n = 0, used = 0;
            if (sscanf(e->d_name, "libcublas.so.%d%n", &n, &used) == 1 && e->d_name[used] == '\0' && n != 12 && n != 13) {
                snprintf(found, cap, "%s/%s", p->dirs[i], e->d_name);
                hit = 1;
            }
        }
        closedir(d);
        if (hit)
            return 1;
    }
    return 0;
}

static kpca_status load_libraries(kpca_cuda *cu, const kpca_cuda_paths *p, kpca_error *err)
{
    char tried[800] = "";
    const size_t nplaces = p->ndirs + (p->use_default ? 1 : 0);
    for (size_t i = 0; i < nplaces; i++) {
        const char *dir = place(p, i);
        for (size_t m = 0; m < NMAJORS; m++) {
            void *hb = open_in(dir, majors[m].cublas, LOAD_FLAGS | RTLD_GLOBAL, cu->cublas_path, tried, sizeof tried);
            if (hb == NULL)
                continue;
            for (size_t j = 0; j < 3; j++) { /* from the same folder when there */
                void *hd = open_in(dir, majors[m].deps[j], LOAD_FLAGS | RTLD_GLOBAL, NULL, NULL, 0);
                if (hd != NULL && !keep(cu, hd))
                    break;
            }
            void *hs = open_in(dir, majors[m].cusolver, LOAD_FLAGS | RTLD_LOCAL, cu->cusolver_path, tried, sizeof tried);
            if (hs == NULL) {
                dlclose(hb);
                continue;
            }
            if (!keep(cu, hb) || !keep(cu, hs))
                return kpca_fail(err, KPCA_EINTERNAL, "CUDA: too many libraries");
            cu->cuda_major = majors[m].major;
            kpca_status st = resolve(cu, LIB_CUBLAS, hb, cu->cublas_path, err);
            if (st == KPCA_OK)
                st = resolve(cu, LIB_CUSOLVER, hs, cu->cusolver_path, err);
            return st;
        }
    }
    char other[KPCA_CUDA_PATH_MAX];
    if (other_major(p, other, sizeof other))
        return kpca_fail(err, KPCA_EIO, "CUDA: %s is of a CUDA major kpca does not support: kpca supports CUDA 12 "
                         "(libcublas.so.12, libcusolver.so.11) and 13 (libcublas.so.13, libcusolver.so.12); tried %s",
                         other, tried);
    return kpca_fail(err, KPCA_EIO, "CUDA: no cuBLAS and cuSOLVER of CUDA 12 or 13 (tried %s): install them (the "
                     "CUDA toolkit, or pip's nvidia-cublas and nvidia-cusolver) or set KPCA_CUDA_PATH to their folder",
                     tried);
}

kpca_status kpca_cuda_open(const kpca_cuda_paths *paths, kpca_cuda **out, kpca_error *err)
{
    *out = NULL;
    kpca_cuda_paths *own = NULL;
    if (paths == NULL) {
        own = kpca_malloc(sizeof *own);
        if (own == NULL)
            return kpca_fail(err, KPCA_ENOMEM, "out of memory for the CUDA search list");
        kpca_cuda_default_paths(own);
        paths = own;
    }
    kpca_cuda *cu = kpca_calloc(1, sizeof *cu);
    kpca_status st = cu == NULL ? kpca_fail(err, KPCA_ENOMEM, "out of memory for the CUDA libraries' record")
                                : load_driver(cu, paths, err);
    if (st == KPCA_OK)
        st = load_libraries(cu, paths, err);
    kpca_free(own);
    if (st != KPCA_OK) {
        kpca_cuda_close(cu);
        return st;
    }
    if (cu->api.cublasGetVersion_v2(NULL, &cu->cublas_version) != KPCA_CUBLAS_STATUS_SUCCESS)
        cu->cublas_version = 0;
    for (int i = 0; i < 3; i++)
        if (cu->api.cusolverGetProperty((unsigned int)(KPCA_MAJOR_VERSION + i), &cu->cusolver_version[i]) !=
            KPCA_CUSOLVER_STATUS_SUCCESS)
            cu->cusolver_version[i] = 0;
    *out = cu;
    return KPCA_OK;
}

void kpca_cuda_close(kpca_cuda *cu)
{
    if (cu == NULL)
        return;
    if (cu->ctx_held)
        cu->api.cuDevicePrimaryCtxRelease_v2(cu->ctx_dev);
    while (cu->nhandles > 0)
        dlclose(cu->handles[--cu->nhandles]);
    kpca_free(cu);
}

void kpca_cuda_describe(const kpca_cuda *cu, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s (%.1f GiB) of %d GPU%s, driver %d.%d; CUDA %d: cuBLAS %d (%s), cuSOLVER %d.%d.%d (%s)",
             cu->gpu_name, (double)cu->gpu_memory / 1073741824.0, cu->devices, cu->devices == 1 ? "" : "s",
             cu->driver_version / 1000, cu->driver_version % 1000 / 10, cu->cuda_major, cu->cublas_version,
             cu->cublas_path, cu->cusolver_version[0], cu->cusolver_version[1], cu->cusolver_version[2],
             cu->cusolver_path);
}

const char *kpca_cuda_error_string(const kpca_cuda *cu, kpca_cu_result r, char *buf, size_t cap)
{
    const char *s = NULL;
    if (cu != NULL && cu->api.cuGetErrorString != NULL && cu->api.cuGetErrorString(r, &s) == KPCA_CUDA_SUCCESS &&
        s != NULL)
        snprintf(buf, cap, "%s (CUDA error %u)", s, r);
    else
        snprintf(buf, cap, "CUDA error %u", r);
    return buf;
}

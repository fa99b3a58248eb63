/* test_cuew.c - the CUDA loader (gpu/cuew.h) without a GPU: each refusal
 * with its message and status (KPCA_EIO, kpca's exit 4), and the libraries
 * found, against the stand-ins with the real sonames that the Makefile
 * builds in GPU_FAKE_DIR (tests/gpu/fake_cuda.c), NVIDIA's stub libcuda and
 * the toolkit's real cuBLAS and cuSOLVER where /usr/local/cuda has them.
 * Nothing here reaches a GPU. */
#include "testutil.h"

#include <sys/stat.h>
#include <unistd.h>

#include "lib/gpu/cuew.h"

#define TOOLKIT "/usr/local/cuda/lib64"

static void set_dirs(kpca_cuda_paths *p, const char *a, const char *b)
{
    memset(p, 0, sizeof *p);
    p->dirs[p->ndirs++] = a;
    if (b != NULL)
        p->dirs[p->ndirs++] = b;
}

/* opens with dirs a (and b), the loader's path left out; expects status
 * want and, on failure, each of the strings in the message */
static kpca_cuda *open_expect(const char *a, const char *b, kpca_status want, const char *m1, const char *m2)
{
    kpca_cuda_paths p;
    set_dirs(&p, a, b);
    kpca_error err;
    kpca_error_clear(&err);
    kpca_cuda *cu = NULL;
    kpca_status st = kpca_cuda_open(&p, &cu, &err);
    if (st != want)
        fail_msg("open %s: status %d, expected %d (%s)", a, (int)st, (int)want, err.msg);
    if (st != KPCA_OK) {
        assert_null(cu);
        assert_int_equal(err.code, want);
        if (m1 != NULL && strstr(err.msg, m1) == NULL)
            fail_msg("'%s' not in '%s'", m1, err.msg);
        if (m2 != NULL && strstr(err.msg, m2) == NULL)
            fail_msg("'%s' not in '%s'", m2, err.msg);
    }
    return cu;
}

static void test_no_driver(void **state)
{
    (void)state;
    const char *dir = TEST_OUT "/gpu-empty";
    mkdir(dir, 0777);
    open_expect(dir, NULL, KPCA_EIO, "no NVIDIA driver", TEST_OUT "/gpu-empty/libcuda.so.1");
    /* the toolkit's folder has cuBLAS and cuSOLVER but no driver */
    if (access(TOOLKIT, F_OK) == 0)
        open_expect(TOOLKIT, NULL, KPCA_EIO, "no NVIDIA driver", TOOLKIT "/libcuda.so.1");
    rmdir(dir);
}

static void test_stub_driver(void **state)
{
    (void)state;
    /* a driver under a folder named stubs is refused by its path */
    open_expect(GPU_FAKE_DIR "/stubs", NULL, KPCA_EIO, "stub libcuda", GPU_FAKE_DIR "/stubs/libcuda.so.1");
    /* one whose cuInit says CUDA_ERROR_STUB_LIBRARY (34), as NVIDIA's does */
    setenv("FAKE_CUDA_INIT", "34", 1);
    open_expect(GPU_FAKE_DIR "/ok", NULL, KPCA_EIO, "CUDA_ERROR_STUB_LIBRARY", GPU_FAKE_DIR "/ok/libcuda.so.1");
    unsetenv("FAKE_CUDA_INIT");
    /* NVIDIA's own stub under the driver's name, in a folder not named stubs */
    const char *stub = TOOLKIT "/stubs/libcuda.so";
    if (access(stub, R_OK) != 0) {
        print_message("no %s: NVIDIA's stub not tried\n", stub);
        return;
    }
    const char *dir = TEST_OUT "/gpu-stub";
    mkdir(dir, 0777);
    unlink(TEST_OUT "/gpu-stub/libcuda.so.1");
    assert_int_equal(symlink(stub, TEST_OUT "/gpu-stub/libcuda.so.1"), 0);
    /* the loader reports the link's target path, under stubs/ */
    open_expect(dir, NULL, KPCA_EIO, "stub libcuda", NULL);
    unlink(TEST_OUT "/gpu-stub/libcuda.so.1");
    rmdir(dir);
}

static void test_no_gpu(void **state)
{
    (void)state;
    setenv("FAKE_CUDA_INIT", "100", 1);
    open_expect(GPU_FAKE_DIR "/ok", NULL, KPCA_EIO, "no GPU", NULL);
    unsetenv("FAKE_CUDA_INIT");
    setenv("FAKE_CUDA_DEVICES", "0", 1);
    open_expect(GPU_FAKE_DIR "/ok", NULL, KPCA_EIO, "no GPU", NULL);
    unsetenv("FAKE_CUDA_DEVICES");
    setenv("FAKE_CUDA_INIT", "999", 1);
    open_expect(GPU_FAKE_DIR "/ok", NULL, KPCA_EIO, "would not start", "stand-in error");
    unsetenv("FAKE_CUDA_INIT");
}

static void test_no_library(void **state)
{
    (void)state;
    open_expect(GPU_FAKE_DIR "/driver", NULL, KPCA_EIO, "no cuBLAS and cuSOLVER of CUDA 12 or 13",
                GPU_FAKE_DIR "/driver/libcublas.so.12");
}

static void test_missing_symbol(void **state)
{
    (void)state;
    open_expect(GPU_FAKE_DIR "/nosym", NULL, KPCA_EIO, GPU_FAKE_DIR "/nosym/libcusolver.so.12 has no symbol",
                "cusolverDnXsyevdx");
}

static void test_unsupported_major(void **state)
{
    (void)state;
    open_expect(GPU_FAKE_DIR "/old", NULL, KPCA_EIO, GPU_FAKE_DIR "/old/libcublas.so.11 is of a CUDA major",
                "supports CUDA 12 (libcublas.so.12, libcusolver.so.11) and 13");
}

static void test_found(void **state)
{
    (void)state;
    kpca_cuda *cu = open_expect(GPU_FAKE_DIR "/ok", NULL, KPCA_OK, NULL, NULL);
    assert_int_equal(cu->cuda_major, 13);
    assert_string_equal(cu->gpu_name, "kpca stand-in GPU");
    assert_int_equal(cu->devices, 1);
    assert_int_equal(cu->driver_version, 13000);
    assert_int_equal(cu->cublas_version, 130000);
    assert_int_equal(cu->cusolver_version[0], 12);
    assert_string_equal(cu->cusolver_path, GPU_FAKE_DIR "/ok/libcusolver.so.12");
    char line[4096];
    kpca_cuda_describe(cu, line, sizeof line);
    assert_non_null(strstr(line, "kpca stand-in GPU (16.0 GiB) of 1 GPU, driver 13.0; CUDA 13: cuBLAS 130000"));
    kpca_cuda_close(cu);
    /* CUDA 12's pair; the first folder wins over a later one of CUDA 13 */
    cu = open_expect(GPU_FAKE_DIR "/cuda12", GPU_FAKE_DIR "/ok", KPCA_OK, NULL, NULL);
    assert_int_equal(cu->cuda_major, 12);
    assert_string_equal(cu->cublas_path, GPU_FAKE_DIR "/cuda12/libcublas.so.12");
    kpca_cuda_close(cu);
    /* a folder without the libraries is passed over */
    cu = open_expect(GPU_FAKE_DIR "/driver", GPU_FAKE_DIR "/ok", KPCA_OK, NULL, NULL);
    assert_string_equal(cu->driver_path, GPU_FAKE_DIR "/driver/libcuda.so.1");
    assert_string_equal(cu->cublas_path, GPU_FAKE_DIR "/ok/libcublas.so.13");
    kpca_cuda_close(cu);
    kpca_cuda_close(NULL);
}

/* the toolkit's real cuBLAS 13 and cuSOLVER 12 with the stand-in driver:
 * every symbol kpca declares is there, and the versions read */
static void test_real_libraries(void **state)
{
    (void)state;
    if (access(TOOLKIT "/libcusolver.so.12", R_OK) != 0 || access(TOOLKIT "/libcublas.so.13", R_OK) != 0) {
        print_message("no CUDA 13 toolkit in " TOOLKIT ": the real libraries not tried\n");
        return;
    }
    /* make valgrind: ld.so's strncmp reads past the $ORIGIN of NVIDIA's
     * run paths in whole words, which memcheck reports (not kpca's) */
    const char *preload = getenv("LD_PRELOAD");
    if (preload != NULL && strstr(preload, "vgpreload") != NULL) {
        print_message("under valgrind: the real libraries not tried\n");
        return;
    }
    kpca_cuda *cu = open_expect(GPU_FAKE_DIR "/driver", TOOLKIT, KPCA_OK, NULL, NULL);
    assert_int_equal(cu->cuda_major, 13);
    assert_int_equal(cu->cusolver_version[0], 12);
    assert_true(cu->cublas_version >= 130000); /* cublasGetVersion_v2 needs no handle */
    assert_non_null(strstr(cu->cusolver_path, "libcusolver.so.12"));
    kpca_cuda_close(cu);
}

static void test_default_paths(void **state)
{
    (void)state;
    kpca_cuda_paths p;
    setenv("KPCA_CUDA_PATH", "/opt/over", 1);
    setenv("CUDA_HOME", "/opt/cudahome", 1);
    kpca_cuda_default_paths(&p);
    assert_true(p.ndirs >= 3);
    assert_string_equal(p.dirs[0], "/opt/over");
    assert_int_equal(p.use_default, 1);
    assert_int_equal(p.default_after, 1);
    assert_string_equal(p.dirs[1], "/opt/cudahome/lib64");
    assert_string_equal(p.dirs[2], "/usr/local/cuda/lib64");
    for (size_t i = 0; i < p.ndirs; i++)
        assert_null(strstr(p.dirs[i], "/stubs"));
    /* the override is kept even when it names stubs (to be refused then);
     * CUDA_HOME is not the place of a stub */
    setenv("KPCA_CUDA_PATH", "/usr/local/cuda/lib64/stubs", 1);
    setenv("CUDA_HOME", "/usr/local/cuda/lib64/stubs", 1);
    kpca_cuda_default_paths(&p);
    assert_string_equal(p.dirs[0], "/usr/local/cuda/lib64/stubs");
    assert_string_equal(p.dirs[1], "/usr/local/cuda/lib64");
    unsetenv("KPCA_CUDA_PATH");
    unsetenv("CUDA_HOME");
    kpca_cuda_default_paths(&p);
    assert_int_equal(p.default_after, 0);
    assert_string_equal(p.dirs[0], "/usr/local/cuda/lib64");
}

static kpca_status open_ok(kpca_error *err)
{
    kpca_cuda_paths p;
    set_dirs(&p, GPU_FAKE_DIR "/ok", NULL);
    kpca_cuda *cu = NULL;
    kpca_status st = kpca_cuda_open(&p, &cu, err);
    kpca_cuda_close(cu);
    return st;
}

static kpca_status open_default(kpca_error *err)
{
    setenv("KPCA_CUDA_PATH", GPU_FAKE_DIR "/ok", 1);
    kpca_cuda *cu = NULL;
    kpca_status st = kpca_cuda_open(NULL, &cu, err);
    kpca_cuda_close(cu);
    unsetenv("KPCA_CUDA_PATH");
    return st;
}

static void test_alloc_failures(void **state)
{
    (void)state;
    assert_true(tu_fail_loop("kpca_cuda_open", open_ok, 1) >= 1);
    assert_true(tu_fail_loop("kpca_cuda_open (default paths)", open_default, 1) >= 2);
}

int main(void)
{
    /* the real libraries first: the libraries stay loaded (RTLD_NODELETE),
     * and the real cuSOLVER's versioned references to libcublas.so.13 fail
     * an assertion of ld.so once a stand-in of that soname is loaded too
     * (a mix no real process has) */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_libraries), cmocka_unit_test(test_no_driver),
        cmocka_unit_test(test_stub_driver),    cmocka_unit_test(test_no_gpu),
        cmocka_unit_test(test_no_library),     cmocka_unit_test(test_missing_symbol),
        cmocka_unit_test(test_unsupported_major), cmocka_unit_test(test_found),
        cmocka_unit_test(test_default_paths),  cmocka_unit_test(test_alloc_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_featstream.c - the feature writer by blocks (io/featfile.h): blocks
 * of 1, 7 and 10^4 rows, and a file shared by parts, give the bytes of the
 * whole write, built here independently: HDF5 from the whole-dataset
 * writers (file/h5write.h) in the order kpca wrote feature files, NPY by
 * kpca_npy_write, text by printf; an error at any point leaves no file. */
#include "testutil.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io_fixture.h"
#include "lib/file/h5write.h"
#include "lib/io/featfile.h"
#include "lib/io/npy.h"
#include "lib/support/version.h"

#define K 4
static const double ev[K] = {4.0, 3.0, 2.0, 1.0};
static char *const names[3] = {"cat", "dog, big", "\"emu\""};

/* n x K awkward values (%.17g must round-trip) and labels 0..2 */
static void fixture(size_t n, double **z, int **y)
{
    uint64_t s = 11;
    *z = malloc((n ? n : 1) * K * sizeof(double));
    *y = malloc((n ? n : 1) * sizeof(int));
    assert_true(*z != NULL && *y != NULL);
    for (size_t i = 0; i < n * K; i++)
        (*z)[i] = tu_rand(&s) * pow(10.0, (double)(i % 9) - 4.0);
    for (size_t i = 0; i < n; i++)
        (*y)[i] = (int)(i % 3);
}

static kpca_features_meta meta_of(int named)
{
    kpca_features_meta m = {"m.h5", "d.txt", ev, NULL, 0, 0x1234UL, named ? names : NULL, named ? 3 : 0};
    return m;
}

/* the reference: the whole file as kpca wrote it before blocks */
static void reference(const char *path, kpca_format fmt, const double *z, size_t n, const int *y, int named)
{
    kpca_error err;
    const kpca_features_meta m = meta_of(named);
    if (fmt == KPCA_FMT_NPY) {
        assert_int_equal(kpca_npy_write(path, z, n, K, &err), KPCA_OK);
        return;
    }
    if (fmt == KPCA_FMT_HDF5) {
        kpca_h5_writer w;
        assert_int_equal(kpca_h5_writer_open(&w, path, &err), KPCA_OK);
        size_t dz[2] = {n, K}, dk[2] = {K, 0};
        kpca_status st = kpca_h5_attr_write_string(w.file, path, "format", KPCA_FEATURES_FORMAT, &err);
        if (st == KPCA_OK) st = kpca_h5_attr_write_string(w.file, path, "kpca_version", KPCA_VERSION, &err);
        if (st == KPCA_OK) st = kpca_h5_attr_write_string(w.file, path, "model", m.model, &err);
        if (st == KPCA_OK) st = kpca_h5_attr_write_long(w.file, path, "model_id", (long)m.model_id, &err);
        if (st == KPCA_OK) st = kpca_h5_attr_write_string(w.file, path, "source", m.source, &err);
        if (st == KPCA_OK) st = kpca_h5_write_doubles(w.file, path, "data", dz, z, &err);
        if (st == KPCA_OK && y) st = kpca_h5_write_ints(w.file, path, "target", n, y, &err);
        if (st == KPCA_OK && y && named) st = kpca_h5_write_strings(w.file, path, "class_names", 3, (const char *const *)names, &err);
        if (st == KPCA_OK) st = kpca_h5_write_doubles(w.file, path, "eigenvalues", dk, ev, &err);
        assert_int_equal(kpca_h5_writer_close(&w, st, &err), KPCA_OK);
        return;
    }
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    if (fmt == KPCA_FMT_CSV) {
        fputs(y ? "label" : "", f);
        for (int c = 0; c < K; c++)
            fprintf(f, "%sz%d", !y && c == 0 ? "" : ",", c + 1);
        fputc('\n', f);
    }
    static const char *const quoted[3] = {"cat", "\"dog, big\"", "\"\"\"emu\"\"\""};
    for (size_t i = 0; i < n; i++) {
        if (y && named && fmt == KPCA_FMT_CSV)
            fputs(quoted[y[i]], f);
        else if (y)
            fprintf(f, "%d", y[i]);
        for (int c = 0; c < K; c++)
            if (fmt == KPCA_FMT_CSV)
                fprintf(f, "%s%.17g", !y && c == 0 ? "" : ",", z[i * K + c]);
            else
                fprintf(f, " %d:%.17g", c + 1, z[i * K + c]);
        fputc('\n', f);
    }
    assert_int_equal(fclose(f), 0);
}

static void assert_same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    assert_true(fa != NULL && fb != NULL);
    long at = 0;
    for (;; at++) {
        int ca = fgetc(fa), cb = fgetc(fb);
        if (ca != cb)
            fail_msg("%s and %s differ at byte %ld", a, b, at);
        if (ca == EOF)
            break;
    }
    fclose(fa);
    fclose(fb);
}

/* the temporary files (".fs-NAME.tmp.XXXXXX") of this test's outputs in
 * tests/out: fails on one (remove: removes them instead, those of an
 * earlier run that failed) */
static void scan_tmp(int remove)
{
    DIR *d = opendir(TEST_OUT);
    assert_non_null(d);
    struct dirent *e;
    char path[512];
    while ((e = readdir(d)) != NULL)
        if (strncmp(e->d_name, ".fs-", 4) == 0 && strstr(e->d_name, ".tmp.") != NULL) {
            if (!remove)
                fail_msg("temporary file left: %s", e->d_name);
            snprintf(path, sizeof path, TEST_OUT "/%s", e->d_name);
            unlink(path);
        }
    closedir(d);
}

static void assert_no_tmp(void)
{
    scan_tmp(0);
}

static const kpca_format fmts[4] = {KPCA_FMT_HDF5, KPCA_FMT_NPY, KPCA_FMT_CSV, KPCA_FMT_LIBSVM};
static const char *const sfx[4] = {"h5", "npy", "csv", "svm"};

/* rows put `block` at a time (0: 1, 7, 1, 7, ... mixed) */
static kpca_status put_all(kpca_features_writer *w, const double *z, const int *y, size_t from, size_t to,
                           size_t block, kpca_error *err)
{
    kpca_status st = KPCA_OK;
    for (size_t i = from, t = 0; i < to && st == KPCA_OK; t++) {
        size_t b = block ? block : (t % 2 ? 7 : 1);
        b = to - i < b ? to - i : b;
        st = kpca_features_put(w, z + i * K, y ? y + i : NULL, b, err);
        i += b;
    }
    return st;
}

static void test_blocks_are_the_whole_write(void **state)
{
    (void)state;
    /* 2500 rows: 80 KB of values, past HDF5's 64 KiB sieve buffer; 5 rows
     * inside it; none */
    const size_t sizes[3] = {2500, 5, 0}, blocks[4] = {1, 7, 10000, 0};
    for (int f = 0; f < 4; f++)
        for (int s = 0; s < 3; s++)
            for (int lab = 0; lab < 3; lab++) { /* unlabelled, labelled, named */
                if (!lab && fmts[f] == KPCA_FMT_LIBSVM)
                    continue;
                size_t n = sizes[s];
                double *z;
                int *y;
                fixture(n, &z, &y);
                const int *yy = lab ? y : NULL;
                char ref[128], got[128];
                snprintf(ref, sizeof ref, OUT "fs-ref.%s", sfx[f]);
                reference(ref, fmts[f], z, n, fmts[f] == KPCA_FMT_NPY ? NULL : yy, lab == 2);
                for (int b = 0; b < 4; b++) {
                    kpca_error err;
                    kpca_features_writer *w;
                    const kpca_features_meta m = meta_of(lab == 2);
                    snprintf(got, sizeof got, OUT "fs-got.%s", sfx[f]);
                    assert_int_equal(kpca_features_open(got, fmts[f], n, K, lab != 0, &m, &w, &err), KPCA_OK);
                    assert_int_equal(put_all(w, z, yy, 0, n, blocks[b], &err), KPCA_OK);
                    assert_int_equal(kpca_features_commit(w, &err), KPCA_OK);
                    assert_same_file(ref, got);
                }
                /* the one-block case */
                const kpca_features_meta m = meta_of(lab == 2);
                kpca_error err;
                assert_int_equal(kpca_features_write(got, fmts[f], z, n, K, yy, &m, &err), KPCA_OK);
                assert_same_file(ref, got);
                free(z);
                free(y);
            }
    assert_no_tmp();
}

/* an HDF5 file to standard output is built in memory: the same bytes */
static void test_hdf5_to_stdout(void **state)
{
    (void)state;
    const size_t n = 1500;
    double *z;
    int *y;
    fixture(n, &z, &y);
    reference(OUT "fs-ref.h5", KPCA_FMT_HDF5, z, n, y, 1);
    fflush(stdout);
    int saved = dup(STDOUT_FILENO), fd = open(OUT "fs-stdout.h5", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(saved >= 0 && fd >= 0);
    assert_true(dup2(fd, STDOUT_FILENO) >= 0);
    close(fd);
    kpca_error err;
    kpca_features_writer *w;
    const kpca_features_meta m = meta_of(1);
    kpca_status st = kpca_features_open("-", KPCA_FMT_HDF5, n, K, 1, &m, &w, &err);
    if (st == KPCA_OK && (st = put_all(w, z, y, 0, n, 7, &err)) == KPCA_OK)
        st = kpca_features_commit(w, &err);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    assert_int_equal(st, KPCA_OK);
    assert_same_file(OUT "fs-ref.h5", OUT "fs-stdout.h5");
    free(z);
    free(y);
}

/* more rows than announced, fewer at commit, an abort half way: no file */
static void test_no_partial_file(void **state)
{
    (void)state;
    const size_t n = 2500;
    double *z;
    int *y;
    fixture(n, &z, &y);
    for (int f = 0; f < 4; f++) {
        char path[128];
        snprintf(path, sizeof path, OUT "fs-none.%s", sfx[f]);
        unlink(path);
        const kpca_features_meta m = meta_of(0);
        kpca_error err;
        kpca_features_writer *w;
        assert_int_equal(kpca_features_open(path, fmts[f], n, K, 1, &m, &w, &err), KPCA_OK);
        assert_int_equal(put_all(w, z, y, 0, n - 1, 1000, &err), KPCA_OK);
        assert_int_equal(kpca_features_put(w, z, y, 2, &err), KPCA_EINTERNAL);
        assert_int_equal(kpca_features_commit(w, &err), KPCA_EINTERNAL); /* a row short */
        assert_int_equal(access(path, F_OK), -1);
        assert_int_equal(kpca_features_open(path, fmts[f], n, K, 1, &m, &w, &err), KPCA_OK);
        assert_int_equal(put_all(w, z, y, 0, 1200, 7, &err), KPCA_OK);
        kpca_features_abort(w);
        assert_int_equal(access(path, F_OK), -1);
    }
    /* a CSV label that its class names do not name */
    const kpca_features_meta m = meta_of(1);
    kpca_error err;
    kpca_features_writer *w;
    y[1300] = 3;
    assert_int_equal(kpca_features_open(OUT "fs-none.csv", KPCA_FMT_CSV, n, K, 1, &m, &w, &err), KPCA_OK);
    assert_int_equal(put_all(w, z, y, 0, n, 1000, &err), KPCA_EINTERNAL);
    assert_non_null(strstr(err.msg, "point 1301"));
    kpca_features_abort(w);
    assert_int_equal(access(OUT "fs-none.csv", F_OK), -1);
    /* LIBSVM without labels: refused before any file */
    assert_int_equal(kpca_features_open(OUT "fs-none.svm", KPCA_FMT_LIBSVM, n, K, 0, NULL, &w, &err), KPCA_EUSAGE);
    assert_int_equal(access(OUT "fs-none.svm", F_OK), -1);
    assert_no_tmp();
    free(z);
    free(y);
}

/* three "processes" (here one after the other), rows 0-999, 1000-1023 and
 * 1024-2499: the file of one writer; a failed part takes the file away */
static void test_parts(void **state)
{
    (void)state;
    const size_t n = 2500, cut[4] = {0, 1000, 1024, 2500};
    double *z;
    int *y;
    fixture(n, &z, &y);
    for (int f = 0; f < 4; f++)
        for (int fail_part = -1; fail_part < 3; fail_part += 3) {
            char ref[128], got[128];
            snprintf(ref, sizeof ref, OUT "fs-ref.%s", sfx[f]);
            snprintf(got, sizeof got, OUT "fs-parts.%s", sfx[f]);
            unlink(got);
            reference(ref, fmts[f], z, n, fmts[f] == KPCA_FMT_NPY ? NULL : y, 1);
            const kpca_features_meta m = meta_of(1);
            kpca_error err;
            kpca_features_writer *w[3];
            kpca_features_layout lay;
            assert_int_equal(kpca_features_open(got, fmts[f], n, K, 1, &m, &w[0], &err), KPCA_OK);
            assert_int_equal(kpca_features_share(w[0], cut[1], &lay, &err), KPCA_OK);
            for (int p = 1; p < 3; p++)
                assert_int_equal(kpca_features_open_part(&lay, got, cut[p], cut[p + 1] - cut[p], &m, &w[p], &err),
                                 KPCA_OK);
            for (int p = 2; p >= 0; p--) /* in any order */
                assert_int_equal(put_all(w[p], z, y, cut[p], cut[p + 1], 7, &err), KPCA_OK);
            unsigned long long bytes[3], at = 0;
            for (int p = 0; p < 3; p++)
                assert_int_equal(kpca_features_bytes(w[p], &bytes[p], &err), KPCA_OK);
            if (fail_part == 2) { /* the last part fails: all go */
                kpca_features_abort(w[2]);
                assert_int_equal(kpca_features_place(w[1], bytes[0], &err), KPCA_OK);
                kpca_features_abort(w[0]);
                assert_int_equal(access(got, F_OK), -1);
                continue;
            }
            for (int p = 1; p < 3; p++) {
                at += bytes[p - 1];
                assert_int_equal(kpca_features_place(w[p], at, &err), KPCA_OK);
            }
            assert_int_equal(kpca_features_commit(w[0], &err), KPCA_OK);
            assert_same_file(ref, got);
        }
    assert_no_tmp();
    /* a device is no file to share */
    kpca_features_writer *w;
    kpca_features_layout lay;
    kpca_error err;
    assert_int_equal(kpca_features_open("/dev/null", KPCA_FMT_NPY, 0, K, 0, NULL, &w, &err), KPCA_OK);
    assert_int_equal(kpca_features_share(w, 0, &lay, &err), KPCA_EUSAGE);
    kpca_features_abort(w);
    free(z);
    free(y);
}

/* every allocation failure: out of memory, no file, no HDF5 object open */
static double *g_z;
static int *g_y;
#define ALLOC_N 1100

static kpca_status alloc_blocks(kpca_error *err)
{
    static const kpca_format f[2] = {KPCA_FMT_HDF5, KPCA_FMT_CSV};
    static const char *const path[2] = {OUT "fs-alloc.h5", OUT "fs-alloc.csv"};
    const kpca_features_meta m = meta_of(1);
    kpca_status st = KPCA_OK;
    for (int i = 0; i < 2 && st == KPCA_OK; i++) {
        kpca_features_writer *w;
        if ((st = kpca_features_open(path[i], f[i], ALLOC_N, K, 1, &m, &w, err)) != KPCA_OK)
            break;
        if ((st = put_all(w, g_z, g_y, 0, ALLOC_N, 7, err)) != KPCA_OK)
            kpca_features_abort(w);
        else
            st = kpca_features_commit(w, err);
    }
    return st;
}

static kpca_status alloc_parts(kpca_error *err)
{
    static const kpca_format f[2] = {KPCA_FMT_HDF5, KPCA_FMT_CSV};
    static const char *const path[2] = {OUT "fs-allocp.h5", OUT "fs-allocp.csv"};
    const size_t cut[3] = {0, 1024, ALLOC_N};
    const kpca_features_meta m = meta_of(1);
    kpca_status st = KPCA_OK;
    for (int i = 0; i < 2 && st == KPCA_OK; i++) {
        kpca_features_writer *w0 = NULL, *w1 = NULL;
        kpca_features_layout lay;
        unsigned long long b0 = 0, b1 = 0;
        if ((st = kpca_features_open(path[i], f[i], ALLOC_N, K, 1, &m, &w0, err)) != KPCA_OK)
            break;
        st = kpca_features_share(w0, cut[1], &lay, err);
        if (st == KPCA_OK)
            st = kpca_features_open_part(&lay, path[i], cut[1], cut[2] - cut[1], &m, &w1, err);
        if (st == KPCA_OK)
            st = put_all(w0, g_z, g_y, 0, cut[1], 7, err);
        if (st == KPCA_OK)
            st = put_all(w1, g_z, g_y, cut[1], cut[2], 7, err);
        if (st == KPCA_OK)
            st = kpca_features_bytes(w0, &b0, err);
        if (st == KPCA_OK)
            st = kpca_features_bytes(w1, &b1, err);
        if (st == KPCA_OK) {
            st = kpca_features_place(w1, b0, err); /* frees w1, whatever happens */
            w1 = NULL;
        }
        kpca_features_abort(w1);
        if (st == KPCA_OK)
            st = kpca_features_commit(w0, err);
        else
            kpca_features_abort(w0);
    }
    return st;
}

static void test_every_allocation_failure(void **state)
{
    (void)state;
    fixture(ALLOC_N, &g_z, &g_y);
    assert_true(tu_fail_loop("the writer by blocks", alloc_blocks, 1) > 0);
    assert_true(tu_fail_loop("the writer by parts", alloc_parts, 1) > 0);
    free(g_z);
    free(g_y);
}

int main(void)
{
    ensure_out();
    scan_tmp(1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocks_are_the_whole_write),
        cmocka_unit_test(test_hdf5_to_stdout),
        cmocka_unit_test(test_no_partial_file),
        cmocka_unit_test(test_parts),
        cmocka_unit_test(test_every_allocation_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

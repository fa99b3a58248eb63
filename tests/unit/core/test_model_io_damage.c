/* test_model_io_damage.c - the model file (docs/file-formats.md): a saved
 * model loads back field for field, and damaged or truncated files of any
 * kind are refused with the check that fired, no temporary left behind. */
#include "testutil.h"

#include "lib/file/h5util.h"

#include <dirent.h>
#include <hdf5.h>
#include <lapacke.h>
#include <sys/stat.h>

#include "model_fixture.h"

static void test_save_load_roundtrip(void **state)
{
    (void)state;
    data();
    kpca_model md, back;
    fit(&g_fit, 2, 0, KPCA_EIG_AUTO, &md, NULL);
    snprintf(md.source, sizeof md.source, "zip.train.gz rows 1-%d", MFIT);
    save_model(&md);
    save_model(&md); /* replacing an existing file works too */
    assert_int_equal(tu_temp_files_left(), 0);
    kpca_error err;
    kpca_status st = kpca_model_load(model_path, &back, &err);
    if (st != KPCA_OK)
        fail_msg("load: %s", err.msg);
    assert_models_identical(&md, &back);

    const size_t n = 300, k = md.k;
    double *z1 = malloc(n * k * sizeof *z1), *z2 = malloc(n * k * sizeof *z2);
    assert_true(z1 && z2);
    assert_int_equal(kpca_model_transform(&md, g_new.x, n, 256, k, z1, &err), KPCA_OK);
    assert_int_equal(kpca_model_transform(&back, g_new.x, n, 256, k, z2, &err), KPCA_OK);
    assert_memory_equal(z1, z2, n * k * sizeof *z1);
    free(z1);
    free(z2);
    kpca_model_free(&back);

    /* an invalid model is not written */
    double saved = md.eigval[0];
    md.eigval[0] = -1.0;
    assert_int_equal(kpca_model_save(&md, TEST_OUT "/model_bad.h5", &err), KPCA_EFORMAT);
    struct stat sb;
    assert_int_not_equal(stat(TEST_OUT "/model_bad.h5", &sb), 0);
    md.eigval[0] = saved;
    /* nor one into a missing directory */
    assert_int_equal(kpca_model_save(&md, TEST_OUT "/no/such/dir/m.h5", &err), KPCA_EIO);
    assert_int_equal(tu_temp_files_left(), 0);
    kpca_model_free(&md);

    /* every kernel survives the file with its own parameters */
    const kpca_kernel ks[] = {kpca_kernel_rbf(7.25), kpca_kernel_sigmoid(0.01, -0.5), kpca_kernel_linear()};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        kpca_fit_params p = kpca_fit_defaults(1);
        p.kernel = ks[i];
        p.components = 12;
        assert_int_equal(kpca_model_fit(&g_fit, &p, &md, NULL, &err), KPCA_OK);
        save_model(&md);
        st = kpca_model_load(model_path, &back, &err);
        if (st != KPCA_OK)
            fail_msg("load %s: %s", kpca_kernel_name(ks[i].type), err.msg);
        assert_models_identical(&md, &back);
        kpca_model_free(&back);
        kpca_model_free(&md);
    }
}

/* Loading path fails with code, and the message is the one of the check
 * expected to fire (it contains `fired`): a test of the loader's own checks
 * must not pass because the seal stopped the file first. */
static void expect_load_fails(const char *path, kpca_status code, const char *fired, const char *what)
{
    kpca_model md;
    kpca_error err;
    kpca_error_clear(&err);
    kpca_status st = kpca_model_load(path, &md, &err);
    if (st != code)
        fail_msg("%s: load gave %d (%s), expected %d", what, (int)st, err.msg, (int)code);
    assert_true(err.msg[0] != '\0');
    assert_non_null(strstr(err.msg, path));
    if (strstr(err.msg, fired) == NULL)
        fail_msg("%s: the wrong check fired: '%s', expected one saying '%s'", what, err.msg, fired);
    assert_null(md.alpha);
    assert_null(md.fitx);
    assert_int_equal(md.k, 0);
}

/* File offset of a contiguous dataset's raw data. */
static haddr_t dataset_offset(const char *path, const char *name, size_t *bytes)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    assert_true(d >= 0);
    haddr_t off = H5Dget_offset(d);
    *bytes = (size_t)H5Dget_storage_size(d);
    H5Dclose(d);
    H5Fclose(f);
    assert_true(off != HADDR_UNDEF);
    return off;
}

static void test_damaged_model_files(void **state)
{
    (void)state;
    data();
    kpca_model md;
    fit(&g_fit, 2, 0, KPCA_EIG_AUTO, &md, NULL);
    save_model(&md);
    kpca_model_free(&md);
    size_t len;
    unsigned char *buf = tu_slurp(model_path, &len);
    const char *bad = TEST_OUT "/model_damaged.h5";

    /* truncated copies */
    const size_t cuts[] = {0, 100, 2048, len / 2, len - 8, len - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        tu_write_bytes(bad, buf, cuts[i]);
        char what[64];
        snprintf(what, sizeof what, "truncated to %zu of %zu bytes", cuts[i], len);
        expect_load_fails(bad, KPCA_EFORMAT, cuts[i] < KPCA_H5_SEAL_SIZE ? "no kpca seal" : "where its seal says",
                          what);
    }

    /* one byte flipped in the middle of each array, and of the file */
    const char *arrays[] = {"alpha", "fit_x", "eigenvalues", "colmean", "fit_y"};
    for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++) {
        size_t bytes;
        haddr_t off = dataset_offset(model_path, arrays[a], &bytes);
        assert_true(off + bytes <= len);
        const size_t spots[] = {off + bytes / 2, off, off + bytes - 1};
        for (size_t s = 0; s < 3; s++) {
            unsigned char *copy = malloc(len + 1);
            assert_non_null(copy);
            memcpy(copy, buf, len);
            copy[spots[s]] ^= 0x01; /* the smallest change: one low bit */
            tu_write_bytes(bad, copy, len);
            free(copy);
            char what[96];
            snprintf(what, sizeof what, "bit flipped in '%s' at byte %zu", arrays[a], spots[s]);
            expect_load_fails(bad, KPCA_EFORMAT, "checksum mismatch (kpca seal)", what);
            /* sealed again: the model's own checksum of its arrays */
            tu_reseal(bad);
            snprintf(what, sizeof what, "bit flipped in '%s' at byte %zu, sealed again", arrays[a], spots[s]);
            expect_load_fails(bad, KPCA_EFORMAT, "checksum mismatch: the file is damaged", what);
        }
    }
    {
        unsigned char *copy = malloc(len + 1);
        assert_non_null(copy);
        memcpy(copy, buf, len);
        copy[len / 2] ^= 0xff;
        tu_write_bytes(bad, copy, len);
        free(copy);
        expect_load_fails(bad, KPCA_EFORMAT, "checksum mismatch (kpca seal)", "byte flipped in the middle of the file");
    }
    {
        unsigned char *copy = malloc(len + 1);
        assert_non_null(copy);
        memcpy(copy, buf, len);
        assert_true(len > 8);
        copy[1] ^= 0xff; /* the seal's signature */
        tu_write_bytes(bad, copy, len);
        expect_load_fails(bad, KPCA_EFORMAT, "no kpca seal", "damaged seal signature");
        copy[1] ^= 0xff;
        copy[KPCA_H5_SEAL_SIZE + 1] ^= 0xff; /* the HDF5 signature, after the user block */
        tu_write_bytes(bad, copy, len);
        free(copy);
        tu_reseal(bad);
        expect_load_fails(bad, KPCA_EFORMAT, "not an HDF5 file", "damaged HDF5 signature, sealed again");
    }
    free(buf);

    /* attributes altered through HDF5 itself (valid HDF5, wrong content) */
    struct {
        const char *name;
        double v;
    } alters[] = {{"trace", 1.0}, {"grandmean", 0.5}, {"gamma", 2.0}};
    for (size_t i = 0; i < sizeof alters / sizeof alters[0]; i++) {
        tu_write_bytes(bad, NULL, 0);
        size_t l2;
        unsigned char *b2 = tu_slurp(model_path, &l2);
        tu_write_bytes(bad, b2, l2);
        free(b2);
        hid_t f = H5Fopen(bad, H5F_ACC_RDWR, H5P_DEFAULT);
        assert_true(f >= 0);
        hid_t at = H5Aopen(f, alters[i].name, H5P_DEFAULT);
        assert_true(at >= 0);
        assert_true(H5Awrite(at, H5T_NATIVE_DOUBLE, &alters[i].v) >= 0);
        H5Aclose(at);
        H5Fclose(f);
        char what[64];
        snprintf(what, sizeof what, "attribute '%s' altered", alters[i].name);
        expect_load_fails(bad, KPCA_EFORMAT, "checksum mismatch (kpca seal)", what);
        tu_reseal(bad);
        snprintf(what, sizeof what, "attribute '%s' altered, sealed again", alters[i].name);
        expect_load_fails(bad, KPCA_EFORMAT, "checksum mismatch: the file is damaged", what);
    }
    {
        size_t l2;
        unsigned char *b2 = tu_slurp(model_path, &l2);
        tu_write_bytes(bad, b2, l2);
        free(b2);
        hid_t f = H5Fopen(bad, H5F_ACC_RDWR, H5P_DEFAULT);
        assert_true(f >= 0);
        hid_t at = H5Aopen(f, "version", H5P_DEFAULT);
        assert_true(at >= 0);
        long long v = KPCA_MODEL_VERSION + 1;
        assert_true(H5Awrite(at, H5T_NATIVE_LLONG, &v) >= 0);
        H5Aclose(at);
        H5Fclose(f);
        tu_reseal(bad);
        expect_load_fails(bad, KPCA_EFORMAT, "is not supported", "future version");
    }

    /* HDF5 files that are not models */
    expect_load_fails("data/usps.h5", KPCA_EFORMAT, "no kpca seal", "usps.h5");
    const double z[6] = {1, 2, 3, 4, 5, 6};
    const int y[3] = {0, 1, 2};
    kpca_error err;
    assert_int_equal(kpca_features_write(TEST_OUT "/features.h5", KPCA_FMT_HDF5, z, 3, 2, y, NULL, &err), KPCA_OK);
    expect_load_fails(TEST_OUT "/features.h5", KPCA_EFORMAT, "not a kpca model", "a features file");
    /* a text file, and a missing one */
    tu_write_file("not_a_model.txt", "1 2 3\n");
    expect_load_fails(TEST_OUT "/not_a_model.txt", KPCA_EFORMAT, "no kpca seal", "a text file");
    expect_load_fails(TEST_OUT "/no_such_model.h5", KPCA_EIO, "No such file", "a missing file");
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_save_load_roundtrip),
        cmocka_unit_test(test_damaged_model_files),
    };
    return cmocka_run_group_tests(tests, NULL, teardown_all);
}

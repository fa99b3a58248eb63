/* test_read.c - kpca_file_sniff and kpca_file_describe (io/read.h) on
 * each kind of file. */
#include "testutil.h"

#include <hdf5.h>
#include <unistd.h>

#include "io_fixture.h"
#include "lib/io/featfile.h"
#include "lib/io/npy.h"
#include "lib/io/read.h"

/* sniffs path, expects kind (and, when n > 0, that shape), and that the
 * description holds want */
static void expect(const char *path, kpca_file_kind kind, size_t n, size_t dim, const char *want)
{
    kpca_file_info fi;
    kpca_file_sniff(path, &fi);
    char desc[200];
    kpca_file_describe(&fi, desc, sizeof desc);
    if (fi.kind != kind)
        fail_msg("%s: kind %d, want %d (%s)", path, (int)fi.kind, (int)kind, desc);
    if (n > 0) {
        assert_true(fi.has_shape);
        assert_int_equal(fi.n, n);
        assert_int_equal(fi.dim, dim);
    }
    if (strstr(desc, want) == NULL)
        fail_msg("%s: description '%s' lacks '%s'", path, desc, want);
    assert_int_equal(kpca_file_is_data(kind), kind >= KPCA_FILE_FEATURES && kind <= KPCA_FILE_TEXT);
}

static void test_text(void **state)
{
    (void)state;
    char p[256];
    const char *esl = "1 0.5 -0.25 1\n2 0 0 0\n";
    write_text("sn.esl", esl, p, sizeof p);
    expect(p, KPCA_FILE_TEXT, 2, 3, "holds ESL text data (2 x 3)");
    write_gz("sn.esl.gz", esl, p, sizeof p);
    expect(p, KPCA_FILE_TEXT, 2, 3, "holds ESL text data (gzip, 2 x 3)");
    write_text("sn.svm", "1 1:0.5 3:1\n2 2:1\n", p, sizeof p);
    expect(p, KPCA_FILE_TEXT, 2, 3, "holds LIBSVM text data (2 x 3)");
    write_text("sn.csv", "label,a,b\n1,0.5,1\n0,2,3\n4,5,6\n", p, sizeof p);
    expect(p, KPCA_FILE_TEXT, 3, 2, "holds CSV text data (3 x 2)");
    /* text that does not read as data: the kind, without a shape */
    write_text("sn.ragged", "1 2 3\n1 2\n", p, sizeof p);
    expect(p, KPCA_FILE_TEXT, 0, 0, "holds ESL text data");
    kpca_file_info fi;
    kpca_file_sniff(p, &fi);
    assert_false(fi.has_shape);
}

static void test_empty_and_binary(void **state)
{
    (void)state;
    char p[256];
    write_text("sn.empty", "", p, sizeof p);
    expect(p, KPCA_FILE_EMPTY, 0, 0, "is empty");
    write_text("sn.blank", "\n  \n\t\n", p, sizeof p);
    expect(p, KPCA_FILE_EMPTY, 0, 0, "is empty");
    write_gz("sn.empty.gz", "", p, sizeof p);
    expect(p, KPCA_FILE_EMPTY, 0, 0, "is empty (gzip");
    FILE *f = fopen(OUT "sn.bin", "wb");
    assert_non_null(f);
    const unsigned char bytes[8] = {0x7f, 'E', 'L', 'F', 0, 1, 2, 3};
    assert_int_equal(fwrite(bytes, 1, sizeof bytes, f), sizeof bytes);
    assert_int_equal(fclose(f), 0);
    expect(OUT "sn.bin", KPCA_FILE_BINARY, 0, 0, "binary data in no format kpca reads");
}

static void test_missing_directory_unreadable(void **state)
{
    (void)state;
    unlink(OUT "sn.none");
    expect(OUT "sn.none", KPCA_FILE_MISSING, 0, 0, "does not exist");
    expect(OUT, KPCA_FILE_DIRECTORY, 0, 0, "is a directory");
    /* a link to itself cannot be opened, even by root */
    unlink(OUT "sn.loop");
    assert_int_equal(symlink("sn.loop", OUT "sn.loop"), 0);
    expect(OUT "sn.loop", KPCA_FILE_UNREADABLE, 0, 0, "cannot be read (");
}

static void test_npy(void **state)
{
    (void)state;
    const double x[6] = {1, 2, 3, 4, 5, 6};
    kpca_error err;
    assert_int_equal(kpca_npy_write(OUT "sn.npy", x, 3, 2, &err), KPCA_OK);
    expect(OUT "sn.npy", KPCA_FILE_NPY, 3, 2, "holds a NumPy array (3 x 2)");
}

/* a sealed kpca HDF5 file of 3 x 2 values at path whose `format`
 * attribute is format (NULL: KPCA_FEATURES_FORMAT) */
static void write_sealed(const char *path, const char *format)
{
    const double z[6] = {1, 2, 3, 4, 5, 6};
    const int y[3] = {0, 1, 0};
    kpca_error err;
    const kpca_features_meta meta = {"m.h5", "d.txt", NULL, format, 0, 0, NULL, 0};
    assert_int_equal(kpca_features_write(path, KPCA_FMT_HDF5, z, 3, 2, y, &meta, &err), KPCA_OK);
}

/* kpca's sealed HDF5 files are told apart by their `format` attribute */
static void test_kpca_hdf5(void **state)
{
    (void)state;
    write_sealed(OUT "sn.feat.h5", NULL);
    expect(OUT "sn.feat.h5", KPCA_FILE_FEATURES, 3, 2, "holds kpca features (3 x 2, written by kpca transform)");
    write_sealed(OUT "sn.model", KPCA_MODEL_FORMAT);
    expect(OUT "sn.model", KPCA_FILE_MODEL, 0, 0, "is a kpca model (written by kpca fit)");
    write_sealed(OUT "sn.noisy.h5", "kpca-noisy");
    expect(OUT "sn.noisy.h5", KPCA_FILE_KPCA_OTHER, 3, 2, "is a kpca file of format 'kpca-noisy' (3 x 2)");
}

/* HDF5 that kpca did not write: data at the root has a shape, other
 * contents none; a gzip of HDF5 is not HDF5 */
static void test_other_hdf5(void **state)
{
    (void)state;
    const double m[6] = {1, 2, 3, 4, 5, 6};
    hid_t f = H5Fcreate(OUT "sn.other.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(f >= 0);
    hsize_t dims[2] = {2, 3};
    hid_t sp = H5Screate_simple(2, dims, NULL);
    hid_t d = H5Dcreate2(f, "data", H5T_NATIVE_DOUBLE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, m) >= 0);
    H5Dclose(d);
    H5Sclose(sp);
    H5Fclose(f);
    expect(OUT "sn.other.h5", KPCA_FILE_HDF5, 2, 3, "holds HDF5 data (2 x 3) with no kpca seal");
    f = H5Fcreate(OUT "sn.nodata.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(f >= 0);
    H5Fclose(f);
    expect(OUT "sn.nodata.h5", KPCA_FILE_HDF5, 0, 0, "no kpca seal (not written by kpca, or its first bytes lost) and no data");
    kpca_file_info fi;
    kpca_file_sniff(OUT "sn.nodata.h5", &fi);
    assert_false(fi.damaged);
    assert_false(fi.sealed);
    /* behind a user block of zeros (a model whose seal was wiped): HDF5
     * still, though the data readers look for the signature at 0 only */
    FILE *in = fopen(OUT "sn.other.h5", "rb"), *out = fopen(OUT "sn.block.h5", "wb");
    assert_non_null(in);
    assert_non_null(out);
    for (int i = 0; i < 512; i++)
        fputc(0, out);
    int c;
    while ((c = fgetc(in)) != EOF)
        fputc(c, out);
    fclose(in);
    assert_int_equal(fclose(out), 0);
    expect(OUT "sn.block.h5", KPCA_FILE_HDF5, 0, 0, "is an HDF5 file with no kpca seal");
}

/* a sealed kpca file whose bytes no longer match its seal: damaged HDF5,
 * whatever its format said */
static void test_damaged_hdf5(void **state)
{
    (void)state;
    write_sealed(OUT "sn.bad.model", KPCA_MODEL_FORMAT);
    FILE *f = fopen(OUT "sn.bad.model", "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, 1000, SEEK_SET), 0);
    int c = fgetc(f);
    assert_int_equal(fseek(f, 1000, SEEK_SET), 0);
    fputc(c ^ 0xff, f);
    assert_int_equal(fclose(f), 0);
    expect(OUT "sn.bad.model", KPCA_FILE_HDF5, 0, 0, "is a damaged HDF5 file");
    kpca_file_info fi;
    kpca_file_sniff(OUT "sn.bad.model", &fi);
    assert_true(fi.damaged);
}

/* writes a zip's first local header with one member `name` (no data:
 * enough to be told apart) to path */
static void write_zip_head(const char *path, const char *name)
{
    unsigned char head[30 + 64] = {'P', 'K', 3, 4, 20, 0};
    size_t len = strlen(name);
    head[26] = (unsigned char)len;
    memcpy(head + 30, name, len);
    tu_write_bytes(path, head, 30 + len);
}

/* numpy.savez's archive (members NAME.npy) and other zips are named as
 * such, with what to do; the data readers' refusal says the same */
static void test_zip(void **state)
{
    (void)state;
    write_zip_head(OUT "sn.npz", "arr_0.npy");
    expect(OUT "sn.npz", KPCA_FILE_NPZ, 0, 0, "is a NumPy .npz archive (a zip of arrays)");
    expect(OUT "sn.npz", KPCA_FILE_NPZ, 0, 0, "numpy.save('x.npy', arr)");
    write_zip_head(OUT "sn.xlsx", "[Content_Types].xml");
    expect(OUT "sn.xlsx", KPCA_FILE_ZIP, 0, 0, "is a zip archive");
    expect(OUT "sn.xlsx", KPCA_FILE_ZIP, 0, 0, "save it as CSV");
    const unsigned char empty[22] = {'P', 'K', 5, 6};
    tu_write_bytes(OUT "sn.empty.zip", empty, sizeof empty);
    expect(OUT "sn.empty.zip", KPCA_FILE_ZIP, 0, 0, "is a zip archive");
    /* a name that only ends like ".npy" past the bytes given is no .npz */
    const unsigned char cut[32] = {'P', 'K', 3, 4, 20, 0, [26] = 9, [30] = 'a', 'r'};
    assert_int_equal(kpca_zip_kind(cut, sizeof cut), KPCA_FILE_ZIP);
    assert_int_equal(kpca_zip_kind((const unsigned char *)"PK\x03", 3), KPCA_FILE_BINARY);
    kpca_dataset ds;
    kpca_error err;
    assert_int_equal(kpca_dataset_read(OUT "sn.npz", NULL, &ds, &err), KPCA_EFORMAT);
    if (strstr(err.msg, "'" OUT "sn.npz' is a NumPy .npz archive") == NULL || strstr(err.msg, "numpy.save") == NULL)
        fail_msg("unclear: %s", err.msg);
    assert_int_equal(kpca_dataset_read(OUT "sn.xlsx", NULL, &ds, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "is a zip archive"));
}

int main(void)
{
    ensure_out();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_empty_and_binary),
        cmocka_unit_test(test_missing_directory_unreadable),
        cmocka_unit_test(test_npy),
        cmocka_unit_test(test_kpca_hdf5),
        cmocka_unit_test(test_other_hdf5),
        cmocka_unit_test(test_damaged_hdf5),
        cmocka_unit_test(test_zip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

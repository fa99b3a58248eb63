/* test_featfile.c - feature files (io/featfile.h) written and read back
 * through the readers. */
#include "testutil.h"

#include "io_fixture.h"

/* Feature files (kpca transform's output) read back through the readers. */
static void test_features_read_back(void **state)
{
    (void)state;
    const size_t n = 7, k = 3;
    double z[21];
    int y[7];
    uint64_t s = 5;
    for (size_t i = 0; i < n * k; i++)
        z[i] = tu_rand(&s) * pow(10.0, (double)(i % 7) - 3.0); /* awkward values: %.17g must round-trip */
    for (size_t i = 0; i < n; i++)
        y[i] = (int)i - 3;
    const double ev[3] = {3.0, 2.0, 1.0};
    const kpca_features_meta meta = {"m.h5", "d.txt", ev, NULL, 0, 0xfedcba98UL, NULL, 0};
    const char *paths[2] = {OUT "feat.h5", OUT "feat.svm"};
    const kpca_format fmts[2] = {KPCA_FMT_HDF5, KPCA_FMT_LIBSVM};
    for (int f = 0; f < 2; f++) {
        kpca_error err;
        assert_int_equal(kpca_format_from_name(paths[f]), fmts[f]);
        assert_int_equal(kpca_features_write(paths[f], fmts[f], z, n, k, y, &meta, &err), KPCA_OK);
        kpca_format got;
        assert_int_equal(kpca_detect_format(paths[f], &got, &err), KPCA_OK);
        assert_int_equal(got, fmts[f]);
        kpca_dataset ds;
        kpca_featinfo info = {-1, 1};
        kpca_status st = kpca_dataset_read_info(paths[f], NULL, &ds, &info, &err);
        if (st != KPCA_OK)
            fail_msg("%s: %s", paths[f], err.msg);
        assert_int_equal(ds.n, n);
        assert_int_equal(ds.dim, k);
        assert_memory_equal(ds.y, y, sizeof y);
        assert_memory_equal(ds.x, z, sizeof z);
        /* HDF5 features say so and name their model; text cannot */
        assert_int_equal(info.features, fmts[f] == KPCA_FMT_HDF5);
        assert_true(info.model_id == (fmts[f] == KPCA_FMT_HDF5 ? 0xfedcba98UL : 0UL));
        kpca_dataset_free(&ds);
    }
    /* another `format` (kpca denoise's pre-images) is no feature file, its
     * model_id is not looked at; a failed read leaves info zero */
    const kpca_features_meta pre = {"m.h5", "d.txt", NULL, "kpca-preimages", 'x', 0xfedcba98UL, NULL, 0};
    kpca_error e;
    assert_int_equal(kpca_features_write(OUT "pre.h5", KPCA_FMT_HDF5, z, n, k, y, &pre, &e), KPCA_OK);
    kpca_dataset ds;
    kpca_featinfo info = {-1, 1};
    assert_int_equal(kpca_dataset_read_info(OUT "pre.h5", NULL, &ds, &info, &e), KPCA_OK);
    assert_true(info.features == 0 && info.model_id == 0);
    kpca_dataset_free(&ds);
    info.features = 1;
    info.model_id = 7;
    assert_int_equal(kpca_dataset_read_info(OUT "no-such.h5", NULL, &ds, &info, &e), KPCA_EIO);
    assert_true(info.features == 0 && info.model_id == 0);
    /* CSV: a header, then label and values */
    kpca_error err;
    assert_int_equal(kpca_format_from_name(OUT "feat.csv"), KPCA_FMT_CSV);
    assert_int_equal(kpca_features_write(OUT "feat.csv", KPCA_FMT_CSV, z, n, k, y, NULL, &err), KPCA_OK);
    FILE *fp = fopen(OUT "feat.csv", "r");
    assert_non_null(fp);
    char line[1024];
    assert_non_null(fgets(line, sizeof line, fp));
    assert_string_equal(line, "label,z1,z2,z3\n");
    for (size_t i = 0; i < n; i++) {
        assert_non_null(fgets(line, sizeof line, fp));
        char *p = line, *end;
        assert_int_equal(strtol(p, &end, 10), y[i]);
        for (size_t c = 0; c < k; c++) {
            assert_true(*end == ',');
            p = end + 1;
            assert_true(strtod(p, &end) == z[i * k + c]);
        }
        assert_true(*end == '\n');
    }
    assert_null(fgets(line, sizeof line, fp));
    fclose(fp);
    /* ESL is not an output format */
    assert_int_equal(kpca_features_write(OUT "feat.txt", KPCA_FMT_ESL, z, n, k, y, NULL, &err), KPCA_EUSAGE);
}


int main(void)
{
    ensure_out();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_features_read_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

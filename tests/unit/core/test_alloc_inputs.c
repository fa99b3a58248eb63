/* test_alloc_inputs.c - allocation failure (as tests/unit/test_alloc.c, which
 * is at the size limit) in what version 4 of the model file adds: a model's
 * column names, standardisation and subset saved, loaded and copied
 * (kpca_model_copy_inputs), and the stratified draw.  For N = 0, 1, 2, ...
 * every allocation from the (N+1)th fails; each operation then succeeds or
 * returns KPCA_ENOMEM with a message, and leaves no HDF5 object open and no
 * temporary file behind; the loop ends when a run succeeds without reaching
 * the countdown.  Leaks show under `make asan`. */
#include "testutil.h"

#include <hdf5.h>
#include <sys/stat.h>

#define MODEL_PATH TEST_OUT "/alloc_inputs.h5"

static kpca_model g_model;
static int g_y[300];

static kpca_status op_save_load_copy(kpca_error *err)
{
    kpca_status st = kpca_model_save(&g_model, MODEL_PATH, err);
    kpca_model back, other;
    memset(&other, 0, sizeof other);
    if (st == KPCA_OK && (st = kpca_model_load(MODEL_PATH, &back, err)) != KPCA_OK)
        assert_null(back.alpha);
    if (st != KPCA_OK)
        return st;
    assert_string_equal(back.colnames[8], "");
    assert_memory_equal(back.std_scale, g_model.std_scale, 16 * sizeof(double));
    assert_string_equal(back.subset, g_model.subset);
    other.dim = 16;
    st = kpca_model_copy_inputs(&other, &back, err);
    if (st == KPCA_OK)
        assert_string_equal(other.colnames[3], "d");
    else
        assert_null(other.colnames);
    kpca_model_free(&other);
    kpca_model_free(&back);
    return st;
}

static kpca_status op_stratified(kpca_error *err)
{
    size_t idx[30];
    return kpca_subset_stratified(g_y, 300, 30, 5, idx, NULL, err);
}

/* every failure point covered, each at least once (these operations allocate) */
static void fail_loop(const char *name, kpca_status (*op)(kpca_error *))
{
    assert_true(tu_fail_loop(name, op, 1) >= 1);
}

static int setup(void **state)
{
    (void)state;
    kpca_dataset ds;
    tu_random_dataset(&ds, 30, 16, 3, 7);
    for (size_t i = 0; i < 300; i++)
        g_y[i] = (int)(i % 7 == 0 ? 5 : i % 3);
    kpca_fit_params p = kpca_fit_defaults(2);
    p.components = 5;
    kpca_error err;
    if (kpca_model_fit(&ds, &p, &g_model, NULL, &err) != KPCA_OK)
        return -1;
    kpca_dataset_free(&ds);
    static const char *const names[16] = {"a", "b", "c", "d", "e", "f", "g", "h", "", "j", "k", "l", "m", "n", "o", "p"};
    g_model.colnames = kpca_strings_dup((char *const *)names, 16);
    g_model.std_mean = kpca_alloc_array(16, 1, sizeof(double));
    g_model.std_scale = kpca_alloc_array(16, 1, sizeof(double));
    if (g_model.colnames == NULL || g_model.std_mean == NULL || g_model.std_scale == NULL)
        return -1;
    for (size_t j = 0; j < 16; j++) {
        g_model.std_mean[j] = 0.1 * (double)j;
        g_model.std_scale[j] = 1.0 + 0.5 * (double)j;
    }
    snprintf(g_model.subset, sizeof g_model.subset, "random 30 of 300 rows, seed 3");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    kpca_mem_fail_after(-1);
    kpca_model_free(&g_model);
    return 0;
}

static void test_save_load_copy(void **state)
{
    (void)state;
    fail_loop("save, load and copy the inputs", op_save_load_copy);
}

static void test_stratified(void **state)
{
    (void)state;
    fail_loop("stratified draw", op_stratified);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_save_load_copy),
        cmocka_unit_test(test_stratified),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

/* test_smooth.c - kpca_smooth_images against a direct 2-D truncated,
 * renormalised Gaussian convolution; constants stay constant; the blur is
 * symmetric and spreads an impulse; bad arguments refused, x untouched. */
#include "testutil.h"

#include "lib/kpca.h"

/* the reference: for each pixel, the 2-D sum over the in-image taps within
 * r = ceil(3 sigma) in both directions, divided by their total weight */
static void direct(const double *in, double *out, size_t side, double sigma)
{
    long r = (long)ceil(3.0 * sigma), s = (long)side;
    for (long i = 0; i < s; i++)
        for (long j = 0; j < s; j++) {
            double acc = 0.0, z = 0.0;
            for (long a = -r; a <= r; a++)
                for (long b = -r; b <= r; b++) {
                    if (i + a < 0 || i + a >= s || j + b < 0 || j + b >= s)
                        continue;
                    double w = exp(-(double)(a * a + b * b) / (2.0 * sigma * sigma));
                    acc += w * in[(i + a) * s + (j + b)];
                    z += w;
                }
            out[i * s + j] = acc / z;
        }
}

static void test_matches_direct(void **state)
{
    (void)state;
    const double sigmas[] = {0.3, 0.75, 1.6, 5.0};
    const size_t sides[] = {16, 5, 1};
    uint64_t seed = 42;
    for (size_t si = 0; si < sizeof sides / sizeof sides[0]; si++) {
        size_t side = sides[si], d = side * side;
        double *x = malloc(3 * d * sizeof(double)), *ref = malloc(3 * d * sizeof(double));
        assert_non_null(x);
        assert_non_null(ref);
        for (size_t g = 0; g < sizeof sigmas / sizeof sigmas[0]; g++) {
            for (size_t i = 0; i < 3 * d; i++)
                x[i] = tu_rand(&seed);
            for (size_t p = 0; p < 3; p++)
                direct(x + p * d, ref + p * d, side, sigmas[g]);
            kpca_error err;
            assert_int_equal(kpca_smooth_images(x, 3, side, sigmas[g], &err), KPCA_OK);
            for (size_t i = 0; i < 3 * d; i++)
                if (fabs(x[i] - ref[i]) > 1e-13)
                    fail_msg("side %zu, sigma %g, value %zu: %.17g, direct %.17g", side, sigmas[g], i, x[i], ref[i]);
        }
        free(x);
        free(ref);
    }
}

static void test_constant_and_impulse(void **state)
{
    (void)state;
    double x[256];
    kpca_error err;
    for (size_t i = 0; i < 256; i++)
        x[i] = -1.0;
    assert_int_equal(kpca_smooth_images(x, 1, 16, 0.75, &err), KPCA_OK);
    for (size_t i = 0; i < 256; i++)
        assert_true(fabs(x[i] + 1.0) < 1e-15);
    /* an impulse in the middle: spread symmetrically, total kept (far from
     * the border nothing is renormalised), the peak lowered */
    memset(x, 0, sizeof x);
    x[8 * 16 + 8] = 1.0;
    assert_int_equal(kpca_smooth_images(x, 1, 16, 0.75, &err), KPCA_OK);
    double sum = 0.0;
    for (size_t i = 0; i < 256; i++)
        sum += x[i];
    assert_true(fabs(sum - 1.0) < 1e-14);
    assert_true(x[8 * 16 + 8] < 1.0 && x[8 * 16 + 8] > x[8 * 16 + 9] && x[8 * 16 + 9] > 0.0);
    for (int t = 1; t <= 3; t++) {
        assert_true(fabs(x[8 * 16 + 8 + t] - x[8 * 16 + 8 - t]) < 1e-16);
        assert_true(fabs(x[(8 + t) * 16 + 8] - x[8 * 16 + 8 + t]) < 1e-16); /* rows and columns alike */
    }
    assert_true(x[8 * 16 + 12] == 0.0); /* beyond r = ceil(3 * 0.75) = 3: untouched */
    /* the 1-D weights: x[8][9] / x[8][8] = exp(-1 / (2 sigma^2)) */
    assert_true(fabs(x[8 * 16 + 9] / x[8 * 16 + 8] - exp(-1.0 / (2 * 0.75 * 0.75))) < 1e-12);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    double x[4] = {1, 2, 3, 4};
    kpca_error err;
    assert_int_equal(kpca_smooth_images(x, 1, 2, 0.0, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_smooth_images(x, 1, 2, -1.0, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_smooth_images(x, 1, 2, NAN, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_smooth_images(x, 1, 2, 1e6, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_smooth_images(x, 1, 0, 1.0, &err), KPCA_EUSAGE);
    assert_true(x[0] == 1 && x[1] == 2 && x[2] == 3 && x[3] == 4);
    assert_int_equal(kpca_image_side(256), 16);
    assert_int_equal(kpca_image_side(255), 0);
    assert_int_equal(kpca_image_side(1), 1);
    assert_int_equal(kpca_image_side(0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matches_direct),
        cmocka_unit_test(test_constant_and_impulse),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

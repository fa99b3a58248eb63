/* toydata - the seeded toy data sets of the paper's Figures 3-5, and plotting
 * grids, as ESL text ("label x y" per line) on standard output.
 *
 *   toydata parabola N SEED     N points, x uniform in [-1, 1], y = x^2 + xi,
 *                               xi normal with standard deviation 0.2 (Fig. 3);
 *                               label 0
 *   toydata clusters N SEED     three Gaussian clusters of N points each,
 *                               standard deviation 0.1 on each coordinate,
 *                               centres (-0.5, -0.2), (0, 0.6), (0.5, 0) (the
 *                               centres of the authors' own kpca_toy.m; the
 *                               paper does not state them) (Figs. 4, 5);
 *                               label = cluster 0, 1, 2
 *   toydata grid NX NY X0 X1 Y0 Y1
 *                               the NX x NY grid over [X0, X1] x [Y0, Y1], x
 *                               outer, y inner (gnuplot's grid order); label 0
 *
 * The numbers are the same on every machine: the library's splitmix64
 * (support/rng.h) seeded with SEED, uniforms from its top 53 bits, normals
 * by Box-Muller; values printed with 17 significant digits.  A program of
 * its own, so that awk's differing rand() (mawk, gawk) plays no part.
 * Exit 0 on success, 2 on a usage error, 1 on a write error. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/rng.h"

static uint64_t state;

/* uniform in [0, 1) */
static double uniform(void)
{
    return kpca_rng_uniform(&state);
}

/* standard normal: Box-Muller, one value per pair of uniforms */
static double normal(void)
{
    const double pi = 3.14159265358979323846;
    double u1 = 1.0 - uniform(); /* in (0, 1]: log() finite */
    double u2 = uniform();
    return sqrt(-2.0 * log(u1)) * cos(2.0 * pi * u2);
}

static int usage(const char *msg)
{
    fprintf(stderr, "toydata: %s\n"
                    "usage: toydata parabola N SEED\n"
                    "       toydata clusters N SEED\n"
                    "       toydata grid NX NY X0 X1 Y0 Y1\n", msg);
    return 2;
}

/* parse_count: a whole number in [1, 10^7], else -1 */
static long parse_count(const char *s)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 1 || v > 10000000L) return -1;
    return v;
}

static int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    errno = 0;
    if (*s == '-') return -1;
    unsigned long long u = strtoull(s, &end, 10);
    if (errno || end == s || *end) return -1;
    *v = (uint64_t)u;
    return 0;
}

static int parse_real(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(*v)) return -1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) return usage("no data set named");
    const char *what = argv[1];
    if (!strcmp(what, "parabola") || !strcmp(what, "clusters")) {
        if (argc != 4) return usage("expected N and SEED");
        long n = parse_count(argv[2]);
        if (n < 0) return usage("N must be a whole number in 1..10000000");
        if (parse_u64(argv[3], &state)) return usage("SEED must be a whole number >= 0");
        if (!strcmp(what, "parabola")) {
            for (long i = 0; i < n; i++) {
                double x = 2.0 * uniform() - 1.0;
                double y = x * x + 0.2 * normal();
                printf("0 %.17g %.17g\n", x, y);
            }
        } else {
            static const double centre[3][2] = { { -0.5, -0.2 }, { 0.0, 0.6 }, { 0.5, 0.0 } };
            for (int c = 0; c < 3; c++)
                for (long i = 0; i < n; i++) {
                    double x = centre[c][0] + 0.1 * normal();
                    double y = centre[c][1] + 0.1 * normal();
                    printf("%d %.17g %.17g\n", c, x, y);
                }
        }
    } else if (!strcmp(what, "grid")) {
        if (argc != 8) return usage("expected NX NY X0 X1 Y0 Y1");
        long nx = parse_count(argv[2]), ny = parse_count(argv[3]);
        double x0, x1, y0, y1;
        if (nx < 2 || ny < 2) return usage("NX and NY must be whole numbers >= 2");
        if (parse_real(argv[4], &x0) || parse_real(argv[5], &x1) || parse_real(argv[6], &y0) ||
            parse_real(argv[7], &y1) || !(x0 < x1) || !(y0 < y1))
            return usage("X0 < X1 and Y0 < Y1 must be finite numbers");
        for (long i = 0; i < nx; i++)
            for (long j = 0; j < ny; j++)
                printf("0 %.17g %.17g\n", x0 + (x1 - x0) * (double)i / (double)(nx - 1),
                       y0 + (y1 - y0) * (double)j / (double)(ny - 1));
    } else {
        return usage("unknown data set (parabola, clusters or grid)");
    }
    if (fflush(stdout) || ferror(stdout)) {
        fprintf(stderr, "toydata: cannot write: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}

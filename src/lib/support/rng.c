#include "support/rng.h"

#include <math.h>

#define TWO_PI 6.283185307179586476925286766559

uint64_t kpca_splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

double kpca_rng_uniform(uint64_t *state)
{
    return (double)(kpca_splitmix64(state) >> 11) * 0x1.0p-53;
}

uint64_t kpca_rng_below(uint64_t *state, uint64_t bound)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    uint64_t r;
    do {
        r = kpca_splitmix64(state);
    } while (r >= limit);
    return r % bound;
}

void kpca_rng_shuffle(uint64_t *state, size_t *a, size_t n)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)kpca_rng_below(state, (uint64_t)i);
        size_t t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

void kpca_rng_normal_pair(uint64_t *state, double sd, double *z0, double *z1)
{
    double u1 = (double)((kpca_splitmix64(state) >> 11) + 1) * 0x1.0p-53;
    double u2 = kpca_rng_uniform(state);
    double r = sd * sqrt(-2.0 * log(u1));
    *z0 = r * cos(TWO_PI * u2);
    *z1 = r * sin(TWO_PI * u2);
}

/* rng.h - the library's one pseudo-random generator and what it draws.
 *
 * splitmix64 (Steele, Lea & Flood 2014): 64-bit state, the same numbers on
 * every platform, so a seed names one result everywhere (subsets, landmarks,
 * noise, the randomized solver's test matrix, cross-validation folds).
 * Every draw advances *state; nothing here allocates or fails.
 */
#ifndef KPCA_RNG_H
#define KPCA_RNG_H

#include <stddef.h>
#include <stdint.h>

/* The next 64 random bits; advances *state. */
uint64_t kpca_splitmix64(uint64_t *state);

/* Uniform in [0, 1): 53 random bits. */
double kpca_rng_uniform(uint64_t *state);

/* Uniform integer in [0, bound) (bound >= 1), without modulo bias
 * (rejection of the top UINT64_MAX % bound values). */
uint64_t kpca_rng_below(uint64_t *state, uint64_t bound);

/* Shuffles a[0..n-1] in place (Fisher-Yates): for i = n, n-1, ..., 2,
 * a[i-1] swaps with a[kpca_rng_below(state, i)], so every order is equally
 * likely and n - 1 draws (plus rare rejections) are made.  n = 0 or 1
 * leaves a and *state as they are.  O(n). */
void kpca_rng_shuffle(uint64_t *state, size_t *a, size_t n);

/* Two independent normal numbers of mean 0 and standard deviation sd
 * (Box-Muller): u1 in (0, 1] (so log(u1) is finite) and u2 in [0, 1), two
 * draws; r = sd sqrt(-2 log u1), z0 = r cos(2 pi u2), z1 = r sin(2 pi u2).
 * The same numbers on every platform with an IEEE libm. */
void kpca_rng_normal_pair(uint64_t *state, double sd, double *z0, double *z1);

#endif

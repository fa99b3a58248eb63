/* uspsgen - N rows of USPS-like digits as a float32 .npy on standard output,
 * for measurements at any number of rows (scripts/scaling.sh):
 *
 *   gzip -dc data/zip.train.gz | uspsgen N SEED >rows.npy
 *
 * reads the training digits (ESL text: a label, then 256 values in [-1, 1])
 * from standard input; row i of the output is a digit drawn uniformly,
 * shifted by dx, dy in {-2, ..., 2} pixels (the uncovered pixels filled
 * with the background -1, as scripts/shifted-usps.sh does) and given
 * Gaussian noise of standard deviation 0.1, clipped to [-1, 1]: an N x 256
 * C-order array of '<f4', no labels.  The numbers are the same on every
 * machine: the library's splitmix64 (support/rng.h) seeded with SEED,
 * normals by Box-Muller (cos, sin pairs).  Memory: the digits (7 MB), whatever N.  Exit 0, 2 on a usage or
 * input error, 1 on a write error. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/rng.h"

#define D 256

static uint64_t state;

static double uniform(void)
{
    return kpca_rng_uniform(&state);
}

/* two standard normals */
static void normals(double *a, double *b)
{
    const double pi = 3.14159265358979323846;
    double r = sqrt(-2.0 * log(1.0 - uniform())), t = 2.0 * pi * uniform();
    *a = r * cos(t);
    *b = r * sin(t);
}

static int write_rows(const float *dig, size_t m, unsigned long long n);

int main(int argc, char **argv)
{
    char *end;
    if (argc != 3) {
        fprintf(stderr, "usage: uspsgen N SEED <zip.train.txt >rows.npy\n");
        return 2;
    }
    errno = 0;
    unsigned long long n = strtoull(argv[1], &end, 10);
    if (errno || *end || argv[1][0] == '-' || n == 0) {
        fprintf(stderr, "uspsgen: N must be a positive integer, got '%s'\n", argv[1]);
        return 2;
    }
    state = strtoull(argv[2], &end, 10);
    if (*end || argv[2][0] == '-') {
        fprintf(stderr, "uspsgen: SEED must be a non-negative integer, got '%s'\n", argv[2]);
        return 2;
    }
    size_t cap = 8192, m = 0;
    float *dig = malloc(cap * D * sizeof *dig);
    char line[8192];
    while (dig != NULL && fgets(line, sizeof line, stdin) != NULL) {
        char *p = line;
        strtod(p, &end); /* the label */
        if (end == p)
            continue; /* a blank line */
        if (m == cap) {
            float *more = realloc(dig, (cap *= 2) * D * sizeof *dig);
            if (more == NULL) {
                free(dig);
                dig = NULL;
                break;
            }
            dig = more;
        }
        for (int j = 0; j < D; j++) {
            p = end;
            double v = strtod(p, &end);
            if (end == p) {
                fprintf(stderr, "uspsgen: line %zu: expected a label and %d values\n", m + 1, D);
                free(dig);
                return 2;
            }
            dig[m * D + j] = (float)v;
        }
        m++;
    }
    if (dig == NULL || m == 0) {
        fprintf(stderr, "uspsgen: %s\n", dig == NULL ? "out of memory" : "no digits on standard input");
        free(dig);
        return 2;
    }
    int status = write_rows(dig, m, n);
    free(dig);
    return status;
}

/* The header and n rows drawn from the m digits dig (D values each) to
 * standard output: 0, or 1 when it cannot be written. */
static int write_rows(const float *dig, size_t m, unsigned long long n)
{
    /* version 1.0 header, padded with blanks to 128 bytes, a newline last */
    char head[128];
    int len = snprintf(head + 10, sizeof head - 10, "{'descr': '<f4', 'fortran_order': False, 'shape': (%llu, %d), }",
                       n, D);
    memset(head + 10 + len, ' ', sizeof head - 10 - (size_t)len);
    head[127] = '\n';
    memcpy(head, "\x93NUMPY\x01\x00\x76\x00", 10);
    if (fwrite(head, 1, sizeof head, stdout) != sizeof head)
        return 1;
    float row[D];
    for (unsigned long long i = 0; i < n; i++) {
        const float *x = dig + (size_t)(uniform() * (double)m) * D;
        int dx = (int)(kpca_splitmix64(&state) % 5) - 2, dy = (int)(kpca_splitmix64(&state) % 5) - 2;
        for (int r = 0; r < 16; r++)
            for (int c = 0; c < 16; c += 2) {
                double e[2];
                normals(&e[0], &e[1]);
                for (int h = 0; h < 2; h++) {
                    int sr = r - dy, sc = c + h - dx;
                    double v = sr >= 0 && sr < 16 && sc >= 0 && sc < 16 ? x[sr * 16 + sc] : -1.0;
                    v += 0.1 * e[h];
                    row[r * 16 + c + h] = (float)(v < -1.0 ? -1.0 : v > 1.0 ? 1.0 : v);
                }
            }
        if (fwrite(row, sizeof row, 1, stdout) != 1)
            return 1;
    }
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}

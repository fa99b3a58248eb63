/* precision.h - the floating-point precision of kpca's heavy products: the
 * eigensolver of a fit, the projection GEMM of a transform, the SVMs' Gram
 * products of an evaluation.
 *
 * DOUBLE is binary64 throughout (the default everywhere).  SINGLE runs that
 * one product in binary32 (LAPACK's s-routines, sgemm) on inputs computed
 * in double and then rounded; what a command reads and writes stays double.
 * The zero value is DOUBLE, so that a zeroed struct means double. */
#ifndef KPCA_PRECISION_H
#define KPCA_PRECISION_H

typedef enum { KPCA_PRECISION_DOUBLE = 0, KPCA_PRECISION_SINGLE } kpca_precision;

/* The default of fit and eval, and its name (for help texts: the two agree,
 * a unit test checks it). */
#define KPCA_PRECISION_DEFAULT KPCA_PRECISION_DOUBLE
#define KPCA_PRECISION_DEFAULT_NAME "double"

/* "double" or "single"; "?" for a value beyond them.  Static; O(1). */
const char *kpca_precision_name(kpca_precision p);

/* 0 and *out set for "double" or "single"; -1 (and *out untouched) for
 * anything else. */
int kpca_precision_parse(const char *name, kpca_precision *out);

#endif

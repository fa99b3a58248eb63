/* model.h - kernel PCA: fit, projection, and the model file.
 *
 * Fit (Schölkopf, Smola & Müller 1998): K = k(X, X) on the m fit points,
 * centred in feature space, K~ u = mu u for the largest mu; alpha = u/sqrt(mu)
 * so that mu (alpha.alpha) = 1.  Eigenvalues mu <= tol * max(mu_1, trace of
 * the uncentred K) (and any mu <= 0) are dropped as rounding noise: the model
 * keeps k <= requested components, and none (all fit points coincide in
 * feature space) is KPCA_ENUMERIC.
 * Projection of x: z_c(x) = sum_i alpha_c[i] k~(x_i, x), the kernel row
 * centred with the fit's column means and grand mean.  Fit points project
 * to sqrt(mu_c) u_c.
 * A precomputed kernel (kernel.h) has no input space: its "points" are rows
 * of kernel values against the M points of the caller's kernel matrix GRAM
 * (dim = M), and a model point is an index into GRAM (gram_index), whose
 * column of a row is that row's kernel value with it.
 */
#ifndef KPCA_MODEL_H
#define KPCA_MODEL_H

#include <stddef.h>

#include "io/dataset.h"
#include "core/eig.h"
#include "support/error.h"
#include "support/precision.h"
#include "core/kernel.h"
#include "io/read.h" /* KPCA_MODEL_FORMAT */

#define KPCA_MODEL_VERSION 5     /* the version kpca_model_save writes (docs/file-formats.md) */
#define KPCA_MODEL_VERSION_MIN 2 /* the oldest version kpca_model_load reads */
#define KPCA_SOURCE_MAX 1024

/* How a point's kernel row is centred before it meets alpha.
 * KERNEL: the paper's k~(x_i, x) = k(x_i, x) - colmean_i - mean_j k(x_j, x)
 *         + grandmean, the m model points being the fit points.
 * NYSTROM: the m model points are landmarks and z = alpha (k_L(x) - colmean):
 *         the centring of the Nystrom features (nystrom.h) is folded into
 *         alpha and colmean; grandmean is 0. */
/* REDUCED: a reduced-set model (reduce.h): the m model points are the
 *         vectors z_j, alpha holds the coefficients beta, and
 *         z = alpha (k_Z(x) - colmean) with colmean_j = the mean of k(z_j, x_i)
 *         over the original fit points; grandmean is 0; k may exceed m. */
typedef enum { KPCA_CENTRE_KERNEL = 0, KPCA_CENTRE_NYSTROM, KPCA_CENTRE_REDUCED } kpca_centring;

#define KPCA_SOLVER_MAX 64

typedef struct {
    kpca_kernel kernel;
    kpca_centring centring;
    char solver[KPCA_SOLVER_MAX]; /* how the components were found, e.g. "exact evd",
                                   * "randomized p=10 q=2", "nystrom kmeans l=500" */
    size_t m;         /* fit points (landmarks for NYSTROM) */
    size_t fit_n;     /* points the components were fitted on: m for KERNEL,
                       * n >= m for NYSTROM (the covariance is over them);
                       * 0 = unknown, a Nystrom model from before the attribute */
    size_t dim;       /* input dimension; a precomputed kernel: M, the points of
                       * its kernel matrix GRAM (the width of every input) */
    size_t k;         /* components kept */
    double *fitx;     /* m x dim fit points (owned); NULL for a precomputed kernel */
    size_t *gram_index; /* a precomputed kernel only (NULL otherwise): model
                         * point j is point gram_index[j] of GRAM, 0-based,
                         * strictly ascending, < dim (owned) */
    int *fity;        /* m labels of the fit points (owned; provenance only) */
    double *alpha;    /* k x m: row c is alpha_c (owned) */
    double *eigval;   /* k eigenvalues mu_c of the centred K, descending (owned) */
    double *colmean;  /* m column means of the uncentred K (owned) */
    double grandmean; /* mean of colmean */
    double trace;     /* trace of the centred K: sum of all its eigenvalues */
    double input_lo, input_hi; /* range of the fit data's values */
    double smooth;    /* sigma in pixels of the Gaussian blur (smooth.h) the fit
                       * points had and every input must have before it meets
                       * the model; 0: none.  Set by the caller that smoothed
                       * the fit data (kpca_model_fit leaves it 0) */
    /* The input steps before every other (fit's --input-range, --round),
     * which every input gets as the fit data did: its values mapped from
     * [range_lo, range_hi] onto [-1, 1] when ranged, then rounded to `round`
     * decimals when rounded.  0 (both flags): no such step.  steps_unknown
     * 1: a file before version 5, which does not record them (the caller's
     * options stand).  Set by the caller that applied them (kpca_model_fit
     * leaves them 0) */
    int ranged, rounded, steps_unknown;
    double range_lo, range_hi;
    long round;
    char source[KPCA_SOURCE_MAX]; /* free-text provenance (file, subset) */
    char subset[KPCA_SOURCE_MAX]; /* how the fit rows were drawn from the file, e.g.
                                   * "random 40 of 150 rows, seed 1"; "": not
                                   * recorded (files before version 4) */
    char **colnames;  /* dim names of the fit data's columns, "" for an unnamed
                       * one (owned); NULL: the fit file named none.  Inputs
                       * with a header are read by these names */
    double *std_mean, *std_scale; /* dim each (owned): the fit data's column
                       * means and standard deviations (kpca_standardize_fit,
                       * core/standardize.h) when fit standardised it; NULL
                       * (both): not standardised.  The fit points and every
                       * input are standardised with them after the
                       * smoothing and before they meet the model (the caller
                       * does it, as for smooth); pre-images come back
                       * through kpca_unstandardize */
    /* REDUCED only (NULL / empty otherwise): */
    double *rho;      /* k residuals ||V_c - V~_c||^2 of the expansions (owned) */
    char reduction[KPCA_SOURCE_MAX]; /* how the reduced set was made */
    int version;      /* the format version of the file it was loaded from;
                       * 0: made in memory (kpca_model_save ignores it) */
    kpca_precision precision; /* of the fit's eigensolve, and the precision
                               * kpca_model_transform projects in (a caller
                               * may set it to project otherwise) */
    int no_primal;    /* 1: kpca_model_transform computes every kernel row even
                       * where the primal weights apply (kpca_model_transform_primal);
                       * 0 (as fitted or loaded): the weights where they apply.
                       * Set by the caller; not stored */
} kpca_model;

/* How the components are found (see docs/method.md, "Approximate solvers").
 * EXACT: the dense eigensolver (eig.h) on the centred M x M kernel matrix.
 * RANDOMIZED: the randomized eigensolver (randeig.h) on the same matrix.
 * NYSTROM: kernel PCA of the Nystrom approximation built on `landmarks`
 *          points; the model keeps the landmarks (centring NYSTROM). */
typedef enum { KPCA_SOLVER_EXACT = 0, KPCA_SOLVER_RANDOMIZED, KPCA_SOLVER_NYSTROM } kpca_solver;
typedef enum { KPCA_LANDMARKS_UNIFORM = 0, KPCA_LANDMARKS_KMEANS } kpca_landmark_method;

const char *kpca_solver_name(kpca_solver s);
int kpca_solver_parse(const char *name, kpca_solver *out);
const char *kpca_landmark_method_name(kpca_landmark_method m);
int kpca_landmark_method_parse(const char *name, kpca_landmark_method *out);

typedef struct {
    kpca_kernel kernel;
    kpca_solver solver;
    size_t oversample;     /* RANDOMIZED: extra sketch vectors; 0: as many as components,
                            * at least 10 (kpca_rsvd_sketch) */
    size_t power_iters;    /* RANDOMIZED: products with K~ beyond the first */
    size_t landmarks;      /* NYSTROM: landmark count l (<= fit points) */
    kpca_landmark_method landmark_method; /* NYSTROM: uniform rows or k-means centres */
    size_t kmeans_iter;    /* NYSTROM + KMEANS: Lloyd passes at most */
    uint64_t seed;         /* RANDOMIZED, NYSTROM: the random stream */
    size_t block;          /* NYSTROM: rows per block of its passes (0: kpca_nys_block_rows);
                            * the model does not depend on it beyond rounding */
    size_t components;     /* wanted; 0 means as many as the fit points allow */
    double variance;       /* in (0, 1): instead, the fewest components whose
                            * eigenvalues sum to this fraction of the trace of
                            * the centred K (needs all eigenvalues: EVD); 0: off */
    double tol;            /* relative eigenvalue tolerance; < 0: default m * DBL_EPSILON,
                            * in single precision KPCA_SINGLE_TOL_FACTOR * FLT_EPSILON of
                            * mu_1 (below) */
    kpca_eig_method eig;   /* eigensolver driver */
    int primal;            /* EXACT, single process: 1 (default) solves a kernel gamma x.y with
                            * fewer input values than fit points through the D x D covariance
                            * (primal.h: the same model); 0: always the M x M kernel matrix */
    kpca_precision precision; /* of the exact solver's eigensolve: SINGLE rounds the
                               * centred K (computed in double) to binary32 and
                               * solves it with kpca_eig_top_single; the vectors,
                               * alpha and the model stay double */
    const size_t *gram_index; /* PRECOMPUTED: the fit rows' indices among the M = fit->dim
                               * points of GRAM (fit->n of them, strictly ascending, < M;
                               * the caller's); the fit row i holds row gram_index[i] of
                               * GRAM, and K_ij = row i's column gram_index[j].  NULL: the
                               * fit rows are the whole of GRAM (fit->n == M) */
    struct kpca_cuda *cuda; /* EXACT, single process: non-NULL solves the centred K on
                             * GPU 0 with cuSOLVER (gpu/eig_gpu.h; the caller's, opened
                             * by kpca_cuda_open) in `precision` (single: a binary32
                             * copy on the GPU), past LAPACK's 46338 points too, the
                             * Gram and centring staying on the CPU, the D x D primal
                             * fit too; NULL (default): the CPU */
} kpca_fit_params;

/* The single-precision eigensolve's default tolerance: eigenvalues
 * mu <= KPCA_SINGLE_TOL_FACTOR * FLT_EPSILON * mu_1 are dropped as what
 * binary32 cannot resolve (and, as in double, those <= m * DBL_EPSILON *
 * max(mu_1, trace of the uncentred K)).  Measured on the centred USPS
 * kernel matrices (poly d = 3 and 6, M = 100, 300, 1000, 3000, every
 * eigenvalue against the double solve): |mu_single - mu_double| stays
 * below 3.2 FLT_EPSILON mu_1 whatever M and mu, and the null eigenvalue
 * of the centring comes back as up to 0.7 FLT_EPSILON mu_1; so the floor
 * does not grow with M as the double one's bound does, and 32 keeps the
 * relative error of every kept eigenvalue under about 10 %. */
#define KPCA_SINGLE_TOL_FACTOR 32

typedef struct {
    size_t requested;         /* components asked of the eigensolver */
    size_t kept;              /* components kept (eigenvalue above tolerance) */
    size_t negative;          /* of the requested, eigenvalues below -tolerance: the
                               * kernel is not positive semi-definite (sigmoid) */
    double tol;               /* tolerance used (relative to max(mu_1, trace of uncentred K);
                               * single precision's default: relative to mu_1) */
    kpca_eig_method eig_used; /* driver actually used */
    double sec_kernel, sec_center, sec_eig; /* wall-clock seconds per phase */
    double sec_signs;         /* Nystrom: the second pass over the rows, for the signs */
    double lowest;            /* a precomputed kernel: the most negative eigenvalue of the
                               * matrix whose negative part the fit drops - the centred
                               * kernel matrix of the fit points (exact, randomized), the
                               * landmarks' kernel matrix (Nystrom) - when it is below
                               * -tol * max(sum |diagonal|, |.|_F) of that matrix
                               * (kpca_eig_lowest, with the fit's tolerance);
                               * else 0 */
} kpca_fit_info;

/* Defaults of the approximate solvers (the randomized solver's: randeig.h,
 * KPCA_RSVD_OVERSAMPLE and KPCA_RSVD_POWER_ITERS) */
#define KPCA_DEFAULT_LANDMARKS 1000
#define KPCA_DEFAULT_KMEANS_ITER 20

/* Default fit parameters: the paper's kernel of the given degree, exact. */
kpca_fit_params kpca_fit_defaults(int degree);

/* Checks fit parameters before the work: every rule kpca_model_fit
 * enforces lives here.  m = 0 (the data not read yet): the rules that need
 * no data (a variance fraction in (0, 1), not with the sigmoid kernel, the
 * randomized or Nystrom solver or the EVR driver; the randomized solver needs
 * a number of components; no k-means landmarks of a precomputed kernel; the
 * parameters of a kernel without data-dependent defaults); the kernel's
 * data-dependent defaults (rbf sigma, sigmoid and laplacian gamma) are not
 * checked then.
 * m >= 2 fit points: all rules, the kernel (kpca_kernel_check), counts
 * against m and the landmarks, LAPACK's limit for a variance fraction
 * (where p->cuda is NULL: the GPU's 64-bit solver has none; the caller sets
 * cuda before this check).  KPCA_EUSAGE with a message; *param (if param is
 * not NULL) names the field at fault ("variance", "components",
 * "landmarks", "landmark_method", "solver", "eig", "device", or the kernel's "degree", "gamma", "coef0", "sigma"),
 * NULL if none. */
kpca_status kpca_fit_check(const kpca_fit_params *p, size_t m, const char **param, kpca_error *err);

/* Fits on all rows of `fit` (choose a subset with kpca_dataset_select).
 * *model is overwritten (free with kpca_model_free); info may be NULL.
 * The data must suit the kernel (kpca_kernel_check_data: KPCA_EFORMAT).
 * A precomputed kernel: fit holds the fit points' rows of GRAM (fit->n x
 * M, p->gram_index); K, the kernel matrix of the fit points among
 * themselves, must be symmetric within KPCA_PRECOMPUTED_SYMMETRY_TOL
 * (kpca_kernel_check_matrix: KPCA_EFORMAT) and is made exactly so; its
 * negative part is dropped as for any kernel, and info->lowest reports it
 * when it is clear (kpca_eig_lowest: n^3/3 flops and an n x n copy more,
 * n = the fit points, or the landmarks for Nystrom).  The distributed build
 * (kpca_model_set_exact_solver) refuses it (KPCA_EUSAGE). */
kpca_status kpca_model_fit(const kpca_dataset *fit, const kpca_fit_params *p, kpca_model *model,
                           kpca_fit_info *info, kpca_error *err);

/* The exact solver's core as a replaceable step (the distributed build,
 * src/mpi/, plugs in ScaLAPACK): from the fit points and the kernel, the
 * `want` largest eigenpairs of the centred kernel matrix.  kpca_model_fit
 * keeps everything else (tolerance, alpha = u / sqrt(mu), the model fields),
 * so a model fitted through the hook has the very same form. */
#define KPCA_EXACT_NOTE_MAX 32

typedef struct {
    /* in */
    kpca_kernel kernel;
    size_t want;         /* 1..m pairs */
    kpca_eig_method eig; /* resolved driver: EVD or EVR (kpca_eig_resolve) */
    /* out, allocated by the caller */
    double *mu;          /* want eigenvalues, descending */
    double *u;           /* want x m unit eigenvectors (rows), signed by kpca_eig_fix_sign */
    double *colmean;     /* m column means of the uncentred K */
    double grandmean;    /* mean of colmean */
    double trace;        /* trace of the centred K */
    double raw_trace;    /* sum of |K_ii| of the uncentred K */
    double sec_kernel, sec_center, sec_eig;
    char note[KPCA_EXACT_NOTE_MAX]; /* appended to the model's solver text, e.g. "scalapack 2x2" */
} kpca_exact_job;

typedef kpca_status (*kpca_exact_solver)(const kpca_dataset *fit, kpca_exact_job *job, kpca_error *err);

/* Replaces the exact solver for --solver exact with a number of components
 * (NULL: the single-process one, the default).  Process-wide; with a hook
 * set, kpca_model_fit refuses the randomized solver and a variance fraction
 * (KPCA_EUSAGE) rather than run them outside it; the Nystrom solver is no
 * exact solve and runs as without the hook, on the caller's rows (the
 * distributed build spreads it itself: kpca_nystrom_fit_rows with its
 * ranks, nystream.h). */
void kpca_model_set_exact_solver(kpca_exact_solver fn);

/* z (n x k, row-major) = the first k components of the n points x (n x dim),
 * given as the model sees them (smoothed and standardised as its fields
 * say, by the caller), in model->precision: SINGLE rounds each centred kernel block (computed in
 * double) and alpha to binary32 and multiplies them with SGEMM (the kernel
 * block and alpha then take 1.5 times their memory).
 * Where kpca_model_transform_primal(model), the kernel gamma x.y makes the
 * projection affine in x: z = (x - xbar)' W + b with the D x k primal
 * weights W = gamma (X - 1 xbar')' alpha' (every centring; X the m model
 * points, xbar their mean, subtracted from X for KERNEL centring only) and
 * b the rest (xbar' W plus alpha's products with colmean and grandmean),
 * computed once per call in double (2 m dim k flops, m dim + dim k
 * doubles); each point then costs 2 dim k flops in double, whatever
 * model->precision, in place of 2 m (dim + k).  Its features agree with
 * the kernel rows' to rounding (about 1e-13 of the largest on USPS).
 * With an exact model, a row equal bit for bit to a fit point x_j gets
 * mu alpha_j (= sqrt(mu) u_j, what K~ alpha gives in exact arithmetic;
 * the two agree to about 1e-12 relative) without its m kernel values and
 * k m multiply-adds: projecting the training set that holds the fit points
 * costs the other rows only.  Cost: O(n dim) to look the rows up, then
 * 2 (n - matches) m (dim + k) flops.
 * A precomputed kernel: each row of x holds the point's kernel values with
 * the dim = M points of GRAM, in GRAM's order; its kernel row is the columns
 * gram_index (no look-up of fit points, no kernel evaluation: 2 n m k flops).
 * Errors: KPCA_EFORMAT for dim other than the model's or data the kernel
 * refuses (kpca_kernel_check_data); KPCA_EUSAGE for k out of 1..model->k;
 * KPCA_ENOMEM; KPCA_ENUMERIC for a feature that overflows. */
kpca_status kpca_model_transform(const kpca_model *model, const double *x, size_t n, size_t dim, size_t k,
                                 double *z, kpca_error *err);

/* 1 when kpca_model_transform projects through the primal weights: a kernel
 * gamma x.y (linear, or poly of degree 1 with coef0 0) with fewer input
 * values than model points (kpca_primal_applies), any centring (exact,
 * randomized, Nystrom, reduced-set models; a smoothed model's inputs are
 * smoothed before they reach it), and model->no_primal 0; else 0. */
int kpca_model_transform_primal(const kpca_model *model);

/* Rows per block in kpca_model_transform (bounds the kernel block's memory). */
#define KPCA_TRANSFORM_BLOCK 1024

void kpca_model_free(kpca_model *model);

/* Copies what src says of its inputs (subset, colnames, std_mean and
 * std_scale, the input steps; the smoothing, range and source are plain
 * fields) into dst,
 * whose own are replaced: for a model made from another (kpca reduce).
 * dst->dim must equal src->dim.  KPCA_ENOMEM, dst's fields then unchanged. */
kpca_status kpca_model_copy_inputs(kpca_model *dst, const kpca_model *src, kpca_error *err);

/* Checks every invariant of a model (shapes, finiteness, positive descending
 * eigenvalues, valid kernel, smoothing 0 or a finite positive sigma; the
 * standardisation both or neither of std_mean and std_scale, finite means,
 * finite positive scales); `path` only names it in messages. */
kpca_status kpca_model_validate(const kpca_model *model, const char *path, kpca_error *err);

/* The HDF5 model file (docs/file-formats.md, "Model file"), written
 * atomically in version KPCA_MODEL_VERSION.  Save: KPCA_EFORMAT for a model
 * kpca_model_validate refuses, KPCA_EIO when the file cannot be written.
 * Load: versions KPCA_MODEL_VERSION_MIN..KPCA_MODEL_VERSION, each checked
 * as its version defines (seal, every shape, the checksum, then
 * kpca_model_validate); *model is overwritten (free with kpca_model_free)
 * and left empty on failure (KPCA_EFORMAT, KPCA_EIO, KPCA_ENOMEM).
 * Cost: O(m dim + k m) to hash and check the arrays. */
kpca_status kpca_model_save(const kpca_model *model, const char *path, kpca_error *err);
kpca_status kpca_model_load(const char *path, kpca_model *model, kpca_error *err);

/* The share of trace(K~) explained by components first .. first+count-1
 * (within 0..k-1): the sum of their eigenvalues (in order) over the trace,
 * signed (an indefinite kernel's trace includes negative eigenvalues); 0 for
 * a zero trace.  Every "explained" figure kpca prints comes from here:
 * (0, k) is the kept share, (0, i + 1) the cumulative one. */
double kpca_model_explained(const kpca_model *model, size_t first, size_t count);

/* The model's fingerprint: the CRC-32 of its arrays and numbers by the
 * version-2 checksum rule (docs/file-formats.md), whatever the version of
 * its file, so that a model keeps its fingerprint across format versions.
 * kpca transform records it in HDF5 features (`model_id`), so that eval can
 * refuse the features of two different models.  Cost: O(m dim + k m). */
unsigned long kpca_model_fingerprint(const kpca_model *model);

#endif

/* cmd_fit.c - kpca fit: kernel PCA on (a subset of) a data file -> model. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"
#include "cli/cmd/fit_rows.h"
#include "cli/cmds.h"
#include "cli/input.h"
#include "cli/modeldata.h"
#include "cli/opt.h"
#include "cli/prologue.h"
#include "cli/rows.h"
#include "cli/spool.h"
#include "lib/core/primal.h"

/* the seed of --sample random and stratified when --seed is not given */
#define FIT_DEFAULT_SEED 1

static struct {
    const char *kernel;
    long degree;
    double gamma, coef0, sigma, tol;
    const char *components;
    size_t subset;
    long seed;
    const char *eig, *output, *solver, *landmark_method, *precision, *sample;
    size_t oversample, landmarks;
    long power_iters, solver_seed;
    int quiet, no_primal, standardize, partial;
    const char *memory_limit, *rows, *device;
    int verbose;
    cli_input in;
} o;

static const cli_option options[] = {
    {"kernel", 0, "NAME", CLI_STRING, &o.kernel, 0, 0,
     "poly (gamma x.y + coef0)^d, rbf exp(-|x-y|^2/(2 sigma^2)), sigmoid tanh(gamma x.y + coef0), linear x.y, "
     "laplacian exp(-gamma |x-y|_1), cosine x.y/(|x| |y|), chi2 exp(-gamma sum (x-y)^2/(x+y)) (non-negative data), "
     "or precomputed: DATA is the M x M kernel matrix GRAM of the fit points (default: poly)"},
    {"degree", 'd', "D", CLI_INT, &o.degree, 1, KPCA_MAX_DEGREE, "polynomial degree, 1..20 (default: 3)"},
    {"gamma", 0, "G", CLI_DOUBLE, &o.gamma, 1e-300, 1e300,
     "poly, sigmoid, laplacian and chi2: the scale (default: 1 for poly and chi2, 1/dim for sigmoid and laplacian)"},
    {"coef0", 0, "C", CLI_DOUBLE, &o.coef0, -1e300, 1e300,
     "poly: offset >= 0 (default: 0, the paper's kernel); sigmoid: any offset (default: 1)"},
    {"sigma", 0, "S", CLI_DOUBLE, &o.sigma, 1e-300, 1e300,
     "rbf width (default: the square root of the fit points' total variance, so a typical pair has k = exp(-1))"},
    {"components", 'k', "K", CLI_STRING, &o.components, 0, 0,
     "components to keep: a count, or a fraction in (0, 1) of the centred kernel's trace to explain, "
     "e.g. 0.95 (default: all with a non-zero eigenvalue)"},
    {"subset", 'm', "M", CLI_SIZE, &o.subset, 2, 1e9,
     "fit on M rows of the data, drawn as --sample says (default: all rows, in order); precomputed: on M of GRAM's "
     "points, their rows and columns"},
    {"sample", 0, "HOW", CLI_STRING, &o.sample, 0, 0,
     "how --subset draws its M rows: stratified (at random within each label, each class in proportion by largest "
     "remainders and at least one row each when M allows), random (uniform) or first (the first M rows, in order) "
     "(default: stratified for labelled data, else random)"},
    {"seed", 's', "S", CLI_INT, &o.seed, 0, 9007199254740992.0,
     "the seed of --sample random and stratified, 1 or more (default: " CLI_STR(FIT_DEFAULT_SEED) ")"},
    {"standardize", 0, NULL, CLI_FLAG, &o.standardize, 0, 0,
     "centre each column on the fit rows' mean and divide it by their standard deviation (a constant column: by 1), "
     "after --input-range, --round and --smooth; the model records both and applies them to every input"},
    {"tol", 0, "T", CLI_DOUBLE, &o.tol, 0, 1,
     "drop eigenvalues <= T * max(largest, trace of K) (default: M * 2.2e-16; single precision: "
     CLI_STR(KPCA_SINGLE_TOL_FACTOR) " * 1.2e-7 * largest)"},
    {"eig", 0, "DRIVER", CLI_STRING, &o.eig, 0, 0, "eigensolver: auto, evd (divide and conquer), evr (dsyevr) or elpa (ELPA's two-stage solver, kpca-mpi only) (default: auto)"},
    {"solver", 0, "NAME", CLI_STRING, &o.solver, 0, 0,
     "exact (dense LAPACK on the M x M kernel, or the D x D covariance: --no-primal), randomized (Halko et al.; needs -k) or nystrom (default: exact)"},
    {"no-primal", 0, NULL, CLI_FLAG, &o.no_primal, 0, 0,
     "exact: diagonalise the M x M kernel matrix even where the D x D covariance of the points gives the same model "
     "faster (the default for linear and degree-1 kernels, coef0 0, D < M values per point, no --tol)"},
    CLI_DEVICE_OPTION(o.device, "the exact solver's eigensolve, in double or single precision (the kernel and its centring stay on the CPU)"),
    CLI_PRECISION_OPTION(o.precision, "the exact solver's eigensolve (binary32 halves its time; the kernel and its "
                                      "centring stay double, the model records it; the D x D fit of --no-primal's text is always double) (default: " KPCA_PRECISION_DEFAULT_NAME ")"),
    {"oversample", 0, "P", CLI_SIZE, &o.oversample, 1, 1e9,
     "randomized: extra sketch vectors (default: as many as --components, at least "
     CLI_STR(KPCA_RSVD_MIN_OVERSAMPLE) ")"},
    {"power-iters", 0, "Q", CLI_INT, &o.power_iters, 0, 100,
     "randomized: products with the kernel matrix beyond the first (default: " CLI_STR(KPCA_RSVD_POWER_ITERS) ")"},
    {"landmarks", 0, "L", CLI_SIZE, &o.landmarks, 2, 1e9,
     "nystrom: the number of landmarks, independent of --components (default: " CLI_STR(KPCA_DEFAULT_LANDMARKS)
     ", at most M)"},
    {"landmark-method", 0, "HOW", CLI_STRING, &o.landmark_method, 0, 0,
     "nystrom: uniform (random fit points) or kmeans (k-means centres of the fit points) (default: uniform)"},
    {"solver-seed", 0, "S", CLI_INT, &o.solver_seed, 1, 9007199254740992.0,
     "randomized, nystrom: the seed of their random numbers (default: 1)"},
    {"partial", 0, NULL, CLI_FLAG, &o.partial, 0, 0,
     "nystrom: write the accumulator of the fit rows --rows A:B (with the landmarks and all that kpca merge needs) to "
     "the partial file FILE instead of a model; kpca merge adds such files and finishes the model"},
    {"rows", 0, "A:B", CLI_STRING, &o.rows, 0, 0,
     "--partial: the fit rows from A up to B (from 0; A: to the end, :B from the start), or I/P: part I of P "
     "equal parts, from 0 (default: all)"},
    {"output", 'o', "FILE", CLI_STRING, &o.output, 0, 0, "write the model to FILE (HDF5; required; any name but a data file's: .csv .npy .txt .libsvm .svm)"},
    {"quiet", 'q', NULL, CLI_FLAG, &o.quiet, 0, 0, "print nothing but errors"},
    CLI_MEMORY_OPTION(o.memory_limit),
    CLI_VERBOSE_OPTION(o.verbose),
    CLI_INPUT_OPTIONS(o.in),
};

const cli_command cli_fit_command = {
    "fit", "[options] DATA -o MODEL", "fit kernel PCA on DATA and write the model",
    "DATA is ESL text (zip.train.gz), LIBSVM text, CSV/TSV, ARFF, NumPy .npy, HDF5 (FILE:GROUP,\n"
    "e.g. usps.h5:train) or MATLAB (FILE.mat:VAR), text plain or compressed, the format found from\n"
    "the content (--format forces it).  The kernel matrix of the M fit points is centred in feature\n"
    "space and its largest eigenpairs are kept, normalised so that mu (alpha.alpha) = 1.\n"
    "The model records how the M rows were drawn (--subset, --sample, --seed),\n"
    "the columns' names from a header row and the standardisation, which\n"
    "transform and denoise apply to their inputs.\n"
    "--kernel precomputed: DATA is the kernel matrix GRAM itself, k(x_i, x_j) of\n"
    "M points in any format (labels as for any data), square, finite and\n"
    "symmetric within a relative 1e-6 (else refused); a clearly indefinite\n"
    "matrix gets a warning naming its most negative eigenvalue, and its\n"
    "negative part is dropped.  The model has no input space: transform takes\n"
    "the n x M kernel values of new points against GRAM's M points, in GRAM's\n"
    "order; denoise and reduce refuse it.  Nystrom takes uniform landmarks\n"
    "(rows and columns).",
    options, sizeof options / sizeof options[0], cmd_fit, 1, 1,
};

/* A kpca_fit_check error, as the option that set the parameter at fault
 * when it was given: "option '--NAME[ VALUE]': MESSAGE". */
static int fit_param_error(const char *param, const kpca_error *err)
{
    char val[64] = "";
    const char *opt = NULL;
    if (param == NULL) {
    } else if (strcmp(param, "variance") == 0 || strcmp(param, "components") == 0) {
        if (o.components != NULL) {
            opt = "components";
            snprintf(val, sizeof val, " %s", o.components);
        }
    } else if (strcmp(param, "precision") == 0) {
        if (o.precision != NULL) {
            opt = "precision";
            snprintf(val, sizeof val, " %s", o.precision);
        }
    } else if (strcmp(param, "landmarks") == 0) {
        if (o.landmarks) {
            opt = "landmarks";
            snprintf(val, sizeof val, " %zu", o.landmarks);
        }
    } else if ((strcmp(param, "degree") == 0 && o.degree) || (strcmp(param, "gamma") == 0 && !isnan(o.gamma)) ||
               (strcmp(param, "coef0") == 0 && !isnan(o.coef0)) || (strcmp(param, "sigma") == 0 && !isnan(o.sigma))) {
        opt = param; /* the message shows the value */
    }
    if (opt != NULL)
        return cli_usage("option '--%s%s': %s", opt, val, err->msg);
    if (param != NULL && strcmp(param, "components") == 0)
        return cli_usage("%s (-k K)", err->msg);
    return cli_usage("%s", err->msg);
}

/* A model named like a data file (m.csv) would be taken for one: refused,
 * with a name to use instead.  Any other name is fine. */
static int check_model_name(const char *path)
{
    static const char *const data_suffixes[] = {".csv", ".npy", ".txt", ".libsvm", ".svm"};
    size_t len = strlen(path);
    for (size_t i = 0; i < sizeof data_suffixes / sizeof data_suffixes[0]; i++) {
        size_t sl = strlen(data_suffixes[i]);
        if (len > sl && strcasecmp(path + len - sl, data_suffixes[i]) == 0) {
            int stem = (int)(len - sl);
            return cli_usage("'%s' looks like a data file name: kpca fit writes an HDF5 model; name it %.*s.h5 or "
                             "%.*s.model",
                             path, stem, path, stem, path);
        }
    }
    return 0;
}

typedef enum { SAMPLE_DEFAULT, SAMPLE_FIRST, SAMPLE_RANDOM, SAMPLE_STRATIFIED } sample_kind;

/* --sample and --seed before the data is read: 0 or KPCA_EUSAGE (reported) */
static int check_sample(sample_kind *kind)
{
    if (o.sample != NULL) {
        if (strcmp(o.sample, "first") == 0)
            *kind = SAMPLE_FIRST;
        else if (strcmp(o.sample, "random") == 0)
            *kind = SAMPLE_RANDOM;
        else if (strcmp(o.sample, "stratified") == 0)
            *kind = SAMPLE_STRATIFIED;
        else
            return cli_usage("option '--sample': expected first, random or stratified, got '%s'", o.sample);
    }
    /* 0 drew the first rows once: that is --sample first, not a seed */
    if (o.seed == 0)
        return cli_usage("option '--seed': 0 is not a seed (1 or more); the first M rows are --sample first");
    if (!o.subset && (o.sample != NULL || o.seed > 0))
        return cli_usage("option '%s' applies to --subset M: without it fit takes all rows",
                         o.sample != NULL ? "--sample" : "--seed");
    if (*kind == SAMPLE_FIRST && o.seed > 0)
        return cli_usage("option '--seed' does not apply to --sample first");
    return 0;
}

/* Draws the fit rows of n rows (labels y; NULL when unlabelled or when the
 * draw is not stratified) as --subset, --sample and --seed say: their
 * indices, ascending, into *idx_out (new; *m_out of them; free them), how
 * into subset (the model's field) and into how (fit's summary line).  0 or
 * an exit code (reported). */
static int draw_rows(const char *path, size_t n, const int *y, int unlabelled, sample_kind kind, size_t **idx_out,
                     size_t *m_out, char *subset, size_t cap, char *how, size_t howcap)
{
    const size_t m = o.subset ? o.subset : n;
    const long seed = o.seed > 0 ? o.seed : FIT_DEFAULT_SEED;
    if (m > n) {
        cli_error("'%s' has %zu rows: cannot fit on a subset of %zu", path, n, m);
        return KPCA_EUSAGE;
    }
    if (kind == SAMPLE_DEFAULT)
        kind = unlabelled ? SAMPLE_RANDOM : SAMPLE_STRATIFIED;
    if (kind == SAMPLE_STRATIFIED && unlabelled) {
        cli_error("'%s' has no labels: --sample stratified draws within each label (--sample random draws without)",
                  path);
        return KPCA_EUSAGE;
    }
    size_t *idx = NULL, nclasses = 0;
    const cli_draw draw = m == n || kind == SAMPLE_FIRST ? CLI_DRAW_FIRST
                          : kind == SAMPLE_RANDOM        ? CLI_DRAW_RANDOM
                                                         : CLI_DRAW_STRATIFIED;
    int r = cli_draw_rows(n, y, m, draw, seed, &idx, &nclasses);
    if (r != 0)
        return r;
    *idx_out = idx;
    *m_out = m;
    if (m == n) {
        snprintf(subset, cap, "all %zu rows", n);
        snprintf(how, howcap, "all rows");
    } else if (kind == SAMPLE_FIRST) {
        snprintf(subset, cap, "first %zu of %zu rows", m, n);
        snprintf(how, howcap, "first rows");
    } else if (kind == SAMPLE_RANDOM) {
        snprintf(subset, cap, "random %zu of %zu rows, seed %ld", m, n, seed);
        snprintf(how, howcap, "random, seed %ld", seed);
    } else {
        snprintf(subset, cap, "stratified by label %zu of %zu rows, seed %ld", m, n, seed);
        snprintf(how, howcap, "stratified by label: %zu of %zu classes, seed %ld", m < nclasses ? m : nclasses,
                 nclasses, seed);
    }
    return 0;
}

/* "a, b, c" of up to 6 columns whose flag is set, ", ..." after; into buf */
static void column_list(char *const *names, const unsigned char *flag, size_t dim, char *buf, size_t cap)
{
    size_t len = 0, shown = 0;
    buf[0] = '\0';
    for (size_t j = 0; j < dim && len + 1 < cap; j++) {
        if (!flag[j])
            continue;
        char col[CLI_COLUMN_MAX];
        int w = shown < 6 ? snprintf(buf + len, cap - len, "%s%s", shown ? ", " : "", cli_column_name(names, j, col))
                          : snprintf(buf + len, cap - len, ", ...");
        len += w > 0 ? (size_t)w : 0;
        if (shown++ >= 6)
            break;
    }
}

/* --standardize: standardises fit's values in place, the means and scales
 * into *mean, *scale (new, dim each), a note naming the constant columns;
 * else the warning of columns whose spreads differ by more than
 * FIT_SPREAD_RATIO when the data do not look like images.  0 or an exit
 * code (reported). */
#define FIT_SPREAD_RATIO 100.0
static void column_report(char *const *names, size_t dim, const double *sd, const double *lo, const double *hi,
                          const unsigned char *flag, size_t nconst)
{
    char list[400];
    if (o.standardize) {
        column_list(names, flag, dim, list, sizeof list);
        if (nconst > 0)
            cli_info("note: %s %s constant in the fit rows: scale 1 (standardised to 0)", list,
                     nconst == 1 ? "is" : "are");
        return;
    }
    size_t a = dim, b = dim; /* the columns of the smallest and largest positive spread */
    for (size_t j = 0; j < dim; j++)
        if (sd[j] > 0.0) {
            a = a < dim && sd[a] <= sd[j] ? a : j;
            b = b < dim && sd[b] >= sd[j] ? b : j;
        }
    if (a < dim && sd[b] > FIT_SPREAD_RATIO * sd[a] && !cli_image_like(dim, lo, hi)) {
        char ca[CLI_COLUMN_MAX], cb[CLI_COLUMN_MAX], times[32];
        snprintf(times, sizeof times, sd[b] / sd[a] < 1e9 ? "%.0f" : "%.3g", sd[b] / sd[a]);
        cli_warn("the columns' standard deviations range from %.3g (%s) to %.3g (%s), %s times as large: the "
                 "kernel sees mostly the widest columns; --standardize scales every column to 1",
                 sd[a], cli_column_name(names, a, ca), sd[b], cli_column_name(names, b, cb), times);
    }
}

/* 1 when the default rbf width's square is a double; else 0, reported */
static int default_sigma_usable(double sigma)
{
    if (isfinite(sigma * sigma) && sigma * sigma > 0.0)
        return 1;
    cli_error("the default rbf width, the fit points' spread (%g), is too large to square: the data has values near "
              "the largest double; --standardize scales every column to 1", sigma);
    return 0;
}

static int standardize(kpca_dataset *fit, double **mean, double **scale)
{
    const size_t dim = fit->dim;
    double *st = kpca_alloc_array(dim, 4, sizeof(double));
    unsigned char *flag = kpca_alloc_array(dim, 1, 1);
    double *mu = o.standardize ? kpca_alloc_array(dim, 1, sizeof(double)) : NULL;
    double *sd = o.standardize ? kpca_alloc_array(dim, 1, sizeof(double)) : NULL;
    if (st == NULL || flag == NULL || (o.standardize && (mu == NULL || sd == NULL))) {
        kpca_free(st);
        kpca_free(flag);
        kpca_free(mu);
        kpca_free(sd);
        cli_error("out of memory for the statistics of %zu columns", dim);
        return KPCA_ENOMEM;
    }
    double *lo = st + 2 * dim, *hi = st + 3 * dim, *csd = st + dim;
    size_t nconst = 0;
    if (o.standardize) {
        nconst = kpca_standardize_fit(fit->x, fit->n, dim, mu, sd, lo, hi, flag);
        kpca_standardize(fit->x, fit->n, dim, mu, sd);
        *mean = mu;
        *scale = sd;
    } else {
        kpca_column_stats(fit->x, fit->n, dim, st, csd, lo, hi);
    }
    column_report(fit->colnames, dim, csd, lo, hi, flag, nconst);
    kpca_free(st);
    kpca_free(flag);
    return 0;
}

/* The messages of a fit, the model's provenance (subset: how the rows were
 * drawn; colnames, std_mean, std_scale: taken over) and the model written */
static int report_save(const char *data, const kpca_fit_params *pp, const char *subset, char **colnames,
                       double *std_mean, double *std_scale, kpca_model *mp, const kpca_fit_info *ip)
{
    const kpca_fit_params p = *pp;
    kpca_model model = *mp;
    const kpca_fit_info info = *ip;
    kpca_error err;
    kpca_status st;
    const char *data_name = cli_arg_name(data); /* "<stdin>", not its spool */
    if (info.lowest < 0.0)
        cli_warn("'%s' is not positive semi-definite: the most negative eigenvalue of the %s is %.6g; kernel PCA "
                 "keeps the positive eigenvalues only (the negative part is dropped)",
                 data, p.solver == KPCA_SOLVER_NYSTROM ? "landmarks' kernel matrix" : "fit points' centred kernel matrix",
                 info.lowest);
    model.colnames = colnames; /* the model owns them and the standardisation */
    model.std_mean = std_mean;
    model.std_scale = std_scale;
    snprintf(model.subset, sizeof model.subset, "%s", subset);
    snprintf(model.source, sizeof model.source, "%s: %.200s", data_name, subset);
    cli_model_steps_record(&model, &o.in); /* transform and denoise apply them (cli_input_as_fitted) */
    const size_t noise = info.requested - info.kept - info.negative;
    if (info.negative > 0)
        cli_info("kept %zu of %zu components: %zu %s negative (the %s kernel is not positive semi-definite), "
                 "%zu %s rounding noise",
                 info.kept, info.requested, info.negative, info.negative == 1 ? "eigenvalue is" : "eigenvalues are",
                 kpca_kernel_name(p.kernel.type), noise, noise == 1 ? "is" : "are");
    else if (info.kept < info.requested)
        cli_info("kept %zu of %zu components: %zu %s rounding noise (<= %.3g x %s)", info.kept, info.requested,
                 noise, noise == 1 ? "eigenvalue is" : "eigenvalues are", info.tol,
                 p.precision == KPCA_PRECISION_SINGLE && o.tol < 0.0 ? "largest, single precision"
                                                                     : "max(largest, trace K)");
    else
        cli_info("kept %zu component%s%s", info.kept, info.kept == 1 ? "" : "s",
                 p.variance > 0.0 ? " (the fewest that reach --components)" : "");
    if (p.solver == KPCA_SOLVER_NYSTROM)
        cli_info("eigenvalues %.6g .. %.6g (%.2f%% of the trace); landmarks and the pass over the rows %.2f s, %s "
                 "eigensolves %.2f s, the sign pass %.2f s", model.eigval[0], model.eigval[model.k - 1],
                 100.0 * kpca_model_explained(&model, 0, model.k), info.sec_kernel, model.solver, info.sec_eig,
                 info.sec_signs);
    else
        cli_info("eigenvalues %.6g .. %.6g (%.2f%% of the trace); kernel %.2f s, centring %.2f s, %s %.2f s",
                 model.eigval[0], model.eigval[model.k - 1], 100.0 * kpca_model_explained(&model, 0, model.k),
                 info.sec_kernel, info.sec_center, model.solver, info.sec_eig);
    kpca_progress("write", 0, 1);
    st = cli_rank == 0 ? kpca_model_save(&model, o.output, &err) : KPCA_OK;
    kpca_progress("write", 1, 1);
    kpca_model_free(&model);
    if (st != KPCA_OK)
        return cli_fail(&err);
    return 0;
}

/* --solver nystrom on DATA read a block at a time (fit_rows.c): the fit
 * rows drawn by index, the columns' statistics by a pass, then the fit
 * itself (kpca-mpi: over the ranks) or --partial's sums */
static int fit_rows(const char *data, kpca_fit_params *p, sample_kind sample)
{
    cli_fit_rows fr;
    int r = cli_fit_rows_open(&fr, data, &o.in);
    if (r != 0)
        return r;
    char subset[KPCA_SOURCE_MAX], how[160];
    size_t *idx = NULL, m = 0;
    int *y = NULL;
    const size_t msub = o.subset ? o.subset : fr.nall;
    const int strat = msub < fr.nall && !fr.unlabelled && sample != SAMPLE_FIRST && sample != SAMPLE_RANDOM;
    if (strat && (r = cli_fit_rows_labels(&fr, &y)) != 0) {
        cli_fit_rows_close(&fr);
        return r;
    }
    r = draw_rows(data, fr.nall, y, fr.unlabelled, sample, &idx, &m, subset, sizeof subset, how, sizeof how);
    kpca_free(y);
    if (r == 0) {
        cli_fit_rows_select(&fr, idx, m, &p->kernel);
        r = cli_fit_rows_stats(&fr, o.standardize, cli_nys_comm);
    }
    if (r != 0) {
        cli_fit_rows_close(&fr);
        return r;
    }
    const size_t dim = fr.rows.feed.dim;
    column_report(fr.colnames, dim, fr.sd, fr.lo, fr.hi, fr.flag, fr.nconst);
    const kpca_kernel_type kt = p->kernel.type;
    if ((kt == KPCA_KERNEL_SIGMOID || kt == KPCA_KERNEL_LAPLACIAN) && isnan(o.gamma))
        p->kernel.gamma = 1.0 / (double)dim;
    if (kt == KPCA_KERNEL_RBF)
        p->kernel.sigma = isnan(o.sigma) ? fr.sigma : o.sigma;
    if (kt == KPCA_KERNEL_RBF && isnan(o.sigma) && !default_sigma_usable(p->kernel.sigma)) {
        cli_fit_rows_close(&fr);
        return KPCA_EFORMAT;
    }
    p->landmarks = o.landmarks ? o.landmarks : (m < KPCA_DEFAULT_LANDMARKS ? m : KPCA_DEFAULT_LANDMARKS);
    const char *param;
    kpca_error err;
    if (m < 2) {
        cli_error("'%s': kernel PCA needs at least 2 fit points, got %zu", data, m);
        cli_fit_rows_close(&fr);
        return KPCA_EFORMAT;
    }
    if (kpca_fit_check(p, m, &param, &err) != KPCA_OK) {
        cli_fit_rows_close(&fr);
        return fit_param_error(param, &err);
    }
    char kd[96];
    cli_info("fit: %zu of %zu points x %zu values from '%s' (%s%s, read in blocks), kernel %s", m, fr.nall, dim,
             data, how, o.standardize ? "; standardised" : "", kpca_kernel_describe(&p->kernel, kd, sizeof kd));
    if (o.partial) {
        const cli_draw draw = m == fr.nall || sample == SAMPLE_FIRST                 ? CLI_DRAW_FIRST
                              : sample == SAMPLE_RANDOM || (fr.unlabelled && !strat) ? CLI_DRAW_RANDOM
                                                                                      : CLI_DRAW_STRATIFIED;
        r = cli_fit_rows_partial(&fr, p, o.rows, &o.in, subset, draw, o.seed > 0 ? o.seed : FIT_DEFAULT_SEED,
                                 o.output);
        cli_fit_rows_close(&fr);
        return r;
    }
    kpca_model model;
    kpca_fit_info info;
    r = cli_fit_rows_run(&fr, p, &model, &info);
    char **colnames = fr.colnames;
    double *mu = fr.std_mean, *sd = fr.std_scale;
    fr.colnames = NULL; /* the model's now */
    fr.std_mean = fr.std_scale = NULL;
    cli_fit_rows_close(&fr);
    if (r != 0) {
        kpca_free_strings(colnames, colnames != NULL ? dim : 0);
        kpca_free(mu);
        kpca_free(sd);
        return r;
    }
    return report_save(data, p, subset, colnames, mu, sd, &model, &info);
}

int cmd_fit(int argc, char **argv)
{
    memset(&o, 0, sizeof o);
    o.gamma = o.coef0 = o.sigma = NAN; /* NAN: not given */
    o.power_iters = -1;
    o.tol = -1.0;
    o.seed = -1; /* not given */
    o.in.round = -1;
    char *pos[1];
    int npos;
    int r = cli_begin(&cli_fit_command, argc, argv, pos, &npos,
                      (cli_common){&o.quiet, &o.verbose, &o.memory_limit});
    if (r != 0)
        return r < 0 ? 0 : r;
    if (o.output == NULL) {
        cli_error("no output file: give one with -o MODEL");
        cli_hint(&cli_fit_command);
        return KPCA_EUSAGE;
    }
    kpca_kernel_type kt = KPCA_KERNEL_POLY;
    if (o.kernel != NULL && kpca_kernel_parse(o.kernel, &kt) != 0) {
        cli_usage("option '--kernel': expected poly, rbf, sigmoid, linear, laplacian, cosine, chi2 or precomputed, "
                  "got '%s'", o.kernel);
        return KPCA_EUSAGE;
    }
    /* an option that the kernel does not have is a mistake, not a no-op */
    const int has_gamma = kt == KPCA_KERNEL_POLY || kt == KPCA_KERNEL_SIGMOID || kt == KPCA_KERNEL_LAPLACIAN ||
                          kt == KPCA_KERNEL_CHI2;
    const int pre = kt == KPCA_KERNEL_PRECOMPUTED;
    const char *stray = NULL;
    if (kt != KPCA_KERNEL_POLY && o.degree != 0)
        stray = "--degree";
    else if (!has_gamma && !isnan(o.gamma))
        stray = "--gamma";
    else if (kt != KPCA_KERNEL_POLY && kt != KPCA_KERNEL_SIGMOID && !isnan(o.coef0))
        stray = "--coef0";
    else if (kt != KPCA_KERNEL_RBF && !isnan(o.sigma))
        stray = "--sigma";
    else if (pre && o.in.smooth > 0.0) /* GRAM holds kernel values, not images or points */
        stray = "--smooth";
    else if (pre && o.in.range != NULL)
        stray = "--input-range";
    else if (pre && o.in.round >= 0)
        stray = "--round";
    else if (pre && o.standardize)
        stray = "--standardize";
    if (stray != NULL) {
        cli_usage("option '%s' does not apply to --kernel %s%s", stray, kpca_kernel_name(kt),
                  pre ? " (DATA holds kernel values, not points)" : "");
        return KPCA_EUSAGE;
    }
    kpca_fit_params p = kpca_fit_defaults(o.degree ? (int)o.degree : 3);
    p.kernel.type = kt;
    if (kt != KPCA_KERNEL_POLY)
        p.kernel.degree = 1;
    if (!isnan(o.gamma))
        p.kernel.gamma = o.gamma;
    if (!isnan(o.coef0))
        p.kernel.coef0 = o.coef0;
    else if (kt == KPCA_KERNEL_SIGMOID)
        p.kernel.coef0 = 1.0;
    if (kt == KPCA_KERNEL_CHI2 && isnan(o.gamma))
        p.kernel.gamma = KPCA_CHI2_DEFAULT_GAMMA;
    kpca_error err;
    if (o.components != NULL) {
        long count;
        double frac;
        if (cli_parse_long(o.components, 1, 1e9, &count) == 0)
            p.components = (size_t)count;
        else if (cli_parse_double(o.components, 1e-300, 1.0, &frac) == 0 && frac < 1.0)
            p.variance = frac;
        else {
            cli_usage("option '--components': expected a positive integer or a fraction in (0, 1), got '%s'",
                      o.components);
            return KPCA_EUSAGE;
        }
    }
    p.tol = o.tol;
    p.primal = !o.no_primal;
    if (o.eig != NULL && kpca_eig_method_parse(o.eig, &p.eig) != 0)
        return cli_usage("option '--eig': expected auto, evd, evr or elpa, got '%s'", o.eig);
    if (o.solver != NULL && kpca_solver_parse(o.solver, &p.solver) != 0)
        return cli_usage("option '--solver': expected exact, randomized or nystrom, got '%s'", o.solver);
    if (cli_parse_precision(o.precision, &p.precision) != 0)
        return KPCA_EUSAGE;
    if (o.landmark_method != NULL && kpca_landmark_method_parse(o.landmark_method, &p.landmark_method) != 0)
        return cli_usage("option '--landmark-method': expected uniform or kmeans, got '%s'", o.landmark_method);
    /* the options of one solver are mistakes with another */
    const char *stray_opt = NULL;
    if (p.solver != KPCA_SOLVER_RANDOMIZED && o.oversample)
        stray_opt = "--oversample";
    else if (p.solver != KPCA_SOLVER_RANDOMIZED && o.power_iters >= 0)
        stray_opt = "--power-iters";
    else if (p.solver != KPCA_SOLVER_NYSTROM && o.landmarks)
        stray_opt = "--landmarks";
    else if (p.solver != KPCA_SOLVER_NYSTROM && o.landmark_method)
        stray_opt = "--landmark-method";
    else if (p.solver == KPCA_SOLVER_EXACT && o.solver_seed)
        stray_opt = "--solver-seed";
    else if (p.solver != KPCA_SOLVER_EXACT && o.eig)
        stray_opt = "--eig";
    else if (p.solver != KPCA_SOLVER_EXACT && o.no_primal)
        stray_opt = "--no-primal";
    if (stray_opt != NULL)
        return cli_usage("option '%s' does not apply to --solver %s", stray_opt, kpca_solver_name(p.solver));
    sample_kind sample = SAMPLE_DEFAULT;
    if ((r = check_sample(&sample)) != 0)
        return r;
    if (o.oversample)
        p.oversample = o.oversample;
    if (o.power_iters >= 0)
        p.power_iters = (size_t)o.power_iters;
    if (o.solver_seed)
        p.seed = (uint64_t)o.solver_seed;
    /* every rule that needs no data, before reading it */
    const char *param;
    if (kpca_fit_check(&p, 0, &param, &err) != KPCA_OK)
        return fit_param_error(param, &err);
    if (cli_rank == 0 && (r = cli_check_outputs(o.output, NULL, NULL, NULL)) != 0)
        return r;
    if ((r = check_model_name(o.output)) != 0)
        return r;
    if ((r = cli_device_begin(o.device, p.solver == KPCA_SOLVER_EXACT ? NULL : p.solver == KPCA_SOLVER_NYSTROM
            ? "--solver nystrom" : "--solver randomized")) != 0)
        return r;

    if (o.rows != NULL && !o.partial)
        return cli_usage("option '--rows' applies to --partial");
    if (o.partial && (p.solver != KPCA_SOLVER_NYSTROM || pre || cli_ranks > 1))
        return cli_usage("option '--partial' applies to kpca fit --solver nystrom%s", pre ? ", not to a precomputed kernel"
                         : cli_ranks > 1 ? ", on one process (kpca-mpi reduces its ranks' sums itself)" : "");
    if (p.solver == KPCA_SOLVER_NYSTROM && !pre)
        return fit_rows(pos[0], &p, sample);

    kpca_dataset all, fit;
    r = cli_read_input(pos[0], &o.in, 0, &all, NULL);
    if (r != 0)
        return r;
    /* what the kernel asks of the data: chi2's non-negative values; GRAM a
     * kernel matrix (all of it, whatever the subset), LIBSVM's trailing
     * zeros restored first */
    kpca_status cst = KPCA_OK;
    if (pre && all.format == KPCA_FMT_LIBSVM && all.dim < all.n)
        cst = kpca_dataset_pad(&all, all.n, &err);
    if (cst == KPCA_OK)
        cst = pre ? kpca_kernel_check_matrix(all.x, all.n, all.dim, KPCA_PRECOMPUTED_SYMMETRY_TOL, &err)
                  : kpca_kernel_check_data(&p.kernel, all.x, all.n, all.dim, &err);
    if (cst != KPCA_OK) {
        /* a text GRAM whose column became the labels is one column short */
        char taken[160] = "";
        if (pre && all.label_col != 0 && all.n == all.dim + 1)
            snprintf(taken, sizeof taken, "; column %zu was read as the labels: give --label none if every column "
                     "holds kernel values", all.label_col);
        cli_error("'%s': %s%s", pos[0], err.msg, taken);
        kpca_dataset_free(&all);
        return cst;
    }
    char subset[KPCA_SOURCE_MAX], how[160];
    size_t *idx = NULL, m = 0;
    r = draw_rows(pos[0], all.n, all.y, all.unlabelled, sample, &idx, &m, subset, sizeof subset, how, sizeof how);
    kpca_status st = r == 0 ? kpca_dataset_select(&all, idx, m, &fit, &err) : KPCA_OK;
    size_t nall = all.n;
    kpca_dataset_free(&all);
    if (r != 0 || st != KPCA_OK) {
        kpca_free(idx);
        return r != 0 ? r : cli_fail(&err);
    }
    p.gram_index = pre ? idx : NULL; /* the fit points among GRAM's (their columns) */
    /* the default landmark count is capped by the fit points; a count asked
     * for is not */
    if (p.solver == KPCA_SOLVER_NYSTROM)
        p.landmarks = o.landmarks ? o.landmarks : (m < KPCA_DEFAULT_LANDMARKS ? m : KPCA_DEFAULT_LANDMARKS);
    double *std_mean = NULL, *std_scale = NULL;
    if ((r = standardize(&fit, &std_mean, &std_scale)) != 0) {
        kpca_dataset_free(&fit);
        kpca_free(idx);
        return r;
    }

    /* the data-dependent defaults need the fit points */
    if ((kt == KPCA_KERNEL_SIGMOID || kt == KPCA_KERNEL_LAPLACIAN) && isnan(o.gamma))
        p.kernel.gamma = 1.0 / (double)fit.dim;
    if (kt == KPCA_KERNEL_RBF)
        p.kernel.sigma = isnan(o.sigma) ? kpca_kernel_default_sigma(fit.x, fit.n, fit.dim) : o.sigma;
    if (kt == KPCA_KERNEL_RBF && isnan(o.sigma) && !default_sigma_usable(p.kernel.sigma)) {
        kpca_dataset_free(&fit);
        kpca_free(std_mean);
        kpca_free(std_scale);
        kpca_free(idx);
        return KPCA_EFORMAT;
    }
    /* the device, then the rules that need the data: counts against the fit
     * points, and LAPACK's size limit where the GPU does not take the matrix */
    const size_t dim = fit.dim;
    p.cuda = cli_device_pick(m, p.primal && p.tol < 0.0 && kpca_primal_applies(&p.kernel, m, dim) ? NULL : "the eigensolve");
    if (m >= 2 && kpca_fit_check(&p, m, &param, &err) != KPCA_OK) {
        kpca_dataset_free(&fit);
        kpca_free(std_mean);
        kpca_free(std_scale);
        kpca_free(idx);
        return fit_param_error(param, &err);
    }
    char kd[96];
    cli_info("fit: %zu of %zu points x %zu values from '%s' (%s%s), kernel %s", m, nall, fit.dim, pos[0], how,
             o.standardize ? "; standardised" : "", kpca_kernel_describe(&p.kernel, kd, sizeof kd));
    kpca_model model;
    kpca_fit_info info;
    char **colnames = fit.colnames; /* the model keeps them */
    fit.colnames = NULL;
    st = kpca_model_fit(&fit, &p, &model, &info, &err);
    kpca_dataset_free(&fit);
    kpca_free(idx);
    if (st != KPCA_OK) {
        kpca_free_strings(colnames, colnames != NULL ? dim : 0);
        kpca_free(std_mean);
        kpca_free(std_scale);
        r = cli_fail(&err);
        /* the m x m kernel matrix is what does not fit (not in the D x D
         * fit of the primal path, model.c): the ways out */
        const int primal = cli_ranks == 1 && p.primal && p.solver == KPCA_SOLVER_EXACT && p.tol < 0.0 &&
                           kpca_primal_applies(&p.kernel, m, dim);
        if (st == KPCA_ENOMEM && p.solver != KPCA_SOLVER_NYSTROM && !primal && cli_rank == 0 && p.cuda == NULL)
            fprintf(stderr, "hint: the %s solver holds the %zu x %zu kernel matrix: fit on fewer points with --subset M "
                            "(memory grows as M squared), or use --solver nystrom (memory linear in the points)\n",
                    kpca_solver_name(p.solver), m, m);
        return r;
    }
    return report_save(pos[0], &p, subset, colnames, std_mean, std_scale, &model, &info);
}

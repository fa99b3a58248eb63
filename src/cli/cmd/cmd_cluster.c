/* cmd_cluster.c - kpca cluster: k-means on the leading components of
 * features, compared with their labels when they have some. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/input.h"
#include "cli/opt.h"
#include "cli/prologue.h"
#include "cli/rows.h"
#include "lib/classify/cluster.h"
#include "lib/file/atomic.h"
#include "lib/file/source.h"

#define CLUSTER_RESTARTS 10
#define CLUSTER_MAX_ITER 300
#define CLUSTER_SAMPLE 65536 /* KPCA_CLUSTER_SAMPLE, spelt for the help */
_Static_assert(CLUSTER_SAMPLE == KPCA_CLUSTER_SAMPLE, "the help's sample is the library's");

static struct {
    size_t clusters, components, restarts, max_iter;
    long seed;
    const char *output;
    cli_input in;
    int quiet;
} o;

static const cli_option options[] = {
    {"clusters", 'k', "C", CLI_SIZE, &o.clusters, 1, 1e9, "the number of clusters (required)"},
    {"components", 0, "K", CLI_SIZE, &o.components, 1, 1e9, "cluster on the first K features (default: all)"},
    {"restarts", 'r', "R", CLI_SIZE, &o.restarts, 1, 1e6,
     "k-means runs from different starts; the one of least inertia is kept (default: " CLI_STR(CLUSTER_RESTARTS) ")"},
    {"max-iter", 0, "N", CLI_SIZE, &o.max_iter, 1, 1e9,
     "assignment passes per run at most (default: " CLI_STR(CLUSTER_MAX_ITER) ")"},
    {"seed", 's', "S", CLI_INT, &o.seed, 0, 9007199254740992.0, "the seed of the k-means++ starts (default: 1)"},
    {"output", 'o', "FILE", CLI_STRING, &o.output, 0, 0,
     "write each point's cluster, 0..C-1, one per line in the points' order, to FILE; - is standard output"},
    {"format", 0, "FMT", CLI_STRING, &o.in.format, 0, 0,
     "input format: esl, libsvm, csv, npy, hdf5, mat or arff (default: detected)"},
    CLI_LABEL_OPTIONS(o.in),
    {"quiet", 'q', NULL, CLI_FLAG, &o.quiet, 0, 0, "print nothing but the results and errors"},
};

const cli_command cli_cluster_command = {
    "cluster", "[options] FEATURES -k C", "k-means clusters of the points of FEATURES, compared with their labels",
    "FEATURES is a feature file from 'kpca transform' or any data file kpca\n"
    "reads. k-means runs on the first K features: k-means++ starts (seeded by\n"
    "--seed), then Lloyd iterations until no point changes cluster (or\n"
    "--max-iter passes); of --restarts runs the one with the least inertia\n"
    "(the sum of squared distances of the points to their cluster's mean) is\n"
    "kept. The same seed gives the same clusters, byte for byte (for one\n"
    "OPENBLAS_NUM_THREADS).\n"
    "Memory: up to S = max(" CLI_STR(CLUSTER_SAMPLE) ", 10 C) points, the features (8 bytes a\n"
    "value, every feature of the file) and 8 bytes a point for its cluster\n"
    "and its label. A file of more points (standard input and pipes are\n"
    "first copied to a temporary file) is read a block at a time, in memory\n"
    "independent of its size: the k-means++ starts and the --restarts runs\n"
    "are made on a uniform sample of S of its points (drawn with --seed),\n"
    "then Lloyd passes over all the points move the kept run's centres until\n"
    "a pass leaves them as they were (or --max-iter passes), and a last pass\n"
    "gives each point its cluster.\n"
    "Printed: the inertia and, when the points have labels, the contingency\n"
    "table (a row per cluster, a column per label) and the adjusted Rand\n"
    "index of the clusters against the labels (Hubert & Arabie 1985: 1 for\n"
    "the same partition, about 0 for a random one, negative below chance).",
    options, sizeof options / sizeof options[0], cmd_cluster, 1, 1,
};

/* the name of class code c, or NULL when the labels are integers */
static const char *class_name(const kpca_dataset *ds, int c)
{
    return ds->names != NULL && c >= 0 && (size_t)c < ds->nnames ? ds->names[c] : NULL;
}

/* a column of the contingency table: 7 wide, or as wide as its class name */
static int column_width(const kpca_dataset *ds, int c)
{
    const char *s = class_name(ds, c);
    size_t len = s != NULL ? strlen(s) : 0;
    return len > 7 ? (int)(len < 64 ? len : 64) : 7;
}

/* The contingency table (k x nc counts of the classes cls) and its ARI, on
 * stdout. */
static void print_table(const kpca_dataset *ds, size_t k, const int *cls, size_t nc, const size_t *t)
{
    printf("contingency (rows: clusters; columns: labels)\n%8s", "cluster");
    for (size_t j = 0; j < nc; j++) {
        if (class_name(ds, cls[j]) != NULL)
            printf(" %*s", column_width(ds, cls[j]), class_name(ds, cls[j]));
        else
            printf(" %7d", cls[j]);
    }
    printf("\n");
    for (size_t c = 0; c < k; c++) {
        printf("%8zu", c);
        for (size_t j = 0; j < nc; j++)
            printf(" %*zu", column_width(ds, cls[j]), t[c * nc + j]);
        printf("\n");
    }
    printf("adjusted Rand index: %.6f\n", kpca_adjusted_rand(t, k, nc));
}

/* The contingency table and the ARI of the clusters against ds's labels. */
static int print_comparison(const size_t *label, size_t k, const kpca_dataset *ds)
{
    kpca_error err;
    int *cls;
    size_t nc, *t;
    if (kpca_contingency(label, k, ds->y, ds->n, &cls, &nc, &t, &err) != KPCA_OK)
        return cli_fail(&err);
    print_table(ds, k, cls, nc, t);
    kpca_free(cls);
    kpca_free(t);
    return 0;
}

static int write_labels(const char *path, const size_t *label, size_t n)
{
    kpca_error err;
    kpca_atomic a;
    if (kpca_atomic_begin(&a, path, &err) != KPCA_OK)
        return cli_fail(&err);
    for (size_t i = 0; i < n; i++)
        fprintf(a.fp, "%zu\n", label[i]);
    return kpca_atomic_commit(&a, &err) == KPCA_OK ? 0 : cli_fail(&err);
}

/* The contingency table and the clusters' file that the last pass of a
 * streamed k-means fills, a block at a time. */
typedef struct {
    size_t k;
    int *cls;         /* the distinct labels so far, ascending */
    size_t nc;
    size_t *t;        /* k x nc counts */
    kpca_atomic *out; /* --output, or NULL */
} tally;

/* a column for label v before column at */
static kpca_status tally_insert(tally *ta, size_t at, int v, kpca_error *err)
{
    int *cls = kpca_alloc_array(ta->nc + 1, 1, sizeof(int));
    size_t *t = kpca_alloc_array(ta->k, ta->nc + 1, sizeof(size_t));
    if (cls == NULL || t == NULL) {
        kpca_free(cls);
        kpca_free(t);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for a contingency table of %zu labels", ta->nc + 1);
    }
    for (size_t j = 0, from = 0; j <= ta->nc; j++)
        cls[j] = j == at ? v : ta->cls[from++];
    for (size_t c = 0; c < ta->k; c++)
        for (size_t j = 0, from = 0; j <= ta->nc; j++)
            t[c * (ta->nc + 1) + j] = j == at ? 0 : ta->t[c * ta->nc + from++];
    kpca_free(ta->cls);
    kpca_free(ta->t);
    ta->cls = cls;
    ta->t = t;
    ta->nc++;
    return KPCA_OK;
}

static kpca_status tally_add(void *ctx, const size_t *cluster, const int *y, size_t nb, kpca_error *err)
{
    tally *ta = ctx;
    for (size_t i = 0; i < nb; i++) {
        if (ta->out != NULL && fprintf(ta->out->fp, "%zu\n", cluster[i]) < 0)
            return kpca_fail(err, KPCA_EIO, "'%s': cannot write the clusters", ta->out->final);
        if (y == NULL)
            continue;
        size_t lo = 0, hi = ta->nc;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (ta->cls[mid] < y[i])
                lo = mid + 1;
            else
                hi = mid;
        }
        kpca_status st = KPCA_OK;
        if (lo == ta->nc || ta->cls[lo] != y[i])
            st = tally_insert(ta, lo, y[i], err);
        if (st != KPCA_OK)
            return st;
        ta->t[cluster[i] * ta->nc + lo]++;
    }
    return KPCA_OK;
}

/* *big: spec opened as a row source (the caller's to close) when it is a
 * regular file (or an HDF5 group of one) of more than `sample` rows, which
 * cluster_rows reads a block at a time; else NULL (a stream, a smaller
 * file, a file that does not read: the whole read then reports its error
 * as every command does).  0, or the exit code of a bad input option
 * (reported). */
static int many_rows(const char *spec, const cli_input *in, size_t sample, kpca_rowsrc **big)
{
    *big = NULL;
    kpca_read_opts ro;
    double lo, hi;
    int r = cli_read_opts(in, &ro, &lo, &hi);
    if (r != 0)
        return r;
    char *file = NULL;
    const char *group;
    kpca_error err;
    if (kpca_split_spec(spec, &file, &group, &err) != KPCA_OK)
        return 0;
    int stream = kpca_source_is_stream(file);
    kpca_free(file);
    kpca_rowsrc *src = NULL;
    size_t n = 0;
    if (stream || kpca_rowsrc_open(spec, &ro, &src, &err) != KPCA_OK || kpca_rowsrc_count(src, &n, &err) != KPCA_OK)
        n = 0;
    if (n > sample)
        *big = src; /* counted: cli_rows_count takes the count as it is */
    else
        kpca_rowsrc_close(src);
    return 0;
}

/* kpca cluster of a file read a block at a time (kpca_cluster_feed). */
static int cluster_rows(const char *spec, kpca_rowsrc *src, size_t sample)
{
    cli_rows rows;
    int r = cli_rows_adopt(spec, &o.in, src, &rows);
    if (r != 0)
        return r;
    size_t n = 0;
    if ((r = cli_rows_count(&rows, &n)) != 0) {
        cli_rows_close(&rows);
        return r;
    }
    cli_rows_select(&rows, NULL, n);
    const kpca_dataset *info = kpca_rowsrc_info(rows.src);
    const size_t dim = rows.feed.dim, ncomp = o.components ? o.components : dim;
    const int labelled = !info->unlabelled;
    tally ta = {o.clusters, NULL, 0, NULL, NULL};
    kpca_atomic out;
    double *centres = NULL;
    if (ncomp > dim) {
        cli_error("cannot cluster on %zu components: '%s' has %zu features", ncomp, spec, dim);
        r = KPCA_EUSAGE;
        goto done;
    }
    kpca_error err;
    kpca_cluster_feed_info fi;
    double inertia = 0.0;
    centres = kpca_alloc_array(o.clusters, ncomp, sizeof(double));
    kpca_status st = centres == NULL ? kpca_fail(&err, KPCA_ENOMEM, "out of memory for %zu centres", o.clusters)
                                     : kpca_cluster_feed(&rows.feed, ncomp, o.clusters, (uint64_t)o.seed, o.restarts,
                                                         o.max_iter, sample, centres, &fi, &err);
    if (st == KPCA_OK && o.output != NULL) {
        st = kpca_atomic_begin(&out, o.output, &err);
        ta.out = st == KPCA_OK ? &out : NULL;
    }
    if (st == KPCA_OK)
        st = kpca_cluster_feed_assign(&rows.feed, ncomp, o.clusters, centres, labelled, tally_add, &ta, &inertia,
                                      &err);
    if (st != KPCA_OK) {
        if (ta.out != NULL)
            kpca_atomic_abort(ta.out);
        r = cli_fail_input(&err, spec);
        goto done;
    }
    cli_info("cluster: %zu points of '%s' on %zu components into %zu clusters, a block at a time: best of %zu "
             "runs on a sample of %zu points (run %zu, %zu passes), then %zu passes over all the points%s",
             n, spec, ncomp, o.clusters, o.restarts, fi.sample, fi.runs.run + 1, fi.runs.iters, fi.passes,
             fi.converged ? "" : " (stopped by --max-iter)");
    if (!labelled)
        cli_info("cluster: '%s' has no labels: no contingency table or adjusted Rand index (--labels FILE gives "
                 "them)", spec);
    if (ta.out != NULL && kpca_atomic_commit(ta.out, &err) != KPCA_OK) {
        r = cli_fail(&err);
        goto done;
    }
    if (o.output == NULL || strcmp(o.output, "-") != 0) {
        printf("inertia: %.17g\n", inertia);
        if (labelled)
            print_table(info, o.clusters, ta.cls, ta.nc, ta.t);
    }
done:
    kpca_free(centres);
    kpca_free(ta.cls);
    kpca_free(ta.t);
    cli_rows_close(&rows);
    return r;
}

int cmd_cluster(int argc, char **argv)
{
    memset(&o, 0, sizeof o);
    o.in.round = -1;
    o.seed = 1;
    o.restarts = CLUSTER_RESTARTS;
    o.max_iter = CLUSTER_MAX_ITER;
    char *pos[1];
    int npos;
    int r = cli_begin(&cli_cluster_command, argc, argv, pos, &npos, (cli_common){&o.quiet, NULL, NULL});
    if (r != 0)
        return r < 0 ? 0 : r;
    if (o.clusters == 0)
        return cli_usage("no number of clusters: give one with -k C");
    if (o.output != NULL && (r = cli_check_outputs(o.output, NULL, NULL, NULL)) != 0)
        return r;
    /* the sample of the streamed k-means: KPCA_CLUSTER_SAMPLE points, or 10 a cluster */
    const size_t sample = o.clusters > KPCA_CLUSTER_SAMPLE / 10 ? 10 * o.clusters : KPCA_CLUSTER_SAMPLE;
    kpca_rowsrc *big;
    if ((r = many_rows(pos[0], &o.in, sample, &big)) != 0)
        return r;
    if (big != NULL)
        return cluster_rows(pos[0], big, sample);
    kpca_dataset ds;
    if ((r = cli_read_input(pos[0], &o.in, 0, &ds, NULL)) != 0)
        return r;
    size_t ncomp = o.components ? o.components : ds.dim;
    if (ncomp > ds.dim) {
        cli_error("cannot cluster on %zu components: '%s' has %zu features", ncomp, pos[0], ds.dim);
        kpca_dataset_free(&ds);
        return KPCA_EUSAGE;
    }
    if (o.clusters > ds.n) {
        cli_error("cannot make %zu clusters of the %zu points of '%s'", o.clusters, ds.n, pos[0]);
        kpca_dataset_free(&ds);
        return KPCA_EUSAGE;
    }
    size_t *label = kpca_alloc_array(ds.n, 1, sizeof *label);
    kpca_error err;
    kpca_kmeans_info info;
    kpca_status st = label == NULL ? kpca_fail(&err, KPCA_ENOMEM, "out of memory for %zu cluster labels", ds.n)
                                   : kpca_cluster(ds.x, ds.n, ds.dim, ncomp, o.clusters, (uint64_t)o.seed, o.restarts,
                                                  o.max_iter, label, &info, &err);
    if (st != KPCA_OK) {
        r = cli_fail(&err);
        goto out;
    }
    cli_info("cluster: %zu points of '%s' on %zu components into %zu clusters; best of %zu runs: run %zu, %zu "
             "passes%s", ds.n, pos[0], ncomp, o.clusters, o.restarts, info.run + 1, info.iters,
             info.iters >= o.max_iter ? " (stopped by --max-iter)" : "");
    if (ds.unlabelled)
        cli_info("cluster: '%s' has no labels: no contingency table or adjusted Rand index (--labels FILE gives "
                 "them)", pos[0]);
    int to_stdout = o.output != NULL && strcmp(o.output, "-") == 0;
    if (!to_stdout) {
        printf("inertia: %.17g\n", info.inertia);
        if (!ds.unlabelled && (r = print_comparison(label, o.clusters, &ds)) != 0)
            goto out;
    }
    if (o.output != NULL)
        r = write_labels(o.output, label, ds.n);
out:
    kpca_free(label);
    kpca_dataset_free(&ds);
    return r;
}

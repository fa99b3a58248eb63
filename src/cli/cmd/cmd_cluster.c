/* cmd_cluster.c - kpca cluster: k-means on the leading components of
 * features, compared with their labels when they have some. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

#define CLUSTER_RESTARTS 10
#define CLUSTER_MAX_ITER 300

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
     "input format: esl, libsvm, csv, npy or hdf5 (default: detected)"},
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
    "Memory: the features (8 bytes a value, every feature of the file), 8\n"
    "bytes a point for its cluster and, with labels, 8 for the label and the\n"
    "table; k-means reads the points in blocks and keeps nothing else per\n"
    "point, so 10^6 points and more cluster in the memory of their features.\n"
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

/* The contingency table and the ARI of the clusters against y, on stdout. */
static int print_comparison(const size_t *label, size_t k, const kpca_dataset *ds)
{
    const int *y = ds->y;
    size_t n = ds->n;
    kpca_error err;
    int *cls;
    size_t nc, *t;
    if (kpca_contingency(label, k, y, n, &cls, &nc, &t, &err) != KPCA_OK)
        return cli_fail(&err);
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

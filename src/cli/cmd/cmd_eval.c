/* cmd_eval.c - kpca eval: linear SVMs on feature prefixes -> error table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/input.h"
#include "cli/opt.h"
#include "cli/progress.h"
#include "cli/prologue.h"
#include "cli/table.h"
#include "lib/file/atomic.h"

/* The defaults of --multiclass, --scale and --cost: the headline protocol
 * (README, "Protocol"; chosen on training data: results/protocol-study.md).
 * Their one home: an option not given is parsed from its string here, the
 * option table shows them as "(default: ...)" (--help, the man page), and
 * --print-defaults prints them as options for the scripts (scripts/lib.sh,
 * headline_eval). */
#define DEFAULT_MULTICLASS "ovo"
#define DEFAULT_SCALE "norm"
#define DEFAULT_COST "10"
#define DEFAULT_OPTIONS "--multiclass " DEFAULT_MULTICLASS " --scale " DEFAULT_SCALE " -c " DEFAULT_COST
/* check_classes: TRAIN's integer labels are a likely regression target
 * beyond half the points and this many classes */
#define EVAL_MIN_TARGET_CLASSES 10

static struct {
    const char *components, *cost, *classifier, *multiclass, *scale, *backend, *csv, *markdown, *json, *format, *predictions;
    const char *header, *label, *precision;
    cli_input text; /* --columns, --drop, --decimal, --skip-rows */
    double eps;
    long folds, threads;
    int quiet, print_defaults;
    const char *memory_limit;
    int verbose;
} o;

static const cli_option options[] = {
    {"components", 'k', "LIST", CLI_STRING, &o.components, 0, 0,
     "comma-separated numbers of leading components, e.g. 64,128,256 (default: all)"},
    {"cost", 'c', "C[,C...]", CLI_STRING, &o.cost, 0, 0,
     "SVM soft-margin constant C > 0; several: chosen per prefix by cross-validation on TRAIN (default: " DEFAULT_COST ")"},
    {"folds", 0, "N", CLI_INT, &o.folds, 2, 100, "cross-validation folds when -c lists several values (default: 5)"},
    {"classifier", 0, "KIND", CLI_STRING, &o.classifier, 0, 0,
     "svm (LIBSVM C-SVC, linear kernel) or lda (Gaussian, pooled covariance) (default: svm)"},
    {"multiclass", 0, "SCHEME", CLI_STRING, &o.multiclass, 0, 0, "ovo (LIBSVM's one-vs-one) or ovr (one-vs-rest) (default: " DEFAULT_MULTICLASS ")"},
    {"scale", 0, "HOW", CLI_STRING, &o.scale, 0, 0,
     "none, norm (one factor: mean squared training norm 1) or std (per component) (default: " DEFAULT_SCALE ")"},
    {"print-defaults", 0, NULL, CLI_FLAG, &o.print_defaults, 0, 0,
     "print the defaults of --multiclass, --scale and --cost as options (" DEFAULT_OPTIONS ") and exit"},
    {"backend", 0, "B", CLI_STRING, &o.backend, 0, 0,
     "gram (LIBSVM on a precomputed kernel by BLAS), sparse (LIBSVM's linear kernel) or liblinear (LIBLINEAR's "
     "dual coordinate descent: no kernel matrix, much faster, a regularised bias) (default: gram while its Gram "
     "matrix and LIBSVM's rows of it fit the memory budget: about 4 n^2 + 16 s^2 bytes and LIBSVM's cache, for n "
     "training points and s in the two largest classes (n for one-vs-rest); else liblinear, with a note)"},
    {"eps", 0, "E", CLI_DOUBLE, &o.eps, 1e-12, 1, "LIBSVM stopping tolerance (default: 0.001)"},
    CLI_PRECISION_OPTION(o.precision, "the gram backend's Gram matrix (single: SGEMM, half the memory; LIBSVM "
                                      "stays double) (default: " KPCA_PRECISION_DEFAULT_NAME ")"),
    {"threads", 't', "N", CLI_INT, &o.threads, 0, 1024,
     "binary SVMs trained at once; 0: one per CPU (default: 0); the table does not depend on it"},
    {"csv", 0, "FILE", CLI_STRING, &o.csv, 0, 0, "also write the table as CSV to FILE"},
    {"markdown", 0, "FILE", CLI_STRING, &o.markdown, 0, 0, "also write the table as Markdown to FILE"},
    {"json", 0, "FILE", CLI_STRING, &o.json, 0, 0, "also write the table as JSON to FILE (an array of objects, the CSV's columns)"},
    {"predictions", 0, "FILE", CLI_STRING, &o.predictions, 0, 0,
     "also write each TEST point's predicted label to FILE: a line per point, a column per --components value, "
     "in its order (one value: svm-predict's output file)"},
    {"format", 0, "FMT", CLI_STRING, &o.format, 0, 0, "input format: esl, libsvm, csv, npy, hdf5, mat or arff (default: detected)"},
    CLI_HEADER_OPTION(o.header),
    CLI_LABEL_OPTION(o.label),
    CLI_COLUMN_OPTIONS(o.text),
    {"quiet", 'q', NULL, CLI_FLAG, &o.quiet, 0, 0, "print nothing but the table and errors"},
    CLI_MEMORY_OPTION(o.memory_limit),
    CLI_VERBOSE_OPTION(o.verbose),
};

const cli_command cli_eval_command = {
    "eval", "[options] TRAIN TEST", "train linear SVMs on TRAIN features, print the TEST error per prefix",
    "TRAIN and TEST are feature files from 'kpca transform' (HDF5 or LIBSVM) or any\n"
    "data file kpca reads. Labels are any integers or class names (CSV, label\n"
    "files, HDF5 class_names); names are matched by name, whatever their order\n"
    "in each file, and names in one file against integers in the other are\n"
    "an error. Test labels that TRAIN lacks are named in a warning (their\n"
    "points count as errors), and TRAIN and TEST sharing no label is an error.\n"
    "Integer labels with more distinct values than half the training points\n"
    "and more than " CLI_STR(EVAL_MIN_TARGET_CLASSES) " (a target such as 151.0) are refused as a likely\n"
    "regression target.  A TEST without labels gets its predicted labels\n"
    "(--predictions, required) and no error table.\n"
    "For each number k in --components, a C-SVC with the linear kernel is\n"
    "trained on the first k features of TRAIN and tested on TEST (or, with\n"
    "--classifier lda, a Gaussian classifier with a pooled covariance, which\n"
    "takes none of the SVM's options: --cost, --folds, --multiclass, --eps,\n"
    "--backend).  Features of two different models, or features against raw\n"
    "data, are refused.\n"
    "--predictions FILE holds a line per TEST point, in TEST's order, with the\n"
    "predicted labels separated by blanks, one column per value of --components\n"
    "in the order given (no header): with one value it is the file svm-predict\n"
    "writes, and `cut -d' ' -f I FILE` is svm-predict's file for the I-th value.\n"
    "With class names it holds the predicted names (one with a blank or a\n"
    "quote in double quotes, inner quotes doubled).\n"
    "It is written all or nothing together with the tables.",
    options, sizeof options / sizeof options[0], cmd_eval, 2, 2,
};

/* One column list for the CSV, Markdown and JSON tables (table.c); %.17g
 * where a value must round-trip. */
static const char *const table_cols[] = {"components", "error_pct", "errors", "total", "C",
                                         "cv_error_pct", "support_vectors", "train_seconds", "ridge"};
#define NCOLS (sizeof table_cols / sizeof table_cols[0])

/* the cells of one row as text; cv_error_pct is "" without cross-validation */
typedef struct {
    const kpca_eval_row *rows;
    int lda; /* LDA rows have no C or support vectors; SVM rows no ridge */
} table_ctx;

static void row_cells(size_t i, char (*cell)[CLI_CELL], void *ctx)
{
    const table_ctx *t = ctx;
    const kpca_eval_row *r = t->rows + i;
    snprintf(cell[0], CLI_CELL, "%zu", r->components);
    snprintf(cell[1], CLI_CELL, "%.4f", r->error_pct);
    snprintf(cell[2], CLI_CELL, "%zu", r->errors);
    snprintf(cell[3], CLI_CELL, "%zu", r->total);
    snprintf(cell[4], CLI_CELL, "%.17g", r->C);
    if (r->cv_error_pct >= 0)
        snprintf(cell[5], CLI_CELL, "%.4f", r->cv_error_pct);
    else
        cell[5][0] = '\0';
    snprintf(cell[6], CLI_CELL, "%zu", r->nsv);
    snprintf(cell[7], CLI_CELL, "%.3f", r->sec_train);
    snprintf(cell[8], CLI_CELL, "%.17g", r->ridge);
    if (t->lda)
        cell[4][0] = cell[6][0] = '\0';
    else
        cell[8][0] = '\0';
}

/* a line per test point: its label predicted by each prefix, blank-separated;
 * the class name when the labels have names (TRAIN's, indexed by the code) */
static void write_predictions(FILE *fp, const int *pred, size_t np, size_t ntest, char *const *names,
                              size_t nnames)
{
    for (size_t j = 0; j < ntest; j++)
        for (size_t i = 0; i < np; i++) {
            int c = pred[i * ntest + j];
            if (names != NULL && c >= 0 && (size_t)c < nnames)
                kpca_put_field(fp, names[c], " \t\r\v\f\n\""); /* the columns stay apart (every blank) */
            else
                fprintf(fp, "%d", c);
            fputc(i + 1 < np ? ' ' : '\n', fp);
        }
}

/* "a, b, c" of the first labels of v (n), "..." after 12, into buf: their
 * names when names (nnames) is not NULL */
static void label_list(const int *v, size_t n, char *const *names, size_t nnames, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && len + 1 < size; i++) {
        int named = names != NULL && v[i] >= 0 && (size_t)v[i] < nnames;
        int w = i >= 12 ? snprintf(buf + len, size - len, ", ...")
                : named ? snprintf(buf + len, size - len, "%s%s", i ? ", " : "", names[v[i]])
                        : snprintf(buf + len, size - len, "%s%d", i ? ", " : "", v[i]);
        len += w > 0 ? (size_t)w : 0;
        if (i >= 12)
            break;
    }
}

/* A note when integer labels of TRAIN and TEST span ranges of one width
 * one apart (LIBSVM's usps numbers the digits 1..10, the ESL files 0..9) */
static void note_shifted(const kpca_dataset *tr, const char *trn, const kpca_dataset *te, const char *ten)
{
    if (tr->names != NULL || te->names != NULL || tr->n == 0 || te->n == 0)
        return;
    int a0 = tr->y[0], a1 = tr->y[0], b0 = te->y[0], b1 = te->y[0];
    for (size_t i = 1; i < tr->n; i++) {
        a0 = tr->y[i] < a0 ? tr->y[i] : a0;
        a1 = tr->y[i] > a1 ? tr->y[i] : a1;
    }
    for (size_t i = 1; i < te->n; i++) {
        b0 = te->y[i] < b0 ? te->y[i] : b0;
        b1 = te->y[i] > b1 ? te->y[i] : b1;
    }
    if (a1 - a0 == b1 - b0 && a1 > a0 && (a0 - b0 == 1 || b0 - a0 == 1))
        cli_note("the labels look shifted by one: '%s' has %d..%d, '%s' %d..%d (LIBSVM's usps numbers the digits "
                 "1..10, the ESL files zip.train and zip.test 0..9): relabel one of them, e.g. for LIBSVM text "
                 "awk '{ $1 = $1 - 1 } 1'",
                 trn, a0, a1, ten, b0, b1);
}

/* Test labels that TRAIN lacks: a warning naming them (their points count
 * as errors); none in common: an error (KPCA_EFORMAT).  0 or the exit code. */
static int check_labels(const kpca_dataset *tr, const char *trn, const kpca_dataset *te, const char *ten)
{
    if (tr->y == NULL || te->y == NULL || te->n == 0)
        return 0;
    kpca_error err;
    int *unseen;
    size_t nunseen, npoints;
    if (kpca_labels_unseen(tr->y, tr->n, te->y, te->n, &unseen, &nunseen, &npoints, &err) != KPCA_OK)
        return cli_fail(&err);
    char list[160];
    label_list(unseen, nunseen, te->names, te->nnames, list, sizeof list);
    int r = 0;
    if (npoints == te->n) {
        int *trl;
        size_t ntrl, dummy;
        /* TRAIN's labels: those of TRAIN unseen in an empty set */
        char trlist[160] = "";
        if (kpca_labels_unseen(te->y, 0, tr->y, tr->n, &trl, &ntrl, &dummy, &err) == KPCA_OK) {
            label_list(trl, ntrl, tr->names, tr->nnames, trlist, sizeof trlist);
            kpca_free(trl);
        }
        cli_error("'%s' and '%s' share no label (test labels %s; training labels %s): every test point would "
                  "count as an error",
                  trn, ten, list, trlist);
        r = KPCA_EFORMAT;
    } else if (nunseen > 0) {
        cli_warn("test label%s %s of '%s' do%s not occur in '%s': %s points (%zu) count as errors",
                 nunseen > 1 ? "s" : "", list, ten, nunseen > 1 ? "" : "es", trn, nunseen > 1 ? "those" : "its",
                 npoints);
    }
    if (nunseen > 0)
        note_shifted(tr, trn, te, ten);
    kpca_free(unseen);
    return r;
}

/* Integer labels with more classes than half the training points (and
 * more than EVAL_MIN_TARGET_CLASSES, so that a handful of points in two or
 * three classes pass) are refused as a likely regression target (a
 * measured quantity such as scikit-learn's diabetes target, 151.0, read as
 * integers), and class names as likely identifiers (a name or id per row):
 * 0 or KPCA_EFORMAT (reported). */
static int check_classes(const kpca_dataset *tr, const char *trn)
{
    if (tr->n == 0)
        return 0;
    if (tr->names != NULL) {
        size_t used = 0; /* the names TRAIN's labels use (a subset's may be fewer than the file's) */
        unsigned char *seen = kpca_calloc(tr->nnames ? tr->nnames : 1, 1);
        if (seen == NULL) {
            cli_error("out of memory for the class names of '%s'", trn);
            return KPCA_ENOMEM;
        }
        for (size_t i = 0; i < tr->n; i++)
            if (tr->y[i] >= 0 && (size_t)tr->y[i] < tr->nnames && !seen[tr->y[i]]++)
                used++;
        kpca_free(seen);
        if (2 * used > tr->n && used > EVAL_MIN_TARGET_CLASSES) {
            cli_error("'%s': %zu distinct class names ('%s', '%s', ...) for %zu training points: more classes than "
                      "half the points is a likely identifier (a name or id per row), not classes; give the label "
                      "column with --label, and leave an id out with --drop",
                      trn, used, tr->names[0], tr->nnames > 1 ? tr->names[1] : "", tr->n);
            return KPCA_EFORMAT;
        }
        return 0;
    }
    kpca_error err;
    int *labels;
    size_t nlabels, dummy;
    /* TRAIN's distinct labels: those of TRAIN unseen in an empty set */
    if (kpca_labels_unseen(tr->y, 0, tr->y, tr->n, &labels, &nlabels, &dummy, &err) != KPCA_OK)
        return cli_fail(&err);
    int r = 0;
    if (2 * nlabels > tr->n && nlabels > EVAL_MIN_TARGET_CLASSES) {
        char list[160];
        label_list(labels, nlabels < 4 ? nlabels : 4, NULL, 0, list, sizeof list);
        cli_error("'%s': %zu distinct integer labels (%s%s) for %zu training points: more classes than half the "
                  "points is a likely regression target, not classes; kpca eval trains classifiers",
                  trn, nlabels, list, nlabels > 4 ? ", ..." : "", tr->n);
        r = KPCA_EFORMAT;
    }
    kpca_free(labels);
    return r;
}

/* The SVM backend when --backend is not given: gram while its memory
 * (kpca_eval_memory_need: the Gram matrix and LIBSVM's rows of it) fits
 * the budget, else liblinear, with a note naming both sizes.  A gram
 * backend asked for (chosen: the option that asked, --backend gram or
 * --precision single, which only it takes) that does not fit is refused,
 * naming liblinear's size.  0, or the exit code. */
static int choose_backend(kpca_eval_params *p, const char *chosen, const kpca_dataset *tr, size_t ntest,
                          const size_t *ks, size_t nk, int pred)
{
    const size_t budget = kpca_mem_budget();
    if (p->classifier != KPCA_CLF_SVM || p->svm.backend != KPCA_SVM_GRAM || budget == 0)
        return 0;
    kpca_error err;
    kpca_eval_memory gram, lin;
    if (kpca_eval_memory_need(p, tr->y, tr->n, ntest, tr->dim, ks, nk, pred, &gram, &err) != KPCA_OK)
        return cli_fail(&err);
    if (gram.fixed + gram.worker <= (double)budget)
        return 0;
    kpca_eval_params q = *p;
    q.svm.backend = KPCA_SVM_LIBLINEAR;
    q.precision = KPCA_PRECISION_DOUBLE;
    if (kpca_eval_memory_need(&q, tr->y, tr->n, ntest, tr->dim, ks, nk, pred, &lin, &err) != KPCA_OK)
        return cli_fail(&err);
    char g[32], l[32], b[32];
    kpca_mem_human(gram.fixed + gram.worker, g, sizeof g);
    kpca_mem_human(lin.fixed + lin.worker, l, sizeof l);
    kpca_mem_human((double)budget, b, sizeof b);
    if (chosen != NULL) {
        kpca_fail(&err, KPCA_ENOMEM,
                  "%s needs about %s (%s), more than the memory budget of %s; --backend liblinear needs about %s",
                  chosen, g, gram.what, b, l);
        return cli_fail(&err);
    }
    if (lin.fixed + lin.worker > (double)budget) {
        kpca_fail(&err, KPCA_ENOMEM,
                  "no backend fits the memory budget of %s: gram needs about %s (%s), liblinear about %s (%s)", b, g,
                  gram.what, l, lin.what);
        return cli_fail(&err);
    }
    cli_note("the default backend, gram, would need about %s (%s), more than the memory budget of %s: training with "
             "liblinear instead (about %s); --backend chooses",
             g, gram.what, b, l);
    p->svm.backend = KPCA_SVM_LIBLINEAR;
    return 0;
}

int cmd_eval(int argc, char **argv)
{
    memset(&o, 0, sizeof o);
    if (argc == 2 && strcmp(argv[1], "--print-defaults") == 0) { /* no TRAIN and TEST needed */
        puts(DEFAULT_OPTIONS);
        return 0;
    }
    kpca_eval_params p = kpca_eval_defaults();
    char *pos[2]; /* o.eps, o.folds: 0 = not given (their ranges exclude 0) */
    int npos;
    int r = cli_begin(&cli_eval_command, argc, argv, pos, &npos,
                      (cli_common){&o.quiet, &o.verbose, &o.memory_limit});
    if (r != 0)
        return r < 0 ? 0 : r;
    if (o.print_defaults) {
        puts(DEFAULT_OPTIONS);
        return 0;
    }
    if (o.eps != 0.0)
        p.svm.eps = o.eps;
    if (o.folds != 0)
        p.folds = (int)o.folds;
    p.svm.threads = (int)o.threads;
    double *costs = NULL;
    size_t ncost = 0;
    const char *cost = o.cost ? o.cost : DEFAULT_COST;
    if (cli_parse_double_list(cost, 1e-300, 1e300, &costs, &ncost) != 0) {
        cli_usage("option '--cost': expected a positive number or a comma-separated list, got '%s'", cost);
        return KPCA_EUSAGE;
    }
    if (ncost == 1)
        p.svm.C = costs[0];
    p.costs = costs;
    p.ncost = ncost;
    if (o.classifier && kpca_classifier_parse(o.classifier, &p.classifier) != 0) {
        cli_usage("option '--classifier': expected svm or lda, got '%s'", o.classifier);
        free(costs);
        return KPCA_EUSAGE;
    }
    if (p.classifier == KPCA_CLF_LDA) { /* the SVM's options mean nothing to lda: refused, not ignored */
        const char *svm_only = o.cost ? "cost" : o.folds ? "folds" : o.multiclass ? "multiclass" : o.eps != 0.0 ? "eps"
                               : o.backend                                                           ? "backend"
                                                                                                      : NULL;
        if (svm_only != NULL) {
            cli_usage("option '--%s' is an SVM option: --classifier lda takes none", svm_only);
            free(costs);
            return KPCA_EUSAGE;
        }
    }
    if (o.folds != 0 && ncost < 2) {
        cli_usage("option '--folds': cross-validation runs only when --cost lists several values");
        free(costs);
        return KPCA_EUSAGE;
    }
    for (size_t i = 0; i < ncost; i++)
        for (size_t j = 0; j < i; j++)
            if (costs[i] == costs[j]) {
                cli_usage("option '--cost': C = %g is listed twice", costs[i]);
                free(costs);
                return KPCA_EUSAGE;
            }
    if (kpca_multiclass_parse(o.multiclass ? o.multiclass : DEFAULT_MULTICLASS, &p.svm.scheme) != 0) {
        cli_usage("option '--multiclass': expected ovo or ovr, got '%s'", o.multiclass);
        free(costs);
        return KPCA_EUSAGE;
    }
    if (kpca_scale_parse(o.scale ? o.scale : DEFAULT_SCALE, &p.scale) != 0) {
        cli_usage("option '--scale': expected none, norm or std, got '%s'", o.scale);
        free(costs);
        return KPCA_EUSAGE;
    }
    if (o.backend && kpca_backend_parse(o.backend, &p.svm.backend) != 0) {
        cli_usage("option '--backend': expected gram, sparse or liblinear, got '%s'", o.backend);
        free(costs);
        return KPCA_EUSAGE;
    }
    int bad_precision = cli_parse_precision(o.precision, &p.precision) != 0;
    if (!bad_precision && p.precision == KPCA_PRECISION_SINGLE &&
        (p.classifier != KPCA_CLF_SVM || p.svm.backend != KPCA_SVM_GRAM))
        bad_precision = cli_usage("option '--precision single' applies to the Gram matrix of --backend gram, not to %s",
                                  p.classifier != KPCA_CLF_SVM ? "--classifier lda" : kpca_backend_name(p.svm.backend));
    if (bad_precision) {
        free(costs);
        return KPCA_EUSAGE;
    }
    size_t *ks = NULL, nk = 0;
    if (o.components && (r = cli_parse_size_list("components", o.components, 1000000000, &ks, &nk)) != 0) {
        free(costs);
        return r;
    }
    if ((r = cli_check_outputs(o.csv, o.markdown, o.json, o.predictions)) != 0) {
        free(ks);
        free(costs);
        return r;
    }
    {
        const char *outs[4] = {o.csv, o.markdown, o.json, o.predictions};
        const char *names[4] = {"csv", "markdown", "json", "predictions"};
        for (int i = 0; i < 3 && r == 0; i++)
            if (o.predictions && strcmp(o.predictions, "-") == 0 && outs[i] && strcmp(outs[i], "-") == 0)
                r = cli_usage("options '--predictions' and '--%s' both write to standard output: give one a file",
                              names[i]);
        if (r != 0) {
            free(ks);
            free(costs);
            return r;
        }
    }
    cli_input in = {.format = o.format, .round = -1, .header = o.header, .label = o.label, .columns = o.text.columns,
                    .drop = o.text.drop, .decimal = o.text.decimal,
                    .skip_rows = o.text.skip_rows};
    kpca_dataset tr, te;
    kpca_featinfo tr_file, te_file;
    r = cli_read_input(pos[0], &in, 0, &tr, &tr_file);
    if (r != 0) {
        free(ks);
        free(costs);
        return r;
    }
    r = cli_read_input(pos[1], &in, 0, &te, &te_file);
    if (r != 0) {
        free(ks);
        free(costs);
        kpca_dataset_free(&tr);
        return r;
    }
    if (tr.unlabelled) {
        cli_error("'%s' has no labels: kpca eval trains on labelled TRAIN", pos[0]);
        r = KPCA_EUSAGE;
        goto out;
    }
    /* TEST without labels: its predicted labels, and no error table */
    const int predict_only = te.unlabelled;
    if (predict_only && o.predictions == NULL) {
        cli_error("'%s' (TEST) has no labels, so there are no errors to count: --predictions FILE writes the "
                  "labels predicted for it",
                  pos[1]);
        r = KPCA_EUSAGE;
        goto out;
    }
    if (predict_only && (o.csv || o.markdown || o.json)) {
        r = cli_usage("option '--%s': '%s' (TEST) has no labels, so there is no error table to write (--predictions "
                      "writes the predicted labels)",
                      o.csv ? "csv" : o.markdown ? "markdown" : "json", pos[1]);
        goto out;
    }
    if ((r = check_classes(&tr, pos[0])) != 0)
        goto out;
    /* the pairing rules (lib/classify/featpair.h): one model, no raw data against
     * features, LIBSVM widths padded, then equal widths */
    kpca_error err;
    kpca_featpair_info pair;
    if (kpca_featpair(&tr, &tr_file, pos[0], &te, &te_file, pos[1], &pair, &err) != KPCA_OK) {
        r = cli_fail(&err);
        goto out;
    }
    /* class names: TEST's recoded to TRAIN's codes, by name */
    if (!predict_only && kpca_labels_match_names(&tr, pos[0], &te, pos[1], &err) != KPCA_OK) {
        r = cli_fail(&err);
        goto out;
    }
    if (!predict_only && (r = check_labels(&tr, pos[0], &te, pos[1])) != 0)
        goto out;
    if (pair.padded)
        cli_warn("'%s': %zu features, padded with zeros to the %zu of '%s' (LIBSVM files omit zeros; rows "
                 "beyond %zu are not more components of it)",
                 pair.padded == 1 ? pos[0] : pos[1], pair.from, pair.to, pair.padded == 1 ? pos[1] : pos[0],
                 pair.from);
    if (ks == NULL) {
        ks = malloc(sizeof *ks);
        if (ks == NULL) {
            cli_error("out of memory");
            r = KPCA_ENOMEM;
            goto out;
        }
        ks[0] = tr.dim;
        nk = 1;
    }
    for (size_t i = 0; i < nk; i++)
        if (ks[i] > tr.dim) {
            cli_error("cannot use %zu components: '%s' has %zu features", ks[i], pos[0], tr.dim);
            r = KPCA_EUSAGE;
            goto out;
        }
    const char *chosen = o.backend != NULL                       ? "--backend gram"
                         : p.precision == KPCA_PRECISION_SINGLE ? "--precision single (the gram backend's)"
                                                                : NULL;
    if ((r = choose_backend(&p, chosen, &tr, te.n, ks, nk, o.predictions != NULL)) != 0)
        goto out;
    kpca_eval_row *rows = calloc(nk, sizeof *rows);
    if (rows == NULL) {
        cli_error("out of memory for %zu table rows", nk);
        r = KPCA_ENOMEM;
        goto out;
    }
    if (predict_only)
        cli_info("note: '%s' (TEST) has no labels: its predicted labels go to '%s', and no error table is printed",
                 pos[1], o.predictions);
    if (ncost >= 2)
        cli_info("eval: %zu training and %zu test points, C by %d-fold cross-validation among %s, %s, scale %s, "
                 "backend %s", tr.n, te.n, p.folds, o.cost, kpca_multiclass_name(p.svm.scheme), kpca_scale_name(p.scale),
                 kpca_backend_name(p.svm.backend));
    else if (p.classifier == KPCA_CLF_LDA)
        cli_info("eval: %zu training and %zu test points, lda (pooled covariance)", tr.n, te.n);
    else
        cli_info("eval: %zu training and %zu test points, C = %g, %s, scale %s, backend %s", tr.n, te.n, p.svm.C,
                 kpca_multiclass_name(p.svm.scheme), kpca_scale_name(p.scale), kpca_backend_name(p.svm.backend));
    int *pred = NULL;
    if (o.predictions != NULL && (pred = calloc(nk * (te.n ? te.n : 1), sizeof *pred)) == NULL) {
        cli_error("out of memory for %zu x %zu predictions", nk, te.n);
        free(rows);
        r = KPCA_ENOMEM;
        goto out;
    }
    if (kpca_eval_pred(tr.x, tr.y, tr.n, te.x, predict_only ? NULL : te.y, te.n, tr.dim, ks, nk, &p, rows, pred,
                       &err) != KPCA_OK) {
        r = cli_fail(&err);
        free(rows);
        free(pred);
        goto out;
    }
    cli_progress_clear(); /* the table must not start on the meter's line */
    /* a table sent to standard output replaces the plain one there, so that
     * stdout is pure CSV, Markdown or JSON */
    int to_stdout = (o.csv && strcmp(o.csv, "-") == 0) || (o.markdown && strcmp(o.markdown, "-") == 0) ||
                    (o.json && strcmp(o.json, "-") == 0) ||
                    (o.predictions && strcmp(o.predictions, "-") == 0);
    if (to_stdout || predict_only) {
        /* nothing here */
    } else if (ncost >= 2) {
        printf("%10s %9s %8s %7s %10s %9s\n", "components", "error_pct", "errors", "total", "C", "cv_error");
        for (size_t i = 0; i < nk; i++)
            printf("%10zu %9.2f %8zu %7zu %10g %9.2f\n", rows[i].components, rows[i].error_pct, rows[i].errors,
                   rows[i].total, rows[i].C, rows[i].cv_error_pct);
    } else {
        printf("%10s %9s %8s %7s\n", "components", "error_pct", "errors", "total");
        for (size_t i = 0; i < nk; i++)
            printf("%10zu %9.2f %8zu %7zu\n", rows[i].components, rows[i].error_pct, rows[i].errors,
                   rows[i].total);
    }
    /* the predictions complete and closed before the tables are written, and
     * renamed into place only once they are: all outputs or none */
    kpca_atomic pa;
    int pa_open = 0; /* 1: closed complete, waiting for its rename */
    if (o.predictions != NULL) {
        if (kpca_atomic_begin(&pa, o.predictions, &err) != KPCA_OK)
            r = cli_fail(&err);
        else {
            write_predictions(pa.fp, pred, nk, te.n, tr.names, tr.nnames);
            if (kpca_atomic_close(&pa, &err) != KPCA_OK) /* removes the file itself */
                r = cli_fail(&err);
            else
                pa_open = 1;
        }
    }
    table_ctx tctx = {rows, p.classifier == KPCA_CLF_LDA};
    if (r == 0)
        r = cli_table_write_all(o.csv, o.markdown, o.json, table_cols, NCOLS, nk, row_cells, &tctx);
    if (pa_open && r == 0 && kpca_atomic_commit(&pa, &err) != KPCA_OK)
        r = cli_fail(&err);
    else if (pa_open && r != 0)
        kpca_atomic_abort(&pa);
    free(pred);
    free(rows);
out:
    free(ks);
    free(costs);
    kpca_dataset_free(&tr);
    kpca_dataset_free(&te);
    return r;
}

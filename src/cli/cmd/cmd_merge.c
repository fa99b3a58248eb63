/* cmd_merge.c - kpca merge: the partial files of kpca fit --solver nystrom
 * --partial added up and finished into the model of the whole fit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd/fit_rows.h"
#include "cli/cmds.h"
#include "cli/input.h"
#include "cli/modeldata.h"
#include "cli/opt.h"
#include "cli/partial.h"
#include "cli/prologue.h"
#include "cli/rows.h"
#include "lib/file/clobber.h"

#define MERGE_MAX_PARTS 4096

static struct {
    const char *output, *data, *memory_limit;
    int quiet, verbose;
} o;

static const cli_option options[] = {
    {"data", 0, "DATA", CLI_STRING, &o.data, 0, 0,
     "the data file of the sign pass, read with the partials' input options (default: the file the partials name)"},
    {"output", 'o', "MODEL", CLI_STRING, &o.output, 0, 0, "write the model to MODEL (HDF5; required)"},
    {"quiet", 'q', NULL, CLI_FLAG, &o.quiet, 0, 0, "print nothing but errors"},
    CLI_MEMORY_OPTION(o.memory_limit),
    CLI_VERBOSE_OPTION(o.verbose),
};

const cli_command cli_merge_command = {
    "merge", "[options] PART... -o MODEL", "add up the partial files of kpca fit --partial into the model",
    "Each PART is written by kpca fit --solver nystrom --partial --rows A:B on the\n"
    "same DATA with the same options: it holds the sums of its rows (their count,\n"
    "mean kernel row, mean feature and centred covariance) with the landmarks and\n"
    "basis they were taken in.  merge checks that the parts belong together (the\n"
    "same kernel, landmarks, basis, fit rows and input options; else it names the\n"
    "part and what differs) and that their rows cover the fit rows once (else it\n"
    "names the rows missing or counted twice), adds them up by the pairwise\n"
    "update and finishes the model as kpca fit would.  The signs of the\n"
    "components need every fit row's projection: merge reads DATA once more, a\n"
    "block at a time (the cost of a transform of it), from the file the parts\n"
    "name or --data.  The model equals kpca fit's on the whole of DATA.",
    options, sizeof options / sizeof options[0], cmd_merge, 1, MERGE_MAX_PARTS,
};

/* The first difference of b from a (both read without their arrays) that
 * keeps them apart, as text into why; 0 when none. */
static int differs(const cli_partial *a, const cli_partial *b, char *why, size_t cap)
{
    const kpca_nys_setup *s = &a->setup, *t = &b->setup;
    char ka[96], kb[96];
    if (s->kernel.type != t->kernel.type || s->kernel.degree != t->kernel.degree ||
        s->kernel.gamma != t->kernel.gamma || s->kernel.coef0 != t->kernel.coef0 ||
        s->kernel.sigma != t->kernel.sigma) {
        snprintf(why, cap, "kernel %s, not %s", kpca_kernel_describe(&t->kernel, kb, sizeof kb),
                 kpca_kernel_describe(&s->kernel, ka, sizeof ka));
        return 1;
    }
    if (s->dim != t->dim)
        snprintf(why, cap, "rows of %zu values, not %zu", t->dim, s->dim);
    else if (s->l != t->l || s->method != t->method || s->seed != t->seed)
        snprintf(why, cap, "%zu %s landmarks of seed %llu, not %zu %s of seed %llu", t->l,
                 kpca_landmark_method_name(t->method), (unsigned long long)t->seed, s->l,
                 kpca_landmark_method_name(s->method), (unsigned long long)s->seed);
    else if (s->basis.r != t->basis.r || a->tol != b->tol)
        snprintf(why, cap, "%zu features at tolerance %g, not %zu at %g", t->basis.r, b->tol, s->basis.r, a->tol);
    else if (a->want != b->want)
        snprintf(why, cap, "%zu components, not %zu", b->want, a->want);
    else if (s->n != t->n || a->nall != b->nall || a->draw != b->draw || a->seed != b->seed)
        snprintf(why, cap, "%zu fit rows of %zu (%s, seed %ld), not %zu of %zu (%s, seed %ld)", t->n, b->nall,
                 cli_draw_name(b->draw), b->seed, s->n, a->nall, cli_draw_name(a->draw), a->seed);
    else if ((a->std_mean == NULL) != (b->std_mean == NULL))
        snprintf(why, cap, "%s, not %s", b->std_mean != NULL ? "--standardize" : "no --standardize",
                 a->std_mean != NULL ? "--standardize" : "none");
    else if (strcmp(a->data, b->data) != 0)
        snprintf(why, cap, "the data '%.250s', not '%.250s'", b->data, a->data);
    else {
        for (size_t i = 0; i < CLI_PARTIAL_NOPTS; i++)
            if (strcmp(a->opts[i], b->opts[i]) != 0) {
                snprintf(why, cap, "%s '%s', not '%s'", cli_partial_opts[i], b->opts[i], a->opts[i]);
                return 1;
            }
        if (a->round != b->round || a->smooth != b->smooth)
            snprintf(why, cap, "round %ld and smooth %g, not %ld and %g", b->round, b->smooth, a->round, a->smooth);
        else
            return 0;
    }
    return 1;
}

static const cli_partial *sort_base;
static int by_rows(const void *x, const void *y)
{
    const cli_partial *a = sort_base + *(const size_t *)x, *b = sort_base + *(const size_t *)y;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    return a->hi < b->hi ? -1 : a->hi > b->hi;
}

/* The parts in row order into order[]: refused (KPCA_EUSAGE) when rows
 * are missing or in two parts */
static int check_rows(char **pos, const cli_partial *parts, size_t np, size_t *order)
{
    for (size_t i = 0; i < np; i++)
        order[i] = i;
    sort_base = parts;
    qsort(order, np, sizeof *order, by_rows);
    const size_t n = parts[0].setup.n;
    size_t at = 0, last = np;
    for (size_t j = 0; j < np; j++) {
        const cli_partial *p = &parts[order[j]];
        if (p->lo == p->hi)
            continue;
        if (p->lo > at) {
            cli_error("rows %zu:%zu of the %zu fit rows are in no part (%s%s%s)", at, p->lo, n,
                      last < np ? "after '" : "before '", last < np ? pos[last] : pos[order[j]], "'");
            return KPCA_EUSAGE;
        }
        if (p->lo < at) {
            cli_error("'%s' (rows %zu:%zu) and '%s' (rows %zu:%zu) overlap: rows %zu:%zu would count twice", pos[last],
                      parts[last].lo, parts[last].hi, pos[order[j]], p->lo, p->hi, p->lo,
                      at < p->hi ? at : p->hi);
            return KPCA_EUSAGE;
        }
        at = p->hi;
        last = order[j];
    }
    if (at < n) {
        cli_error("rows %zu:%zu of the %zu fit rows are in no part (after '%s')", at, n, n,
                  last < np ? pos[last] : pos[0]);
        return KPCA_EUSAGE;
    }
    return 0;
}

/* The partials' landmark rows of DATA (uniform landmarks) against their
 * landmarks: the same file with the same options gives the same bits */
static int check_data(const char *data, cli_rows *rows, const kpca_nys_setup *s)
{
    if (s->method != KPCA_LANDMARKS_UNIFORM)
        return 0;
    kpca_error err;
    size_t *idx = kpca_alloc_array(s->l, 1, sizeof(size_t));
    double *x = kpca_alloc_array(1, s->dim, sizeof(double));
    kpca_status st = idx == NULL || x == NULL ? kpca_fail(&err, KPCA_ENOMEM, "out of memory") : KPCA_OK;
    if (st == KPCA_OK)
        st = kpca_landmarks_uniform(s->n, s->l, s->seed, idx, &err);
    int r = 0;
    for (size_t j = 0; st == KPCA_OK && r == 0 && j < s->l; j++) {
        size_t got = 0;
        st = rows->feed.seek(rows->feed.ctx, idx[j], &err);
        if (st == KPCA_OK)
            st = rows->feed.read(rows->feed.ctx, 1, x, NULL, &got, &err);
        if (st == KPCA_OK && (got != 1 || memcmp(x, s->x + j * s->dim, s->dim * sizeof(double)) != 0)) {
            cli_error("'%s' is not the data the parts were made from (with their options): its fit row %zu is not "
                      "their landmark %zu", data, idx[j], j + 1);
            r = KPCA_EFORMAT;
        }
    }
    kpca_free(idx);
    kpca_free(x);
    return st != KPCA_OK ? cli_fail(&err) : r;
}

/* DATA's fit rows, read as the parts read them, into *fr */
static int open_data(const cli_partial *p, cli_input *in, cli_fit_rows *fr)
{
    const char *data = o.data != NULL ? o.data : p->data;
    const char *opt[CLI_PARTIAL_NOPTS];
    for (size_t i = 0; i < CLI_PARTIAL_NOPTS; i++)
        opt[i] = p->opts[i][0] != '\0' ? p->opts[i] : NULL;
    memset(in, 0, sizeof *in);
    in->format = opt[0];
    in->header = opt[1];
    in->label = opt[2];
    in->labels = opt[3];
    in->columns = opt[4];
    in->drop = opt[5];
    in->decimal = opt[6];
    in->range = opt[7];
    long skip = 0;
    if (opt[8] != NULL && cli_parse_long(opt[8], 1, 1e9, &skip) != 0) {
        cli_error("'%s': attribute skip_rows is '%s', not a count of lines", p->data, opt[8]);
        return KPCA_EFORMAT;
    }
    in->skip_rows = (size_t)skip;
    in->round = p->round;
    in->smooth = p->smooth;
    int r = cli_fit_rows_open(fr, data, in);
    if (r != 0)
        return r;
    if (fr->nall != p->nall || fr->rows.feed.dim != p->setup.dim) {
        cli_error("'%s' has %zu rows of %zu values; the parts were made from %zu rows of %zu (%s)", data, fr->nall,
                  fr->rows.feed.dim, p->nall, p->setup.dim, p->data);
        r = KPCA_EFORMAT;
    }
    int *y = NULL;
    size_t *idx = NULL;
    if (r == 0 && p->draw == CLI_DRAW_STRATIFIED)
        r = cli_fit_rows_labels(fr, &y);
    if (r == 0)
        r = cli_draw_rows(fr->nall, y, p->setup.n, p->draw, p->seed, &idx, NULL);
    kpca_free(y);
    if (r == 0) {
        cli_fit_rows_select(fr, idx, p->setup.n, &p->setup.kernel);
        fr->rows.std_mean = p->std_mean;
        fr->rows.std_scale = p->std_scale;
        r = check_data(data, &fr->rows, &p->setup);
    }
    if (r != 0)
        cli_fit_rows_close(fr);
    return r;
}

/* The parts' accumulators in row order into *acc (initialised), each
 * part's landmarks and basis checked against first's */
static int add_parts(char **pos, const size_t *order, size_t np, const cli_partial *first, kpca_nys_acc *acc)
{
    const kpca_nys_setup *s = &first->setup;
    kpca_error err;
    kpca_nys_acc one;
    if (kpca_nys_acc_init(&one, s->l, s->basis.r, &err) != KPCA_OK)
        return cli_fail(&err);
    int r = 0;
    for (size_t j = 0; r == 0 && j < np; j++) {
        cli_partial p;
        if ((r = cli_partial_read(pos[order[j]], 1, &p)) != 0)
            break;
        const kpca_nys_setup *t = &p.setup;
        if (memcmp(t->x, s->x, s->l * s->dim * sizeof(double)) != 0 || memcmp(t->y, s->y, s->l * sizeof(int)) != 0) {
            cli_error("'%s' was made with other landmarks than '%s' (the same data, seed and options give the same "
                      "ones)", pos[order[j]], pos[order[0]]);
            r = KPCA_EFORMAT;
        } else if (first->std_mean != NULL && (memcmp(p.std_mean, first->std_mean, s->dim * sizeof(double)) != 0 ||
                                               memcmp(p.std_scale, first->std_scale, s->dim * sizeof(double)) != 0)) {
            cli_error("'%s' was standardised otherwise than '%s' (the fit rows' means and deviations differ)",
                      pos[order[j]], pos[order[0]]);
            r = KPCA_EFORMAT;
        } else if (memcmp(t->basis.w, s->basis.w, s->basis.r * s->l * sizeof(double)) != 0) {
            cli_error("'%s' was made with another basis of the same landmarks than '%s': the eigenvectors of their "
                      "kernel matrix differ in the last bits (another OpenBLAS, CPU kind or thread count); make every "
                      "part with the same build and OPENBLAS_NUM_THREADS", pos[order[j]], pos[order[0]]);
            r = KPCA_EFORMAT;
        } else if (kpca_nys_acc_unpack(&one, p.acc, &err) != KPCA_OK) {
            r = cli_fail(&err);
        } else {
            kpca_nys_acc_merge(acc, &one);
        }
        cli_partial_free(&p);
    }
    kpca_nys_acc_free(&one);
    return r;
}

int cmd_merge(int argc, char **argv)
{
    memset(&o, 0, sizeof o);
    static char *pos[MERGE_MAX_PARTS];
    int npos;
    int r = cli_begin(&cli_merge_command, argc, argv, pos, &npos, (cli_common){&o.quiet, &o.verbose, &o.memory_limit});
    if (r != 0)
        return r < 0 ? 0 : r;
    if (o.output == NULL) {
        cli_error("no output file: give one with -o MODEL");
        cli_hint(&cli_merge_command);
        return KPCA_EUSAGE;
    }
    if ((r = cli_check_outputs(o.output, NULL, NULL, NULL)) != 0)
        return r;
    kpca_error err;
    if (o.data != NULL && kpca_output_check(o.output, (const char *const *)&o.data, 1, &err) != KPCA_OK)
        return cli_fail(&err);
    const size_t np = (size_t)npos;
    cli_partial *parts = kpca_calloc(np, sizeof *parts);
    size_t *order = kpca_alloc_array(np, 1, sizeof *order);
    if (parts == NULL || order == NULL) {
        kpca_free(parts);
        kpca_free(order);
        cli_error("out of memory for %zu parts", np);
        return KPCA_ENOMEM;
    }
    for (size_t i = 0; r == 0 && i < np; i++) {
        char why[600];
        if ((r = cli_partial_read(pos[i], 0, &parts[i])) == 0 && i > 0 && differs(&parts[0], &parts[i], why, sizeof why)) {
            cli_error("'%s' does not belong with '%s': it was made with %s", pos[i], pos[0], why);
            r = KPCA_EFORMAT;
        }
    }
    if (r == 0)
        r = check_rows(pos, parts, np, order);
    cli_partial first;
    memset(&first, 0, sizeof first);
    kpca_nys_acc acc;
    memset(&acc, 0, sizeof acc);
    if (r == 0 && (r = cli_partial_read(pos[order[0]], 1, &first)) == 0) {
        const kpca_nys_setup *s = &first.setup;
        char what[160];
        snprintf(what, sizeof what, "merging the Nystrom sums of %zu landmarks of %zu values", s->l, s->dim);
        const size_t block = kpca_nys_block_rows(s->l, s->basis.r, s->dim);
        if (kpca_mem_check(kpca_nys_mem(s->l, s->dim, block, KPCA_LANDMARKS_UNIFORM), what, &err) != KPCA_OK ||
            kpca_nys_acc_init(&acc, s->l, s->basis.r, &err) != KPCA_OK)
            r = cli_fail(&err);
        if (r == 0)
            r = add_parts(pos, order, np, &first, &acc);
    }
    cli_fit_rows fr;
    cli_input in;
    if (r == 0)
        r = open_data(&first, &in, &fr);
    kpca_model model;
    kpca_fit_info info;
    if (r == 0) {
        cli_info("merge: %zu parts, %zu fit rows of '%s', %zu landmarks; the sign pass over the rows", np,
                 first.setup.n, first.data, first.setup.l);
        if (kpca_nys_complete(&fr.rows.feed, &first.setup, &acc, first.want, first.tol, 0, NULL, &model, &info, &err) !=
            KPCA_OK)
            r = cli_fail(&err);
        if (r == 0) { /* what kpca fit's model records besides the numbers */
            model.colnames = fr.colnames;
            fr.colnames = NULL;
            model.std_mean = first.std_mean;
            model.std_scale = first.std_scale;
            first.std_mean = first.std_scale = NULL;
        }
        cli_fit_rows_close(&fr);
    }
    if (r == 0) {
        snprintf(model.subset, sizeof model.subset, "%s", first.subset);
        snprintf(model.source, sizeof model.source, "%.700s: %.200s", first.data, first.subset);
        cli_model_steps_record(&model, &in);
        cli_info("kept %zu of %zu components; eigenvalues %.6g .. %.6g (%.2f%% of the trace); the sign pass %.2f s",
                 info.kept, info.requested, model.eigval[0], model.eigval[model.k - 1],
                 100.0 * kpca_model_explained(&model, 0, model.k), info.sec_signs);
        if (kpca_model_save(&model, o.output, &err) != KPCA_OK)
            r = cli_fail(&err);
        kpca_model_free(&model);
    }
    kpca_nys_acc_free(&acc);
    cli_partial_free(&first);
    for (size_t i = 0; i < np; i++)
        cli_partial_free(&parts[i]);
    kpca_free(parts);
    kpca_free(order);
    return r;
}

/* parts_harness.h - processes played by threads for the shared row
 * source (io/rowsrc.h: kpca_rowsrc_open_shared): a barrier makes each
 * collective (agree, gather, gatherv as src/mpi/rowshare.c makes them), and
 * run_parts has `parts` threads open one file together and read each its
 * own rows.  Shared by tests/unit/io/test_rowpart.c and the fuzz targets
 * (tests/fuzz/fuzz_common.h); abort()s on a setup failure. */
#ifndef KPCA_TEST_PARTS_HARNESS_H
#define KPCA_TEST_PARTS_HARNESS_H

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/kpca.h"
#include "lib/io/rowsrc.h"
#include "lib/support/mem.h"

#define MAXP 8

typedef struct {
    int parts;
    pthread_barrier_t bar;
    kpca_status st[MAXP];
    char msg[MAXP][KPCA_ERRMSG_MAX];
    const void *from[MAXP];
    size_t bytes[MAXP];
    int collectives[MAXP]; /* calls per part: all the same */
} world;

typedef struct {
    world *w;
    int part;
    const char *spec;
    const kpca_read_opts *opts;
    kpca_status st, open_st; /* the whole run's; the shared open's (agreed) */
    kpca_error err, open_err;
    size_t n, first, count, dim;
    int parted;
    double *x;
    int *y;
    size_t nnames;
    char **names; /* (nnames, owned) */
} proc;

static inline kpca_status t_agree(void *ctx, kpca_status st, kpca_error *err)
{
    proc *p = ctx;
    world *w = p->w;
    w->collectives[p->part]++;
    w->st[p->part] = st;
    snprintf(w->msg[p->part], KPCA_ERRMSG_MAX, "%s", st != KPCA_OK ? err->msg : "");
    pthread_barrier_wait(&w->bar);
    int first = -1;
    for (int q = 0; q < w->parts && first < 0; q++)
        first = w->st[q] != KPCA_OK ? q : -1;
    kpca_status out = first < 0 ? KPCA_OK : w->st[first];
    char text[KPCA_ERRMSG_MAX];
    snprintf(text, sizeof text, "%s", first < 0 ? "" : w->msg[first]);
    pthread_barrier_wait(&w->bar);
    return out == KPCA_OK ? KPCA_OK : kpca_fail(err, out, "%s", text);
}

static inline void t_gather(void *ctx, const void *mine, size_t bytes, void *all)
{
    proc *p = ctx;
    world *w = p->w;
    w->collectives[p->part]++;
    w->from[p->part] = mine;
    pthread_barrier_wait(&w->bar);
    for (int q = 0; q < w->parts; q++)
        memcpy((char *)all + (size_t)q * bytes, w->from[q], bytes);
    pthread_barrier_wait(&w->bar);
}

static inline kpca_status t_gatherv(void *ctx, const void *mine, size_t bytes, char **all, size_t *len, kpca_error *err)
{
    proc *p = ctx;
    world *w = p->w;
    w->collectives[p->part]++;
    w->from[p->part] = mine;
    w->bytes[p->part] = bytes;
    pthread_barrier_wait(&w->bar);
    size_t total = 0;
    for (int q = 0; q < w->parts; q++)
        total += w->bytes[q];
    *all = kpca_malloc(total ? total : 1); /* as rowshare.c: the room agreed before the copy */
    kpca_status st = t_agree(ctx, *all == NULL ? kpca_fail(err, KPCA_ENOMEM, "out of memory") : KPCA_OK, err);
    for (int q = 0, at = 0; st == KPCA_OK && q < w->parts; at += (int)w->bytes[q], q++)
        memcpy(*all + at, w->from[q], w->bytes[q]);
    *len = st == KPCA_OK ? total : 0;
    if (st != KPCA_OK) {
        kpca_free(*all);
        *all = NULL;
    }
    pthread_barrier_wait(&w->bar);
    return st;
}

/* one process: the shared open, then its own rows from its first */
static inline void *run_part(void *arg)
{
    proc *p = arg;
    kpca_rowsrc_share sh = {p->part, p->w->parts, p, t_agree, t_gather, t_gatherv};
    kpca_rowsrc *src = NULL;
    kpca_error_clear(&p->err);
    p->st = p->open_st = kpca_rowsrc_open_shared(p->spec, p->opts, &sh, &src, &p->err);
    p->open_err = p->err;
    if (p->st != KPCA_OK)
        return NULL;
    const kpca_dataset *info = kpca_rowsrc_info(src);
    p->n = info->n;
    p->dim = info->dim;
    p->nnames = info->nnames;
    if (info->nnames > 0 && (p->names = kpca_strings_dup(info->names, info->nnames)) == NULL) {
        p->st = kpca_fail(&p->err, KPCA_ENOMEM, "out of memory for %zu names", info->nnames);
        p->nnames = 0;
        kpca_rowsrc_close(src);
        return NULL;
    }
    p->parted = kpca_rowsrc_part(src, &p->first, &p->count);
    if (!p->parted) { /* the formula of kpca-mpi's ranks */
        p->first = p->n * (size_t)p->part / (size_t)p->w->parts;
        p->count = p->n * (size_t)(p->part + 1) / (size_t)p->w->parts - p->first;
    }
    p->x = malloc((p->count ? p->count : 1) * (p->dim ? p->dim : 1) * sizeof *p->x);
    p->y = malloc((p->count ? p->count : 1) * sizeof *p->y);
    size_t got = 0;
    p->st = kpca_rowsrc_seek(src, p->first, &p->err);
    if (p->st == KPCA_OK) /* in two reads: the second goes on from the first */
        p->st = kpca_rowsrc_read(src, p->count / 2, p->x, p->y, &got, &p->err);
    size_t more = 0;
    if (p->st == KPCA_OK && p->count > got)
        p->st = kpca_rowsrc_read(src, p->count - got, p->x + got * p->dim, p->y + got, &more, &p->err);
    if (p->st == KPCA_OK && got + more != p->count)
        p->st = kpca_fail(&p->err, KPCA_EINTERNAL, "part %d read %zu rows of %zu", p->part, got + more, p->count);
    kpca_rowsrc_close(src);
    return NULL;
}

/* spec opened and read by `parts` threads, one process each, into ps */
static inline void run_parts(const char *spec, const kpca_read_opts *opts, int parts, world *w, proc *ps)
{
    memset(w, 0, sizeof *w);
    w->parts = parts;
    pthread_barrier_init(&w->bar, NULL, (unsigned)parts);
    pthread_t th[MAXP];
    for (int q = 0; q < parts; q++) {
        ps[q] = (proc){.w = w, .part = q, .spec = spec, .opts = opts};
        if (pthread_create(&th[q], NULL, run_part, &ps[q]) != 0)
            abort();
    }
    for (int q = 0; q < parts; q++)
        pthread_join(th[q], NULL);
    pthread_barrier_destroy(&w->bar);
}

/* Frees what run_parts left in ps[0..parts). */
static inline void free_parts(proc *ps, int parts)
{
    for (int q = 0; q < parts; q++) {
        free(ps[q].x);
        free(ps[q].y);
        kpca_free_strings(ps[q].names, ps[q].names != NULL ? ps[q].nnames : 0);
        ps[q].x = NULL;
        ps[q].y = NULL;
        ps[q].names = NULL;
    }
}

#endif

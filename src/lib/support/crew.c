/* crew.c - threads kept for work cut into parts again and again (see crew.h). */
#include "support/crew.h"
#include "support/mem.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#define RELAX() _mm_pause()
#else
#define RELAX() ((void)0)
#endif

/* A helper is given round r (go = r) and says it is done (done = r): the
 * rounds of one helper follow one another, each given after the last was
 * done, so that each waits for one value. */
typedef struct {
    kpca_crew *c;
    pthread_t tid;
    void *(*fn)(void *);
    void *arg;
    atomic_uint go, done;
} helper;

struct kpca_crew {
    pthread_mutex_t lock;            /* for sleeping on the two conditions */
    pthread_cond_t wake, finished;   /* a round given; a round done */
    atomic_int quit;
    size_t n;                        /* helpers started */
    helper h[KPCA_CREW_PARTS_MAX - 1];
};

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

/* 1 once *v holds want (read with acquire), spinning for at most
 * KPCA_CREW_SPIN_US; 0 when it still does not */
static int spin_for(atomic_uint *v, unsigned want)
{
    const double t0 = now_us();
    for (unsigned i = 1;; i++) {
        if (atomic_load_explicit(v, memory_order_acquire) == want)
            return 1;
        if (i % 64 == 0 && now_us() - t0 > KPCA_CREW_SPIN_US)
            return 0;
        RELAX();
    }
}

/* waits until *v holds want: a spin, then asleep on cond */
static void wait_for(kpca_crew *c, atomic_uint *v, unsigned want, pthread_cond_t *cond)
{
    if (spin_for(v, want))
        return;
    pthread_mutex_lock(&c->lock);
    while (atomic_load_explicit(v, memory_order_acquire) != want)
        pthread_cond_wait(cond, &c->lock);
    pthread_mutex_unlock(&c->lock);
}

static void *helper_run(void *arg)
{
    helper *h = arg;
    kpca_crew *c = h->c;
    for (unsigned round = 1;; round++) {
        wait_for(c, &h->go, round, &c->wake);
        if (atomic_load(&c->quit))
            return NULL;
        h->fn(h->arg);
        pthread_mutex_lock(&c->lock);
        atomic_store_explicit(&h->done, round, memory_order_release);
        pthread_cond_broadcast(&c->finished);
        pthread_mutex_unlock(&c->lock);
    }
}

kpca_crew *kpca_crew_new(size_t helpers)
{
    if (helpers > KPCA_CREW_PARTS_MAX - 1)
        helpers = KPCA_CREW_PARTS_MAX - 1;
    if (helpers == 0)
        return NULL;
    kpca_crew *c = kpca_calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    int inited = 0; /* the lock and conditions made so far */
    if (pthread_mutex_init(&c->lock, NULL) == 0)
        inited = 1;
    if (inited == 1 && pthread_cond_init(&c->wake, NULL) == 0)
        inited = 2;
    if (inited == 2 && pthread_cond_init(&c->finished, NULL) == 0)
        inited = 3;
    if (inited == 3) {
        atomic_init(&c->quit, 0);
        for (size_t k = 0; k < helpers; k++) {
            helper *h = &c->h[k];
            h->c = c;
            atomic_init(&h->go, 0);
            atomic_init(&h->done, 0);
            if (pthread_create(&h->tid, NULL, helper_run, h) != 0)
                break;
            c->n++;
        }
        if (c->n > 0)
            return c;
    }
    if (inited >= 3)
        pthread_cond_destroy(&c->finished);
    if (inited >= 2)
        pthread_cond_destroy(&c->wake);
    if (inited >= 1)
        pthread_mutex_destroy(&c->lock);
    kpca_free(c);
    return NULL;
}

/* no crew: parts 1.. on threads started for them, a part whose thread
 * cannot start run by the caller after the others */
static void run_started(char *p, size_t parts, size_t size, void *(*fn)(void *))
{
    pthread_t tid[KPCA_CREW_PARTS_MAX];
    int started[KPCA_CREW_PARTS_MAX] = {0};
    for (size_t k = 1; k < parts && k < KPCA_CREW_PARTS_MAX; k++)
        started[k] = pthread_create(&tid[k], NULL, fn, p + k * size) == 0;
    fn(p);
    for (size_t k = 1; k < parts; k++) {
        if (k < KPCA_CREW_PARTS_MAX && started[k])
            pthread_join(tid[k], NULL);
        else
            fn(p + k * size);
    }
}

size_t kpca_crew_helpers(const kpca_crew *c)
{
    return c != NULL ? c->n : 0;
}

kpca_crew *kpca_crew_for(kpca_crew **c, int *tried, size_t parts)
{
    if (parts > 1 && (*c != NULL ? (*c)->n < parts - 1 : !*tried)) {
        kpca_crew_free(*c);
        *c = kpca_crew_new(parts - 1);
        *tried = 1;
    }
    return *c;
}

void kpca_crew_run(kpca_crew *c, void *part, size_t parts, size_t size, void *(*fn)(void *))
{
    char *p = part;
    if (parts == 0)
        return;
    if (c == NULL) {
        run_started(p, parts, size, fn);
        return;
    }
    size_t given = 0;
    if (parts > 1) {
        given = parts - 1 < c->n ? parts - 1 : c->n;
        pthread_mutex_lock(&c->lock);
        for (size_t k = 0; k < given; k++) {
            helper *h = &c->h[k];
            h->fn = fn;
            h->arg = p + (k + 1) * size;
            atomic_store_explicit(&h->go, atomic_load(&h->go) + 1, memory_order_release);
        }
        pthread_cond_broadcast(&c->wake);
        pthread_mutex_unlock(&c->lock);
    }
    fn(p);
    for (size_t k = given + 1; k < parts; k++)
        fn(p + k * size);
    for (size_t k = 0; k < given; k++)
        wait_for(c, &c->h[k].done, atomic_load(&c->h[k].go), &c->finished);
}

void kpca_crew_free(kpca_crew *c)
{
    if (c == NULL)
        return;
    pthread_mutex_lock(&c->lock);
    atomic_store(&c->quit, 1);
    for (size_t k = 0; k < c->n; k++)
        atomic_store_explicit(&c->h[k].go, atomic_load(&c->h[k].go) + 1, memory_order_release);
    pthread_cond_broadcast(&c->wake);
    pthread_mutex_unlock(&c->lock);
    for (size_t k = 0; k < c->n; k++)
        pthread_join(c->h[k].tid, NULL);
    pthread_cond_destroy(&c->finished);
    pthread_cond_destroy(&c->wake);
    pthread_mutex_destroy(&c->lock);
    kpca_free(c);
}

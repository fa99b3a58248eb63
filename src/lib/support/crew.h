/* crew.h - threads kept for work cut into parts again and again.
 *
 * A reader that cuts each window of a file into parts (io/csvpart.h's
 * fast windows: one or two rounds of parts a window, a hundred windows a
 * file)
 * paid a thread's start and two wake-ups of a sleeping core for each
 * round: about 0.4 ms, as much as the round's work, on a virtual machine.
 * A crew's helpers are started once and wait for the next round by
 * spinning a little (KPCA_CREW_SPIN_US), then sleeping, so that rounds
 * that follow one another closely meet a helper that is awake, and a
 * caller that stops giving rounds (a projection between reads) costs a
 * core no more than that spin.
 *
 * Not safe to share: one caller thread gives a crew its rounds. */
#ifndef KPCA_CREW_H
#define KPCA_CREW_H

#include <stddef.h>

#define KPCA_CREW_SPIN_US 50 /* a helper's wait for a round, and the caller's for its end, before they sleep */
#define KPCA_CREW_PARTS_MAX 8 /* parts of a round run at once: the caller's and 7 helpers' */

typedef struct kpca_crew kpca_crew;

/* A crew of `helpers` threads (at most KPCA_CREW_PARTS_MAX - 1),
 * or NULL when out of memory or when not one thread could start (the
 * caller then runs its parts as it did without).  It may hold fewer
 * helpers than asked where a thread could not start.  Free with
 * kpca_crew_free. */
kpca_crew *kpca_crew_new(size_t helpers);

/* Runs fn on each of `parts` parts (the k-th at part + k * size): part 0
 * on the calling thread, part k on helper k - 1, and the parts beyond the
 * crew's helpers on the calling thread after its own.  c NULL: parts 1..
 * on threads started for this round and joined (a part whose thread cannot
 * start runs on the calling thread).  parts 0: nothing.  Returns when
 * every part is done; what fn wrote is then visible to the caller.
 * Allocates nothing but the threads of c NULL.  This is the one home of
 * running parts on threads. */
void kpca_crew_run(kpca_crew *c, void *part, size_t parts, size_t size, void *(*fn)(void *));

/* The helpers c holds (0 for NULL). */
size_t kpca_crew_helpers(const kpca_crew *c);

/* The crew for a round of `parts` parts, kept in *c by a reader that reads
 * block after block: the first round in parts (parts > 1) starts one; a
 * round in more parts than it has helpers (a small first block) a larger
 * one, the old freed; a crew that could not start (*c NULL) is tried once
 * (*tried).  Returns *c, perhaps NULL (kpca_crew_run then starts threads
 * for the round). */
kpca_crew *kpca_crew_for(kpca_crew **c, int *tried, size_t parts);

/* Stops and joins the helpers, frees c.  NULL: nothing. */
void kpca_crew_free(kpca_crew *c);

#endif

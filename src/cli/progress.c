/* progress.c - the progress meter and -v's timing line.
 *
 * The library reports phases through kpca_progress (lib/support/progress.h); the
 * commands report their own reading and writing the same way.  On a
 * terminal (and without -q) the current phase is redrawn on one stderr line
 * at most five times a second, with done/total and an estimate of the time
 * left; the line is erased at the end.  With -v every phase's wall time is
 * summed and printed on one line at the end, terminal or not; a phase that
 * read rows as it went (cli_progress_read: a streamed pass) on two, its
 * reading and the rest ("accumulate: read", "accumulate: compute"). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "progress.h"
#include "lib/support/clock.h"
#include "lib/support/progress.h"

#define MAX_PHASES 64

static struct {
    int draw, verbose, drawn;
    int rank; /* kpca-mpi's rank (0: the plain kpca) */
    const char *cmd;
    char cur[32];
    double cur_start, last_draw, t0;
    double cur_read; /* the current phase's reading so far */
    size_t nph;
    char name[MAX_PHASES][32];
    double sec[MAX_PHASES], rsec[MAX_PHASES];
} pr;

static void close_phase(double now)
{
    if (pr.cur[0] == '\0')
        return;
    size_t i = 0;
    while (i < pr.nph && strcmp(pr.name[i], pr.cur) != 0)
        i++;
    /* the last slot sums every phase beyond the table, so that the timing
     * line still adds up to the total */
    if (i == pr.nph) {
        if (pr.nph < MAX_PHASES - 1)
            snprintf(pr.name[pr.nph++], sizeof pr.name[0], "%s", pr.cur);
        else {
            i = MAX_PHASES - 1;
            if (pr.nph < MAX_PHASES)
                snprintf(pr.name[pr.nph++], sizeof pr.name[0], "other phases");
        }
    }
    pr.sec[i] += now - pr.cur_start;
    pr.rsec[i] += pr.cur_read;
    pr.cur_read = 0;
    pr.cur[0] = '\0';
}

void cli_progress_read(double seconds)
{
    if (pr.cur[0] != '\0')
        pr.cur_read += seconds;
}

static void on_progress(const char *phase, size_t done, size_t total, void *user)
{
    (void)user;
    double now = kpca_now();
    if (strcmp(phase, pr.cur) != 0) {
        close_phase(now);
        snprintf(pr.cur, sizeof pr.cur, "%s", phase);
        pr.cur_start = now;
    }
    int end = done >= total;
    if (pr.draw && (end || done == 0 || now - pr.last_draw >= 0.2)) {
        pr.last_draw = now;
        double spent = now - pr.cur_start;
        char left[32] = "";
        if (done > 0 && !end && spent > 0.5)
            snprintf(left, sizeof left, ", %.0f s left", spent * (double)(total - done) / (double)done);
        if (total > 1)
            fprintf(stderr, "\r\033[Kkpca %s: %s %zu/%zu%s", pr.cmd, phase, done, total, left);
        else
            fprintf(stderr, "\r\033[Kkpca %s: %s%s", pr.cmd, phase, end ? " done" : "...");
        pr.drawn = 1;
    }
    if (end)
        close_phase(now);
}

void cli_progress_begin(const char *cmd, int quiet, int verbose, int rank)
{
    memset(&pr, 0, sizeof pr);
    pr.cmd = cmd;
    pr.rank = rank;
    pr.draw = !quiet && rank == 0 && isatty(STDERR_FILENO);
    pr.verbose = verbose; /* (every process of kpca-mpi: its own reads' times) */
    pr.t0 = kpca_now();
    if (pr.draw || pr.verbose)
        kpca_progress_set(on_progress, NULL);
}

void cli_progress_clear(void)
{
    if (pr.drawn) {
        fprintf(stderr, "\r\033[K");
        pr.drawn = 0;
    }
}

void cli_progress_end(void)
{
    kpca_progress_set(NULL, NULL);
    if (pr.cmd == NULL)
        return;
    double now = kpca_now();
    close_phase(now);
    cli_progress_clear();
    if (pr.verbose) {
        /* one line per phase, then the total, the seconds before the name
         * (a name may have blanks: "svm 64"): "kpca fit: timing 0.134 s read";
         * kpca-mpi's other processes say which they are: "kpca fit (rank 1): ..." */
        char who[64] = "";
        if (pr.rank != 0)
            snprintf(who, sizeof who, " (rank %d)", pr.rank);
        for (size_t i = 0; i < pr.nph; i++) {
            if (pr.rsec[i] > 0 && strcmp(pr.name[i], "read") != 0) {
                const double read = pr.rsec[i] < pr.sec[i] ? pr.rsec[i] : pr.sec[i];
                fprintf(stderr, "kpca %s%s: timing %9.3f s %s: read\n", pr.cmd, who, read, pr.name[i]);
                fprintf(stderr, "kpca %s%s: timing %9.3f s %s: compute\n", pr.cmd, who, pr.sec[i] - read,
                        pr.name[i]);
                continue;
            }
            fprintf(stderr, "kpca %s%s: timing %9.3f s %s\n", pr.cmd, who, pr.sec[i], pr.name[i]);
        }
        fprintf(stderr, "kpca %s%s: timing %9.3f s total\n", pr.cmd, who, now - pr.t0);
    }
    pr.cmd = NULL;
}

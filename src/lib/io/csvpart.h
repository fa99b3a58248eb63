/* csvpart.h - a large CSV read in parts, one thread each, with the rows,
 * the labels and the first error of a read in one part; or a window of a
 * plain file at a time, for the row source (csvpart.c). */
#ifndef KPCA_CSVPART_H
#define KPCA_CSVPART_H

#include "io/csvrows.h"
#include "support/crew.h"
#include "support/parts.h"

/* How many parts the text after the first row is read in
 * (kpca_parts_plan: up to `parts`, 0 for one per online CPU, of at least
 * min_part bytes); 1 for whitespace text and text with quotes, whose rows
 * may span a cut. */
size_t kpca_csv_plan(const csv_state *s, size_t parts, size_t min_part);

/* Cuts [s->p, s->end) at line ends into `parts` parts: part k is
 * [cut[k], cut[k+1]) with nl[k] line ends.  Returns the line ends in all:
 * the one pass over the text that sizes the arrays and places the parts. */
size_t kpca_csv_cut(const csv_state *s, size_t parts, char **cut, size_t *nl);

/* Reads the rows after the first (have: s->f holds it, not yet taken) into
 * R in the parts kpca_csv_cut made (parts >= 2), concurrently, with the
 * rows, labels and first error of a read in one part; lines: the rows
 * there can be.  scan: their labels only, as kpca_csv_scan_rows reads
 * them (x: room for every row, the pandas index's value set). */
kpca_status kpca_csv_read_parts(csv_state *s, csv_rows *R, int have, size_t parts, char *const *cut, const size_t *nl,
                                size_t lines, int scan, kpca_error *err);

/* Room in R for `rows` rows: their values (values 1) and, with a label
 * column, their labels' tokens and lines.  0 when out of memory (the
 * arrays as they were or grown; lcap what both label arrays hold). */
int kpca_csv_rows_room(csv_rows *R, size_t rows, int values);

/* The fast path of the row source's windows (io/csvwin.c) on a plain
 * file: the rows that start in a span of the file's bytes, cut into parts
 * of about equal bytes, each part read (pread) and parsed by a thread of
 * its own, straight from the page cache, with no bytes moved or scanned
 * by one thread for all.  It takes only rows the one-pass path takes
 * (kpca_csv_fast_row, or kpca_csv_scan_row for a pass over the labels)
 * and stops at the first other one (a quote, a blank line, a ragged row, a
 * NUL byte...), which the row reader then reads from its start and, where
 * it is wrong, says so: the rows, labels, lines and messages are the row
 * reader's.  Memory: each part's bytes (its share of the span and its
 * last row; in the labels' pass, one read of f->stretch bytes and a
 * partial row), each part's labels in the labels' pass, and the span's
 * rows in R. */
typedef struct {
    int fd;                       /* the file, when opened (1) */
    int opened;
    unsigned long long size;      /* its size when last looked at (each window) */
    char *buf[KPCA_PARTS_MAX];    /* each part's bytes (and a NUL after them) */
    size_t cap[KPCA_PARTS_MAX];
    char *lab[KPCA_PARTS_MAX];    /* the labels' pass: each part's labels, NUL after each */
    size_t lablen[KPCA_PARTS_MAX], labcap[KPCA_PARTS_MAX];
    size_t *loff[KPCA_PARTS_MAX]; /* where each starts in lab[k] */
    size_t locap[KPCA_PARTS_MAX];
    size_t stretch;               /* the labels' pass: bytes a part reads at a time (0: 256 KiB; tests set less) */
    /* set by the caller for the next window: room for dest_room rows of
     * R->dim values, where a window's values may go instead of R->x;
     * direct is 1 after a window that put them there */
    double *dest;
    size_t dest_room;
    int direct;
    kpca_crew *crew;              /* the parts' threads, kept from window to window (NULL: started each time) */
    int crew_tried;
} csv_fastwin;

/* Opens path for the fast windows: 1 for a regular file (f->fd open,
 * f->opened 1), which the caller knows holds plain text (text/bytes.h
 * found no compression); 0 otherwise (a FIFO, unreadable: f->opened 0,
 * and the row reader reads it).  Close with kpca_csv_fastwin_close. */
int kpca_csv_fastwin_open(csv_fastwin *f, const char *path);
void kpca_csv_fastwin_close(csv_fastwin *f);

/* Parses the rows that start in [*from, *from + span) of the text, which
 * ends at byte `stop` (at most the file's size now), into R after its R->n rows (the
 * last row read on past the span to its end): *from is a row's start, on
 * line s->line, and both move past the rows taken.  In `parts` parts
 * (0: one per online CPU; kpca_parts_plan) of at least min_part bytes, one
 * thread each.  scan: the labels and the pandas index
 * only (kpca_csv_scan_row).  *declined 1 when it stopped at a row the
 * one-pass path does not take, or a read failed: *from is that row's
 * start, s->line its line (R holds the rows before it, perhaps none).
 * With f->dest set, a window whose rows (R->n 0 before it) all fit in
 * f->dest_room, parsing values without a pandas index, parses them there
 * (row i at dest + i R->dim; the rows of parts after one that stopped may
 * be written past R->n) and sets f->direct; R->x is then not written.
 * KPCA_ENOMEM (R unchanged but perhaps grown); nothing else fails. */
kpca_status kpca_csv_fastwin_next(csv_fastwin *f, csv_state *s, csv_rows *R, unsigned long long *from,
                                  unsigned long long stop, size_t span, size_t parts, size_t min_part, int scan,
                                  int *declined, kpca_error *err);

#endif

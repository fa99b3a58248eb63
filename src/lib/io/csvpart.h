/* csvpart.h - a large CSV read in parts, one thread each, with the rows,
 * the labels and the first error of a read in one part; or streamed from
 * a plain file without holding its text (csvpart.c). */
#ifndef KPCA_CSVPART_H
#define KPCA_CSVPART_H

#include "io/csvrows.h"

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

/* The read of a large plain file without holding its text: 1 with *ds
 * filled when every row after the first is one the one-pass path takes
 * (kpca_csv_fast_row) and labels are at most KPCA_CSV_LABEL_MAX bytes; 0
 * otherwise (*ds empty, err unspecified), and the caller reads the file
 * in memory, which finds the same rows or says what is wrong.  The file
 * is read twice from the page cache, in stretches of `stretch` bytes (0:
 * 1 MiB) by kpca_parts_plan(size, parts, min_part) threads: once to count
 * the line ends of each part (rows land where they stay), once to parse.
 * Memory: the result, and two stretches per thread. */
int kpca_csv_stream(const char *path, char delim, const kpca_read_opts *opts, size_t parts, size_t min_part,
                    size_t stretch, kpca_dataset *ds, kpca_error *err);

#define KPCA_CSV_LABEL_MAX 15

#endif

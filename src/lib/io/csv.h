/* csv.h - delimited text: CSV, semicolon-separated and TSV files.
 *
 * One row per line (a quoted field may span lines), fields separated by
 * one delimiter: ',', ';' or tab, found from the first lines when not
 * given; or, for whitespace text read with a label option, runs of blanks.
 * RFC 4180 quoting ("a ""b"" c"); CRLF or LF; gzip through zlib; blank
 * lines skipped.  The first row is a header when it is not all numbers
 * (KPCA_HEADER_AUTO) or when told so.  One column may hold the labels
 * (kpca_read_opts.label; io/labels.h: integers or names), every other
 * field must be a finite number.  Errors name the file, line and column:
 * "'x.csv' line 7, column 3: expected a number, found 'NA'".
 */
#ifndef KPCA_CSV_H
#define KPCA_CSV_H

#include <stddef.h>

#include "io/dataset.h"

/* Reads path into *ds.  delim: ',', ';', '\t', ' ' (runs of blanks), or 0
 * to sniff (',' when nothing is found: one column).  opts (may be NULL)
 * gives the header rule, the label column and the expected dimension.  A
 * large plain file (8 MiB and more on 2 CPUs) is parsed as it is read, by
 * one thread per online CPU (at most 8, each part at least 4 MiB), without
 * holding its text, when every row is plain (no quotes, blank lines or
 * blanks in fields, labels of at most 15 bytes); any other file, and a
 * gzip file, is held in memory while reading, and parsed in parts when it
 * has no quotes.  Every way gives the same result and the same first
 * error as one part.  On failure *ds is left empty. */
kpca_status kpca_read_csv(const char *path, char delim, const kpca_read_opts *opts, kpca_dataset *ds,
                          kpca_error *err);

/* kpca_read_csv in at most `parts` parts (0: one per online CPU) of at
 * least min_part bytes (0: any size), streamed in stretches of `stretch`
 * bytes (0: 1 MiB; KPCA_CSV_IN_MEMORY: not streamed, the text held in
 * memory); for the tests, which split small files to compare with one
 * part. */
kpca_status kpca_read_csv_parts(const char *path, char delim, const kpca_read_opts *opts, size_t parts,
                                size_t min_part, size_t stretch, kpca_dataset *ds, kpca_error *err);

#define KPCA_CSV_IN_MEMORY ((size_t)-1)

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

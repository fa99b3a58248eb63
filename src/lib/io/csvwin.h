/* csvwin.h - delimited text read by windows of the file (csvwin.c), for
 * the row source (rowsrc.c, rowpart.c). */
#ifndef KPCA_CSVWIN_H
#define KPCA_CSVWIN_H

#include "text/bytes.h"

#include "io/csvpart.h"
#include "io/csvrows.h"

/* Delimited text read by windows of about 4 MiB of the
 * file, each cut at the end of a whole row (quotes counted) and parsed by
 * kpca_csv_read_rows; of a plain file, once its first row is taken, by
 * the fast windows of csvpart.h, whose parts each thread reads itself,
 * for as long as they take the rows; memory a window and its rows,
 * whatever the file's size. */
typedef struct {
    kpca_bytes *bytes;
    const char *path;
    char *buf;      /* the window: bytes [0, len), NUL after them */
    size_t cap, len;
    int eof;
    csv_state s;    /* s.p .. s.end: the rows of the window not yet parsed */
    csv_rows R;     /* the layout, and the rows of the last parse (R.x, R.n) */
    char **hdr;     /* the header's names, owned (R.hdr points at them) */
    int have;       /* s.f holds the first row, not yet taken */
    unsigned long long base; /* the file's byte at buf[0] */
    int limited;    /* read no more than `left` bytes more of the file */
    unsigned long long left;
    int scan;       /* set by the caller: the rows' labels (and a pandas
                     * index) only, their values not parsed (kpca_csv_scan_rows) */
    /* the fast windows of a plain file (io/csvpart.h): used once the
     * first row is taken, but for a window of the row reader after one
     * that stops at a row they do not take, and not at all after a few in
     * a row that stop at their first row */
    csv_fastwin fast;
    size_t span, fast_part; /* a window's bytes (either path), a fast part's
                             * least (tests set them small) */
    size_t fast_parts;           /* parts of a window: 0, one per online CPU (tests set more) */
    unsigned long long fast_rows; /* the rows the fast windows took */
    size_t direct_n;             /* the window's rows whose values went to fast.dest (all or none) */
    int fast_off, fell, fast_miss;
    int reseek;                  /* the byte source is not at base + len: seek it */
    unsigned long long stop;     /* kpca_csv_win_limit's end (ULLONG_MAX: none) */
} csv_win;

/* Opens path (plain or compressed: text/bytes.h) and reads its first row, the header or the
 * first data row (then in s.f, taken by the first next): the layout in R,
 * as the whole read finds it (delim 0: sniffed; opts: the read options).
 * The whole read's messages for a wide encoding, a NUL byte, damaged data.
 * Close with kpca_csv_win_close, also after a failure. */
kpca_status kpca_csv_win_open(csv_win *w, const char *path, char delim, const kpca_read_opts *opts, kpca_error *err);

/* Test hook: the windows opened after this call are of `span` bytes, cut
 * into `parts` fast parts (0: one per online CPU) of at least `part`
 * bytes; 0, 0, 0: the defaults.  So the row source's tests meet the fast
 * windows on small files.  Not thread-safe; tests only. */
void kpca_csv_win_test_sizes(size_t span, size_t part, size_t parts);
/* Parses the next window's rows into R (R.n of them, R.taken before them;
 * R.n is 0 only at the end: a window of blank lines alone is passed over);
 * *more 0 at the end of the file.  The label tokens point into the window
 * until the next call. */
kpca_status kpca_csv_win_next(csv_win *w, int *more, kpca_error *err);
void kpca_csv_win_close(csv_win *w);
/* The file's byte after the rows parsed so far (after the first row, once
 * opened). */
unsigned long long kpca_csv_win_tell(const csv_win *w);
/* Reads no byte at or after `end` of the file: the text ends there (a row
 * cut there is read as the file's last). */
void kpca_csv_win_limit(csv_win *w, unsigned long long end);
/* Goes on from byte `byte` of the file, a row's start on line `line`
 * after `before` data rows, with the layout of the open (a plain file: a
 * seek; compressed: read up to it): the next kpca_csv_win_next parses the rows
 * from there.  KPCA_EIO when the file cannot seek. */
kpca_status kpca_csv_win_jump(csv_win *w, unsigned long long byte, size_t line, size_t before, kpca_error *err);

#endif

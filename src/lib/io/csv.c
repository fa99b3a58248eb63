/* csv.c - delimited text reader (see csv.h): the whole read, in one part
 * or in several (csvpart.c), of the rows csvrows.c parses. */
#include "io/csv.h"

#include <string.h>

#include "io/csvpart.h"
#include "io/csvrows.h"
#include "io/labels.h"
#include "text/csvtok.h"
#include "text/textfile.h"
#include "support/mem.h"
#include "support/parts.h"


kpca_status kpca_read_csv_parts(const char *path, char delim, const kpca_read_opts *opts, size_t parts,
                                size_t min_part, size_t stretch, kpca_dataset *ds, kpca_error *err)
{
    memset(ds, 0, sizeof *ds);
    /* a large plain file: parsed as it is read, by one thread per CPU */
    if (stretch != KPCA_CSV_IN_MEMORY && kpca_csv_stream(path, delim, opts, parts, min_part, stretch, ds, err))
        return KPCA_OK;
    kpca_error_clear(err); /* what the streamed read saw before it gave up */
    char *buf;
    size_t len;
    kpca_status st = kpca_read_text_file(path, &buf, &len, err);
    if (st != KPCA_OK)
        return st;
    const char mark = opts != NULL && opts->decimal == ',' ? ',' : '.';
    /* --skip-rows: the text starts after the lines skipped, on the file's next line */
    const size_t skip = opts != NULL ? opts->skip_rows : 0;
    size_t skipped = 0, from = kpca_textfile_skip(buf, len, skip, &skipped);
    if (skip > 0 && from == len) {
        kpca_free(buf);
        return kpca_textfile_skip_fail(path, skipped, skip, err);
    }
    if (delim == 0)
        delim = kpca_csv_delim(buf + from, len - from, mark);
    csv_state s = {.path = path, .p = buf + from, .end = buf + len, .line = 1 + skipped,
                   .delim = delim ? delim : ',', .mark = mark};
    csv_rows R = {.col = NO_COLUMN, .index = NO_COLUMN};
    int header;
    if ((st = kpca_csv_first_row(&s, &R, opts, &header, err)) != KPCA_OK)
        goto done;
    /* room for the rows there can be: the row read, one per line left (and
     * the loop's look past the last), and no more than rows of ncols
     * one-character fields (when that allocation fails, x grows) */
    char *cut[KPCA_PARTS_MAX + 1];
    size_t nl[KPCA_PARTS_MAX];
    parts = kpca_csv_plan(&s, parts, min_part);
    size_t lines = 3 + kpca_csv_cut(&s, parts, cut, nl);
    size_t most = (size_t)(s.end - s.p) / (2 * R.ncols) + 3;
    if ((R.x = kpca_alloc_array(lines < most ? lines : most, R.dim, sizeof *R.x)) != NULL)
        R.xcap = (lines < most ? lines : most) * R.dim;
    if (parts > 1 && lines <= most)
        st = kpca_csv_read_parts(&s, &R, !header, parts, cut, nl, lines, 0, err);
    else
        st = kpca_csv_read_rows(&s, &R, !header, s.delim != ' ', err);
    if (st == KPCA_OK)
        st = kpca_csv_finish(path, &R, ds, err);
done:
    if (st != KPCA_OK)
        kpca_dataset_free(ds);
    kpca_csv_rows_free(&R);
    kpca_free(s.f);
    kpca_free(s.fline);
    kpca_free(buf);
    return st;
}

kpca_status kpca_read_csv(const char *path, char delim, const kpca_read_opts *opts, kpca_dataset *ds,
                          kpca_error *err)
{
    return kpca_read_csv_parts(path, delim, opts, 0, KPCA_PART_MIN, 0, ds, err);
}

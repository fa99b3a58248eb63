/* table.c - the tables kpca writes: one column list, three formats.
 *
 * CSV, Markdown and JSON carry the same column names in the same order;
 * every cell is a number printed by the caller in the C locale (kpca never
 * calls setlocale), "" for a missing value (empty in CSV, "-" in Markdown,
 * null in JSON).  Files are written atomically (lib/file/atomic.h); "-" is
 * standard output. */
#include <stdio.h>

#include "cli.h"

static void write_body(FILE *fp, cli_table_format fmt, const char *const *cols, size_t ncols, size_t nrows,
                       cli_row_cells cells, void *ctx)
{
    char cell[CLI_TABLE_MAX_COLS][CLI_CELL];
    switch (fmt) {
    case CLI_TABLE_CSV:
        for (size_t j = 0; j < ncols; j++)
            fprintf(fp, "%s%s", j ? "," : "", cols[j]);
        fprintf(fp, "\n");
        for (size_t i = 0; i < nrows; i++) {
            cells(i, cell, ctx);
            for (size_t j = 0; j < ncols; j++)
                fprintf(fp, "%s%s", j ? "," : "", cell[j]);
            fprintf(fp, "\n");
        }
        break;
    case CLI_TABLE_MARKDOWN:
        for (size_t j = 0; j < ncols; j++)
            fprintf(fp, "| %s ", cols[j]);
        fprintf(fp, "|\n");
        for (size_t j = 0; j < ncols; j++)
            fprintf(fp, "|---:");
        fprintf(fp, "|\n");
        for (size_t i = 0; i < nrows; i++) {
            cells(i, cell, ctx);
            for (size_t j = 0; j < ncols; j++)
                fprintf(fp, "| %s ", cell[j][0] ? cell[j] : "-");
            fprintf(fp, "|\n");
        }
        break;
    default: /* JSON: an array of objects */
        fprintf(fp, "[\n");
        for (size_t i = 0; i < nrows; i++) {
            cells(i, cell, ctx);
            fprintf(fp, "  {");
            for (size_t j = 0; j < ncols; j++)
                fprintf(fp, "%s\"%s\": %s", j ? ", " : "", cols[j], cell[j][0] ? cell[j] : "null");
            fprintf(fp, "}%s\n", i + 1 < nrows ? "," : "");
        }
        fprintf(fp, "]\n");
    }
}

int cli_table_write_all(const char *csv, const char *markdown, const char *json, const char *const *cols,
                        size_t ncols, size_t nrows, cli_row_cells cells, void *ctx)
{
    const char *paths[3] = {csv, markdown, json};
    kpca_atomic at[3];
    int open[3] = {0, 0, 0};
    kpca_error err;
    if (ncols > CLI_TABLE_MAX_COLS) {
        cli_error("internal: a table of %zu columns (at most %d)", ncols, CLI_TABLE_MAX_COLS);
        return KPCA_EINTERNAL;
    }
    /* every destination opened before any is written, and none committed
     * until all are complete: a failure leaves no table file behind */
    int r = 0;
    for (int f = 0; f < 3 && r == 0; f++)
        if (paths[f] != NULL) {
            if (kpca_atomic_begin(&at[f], paths[f], &err) != KPCA_OK)
                r = cli_fail(&err);
            else
                open[f] = 1;
        }
    for (int f = 0; f < 3 && r == 0; f++)
        if (open[f])
            write_body(at[f].fp, (cli_table_format)f, cols, ncols, nrows, cells, ctx);
    /* every file complete and closed (close reports write errors, /dev/full's
     * too) before any is renamed into place; one that fails is removed */
    for (int f = 0; f < 3 && r == 0; f++)
        if (open[f] && kpca_atomic_close(&at[f], &err) != KPCA_OK) {
            open[f] = 0;
            r = cli_fail(&err);
        }
    for (int f = 0; f < 3; f++) {
        if (!open[f])
            continue;
        if (r != 0)
            kpca_atomic_abort(&at[f]);
        else if (kpca_atomic_commit(&at[f], &err) != KPCA_OK)
            r = cli_fail(&err);
    }
    return r;
}

/* table.c - the tables kpca writes: one column list, three formats.
 *
 * CSV, Markdown and JSON carry the same column names in the same order;
 * every cell is a number printed by the caller in the C locale (kpca never
 * calls setlocale), "" for a missing value (empty in CSV, "-" in Markdown,
 * null in JSON).  Files are written atomically (lib/atomic.h); "-" is
 * standard output. */
#include <stdio.h>

#include "cli.h"

int cli_table_write(const char *path, cli_table_format fmt, const char *const *cols, size_t ncols, size_t nrows,
                    cli_row_cells cells, void *ctx)
{
    kpca_atomic at;
    kpca_error err;
    char cell[CLI_TABLE_MAX_COLS][CLI_CELL];
    if (ncols > CLI_TABLE_MAX_COLS) {
        cli_error("internal: a table of %zu columns (at most %d)", ncols, CLI_TABLE_MAX_COLS);
        return KPCA_EINTERNAL;
    }
    if (kpca_atomic_begin(&at, path, &err) != KPCA_OK)
        return cli_fail(&err);
    FILE *fp = at.fp;
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
    if (kpca_atomic_commit(&at, &err) != KPCA_OK)
        return cli_fail(&err);
    return 0;
}

int cli_table_write_all(const char *csv, const char *markdown, const char *json, const char *const *cols,
                        size_t ncols, size_t nrows, cli_row_cells cells, void *ctx)
{
    int r = 0;
    if (csv)
        r = cli_table_write(csv, CLI_TABLE_CSV, cols, ncols, nrows, cells, ctx);
    if (r == 0 && markdown)
        r = cli_table_write(markdown, CLI_TABLE_MARKDOWN, cols, ncols, nrows, cells, ctx);
    if (r == 0 && json)
        r = cli_table_write(json, CLI_TABLE_JSON, cols, ncols, nrows, cells, ctx);
    return r;
}

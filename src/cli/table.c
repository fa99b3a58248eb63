/* table.c - the tables kpca writes: one column list, three formats.
 *
 * CSV, Markdown and JSON carry the same column names in the same order;
 * every cell is a number printed by the caller in the C locale (kpca never
 * calls setlocale), "" for a missing value (empty in CSV, "-" in Markdown,
 * null in JSON).  Files are written atomically (lib/file/atomic.h); "-" is
 * standard output.
 *
 * And what every command's outputs share: an output file's format (from
 * --output-format or its suffix), the warning when LIBSVM drops class
 * names, a number as the shortest text that reads back as it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "table.h"
#include "cli.h"
#include "lib/file/atomic.h"
#include "opt.h"

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

/* ---- output files and the numbers written in them ------------------------- */

int cli_output_format(const char *path, const char *name, kpca_format *out)
{
    *out = kpca_format_from_name(path);
    size_t len = strlen(path);
    if (len >= 3 && strcasecmp(path + len - 3, ".gz") == 0)
        return cli_usage("'%s': kpca does not write compressed files; drop '.gz' (or write to '-' and pipe "
                         "through gzip)",
                         path);
    if (name != NULL) {
        if (kpca_format_parse(name, out) != 0 || *out == KPCA_FMT_ESL || *out == KPCA_FMT_AUTO)
            return cli_usage("option '--output-format': expected hdf5, libsvm, csv or npy, got '%s'", name);
        return 0;
    }
    /* a device, FIFO or directory has no suffix to go by: text, as on
     * standard output (a directory is refused by cli_check_outputs) */
    struct stat sb;
    if (*out == KPCA_FMT_AUTO && stat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
        *out = KPCA_FMT_LIBSVM;
    if (*out == KPCA_FMT_AUTO)
        return cli_usage("'%s': no known output suffix: end the name in %s, or give the format with -f hdf5, csv, npy or "
                         "libsvm", path, KPCA_FEATURE_SUFFIXES);
    return 0;
}

void cli_names_list(char *const *names, size_t n, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && len + 1 < size; i++) {
        int w = i < 12 ? snprintf(buf + len, size - len, "%s%s", i ? ", " : "", names[i])
                       : snprintf(buf + len, size - len, ", ...");
        len += w > 0 ? (size_t)w : 0;
        if (i >= 12)
            break;
    }
}

void cli_warn_names_dropped(const kpca_dataset *ds, kpca_format fmt)
{
    if (ds->names == NULL || ds->unlabelled || fmt != KPCA_FMT_LIBSVM)
        return;
    char list[200];
    cli_names_list(ds->names, ds->nnames, list, sizeof list);
    cli_warn("class names are not kept in LIBSVM files: labels 0..%zu stand for %s (write .csv or .h5 to keep "
             "them)", ds->nnames - 1, list);
}

const char *cli_number(double v, char buf[CLI_NUMBER_MAX])
{
    for (int digits = 15; digits < 17; digits++) {
        snprintf(buf, CLI_NUMBER_MAX, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            return buf;
    }
    snprintf(buf, CLI_NUMBER_MAX, "%.17g", v);
    return buf;
}

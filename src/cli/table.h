/* table.h - the tables kpca writes, and what every command's outputs share
 * (table.c). */
#ifndef KPCA_CLI_TABLE_H
#define KPCA_CLI_TABLE_H

#include <stddef.h>

#include "lib/kpca.h"

/* Tables: CSV, Markdown and JSON with one column list. */
typedef enum { CLI_TABLE_CSV, CLI_TABLE_MARKDOWN, CLI_TABLE_JSON } cli_table_format;
#define CLI_CELL 40
#define CLI_TABLE_MAX_COLS 16
/* Fills cell[0..ncols-1] with row `row` as text ("" for a missing value). */
typedef void (*cli_row_cells)(size_t row, char (*cell)[CLI_CELL], void *ctx);
/* Writes the table into each of the paths that is not NULL ("-": stdout),
 * atomically and all or none: every file is opened before any is written
 * and committed only when all are complete.  0 or an exit code. */
int cli_table_write_all(const char *csv, const char *markdown, const char *json, const char *const *cols,
                        size_t ncols, size_t nrows, cli_row_cells cells, void *ctx);

/* The format of an output file: from --output-format NAME (hdf5, libsvm or
 * csv) when given, else from the file name's suffix (kpca_format_from_name;
 * LIBSVM for "-" and an existing device, FIFO or directory); a name of no
 * known suffix is refused.  0 or KPCA_EUSAGE (reported). */
int cli_output_format(const char *path, const char *name, kpca_format *out);
/* "a, b, c" of the first class names (", ..." after 12) into buf,
 * truncated to size. */
void cli_names_list(char *const *names, size_t n, char *buf, size_t size);
/* Warns when a data set with class names is written as LIBSVM, whose
 * labels are numbers: the codes are written, and the warning says which
 * name each stands for. */
void cli_warn_names_dropped(const kpca_dataset *ds, kpca_format fmt);
/* v as the shortest of %.15g, %.16g and %.17g that reads back as v, in buf;
 * returns buf. */
#define CLI_NUMBER_MAX 32
const char *cli_number(double v, char buf[CLI_NUMBER_MAX]);

#endif

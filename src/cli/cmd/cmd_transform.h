/* cmd_transform.h - how kpca transform splits its rows and writes them
 * (cmd_transform.c), which kpca-mpi replaces. */
#ifndef KPCA_CLI_CMD_TRANSFORM_H
#define KPCA_CLI_CMD_TRANSFORM_H

#include <stddef.h>

#include "cli/input.h"
#include "lib/kpca.h"

/* How transform splits its n rows and writes them (cmd_transform.c: one
 * process; kpca-mpi: each rank its own run of rows into the one file,
 * src/mpi/dist_out.c).  Every process calls open, then (when open
 * succeeded) agree, and then reduce when the agreed status is KPCA_OK,
 * then close: each is collective.
 *   rows   this process's rows [*first, *first + *count) of n (read from
 *          src), a run that starts at a multiple of KPCA_TRANSFORM_BLOCK
 *          (core/project.h)
 *   open   kpca_features_open's contract for this process's rows
 *   agree  the status of every process: st where all are KPCA_OK, else the
 *          first failure's, its message in err
 *   reduce the data's statistics over every process (into each's)
 *   close  with st KPCA_OK, commits the file (collectively), else removes
 *          it; frees w; the outcome on every process */
typedef struct {
    void (*rows)(size_t n, const kpca_rowsrc *src, size_t *first, size_t *count);
    kpca_status (*open)(const char *path, kpca_format fmt, size_t n, size_t k, int labelled,
                        const kpca_features_meta *meta, size_t first, size_t count, kpca_features_writer **w,
                        kpca_error *err);
    kpca_status (*agree)(kpca_status st, kpca_error *err);
    void (*reduce)(cli_data_stats *s);
    kpca_status (*close)(kpca_features_writer *w, kpca_status st, kpca_error *err);
} cli_transform_io;
/* How transform splits its rows and writes them: one process (cmd_transform.c),
 * or each rank its own run of rows (kpca-mpi sets it: src/mpi/dist_out.c). */
extern const cli_transform_io *cli_transform_out;

#endif

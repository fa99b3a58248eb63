/* main_mpi.c - the program kpca-mpi: kpca's command line on every MPI rank,
 * with the exact fit, the Nyström fit and the projection distributed
 * (dist.h).
 *
 *   mpirun -n P kpca-mpi fit [options] DATA -o MODEL
 *   mpirun -n P kpca-mpi transform [options] MODEL DATA -o FEATURES
 *
 * Every rank parses the same options and reads the same inputs (the
 * Nyström fit and transform: each its own rows of DATA, of a text file its
 * own part, cli_rowsrc_share); rank 0 alone prints; fit's model is rank
 * 0's to write, transform's features every rank's, each its rows in place.
 * The exit status of every rank is the command's (mpirun reports the first
 * non-zero one). */
#include <mpi.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/cmd/cmd_transform.h"
#include "cli/cmd/fit_rows.h"
#include "cli/coretype.h"
#include "cli/main.h"
#include "cli/rows.h"
#include "cli/spool.h"
#include "cli/prologue.h"
#include "dist.h"
#include "lib/support/blas.h"

int main(int argc, char **argv)
{
    cli_coretype_reexec(argv); /* before MPI_Init: it may re-execute the program */
    kpca_blas_park(); /* OpenBLAS's workers spin after it loads (kpca.c): parked, not beside the other ranks */
    MPI_Init(&argc, &argv);
    kpca_dist_init();
    cli_rank = kpca_dist_rank();
    cli_ranks = kpca_dist_size(); /* every rank reads the inputs: no streams (cli_spool_inputs) */
    /* usage, help and version texts once, from rank 0 (the other ranks
     * never write data to standard output: only rank 0 writes outputs) */
    if (cli_rank != 0) {
        FILE *devnull = freopen("/dev/null", "w", stdout);
        (void)devnull; /* if that fails, a second copy of a help text is harmless */
    }
    kpca_model_set_exact_solver(kpca_dist_fit);
    cli_device_mpi = 1; /* --device cuda refused, auto the CPU */
    cli_transform_out = &kpca_dist_out;
    cli_nys_comm = kpca_dist_nystrom();
    if (cli_ranks > 1) /* DATA's text cut into one part a rank */
        cli_rowsrc_share = kpca_dist_rowsrc();
    int rc = cli_main(argc, argv);
    if (!kpca_dist_entered()) {
        /* this rank failed (or finished) before any distributed step: meet
         * the first agreement of the ranks inside one, so none waits */
        kpca_error err;
        kpca_error_clear(&err);
        kpca_status st = kpca_dist_agree(rc == 0 ? KPCA_OK : (kpca_status)rc, cli_last_error, &err);
        if (rc == 0 && st != KPCA_OK)
            rc = (int)st;
    }
    MPI_Finalize();
    return rc;
}

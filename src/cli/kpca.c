/* kpca.c - the program kpca: the command line of main.c on one process
 * (kpca-mpi has its own main, src/mpi/main_mpi.c). */
#include "coretype.h"
#include "main.h"
#include "lib/support/blas.h"

int main(int argc, char **argv)
{
    cli_coretype_reexec(argv); /* returns unless it re-executes the program */
    /* OpenBLAS starts its workers as it loads, and each spins some 0.1 s
     * waiting for work: parked, they take no core from kpca's own threads
     * (a read's parsers) meanwhile; the first parallel BLAS call starts them */
    kpca_blas_park();
    return cli_main(argc, argv);
}

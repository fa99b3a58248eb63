/* kpca.c - the program kpca: the command line of main.c on one process
 * (kpca-mpi has its own main, src/mpi/main_mpi.c). */
#include "coretype.h"
#include "main.h"

int main(int argc, char **argv)
{
    cli_coretype_reexec(argv); /* returns unless it re-executes the program */
    return cli_main(argc, argv);
}

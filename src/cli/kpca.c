/* kpca.c - the program kpca: the command line of main.c on one process
 * (kpca-mpi has its own main, src/mpi/main_mpi.c). */
#include "cli.h"

int main(int argc, char **argv)
{
    return cli_main(argc, argv);
}

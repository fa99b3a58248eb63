/* main.h - the command line's entry point (main.c). */
#ifndef KPCA_CLI_MAIN_H
#define KPCA_CLI_MAIN_H

/* The command line's entry point (main.c): the program's main() calls it. */
int cli_main(int argc, char **argv);

#endif

/* man.h - the kpca(1) man page (man.c). */
#ifndef KPCA_CLI_MAN_H
#define KPCA_CLI_MAN_H

#include <stddef.h>
#include <stdio.h>

#include "opt.h"

/* The kpca(1) man page (roff) from the command tables. */
void cli_print_man(FILE *fp, const cli_command *const *cmds, size_t n);

#endif

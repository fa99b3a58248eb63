/* cmds.h - the commands: one file each in cmd/, its entry point cmd_NAME and
 * its table cli_NAME_command (options, synopsis, help), which main.c
 * dispatches to.  Nothing but main.c and the commands' own files includes
 * it: cmd/ ranks above every other file of src/cli (docs/hacking.md). */
#ifndef KPCA_CLI_CMDS_H
#define KPCA_CLI_CMDS_H

#include "opt.h"

int cmd_fit(int argc, char **argv);
int cmd_transform(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_spectrum(int argc, char **argv);
int cmd_denoise(int argc, char **argv);
int cmd_reduce(int argc, char **argv);
int cmd_cluster(int argc, char **argv);

extern const cli_command cli_fit_command;
extern const cli_command cli_transform_command;
extern const cli_command cli_eval_command;
extern const cli_command cli_info_command;
extern const cli_command cli_merge_command;
extern const cli_command cli_spectrum_command;
extern const cli_command cli_denoise_command;
extern const cli_command cli_reduce_command;
extern const cli_command cli_cluster_command;

#endif

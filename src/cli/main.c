/* main.c - the kpca command: dispatch to one cmd_*() per subcommand. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "main.h"
#include "cmds.h"
#include "prologue.h"
#include "lib/file/atomic.h"
#include "lib/kpca.h"
#include "lib/support/blas.h"
#include "man.h"
#include "opt.h"
#include "progress.h"
#include "spool.h"

static const cli_command *const commands[] = {
    &cli_fit_command,
    &cli_transform_command,
    &cli_eval_command,
    &cli_info_command,
    &cli_spectrum_command,
    &cli_denoise_command,
    &cli_reduce_command,
    &cli_cluster_command,
    &cli_merge_command,
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *fp)
{
    fprintf(fp, "usage: kpca <command> [options] [arguments]\n\n"
                "Kernel PCA (polynomial, rbf, sigmoid, linear, laplacian, cosine and chi2\nkernels, or a kernel "
                "matrix of your own), and linear SVMs on its components\n"
                "(Schoelkopf, Smola & Mueller 1998).\n\ncommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(fp, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
    fprintf(fp, "  %-10s %s\n", "help", "show the help of a command: kpca help fit, kpca --help fit or kpca fit --help");
    fprintf(fp, "  %-10s %s\n", "version", "print the version and exit");
    fprintf(fp, "  %-10s %s\n", "help --man", "print the kpca(1) man page (roff)");
    fprintf(fp, "\nexit codes:\n");
    for (int c = KPCA_OK; c <= KPCA_STATUS_LAST; c++)
        fprintf(fp, "  %d  %s\n", c, kpca_status_meaning((kpca_status)c));
}

static const cli_command *find(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i]->name, name) == 0)
            return commands[i];
    return NULL;
}

/* On SIGINT, SIGTERM, SIGHUP, SIGPIPE or SIGXFSZ (a file past the size
 * limit, ulimit -f: a spool or an output): remove the outputs being written
 * and the spools (unlink is async-signal-safe), then die of the signal as
 * usual. */
static void on_signal(int sig)
{
    for (size_t i = 0; i < KPCA_ATOMIC_MAX_PENDING; i++) {
        const char *tmp = kpca_atomic_pending(i);
        if (tmp != NULL)
            unlink(tmp);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_signal_handlers(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old;
        /* keep a signal ignored if our parent ignores it (nohup, sh &) */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(sigs[i], &sa, NULL);
    }
}

static int finish(int rc)
{
    cli_progress_end();
    cli_spool_close_all();
    cli_device_end();
    /* stdout may be a pipe or a full disk: report a failed final flush */
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "error: cannot write to standard output: %s\n", strerror(errno));
        return rc ? rc : KPCA_EIO;
    }
    return rc;
}

int cli_main(int argc, char **argv)
{
    install_signal_handlers();
    if (argc < 2) {
        usage(stderr);
        return KPCA_EUSAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
        printf("kpca %s\n", KPCA_VERSION);
        if (kpca_blas_is_openblas())
            printf("OpenBLAS %s\n", kpca_blas_core());
        else
            printf("BLAS: not OpenBLAS (reference BLAS or another; no kernel name to report)\n");
        cli_device_version(stdout);
        return finish(0);
    }
    /* kpca help [CMD], kpca --help [CMD], kpca -h [CMD] */
    if (strcmp(name, "help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0) {
        if (argc < 3) {
            usage(stdout);
            return finish(0);
        }
        if (strcmp(argv[2], "--man") == 0) {
            cli_print_man(stdout, commands, NCOMMANDS);
            return finish(0);
        }
        const cli_command *c = find(argv[2]);
        if (c == NULL) {
            fprintf(stderr, "error: unknown command '%s'\n", argv[2]);
            return KPCA_EUSAGE;
        }
        cli_print_help(c, stdout);
        return finish(0);
    }
    const cli_command *cmd = find(name);
    if (cmd == NULL) {
        fprintf(stderr, "error: unknown command '%s'\nsee 'kpca --help'\n", name);
        return KPCA_EUSAGE;
    }
    return finish(cmd->run(argc - 1, argv + 1));
}

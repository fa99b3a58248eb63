/* man.c - `kpca help --man`: the kpca(1) man page, made from the same
 * command and option tables as every --help, so the two cannot drift.
 * The exit codes and their meanings come from the library's status codes
 * (kpca_status_meaning), which the usage text and docs/guarantees.md print
 * too. */
#include <stdio.h>
#include <string.h>

#include "man.h"
#include "lib/kpca.h"
#include "opt.h"


/* Writes s as roff text: backslashes escaped, '-' as \-, '"' as \(dq, a leading '.' or
 * '\'' guarded, each newline ending a line. */
static void roff(FILE *fp, const char *s)
{
    int bol = 1;
    for (; *s; s++) {
        if (bol && (*s == '.' || *s == '\''))
            fputs("\\&", fp);
        bol = 0;
        switch (*s) {
        case '\\': fputs("\\e", fp); break;
        case '-': fputs("\\-", fp); break;
        case '"': fputs("\\(dq", fp); break;
        case '\n': fputc('\n', fp); bol = 1; break;
        default: fputc(*s, fp);
        }
    }
}

static void option(FILE *fp, const cli_option *o)
{
    fputs(".TP\n", fp);
    if (o->short_name)
        fprintf(fp, "\\fB\\-%c\\fR, ", o->short_name);
    fputs("\\fB\\-\\-", fp);
    roff(fp, o->name);
    fputs("\\fR", fp);
    if (o->arg != NULL) {
        fputs(" \\fI", fp);
        roff(fp, o->arg);
        fputs("\\fR", fp);
    }
    fputc('\n', fp);
    roff(fp, o->help);
    fputc('\n', fp);
}

void cli_print_man(FILE *fp, const cli_command *const *cmds, size_t n)
{
    fprintf(fp, ".\\\" kpca(1), made by `kpca help --man` from the option tables; do not edit.\n");
    fprintf(fp, ".TH KPCA 1 \"\" \"kpca %s\" \"User Commands\"\n", KPCA_VERSION);
    fputs(".SH NAME\nkpca \\- kernel PCA experiments on the USPS digits (Sch\\(:olkopf, Smola & M\\(:uller 1998)\n", fp);
    fputs(".SH SYNOPSIS\n", fp);
    for (size_t i = 0; i < n; i++) {
        fprintf(fp, ".B kpca %s\n", cmds[i]->name);
        roff(fp, cmds[i]->synopsis);
        fputs("\n.br\n", fp);
    }
    fputs(".B kpca help\n.RI [ command ]\n.br\n.B kpca \\-\\-version\n", fp);
    fputs(".SH DESCRIPTION\n"
          "Kernel PCA with the polynomial kernel (\\(*gx\\(pcy + c)^d of Sch\\(:olkopf et al. (and rbf,\n"
          "sigmoid and linear kernels), and linear classifiers on its components, in three\n"
          "composable steps that read and write files: \\fBfit\\fR computes the components of a\n"
          "data set (exactly, or by a randomized or Nystr\\(:om solver), \\fBtransform\\fR projects\n"
          "any data onto them, \\fBeval\\fR trains LIBSVM linear SVMs (or a Gaussian linear\n"
          "classifier) on leading components and prints the test error per component count.\n"
          "\\fBspectrum\\fR prints a model's eigenvalues and explained variance, \\fBdenoise\\fR\n"
          "reconstructs points from their leading components (pre-images), \\fBinfo\\fR shows what\n"
          "a model holds.\n",
          fp);
    fputs(".SH COMMANDS\n", fp);
    for (size_t i = 0; i < n; i++) {
        const cli_command *c = cmds[i];
        fprintf(fp, ".SS \"kpca %s ", c->name);
        roff(fp, c->synopsis);
        fputs("\"\n", fp);
        roff(fp, c->summary);
        fputs(".\n", fp);
        if (c->details != NULL) {
            fputs(".PP\n", fp);
            roff(fp, c->details);
            fputc('\n', fp);
        }
        for (size_t j = 0; j < c->noptions; j++)
            option(fp, &c->options[j]);
        static const cli_option help = {"help", 'h', NULL, CLI_FLAG, NULL, 0, 0, "show this help and exit"};
        option(fp, &help);
    }
    fputs(".SH FILES\n"
          "Input data: ESL text (a label, then the values; USPS's zip.train.gz), LIBSVM text\n"
          "(label idx:val ...), CSV/TSV, ARFF (Weka, OpenML: numeric attributes, a nominal one\n"
          "the labels), all plain or compressed (gzip, bzip2, xz, zstd: found\n"
          "from the content), NumPy .npy, HDF5 (FILE:GROUP with GROUP/data and\n"
          "GROUP/target), and MATLAB MAT-files of versions 5 and 7.3 through libmatio\n"
          "(FILE.mat:VAR, a point per row as MATLAB shows the matrix).  Models are HDF5\n"
          "files sealed by a CRC-32 in a 512-byte user block;\n"
          "features are HDF5 (data, target, eigenvalues), LIBSVM text or CSV, chosen by the\n"
          "output's suffix.  Every output appears atomically: complete, or not at all.\n"
          ".PP\n",
          fp);
    roff(fp, CLI_STREAMS_HELP);
    fputs("\n"
          ".SH EXAMPLES\n"
          "The paper's cell d = 3, 256 components (5.3 % in Sch\\(:olkopf et al.):\n"
          ".PP\n.nf\n.RS\n"
          "kpca fit \\-d 3 \\-m 3000 \\-k 256 zip.train.gz \\-o d3.model\n"
          "kpca transform d3.model zip.train.gz \\-o d3.train.h5\n"
          "kpca transform d3.model zip.test.gz \\-o d3.test.h5\n"
          "kpca eval \\-k 64,128,256 \\-c 10 d3.train.h5 d3.test.h5\n"
          ".RE\n.fi\n.PP\n"
          "The features train with LIBSVM's own tools too:\n"
          ".PP\n.nf\n.RS\n"
          "kpca transform d3.model zip.train.gz \\-o d3.train.svm\n"
          "svm\\-train \\-t 0 \\-c 10 d3.train.svm d3.svm.model\n"
          ".RE\n.fi\n.PP\n"
          "Spectrum and components for 95 % of the variance:\n"
          ".PP\n.nf\n.RS\n"
          "kpca spectrum d3.model\n"
          "kpca fit \\-d 3 \\-m 3000 \\-k 0.95 zip.train.gz \\-o d3.95.model\n"
          ".RE\n.fi\n",
          fp);
    fputs(".SH EXIT STATUS\n", fp);
    for (int c = KPCA_OK; c <= KPCA_STATUS_LAST; c++) {
        fprintf(fp, ".TP\n.B %d\n", c);
        roff(fp, kpca_status_meaning((kpca_status)c));
        fputc('\n', fp);
    }
    fputs(".SH ENVIRONMENT\n.TP\n.B OPENBLAS_CORETYPE\n"
          "The OpenBLAS kernels to use. When it is unset and OpenBLAS fell back to its generic\n"
          "kernels on a CPU it does not know, kpca runs itself again with it set to SkylakeX or\n"
          "Haswell (as the CPU allows); \\fBkpca \\-\\-version\\fR prints the kernels in use.\n"
          ".TP\n.B TMPDIR\n"
          "Where an input that is a stream (standard input, a pipe, a FIFO) is copied to be read\n"
          "(default /tmp); it needs room for the whole input.\n"
          ".TP\n.B KPCA_SPOOL_LIMIT\n"
          "The most bytes of a stream kpca copies to TMPDIR, as \\fB\\-\\-spool\\-limit\\fR (which\n"
          "wins); past it the stream is refused, exit 6 (default: the free space of TMPDIR\n"
          "less 1 GiB; 0: no cap).\n",
          fp);
    fputs(".SH SEE ALSO\n.BR svm-train (1),\n.BR svm-predict (1),\n.BR h5dump (1)\n", fp);
}

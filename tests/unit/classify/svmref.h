/* svmref.h - LIBSVM called directly, as the reference the classify tests
 * hold kpca's classifiers to. */
#ifndef KPCA_TEST_SVMREF_H
#define KPCA_TEST_SVMREF_H

#include <libsvm/svm.h>
#include <string.h>

static inline void svmref_quiet(const char *s)
{
    (void)s;
}

/* svm-train -s 0 -t 0 -c C -e 1e-3 -m 100 -h 1, LIBSVM's progress silenced. */
static inline struct svm_parameter svmref_linear(double C)
{
    struct svm_parameter par;
    memset(&par, 0, sizeof par);
    par.svm_type = C_SVC;
    par.kernel_type = LINEAR;
    par.cache_size = 100;
    par.eps = 1e-3;
    par.C = C;
    par.shrinking = 1;
    svm_set_print_string_function(svmref_quiet);
    return par;
}

#endif

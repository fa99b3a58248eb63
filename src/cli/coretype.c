/* coretype.c - see coretype.h. */
#include "coretype.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/support/blas.h"

/* the cores OpenBLAS 0.3.21 falls back to on an x86-64 CPU it does not know */
static int generic_core(const char *name)
{
    static const char *const generic[] = {"Prescott", "Core2", "Penryn", "Dunnington",
                                          "Nehalem", "Sandybridge", "Atom", "Unknown"};
    for (size_t i = 0; i < sizeof generic / sizeof generic[0]; i++)
        if (strcmp(name, generic[i]) == 0)
            return 1;
    return 0;
}

const char *cli_coretype_hint(void)
{
    if (getenv("OPENBLAS_CORETYPE") != NULL)
        return NULL;
    /* another BLAS reports "unknown (not OpenBLAS)": not a generic core */
    if (!generic_core(kpca_blas_core()))
        return NULL;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512cd"))
        return "SkylakeX";
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return "Haswell";
#endif
    return NULL;
}

void cli_coretype_reexec(char **argv)
{
    const char *core = cli_coretype_hint();
    if (core == NULL || setenv("OPENBLAS_CORETYPE", core, 0) != 0)
        return;
    execv("/proc/self/exe", argv);
}

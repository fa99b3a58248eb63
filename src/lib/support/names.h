/* names.h - the names of an enumeration's values, both ways.
 *
 * Each enumeration that the command line or a file names (kernel, solver,
 * eigensolver driver, landmark method) keeps a table of names indexed by
 * its values; these two helpers look them up. */
#ifndef KPCA_NAMES_H
#define KPCA_NAMES_H

#include <stddef.h>
#include <string.h>

/* names[v], or "?" for a value beyond the table */
static inline const char *kpca_name_of(const char *const *names, size_t n, unsigned v)
{
    return v < n ? names[v] : "?";
}

/* the index of name in names, or -1 */
static inline int kpca_name_index(const char *const *names, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(name, names[i]) == 0)
            return (int)i;
    return -1;
}

#endif

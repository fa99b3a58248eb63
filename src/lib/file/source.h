/* source.h - what an input argument names: "FILE", or "FILE:GROUP" for a
 * group of an HDF5 file.  No printing. */
#ifndef KPCA_SOURCE_H
#define KPCA_SOURCE_H

#include "support/error.h"

/* Splits "FILE:GROUP" when FILE exists and FILE:GROUP does not.  Writes a
 * newly allocated file name to *file and a pointer into spec (or NULL) to
 * *group. */
kpca_status kpca_split_spec(const char *spec, char **file, const char **group, kpca_error *err);

#endif

/* clobber.h - outputs that never destroy inputs.
 *
 * A command reads some files and writes others; when an output names the
 * same file as an input (the same device and inode: through a symbolic
 * link, a hard link, "./x" or "../dir/x" too) the atomic rename would
 * replace the input with the output.  These checks run before any work.
 *
 * Inputs are given as the commands take them: "FILE" or, for HDF5 data,
 * "FILE:GROUP" (kpca_split_spec).  A missing input is not an error here:
 * its reader says so later, with the reason.
 */
#ifndef KPCA_CLOBBER_H
#define KPCA_CLOBBER_H

#include <stddef.h>

#include "support/error.h"

/* Refuses an input that is a directory ("'DIR' is a directory, not a
 * file", KPCA_EIO); KPCA_OK otherwise, also when it does not exist. */
kpca_status kpca_input_check(const char *spec, kpca_error *err);

/* Refuses (KPCA_EUSAGE, naming both paths) an output that is the same file
 * as one of inputs[0..ninputs-1]; KPCA_OK when it is "-", does not exist
 * yet, is not a regular file (a device or FIFO is written directly and
 * never renamed over) or is a file distinct from every input.  NULL
 * entries in inputs are skipped. */
kpca_status kpca_output_check(const char *output, const char *const *inputs, size_t ninputs, kpca_error *err);

#endif

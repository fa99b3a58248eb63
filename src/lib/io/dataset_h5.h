/* dataset_h5.h - data in HDF5 files (h5py's, kpca's feature files, the
 * Kaggle usps.h5), read whole or by rows (dataset_h5.c).  Not an API:
 * io/read.c and the row source (rowsrc.c) call them. */
#ifndef KPCA_DATASET_H5_H
#define KPCA_DATASET_H5_H

#include <stddef.h>

#include "io/dataset.h"

/* HDF5 data read by rows (io/rowsrc.h): the group, dataset and label
 * checks of kpca_read_hdf5 at open, with its messages (the labels read in
 * blocks, twice: for their range, then their codes against class_names);
 * the values read by hyperslabs and checked finite as they are read.
 * *n, *d: the shape; *labelled; names (NULL for integer labels) and their
 * count are the reader's, valid until close.  Memory: O(d) and the class
 * names. */
typedef struct kpca_h5_rows kpca_h5_rows;
kpca_status kpca_h5_rows_open(const char *path, const char *group, size_t dim, kpca_h5_rows **r, size_t *n,
                              size_t *d, int *labelled, char ***names, size_t *nnames, kpca_error *err);
/* Rows [row0, row0 + rows) into x (rows x d) and, when y is not NULL, their
 * labels (0 for unlabelled data). */
kpca_status kpca_h5_rows_read(kpca_h5_rows *r, size_t row0, size_t rows, double *x, int *y, kpca_error *err);
void kpca_h5_rows_close(kpca_h5_rows *r);

/* info as in kpca_dataset_read_info (may be NULL) */
kpca_status kpca_read_hdf5(const char *path, const char *group, size_t dim,
                           kpca_dataset *ds, struct kpca_featinfo *info, kpca_error *err);

#endif

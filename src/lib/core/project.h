/* project.h - a model's projection prepared once and applied to runs of
 * rows (the streamed transform, kpca-mpi's row ranges); kpca_model_transform
 * (model.h) is one run of it over the whole input.
 *
 * The projection of a row depends on the block of KPCA_TRANSFORM_BLOCK rows
 * it is computed in (BLAS's order of operations for a block; an exact
 * model's fit points looked up and the other rows gathered): a run is cut
 * into blocks from its first row, so runs that start at multiples of
 * KPCA_TRANSFORM_BLOCK of one input, in any number of calls, give the very
 * bytes kpca_model_transform gives for the whole input. */
#ifndef KPCA_PROJECT_H
#define KPCA_PROJECT_H

#include <stddef.h>

#include "core/model.h"

typedef struct kpca_projector kpca_projector;

/* Prepares the projection of rows onto the first k components of model
 * (borrowed, and not to be changed, until kpca_projector_free), for runs of
 * at most max_rows rows (the buffers hold min(max_rows,
 * KPCA_TRANSFORM_BLOCK) rows): the primal weights (2 m dim k flops, m dim +
 * dim k doubles; progress phase "primal weights") or, for the kernel rows,
 * a block of them (and alpha as floats in single precision), and an exact
 * model's index of its fit points (O(m dim)).  *p: NULL on failure.
 * Errors: KPCA_EUSAGE for k out of 1..model->k, KPCA_ENOMEM. */
kpca_status kpca_projector_new(const kpca_model *model, size_t k, size_t max_rows, kpca_projector **p,
                               kpca_error *err);

/* z (n x k, row-major) = the projection of the n rows x (n x the model's
 * dim values), n <= max_rows; `first` is the index of x's first row in the
 * whole input, for messages (the row or point they name counts from the
 * input's start).  Cost and numbers: kpca_model_transform's.  Errors:
 * KPCA_EFORMAT for values the kernel refuses (kpca_kernel_check_rows),
 * KPCA_ENUMERIC for a feature that overflows, KPCA_EUSAGE for n > max_rows;
 * z is then undefined. */
kpca_status kpca_projector_run(kpca_projector *p, const double *x, size_t n, size_t first, double *z,
                               kpca_error *err);

/* The flops of one block's product (the kernel block and its product with
 * alpha, or the primal weights' product): a caller that streams its rows
 * runs a product too small to pay for BLAS threads on one
 * (support/blas.h, KPCA_BLAS_SERIAL_FLOPS).  O(1). */
double kpca_projector_block_flops(const kpca_projector *p);

/* Frees p and everything it holds; NULL is fine. */
void kpca_projector_free(kpca_projector *p);

#endif

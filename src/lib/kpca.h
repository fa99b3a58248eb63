/* kpca.h - the public interface of libkpca: include this one header.
 *
 * The library is layered; each folder includes only its own and lower ones:
 *
 *   support/   errors, memory budget, random numbers, clock, progress, BLAS threads,
 *              the precision of the heavy products
 *   file/      atomic outputs, clobber checks, input names, HDF5 helpers
 *   gpu/       CUDA loaded at run time (cuew) and the eigensolver on the GPU; it
 *              uses support/ only, core calls it (docs/gpu.md)
 *   text/      what turns the bytes of a text file into rows of numbers: the
 *              number parser, the bytes of a text file and their checks
 *              (textfile), the quoting rule of delimited text (csvtok)
 *   io/        the data set, the format readers and their dispatch (read.h), the
 *              row source, feature files: one header per file, in a
 *              one-way order (docs/hacking.md)
 *   core/      kernels, Gram products, centring, eigensolvers, approximate solvers,
 *              the model, its file and projection, image smoothing, standardisation
 *   ext/       pre-images and reduced sets, built on a fitted model
 *   classify/  classifiers on features (LIBSVM, LIBLINEAR, LDA), evaluation
 *
 * This header is the API a program needs to fit, project and evaluate.
 * The plumbing a command-line tool also uses (atomic outputs, clobber
 * checks, BLAS thread control, the clock) has its own headers, included
 * by name where needed. */
#ifndef KPCA_H
#define KPCA_H

#include "support/error.h"
#include "support/mem.h"
#include "support/precision.h"
#include "support/progress.h"
#include "support/version.h"

#include "io/dataset.h"
#include "io/featfile.h"
#include "io/read.h"
#include "io/rowpart.h"
#include "io/rowsrc.h"

#include "core/kernel.h"
#include "core/centre.h"
#include "core/eig.h"
#include "core/randeig.h"
#include "core/landmark.h"
#include "core/nystrom.h"
#include "core/nystream.h"
#include "core/model.h"
#include "core/smooth.h"
#include "core/standardize.h"

#include "ext/preimage.h"
#include "ext/reduce.h"

#include "classify/classifier.h"
#include "classify/cluster.h"
#include "classify/featpair.h"
#include "classify/eval.h"
#include "classify/lda.h"
#include "classify/svmtrain.h"

#endif

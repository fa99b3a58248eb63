/* kpca.h - the public interface of libkpca: include this one header. */
#ifndef KPCA_H
#define KPCA_H

#include "approx.h"
#include "atomic.h"
#include "blas.h"
#include "clobber.h"
#include "clock.h"
#include "dataset.h"
#include "eig.h"
#include "error.h"
#include "featfile.h"
#include "gram.h"
#include "featpair.h"
#include "kernel.h"
#include "classifier.h"
#include "eval.h"
#include "lda.h"
#include "svmtrain.h"
#include "mem.h"
#include "model.h"
#include "preimage.h"
#include "reduce.h"
#include "progress.h"
#include "smooth.h"
#include "version.h"

#endif

/* featpair.h - a training and a test set for one classifier: the rules that
 * pair them (kpca eval).
 *
 * In order:
 *   1. the kpca features of two different models (their model_id) are
 *      refused: an error rate across two projections means nothing;
 *   2. kpca features against raw data (ESL text, HDF5 without kpca's seal)
 *      are refused: the raw data must be projected first;
 *   3. two LIBSVM files may differ in their largest index (LIBSVM omits
 *      zeros): the narrower is padded with zeros to the wider's width; a
 *      dense file's width is never changed;
 *   4. then both must have the same number of features per point.
 * What each file says of itself (its kpca_featinfo, io/featfile.h) decides
 * rules 1 and 2; the names are the ones the messages use (the file names).
 */
#ifndef KPCA_FEATPAIR_H
#define KPCA_FEATPAIR_H

#include <stddef.h>

#include "io/dataset.h"
#include "io/featfile.h"
#include "support/error.h"

typedef struct {
    int padded;          /* 0: none; 1: the training set was padded; 2: the test set */
    size_t from, to;     /* when padded: its width before and after */
} kpca_featpair_info;

/* Applies the rules to tr and te, read with tr_file and te_file
 * (kpca_dataset_read_info; NULL: not a kpca feature file); the narrower
 * LIBSVM set may be widened in place.  KPCA_EFORMAT naming the files when
 * they cannot be paired, KPCA_ENOMEM when padding fails; info (may be NULL)
 * says what was padded, so that the caller can warn. */
kpca_status kpca_featpair(kpca_dataset *tr, const kpca_featinfo *tr_file, const char *tr_name, kpca_dataset *te,
                          const kpca_featinfo *te_file, const char *te_name, kpca_featpair_info *info,
                          kpca_error *err);

/* The test labels that no training point has: the distinct ones,
 * ascending, into *unseen (newly allocated, kpca_free; NULL when there are
 * none), their number into *nunseen and the test points that carry them
 * into *npoints.  A classifier cannot predict such a label, so those points
 * count as errors; *npoints == nte (nte > 0) means the two sets share no
 * label at all.  Cost O((ntr + nte) log ntr), memory ntr + nte ints.
 * Errors: KPCA_ENOMEM. */
kpca_status kpca_labels_unseen(const int *ytr, size_t ntr, const int *yte, size_t nte, int **unseen,
                               size_t *nunseen, size_t *npoints, kpca_error *err);

/* Matches TEST's classes to TRAIN's by name: the codes of two files are
 * assigned independently (in order of first appearance), so te's labels
 * are recoded to tr's codes, and a name that tr lacks gets a code past
 * tr's (kpca_labels_unseen then finds it); te->names becomes tr's names
 * followed by those (te->names[te->y[i]] is still point i's name).
 * Nothing when neither has names; one with names and the other with
 * integers is KPCA_EFORMAT naming both files.  Cost O((C + n) log C) for C
 * names and n test points.  On failure te is unchanged. */
kpca_status kpca_labels_match_names(const kpca_dataset *tr, const char *tr_name, kpca_dataset *te,
                                    const char *te_name, kpca_error *err);

#endif

/* modeldata.h - DATA checked against a model, and a model's DATA read
 * whole (modeldata.c). */
#ifndef KPCA_CLI_MODELDATA_H
#define KPCA_CLI_MODELDATA_H

#include <stddef.h>

#include "input.h"
#include "lib/kpca.h"

/* Checks that DATA (ds: its dim; rows not looked at) has MODEL's dimension
 * (else reports it and returns KPCA_EFORMAT; a precomputed kernel's: the
 * width of its kernel matrix; a file of the model's features is named as
 * such). */
int cli_check_model_dims(const kpca_model *model, const char *model_path, const kpca_dataset *ds,
                         const char *data_path);
/* "'NAME'" of column j (0-based) when names has one, else
 * "column J" (1-based), into buf; returns buf. */
#define CLI_COLUMN_MAX 96
const char *cli_column_name(char *const *names, size_t j, char buf[CLI_COLUMN_MAX]);
/* Checks that DATA (as read: after --input-range, --round and the
 * smoothing, before the standardisation) fits MODEL: the same dimension,
 * and the same column names where both have them (else reports it and
 * returns KPCA_EFORMAT; a precomputed kernel's: the width of its kernel
 * matrix; cli_check_names), values the kernel takes (chi2: non-negative;
 * KPCA_EFORMAT); then cli_warn_range (not for a precomputed kernel, which
 * has no points). */
int cli_check_model_data(const kpca_model *model, const char *model_path, const kpca_dataset *ds,
                         const char *data_path);
/* DATA's value column names against the model's where both have them (the
 * same dimension): KPCA_EFORMAT (reported) for a difference, else 0. */
int cli_check_names(const kpca_model *model, const char *model_path, const kpca_dataset *ds, const char *data_path);
/* Warns of DATA's values outside the fit data's range by a margin that
 * matters (modeldata.c), the model's ranges taken back to DATA's units when
 * it standardises:
 *  - data that looks like images (cli_image_like of the model points'
 *    column ranges): when DATA's smallest or largest value lies more than a
 *    quarter of the fit range's width from the fit's (input_lo, input_hi),
 *    a warning that advises --input-range (a standardised model: no advice);
 *  - other data: when a value of column j lies outside the fit points'
 *    range [lo_j, hi_j] of that column by more than half its width
 *    (hi_j - lo_j; for a column constant at fit, any other value), a
 *    warning that names how many values and columns and the first such
 *    column, with no advice of --input-range.  The model points are the
 *    fit points for the kernel centring; for Nystrom and reduced models
 *    every column's range is the fit data's overall one (input_lo,
 *    input_hi).
 * An ordinary random train/test split stays inside those margins.  DATA is
 * seen through its statistics s (cli_stats_init with the model: the
 * model's side then, once; cli_stats_values: each column's range and its
 * values outside the margin, as the rows pass); colnames: DATA's column
 * names (NULL: the model's).  Nothing for a model without input points or
 * statistics without them (no memory). */
void cli_warn_range(const kpca_model *model, const cli_data_stats *s, char *const *colnames, const char *data_path);
/* Loads MODEL and reads DATA for it (cli_read_input, then
 * cli_check_model_data), ranged, rounded and smoothed as the model's fit
 * data was (cli_input_as_fitted) and, when the model has column names, its value columns selected by
 * those names (a text file with a header; other files by position): a
 * --smooth in `in` that differs from it is refused (KPCA_EUSAGE, both
 * values named), and so are --input-range and --round for a precomputed
 * kernel's model.  DATA is not standardised (cli_standardize).  0, or an
 * exit code (reported) with neither left allocated. */
int cli_load_model_data(const char *model_path, const char *data_path, const cli_input *in, kpca_model *model,
                        kpca_dataset *ds);
/* Loads MODEL for inputs read with `in`: the first half of
 * cli_load_model_data (its --smooth, --input-range and --round checks:
 * each given must be the model's, where the model records it).
 * 0, or an exit code (reported) with nothing left allocated. */
int cli_load_model(const char *model_path, const cli_input *in, kpca_model *model);
/* The input steps fit gave its data (`in`'s --input-range, --round,
 * --smooth), recorded in model for every later input. */
void cli_model_steps_record(kpca_model *model, const cli_input *in);
/* `in` as the model's inputs are read: its smoothing, input range and
 * rounding where the model records them (else in's own stand), its value
 * columns by the model's names. */
void cli_input_as_fitted(cli_input *in, const kpca_model *model);
/* Standardises the n rows x (the model's dim values each) as the model's
 * fit data was (kpca_standardize with its std_mean, std_scale); nothing for
 * a model without them. */
void cli_standardize(const kpca_model *model, double *x, size_t n);

#endif

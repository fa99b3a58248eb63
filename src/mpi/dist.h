/* dist.h - exact kernel PCA over MPI ranks with ScaLAPACK (kpca-mpi only).
 *
 * Compiled into build/kpca-mpi alone (make mpi); the plain kpca never links
 * MPI.  Every rank runs the same command line (the exact fit: every rank
 * reads the whole input; the Nyström fit and transform: each its own rows,
 * of a text file its own part, kpca_dist_rowsrc); the two steps that are worth
 * distributing are plugged into the library and the CLI as replacements of
 * their single-process versions:
 *
 *   kpca_dist_fit        (kpca_model_set_exact_solver) the kernel matrix is
 *                        built in place in ScaLAPACK's 2-D block-cyclic
 *                        layout on a BLACS grid close to square, each rank
 *                        computing its own blocks; centred with row sums
 *                        reduced over the ranks; pdsyevr (RANGE = I) or
 *                        pdsyevd, chosen by k/M as on one machine
 *                        (kpca_eig_resolve), or ELPA's two-stage solver
 *                        (--eig elpa); the k wanted eigenvectors are
 *                        gathered with pdgemr2d onto rank 0 and broadcast.
 *                        Memory per rank: 8 (2 M^2/P + workspace) bytes
 *                        (ELPA: 8 (5 M^2/P), as measured), checked against
 *                        the budget (mem.h) before the allocations.
 *   kpca_dist_out        (cli_transform_out, dist_out.c) each rank reads,
 *                        projects and writes a contiguous run of whole
 *                        KPCA_TRANSFORM_BLOCK blocks of rows, the same
 *                        blocks kpca transform forms on one process, into
 *                        its place in the one output file (io/featfile.h's
 *                        parts): no rows pass between the ranks.
 *
 * Failure: every step that can fail on one rank ends in kpca_dist_agree, a
 * collective in which the lowest failing rank's status and message reach
 * every rank, so that all ranks return the same error (rank 0 prints it,
 * naming the rank) and none waits for ever in a collective.  A rank that
 * fails before it reaches a distributed step (e.g. it cannot read the input)
 * calls kpca_dist_agree from main (main_mpi.c), matching the first agreement
 * of the ranks already inside.  Errors: as model.h / kpca_model_transform,
 * KPCA_ENOMEM per rank, KPCA_ENUMERIC when ScaLAPACK reports info != 0.
 */
#ifndef KPCA_DIST_H
#define KPCA_DIST_H

#include "cli/cmd/cmd_transform.h"
#include "lib/kpca.h"
#include "lib/support/clock.h"

/* ScaLAPACK block size (rows and columns of a block). */
#define KPCA_DIST_NB 64

/* Call after MPI_Init: rank and size of MPI_COMM_WORLD. */
void kpca_dist_init(void);
int kpca_dist_rank(void);
int kpca_dist_size(void);

/* 1 once a rank has entered a distributed step (its agreements are made
 * there); main calls kpca_dist_agree itself only when it has not.
 * kpca_dist_enter marks the entry (before the step's first agreement: the
 * Nyström fit's, transform's open). */
int kpca_dist_entered(void);
void kpca_dist_enter(void);

/* Collective: KPCA_OK when st is KPCA_OK on every rank; else the status of
 * the lowest failing rank, with its message (msg on that rank) in err on
 * every rank, prefixed "rank R of P: " and marked relayed (error.h) on the
 * others. */
kpca_status kpca_dist_agree(kpca_status st, const char *msg, kpca_error *err);

/* The grid kpca_dist_fit uses for P ranks: nprow x npcol = P, nprow <= npcol,
 * nprow the largest divisor of P not above sqrt(P). */
void kpca_dist_grid_shape(int p, int *nprow, int *npcol);

/* kpca_exact_solver (model.h), collective. */
kpca_status kpca_dist_fit(const kpca_dataset *fit, kpca_exact_job *job, kpca_error *err);

/* The Nyström fit's processes (core/nystream.h: kpca_nys_comm) on
 * MPI_COMM_WORLD, for kpca fit --solver nystrom (cli_nys_comm): rank r
 * reads the fit rows [r n / P, (r + 1) n / P), or those in its part of a
 * text file (cli_fit_rows: kpca_nys_comm.ranged); agree is kpca_dist_agree;
 * sum an MPI_Allreduce, bcast an MPI_Bcast from rank 0; the accumulators
 * and signs are reduced onto rank 0 by MPI_Reduce with operators of their
 * own (kpca_nys_packed_merge in rank order, kpca_nys_signs_packed_merge),
 * one message of kpca_nys_acc_packed(l, r) doubles per rank.  Valid for
 * the life of the process. */
const kpca_nys_comm *kpca_dist_nystrom(void);

/* The ranks reading one data file together (io/rowsrc.h:
 * kpca_rowsrc_open_shared, for cli_rowsrc_share): part is the rank, parts
 * the size; agree is kpca_dist_agree, gather an MPI_Allgather, gatherv an
 * MPI_Allgather of the sizes and an MPI_Allgatherv (at most INT_MAX bytes
 * in all).  Valid for the life of the process. */
const kpca_rowsrc_share *kpca_dist_rowsrc(void);

/* transform's rows and output over the ranks (cli_transform_io, cli/cmd/cmd_transform.h):
 * rank r of P projects the whole blocks [floor(B r / P), floor(B (r+1) / P))
 * of the B = ceil(n / KPCA_TRANSFORM_BLOCK) blocks (of a text file cut
 * into parts, the blocks that start in its part); rank 0 opens the file
 * and the others write their parts into it (kpca_features_share);
 * agreements as above. */
extern const cli_transform_io kpca_dist_out;

#endif

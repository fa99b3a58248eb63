/* nysdist.c - the Nyström fit over MPI ranks (dist.h: kpca_dist_nystrom):
 * the collectives of kpca_nys_comm (core/nystream.h) on MPI_COMM_WORLD. */
#include <limits.h>
#include <mpi.h>
#include <string.h>

#include "dist.h"

/* the largest count one MPI call takes here: MPI counts are ints */
#define CHUNK ((size_t)1 << 27)

static kpca_status nys_agree(void *ctx, kpca_status st, kpca_error *err)
{
    (void)ctx;
    kpca_dist_enter();
    return kpca_dist_agree(st, st == KPCA_OK ? NULL : err->msg, err);
}

static void nys_sum(void *ctx, double *buf, size_t count)
{
    (void)ctx;
    for (size_t at = 0; at < count; at += CHUNK) {
        const size_t c = count - at < CHUNK ? count - at : CHUNK;
        MPI_Allreduce(MPI_IN_PLACE, buf + at, (int)c, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
}

static void nys_bcast(void *ctx, double *buf, size_t count)
{
    (void)ctx;
    for (size_t at = 0; at < count; at += CHUNK) {
        const size_t c = count - at < CHUNK ? count - at : CHUNK;
        MPI_Bcast(buf + at, (int)c, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    }
}

/* The reduction operators: one element of the contiguous type is one
 * packed accumulator (or one set of signs); its size in doubles comes
 * from the type. */
static size_t element_doubles(MPI_Datatype *type)
{
    int bytes = 0;
    MPI_Type_size(*type, &bytes);
    return (size_t)bytes / sizeof(double);
}

/* MPI calls op(in, inout) with in from the lower ranks: inout = in + inout,
 * in rank order (the operator is declared non-commutative) */
static void acc_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    const size_t d = element_doubles(type);
    for (int e = 0; e < *len; e++)
        kpca_nys_packed_merge((double *)inout + (size_t)e * d, (const double *)in + (size_t)e * d);
}

static void signs_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    const size_t d = element_doubles(type), k = d / 3;
    for (int e = 0; e < *len; e++)
        kpca_nys_signs_packed_merge((double *)inout + (size_t)e * d, (const double *)in + (size_t)e * d, k);
}

/* buf (count doubles, one element) reduced by op onto rank 0 */
static void reduce(double *buf, size_t count, MPI_User_function *fn, int commute)
{
    MPI_Datatype type;
    MPI_Op op;
    MPI_Type_contiguous((int)count, MPI_DOUBLE, &type);
    MPI_Type_commit(&type);
    MPI_Op_create(fn, commute, &op);
    int me = kpca_dist_rank();
    MPI_Reduce(me == 0 ? MPI_IN_PLACE : buf, me == 0 ? buf : NULL, 1, type, op, 0, MPI_COMM_WORLD);
    MPI_Op_free(&op);
    MPI_Type_free(&type);
}

static void nys_reduce_acc(void *ctx, double *buf, size_t count)
{
    (void)ctx;
    reduce(buf, count, acc_op, 0);
}

static void nys_reduce_signs(void *ctx, double *buf, size_t k)
{
    (void)ctx;
    if (k > 0)
        reduce(buf, kpca_nys_signs_packed(k), signs_op, 1);
}

const kpca_nys_comm *kpca_dist_nystrom(void)
{
    static kpca_nys_comm comm;
    comm.rank = kpca_dist_rank();
    comm.size = kpca_dist_size();
    comm.max_pack = INT_MAX; /* one element of a contiguous type: an int count */
    comm.ctx = NULL;
    comm.agree = nys_agree;
    comm.sum = nys_sum;
    comm.bcast = nys_bcast;
    comm.reduce_acc = nys_reduce_acc;
    comm.reduce_signs = nys_reduce_signs;
    return &comm;
}

/* matgen - MATLAB MAT-files for the tests, written by libmatio (the
 * library kpca reads them with is not the writer's only check: the tests
 * also read them with scipy where it is installed).
 *
 *   matgen OUT.mat VERSION VAR...
 *
 * VERSION: 5 (version 5, uncompressed), 5z (version 5 compressed, what
 * MATLAB's save writes by default) or 7.3 (HDF5).  Each VAR is
 *
 *   NAME=CLASS:FILE          the matrix of whitespace text FILE (a row per
 *                            line) as CLASS: double, single, int8, uint8,
 *                            int16, uint16, int32, uint32, int64, uint64
 *   NAME=CLASS:FILE:D1xD2x.. FILE's values taken in MATLAB's order (the
 *                            first dimension fastest) as an array of those
 *                            dimensions
 *   NAME=char:TEXT           a 1 x n char array
 *   NAME=complex:FILE        a complex double matrix, imaginary parts 1
 *
 * Exit 0 on success, 2 on a usage error, 1 on a read or write error. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <matio.h>

static const struct {
    const char *name;
    enum matio_classes cls;
    enum matio_types type;
    size_t size;
} classes[] = {
    {"double", MAT_C_DOUBLE, MAT_T_DOUBLE, 8}, {"single", MAT_C_SINGLE, MAT_T_SINGLE, 4},
    {"int8", MAT_C_INT8, MAT_T_INT8, 1},       {"uint8", MAT_C_UINT8, MAT_T_UINT8, 1},
    {"int16", MAT_C_INT16, MAT_T_INT16, 2},    {"uint16", MAT_C_UINT16, MAT_T_UINT16, 2},
    {"int32", MAT_C_INT32, MAT_T_INT32, 4},    {"uint32", MAT_C_UINT32, MAT_T_UINT32, 4},
    {"int64", MAT_C_INT64, MAT_T_INT64, 8},    {"uint64", MAT_C_UINT64, MAT_T_UINT64, 8},
};

/* the values of text file path, *rows lines of *cols values */
static double *read_matrix(const char *path, size_t *rows, size_t *cols)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return NULL;
    size_t n = 0, cap = 1024, r = 0, c = 0, in_row = 0;
    double *v = malloc(cap * sizeof *v);
    int ch;
    while (v != NULL && (ch = fgetc(f)) != EOF) {
        if (ch == '\n') {
            if (in_row > 0) {
                if (c == 0)
                    c = in_row;
                r++;
            }
            in_row = 0;
            continue;
        }
        if (ch == ' ' || ch == '\t' || ch == '\r')
            continue;
        ungetc(ch, f);
        if (n == cap && (v = realloc(v, (cap *= 2) * sizeof *v)) == NULL)
            break;
        if (fscanf(f, "%lf", &v[n]) != 1) {
            free(v);
            v = NULL;
            break;
        }
        n++;
        in_row++;
    }
    if (v != NULL && in_row > 0) {
        if (c == 0)
            c = in_row;
        r++;
    }
    fclose(f);
    if (v != NULL && r * c != n) {
        free(v);
        return NULL;
    }
    *rows = r;
    *cols = c;
    return v;
}

static int add(mat_t *m, char *spec, enum matio_compression z)
{
    char *eq = strchr(spec, '=');
    if (eq == NULL)
        return 2;
    *eq = '\0';
    char *cls = eq + 1, *file = strchr(cls, ':');
    if (file == NULL)
        return 2;
    *file++ = '\0';
    if (strcmp(cls, "char") == 0) {
        size_t dims[2] = {1, strlen(file)};
        matvar_t *v = Mat_VarCreate(spec, MAT_C_CHAR, MAT_T_UINT8, 2, dims, file, 0);
        int bad = v == NULL || Mat_VarWrite(m, v, z) != 0;
        Mat_VarFree(v);
        return bad;
    }
    char *shape = strchr(file, ':');
    if (shape != NULL)
        *shape++ = '\0';
    size_t r, c;
    double *x = read_matrix(file, &r, &c);
    if (x == NULL)
        return 1;
    size_t dims[8] = {r, c}, total = r * c;
    int rank = 2;
    if (shape != NULL) {
        size_t count = 1;
        for (rank = 0; rank < 8 && *shape != '\0'; rank++) {
            dims[rank] = strtoul(shape, &shape, 10);
            count *= dims[rank];
            if (*shape == 'x')
                shape++;
        }
        if (count != total) {
            free(x);
            return 2;
        }
    }
    int bad = 1;
    if (strcmp(cls, "complex") == 0) {
        double *re = malloc(total * sizeof *re), *im = malloc(total * sizeof *im);
        for (size_t i = 0; re != NULL && im != NULL && i < r; i++)
            for (size_t j = 0; j < c; j++) {
                re[j * r + i] = x[i * c + j];
                im[j * r + i] = 1;
            }
        mat_complex_split_t cs = {re, im};
        matvar_t *v = re && im ? Mat_VarCreate(spec, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims, &cs, MAT_F_COMPLEX) : NULL;
        bad = v == NULL || Mat_VarWrite(m, v, z) != 0;
        Mat_VarFree(v);
        free(re);
        free(im);
        free(x);
        return bad;
    }
    for (size_t k = 0; k < sizeof classes / sizeof classes[0]; k++) {
        if (strcmp(cls, classes[k].name) != 0)
            continue;
        unsigned char *d = malloc(total * classes[k].size + 1);
        for (size_t t = 0; d != NULL && t < total; t++) {
            /* a matrix is laid out columns first; an array takes the text's order */
            double val = shape != NULL ? x[t] : x[(t % r) * c + t / r];
            unsigned char *p = d + t * classes[k].size;
#define PUT(T) { T w = (T)val; memcpy(p, &w, sizeof w); } break
            switch (classes[k].cls) {
            case MAT_C_DOUBLE: PUT(double);
            case MAT_C_SINGLE: PUT(float);
            case MAT_C_INT8: PUT(int8_t);
            case MAT_C_UINT8: PUT(uint8_t);
            case MAT_C_INT16: PUT(int16_t);
            case MAT_C_UINT16: PUT(uint16_t);
            case MAT_C_INT32: PUT(int32_t);
            case MAT_C_UINT32: PUT(uint32_t);
            case MAT_C_INT64: PUT(int64_t);
            case MAT_C_UINT64: PUT(uint64_t);
            default: break;
            }
#undef PUT
        }
        matvar_t *v = d ? Mat_VarCreate(spec, classes[k].cls, classes[k].type, rank, dims, d, 0) : NULL;
        bad = v == NULL || Mat_VarWrite(m, v, z) != 0;
        Mat_VarFree(v);
        free(d);
        break;
    }
    free(x);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: matgen OUT.mat 5|5z|7.3 NAME=CLASS:FILE[:D1xD2..] ...\n");
        return 2;
    }
    enum mat_ft ver = strcmp(argv[2], "7.3") == 0 ? MAT_FT_MAT73 : MAT_FT_MAT5;
    enum matio_compression z = strcmp(argv[2], "5z") == 0 ? MAT_COMPRESSION_ZLIB : MAT_COMPRESSION_NONE;
    mat_t *m = Mat_CreateVer(argv[1], NULL, ver);
    if (m == NULL) {
        fprintf(stderr, "matgen: cannot create '%s'\n", argv[1]);
        return 1;
    }
    int rc = 0;
    for (int i = 3; i < argc && rc == 0; i++)
        if ((rc = add(m, argv[i], z)) != 0)
            fprintf(stderr, "matgen: cannot add '%s'\n", argv[i]);
    Mat_Close(m);
    if (rc != 0)
        remove(argv[1]);
    return rc;
}

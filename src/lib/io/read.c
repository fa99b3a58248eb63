/* read.c - what a file is and which reader reads it (see read.h): the
 * kind of a file for messages, the format of data from its first bytes,
 * and kpca_dataset_read, the dispatch to the format readers. */
#include "io/read.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file/clobber.h"
#include "file/h5util.h"
#include "file/magic.h"
#include "file/matfile.h"
#include "io/csv.h"
#include "io/dataset_arff.h"
#include "io/dataset_h5.h"
#include "io/featfile.h"
#include "io/dataset_text.h"
#include "io/labels.h"
#include "io/npy.h"
#include "text/bytes.h"
#include "text/csvtok.h"
#include "text/textfile.h"
#include "text/textnum.h"
#include "support/mem.h"

/* 1 when the file's bytes (decompressed) are only blanks, read up to 1 MiB;
 * 0 at the first other byte or on a read error */
static int blank(const char *path)
{
    kpca_bytes *b;
    if (kpca_bytes_open(path, &b, NULL) != KPCA_OK)
        return 0;
    char buf[4096];
    int only_blanks = 1;
    size_t total = 0, got = 0;
    kpca_status st = KPCA_OK;
    while (only_blanks && total < (1u << 20) && (st = kpca_bytes_read(b, buf, sizeof buf, 0, &got, NULL)) == KPCA_OK &&
           got > 0) {
        for (size_t i = 0; i < got && only_blanks; i++)
            only_blanks = strchr(" \t\r\n", buf[i]) != NULL && buf[i] != '\0';
        total += got;
    }
    kpca_bytes_close(b);
    return only_blanks && st == KPCA_OK;
}

/* 1 when an HDF5 superblock stands at 0, 512, 1024... in the file (after
 * a user block that is not kpca's seal) */
static int hdf5_behind_block(const char *path, off_t size)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    unsigned long long base, eof;
    size_t len;
    int found = kpca_h5_superblock_read(fd, size, &base, &eof, &len) == 0;
    close(fd);
    return found;
}

/* A sealed kpca HDF5 file's `format` attribute into tag ("" for none, an
 * unsealed or unreadable file), whether it is sealed into *sealed; 1 when
 * the file opens as HDF5 */
static int hdf5_format(const char *path, char *tag, size_t cap, int *sealed)
{
    hid_t f;
    kpca_error err;
    tag[0] = '\0';
    *sealed = 0;
    if (kpca_h5_open_read_sealed(path, KPCA_SEAL_IF_PRESENT, &f, sealed, &err) != KPCA_OK)
        return 0;
    if (*sealed && H5Aexists(f, "format") > 0 && kpca_h5_attr_read_string(f, path, "format", tag, cap, &err) != KPCA_OK)
        tag[0] = '\0';
    H5Fclose(f);
    return 1;
}

kpca_file_kind kpca_zip_kind(const unsigned char *head, size_t got)
{
    if (got >= 4 && memcmp(head, "PK\x05\x06", 4) == 0) /* the end record alone: an empty archive */
        return KPCA_FILE_ZIP;
    if (got < 30 || memcmp(head, "PK\x03\x04", 4) != 0)
        return KPCA_FILE_BINARY;
    size_t len = (size_t)head[26] | (size_t)head[27] << 8;
    if (len >= 4 && 30 + len <= got && memcmp(head + 30 + len - 4, ".npy", 4) == 0)
        return KPCA_FILE_NPZ;
    return KPCA_FILE_ZIP;
}

kpca_file_kind kpca_zip_kind_of(const char *path)
{
    unsigned char head[30 + 255];
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return KPCA_FILE_BINARY;
    size_t got = fread(head, 1, sizeof head, f);
    fclose(f);
    return kpca_zip_kind(head, got);
}

void kpca_file_sniff(const char *spec, kpca_file_info *out)
{
    memset(out, 0, sizeof *out);
    out->kind = KPCA_FILE_UNREADABLE;
    char *file = NULL;
    const char *group;
    kpca_error err;
    if (kpca_split_spec(spec, &file, &group, &err) != KPCA_OK)
        return;
    struct stat sb;
    FILE *fp = NULL;
    unsigned char head[6] = {0};
    if (stat(file, &sb) != 0) {
        out->errnum = errno;
        out->kind = errno == ENOENT || errno == ENOTDIR ? KPCA_FILE_MISSING : KPCA_FILE_UNREADABLE;
    } else if (S_ISDIR(sb.st_mode)) {
        out->kind = KPCA_FILE_DIRECTORY;
    } else if ((fp = fopen(file, "rb")) == NULL) {
        out->errnum = errno;
    } else {
        out->codec = kpca_codec_of(head, fread(head, 1, sizeof head, fp));
        fclose(fp);
        kpca_format fmt = KPCA_FMT_AUTO;
        if (kpca_detect_format(file, &fmt, &err) != KPCA_OK && hdf5_behind_block(file, sb.st_size))
            fmt = KPCA_FMT_HDF5;
        if (fmt == KPCA_FMT_AUTO)
            out->kind = blank(file) ? KPCA_FILE_EMPTY : kpca_zip_kind_of(file);
        else if (fmt == KPCA_FMT_NPY)
            out->kind = KPCA_FILE_NPY;
        else if (fmt == KPCA_FMT_MAT)
            out->kind = KPCA_FILE_MAT;
        else if (fmt != KPCA_FMT_HDF5)
            out->kind = KPCA_FILE_TEXT;
        else {
            out->damaged = !hdf5_format(file, out->tag, sizeof out->tag, &out->sealed);
            out->kind = out->tag[0] == '\0'                              ? KPCA_FILE_HDF5
                        : strcmp(out->tag, KPCA_MODEL_FORMAT) == 0    ? KPCA_FILE_MODEL
                        : strcmp(out->tag, KPCA_FEATURES_FORMAT) == 0 ? KPCA_FILE_FEATURES
                                                                      : KPCA_FILE_KPCA_OTHER;
        }
        out->format = fmt;
    }
    if (out->kind != KPCA_FILE_TEXT && out->kind != KPCA_FILE_EMPTY)
        out->codec = KPCA_CODEC_NONE;
    if (kpca_file_is_data(out->kind)) {
        kpca_read_opts ro = {.format = KPCA_FMT_AUTO};
        kpca_dataset ds;
        if (kpca_dataset_read(spec, &ro, &ds, &err) == KPCA_OK) {
            out->has_shape = 1;
            out->n = ds.n;
            out->dim = ds.dim;
            kpca_dataset_free(&ds);
        }
    }
    kpca_free(file);
}

int kpca_file_is_data(kpca_file_kind kind)
{
    return kind == KPCA_FILE_FEATURES || kind == KPCA_FILE_KPCA_OTHER || kind == KPCA_FILE_HDF5 ||
           kind == KPCA_FILE_NPY || kind == KPCA_FILE_TEXT || kind == KPCA_FILE_MAT;
}

const char *kpca_file_describe(const kpca_file_info *fi, char *buf, size_t cap)
{
    char shape[64] = "";
    if (fi->has_shape)
        snprintf(shape, sizeof shape, "%s%zu x %zu", fi->codec ? ", " : "", fi->n, fi->dim);
    const char *gz = kpca_codec_name(fi->codec);
    const char *open = fi->has_shape || fi->codec ? " (" : "", *close = fi->has_shape || fi->codec ? ")" : "";
    switch (fi->kind) {
    case KPCA_FILE_MISSING: snprintf(buf, cap, "does not exist"); break;
    case KPCA_FILE_UNREADABLE:
        snprintf(buf, cap, "cannot be read%s%s%s", fi->errnum ? " (" : "", fi->errnum ? strerror(fi->errnum) : "",
                 fi->errnum ? ")" : "");
        break;
    case KPCA_FILE_DIRECTORY: snprintf(buf, cap, "is a directory"); break;
    case KPCA_FILE_EMPTY:
        snprintf(buf, cap, "is empty%s%s%s", fi->codec ? " (" : "", gz, fi->codec ? " of nothing but blanks)" : "");
        break;
    case KPCA_FILE_MODEL: snprintf(buf, cap, "is a kpca model (written by kpca fit)"); break;
    case KPCA_FILE_FEATURES:
        snprintf(buf, cap, "holds kpca features (%s%swritten by kpca transform)", shape, fi->has_shape ? ", " : "");
        break;
    case KPCA_FILE_KPCA_OTHER: snprintf(buf, cap, "is a kpca file of format '%s'%s%s%s", fi->tag, open, shape, close); break;
    case KPCA_FILE_HDF5:
        if (fi->damaged)
            snprintf(buf, cap, "is a damaged HDF5 file");
        else if (fi->sealed)
            snprintf(buf, cap, "is an HDF5 file sealed by kpca but of no format it knows");
        else if (fi->has_shape)
            snprintf(buf, cap, "holds HDF5 data (%s) with no kpca seal (not written by kpca)", shape);
        else
            snprintf(buf, cap, "is an HDF5 file with no kpca seal (not written by kpca, or its first bytes lost) "
                               "and no data kpca reads at its root");
        break;
    case KPCA_FILE_NPY: snprintf(buf, cap, "holds a NumPy array%s%s%s", open, shape, close); break;
    case KPCA_FILE_MAT: snprintf(buf, cap, "is a MATLAB MAT-file%s%s%s", open, shape, close); break;
    case KPCA_FILE_TEXT: {
        const char *name = fi->format == KPCA_FMT_LIBSVM ? "LIBSVM text"
                           : fi->format == KPCA_FMT_CSV  ? "CSV text"
                           : fi->format == KPCA_FMT_ARFF ? "ARFF"
                                                         : "ESL text";
        snprintf(buf, cap, "holds %s data%s%s%s%s", name, open, gz, shape, close);
        break;
    }
    case KPCA_FILE_BINARY: snprintf(buf, cap, "holds binary data in no format kpca reads"); break;
    case KPCA_FILE_NPZ:
        snprintf(buf, cap, "is a NumPy .npz archive (a zip of arrays), which kpca does not read: save one array "
                           "with numpy.save('x.npy', arr) and give kpca the .npy file");
        break;
    case KPCA_FILE_ZIP:
        snprintf(buf, cap, "is a zip archive, which kpca does not read: unzip it (a spreadsheet workbook such as .xlsx "
                           "is a zip too: save it as CSV)");
        break;
    }
    return buf;
}


/* ---- the format of data, and the reader that reads it ---- */

static const unsigned char hdf5_sig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};

/* Files kpca does not read that say what they are in their first bytes
 * (head, raw) or in their text's start (text, len, decompressed): refused
 * naming what they are and the way to a file kpca reads; KPCA_OK for any
 * other */
static kpca_status named_refusal(const char *path, const unsigned char *head, size_t got, const char *text,
                                 size_t len, kpca_codec codec, kpca_error *err)
{
    if (got >= 2 && head[0] == 0x80 && head[1] >= 2 && head[1] <= 5)
        return kpca_fail(err, KPCA_EFORMAT,
                         "'%s' is a Python pickle, which kpca does not read (loading one runs its code): save the "
                         "array with numpy.save('x.npy', x), or a DataFrame with df.to_csv('x.csv', index=False)",
                         path);
    if (codec != KPCA_CODEC_NONE && kpca_codec_of((const unsigned char *)text, len) != KPCA_CODEC_NONE)
        return kpca_fail(err, KPCA_EFORMAT,
                         "'%s' is %s data inside %s: decompress it once first (e.g. %s -dc '%s' >'%s.once') and "
                         "give kpca that file",
                         path, kpca_codec_name(kpca_codec_of((const unsigned char *)text, len)),
                         kpca_codec_name(codec), codec == KPCA_CODEC_GZIP ? "gzip" : kpca_codec_name(codec), path,
                         path);
    if (len > 0 && memchr(text, '\n', len) == NULL && memchr(text, '\r', len) != NULL &&
        memchr(text, '\r', len) != text + len - 1)
        return kpca_fail(err, KPCA_EFORMAT,
                         "'%s' ends its lines with CR alone (classic Mac OS line ends), which kpca does not take "
                         "for line ends: convert them, e.g. tr '\\r' '\\n' <'%s' >'%s.txt'",
                         path, path, path);
    return KPCA_OK;
}

/* Ends a data line (NUL-terminated, blanks skipped) where a comment of
 * whitespace text starts (kpca_text_comment: a '#' after a blank), when
 * the line starts with a number: whitespace text's and SVMlight's comment
 * after the values ("1 2 3 # a, b: c"), whose commas and colons tell no
 * format.  A line of names ("Item #;Price") is left whole. */
static void cut_comment(char *p)
{
    const char *q = p;
    double v;
    if (kpca_parse_number(&q, '\0', &v) != 0)
        return;
    for (char *h = strchr(p, '#'); h != NULL; h = strchr(h + 1, '#'))
        if (h > p && kpca_text_blank(h[-1]) && kpca_text_comment(*h, ' ')) {
            *h = '\0';
            return;
        }
}

/* 1 for a line (blanks skipped) of multi-label LIBSVM ("1,3 4:0.5":
 * scikit-learn's dump_svmlight_file(multilabel=True)), whose commas tell no
 * CSV: integers joined by commas, a blank, then an index and a colon, and
 * no comma or semicolon after it but in a comment ("1,3 1:0.5 # a, b") */
static int multilabel_svm(const char *p)
{
    const char *q = p;
    int commas = 0;
    while ((*q >= '0' && *q <= '9') || (*q == ',' && q > p && q[-1] != ',' && (commas = 1)))
        q++;
    if (!commas || q[-1] == ',' || !kpca_text_blank(*q))
        return 0;
    while (kpca_text_blank(*q))
        q++;
    while (*q >= '0' && *q <= '9')
        q++;
    if (*q != ':' || q[-1] < '0' || q[-1] > '9')
        return 0;
    for (; *q != '\0' && !(kpca_text_comment(*q, ' ') && kpca_text_blank(q[-1])); q++) /* to SVMlight's comment */
        if (*q == ',' || *q == ';')
            return 0;
    return 1;
}

/* The end of a row that starts at p, whose line ends at nl (a NUL there),
 * when a quoted field on that line (before a '#' comment) closes past it,
 * by the quoting rule's close (text/csvtok.h): its next line end, or end;
 * NULL when no field crosses the line end. */
static char *quoted_row_end(char *p, char *nl, char *end)
{
    const char *hash = strchr(p, '#');
    for (const char *q = p; (q = memchr(q, '"', (size_t)((hash != NULL ? hash : nl) - q))) != NULL;) {
        const char *close = kpca_csvtok_close(q, end);
        if (close == NULL || close > nl) {
            char *e = close != NULL ? memchr(close, '\n', (size_t)(end - close)) : NULL;
            return close == NULL ? NULL : e != NULL ? e : end;
        }
        q = close + 1;
    }
    return NULL;
}

/* The format that the lines of text in [p, end) tell (the text changed),
 * looking at the first 20 that are neither blank nor comments, each up to
 * 4095 bytes (the first of them copied to first, 4096 bytes): a ',' or ';'
 * on the first means CSV, else an index:value pair on any LIBSVM, else
 * ESL; KPCA_FMT_AUTO when there is none (*lines: how many). */
static kpca_format scan_lines(char *p, char *end, char *first, int *lines)
{
    kpca_format fmt = KPCA_FMT_AUTO;
    *lines = 0;
    while (fmt != KPCA_FMT_LIBSVM && *lines < 20 && p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p)), *next = nl != NULL ? nl + 1 : end;
        if (nl != NULL)
            *nl = '\0';
        while (kpca_text_blank(*p))
            p++;
        if (*p == '\0' || *p == '#') { /* a blank line, or a comment (SVMlight's, numpy.savetxt's header):
                                         * no data line tells the format */
            p = next;
            continue;
        }
        char *row = *lines == 0 && nl != NULL ? quoted_row_end(p, nl, end) : NULL;
        if (row != NULL) { /* a quoted field with a line break (a header name): its delimiters are past it */
            const char c = *row; /* end is inside the buffer (its NUL) */
            *nl = '\n';
            *row = '\0';
            const int delimited = strpbrk(p, ",;\t") != NULL;
            *row = c;
            *nl = '\0';
            if (delimited)
                return KPCA_FMT_CSV;
        }
        cut_comment(p);
        if (strlen(p) > 4095)
            p[4095] = '\0';
        if ((*lines)++ == 0) {
            snprintf(first, 4096, "%s", p);
            if (strpbrk(p, ",;") != NULL && !multilabel_svm(p))
                return KPCA_FMT_CSV;
        }
        fmt = strchr(p, ':') != NULL ? KPCA_FMT_LIBSVM : KPCA_FMT_ESL;
        p = next;
    }
    return fmt;
}

/* *found 1 when the text of path (decompressed) has a line that is neither
 * blank nor a '#' comment, *at the byte it starts at; reads up to it.  The
 * text's own error (damaged compressed data) is returned. */
static kpca_status first_data_line(const char *path, unsigned long long *at, int *found, kpca_error *err)
{
    kpca_bytes *b = NULL;
    char buf[4096];
    kpca_status st = kpca_bytes_open(path, &b, err);
    unsigned long long off = 0, line = 0;
    int comment = 0; /* in a line whose first byte not blank is '#' */
    *found = 0;
    for (size_t n = 1; st == KPCA_OK && !*found && n > 0 && (st = kpca_bytes_read(b, buf, sizeof buf, 0, &n, err)) ==
                                                              KPCA_OK;) {
        const size_t bom = off == 0 ? kpca_text_bom(buf, n) : 0;
        for (size_t i = bom; i < n && !*found; i++) {
            if (buf[i] == '\n') {
                comment = 0;
                line = off + i + 1;
            } else if (!comment && !kpca_text_blank(buf[i]) && buf[i] != '\r') {
                comment = buf[i] == '#';
                *found = !comment;
            }
        }
        off += n;
    }
    kpca_bytes_close(b);
    *at = line;
    return st;
}

/* text (cap + 1 bytes) holds up to cap bytes of path's text from byte at,
 * *len of them, NUL-terminated */
static kpca_status read_window(const char *path, unsigned long long at, char *text, size_t cap, size_t *len,
                               kpca_error *err)
{
    kpca_bytes *b = NULL;
    kpca_status st = kpca_bytes_open(path, &b, err);
    *len = 0;
    if (st == KPCA_OK && kpca_bytes_seek(b, at) != 0)
        st = kpca_fail(err, KPCA_EIO, "cannot read '%s' past its first 64 KiB of comments", path);
    for (size_t n = 1; st == KPCA_OK && *len < cap && n > 0;)
        if ((st = kpca_bytes_read(b, text + *len, cap - *len, 0, &n, err)) == KPCA_OK)
            *len += n;
    kpca_bytes_close(b);
    text[*len] = '\0';
    return st;
}

/* kpca_detect_format of the text after its first `skip` lines (--skip-rows) */
static kpca_status detect(const char *path, size_t skip, kpca_format *out, kpca_error *err)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return kpca_fail(err, KPCA_EIO, "cannot open '%s': %s", path, strerror(errno));
    unsigned char head[64];
    size_t got = fread(head, 1, sizeof head, f);
    fclose(f);
    /* the HDF5 signature, or the seal in front of one that kpca wrote (h5seal.h) */
    if ((got >= 8 && memcmp(head, hdf5_sig, 8) == 0) || (got >= 12 && memcmp(head, "kpca-seal 1 ", 12) == 0)) {
        *out = KPCA_FMT_HDF5;
        return KPCA_OK;
    }
    if (got == 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': file is empty", path);
    const kpca_codec codec = kpca_codec_of(head, got);
    kpca_status st = codec != KPCA_CODEC_NONE ? KPCA_OK : kpca_textfile_head(path, (const char *)head, got, NULL, err);
    if (st != KPCA_OK)
        return st;

    if (got >= 6 && memcmp(head, "\x93NUMPY", 6) == 0) {
        *out = KPCA_FMT_NPY;
        return KPCA_OK;
    }
    if (kpca_mat_is(head, got)) { /* before HDF5's check in the sniff: a v7.3 file is HDF5 behind 512 bytes */
        *out = KPCA_FMT_MAT;
        return KPCA_OK;
    }
    /* .npz, .xlsx: named, with what to do */
    kpca_file_info zip = {.kind = got >= 4 && memcmp(head, "PK", 2) == 0 ? kpca_zip_kind_of(path) : KPCA_FILE_BINARY};
    if (zip.kind != KPCA_FILE_BINARY) {
        char desc[256];
        return kpca_fail(err, KPCA_EFORMAT, "'%s' %s", path, kpca_file_describe(&zip, desc, sizeof desc));
    }

    /* the text's first 64 KiB (decompressed): its first 20 non-blank
     * lines (each looked at up to 4095 bytes): a ',' or ';' on the first
     * means CSV (neither ESL nor LIBSVM has them, but for multi-label
     * LIBSVM's labels, which its reader refuses by name); else an index:value pair
     * on any means LIBSVM (a LIBSVM point may have no pairs at all); else a
     * tab on a first line that has no spaces or is not all numbers means
     * TSV; else ESL */
    const size_t cap = (size_t)64 << 10;
    char *text = kpca_malloc(cap + 1), first[4096] = "";
    kpca_bytes *b = NULL;
    if (text == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
    if ((st = kpca_bytes_open(path, &b, err)) != KPCA_OK) {
        kpca_free(text);
        return st;
    }
    size_t len = 0, n = 1;
    kpca_error why;
    kpca_status read_st = KPCA_OK;
    while (len < cap && n > 0 && (read_st = kpca_bytes_read(b, text + len, cap - len, 0, &n, &why)) == KPCA_OK)
        len += n;
    kpca_bytes_close(b);
    text[len] = '\0';
    /* damaged data after the first lines is the reader's to report, on its line */
    if (read_st != KPCA_OK && len == 0) {
        kpca_free(text);
        if (err != NULL)
            *err = why;
        return read_st;
    }
    /* the text inside a compressed file: a wide encoding is refused as above */
    if ((codec != KPCA_CODEC_NONE && (st = kpca_textfile_head(path, text, len, NULL, err)) != KPCA_OK) ||
        (st = named_refusal(path, head, got, text, len, codec, err)) != KPCA_OK) {
        kpca_free(text);
        return st;
    }
    const int arff = kpca_arff_head(text, len); /* text that starts with @relation */
    kpca_format fmt = arff ? KPCA_FMT_ARFF : KPCA_FMT_AUTO;
    int lines = 0;
    const int binary = codec == KPCA_CODEC_NONE && got >= 2 && memchr(head, '\0', got) != NULL;
    char *p = text + kpca_text_bom(text, len);
    if (skip > 0 && !binary) { /* the lines --skip-rows skips tell nothing */
        size_t skipped;
        p += kpca_textfile_skip(p, (size_t)(text + len - p), skip, &skipped);
        if (p == text + len) {
            kpca_free(text);
            if (read_st != KPCA_OK) {
                if (err != NULL)
                    *err = why;
                return read_st;
            }
            if (len < cap)
                return kpca_textfile_skip_fail(path, skipped, skip, err);
            return kpca_fail(err, KPCA_EUSAGE,
                             "'%s': --skip-rows %zu skips the whole first 64 KiB of the text, where kpca tells its "
                             "format: give --format csv (or esl) with it",
                             path, skip);
        }
    }
    if (!binary && !arff)
        fmt = scan_lines(p, text + len, first, &lines);
    /* comments filled the first 64 KiB (numpy.savetxt's header of
     * thousands of names): the 64 KiB from the first line that is not one */
    unsigned long long at = 0;
    int found = 0;
    const int comments = !binary && !arff && lines == 0 && len == cap && read_st == KPCA_OK;
    if (comments && skip > 0)
        st = kpca_fail(err, KPCA_EUSAGE, "'%s': after --skip-rows %zu, the next 64 KiB of the text, where kpca tells "
                       "its format, hold only blank lines and '#' comments: give --format csv (or esl) with it",
                       path, skip);
    else if (comments && (st = first_data_line(path, &at, &found, err)) == KPCA_OK && found &&
             (st = read_window(path, at, text, cap, &len, err)) == KPCA_OK)
        fmt = scan_lines(text, text + len, first, &lines);
    kpca_free(text);
    if (st != KPCA_OK)
        return st;
    if (fmt == KPCA_FMT_ESL && strchr(first, '\t') != NULL) {
        const char *q = first;
        double v;
        while (*q != '\0' && *q != '\n' && kpca_parse_number(&q, '\0', &v) == 0)
            while (kpca_text_blank(*q))
                q++;
        if (strchr(first, ' ') == NULL || (*q != '\0' && *q != '\n'))
            fmt = KPCA_FMT_CSV;
    }
    if (binary)
        return kpca_fail(err, KPCA_EFORMAT,
                         "'%s': binary data in no format kpca reads (it reads " KPCA_FORMATS_READ
                         "); the file starts with bytes %02x %02x %02x %02x",
                         path, head[0], got > 1 ? head[1] : 0, got > 2 ? head[2] : 0, got > 3 ? head[3] : 0);
    if (fmt == KPCA_FMT_AUTO) { /* no line read: damaged compressed data, or none */
        if (read_st != KPCA_OK) {
            if (err != NULL)
                *err = why;
            return read_st;
        }
        return kpca_fail(err, KPCA_EFORMAT, "'%s': no data (the file holds only blank lines and '#' comments)", path);
    }
    *out = fmt;
    return KPCA_OK;
}

kpca_status kpca_detect_format(const char *path, kpca_format *out, kpca_error *err)
{
    return detect(path, 0, out, err);
}

kpca_status kpca_read_format(const char *file, const char *group, const kpca_read_opts *opts, kpca_format *fmt,
                             int *text_opts, kpca_error *err)
{
    *fmt = opts->format;
    *text_opts = 0;
    kpca_status st = KPCA_OK;
    if (*fmt == KPCA_FMT_AUTO && (st = detect(file, opts->skip_rows, fmt, err)) != KPCA_OK)
        return st;
    if (group != NULL && *fmt != KPCA_FMT_HDF5 && *fmt != KPCA_FMT_MAT)
        return kpca_fail(err, KPCA_EUSAGE, "'%s': a group ('%s') was given but the file is %s text, not HDF5", file,
                         group, kpca_format_name(*fmt));
    const char *text_opt = opts->label != NULL ? "--label" : opts->header != KPCA_HEADER_AUTO ? "--header"
                           : opts->columns != NULL ? "--columns" : opts->drop != NULL ? "--drop"
                           : opts->decimal == ',' ? "--decimal" : NULL;
    /* --skip-rows alone leaves whitespace text to the ESL reader, which
     * skips the lines itself and guesses the labels as without them */
    *text_opts = text_opt != NULL;
    if (text_opt == NULL && opts->skip_rows > 0)
        text_opt = "--skip-rows";
    if (text_opt != NULL && (*fmt == KPCA_FMT_LIBSVM || *fmt == KPCA_FMT_NPY || *fmt == KPCA_FMT_HDF5 ||
                             *fmt == KPCA_FMT_MAT))
        return kpca_fail(err, KPCA_EUSAGE, "'%s': %s applies to CSV and whitespace text, not to %s", file, text_opt,
                         kpca_format_name(*fmt));
    if (*fmt == KPCA_FMT_ARFF && (opts->header != KPCA_HEADER_AUTO || opts->decimal == ','))
        return kpca_fail(err, KPCA_EUSAGE, "'%s': %s applies to CSV and whitespace text, not to ARFF (its @attribute "
                         "lines name the columns, and its numbers have decimal points)", file,
                         opts->header != KPCA_HEADER_AUTO ? "--header" : "--decimal");
    return KPCA_OK;
}

kpca_status kpca_dataset_read(const char *spec, const kpca_read_opts *opts,
                              kpca_dataset *ds, kpca_error *err)
{
    return kpca_dataset_read_info(spec, opts, ds, NULL, err);
}

/* The MATLAB variable `var` of file (NULL: its one matrix), unlabelled;
 * dim: the expected number of values (0: any) */
static kpca_status read_mat(const char *file, const char *var, size_t dim, kpca_dataset *ds, kpca_error *err)
{
    char *name = NULL;
    kpca_status st = kpca_mat_read(file, var, &ds->x, &ds->n, &ds->dim, &name, err);
    if (st == KPCA_OK && dim != 0 && ds->dim != dim)
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': variable '%s' has %zu values per row, expected %zu", file, name,
                       ds->dim, dim);
    if (st == KPCA_OK && (ds->y = kpca_calloc(ds->n, sizeof *ds->y)) == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", file);
    kpca_free(name);
    ds->unlabelled = 1;
    if (st != KPCA_OK)
        kpca_dataset_free(ds);
    return st;
}

/* kpca_dataset_read_info of a spec whose file is not a stream */
static kpca_status read_spec(const char *spec, const kpca_read_opts *opts, kpca_dataset *ds, kpca_featinfo *info,
                             kpca_error *err)
{
    static const kpca_read_opts defaults = {.format = KPCA_FMT_AUTO};
    if (opts == NULL)
        opts = &defaults;
    memset(ds, 0, sizeof *ds);
    if (info != NULL)
        memset(info, 0, sizeof *info);

    char *file = NULL;
    const char *group = NULL;
    kpca_status st = kpca_split_spec(spec, &file, &group, err);
    if (st != KPCA_OK)
        return st;
    if ((st = kpca_input_check(file, err)) != KPCA_OK) {
        kpca_free(file);
        return st;
    }
    if (opts->group != NULL)
        group = opts->group;

    kpca_format fmt;
    int text_opts;
    if ((st = kpca_read_format(file, group, opts, &fmt, &text_opts, err)) != KPCA_OK) {
        kpca_free(file);
        return st;
    }
    switch (fmt) {
    case KPCA_FMT_ESL:
        /* whitespace text with a label or header option: the delimited reader */
        st = text_opts ? kpca_read_csv(file, ' ', opts, ds, err) : kpca_read_esl(file, opts->dim, opts->skip_rows, ds, err);
        break;
    case KPCA_FMT_CSV: st = kpca_read_csv(file, 0, opts, ds, err); break;
    case KPCA_FMT_ARFF: st = kpca_read_arff(file, opts, ds, err); break;
    case KPCA_FMT_NPY: st = kpca_read_npy(file, opts->dim, ds, err); break;
    case KPCA_FMT_LIBSVM: st = kpca_read_libsvm(file, opts->dim, ds, err); break;
    case KPCA_FMT_HDF5: st = kpca_read_hdf5(file, group != NULL ? group : "/", opts->dim, ds, info, err); break;
    case KPCA_FMT_MAT: st = read_mat(file, group, opts->dim, ds, err); break;
    default: st = kpca_fail(err, KPCA_EUSAGE, "'%s': cannot read format '%s'", file, kpca_format_name(fmt));
    }
    if (st == KPCA_OK && opts->labels != NULL) {
        if (!ds->unlabelled)
            st = kpca_fail(err, KPCA_EUSAGE, "'%s' has labels of its own: --labels FILE is for data without them "
                           "(a CSV file's label column is dropped with --label none)", file);
        else
            st = kpca_labels_read(opts->labels, ds, err);
        if (st != KPCA_OK)
            kpca_dataset_free(ds);
    }
    if (st == KPCA_OK)
        ds->format = fmt;
    kpca_free(file);
    return st;
}

kpca_status kpca_dataset_read_info(const char *spec, const kpca_read_opts *opts, kpca_dataset *ds,
                                   kpca_featinfo *info, kpca_error *err)
{
    /* a stream is read once, into a spool that the readers open as a file */
    kpca_spool spool;
    char *spooled = NULL;
    kpca_status st = kpca_spool_spec(spec, &spool, &spooled, err);
    if (st == KPCA_OK)
        st = read_spec(spooled != NULL ? spooled : spec, opts, ds, info, err);
    else {
        memset(ds, 0, sizeof *ds);
        if (info != NULL)
            memset(info, 0, sizeof *info);
    }
    kpca_free(spooled);
    return kpca_spool_finish(&spool, st, err);
}

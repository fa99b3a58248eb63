/* test_bytes.c - the byte source under every text reader (text/bytes.h):
 * a text written plain and compressed by each library itself (zlib,
 * libbz2, liblzma, libzstd) reads back byte for byte, in reads of every
 * size; the compression is found from the content whatever the name; two
 * streams one after the other read as one text; seeks forward and back
 * land on their byte; a truncated stream, a damaged byte and bytes after
 * the last stream are refused, naming the file, the format and the line
 * (after gzip's last member, zero bytes to the end are read as gzip reads
 * them);
 * which first bytes name a known format (file/magic.h). */
#include "testutil.h"

#include <bzlib.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include "lib/text/bytes.h"

#define TEXT_LEN ((size_t)700000)

static char *make_text(void)
{
    char *t = malloc(TEXT_LEN + 1);
    assert_non_null(t);
    size_t at = 0;
    for (unsigned i = 0; at < TEXT_LEN; i++) {
        int n = snprintf(t + at, TEXT_LEN + 1 - at, "%u %u.%03u %u\n", i % 10, (i * 2654435761u) % 1000, i % 997,
                         i * 7);
        at += (size_t)n;
    }
    t[TEXT_LEN] = '\0';
    return t;
}

/* text compressed by codec's own library into a new buffer (*len bytes) */
static unsigned char *compress_with(kpca_codec codec, const char *text, size_t n, size_t *len)
{
    size_t cap = n + n / 2 + 65536;
    unsigned char *out = malloc(cap);
    assert_non_null(out);
    switch (codec) {
    case KPCA_CODEC_NONE: memcpy(out, text, n); *len = n; break;
    case KPCA_CODEC_GZIP: {
        z_stream z;
        memset(&z, 0, sizeof z);
        assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
        z.next_in = (unsigned char *)text;
        z.avail_in = (uInt)n;
        z.next_out = out;
        z.avail_out = (uInt)cap;
        assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
        *len = z.total_out;
        deflateEnd(&z);
        break;
    }
    case KPCA_CODEC_BZIP2: {
        unsigned int l = (unsigned int)cap;
        assert_int_equal(BZ2_bzBuffToBuffCompress((char *)out, &l, (char *)text, (unsigned)n, 9, 0, 0), BZ_OK);
        *len = l;
        break;
    }
    case KPCA_CODEC_XZ: {
        size_t pos = 0;
        assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, (const uint8_t *)text, n, out, &pos, cap),
                         LZMA_OK);
        *len = pos;
        break;
    }
    case KPCA_CODEC_ZSTD: {
        size_t r = ZSTD_compress(out, cap, text, n, 3);
        assert_false(ZSTD_isError(r));
        *len = r;
        break;
    }
    }
    return out;
}

static void write_bytes(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(p, 1, n, f), n);
    fclose(f);
}

/* the whole text of path, read `step` bytes at a time */
static char *read_all(const char *path, size_t step, size_t *n, kpca_codec *codec)
{
    kpca_bytes *b;
    kpca_error err;
    assert_int_equal(kpca_bytes_open(path, &b, &err), KPCA_OK);
    *codec = kpca_bytes_codec(b);
    char *all = malloc(2 * TEXT_LEN + 1);
    assert_non_null(all);
    size_t got;
    *n = 0;
    while (kpca_bytes_read(b, all + *n, step < 2 * TEXT_LEN - *n ? step : 2 * TEXT_LEN - *n, 0, &got, &err) ==
               KPCA_OK &&
           got > 0) {
        *n += got;
        assert_int_equal(kpca_bytes_tell(b), *n);
    }
    assert_int_equal(got, 0);
    kpca_bytes_close(b);
    return all;
}

static const kpca_codec codecs[] = {KPCA_CODEC_NONE, KPCA_CODEC_GZIP, KPCA_CODEC_BZIP2, KPCA_CODEC_XZ,
                                    KPCA_CODEC_ZSTD};

static void test_read_back(void **state)
{
    (void)state;
    char *text = make_text();
    for (size_t c = 0; c < sizeof codecs / sizeof codecs[0]; c++) {
        size_t len;
        unsigned char *z = compress_with(codecs[c], text, TEXT_LEN, &len);
        write_bytes(TEST_OUT "/bytes.data", z, len); /* no name says what it is */
        static const size_t steps[] = {1, 4093, 65536, 1 << 20};
        for (size_t s = 0; s < sizeof steps / sizeof steps[0]; s++) {
            if (steps[s] == 1 && codecs[c] != KPCA_CODEC_ZSTD)
                continue; /* (byte by byte once is enough) */
            size_t n;
            kpca_codec found;
            char *back = read_all(TEST_OUT "/bytes.data", steps[s], &n, &found);
            assert_int_equal(found, codecs[c]);
            assert_int_equal(n, TEXT_LEN);
            assert_memory_equal(back, text, TEXT_LEN);
            free(back);
        }
        /* two streams one after the other: the two texts */
        unsigned char *two = malloc(2 * len);
        assert_non_null(two);
        memcpy(two, z, len);
        memcpy(two + len, z, len);
        write_bytes(TEST_OUT "/bytes.data", two, 2 * len);
        size_t n;
        kpca_codec found;
        char *back = read_all(TEST_OUT "/bytes.data", 100000, &n, &found);
        assert_int_equal(n, 2 * TEXT_LEN);
        assert_memory_equal(back, text, TEXT_LEN);
        assert_memory_equal(back + TEXT_LEN, text, TEXT_LEN);
        free(back);
        free(two);
        free(z);
    }
    free(text);
}

static void test_seek(void **state)
{
    (void)state;
    char *text = make_text();
    for (size_t c = 0; c < sizeof codecs / sizeof codecs[0]; c++) {
        size_t len;
        unsigned char *z = compress_with(codecs[c], text, TEXT_LEN, &len);
        write_bytes(TEST_OUT "/bytes.data", z, len);
        free(z);
        kpca_bytes *b;
        kpca_error err;
        assert_int_equal(kpca_bytes_open(TEST_OUT "/bytes.data", &b, &err), KPCA_OK);
        static const unsigned long long at[] = {500000, 17, 17, 699990, 0, 250000, TEXT_LEN};
        char buf[64];
        for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
            if (kpca_bytes_seek(b, at[k]) != 0)
                fail_msg("%s: the seek to %llu failed", kpca_codec_name(codecs[c]), at[k]);
            assert_int_equal(kpca_bytes_tell(b), at[k]);
            size_t want = TEXT_LEN - at[k] < 10 ? TEXT_LEN - at[k] : 10, got = 0, n;
            while (got < want && kpca_bytes_read(b, buf + got, want - got, 0, &n, &err) == KPCA_OK && n > 0)
                got += n;
            assert_int_equal(got, want);
            assert_memory_equal(buf, text + at[k], want);
        }
        size_t n; /* past the end: nothing more */
        assert_int_equal(kpca_bytes_seek(b, TEXT_LEN + 100), 0);
        assert_int_equal(kpca_bytes_read(b, buf, sizeof buf, 0, &n, &err), KPCA_OK);
        assert_int_equal(n, 0);
        kpca_bytes_close(b);
    }
    free(text);
}

/* reads path to its end or its error: the error's message, or "" */
static void read_error(const char *path, char *msg, size_t cap)
{
    kpca_bytes *b;
    kpca_error err;
    assert_int_equal(kpca_bytes_open(path, &b, &err), KPCA_OK);
    char *buf = malloc(1 << 16);
    assert_non_null(buf);
    size_t got;
    kpca_status st;
    while ((st = kpca_bytes_read(b, buf, 1 << 16, 42, &got, &err)) == KPCA_OK && got > 0)
        ;
    snprintf(msg, cap, "%s", st == KPCA_OK ? "" : err.msg);
    if (st != KPCA_OK) /* and again: an error stays */
        assert_int_equal(kpca_bytes_read(b, buf, 1 << 16, 42, &got, &err), st);
    free(buf);
    kpca_bytes_close(b);
}

static void test_damage(void **state)
{
    (void)state;
    char *text = make_text();
    for (size_t c = 1; c < sizeof codecs / sizeof codecs[0]; c++) {
        const char *name = kpca_codec_name(codecs[c]);
        char want[128], msg[KPCA_ERRMSG_MAX];
        snprintf(want, sizeof want, "'" TEST_OUT "/bytes.data' near line 42: corrupt or truncated %s data", name);
        size_t len;
        unsigned char *z = compress_with(codecs[c], text, TEXT_LEN, &len);
        /* truncated */
        write_bytes(TEST_OUT "/bytes.data", z, len - 100);
        read_error(TEST_OUT "/bytes.data", msg, sizeof msg);
        if (strstr(msg, want) == NULL)
            fail_msg("%s cut short: '%s'", name, msg);
        /* a byte damaged in the middle */
        z[len / 2] ^= 0x55;
        write_bytes(TEST_OUT "/bytes.data", z, len);
        read_error(TEST_OUT "/bytes.data", msg, sizeof msg);
        if (strstr(msg, want) == NULL)
            fail_msg("%s damaged: '%s'", name, msg);
        z[len / 2] ^= 0x55;
        /* bytes after the stream that are no stream */
        unsigned char *more = malloc(len + 64);
        assert_non_null(more);
        memcpy(more, z, len);
        memset(more + len, 'x', 64);
        write_bytes(TEST_OUT "/bytes.data", more, len + 64);
        read_error(TEST_OUT "/bytes.data", msg, sizeof msg);
        if (strstr(msg, want) == NULL)
            fail_msg("%s with bytes after it: '%s'", name, msg);
        free(more);
        free(z);
    }
    free(text);
}

/* z (len bytes), then after it the bytes [tail, tail + tail_len), into
 * tests/out/bytes.data */
static void write_with_tail(const unsigned char *z, size_t len, const unsigned char *tail, size_t tail_len)
{
    unsigned char *all = malloc(len + tail_len);
    assert_non_null(all);
    memcpy(all, z, len);
    memcpy(all + len, tail, tail_len);
    write_bytes(TEST_OUT "/bytes.data", all, len + tail_len);
    free(all);
}

/* after gzip's last member: bytes that are no member refused, after one
 * member or two (gunzip warns and ignores them); zero bytes to the end
 * read as gzip reads them, silently (tar's padding), across input
 * buffers; zeros and then more, a lone first byte of a member: refused */
static void test_gzip_after(void **state)
{
    (void)state;
    char *text = make_text();
    size_t len;
    unsigned char *z = compress_with(KPCA_CODEC_GZIP, text, TEXT_LEN, &len);
    unsigned char *two = malloc(2 * len);
    assert_non_null(two);
    memcpy(two, z, len);
    memcpy(two + len, z, len);
    const char *want = "'" TEST_OUT "/bytes.data' near line 42: corrupt or truncated gzip data (";
    char msg[KPCA_ERRMSG_MAX];
    static const unsigned char words[] = "5,6\n7,8\n";
    static unsigned char zeros[300000]; /* more than an input buffer */
    write_with_tail(z, len, words, sizeof words - 1);
    read_error(TEST_OUT "/bytes.data", msg, sizeof msg);
    if (strstr(msg, want) == NULL || strstr(msg, "after the last member") == NULL)
        fail_msg("text after a member: '%s'", msg);
    write_with_tail(two, 2 * len, words, sizeof words - 1);
    read_error(TEST_OUT "/bytes.data", msg, sizeof msg);
    if (strstr(msg, want) == NULL || strstr(msg, "after the last member") == NULL)
        fail_msg("text after two members: '%s'", msg);
    static const size_t nzeros[] = {1, 512, sizeof zeros};
    for (size_t k = 0; k < sizeof nzeros / sizeof nzeros[0]; k++) {
        write_with_tail(z, len, zeros, nzeros[k]);
        size_t n;
        kpca_codec found;
        char *back = read_all(TEST_OUT "/bytes.data", 100000, &n, &found);
        assert_int_equal(n, TEXT_LEN);
        assert_memory_equal(back, text, TEXT_LEN);
        free(back);
    }
    write_with_tail(two, 2 * len, zeros, 512); /* two members, then padding */
    size_t n;
    kpca_codec found;
    char *back = read_all(TEST_OUT "/bytes.data", 100000, &n, &found);
    assert_int_equal(n, 2 * TEXT_LEN);
    assert_memory_equal(back + TEXT_LEN, text, TEXT_LEN);
    free(back);
    unsigned char *padded = malloc(len + sizeof zeros);
    assert_non_null(padded);
    memcpy(padded, z, len);
    memset(padded + len, 0, sizeof zeros);
    write_with_tail(padded, len + sizeof zeros, z, len); /* zeros, then a member: gzip too calls it garbage */
    read_error(TEST_OUT "/bytes.data", msg, sizeof msg);
    if (strstr(msg, want) == NULL)
        fail_msg("a member after zeros: '%s'", msg);
    write_with_tail(z, len, (const unsigned char *)"\x1f", 1);
    read_error(TEST_OUT "/bytes.data", msg, sizeof msg);
    if (strstr(msg, want) == NULL)
        fail_msg("a member's first byte after the last: '%s'", msg);
    free(padded);
    free(two);
    free(z);
    free(text);
}

static void test_magic(void **state)
{
    (void)state;
    assert_int_equal(kpca_codec_of((const unsigned char *)"BZh9", 4), KPCA_CODEC_BZIP2);
    assert_int_equal(kpca_codec_of((const unsigned char *)"BZh0", 4), KPCA_CODEC_NONE);
    assert_int_equal(kpca_codec_of((const unsigned char *)"\xFD" "7zXZ\0", 6), KPCA_CODEC_XZ);
    assert_int_equal(kpca_codec_of((const unsigned char *)"\xFD" "7zX", 4), KPCA_CODEC_NONE); /* too short */
    assert_int_equal(kpca_codec_of((const unsigned char *)"\x28\xB5\x2F\xFD", 4), KPCA_CODEC_ZSTD);
    assert_int_equal(kpca_codec_of((const unsigned char *)"\x1F\x8B", 2), KPCA_CODEC_GZIP);
    assert_int_equal(kpca_codec_of((const unsigned char *)"1 2 3", 5), KPCA_CODEC_NONE);
    /* what a stream's first block may be (file/source.h's check) */
    static const struct {
        const char *head;
        size_t n;
        int known;
    } heads[] = {
        {"\x93NUMPY\x01\x00", 8, 1}, {"\x89HDF\r\n\x1a\n", 8, 1}, {"kpca-seal 1 00", 14, 1},
        {"PK\x03\x04", 4, 1},         {"MATLAB 5.0 MAT-file", 19, 1}, {"\xFF\xFE" "1\0", 4, 1},
        {"BZh9", 4, 1},               {"\0\0\0\0", 4, 0},             {"\x93NUM", 4, 0},
        {"1 2 3\n", 6, 0},            {"\x7F" "ELF", 4, 0},
    };
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++)
        if (kpca_magic_known((const unsigned char *)heads[i].head, heads[i].n) != heads[i].known)
            fail_msg("head %zu: known %d, expected %d", i, !heads[i].known, heads[i].known);
    kpca_bytes *b;
    kpca_error err;
    assert_int_equal(kpca_bytes_open(TEST_OUT "/no such file", &b, &err), KPCA_EIO);
    assert_non_null(strstr(err.msg, "cannot open '" TEST_OUT "/no such file'"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_magic),
        cmocka_unit_test(test_read_back),
        cmocka_unit_test(test_seek),
        cmocka_unit_test(test_damage),
        cmocka_unit_test(test_gzip_after),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_parts.c - the part-count rule and the threaded pread: every byte in
 * its place, stretches on element boundaries, the scan seeing each of them,
 * a short file and a bad descriptor reported, nothing read past `size`. */
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <unistd.h>

#include "lib/support/parts.h"

static void test_plan(void **state)
{
    (void)state;
    assert_int_equal(kpca_parts_plan(100, 4, 10), 4);
    assert_int_equal(kpca_parts_plan(100, 64, 1), KPCA_PARTS_MAX); /* at most 8 */
    assert_int_equal(kpca_parts_plan(35, 4, 10), 3);                /* parts of at least min_part */
    assert_int_equal(kpca_parts_plan(5, 4, 10), 1);                 /* never 0 */
    assert_int_equal(kpca_parts_plan(5, 4, 0), 4);                  /* min_part 0: any size */
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t want = cpus < 1 ? 1 : cpus > KPCA_PARTS_MAX ? KPCA_PARTS_MAX : (size_t)cpus;
    assert_int_equal(kpca_parts_plan((size_t)1 << 40, 0, KPCA_PART_MIN), want); /* 0: one per online CPU */
}

/* what the scan saw: the bytes it was shown, stretches off an 8-byte
 * boundary, and the marker byte */
static const unsigned char *scan_base;
static atomic_size_t scanned, misaligned;

static int find_marker(const void *bytes, size_t len)
{
    atomic_fetch_add(&scanned, len);
    if ((size_t)((const unsigned char *)bytes - scan_base) % 8 != 0 || len % 8 != 0)
        atomic_fetch_add(&misaligned, 1);
    return memchr(bytes, 0xAB, len) != NULL;
}

static void test_pread(void **state)
{
    (void)state;
    const size_t size = ((size_t)9 << 20) + 8 * 1001, skip = 24; /* two parts of stretches, and a tail */
    unsigned char *data = malloc(size + skip), *buf = malloc(size + 16);
    assert_non_null(data);
    assert_non_null(buf);
    for (size_t i = 0; i < size + skip; i++)
        data[i] = (unsigned char)((i * 2654435761u) >> 13) % 0xAB; /* no marker */
    FILE *f = fopen(TEST_OUT "/pread.bin", "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size + skip, f), size + skip);
    fclose(f);
    int fd = open(TEST_OUT "/pread.bin", O_RDONLY);
    assert_true(fd >= 0);
    int flagged = -1, errnum = -1;
    memset(buf, 0x5A, size + 16);
    scan_base = buf;
    atomic_store(&scanned, 0);
    atomic_store(&misaligned, 0);
    assert_int_equal(kpca_pread_parts(fd, buf, size, (off_t)skip, 8, find_marker, &flagged, &errnum), 1);
    assert_memory_equal(buf, data + skip, size);
    for (size_t i = size; i < size + 16; i++)
        assert_int_equal(buf[i], 0x5A); /* nothing past size */
    assert_int_equal(flagged, 0);
    assert_int_equal(errnum, 0);
    assert_int_equal(atomic_load(&scanned), size); /* every stretch seen once */
    assert_int_equal(atomic_load(&misaligned), 0);
    close(fd);

    /* the marker in the last stretch of the last part is found */
    data[skip + size - 5] = 0xAB;
    f = fopen(TEST_OUT "/pread.bin", "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size + skip, f), size + skip);
    fclose(f);
    fd = open(TEST_OUT "/pread.bin", O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(kpca_pread_parts(fd, buf, size, (off_t)skip, 8, find_marker, &flagged, &errnum), 1);
    assert_int_equal(flagged, 1);
    /* asking for more than the file holds: 0, and errno 0 for an early end */
    assert_int_equal(kpca_pread_parts(fd, buf, size, (off_t)skip + 8, 8, NULL, &flagged, &errnum), 0);
    assert_int_equal(errnum, 0);
    close(fd);
    /* a descriptor that reads nothing: 0 with its errno */
    assert_int_equal(kpca_pread_parts(-1, buf, size, 0, 1, NULL, &flagged, &errnum), 0);
    assert_int_equal(errnum, EBADF);
    free(data);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plan),
        cmocka_unit_test(test_pread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_parts.c - the part-count rule and the threaded pread: every byte in
 * its place (on threads started for the read, or a crew's), stretches on
 * element boundaries, the scan seeing each of them, a short file and a bad
 * descriptor reported, nothing read past `size`. */
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
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

/* with count_threads set, the distinct threads that scanned (up to 8),
 * the caller's first */
static int count_threads;
static atomic_size_t scanners;
static pthread_t scanner[KPCA_PARTS_MAX];
static pthread_mutex_t scanner_lock = PTHREAD_MUTEX_INITIALIZER;

static void note_thread(void)
{
    pthread_mutex_lock(&scanner_lock);
    size_t n = atomic_load(&scanners), i = 0;
    while (i < n && !pthread_equal(scanner[i], pthread_self()))
        i++;
    if (i == n && n < KPCA_PARTS_MAX) {
        scanner[n] = pthread_self();
        atomic_store(&scanners, n + 1);
    }
    pthread_mutex_unlock(&scanner_lock);
}

static int find_marker(const void *bytes, size_t len)
{
    if (count_threads)
        note_thread();
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
    assert_int_equal(kpca_pread_parts(fd, buf, size, (off_t)skip, 8, KPCA_PART_MIN, find_marker, &flagged, &errnum), 1);
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
    assert_int_equal(kpca_pread_parts(fd, buf, size, (off_t)skip, 8, KPCA_PART_MIN, find_marker, &flagged, &errnum), 1);
    assert_int_equal(flagged, 1);
    /* the part size is the caller's: 9 MiB in parts of at least 1 MiB on
     * every CPU (at most 8), the marker still found, every byte in place */
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t want = cpus < 1 ? 1 : cpus > KPCA_PARTS_MAX ? KPCA_PARTS_MAX : (size_t)cpus;
    memset(buf, 0x5A, size + 16);
    atomic_store(&scanned, 0);
    atomic_store(&scanners, 0);
    count_threads = 1;
    assert_int_equal(kpca_pread_parts(fd, buf, size, (off_t)skip, 8, KPCA_PREAD_PART_MIN, find_marker, &flagged,
                                      &errnum), 1);
    count_threads = 0;
    assert_int_equal(flagged, 1);
    assert_memory_equal(buf, data + skip, size);
    assert_int_equal(buf[size], 0x5A);
    assert_int_equal(atomic_load(&scanned), size);
    assert_int_equal(atomic_load(&scanners), want); /* KPCA_PART_MIN would give 2 at most */
    /* the same on a crew's threads, twice: the caller's and its helpers' */
    kpca_crew *crew = kpca_crew_new(want - 1);
    for (int again = 0; again < 2; again++) {
        memset(buf, 0x5A, size + 16);
        atomic_store(&scanned, 0);
        atomic_store(&scanners, 0);
        count_threads = 1;
        assert_int_equal(kpca_pread_parts_on(crew, fd, buf, size, (off_t)skip, 8, KPCA_PREAD_PART_MIN, find_marker,
                                             &flagged, &errnum), 1);
        count_threads = 0;
        assert_int_equal(flagged, 1);
        assert_memory_equal(buf, data + skip, size);
        assert_int_equal(atomic_load(&scanned), size);
        assert_int_equal(atomic_load(&scanners), want);
    }
    kpca_crew_free(crew);
    /* asking for more than the file holds: 0, and errno 0 for an early end */
    assert_int_equal(kpca_pread_parts(fd, buf, size, (off_t)skip + 8, 8, KPCA_PART_MIN, NULL, &flagged, &errnum), 0);
    assert_int_equal(errnum, 0);
    close(fd);
    /* a descriptor that reads nothing: 0 with its errno */
    assert_int_equal(kpca_pread_parts(-1, buf, size, 0, 1, KPCA_PART_MIN, NULL, &flagged, &errnum), 0);
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

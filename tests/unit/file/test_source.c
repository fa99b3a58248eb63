/* test_source.c - the spool (file/source.h): a stream read exactly once,
 * whole, into a temporary file that readers open by name; its errors. */
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/file/source.h"

#define OUT_DIR TEST_OUT

/* byte i of the test streams: not periodic in any small power of two */
/* byte i of the streams written here: every value but 0 (a first block
 * with a NUL byte and no known format is refused: test_first_block) */
static unsigned char pattern(unsigned long long i)
{
    return (unsigned char)(((i * 2654435761ULL) >> 13 ^ i >> 17) | 1);
}

typedef struct {
    int fd;                    /* the write end, closed when done */
    const char *fifo;          /* else: open this FIFO to write */
    unsigned long long bytes;  /* how many to write */
    unsigned long long opens;  /* how many times the FIFO was opened */
} writer_job;

/* writes job->bytes of the pattern, once, then closes: a reader that
 * opened the stream twice would wait for ever for a second writer */
static void *writer(void *arg)
{
    writer_job *job = arg;
    int fd = job->fifo != NULL ? open(job->fifo, O_WRONLY) : job->fd;
    if (fd < 0)
        return NULL;
    job->opens++;
    unsigned char buf[8192];
    for (unsigned long long done = 0; done < job->bytes;) {
        size_t n = job->bytes - done < sizeof buf ? (size_t)(job->bytes - done) : sizeof buf;
        for (size_t i = 0; i < n; i++)
            buf[i] = pattern(done + i);
        ssize_t w = write(fd, buf, n);
        if (w <= 0)
            break;
        done += (unsigned long long)w;
    }
    close(fd);
    return NULL;
}

/* Asserts that path holds exactly `bytes` bytes of the pattern, read in
 * pieces (not all in memory). */
static void assert_pattern_file(const char *path, unsigned long long bytes)
{
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    unsigned char buf[65536];
    unsigned long long at = 0;
    ssize_t got;
    while ((got = read(fd, buf, sizeof buf)) > 0) {
        for (ssize_t i = 0; i < got; i++)
            if (buf[i] != pattern(at + (unsigned long long)i))
                fail_msg("byte %llu of '%s' differs", at + (unsigned long long)i, path);
        at += (unsigned long long)got;
    }
    close(fd);
    assert_true(got == 0);
    if (at != bytes)
        fail_msg("'%s' has %llu bytes, want %llu", path, at, bytes);
}

/* fd 0 from `fd` for one call, restored after */
static int stdin_save = -1;
static void stdin_from(int fd)
{
    stdin_save = dup(0);
    assert_true(stdin_save >= 0);
    assert_int_equal(dup2(fd, 0), 0);
    close(fd);
}
static void stdin_restore(void)
{
    assert_int_equal(dup2(stdin_save, 0), 0);
    close(stdin_save);
}

static int pending_has(const char *path)
{
    for (size_t i = 0; i < KPCA_ATOMIC_MAX_PENDING; i++)
        if (kpca_atomic_pending(i) != NULL && strcmp(kpca_atomic_pending(i), path) == 0)
            return 1;
    return 0;
}

/* "-" on a pipe written by a thread: all of it in the spool, which opens
 * as a regular file as often as wanted, named "<stdin>"; the pipe is left
 * at its end; the temporary file is on the signal handlers' list, and
 * gone after the close. */
static void test_stdin_pipe(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    writer_job job = {p[1], NULL, 200000, 0}; /* > a pipe's 64 KiB buffer */
    pthread_t w;
    assert_int_equal(pthread_create(&w, NULL, writer, &job), 0);
    stdin_from(p[0]);
    kpca_spool sp;
    kpca_error err;
    alarm(20); /* a spool that stopped early would leave the writer blocked: the join too */
    assert_int_equal(kpca_spool_open("-", &sp, &err), KPCA_OK);
    char rest;
    assert_int_equal(read(0, &rest, 1), 0); /* nothing left: read to its end */
    stdin_restore();
    pthread_join(w, NULL);
    alarm(0);
    assert_string_equal(sp.name, "<stdin>");
    assert_int_equal(sp.bytes, 200000);
    struct stat st;
    assert_int_equal(stat(sp.path, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_pattern_file(sp.path, 200000);
    assert_pattern_file(sp.path, 200000); /* a second reader sees the same */
    assert_true(pending_has(sp.path));
    char path[4096];
    snprintf(path, sizeof path, "%s", sp.path);
    kpca_spool_close(&sp);
    assert_int_equal(sp.fd, -1);
    assert_true(stat(path, &st) != 0 && errno == ENOENT);
    assert_false(pending_has(path));
    kpca_spool_close(&sp); /* twice: harmless */
}

/* A FIFO whose one writer writes once: the spool opens it exactly once (a
 * second open would wait for a writer that never comes: the alarm). */
static void test_fifo_once(void **state)
{
    (void)state;
    const char *fifo = TEST_OUT "/spool.fifo";
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_true(kpca_source_is_stream(fifo));
    writer_job job = {-1, fifo, 5000, 0};
    pthread_t w;
    assert_int_equal(pthread_create(&w, NULL, writer, &job), 0);
    kpca_spool sp;
    kpca_error err;
    alarm(20);
    assert_int_equal(kpca_spool_open(fifo, &sp, &err), KPCA_OK);
    alarm(0);
    pthread_join(w, NULL);
    assert_int_equal(job.opens, 1);
    assert_string_equal(sp.name, fifo);
    struct stat st;
    assert_int_equal(stat(fifo, &st), 0);
    assert_int_equal(sp.src_ino, st.st_ino);
    assert_pattern_file(sp.path, 5000);
    kpca_spool_close(&sp);
    unlink(fifo);
}

/* More than 64 MiB through a pipe comes back byte for byte, with memory
 * that does not grow with it (the resident set's peak grows by far less
 * than the stream; not measured under AddressSanitizer, whose shadow
 * memory counts too). */
static void test_large(void **state)
{
    (void)state;
    const unsigned long long bytes = (65ULL << 20) + 12345;
    int p[2];
    assert_int_equal(pipe(p), 0);
    writer_job job = {p[1], NULL, bytes, 0};
    pthread_t w;
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    assert_int_equal(pthread_create(&w, NULL, writer, &job), 0);
    stdin_from(p[0]);
    kpca_spool sp;
    kpca_error err;
    alarm(60);
    kpca_status st = kpca_spool_open("-", &sp, &err);
    stdin_restore(); /* the pipe's last reader closed: a writer not done fails (EPIPE) */
    pthread_join(w, NULL);
    alarm(0);
    if (st != KPCA_OK)
        fail_msg("%s", err.msg);
    getrusage(RUSAGE_SELF, &after);
    assert_int_equal(sp.bytes, bytes);
    assert_pattern_file(sp.path, bytes);
#if !defined(__SANITIZE_ADDRESS__)
    if (after.ru_maxrss - before.ru_maxrss > 16 * 1024) /* kB */
        fail_msg("the peak resident set grew by %ld kB for a %llu-byte stream", after.ru_maxrss - before.ru_maxrss,
                 bytes);
#endif
    kpca_spool_close(&sp);
}

/* A TMPDIR that does not exist, or is a file: KPCA_EIO naming TMPDIR, its
 * value and the stream; nothing left open or on the list. */
static void test_tmpdir_unwritable(void **state)
{
    (void)state;
    const char *bad[] = {"/nonexistent/kpca-tmp", TEST_OUT "/spool-not-a-dir"};
    tu_write_file("spool-not-a-dir", "x");
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(setenv("TMPDIR", bad[i], 1), 0);
        int p[2];
        assert_int_equal(pipe(p), 0);
        assert_int_equal(write(p[1], "1,2\n", 4), 4);
        close(p[1]);
        stdin_from(p[0]);
        kpca_spool sp;
        kpca_error err;
        kpca_error_clear(&err);
        kpca_status st = kpca_spool_open("-", &sp, &err);
        stdin_restore();
        assert_int_equal(st, KPCA_EIO);
        char want[128];
        snprintf(want, sizeof want, "TMPDIR '%s'", bad[i]);
        if (strstr(err.msg, want) == NULL || strstr(err.msg, "'<stdin>'") == NULL ||
            strstr(err.msg, "set TMPDIR") == NULL)
            fail_msg("unclear message: %s", err.msg);
        assert_int_equal(sp.fd, -1);
        assert_null(sp.path);
        for (size_t j = 0; j < KPCA_ATOMIC_MAX_PENDING; j++)
            assert_null(kpca_atomic_pending(j));
    }
    setenv("TMPDIR", OUT_DIR, 1);
}

/* A write that fails half way (a file size limit stands in for a full
 * disk): KPCA_EIO naming TMPDIR and how far it got; the temporary file is
 * removed. */
static void test_tmpdir_full(void **state)
{
    (void)state;
    assert_int_equal(system("rm -rf " TEST_OUT "/spooldir && mkdir -p " TEST_OUT "/spooldir"), 0);
    assert_int_equal(setenv("TMPDIR", TEST_OUT "/spooldir", 1), 0);
    struct rlimit old, lim;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    lim = old;
    lim.rlim_cur = 1 << 20;
    void (*was)(int) = signal(SIGXFSZ, SIG_IGN); /* write() fails with EFBIG instead */
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    int p[2];
    assert_int_equal(pipe(p), 0);
    writer_job job = {p[1], NULL, 3 << 20, 0};
    pthread_t w;
    assert_int_equal(pthread_create(&w, NULL, writer, &job), 0);
    stdin_from(p[0]);
    kpca_spool sp;
    kpca_error err;
    alarm(20);
    kpca_status st = kpca_spool_open("-", &sp, &err);
    alarm(0);
    stdin_restore(); /* the writer meets a closed pipe: EPIPE (SIGPIPE ignored below) */
    pthread_join(w, NULL);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, was);
    setenv("TMPDIR", OUT_DIR, 1);
    assert_int_equal(st, KPCA_EIO);
    if (strstr(err.msg, "TMPDIR '" TEST_OUT "/spooldir'") == NULL || strstr(err.msg, "after 1048576 bytes") == NULL ||
        strstr(err.msg, "room") == NULL)
        fail_msg("unclear message: %s", err.msg);
    assert_int_equal(system("test -z \"$(ls -A " TEST_OUT "/spooldir)\""), 0); /* nothing left behind */
}

/* spools a pipe fed `bytes` bytes (first: its first bytes, then the
 * pattern) through standard input: the status, *sp open on KPCA_OK */
static kpca_status spool_pipe(const char *first, size_t nfirst, unsigned long long bytes, kpca_spool *sp,
                              kpca_error *err)
{
    int p[2];
    assert_int_equal(pipe(p), 0);
    if (nfirst > 0)
        assert_int_equal(write(p[1], first, nfirst), (ssize_t)nfirst);
    writer_job job = {p[1], NULL, bytes, 0};
    pthread_t w;
    assert_int_equal(pthread_create(&w, NULL, writer, &job), 0);
    stdin_from(p[0]);
    alarm(20);
    kpca_status st = kpca_spool_open("-", sp, err);
    alarm(0);
    stdin_restore();
    pthread_join(w, NULL);
    return st;
}

/* The cap: a stream past it is refused (KPCA_ENOMEM) naming the sizes and
 * the options, nothing left on disk; one within it, and any with the cap
 * off (0), is spooled.  A first block with a NUL byte and no known format
 * is refused at once (KPCA_EFORMAT); a .npy's first block is known. */
static void test_limit_and_first_block(void **state)
{
    (void)state;
    assert_int_equal(system("rm -rf " TEST_OUT "/spooldir && mkdir -p " TEST_OUT "/spooldir"), 0);
    assert_int_equal(setenv("TMPDIR", TEST_OUT "/spooldir", 1), 0);
    void (*was)(int) = signal(SIGPIPE, SIG_IGN);
    kpca_spool sp;
    kpca_error err;
    kpca_spool_set_limit(1, 100000);
    assert_int_equal(spool_pipe(NULL, 0, 300000, &sp, &err), KPCA_ENOMEM);
    if (strstr(err.msg, "100000 bytes") == NULL || strstr(err.msg, "--spool-limit") == NULL)
        fail_msg("unclear message: %s", err.msg);
    assert_int_equal(system("test -z \"$(ls -A " TEST_OUT "/spooldir)\""), 0);
    assert_int_equal(spool_pipe(NULL, 0, 100000, &sp, &err), KPCA_OK); /* exactly the cap */
    kpca_spool_close(&sp);
    kpca_spool_set_limit(1, 0); /* no cap */
    assert_int_equal(spool_pipe(NULL, 0, 300000, &sp, &err), KPCA_OK);
    assert_int_equal(sp.bytes, 300000);
    kpca_spool_close(&sp);
    kpca_spool_set_limit(0, 0); /* the default: the disk's free space less 1 GiB */
    assert_int_equal(spool_pipe("\0\0\0\0", 4, 200000, &sp, &err), KPCA_EFORMAT);
    if (strstr(err.msg, "'<stdin>' starts with bytes 00 00 00 00") == NULL)
        fail_msg("unclear message: %s", err.msg);
    assert_int_equal(system("test -z \"$(ls -A " TEST_OUT "/spooldir)\""), 0);
    assert_int_equal(spool_pipe("\x93NUMPY\x01\x00", 8, 1000, &sp, &err), KPCA_OK);
    kpca_spool_close(&sp);
    signal(SIGPIPE, was);
    setenv("TMPDIR", OUT_DIR, 1);
}

/* Standard input redirected from a regular file is not copied: the spool
 * is that file, named "<stdin>"; read from a later offset, it is copied. */
static void test_stdin_file(void **state)
{
    (void)state;
    const char *path = tu_write_file("spool-stdin.txt", "0 1 2\n1 3 4\n");
    kpca_spool sp;
    kpca_error err;
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    stdin_from(fd);
    assert_int_equal(kpca_spool_open("-", &sp, &err), KPCA_OK);
    assert_int_equal(sp.temporary, 0);
    assert_int_equal(sp.bytes, 12);
    size_t len;
    unsigned char *b = tu_slurp(sp.path, &len);
    assert_int_equal(len, 12);
    assert_memory_equal(b, "0 1 2\n1 3 4\n", 12);
    free(b);
    kpca_spool_close(&sp);
    char c[6];
    assert_int_equal(read(0, c, 6), 6); /* the first line already read: the rest is the input */
    assert_int_equal(kpca_spool_open("-", &sp, &err), KPCA_OK);
    assert_int_equal(sp.temporary, 1);
    assert_int_equal(sp.bytes, 6);
    kpca_spool_close(&sp);
    stdin_restore();
}

/* A spool's path in a message becomes the name: not inside a longer
 * number, every time, truncated like snprintf. */
static void test_rename(void **state)
{
    (void)state;
    char out[64];
    size_t n = kpca_source_rename("'/proc/self/fd/5': line 3; /proc/self/fd/57; /proc/self/fd/5:g", "/proc/self/fd/5",
                                  "<stdin>", out, sizeof out);
    assert_string_equal(out, "'<stdin>': line 3; /proc/self/fd/57; <stdin>:g");
    assert_int_equal(n, strlen(out));
    n = kpca_source_rename("a /x/y b", "/x/y", "/a/much/longer/name", out, 8);
    assert_int_equal(n, strlen("a /a/much/longer/name b"));
    assert_string_equal(out, "a /a/mu");
    assert_int_equal(kpca_source_rename("abc", "/x", "y", NULL, 0), 3);
    assert_string_equal(kpca_source_name("-"), "<stdin>");
    assert_string_equal(kpca_source_name("a.csv"), "a.csv");
    assert_true(kpca_source_is_stream("-"));
    assert_true(kpca_source_is_stream("/dev/null"));
    assert_false(kpca_source_is_stream("tests"));
    assert_false(kpca_source_is_stream(TEST_OUT "/no-such-file"));
}

/* The library's reader, handed a FIFO, reads it through a spool: all the
 * rows, and a message that names the FIFO, never the spool. */
static void *csv_writer(void *arg)
{
    FILE *f = fopen(arg, "w");
    if (f != NULL) {
        for (int i = 0; i < 3000; i++)
            fprintf(f, "%d,%d.5,%d\n", i % 3, i, -i);
        fputs(strstr(arg, "bad") != NULL ? "1,2,x\n" : "", f);
        fclose(f);
    }
    return NULL;
}

static void test_dataset_fifo(void **state)
{
    (void)state;
    const char *good = TEST_OUT "/spool-good", *bad = TEST_OUT "/spool-bad";
    for (int k = 0; k < 2; k++) {
        const char *fifo = k == 0 ? good : bad;
        unlink(fifo);
        assert_int_equal(mkfifo(fifo, 0600), 0);
        pthread_t w;
        assert_int_equal(pthread_create(&w, NULL, csv_writer, (void *)fifo), 0);
        kpca_dataset ds;
        kpca_error err;
        kpca_read_opts ro = {.format = KPCA_FMT_AUTO, .label = "first"};
        alarm(20);
        kpca_status st = kpca_dataset_read(fifo, &ro, &ds, &err);
        alarm(0);
        pthread_join(w, NULL);
        unlink(fifo);
        if (k == 0) {
            if (st != KPCA_OK)
                fail_msg("%s", err.msg);
            assert_int_equal(ds.n, 3000);
            assert_int_equal(ds.dim, 2);
            assert_true(ds.x[2 * 2999] == 2999.5);
            kpca_dataset_free(&ds);
        } else {
            assert_int_equal(st, KPCA_EFORMAT);
            if (strstr(err.msg, bad) == NULL || strstr(err.msg, "kpca-spool") != NULL)
                fail_msg("the message does not name the FIFO: %s", err.msg);
        }
    }
    for (size_t j = 0; j < KPCA_ATOMIC_MAX_PENDING; j++)
        assert_null(kpca_atomic_pending(j));
}

/* copies the file src into the FIFO dst, once */
typedef struct {
    const char *src, *dst;
} copy_job;

static void *copier(void *arg)
{
    copy_job *job = arg;
    size_t len;
    unsigned char *b = tu_slurp(job->src, &len);
    FILE *f = fopen(job->dst, "wb");
    if (f != NULL) {
        fwrite(b, 1, len, f);
        fclose(f);
    }
    free(b);
    return NULL;
}

/* A model through a FIFO (a library user's kpca_model_load): read once
 * into a spool that libhdf5 keeps open; the same model as from the file. */
static void test_model_fifo(void **state)
{
    (void)state;
    kpca_dataset ds;
    tu_random_dataset(&ds, 40, 3, 2, 7);
    kpca_fit_params p = kpca_fit_defaults(2);
    p.components = 3;
    kpca_model m, back;
    kpca_error err;
    assert_int_equal(kpca_model_fit(&ds, &p, &m, NULL, &err), KPCA_OK);
    assert_int_equal(kpca_model_save(&m, TEST_OUT "/spool.model", &err), KPCA_OK);
    const char *fifo = TEST_OUT "/spool-model.fifo";
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    copy_job job = {TEST_OUT "/spool.model", fifo};
    pthread_t w;
    assert_int_equal(pthread_create(&w, NULL, copier, &job), 0);
    alarm(20);
    kpca_status st = kpca_model_load(fifo, &back, &err);
    pthread_join(w, NULL);
    alarm(0);
    unlink(fifo);
    if (st != KPCA_OK)
        fail_msg("%s", err.msg);
    assert_int_equal(back.k, m.k);
    assert_int_equal(back.m, m.m);
    assert_memory_equal(back.eigval, m.eigval, m.k * sizeof(double));
    for (size_t j = 0; j < KPCA_ATOMIC_MAX_PENDING; j++)
        assert_null(kpca_atomic_pending(j));
    kpca_model_free(&back);
    kpca_model_free(&m);
    kpca_dataset_free(&ds);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    /* the spools of a test that fails half way stay in tests/out, not /tmp */
    if (system("mkdir -p " OUT_DIR) != 0 || setenv("TMPDIR", OUT_DIR, 1) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stdin_pipe),        cmocka_unit_test(test_fifo_once),
        cmocka_unit_test(test_large),             cmocka_unit_test(test_tmpdir_unwritable),
        cmocka_unit_test(test_tmpdir_full),       cmocka_unit_test(test_stdin_file),
        cmocka_unit_test(test_rename),            cmocka_unit_test(test_dataset_fifo),
        cmocka_unit_test(test_model_fifo),        cmocka_unit_test(test_limit_and_first_block),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

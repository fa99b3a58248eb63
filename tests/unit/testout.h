/* testout.h - TEST_OUT, the folder where a unit test writes its files
 * (tests/out/<build>/<layer>/test_x: the Makefile defines it for each test
 * and force-includes this header with -include), made with its parents
 * before main runs, so that a test runs alike under make unit (which also
 * empties it first), make valgrind, tests/check-kernels.sh or by hand
 * from the repository root.  Tests of one build then run side by side
 * without touching each other's files.  Being first, it fixes the feature
 * macros (the Makefile's -D_XOPEN_SOURCE=700): a test cannot define its
 * own (_GNU_SOURCE) before its includes. */
#ifndef KPCA_TESTOUT_H
#define KPCA_TESTOUT_H

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

#ifndef TEST_OUT
#define TEST_OUT "tests/out"
#endif

__attribute__((constructor)) static void tu_make_test_out(void)
{
    char path[sizeof TEST_OUT];
    snprintf(path, sizeof path, "%s", TEST_OUT);
    for (char *p = path + 1;; p++)
        if (*p == '/' || *p == '\0') {
            const char c = *p;
            *p = '\0';
            if (mkdir(path, 0777) != 0 && errno != EEXIST) {
                perror(path);
                return; /* the test's first write then fails, naming the path */
            }
            if ((*p = c) == '\0')
                return;
        }
}

#endif

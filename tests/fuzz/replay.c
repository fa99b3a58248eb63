/* replay.c - runs a fuzz target over files without libFuzzer:
 * `replay_text FILE...` calls LLVMFuzzerTestOneInput once per file.  Built by
 * any compiler; `make check` runs it over the committed corpus
 * (tests/fuzz/corpus/TARGET/), crash reproducers included. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (f == NULL) {
            perror(argv[i]);
            return 2;
        }
        size_t cap = 1 << 16, n = 0;
        uint8_t *buf = malloc(cap);
        size_t got;
        while (buf != NULL && (got = fread(buf + n, 1, cap - n, f)) > 0) {
            n += got;
            if (n == cap) {
                uint8_t *nb = realloc(buf, cap *= 2);
                if (nb == NULL)
                    free(buf);
                buf = nb;
            }
        }
        fclose(f);
        if (buf == NULL) {
            fprintf(stderr, "%s: out of memory\n", argv[i]);
            return 2;
        }
        LLVMFuzzerTestOneInput(buf, n);
        free(buf);
    }
    printf("%d inputs replayed\n", argc - 1);
    return 0;
}

/* magic.c - what a file's first bytes say it is (magic.h). */
#include "file/magic.h"

#include <string.h>

kpca_codec kpca_codec_of(const unsigned char *h, size_t n)
{
    if (n >= 2 && h[0] == 0x1f && h[1] == 0x8b)
        return KPCA_CODEC_GZIP;
    if (n >= 4 && h[0] == 'B' && h[1] == 'Z' && h[2] == 'h' && h[3] >= '1' && h[3] <= '9')
        return KPCA_CODEC_BZIP2;
    if (n >= 6 && memcmp(h, "\xFD" "7zXZ\0", 6) == 0)
        return KPCA_CODEC_XZ;
    if (n >= 4 && memcmp(h, "\x28\xB5\x2F\xFD", 4) == 0)
        return KPCA_CODEC_ZSTD;
    return KPCA_CODEC_NONE;
}

const char *kpca_codec_name(kpca_codec c)
{
    switch (c) {
    case KPCA_CODEC_GZIP: return "gzip";
    case KPCA_CODEC_BZIP2: return "bzip2";
    case KPCA_CODEC_XZ: return "xz";
    case KPCA_CODEC_ZSTD: return "zstd";
    default: return "";
    }
}

int kpca_magic_known(const unsigned char *h, size_t n)
{
    static const struct {
        const char *bytes;
        size_t len;
    } known[] = {
        {"\x93NUMPY", 6},                      /* .npy */
        {"\x89HDF\r\n\x1a\n", 8},              /* HDF5 */
        {"kpca-seal 1 ", 12},                  /* kpca's seal before its HDF5 files */
        {"PK\x03\x04", 4},                     /* zip: .npz, .xlsx */
        {"MATLAB ", 7},                        /* MATLAB 5.0 and 7.3 MAT-files */
        {"\xFF\xFE", 2},                       /* UTF-16LE (and UTF-32LE) */
        {"\xFE\xFF", 2},                       /* UTF-16BE */
        {"\0\0\xFE\xFF", 4},                   /* UTF-32BE */
    };
    if (n == 0)
        return 0;
    if (kpca_codec_of(h, n) != KPCA_CODEC_NONE)
        return 1;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (n >= known[i].len && memcmp(h, known[i].bytes, known[i].len) == 0)
            return 1;
    return 0;
}

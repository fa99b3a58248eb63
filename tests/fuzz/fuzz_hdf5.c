/* fuzz_hdf5.c - the HDF5 data reader (group "/" and "/train"), as
 * `kpca fit FILE.h5[:GROUP]` reads; no HDF5 object may stay open. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, ".h5");
    fuzz_read(path, KPCA_FMT_HDF5, "/");
    fuzz_check_hdf5_closed();
    fuzz_read(path, KPCA_FMT_HDF5, "/train");
    fuzz_check_hdf5_closed();
    return 0;
}

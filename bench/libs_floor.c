/* libs_floor.c - a process that does nothing, linked as kpca is: the floor
 * of any kpca command's time (bench/read.sh).  build/bench/libs_floor loads
 * every shared library kpca loads; build/bench/libs_floor_nohdf5 all but
 * HDF5 and libmatio (and the libraries they bring), which kpca needs for
 * its models (HDF5 files) and MATLAB data. */
int main(void)
{
    return 0;
}

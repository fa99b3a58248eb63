/* fuzz_model_sealed.c - the model loader behind the seal: each input is
 * sealed again (kpca_h5_seal_image over its first 512 bytes) before it is
 * loaded, so a mutation anywhere after the user block passes the CRC and
 * reaches libhdf5 and the loader's own checks (format, version, shapes,
 * the arrays' checksum, the invariants of a fit), which fuzz_model, whose
 * mutated inputs nearly all die at the seal, never gets to.  The checks on
 * what loads are fuzz_model's. */
#define FUZZ_RESEAL 1
#include "fuzz_model.c"

/* clock.h - a monotonic wall clock for phase timings. */
#ifndef KPCA_CLOCK_H
#define KPCA_CLOCK_H

double kpca_now(void); /* seconds since an arbitrary origin */

#endif

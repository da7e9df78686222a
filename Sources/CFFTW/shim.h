#ifndef NARRATE_CFFTW_SHIM_H
#define NARRATE_CFFTW_SHIM_H
#include <fftw3.h>

/* FFTW_ESTIMATE is a macro of a shifted unsigned constant, which Swift does not import. */
static const unsigned NARRATE_FFTW_ESTIMATE = FFTW_ESTIMATE;

#endif

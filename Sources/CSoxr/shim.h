#ifndef NARRATE_CSOXR_SHIM_H
#define NARRATE_CSOXR_SHIM_H
#include <soxr.h>
#endif

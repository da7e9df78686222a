#ifndef NARRATE_CEBUR128_SHIM_H
#define NARRATE_CEBUR128_SHIM_H
#include <ebur128.h>
#endif

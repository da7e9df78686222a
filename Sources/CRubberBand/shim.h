#ifndef NARRATE_CRUBBERBAND_SHIM_H
#define NARRATE_CRUBBERBAND_SHIM_H
#include <rubberband/rubberband-c.h>
#endif

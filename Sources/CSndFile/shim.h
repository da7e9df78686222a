#ifndef NARRATE_CSNDFILE_SHIM_H
#define NARRATE_CSNDFILE_SHIM_H
#include <sndfile.h>
#endif

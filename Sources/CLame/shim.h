#ifndef NARRATE_CLAME_SHIM_H
#define NARRATE_CLAME_SHIM_H
#include <lame/lame.h>
#endif

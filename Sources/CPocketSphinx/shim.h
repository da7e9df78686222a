#ifndef NARRATE_CPOCKETSPHINX_SHIM_H
#define NARRATE_CPOCKETSPHINX_SHIM_H
// PocketSphinx 5prealpha and the parts of SphinxBase its API hands out (configuration, logging,
// log-domain maths). No helpers are needed: the one call Swift cannot make, the variadic
// `cmd_ln_init`, is replaced on the Swift side by `cmd_ln_parse_r` over an argv array.
#include <stdio.h>
#include <pocketsphinx.h>
#include <sphinxbase/err.h>
#include <sphinxbase/cmd_ln.h>
#include <sphinxbase/logmath.h>
#endif

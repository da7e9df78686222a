#ifndef NARRATE_CALSA_SHIM_H
#define NARRATE_CALSA_SHIM_H

#include <alsa/asoundlib.h>

/// ALSA prints "ALSA lib …" lines to stderr on every failed call through a variadic error
/// handler. Swift cannot implement a variadic C function, so the silent handler lives here;
/// the Swift layer turns every failure into one sentence of its own instead.
static void narrate_alsa_silent_error_handler(const char *file, int line, const char *function,
                                              int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

/// Installs the silent handler. Called once before the first ALSA call.
static inline int narrate_alsa_silence_errors(void) {
    return snd_lib_error_set_handler(narrate_alsa_silent_error_handler);
}

#endif

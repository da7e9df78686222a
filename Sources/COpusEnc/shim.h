#ifndef NARRATE_COPUSENC_SHIM_H
#define NARRATE_COPUSENC_SHIM_H
#include <opusenc.h>

/* ope_encoder_ctl is variadic and its requests are macros that expand to a request code and a
   type-checked argument (OPUS_SET_BITRATE(x)): Swift can call neither, so each request narrate
   makes is one function here. */
static inline int narrate_ope_set_bitrate(OggOpusEnc *encoder, opus_int32 bitsPerSecond) {
    return ope_encoder_ctl(encoder, OPUS_SET_BITRATE(bitsPerSecond));
}

static inline int narrate_ope_set_signal(OggOpusEnc *encoder, opus_int32 signal) {
    return ope_encoder_ctl(encoder, OPUS_SET_SIGNAL(signal));
}
#endif

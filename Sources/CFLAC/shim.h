#ifndef NARRATE_CFLAC_SHIM_H
#define NARRATE_CFLAC_SHIM_H
#include <FLAC/metadata.h>
#include <FLAC/stream_encoder.h>

/* libFLAC's state names are an extern array of unknown length, which Swift does not import:
   index it here. */
static inline const char *narrate_flac_encoder_state(const FLAC__StreamEncoder *encoder) {
    return FLAC__StreamEncoderStateString[FLAC__stream_encoder_get_state(encoder)];
}

static inline const char *narrate_flac_init_status(FLAC__StreamEncoderInitStatus status) {
    return FLAC__StreamEncoderInitStatusString[status];
}
#endif

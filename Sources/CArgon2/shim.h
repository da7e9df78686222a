#ifndef NARRATE_CARGON2_SHIM_H
#define NARRATE_CARGON2_SHIM_H
// Argon2 (libargon2, the reference implementation of RFC 9106) for passphrases: only
// argon2id_hash_encoded, argon2id_verify, argon2_encodedlen and argon2_error_message are used,
// all callable from Swift as they are, so nothing else is needed here.
#include <argon2.h>
#endif

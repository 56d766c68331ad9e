/*
 * spsa_engine.h - checks, before a session plays, that its engine starts and offers every tuned parameter
 * as a spin option whose range holds the parameter's (a normal build of Jiangjun offers none: tune a
 * tuning build, src/search/search_params.h).
 */
#ifndef XQS_SPSA_ENGINE_H
#define XQS_SPSA_ENGINE_H

#include <stddef.h>

#include "spsa_state.h"

enum { SPSA_ENGINE_TIMEOUT_MS = 10000 }; /* the handshake's limit */

/* Starts the engine of set (its cmd=, dir=, proto=), reads its options from the handshake and checks each
 * of s's parameters against them; false with msg when the engine does not start or answer, or a parameter
 * is not one of its spin options or reaches outside its range. */
bool spsa_engine_check(const SpsaSettings *set, const Spsa *s, char *msg, size_t msg_size);

#endif

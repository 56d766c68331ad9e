/*
 * protocol_uci.h - the front-end of the xiangqi UCI dialect (Pikafish's, ranks 0-9).
 */
#ifndef XQ_PROTOCOL_UCI_H
#define XQ_PROTOCOL_UCI_H

#include "proto.h"

/* The UCI front-end (the loop selects it by its handshake word). */
extern const Frontend FRONTEND_UCI;

#endif

/*
 * protocol_ucci.h - the front-end of UCCI.
 */
#ifndef XQ_PROTOCOL_UCCI_H
#define XQ_PROTOCOL_UCCI_H

#include "proto.h"

/* The UCCI front-end (the loop selects it by its handshake word). */
extern const Frontend FRONTEND_UCCI;

#endif

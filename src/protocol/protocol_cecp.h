/*
 * protocol_cecp.h - the front-end of CECP, XBoard's protocol.
 */
#ifndef XQ_PROTOCOL_CECP_H
#define XQ_PROTOCOL_CECP_H

#include "proto.h"

/* The CECP front-end (the loop selects it by its handshake word). */
extern const Frontend FRONTEND_CECP;

#endif

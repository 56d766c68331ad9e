/*
 * protocol_ucci_out.h - UCCI's forms of scores and of the hash probe, below the
 * UCI-family executor (probe -> pophash) and the UCCI front-end.
 */
#ifndef XQ_PROTOCOL_UCCI_OUT_H
#define XQ_PROTOCOL_UCCI_OUT_H

#include <stdbool.h>
#include "proto.h"

/* Prints a pophash line for `probe`. */
void out_pophash(Proto *p, bool found, const TTEntry *entry);
/* Converts an engine score to the UCCI convention (ElephantEye's +-10000 mates). */
int score_to_ucci(int score);

#endif

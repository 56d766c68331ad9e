/* testnet.h - a seeded network for the tests that need one (not trained; in testutil.c). */
#ifndef XQ_TESTNET_H
#define XQ_TESTNET_H

#include <stdint.h>

#include "eval/nnue/nnue.h"

/* A seeded test net, not trained (the accumulators land around the clamp range); free() it. */
Network *test_net(uint64_t seed);

#endif

/* testnet.h - a seeded network for the tests that need one (not trained; in testutil.c). */
#ifndef XQ_TESTNET_H
#define XQ_TESTNET_H

#include <stdint.h>

#include "eval/nnue/nnue.h"

/* A seeded test net of the version 1 shape, not trained (the accumulators land around the clamp range);
 * nnue_net_free() it. */
Network *test_net(uint64_t seed);
/* The same of any shape the engine runs. */
Network *test_net_shaped(uint64_t seed, const NnueShape *shape);

#endif

/*
 * fuzz_protocol.c - fuzz target for the protocol line handler: the input is
 * a script of lines (any bytes) fed in-process to protocol_run_limited, the
 * same loop the engine binary runs on stdin, through a memory stream. All
 * three dialects are reachable (`uci` / `ucci` / `xboard` lines switch).
 * Searches are capped at a few nodes (CECP's thinking, pondering and
 * analysis too), perft at depth 2, the hash at 4 MB and the threads at 4, so
 * every input ends quickly; infinite, ponder and analysis searches are stopped by the end of
 * input, as in the binary. The whole session is freed on return (threads joined), so
 * leaks and races between the reader, protocol and search threads show up.
 */
#define _POSIX_C_SOURCE 200809L

#include "fuzz.h"
#include "protocol/protocol.h"
#include "board/square.h"

enum { FUZZ_MAX_NODES = 1024, FUZZ_MAX_PERFT = 2, FUZZ_MAX_HASH_MB = 4, FUZZ_MAX_THREADS = 4 };

/* One input: a protocol session. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0; /* fmemopen needs at least one byte; an empty session is covered by any other */
    FILE *in = fmemopen((void *)(uintptr_t)data, size, "r");
    FILE *out = fopen("/dev/null", "w");
    FUZZ_CHECK(in && out);
    const ProtocolLimits lim = { .max_nodes = FUZZ_MAX_NODES, .max_perft = FUZZ_MAX_PERFT,
                                 .max_hash_mb = FUZZ_MAX_HASH_MB, .max_threads = FUZZ_MAX_THREADS,
                                 .finite_input = true };
    FUZZ_CHECK(protocol_run_limited(in, out, &lim) == 0);
    fclose(out);
    fclose(in);
    return 0;
}

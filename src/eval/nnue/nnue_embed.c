/* nnue_embed.c - the default net file, built into the executable with the assembler's .incbin (or, where
 * the assembler cannot, as a C array of the bytes CMake generates: XQ_EMBED_NET_INC, the wasm build). */
#include "nnue_embed.h"

#include "base/embed.h"

#if defined(XQ_EMBED_NET_INC)
/* The bytes of the file, then a 0 as the .incbin form has (not counted in the size). */
static _Alignas(64) const uint8_t xq_embedded_net[] = {
#include XQ_EMBED_NET_INC
    0
};

/* First byte of the embedded net file. */
const uint8_t *embedded_net_data(void) { return xq_embedded_net; }
/* Size of the embedded net file. */
size_t embedded_net_size(void) { return sizeof xq_embedded_net - 1; }
#elif defined(XQ_EMBED_NET)
/* The bytes of the file named by XQ_EMBED_NET, between two symbols. */
XQ_EMBED_INCBIN(xq_embedded_net, XQ_EMBED_NET, 64);
extern const uint8_t xq_embedded_net[], xq_embedded_net_end[];

/* First byte of the embedded net file. */
const uint8_t *embedded_net_data(void) { return xq_embedded_net; }
/* Size of the embedded net file. */
size_t embedded_net_size(void) { return (size_t)(xq_embedded_net_end - xq_embedded_net); }
#else
/* No net is embedded in this build. */
const uint8_t *embedded_net_data(void) { return NULL; }
/* No net is embedded in this build: size 0. */
size_t embedded_net_size(void) { return 0; }
#endif

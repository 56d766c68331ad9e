/*
 * nnue_embed.h - the default net built into the executable (CMake's
 * XQ_DEFAULT_NET names the file; nnue_embed.c includes it with .incbin, or
 * as the C array CMake generates with XQ_EMBED_ARRAY).
 */
#ifndef XQ_NNUE_EMBED_H
#define XQ_NNUE_EMBED_H

#include <stddef.h>
#include <stdint.h>

/* First byte of the embedded net file (valid only when embedded_net_size() > 0). */
const uint8_t *embedded_net_data(void);
/* Size in bytes of the embedded net file; 0 when the build embeds none. */
size_t embedded_net_size(void);

#endif

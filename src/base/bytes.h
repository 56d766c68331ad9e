/* bytes.h - little-endian integers in file images (net files, opening books): the one reader and writer. */
#ifndef XQ_BYTES_H
#define XQ_BYTES_H

#include <stdint.h>

/* Reads a little-endian u16. */
static inline uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
/* Reads a little-endian u32. */
static inline uint32_t le32(const uint8_t *p) { return (uint32_t)le16(p) | (uint32_t)le16(p + 2) << 16; }
/* Reads a little-endian u64. */
static inline uint64_t le64(const uint8_t *p) { return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32; }
/* Reads a little-endian unsigned integer of n bytes (1 to 8). */
static inline uint64_t le_get(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}
/* Writes the low n bytes of v little-endian. */
static inline void le_put(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

#endif

/*
 * tb_pack.h - the compressed sections of a table file (tb_file.h): WDL in
 * blocks, and the distances of the won and lost entries in blocks beside them.
 *
 * The entries are cut into blocks of `block` consecutive entries (the last
 * may be shorter). Each section starts with an index of blocks + 1 u64
 * offsets (from the section's start; block b is bytes [off[b], off[b+1])),
 * then the blocks. Little-endian throughout.
 *
 * WDL block: a mode byte, then
 *   0 constant: one symbol byte: every entry of the block holds it;
 *   1 packed:   2 bits per entry, the first entry in the low bits of the
 *               first byte;
 *   2 runs:     runs of one symbol in order, each a LEB128 varint of
 *               (length - 1) << 2 | symbol, the lengths summing to the block's;
 * symbols 0 draw, 1 win, 2 loss (the side to move's). The writer picks the
 * shortest. Broken entries (no legal position) are don't-cares: a probe never
 * asks for one, so the writer gives each whatever symbol shortens the block
 * (a run's, or draw when packed).
 * DTM block: the won and lost entries of the WDL block (as decoded, in order:
 * the k-th one's value is the k-th in the DTM block) hold
 * k = distance >> 1 (the parity follows from win or loss) and the rule flag:
 * u16 base, u8 bits, u8 flag mode (0 no entry has the rule flag, 1 every
 * entry has it, 2 each says), then per entry (k - base) << f | flag in
 * bits + f bits (f = 1 in flag mode 2, else 0), packed from the low bit of
 * the first byte. A block without won or lost entries is empty.
 * A probe reads one WDL block and, for a win or loss, counts the won and
 * lost entries before it in the block and reads one value.
 */
#ifndef XQ_TB_PACK_H
#define XQ_TB_PACK_H

#include <stdatomic.h>
#include <stdint.h>

#include "tb_value.h"

enum { TB_PACK_BLOCK = 1024 }; /* entries per block the writer uses */

/* A table read from a file: its compressed sections (tb_pack.h) in the file's bytes. */
typedef struct TbPacked {
    const uint8_t *wdl, *dtm; /* the sections */
    uint64_t wdl_bytes, dtm_bytes;
    uint64_t entries;
    uint32_t block; /* entries per block */
    uint64_t blocks;
} TbPacked;

/* The two sections of a generated table, built (malloc'd) for a file. */
typedef struct TbPackOut {
    uint8_t *wdl, *dtm;
    uint64_t wdl_bytes, dtm_bytes;
} TbPackOut;

/* Compresses the entries val[0..entries) of a generated table into out, in blocks of `block` entries; false
 * if memory is short. */
bool tb_pack_build(const _Atomic uint16_t *val, uint64_t entries, uint32_t block, TbPackOut *out);
/* Frees what tb_pack_build made. */
void tb_pack_out_free(TbPackOut *out);
/* Checks a file's sections, every block decoded (offsets, modes, lengths, values within range): NULL if
 * they are sound, else why (a phrase). After it, tb_pack_entry reads any entry safely. */
const char *tb_pack_check(const TbPacked *p);
/* Entry idx (tb_table.h's encoding; a broken entry reads as some value). */
unsigned tb_pack_entry(const TbPacked *p, uint64_t idx);

#endif

/*
 * tb_file.h - tablebase files: one per signature, DIR/<name>.jjtb.
 *
 * Layout (little-endian), version 1, a 128-byte header then the entries:
 *   0   magic "JJXQTB\x1a\n" (8 bytes)
 *   8   u32 version (1)            12  u32 rule set (1 = TB_RULES_V1, tb_table.h)
 *   16  u32 encoding (0 = raw: one u16 per entry, as tb_table.h encodes it;
 *       compressed encodings will get their own numbers)
 *   20  u32 header size (128)      24  signature name, NUL-padded (32 bytes)
 *   56  u64 entries                64  u64 payload bytes
 *   72  u64 payload checksum (FNV-1a, 64 bits, over the payload bytes)
 *   80  u64 positions  88 u64 wins  96 u64 draws  104 u64 losses
 *   112 u32 longest win (plies)    116 u32 longest loss (plies)
 *   120 u64 header checksum (FNV-1a over bytes 0..119)
 * A file whose magic, version, rule set, encoding, sizes or checksums do not
 * match is refused with a sentence saying why.
 */
#ifndef XQ_TB_FILE_H
#define XQ_TB_FILE_H

#include "tb_table.h"

enum {
    TB_FILE_VERSION = 1,
    TB_ENCODING_RAW16 = 0,
    TB_HEADER_SIZE = 128,
    TB_PATH_MAX = 1024,
};

#define TB_FILE_EXT ".jjtb"

/* What a file's header says. */
typedef struct TbHeader {
    unsigned version, rules, encoding;
    char name[TB_SIG_TEXT];
    uint64_t entries, payload_bytes, checksum;
    TbStats stats;
} TbHeader;

/* Writes DIR/<name>.jjtb into path; false if it does not fit. */
bool tb_file_path(const char *dir, const char *name, char *path, size_t size);
/* Writes a table (counted: tb_table_count) to path; false with err filled on failure. */
bool tb_file_write(const TbTable *t, const char *path, XqError *err);
/* Reads and checks a table file; NULL with err filled if it is refused. */
TbTable *tb_file_read(const char *path, XqError *err);
/* Reads and checks a file's header only (not the payload's checksum); false with err filled. */
bool tb_file_header(const char *path, TbHeader *h, XqError *err);

#endif

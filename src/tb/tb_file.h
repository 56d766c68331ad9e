/*
 * tb_file.h - tablebase files: one per signature, DIR/<name>.jjtb.
 *
 * Layout (little-endian), version 3: a 256-byte header, then the WDL section,
 * then the DTM section (tb_pack.h: both in blocks, with an index each).
 *   0   magic "JJXQTB\x1a\n" (8 bytes)
 *   8   u32 version (3)            12  u32 rule set (2 = TB_RULES_CHECK, tb_table.h)
 *   16  u32 encoding (1 = the blocks of tb_pack.h)
 *   20  u32 header size (256)      24  signature name, NUL-padded (32 bytes)
 *   56  u64 entries                64  u32 entries per block   68 u32 zero
 *   72  u64 WDL section bytes      80  u64 DTM section bytes
 *   88  u64 payload checksum (FNV-1a, 64 bits, over both sections)
 *   96  u64 positions  104 u64 wins  112 u64 draws  120 u64 losses
 *   128 u64 rule wins  136 u64 rule losses (the wins and losses that rest on the perpetual-check rule)
 *   144 u32 longest win (plies)    148 u32 longest loss (plies)
 *   152..247 zero                  248 u64 header checksum (FNV-1a over bytes 0..247)
 * A file is refused with a sentence saying why when its magic, version, rule
 * set, encoding, sizes or checksums do not match, or a block does not decode
 * (tb_pack_check): a probe then never reads outside the file. Files of
 * version 1 (the first generator: raw 2-byte entries, no perpetual-check
 * rule) and version 2 (the same blocks over the old index: kings on their
 * squares, advisors and elephants each on its points, every piece on 90
 * squares) are refused with a sentence asking to regenerate them.
 * A table read from a file keeps the file's bytes: memory-mapped read-only
 * where the system can (POSIX), else read into memory; probes decode one
 * block. The writer writes DIR/<name>.jjtb.tmp and renames it over the old
 * file, so an engine that has the old file mapped keeps reading it whole.
 */
#ifndef XQ_TB_FILE_H
#define XQ_TB_FILE_H

#include "tb_table.h"

enum {
    TB_FILE_VERSION = 3,
    TB_FILE_VERSION_RAW = 1,       /* the first generator's files (refused) */
    TB_FILE_VERSION_OLD_INDEX = 2, /* compressed files over the index before tb_place.h (refused) */
    TB_ENCODING_BLOCKS = 1,
    TB_HEADER_SIZE = 256,
    TB_PATH_MAX = 1024,
};

#define TB_FILE_EXT ".jjtb"

/* What a file's header says. */
typedef struct TbHeader {
    unsigned version, rules, encoding, block;
    char name[TB_SIG_TEXT];
    uint64_t entries, wdl_bytes, dtm_bytes, checksum;
    TbStats stats;
} TbHeader;

#define TB_STARTER_DIR "tb" /* the starter set's folder beside the executable (and in share/jiangjun) */

/* Where a table folder named dir is: dir itself when it is a directory (or absolute, or not found
 * elsewhere), else, for a relative name, the first directory of that name beside the executable or in the
 * installed data directory (base/datafile.h, as nets and books are found); into out. */
void tb_dir_resolve(const char *dir, char *out, size_t size);
/* The starter set's folder: TB_STARTER_DIR beside the executable (a build tree: build/tb) or in the
 * installed data directory (<prefix>/share/jiangjun/tb), the first that exists; "." if neither does. */
void tb_starter_dir(char *out, size_t size);
/* Writes DIR/<name>.jjtb into path; false if it does not fit. */
bool tb_file_path(const char *dir, const char *name, char *path, size_t size);
/* Writes a generated table (counted: tb_table_count) to path; false with err filled on failure. */
bool tb_file_write(const TbTable *t, const char *path, XqError *err);
/* Reads and checks a table file; NULL with err filled if it is refused. */
TbTable *tb_file_read(const char *path, XqError *err);
/* Reads and checks a file's header only (not the payload's checksum or blocks); false with err filled. */
bool tb_file_header(const char *path, TbHeader *h, XqError *err);

#endif

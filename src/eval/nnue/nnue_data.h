/*
 * nnue_data.h - training records: one position with its search score, the
 * game's result and its ply, in 40 bytes, in files with a 16-byte header.
 *
 * Record layout (little-endian, byte offsets):
 *   0..31  square (plain index rank * 9 + file, 0..89; 255 = absent) of each
 *          piece identity: red's 16 (king, advisors 2, elephants 2, horses 2,
 *          rooks 2, cannons 2, pawns 5) then black's 16, as in types.h
 *   32     side to move (0 red, 1 black)
 *   33     game result from the side to move's view: 1 win, 0 draw, -1 loss
 *   34..35 int16 search score in centipawns, side to move's view
 *   36..37 uint16 ply of the game (0 = the game's first position)
 *   38     flags (NNUE_REC_*): in check, best move a capture, mate score
 *   39     reserved (0)
 * File header: the 8 bytes "XQPOS\0\0\1", uint32 record size (40), uint32 0.
 * The same records also come as whole games in a compact format (tools/common/rec_pack.h),
 * which decodes to these 40 bytes exactly.
 */
#ifndef XQ_NNUE_DATA_H
#define XQ_NNUE_DATA_H

#include <stdio.h>

#include "board/position.h"

enum {
    NNUE_REC_SIZE = 40,
    NNUE_REC_HEADER = 16,
    NNUE_REC_ABSENT = 255,
    NNUE_REC_IN_CHECK = 1,    /* the side to move is in check */
    NNUE_REC_CAPTURE = 2,     /* the searched best move is a capture */
    NNUE_REC_MATE = 4,        /* the score is a mate (or repetition-ban) score */
};

/* One training record, unpacked. */
typedef struct PackedPos {
    uint8_t sq[2 * SIDE_PIECES]; /* plain square per identity (red 0..15, black 16..31), NNUE_REC_ABSENT if captured */
    uint8_t stm;
    int8_t result;               /* side to move's view: 1 win, 0 draw, -1 loss */
    int16_t score;               /* centipawns, side to move's view */
    uint16_t ply;
    uint8_t flags;
} PackedPos;

/* Fills rec's board and side from a position (score, result, ply and flags are left to the caller). */
void packed_from_position(PackedPos *rec, const Position *pos);
/* Builds a position (no history) from a record; false with err filled if the record is not a legal board. */
bool packed_to_position(const PackedPos *rec, Position *pos, XqError *err);
/* Encodes a record into its 40 bytes. */
void packed_encode(const PackedPos *rec, uint8_t out[NNUE_REC_SIZE]);
/* Decodes 40 bytes into a record (no validation beyond the byte layout). */
void packed_decode(const uint8_t in[NNUE_REC_SIZE], PackedPos *rec);
/* Writes the file header; false on a write error. */
bool packed_write_header(FILE *f);
/* Reads and checks the file header; false with err filled if it is not a record file. */
bool packed_read_header(FILE *f, XqError *err);

#endif

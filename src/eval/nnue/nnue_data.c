/* nnue_data.c - packing positions into 40-byte training records and back. */
#include "nnue_data.h"

#include <string.h>

#include "nnue_features.h"

static const uint8_t HEADER_MAGIC[8] = { 'X', 'Q', 'P', 'O', 'S', 0, 0, 1 };
static const char TYPE_LETTER[PIECE_TYPES] = { 'K', 'A', 'B', 'N', 'R', 'C', 'P' };

/* Fills rec's board and side from a position. */
void packed_from_position(PackedPos *rec, const Position *pos)
{
    for (int i = 0; i < 2 * SIDE_PIECES; i++) {
        int sq = pos->piece_sq[RED_TAG + i];
        rec->sq[i] = sq ? (uint8_t)nnue_sq(sq_file(sq), sq_rank(sq)) : NNUE_REC_ABSENT;
    }
    rec->stm = pos->side;
}

/* Builds a position from a record by writing its FEN and parsing it (so every check of the FEN parser applies). */
bool packed_to_position(const PackedPos *rec, Position *pos, XqError *err)
{
    char grid[NNUE_SQUARES];
    memset(grid, 0, sizeof grid);
    for (int i = 0; i < 2 * SIDE_PIECES; i++) {
        int s = rec->sq[i];
        if (s == NNUE_REC_ABSENT)
            continue;
        if (s >= NNUE_SQUARES || grid[s]) {
            snprintf(err->msg, sizeof err->msg, "bad record: square %d of piece %d is %s", s, i,
                     s >= NNUE_SQUARES ? "off the board" : "taken twice");
            return false;
        }
        char c = TYPE_LETTER[ID_TYPE[i % SIDE_PIECES]];
        grid[s] = i < SIDE_PIECES ? c : (char)(c - 'A' + 'a');
    }
    if (rec->stm > BLACK) {
        snprintf(err->msg, sizeof err->msg, "bad record: side to move %d", rec->stm);
        return false;
    }
    char fen[FEN_MAX];
    size_t n = 0;
    for (int rank = RANKS - 1; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < FILES; file++) {
            char c = grid[nnue_sq(file, rank)];
            if (!c) {
                empty++;
                continue;
            }
            if (empty)
                fen[n++] = (char)('0' + empty);
            empty = 0;
            fen[n++] = c;
        }
        if (empty)
            fen[n++] = (char)('0' + empty);
        if (rank)
            fen[n++] = '/';
    }
    snprintf(fen + n, sizeof fen - n, " %c - - 0 1", rec->stm == RED ? 'w' : 'b');
    return pos_from_fen(pos, fen, err);
}

/* Encodes a record into its 40 bytes, little-endian. */
void packed_encode(const PackedPos *rec, uint8_t out[NNUE_REC_SIZE])
{
    memcpy(out, rec->sq, 2 * SIDE_PIECES);
    uint16_t score = (uint16_t)rec->score;
    out[32] = rec->stm;
    out[33] = (uint8_t)rec->result;
    out[34] = (uint8_t)(score & 0xFF);
    out[35] = (uint8_t)(score >> 8);
    out[36] = (uint8_t)(rec->ply & 0xFF);
    out[37] = (uint8_t)(rec->ply >> 8);
    out[38] = rec->flags;
    out[39] = 0;
}

/* Decodes 40 bytes into a record. */
void packed_decode(const uint8_t in[NNUE_REC_SIZE], PackedPos *rec)
{
    memcpy(rec->sq, in, 2 * SIDE_PIECES);
    rec->stm = in[32];
    rec->result = (int8_t)in[33];
    rec->score = (int16_t)(uint16_t)(in[34] | in[35] << 8);
    rec->ply = (uint16_t)(in[36] | in[37] << 8);
    rec->flags = in[38];
}

/* Writes the 16-byte file header. */
bool packed_write_header(FILE *f)
{
    uint8_t h[NNUE_REC_HEADER] = { 0 };
    memcpy(h, HEADER_MAGIC, sizeof HEADER_MAGIC);
    h[8] = NNUE_REC_SIZE;
    return fwrite(h, 1, sizeof h, f) == sizeof h;
}

/* Reads and checks the file header. */
bool packed_read_header(FILE *f, XqError *err)
{
    uint8_t h[NNUE_REC_HEADER];
    if (fread(h, 1, sizeof h, f) != sizeof h) {
        snprintf(err->msg, sizeof err->msg, "not a position file: shorter than its 16-byte header");
        return false;
    }
    if (memcmp(h, HEADER_MAGIC, sizeof HEADER_MAGIC) != 0) {
        snprintf(err->msg, sizeof err->msg, "not a position file: bad magic (want \"XQPOS\" version 1)");
        return false;
    }
    if (h[8] != NNUE_REC_SIZE || h[9] || h[10] || h[11]) {
        snprintf(err->msg, sizeof err->msg, "position file has record size %u, not %d",
                 (unsigned)(h[8] | h[9] << 8 | h[10] << 16 | (unsigned)h[11] << 24), NNUE_REC_SIZE);
        return false;
    }
    return true;
}

/*
 * movegen.h - move generation and attack detection.
 *
 * Generators produce pseudo-legal moves (every rule of movement, but the
 * mover's king may be left attacked or facing the other king); legality is a
 * separate test. LegalCtx makes that test cheap for the common case: it marks
 * the few squares from or to which a move could expose the king (pieces on
 * the king's lines or horse legs, squares that would become a cannon screen),
 * and only those moves, king moves and check evasions pay for a full test.
 * CheckCtx does the same for "does this move give check?": squares on the
 * other king's lines up to its second piece, horse squares with a free leg,
 * and the pieces whose departure could uncover a rook, cannon or horse.
 */
#ifndef XQ_MOVEGEN_H
#define XQ_MOVEGEN_H

#include "attack.h"
#include "position.h"

/* Precomputed legality data for one position (see legal_ctx_init). */
typedef struct LegalCtx {
    uint64_t from_danger[BOARD_SIZE / 64]; /* squares a move from which needs a full test */
    uint64_t to_danger[BOARD_SIZE / 64];   /* squares a move to which needs a full test */
    int king;                              /* square of the mover's king */
    bool check;                            /* the mover is in check: test every move */
} LegalCtx;

/* Precomputed check data for one position (see check_ctx_init): per square, bit 1 << type when a piece of that
 * type may give check landing there, CHECK_FROM when a move from there may uncover a check on the other king. */
enum { CHECK_FROM = 0x80 };
typedef struct CheckCtx {
    uint8_t mark[BOARD_SIZE];
    int king;   /* square of the other side's king */
    bool ready; /* filled: false until the first test */
} CheckCtx;

/* All pseudo-legal moves of the side to move; returns how many. */
int gen_moves(const Position *pos, Move *out);
/* Pseudo-legal captures only (for quiescence); returns how many. */
int gen_captures(const Position *pos, Move *out);
/* Pseudo-legal non-captures only (staged move ordering); returns how many. */
int gen_quiets(const Position *pos, Move *out);
/* All legal moves; returns how many. */
int gen_legal(Position *pos, Move *out);
/* Number of legal moves (perft's last ply). */
int count_legal(Position *pos);

/* Is square sq attacked by pieces of side `by` (kings facing count as attack)? */
bool is_attacked(const Position *pos, int sq, int by);

/* Fills a LegalCtx for the side to move. */
void legal_ctx_init(const Position *pos, LegalCtx *ctx);
/* Is a pseudo-legal move legal, using a LegalCtx of the same position? */
bool legal_with_ctx(Position *pos, const LegalCtx *ctx, Move m);
/* Is a pseudo-legal move legal? (The board is edited and restored.) */
bool move_is_legal(Position *pos, Move m);
/* Does a pseudo-legal move give check? (The board is edited and restored.) */
bool move_gives_check(Position *pos, Move m);
/* An empty CheckCtx for the side to move, filled by the first gives_check_with_ctx (the other side must not be
 * in check: any legal position). */
static inline void check_ctx_init(CheckCtx *ctx) { ctx->ready = false; }
/* move_gives_check with a CheckCtx of the same position: the full test only for the moves it marks. */
bool gives_check_with_ctx(Position *pos, CheckCtx *ctx, Move m);
/* Is m a pseudo-legal move here (e.g. a move from the transposition table)? */
bool move_is_pseudo_legal(const Position *pos, Move m);

#endif

/*
 * tb_sig.h - material signatures of tablebase endings ("KR-K", "KCP-KAAEE",
 * "KR-KH").
 *
 * A signature counts each side's pieces by type: red's pieces, a dash, black's,
 * each side starting with its king. Letters: R rook, H (or N) horse, C cannon,
 * P pawn, A advisor, E (or B) elephant; names are written strongest first
 * (R H C P A E). A table covers any signature with at least one attacking
 * piece (R, H, C, P), at most two attacking pieces a side, and at most two of
 * each type a side: Fang's class (one side attacks) and the endings where both
 * sides attack (KR-KH, KR-KR, KRA-KR, ...). A table is stored once, with the
 * stronger side red (tb_sig_canonical: the side with more rooks, then horses,
 * cannons, pawns, advisors, elephants); the colour-swapped ending ("K-KR",
 * "KH-KR") is the same table read mirrored.
 */
#ifndef XQ_TB_SIG_H
#define XQ_TB_SIG_H

#include <stddef.h>

#include "board/position.h"

enum {
    TB_SIG_TEXT = 32,     /* longest signature name, with its terminator */
    TB_MAX_ATTACKERS = 2, /* attacking pieces (R, H, C, P) a side */
    TB_MAX_OF_TYPE = 2,   /* pieces of one non-king type a side (as in the game) */
};

enum {
    TB_SIG_RADIX = TB_MAX_OF_TYPE + 1, /* values a counted type takes in a key: 0..2 */
    TB_SIG_KEYS = 531441,              /* TB_SIG_RADIX^12: six non-king types a side */
};

/* Pieces per side and type (kings included: always one each). */
typedef struct TbSig {
    unsigned char count[2][PIECE_TYPES];
} TbSig;

/* Parses a signature ("KR-K", case-insensitive); false with err filled if it is not one. */
bool tb_sig_parse(const char *text, TbSig *sig, XqError *err);
/* Writes the signature's name ("KRP-KAE") into out; returns out. */
char *tb_sig_name(const TbSig *sig, char *out, size_t size);
/* The material of a position. */
TbSig tb_sig_of_pos(const Position *pos);
/* The signature with the colours swapped. */
TbSig tb_sig_swap(const TbSig *sig);
/* Number of a side's attacking pieces (rooks, horses, cannons, pawns). */
int tb_sig_attackers(const TbSig *sig, int side);
/* Do two signatures count the same pieces? */
bool tb_sig_equal(const TbSig *a, const TbSig *b);
/* Why no table covers sig (a sentence), or NULL if one does (either colour stronger). */
const char *tb_sig_unsupported(const TbSig *sig);
/* A dense key in [0, TB_SIG_KEYS) of a signature with one king a side and at most two of each other
 * type a side, distinct for distinct signatures; -1 for any other. */
int tb_sig_key(const TbSig *sig);
/* The signature as its table stores it: sig itself when red is the stronger side (or the sides are
 * equal), else its colour swap. */
TbSig tb_sig_canonical(const TbSig *sig);
/* Is sig the form its table is stored in (tb_sig_canonical(sig) == sig)? */
bool tb_sig_is_canonical(const TbSig *sig);

#endif

/*
 * tb_sig.h - material signatures of tablebase endings ("KR-K", "KCP-KAAEE").
 *
 * A signature counts each side's pieces by type: red's pieces, a dash, black's,
 * each side starting with its king. Letters: R rook, H (or N) horse, C cannon,
 * P pawn, A advisor, E (or B) elephant; names are written strongest first
 * (R H C P A E). The tables of version 1 cover Fang's class: one side has one
 * or two attacking pieces (R, H, C, P) and at most two advisors and two
 * elephants; the other side has no attacking piece and at most two advisors
 * and two elephants. A table is stored once, with red attacking: the
 * colour-swapped ending ("K-KR") is the same table read mirrored.
 */
#ifndef XQ_TB_SIG_H
#define XQ_TB_SIG_H

#include <stddef.h>

#include "board/position.h"

enum {
    TB_SIG_TEXT = 32,     /* longest signature name, with its terminator */
    TB_MAX_ATTACKERS = 2, /* attacking pieces (R, H, C, P) of the strong side in version 1 */
    TB_MAX_DEFENDERS = 2, /* advisors, and elephants, per side */
};

enum {
    TB_SIG_RADIX = TB_MAX_DEFENDERS + 1, /* values a counted type takes in a version-1 key: 0..2 */
    TB_SIG_KEYS = 6561,                  /* TB_SIG_RADIX^8: red's six non-king types, black's A and E */
    TB_SIG_V1 = 14 * 81,                 /* red-attacking version-1 signatures: 14 attacker sets x 81 defences */
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
/* Why no version-1 table covers sig (a sentence), or NULL if one does (red or black attacking). */
const char *tb_sig_unsupported(const TbSig *sig);
/* A dense key in [0, TB_SIG_KEYS) of a red-attacking signature (one king each, every red non-king count
 * and black's advisors and elephants 0..2, black without attackers), distinct for distinct signatures;
 * -1 for any other. */
int tb_sig_key(const TbSig *sig);
/* Writes every red-attacking version-1 signature (one or two of R, H, C, P; 0..2 advisors and 0..2
 * elephants a side) into out[0..TB_SIG_V1), single attackers first. */
void tb_sig_list_v1(TbSig out[TB_SIG_V1]);
/* The covered signature with red attacking: sig itself, or its colour swap when black attacks. */
TbSig tb_sig_canonical(const TbSig *sig);

#endif

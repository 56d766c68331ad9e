/* tb_sig.c - material signatures: parsing, names, classification. */
#include "tb_sig.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Name order of the non-king types, strongest first. */
static const unsigned char NAME_ORDER[] = { ROOK, HORSE, CANNON, PAWN, ADVISOR, ELEPHANT };
static const char TYPE_LETTER[PIECE_TYPES] = { 'K', 'A', 'E', 'H', 'R', 'C', 'P' };

/* Type of a signature letter (either spelling), or -1. */
static int letter_type(int c)
{
    switch (toupper(c)) {
    case 'K': return KING;
    case 'A': return ADVISOR;
    case 'E': case 'B': return ELEPHANT;
    case 'H': case 'N': return HORSE;
    case 'R': return ROOK;
    case 'C': return CANNON;
    case 'P': return PAWN;
    default: return -1;
    }
}

/* Fills err with "bad signature 'text': why" and returns false. */
static bool sig_fail(XqError *err, const char *text, const char *why)
{
    snprintf(err->msg, sizeof err->msg, "bad signature '%.40s': %s", text, why);
    return false;
}

/* Parses a signature ("KR-K", case-insensitive); false with err filled if it is not one. */
bool tb_sig_parse(const char *text, TbSig *sig, XqError *err)
{
    TbSig s;
    memset(&s, 0, sizeof s);
    int side = RED;
    const char *p = text;
    if (!*p)
        return sig_fail(err, text, "empty");
    for (; *p; p++) {
        if (*p == '-') {
            if (side == BLACK)
                return sig_fail(err, text, "more than one '-'");
            side = BLACK;
            continue;
        }
        int type = letter_type((unsigned char)*p);
        if (type < 0)
            return sig_fail(err, text, "letters are K A E H R C P, the sides split by '-'");
        if (++s.count[side][type] > TYPE_COUNT[type])
            return sig_fail(err, text, "too many pieces of one type");
    }
    if (side != BLACK)
        return sig_fail(err, text, "no '-' between red's and black's pieces");
    if (s.count[RED][KING] != 1 || s.count[BLACK][KING] != 1)
        return sig_fail(err, text, "each side needs exactly one king (K)");
    *sig = s;
    return true;
}

/* Writes one side's letters (king first) at out[n..]; returns the new length. */
static size_t side_name(const TbSig *sig, int side, char *out, size_t n, size_t size)
{
    if (n + 1 < size)
        out[n++] = 'K';
    for (size_t i = 0; i < sizeof NAME_ORDER; i++)
        for (int k = 0; k < sig->count[side][NAME_ORDER[i]]; k++)
            if (n + 1 < size)
                out[n++] = TYPE_LETTER[NAME_ORDER[i]];
    return n;
}

/* Writes the signature's name ("KRP-KAE") into out; returns out. */
char *tb_sig_name(const TbSig *sig, char *out, size_t size)
{
    size_t n = side_name(sig, RED, out, 0, size);
    if (n + 1 < size)
        out[n++] = '-';
    n = side_name(sig, BLACK, out, n, size);
    out[n] = '\0';
    return out;
}

/* The material of a position. */
TbSig tb_sig_of_pos(const Position *pos)
{
    TbSig s;
    memset(&s, 0, sizeof s);
    for (int id = RED_TAG; id < RED_TAG + 2 * SIDE_PIECES; id++)
        if (pos->piece_sq[id])
            s.count[piece_side(id)][piece_type(id)]++;
    return s;
}

/* The signature with the colours swapped. */
TbSig tb_sig_swap(const TbSig *sig)
{
    TbSig s;
    memcpy(s.count[RED], sig->count[BLACK], sizeof s.count[RED]);
    memcpy(s.count[BLACK], sig->count[RED], sizeof s.count[BLACK]);
    return s;
}

/* Number of a side's attacking pieces (rooks, horses, cannons, pawns). */
int tb_sig_attackers(const TbSig *sig, int side)
{
    return sig->count[side][ROOK] + sig->count[side][HORSE] + sig->count[side][CANNON] + sig->count[side][PAWN];
}

/* Do two signatures count the same pieces? */
bool tb_sig_equal(const TbSig *a, const TbSig *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

/* Why no table covers sig (a sentence), or NULL if one does (either colour stronger). */
const char *tb_sig_unsupported(const TbSig *sig)
{
    int red = tb_sig_attackers(sig, RED), black = tb_sig_attackers(sig, BLACK);
    if (!red && !black)
        return "neither side has a rook, horse, cannon or pawn (a draw by rule, no table needed)";
    if (red > TB_MAX_ATTACKERS || black > TB_MAX_ATTACKERS)
        return "more than two attacking pieces on one side";
    return NULL;
}

/* Does red's material come before black's in the canonical order (more rooks, then horses, cannons, pawns,
 * advisors, elephants)? 0 when the sides are equal, > 0 when red is stronger, < 0 when black is. */
static int compare_sides(const TbSig *sig)
{
    for (size_t i = 0; i < sizeof NAME_ORDER; i++) {
        int d = sig->count[RED][NAME_ORDER[i]] - sig->count[BLACK][NAME_ORDER[i]];
        if (d)
            return d;
    }
    return 0;
}

/* The signature as its table stores it: red the stronger side. */
TbSig tb_sig_canonical(const TbSig *sig) { return compare_sides(sig) >= 0 ? *sig : tb_sig_swap(sig); }

/* Is sig the form its table is stored in? */
bool tb_sig_is_canonical(const TbSig *sig) { return compare_sides(sig) >= 0; }

/* The dense key of a signature (one king a side, at most two of each other type a side), or -1. */
int tb_sig_key(const TbSig *sig)
{
    if (sig->count[RED][KING] != 1 || sig->count[BLACK][KING] != 1)
        return -1;
    int key = 0;
    for (int side = RED; side <= BLACK; side++)
        for (int t = KING + 1; t < PIECE_TYPES; t++) {
            if (sig->count[side][t] >= TB_SIG_RADIX)
                return -1;
            key = key * TB_SIG_RADIX + sig->count[side][t];
        }
    return key;
}

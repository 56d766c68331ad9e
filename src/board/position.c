/* position.c - FEN parsing with full validation, FEN output, key recomputation, the check test. */
#include "position.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "attack.h"
#include "zobrist.h"

const char START_FEN[] = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

enum { RULE60_MAX_FEN = 999, FULLMOVE_MAX_FEN = 9999 };

static const char TYPE_LETTER[PIECE_TYPES] = { 'K', 'A', 'B', 'N', 'R', 'C', 'P' };
static const char *const TYPE_NAME[PIECE_TYPES] = { "king", "advisor", "elephant", "horse", "rook", "cannon", "pawn" };
static const char *const SIDE_NAME[2] = { "red", "black" };

/* Piece type of a FEN letter (either case; B/E elephant, N/H horse), or -1. */
static int type_of_letter(int c)
{
    switch (toupper(c)) {
    case 'K': return KING;
    case 'A': return ADVISOR;
    case 'B': case 'E': return ELEPHANT;
    case 'N': case 'H': return HORSE;
    case 'R': return ROOK;
    case 'C': return CANNON;
    case 'P': return PAWN;
    default: return -1;
    }
}

/* Formats an error message into err (if given) and returns false. */
static bool fail(XqError *err, const char *msg, const char *detail)
{
    if (err)
        snprintf(err->msg, sizeof err->msg, "%s%s", msg, detail ? detail : "");
    return false;
}

/* Recomputes the key of the board and side to move. */
uint64_t pos_compute_key(const Position *pos)
{
    uint64_t key = pos->side == BLACK ? ZOB->side : 0;
    for (int id = RED_TAG; id < RED_TAG + 2 * SIDE_PIECES; id++) {
        int sq = pos->piece_sq[id];
        if (sq)
            key ^= ZOB->piece[piece_side(id)][piece_type(id)][sq];
    }
    return key;
}

/* Can a piece of this type and side legally stand on sq? Returns an error text or NULL. */
static const char *placement_error(int type, int side, int sq)
{
    switch (type) {
    case KING: return GEO->palace[sq] && GEO->half[sq] == side ? NULL : "outside its palace";
    case ADVISOR: /* the palace, not only its five diagonal points: composed studies use the others */
        return GEO->palace[sq] && GEO->half[sq] == side ? NULL : "outside its palace";
    case ELEPHANT: return GEO->elephant_pt[sq] && GEO->half[sq] == side ? NULL : "off its seven points";
    case PAWN: return GEO->pawn_ok[side][sq] ? NULL : "on a square no pawn can reach";
    default: return NULL;
    }
}

typedef struct FenPiece {
    uint8_t type, side, sq;
} FenPiece;

enum { FEN_PIECES_MAX = 2 * SIDE_PIECES };

/* Formats "bad FEN: <detail>" into err and returns NULL (for parse_board). */
static const char *board_fail(XqError *err, const char *detail)
{
    fail(err, "bad FEN: ", detail);
    return NULL;
}

/* Parses the board field into tmp; returns a pointer past it or NULL on error.
 * The layout (ranks, widths, letters) is checked first, then counts and placement. */
static const char *parse_board(Position *tmp, const char *s, XqError *err)
{
    FenPiece pieces[FEN_PIECES_MAX + 1];
    int n = 0, count[2][PIECE_TYPES] = { { 0 } };
    char detail[96], name[3];
    int rank = RANKS - 1, file = 0;
    for (; *s && !isspace((unsigned char)*s); s++) {
        int c = (unsigned char)*s;
        if (c == '/') {
            if (file != FILES) {
                snprintf(detail, sizeof detail, "rank %d has %d files, not 9", rank, file);
                return board_fail(err, detail);
            }
            if (--rank < 0)
                return board_fail(err, "more than 10 ranks");
            file = 0;
        } else if (c >= '1' && c <= '9') {
            file += c - '0';
            if (file > FILES) {
                snprintf(detail, sizeof detail, "rank %d is wider than 9 files", rank);
                return board_fail(err, detail);
            }
        } else {
            int type = type_of_letter(c);
            if (type < 0) {
                snprintf(detail, sizeof detail, "unknown piece letter '%c'", isprint(c) ? c : '?');
                return board_fail(err, detail);
            }
            if (file >= FILES) {
                snprintf(detail, sizeof detail, "rank %d is wider than 9 files", rank);
                return board_fail(err, detail);
            }
            if (n > FEN_PIECES_MAX)
                return board_fail(err, "more than 32 pieces");
            pieces[n++] = (FenPiece){ (uint8_t)type, isupper(c) ? RED : BLACK, (uint8_t)sq_make(file, rank) };
            file++;
        }
    }
    if (rank != 0 || file != FILES) {
        if (rank != 0)
            snprintf(detail, sizeof detail, "%d ranks, not 10", RANKS - rank);
        else
            snprintf(detail, sizeof detail, "rank 0 has %d files, not 9", file);
        return board_fail(err, detail);
    }
    for (int i = 0; i < n; i++) {
        const FenPiece *p = &pieces[i];
        const char *why = placement_error(p->type, p->side, p->sq);
        if (count[p->side][p->type] >= TYPE_COUNT[p->type]) {
            snprintf(detail, sizeof detail, "too many %s %ss", SIDE_NAME[p->side], TYPE_NAME[p->type]);
            return board_fail(err, detail);
        }
        if (why) {
            snprintf(detail, sizeof detail, "%s %s on %s is %s", SIDE_NAME[p->side], TYPE_NAME[p->type],
                     sq_name(p->sq, name), why);
            return board_fail(err, detail);
        }
        int id = side_tag(p->side) + TYPE_FIRST[p->type] + count[p->side][p->type]++;
        tmp->board[p->sq] = (uint8_t)id;
        tmp->piece_sq[id] = p->sq;
    }
    for (int side = RED; side <= BLACK; side++)
        if (count[side][KING] != 1) {
            snprintf(detail, sizeof detail, "the %s king is missing", SIDE_NAME[side]);
            return board_fail(err, detail);
        }
    return s;
}

/* Reads a whole decimal token into *value; false if the token is not all digits or too big. */
static bool token_number(const char *s, size_t len, long max, long *value)
{
    long v = 0;
    if (len == 0)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)s[i]))
            return false;
        v = v * 10 + (s[i] - '0');
        if (v > max)
            return false;
    }
    *value = v;
    return true;
}

/* Parses the fields after the board: side, junk such as "- -" or "--", clocks. */
static bool parse_tail(Position *tmp, const char *s, XqError *err)
{
    int numbers = 0;
    bool side_seen = false;
    while (*s) {
        while (isspace((unsigned char)*s))
            s++;
        const char *tok = s;
        while (*s && !isspace((unsigned char)*s))
            s++;
        size_t len = (size_t)(s - tok);
        if (len == 0)
            break;
        if (len == 5 && strncmp(tok, "moves", 5) == 0)
            break;
        if (!side_seen) {
            side_seen = true;
            int c = tolower((unsigned char)tok[0]);
            if (len != 1 || (c != 'w' && c != 'r' && c != 'b'))
                return fail(err, "bad FEN: side to move must be w, r or b", NULL);
            tmp->side = c == 'b' ? BLACK : RED;
            continue;
        }
        long v;
        if (isdigit((unsigned char)tok[0])) {
            long max = numbers == 0 ? RULE60_MAX_FEN : FULLMOVE_MAX_FEN;
            if (numbers >= 2 || !token_number(tok, len, max, &v))
                return fail(err, "bad FEN: bad move counter", NULL);
            if (numbers++ == 0)
                tmp->rule60 = (uint16_t)v;
            else
                tmp->fullmove = (uint16_t)(v > 0 ? v : 1);
        }
        /* other tokens ("-", "--", castling/en-passant placeholders) are ignored */
    }
    return true;
}

/* Sets up a position from FEN text; *pos is untouched on failure. */
bool pos_from_fen(Position *pos, const char *fen, XqError *err)
{
    static Position blank; /* read-only template: zero everywhere */
    Position tmp;
    tables_init(); /* programs call it at start-up; this keeps a forgotten call harmless */
    if (!fen)
        return fail(err, "bad FEN: empty", NULL);
    memcpy(&tmp, &blank, offsetof(Position, hist));
    for (int sq = 0; sq < BOARD_SIZE; sq++)
        tmp.board[sq] = GEO->on_board[sq] ? EMPTY : OFF_BOARD;
    tmp.fullmove = 1;
    while (isspace((unsigned char)*fen))
        fen++;
    if (!*fen)
        return fail(err, "bad FEN: empty", NULL);
    const char *rest = parse_board(&tmp, fen, err);
    if (!rest || !parse_tail(&tmp, rest, err))
        return false;
    if (side_in_check(&tmp, tmp.side ^ 1))
        return fail(err, "bad FEN: the side not to move is in check (or the kings face each other)", NULL);
    tmp.in_check = side_in_check(&tmp, tmp.side);
    tmp.key = pos_compute_key(&tmp);
    memcpy(pos, &tmp, offsetof(Position, hist));
    return true;
}

/* Writes the FEN of a position. */
char *pos_to_fen(const Position *pos, char *out, size_t size)
{
    char buf[FEN_MAX];
    size_t n = 0;
    for (int rank = RANKS - 1; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < FILES; file++) {
            int id = pos->board[sq_make(file, rank)];
            if (id == EMPTY) {
                empty++;
                continue;
            }
            if (empty)
                buf[n++] = (char)('0' + empty);
            empty = 0;
            char c = TYPE_LETTER[piece_type(id)];
            buf[n++] = piece_side(id) == RED ? c : (char)tolower(c);
        }
        if (empty)
            buf[n++] = (char)('0' + empty);
        if (rank)
            buf[n++] = '/';
    }
    snprintf(buf + n, sizeof buf - n, " %c - - %u %u", pos->side == RED ? 'w' : 'b', (unsigned)pos->rule60,
             (unsigned)pos->fullmove);
    snprintf(out, size, "%s", buf);
    return out;
}

/* Checks board/piece-list agreement, placement and the key (debug builds and tests). */
bool pos_is_ok(const Position *pos)
{
    for (int sq = 0; sq < BOARD_SIZE; sq++) {
        int id = pos->board[sq];
        if (!GEO->on_board[sq]) {
            if (id != OFF_BOARD)
                return false;
        } else if (id != EMPTY && (id < RED_TAG || id >= RED_TAG + 2 * SIDE_PIECES || pos->piece_sq[id] != sq)) {
            return false;
        }
    }
    for (int id = RED_TAG; id < RED_TAG + 2 * SIDE_PIECES; id++) {
        int sq = pos->piece_sq[id];
        if (sq && (pos->board[sq] != id || placement_error(piece_type(id), piece_side(id), sq)))
            return false;
    }
    if (!pos->piece_sq[RED_TAG] || !pos->piece_sq[BLACK_TAG])
        return false;
    return pos->key == pos_compute_key(pos) && pos->in_check == side_in_check(pos, pos->side);
}

/* Is `side`'s king attacked? */
bool side_in_check(const Position *pos, int side)
{
    return board_attacked(pos->board, pos_king_sq(pos, side), side ^ 1);
}

/* square.c - geometry tables, piece identity layout and square names. */
#include "square.h"

#include <ctype.h>
#include <pthread.h>

#include "zobrist.h"

static Geometry geometry;
const Geometry *const GEO = &geometry;

const uint8_t ID_TYPE[SIDE_PIECES] = {
    KING, ADVISOR, ADVISOR, ELEPHANT, ELEPHANT, HORSE, HORSE, ROOK, ROOK,
    CANNON, CANNON, PAWN, PAWN, PAWN, PAWN, PAWN,
};
const uint8_t TYPE_FIRST[PIECE_TYPES] = { 0, 1, 3, 5, 7, 9, 11 };
const uint8_t TYPE_COUNT[PIECE_TYPES] = { 1, 2, 2, 2, 2, 2, 5 };

/* Is (file, rank) one of a side's elephant points? */
static bool is_elephant_point(int file, int rank)
{
    int r = rank >= 5 ? 9 - rank : rank; /* fold black onto red */
    return (r == 0 && (file == 2 || file == 6)) || (r == 2 && (file == 0 || file == 4 || file == 8))
        || (r == 4 && (file == 2 || file == 6));
}

/* Is (file, rank) one of a side's advisor points? */
static bool is_advisor_point(int file, int rank)
{
    int r = rank >= 5 ? 9 - rank : rank;
    return ((r == 0 || r == 2) && (file == 3 || file == 5)) || (r == 1 && file == 4);
}

/* Can a pawn of `side` ever stand on (file, rank)? */
static bool pawn_can_stand(int side, int file, int rank)
{
    int r = side == RED ? rank : 9 - rank; /* ranks counted from the pawn's own side */
    if (r <= 2)
        return false;
    if (r <= 4)
        return file % 2 == 0;
    return true;
}

/* Fills the geometry and Zobrist tables (run once, through tables_init). */
static void fill_tables(void)
{
    for (int file = 0; file < FILES; file++) {
        for (int rank = 0; rank < RANKS; rank++) {
            int sq = sq_make(file, rank);
            geometry.on_board[sq] = 1;
            geometry.palace[sq] = file >= 3 && file <= 5 && (rank <= 2 || rank >= 7);
            geometry.half[sq] = rank <= 4 ? RED : BLACK;
            geometry.advisor_pt[sq] = is_advisor_point(file, rank);
            geometry.elephant_pt[sq] = is_elephant_point(file, rank);
            geometry.pawn_ok[RED][sq] = pawn_can_stand(RED, file, rank);
            geometry.pawn_ok[BLACK][sq] = pawn_can_stand(BLACK, file, rank);
        }
    }
    zobrist_init();
}

/* Fills the tables on the first call; later and concurrent calls wait for that one and return. */
void tables_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, fill_tables);
}

/* Writes the ICCS name of a square. */
char *sq_name(int sq, char out[3])
{
    out[0] = (char)('a' + sq_file(sq));
    out[1] = (char)('0' + sq_rank(sq));
    out[2] = '\0';
    return out;
}

/* Parses "e0"-style square text (two characters, case-insensitive file). */
int sq_parse(const char *s)
{
    int f = tolower((unsigned char)s[0]) - 'a';
    int r = s[1] - '0';
    if (f < 0 || f >= FILES || r < 0 || r >= RANKS)
        return -1;
    return sq_make(f, r);
}

/* movepick.c - staged move ordering by selection over scored moves. */
#include "movepick.h"

#include "eval/eval.h"
#include "board/movegen.h"
#include "see.h"

#include <limits.h>

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
#define XQ_PICK_AVX2 1
#include <immintrin.h>
#endif

enum { MVV_SCALE = 16, CAPTURE_HISTORY_DIVISOR = 4 };
enum { SELECT_LANES = 8, SELECT_SIMD_MIN = 8 }; /* 32-bit scores per AVX2 vector; fewer left: the scalar loop */

/* Picker stages, in the order they run. */
enum {
    STAGE_TT,
    STAGE_CAPTURES_INIT,
    STAGE_GOOD_CAPTURES,
    STAGE_KILLER_1,
    STAGE_KILLER_2,
    STAGE_COUNTER,
    STAGE_QUIETS_INIT,
    STAGE_QUIETS,
    STAGE_BAD_CAPTURES,
    STAGE_QS_CAPTURES,
    STAGE_DONE,
};

/* MVV/LVA score of a capture: the victim's value first, the attacker's as a tie-break. */
static int mvv_lva(const Position *pos, Move m)
{
    return eval_piece_value(pos->board[move_to(m)]) * MVV_SCALE - eval_piece_value(pos->board[move_from(m)]) / 16;
}

/* Can capture m lose material (the attacker is worth more than its victim)? Else SEE is not needed. */
bool capture_needs_see(const Position *pos, Move m)
{
    return eval_piece_value(pos->board[move_from(m)]) > eval_piece_value(pos->board[move_to(m)]);
}

/* Does this CPU run the vector (AVX2) selection? */
bool picker_simd_available(void)
{
#ifdef XQ_PICK_AVX2
    return __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

/* Writes the INT_MIN padding after a score list of count entries. */
static void pad_scores(int *scores, int count)
{
    for (int i = 0; i < PICKER_PAD; i++)
        scores[count + i] = INT_MIN;
}

/* Prepares a staged picker for a full-width node; nothing is generated yet. */
void picker_init(MovePicker *mp, const Position *pos, const OrderTables *ot, Move tt_move, const Move killers[2],
                 Move counter, ContHist *const cont[PICKER_CONTS])
{
    mp->pos = pos;
    mp->ot = ot;
    for (int i = 0; i < PICKER_CONTS; i++)
        mp->cont[i] = cont[i];
    mp->tt_move = tt_move;
    mp->killers[0] = killers[0];
    mp->killers[1] = killers[1];
    mp->counter = counter;
    mp->stage = STAGE_TT;
    mp->simd = picker_simd_available();
    mp->count = mp->next = mp->bad_count = mp->bad_next = 0;
}

/* Prepares a picker over captures only (quiescence), MVV/LVA ordered. */
void picker_init_captures(MovePicker *mp, const Position *pos)
{
    mp->pos = pos;
    mp->tt_move = MOVE_NONE;
    mp->stage = STAGE_QS_CAPTURES;
    mp->simd = picker_simd_available();
    mp->count = gen_captures(pos, mp->moves);
    mp->next = mp->bad_count = mp->bad_next = 0;
    for (int i = 0; i < mp->count; i++)
        mp->scores[i] = mvv_lva(pos, mp->moves[i]);
    pad_scores(mp->scores, mp->count);
}

/* Index of the first best score in scores[next..count). */
static int best_index_scalar(const int *scores, int next, int count)
{
    int best = next, best_score = scores[next];
    for (int i = next + 1; i < count; i++) { /* branch-free: the comparisons are unpredictable */
        const int s = scores[i], better = s > best_score;
        best = better ? i : best;
        best_score = better ? s : best_score;
    }
    return best;
}

#ifdef XQ_PICK_AVX2
/* best_index_scalar by vectors: the maximum, then the first index holding it (the list is padded with INT_MIN,
 * which no score equals). */
__attribute__((target("avx2"))) static int best_index_avx2(const int *scores, int next, int count)
{
    __m256i top = _mm256_loadu_si256((const __m256i *)(scores + next));
    for (int i = next + SELECT_LANES; i < count; i += SELECT_LANES)
        top = _mm256_max_epi32(top, _mm256_loadu_si256((const __m256i *)(scores + i)));
    top = _mm256_max_epi32(top, _mm256_permute2x128_si256(top, top, 1));
    top = _mm256_max_epi32(top, _mm256_shuffle_epi32(top, _MM_SHUFFLE(1, 0, 3, 2)));
    top = _mm256_max_epi32(top, _mm256_shuffle_epi32(top, _MM_SHUFFLE(2, 3, 0, 1)));
    for (int i = next;; i += SELECT_LANES) {
        __m256i eq = _mm256_cmpeq_epi32(_mm256_loadu_si256((const __m256i *)(scores + i)), top);
        int mask = _mm256_movemask_ps(_mm256_castsi256_ps(eq));
        if (mask)
            return i + __builtin_ctz((unsigned)mask);
    }
}
#endif

/* Moves the best-scored of moves[next..count) (the first of equals) to next and returns next. */
static int select_best(Move *moves, int *scores, int next, int count, bool simd)
{
#ifdef XQ_PICK_AVX2
    const int best = simd && count - next >= SELECT_SIMD_MIN ? best_index_avx2(scores, next, count)
                                                             : best_index_scalar(scores, next, count);
#else
    (void)simd;
    const int best = best_index_scalar(scores, next, count);
#endif
    Move m = moves[best];
    int s = scores[best];
    moves[best] = moves[next];
    scores[best] = scores[next];
    moves[next] = m;
    scores[next] = s;
    return next;
}

/* Is m a quiet pseudo-legal move not already tried as the TT move? (For killers and the countermove.) */
static bool refutation_ok(const MovePicker *mp, Move m)
{
    return m != MOVE_NONE && m != mp->tt_move && mp->pos->board[move_to(m)] == EMPTY
        && move_is_pseudo_legal(mp->pos, m);
}

/* Was m already returned by the killer or countermove stages? */
static bool is_refutation(const MovePicker *mp, Move m)
{
    return m == mp->killers[0] || m == mp->killers[1] || m == mp->counter;
}

/* Next move in order, or MOVE_NONE; *score gets its ordering score. */
Move picker_next(MovePicker *mp, int *score)
{
    const Position *pos = mp->pos;
    int dummy;
    if (!score)
        score = &dummy;
    for (;;) {
        switch (mp->stage) {
        case STAGE_TT:
            mp->stage++;
            if (mp->tt_move != MOVE_NONE) {
                *score = ORDER_TT;
                return mp->tt_move;
            }
            break;
        case STAGE_CAPTURES_INIT:
            mp->count = gen_captures(pos, mp->moves);
            mp->next = 0;
            for (int i = 0; i < mp->count; i++)
                mp->scores[i] = mvv_lva(pos, mp->moves[i])
                              + capture_history(mp->ot, pos->board, mp->moves[i]) / CAPTURE_HISTORY_DIVISOR;
            pad_scores(mp->scores, mp->count);
            mp->stage++;
            break;
        case STAGE_GOOD_CAPTURES:
            while (mp->next < mp->count) {
                int i = select_best(mp->moves, mp->scores, mp->next++, mp->count, mp->simd);
                Move m = mp->moves[i];
                if (m == mp->tt_move)
                    continue;
                if (capture_needs_see(pos, m) && !see_ge(pos, m, 0)) {
                    mp->bad[mp->bad_count] = m;
                    mp->bad_scores[mp->bad_count++] = ORDER_BAD_CAPTURE + mp->scores[i];
                    continue;
                }
                *score = ORDER_GOOD_CAPTURE + mp->scores[i];
                return m;
            }
            pad_scores(mp->bad_scores, mp->bad_count); /* the losing captures are all known now */
            mp->stage++;
            break;
        case STAGE_KILLER_1:
        case STAGE_KILLER_2: {
            Move k = mp->killers[mp->stage - STAGE_KILLER_1];
            int s = mp->stage == STAGE_KILLER_1 ? ORDER_KILLER + 1 : ORDER_KILLER;
            mp->stage++;
            if (refutation_ok(mp, k)) {
                *score = s;
                return k;
            }
            break;
        }
        case STAGE_COUNTER:
            mp->stage++;
            if (mp->counter != mp->killers[0] && mp->counter != mp->killers[1] && refutation_ok(mp, mp->counter)) {
                *score = ORDER_COUNTER;
                return mp->counter;
            }
            break;
        case STAGE_QUIETS_INIT:
            mp->count = gen_quiets(pos, mp->moves);
            mp->next = 0;
            for (int i = 0; i < mp->count; i++) {
                Move m = mp->moves[i];
                int kind = piece_kind(pos->board[move_from(m)]), to = play_index(move_to(m));
                mp->scores[i] = mp->ot->history[pos->side][move_from(m)][move_to(m)] + (*mp->cont[0])[kind][to]
                              + (*mp->cont[1])[kind][to] + (*mp->cont[2])[kind][to];
            }
            pad_scores(mp->scores, mp->count);
            mp->stage++;
            break;
        case STAGE_QUIETS:
            while (mp->next < mp->count) {
                int i = select_best(mp->moves, mp->scores, mp->next++, mp->count, mp->simd);
                Move m = mp->moves[i];
                if (m == mp->tt_move || is_refutation(mp, m))
                    continue;
                *score = mp->scores[i];
                return m;
            }
            mp->stage++;
            break;
        case STAGE_BAD_CAPTURES:
            if (mp->bad_next < mp->bad_count) {
                int i = select_best(mp->bad, mp->bad_scores, mp->bad_next++, mp->bad_count, mp->simd);
                *score = mp->bad_scores[i];
                return mp->bad[i];
            }
            mp->stage = STAGE_DONE;
            break;
        case STAGE_QS_CAPTURES:
            if (mp->next < mp->count) {
                int i = select_best(mp->moves, mp->scores, mp->next++, mp->count, mp->simd);
                *score = mp->scores[i];
                return mp->moves[i];
            }
            mp->stage = STAGE_DONE;
            break;
        default:
            return MOVE_NONE;
        }
    }
}

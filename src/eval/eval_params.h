/*
 * eval_params.h - every evaluation weight, named in one place.
 *
 * Scores are in centipawn-like units (an uncrossed pawn ~ 60-100). Tables
 * are written from red's side, rank 0 = red's back rank, for files a..e;
 * files f..i mirror them. EVAL_DEFAULTS holds the shipped values; a
 * developer build can load others from a file (eval_params_load).
 */
#ifndef XQ_EVAL_PARAMS_H
#define XQ_EVAL_PARAMS_H

#include <stddef.h>

#include "base/types.h"

enum {
    PHASE_MG = 0,
    PHASE_EG = 1,
    HALF_FILES = 5,
    ROOK_MOB_MAX = 17,   /* most squares a rook reaches (quiet squares plus one capture per ray) */
    HORSE_MOB_MAX = 8,   /* most jumps a horse has */
    CANNON_MOB_MAX = 17, /* most quiet squares a cannon reaches */
    IMBALANCE_PAIRS = 8, /* (rook, horse, cannon, pawn) x (enemy advisor, enemy elephant) */
};

typedef struct EvalParams {
    int material[PIECE_TYPES][2];             /* [type][mg/eg] */
    int pst[PIECE_TYPES][2][RANKS][HALF_FILES]; /* [type][mg/eg][rank][file a..e] */
    int phase_weight[PIECE_TYPES];            /* contribution to the game phase */
    int rook_mobility_mg[ROOK_MOB_MAX + 1];   /* by the number of squares a rook reaches (mg)... */
    int rook_mobility_eg[ROOK_MOB_MAX + 1];   /* ...and eg */
    int horse_mobility_mg[HORSE_MOB_MAX + 1]; /* by the number of jumps (leg free, target not own) */
    int horse_mobility_eg[HORSE_MOB_MAX + 1];
    int cannon_mobility_mg[CANNON_MOB_MAX + 1]; /* by the number of quiet squares */
    int cannon_mobility_eg[CANNON_MOB_MAX + 1];
    int empty_cannon[2];                      /* cannon facing the king on its file with nothing between */
    int cannon_screen_threat[2];              /* cannon facing the king through two screens (one from check) */
    int palace_attacker[2];                   /* per enemy rook/horse/cannon near our palace... */
    int missing_advisor[2];                   /* ...times missing advisors (king safety) */
    int missing_elephant[2];                  /* ...times missing elephants */
    int linked_pawns[2];                      /* two crossed pawns side by side */
    int king_off_file[2];                     /* king left its central file with attackers about */
    int rook_open_file[2];                    /* rook on a file without own pawns */
    int bottom_cannon[2];                     /* cannon on the enemy back rank, facing the king along it */
    int center_horse_pinned[2];               /* enemy horse on its palace centre, between our cannon and its king */
    int full_defence[2];                      /* both advisors and both elephants at home in the game */
    int crossed_pawn_missing_advisor[2];      /* crossed pawn short of the last rank, times enemy missing advisors */
    int attacker_vs_defender_mg[IMBALANCE_PAIRS]; /* our rooks/horses/cannons/pawns times their advisors/elephants */
    int attacker_vs_defender_eg[IMBALANCE_PAIRS]; /* (index: attacker * 2 + defender) */
    int wing_attackers[2];                    /* crossed rooks, horses, cannons on one wing beyond the first */
    int tempo;
    int no_mating_material_div;               /* divide a score by this when the leader cannot mate */
} EvalParams;

extern const EvalParams EVAL_DEFAULTS;

/* One named weight array of EvalParams, as a run of ints (for loading, tuning and printing). */
typedef struct EvalParamField {
    const char *name;
    size_t offset;  /* in ints from the start of EvalParams */
    size_t len;     /* number of ints */
} EvalParamField;

enum { EVAL_PARAM_FIELDS = 26, EVAL_PARAM_INTS = sizeof(EvalParams) / sizeof(int) };

/* The fields in declaration order; together they cover EvalParams exactly. */
extern const EvalParamField EVAL_PARAM_FIELD[EVAL_PARAM_FIELDS];

/* Loads "name index... value" lines over *p (developer builds, tuning); returns false with a message. */
bool eval_params_load(EvalParams *p, const char *path, XqError *err);

#endif

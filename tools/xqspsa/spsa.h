/*
 * spsa.h - SPSA (simultaneous perturbation stochastic approximation) as fishtest runs it, without games:
 * the schedule, each iteration's perturbation and the update from its result.
 *
 * A session is N game pairs long (fishtest's num_games / 2). Each parameter has a start, a range and two
 * inputs for the end of the session: c_end, the perturbation, and r_end, the learning rate, with
 * a_end = r_end * c_end^2. From them, once: c = c_end * N^gamma and a = a_end * (A + N)^alpha, so that at
 * pair k (1-based) c_k = c / k^gamma and a_k = a / (A + k)^alpha run from large to c_end and a_end. An
 * iteration draws a +-1 flip per parameter, plays engine(theta + c_k flip) against engine(theta - c_k flip)
 * for some pairs (the values clamped to the range and rounded at random to integers, up or down in
 * proportion, so that their mean is the real value), and moves each theta by
 * a_k / c_k * (wins - losses) * flip (clamped); k advances by the pairs played. Everything random comes
 * from one generator whose state is part of the session, so a session saved and resumed draws what an
 * uninterrupted one draws.
 */
#ifndef XQS_SPSA_H
#define XQS_SPSA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { SPSA_PARAMS_MAX = 64, SPSA_NAME_MAX = 64 };

/* Fishtest's defaults: the exponents of c_k and a_k, and A as a share of N. */
#define SPSA_ALPHA 0.602
#define SPSA_GAMMA 0.101
#define SPSA_A_RATIO 0.1
#define SPSA_R_END 0.002      /* the learning rate Stockfish's tune suggests... */
#define SPSA_C_END_SHARE 0.05 /* ...and the perturbation: a twentieth of the range */

/* One tuned parameter. */
typedef struct SpsaParam {
    char name[SPSA_NAME_MAX];
    double start, min, max, c_end, r_end; /* the inputs (fishtest's six columns) */
    double theta;                         /* the current value */
    double a, c;                          /* the schedule's numerators (spsa_init) */
} SpsaParam;

/* A session: its parameters and schedule, and how far it has come. */
typedef struct Spsa {
    int count;
    SpsaParam param[SPSA_PARAMS_MAX];
    int64_t pairs_total;         /* N */
    double alpha, gamma, big_a;  /* big_a: A */
    int64_t iter;                /* game pairs played (k - 1 for the next iteration) */
    int64_t iterations;          /* updates made */
    int64_t wins, losses, draws; /* of every game so far, from the plus side's view */
    uint64_t rng;                /* the generator's state */
} Spsa;

/* One iteration's perturbation and the engines' values. */
typedef struct SpsaProbe {
    int flip[SPSA_PARAMS_MAX];    /* +1 or -1 */
    double ck[SPSA_PARAMS_MAX];   /* c_k */
    double step[SPSA_PARAMS_MAX]; /* a_k / c_k: theta moves by this * (wins - losses) * flip */
    int plus[SPSA_PARAMS_MAX];    /* the values of engine(theta + c_k flip)... */
    int minus[SPSA_PARAMS_MAX];   /* ...and of engine(theta - c_k flip) */
} SpsaProbe;

/* The games of one iteration, from the plus side's view. */
typedef struct SpsaGames {
    int wins, losses, draws;
    char note[256]; /* anything worth a word in the progress line (abnormal endings), or "" */
} SpsaGames;

/* Plays `pairs` game pairs of the probe's plus values against its minus values for session s (its iter
 * says which pairs these are); false with msg filled when they could not be played. */
typedef bool (*SpsaPlayFn)(void *ctx, const Spsa *s, const SpsaProbe *probe, int pairs, SpsaGames *out, char *msg,
                           size_t msg_size);

/* Starts a session of pairs_total pairs over s->param[0..count-1] (inputs filled): fishtest's default
 * alpha, gamma and A (change them, then call spsa_schedule), theta = start, the generator seeded. */
void spsa_init(Spsa *s, int64_t pairs_total, uint64_t seed);
/* Computes each parameter's a and c from the inputs and s's pairs_total, alpha, gamma and big_a. */
void spsa_schedule(Spsa *s);
/* Draws the next iteration's perturbation and engine values (advances the generator). */
void spsa_probe(Spsa *s, SpsaProbe *probe);
/* Applies an iteration's result: theta moves (clamped), iter advances by pairs, the totals grow. */
void spsa_update(Spsa *s, const SpsaProbe *probe, int pairs, const SpsaGames *games);
/* One iteration of at most `pairs` pairs (fewer at the session's end): probe, play, update. Returns the pairs
 * played, or 0 (s unchanged, msg filled) when the games could not be played or the session is over. */
int spsa_step(Spsa *s, int pairs, SpsaPlayFn play, void *ctx, SpsaGames *games, char *msg, size_t msg_size);
/* Has the session played all its pairs? */
bool spsa_done(const Spsa *s);
/* A uniform draw in [0, 1) from a generator state (advancing it). */
double spsa_random(uint64_t *state);
/* theta rounded to the nearest integer (the value a session's end hands over). */
int spsa_rounded(double theta);

#endif

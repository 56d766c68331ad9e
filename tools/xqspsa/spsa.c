/* spsa.c - the SPSA schedule, perturbation and update (spsa.h). */
#include "spsa.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "book/book_move.h"

/* Starts a session: fishtest's default schedule, theta at the start values, the generator seeded. */
void spsa_init(Spsa *s, int64_t pairs_total, uint64_t seed)
{
    s->pairs_total = pairs_total;
    s->alpha = SPSA_ALPHA;
    s->gamma = SPSA_GAMMA;
    s->big_a = SPSA_A_RATIO * (double)pairs_total;
    s->iter = s->iterations = 0;
    s->wins = s->losses = s->draws = 0;
    s->rng = seed;
    for (int i = 0; i < s->count; i++)
        s->param[i].theta = s->param[i].start;
    spsa_schedule(s);
}

/* c = c_end * N^gamma, a = r_end * c_end^2 * (A + N)^alpha: c_k and a_k end the session at c_end and a_end. */
void spsa_schedule(Spsa *s)
{
    const double n = (double)s->pairs_total;
    for (int i = 0; i < s->count; i++) {
        SpsaParam *p = &s->param[i];
        p->c = p->c_end * pow(n, s->gamma);
        p->a = p->r_end * p->c_end * p->c_end * pow(s->big_a + n, s->alpha);
    }
}

/* A uniform draw in [0, 1): the generator's top 53 bits. */
double spsa_random(uint64_t *state) { return (double)(book_random(state) >> 11) * 0x1.0p-53; }

/* x clamped to [lo, hi]. */
static double clamp(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

/* x rounded down or up at random, up with probability x - floor(x): the mean is x. */
static int round_random(double x, uint64_t *rng)
{
    double f = floor(x);
    return (int)f + (spsa_random(rng) < x - f);
}

/* Draws the flips (fishtest: one random +-1 per parameter) and the two engines' values. */
void spsa_probe(Spsa *s, SpsaProbe *probe)
{
    const double k = (double)(s->iter + 1);
    for (int i = 0; i < s->count; i++) {
        const SpsaParam *p = &s->param[i];
        double ck = p->c / pow(k, s->gamma), ak = p->a / pow(s->big_a + k, s->alpha);
        probe->flip[i] = (book_random(&s->rng) & 1) ? 1 : -1;
        probe->ck[i] = ck;
        probe->step[i] = ak / ck;
        probe->plus[i] = round_random(clamp(p->theta + ck * probe->flip[i], p->min, p->max), &s->rng);
        probe->minus[i] = round_random(clamp(p->theta - ck * probe->flip[i], p->min, p->max), &s->rng);
    }
}

/* theta += a_k / c_k * (wins - losses) * flip, clamped; k advances by the pairs played. */
void spsa_update(Spsa *s, const SpsaProbe *probe, int pairs, const SpsaGames *games)
{
    const int result = games->wins - games->losses;
    for (int i = 0; i < s->count; i++) {
        SpsaParam *p = &s->param[i];
        p->theta = clamp(p->theta + probe->step[i] * result * probe->flip[i], p->min, p->max);
    }
    s->iter += pairs;
    s->iterations++;
    s->wins += games->wins;
    s->losses += games->losses;
    s->draws += games->draws;
}

/* Has the session played all its pairs? */
bool spsa_done(const Spsa *s) { return s->iter >= s->pairs_total; }

/* One iteration: probe, play, update (nothing changes when the games fail). */
int spsa_step(Spsa *s, int pairs, SpsaPlayFn play, void *ctx, SpsaGames *games, char *msg, size_t msg_size)
{
    if (spsa_done(s)) {
        snprintf(msg, msg_size, "the session has played its %lld pairs", (long long)s->pairs_total);
        return 0;
    }
    if (pairs > s->pairs_total - s->iter)
        pairs = (int)(s->pairs_total - s->iter);
    uint64_t rng = s->rng;
    SpsaProbe probe;
    spsa_probe(s, &probe);
    memset(games, 0, sizeof *games);
    if (!play(ctx, s, &probe, pairs, games, msg, msg_size)) {
        s->rng = rng;
        return 0;
    }
    spsa_update(s, &probe, pairs, games);
    return pairs;
}

/* theta rounded to the nearest integer. */
int spsa_rounded(double theta) { return (int)lround(theta); }

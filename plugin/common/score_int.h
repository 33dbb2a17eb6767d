/* cardbot plugins — scoring helpers shared by the heuristic (policy.c) and the lean play-out
 * policy (rollout.c), internal to plugin/common.
 *
 * The play-out policy keeps the heuristic's judgement (rollout.h), so the pieces both value
 * plays with live here once: a change to one of them changes both policies alike. They are
 * static inline because both files call them in their innermost loops. The holding models
 * (binomial tails, what a seat may hold) differ on purpose and stay in each file.
 */
#ifndef CARDBOT_PLUGIN_SCORE_INT_H
#define CARDBOT_PLUGIN_SCORE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "cardbot/rules.h"
#include "policy.h"

/* Opponents keep bombs often: a bomb that may be out is half a threat. */
#define CB_BOMB_USE 0.5f

/* ---- shapes ---- */

/* Cards per rank of the main part (0 for pass / rocket). */
static inline int shape_mult(int shape)
{
    switch (shape) {
    case CB_SINGLE: case CB_STRAIGHT: return 1;
    case CB_PAIR: case CB_PAIR_CHAIN: return 2;
    case CB_TRIPLE: case CB_TRIPLE_1: case CB_TRIPLE_2:
    case CB_PLANE: case CB_PLANE_1: case CB_PLANE_2: return 3;
    case CB_FOUR_2: case CB_FOUR_22: case CB_FOUR_3: case CB_BOMB: return 4;
    default: return 0;
    }
}

static inline bool shape_chain(int shape)
{
    return shape == CB_STRAIGHT || shape == CB_PAIR_CHAIN || shape == CB_PLANE ||
           shape == CB_PLANE_1 || shape == CB_PLANE_2;
}

static inline bool shape_bomb(int shape) { return shape == CB_BOMB || shape == CB_ROCKET; }

/* Plays alike for the holding model (shape, main, length, cards): consecutive plays of a list
 * with the same key share the opponents' chances to beat them. */
static inline int key_of(const cb_move *m) { return ((m->shape * 16 + m->main) * 24 + m->len) * 21 + m->ncards; }

/* ---- rank masks ---- */

/* Ranks lo..hi as a bit mask (empty when lo > hi; lo <= 16, hi <= 15). */
static inline unsigned rank_span(int lo, int hi)
{
    return lo > hi ? 0u : ((2u << hi) - 1u) & ~((1u << lo) - 1u);
}

/* Bit 0 of every rank's nibble gathered into a rank mask (bit 4r -> bit r). */
static inline unsigned gather(uint64_t x)
{
    x &= 0x1111111111111111ull;
    x = (x | x >> 3) & 0x0303030303030303ull;
    x = (x | x >> 6) & 0x000F000F000F000Full;
    x = (x | x >> 12) & 0x000000FF000000FFull;
    x = (x | x >> 24) & 0xFFFFull;
    return (unsigned)x & ((1u << CB_NRANKS) - 1u);
}

/* ge[t] = ranks with at least t cards in k, t = 0..4, and ge[5] = 0 (counts of a real deck:
 * at most 4). */
static inline void ranks_ge(cb_counts k, unsigned ge[6])
{
    ge[0] = (1u << CB_NRANKS) - 1u;
    ge[1] = gather(k | k >> 1 | k >> 2);
    ge[2] = gather(k >> 1 | k >> 2);
    ge[3] = gather(k >> 2 | (k & k >> 1));
    ge[4] = gather(k >> 2);
    ge[5] = 0;
}

/* ---- score terms ---- */

/* Danger of an opponent holding c cards (he may go out soon). */
static inline double danger(int c)
{
    static const double d[5] = {0, 3.0, 2.0, 1.0, 0.4};
    return c >= 1 && c <= 4 ? d[c] : 0;
}

/* Ranks where the play takes some but not all of my cards: each may leave a loose piece
 * (bit 0 of a nibble: the play has the rank and the rest still has it; counts <= 4, and the
 * play is in the hand, so no nibble borrows; at most 15 nibbles sum into the top one). */
static inline int frag(cb_counts hand, cb_counts play)
{
    cb_counts rest = hand - play;
    uint64_t x = (play | play >> 1 | play >> 2) & (rest | rest >> 1 | rest >> 2) & 0x1111111111111111ull;
    return (int)((x * 0x1111111111111111ull) >> 60);
}

/* Control cards a play spends: its cards weighted by ctlw of their rank, ranks ascending
 * (absent ranks would add exactly 0). */
static inline double ctl_spend(cb_counts play, const float ctlw[CB_NRANKS])
{
    double spend = 0;
    for (cb_counts k = play; k;) {
        int sh = __builtin_ctzll(k) & ~3;
        spend += (double)((k >> sh) & 15) * ctlw[sh >> 2];
        k &= ~((cb_counts)15 << sh);
    }
    return spend;
}

/* Score of a pass with mh0 plays left: the table seat ts (-1 when leading: no pass) may go
 * out if it is an opponent near the end; a partner's play that would hold is worth keeping.
 * left[] = cards left per seat, partner = -1 without one. */
static inline double pass_score(const cb_hweights *W, int mh0, int ts, int partner, const int left[3],
                                float partner_hold)
{
    double sc = -mh0;
    if (ts >= 0 && ts != partner)
        sc -= W->threat * danger(left[ts]) * 0.8;
    if (ts >= 0 && ts == partner) {
        sc += W->coop * partner_hold * 0.5;
        if (left[ts] <= 2)
            sc += W->coop;
    }
    return sc;
}

#endif

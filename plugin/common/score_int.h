/* cardbot plugins — scoring helpers shared by the heuristic (policy.c) and the lean play-out
 * policy (rollout.c), internal to plugin/common.
 *
 * The play-out policy keeps the heuristic's judgement (rollout.h), so the pieces both value
 * plays with live here once: a change to one of them changes both policies alike. They are
 * static inline because both files call them in their innermost loops. One holding model: the
 * binomial tails of a seat's share and what passes prove, and one composition of "the chance a
 * seat beats this play" (beat_chance, below). What stays in each file is the primitive product
 * over ranks (policy.c multiplies ranks ascending per query, rollout.c keeps suffix products
 * built from the top rank down): the float results differ in the last bits, which is why the
 * two policies agree on 99.9% of decisions and not 100%; one order for both would change one
 * policy's play (see notes/DESIGN-NOTES.md, "rollout").
 */
#ifndef CARDBOT_PLUGIN_SCORE_INT_H
#define CARDBOT_PLUGIN_SCORE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "cardbot/game.h"
#include "policy.h"

/* Opponents keep bombs often: a bomb that may be out is half a threat. */
#define CB_BOMB_USE 0.5f

/* A play's class for choosing which plays get an exact min-hands (shape, length): both policies
 * score each class's best pre-score exactly (policy.c pick_exact and its proof of no, rollout.c
 * pick_exact), which keeps their choices alike. */
static inline int score_class_of(const cb_move *m) { return m->shape * 24 + (m->len < 24 ? m->len : 23); }

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

/* ---- holding model ---- */

/* T[k][t] = P(Bin(k, f) >= t) for k, t = 0..4: a seat that holds the share f of the free cards
 * out holds at least t of the k out of a rank. Closed forms; tests/test_rollout.c checks them
 * float for float against the textbook sum of the pmf on every share a deal can produce
 * (f = a / b, b <= 60). A seat known to hold kn of the rank holds >= t of it with
 * T[k][t - kn] (1 when t <= kn). */
static inline void binom_tails(double f, float T[5][5])
{
    double g = 1 - f, f2 = f * f, f3 = f2 * f, f4 = f3 * f, g2 = g * g, g3 = g2 * g, g4 = g3 * g;
    for (int k = 0; k <= 4; k++)
        for (int t = 0; t <= 4; t++)
            T[k][t] = t == 0 ? 1.0f : 0.0f;
    T[1][1] = (float)f;
    T[2][1] = (float)(1 - g2);
    T[2][2] = (float)f2;
    T[3][1] = (float)(1 - g3);
    T[3][2] = (float)(f2 * (3 - 2 * f));
    T[3][3] = (float)f3;
    T[4][1] = (float)(1 - g4);
    T[4][2] = (float)(1 - g4 - 4 * f * g3);
    T[4][3] = (float)(f3 * (4 - 3 * f));
    T[4][4] = (float)f4;
}

/* What passes under must_beat proved, applied to the masks of a holding model: nz[o][t] = the
 * ranks of which seat o may hold t or more, sure[o][t] = those it surely does. A seat lacks
 * every rank above what it could not beat (and every bomb, when no_bomb); the cards of a rank
 * one of the two other seats lacks are all with the other (the pool is exactly their hands).
 * Integer masks only: both policies get the same masks from the same record. */
static inline void holding_apply_voids(uint16_t nz[3][5], uint16_t sure[3][5], const cb_voids *v, int seat,
                                       const cb_rules *r, cb_counts pool)
{
    int others[2], n = 0;
    for (int o = 0; o < 3; o++)
        if (o != seat)
            others[n++] = o;
    bool any = false;
    for (int i = 0; i < 2; i++) {
        int o = others[i];
        const int8_t *ab = v->above[o];
        unsigned cut = 0; /* a seat that cannot hold t of a rank cannot hold more either */
        for (int t = 1; t <= 4; t++) {
            if (ab[t] + 1 < CB_NRANKS) {
                any = true;
                cut |= rank_span(ab[t] + 1, CB_NRANKS - 1);
            }
            nz[o][t] &= (uint16_t)~cut;
        }
        if (v->no_bomb[o]) {
            any = true;
            nz[o][4] &= (uint16_t)~rank_span(0, CB_RANK_2);
            if (r->game == CB_GAME_PDK && r->aaa_bomb)
                nz[o][3] &= (uint16_t)~(1u << CB_RANK_A);
        }
    }
    if (!any)
        return;
    unsigned pge[6];
    ranks_ge(pool, pge);
    for (int i = 0; i < 2; i++) {
        int o = others[i], o2 = others[1 - i];
        unsigned lacks = ~(unsigned)nz[o][1] & ((1u << CB_NRANKS) - 1u);
        for (int t = 1; t <= 4; t++) {
            /* all k cards of the rank are with o2: it holds >= t of them exactly when k >= t */
            sure[o2][t] = (uint16_t)((sure[o2][t] & ~lacks) | (lacks & pge[t]));
            nz[o2][t] = (uint16_t)((nz[o2][t] & ~lacks) | (lacks & pge[t]));
        }
    }
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

/* ---- the score of a play (not a pass) ----
 *
 * Both policies score a play with these terms, in this order: the order is part of the result
 * (double sums), so it is written once. The heuristic starts from -mh1 and adds the bomb
 * penalty in place; the play-out policy starts from 0 and adds -mh1, the penalty and the
 * endgame bonus once min-hands after is known (x - 0.0 == x: its in-place penalty is 0). */

/* Chance nobody beats the play: the product over the opponents of (1 - risk). */
static inline float hold_of(const float risk[3], const int opp[2], int nopp)
{
    /* one or two opponents: written out (1 * x == x, so the product is the loop's, bit for bit) */
    if (nopp == 2)
        return (1 - risk[opp[0]]) * (1 - risk[opp[1]]);
    return nopp == 1 ? 1 - risk[opp[0]] : 1.0f;
}

/* A bomb is excused (no penalty for spending it) when it stops an opponent near the end: the
 * table's player with 3 cards or fewer, or any opponent with 2 or fewer. table_seat -1: I lead. */
static inline bool bomb_stops(int table_seat, int partner, const int left[3], const int opp[2], int nopp)
{
    bool stops = table_seat >= 0 && table_seat != partner && left[table_seat] <= 3;
    for (int i = 0; i < nopp; i++)
        if (left[opp[i]] <= 2)
            stops = true;
    return stops;
}

/* What play_terms reads of a decision, set once per decision: the game's weights, control
 * weights per rank, danger of each seat's cards left, the opponents, the main rank to beat (0
 * when leading) and the PDK bomb points scale. */
typedef struct score_ctx {
    const cb_hweights *W;
    float ctlw[CB_NRANKS];
    double dang[3];
    int opp[2], nopp;
    int base_rank;
    double bomb_scale;
} score_ctx;

/* lead (the play holds), control cards spent and the main rank above the table's for a plain
 * play, cards shed, the threat of opponents near the end who may beat it, and for a bomb the
 * penalty and its PDK bomb points. Always inlined: both callers run it for every candidate. */
__attribute__((always_inline)) static inline double
play_terms(const score_ctx *k, double sc, const cb_move *m, float hold, bool bomb, double bomb_penalty,
           const float risk[3])
{
    const cb_hweights *W = k->W;
    const float *ctlw = k->ctlw;
    const int *opp = k->opp;
    int nopp = k->nopp, base_rank = k->base_rank;
    const double *dang = k->dang;
    double bomb_scale = k->bomb_scale;
    sc += W->lead * hold;
    if (!bomb) {
        sc -= W->keep * ctl_spend(m->counts, ctlw); /* spending control cards */
        sc -= W->rank * (double)(m->main - base_rank) / 12.0;
    }
    sc += W->shed * m->ncards;
    double threat = 0; /* opponents with few cards who could beat this */
    for (int i = 0; i < nopp; i++)
        threat += dang[opp[i]] * risk[opp[i]];
    sc -= W->threat * threat;
    if (bomb) {
        sc -= bomb_penalty;
        sc += W->bombpts * bomb_scale * hold;
    }
    return sc;
}

/* ---- the chance a seat beats a play ---- */

/* A holding model, as beat_chance reads it (policy.c's ev and rollout.c's rd each supply one):
 *   none_above(hm, o, t, lo, last): prod over the ranks lo..last of (1 - P(o holds >= t of it))
 *   tail(hm, o, t, q):              P(o holds >= t of rank q) (0 outside nz[o][t])
 *   nz:                             [o][t]: ranks where that chance is not 0 */
typedef float (*hold_none_fn)(void *hm, int o, int t, int lo, int last);
typedef float (*hold_tail_fn)(const void *hm, int o, int t, int q);

/* Chance that seat o, holding c cards, beats m: the same shape higher, or (with_bombs) a bomb,
 * PDK's AAA bomb or DDZ's rocket, used with CB_BOMB_USE. Written once for both policies; it is
 * always inlined, so the model's primitives are direct calls. A chain run with a rank outside
 * nz has a factor 0, so its (1 - p) is exactly 1 and is skipped. */
__attribute__((always_inline)) static inline float beat_chance(void *hm, hold_none_fn none_above,
                                                                hold_tail_fn tail,
                                                                const uint16_t nz[3][5], int o, int c,
                                                                bool aaa, bool ddz, const cb_move *m,
                                                                bool with_bombs)
{
    if (c <= 0 || m->shape == CB_ROCKET || m->shape == CB_PASS)
        return 0;
    int t = shape_mult(m->shape);
    bool bomb = cb_move_is_bomb(m);
    float same = 0;
    if (!bomb && c >= m->ncards && t > 0) {
        float none = 1;
        if (!shape_chain(m->shape)) {
            none = none_above(hm, o, t, m->main + 1, t == 1 ? CB_RANK_D : CB_RANK_2);
        } else {
            int L = m->len;
            unsigned z = nz[o][t], run = (1u << L) - 1u;
            for (int st = m->main + 1; st <= CB_RANK_A - L + 1; st++) {
                if ((z >> st & run) != run)
                    continue;
                float p = 1;
                for (int i = 0; i < L && p > 0; i++)
                    p *= tail(hm, o, t, st + i);
                none *= 1 - p;
            }
        }
        same = 1 - none;
    }
    if (!with_bombs)
        return same;
    float nob = 1;
    if (c >= 4)
        nob = none_above(hm, o, 4, bomb ? m->main + 1 : 0, CB_RANK_2);
    if (aaa && c >= 3 && !(bomb && m->main >= CB_MAIN_AAA))
        nob *= 1 - tail(hm, o, 3, CB_RANK_A);
    if (ddz && c >= 2)
        nob *= 1 - tail(hm, o, 1, CB_RANK_X) * tail(hm, o, 1, CB_RANK_D);
    return 1 - (1 - same) * (1 - CB_BOMB_USE * (1 - nob));
}

/* Teams: overtaking the partner's play costs what that play was worth (it would hold with
 * partner_hold); leading what a partner near the end (2 cards or fewer, enough for the play)
 * can beat is worth pb, its chance to, more when it plays next. feeds(): does the second
 * term apply (the caller then computes pb with beat_chance)? */
static inline double coop_term(const cb_hweights *W, double sc, int partner, int table_seat, float partner_hold)
{
    if (table_seat >= 0 && table_seat == partner)
        sc -= W->coop * partner_hold;
    return sc;
}
static inline bool feeds(int partner, int table_seat, const int left[3], const cb_move *m)
{
    return table_seat < 0 && left[partner] <= 2 && m->ncards <= left[partner];
}
static inline double feed_term(const cb_hweights *W, double sc, float pb, int seat, int partner, int left_p)
{
    double near = cb_situ_next(seat) == partner ? 1.0 : 0.5;
    return sc + W->feed * pb * near * (3 - left_p);
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

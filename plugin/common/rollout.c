/* cardbot plugins — the lean play-out policy (see rollout.h). Its judgement is the heuristic's:
 * the score terms, the binomial tails and what passes prove are score_int.h's, shared with
 * policy.c; what is this file's own is how much work a decision does (suffix products, the
 * candidates that get an exact min-hands), not what it values. Its holding model keeps suffix
 * products over ranks where policy.c multiplies per query (score_int.h says why). */
#include "rollout.h"
#include "score_int.h"

#include <stdlib.h>
#include <string.h>


int cb_rollout_init(cb_rollout *ro)
{
    memset(ro, 0, sizeof *ro);
    cb_hcfg c;
    cb_hcfg_rollout(&c);
    ro->w[0] = c.w[0];
    ro->w[1] = c.w[1];
    ro->exact_top = CB_ROLLOUT_EXACT_TOP;
    ro->exact_all_upto = CB_ROLLOUT_EXACT_ALL;
    ro->class_best = true;
    ro->cap = 256;
    ro->moves = malloc((size_t)ro->cap * sizeof *ro->moves);
    ro->cands = malloc((size_t)ro->cap * sizeof *ro->cands);
    if (!ro->moves || !ro->cands || cb_hws_init(&ro->ws) != 0) {
        free(ro->moves);
        free(ro->cands);
        memset(ro, 0, sizeof *ro);
        return -1;
    }
    return 0;
}

void cb_rollout_free(cb_rollout *ro)
{
    free(ro->moves);
    free(ro->cands);
    cb_hws_free(&ro->ws);
    memset(ro, 0, sizeof *ro);
}

static int grow(cb_rollout *ro, int need)
{
    int cap = ro->cap;
    while (cap < need)
        cap *= 2;
    cb_move *m = realloc(ro->moves, (size_t)cap * sizeof *m);
    if (!m)
        return -1;
    ro->moves = m;
    cb_rollout_cand *c = realloc(ro->cands, (size_t)cap * sizeof *c);
    if (!c)
        return -1;
    ro->cands = c;
    ro->cap = cap;
    return 0;
}

/* ---- bits ---- */

/* Cards in a set. Bit tricks: without a popcount instruction in the baseline x86-64 target the
 * builtin becomes a library call, several of which a play-out step would pay for. */
static inline int ncards(cb_cards c)
{
    c = c - ((c >> 1) & 0x5555555555555555ull);
    c = (c & 0x3333333333333333ull) + ((c >> 2) & 0x3333333333333333ull);
    c = (c + (c >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((c * 0x0101010101010101ull) >> 56);
}

/* 1 / (1 + n) for n = 0..54: control weights without a division per card */
static const float recip[CB_NCARDS + 1] = {
#define R1(n) 1.0f / (1.0f + (float)(n))
#define R10(n) R1(n), R1(n + 1), R1(n + 2), R1(n + 3), R1(n + 4), R1(n + 5), R1(n + 6), R1(n + 7), R1(n + 8), R1(n + 9)
    R10(0), R10(10), R10(20), R10(30), R10(40), R1(50), R1(51), R1(52), R1(53), R1(54),
#undef R10
#undef R1
};

/* ---- one decision ---- */

typedef struct rd {
    const cb_rules *r;
    const cb_hweights *W;
    int seat, partner, opp[2], nopp;
    int left[3];
    int table_seat;            /* -1 when leading */
    const cb_move *table;
    cb_counts hand, pool;
    int hand_n;
    float partner_hold;
    /* Holding model. P(seat o holds >= t cards of rank r) is
     *   1                        for r in sure[o][t],
     *   0                        for r outside nz[o][t],
     *   T[o][k][t - kn]          else, k = free cards of the rank out (fr), kn = known[o]'s,
     *                            1 when t <= kn.
     * The masks carry what passes proved; T is a binomial tail (o's share of the free cards). */
    cb_counts fr;              /* out and not known to be anywhere */
    cb_counts known[3];        /* DDZ farmers: the landlord's unplayed bottom cards */
    uint16_t nz[3][5], sure[3][5];
    float T[3][5][5];
    /* suf[o][t][i] for i in nz[o][t]: prod over the ranks q >= i of nz[o][t] of
     * (1 - P(o holds >= t of q)), built on first use (bit 5 o + t of suf_ok): the chance o
     * holds nothing of a t-card shape above a main rank (see suffix()) */
    float suf[3][5][CB_NRANKS];
    uint32_t suf_ok;
    bool aaa, ddz;             /* PDK AAA bomb; DDZ (rocket) */
    score_ctx sk;              /* what the shared score terms read (score_int.h): control
                                  weights 1 / (1 + cards out above), danger per seat, bomb scale */
} rd;

/* P(o holds >= t of rank q) for q in nz[o][t] */
static inline float pv(const rd *d, int o, int t, int q)
{
    if (d->sure[o][t] >> q & 1u)
        return 1.0f;
    int k = cb_count(d->fr, q), need = t - cb_count(d->known[o], q);
    if (k > 4)
        k = 4;
    return need <= 0 ? 1.0f : need <= k ? d->T[o][k][need] : 0.0f;
}

static inline float qv(const rd *d, int o, int t, int q)
{
    return (d->nz[o][t] >> q & 1u) ? pv(d, o, t, q) : 0.0f;
}

/* Build the holding model: the cards still out that are not known to be somewhere are spread
 * over the other seats in proportion to their unknown cards (binomial), then what passes under
 * must_beat proved (a seat lacks every rank above what it could not beat; the cards of a rank
 * one seat lacks are all with the other). The heuristic's model, as masks. */
static void model_init(rd *d, const cb_deal *g)
{
    const cb_rules *r = d->r;
    memset(d->known, 0, sizeof d->known);
    if (r->game == CB_GAME_DDZ && g->bottom && g->landlord >= 0 && g->landlord < 3 && g->landlord != d->seat)
        d->known[g->landlord] = cb_counts_of(g->bottom & ~g->played);
    cb_counts kall = d->known[0] + d->known[1] + d->known[2];
    d->fr = d->pool - kall; /* known cards are out, so no nibble goes below 0 */
    int free_pool = cb_counts_total(d->fr);
    unsigned ge[6];
    ranks_ge(d->fr, ge);
    memset(d->nz, 0, sizeof d->nz);
    memset(d->sure, 0, sizeof d->sure);
    for (int o = 0; o < 3; o++) {
        if (o == d->seat)
            continue;
        int nk = cb_counts_total(d->known[o]);
        double f = free_pool > 0 ? (double)(d->left[o] - nk) / free_pool : 0;
        if (f < 0)
            f = 0;
        if (f > 1)
            f = 1;
        binom_tails(f, d->T[o]);
        if (d->known[o]) {
            unsigned kg[6];
            ranks_ge(d->known[o], kg);
            for (int t = 1; t <= 4; t++) {
                unsigned m = kg[t]; /* sure from the known cards alone */
                for (int j = 1; j < t; j++) /* t - j known, >= j free */
                    m |= f > 0 ? (kg[t - j] & ge[j]) : 0;
                if (f > 0)
                    m |= ge[t];
                d->nz[o][t] = (uint16_t)m;
            }
        } else if (f > 0) {
            for (int t = 1; t <= 4; t++)
                d->nz[o][t] = (uint16_t)ge[t];
        }
    }
    if (r->must_beat)
        holding_apply_voids(d->nz, d->sure, &g->voids, d->seat, r, d->pool);
    d->suf_ok = 0;
}

/* The products of seat o for t cards (see rd.suf), stored at the ranks of nz only: the
 * product over the ranks above a main rank is the entry of the lowest such rank of nz (1 when
 * there is none). The products run over every rank of nz, and that is what a shape can reach:
 * a joker is one card, so for t >= 2 no rank above the 2 is ever in nz. */
static const float *suffix(rd *d, int o, int t)
{
    float *row = d->suf[o][t];
    uint32_t bit = 1u << (o * 5 + t);
    if (d->suf_ok & bit)
        return row;
    d->suf_ok |= bit;
    unsigned nz = d->nz[o][t];
    unsigned sure = d->sure[o][t];
    const float *Tt = &d->T[o][0][t]; /* T[o][k][t] = Tt[5 * k] */
    float acc = 1;
    while (nz) {
        int hi = 31 - __builtin_clz(nz);
        nz &= ~(1u << hi);
        if (sure >> hi & 1u)
            acc = 0;
        else if (!d->known[o])
            acc *= 1 - Tt[5 * cb_count(d->fr, hi)];
        else
            acc *= 1 - pv(d, o, t, hi);
        row[hi] = acc;
    }
    return row;
}

/* P(o holds nothing of t cards per rank above rank lo - 1), t-card shapes reaching up to `last` */
static inline float none_above(rd *d, int o, int t, int lo, int last)
{
    unsigned m = d->nz[o][t] & rank_span(lo, last);
    return m ? suffix(d, o, t)[__builtin_ctz(m)] : 1.0f;
}

/* beat_chance's primitives over rd: suffix products, and the tail with its nz test */
static float rd_none_above(void *hm, int o, int t, int lo, int last) { return none_above(hm, o, t, lo, last); }
static float rd_tail(const void *hm, int o, int t, int q) { return qv(hm, o, t, q); }

/* Chance that seat o beats m (score_int.h's beat_chance over this model). */
static float seat_beat(rd *d, int o, const cb_move *m, bool with_bombs)
{
    return beat_chance(d, rd_none_above, rd_tail, (const uint16_t (*)[5])d->nz, o, d->left[o], d->aaa, d->ddz,
                       m, with_bombs);
}

/* The part of a play's score that does not depend on min-hands after: policy.c's score_play
 * without -mh1, the bomb penalty and the endgame bonus, which final_score() adds. */
static void score_base(rd *d, const cb_move *m, const float risk[3], cb_rollout_cand *out)
{
    const cb_hweights *W = d->W;
    float hold = hold_of(risk, d->opp, d->nopp);
    bool bomb = cb_move_is_bomb(m);
    /* a bomb that stops an opponent near the end (the penalty waits for min-hands after) */
    bool excused = bomb && bomb_stops(d->table_seat, d->partner, d->left, d->opp, d->nopp);
    double sc = play_terms(&d->sk, 0, m, hold, bomb, 0, risk);
    int p = d->partner;
    if (p >= 0) {
        sc = coop_term(W, sc, p, d->table_seat, d->partner_hold);
        if (feeds(p, d->table_seat, d->left, m))
            sc = feed_term(W, sc, seat_beat(d, p, m, false), d->seat, p, d->left[p]);
    }
    out->base = sc;
    out->hold = hold;
    out->bomb = bomb;
    out->excused = excused;
}

static double final_score(const rd *d, const cb_rollout_cand *c, int mh1)
{
    double sc = c->base - mh1;
    if (c->bomb && !c->excused && !(mh1 <= 1 && c->hold > 0.9f))
        sc -= d->W->bomb;
    if (mh1 <= 1 && c->hold > 0.999f)
        sc += d->W->end;
    return sc;
}

/* The decision's state: weights, seats and teams, cards left, the pool of cards out, control
 * weights, the holding model and what the partner's table play is worth. */
static void decision_init(rd *d, const cb_rollout *ro, const cb_deal *g, cb_counts hand)
{
    const cb_rules *r = g->rules;
    int seat = g->turn;
    d->r = r;
    d->W = &ro->w[r->game == CB_GAME_DDZ ? 1 : 0];
    d->seat = seat;
    d->hand = hand;
    for (int o = 0; o < 3; o++)
        d->left[o] = ncards(g->hands[o]);
    d->hand_n = d->left[seat];
    d->table_seat = g->table_seat;
    d->table = g->table_seat >= 0 ? &g->table : NULL;
    d->pool = cb_counts_of(r->deck & ~g->hands[d->seat] & ~g->played);
    d->partner = -1;
    d->nopp = 0;
    int ll = g->landlord;
    for (int o = 0; o < 3; o++) {
        if (o == d->seat)
            continue;
        if (ll >= 0 && ll < 3 && o != ll && d->seat != ll)
            d->partner = o;
        else
            d->opp[d->nopp++] = o;
    }
    d->sk.bomb_scale = r->game == CB_GAME_PDK ? r->bomb_points / 10.0 : 0.0;
    d->aaa = r->game == CB_GAME_PDK && r->aaa_bomb;
    d->ddz = r->game == CB_GAME_DDZ;
    for (int o = 0; o < 3; o++)
        d->sk.dang[o] = danger(d->left[o]);
    int above = 0;
    for (int q = CB_NRANKS - 1; q >= 0; q--) {
        d->sk.ctlw[q] = recip[above];
        above += cb_count(d->pool, q);
    }
    d->sk.W = d->W;
    d->sk.nopp = d->nopp;
    for (int i = 0; i < d->nopp; i++)
        d->sk.opp[i] = d->opp[i];
    d->sk.base_rank = d->table_seat < 0 ? 0 : d->table->main;
    model_init(d, g);
    d->partner_hold = 0;
    if (d->partner >= 0 && d->table_seat == d->partner) {
        /* the opponent between us has already passed on it unless the partner sits before me */
        d->partner_hold = 1;
        if (cb_situ_next(d->partner) == d->seat)
            for (int i = 0; i < d->nopp; i++)
                d->partner_hold *= 1 - seat_beat(d, d->opp[i], d->table, true);
    }
}

/* Pre-score every play (min-hands after estimated, unless every play is scored exactly: then
 * only the parts that do not depend on it) into ro->cands; the pass is left out, its index in
 * *pass_idx (-1: none). *mh0: min-hands of the hand when it was needed (-1: not yet). Returns
 * the candidates. */
static int prescore(cb_rollout *ro, rd *d, const cb_move *mv, int n, bool all_exact, int *pass_idx, int *mh0_io)
{
    const cb_rules *r = d->r;
    int mh0 = -1;
    int nc = 0, lastkey = -1;
    *pass_idx = -1;
    float risk[3] = {0, 0, 0};
    cb_rollout_cand *cs = ro->cands;
    for (int i = 0; i < n; i++) {
        const cb_move *m = &mv[i];
        if (m->shape == CB_PASS) {
            *pass_idx = i;
            continue;
        }
        int key = key_of(m);
        if (key != lastkey) {
            for (int j = 0; j < d->nopp; j++)
                risk[d->opp[j]] = seat_beat(d, d->opp[j], m, true);
            lastkey = key;
        }
        cb_rollout_cand *c = &cs[nc++];
        c->idx = i;
        c->must = 0;
        score_base(d, m, risk, c);
        c->pre = 0;
        if (!all_exact) {
            if (mh0 < 0)
                mh0 = cb_hws_min_hands(&ro->ws, r, d->hand);
            int est = mh0 - 1 + (frag(d->hand, m->counts) + 1) / 2;
            c->pre = (float)final_score(d, c, est);
        }
    }
    *mh0_io = mh0;
    return nc;
}

/* Which plays get an exact min-hands after: all (small hands), else the best pre-score of each
 * shape and length (the pre-score misjudges chains) and the exact_top best overall, moved to the
 * front. Returns how many. */
static int pick_exact(const cb_rollout *ro, cb_rollout_cand *cs, const cb_move *mv, int nc, bool all_exact)
{
    int top = nc, etop = ro->exact_top < 1 ? 1 : ro->exact_top;
    if (!all_exact && nc > etop) {
        top = 0;
        if (ro->class_best) {
            /* the classes met, each with its best so far (a list: a hand meets few) */
            int cls_q[CB_NSHAPES * 24], cls_j[CB_NSHAPES * 24], ncls = 0;
            for (int j = 0; j < nc; j++) {
                const cb_move *m = &mv[cs[j].idx];
                int q = score_class_of(m);
                int a = 0;
                while (a < ncls && cls_q[a] != q)
                    a++;
                if (a == ncls) {
                    cls_q[ncls] = q;
                    cls_j[ncls++] = j;
                    cs[j].must = 1;
                } else if (cs[j].pre > cs[cls_j[a]].pre) {
                    cs[cls_j[a]].must = 0;
                    cls_j[a] = j;
                    cs[j].must = 1;
                }
            }
            for (int j = 0; j < nc; j++)
                if (cs[j].must) {
                    cb_rollout_cand tmp = cs[j];
                    cs[j] = cs[top];
                    cs[top++] = tmp;
                }
        }
        int want = top + etop;
        if (want > nc)
            want = nc;
        for (; top < want; top++) {
            int b = top;
            for (int j = top + 1; j < nc; j++)
                if (cs[j].pre > cs[b].pre)
                    b = j;
            cb_rollout_cand tmp = cs[b];
            cs[b] = cs[top];
            cs[top] = tmp;
        }
    }
    return top;
}

/* Exact min-hands, best bound first. A play takes at most one play's worth off the hand
 * (mh1 >= mh0 - 1, and >= 1 as the whole hand was not a play) and a score only falls as mh1
 * rises, so a play scored at that bound bounds its exact score: once no bound left can beat the
 * best exact score (or the pass's, which a tie with a play does not beat), the rest cannot be
 * chosen and their min-hands are not needed. Returns the index of the play (or the pass)
 * chosen, -1 for none. */
static int best_exact(cb_rollout *ro, const rd *d, cb_rollout_cand *cs, const cb_move *mv, int top, int pass_idx,
                      int mh0)
{
    if (mh0 < 0)
        mh0 = cb_hws_min_hands(&ro->ws, d->r, d->hand);
    int lb = mh0 - 1 < 1 ? 1 : mh0 - 1;
    double pass_sc = pass_idx >= 0 ? pass_score(d->W, mh0, d->table_seat, d->partner, d->left, d->partner_hold) : -1e18;
    for (int a = 0; a < top; a++)
        cs[a].ub = final_score(d, &cs[a], lb);
    int best = -1;
    double best_sc = -1e18;
    for (int a = 0; a < top; a++) {
        int b = a;
        for (int j = a + 1; j < top; j++)
            if (cs[j].ub > cs[b].ub)
                b = j;
        if (cs[b].ub <= best_sc || cs[b].ub < pass_sc)
            break;
        cb_rollout_cand tmp = cs[b];
        cs[b] = cs[a];
        cs[a] = tmp;
        const cb_rollout_cand *c = &cs[a];
        int mh1 = cb_hws_min_hands(&ro->ws, d->r, d->hand - mv[c->idx].counts);
        double sc = final_score(d, c, mh1);
        if (sc > best_sc) {
            best_sc = sc;
            best = c->idx;
        }
    }
    if (pass_idx >= 0 && (best < 0 || pass_sc > best_sc))
        best = pass_idx;
    return best;
}

int cb_rollout_choose(cb_rollout *ro, const cb_deal *g, cb_move *out)
{
    const cb_rules *r = g->rules;
    ro->decisions++;
    cb_ctx ctx;
    cb_deal_ctx(g, &ctx);
    int n = cb_legal_moves(r, &ctx, ro->moves, ro->cap);
    if (n > ro->cap) {
        if (grow(ro, n) != 0)
            return -1;
        n = cb_legal_moves(r, &ctx, ro->moves, ro->cap);
    }
    if (n <= 0)
        return -1;
    ro->nmoves = n;
    const cb_move *mv = ro->moves;
    if (n == 1) {
        *out = mv[0];
        return 0;
    }
    /* the whole hand in one play: always (the list has it exactly when it is legal; the
     * canonical reading, as the heuristic plays it) */
    for (int i = 0; i < n; i++)
        if (mv[i].counts == ctx.hand) {
            if (!cb_play_legal(r, &ctx, ctx.hand, out, NULL, 0))
                *out = mv[i];
            return 0;
        }
    ro->scored++;

    rd d;
    decision_init(&d, ro, g, ctx.hand);
    bool all_exact = d.hand_n <= ro->exact_all_upto;
    int pass_idx, mh0;
    int nc = prescore(ro, &d, mv, n, all_exact, &pass_idx, &mh0);
    int top = pick_exact(ro, ro->cands, mv, nc, all_exact);
    int best = best_exact(ro, &d, ro->cands, mv, top, pass_idx, mh0);
    if (best < 0)
        return -1;
    *out = mv[best];
    return 0;
}

int cb_rollout_deal_policy(void *user, const cb_deal *g, cb_move *out)
{
    return cb_rollout_choose(user, g, out);
}

/* cardbot plugins — the lean play-out policy (see rollout.h). The score terms mirror
 * policy.c's score_play / seat_beat with the heuristic's weights, and the pieces both use
 * (shapes, rank masks, danger, the pass's score) are score_int.h's; what differs is how much
 * work a decision does, not what it values. */
#include "rollout.h"
#include "score_int.h"

#include <stdlib.h>
#include <string.h>

#define ALL_RANKS ((1u << CB_NRANKS) - 1u)

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
    double bomb_scale;
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
    double dang[3];            /* danger() of each seat's cards left */
    float ctlw[CB_NRANKS];     /* control weight of a card of the rank: 1 / (1 + cards out above) */
} rd;

/* T[k][t] = P(Bin(k, f) >= t) for k, t = 0..4. */
static void binom_tails(double f, float T[5][5])
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
    unsigned ge[6], pge[6];
    ranks_ge(d->fr, ge);
    ranks_ge(d->pool, pge);
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
    if (r->must_beat) {
        int others[2], n = 0;
        for (int o = 0; o < 3; o++)
            if (o != d->seat)
                others[n++] = o;
        bool any = false;
        for (int i = 0; i < 2; i++) {
            int o = others[i];
            const int8_t *ab = g->voids.above[o];
            unsigned cut = 0;
            for (int t = 1; t <= 4; t++) {
                if (ab[t] + 1 < CB_NRANKS) {
                    any = true;
                    cut |= rank_span(ab[t] + 1, CB_NRANKS - 1);
                }
                d->nz[o][t] &= (uint16_t)~cut;
            }
            if (g->voids.no_bomb[o]) {
                any = true;
                d->nz[o][4] &= (uint16_t)~rank_span(0, CB_RANK_2);
                if (r->game == CB_GAME_PDK && r->aaa_bomb)
                    d->nz[o][3] &= (uint16_t)~(1u << CB_RANK_A);
            }
        }
        if (any)
            for (int i = 0; i < 2; i++) {
                int o = others[i], o2 = others[1 - i];
                unsigned lacks = ~(unsigned)d->nz[o][1] & ALL_RANKS;
                for (int t = 1; t <= 4; t++) {
                    d->sure[o2][t] = (uint16_t)((d->sure[o2][t] & ~lacks) | (lacks & pge[t]));
                    d->nz[o2][t] = (uint16_t)((d->nz[o2][t] & ~lacks) | (lacks & pge[t]));
                }
            }
    }
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

/* Chance that seat o beats m: the same shape higher, or a bomb / rocket (used with CB_BOMB_USE). */
static float seat_beat(rd *d, int o, const cb_move *m, bool with_bombs)
{
    int c = d->left[o];
    if (c <= 0 || m->shape == CB_ROCKET || m->shape == CB_PASS)
        return 0;
    int t = shape_mult(m->shape);
    bool bomb = shape_bomb(m->shape);
    float same = 0;
    if (!bomb && c >= m->ncards && t > 0) {
        float none = 1;
        if (!shape_chain(m->shape)) {
            none = none_above(d, o, t, m->main + 1, t == 1 ? CB_NRANKS - 1 : CB_RANK_2);
        } else {
            int L = m->len;
            unsigned nz = d->nz[o][t], run = (1u << L) - 1u;
            for (int st = m->main + 1; st <= CB_RANK_A - L + 1; st++) {
                if ((nz >> st & run) != run)
                    continue;
                float p = 1;
                for (int i = 0; i < L; i++)
                    p *= pv(d, o, t, st + i);
                none *= 1 - p;
            }
        }
        same = 1 - none;
    }
    if (!with_bombs)
        return same;
    float nob = 1;
    if (c >= 4)
        nob = none_above(d, o, 4, bomb ? m->main + 1 : 0, CB_RANK_2);
    if (d->aaa && c >= 3 && !(bomb && m->main >= CB_MAIN_AAA))
        nob *= 1 - qv(d, o, 3, CB_RANK_A);
    if (d->ddz && c >= 2)
        nob *= 1 - qv(d, o, 1, CB_RANK_X) * qv(d, o, 1, CB_RANK_D);
    return 1 - (1 - same) * (1 - CB_BOMB_USE * (1 - nob));
}

/* The part of a play's score that does not depend on min-hands after: policy.c's score_play
 * without -mh1, the bomb penalty and the endgame bonus, which final_score() adds. */
static void score_base(rd *d, const cb_move *m, const float risk[3], cb_rollout_cand *out)
{
    const cb_hweights *W = d->W;
    double sc = 0;
    float hold = 1;
    for (int i = 0; i < d->nopp; i++)
        hold *= 1 - risk[d->opp[i]];
    sc += W->lead * hold;
    bool bomb = shape_bomb(m->shape);
    if (!bomb) {
        sc -= W->keep * ctl_spend(m->counts, d->ctlw);
        int base = d->table_seat < 0 ? 0 : d->table->main;
        sc -= W->rank * (double)(m->main - base) / 12.0;
    }
    sc += W->shed * m->ncards;
    double threat = 0;
    for (int i = 0; i < d->nopp; i++)
        threat += d->dang[d->opp[i]] * risk[d->opp[i]];
    sc -= W->threat * threat;
    bool excused = false; /* a bomb that stops an opponent near the end */
    if (bomb) {
        if (d->table_seat >= 0 && d->table_seat != d->partner && d->left[d->table_seat] <= 3)
            excused = true;
        for (int i = 0; i < d->nopp; i++)
            if (d->left[d->opp[i]] <= 2)
                excused = true;
        sc += W->bombpts * d->bomb_scale * hold;
    }
    int p = d->partner;
    if (p >= 0) {
        if (d->table_seat >= 0 && d->table_seat == p)
            sc -= W->coop * d->partner_hold; /* overtaking a partner's play that would hold */
        if (d->table_seat < 0 && d->left[p] <= 2 && m->ncards <= d->left[p]) {
            float pb = seat_beat(d, p, m, false);
            double near = cb_situ_next(d->seat) == p ? 1.0 : 0.5;
            sc += W->feed * pb * near * (3 - d->left[p]);
        }
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

int cb_rollout_choose(cb_rollout *ro, const cb_deal *g, cb_move *out)
{
    const cb_rules *r = g->rules;
    ro->decisions++;
    /* the rules' situation (as cb_deal_ctx, without its popcounts) */
    int seat = g->turn;
    cb_cards nh = g->hands[cb_situ_next(seat)];
    cb_ctx ctx;
    ctx.hand = cb_counts_of(g->hands[seat]);
    ctx.table = g->table_seat >= 0 ? &g->table : NULL;
    ctx.next_has_one = nh && !(nh & (nh - 1));
    ctx.first_play = g->first_play && r->game == CB_GAME_PDK && r->spade3_first &&
                     (g->hands[seat] & cb_card_bit(cb_card_id(CB_RANK_3, CB_SUIT_S)));
    int n = cb_legal_moves(r, &ctx, ro->moves, ro->cap);
    if (n > ro->cap) {
        if (grow(ro, n) != 0)
            return -1;
        n = cb_legal_moves(r, &ctx, ro->moves, ro->cap);
    }
    if (n <= 0)
        return -1;
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
    d.r = r;
    d.W = &ro->w[r->game == CB_GAME_DDZ ? 1 : 0];
    d.seat = seat;
    d.hand = ctx.hand;
    for (int o = 0; o < 3; o++)
        d.left[o] = ncards(g->hands[o]);
    d.hand_n = d.left[seat];
    d.table_seat = g->table_seat;
    d.table = g->table_seat >= 0 ? &g->table : NULL;
    d.pool = cb_counts_of(r->deck & ~g->hands[d.seat] & ~g->played);
    d.partner = -1;
    d.nopp = 0;
    int ll = g->landlord;
    for (int o = 0; o < 3; o++) {
        if (o == d.seat)
            continue;
        if (ll >= 0 && ll < 3 && o != ll && d.seat != ll)
            d.partner = o;
        else
            d.opp[d.nopp++] = o;
    }
    d.bomb_scale = r->game == CB_GAME_PDK ? r->bomb_points / 10.0 : 0.0;
    d.aaa = r->game == CB_GAME_PDK && r->aaa_bomb;
    d.ddz = r->game == CB_GAME_DDZ;
    for (int o = 0; o < 3; o++)
        d.dang[o] = danger(d.left[o]);
    int above = 0;
    for (int q = CB_NRANKS - 1; q >= 0; q--) {
        d.ctlw[q] = recip[above];
        above += cb_count(d.pool, q);
    }
    model_init(&d, g);
    d.partner_hold = 0;
    if (d.partner >= 0 && d.table_seat == d.partner) {
        /* the opponent between us has already passed on it unless the partner sits before me */
        d.partner_hold = 1;
        if (cb_situ_next(d.partner) == d.seat)
            for (int i = 0; i < d.nopp; i++)
                d.partner_hold *= 1 - seat_beat(&d, d.opp[i], d.table, true);
    }

    /* pre-score every play (the estimate needs mh0 only when not every play is scored exactly) */
    int mh0 = -1;
    bool all_exact = d.hand_n <= ro->exact_all_upto;
    int pass_idx = -1, nc = 0, lastkey = -1;
    float risk[3] = {0, 0, 0};
    cb_rollout_cand *cs = ro->cands;
    for (int i = 0; i < n; i++) {
        const cb_move *m = &mv[i];
        if (m->shape == CB_PASS) {
            pass_idx = i;
            continue;
        }
        int key = key_of(m);
        if (key != lastkey) {
            for (int j = 0; j < d.nopp; j++)
                risk[d.opp[j]] = seat_beat(&d, d.opp[j], m, true);
            lastkey = key;
        }
        cb_rollout_cand *c = &cs[nc++];
        c->idx = i;
        c->must = 0;
        score_base(&d, m, risk, c);
        c->pre = 0;
        if (!all_exact) {
            if (mh0 < 0)
                mh0 = cb_hws_min_hands(&ro->ws, r, d.hand);
            int est = mh0 - 1 + (frag(d.hand, m->counts) + 1) / 2;
            c->pre = (float)final_score(&d, c, est);
        }
    }

    /* which plays get an exact min-hands after: all (small hands), else the best pre-score of
     * each shape and length (the pre-score misjudges chains) and the exact_top best overall,
     * moved to the front */
    int top = nc, etop = ro->exact_top < 1 ? 1 : ro->exact_top;
    if (!all_exact && nc > etop) {
        top = 0;
        if (ro->class_best) {
            /* the classes met, each with its best so far (a list: a hand meets few) */
            int cls_q[CB_NSHAPES * 24], cls_j[CB_NSHAPES * 24], ncls = 0;
            for (int j = 0; j < nc; j++) {
                const cb_move *m = &mv[cs[j].idx];
                int q = m->shape * 24 + (m->len < 24 ? m->len : 23);
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
    /* Exact min-hands, best bound first. A play takes at most one play's worth off the hand
     * (mh1 >= mh0 - 1, and >= 1 as the whole hand was not a play) and a score only falls as
     * mh1 rises, so a play scored at that bound bounds its exact score: once no bound left can
     * beat the best exact score (or the pass's, which a tie with a play does not beat), the
     * rest cannot be chosen and their min-hands are not needed. */
    if (mh0 < 0)
        mh0 = cb_hws_min_hands(&ro->ws, r, d.hand);
    int lb = mh0 - 1 < 1 ? 1 : mh0 - 1;
    double pass_sc = pass_idx >= 0 ? pass_score(d.W, mh0, d.table_seat, d.partner, d.left, d.partner_hold) : -1e18;
    for (int a = 0; a < top; a++)
        cs[a].ub = final_score(&d, &cs[a], lb);
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
        int mh1 = cb_hws_min_hands(&ro->ws, r, d.hand - mv[c->idx].counts);
        double sc = final_score(&d, c, mh1);
        if (sc > best_sc) {
            best_sc = sc;
            best = c->idx;
        }
    }
    if (pass_idx >= 0 && (best < 0 || pass_sc > best_sc))
        best = pass_idx;
    if (best < 0)
        return -1;
    *out = mv[best];
    return 0;
}

int cb_rollout_deal_policy(void *user, const cb_deal *g, cb_move *out)
{
    return cb_rollout_choose(user, g, out);
}

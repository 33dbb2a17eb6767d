/* cardbot plugins — the heuristic play policy (see policy.h for the terms). */
#include "policy.h"
#include "score_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- configuration ---- */

/* Tuned by self-play (duplicate deals, level 6 variants against each other). */
static const cb_hweights weights_pdk = {
    .lead = 0.4, .keep = 0.9, .rank = 0.6, .shed = 0.3, .bomb = 0.2, .bombpts = 3.0,
    .threat = 0.25, .coop = 1.0, .feed = 1.0, .end = 5.0,
};
static const cb_hweights weights_ddz = {
    .lead = 0.3, .keep = 0.75, .rank = 0.45, .shed = 0.05, .bomb = 1.5, .bombpts = 0.0,
    .threat = 1.5, .coop = 1.5, .feed = 1.0, .end = 5.0,
};

static void weights(cb_hcfg *c)
{
    c->w[0] = weights_pdk;
    c->w[1] = weights_ddz;
}

void cb_hcfg_level(cb_hcfg *c, int level)
{
    /* level: counting team endgame layouts exact_top temperature blunder loss_cap */
    static const struct {
        bool counting, team, endgame;
        int layouts, exact_top;
        double temp, blunder, cap;
    } tab[6] = {
        {false, false, false, 1, 3, 0.60, 0.15, 1.6},
        {false, false, false, 2, 4, 0.45, 0.10, 1.3},
        {false, true, false, 3, 6, 0.30, 0.06, 1.0},
        {true, true, false, 6, 12, 0.20, 0.03, 0.8},
        {true, true, true, 0, 16, 0.12, 0.02, 0.6},
        {true, true, true, 0, CB_HCFG_EXACT_L6, 0.00, 0.00, 0.0},
    };
    if (level < 1)
        level = 1;
    if (level > 6)
        level = 6;
    memset(c, 0, sizeof *c);
    c->level = level;
    c->counting = tab[level - 1].counting;
    c->team = tab[level - 1].team;
    c->endgame = tab[level - 1].endgame;
    c->kick_layouts = tab[level - 1].layouts;
    c->exact_top = tab[level - 1].exact_top;
    c->temperature = tab[level - 1].temp;
    c->blunder = tab[level - 1].blunder;
    c->loss_cap = tab[level - 1].cap;
    c->exact_all_upto = level >= 4 ? 10 : 6;
    c->explain = true;
    weights(c);
}

void cb_hcfg_rollout(cb_hcfg *c)
{
    cb_hcfg_level(c, 6);
    c->exact_top = 4;
    c->exact_all_upto = 8;
    c->explain = false;
}

/* ---- workspace ---- */

int cb_hws_init(cb_hws *ws)
{
    memset(ws, 0, sizeof *ws);
    ws->cap = 512;
    ws->moves = malloc((size_t)ws->cap * sizeof *ws->moves);
    ws->cands = malloc((size_t)ws->cap * sizeof *ws->cands);
    if (!ws->moves || !ws->cands) {
        cb_hws_free(ws);
        return -1;
    }
    return 0;
}

void cb_hws_free(cb_hws *ws)
{
    free(ws->moves);
    free(ws->cands);
    ws->moves = NULL;
    ws->cands = NULL;
    ws->cap = 0;
}

static int hws_grow(cb_hws *ws, int need)
{
    if (need <= ws->cap)
        return 0;
    int cap = ws->cap ? ws->cap : 512;
    while (cap < need)
        cap *= 2;
    cb_move *m = realloc(ws->moves, (size_t)cap * sizeof *m);
    if (!m)
        return -1;
    ws->moves = m;
    cb_hcand *c = realloc(ws->cands, (size_t)cap * sizeof *c);
    if (!c)
        return -1;
    ws->cands = c;
    ws->cap = cap;
    return 0;
}

int cb_hws_min_hands(cb_hws *ws, const cb_rules *r, cb_counts hand)
{
    if (ws->mh_rules != r) {
        /* keys are rank counts; an all-ones word is no hand of any deck */
        memset(ws->mh_key, 0xFF, sizeof ws->mh_key);
        ws->mh_rules = r;
    }
    ws->mh_calls++;
    uint64_t h = hand * CB_GOLDEN64; /* Fibonacci hashing: the top bits index the cache */
    unsigned i = (unsigned)(h >> 53) & (CB_MH_CACHE - 1);
    if (ws->mh_key[i] == hand) {
        ws->mh_hits++;
        return ws->mh_val[i];
    }
    int v = cb_min_hands(r, hand);
    ws->mh_key[i] = hand;
    ws->mh_val[i] = (int8_t)v;
    return v;
}

/* ---- evaluation context of one decision ---- */

typedef struct ev {
    const cb_hcfg *cfg;
    const cb_hweights *w;
    const cb_situ *s;
    const cb_rules *r;
    cb_counts pool;
    int opp[2], nopp;
    int partner;
    int hand_n;
    int mh0;
    bool leading;
    /* Holding model: P(seat o holds >= t cards of rank r) for the other seats, as
     *   0                          for r outside nz[o][t],
     *   1                          for r in sure[o][t] (a pass proved the other seat lacks r),
     *   memo[o][kn][k][t]          else: binom_tails(f[o])[k][t - kn] (score_int.h) with k the rank's cards in
     *                              fr (out and not known anywhere), kn those of known[o].
     * nz is exactly where the value is not 0, so the products below skip factors (1 - 0),
     * which are exactly 1. The binomials depend on the rank only through (kn, k): a handful
     * per seat instead of one per rank. */
    cb_counts fr;
    cb_counts known[3];
    double f[3];
    float memo[3][5][5][5];
    uint32_t memo_ok[3];         /* [o]: bit 5 kn + k computed */
    uint16_t nz[3][5], sure[3][5];
    float nob_all[3];            /* [seat]: the bomb product of seat_beat over every rank 3..2 */
    uint8_t nob_ok[3];           /* ... computed (lazily: most decisions never need it) */
    score_ctx sk;                /* what the shared score terms read (score_int.h): control
                                    weights (1: nothing above), danger per seat, bomb scale */
    float partner_hold;          /* the table is the partner's: chance it wins if I pass */
} ev;

static inline int clamp4(int x) { return x > 4 ? 4 : x; }

/* The tails of (kn, k) for seat o, computed on first use. */
__attribute__((always_inline)) static inline const float *tails_of(ev *e, int o, int kn, int k)
{
    uint32_t bit = 1u << (kn * 5 + k);
    if (!(e->memo_ok[o] & bit)) {
        /* kn cards known: the tails of the k free ones, shifted (memo[o][0] is the seat's
         * binom_tails table, set by ev_init) */
        for (int t = 0; t <= 4; t++)
            e->memo[o][kn][k][t] = t <= kn ? 1.0f : e->memo[o][0][k][t - kn];
        e->memo_ok[o] |= bit;
    }
    return e->memo[o][kn][k];
}

/* The tails of every k for kn = 0 and the share num / den (f as ev_init computes it), through
 * the workspace's cache: a seat's share takes few values over a game, and the same values
 * give the same floats. */
static const float (*share_tails(cb_hws *ws, int num, int den, double f))[5]
{
    unsigned key = den > 0 ? (unsigned)(num < 0 ? 0 : num > den ? den : num) << 8 | (unsigned)den : 0;
    key += 1; /* 0: an empty slot */
    unsigned i = (key * 0x9E3779B1u >> 16) & (CB_BT_CACHE - 1);
    if (ws->bt_key[i] != key) {
        binom_tails(f, ws->bt_val[i]);
        ws->bt_key[i] = key;
    }
    return (const float (*)[5])ws->bt_val[i];
}

/* P(seat o holds >= t cards of rank q), t >= 1 */
static inline float tail(const ev *e, int o, int t, int q)
{
    if (!(e->nz[o][t] >> q & 1u))
        return 0.0f;
    if (e->sure[o][t] >> q & 1u)
        return 1.0f;
    return e->memo[o][clamp4(cb_count(e->known[o], q))][clamp4(cb_count(e->fr, q))][t];
}

static float seat_beat(ev *e, int o, const cb_move *m, bool with_bombs);

static void ev_init(ev *e, const cb_hcfg *cfg, const cb_situ *s, cb_hws *ws)
{
    /* every field that is read is set here (no memset of the whole struct: the memo is filled
     * on use) */
    e->cfg = cfg;
    e->w = &cfg->w[s->rules->game == CB_GAME_DDZ ? 1 : 0];
    e->s = s;
    e->r = s->rules;
    e->pool = cfg->counting ? s->out : s->unseen;
    e->nopp = 0;
    e->opp[0] = e->opp[1] = 0;
    e->partner = -1;
    e->mh0 = 0;
    e->leading = s->table_seat < 0;
    e->hand_n = cb_counts_total(s->hand);
    e->partner_hold = 0;
    memset(e->nz, 0, sizeof e->nz);
    memset(e->sure, 0, sizeof e->sure);
    memset(e->memo_ok, 0, sizeof e->memo_ok);
    memset(e->nob_ok, 0, sizeof e->nob_ok);
    for (int o = 0; o < 3; o++) {
        if (o == s->seat)
            continue;
        if (cfg->team && cb_situ_partner(s, o))
            e->partner = o;
        else
            e->opp[e->nopp++] = o;
    }
    /* Holding probabilities: pool cards not known to be somewhere are spread over the other
     * seats in proportion to their unknown cards. */
    cb_counts known_all = 0;
    int nknown[3] = {0, 0, 0};
    for (int o = 0; o < 3; o++) {
        e->known[o] = cfg->counting ? s->known[o] : 0;
        known_all += e->known[o];
        nknown[o] = cb_counts_total(e->known[o]);
    }
    int free_pool = cb_counts_total(e->pool) - cb_counts_total(known_all);
    e->fr = e->pool - known_all; /* known cards are in the pool: no nibble borrows */
    unsigned ge[6];
    ranks_ge(e->fr, ge);
    for (int o = 0; o < 3; o++) {
        if (o == s->seat)
            continue;
        double f = free_pool > 0 ? (double)(s->cards_left[o] - nknown[o]) / free_pool : 0;
        if (f < 0)
            f = 0;
        if (f > 1)
            f = 1;
        e->f[o] = f;
        /* kn = 0: the workspace's tails of this share */
        const float (*st)[5] = share_tails(ws, s->cards_left[o] - nknown[o], free_pool, f);
        memcpy(e->memo[o][0], st, sizeof e->memo[o][0]);
        e->memo_ok[o] = 0x1Fu;
        /* nz: the ranks whose tail is not 0, by groups of ranks with the same (kn, k) */
        unsigned kmask = e->known[o] ? gather(e->known[o] | e->known[o] >> 1 | e->known[o] >> 2) : 0;
        for (int k = 0; k <= 4; k++) {
            unsigned ranks = ge[k] & ~ge[k + 1] & ~kmask;
            if (!ranks)
                continue;
            const float *tl = tails_of(e, o, 0, k);
            for (int t = 1; t <= 4; t++)
                if (tl[t] != 0)
                    e->nz[o][t] |= (uint16_t)ranks;
        }
        for (unsigned m = kmask; m; m &= m - 1) {
            int q = __builtin_ctz(m);
            const float *tl = tails_of(e, o, clamp4(cb_count(e->known[o], q)), clamp4(cb_count(e->fr, q)));
            for (int t = 1; t <= 4; t++)
                if (tl[t] != 0)
                    e->nz[o][t] |= (uint16_t)(1u << q);
        }
    }
    if (cfg->counting)
        holding_apply_voids(e->nz, e->sure, &s->voids, s->seat, e->r, e->pool);
    /* Control weight of a rank as a single: 1 / (1 + pool cards above it). */
    int above = 0;
    for (int r = CB_NRANKS - 1; r >= 0; r--) {
        e->sk.ctlw[r] = 1.0f / (1.0f + (float)above);
        above += cb_count(e->pool, r);
    }
    e->sk.bomb_scale = e->r->game == CB_GAME_PDK ? e->r->bomb_points / 10.0 : 0.0;
    for (int o = 0; o < 3; o++)
        e->sk.dang[o] = danger(s->cards_left[o]);
    e->sk.W = e->w;
    e->sk.opp[0] = e->opp[0];
    e->sk.opp[1] = e->opp[1];
    e->sk.nopp = e->nopp;
    e->sk.base_rank = e->leading ? 0 : s->table.main;
    if (e->partner >= 0 && s->table_seat == e->partner) {
        /* When the partner is not the seat before me, the opponent between us has already
         * passed on the play: if I pass too, it wins. Otherwise the opponent after me acts. */
        e->partner_hold = 1;
        if (cb_situ_next(e->partner) == s->seat)
            for (int i = 0; i < e->nopp; i++)
                e->partner_hold *= 1 - seat_beat(e, e->opp[i], &s->table, true);
    }
}

/* prod over the ranks of mask, ascending, of (1 - P(o holds >= t of the rank)), from 1; the
 * ranks outside nz[o][t] (factor exactly 1) are already left out of mask */
static inline float none_of(const ev *e, int o, int t, unsigned mask)
{
    float none = 1;
    if (!e->known[o] && !e->sure[o][t]) {
        const float *tk = &e->memo[o][0][0][t]; /* memo[o][0][k][t] = tk[5 * k] */
        for (; mask; mask &= mask - 1)
            none *= 1 - tk[5 * clamp4(cb_count(e->fr, __builtin_ctz(mask)))];
    } else {
        for (; mask; mask &= mask - 1)
            none *= 1 - tail(e, o, t, __builtin_ctz(mask));
    }
    return none;
}

/* beat_chance's primitives over ev: ascending products per query; the product over every
 * bomb rank (lo = 0) is kept per seat, as most decisions ask it for several plays */
static float ev_none_above(void *hm, int o, int t, int lo, int last)
{
    ev *e = hm;
    unsigned mask = e->nz[o][t] & rank_span(lo, last);
    if (t != 4 || lo != 0)
        return none_of(e, o, t, mask);
    if (!e->nob_ok[o]) {
        e->nob_all[o] = none_of(e, o, 4, mask);
        e->nob_ok[o] = 1;
    }
    return e->nob_all[o];
}
static float ev_tail(const void *hm, int o, int t, int q) { return tail(hm, o, t, q); }

/* Chance that seat o beats m (score_int.h's beat_chance over this model). */
static float seat_beat(ev *e, int o, const cb_move *m, bool with_bombs)
{
    const cb_rules *r = e->r;
    return beat_chance(e, ev_none_above, ev_tail, (const uint16_t (*)[5])e->nz, o, e->s->cards_left[o],
                       r->game == CB_GAME_PDK && r->aaa_bomb, r->game == CB_GAME_DDZ, m, with_bombs);
}

typedef struct terms {
    double score;
    float risk;
    uint32_t flags;
} terms;

/* Score of a play (not a pass) given mh1 = min-hands after (exact or estimated): score_int.h's
 * terms, which rollout.c's play-outs use too, plus the endgame bonus. */
static void score_play(ev *e, const cb_move *m, int mh1, float risk_opp[3], terms *out)
{
    const cb_hcfg *c = e->cfg;
    const cb_hweights *W = e->w;
    const cb_situ *s = e->s;
    uint32_t flags = 0;
    float hold = hold_of(risk_opp, e->opp, e->nopp);
    bool bomb = cb_move_is_bomb(m);
    double penalty = 0;
    if (bomb) {
        flags |= CB_DEC_BOMB;
        bool wins = mh1 <= 1 && hold > 0.9f;
        if (!wins && !bomb_stops(s->table_seat, e->partner, s->cards_left, e->opp, e->nopp))
            penalty = W->bomb;
    }
    double sc = play_terms(&e->sk, -mh1, m, hold, bomb, penalty, risk_opp);
    if (e->partner >= 0) {
        int p = e->partner;
        sc = coop_term(W, sc, p, s->table_seat, e->partner_hold);
        if (feeds(p, s->table_seat, s->cards_left, m))
            sc = feed_term(W, sc, seat_beat(e, p, m, false), s->seat, p, s->cards_left[p]);
    }
    if (c->endgame && mh1 <= 1 && hold > 0.999f) {
        sc += W->end;
        flags |= CB_DEC_ENDGAME;
    }
    out->score = sc;
    out->risk = 1 - hold;
    out->flags = flags;
}

static double score_pass(const ev *e)
{
    return pass_score(e->w, e->mh0, e->s->table_seat, e->partner, e->s->cards_left, e->partner_hold);
}

/* ---- choice ---- */

static void fill_choice(cb_hchoice *out, const cb_move *m, double score, double best, int mh0,
                        int mh1, uint32_t flags)
{
    out->move = *m;
    out->score = (float)score;
    out->best_score = (float)best;
    out->mh_before = mh0;
    out->mh_after = mh1;
    out->flags = flags;
}

/* crude win estimate: my plays left against the opponents' cards */
static float value_of(const ev *e, int mh1, float hold)
{
    double opp = 99;
    for (int i = 0; i < e->nopp; i++) {
        double p = e->s->cards_left[e->opp[i]] / 2.5;
        if (p < opp)
            opp = p;
    }
    if (e->nopp == 0)
        opp = 3;
    double x = 0.9 * (opp - mh1) + 0.8 * hold;
    return (float)(1.0 / (1.0 + exp(-x)));
}

/* Forced (usually a pass that must_beat leaves): no scoring, an explanation at most. */
static void answer_forced(const cb_hcfg *cfg, const cb_situ *s, cb_hws *ws, cb_hchoice *out)
{
    const cb_rules *r = s->rules;
    const cb_move *m = &ws->moves[0];
    fill_choice(out, m, 0, 0, -1, -1, cb_move_is_bomb(m) ? CB_DEC_BOMB : 0);
    out->nexact = 0;
    if (cfg->explain) {
        ev e; /* value_of reads only s and the opponents */
        e.s = s;
        e.nopp = 0;
        for (int o = 0; o < 3; o++)
            if (o != s->seat && !(cfg->team && cb_situ_partner(s, o)))
                e.opp[e.nopp++] = o;
        out->mh_before = cb_hws_min_hands(ws, r, s->hand);
        out->mh_after = m->shape == CB_PASS ? out->mh_before : cb_hws_min_hands(ws, r, s->hand - m->counts);
        out->value = value_of(&e, out->mh_after, m->shape == CB_PASS ? 0.0f : 0.5f);
        snprintf(out->why, sizeof out->why, "only %s", m->shape == CB_PASS ? "pass" : "play");
    }
}

/* A play's pre-score terms: the opponents' chances to beat it (lastrisk, computed again only when
 * its key differs from *lastkey, the last play's: plays alike share them) and min-hands after
 * estimated from the groups it splits (a loose card may be left behind) */
static void pre_terms(ev *e, const cb_situ *s, const cb_move *m, int *lastkey, float lastrisk[3], terms *t)
{
    int key = key_of(m);
    if (key != *lastkey) {
        for (int j = 0; j < e->nopp; j++)
            lastrisk[e->opp[j]] = seat_beat(e, e->opp[j], m, true);
        *lastkey = key;
    }
    int est = e->mh0 - 1 + (frag(s->hand, m->counts) + 1) / 2;
    score_play(e, m, est, lastrisk, t);
}

/* Pre-score every legal play (min-hands after estimated from the groups it splits; plays alike
 * share the opponents' chances to beat them) into ws->cands; the pass is left out and its index
 * written to *pass_idx (-1: none). Returns the candidates. */
static int prescore(ev *e, const cb_hcfg *cfg, const cb_situ *s, cb_hws *ws, int n, int *pass_idx)
{
    *pass_idx = -1;
    int lastkey = -1;
    float lastrisk[3] = {0, 0, 0};
    uint8_t seen[2048];
    if (cfg->kick_layouts > 0)
        memset(seen, 0, sizeof seen);
    int nc = 0;
    for (int i = 0; i < n; i++) {
        const cb_move *m = &ws->moves[i];
        if (m->shape == CB_PASS) {
            *pass_idx = i;
            continue;
        }
        int key = key_of(m);
        if (cfg->kick_layouts > 0 && m->kick) {
            unsigned slot = (unsigned)key & 2047u;
            if (seen[slot] >= cfg->kick_layouts)
                continue;
            seen[slot]++;
        }
        terms t;
        pre_terms(e, s, m, &lastkey, lastrisk, &t);
        cb_hcand *c = &ws->cands[nc++];
        c->idx = i;
        c->pre = (float)t.score;
        c->score = (float)t.score;
        c->risk = t.risk;
        c->orisk[0] = lastrisk[0];
        c->orisk[1] = lastrisk[1];
        c->orisk[2] = lastrisk[2];
        c->mh = -1;
        c->exact = 0;
    }
    return nc;
}

/* The partial selection sort of cb_hcand_select_pre, step by step (short lists) */
static void select_plain(cb_hcand *c, int from, int n, int k)
{
    for (int j = from; j < from + k; j++) {
        int b = j;
        for (int i = j + 1; i < n; i++)
            if (c[i].pre > c[b].pre)
                b = i;
        cb_hcand tmp = c[b];
        c[b] = c[j];
        c[j] = tmp;
    }
}

/* A chosen play's rank in the selection: higher pre first, then the lower position */
typedef struct sel_key {
    float pre;
    int pos;
} sel_key;

static bool sel_before(sel_key a, sel_key b)
{
    return a.pre > b.pre || (a.pre == b.pre && a.pos < b.pos);
}

void cb_hcand_select_pre(cb_hcand *c, int from, int n, int k)
{
    enum { KMAX = 64, LMAX = 256 };
    if (k <= 2 || k > KMAX || n - from <= k + 8) {
        select_plain(c, from, n, k);
        return;
    }
    /* the k-th best pre: a min-heap of the k best so far */
    float h[KMAX] = {0};
    int nh = 0;
    for (int i = from; i < n; i++) {
        float x = c[i].pre;
        if (nh < k) { /* sift up */
            int j = nh++;
            while (j > 0 && h[(j - 1) / 2] > x) {
                h[j] = h[(j - 1) / 2];
                j = (j - 1) / 2;
            }
            h[j] = x;
        } else if (x > h[0]) { /* replace the least, sift down */
            int j = 0;
            for (;;) {
                int l = 2 * j + 1, m = l;
                if (l >= k)
                    break;
                if (l + 1 < k && h[l + 1] < h[l])
                    m = l + 1;
                if (h[m] >= x)
                    break;
                h[j] = h[m];
                j = m;
            }
            h[j] = x;
        }
    }
    float theta = h[0];
    /* the plays that can be chosen, in the order the selection takes them while none moves */
    sel_key L[LMAX];
    int m = 0;
    for (int i = from; i < n; i++)
        if (c[i].pre >= theta) {
            if (m == LMAX) { /* a long tie at the bar: the plain steps */
                select_plain(c, from, n, k);
                return;
            }
            sel_key x = {c[i].pre, i};
            int j = m++;
            while (j > 0 && sel_before(x, L[j - 1])) {
                L[j] = L[j - 1];
                j--;
            }
            L[j] = x;
        }
    for (int s = 0; s < k; s++) {
        int j = from + s, b = L[s].pos;
        if (b == j)
            continue;
        cb_hcand tmp = c[b];
        c[b] = c[j];
        c[j] = tmp;
        /* the play that stood at j (the lowest position left) now stands at b: when it is one
         * of L's, it sits first among its equals and moves behind those now before it */
        if (c[b].pre < theta)
            continue;
        int t = s + 1;
        while (L[t].pos != j)
            t++;
        sel_key x = {c[b].pre, b};
        while (t + 1 < m && sel_before(L[t + 1], x)) {
            L[t] = L[t + 1];
            t++;
        }
        L[t] = x;
    }
}

/* Which candidates get an exact min-hands: all of them for small hands (cheap there), else the
 * best pre-score of every shape and length (the pre-score misjudges chains) plus the exact_top
 * best pre-scores overall, moved to the front. Returns how many. */
static int pick_exact(const ev *e, const cb_hcfg *cfg, cb_hws *ws, int nc)
{
    int top = nc;
    if (cfg->exact_top > 0 && e->hand_n > cfg->exact_all_upto && nc > cfg->exact_top) {
        /* best pre-score per class (shape, len): the classes seen are few, so a short list
         * of them rather than a table of every class */
        int cls_j[CB_NSHAPES * 24], ncls = 0;
        int16_t cls_at[CB_NSHAPES * 24]; /* score_class_of -> its slot in the list, or -1 */
        memset(cls_at, 0xFF, sizeof cls_at);
        for (int j = 0; j < nc; j++) {
            const cb_move *m = &ws->moves[ws->cands[j].idx];
            int q = score_class_of(m);
            int a = cls_at[q];
            if (a < 0) {
                cls_at[q] = (int16_t)ncls;
                cls_j[ncls++] = j;
            } else if (ws->cands[j].pre > ws->cands[cls_j[a]].pre) {
                cls_j[a] = j;
            }
            ws->cands[j].exact = 0;
        }
        for (int a = 0; a < ncls; a++)
            ws->cands[cls_j[a]].exact = 1;
        /* move the chosen to the front: class bests, then the best pre-scores of the rest */
        top = 0;
        for (int j = 0; j < nc; j++)
            if (ws->cands[j].exact) {
                cb_hcand tmp = ws->cands[j];
                ws->cands[j] = ws->cands[top];
                ws->cands[top++] = tmp;
            }
        int want = top + cfg->exact_top;
        if (want > nc)
            want = nc;
        cb_hcand_select_pre(ws->cands, top, nc, want - top);
        top = want;
    }
    return top;
}

/* The most candidate c (play m) can score at its exact min-hands after: mh(hand - m) >= mh0 - 1
 * (m and a decomposition of the rest decompose the hand), and the score falls as mh1 grows
 * except at mh1 <= 1 (bomb penalty, endgame bonus), so its largest over mh0 - 1 .. max(mh0 - 1,
 * 2) bounds every exact one. t gets the last terms scored. */
static double score_bound(ev *e, const cb_move *m, cb_hcand *c, terms *t)
{
    int lo = e->mh0 > 0 ? e->mh0 - 1 : 0;
    double ub = -1e18;
    for (int k = lo; k <= (lo > 2 ? lo : 2); k++) {
        score_play(e, m, k, c->orisk, t);
        if (t->score > ub)
            ub = t->score;
    }
    return ub;
}

/* Score the first *top candidates with their exact min-hands after, then the pass as one more
 * exact candidate (*top grows by one). Returns the best's index (-1: none), its score and flags. */
static int score_exact(ev *e, const cb_situ *s, cb_hws *ws, int *top_io, int pass_idx, double *best_sc,
                       uint32_t *best_flags)
{
    const cb_rules *r = s->rules;
    int top = *top_io;
    int best = -1;
    *best_sc = -1e18;
    *best_flags = 0;
    for (int a = 0; a < top; a++) {
        cb_hcand *c = &ws->cands[a];
        const cb_move *m = &ws->moves[c->idx];
        terms t;
        int mh1 = cb_hws_min_hands(ws, r, s->hand - m->counts);
        score_play(e, m, mh1, c->orisk, &t);
        c->score = (float)t.score;
        c->mh = (int8_t)mh1;
        c->exact = 1;
        c->risk = t.risk;
        if (t.score > *best_sc) { /* ties keep the first */
            *best_sc = t.score;
            best = a;
            *best_flags = t.flags;
        }
    }
    /* the pass joins as one more exact candidate */
    if (pass_idx >= 0) {
        cb_hcand *c = &ws->cands[top];
        c->idx = pass_idx;
        c->score = (float)score_pass(e);
        c->pre = c->score;
        c->mh = (int8_t)e->mh0;
        c->exact = 1;
        c->risk = 0;
        if (c->score > *best_sc) {
            *best_sc = c->score;
            best = top;
            *best_flags = 0;
        }
        top++;
    }
    *top_io = top;
    return best;
}

/* Weaker levels: sample within the loss cap (blunder: uniform; else softmax at the level's
 * temperature). Level 6 (neither) keeps the best. */
static int sample_pick(const cb_hcfg *cfg, const cb_hws *ws, int top, int best, double best_sc, cb_rng *rng)
{
    int pick = best;
    if (top > 1 && (cfg->blunder > 0 || cfg->temperature > 0) && rng) {
        double floor_sc = best_sc - cfg->loss_cap;
        int ok = 0;
        for (int a = 0; a < top; a++)
            if (ws->cands[a].score >= floor_sc)
                ok++;
        if (ok > 1) {
            if (cfg->blunder > 0 && cb_rng_unit(rng) < cfg->blunder) {
                int want = (int)cb_rng_below(rng, (uint32_t)ok);
                for (int a = 0; a < top; a++)
                    if (ws->cands[a].score >= floor_sc && want-- == 0) {
                        pick = a;
                        break;
                    }
            } else if (cfg->temperature > 0) {
                double tot = 0;
                for (int a = 0; a < top; a++)
                    if (ws->cands[a].score >= floor_sc)
                        tot += exp((ws->cands[a].score - best_sc) / cfg->temperature);
                double u = cb_rng_unit(rng) * tot;
                for (int a = 0; a < top; a++) {
                    if (ws->cands[a].score < floor_sc)
                        continue;
                    u -= exp((ws->cands[a].score - best_sc) / cfg->temperature);
                    if (u <= 0) {
                        pick = a;
                        break;
                    }
                }
            }
        }
    }
    return pick;
}

/* The evaluation of s: the holding model and min-hands before */
static void ev_setup(ev *e, const cb_hcfg *cfg, const cb_situ *s, cb_hws *ws)
{
    ev_init(e, cfg, s, ws);
    e->mh0 = cb_hws_min_hands(ws, s->rules, s->hand);
}

/* The evaluation of s (e) and its candidates among the n legal plays in ws->moves: every play
 * pre-scored, the ones to score exactly moved to the front (their count returned), the pass's
 * index in *pass_idx (-1: none) */
static int candidates(ev *e, const cb_hcfg *cfg, const cb_situ *s, cb_hws *ws, int n, int *pass_idx)
{
    ev_setup(e, cfg, s, ws);
    int nc = prescore(e, cfg, s, ws, n, pass_idx);
    return pick_exact(e, cfg, ws, nc);
}

/* The legal plays into ws->moves (grown to hold them all); their count, -1 out of memory */
static int legal_plays(const cb_rules *r, const cb_ctx *ctx, cb_hws *ws)
{
    int n = cb_legal_moves(r, ctx, ws->moves, ws->cap);
    if (n > ws->cap) {
        if (hws_grow(ws, n) != 0)
            return -1;
        n = cb_legal_moves(r, ctx, ws->moves, ws->cap);
    }
    return n;
}

int cb_heur_choose(const cb_hcfg *cfg, const cb_situ *s, cb_hws *ws, cb_rng *rng, cb_hchoice *out)
{
    const cb_rules *r = s->rules;
    memset(out, 0, sizeof *out);
    out->mh_before = out->mh_after = -1;
    out->value = NAN;
    cb_ctx ctx;
    cb_situ_ctx(s, &ctx);

    /* the whole hand in one play: always (only a hand of min-hands 1 can go in one play; the
     * exact min-hands is cached and needed below anyway, and it spares the failing check) */
    cb_move whole;
    if (cb_hws_min_hands(ws, r, s->hand) == 1 && cb_play_legal(r, &ctx, s->hand, &whole, NULL, 0)) {
        fill_choice(out, &whole, 1e6, 1e6, 1, 0, cb_move_is_bomb(&whole) ? CB_DEC_BOMB : 0);
        out->flags |= CB_DEC_ENDGAME;
        out->value = 1.0f;
        out->nmoves = -1;
        snprintf(out->why, sizeof out->why, "out in one play");
        return 0;
    }

    int n = legal_plays(r, &ctx, ws);
    if (n <= 0)
        return -1;
    out->nmoves = n;
    if (n == 1) {
        answer_forced(cfg, s, ws, out);
        return 0;
    }

    ev e;
    int pass_idx;
    int top = candidates(&e, cfg, s, ws, n, &pass_idx);
    double best_sc;
    uint32_t best_flags;
    int best = score_exact(&e, s, ws, &top, pass_idx, &best_sc, &best_flags);
    out->nexact = top;
    if (best < 0)
        return -1;
    int pick = sample_pick(cfg, ws, top, best, best_sc, rng);
    const cb_hcand *pc = &ws->cands[pick];
    const cb_move *pm = &ws->moves[pc->idx];
    uint32_t flags = 0;
    if (pick == best) {
        flags = best_flags;
    } else {
        flags = CB_DEC_SUBOPTIMAL | (cb_move_is_bomb(pm) ? CB_DEC_BOMB : 0);
    }
    if (cfg->counting)
        flags |= CB_DEC_COUNTED;
    fill_choice(out, pm, pc->score, best_sc, e.mh0, pc->mh, flags);
    out->value = value_of(&e, pc->mh, 1 - pc->risk);
    if (!cfg->explain)
        return 0;
    if (pm->shape == CB_PASS)
        snprintf(out->why, sizeof out->why, "pass (score %.2f, best %.2f)", pc->score, best_sc);
    else
        snprintf(out->why, sizeof out->why, "%s: plays %d->%d, beaten %.0f%%, score %.2f%s",
                 cb_shape_names[pm->shape], e.mh0, pc->mh, 100.0 * pc->risk, pc->score,
                 pick == best ? "" : " (weak pick)");
    return 0;
}

/* score_exact's choice asked the other way round (cb_heur_explains): is the best of the top
 * exact candidates and the pass — the highest exact score, then the lowest index; the pass only
 * above every play — one whose counts are played (0: the pass)? */
static int explains_exact(ev *e, const cb_situ *s, cb_hws *ws, int top, int pass_idx, cb_counts played)
{
    const cb_rules *r = s->rules;
    terms t;
    /* the bar: the played counts' best candidate (score, index), or the pass after them all —
     * at its score as score_exact keeps it, a float */
    double bar = -1e18;
    int at = -1;
    if (played == 0) {
        if (pass_idx < 0)
            return 0;
        bar = (float)score_pass(e);
        at = top;
    } else {
        for (int a = 0; a < top; a++) {
            const cb_move *m = &ws->moves[ws->cands[a].idx];
            if (m->counts != played)
                continue;
            score_play(e, m, cb_hws_min_hands(ws, r, s->hand - m->counts), ws->cands[a].orisk, &t);
            if (at < 0 || t.score > bar) { /* candidates visited by index: ties keep the first */
                bar = t.score;
                at = a;
            }
        }
        if (at < 0)
            return 0; /* not among the candidates scored exactly: never chosen */
    }
    /* any other play that beats the bar answers no; bounds spare the exact min-hands */
    for (int a = 0; a < top; a++) {
        cb_hcand *c = &ws->cands[a];
        const cb_move *m = &ws->moves[c->idx];
        if (a == at || (played != 0 && m->counts == played))
            continue;
        double ub = score_bound(e, m, c, &t);
        if (ub < bar || (ub == bar && a > at))
            continue;
        ws->exact_checked++;
        score_play(e, m, cb_hws_min_hands(ws, r, s->hand - m->counts), c->orisk, &t);
        if (t.score > bar || (t.score == bar && a < at))
            return 0;
    }
    return played != 0 && pass_idx >= 0 && (float)score_pass(e) > bar ? 0 : 1;
}

/* explains' shortcut where pick_exact selects (many plays): a play that is the best pre-score
 * of its class (shape, length) is always among the exactly scored candidates, so one whose
 * exact score passes every play of the played counts proves the answer no — whether or not
 * the played play made the selection. The classes are pre-scored one at a time, the hint's
 * first and then the smallest, so that a no costs a few classes' pre-scores instead of every
 * play's and the selection. Returns true for a proven no (*hint: the play that proved it);
 * false when unproven (ties, or no class best passes in the classes tried), and the caller
 * asks in full. e is set up as candidates() sets it. */
static bool no_by_class_best(ev *e, const cb_situ *s, cb_hws *ws, int n, cb_counts played, cb_counts *hint)
{
    enum { NCLS = 64 };
    const cb_rules *r = s->rules;
    /* the bar: the best exact score of the plays with the played counts (pass: not asked) */
    double bar = -1e18;
    bool found = false;
    for (int i = 0; i < n; i++) {
        const cb_move *m = &ws->moves[i];
        if (m->shape == CB_PASS || m->counts != played)
            continue;
        float rk[3] = {0, 0, 0};
        for (int j = 0; j < e->nopp; j++)
            rk[e->opp[j]] = seat_beat(e, e->opp[j], m, true);
        terms t;
        score_play(e, m, cb_hws_min_hands(ws, r, s->hand - m->counts), rk, &t);
        if (!found || t.score > bar)
            bar = t.score;
        found = true;
    }
    if (!found)
        return false; /* not a legal play: the full answer (no) is cheap to reach anyway */
    /* the classes, their sizes and, per play, its class */
    int cls_q[NCLS], cls_n[NCLS], ncls = 0;
    int8_t *cid = (int8_t *)ws->cands; /* scratch: the cands are rewritten by the full path */
    int hint_cls = -1;
    for (int i = 0; i < n; i++) {
        const cb_move *m = &ws->moves[i];
        cid[i] = -1;
        if (m->shape == CB_PASS)
            continue;
        int q = score_class_of(m), k = 0;
        while (k < ncls && cls_q[k] != q)
            k++;
        if (k == ncls) {
            if (ncls == NCLS)
                return false;
            cls_q[ncls] = q;
            cls_n[ncls++] = 0;
        }
        cls_n[k]++;
        cid[i] = (int8_t)k;
        if (hint && *hint && m->counts == *hint)
            hint_cls = k;
    }
    /* the order: the hint's class, then by size */
    int order[NCLS], no = 0;
    if (hint_cls >= 0)
        order[no++] = hint_cls;
    for (int k = 0; k < ncls; k++)
        if (k != hint_cls)
            order[no++] = k;
    for (int a = hint_cls >= 0 ? 2 : 1; a < no; a++)
        for (int b = a; b > (hint_cls >= 0 ? 1 : 0) && cls_n[order[b]] < cls_n[order[b - 1]]; b--) {
            int t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    /* class by class while under half the plays: the class's first best pre-score (prescore's
     * terms; pick_exact keeps the first of equal ones) and whether its exact score passes */
    int spent = 0;
    for (int a = 0; a < no; a++) {
        int k = order[a];
        if (spent + cls_n[k] > n / 2) {
            if (a == 0 && hint_cls >= 0)
                continue; /* the hint's class is too big: the rest by size all the same */
            break;
        }
        spent += cls_n[k];
        int best = -1, lastkey = -1;
        float bestpre = 0, lastrisk[3] = {0, 0, 0}, bestrisk[3] = {0, 0, 0};
        for (int i = 0; i < n; i++) {
            if (cid[i] != k)
                continue;
            terms t;
            pre_terms(e, s, &ws->moves[i], &lastkey, lastrisk, &t);
            if (best < 0 || (float)t.score > bestpre) {
                best = i;
                bestpre = (float)t.score;
                memcpy(bestrisk, lastrisk, sizeof bestrisk);
            }
        }
        const cb_move *m = &ws->moves[best];
        if (m->counts == played)
            continue;
        cb_hcand c;
        memcpy(c.orisk, bestrisk, sizeof c.orisk);
        terms t;
        if (score_bound(e, m, &c, &t) <= bar)
            continue;
        ws->exact_checked++;
        score_play(e, m, cb_hws_min_hands(ws, r, s->hand - m->counts), c.orisk, &t);
        if (t.score > bar) {
            if (hint)
                *hint = m->counts;
            ws->class_proofs++;
            return true;
        }
    }
    return false;
}

int cb_heur_explains(const cb_hcfg *cfg, const cb_situ *s, cb_hws *ws, cb_counts played, cb_counts *hint,
                     int *nmoves)
{
    if (cfg->temperature > 0 || cfg->blunder > 0) { /* a sampling level: its best, as choose picks */
        cb_hchoice ch;
        if (cb_heur_choose(cfg, s, ws, NULL, &ch) != 0)
            return -1;
        *nmoves = ch.nmoves;
        return (ch.move.shape == CB_PASS ? 0 : ch.move.counts) == played;
    }
    const cb_rules *r = s->rules;
    cb_ctx ctx;
    cb_situ_ctx(s, &ctx);
    /* as cb_heur_choose: the whole hand in one play, else the legal plays and the candidates */
    cb_move whole;
    if (cb_hws_min_hands(ws, r, s->hand) == 1 && cb_play_legal(r, &ctx, s->hand, &whole, NULL, 0)) {
        *nmoves = -1;
        return whole.counts == played;
    }
    int n = legal_plays(r, &ctx, ws);
    if (n <= 0)
        return -1;
    *nmoves = n;
    if (n == 1)
        return (ws->moves[0].shape == CB_PASS ? 0 : ws->moves[0].counts) == played;
    ev e;
    int pass_idx;
    if (played != 0 && cfg->kick_layouts == 0 && cfg->exact_top > 0 && n > cfg->exact_top + 1 &&
        cb_counts_total(s->hand) > cfg->exact_all_upto) {
        /* where pick_exact selects, a proof of no spares the selection and most pre-scores
         * (the proof holds at any size: every class best is a candidate) */
        ev_setup(&e, cfg, s, ws);
        if (no_by_class_best(&e, s, ws, n, played, hint))
            return 0;
        /* unproven: the candidates from the same evaluation (candidates() less its set-up) */
        int top = pick_exact(&e, cfg, ws, prescore(&e, cfg, s, ws, n, &pass_idx));
        return explains_exact(&e, s, ws, top, pass_idx, played);
    }
    int top = candidates(&e, cfg, s, ws, n, &pass_idx);
    return explains_exact(&e, s, ws, top, pass_idx, played);
}

int cb_heur_deal_policy(void *user, const cb_deal *g, cb_move *out)
{
    cb_heur_agent *a = user;
    cb_situ s;
    cb_situ_from_deal(g, &s);
    if (cb_heur_choose(&a->cfg, &s, &a->ws, &a->rng, &a->last) != 0)
        return -1;
    *out = a->last.move;
    return 0;
}

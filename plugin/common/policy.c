/* cardbot plugins — the heuristic play policy (see policy.h for the terms). */
#include "policy.h"

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
        {true, true, true, 0, 48, 0.00, 0.00, 0.0},
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
    uint64_t h = hand * 0x9E3779B97F4A7C15ull;
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

/* ---- shapes ---- */

/* Cards per rank of the main part (0 for pass / rocket). */
static int shape_mult(int shape)
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

static bool shape_chain(int shape)
{
    return shape == CB_STRAIGHT || shape == CB_PAIR_CHAIN || shape == CB_PLANE ||
           shape == CB_PLANE_1 || shape == CB_PLANE_2;
}

static bool shape_bomb(int shape) { return shape == CB_BOMB || shape == CB_ROCKET; }

/* ---- evaluation context of one decision ---- */

#define BOMB_USE 0.5 /* opponents keep bombs often: a bomb that may be out is half a threat */

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
    float tail[3][5][CB_NRANKS]; /* [seat][t][rank]: P(seat holds >= t cards of rank) */
    float ctlw[CB_NRANKS];       /* how much a card of the rank controls (1: nothing above) */
    double bomb_scale;           /* PDK bomb points relative to a typical deal */
    float partner_hold;          /* the table is the partner's: chance it wins if I pass */
} ev;

/* tail[t] = P(Bin(k, f) >= t - kn) for t = 0..4 (k <= 4; kn cards of the rank are known to be
 * held already). */
static void binom_tails(int k, int kn, double f, float tail[5])
{
    static const int C[5][5] = {{1}, {1, 1}, {1, 2, 1}, {1, 3, 3, 1}, {1, 4, 6, 4, 1}};
    double pmf[5] = {0, 0, 0, 0, 0};
    double g = 1 - f;
    for (int j = 0; j <= k; j++) {
        double q = C[k][j];
        for (int a = 0; a < j; a++)
            q *= f;
        for (int a = 0; a < k - j; a++)
            q *= g;
        pmf[j] = q;
    }
    double suf[6] = {0, 0, 0, 0, 0, 0};
    for (int j = 4; j >= 0; j--)
        suf[j] = suf[j + 1] + pmf[j];
    for (int t = 0; t <= 4; t++) {
        int need = t - kn;
        tail[t] = need <= 0 ? 1.0f : (float)suf[need];
    }
}

static float seat_beat(const ev *e, int o, const cb_move *m, bool with_bombs);

/* What passes proved (must_beat): zero the holdings a seat cannot have; the cards of a rank
 * one seat holds none of are all with the other (the pool is exactly their two hands). */
static void apply_voids(ev *e, const cb_situ *s)
{
    int others[2], n = 0;
    for (int o = 0; o < 3; o++)
        if (o != s->seat)
            others[n++] = o;
    bool any = false;
    for (int i = 0; i < 2; i++) {
        int o = others[i];
        const int8_t *ab = s->voids.above[o];
        for (int t = 1; t <= 4; t++)
            for (int r = ab[t] + 1; r < CB_NRANKS; r++) {
                any = true;
                for (int t2 = t; t2 <= 4; t2++)
                    e->tail[o][t2][r] = 0;
            }
        if (s->voids.no_bomb[o]) {
            any = true;
            for (int r = 0; r <= CB_RANK_2; r++)
                e->tail[o][4][r] = 0;
            if (e->r->game == CB_GAME_PDK && e->r->aaa_bomb)
                e->tail[o][3][CB_RANK_A] = 0;
        }
    }
    if (!any)
        return;
    for (int i = 0; i < 2; i++) {
        int o = others[i], o2 = others[1 - i];
        for (int r = 0; r < CB_NRANKS; r++)
            if (e->tail[o][1][r] == 0) {
                int k = cb_count(e->pool, r);
                for (int t = 1; t <= 4; t++)
                    e->tail[o2][t][r] = k >= t ? 1.0f : 0.0f;
            }
    }
}

static void ev_init(ev *e, const cb_hcfg *cfg, const cb_situ *s)
{
    memset(e, 0, sizeof *e);
    e->cfg = cfg;
    e->w = &cfg->w[s->rules->game == CB_GAME_DDZ ? 1 : 0];
    e->s = s;
    e->r = s->rules;
    e->pool = cfg->counting ? s->out : s->unseen;
    e->partner = -1;
    e->leading = s->table_seat < 0;
    e->hand_n = cb_counts_total(s->hand);
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
    if (cfg->counting)
        for (int o = 0; o < 3; o++) {
            known_all += s->known[o];
            nknown[o] = cb_counts_total(s->known[o]);
        }
    int free_pool = cb_counts_total(e->pool) - cb_counts_total(known_all);
    for (int o = 0; o < 3; o++) {
        if (o == s->seat)
            continue;
        double f = free_pool > 0 ? (double)(s->cards_left[o] - nknown[o]) / free_pool : 0;
        if (f < 0)
            f = 0;
        if (f > 1)
            f = 1;
        for (int r = 0; r < CB_NRANKS; r++) {
            int kn = cfg->counting ? cb_count(s->known[o], r) : 0;
            int k = cb_count(e->pool, r) - (cfg->counting ? cb_count(known_all, r) : 0);
            if (k < 0)
                k = 0;
            if (k > 4)
                k = 4;
            float tl[5];
            binom_tails(k, kn, f, tl);
            for (int t = 0; t <= 4; t++)
                e->tail[o][t][r] = tl[t];
        }
    }
    if (cfg->counting)
        apply_voids(e, s);
    /* Control weight of a rank as a single: 1 / (1 + pool cards above it). */
    int above = 0;
    for (int r = CB_NRANKS - 1; r >= 0; r--) {
        e->ctlw[r] = 1.0f / (1.0f + (float)above);
        above += cb_count(e->pool, r);
    }
    e->bomb_scale = e->r->game == CB_GAME_PDK ? e->r->bomb_points / 10.0 : 0.0;
    if (e->partner >= 0 && s->table_seat == e->partner) {
        /* When the partner is not the seat before me, the opponent between us has already
         * passed on the play: if I pass too, it wins. Otherwise the opponent after me acts. */
        e->partner_hold = 1;
        if (cb_situ_next(e->partner) == s->seat)
            for (int i = 0; i < e->nopp; i++)
                e->partner_hold *= 1 - seat_beat(e, e->opp[i], &s->table, true);
    }
}

/* Chance that seat o beats m (same shape higher, or a bomb / rocket used with BOMB_USE). */
static float seat_beat(const ev *e, int o, const cb_move *m, bool with_bombs)
{
    int c = e->s->cards_left[o];
    if (c <= 0 || m->shape == CB_ROCKET || m->shape == CB_PASS)
        return 0;
    const cb_rules *r = e->r;
    int t = shape_mult(m->shape);
    bool bomb = shape_bomb(m->shape);
    float same = 0;
    if (!bomb && c >= m->ncards && t > 0) {
        bool chain = shape_chain(m->shape);
        int L = chain ? m->len : 1;
        int last = chain ? CB_RANK_A - L + 1 : (t == 1 ? CB_RANK_D : CB_RANK_2);
        float none = 1;
        for (int st = m->main + 1; st <= last; st++) {
            float p = 1;
            for (int i = 0; i < L && p > 0; i++)
                p *= e->tail[o][t][st + i];
            none *= 1 - p;
        }
        same = 1 - none;
    }
    if (!with_bombs)
        return same;
    float nob = 1;
    if (c >= 4) {
        int from = bomb ? m->main + 1 : 0;
        for (int q = from; q <= CB_RANK_2; q++)
            nob *= 1 - e->tail[o][4][q];
    }
    if (r->game == CB_GAME_PDK && r->aaa_bomb && c >= 3 && !(bomb && m->main >= CB_MAIN_AAA))
        nob *= 1 - e->tail[o][3][CB_RANK_A];
    if (r->game == CB_GAME_DDZ && c >= 2)
        nob *= 1 - e->tail[o][1][CB_RANK_X] * e->tail[o][1][CB_RANK_D];
    float bombp = 1 - nob;
    return 1 - (1 - same) * (1 - (float)BOMB_USE * bombp);
}

/* Danger of an opponent holding c cards (he may go out soon). */
static double danger(int c)
{
    static const double d[5] = {0, 3.0, 2.0, 1.0, 0.4};
    return c >= 1 && c <= 4 ? d[c] : 0;
}

typedef struct terms {
    double score;
    float risk;
    uint32_t flags;
} terms;

/* Score of a play (not a pass) given mh1 = min-hands after (exact or estimated). */
static void score_play(const ev *e, const cb_move *m, int mh1, float risk_opp[3], terms *out)
{
    const cb_hcfg *c = e->cfg;
    const cb_hweights *W = e->w;
    const cb_situ *s = e->s;
    double sc = -mh1;
    uint32_t flags = 0;
    float hold = 1;
    for (int i = 0; i < e->nopp; i++)
        hold *= 1 - risk_opp[e->opp[i]];
    sc += W->lead * hold;
    /* spending control cards */
    double spend = 0;
    cb_counts k = m->counts;
    for (int r = 0; k; r++, k >>= 4)
        spend += (double)(k & 15) * e->ctlw[r];
    bool bomb = shape_bomb(m->shape);
    if (!bomb) {
        sc -= W->keep * spend;
        int base = e->leading ? 0 : s->table.main;
        sc -= W->rank * (double)(m->main - base) / 12.0;
    }
    sc += W->shed * m->ncards;
    /* threat: opponents with few cards who could beat this */
    double threat = 0;
    for (int i = 0; i < e->nopp; i++) {
        int o = e->opp[i];
        threat += danger(s->cards_left[o]) * risk_opp[o];
    }
    sc -= W->threat * threat;
    if (bomb) {
        flags |= CB_DEC_BOMB;
        bool wins = mh1 <= 1 && hold > 0.9f;
        bool stops = false;
        if (!e->leading && s->table_seat >= 0 && s->table_seat != e->partner &&
            s->cards_left[s->table_seat] <= 3)
            stops = true;
        for (int i = 0; i < e->nopp; i++)
            if (s->cards_left[e->opp[i]] <= 2)
                stops = true;
        if (!wins && !stops)
            sc -= W->bomb;
        sc += W->bombpts * e->bomb_scale * hold;
    }
    if (e->partner >= 0) {
        int p = e->partner;
        if (!e->leading && s->table_seat == p) {
            /* overtaking the partner: worth it only when the partner's play would not hold */
            sc -= W->coop * e->partner_hold;
        }
        if (e->leading && s->cards_left[p] <= 2 && m->ncards <= s->cards_left[p]) {
            float pb = seat_beat(e, p, m, false);
            double near = cb_situ_next(s->seat) == p ? 1.0 : 0.5;
            sc += W->feed * pb * near * (3 - s->cards_left[p]);
        }
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
    const cb_hweights *W = e->w;
    const cb_situ *s = e->s;
    double sc = -e->mh0;
    int ts = s->table_seat;
    if (ts >= 0 && ts != e->partner)
        sc -= W->threat * danger(s->cards_left[ts]) * 0.8;
    if (ts >= 0 && ts == e->partner) {
        sc += W->coop * e->partner_hold * 0.5;
        if (s->cards_left[ts] <= 2)
            sc += W->coop;
    }
    return sc;
}

/* ---- choice ---- */

static int key_of(const cb_move *m) { return ((m->shape * 16 + m->main) * 24 + m->len) * 21 + m->ncards; }

static int frag(cb_counts hand, cb_counts play)
{
    /* ranks where the play takes some but not all of my cards: each may leave a loose piece */
    int n = 0;
    for (; play; hand >>= 4, play >>= 4) {
        int p = (int)(play & 15), h = (int)(hand & 15);
        if (p && p < h)
            n++;
    }
    return n;
}

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
        fill_choice(out, &whole, 1e6, 1e6, 1, 0, shape_bomb(whole.shape) ? CB_DEC_BOMB : 0);
        out->flags |= CB_DEC_ENDGAME;
        out->value = 1.0f;
        out->nmoves = -1;
        snprintf(out->why, sizeof out->why, "out in one play");
        return 0;
    }

    int n = cb_legal_moves(r, &ctx, ws->moves, ws->cap);
    if (n > ws->cap) {
        if (hws_grow(ws, n) != 0)
            return -1;
        n = cb_legal_moves(r, &ctx, ws->moves, ws->cap);
    }
    if (n <= 0)
        return -1;
    out->nmoves = n;
    if (n == 1) {
        /* forced (usually a pass that must_beat leaves): no scoring, an explanation at most */
        const cb_move *m = &ws->moves[0];
        fill_choice(out, m, 0, 0, -1, -1, shape_bomb(m->shape) ? CB_DEC_BOMB : 0);
        out->nexact = 0;
        if (cfg->explain) {
            ev e;
            memset(&e, 0, sizeof e);
            e.s = s;
            for (int o = 0; o < 3; o++)
                if (o != s->seat && !(cfg->team && cb_situ_partner(s, o)))
                    e.opp[e.nopp++] = o;
            out->mh_before = cb_hws_min_hands(ws, r, s->hand);
            out->mh_after = m->shape == CB_PASS ? out->mh_before : cb_hws_min_hands(ws, r, s->hand - m->counts);
            out->value = value_of(&e, out->mh_after, m->shape == CB_PASS ? 0.0f : 0.5f);
            snprintf(out->why, sizeof out->why, "only %s", m->shape == CB_PASS ? "pass" : "play");
        }
        return 0;
    }

    ev e;
    ev_init(&e, cfg, s);
    e.mh0 = cb_hws_min_hands(ws, r, s->hand);

    /* pre-score every play; remember the pass */
    int pass_idx = -1;
    int lastkey = -1;
    float lastrisk[3] = {0, 0, 0};
    uint8_t seen[2048];
    if (cfg->kick_layouts > 0)
        memset(seen, 0, sizeof seen);
    int nc = 0;
    for (int i = 0; i < n; i++) {
        const cb_move *m = &ws->moves[i];
        if (m->shape == CB_PASS) {
            pass_idx = i;
            continue;
        }
        int key = key_of(m);
        if (cfg->kick_layouts > 0 && m->kick) {
            unsigned slot = (unsigned)key & 2047u;
            if (seen[slot] >= cfg->kick_layouts)
                continue;
            seen[slot]++;
        }
        if (key != lastkey) {
            for (int j = 0; j < e.nopp; j++)
                lastrisk[e.opp[j]] = seat_beat(&e, e.opp[j], m, true);
            lastkey = key;
        }
        /* pre-score min-hands: a play that splits a group may leave a loose card behind */
        int est = e.mh0 - 1 + (frag(s->hand, m->counts) + 1) / 2;
        terms t;
        score_play(&e, m, est, lastrisk, &t);
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

    /* exact min-hands for the best pre-scores */
    /* Which candidates get an exact min-hands: all of them for small hands (cheap there), else
     * the best pre-score of every shape and length (the pre-score misjudges chains) plus the
     * exact_top best pre-scores overall. */
    int top = nc;
    if (cfg->exact_top > 0 && e.hand_n > cfg->exact_all_upto && nc > cfg->exact_top) {
        int16_t cls_best[CB_NSHAPES * 24];
        for (int q = 0; q < CB_NSHAPES * 24; q++)
            cls_best[q] = -1;
        for (int j = 0; j < nc; j++) {
            const cb_move *m = &ws->moves[ws->cands[j].idx];
            int q = m->shape * 24 + (m->len < 24 ? m->len : 23);
            if (cls_best[q] < 0 || ws->cands[j].pre > ws->cands[cls_best[q]].pre)
                cls_best[q] = (int16_t)j;
            ws->cands[j].exact = 0;
        }
        int nmust = 0;
        for (int q = 0; q < CB_NSHAPES * 24; q++)
            if (cls_best[q] >= 0) {
                ws->cands[cls_best[q]].exact = 1;
                nmust++;
            }
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
        for (; top < want; top++) {
            int b = top;
            for (int j = top + 1; j < nc; j++)
                if (ws->cands[j].pre > ws->cands[b].pre)
                    b = j;
            cb_hcand tmp = ws->cands[b];
            ws->cands[b] = ws->cands[top];
            ws->cands[top] = tmp;
        }
    }
    int best = -1;
    double best_sc = -1e18;
    uint32_t best_flags = 0;
    for (int a = 0; a < top; a++) {
        cb_hcand *c = &ws->cands[a];
        const cb_move *m = &ws->moves[c->idx];
        int mh1 = cb_hws_min_hands(ws, r, s->hand - m->counts);
        terms t;
        score_play(&e, m, mh1, c->orisk, &t);
        c->score = (float)t.score;
        c->mh = (int8_t)mh1;
        c->exact = 1;
        c->risk = t.risk;
        if (t.score > best_sc) {
            best_sc = t.score;
            best = a;
            best_flags = t.flags;
        }
    }
    /* the pass joins as one more exact candidate */
    if (pass_idx >= 0) {
        cb_hcand *c = &ws->cands[top];
        c->idx = pass_idx;
        c->score = (float)score_pass(&e);
        c->pre = c->score;
        c->mh = (int8_t)e.mh0;
        c->exact = 1;
        c->risk = 0;
        if (c->score > best_sc) {
            best_sc = c->score;
            best = top;
            best_flags = 0;
        }
        top++;
    }
    out->nexact = top;
    if (best < 0)
        return -1;

    /* weaker levels: sample within the loss cap */
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
    const cb_hcand *pc = &ws->cands[pick];
    const cb_move *pm = &ws->moves[pc->idx];
    uint32_t flags = 0;
    if (pick == best) {
        flags = best_flags;
    } else {
        flags = CB_DEC_SUBOPTIMAL | (shape_bomb(pm->shape) ? CB_DEC_BOMB : 0);
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

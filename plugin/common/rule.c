/* cardbot plugins — the rule policy of the rule agents (see rule.h). */
#include "rule.h"

#include <stdlib.h>
#include <string.h>

int rb_ws_init(rb_ws *ws)
{
    memset(ws, 0, sizeof *ws);
    if (cb_hws_init(&ws->hws) != 0)
        return -1;
    ws->cap = 512;
    ws->moves = malloc((size_t)ws->cap * sizeof *ws->moves);
    ws->cands = malloc((size_t)ws->cap * sizeof *ws->cands);
    if (!ws->moves || !ws->cands) {
        rb_ws_free(ws);
        return -1;
    }
    return 0;
}

void rb_ws_free(rb_ws *ws)
{
    if (!ws)
        return;
    free(ws->moves);
    free(ws->cands);
    cb_hws_free(&ws->hws);
    memset(ws, 0, sizeof *ws);
}

static int grow(rb_ws *ws, int n)
{
    cb_move *m = realloc(ws->moves, (size_t)n * sizeof *m);
    if (!m)
        return -1;
    ws->moves = m;
    rb_cand *c = realloc(ws->cands, (size_t)n * sizeof *c);
    if (!c)
        return -1;
    ws->cands = c;
    ws->cap = n;
    return 0;
}

/* Every legal play (all kicker layouts: the decomposition test picks the layout that keeps the
 * rest whole, which the lowest layout alone would often break). */
static int legal(rb_ws *ws, const cb_rules *r, const cb_ctx *ctx)
{
    int n = cb_legal_moves(r, ctx, ws->moves, ws->cap);
    if (n > ws->cap) {
        if (grow(ws, n) != 0)
            return -1;
        n = cb_legal_moves(r, ctx, ws->moves, ws->cap);
    }
    return n;
}

static inline int mh(rb_ws *ws, const cb_rules *r, cb_counts k)
{
    return k ? cb_hws_min_hands(&ws->hws, r, k) : 0;
}

static inline bool is_bomb(const cb_move *m) { return m->shape == CB_BOMB || m->shape == CB_ROCKET; }

/* Does the play take some but not all cards of a bomb in the hand (or a joker of the rocket)? */
static bool splits_bomb(const cb_rules *r, cb_counts hand, const cb_move *m)
{
    for (int q = 0; q <= CB_RANK_2; q++) {
        int h = cb_count(hand, q), p = cb_count(m->counts, q);
        if (h == 4 && p > 0 && p < 4)
            return true;
    }
    if (r->game == CB_GAME_PDK && r->aaa_bomb && cb_count(hand, CB_RANK_A) == 3) {
        int p = cb_count(m->counts, CB_RANK_A);
        if (p > 0 && p < 3)
            return true;
    }
    if (cb_count(hand, CB_RANK_X) && cb_count(hand, CB_RANK_D) && m->shape != CB_ROCKET &&
        (cb_count(m->counts, CB_RANK_X) || cb_count(m->counts, CB_RANK_D)))
        return true;
    return false;
}

/* Could the cards still out (every other seat's cards pooled) beat p? Pooling over-estimates
 * the opponents, so "no" is safe. */
static bool beatable(const cb_rules *r, cb_counts out, const cb_move *p)
{
    if (!out)
        return false;
    cb_ctx c = {.hand = out, .table = p, .next_has_one = false, .first_play = false};
    cb_move tmp[2];
    int n = cb_legal_moves(r, &c, tmp, 2);
    if (n >= 2)
        return true;
    return n == 1 && tmp[0].shape != CB_PASS;
}

static int cmp_cand(const void *a, const void *b)
{
    const rb_cand *x = a, *y = b;
    if (x->cls != y->cls)
        return x->cls < y->cls ? -1 : 1;
    if (x->main != y->main)
        return x->main < y->main ? -1 : 1;
    if (x->ncards != y->ncards)
        return x->ncards > y->ncards ? -1 : 1;
    if (x->counts != y->counts)
        return x->counts < y->counts ? -1 : 1;
    return x->idx - y->idx;
}

static bool opponent(const cb_situ *s, int o) { return o != s->seat && !cb_situ_partner(s, o); }

static void pick(rb_ws *ws, const cb_situ *s, rb_choice *out, int idx, int mh_after, const char *why)
{
    (void)s;
    out->move = ws->moves[idx];
    out->mh_after = mh_after;
    out->why = why;
    if (is_bomb(&out->move))
        out->flags |= CB_DEC_BOMB;
}

static void pass(rb_choice *out, const char *why)
{
    memset(&out->move, 0, sizeof out->move);
    out->move.shape = CB_PASS;
    out->mh_after = out->mh_before;
    out->why = why;
}

/* The candidate's min-hands after, computed once. */
static int cand_mh(rb_ws *ws, const cb_situ *s, rb_cand *c)
{
    if (c->mh < 0)
        c->mh = (int8_t)mh(ws, s->rules, s->hand - ws->moves[c->idx].counts);
    return c->mh;
}

/* Fewest plays after; ties in the candidates' order. Bombs only when allow_bomb. */
static int least_mh(rb_ws *ws, const cb_situ *s, int nc, bool allow_bomb)
{
    int best = -1, bv = 1 << 20;
    for (int i = 0; i < nc; i++) {
        rb_cand *c = &ws->cands[i];
        if (c->cls == 2 && !allow_bomb)
            continue;
        int v = cand_mh(ws, s, c);
        if (v < bv) {
            bv = v;
            best = i;
        }
    }
    return best;
}

static int lead(rb_ws *ws, const cb_situ *s, int n, int mh0, int threat, int partner_left, rb_choice *out)
{
    const cb_rules *r = s->rules;
    int nc = 0;
    for (int i = 0; i < n; i++) {
        const cb_move *m = &ws->moves[i];
        if (m->shape == CB_PASS)
            continue;
        rb_cand *c = &ws->cands[nc++];
        c->counts = m->counts;
        c->idx = i;
        c->ncards = m->ncards;
        c->mh = -1;
        c->main = m->main;
        c->cls = 0;
        if (is_bomb(m) || splits_bomb(r, s->hand, m))
            c->cls = 2;
        else if ((threat == 1 && m->shape == CB_SINGLE) || (threat == 2 && m->shape == CB_PAIR))
            c->cls = 1;
        if (c->cls == 1 && m->shape == CB_SINGLE)
            c->main = (uint8_t)(CB_NRANKS - 1 - m->main); /* the single they must beat: highest */
    }
    if (nc == 0)
        return -1;
    qsort(ws->cands, (size_t)nc, sizeof *ws->cands, cmp_cand);

    /* two plays left: the one nothing out can beat first, then the other wins */
    if (mh0 == 2) {
        for (int i = 0; i < nc; i++) {
            rb_cand *c = &ws->cands[i];
            if (cand_mh(ws, s, c) == 1 && !beatable(r, s->out, &ws->moves[c->idx])) {
                pick(ws, s, out, c->idx, 1, "two plays left: unbeatable one first");
                out->flags |= CB_DEC_ENDGAME | CB_DEC_COUNTED;
                return 0;
            }
        }
    }
    /* a partner with one card: give it a single to go out on */
    if (partner_left == 1 && threat > 1) {
        for (int i = 0; i < nc; i++) {
            rb_cand *c = &ws->cands[i];
            if (c->cls == 0 && ws->moves[c->idx].shape == CB_SINGLE) {
                pick(ws, s, out, c->idx, cand_mh(ws, s, c), "partner has one card: lowest single");
                return 0;
            }
        }
    }
    for (int i = 0; i < nc; i++) {
        rb_cand *c = &ws->cands[i];
        if (cand_mh(ws, s, c) == mh0 - 1) {
            pick(ws, s, out, c->idx, c->mh,
                 c->cls == 0 ? "lead the lowest group" : c->cls == 1 ? "opponent near out: safest group" : "only bombs left");
            return 0;
        }
    }
    /* no group of a fewest-plays decomposition is a legal lead (a PDK short triple only as the
     * last play, say): the fewest plays after, bombs last */
    int b = least_mh(ws, s, nc, false);
    if (b < 0)
        b = least_mh(ws, s, nc, true);
    pick(ws, s, out, ws->cands[b].idx, ws->cands[b].mh, "no whole group leads: fewest plays after");
    return 0;
}

static int follow(rb_ws *ws, const cb_situ *s, int n, int mh0, int threat, rb_choice *out)
{
    const cb_rules *r = s->rules;
    bool has_pass = n > 0 && ws->moves[0].shape == CB_PASS;
    bool threatened = threat <= 2;
    int nc = 0;
    for (int i = 0; i < n; i++) {
        const cb_move *m = &ws->moves[i];
        if (m->shape == CB_PASS)
            continue;
        rb_cand *c = &ws->cands[nc++];
        c->counts = m->counts;
        c->idx = i;
        c->ncards = 0; /* following: every play has the table's size, except bombs */
        c->mh = -1;
        c->cls = (is_bomb(m) || splits_bomb(r, s->hand, m)) ? 2 : 0;
        /* about to lose: the highest play holds the trick best */
        c->main = threatened ? (uint8_t)(CB_MAIN_AAA - m->main) : m->main;
    }
    if (nc == 0) {
        pass(out, "nothing beats the table");
        return 0;
    }
    qsort(ws->cands, (size_t)nc, sizeof *ws->cands, cmp_cand);

    if (cb_situ_partner(s, s->table_seat) && has_pass) {
        bool small = (s->table.shape == CB_SINGLE || s->table.shape == CB_PAIR) && s->table.main < CB_RANK_J;
        if (small)
            for (int i = 0; i < nc; i++) {
                rb_cand *c = &ws->cands[i];
                if (c->cls == 0 && cand_mh(ws, s, c) <= 1 && c->mh == mh0 - 1) {
                    pick(ws, s, out, c->idx, c->mh, "over a small partner play: near out");
                    return 0;
                }
            }
        pass(out, "partner holds the trick");
        return 0;
    }
    bool cheap_table = s->table.main < CB_RANK_J;
    for (int i = 0; i < nc; i++) {
        rb_cand *c = &ws->cands[i];
        if (c->cls != 0 || cand_mh(ws, s, c) != mh0 - 1)
            continue;
        const cb_move *m = &ws->moves[c->idx];
        /* control cards (2s, jokers) wait for a table worth them */
        if (m->main >= CB_RANK_2 && cheap_table && !threatened && has_pass)
            continue;
        pick(ws, s, out, c->idx, c->mh, threatened ? "opponent near out: highest group that beats" : "lowest group that beats");
        return 0;
    }
    if (threatened || !has_pass) {
        int b = least_mh(ws, s, nc, false);
        if (b >= 0) {
            pick(ws, s, out, ws->cands[b].idx, ws->cands[b].mh,
                 has_pass ? "opponent near out: break a group to beat" : "must beat: fewest plays after");
            return 0;
        }
    }
    /* bombs: when they win the game or stop an opponent about to go out */
    for (int i = 0; i < nc; i++) {
        rb_cand *c = &ws->cands[i];
        if (c->cls != 2 || !is_bomb(&ws->moves[c->idx]))
            continue;
        if (cand_mh(ws, s, c) <= 1) {
            pick(ws, s, out, c->idx, c->mh, "bomb: at most one play left after it");
            out->flags |= CB_DEC_ENDGAME;
            return 0;
        }
        if (threatened) {
            pick(ws, s, out, c->idx, c->mh, "bomb: opponent near out");
            return 0;
        }
    }
    if (has_pass) {
        pass(out, "keep the hand whole");
        return 0;
    }
    int b = least_mh(ws, s, nc, true);
    pick(ws, s, out, ws->cands[b].idx, ws->cands[b].mh, "must beat: fewest plays after");
    return 0;
}

int rb_choose(rb_ws *ws, const cb_situ *s, rb_choice *out)
{
    const cb_rules *r = s->rules;
    memset(out, 0, sizeof *out);
    ws->decisions++;
    cb_ctx ctx;
    cb_situ_ctx(s, &ctx);
    out->mh_before = mh(ws, r, s->hand);
    out->mh_after = -1;
    cb_move whole;
    if (cb_play_legal(r, &ctx, s->hand, &whole, NULL, 0)) {
        out->move = whole;
        out->mh_after = 0;
        out->nmoves = -1;
        out->flags = CB_DEC_ENDGAME | (is_bomb(&whole) ? CB_DEC_BOMB : 0);
        out->why = "out in one play";
        return 0;
    }
    int n = legal(ws, r, &ctx);
    if (n <= 0)
        return -1;
    out->nmoves = n;
    if (n == 1) {
        out->move = ws->moves[0];
        out->why = out->move.shape == CB_PASS ? "forced pass" : "only play";
        out->mh_after = out->move.shape == CB_PASS ? out->mh_before : mh(ws, r, s->hand - out->move.counts);
        if (is_bomb(&out->move))
            out->flags |= CB_DEC_BOMB;
        return 0;
    }
    int threat = 99, partner_left = 99;
    for (int o = 0; o < 3; o++) {
        if (o == s->seat)
            continue;
        if (opponent(s, o)) {
            if (s->cards_left[o] < threat)
                threat = s->cards_left[o];
        } else if (s->cards_left[o] < partner_left) {
            partner_left = s->cards_left[o];
        }
    }
    if (s->table_seat < 0)
        return lead(ws, s, n, out->mh_before, threat, partner_left, out);
    return follow(ws, s, n, out->mh_before, threat, out);
}

int rb_deal_policy(void *user, const cb_deal *g, cb_move *out)
{
    cb_situ s;
    cb_situ_from_deal(g, &s);
    rb_choice c;
    if (rb_choose(user, &s, &c) != 0)
        return -1;
    *out = c.move;
    return 0;
}

/* ---- bidding ---- */

void rb_strength_of(rb_ws *ws, const cb_rules *r, cb_cards hand, rb_strength *out)
{
    memset(out, 0, sizeof *out);
    cb_counts k = cb_counts_of(hand);
    cb_counts unseen = cb_counts_of(r->deck & ~hand);
    out->min_hands = mh(ws, r, k);
    for (int q = 0; q <= CB_RANK_2; q++)
        if (cb_count(k, q) == 4)
            out->bombs++;
    if (r->game == CB_GAME_PDK && r->aaa_bomb && cb_count(k, CB_RANK_A) == 3)
        out->bombs++;
    for (int q = CB_NRANKS - 1; q >= 0; q--) {
        if (cb_count(unseen, q) > 0)
            break;
        out->top += cb_count(k, q);
    }
    bool rocket = cb_count(k, CB_RANK_X) && cb_count(k, CB_RANK_D);
    out->points = 4 * cb_count(k, CB_RANK_D) + 3 * cb_count(k, CB_RANK_X) + 2 * cb_count(k, CB_RANK_2) +
                  5 * out->bombs + (rocket ? 2 : 0);
}

/* DDZ: the usual big-card count (5 and up for 1, 7 for 2, 10 for 3), one point more or less for
 * a hand that needs few or many plays. PDK 包庄: only a hand of at most three plays whose top
 * cards and bombs (a bomb counts twice) cover as many (the declaration costs bao_points either way). */
int rb_bid_want(const cb_rules *r, const rb_strength *st)
{
    if (r->game == CB_GAME_DDZ) {
        int p = st->points + (st->min_hands <= 5 ? 1 : 0) - (st->min_hands >= 9 ? 1 : 0);
        return p >= 10 ? 3 : p >= 7 ? 2 : p >= 5 ? 1 : 0;
    }
    return st->min_hands <= 3 && st->top + 2 * st->bombs >= st->min_hands ? 1 : 0;
}

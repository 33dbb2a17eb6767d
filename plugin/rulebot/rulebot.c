/* cardbot — the rulebot strategy plugin: a rule-based player in the style of the public DDZ /
 * PDK rule agents (rule.h), and a uniformly random legal player, for evaluation gauntlets:
 * opponents that are not our own heuristic.
 *
 * Parameters (keys of a [strategy.NAME] group with plugin = rulebot):
 *   style = rule | random   rule (default): the decomposition rules of rule.h and bidding by a
 *                           hand-strength count; random: every legal play by ranks (the pass
 *                           included when allowed) equally likely, and every legal bid equally
 *                           likely (so a random PDK seat declares 包庄 half the time it is
 *                           asked: a floor, not a sensible player).
 *   seed = N                extra seed mixed with each view's seed (default 0). The rule style
 *                           does not draw at all: same view, same answer, whatever the seed.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/decision.h"
#include "../common/params.h"
#include "../common/rng.h"
#include "../common/rule.h"
#include "rulebot.h"


typedef struct rbot {
    int style;
    uint64_t seed;
    rb_ws ws;
    cb_replay replay;  /* the history read so far (a cache: any content is safe) */
} rbot;

static void set_err(char *err, size_t errlen, const char *msg, const char *v)
{
    if (err && errlen)
        snprintf(err, errlen, msg, v);
}

static void *rbot_create(const cb_param *params, int nparams, char *err, size_t errlen)
{
    rb_params p;
    if (cb_params_parse("rulebot", rb_param_table, rb_param_count, params,
                        nparams, &p, NULL, err, errlen) != 0)
        return NULL;
    int style = p.style;
    uint64_t seed = p.seed;
    rbot *b = calloc(1, sizeof *b);
    if (!b || rb_ws_init(&b->ws) != 0) {
        free(b);
        set_err(err, errlen, "rulebot: out of memory%s", "");
        return NULL;
    }
    b->style = style;
    b->seed = seed;
    return b;
}

static void rbot_destroy(void *inst)
{
    rbot *b = inst;
    if (!b)
        return;
    rb_ws_free(&b->ws);
    free(b);
}

static int rbot_decide_bid(void *inst, const cb_view *v, cb_decision *out)
{
    rbot *b = inst;
    if (!b || !out || !cb_plug_view_ok(v) || v->phase != CB_PHASE_BID)
        return -1;
    cb_decision d;
    cb_plug_decision_init(&d);
    if (b->style == RB_RANDOM) {
        int32_t ok[8];
        int n = cb_view_legal_bids(v, ok, 8);
        if (n <= 0)
            return -1;
        cb_rng g;
        cb_rng_seed(&g, cb_rng_mix(v->seed, b->seed ^ 0xB1D));
        d.bid = ok[cb_rng_below(&g, (uint32_t)(n < 8 ? n : 8))];
        snprintf(d.explain, sizeof d.explain, "random: bid %d of %d legal bids", d.bid, n);
        cb_plug_deliver(out, &d);
        return 0;
    }
    rb_strength st;
    rb_strength_of(&b->ws, v->rules, v->hand, &st);
    int want = rb_bid_want(v->rules, &st);
    d.minhands_before = st.min_hands;
    if (v->rules->game == CB_GAME_DDZ) {
        d.bid = cb_plug_ddz_bid(v, want);
        snprintf(d.explain, sizeof d.explain, "rule: %d big-card points, %d plays: want %d, bid %d", st.points,
                 st.min_hands, want, d.bid);
    } else {
        bool taken = false;
        for (int s = 0; s < 3; s++)
            if (s != v->seat && v->bids[s] == 1)
                taken = true;
        d.bid = v->rules->bao && !taken && want ? 1 : 0;
        snprintf(d.explain, sizeof d.explain, "rule: %d plays, %d top cards, %d bombs: %s", st.min_hands, st.top,
                 st.bombs, d.bid ? "包庄" : "no 包庄");
    }
    cb_plug_deliver(out, &d);
    return 0;
}

/* Uniform over cb_legal_moves' list (distinct plays by ranks, every kicker layout; the pass
 * when allowed). */
static int random_play(rbot *b, const cb_view *v, const cb_situ *s, cb_decision *d)
{
    cb_ctx ctx;
    cb_situ_ctx(s, &ctx);
    int n = cb_legal_moves(v->rules, &ctx, b->ws.moves, b->ws.cap);
    if (n > b->ws.cap) {
        cb_move *m = realloc(b->ws.moves, (size_t)n * sizeof *m);
        rb_cand *c = realloc(b->ws.cands, (size_t)n * sizeof *c);
        if (m)
            b->ws.moves = m;
        if (c)
            b->ws.cands = c;
        if (!m || !c)
            return -1;
        b->ws.cap = n;
        n = cb_legal_moves(v->rules, &ctx, b->ws.moves, b->ws.cap);
    }
    if (n <= 0)
        return -1;
    cb_rng g;
    cb_rng_seed(&g, cb_rng_mix(v->seed, b->seed));
    const cb_move *m = &b->ws.moves[cb_rng_below(&g, (uint32_t)n)];
    if (m->shape != CB_PASS && cb_cards_pick(v->hand, m->counts, &d->cards) != 0)
        return -1;
    if (m->shape == CB_BOMB || m->shape == CB_ROCKET)
        d->flags |= CB_DEC_BOMB;
    snprintf(d->explain, sizeof d->explain, "random: one of %d legal plays", n);
    return 0;
}

static int rbot_decide_play(void *inst, const cb_view *v, cb_decision *out)
{
    rbot *b = inst;
    if (!b || !out || !cb_plug_view_ok(v) || v->phase != CB_PHASE_PLAY)
        return -1;
    cb_situ s;
    if (cb_situ_from_view_cached(v, &b->replay, &s) != 0)
        return -1;
    cb_decision d;
    cb_plug_decision_init(&d);
    if (b->style == RB_RANDOM) {
        if (random_play(b, v, &s, &d) != 0)
            return -1;
        cb_plug_deliver(out, &d);
        return 0;
    }
    rb_choice c;
    if (rb_choose(&b->ws, &s, &c) != 0)
        return -1;
    if (c.move.shape != CB_PASS && cb_cards_pick(v->hand, c.move.counts, &d.cards) != 0)
        return -1;
    d.flags = c.flags;
    d.minhands_before = c.mh_before;
    d.minhands_after = c.mh_after;
    snprintf(d.explain, sizeof d.explain, "rule: %s (plays %d -> %d)", c.why, c.mh_before, c.mh_after);
    cb_plug_deliver(out, &d);
    return 0;
}

static const cb_bot rulebot_bot = {
    .abi_version = CB_ABI_VERSION,
    .struct_size = sizeof(cb_bot),
    .name = "rulebot",
    .version = "1.0",
    .create = rbot_create,
    .destroy = rbot_destroy,
    .decide_bid = rbot_decide_bid,
    .decide_play = rbot_decide_play,
};

CB_PLUG_EXPORT const cb_bot *cb_plugin_entry(void) { return &rulebot_bot; }

/* cardbot — the heuristic strategy plugin: no search, scored legal plays (plugin/common/policy.c)
 * and bidding by hand strength.
 *
 * Parameters (config keys of a [strategy.NAME] group with plugin = heuristic): the table in
 * params.c (README prints it). level: lower levels stop counting cards (level <= 3), stop team
 * play (<= 2) and endgame finishing (<= 4), look at fewer kicker layouts, and sample among plays
 * within a loss cap of the best (softmax temperature plus a blunder rate), so they are weak but
 * never absurd. personality: a style applied on top of the level's play configuration
 * (plugin/common/personality.c), evaluation opponents unlike ismcts's opponent model; it leaves
 * the bidding to the level, so a personality changes how a deal is played, not which deals
 * are declared. Same view, same seed: same answer.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/decision.h"
#include "cardbot/bot.h"
#include "../common/policy.h"
#include "heuristic.h"

typedef struct heur {
    int level;
    int personality; /* index into heur_personalities; 0 = none */
    uint64_t seed;
    cb_hcfg cfg;
    cb_hws ws;
    cb_replay replay;  /* the history read so far (decisions of one deal come in order) */
} heur;

static void set_err(char *err, size_t errlen, const char *fmt, const char *a, const char *b)
{
    if (err && errlen)
        snprintf(err, errlen, fmt, a, b);
}

static void heur_destroy(void *inst);

static void *heur_create(const cb_param *params, int nparams, char *err, size_t errlen)
{
    heur_params p;
    if (cb_params_parse("heuristic", heur_param_table, heur_param_count, params, nparams, &p, NULL, err, errlen))
        return NULL;
    int level = p.level;
    uint64_t seed = p.seed;
    heur *h = calloc(1, sizeof *h);
    if (!h || cb_hws_init(&h->ws) != 0) {
        free(h);
        set_err(err, errlen, "heuristic: out of memory%s%s", "", "");
        return NULL;
    }
    h->level = level;
    h->personality = p.personality;
    h->seed = seed;
    cb_hcfg_level(&h->cfg, level);
    /* the table's names are the ones personality.c knows; a name it does not know is a table
     * out of step with it, refused here rather than played as level 6 */
    if (cb_hcfg_personality(&h->cfg, heur_personalities[p.personality]) != 0) {
        set_err(err, errlen, "heuristic: personality: '%s' has no configuration%s", heur_personalities[p.personality],
                "");
        heur_destroy(h);
        return NULL;
    }
    return h;
}

static void heur_destroy(void *inst)
{
    heur *h = inst;
    if (!h)
        return;
    cb_hws_free(&h->ws);
    free(h);
}

/* ---- bidding ---- */

static int heur_decide_bid(void *inst, const cb_view *v, cb_decision *out)
{
    heur *h = inst;
    if (!h || !out || !cb_plug_view_ok(v) || v->phase != CB_PHASE_BID)
        return -1;
    cb_decision d;
    cb_plug_decision_init(&d);
    cb_rng rng;
    cb_rng_seed(&rng, cb_rng_mix(v->seed, h->seed ^ 0xB1D));
    cb_hand_strength st;
    cb_hand_strength_of(v->rules, v->hand, &h->ws, &st);
    d.minhands_before = st.min_hands;
    /* lower levels misjudge their hands: noise on the strength, wider the weaker */
    double noise = (6 - h->level) * 0.7 * (cb_rng_unit(&rng) * 2 - 1);
    double sc = st.score + noise;
    if (v->rules->game == CB_GAME_DDZ) {
        /* the thresholds are strength.c's (cb_ddz_bid_want); weaker levels overbid a little */
        int want = cb_ddz_bid_want(sc, (6 - h->level) * 0.4);
        d.bid = cb_plug_ddz_bid(v, want);
        snprintf(d.explain, sizeof d.explain, "strength %.1f (plays %d, bombs %d, 2s %d, jokers %d): %s %d",
                 sc, st.min_hands, st.bombs, st.twos, st.jokers, d.bid ? "bid" : "pass", d.bid);
    } else {
        bool taken = false;
        for (int s = 0; s < 3; s++)
            if (s != v->seat && v->bids[s] == 1)
                taken = true;
        /* 包庄 pays bao_points from each seat either way: only with (nearly) sure control.
         * Calibrated by playing level-6 deals out: from strength 1.5 the declarer goes out
         * first about 3 times in 4 and gains more than without declaring; below 1 it gains
         * less. Weaker levels are more timid, never bolder. */
        d.bid = v->rules->bao && !taken && sc >= 1.0 + (6 - h->level) * 0.5 ? 1 : 0;
        snprintf(d.explain, sizeof d.explain, "strength %.1f (plays %d, top cards %d, bombs %d): %s",
                 sc, st.min_hands, st.top_singles, st.bombs, d.bid ? "包庄" : "no 包庄");
    }
    d.value = (float)(1.0 / (1.0 + exp(-(sc - 8.0) / 2.0)));
    cb_plug_deliver(out, &d);
    return 0;
}

/* ---- play ---- */

static int heur_decide_play(void *inst, const cb_view *v, cb_decision *out)
{
    heur *h = inst;
    if (!h || !out || !cb_plug_view_ok(v) || v->phase != CB_PHASE_PLAY)
        return -1;
    cb_situ s;
    if (cb_situ_from_view_cached(v, &h->replay, &s) != 0)
        return -1;
    cb_rng rng;
    cb_rng_seed(&rng, cb_rng_mix(v->seed, h->seed));
    cb_hchoice ch;
    if (cb_heur_choose(&h->cfg, &s, &h->ws, &rng, &ch) != 0)
        return -1;
    cb_decision d;
    cb_plug_decision_init(&d);
    if (ch.move.shape != CB_PASS && cb_cards_pick(v->hand, ch.move.counts, &d.cards) != 0)
        return -1;
    d.flags = ch.flags;
    d.value = ch.value;
    d.nodes = (uint64_t)(ch.nexact > 0 ? ch.nexact : 0);
    d.minhands_before = ch.mh_before;
    d.minhands_after = ch.mh_after;
    /* "L<level> [<personality> ]<why>" without a second formatting pass (a replay tells the
     * styles apart) */
    size_t at = 0;
    d.explain[at++] = 'L';
    d.explain[at++] = (char)('0' + h->level);
    d.explain[at++] = ' ';
    if (h->personality > 0) {
        const char *pn = heur_personalities[h->personality];
        size_t pl = strlen(pn); /* a short name: at most 8 of the 112 bytes */
        memcpy(d.explain + at, pn, pl);
        at += pl;
        d.explain[at++] = ' ';
    }
    size_t wl = strnlen(ch.why, sizeof ch.why);
    if (wl > sizeof d.explain - 1 - at)
        wl = sizeof d.explain - 1 - at;
    memcpy(d.explain + at, ch.why, wl);
    d.explain[at + wl] = 0;
    cb_plug_deliver(out, &d);
    return 0;
}

static const cb_bot heuristic_bot = {
    .abi_version = CB_ABI_VERSION,
    .struct_size = sizeof(cb_bot),
    .name = "heuristic",
    .version = "1.0",
    .create = heur_create,
    .destroy = heur_destroy,
    .decide_bid = heur_decide_bid,
    .decide_play = heur_decide_play,
};

CB_PLUG_EXPORT const cb_bot *cb_plugin_entry(void) { return &heuristic_bot; }

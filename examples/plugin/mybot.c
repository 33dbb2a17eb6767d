/* mybot — a minimal strategy plugin for cardbot: copy this directory, rename, and make it clever.
 *
 * Build:    make                     (uses only `pkg-config --cflags --libs cardbot-plugin`)
 * Install:  make install             (into `pkg-config --variable=plugindir cardbot-plugin`)
 *           or point the shim at the build directory: CARDBOT_PLUGIN_PATH=$PWD, or
 *           [shim] plugin_dir = /path/to/dir in the config.
 * Use:      [strategy.mine]
 *           plugin = mybot           <- the file's base name, searched along the plugin path
 *           bid = 1                  <- this plugin's one parameter
 *
 * What it plays: the lowest legal play (lowest main rank, then fewest cards), never passing
 * when it may play. What it bids: the highest legal bid not above its `bid` parameter.
 *
 * The rules of the plugin ABI (include/cardbot/bot.h), as this file follows them:
 *  1. Export exactly one symbol, cb_plugin_entry, returning a const cb_bot * (build with
 *     -fvisibility=hidden so nothing else leaks into the host's symbol space).
 *  2. One instance per table seat: create() makes one, destroy() frees it. Keep every bit of
 *     state in the instance — no mutable globals — because a host runs many tables on many
 *     threads at once (it never calls one instance from two threads at a time).
 *  3. Parameters come from the config as key/value strings. Check each one; refuse a bad value
 *     or an unknown key with a message that names the key (the shim shows it with the config
 *     file and group, and the config is refused).
 *  4. Structs grow only at their end; struct_size says how much of one exists. Every member
 *     used here exists since ABI 1.0. Write a decision member that a later ABI minor adds only
 *     when offsetof(member) < out->struct_size.
 *  5. Decide from the view alone (and the parameters): the same view and seed give the same
 *     answer. Do not keep pointers into the view after returning.
 *  6. Return 0 with a legal answer. A wrong answer or a nonzero return is not fatal: the shim
 *     checks every answer with the rules and answers with the config's fallback instead, but
 *     it counts it against you.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cardbot/bot.h>   /* the ABI: cb_bot, cb_view, cb_decision */
#include <cardbot/game.h>  /* cb_view_legal_bids, cb_view_ctx (libcardbot) */
#include <cardbot/rules.h> /* cb_legal_moves, cb_classify (libcardbot) */

/* One instance: its parameter and a scratch list of moves, grown as needed. */
typedef struct mybot {
    int max_bid;      /* parameter `bid`: the highest bid it makes (0..3, default 0) */
    cb_move *moves;
    int cap;
} mybot;

static void *mybot_create(const cb_param *params, int nparams, char *err, size_t errlen)
{
    int max_bid = 0;
    for (int i = 0; i < nparams; i++) {
        const char *k = params[i].key, *v = params[i].value;
        if (strcmp(k, "bid") == 0) {
            char *end = NULL;
            long x = strtol(v, &end, 10);
            if (!*v || *end || x < 0 || x > 3) {
                snprintf(err, errlen, "mybot: bid: '%s' is not a bid 0..3", v);
                return NULL;
            }
            max_bid = (int)x;
        } else {
            snprintf(err, errlen, "mybot: unknown parameter '%s' (known: bid)", k);
            return NULL;
        }
    }
    mybot *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, errlen, "mybot: out of memory");
        return NULL;
    }
    b->max_bid = max_bid;
    return b;
}

static void mybot_destroy(void *inst)
{
    mybot *b = inst;
    if (b)
        free(b->moves);
    free(b);
}

/* DDZ 叫分 / 叫抢地主 or PDK 包庄: the library lists the legal bids (increasing); take the
 * highest one not above the parameter. 0 (pass / no) is always legal. */
static int mybot_decide_bid(void *inst, const cb_view *v, cb_decision *out)
{
    const mybot *b = inst;
    int32_t legal[8];
    int n = cb_view_legal_bids(v, legal, 8);
    out->bid = 0;
    for (int i = 0; i < n && i < 8; i++)
        if (legal[i] <= b->max_bid)
            out->bid = legal[i];
    snprintf(out->explain, sizeof out->explain, "mybot: bid %d (at most %d)", (int)out->bid, b->max_bid);
    return 0;
}

static int mybot_decide_play(void *inst, const cb_view *v, cb_decision *out)
{
    mybot *b = inst;
    const cb_rules *r = v->rules;

    /* The situation in the rules' terms — my hand, the play to beat (if any), whether the
     * next seat has one card left (报单必顶) and whether this is the spade-3 first play — as
     * core derives it for every host and plugin (cb_view_ctx). */
    cb_ctx ctx;
    cb_move table;
    if (v->table && !cb_classify(r, cb_counts_of(v->table), &table, NULL, 0))
        return -1; /* cannot happen: the shim checked the view */
    cb_view_ctx(v, v->table ? &table : NULL, &ctx);

    /* Every legal play by ranks: count them, make room in the instance, list them. */
    int n = cb_legal_moves(r, &ctx, NULL, 0);
    if (n > b->cap) {
        cb_move *m = realloc(b->moves, (size_t)n * sizeof *m);
        if (!m)
            return -1; /* the shim falls back */
        b->moves = m;
        b->cap = n;
    }
    n = cb_legal_moves(r, &ctx, b->moves, b->cap);

    /* The lowest play: lowest main rank, then fewest cards; a pass only when nothing else. */
    const cb_move *best = NULL;
    for (int i = 0; i < n; i++) {
        const cb_move *m = &b->moves[i];
        if (m->shape == CB_PASS)
            continue;
        if (!best || m->main < best->main || (m->main == best->main && m->ncards < best->ncards))
            best = m;
    }
    out->cards = 0; /* pass */
    if (best && cb_cards_pick(v->hand, best->counts, &out->cards) != 0)
        return -1; /* the ranks are not in my hand: cannot happen for a listed play */

    /* The explanation fields are optional, but a host shows them in its replays. */
    out->value = NAN;
    out->minhands_before = cb_min_hands(r, ctx.hand);
    out->minhands_after = best ? cb_min_hands(r, ctx.hand - best->counts) : out->minhands_before;
    char txt[64];
    cb_cards_format(out->cards, false, txt, sizeof txt);
    snprintf(out->explain, sizeof out->explain, "mybot: lowest of %d legal: %s", n, best ? txt : "pass");
    return 0;
}

static const cb_bot mybot_bot = {
    .abi_version = CB_ABI_VERSION, /* the ABI this file was compiled against */
    .struct_size = sizeof(cb_bot),
    .name = "mybot",
    .version = "1.0",
    .create = mybot_create,
    .destroy = mybot_destroy,
    .decide_bid = mybot_decide_bid,
    .decide_play = mybot_decide_play,
};

/* The one exported symbol. */
__attribute__((visibility("default"))) const cb_bot *cb_plugin_entry(void);
const cb_bot *cb_plugin_entry(void) { return &mybot_bot; }

/* cardbot match — one game through the engine (game.h): the engine deals (or takes the deal
 * of a --deals file), runs the bidding
 * (DDZ 叫分 with redeals or 叫/抢地主 under rules->rob; PDK 包庄), checks every action and
 * settles; this file asks the shim for each seat's answer on the view the engine builds and
 * records what happened. The host keeps no game state of its own. */
#include <stddef.h>
#include <string.h>
#include <time.h>

#include "cardbot/game.h"
#include "match.h"

/* The strategy this thread is asking, for the exit trap. Per thread: each game thread has
 * its own decision in flight. */
static _Thread_local const char *deciding;

const char *cb_match_deciding(void)
{
    return deciding;
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void set_error(cb_match_game *gm, int code, const char *what, int seat, const char *why)
{
    gm->error = code;
    snprintf(gm->errmsg, sizeof gm->errmsg, "%s at seat %d: %s", what, seat, why);
}

static const char *shim_reason(cb_table *table, int code)
{
    const char *why = cb_table_last_error(table);
    return why && why[0] ? why : cb_strerror(code);
}

/* One bid: ask the seat to act, apply its answer. -1 on a refused call (recorded in gm). */
static int bid_once(cb_engine *e, cb_table *table, const cb_match_opts *o, cb_match_game *gm)
{
    int seat = cb_engine_turn(e);
    cb_view v;
    cb_engine_view(e, seat, o->budget_ms, &v);
    cb_decision d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    uint64_t t0 = now_ns();
    deciding = gm->strategy[seat];
    int code = cb_decide_bid(table, &v, &d);
    deciding = NULL;
    uint64_t ns = now_ns() - t0;
    if (code < 0) {
        set_error(gm, code, "bid", seat, shim_reason(table, code));
        return -1;
    }
    int redeals = cb_engine_redeals(e);
    char err[160];
    if (cb_engine_bid(e, d.bid, err, sizeof err) != 0) { /* the shim checked it: a bug if so */
        set_error(gm, CB_ERR_ARG, "bid", seat, err);
        return -1;
    }
    if (cb_engine_redeals(e) != redeals) { /* all passed: the record starts again */
        gm->nbids = 0;
        return 0;
    }
    if (gm->nbids < (int)(sizeof gm->bids / sizeof gm->bids[0])) {
        cb_match_bid *b = &gm->bids[gm->nbids++];
        b->seat = seat;
        b->bid = d.bid;
        b->code = code;
        b->ns = ns;
        b->value = d.value;
        memcpy(b->explain, d.explain, sizeof b->explain);
        b->explain[sizeof b->explain - 1] = 0;
    }
    return 0;
}

/* One play: ask the seat to act, apply its answer. -1 on a refused call (recorded in gm). */
static int play_once(cb_engine *e, cb_table *table, const cb_match_opts *o, cb_match_game *gm)
{
    if (gm->nplays >= CB_MATCH_MAX_PLAYS) {
        set_error(gm, CB_ERR_ARG, "play", cb_engine_turn(e), "too many decisions");
        return -1;
    }
    int seat = cb_engine_turn(e);
    cb_view v;
    cb_engine_view(e, seat, o->budget_ms, &v);
    cb_match_play *p = &gm->plays[gm->nplays];
    memset(p, 0, sizeof *p);
    p->seat = seat;
    p->dec.struct_size = sizeof p->dec;
    cb_cards two[2];
    p->forced = cb_engine_legal_plays(e, two, 2) <= 1;
    uint64_t t0 = now_ns();
    deciding = gm->strategy[seat];
    int code = cb_decide_play(table, &v, &p->dec);
    deciding = NULL;
    p->ns = now_ns() - t0;
    if (code < 0) {
        set_error(gm, code, "play", seat, shim_reason(table, code));
        return -1;
    }
    p->code = code;
    p->cards = p->dec.cards;
    char err[160];
    if (cb_engine_play(e, p->cards, err, sizeof err) != 0) {
        set_error(gm, CB_ERR_ARG, "play", seat, err);
        return -1;
    }
    gm->nplays++;
    return 0;
}

/* The engine options of game gm->index: deal gm->deal from the match key, or line gm->deal of
 * --deals. hands receives the given hands in the order the engine gets them. */
static int engine_opts(const cb_rules *r, const cb_match_opts *o, cb_match_game *gm, cb_cards hands[3],
                       cb_engine_opts *eo)
{
    memset(eo, 0, sizeof *eo);
    eo->struct_size = sizeof *eo;
    eo->key = o->seed;
    eo->deal = (uint64_t)gm->deal;
    eo->game = (uint64_t)gm->index;
    eo->rotation = gm->rotation;
    eo->first_bidder = -1;
    eo->landlord = r->game == CB_GAME_DDZ ? o->landlord : -1;
    if (!o->deals)
        return 0;
    if (gm->deal >= o->ndeals) { /* cmd_match checks the count first: a caller's bug */
        gm->error = CB_ERR_ARG;
        snprintf(gm->errmsg, sizeof gm->errmsg, "deal %d: the deals file has %d", gm->deal + 1, o->ndeals);
        return -1;
    }
    const cb_match_deal *d = &o->deals[gm->deal];
    int shift = 0;
    if (d->first_bidder >= 0 && r->game == CB_GAME_DDZ && eo->landlord < 0) {
        /* The given first bidder, without fixing it: a fixed first bidder (cb_engine_opts)
         * would also bid first in every redeal, where a match without --deals draws a new one
         * from the key. The key draws a hand index K (cb_engine_first_bidder at rotation 0,
         * whatever the hands); the engine seats index i at (i - rotation) mod 3. Turning both
         * the hands' indices and the rotation by shift = K - F leaves every hand at its seat
         * and puts the given hand F at index K: it bids first, and a redeal is the key's
         * (hands and first bidder), as without --deals. A file saved with --save-deals and
         * played with the same seed gives shift 0: the very same engine. */
        cb_engine_opts probe = *eo;
        probe.rotation = 0;
        probe.hands = d->hands;
        probe.bottom = d->bottom;
        cb_engine *e = cb_engine_new(r, &probe, NULL, 0);
        if (e) {
            shift = (cb_engine_first_bidder(e) - d->first_bidder + 3) % 3;
            cb_engine_free(e);
        }
    }
    for (int h = 0; h < 3; h++)
        hands[(h + shift) % 3] = d->hands[h];
    eo->rotation = (gm->rotation + shift) % 3;
    eo->hands = hands;
    eo->bottom = d->bottom;
    return 0;
}

/* The deal as the engine opened it, in deal order: what --save-deals writes. */
static void record_opening(const cb_rules *r, const cb_engine *e, cb_match_game *gm)
{
    for (int h = 0; h < 3; h++)
        gm->opening.hands[h] = cb_engine_dealt(e, (h - gm->rotation + 3) % 3);
    gm->opening.bottom = cb_engine_bottom(e);
    int fb = r->game == CB_GAME_DDZ ? cb_engine_first_bidder(e) : -1;
    gm->opening.first_bidder = fb >= 0 ? (fb + gm->rotation) % 3 : -1;
    gm->opened = true;
}

void cb_match_play_game(cb_table *table, const cb_rules *r, const cb_match_opts *o, int g, cb_match_game *gm)
{
    memset(gm, 0, offsetof(cb_match_game, plays));
    gm->index = g;
    gm->deal = o->duplicate ? g / 3 : g;
    gm->rotation = o->duplicate ? g % 3 : 0;
    gm->landlord = -1;
    gm->winner = -1;
    gm->first_seat = gm->first_bidder = -1;
    for (int s = 0; s < 3; s++) {
        const char *name = cb_table_strategy(table, s);
        snprintf(gm->strategy_buf[s], sizeof gm->strategy_buf[s], "%s", name ? name : "?");
        gm->strategy[s] = gm->strategy_buf[s];
    }
    /* The deal depends on (seed, deal) only — or on the deals file's line — so each strategy
     * of a duplicate match meets every hand of the deal; the view seeds depend on (seed,
     * game) through their own stream. */
    cb_engine_opts eo;
    cb_cards hands[3];
    if (engine_opts(r, o, gm, hands, &eo) != 0)
        return;
    char err[200];
    cb_engine *e = cb_engine_new(r, &eo, err, sizeof err);
    if (!e) {
        gm->error = CB_ERR_ARG;
        snprintf(gm->errmsg, sizeof gm->errmsg, "engine: %s", err);
        return;
    }
    gm->seed = o->seed;
    record_opening(r, e, gm);
    int rc = 0;
    while (rc == 0 && cb_engine_phase(e) == CB_PHASE_BID)
        rc = bid_once(e, table, o, gm);
    while (rc == 0 && cb_engine_phase(e) == CB_PHASE_PLAY)
        rc = play_once(e, table, o, gm);
    for (int s = 0; s < 3; s++)
        gm->dealt[s] = cb_engine_dealt(e, s);
    gm->bottom = cb_engine_bottom(e);
    gm->redeals = cb_engine_redeals(e);
    gm->first_seat = cb_engine_first_seat(e);
    gm->first_bidder = cb_engine_first_bidder(e);
    gm->landlord = cb_engine_landlord(e);
    gm->bid_value = r->game == CB_GAME_DDZ ? cb_engine_stake(e) : 0;
    if (rc == 0) {
        gm->winner = cb_engine_winner(e);
        gm->multiplier = cb_engine_points(e, gm->delta);
        for (int s = 0; s < 3; s++) {
            gm->plays_made[s] = cb_engine_plays_made(e, s);
            gm->bomb_tricks[s] = cb_engine_bomb_tricks(e, s);
        }
        const cb_deal *d = cb_engine_deal(e);
        for (int s = 0; d && s < 3; s++)
            gm->bombs_total += d->bombs[s];
    }
    cb_engine_free(e);
}

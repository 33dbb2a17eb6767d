/* cardbot — a whole game: deal, bidding, play through cb_deal, views, settlement (game.h).
 *
 * The engine keeps the true state; seats see only what cb_engine_view builds. Every action is
 * checked before anything changes, so a refused action leaves the game as it was. The play
 * phase is cb_deal (deal.c) with validation on: the trick flow exists once. */
#include "cardbot/game.h"
#include "msg.h"

#include "bidding.h"
#include "shuffle_int.h"
#include "util_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every action removes a card or is one of at most two passes after a play: 3 x 54 < 256. */
#define MAX_HIST 256
#define MAX_BIDS 16

struct cb_engine {
    cb_rules rules;
    uint64_t key, deal_index, game;
    int rotation, max_redeals, fixed_landlord, want_first_bidder;
    bool given;
    cb_cards given_hands[3], given_bottom;

    int phase;
    cb_cards dealt[3], bottom;
    int first_bidder, first_seat, landlord, stake, redeals;
    uint64_t actions;          /* bids and plays so far, redeals included (view seeds) */
    bidding bid;               /* the bidding of the current deal (bids[] stay for the views) */
    int nbid;                  /* bid actions of the current deal */
    int32_t bid_seat[MAX_BIDS], bid_val[MAX_BIDS];
    cb_deal deal;
    cb_play_rec hist[MAX_HIST];
};

/* a message for the caller, and -1 */
#define fail(err, errlen, ...) core_msg_ret(-1, (err), (errlen), __VA_ARGS__)

/* The engine's draw: its keyed stream's next word, modulo n (core/shuffle_int.h deals) */
static uint32_t draw_mod(void *seed, uint32_t n) { return (uint32_t)(cb_splitmix64(seed) % n); }

/* The deal's hand index h sits at seat (h - rotation) mod 3. */
static int seat_of_hand(const cb_engine *e, int h) { return (h + 3 - e->rotation) % 3; }

static void start_play(cb_engine *e)
{
    const cb_rules *r = &e->rules;
    cb_cards hands[3] = {e->dealt[0], e->dealt[1], e->dealt[2]};
    if (r->game == CB_GAME_DDZ) {
        hands[e->landlord] |= e->bottom;
        e->first_seat = e->landlord;
    }
    e->deal.hist = e->hist;
    e->deal.hist_cap = MAX_HIST;
    e->deal.check = true;
    cb_deal_init(&e->deal, r, hands, e->first_seat, e->landlord, e->stake, r->game == CB_GAME_DDZ ? e->bottom : 0);
    e->phase = CB_PHASE_PLAY;
}

/* Deal (or redeal) and enter the first phase. */
static void deal_round(cb_engine *e)
{
    const cb_rules *r = &e->rules;
    cb_cards hands[3], bottom;
    if (e->given && e->redeals == 0) {
        for (int h = 0; h < 3; h++)
            hands[h] = e->given_hands[h];
        bottom = e->given_bottom;
    } else {
        uint64_t seed = cb_prf64(e->key, "deal", e->deal_index, (uint64_t)e->redeals, 0);
        cb_shuffle_deal(r->deck, r->hand_size, draw_mod, &seed, hands, &bottom);
    }
    for (int h = 0; h < 3; h++)
        e->dealt[seat_of_hand(e, h)] = hands[h];
    e->bottom = bottom;
    /* who bids (DDZ) or leads (PDK without the spade-3 rule) first: a property of the deal,
     * so a duplicate match gives it to the same hand */
    int first_hand = (int)(cb_prf64(e->key, "first", e->deal_index, (uint64_t)e->redeals, 0) % 3);
    bidding_start(&e->bid, -1);
    e->nbid = 0;
    e->landlord = -1;
    e->stake = 1;
    memset(&e->deal, 0, sizeof e->deal);
    if (r->game == CB_GAME_DDZ) {
        e->first_seat = -1;
        if (e->fixed_landlord >= 0) {
            e->first_bidder = -1;
            e->landlord = e->fixed_landlord;
            start_play(e);
            return;
        }
        e->first_bidder = e->want_first_bidder >= 0 ? e->want_first_bidder : seat_of_hand(e, first_hand);
        bidding_start(&e->bid, e->first_bidder);
        e->phase = CB_PHASE_BID;
        return;
    }
    e->first_seat = seat_of_hand(e, first_hand);
    if (r->spade3_first && (r->deck & cb_card_bit(CB_CARD_S3)))
        for (int s = 0; s < 3; s++)
            if (e->dealt[s] & cb_card_bit(CB_CARD_S3))
                e->first_seat = s;
    if (r->bao) {
        e->first_bidder = e->first_seat;
        bidding_start(&e->bid, e->first_bidder);
        e->phase = CB_PHASE_BID;
    } else {
        e->first_bidder = -1;
        start_play(e);
    }
}

static int check_given(const cb_rules *r, const cb_cards hands[3], cb_cards bottom, char *err, size_t errlen)
{
    cb_cards all = 0;
    for (int h = 0; h < 3; h++) {
        if (hands[h] & ~r->deck)
            return fail(err, errlen, "hands[%d]: cards not in the %s deck", h, r->preset);
        if (hands[h] & all)
            return fail(err, errlen, "hands[%d]: a card is dealt twice", h);
        if (cb_cards_size(hands[h]) != r->hand_size)
            return fail(err, errlen, "hands[%d]: %d cards, the %s hand size is %d", h,
                        cb_cards_size(hands[h]), r->preset, r->hand_size);
        all |= hands[h];
    }
    if (bottom & all)
        return fail(err, errlen, "bottom: a card is also in a hand");
    if ((all | bottom) != r->deck)
        return fail(err, errlen, "hands and bottom: they do not make up the %s deck", r->preset);
    return 0;
}

cb_engine *cb_engine_new(const cb_rules *r, const cb_engine_opts *o, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (!r || (r->game != CB_GAME_PDK && r->game != CB_GAME_DDZ) || r->players != 3) {
        fail(err, errlen, "rules: not a three-player PDK or DDZ rule set");
        return NULL;
    }
    cb_engine_opts opt;
    memset(&opt, 0, sizeof opt);
    opt.first_bidder = opt.landlord = -1;
    if (o) {
        if (o->struct_size < offsetof(cb_engine_opts, bottom) + sizeof o->bottom) {
            fail(err, errlen, "opts: struct_size %u is smaller than the 1.1 options", (unsigned)o->struct_size);
            return NULL;
        }
        memcpy(&opt, o, sizeof opt); /* no member beyond 1.1's yet */
    }
    if (opt.rotation < 0 || opt.rotation > 2) {
        fail(err, errlen, "opts: rotation %d is not 0..2", (int)opt.rotation);
        return NULL;
    }
    if (opt.first_bidder < -1 || opt.first_bidder > 2) {
        fail(err, errlen, "opts: first_bidder %d is not -1..2", (int)opt.first_bidder);
        return NULL;
    }
    if (opt.landlord < -1 || opt.landlord > 2 || (opt.landlord >= 0 && r->game != CB_GAME_DDZ)) {
        fail(err, errlen, "opts: landlord %d (fixed roles are a DDZ option, seat 0..2)", (int)opt.landlord);
        return NULL;
    }
    if (opt.max_redeals < 0) {
        fail(err, errlen, "opts: max_redeals %d is negative", (int)opt.max_redeals);
        return NULL;
    }
    if (opt.hands && check_given(r, opt.hands, opt.bottom, err, errlen) != 0)
        return NULL;
    cb_engine *e = calloc(1, sizeof *e);
    if (!e) {
        fail(err, errlen, "out of memory");
        return NULL;
    }
    e->rules = *r;
    e->key = opt.key;
    e->deal_index = opt.deal;
    e->game = opt.game;
    e->rotation = opt.rotation;
    e->max_redeals = opt.max_redeals ? opt.max_redeals : 16;
    e->fixed_landlord = opt.landlord;
    e->want_first_bidder = opt.first_bidder;
    if (opt.hands) {
        e->given = true;
        for (int h = 0; h < 3; h++)
            e->given_hands[h] = opt.hands[h];
        e->given_bottom = opt.bottom;
    }
    deal_round(e);
    return e;
}

void cb_engine_free(cb_engine *e)
{
    free(e);
}

cb_engine *cb_engine_clone(const cb_engine *e)
{
    if (!e)
        return NULL;
    cb_engine *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    memcpy(c, e, sizeof *c);
    /* the copy's deal records into the copy's own history and reads the copy's rules */
    c->deal.rules = &c->rules;
    if (c->deal.hist)
        c->deal.hist = c->hist;
    return c;
}

const cb_rules *cb_engine_rules(const cb_engine *e) { return e ? &e->rules : NULL; }
int cb_engine_phase(const cb_engine *e) { return e ? e->phase : -1; }

int cb_engine_turn(const cb_engine *e)
{
    if (!e)
        return -1;
    if (e->phase == CB_PHASE_BID)
        return e->bid.turn;
    if (e->phase == CB_PHASE_PLAY)
        return e->deal.turn;
    return -1;
}

cb_cards cb_engine_hand(const cb_engine *e, int seat)
{
    if (!e || seat < 0 || seat > 2)
        return 0;
    return e->phase == CB_PHASE_BID ? e->dealt[seat] : e->deal.hands[seat];
}

cb_cards cb_engine_dealt(const cb_engine *e, int seat)
{
    return e && seat >= 0 && seat < 3 ? e->dealt[seat] : 0;
}

cb_cards cb_engine_bottom(const cb_engine *e) { return e ? e->bottom : 0; }
int cb_engine_landlord(const cb_engine *e) { return e ? e->landlord : -1; }
int cb_engine_first_seat(const cb_engine *e) { return e ? e->first_seat : -1; }
int cb_engine_first_bidder(const cb_engine *e) { return e ? e->first_bidder : -1; }
int cb_engine_stake(const cb_engine *e) { return e ? e->stake : 0; }
int cb_engine_redeals(const cb_engine *e) { return e ? e->redeals : 0; }

int cb_engine_bids(const cb_engine *e, int32_t bids[3], int32_t *seats, int32_t *values, int cap)
{
    if (!e)
        return 0;
    for (int s = 0; bids && s < 3; s++)
        bids[s] = e->bid.bids[s];
    for (int i = 0; i < e->nbid && i < cap; i++) {
        if (seats)
            seats[i] = e->bid_seat[i];
        if (values)
            values[i] = e->bid_val[i];
    }
    return e->nbid;
}

const cb_play_rec *cb_engine_history(const cb_engine *e, int *n)
{
    if (n)
        *n = (e && e->phase != CB_PHASE_BID) ? e->deal.nhist : 0;
    return e ? e->hist : NULL;
}

const cb_deal *cb_engine_deal(const cb_engine *e)
{
    return e && e->phase != CB_PHASE_BID ? &e->deal : NULL;
}

/* ---- bidding ---- */

int cb_engine_legal_bids(const cb_engine *e, int32_t *out, int cap)
{
    if (!e || e->phase != CB_PHASE_BID)
        return 0;
    int32_t b[4];
    int n = bidding_legal(&e->bid, &e->rules, b);
    for (int i = 0; i < n && out && i < cap; i++)
        out[i] = b[i];
    return n;
}

int cb_engine_bid(cb_engine *e, int bid, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (!e)
        return fail(err, errlen, "no engine");
    if (e->phase != CB_PHASE_BID)
        return fail(err, errlen, "not the bidding phase");
    const cb_rules *r = &e->rules;
    int32_t ok[4];
    int n = bidding_legal(&e->bid, r, ok);
    bool legal = false;
    for (int i = 0; i < n; i++)
        legal = legal || ok[i] == bid;
    if (!legal) {
        if (r->game == CB_GAME_PDK)
            return fail(err, errlen, "bid %d: 包庄 takes 0 (no) or 1 (declare)", bid);
        if (r->rob)
            return fail(err, errlen, "bid %d: %s", bid, ok[1] == 1 ? "叫地主 takes 0 (pass) or 1 (call)"
                                                                 : "抢地主 takes 0 (pass) or 2 (rob)");
        return fail(err, errlen, "bid %d: takes 0 (pass) or a score above %d up to 3", bid, e->bid.best);
    }
    if (e->nbid < MAX_BIDS) {
        e->bid_seat[e->nbid] = e->bid.turn;
        e->bid_val[e->nbid] = bid;
        e->nbid++;
    }
    e->actions++;
    int landlord = -1, stake = 1;
    switch (bidding_apply(&e->bid, r, bid, &landlord, &stake)) {
    case BIDDING_DONE:
        e->landlord = landlord;
        e->stake = stake;
        start_play(e);
        break;
    case BIDDING_ALL_PASSED:
        /* shuffle again; after max_redeals the first bidder is landlord at 1 */
        if (e->redeals < e->max_redeals) {
            e->redeals++;
            deal_round(e);
        } else {
            e->landlord = e->first_bidder;
            e->stake = 1;
            start_play(e);
        }
        break;
    default:
        break;
    }
    return 0;
}

/* ---- play ---- */

int cb_engine_legal_plays(const cb_engine *e, cb_cards *out, int cap)
{
    if (!e || e->phase != CB_PHASE_PLAY)
        return 0;
    cb_ctx ctx;
    cb_deal_ctx(&e->deal, &ctx);
    int n = cb_legal_moves(&e->rules, &ctx, NULL, 0);
    if (n <= 0 || !out || cap <= 0)
        return n;
    cb_move *moves = malloc((size_t)n * sizeof *moves);
    if (!moves)
        return -1;
    cb_legal_moves(&e->rules, &ctx, moves, n);
    cb_cards hand = e->deal.hands[e->deal.turn];
    for (int i = 0; i < n && i < cap; i++) {
        cb_cards c = 0;
        if (moves[i].shape != CB_PASS)
            cb_cards_pick(hand, moves[i].counts, &c);
        out[i] = c;
    }
    free(moves);
    return n;
}

int cb_engine_play(cb_engine *e, cb_cards cards, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (!e)
        return fail(err, errlen, "no engine");
    if (e->phase != CB_PHASE_PLAY)
        return fail(err, errlen, e->phase == CB_PHASE_BID ? "the bidding is not over" : "the game is over");
    cb_cards hand = e->deal.hands[e->deal.turn];
    if (cards & ~hand) {
        char buf[64];
        cb_cards_format(cards & ~hand & CB_FULL_DECK, true, buf, sizeof buf);
        return fail(err, errlen, "cards not in seat %d's hand: %s", e->deal.turn, buf);
    }
    char why[128] = "";
    cb_deal before = e->deal;
    int rc = cb_deal_step_cards(&e->deal, cards, NULL, why, sizeof why);
    if (rc < 0) {
        e->deal = before;
        return fail(err, errlen, "%s", why);
    }
    e->actions++;
    if (rc == 1)
        e->phase = CB_PHASE_OVER;
    return 0;
}

/* ---- views and results ---- */

int cb_engine_view(const cb_engine *e, int seat, uint32_t budget_ms, cb_view *v)
{
    if (!e || !v || seat < 0 || seat > 2 || e->phase == CB_PHASE_OVER)
        return -1;
    if (e->phase == CB_PHASE_PLAY) {
        cb_deal_view(&e->deal, e->bid.bids, 0, v);
        /* any seat, not only the one to act: its own hand, the same public record */
        v->seat = seat;
        v->hand = e->deal.hands[seat];
    } else {
        memset(v, 0, sizeof *v);
        v->struct_size = sizeof *v;
        v->abi_version = CB_ABI_VERSION;
        v->rules = &e->rules;
        v->seat = seat;
        v->nseats = 3;
        v->hand = e->dealt[seat];
        for (int s = 0; s < 3; s++) {
            v->cards_left[s] = cb_cards_size(e->dealt[s]);
            v->bids[s] = e->bid.bids[s];
        }
        v->landlord = -1;
        v->history = e->hist;
        v->table_seat = -1;
    }
    v->phase = e->phase;
    v->first_seat = e->first_seat;
    v->first_bidder = e->first_bidder;
    v->landlord = e->landlord;
    v->bottom = (e->rules.game == CB_GAME_DDZ && e->landlord >= 0) ? e->bottom : 0;
    v->budget_ms = budget_ms;
    v->seed = cb_prf64(e->key, "seed", e->game, e->actions, (uint64_t)seat);
    return 0;
}

int cb_engine_winner(const cb_engine *e)
{
    return e && e->phase == CB_PHASE_OVER ? e->deal.winner : -1;
}

int cb_engine_points(const cb_engine *e, int delta[3])
{
    if (!e || e->phase != CB_PHASE_OVER) {
        if (delta)
            memset(delta, 0, 3 * sizeof delta[0]);
        return -1;
    }
    return cb_deal_points(&e->deal, delta);
}

int cb_engine_plays_made(const cb_engine *e, int seat)
{
    return e && seat >= 0 && seat < 3 && e->phase != CB_PHASE_BID ? e->deal.plays[seat] : 0;
}

int cb_engine_bomb_tricks(const cb_engine *e, int seat)
{
    return e && seat >= 0 && seat < 3 && e->phase != CB_PHASE_BID ? e->deal.bomb_tricks[seat] : 0;
}

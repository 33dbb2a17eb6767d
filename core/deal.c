/* cardbot — the play phase with all hands known (game.h: cb_deal). The one trick flow: the
 * engine (engine.c), the view check and the plugins' play-outs all step through it. */
#include "cardbot/game.h"
#include "moves_int.h"
#include "msg.h"

#include <stdio.h>
#include <string.h>

static int next_seat(int s) { return s == 2 ? 0 : s + 1; }

static void set_why(char *why, size_t whylen, const char *msg)
{
    if (why && whylen)
        snprintf(why, whylen, "%s", msg);
}

void cb_voids_init(cb_voids *v)
{
    memset(v->above, CB_NRANKS, sizeof v->above);
    memset(v->no_bomb, 0, sizeof v->no_bomb);
}

static void lower(int8_t *a, int r)
{
    if (r < *a)
        *a = (int8_t)r;
}

void cb_voids_on_pass(cb_voids *v, const cb_rules *r, int seat, const cb_move *table, int ncards)
{
    if (!r->must_beat || seat < 0 || seat > 2)
        return;
    switch (table->shape) {
    case CB_SINGLE: lower(&v->above[seat][1], table->main); break;
    case CB_PAIR: lower(&v->above[seat][2], table->main); break;
    case CB_TRIPLE_2:
        /* PDK 三带二 kickers are any two cards: with five cards a higher triple could go */
        if (r->game == CB_GAME_PDK && ncards >= 5)
            lower(&v->above[seat][3], table->main);
        break;
    default: break;
    }
    if (r->must_beat_bomb) {
        if (table->shape == CB_BOMB)
            lower(&v->above[seat][4], table->main);
        else if (table->shape != CB_ROCKET)
            v->no_bomb[seat] = 1;
    }
}

void cb_deal_init(cb_deal *g, const cb_rules *r, const cb_cards hands[3], int first_seat,
                  int landlord, int bid, cb_cards bottom)
{
    cb_play_rec *hist = g->hist;
    int hist_cap = g->hist_cap;
    bool check = g->check;
    memset(g, 0, sizeof *g);
    g->hist = hist;
    g->hist_cap = hist ? hist_cap : 0;
    g->check = check;
    g->rules = r;
    for (int s = 0; s < 3; s++)
        g->hands[s] = hands[s];
    g->bottom = bottom;
    g->landlord = landlord;
    g->bid = bid;
    if (first_seat < 0) {
        first_seat = 0;
        if (r->game == CB_GAME_PDK && r->spade3_first) {
            for (int s = 0; s < 3; s++)
                if (hands[s] & cb_card_bit(CB_CARD_S3))
                    first_seat = s;
        } else if (r->game == CB_GAME_DDZ && landlord >= 0 && landlord < 3) {
            first_seat = landlord;
        }
    }
    g->first_seat = first_seat;
    g->turn = first_seat;
    g->table_seat = -1;
    g->first_play = true;
    g->winner = -1;
    cb_voids_init(&g->voids);
}

void cb_deal_ctx(const cb_deal *g, cb_ctx *ctx)
{
    cb_cards nh = g->hands[next_seat(g->turn)];
    cb_ctx_fill(ctx, g->rules, g->hands[g->turn], g->table_seat >= 0 ? &g->table : NULL, nh && !(nh & (nh - 1)),
                g->first_play);
}

static void record(cb_deal *g, int seat, cb_cards cards)
{
    if (g->hist && g->nhist < g->hist_cap) {
        g->hist[g->nhist].cards = cards;
        g->hist[g->nhist].seat = seat;
        g->hist[g->nhist].pad = 0;
        g->nhist++;
    }
}

/* The public bookkeeping of a pass by the seat to act, holding ncards (the caller checked
 * it): the one place a trick ends (cb_deal_step and cb_deal_of_view both come here). */
__attribute__((always_inline)) static inline void note_pass(cb_deal *g, int ncards)
{
    int seat = g->turn;
    record(g, seat, 0);
    cb_voids_on_pass(&g->voids, g->rules, seat, &g->table, ncards);
    g->steps++;
    if (++g->npass >= 2) {
        /* trick over: the table play stands */
        if (cb_move_is_bomb(&g->table))
            g->bomb_tricks[g->table_seat]++;
        g->turn = g->table_seat;
        g->table_seat = -1;
        g->npass = 0;
    } else {
        g->turn = next_seat(seat);
    }
}

/* The public bookkeeping of a play of `cards` read as *play by the seat to act; the turn
 * stays with it (the caller moves it on, or ends the deal). */
static void note_play(cb_deal *g, cb_cards cards, const cb_move *play)
{
    int seat = g->turn;
    g->played |= cards;
    g->plays[seat]++;
    if (cb_move_is_bomb(play))
        g->bombs[seat]++;
    record(g, seat, cards);
    g->steps++;
    g->first_play = false;
    g->table = *play;
    g->table_cards = cards;
    g->table_seat = seat;
    g->npass = 0;
}

/* A pass by the seat to act (the caller made sure a trick is open). */
static int step_pass(cb_deal *g, char *why, size_t whylen)
{
    int seat = g->turn;
    if (g->table_seat < 0) {
        set_why(why, whylen, "pass while leading");
        return -1;
    }
    if (g->check) {
        cb_ctx ctx;
        cb_deal_ctx(g, &ctx);
        cb_move cls;
        if (!cb_play_legal(g->rules, &ctx, 0, &cls, why, whylen))
            return -1;
    }
    note_pass(g, cb_cards_size(g->hands[seat]));
    return 0;
}

/* A play of these cards, read as *m when given. */
static int step_play(cb_deal *g, cb_cards cards, const cb_move *m, char *why, size_t whylen)
{
    int seat = g->turn;
    cb_move play;
    if (m)
        play = *m;
    if (g->check || !m) {
        cb_ctx ctx;
        cb_deal_ctx(g, &ctx);
        if (g->check && ctx.first_play && !(cards & cb_card_bit(CB_CARD_S3))) {
            set_why(why, whylen, "the first play must hold the spade 3");
            return -1;
        }
        if (g->check) {
            if (!cb_play_legal(g->rules, &ctx, cb_counts_of(cards), &play, why, whylen))
                return -1;
        } else if (!cb_classify(g->rules, cb_counts_of(cards), &play, why, whylen)) {
            return -1;
        }
    }
    g->hands[seat] &= ~cards;
    note_play(g, cards, &play);
    if (g->hands[seat] == 0) {
        if (cb_move_is_bomb(&play))
            g->bomb_tricks[seat]++; /* nobody can answer: it won its trick */
        g->winner = seat;
        return 1;
    }
    g->turn = next_seat(seat);
    return 0;
}

int cb_deal_step(cb_deal *g, const cb_move *m, char *why, size_t whylen)
{
    if (g->winner >= 0) {
        set_why(why, whylen, "the deal is over");
        return -1;
    }
    if (m->shape == CB_PASS || m->counts == 0)
        return step_pass(g, why, whylen);
    cb_cards cards;
    if (cb_cards_pick(g->hands[g->turn], m->counts, &cards) != 0) {
        set_why(why, whylen, "cards not in hand");
        return -1;
    }
    return step_play(g, cards, m, why, whylen);
}

int cb_deal_step_cards(cb_deal *g, cb_cards cards, const cb_move *m, char *why, size_t whylen)
{
    if (g->winner >= 0) {
        set_why(why, whylen, "the deal is over");
        return -1;
    }
    if (!cards)
        return step_pass(g, why, whylen);
    if (cards & ~g->hands[g->turn]) {
        set_why(why, whylen, "cards not in hand");
        return -1;
    }
    return step_play(g, cards, m, why, whylen);
}

int cb_deal_run(cb_deal *g, cb_deal_policy const pols[3], void *const users[3], int max_steps,
                char *why, size_t whylen)
{
    while (g->winner < 0) {
        if (g->steps >= max_steps) {
            set_why(why, whylen, "step limit");
            return -2;
        }
        int s = g->turn;
        cb_move m;
        memset(&m, 0, sizeof m);
        if (pols[s](users[s], g, &m) != 0) {
            set_why(why, whylen, "policy failed");
            return -1;
        }
        if (cb_deal_step(g, &m, why, whylen) < 0)
            return -1;
    }
    return g->winner;
}

int cb_deal_points(const cb_deal *g, int delta[3])
{
    memset(delta, 0, 3 * sizeof delta[0]);
    if (g->winner < 0)
        return -1;
    if (g->rules->game == CB_GAME_DDZ) {
        cb_ddz_result res;
        memset(&res, 0, sizeof res);
        res.landlord = g->landlord;
        res.bid = g->bid;
        res.winner = g->winner;
        for (int s = 0; s < 3; s++) {
            res.bombs += g->bombs[s];
            if (s == g->landlord)
                res.landlord_plays += g->plays[s];
            else
                res.farmer_plays += g->plays[s];
        }
        return cb_ddz_settle(g->rules, &res, delta);
    } else {
        cb_pdk_result res;
        memset(&res, 0, sizeof res);
        res.winner = g->winner;
        res.bao = g->landlord;
        for (int s = 0; s < 3; s++) {
            res.cards_left[s] = cb_cards_size(g->hands[s]);
            res.plays[s] = g->plays[s];
            res.bomb_tricks[s] = g->bomb_tricks[s];
        }
        cb_pdk_settle(g->rules, &res, delta);
    }
    return 1;
}

void cb_deal_view(const cb_deal *g, const int bids[3], uint64_t seed, cb_view *v)
{
    memset(v, 0, sizeof *v);
    v->struct_size = sizeof *v;
    v->abi_version = CB_ABI_VERSION;
    v->rules = g->rules;
    v->phase = CB_PHASE_PLAY;
    v->seat = g->turn;
    v->nseats = 3;
    v->first_seat = g->first_seat;
    v->hand = g->hands[g->turn];
    for (int s = 0; s < 3; s++) {
        v->cards_left[s] = cb_cards_size(g->hands[s]);
        v->bombs[s] = g->bombs[s];
        v->bids[s] = bids ? bids[s] : -1;
    }
    v->landlord = g->landlord;
    v->bottom = g->bottom;
    v->history = g->hist;
    v->nhistory = g->hist ? g->nhist : 0;
    v->table_seat = g->table_seat;
    v->table = g->table_seat >= 0 ? g->table_cards : 0;
    v->budget_ms = 1000;
    v->seed = seed;
    v->first_bidder = -1;
}

/* The reading a recorded play was accepted under, as cb_play_legal chooses it (the canonical
 * reading when leading, else the best one that beats the table). Only whether the play
 * emptied the hand matters (PDK short plays), so a play that did not is checked against the
 * play plus one big joker: a nibble no reading of the play looks at. */
static bool accepted_reading(const cb_rules *r, cb_counts play, const cb_move *table, bool whole, cb_move *m)
{
    cb_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.hand = whole ? play : play + ((cb_counts)1 << (4 * CB_RANK_D));
    ctx.table = table;
    return cb_play_legal(r, &ctx, play, m, NULL, 0);
}

int cb_deal_of_view(const cb_view *v, cb_deal *g, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    if (!v || !v->rules || v->phase != CB_PHASE_PLAY || v->seat < 0 || v->seat > 2 || v->first_seat < 0 ||
        v->first_seat > 2 || v->nhistory < 0 || (v->nhistory > 0 && !v->history))
        return core_msg_ret(-1, err, errlen, "not a play view (rules, phase, seat, first_seat, history)");
    const cb_rules *r = v->rules;
    int landlord = (v->landlord >= 0 && v->landlord < 3) ? v->landlord : -1;
    cb_cards none[3] = {0, 0, 0};
    cb_deal_init(g, r, none, v->first_seat, landlord, cb_view_stake(v), v->bottom);
    /* a seat's cards at entry i: its cards now plus what it plays from i on */
    int later[3] = {0, 0, 0};
    for (int i = 0; i < v->nhistory; i++)
        if (v->history[i].seat >= 0 && v->history[i].seat < 3)
            later[v->history[i].seat] += cb_cards_size(v->history[i].cards);
    for (int i = 0; i < v->nhistory; i++) {
        const cb_play_rec *h = &v->history[i];
        int s = g->turn;
        if (h->seat != s)
            return core_msg_ret(-1, err, errlen, "history[%d]: seat %d, but seat %d is to act", i, (int)h->seat, s);
        if (!h->cards) {
            if (g->table_seat < 0)
                return core_msg_ret(-1, err, errlen, "history[%d]: seat %d passes while leading", i, s);
            note_pass(g, v->cards_left[s] + later[s]);
            continue;
        }
        later[s] -= cb_cards_size(h->cards);
        cb_move m;
        if (!accepted_reading(r, cb_counts_of(h->cards), g->table_seat >= 0 ? &g->table : NULL,
                              later[s] == 0 && v->cards_left[s] == 0, &m))
            return core_msg_ret(-1, err, errlen, "history[%d]: seat %d's play is not legal there", i, s);
        note_play(g, h->cards, &m);
        g->turn = next_seat(s);
    }
    if (g->turn != v->seat)
        return core_msg_ret(-1, err, errlen, "seat %d decides, but seat %d is to act after the history", v->seat,
                            g->turn);
    g->hands[v->seat] = v->hand;
    return 0;
}

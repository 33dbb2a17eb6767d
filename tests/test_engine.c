/* The game engine (game.h): random legal games of every preset (and DDZ 叫/抢地主) run to the
 * end with every view checked (cb_view_check accepts each one the engine builds, for the seat
 * to act), points sum to zero and equal core's settlement of the recorded result and the
 * independent oracle's (support/oracle_settle.c) of the dealt hands and history; illegal
 * actions are refused with a reason and change nothing; the bidding flows (叫分 with redeals
 * and the redeal cap, 叫/抢地主 with a rob-back, 包庄's first declaration) end where the rules
 * say; given hands are checked; the same key deals the same game; cb_engine_clone plays on
 * independently; core's public replay of each play view (cb_deal_of_view) and its situation
 * (cb_view_ctx, cb_view_high_bid) agree with the engine's own state; and every game of a `cardbot match` replay file replays through the engine to
 * the same points, which the oracle settles the same way. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cardbot/game.h"
#include "util_int.h" /* core/: CB_GOLDEN64 */
#include "support/oracle_settle.h"

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static cb_engine *new_game(const cb_rules *r, uint64_t key, uint64_t deal, int landlord)
{
    cb_engine_opts o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.key = key;
    o.deal = deal;
    o.game = deal;
    o.first_bidder = -1;
    o.landlord = landlord;
    char err[160];
    cb_engine *e = cb_engine_new(r, &o, err, sizeof err);
    if (!e)
        print_error("cb_engine_new: %s\n", err);
    assert_non_null(e);
    return e;
}

/* The public position core replays from a play view (cb_deal_of_view) is the engine's own
 * deal in every public fact, and the view's situation (cb_view_ctx) is the deal's
 * (cb_deal_ctx): the plugins build their root deals and contexts from these. */
static void check_public_replay(const cb_engine *e, const cb_view *v)
{
    const cb_deal *d = cb_engine_deal(e);
    assert_non_null(d);
    cb_deal g;
    char err[160];
    if (cb_deal_of_view(v, &g, err, sizeof err) != 0) {
        print_error("cb_deal_of_view: %s\n", err);
        fail();
    }
    assert_true(g.hands[v->seat] == d->hands[v->seat]);
    for (int s = 0; s < 3; s++) {
        if (s != v->seat)
            assert_true(g.hands[s] == 0);
        assert_int_equal(g.plays[s], d->plays[s]);
        assert_int_equal(g.bombs[s], d->bombs[s]);
        assert_int_equal(g.bomb_tricks[s], d->bomb_tricks[s]);
    }
    assert_true(g.played == d->played);
    assert_true(g.bottom == d->bottom);
    assert_int_equal(g.turn, d->turn);
    assert_int_equal(g.first_seat, d->first_seat);
    assert_int_equal(g.landlord, d->landlord);
    if (d->rules->game == CB_GAME_DDZ)
        assert_int_equal(g.bid, d->bid);
    assert_int_equal(g.table_seat, d->table_seat);
    assert_int_equal(g.npass, d->npass);
    if (d->table_seat >= 0) {
        assert_true(g.table_cards == d->table_cards);
        assert_memory_equal(&g.table, &d->table, sizeof g.table);
    }
    assert_int_equal(g.first_play, d->first_play);
    assert_int_equal(g.winner, -1);
    assert_int_equal(g.steps, d->steps);
    assert_memory_equal(&g.voids, &d->voids, sizeof g.voids);
    cb_ctx a, b;
    cb_deal_ctx(d, &a);
    cb_view_ctx(v, d->table_seat >= 0 ? &d->table : NULL, &b);
    assert_true(a.hand == b.hand && a.table == b.table && a.next_has_one == b.next_has_one);
    assert_int_equal(a.first_play, b.first_play);
    /* the spade-3 rule binds exactly the PDK deal's first lead, by its holder */
    bool want = d->rules->game == CB_GAME_PDK && d->rules->spade3_first && d->steps == 0;
    assert_int_equal(a.first_play, want && (v->hand & cb_card_bit(CB_CARD_S3)) != 0);
    if (d->table_seat >= 0)
        assert_int_equal(cb_move_is_bomb(&d->table), d->table.shape == CB_BOMB || d->table.shape == CB_ROCKET);
}

/* The view of the seat to act must pass the check, with the rules given and without. */
static void check_view(const cb_engine *e)
{
    cb_view v;
    assert_int_equal(cb_engine_view(e, cb_engine_turn(e), 500, &v), 0);
    char err[200];
    if (cb_view_check(cb_engine_rules(e), &v, err, sizeof err) != 0) {
        print_error("engine view refused: %s\n", err);
        fail();
    }
    assert_int_equal(cb_view_check(NULL, &v, err, sizeof err), 0);
    assert_int_equal(v.struct_size, sizeof v);
    assert_int_equal(v.seat, cb_engine_turn(e));
    assert_true(v.hand == cb_engine_hand(e, v.seat));
    int32_t bids[3];
    cb_engine_bids(e, bids, NULL, NULL, 0);
    int high = 0;
    for (int s = 0; s < 3; s++)
        high = bids[s] > high ? bids[s] : high;
    assert_int_equal(cb_view_high_bid(&v), high);
    if (v.phase == CB_PHASE_PLAY && cb_engine_rules(e)->game == CB_GAME_DDZ)
        assert_int_equal(cb_view_stake(&v), cb_engine_stake(e));
    if (v.phase == CB_PHASE_PLAY)
        check_public_replay(e, &v);
}

/* Settle the finished game again with the independent oracle (support/oracle_settle.c), from
 * the hands as dealt and the public history alone: its own reading of bombs, tricks and
 * springs and its own arithmetic must give the engine's points (which come from core). */
static void oracle_resettle(const cb_engine *e, const int delta[3], int mult)
{
    const cb_rules *r = cb_engine_rules(e);
    int ll = cb_engine_landlord(e);
    cb_cards start[3];
    for (int s = 0; s < 3; s++) {
        start[s] = cb_engine_dealt(e, s);
        if (r->game == CB_GAME_DDZ && s == ll)
            start[s] |= cb_engine_bottom(e);
    }
    int n = 0, o[3], w = -1;
    const cb_play_rec *h = cb_engine_history(e, &n);
    int om = cbt_oracle_settle_record(r, start, ll, cb_engine_stake(e), h, n, o, &w);
    assert_int_equal(w, cb_engine_winner(e));
    if (om != mult || memcmp(o, delta, sizeof o) != 0)
        fail_msg("%s game: engine x%d [%d %d %d], oracle x%d [%d %d %d]", r->preset, mult, delta[0], delta[1],
                 delta[2], om, o[0], o[1], o[2]);
}

typedef struct totals {
    int games, actions, redeals, bids, passes, bombs, landlords[3];
} totals;

/* Play one game with uniformly random legal actions, checking as it goes. */
static void random_game(const cb_rules *r, uint64_t key, uint64_t deal, uint64_t *rng, totals *t)
{
    cb_engine *e = new_game(r, key, deal, -1);
    static cb_cards plays[CB_MOVES_CAP];
    int guard = 0;
    while (cb_engine_phase(e) != CB_PHASE_OVER) {
        assert_true(++guard < 400);
        check_view(e);
        char err[160];
        if (cb_engine_phase(e) == CB_PHASE_BID) {
            int32_t b[4];
            int n = cb_engine_legal_bids(e, b, 4);
            assert_true(n >= 2 && n <= 4);
            int before = cb_engine_redeals(e);
            assert_int_equal(cb_engine_bid(e, b[next_rand(rng) % (uint64_t)n], err, sizeof err), 0);
            t->bids++;
            t->redeals += cb_engine_redeals(e) - before;
        } else {
            int n = cb_engine_legal_plays(e, plays, CB_MOVES_CAP);
            assert_true(n >= 1);
            cb_cards c = plays[next_rand(rng) % (uint64_t)n];
            int seat = cb_engine_turn(e);
            cb_cards hand = cb_engine_hand(e, seat);
            assert_int_equal(cb_engine_play(e, c, err, sizeof err), 0);
            assert_true(cb_engine_hand(e, seat) == (hand & ~c));
            t->passes += c == 0;
        }
        t->actions++;
    }
    int delta[3];
    int mult = cb_engine_points(e, delta);
    assert_true(mult >= 1);
    assert_int_equal(delta[0] + delta[1] + delta[2], 0);
    int w = cb_engine_winner(e);
    assert_true(w >= 0 && w < 3);
    assert_true(cb_engine_hand(e, w) == 0);
    /* settle again from the record, with core's settlement directly */
    const cb_deal *d = cb_engine_deal(e);
    assert_non_null(d);
    int again[3];
    if (r->game == CB_GAME_DDZ) {
        int ll = cb_engine_landlord(e);
        t->landlords[ll]++;
        cb_ddz_result res = {.landlord = ll, .bid = cb_engine_stake(e), .winner = w};
        for (int s = 0; s < 3; s++) {
            res.bombs += d->bombs[s];
            if (s == ll)
                res.landlord_plays += d->plays[s];
            else
                res.farmer_plays += d->plays[s];
        }
        assert_int_equal(cb_ddz_settle(r, &res, again), mult);
        t->bombs += res.bombs;
    } else {
        cb_pdk_result res = {.winner = w, .bao = cb_engine_landlord(e)};
        for (int s = 0; s < 3; s++) {
            res.cards_left[s] = cb_cards_size(cb_engine_hand(e, s));
            res.plays[s] = d->plays[s];
            res.bomb_tricks[s] = d->bomb_tricks[s];
        }
        cb_pdk_settle(r, &res, again);
        assert_int_equal(mult, 1);
    }
    assert_memory_equal(delta, again, sizeof again);
    oracle_resettle(e, delta, mult);
    /* the history holds every play and pass, in turn order from the first leader */
    int nh;
    const cb_play_rec *h = cb_engine_history(e, &nh);
    assert_int_equal(nh, d->steps);
    for (int i = 0; i < nh; i++)
        assert_int_equal(h[i].seat, (cb_engine_first_seat(e) + i) % 3);
    cb_engine_free(e);
    t->games++;
}

static void random_games(const char *preset, const char *flag, const char *value, int games)
{
    cb_rules r;
    assert_int_equal(cb_rules_preset(preset, &r), 0);
    if (flag)
        assert_int_equal(cb_rules_set(&r, flag, value, NULL, 0), 0);
    totals t;
    memset(&t, 0, sizeof t);
    uint64_t rng = CB_GOLDEN64 ^ (uint64_t)games;
    for (int g = 0; g < games; g++)
        random_game(&r, 11, (uint64_t)g, &rng, &t);
    print_message("%s%s%s: %d games, %d actions (%d views checked), %d bids, %d redeals, %d passes, %d bombs, "
                  "landlords %d/%d/%d\n", preset, flag ? " " : "", flag ? flag : "", t.games, t.actions, t.actions,
                  t.bids, t.redeals, t.passes, t.bombs, t.landlords[0], t.landlords[1], t.landlords[2]);
    assert_int_equal(t.games, games);
    assert_true(t.passes > 0);
    if (r.game == CB_GAME_DDZ)
        assert_true(t.redeals > 0 && t.landlords[0] > 0 && t.landlords[1] > 0 && t.landlords[2] > 0);
}

static void test_random_pdk16(void **s) { (void)s; random_games("pdk16", NULL, NULL, 400); }
static void test_random_pdk15(void **s) { (void)s; random_games("pdk15", NULL, NULL, 300); }
static void test_random_guanpai(void **s) { (void)s; random_games("guanpai", NULL, NULL, 300); }
static void test_random_ddz(void **s) { (void)s; random_games("ddz", NULL, NULL, 400); }
static void test_random_ddz_rob(void **s) { (void)s; random_games("ddz", "rob", "true", 300); }
static void test_random_pdk_nobao(void **s) { (void)s; random_games("pdk16", "bao", "false", 200); }
static void test_random_pdk_free_lead(void **s) { (void)s; random_games("pdk16", "spade3_first", "false", 200); }

/* A refused action says why and changes nothing. */
static void test_refusals(void **s)
{
    (void)s;
    cb_rules r;
    assert_int_equal(cb_rules_preset("pdk16", &r), 0);
    cb_engine *e = new_game(&r, 5, 0, -1);
    char err[160];
    assert_int_equal(cb_engine_phase(e), CB_PHASE_BID); /* 包庄 first */
    assert_int_equal(cb_engine_play(e, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "bidding"));
    assert_int_equal(cb_engine_bid(e, 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "包庄"));
    int leader = cb_engine_turn(e);
    assert_int_equal(leader, cb_engine_first_seat(e));
    assert_true(cb_engine_hand(e, leader) & cb_card_bit(CB_CARD_S3));
    for (int i = 0; i < 3; i++)
        assert_int_equal(cb_engine_bid(e, 0, err, sizeof err), 0);
    assert_int_equal(cb_engine_phase(e), CB_PHASE_PLAY);
    assert_int_equal(cb_engine_turn(e), leader);
    cb_cards hand = cb_engine_hand(e, leader);
    cb_cards other = cb_engine_hand(e, (leader + 1) % 3);
    /* not in hand, a pass while leading, a first play without the spade 3, not a shape */
    assert_int_equal(cb_engine_play(e, other & -other, err, sizeof err), -1);
    assert_non_null(strstr(err, "not in"));
    assert_int_equal(cb_engine_play(e, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "pass"));
    cb_cards s3 = cb_card_bit(CB_CARD_S3);
    cb_cards top = (cb_cards)1 << (63 - __builtin_clzll(hand));
    assert_int_equal(cb_engine_play(e, top, err, sizeof err), -1);
    assert_non_null(strstr(err, "spade 3"));
    assert_true(cb_engine_hand(e, leader) == hand);
    int nh;
    cb_engine_history(e, &nh);
    assert_int_equal(nh, 0);
    assert_int_equal(cb_engine_play(e, s3, err, sizeof err), 0);
    /* the next seat must follow a single: a pair is not a reply */
    int next = cb_engine_turn(e);
    cb_cards h2 = cb_engine_hand(e, next);
    cb_cards pair = 0;
    for (int rank = 0; rank < 13 && !pair; rank++) {
        cb_cards c = cb_cards_of_rank(h2, rank);
        if (cb_cards_size(c) >= 2) {
            pair = c & -c;
            c &= c - 1;
            pair |= c & -c;
        }
    }
    if (pair) {
        assert_int_equal(cb_engine_play(e, pair, err, sizeof err), -1);
        assert_true(err[0] != '\0');
        assert_int_equal(cb_engine_turn(e), next);
    }
    cb_engine_free(e);
}

/* DDZ 叫分: all pass -> redeal with new hands; the cap makes the first bidder landlord at 1. */
static void test_ddz_redeal(void **s)
{
    (void)s;
    cb_rules r;
    assert_int_equal(cb_rules_preset("ddz", &r), 0);
    cb_engine_opts o = {.struct_size = sizeof o, .key = 3, .first_bidder = 1, .landlord = -1, .max_redeals = 2};
    cb_engine *e = cb_engine_new(&r, &o, NULL, 0);
    assert_non_null(e);
    assert_int_equal(cb_engine_first_bidder(e), 1);
    assert_int_equal(cb_engine_first_seat(e), -1);
    cb_cards first = cb_engine_hand(e, 0);
    char err[160];
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 3; i++) {
            assert_int_equal(cb_engine_turn(e), (1 + i) % 3);
            assert_int_equal(cb_engine_bid(e, 0, err, sizeof err), 0);
        }
        assert_int_equal(cb_engine_redeals(e), round + 1);
        assert_int_equal(cb_engine_phase(e), CB_PHASE_BID);
    }
    assert_true(cb_engine_hand(e, 0) != first);
    for (int i = 0; i < 3; i++)
        assert_int_equal(cb_engine_bid(e, 0, err, sizeof err), 0);
    assert_int_equal(cb_engine_phase(e), CB_PHASE_PLAY);
    assert_int_equal(cb_engine_landlord(e), 1);
    assert_int_equal(cb_engine_stake(e), 1);
    assert_int_equal(cb_engine_first_seat(e), 1);
    assert_int_equal(cb_cards_size(cb_engine_hand(e, 1)), 20);
    check_view(e);
    cb_engine_free(e);

    /* 2 then 3 ends it at once: the later seat never bids */
    o.max_redeals = 0;
    e = cb_engine_new(&r, &o, NULL, 0);
    assert_int_equal(cb_engine_bid(e, 2, err, sizeof err), 0);
    assert_int_equal(cb_engine_bid(e, 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "above 2"));
    assert_int_equal(cb_engine_bid(e, 3, err, sizeof err), 0);
    assert_int_equal(cb_engine_phase(e), CB_PHASE_PLAY);
    assert_int_equal(cb_engine_landlord(e), 2);
    assert_int_equal(cb_engine_stake(e), 3);
    int32_t bids[3];
    assert_int_equal(cb_engine_bids(e, bids, NULL, NULL, 0), 2);
    assert_int_equal(bids[0], -1);
    assert_int_equal(bids[1], 2);
    assert_int_equal(bids[2], 3);
    check_view(e);
    cb_engine_free(e);
}

/* 叫/抢地主: call, rob, pass, rob back: the caller is landlord at 2^2. */
static void test_ddz_rob(void **s)
{
    (void)s;
    cb_rules r;
    assert_int_equal(cb_rules_preset("ddz", &r), 0);
    r.rob = true;
    cb_engine_opts o = {.struct_size = sizeof o, .key = 9, .first_bidder = 0, .landlord = -1};
    cb_engine *e = cb_engine_new(&r, &o, NULL, 0);
    char err[160];
    int32_t b[4];
    assert_int_equal(cb_engine_legal_bids(e, b, 4), 2);
    assert_int_equal(b[1], 1);
    assert_int_equal(cb_engine_bid(e, 2, err, sizeof err), -1); /* nobody called yet */
    assert_int_equal(cb_engine_bid(e, 1, err, sizeof err), 0);  /* seat 0 calls */
    check_view(e);
    assert_int_equal(cb_engine_legal_bids(e, b, 4), 2);
    assert_int_equal(b[1], 2);
    assert_int_equal(cb_engine_bid(e, 2, err, sizeof err), 0); /* seat 1 robs */
    check_view(e);
    assert_int_equal(cb_engine_bid(e, 0, err, sizeof err), 0); /* seat 2 passes */
    assert_int_equal(cb_engine_phase(e), CB_PHASE_BID);
    assert_int_equal(cb_engine_turn(e), 0);                    /* the caller's second chance */
    check_view(e);
    assert_int_equal(cb_engine_bid(e, 2, err, sizeof err), 0); /* robs back */
    assert_int_equal(cb_engine_phase(e), CB_PHASE_PLAY);
    assert_int_equal(cb_engine_landlord(e), 0);
    assert_int_equal(cb_engine_stake(e), 4);
    int32_t bids[3], seats[8], vals[8];
    assert_int_equal(cb_engine_bids(e, bids, seats, vals, 8), 4);
    assert_int_equal(bids[0], 2);
    assert_int_equal(bids[1], 2);
    assert_int_equal(bids[2], 0);
    assert_int_equal(seats[3], 0);
    assert_int_equal(vals[3], 2);
    check_view(e);
    cb_engine_free(e);

    /* the caller passes on its second chance: the last robber is landlord at 2 */
    e = cb_engine_new(&r, &o, NULL, 0);
    assert_int_equal(cb_engine_bid(e, 0, err, sizeof err), 0);
    assert_int_equal(cb_engine_bid(e, 1, err, sizeof err), 0); /* seat 1 calls */
    assert_int_equal(cb_engine_bid(e, 2, err, sizeof err), 0); /* seat 2 robs */
    assert_int_equal(cb_engine_turn(e), 1);
    check_view(e);
    assert_int_equal(cb_engine_bid(e, 0, err, sizeof err), 0);
    assert_int_equal(cb_engine_landlord(e), 2);
    assert_int_equal(cb_engine_stake(e), 2);
    check_view(e);
    cb_engine_free(e);
}

/* 包庄: the first declaration binds and ends the bidding. */
static void test_pdk_bao(void **s)
{
    (void)s;
    cb_rules r;
    assert_int_equal(cb_rules_preset("pdk16", &r), 0);
    cb_engine *e = new_game(&r, 21, 4, -1);
    int first = cb_engine_first_seat(e);
    assert_int_equal(cb_engine_first_bidder(e), first);
    char err[160];
    assert_int_equal(cb_engine_bid(e, 0, err, sizeof err), 0);
    assert_int_equal(cb_engine_bid(e, 1, err, sizeof err), 0);
    assert_int_equal(cb_engine_phase(e), CB_PHASE_PLAY);
    assert_int_equal(cb_engine_landlord(e), (first + 1) % 3);
    int32_t bids[3];
    cb_engine_bids(e, bids, NULL, NULL, 0);
    assert_int_equal(bids[first], 0);
    assert_int_equal(bids[(first + 1) % 3], 1);
    assert_int_equal(bids[(first + 2) % 3], -1);
    assert_int_equal(cb_engine_turn(e), first);
    check_view(e);
    cb_engine_free(e);
}

/* Given hands are checked; the same key deals the same game, another deal another. */
static void test_deals(void **s)
{
    (void)s;
    cb_rules r;
    assert_int_equal(cb_rules_preset("ddz", &r), 0);
    cb_engine *a = new_game(&r, 77, 5, 0), *b = new_game(&r, 77, 5, 0), *c = new_game(&r, 77, 6, 0);
    for (int seat = 0; seat < 3; seat++)
        assert_true(cb_engine_hand(a, seat) == cb_engine_hand(b, seat));
    assert_true(cb_engine_hand(a, 0) != cb_engine_hand(c, 0));
    assert_int_equal(cb_engine_landlord(a), 0);
    assert_int_equal(cb_engine_first_bidder(a), -1);
    cb_cards hands[3] = {cb_engine_dealt(a, 0), cb_engine_dealt(a, 1), cb_engine_dealt(a, 2)};
    cb_engine_opts o = {.struct_size = sizeof o, .key = 1, .first_bidder = 2, .landlord = -1, .hands = hands,
                        .bottom = cb_engine_bottom(a)};
    char err[160];
    cb_engine *g = cb_engine_new(&r, &o, err, sizeof err);
    assert_non_null(g);
    for (int seat = 0; seat < 3; seat++)
        assert_true(cb_engine_hand(g, seat) == hands[seat]);
    assert_int_equal(cb_engine_turn(g), 2);
    cb_engine_free(g);
    o.rotation = 1; /* hand h goes to seat (h - 1) mod 3 */
    g = cb_engine_new(&r, &o, err, sizeof err);
    assert_true(cb_engine_hand(g, 2) == hands[0]);
    cb_engine_free(g);
    o.rotation = 0;
    cb_cards bad[3] = {hands[0], hands[0], hands[2]};
    o.hands = bad;
    assert_null(cb_engine_new(&r, &o, err, sizeof err));
    assert_non_null(strstr(err, "hands[1]"));
    bad[1] = hands[1] & (hands[1] - 1);
    assert_null(cb_engine_new(&r, &o, err, sizeof err));
    assert_non_null(strstr(err, "16 cards"));
    o.hands = hands;
    o.struct_size = 8;
    assert_null(cb_engine_new(&r, &o, err, sizeof err));
    assert_non_null(strstr(err, "struct_size"));
    /* fixed roles are a DDZ option */
    cb_rules p;
    assert_int_equal(cb_rules_preset("pdk16", &p), 0);
    cb_engine_opts po = {.struct_size = sizeof po, .first_bidder = -1, .landlord = 1};
    assert_null(cb_engine_new(&p, &po, err, sizeof err));
    assert_non_null(strstr(err, "landlord"));
    cb_engine_free(a);
    cb_engine_free(b);
    cb_engine_free(c);
}

/* A clone plays on without touching the original. */
static void test_clone(void **s)
{
    (void)s;
    cb_rules r;
    assert_int_equal(cb_rules_preset("ddz", &r), 0);
    cb_engine *e = new_game(&r, 4, 2, 1);
    cb_cards plays[64];
    char err[160];
    assert_true(cb_engine_legal_plays(e, plays, 64) > 0);
    assert_int_equal(cb_engine_play(e, plays[0], err, sizeof err), 0);
    cb_engine *c = cb_engine_clone(e);
    assert_non_null(c);
    int n = cb_engine_legal_plays(c, plays, 64);
    assert_true(n > 0);
    assert_int_equal(cb_engine_play(c, plays[n - 1], err, sizeof err), 0);
    int ne, nc;
    cb_engine_history(e, &ne);
    const cb_play_rec *hc = cb_engine_history(c, &nc);
    assert_int_equal(ne, 1);
    assert_int_equal(nc, 2);
    assert_true(hc[1].cards == plays[n - 1]);
    check_view(c);
    check_view(e);
    cb_engine_free(e);
    check_view(c);
    cb_engine_free(c);
}

/* ---- a cardbot match replay, replayed by the engine ---- */

static const char *build_dir(void)
{
    const char *b = g_getenv("CB_BUILD");
    return b ? b : "build/plain";
}

static cb_cards text_cards(const cb_rules *r, const char *t)
{
    cb_cards c = 0;
    char err[120];
    if (cb_cards_parse(t, r->deck, &c, err, sizeof err) != 0) {
        print_error("%s: %s\n", t, err);
        fail();
    }
    return c;
}

static void replay_match(const char *config, const char *preset, const char *extra)
{
    char *dir = g_dir_make_tmp("cbengine-XXXXXX", NULL);
    char *rep = g_build_filename(dir, "r.jsonl", NULL);
    char *cmd = g_strdup_printf("%s/cardbot match --config %s --games 24 --seed 5 --quiet --duplicate %s --replay %s",
                                build_dir(), config, extra, rep);
    int status = 0;
    char *out = NULL, *errs = NULL;
    assert_true(g_spawn_command_line_sync(cmd, &out, &errs, &status, NULL));
    if (status != 0)
        print_error("%s\n%s%s", cmd, out, errs);
    assert_int_equal(status, 0);
    cb_rules r;
    assert_int_equal(cb_rules_preset(preset, &r), 0);
    char *text = NULL;
    assert_true(g_file_get_contents(rep, &text, NULL, NULL));
    char **lines = g_strsplit(text, "\n", -1);
    int games = 0, actions = 0;
    assert_true(g_str_has_prefix(lines[0], "{\"type\":\"header\",")); /* then the games */
    for (char **l = lines + 1; *l && **l; l++) {
        JsonParser *p = json_parser_new();
        assert_true(json_parser_load_from_data(p, *l, -1, NULL));
        JsonObject *o = json_node_get_object(json_parser_get_root(p));
        JsonArray *hands = json_object_get_array_member(o, "hands");
        cb_cards h[3];
        for (int s = 0; s < 3; s++)
            h[s] = text_cards(&r, json_array_get_string_element(hands, s));
        cb_engine_opts eo = {.struct_size = sizeof eo, .hands = h, .landlord = -1,
                             .bottom = text_cards(&r, json_object_get_string_member(o, "bottom"))};
        int fb = (int)json_object_get_int_member(o, "first_bidder");
        JsonArray *bids = json_object_get_array_member(o, "bids");
        if (r.game == CB_GAME_DDZ && fb < 0) /* --landlord: fixed roles */
            eo.landlord = (int)json_object_get_int_member(o, "landlord");
        eo.first_bidder = r.game == CB_GAME_DDZ ? fb : -1;
        char err[160];
        cb_engine *e = cb_engine_new(&r, &eo, err, sizeof err);
        assert_non_null(e);
        assert_int_equal(cb_engine_first_bidder(e), fb);
        for (guint i = 0; i < json_array_get_length(bids); i++) {
            JsonObject *b = json_array_get_object_element(bids, i);
            assert_int_equal(cb_engine_turn(e), (int)json_object_get_int_member(b, "seat"));
            assert_int_equal(cb_engine_bid(e, (int)json_object_get_int_member(b, "bid"), err, sizeof err), 0);
            actions++;
        }
        assert_int_equal(cb_engine_landlord(e), (int)json_object_get_int_member(o, "landlord"));
        assert_int_equal(cb_engine_first_seat(e), (int)json_object_get_int_member(o, "first_seat"));
        JsonArray *plays = json_object_get_array_member(o, "plays");
        for (guint i = 0; i < json_array_get_length(plays); i++) {
            JsonObject *pl = json_array_get_object_element(plays, i);
            assert_int_equal(cb_engine_turn(e), (int)json_object_get_int_member(pl, "seat"));
            check_view(e);
            if (cb_engine_play(e, text_cards(&r, json_object_get_string_member(pl, "cards")), err, sizeof err) != 0) {
                print_error("game %d play %u: %s\n", games, i, err);
                fail();
            }
            actions++;
        }
        assert_int_equal(cb_engine_phase(e), CB_PHASE_OVER);
        assert_int_equal(cb_engine_winner(e), (int)json_object_get_int_member(o, "winner"));
        int delta[3];
        int mult = cb_engine_points(e, delta);
        assert_int_equal(mult, (int)json_object_get_int_member(o, "multiplier"));
        JsonArray *pts = json_object_get_array_member(o, "points");
        for (int s = 0; s < 3; s++)
            assert_int_equal(delta[s], (int)json_array_get_int_element(pts, (guint)s));
        oracle_resettle(e, delta, mult);
        cb_engine_free(e);
        g_object_unref(p);
        games++;
    }
    print_message("%s %s: %d games, %d actions replayed to the same points\n", config, extra, games, actions);
    assert_int_equal(games, 24);
    g_strfreev(lines);
    g_free(text);
    g_unlink(rep);
    g_rmdir(dir);
    g_free(out);
    g_free(errs);
    g_free(cmd);
    g_free(rep);
    g_free(dir);
}

static void test_replay_files(void **s)
{
    (void)s;
    replay_match("config/levels-pdk.ini", "pdk16", "--table 6v5");
    replay_match("config/levels-ddz.ini", "ddz", "--table 6v5");
    replay_match("config/levels-ddz.ini", "ddz", "--table 6v5 --landlord 2");
    replay_match("config/guanpai.ini", "guanpai", "");
}

/* The version macros tell one version: CB_VERSION is MAJOR.MINOR.PATCH, and the library
 * loaded says the same (a host compares them; a stale number would pass as compatible). */
static void test_version(void **s)
{
    (void)s;
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", CB_VERSION_MAJOR, CB_VERSION_MINOR, CB_VERSION_PATCH);
    assert_string_equal(CB_VERSION, want);
    assert_string_equal(cb_version(), want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_random_pdk16),     cmocka_unit_test(test_random_pdk15),
        cmocka_unit_test(test_random_guanpai),   cmocka_unit_test(test_random_ddz),
        cmocka_unit_test(test_random_ddz_rob),   cmocka_unit_test(test_random_pdk_nobao),
        cmocka_unit_test(test_random_pdk_free_lead), cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_ddz_redeal),       cmocka_unit_test(test_ddz_rob),
        cmocka_unit_test(test_pdk_bao),          cmocka_unit_test(test_deals),
        cmocka_unit_test(test_clone),            cmocka_unit_test(test_replay_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

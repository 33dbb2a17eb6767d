/* Settlement (core/settle.c) against hand-computed tables: DDZ multiplier with bombs, spring
 * and anti-spring (and the counts one play either side of them); PDK card points, the
 * one-card rule, 关门, bombs, 包庄; deltas sum to 0. Random results against the independent
 * oracle (support/oracle_settle.c); games that end on a bomb, played through the engine from
 * given hands, settled by the engine and by the oracle from the play record. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "cardbot/game.h"
#include "cardbot/rules.h"
#include "support/oracle_settle.h"
#include "support/randhand.h"

static void expect3(const int d[3], int a, int b, int c)
{
    assert_int_equal(d[0], a);
    assert_int_equal(d[1], b);
    assert_int_equal(d[2], c);
    assert_int_equal(d[0] + d[1] + d[2], 0);
}

static void test_ddz(void **state)
{
    (void)state;
    cb_rules r;
    int d[3];
    assert_int_equal(cb_rules_preset("ddz", &r), 0);
    cb_ddz_result x = {.landlord = 1, .bid = 3, .bombs = 0, .winner = 1, .landlord_plays = 5, .farmer_plays = 4};
    assert_int_equal(cb_ddz_settle(&r, &x, d), 3);
    expect3(d, -3, 6, -3);
    /* two bombs, farmers win */
    x.bombs = 2;
    x.winner = 0;
    assert_int_equal(cb_ddz_settle(&r, &x, d), 12);
    expect3(d, 12, -24, 12);
    /* spring: the farmers never played */
    x.bombs = 1;
    x.winner = 1;
    x.farmer_plays = 0;
    assert_int_equal(cb_ddz_settle(&r, &x, d), 12);
    expect3(d, -12, 24, -12);
    /* anti-spring: the landlord made only its first play and the farmers won */
    x = (cb_ddz_result){.landlord = 1, .bid = 2, .bombs = 0, .winner = 2, .landlord_plays = 1, .farmer_plays = 3};
    assert_int_equal(cb_ddz_settle(&r, &x, d), 4);
    expect3(d, 4, -8, 4);
    /* one landlord play that won the deal is no anti-spring */
    x.winner = 1;
    assert_int_equal(cb_ddz_settle(&r, &x, d), 2);
    expect3(d, -2, 4, -2);
    /* a seat out of range: nothing moves */
    x.landlord = 5;
    assert_int_equal(cb_ddz_settle(&r, &x, d), 0);
    expect3(d, 0, 0, 0);
}

static void test_pdk(void **state)
{
    (void)state;
    cb_rules r;
    int d[3];
    assert_int_equal(cb_rules_preset("pdk16", &r), 0);
    cb_pdk_result p = {.winner = 0, .cards_left = {0, 5, 1}, .plays = {4, 2, 3}, .bomb_tricks = {0, 0, 0}, .bao = -1};
    cb_pdk_settle(&r, &p, d);
    expect3(d, 5, -5, 0); /* one card left pays nothing */
    p.plays[1] = 0;       /* 关门: never played, pays double */
    cb_pdk_settle(&r, &p, d);
    expect3(d, 10, -10, 0);
    p.cards_left[2] = 16;
    p.plays[2] = 0;
    cb_pdk_settle(&r, &p, d);
    expect3(d, 42, -10, -32);
    p.bomb_tricks[1] = 1; /* seat 1's bomb: 10 from each other seat */
    cb_pdk_settle(&r, &p, d);
    expect3(d, 42 - 10, -10 + 20, -32 - 10);
    /* 包庄 replaces card points; bombs still paid */
    p.bao = 0; /* declarer won */
    cb_pdk_settle(&r, &p, d);
    expect3(d, 64 - 10, -32 + 20, -32 - 10);
    p.bao = 2; /* declarer lost */
    cb_pdk_settle(&r, &p, d);
    expect3(d, 32 - 10, 32 + 20, -64 - 10);
    /* a declaration does not count where 包庄 is off */
    assert_int_equal(cb_rules_set(&r, "bao", "false", NULL, 0), 0);
    cb_pdk_settle(&r, &p, d);
    expect3(d, 42 - 10, -10 + 20, -32 - 10);
    assert_int_equal(cb_rules_set(&r, "spring_double", "false", NULL, 0), 0);
    p.bomb_tricks[1] = 0;
    cb_pdk_settle(&r, &p, d);
    expect3(d, 21, -5, -16);
}

/* Spring and anti-spring are exact counts: one farmer play is no spring, two landlord plays
 * are no anti-spring (a settlement that tested <= 1 or <= 2 would double these). */
static void test_ddz_spring_boundaries(void **state)
{
    (void)state;
    cb_rules r;
    int d[3];
    assert_int_equal(cb_rules_preset("ddz", &r), 0);
    /* landlord 0 wins at bid 2 with one bomb: 2 x 2 = 4 ... */
    cb_ddz_result x = {.landlord = 0, .bid = 2, .bombs = 1, .winner = 0, .landlord_plays = 6, .farmer_plays = 1};
    assert_int_equal(cb_ddz_settle(&r, &x, d), 4); /* one farmer play: no spring */
    expect3(d, 8, -4, -4);
    x.farmer_plays = 0; /* the farmers never played: spring doubles */
    assert_int_equal(cb_ddz_settle(&r, &x, d), 8);
    expect3(d, 16, -8, -8);
    x.farmer_plays = 2;
    assert_int_equal(cb_ddz_settle(&r, &x, d), 4);
    expect3(d, 8, -4, -4);
    /* the farmers win: seat 2 goes out, landlord 0, bid 3, no bomb */
    x = (cb_ddz_result){.landlord = 0, .bid = 3, .bombs = 0, .winner = 2, .landlord_plays = 2, .farmer_plays = 7};
    assert_int_equal(cb_ddz_settle(&r, &x, d), 3); /* two landlord plays: no anti-spring */
    expect3(d, -6, 3, 3);
    x.landlord_plays = 1; /* only its first lead: anti-spring doubles */
    assert_int_equal(cb_ddz_settle(&r, &x, d), 6);
    expect3(d, -12, 6, 6);
    x.landlord_plays = 3;
    assert_int_equal(cb_ddz_settle(&r, &x, d), 3);
    expect3(d, -6, 3, 3);
    /* farmers that never played cannot be sprung when they won (nonsense, but no doubling from
     * the spring side): only the landlord's count decides an anti-spring */
    x = (cb_ddz_result){.landlord = 1, .bid = 1, .bombs = 2, .winner = 0, .landlord_plays = 4, .farmer_plays = 0};
    assert_int_equal(cb_ddz_settle(&r, &x, d), 4);
    expect3(d, 4, -8, 4);
    /* the landlord went out with its first play (a 20-card plane): a spring, doubled once (it
     * is no anti-spring as well: those need the farmers to win) */
    x = (cb_ddz_result){.landlord = 2, .bid = 1, .bombs = 0, .winner = 2, .landlord_plays = 1, .farmer_plays = 0};
    assert_int_equal(cb_ddz_settle(&r, &x, d), 2);
    expect3(d, -2, -2, 4);
}

/* Random results a game can produce, under random scoring values, against the oracle. */
static void test_random_vs_oracle(void **state)
{
    (void)state;
    cbt_rng g;
    uint64_t seed = cbt_seed(20240611);
    cbt_rng_seed(&g, seed);
    printf("  seed %llu (set CB_SEED to change)\n", (unsigned long long)seed);
    int springs = 0, antis = 0, baos = 0, ddz = 0, pdk = 0;
    for (int i = 0; i < 40000; i++) {
        cb_rules r;
        int a[3], b[3];
        if (i % 2 == 0) {
            assert_int_equal(cb_rules_preset("ddz", &r), 0);
            cb_ddz_result x;
            x.landlord = (int)cbt_rng_below(&g, 3);
            x.bid = (int)cbt_rng_below(&g, 3) + 1;
            if (cbt_rng_chance(&g, 1, 4))
                x.bid = 1 << cbt_rng_below(&g, 5); /* 叫/抢地主 stakes */
            x.bombs = (int)cbt_rng_below(&g, 7);
            x.winner = (int)cbt_rng_below(&g, 3);
            /* the counts around the spring boundaries most of the time */
            x.landlord_plays = 1 + (int)cbt_rng_below(&g, cbt_rng_chance(&g, 3, 4) ? 3 : 12);
            x.farmer_plays = (int)cbt_rng_below(&g, cbt_rng_chance(&g, 3, 4) ? 3 : 16);
            int ma = cb_ddz_settle(&r, &x, a), mb = cbt_oracle_ddz(&r, &x, b);
            if (ma != mb || memcmp(a, b, sizeof a) != 0)
                fail_msg("ddz #%d: landlord %d bid %d bombs %d winner %d plays %d/%d: core %d [%d %d %d], "
                         "oracle %d [%d %d %d]", i, x.landlord, x.bid, x.bombs, x.winner, x.landlord_plays,
                         x.farmer_plays, ma, a[0], a[1], a[2], mb, b[0], b[1], b[2]);
            springs += x.winner == x.landlord && x.farmer_plays == 0;
            antis += x.winner != x.landlord && x.landlord_plays == 1;
            ddz++;
        } else {
            static const char *const presets[] = {"pdk16", "pdk15", "guanpai"};
            assert_int_equal(cb_rules_preset(presets[cbt_rng_below(&g, 3)], &r), 0);
            char v[16];
            snprintf(v, sizeof v, "%u", 1 + cbt_rng_below(&g, 3));
            assert_int_equal(cb_rules_set(&r, "card_points", v, NULL, 0), 0);
            snprintf(v, sizeof v, "%u", cbt_rng_below(&g, 21));
            assert_int_equal(cb_rules_set(&r, "bomb_points", v, NULL, 0), 0);
            snprintf(v, sizeof v, "%u", 1 + cbt_rng_below(&g, 64));
            assert_int_equal(cb_rules_set(&r, "bao_points", v, NULL, 0), 0);
            assert_int_equal(cb_rules_set(&r, "spring_double", cbt_rng_chance(&g, 1, 2) ? "true" : "false", NULL, 0), 0);
            assert_int_equal(cb_rules_set(&r, "bao", cbt_rng_chance(&g, 1, 2) ? "true" : "false", NULL, 0), 0);
            cb_pdk_result x;
            memset(&x, 0, sizeof x);
            x.winner = (int)cbt_rng_below(&g, 3);
            x.bao = cbt_rng_chance(&g, 1, 3) ? (int)cbt_rng_below(&g, 3) : -1;
            for (int s = 0; s < 3; s++) {
                x.plays[s] = (int)cbt_rng_below(&g, 9);
                if (s == x.winner) {
                    x.plays[s] += 1;
                    x.cards_left[s] = 0;
                } else if (x.plays[s] == 0) {
                    x.cards_left[s] = r.hand_size; /* never played: a full hand */
                } else {
                    x.cards_left[s] = cbt_rng_chance(&g, 1, 3) ? 1 + (int)cbt_rng_below(&g, 2)
                                                               : 1 + (int)cbt_rng_below(&g, r.hand_size - 1);
                }
                x.bomb_tricks[s] = cbt_rng_chance(&g, 1, 4) ? (int)cbt_rng_below(&g, 3) : 0;
            }
            cb_pdk_settle(&r, &x, a);
            cbt_oracle_pdk(&r, &x, b);
            if (memcmp(a, b, sizeof a) != 0)
                fail_msg("%s #%d: winner %d left %d/%d/%d plays %d/%d/%d bombs %d/%d/%d bao %d (rules bao %d, "
                         "spring_double %d, card %d, bomb %d, bao %d): core [%d %d %d], oracle [%d %d %d]",
                         r.preset, i, x.winner, x.cards_left[0], x.cards_left[1], x.cards_left[2], x.plays[0],
                         x.plays[1], x.plays[2], x.bomb_tricks[0], x.bomb_tricks[1], x.bomb_tricks[2], x.bao, r.bao,
                         r.spring_double, r.card_points, r.bomb_points, r.bao_points, a[0], a[1], a[2], b[0], b[1],
                         b[2]);
            assert_int_equal(a[0] + a[1] + a[2], 0);
            baos += r.bao && x.bao >= 0;
            pdk++;
        }
    }
    printf("  %d DDZ results (%d springs, %d anti-springs), %d PDK results (%d with 包庄) agree\n", ddz, springs,
           antis, pdk, baos);
    assert_true(springs > 100 && antis > 100 && baos > 100);
}

/* ---- whole games that end on a bomb, through the engine ---- */

static cb_cards cards_of(const cb_rules *r, const char *text)
{
    cb_cards c = 0;
    char err[128];
    if (cb_cards_parse(text, r->deck, &c, err, sizeof err) != 0)
        fail_msg("'%s': %s", text, err);
    return c;
}

/* Play script (card texts, "-" = pass) through an engine on the given hands; the game must end
 * with the last action. Returns the engine (free it). */
static cb_engine *play_script(const cb_rules *r, const cb_cards hands[3], cb_cards bottom, int landlord,
                              const char *const *script)
{
    cb_engine_opts o = {.struct_size = sizeof o, .key = 1, .first_bidder = -1, .landlord = landlord,
                        .hands = hands, .bottom = bottom};
    char err[160];
    cb_engine *e = cb_engine_new(r, &o, err, sizeof err);
    if (!e)
        fail_msg("cb_engine_new: %s", err);
    assert_int_equal(cb_engine_phase(e), CB_PHASE_PLAY);
    for (int i = 0; script[i]; i++) {
        assert_int_equal(cb_engine_phase(e), CB_PHASE_PLAY);
        int seat = cb_engine_turn(e);
        cb_cards c = 0;
        if (strcmp(script[i], "-") != 0) {
            /* by ranks: the seat's own cards of those ranks */
            cb_counts k = 0;
            assert_int_equal(cb_counts_parse(script[i], r->deck, &k, err, sizeof err), 0);
            if (cb_cards_pick(cb_engine_hand(e, seat), k, &c) != 0)
                fail_msg("action %d: seat %d does not hold '%s'", i, seat, script[i]);
        }
        if (cb_engine_play(e, c, err, sizeof err) != 0)
            fail_msg("action %d (seat %d, '%s'): %s", i, seat, script[i], err);
    }
    assert_int_equal(cb_engine_phase(e), CB_PHASE_OVER);
    return e;
}

/* The engine's points, the oracle's from the record, and the expected ones agree. */
static void settle_both(const cb_engine *e, const cb_cards start[3], int mult, int a, int b, int c)
{
    int d[3], o[3], w = -1, n = 0;
    const cb_rules *r = cb_engine_rules(e);
    assert_int_equal(cb_engine_points(e, d), mult);
    expect3(d, a, b, c);
    const cb_play_rec *h = cb_engine_history(e, &n);
    assert_int_equal(cbt_oracle_settle_record(r, start, cb_engine_landlord(e), cb_engine_stake(e), h, n, o, &w),
                     mult);
    assert_int_equal(w, cb_engine_winner(e));
    expect3(o, a, b, c);
}

/* PDK: the bomb that empties its player's hand ends the game, so it wins its trick and earns
 * bomb_points from each other seat; a bomb both others pass on does too. Seat 0 holds the
 * spade 3, a straight 3..Q, all four Ks and two As; the others hold no bomb, no K (nothing
 * beats the straight) and one 2 at most (nothing beats AA), so they must pass throughout. */
static void test_pdk_bomb_ends_game(void **state)
{
    (void)state;
    cb_rules r;
    assert_int_equal(cb_rules_preset("pdk16", &r), 0);
    assert_int_equal(cb_rules_set(&r, "bao", "false", NULL, 0), 0);
    cb_cards h[3];
    h[0] = cards_of(&r, "3456789TJQKKKKAA");
    cb_cards rest = r.deck & ~h[0];
    h[1] = 0;
    for (int k = 0; k < 16; k++) {
        cb_cards low = rest & -rest;
        h[1] |= low;
        rest &= ~low;
    }
    h[2] = rest;
    assert_int_equal(cb_cards_size(h[2]), 16);
    /* the bomb last: it ends the game. 关门 twice over (32 each) + the bomb (10 each) */
    static const char *const last[] = {"3456789TJQ", "-", "-", "AA", "-", "-", "KKKK", NULL};
    cb_engine *e = play_script(&r, h, 0, -1, last);
    assert_int_equal(cb_engine_winner(e), 0);
    assert_int_equal(cb_engine_bomb_tricks(e, 0), 1);
    settle_both(e, h, 1, 84, -42, -42);
    cb_engine_free(e);
    /* the bomb second to last: it wins its trick by the two passes; the same points */
    static const char *const mid[] = {"3456789TJQ", "-", "-", "KKKK", "-", "-", "AA", NULL};
    e = play_script(&r, h, 0, -1, mid);
    assert_int_equal(cb_engine_bomb_tricks(e, 0), 1);
    settle_both(e, h, 1, 84, -42, -42);
    cb_engine_free(e);
    /* with 包庄 off and bomb_points 0 only the cards count */
    assert_int_equal(cb_rules_set(&r, "bomb_points", "0", NULL, 0), 0);
    e = play_script(&r, h, 0, -1, last);
    settle_both(e, h, 1, 64, -32, -32);
    cb_engine_free(e);
}

/* DDZ: a game that ends on the rocket doubles for it like any bomb, and is a spring. Landlord
 * 0 (fixed roles, stake 1) holds the straight 3..A, 33, the four 2s and both jokers. */
static void test_ddz_rocket_ends_game(void **state)
{
    (void)state;
    cb_rules r;
    assert_int_equal(cb_rules_preset("ddz", &r), 0);
    cb_cards ll = cards_of(&r, "3456789TJQKA332222XD");
    cb_cards bottom = cards_of(&r, "2XD") & ll;
    assert_int_equal(cb_cards_size(bottom), 3);
    cb_cards h[3], start[3];
    h[0] = ll & ~bottom;
    cb_cards rest = r.deck & ~ll;
    h[1] = 0;
    for (int k = 0; k < 17; k++) {
        cb_cards low = rest & -rest;
        h[1] |= low;
        rest &= ~low;
    }
    h[2] = rest;
    start[0] = ll;
    start[1] = h[1];
    start[2] = h[2];
    /* 1 x 2 (the bomb) x 2 (the rocket) x 2 (spring) = 8 */
    static const char *const script[] = {"3456789TJQKA", "-", "-", "33", "-", "-", "2222", "-", "-", "XD", NULL};
    cb_engine *e = play_script(&r, h, bottom, 0, script);
    assert_int_equal(cb_engine_winner(e), 0);
    settle_both(e, start, 8, 16, -8, -8);
    cb_engine_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ddz),
        cmocka_unit_test(test_pdk),
        cmocka_unit_test(test_ddz_spring_boundaries),
        cmocka_unit_test(test_random_vs_oracle),
        cmocka_unit_test(test_pdk_bomb_ends_game),
        cmocka_unit_test(test_ddz_rocket_ends_game),
    };
    return cmocka_run_group_tests_name("settle", tests, NULL, NULL);
}

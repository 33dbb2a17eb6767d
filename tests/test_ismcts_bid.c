/* ismcts's bids (包庄 / 叫分), answers that depend on the view only, the fallback when no world
 * fits the record, and bad views refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cardbot/bot.h"
#include "support/botfix.h"
#include "support/plugin/ismfix.h"
#include "support/randhand.h"
#include "support/shimfix.h" /* cbt_cards */

/* ---- bidding ---- */

static int bid(const cbt_bot_plugin *a, void *inst, const cb_rules *r, int seat, int first, const char *hand, const int bids[3],
               cb_decision *d)
{
    cb_view v;
    cbt_view_init(&v, r, CB_PHASE_BID, seat, first, cbt_cards(r, hand));
    for (int s = 0; s < 3; s++)
        v.bids[s] = bids[s];
    v.seed = 5;
    cbt_dec_init(d);
    assert_int_equal(a->bot->decide_bid(inst, &v, d), 0);
    print_message("%-6s %-22s -> %d  %s\n", r->preset, hand, d->bid, d->explain);
    /* an estimate when deals were sampled (its sample size is in the text), else no value */
    if (strstr(d->explain, "deals"))
        assert_true(d->value >= 0 && d->value <= 1 && d->simulations > 0);
    else
        assert_true(isnan(d->value) && d->bid == 0);
    return d->bid;
}

static void test_bidding(void **state)
{
    const cbt_bot_plugin *a = *state;
    cb_rules pdk, ddz;
    assert_int_equal(cb_rules_preset("pdk16", &pdk), 0);
    assert_int_equal(cb_rules_preset("ddz", &ddz), 0);
    cb_param p = {"bid_samples", "120"};
    void *inst = cbt_ism_make(a, &p, 1);
    assert_non_null(inst);
    const int none[3] = {-1, -1, -1}, declared[3] = {-1, 1, -1}, three[3] = {-1, 3, -1}, two[3] = {2, -1, -1};
    cb_decision d;
    /* 包庄: the 2, all the aces, three bombs: out first almost surely */
    assert_int_equal(bid(a, inst, &pdk, 0, 1, "2AAAKKKKQQQQJJJJ", none, &d), 1);
    assert_true(d.value >= 0.7f);
    /* scattered low cards: no */
    assert_int_equal(bid(a, inst, &pdk, 0, 0, "3s3h4567899TJQ5h6h7h8h", none, &d), 0);
    /* somebody declared first: the first declaration binds */
    assert_int_equal(bid(a, inst, &pdk, 0, 1, "2AAAKKKKQQQQJJJJ", declared, &d), 0);
    /* 叫分 */
    assert_int_equal(bid(a, inst, &ddz, 0, 0, "XD2222AAKKK345678", none, &d), 3);
    /* a hopeless hand passes a 2 (3 would stand) */
    assert_int_equal(bid(a, inst, &ddz, 1, 0, "3s4h5c7d8s9hJcQdKs3h4c6d8h9cTdJs5s", two, &d), 0);
    assert_int_equal(bid(a, inst, &ddz, 0, 0, "XD2222AAKKK345678", three, &d), 0);
    int b = bid(a, inst, &ddz, 1, 0, "XD2222AAKKK345678", two, &d);
    assert_true(b == 0 || b == 3);
    a->bot->destroy(inst);
    /* the thresholds decide */
    cb_param hi = {"threshold", "1"};
    inst = cbt_ism_make(a, &hi, 1);
    assert_int_equal(bid(a, inst, &pdk, 0, 1, "3s3h4567899TJQ5h6h7h8h", none, &d), 0);
    a->bot->destroy(inst);
}

/* The landlord's expected points per unit stake, from a points bid's explanation. */
static double landlord_per_stake(const cb_decision *d)
{
    double x = NAN;
    assert_int_equal(sscanf(d->explain, "landlord %lf/stake", &x), 1);
    return x;
}

/* bid_by = points (the default): 叫分 by expected points, the passing priced too */
static void test_bid_points(void **state)
{
    const cbt_bot_plugin *a = *state;
    cb_rules ddz;
    assert_int_equal(cb_rules_preset("ddz", &ddz), 0);
    const int none[3] = {-1, -1, -1}, two[3] = {2, -1, -1};
    const char *rocket_bombs = "XD2222AAAAKKKKQQQ", *hopeless = "3s4h5c7d8s9hJcQdKs3h4c6d8h9cTdJs5s";
    /* the thresholds at 0 would bid 3 on any hand: points must not read them */
    cb_param p[5] = {{"bid_samples", "120"}, {"bid1", "0"}, {"bid2", "0"}, {"bid3", "0"}, {"bid_by", "points"}};
    void *inst = cbt_ism_make(a, p, 5);
    assert_non_null(inst);
    cb_decision d;
    assert_int_equal(bid(a, inst, &ddz, 0, 0, rocket_bombs, none, &d), 3);
    /* the engine's settlement, doublings included: without a bomb or a spring a deal pays the
     * landlord at most 2 per unit stake; the rocket and three bombs win many times that */
    assert_true(d.value > 0.75f);
    assert_true(landlord_per_stake(&d) > 4.0);
    assert_int_equal(bid(a, inst, &ddz, 1, 0, rocket_bombs, two, &d), 3);
    /* a hopeless hand: loses as landlord, passes a 2 (3 would stand) */
    assert_int_equal(bid(a, inst, &ddz, 1, 0, hopeless, two, &d), 0);
    assert_true(landlord_per_stake(&d) < 0);
    /* first to answer it may bid 1, never more: a 1 stands only when neither later seat wants
     * the deal (the others modelled as level 6 bids), and then their hands are weak too */
    assert_true(bid(a, inst, &ddz, 0, 0, hopeless, none, &d) <= 1);
    assert_true(landlord_per_stake(&d) < 0);
    a->bot->destroy(inst);
    /* the former rule stays selectable, and with those thresholds bids 3 on the same hand */
    p[4].value = "winrate";
    inst = cbt_ism_make(a, p, 5);
    assert_non_null(inst);
    assert_int_equal(bid(a, inst, &ddz, 0, 0, hopeless, none, &d), 3);
    a->bot->destroy(inst);
}

/* 叫/抢地主 (rules->rob) by the same expectation, answered in its form: 1 call, 2 rob */
static void test_bid_rob(void **state)
{
    const cbt_bot_plugin *a = *state;
    cb_rules rob;
    assert_int_equal(cb_rules_preset("ddz", &rob), 0);
    rob.rob = true;
    cb_param p = {"bid_samples", "120"};
    void *inst = cbt_ism_make(a, &p, 1);
    assert_non_null(inst);
    const int none[3] = {-1, -1, -1}, called[3] = {1, -1, -1}, robbed[3] = {1, 2, 0};
    const char *strong = "XD2222AAAAKKKKQQQ", *hopeless = "3s4h5c7d8s9hJcQdKs3h4c6d8h9cTdJs5s";
    cb_decision d;
    /* first to answer: call or pass */
    assert_int_equal(bid(a, inst, &rob, 0, 0, strong, none, &d), 1);
    assert_int_equal(bid(a, inst, &rob, 0, 0, hopeless, none, &d), 0);
    /* after a call: rob (the stake doubles) or pass */
    assert_int_equal(bid(a, inst, &rob, 1, 0, strong, called, &d), 2);
    assert_true(landlord_per_stake(&d) > 4.0);
    assert_int_equal(bid(a, inst, &rob, 1, 0, hopeless, called, &d), 0);
    /* the caller's rob-back: it doubles once more, the landlord is whoever robbed last */
    assert_int_equal(bid(a, inst, &rob, 0, 0, strong, robbed, &d), 2);
    assert_int_equal(bid(a, inst, &rob, 0, 0, hopeless, robbed, &d), 0);
    a->bot->destroy(inst);
}

/* ---- fallback and bad views ---- */

/* An answer depends on the view and the parameters only: a bid on a fresh instance and on one
 * that has just searched a play (the two share the play-out agent) are the same. */
static void test_bid_stateless(void **state)
{
    const cbt_bot_plugin *a = *state;
    cb_param p[3] = {{"bid_samples", "120"}, {"iterations", "60"}, {"belief_worlds", "100"}};
    void *fresh = cbt_ism_make(a, p, 3), *used = cbt_ism_make(a, p, 3);
    assert_non_null(fresh);
    assert_non_null(used);
    cbt_player *P = cbt_player_new(a, cbt_seed(107));
    assert_int_equal(cb_rules_preset("pdk16", &P->r), 0);
    int searched = 0;
    while (searched == 0) {
        cbt_player_start(P, -1);
        while (P->g.winner < 0 && searched == 0) {
            if (P->g.nhist >= 3) {
                cb_view v;
                cb_deal_view(&P->g, NULL, cbt_rng_next(&P->rng), &v);
                v.budget_ms = 0;
                cb_decision d;
                cbt_dec_init(&d);
                assert_int_equal(a->bot->decide_play(used, &v, &d), 0);
                searched = strncmp(d.explain, "ismcts v=", 9) == 0;
            }
            cbt_player_step(P, false);
        }
    }
    const int none[3] = {-1, -1, -1};
    const char *hands[] = {"2AAKKQQJJTT99887", "3s3h4567899TJQ5h6h7h8h", "2AAAKKQQJ9988776"};
    for (int i = 0; i < 3; i++) {
        cb_decision d1, d2;
        bid(a, fresh, &P->r, 0, 0, hands[i], none, &d1);
        bid(a, used, &P->r, 0, 0, hands[i], none, &d2);
        assert_int_equal(d1.bid, d2.bid);
        assert_true(memcmp(&d1.value, &d2.value, sizeof d1.value) == 0);
    }
    cbt_player_free(P);
    a->bot->destroy(fresh);
    a->bot->destroy(used);
}

static void test_fallback(void **state)
{
    const cbt_bot_plugin *a = *state;
    cb_rules r;
    assert_int_equal(cb_rules_preset("pdk16", &r), 0);
    r.spade3_first = false;
    /* seat 0 led the ace of hearts and both others passed (so neither holds a card above an
     * ace), yet the only 2 is unseen: no world fits, the heuristic answers */
    cb_play_rec h[3] = {{cbt_cards(&r, "Ah"), 0, 0}, {0, 1, 0}, {0, 2, 0}};
    cb_view v;
    cbt_view_init(&v, &r, CB_PHASE_PLAY, 0, 0, cbt_cards(&r, "3s3h4s4h5s5h6s6h7s8h9cTcJcQcKc"));
    v.cards_left[0] = 15;
    v.cards_left[1] = v.cards_left[2] = 16;
    v.history = h;
    v.nhistory = 3;
    v.seed = 3;
    void *inst = cbt_ism_make(a, NULL, 0);
    cb_decision d;
    cbt_dec_init(&d);
    assert_int_equal(a->bot->decide_play(inst, &v, &d), 0);
    print_message("fallback: %s\n", d.explain);
    assert_non_null(strstr(d.explain, "heuristic"));
    assert_non_null(strstr(d.explain, "no consistent world"));
    cb_ctx ctx = {.hand = cb_counts_of(v.hand)};
    assert_true(d.cards && (d.cards & ~v.hand) == 0);
    assert_true(cb_play_legal(&r, &ctx, cb_counts_of(d.cards), NULL, NULL, 0));
    /* bad views are refused */
    v.rules = NULL;
    assert_int_not_equal(a->bot->decide_play(inst, &v, &d), 0);
    v.rules = &r;
    v.phase = CB_PHASE_BID;
    assert_int_not_equal(a->bot->decide_play(inst, &v, &d), 0);
    v.phase = CB_PHASE_PLAY;
    v.seat = 4;
    assert_int_not_equal(a->bot->decide_play(inst, &v, &d), 0);
    v.seat = 0;
    v.history = NULL;
    assert_int_not_equal(a->bot->decide_play(inst, &v, &d), 0);
    a->bot->destroy(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bidding),
        cmocka_unit_test(test_bid_points),
        cmocka_unit_test(test_bid_rob),
        cmocka_unit_test(test_bid_stateless),
        cmocka_unit_test(test_fallback),
    };
    return cmocka_run_group_tests(tests, cbt_ism_setup, cbt_plugin_teardown);
}

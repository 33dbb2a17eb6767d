/* The rulebot plugin through its ABI: dlopen build/<v>/plugins/rulebot.so (env CB_BUILD),
 * parameters refused with the key named, whole games of every preset through core's engine
 * (cb_engine: bidding included) with all three seats rulebot, every bid checked against
 * cb_engine_legal_bids and every play against cb_play_legal (so zero answers the shim would
 * replace), determinism for a seed, and the rules themselves on hand-made positions: lead the
 * lowest group of a fewest-plays decomposition, keep a bomb that is not needed, spend it when
 * it wins or an opponent is about to go out, leave a DDZ partner's trick alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cardbot/bot.h"
#include "cardbot/game.h"
#include "support/botfix.h"
#include "support/randhand.h"

typedef cbt_bot_plugin api;

static int setup(void **state) { return cbt_bot_plugin_setup(state, "rulebot"); }

static void *make(const api *a, const char *style, uint64_t seed)
{
    char sd[32];
    snprintf(sd, sizeof sd, "%llu", (unsigned long long)seed);
    cb_param p[2] = {{"style", style}, {"seed", sd}};
    char err[160] = "";
    void *inst = a->bot->create(p, 2, err, sizeof err);
    if (!inst)
        print_error("create: %s\n", err);
    return inst;
}

static void test_entry_and_params(void **state)
{
    api *a = *state;
    assert_int_equal(a->bot->abi_version, CB_ABI_VERSION);
    assert_int_equal(a->bot->struct_size, sizeof(cb_bot));
    assert_string_equal(a->bot->name, "rulebot");
    void *inst = a->bot->create(NULL, 0, NULL, 0);
    assert_non_null(inst);
    a->bot->destroy(inst);
    inst = make(a, "random", 3);
    assert_non_null(inst);
    a->bot->destroy(inst);
    cbt_expect_refused1(a->bot, "style", "greedy", "style");
    cbt_expect_refused1(a->bot, "style", "", "style");
    cbt_expect_refused1(a->bot, "seed", "-1", "seed");
    cbt_expect_refused1(a->bot, "seed", "x", "seed");
    cbt_expect_refused1(a->bot, "level", "3", "level");
    a->bot->destroy(NULL);
}

/* ---- whole games through the engine ---- */

typedef struct gstats {
    long bids, plays, passes, bombs;
} gstats;

/* Is the answer legal for the view (the shim's check, done here independently)? */
static void check_play(const cb_view *v, const cb_decision *d)
{
    const cb_rules *r = v->rules;
    assert_true((d->cards & ~v->hand) == 0);
    cb_ctx ctx = {.hand = cb_counts_of(v->hand), .table = NULL,
                  .next_has_one = v->cards_left[(v->seat + 1) % 3] == 1,
                  .first_play = r->game == CB_GAME_PDK && r->spade3_first && v->nhistory == 0 &&
                                (v->hand & cb_card_bit(cb_card_id(CB_RANK_3, CB_SUIT_S)))};
    cb_move table, m;
    if (v->table) {
        assert_true(cb_classify(r, cb_counts_of(v->table), &table, NULL, 0));
        ctx.table = &table;
    }
    char why[128] = "";
    if (!cb_play_legal(r, &ctx, cb_counts_of(d->cards), &m, why, sizeof why))
        fail_msg("illegal answer at seat %d (%s): %s", v->seat, d->explain, why);
    if (ctx.first_play)
        assert_true(d->cards & cb_card_bit(cb_card_id(CB_RANK_3, CB_SUIT_S)));
    assert_non_null(memchr(d->explain, 0, sizeof d->explain));
    assert_true(d->explain[0] != 0);
}

static void play_game(const api *a, const cb_rules *r, void *const inst[3], uint64_t key, uint64_t game, gstats *st)
{
    cb_engine_opts o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.key = key;
    o.deal = game;
    o.game = game;
    o.first_bidder = -1;
    o.landlord = -1;
    char err[160];
    cb_engine *e = cb_engine_new(r, &o, err, sizeof err);
    if (!e)
        fail_msg("engine: %s", err);
    int guard = 0;
    while (cb_engine_phase(e) != CB_PHASE_OVER) {
        assert_true(++guard < 400);
        int seat = cb_engine_turn(e);
        cb_view v;
        assert_int_equal(cb_engine_view(e, seat, 1000, &v), 0);
        cb_decision d;
        memset(&d, 0, sizeof d);
        d.struct_size = sizeof d;
        if (cb_engine_phase(e) == CB_PHASE_BID) {
            assert_int_equal(a->bot->decide_bid(inst[seat], &v, &d), 0);
            int32_t ok[8];
            int n = cb_engine_legal_bids(e, ok, 8), found = 0;
            for (int i = 0; i < n; i++)
                found |= ok[i] == d.bid;
            if (!found)
                fail_msg("illegal bid %d at seat %d (%s)", d.bid, seat, d.explain);
            assert_int_equal(cb_engine_bid(e, d.bid, err, sizeof err), 0);
            st->bids++;
        } else {
            assert_int_equal(a->bot->decide_play(inst[seat], &v, &d), 0);
            check_play(&v, &d);
            if (cb_engine_play(e, d.cards, err, sizeof err) != 0)
                fail_msg("engine refused %s: %s", d.explain, err);
            st->plays += d.cards != 0;
            st->passes += d.cards == 0;
            st->bombs += (d.flags & CB_DEC_BOMB) != 0;
        }
    }
    int delta[3];
    assert_true(cb_engine_points(e, delta) >= 1);
    assert_int_equal(delta[0] + delta[1] + delta[2], 0);
    cb_engine_free(e);
}

static void games(const api *a, const char *preset, const char *style, int n, const char *flag, const char *value)
{
    cb_rules r;
    assert_int_equal(cb_rules_preset(preset, &r), 0);
    if (flag) {
        char err[128];
        assert_int_equal(cb_rules_set(&r, flag, value, err, sizeof err), 0);
    }
    void *inst[3];
    for (int s = 0; s < 3; s++)
        assert_non_null(inst[s] = make(a, style, 10 + (uint64_t)s));
    gstats st = {0};
    uint64_t key = cbt_seed(16);
    for (int g = 0; g < n; g++)
        play_game(a, &r, inst, key, (uint64_t)g, &st);
    printf("# %s%s%s %s: %d games, %ld bids, %ld plays, %ld passes, %ld bombs, all legal\n", preset,
           flag ? " " : "", flag ? flag : "", style, n, st.bids, st.plays, st.passes, st.bombs);
    assert_true(st.plays > n * 5);
    for (int s = 0; s < 3; s++)
        a->bot->destroy(inst[s]);
}

static void test_games_pdk(void **state)
{
    api *a = *state;
    games(a, "pdk16", "rule", 300, NULL, NULL);
    games(a, "pdk15", "rule", 100, NULL, NULL);
    games(a, "guanpai", "rule", 100, NULL, NULL);
    games(a, "pdk16", "rule", 100, "short_triple", "always");
    games(a, "pdk16", "rule", 100, "min_pair_chain", "2");
    games(a, "pdk16", "random", 200, NULL, NULL);
    games(a, "guanpai", "random", 100, NULL, NULL);
}

static void test_games_ddz(void **state)
{
    api *a = *state;
    games(a, "ddz", "rule", 300, NULL, NULL);
    games(a, "ddz", "rule", 100, "rob", "true");
    games(a, "ddz", "random", 200, NULL, NULL);
}

/* ---- determinism ---- */

static void test_deterministic(void **state)
{
    api *a = *state;
    cb_rules r;
    assert_int_equal(cb_rules_preset("ddz", &r), 0);
    cbt_rng g;
    cbt_rng_seed(&g, cbt_seed(11));
    const char *styles[2] = {"rule", "random"};
    for (int k = 0; k < 2; k++) {
        void *i1 = make(a, styles[k], 5), *i2 = make(a, styles[k], 5), *i3 = make(a, styles[k], 6);
        int differ = 0;
        for (int t = 0; t < 100; t++) {
            cb_cards hand;
            assert_int_equal(cb_cards_pick(r.deck, cbt_hand_uniform(&g, cb_counts_of(r.deck), 17), &hand), 0);
            cb_view v;
            cbt_view_init(&v, &r, CB_PHASE_PLAY, 0, 0, hand);
            v.cards_left[0] = 17;
            v.landlord = 1;
            v.seed = cbt_rng_next(&g);
            cb_decision d1, d2, d3;
            memset(&d1, 0, sizeof d1);
            d1.struct_size = sizeof d1;
            d2 = d3 = d1;
            assert_int_equal(a->bot->decide_play(i1, &v, &d1), 0);
            assert_int_equal(a->bot->decide_play(i2, &v, &d2), 0);
            assert_int_equal(a->bot->decide_play(i1, &v, &d3), 0); /* again on a used instance */
            assert_true(d1.cards == d2.cards && d1.cards == d3.cards);
            assert_true(d1.cards != 0 && (d1.cards & ~hand) == 0);
            assert_int_equal(a->bot->decide_play(i3, &v, &d3), 0);
            differ += d3.cards != d1.cards;
        }
        /* the rule style never draws; the random one follows its seed */
        if (k == 0)
            assert_int_equal(differ, 0);
        else
            assert_true(differ > 50);
        a->bot->destroy(i1);
        a->bot->destroy(i2);
        a->bot->destroy(i3);
    }
}

/* ---- the rules on hand-made positions ---- */

static cb_cards cards(const cb_rules *r, const char *text)
{
    cb_cards c = 0;
    char err[128];
    if (cb_cards_parse(text, r->deck, &c, err, sizeof err) != 0)
        fail_msg("parse %s: %s", text, err);
    return c;
}

/* seat 0 to act with hand; the table (0 = lead) made by table_seat; a first play made by
 * seat 2 so that leading is not the deal's first play. */
static cb_cards answer(const api *a, void *inst, const cb_rules *r, const char *hand, const int left[3],
                       const char *table, int table_seat, int landlord, cb_decision *d)
{
    static cb_play_rec hist[2];
    cb_view v;
    cbt_view_init(&v, r, CB_PHASE_PLAY, 0, 2, cards(r, hand));
    for (int s = 0; s < 3; s++)
        v.cards_left[s] = left[s];
    v.cards_left[0] = cb_cards_size(v.hand);
    v.landlord = landlord;
    hist[0] = (cb_play_rec){cards(r, "3s"), 2, 0};
    v.history = hist;
    v.nhistory = 1;
    if (table) {
        v.table = cards(r, table);
        v.table_seat = table_seat;
    }
    v.budget_ms = 100;
    memset(d, 0, sizeof *d);
    d->struct_size = sizeof *d;
    assert_int_equal(a->bot->decide_play(inst, &v, d), 0);
    return d->cards;
}

static void expect(const api *a, void *inst, const cb_rules *r, const char *hand, const int left[3], const char *table,
                   int table_seat, int landlord, const char *want)
{
    cb_decision d;
    cb_cards got = answer(a, inst, r, hand, left, table, table_seat, landlord, &d);
    cb_cards w = want ? cards(r, want) : 0;
    if (cb_counts_of(got) != cb_counts_of(w)) {
        char g[64], x[64];
        cb_cards_format(got, false, g, sizeof g);
        cb_cards_format(w, false, x, sizeof x);
        fail_msg("hand %s table %s: played '%s' (%s), expected '%s'", hand, table ? table : "-", g, d.explain, x);
    }
}

static void test_rules(void **state)
{
    api *a = *state;
    cb_rules pdk, ddz;
    assert_int_equal(cb_rules_preset("pdk16", &pdk), 0);
    assert_int_equal(cb_rules_preset("ddz", &ddz), 0);
    void *inst = make(a, "rule", 0);
    const int many[3] = {0, 10, 10}, near1[3] = {0, 1, 10}, near2[3] = {0, 10, 2};
    /* lead the lowest group of a fewest-plays decomposition (34567 + 99 + K: three plays),
     * the straight rather than its lowest card alone */
    expect(a, inst, &pdk, "3h4h5h6h7h9h9cKh", many, NULL, -1, -1, "34567");
    /* 3 + 3456789 (two plays): the longest group of the lowest rank first */
    expect(a, inst, &ddz, "33456789", many, NULL, -1, -1, "3456789");
    /* the next seat holds one card: leading a single is the last resort, a pair goes first */
    expect(a, inst, &ddz, "3h8h8c", near1, NULL, -1, -1, "88");
    /* two plays left, one of them unbeatable by anything still out: that one first (the
     * rocket), then the single is led and wins */
    expect(a, inst, &ddz, "3hXD", many, NULL, -1, -1, "XD");
    /* follow with the lowest group that beats the table, not a card of the straight */
    expect(a, inst, &ddz, "3456789QK", many, "T", 1, -1, "Q");
    /* a bomb that is not needed is kept (DDZ: passing is allowed) */
    expect(a, inst, &ddz, "555579J", many, "A", 1, -1, NULL);
    /* ... spent when an opponent is about to go out */
    expect(a, inst, &ddz, "555579J", near2, "A", 2, -1, "5555");
    /* ... and when it leaves one play: bomb, then the straight */
    expect(a, inst, &ddz, "555589TJQK", many, "2", 1, -1, "5555");
    /* a 2 waits for a table worth it */
    expect(a, inst, &ddz, "2456789", many, "4", 1, -1, NULL);
    /* a DDZ farmer leaves the partner's trick alone (seat 1 landlord, seat 2 my partner) */
    expect(a, inst, &ddz, "5689TQK", many, "A", 2, 1, NULL);
    /* ... but the same play by the landlord is beaten */
    expect(a, inst, &ddz, "5689TQKD", many, "A", 1, 1, "D");
    a->bot->destroy(inst);
}

static void test_bidding(void **state)
{
    api *a = *state;
    cb_rules ddz, pdk;
    assert_int_equal(cb_rules_preset("ddz", &ddz), 0);
    assert_int_equal(cb_rules_preset("pdk16", &pdk), 0);
    void *inst = make(a, "rule", 0);
    struct {
        const cb_rules *r;
        const char *hand;
        int want;
    } cases[] = {
        {&ddz, "XD2222AAKK345678Q", 3},  /* rocket, bomb of 2s */
        {&ddz, "3s4h5c7d8s9hJcQdKs3h4c6d8h9cTdJs5s", 0},
        {&pdk, "3s4h5c7d8s9hJcQdKs3h4c6d8h9cTd5s", 0},
        {&pdk, "2AAAKKKKQQQQJJJJ", 1},   /* three plays, each covered by a top card or a bomb */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cb_view v;
        cbt_view_init(&v, cases[i].r, CB_PHASE_BID, 0, 0, cards(cases[i].r, cases[i].hand));
        v.cards_left[0] = cb_cards_size(v.hand);
        cb_decision d;
        memset(&d, 0, sizeof d);
        d.struct_size = sizeof d;
        assert_int_equal(a->bot->decide_bid(inst, &v, &d), 0);
        if (d.bid != cases[i].want)
            fail_msg("%s: bid %d (%s), expected %d", cases[i].hand, d.bid, d.explain, cases[i].want);
    }
    a->bot->destroy(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entry_and_params),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_bidding),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_games_pdk),
        cmocka_unit_test(test_games_ddz),
    };
    return cmocka_run_group_tests(tests, setup, cbt_plugin_teardown);
}

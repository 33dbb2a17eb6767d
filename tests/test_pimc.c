/* The pimc plugin through its ABI: dlopen build/<v>/plugins/pimc.so (env CB_BUILD), parameters
 * refused with the key named, whole games of both games through core's engine (bidding
 * included) with all three seats pimc and every bid and play checked with core (so zero
 * answers the shim would replace), each play-out policy, determinism for a seed, the time
 * budget, and the idea itself: in small endgames of real deals (rulebot at every seat) pimc's
 * play is checked with the exact solver on the true hands against the rule policy's play —
 * pimc must find wins greedy play misses, at least one of them a win in every world it
 * sampled, and miss fewer than it finds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../plugin/ismcts/solve.h"
#include "cardbot/bot.h"
#include "cardbot/game.h"
#include "support/botfix.h"
#include "support/plugload.h"
#include "support/randhand.h"

typedef struct pm_api {
    void *so; /* first: the state of cbt_plugin_setup */
    cb_plugin_entry_fn entry;
    const cb_bot *bot;
    /* the exact solver pimc.so compiles in (plugin/ismcts/solve.h) */
    __typeof__(is_solver_init) *solver_init;
    __typeof__(is_solver_free) *solver_free;
    __typeof__(is_solver_reset) *solver_reset;
    __typeof__(is_solve) *solve;
    __typeof__(is_pos_apply) *pos_apply;
    /* the rulebot plugin: the greedy player pimc is compared with */
    void *rso;
    const cb_bot *rule;
} pm_api;

static int setup(void **state)
{
    static const cbt_sym syms[] = {
        {CB_PLUGIN_ENTRY, offsetof(pm_api, entry)},
    };
    if (cbt_plugin_setup(state, "pimc", sizeof(pm_api), syms, sizeof syms / sizeof syms[0]))
        return -1;
    pm_api *a = *state;
    /* the plugin exports its entry alone: the solver (the same source pimc.so compiles in)
     * comes from the plugins' static libraries this test links */
    a->solver_init = is_solver_init;
    a->solver_free = is_solver_free;
    a->solver_reset = is_solver_reset;
    a->solve = is_solve;
    a->pos_apply = is_pos_apply;
    a->bot = a->entry();
    a->rso = cbt_open_plugin("rulebot");
    cb_plugin_entry_fn re = a->rso ? (cb_plugin_entry_fn)dlsym(a->rso, CB_PLUGIN_ENTRY) : NULL;
    if (!re) {
        cbt_plugin_teardown(state);
        return -1;
    }
    a->rule = re();
    return 0;
}

static int teardown(void **state)
{
    pm_api *a = *state;
    if (a && a->rso)
        dlclose(a->rso);
    return cbt_plugin_teardown(state);
}

static void *make(const cb_bot *bot, const char *const *kv)
{
    cb_param p[8];
    int n = 0;
    for (; kv && kv[2 * n]; n++)
        p[n] = (cb_param){kv[2 * n], kv[2 * n + 1]};
    char err[200] = "";
    void *inst = bot->create(p, n, err, sizeof err);
    if (!inst)
        print_error("create: %s\n", err);
    return inst;
}

static void test_entry_and_params(void **state)
{
    pm_api *a = *state;
    assert_int_equal(a->bot->abi_version, CB_ABI_VERSION);
    assert_int_equal(a->bot->struct_size, sizeof(cb_bot));
    assert_string_equal(a->bot->name, "pimc");
    void *inst = a->bot->create(NULL, 0, NULL, 0);
    assert_non_null(inst);
    a->bot->destroy(inst);
    const char *all[] = {"worlds", "5", "width", "3", "solve_cards", "0", "solve_nodes", "100", "rollout", "random",
                         "seed", "7", "bid_worlds", "3", NULL};
    assert_non_null(inst = make(a->bot, all));
    a->bot->destroy(inst);
    cbt_expect_refused1(a->bot, "worlds", "0", "worlds");
    cbt_expect_refused1(a->bot, "worlds", "1001", "worlds");
    cbt_expect_refused1(a->bot, "worlds", "ten", "worlds");
    cbt_expect_refused1(a->bot, "width", "65", "width");
    cbt_expect_refused1(a->bot, "solve_cards", "55", "solve_cards");
    cbt_expect_refused1(a->bot, "solve_cards", "-1", "solve_cards");
    cbt_expect_refused1(a->bot, "solve_nodes", "0", "solve_nodes");
    cbt_expect_refused1(a->bot, "rollout", "heuristic", "rollout");
    cbt_expect_refused1(a->bot, "seed", "-2", "seed");
    cbt_expect_refused1(a->bot, "bid_worlds", "", "bid_worlds");
    cbt_expect_refused1(a->bot, "threshold", "1.5", "threshold");
    cbt_expect_refused1(a->bot, "threshold", "nan", "threshold");
    cbt_expect_refused1(a->bot, "iterations", "300", "iterations");
    a->bot->destroy(NULL);
}

/* ---- whole games through the engine ---- */

typedef struct gstats {
    long bids, plays, passes, cut, endgame;
    double ms_max;
} gstats;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

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
    assert_non_null(memchr(d->explain, 0, sizeof d->explain));
    assert_true(d->explain[0] != 0);
}

static cb_engine *engine(const cb_rules *r, uint64_t key, uint64_t game)
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
    return e;
}

/* One game, inst[s] at seat s; the play answers are written to log (when not NULL). */
static int play_game(const pm_api *a, const cb_rules *r, void *const inst[3], uint64_t key, uint64_t game,
                     gstats *st, cb_cards *log, int logcap)
{
    cb_engine *e = engine(r, key, game);
    char err[160];
    int guard = 0, nlog = 0;
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
            double t0 = now_ms();
            assert_int_equal(a->bot->decide_play(inst[seat], &v, &d), 0);
            double ms = now_ms() - t0;
            if (ms > st->ms_max)
                st->ms_max = ms;
            check_play(&v, &d);
            if (cb_engine_play(e, d.cards, err, sizeof err) != 0)
                fail_msg("engine refused %s: %s", d.explain, err);
            st->plays += d.cards != 0;
            st->passes += d.cards == 0;
            st->cut += strstr(d.explain, " cut") != NULL;
            st->endgame += (d.flags & CB_DEC_ENDGAME) != 0;
            if (log && nlog < logcap)
                log[nlog++] = d.cards;
        }
    }
    int delta[3];
    assert_true(cb_engine_points(e, delta) >= 1);
    assert_int_equal(delta[0] + delta[1] + delta[2], 0);
    cb_engine_free(e);
    return nlog;
}

static void games(const pm_api *a, const char *preset, int n, const char *const *kv)
{
    cb_rules r;
    assert_int_equal(cb_rules_preset(preset, &r), 0);
    void *inst[3];
    for (int s = 0; s < 3; s++)
        assert_non_null(inst[s] = make(a->bot, kv));
    gstats st = {0};
    uint64_t key = cbt_seed(16);
    double t0 = now_ms();
    for (int g = 0; g < n; g++)
        play_game(a, &r, inst, key, (uint64_t)g, &st, NULL, 0);
    printf("# %s %s=%s: %d games, %ld bids, %ld plays, %ld passes, %ld endgame, %ld cut, slowest %.1f ms, "
           "%.2f s, all legal\n",
           preset, kv ? kv[0] : "-", kv ? kv[1] : "-", n, st.bids, st.plays, st.passes, st.endgame, st.cut,
           st.ms_max, (now_ms() - t0) / 1e3);
    assert_true(st.plays > n * 5);
    for (int s = 0; s < 3; s++)
        a->bot->destroy(inst[s]);
}

static void test_games_pdk(void **state)
{
    pm_api *a = *state;
    const char *small[] = {"worlds", "6", NULL};
    const char *rnd[] = {"rollout", "random", "worlds", "6", NULL};
    const char *fast[] = {"rollout", "fast", "worlds", "4", NULL};
    games(a, "pdk16", 30, small);
    games(a, "pdk15", 10, small);
    games(a, "guanpai", 10, small);
    games(a, "pdk16", 10, rnd);
    games(a, "pdk16", 6, fast);
    games(a, "pdk16", 6, NULL); /* the defaults */
}

static void test_games_ddz(void **state)
{
    pm_api *a = *state;
    const char *small[] = {"worlds", "4", NULL};
    const char *rnd[] = {"rollout", "random", "worlds", "4", NULL};
    games(a, "ddz", 20, small);
    games(a, "ddz", 6, rnd);
    games(a, "ddz", 4, NULL);
}

/* Same seed, same game: two fresh instances per seat, then the first ones again. */
static void test_deterministic(void **state)
{
    pm_api *a = *state;
    const char *kv[] = {"worlds", "6", "seed", "9", NULL};
    const char *kv2[] = {"worlds", "6", "seed", "10", NULL};
    const char *presets[2] = {"pdk16", "ddz"};
    for (int p = 0; p < 2; p++) {
        cb_rules r;
        assert_int_equal(cb_rules_preset(presets[p], &r), 0);
        void *i1[3], *i2[3], *i3[3];
        for (int s = 0; s < 3; s++) {
            assert_non_null(i1[s] = make(a->bot, kv));
            assert_non_null(i2[s] = make(a->bot, kv));
            assert_non_null(i3[s] = make(a->bot, kv2));
        }
        int differ = 0;
        for (int g = 0; g < 4; g++) {
            cb_cards l1[300], l2[300], l3[300];
            gstats st = {0};
            int n1 = play_game(a, &r, i1, 77, (uint64_t)g, &st, l1, 300);
            int n2 = play_game(a, &r, i2, 77, (uint64_t)g, &st, l2, 300);
            assert_int_equal(n1, n2);
            assert_memory_equal(l1, l2, (size_t)n1 * sizeof l1[0]);
            n2 = play_game(a, &r, i1, 77, (uint64_t)g, &st, l2, 300); /* used instances */
            assert_int_equal(n1, n2);
            assert_memory_equal(l1, l2, (size_t)n1 * sizeof l1[0]);
            int n3 = play_game(a, &r, i3, 77, (uint64_t)g, &st, l3, 300);
            differ += n3 != n1 || memcmp(l1, l3, (size_t)n1 * sizeof l1[0]) != 0;
        }
        printf("# %s: another seed changed %d of 4 games\n", presets[p], differ);
        for (int s = 0; s < 3; s++) {
            a->bot->destroy(i1[s]);
            a->bot->destroy(i2[s]);
            a->bot->destroy(i3[s]);
        }
    }
}

/* A tiny budget cuts the vote short (after at least one world) and says so. */
static void test_budget(void **state)
{
    pm_api *a = *state;
    cb_rules r;
    assert_int_equal(cb_rules_preset("ddz", &r), 0);
    const char *kv[] = {"worlds", "1000", "width", "64", NULL};
    void *inst = make(a->bot, kv);
    assert_non_null(inst);
    cb_engine *e = engine(&r, 5, 0);
    char err[160];
    /* through the bidding with passes (the first bidder becomes landlord after redeals) */
    while (cb_engine_phase(e) == CB_PHASE_BID)
        assert_int_equal(cb_engine_bid(e, 0, err, sizeof err), 0);
    cb_view v;
    assert_int_equal(cb_engine_view(e, cb_engine_turn(e), 20, &v), 0);
    cb_decision d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    double t0 = now_ms();
    assert_int_equal(a->bot->decide_play(inst, &v, &d), 0);
    double ms = now_ms() - t0;
    printf("# budget 20 ms: %.1f ms, %s\n", ms, d.explain);
    check_play(&v, &d);
    assert_non_null(strstr(d.explain, " cut"));
    /* generous: a loaded machine may stretch one world; the bound is that the vote stopped */
    assert_true(ms < 2000);
    cb_engine_free(e);
    a->bot->destroy(inst);
}

/* ---- the idea: endgames of real deals, checked on the true hands ---- */

typedef struct endtally {
    int positions, better, worse, forced, pimc_wins, rule_wins;
} endtally;

/* Does the seat to act win (its side: PDK without 包庄 only itself) after playing `cards`? */
static int true_outcome(const pm_api *a, is_solver *sv, const cb_deal *g, cb_cards cards)
{
    const cb_rules *r = g->rules;
    is_pos p;
    memset(&p, 0, sizeof p);
    for (int s = 0; s < 3; s++)
        p.h[s] = cb_counts_of(g->hands[s]);
    p.turn = (int8_t)g->turn;
    p.tseat = (int8_t)g->table_seat;
    p.npass = (int8_t)g->npass;
    if (g->table_seat >= 0)
        p.table = g->table;
    uint8_t side[3];
    for (int s = 0; s < 3; s++)
        side[s] = g->landlord >= 0 ? (uint8_t)((s == g->landlord) == (g->turn == g->landlord)) : (uint8_t)(s == g->turn);
    a->solver_reset(sv, r, side);
    cb_move m;
    memset(&m, 0, sizeof m);
    if (cards) {
        cb_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.hand = p.h[p.turn];
        ctx.table = p.tseat >= 0 ? &p.table : NULL;
        ctx.next_has_one = cb_counts_total(p.h[(p.turn + 1) % 3]) == 1;
        assert_true(cb_play_legal(r, &ctx, cb_counts_of(cards), &m, NULL, 0));
    }
    int w = a->pos_apply(r, &p, &m);
    if (w >= 0)
        return side[w];
    return a->solve(sv, &p, 50000000);
}

static void endgames(const pm_api *a, const char *preset, int ndeals, int max_cards, endtally *t)
{
    cb_rules r;
    assert_int_equal(cb_rules_preset(preset, &r), 0);
    r.bao = false;
    const char *kv[] = {"worlds", "24", "solve_cards", "16", NULL};
    void *pm = make(a->bot, kv), *rb = make(a->rule, NULL);
    assert_non_null(pm);
    assert_non_null(rb);
    is_solver sv;
    assert_int_equal(a->solver_init(&sv, 18, 1 << 14), 0);
    char err[160];
    for (int g = 0; g < ndeals; g++) {
        cb_engine *e = engine(&r, 2024, (uint64_t)g);
        while (cb_engine_phase(e) != CB_PHASE_OVER) {
            int seat = cb_engine_turn(e);
            cb_view v;
            assert_int_equal(cb_engine_view(e, seat, 1000, &v), 0);
            cb_decision dr, dp;
            memset(&dr, 0, sizeof dr);
            dr.struct_size = sizeof dr;
            dp = dr;
            if (cb_engine_phase(e) == CB_PHASE_BID) {
                assert_int_equal(a->rule->decide_bid(rb, &v, &dr), 0);
                assert_int_equal(cb_engine_bid(e, dr.bid, err, sizeof err), 0);
                continue;
            }
            assert_int_equal(a->rule->decide_play(rb, &v, &dr), 0);
            int total = v.cards_left[0] + v.cards_left[1] + v.cards_left[2];
            cb_cards legal[64];
            if (total <= max_cards && cb_engine_legal_plays(e, legal, 64) > 1) {
                assert_int_equal(a->bot->decide_play(pm, &v, &dp), 0);
                check_play(&v, &dp);
                const cb_deal *dl = cb_engine_deal(e);
                int wr = true_outcome(a, &sv, dl, dr.cards), wp = true_outcome(a, &sv, dl, dp.cards);
                if (wr >= 0 && wp >= 0) {
                    t->positions++;
                    t->pimc_wins += wp;
                    t->rule_wins += wr;
                    if (wp && !wr) {
                        t->better++;
                        /* a win in every sampled world: forced, whatever the hidden cards */
                        if (dp.value >= 0.999f)
                            t->forced++;
                    }
                    t->worse += wr && !wp;
                }
            }
            /* the game goes on with the greedy play, so both are asked in the same positions */
            assert_int_equal(cb_engine_play(e, dr.cards, err, sizeof err), 0);
        }
        cb_engine_free(e);
    }
    a->solver_free(&sv);
    a->bot->destroy(pm);
    a->rule->destroy(rb);
}

static void test_endgame_beats_greedy(void **state)
{
    pm_api *a = *state;
    const char *presets[2] = {"pdk16", "ddz"};
    for (int p = 0; p < 2; p++) {
        endtally t = {0};
        endgames(a, presets[p], p == 0 ? 150 : 200, 16, &t);
        printf("# %s endgames (<= 16 cards in all hands, %d positions): pimc's play wins on the true hands "
               "%d times, the rule policy's %d; pimc right where rule is wrong %d (%d of them won in every "
               "sampled world), the reverse %d\n",
               presets[p], t.positions, t.pimc_wins, t.rule_wins, t.better, t.forced, t.worse);
        assert_true(t.positions >= (p == 0 ? 100 : 40)); /* enough to judge (fixed seeds) */
        assert_true(t.forced >= 1);
        assert_true(t.better > t.worse);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entry_and_params),
        cmocka_unit_test(test_budget),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_endgame_beats_greedy),
        cmocka_unit_test(test_games_pdk),
        cmocka_unit_test(test_games_ddz),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

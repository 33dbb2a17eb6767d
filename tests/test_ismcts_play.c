/* ismcts on positions from deals (tests/support/plugin/ismfix.h):
 *  - reproducibility: same view + seed + thread count -> the same decision (1 and 2 threads);
 *  - legality: hundreds of positions of random and heuristic deals (PDK with and without a
 *    包庄 declarer, DDZ landlord and farmers), every answer checked with core's cb_play_legal. */
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

static void test_reproducible(void **state)
{
    const cbt_bot_plugin *a = *state;
    uint64_t seed = cbt_seed(31);
    cbt_player *P = cbt_player_new(a, seed);
    const char *presets[] = {"pdk16", "ddz"};
    int checked = 0;
    for (int gi = 0; gi < 2; gi++) {
        assert_int_equal(cb_rules_preset(presets[gi], &P->r), 0);
        bool ddz = P->r.game == CB_GAME_DDZ;
        for (int threads = 1; threads <= 2; threads++) {
            char th[16];
            snprintf(th, sizeof th, "%d", threads);
            cb_param p[3] = {{"iterations", "200"}, {"threads", th}, {"seed", "7"}};
            void *i1 = cbt_ism_make(a, p, 3), *i2 = cbt_ism_make(a, p, 3);
            assert_non_null(i1);
            assert_non_null(i2);
            for (int game = 0; game < 3; game++) {
                cbt_player_start(P, ddz ? 0 : -1);
                int bids[3] = {1, 0, 0};
                while (P->g.winner < 0) {
                    if (cbt_rng_below(&P->rng, 3) == 0) {
                        cb_view v;
                        cb_deal_view(&P->g, ddz ? bids : NULL, cbt_rng_next(&P->rng), &v);
                        v.budget_ms = 0;
                        cb_decision d1, d2, d3;
                        cbt_dec_init(&d1);
                        cbt_dec_init(&d2);
                        cbt_dec_init(&d3);
                        assert_int_equal(a->bot->decide_play(i1, &v, &d1), 0);
                        assert_int_equal(a->bot->decide_play(i2, &v, &d2), 0);
                        assert_int_equal(a->bot->decide_play(i1, &v, &d3), 0); /* same instance again */
                        assert_true(d1.cards == d2.cards && d1.cards == d3.cards);
                        assert_true(d1.simulations == d2.simulations && d1.simulations == d3.simulations);
                        assert_true((isnan(d1.value) && isnan(d2.value)) || d1.value == d2.value);
                        assert_true(d1.flags == d2.flags);
                        cbt_player_check_legal(P, &v, &d1);
                        checked++;
                    }
                    cbt_player_step(P, false);
                }
            }
            a->bot->destroy(i1);
            a->bot->destroy(i2);
        }
    }
    print_message("seed %llu: %d positions decided three times each\n", (unsigned long long)seed, checked);
    assert_true(checked >= 40);
    cbt_player_free(P);
}

static void test_legal_answers(void **state)
{
    const cbt_bot_plugin *a = *state;
    uint64_t seed = cbt_seed(57);
    cbt_player *P = cbt_player_new(a, seed);
    /* a small budget: this is about legality, not strength */
    cb_param p[2] = {{"iterations", "40"}, {"bid_samples", "10"}};
    void *inst = cbt_ism_make(a, p, 2);
    cb_param p2[3] = {{"time_ms", "2"}, {"rollout", "random"}, {"threads", "2"}};
    void *inst2 = cbt_ism_make(a, p2, 3);
    assert_non_null(inst);
    assert_non_null(inst2);
    static const struct {
        const char *preset;
        int landlord; /* DDZ landlord / PDK 包庄 declarer, -1 none */
    } runs[] = {{"pdk16", -1}, {"pdk16", 1}, {"pdk15", -1}, {"guanpai", -1}, {"ddz", 0}, {"ddz", 2}};
    int answered = 0, endgames = 0;
    for (size_t ri = 0; ri < sizeof runs / sizeof runs[0]; ri++) {
        assert_int_equal(cb_rules_preset(runs[ri].preset, &P->r), 0);
        bool ddz = P->r.game == CB_GAME_DDZ;
        for (int game = 0; game < 8; game++) {
            cbt_player_start(P, runs[ri].landlord);
            bool rnd[3];
            for (int s = 0; s < 3; s++)
                rnd[s] = cbt_rng_below(&P->rng, 2) == 0;
            int bids[3] = {-1, -1, -1};
            if (runs[ri].landlord >= 0)
                for (int s = 0; s < 3; s++)
                    bids[s] = s == runs[ri].landlord ? 1 : 0;
            while (P->g.winner < 0) {
                if (cbt_rng_below(&P->rng, 2) == 0) {
                    cb_view v;
                    cb_deal_view(&P->g, bids, cbt_rng_next(&P->rng), &v);
                    cb_decision d;
                    cbt_dec_init(&d);
                    void *which = cbt_rng_below(&P->rng, 4) == 0 ? inst2 : inst;
                    assert_int_equal(a->bot->decide_play(which, &v, &d), 0);
                    cbt_player_check_legal(P, &v, &d);
                    assert_true(memchr(d.explain, 0, sizeof d.explain) != NULL);
                    if (d.flags & CB_DEC_ENDGAME)
                        endgames++;
                    answered++;
                }
                cbt_player_step(P, rnd[P->g.turn]);
            }
        }
        (void)ddz;
    }
    print_message("seed %llu: %d answers checked with cb_play_legal (%d by the exact endgame)\n",
                  (unsigned long long)seed, answered, endgames);
    assert_true(answered >= 300);
    a->bot->destroy(inst);
    a->bot->destroy(inst2);
    cbt_player_free(P);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reproducible),
        cmocka_unit_test(test_legal_answers),
    };
    return cmocka_run_group_tests(tests, cbt_ism_setup, cbt_plugin_teardown);
}

/* The ismcts plugin through its ABI (build/<v>/plugins/ismcts.so, env CB_BUILD): its entry
 * and its parameters — defaults, every key, bad values refused with a message naming the key.
 * The rollout key is tested with the play-out policy (test_rollout.c). */
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

/* ---- parameters ---- */

static void test_entry(void **state)
{
    const cbt_bot_plugin *a = *state;
    assert_int_equal(a->bot->abi_version, CB_ABI_VERSION);
    assert_int_equal(a->bot->struct_size, sizeof(cb_bot));
    assert_string_equal(a->bot->name, "ismcts");
    assert_non_null(a->bot->create);
    assert_non_null(a->bot->destroy);
    assert_non_null(a->bot->decide_bid);
    assert_non_null(a->bot->decide_play);
}

static void reject1(const cbt_bot_plugin *a, const char *key, const char *value)
{
    cb_param p = {key, value};
    cbt_expect_refused(a->bot, &p, 1, key);
}

static void test_params(void **state)
{
    const cbt_bot_plugin *a = *state;
    void *inst = a->bot->create(NULL, 0, NULL, 0);
    assert_non_null(inst);
    a->bot->destroy(inst);
    const cb_param good[] = {
        {"iterations", "500"}, {"threads", "2"},   {"threshold", "0.8"}, {"bid1", "0.4"},
        {"bid2", "0.5"},       {"bid3", "0.6"},    {"exploration", "1"}, {"rollout", "random"},
        {"seed", "99"},        {"bid_samples", "50"}, {"width", "8"},    {"tree_width", "4"},
        {"partner_width", "2"}, {"opponent_width", "3"}, {"endgame", "0"}, {"opponents", "maxn"},
        {"root", "ucb"},       {"stop_z", "2.5"},  {"stop_min", "32"},
    };
    inst = cbt_ism_make(a, good, (int)(sizeof good / sizeof good[0]));
    assert_non_null(inst);
    a->bot->destroy(inst);
    cb_param t = {"time_ms", "30"};
    inst = cbt_ism_make(a, &t, 1);
    assert_non_null(inst);
    a->bot->destroy(inst);

    reject1(a, "iterations", "0");
    reject1(a, "belief_fit", "0");
    reject1(a, "belief_fit", "1.5");
    reject1(a, "belief_fit", "sharp");
    reject1(a, "belief_explained", "-1");
    reject1(a, "belief_explained", "100001");
    reject1(a, "belief_explained", "many");
    reject1(a, "iterations", "many");
    reject1(a, "iterations", "-5");
    reject1(a, "time_ms", "0");
    reject1(a, "time_ms", "1.5");
    reject1(a, "threads", "0");
    reject1(a, "threads", "65");
    reject1(a, "threshold", "1.5");
    reject1(a, "threshold", "high");
    reject1(a, "bid1", "-0.1");
    reject1(a, "bid3", "");
    reject1(a, "exploration", "-1");
    reject1(a, "exploration", "nan");
    reject1(a, "rollout", "minimax");
    reject1(a, "seed", "-1");
    reject1(a, "bid_samples", "0");
    reject1(a, "width", "49");
    reject1(a, "opponent_width", "0");
    reject1(a, "endgame", "x");
    reject1(a, "opponents", "friendly");
    reject1(a, "root", "minimax");
    reject1(a, "stop_z", "-1");
    reject1(a, "stop_z", "11");
    reject1(a, "stop_z", "often");
    reject1(a, "stop_min", "1");
    reject1(a, "depth", "3");
    /* both budgets; thresholds out of order */
    const cb_param both[] = {{"iterations", "100"}, {"time_ms", "10"}};
    cbt_expect_refused(a->bot, both, 2, "time_ms");
    const cb_param order[] = {{"bid1", "0.6"}, {"bid2", "0.5"}};
    cbt_expect_refused(a->bot, order, 2, "bid2");
    a->bot->destroy(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entry),
        cmocka_unit_test(test_params),
    };
    return cmocka_run_group_tests(tests, cbt_ism_setup, cbt_plugin_teardown);
}

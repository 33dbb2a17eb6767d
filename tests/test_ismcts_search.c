/* ismcts's search on positions from heuristic deals: the opponent model's exactness (level 6's
 * own by default) and the root (sequential halving by default: its schedule, the budget kept,
 * the play kept with one and two threads; UCB with time_ms or root = ucb). */
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

/* ---- the opponent model's exactness: level 6's own by default ---- */

/* tree_exact and rollout_exact default to 48 (level 6's count): on the same views the default
 * decides exactly as the keys given at 48 do, and differently from 8 / 4 (the old defaults,
 * under which the model only approximated level 6) somewhere — in the play or its estimate. */
/* d[0]: the default, d[1]: 48 / 48 given, d[2]: 8 / 4 */
static void check_exact(const cb_decision *d, void *ctx)
{
    cbt_three_count *c = ctx;
    if (cbt_searched_as_given(d, c) && (d[0].cards != d[2].cards || d[0].value != d[2].value))
        c->differ++;
}

static void test_exact_default(void **state)
{
    const cbt_bot_plugin *a = *state;
    cb_param pd[2] = {{"iterations", "60"}, {"belief_worlds", "100"}};
    cb_param p48[4] = {{"iterations", "60"}, {"belief_worlds", "100"}, {"tree_exact", "48"}, {"rollout_exact", "48"}};
    cb_param pold[4] = {{"iterations", "60"}, {"belief_worlds", "100"}, {"tree_exact", "8"}, {"rollout_exact", "4"}};
    cbt_three_count c = {0, 0};
    cbt_decide_three(a, cbt_seed(97), 6, 3, (const cb_param *const[3]){pd, p48, pold}, (const int[3]){2, 4, 4},
                 check_exact, &c);
    print_message("exact defaults: %d searched decisions, the same as at 48 / 48; %d differ at 8 / 4\n", c.searched,
                  c.differ);
    assert_true(c.searched >= 20);
    assert_true(c.differ > 0);
}

/* ---- the root: sequential halving by default ---- */

/* The visits sequential halving gives the play it keeps (search.c): ceil(log2 k) rounds, each
 * giving every survivor an equal share of what is left for the rounds to come (no round when
 * that share is 0), the better half (rounded up) kept; the last survivor takes what remains.
 * Written here from that description, apart from the plugin's code. */
static uint64_t halving_visits(int k, uint64_t budget)
{
    int rounds = 0;
    while ((1 << rounds) < k)
        rounds++;
    uint64_t used = 0, mine = 0;
    for (int r = 0; r < rounds && k > 1; r++, k = (k + 1) / 2) {
        uint64_t per = (budget > used ? budget - used : 0) / (uint64_t)(rounds - r) / (uint64_t)k;
        if (per == 0)
            break;
        used += per * (uint64_t)k;
        mine += per;
    }
    return mine + (budget > used ? budget - used : 0);
}

/* d[0]: the default, d[1]: root = halving given, d[2]: root = ucb. The searched decisions:
 * the default is halving's; the kept play has halving's visits ("n=", for "cand=k" root
 * plays and the instance's 700 iterations), which UCB's does not always have. */
static void check_root(const cb_decision *d, void *ctx)
{
    cbt_three_count *c = ctx;
    if (!cbt_searched_as_given(d, c))
        return;
    unsigned long long n = 0, nu = 0;
    int k = 0;
    const char *cand = strstr(d[0].explain, " cand=");
    assert_non_null(cand);
    assert_int_equal(sscanf(d[0].explain, "ismcts v=%*f n=%llu", &n), 1);
    assert_int_equal(sscanf(cand, " cand=%d", &k), 1);
    assert_true(k >= 2);
    if (n != halving_visits(k, 700))
        fail_msg("halving kept a play with %llu visits, not %llu (%d root plays): %s", n,
                 (unsigned long long)halving_visits(k, 700), k, d[0].explain);
    assert_non_null(strstr(d[0].explain, " kept=1/1 ")); /* one thread: the play it kept */
    assert_null(strstr(d[2].explain, " kept="));
    if (strncmp(d[2].explain, "ismcts v=", 9) == 0 && sscanf(d[2].explain, "ismcts v=%*f n=%llu", &nu) == 1 && nu != n)
        c->differ++;
}

/* d[0]: 10 iterations (fewer than the root's plays: no round can give each a world), d[1]:
 * time_ms (halving needs a budget in iterations: the root is UCB's), d[2]: 2 threads. */
static void check_root_budgets(const cb_decision *d, void *ctx)
{
    cbt_three_count *c = ctx;
    if (strncmp(d[0].explain, "ismcts v=", 9) != 0)
        return;
    unsigned long long it = 0;
    int k = 0, kept = 0, th = 0;
    const char *itp = strstr(d[0].explain, " it="), *cand = strstr(d[0].explain, " cand=");
    assert_non_null(itp);
    assert_non_null(cand);
    assert_int_equal(sscanf(itp, " it=%llu", &it), 1);
    assert_int_equal(sscanf(cand, " cand=%d", &k), 1);
    assert_true(it <= 10); /* never past the budget */
    if (k > 10) {
        c->searched++;
        assert_int_equal(it, 10);
    }
    if (strncmp(d[1].explain, "ismcts v=", 9) == 0)
        assert_null(strstr(d[1].explain, " kept="));
    if (strncmp(d[2].explain, "ismcts v=", 9) == 0) {
        const char *kp = strstr(d[2].explain, " kept=");
        assert_non_null(kp);
        assert_int_equal(sscanf(kp, " kept=%d/%d", &kept, &th), 2);
        assert_int_equal(th, 2);
        assert_true(kept >= 1); /* the answer is a play some thread kept */
        c->differ += kept == 1;
    }
}

static void test_root_halving(void **state)
{
    const cbt_bot_plugin *a = *state;
    cb_param pd[2] = {{"iterations", "700"}, {"belief_worlds", "100"}};
    cb_param ph[3] = {{"iterations", "700"}, {"belief_worlds", "100"}, {"root", "halving"}};
    cb_param pu[3] = {{"iterations", "700"}, {"belief_worlds", "100"}, {"root", "ucb"}};
    cbt_three_count c = {0, 0};
    cbt_decide_three(a, cbt_seed(107), 4, 2, (const cb_param *const[3]){pd, ph, pu}, (const int[3]){2, 3, 3}, check_root,
                 &c);
    print_message("root: %d searched decisions kept halving's visits; ucb's differ in %d\n", c.searched, c.differ);
    assert_true(c.searched >= 20);
    assert_true(c.differ > c.searched / 2);

    cb_param p10[1] = {{"iterations", "10"}};
    cb_param pt[1] = {{"time_ms", "5"}};
    cb_param p2[3] = {{"iterations", "400"}, {"belief_worlds", "100"}, {"threads", "2"}};
    cbt_three_count c2 = {0, 0};
    cbt_decide_three(a, cbt_seed(109), 3, 2, (const cb_param *const[3]){p10, pt, p2}, (const int[3]){1, 1, 3},
                 check_root_budgets, &c2);
    print_message("root: %d decisions with more plays than 10 iterations used exactly 10; 2 threads split %d times\n",
                  c2.searched, c2.differ);
    assert_true(c2.searched >= 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_default),
        cmocka_unit_test(test_root_halving),
    };
    return cmocka_run_group_tests(tests, cbt_ism_setup, cbt_plugin_teardown);
}

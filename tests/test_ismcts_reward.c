/* ismcts's DDZ reward (is_setup.reward_cap): win/loss, or the deal's points through its
 * multiplier. The search runs on one known world (a belief pool of one), so every root play's
 * mean reward is exact and can be checked against core's settlement by hand:
 *
 *   landlord (seat 0, bid 1): 4444 33, to lead; the farmers hold one single each (5, 6).
 *   A single can beat neither a pair nor a bomb, so the farmers never play and any line that
 *   does not lead a single wins with a spring (x2):
 *     444433 (four with a pair, one play)  multiplier 2
 *     4444 then 33, or 33 then 4444        multiplier 4 (the bomb doubles)
 *     a single 3                           a farmer goes out (unless both pass): lost
 *   Win/loss: the three winning lines are worth 1 each. Points (cap 4): 0.5 + 0.5 m / 4, so
 *   0.75 for 444433 and 1 for the bomb lines; the bomb is what the search must prefer. Cap 2:
 *   every winning line saturates at 1 again. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "../plugin/ismcts/search.h"
#include "support/shimfix.h" /* cbt_cards */

typedef struct fixture {
    cb_rules r;
    is_setup S;
    is_thread th;
    cb_cards world[1][3];
    double cum[1];
    cb_belief one; /* a pool of the one world */
    cb_worlds none;
    cb_move moves[64];
} fixture;

/* The root's plays (every legal one) and the setup; reward_cap 0 = win/loss. */
static void setup(fixture *F, double reward_cap, bool solve)
{
    memset(F, 0, sizeof *F);
    assert_int_equal(cb_rules_preset("ddz", &F->r), 0);
    cb_cards h[3] = {cbt_cards(&F->r, "444433"), cbt_cards(&F->r, "5"), cbt_cards(&F->r, "6")};
    cb_deal_init(&F->S.root, &F->r, h, 0, 0, 1, 0);
    memcpy(F->world[0], h, sizeof h);
    F->cum[0] = 1;
    F->one.n = 1;
    F->one.hands = F->world;
    F->one.cum = F->cum;
    cb_ctx ctx;
    cb_deal_ctx(&F->S.root, &ctx);
    int n = cb_legal_moves(&F->r, &ctx, F->moves, 64);
    assert_true(n >= 4 && n <= 64);
    is_setup *S = &F->S;
    S->rules = &F->r;
    S->me = 0;
    S->side[0] = 1;
    S->team[0] = 1;
    S->worlds = &F->none;
    S->belief = &F->one;
    S->moves = F->moves;
    S->nmoves = n;
    S->iterations = 40 * (uint64_t)n;
    S->threads = 1;
    S->exploration = 0.7;
    S->rollout = IS_ROLLOUT_FAST;
    /* one candidate below the root (the heuristic's: after either bomb line it goes out), so
     * each root play's mean is its line's reward; a farmer facing a single may still pass */
    S->k_own = S->k_partner = S->k_opp = 1;
    S->seed = 5;
    S->root_policy = IS_ROOT_UCB; /* every play measured, none dropped */
    S->reward_cap = reward_cap;
    if (solve) { /* every leaf below the root is solved (8 cards in all) */
        S->solve_leaves_ok = true;
        S->leaf_cards = 10;
        S->leaf_limit = 4000;
        S->leaf_budget = 1000000;
    }
    assert_int_equal(is_thread_init(&F->th), 0);
}

static void teardown(fixture *F)
{
    is_thread_free(&F->th);
}

/* The mean reward of the root play with these cards (-1: not a root play). */
static double mean_of(const fixture *F, const uint64_t *visits, const double *wins, const char *cards)
{
    cb_cards c = cbt_cards(&F->r, cards);
    for (int j = 0; j < F->S.nmoves; j++)
        if (F->moves[j].shape != CB_PASS && cb_counts_of(c) == F->moves[j].counts) {
            assert_true(visits[j] > 0);
            return wins[j] / (double)visits[j];
        }
    return -1;
}

static void run(double cap, bool solve, double *direct, double *bomb, double *pair, double *single, int *best)
{
    fixture *F = test_malloc(sizeof *F);
    setup(F, cap, solve);
    uint64_t visits[64];
    double wins[64];
    int kept[64];
    is_thread *ths[1] = {&F->th};
    assert_int_equal(is_search(&F->S, ths, 1, visits, wins, kept), 0);
    *direct = mean_of(F, visits, wins, "444433");
    *bomb = mean_of(F, visits, wins, "4444");
    *pair = mean_of(F, visits, wins, "33");
    *single = mean_of(F, visits, wins, "3");
    *best = 0;
    for (int j = 1; j < F->S.nmoves; j++)
        if (wins[j] / (double)visits[j] > wins[*best] / (double)visits[*best])
            *best = j;
    /* the best play by mean must be one of the bomb lines under points */
    int kind = F->moves[*best].counts == cb_counts_of(cbt_cards(&F->r, "444433")) ? 1
               : F->moves[*best].counts == cb_counts_of(cbt_cards(&F->r, "4444")) ? 2
               : F->moves[*best].counts == cb_counts_of(cbt_cards(&F->r, "33"))   ? 3
                                                                                  : 0;
    *best = kind;
    teardown(F);
    test_free(F);
}

static void test_win_loss(void **state)
{
    (void)state;
    double direct, bomb, pair, single;
    int best;
    run(0, false, &direct, &bomb, &pair, &single, &best);
    /* every winning line is worth 1 whatever its multiplier; the single loses */
    assert_true(direct == 1.0 && bomb == 1.0 && pair == 1.0);
    assert_true(single < 0.5);
    assert_true(best >= 1);
}

static void test_points(void **state)
{
    (void)state;
    double direct, bomb, pair, single;
    int best;
    run(4, false, &direct, &bomb, &pair, &single, &best);
    /* 444433: a spring, m = 2: 0.5 + 0.5 * 2 / 4; the bomb lines: m = 4, the cap: 1 */
    assert_true(fabs(direct - 0.75) < 1e-6);
    assert_true(fabs(bomb - 1.0) < 1e-6);
    assert_true(fabs(pair - 1.0) < 1e-6);
    /* mostly a loss with an anti-spring (x2): the landlord's side gets 1 - 0.75 then */
    assert_true(single < 0.5);
    assert_true(best == 2 || best == 3);
}

static void test_points_cap(void **state)
{
    (void)state;
    double direct, bomb, pair, single;
    int best;
    /* cap 2: the spring alone reaches it, so the bomb adds nothing */
    run(2, false, &direct, &bomb, &pair, &single, &best);
    assert_true(fabs(direct - 1.0) < 1e-6 && fabs(bomb - 1.0) < 1e-6 && fabs(pair - 1.0) < 1e-6);
    assert_true(single < 0.5);
}

/* Solved leaves count the multiplier reached so far: after the bomb the leaf is a sure win
 * at m = 4 (bomb, spring so far), and so is the deal's end below it; after the pair the first
 * leaf is a sure win at m = 2 so far (the bomb that the solver's line still plays is not
 * counted), the deeper iterations reach the end at m = 4; 444433 ends the deal at m = 2. */
static void test_points_solved(void **state)
{
    (void)state;
    double direct, bomb, pair, single;
    int best;
    run(4, true, &direct, &bomb, &pair, &single, &best);
    assert_true(fabs(direct - 0.75) < 1e-6);
    assert_true(fabs(bomb - 1.0) < 1e-6);
    assert_true(pair > 0.75 && pair < 1.0);
    assert_true(best == 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_win_loss),
        cmocka_unit_test(test_points),
        cmocka_unit_test(test_points_cap),
        cmocka_unit_test(test_points_solved),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

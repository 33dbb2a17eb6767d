/* cardbot pimc — the plugin's parameters: one table, parsed by plugin/common/params.c. */
#include <stddef.h>
#include <stdint.h>

#include "pimc.h"

static const char *const pm_rollouts[] = {"rule", "fast", "random", NULL}; /* PM_ROLL_* order */

/* The keys, once: the parser (plugin/common/params.c) validates them and names the key. */
const cb_pdef pm_param_table[] = {
    {"worlds", CB_PT_INT, offsetof(pm_params, worlds), 1, 1000, 20, 0, 0, 0, NULL, "a number of worlds", "20",
     "worlds sampled per decision; each candidate is scored in every one"},
    {"width", CB_PT_INT, offsetof(pm_params, width), 1, PM_MAX_WIDTH, 12, 0, 0, 0, NULL, "a width", "12",
     "candidate plays (the rule policy's first, then those leaving the fewest plays) plus the pass"},
    {"solve_cards", CB_PT_INT, offsetof(pm_params, solve_cards), 0, 54, 0, 0, 0, 0, NULL, "a card count",
     "PDK 12, DDZ 10", "solve a world exactly when all hands together hold at most this many cards"},
    {"solve_nodes", CB_PT_U64, offsetof(pm_params, solve_nodes), 1, 1000000000ull, 20000, 0, 0, 0, NULL,
     "a node limit", "20000", "node limit of one exact solve; past it the world is played out"},
    {"rollout", CB_PT_CHOICE, offsetof(pm_params, rollout), 0, 0, PM_ROLL_RULE, 0, 0, 0, pm_rollouts,
     "a play-out policy", "rule", "the policy every seat plays in a play-out (rule: nothing of our heuristic)"},
    {"seed", CB_PT_U64, offsetof(pm_params, seed), 0, UINT64_MAX, 0, 0, 0, 0, NULL, "an unsigned integer", "0",
     "extra seed mixed with each view's seed"},
    {"bid_worlds", CB_PT_INT, offsetof(pm_params, bid_worlds), 1, 10000, 40, 0, 0, 0, NULL,
     "a number of deals", "40", "deals played out per bidding decision"},
    {"threshold", CB_PT_REAL, offsetof(pm_params, threshold), 0, 0, 0, 0.0, 1.0, 0.80, NULL, "a probability",
     "0.80", "PDK 包庄: declare when I go out first in at least this share of the deals"},
};
const int pm_param_count = (int)(sizeof pm_param_table / sizeof pm_param_table[0]);

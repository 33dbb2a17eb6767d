/* cardbot ismcts — the plugin's parameters: one table (name, type, range, default, meaning),
 * parsed by plugin/common/params.c; the checks that span keys follow the parse. The figures
 * behind the defaults are in notes/DESIGN-NOTES.md, one heading per parameter. */
#include <stddef.h>
#include <string.h>

#include "../common/params.h"
#include "ismcts.h"

#define P(field) offsetof(is_params, field)

static const char *const is_rollouts[] = {[IS_ROLLOUT_HEURISTIC] = "heuristic", [IS_ROLLOUT_RANDOM] = "random",
                                          [IS_ROLLOUT_FAST] = "fast", NULL};
static const char *const is_roots[] = {[IS_ROOT_UCB] = "ucb", [IS_ROOT_HALVING] = "halving", NULL};
static const char *const is_opponents[] = {[IS_OPP_PARANOID] = "paranoid", [IS_OPP_MAXN] = "maxn", NULL};
static const char *const is_rewards[] = {[IS_REWARD_WIN] = "win", [IS_REWARD_POINTS] = "points", NULL};
static const char *const is_inferences[] = {[IS_INFER_FIT] = "fit", [IS_INFER_FIXED] = "fixed",
                                            [IS_INFER_OFF] = "off", [IS_INFER_MIX] = "mix",
                                            [IS_INFER_FIXED_MIX] = "fixed_mix", NULL};
static const char *const is_oppms[] = {[IS_OPPM_LEVEL6] = "level6", [IS_OPPM_FITTED] = "fitted", NULL};
static const char *const is_bid_bys[] = {[IS_BID_POINTS] = "points", [IS_BID_WINRATE] = "winrate", NULL};

/* Integer rows: name, type, field, lo, hi, default, what, default text, meaning. */
#define IROW(n, t, f, lo, hi, def, what, dt, m) {n, t, P(f), lo, hi, (uint64_t)(def), 0, 0, 0, NULL, what, dt, m}
#define RROW(n, f, lo, hi, def, what, dt, m) {n, CB_PT_REAL, P(f), 0, 0, 0, lo, hi, def, NULL, what, dt, m}
#define CROW(n, f, names, def, what, dt, m) {n, CB_PT_CHOICE, P(f), 0, 0, def, 0, 0, 0, names, what, dt, m}

const cb_pdef is_param_table[] = {
    IROW("iterations", CB_PT_U64, iterations, 1, IS_MAX_ITERATIONS, IS_ITERATIONS_BY_GAME, "a count",
         "PDK 20000, DDZ 1500 landlord / 1000 farmers", "budget per decision over all threads; same view, seed and threads: same answer"),
    IROW("time_ms", CB_PT_U32, time_ms, 1, IS_MAX_TIME_MS, 0, "a time in ms", "none",
         "the whole decision's wall time in milliseconds, instead of iterations (not reproducible)"),
    IROW("threads", CB_PT_INT, threads, 1, IS_MAX_THREADS, 1, "a thread count", "1",
         "root-parallel trees; the iterations are split over them"),
    RROW("threshold", threshold, 0, 1, 0.70, "a probability", "0.70",
         "PDK 包庄: declare when the estimated P(go out first) reaches it"),
    RROW("bid1", bid[0], 0, 1, 0.50, "a probability", "0.50",
         "DDZ 叫分 with bid_by = winrate: bid 1 when the estimated landlord win rate reaches it"),
    RROW("bid2", bid[1], 0, 1, 0.58, "a probability", "0.58", "bid_by = winrate: bid 2 at this rate (not below bid1)"),
    RROW("bid3", bid[2], 0, 1, 0.66, "a probability", "0.66", "bid_by = winrate: bid 3 at this rate (not below bid2)"),
    RROW("exploration", exploration, 0, 10, 0.7, "a number", "0.7",
         "UCB exploration constant below the root (rewards are win/loss 0..1)"),
    CROW("rollout", rollout, is_rollouts, IS_ROLLOUT_FAST, "a policy", "fast",
         "play-out policy: the lean policy, the shared heuristic, or uniform legal plays"),
    IROW("seed", CB_PT_U64, seed, 0, UINT64_MAX, 0, "an unsigned integer", "0",
         "extra seed mixed with each view's seed"),
    IROW("bid_samples", CB_PT_INT, bid_samples, 1, IS_MAX_BID_SAMPLES, 200, "a count", "200",
         "deals sampled per bidding decision"),
    IROW("width", CB_PT_INT, width, 1, IS_MAX_WIDTH, 12, "a count", "12",
         "root candidates: the heuristic's best plays (plus the pass)"),
    IROW("tree_width", CB_PT_INT, tree_width, 1, IS_MAX_TREE_WIDTH, 6, "a count", "6",
         "in-tree candidates at my own nodes"),
    IROW("partner_width", CB_PT_INT, partner_width, 1, IS_MAX_TREE_WIDTH, 1, "a count", "1",
         "in-tree candidates at my partner's nodes (DDZ farmers, PDK against a 包庄)"),
    IROW("opponent_width", CB_PT_INT, opponent_width, 1, IS_MAX_TREE_WIDTH, 1, "a count", "1",
         "in-tree candidates at the other side's nodes (1: the heuristic's choice, an opponent model)"),
    IROW("endgame", CB_PT_INT, endgame, 0, IS_MAX_ENDGAME, -1, "a card count", "PDK 14, DDZ 12",
         "solve exactly from this many cards in all hands (0: never)"),
    CROW("opponents", opponents, is_opponents, IS_OPP_PARANOID, "a model", "paranoid",
         "PDK without 包庄: the other two seats as one side, or each for itself"),
    CROW("inference", inference, is_inferences, IS_INFER_BY_GAME, "a model", "PDK fixed_mix, DDZ fit",
         "worlds weighed by past choices: fixed, a weight belief per choice level 6 would not have made; fixed_mix, the same for level 6 and the rule agent, mixed; fit, each seat's agreement with level 6 fitted; mix, fitted to both; or off"),
    RROW("belief", belief, 0.001, 1, 0.1, "a weight", "0.1",
         "inference = fixed or fixed_mix (given alone: PDK fixed_mix, DDZ fixed): weight of a world per past choice the model would not have made (1: off)"),
    RROW("belief_fit", belief_fit, 0.001, 1, 0.01, "a weight", "0.01",
         "inference = fixed or fixed_mix (given alone: PDK fixed_mix, DDZ fixed): that weight instead when some world explains every past choice"),
    IROW("belief_worlds", CB_PT_INT, belief_worlds, 1, IS_MAX_POOL, -1, "a count", "3000",
         "worlds in the weighted pool"),
    IROW("belief_chains", CB_PT_INT, belief_chains, 0, IS_MAX_CHAINS, 0, "a count", "0",
         "0: importance-weighted uniform worlds; N: the path of N Metropolis walks"),
    IROW("tree_exact", CB_PT_INT, tree_exact, 1, IS_MAX_EXACT, CB_HCFG_EXACT_L6, "a count",
         CB_HCFG_STR(CB_HCFG_EXACT_L6),
         "in-tree candidates scored with an exact min-hands (48: level 6's own)"),
    IROW("rollout_exact", CB_PT_INT, rollout_exact, 1, IS_MAX_EXACT, CB_HCFG_EXACT_L6, "a count",
         CB_HCFG_STR(CB_HCFG_EXACT_L6),
         "the same for the play-outs"),
    IROW("belief_explained", CB_PT_INT, belief_explained, 0, IS_MAX_POOL, -1, "a count", "PDK 100, DDZ 0",
         "fewer worlds than this carrying the weight (fit: effective sample size; fixed: as well explained as the best): the pool grows 4x, once (0: never)"),
    CROW("root", root, is_roots, IS_ROOT_HALVING, "a root policy", "halving",
         "how the root's plays share the iterations: sequential halving or UCB"),
    CROW("ddz_reward", ddz_reward, is_rewards, IS_REWARD_WIN, "a reward", "win",
         "DDZ: the search maximises deals won, or points (bombs, rocket and spring multiply)"),
    RROW("reward_cap", reward_cap, 1, 64, 4, "a multiplier", "4",
         "ddz_reward = points: a deal's reward grows with its multiplier up to this one"),
    IROW("belief_ess", CB_PT_INT, belief_ess, 0, IS_MAX_POOL, -1, "a count", "PDK 0, DDZ 20",
         "inference = fit: temper the weights so that at least this many worlds carry them (effective sample size; 0: never)"),
    RROW("stop_z", stop_z, 0, 10, 2.5, "a number", "2.5",
         "halving's early stop: the search ends when the leader's paired lead over every other play of the round exceeds this many standard errors (0: never)"),
    IROW("stop_min", CB_PT_INT, stop_min, 2, IS_MAX_STOP_MIN, 16, "a count", "16",
         "worlds of a halving round between two tests of the early stop (the first after that many)"),
    CROW("opponent_model", opponent_model, is_oppms, IS_OPPM_FITTED, "a model", "fitted",
         "the other seats in the search: fitted, in each world the model the record makes likelier there (level 6 or the rule agent; with inference = mix or fixed_mix, else level 6), or level6 always"),
    CROW("bid_by", bid_by, is_bid_bys, IS_BID_POINTS, "a rule", "points",
         "DDZ bids: the best expected points over the sampled deals (passing priced too), or bid1..bid3 on the win rate"),
    IROW("belief_early", CB_PT_INT, belief_early, 0, IS_MAX_POOL, -1, "a count", "PDK 0, DDZ 1000",
         "worlds in the pool while more than belief_early_hidden cards are hidden from me (0: belief_worlds throughout)"),
    IROW("belief_early_hidden", CB_PT_INT, belief_early_hidden, 0, CB_NCARDS, 24, "a card count", "24",
         "belief_early holds while more than this many cards are hidden from me"),
    RROW("belief_uniform", belief_uniform, 0, 1, -1, "a share", "0",
         "the share of the search's worlds drawn uniformly from every consistent world instead of from the weighted pool"),
    IROW("iterations_early", CB_PT_U64, iterations_early, 0, IS_MAX_ITERATIONS, 0, "a count", "0",
         "iterations instead while more than belief_early_hidden cards are hidden from me, the first leads (0: iterations throughout; with time_ms: unused)"),
};
const int is_param_count = (int)(sizeof is_param_table / sizeof is_param_table[0]);

/* the table's row of a key (its bit in the parser's mask) */
static int row(const char *name)
{
    for (int i = 0; i < is_param_count; i++)
        if (strcmp(is_param_table[i].name, name) == 0)
            return i;
    return -1;
}

int is_params_parse(const cb_param *params, int nparams, is_params *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    uint64_t given = 0;
    if (cb_params_parse("ismcts", is_param_table, is_param_count, params, nparams, p, &given, err, errlen) != 0)
        return -1;
    bool have_iter = given >> row("iterations") & 1, have_time = given >> row("time_ms") & 1;
    if (have_iter && have_time)
        return cb_params_fail(err, errlen, "ismcts", "time_ms", "give iterations or time_ms, not both");
    if (have_time)
        p->iterations = 0;
    /* belief and belief_fit keep their meaning, fixed weights: given alone, they imply the
     * game's fixed weights (PDK fixed_mix, its default, DDZ fixed), and they contradict fit,
     * mix and off */
    bool have_inf = given >> row("inference") & 1;
    bool have_w = (given >> row("belief") & 1) || (given >> row("belief_fit") & 1);
    if (have_w && !have_inf)
        p->inference = IS_INFER_FIXED_BY_GAME;
    else if (have_w && !is_infer_fixed_weights(p->inference))
        return cb_params_fail(err, errlen, "ismcts", "inference",
                              "belief and belief_fit are fixed weights: give them with inference = fixed or fixed_mix");
    if (p->inference == IS_INFER_OFF)
        p->belief = 1; /* the pool is not replayed at all (play.c) */
    /* fitted reads the rule model's fit: by default it follows inference (level 6 without the
     * mix); given with another inference, it is a contradiction */
    if ((given >> row("opponent_model") & 1) && p->opponent_model == IS_OPPM_FITTED && have_inf &&
        !is_infer_two_models(p->inference))
        return cb_params_fail(err, errlen, "ismcts", "opponent_model",
                              "fitted reads the rule model's weights: give it with inference = mix or fixed_mix");
    if (p->bid[1] < p->bid[0])
        return cb_params_fail(err, errlen, "ismcts", "bid2", "below bid1 (the thresholds must not decrease)");
    if (p->bid[2] < p->bid[1])
        return cb_params_fail(err, errlen, "ismcts", "bid3", "below bid2 (the thresholds must not decrease)");
    return 0;
}

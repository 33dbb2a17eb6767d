/* cardbot ismcts — the plugin instance and its parameters (shared by the plugin's files). */
#ifndef CARDBOT_ISMCTS_H
#define CARDBOT_ISMCTS_H

#include "search.h"

#include "../common/params.h"

/* ---- parameter limits: each bounds memory or time, and none is reached in practice ---- */
#define IS_MAX_THREADS 64             /* root-parallel trees kept per instance (is_inst.th) */
#define IS_MAX_WIDTH 48               /* root candidates (the root arrays hold the pass too) */
#define IS_MAX_ITERATIONS 100000000   /* some hours per decision: anything above is a typo */
#define IS_MAX_TIME_MS 600000         /* ten minutes per decision, the same reason */
#define IS_MAX_BID_SAMPLES 100000     /* deals per bidding decision */
#define IS_MAX_TREE_WIDTH 32          /* in-tree candidates per node */
#define IS_MAX_ENDGAME 40             /* far past where exact solving finishes (defaults 14, 12) */
#define IS_MAX_POOL 100000            /* worlds in the belief pool (memory: ~100 bytes each) */
#define IS_MAX_CHAINS 1000            /* Metropolis walks */
#define IS_MAX_EXACT 512              /* exact counts per scoring: policy.c's 512-play buffer */
#define IS_MAX_STOP_MIN 100000        /* worlds between tests of the early stop (a round has fewer) */

/* ---- defaults that depend on the game (the table holds a sentinel) ----
 * Why each value: notes/DESIGN-NOTES.md, "ISMCTS parameters", the key's heading. In short: PDK
 * search depth pays against level 6 and DDZ met its target at the smaller figure. */
#define IS_ITERATIONS_BY_GAME UINT64_MAX /* iterations not given */
#define IS_ITERATIONS_PDK 20000       /* +0.48 +- 0.30 over 10000 (6000 paired games) */
#define IS_ITERATIONS_DDZ 1000        /* the farmers: 1500 nothing (-0.2 +- 0.8, 2000 deals) */
#define IS_ITERATIONS_DDZ_LANDLORD 1500 /* +0.9 +- 0.7 over 1300, 1800 no more (2000 deals), p50 17 ms */
#define IS_BELIEF_WORLDS_PDK 3000    /* belief_worlds not given (-1); 300 under fixed weights: -2.2 +- 0.9 against level 6 */
#define IS_BELIEF_WORLDS_DDZ 3000    /* +4.4 / +5.0 over 300 against level 6, 600 deals (DESIGN-NOTES) */
#define IS_BELIEF_ESS_PDK 0          /* belief_ess not given (-1); 30 measured equal against level 6 */
#define IS_BELIEF_ESS_DDZ 20         /* +4.2 / +3.3 against rulebot, level 6 alike (DESIGN-NOTES) */
#define IS_BELIEF_EXPLAINED_PDK 100 /* belief_explained not given (-1): 0 under fixed weights is the 300-world row above */
#define IS_BELIEF_EXPLAINED_DDZ 0
#define IS_BELIEF_EARLY_PDK 0        /* belief_early not given (-1): PDK keeps belief_worlds throughout */
#define IS_BELIEF_UNIFORM_PDK 0.0    /* belief_uniform not given (-1): 0.67 under fixed weights -1.2 +- 0.8 against level 6 */
#define IS_BELIEF_UNIFORM_DDZ 0      /* DDZ's inference already pays against the strangers measured */
#define IS_BELIEF_EARLY_DDZ 1000     /* -0.8 / +0.1 over 3000 throughout (600 deals a role), p50 -20% / -33% */
#define IS_ENDGAME_PDK 14             /* endgame not given (-1): where exact solves stay cheap */
#define IS_ENDGAME_DDZ 12

/* ---- time and effort per decision (fixed: not keys) ---- */
/* A host's budget_ms splits as: the belief pool stops at 25% of it (it keeps the worlds it has),
 * every search at 60%; the rest is margin for the answer's way back. In ns per ms of budget. */
#define IS_POOL_NS_PER_BUDGET_MS 250000ull
#define IS_SEARCH_NS_PER_BUDGET_MS 600000ull
/* The key time_ms is the whole decision's wall time, from the call to the answer, every part
 * included; each part stops at its share of it, measured from the decision's start:
 *    0 .. 25%  the heuristic's look at the position (not cut: a few ms at worst), then the belief
 *              pool, grown 4x or not (it keeps the worlds it has, at least one);
 *      .. 60%  the root's exact endgame: it gives up at 60% (checked between solves), and its
 *              node budget is IS_ENDGAME_NODES_PER_MS per ms of time_ms (at most
 *              IS_ENDGAME_NODES) so that one solve cannot run far past that; the search then
 *              decides in the time left;
 *      .. 90%  the search (every thread; an iteration in flight ends: a leaf solve is at most
 *              IS_LEAF_NODES), and bidding's sampled deals (at least one);
 *      .. 100% the answer: merging the trees, min-hands, freeing the decision's memory.
 * With budget_ms as well, each part stops at the earlier of its two limits (budget_ms's search
 * cap counts from the search's start, as it always did). is_limits_of computes them. */
#define IS_POOL_NS_PER_TIME_MS 250000ull
#define IS_ENDGAME_NS_PER_TIME_MS 600000ull
#define IS_SEARCH_NS_PER_TIME_MS 900000ull
#define IS_ENDGAME_NODES_PER_MS 250 /* ~670 solver nodes a ms at the slowest (IS_ENDGAME_NODES' 60 ms) */
/* Exact solves at the tree's leaves: a leaf solve gives up past IS_LEAF_NODES nodes, and a
 * search stops solving leaves past IS_LEAF_BUDGET nodes per thread (about 30 ms at most). */
#define IS_LEAF_NODES 4000
#define IS_LEAF_BUDGET 20000
/* The root's exact endgame: my legal plays (at most IS_ENDGAME_PLAYS: more than any hand of
 * endgame size has) solved in IS_ENDGAME_WORLDS sampled worlds within IS_ENDGAME_NODES solver
 * nodes in all (some 60 ms at worst); past the budget the search decides instead. */
#define IS_ENDGAME_PLAYS 512
#define IS_ENDGAME_WORLDS 48
#define IS_ENDGAME_NODES 40000
/* m->moves' slot past the root candidates and the pass: where the endgame keeps its play */
#define IS_ENDGAME_SLOT (IS_MAX_WIDTH + 1)

/* the opponents key: PDK without 包庄, the other two seats as one side or each for itself */
enum { IS_OPP_PARANOID = 0, IS_OPP_MAXN = 1 };
/* the inference key: how the other seats' past choices weigh the worlds (plugin/common/belief.h) */
enum { IS_INFER_FIXED_BY_GAME = -2, IS_INFER_BY_GAME = -1, IS_INFER_FIT = 0, IS_INFER_FIXED = 1,
       IS_INFER_OFF = 2, IS_INFER_MIX = 3, IS_INFER_FIXED_MIX = 4 };
/* inference not given: PDK fixed_mix, DDZ fit (DESIGN-NOTES, "PDK: the fixed weights again");
 * not given but belief or belief_fit given (FIXED_BY_GAME): the game's fixed weights, PDK
 * fixed_mix, DDZ fixed */
static inline int is_inference_of(int inference, bool ddz)
{
    if (inference == IS_INFER_FIXED_BY_GAME)
        return ddz ? IS_INFER_FIXED : IS_INFER_FIXED_MIX;
    return inference != IS_INFER_BY_GAME ? inference : ddz ? IS_INFER_FIT : IS_INFER_FIXED_MIX;
}
/* an inference (after is_inference_of) that weighs both models, level 6 and the rule agent */
static inline bool is_infer_two_models(int inference)
{
    return inference == IS_INFER_MIX || inference == IS_INFER_FIXED_MIX;
}
/* an inference whose weights are fixed (belief, belief_fit) rather than fitted */
static inline bool is_infer_fixed_weights(int inference)
{
    return inference == IS_INFER_FIXED || inference == IS_INFER_FIXED_MIX;
}
/* the opponent_model key: the other seats in the search (search.h, fitted_opponents) */
enum { IS_OPPM_LEVEL6 = 0, IS_OPPM_FITTED = 1 };
/* the ddz_reward key: a DDZ search maximises the share of deals won, or the points they settle
 * (the multiplier: bombs and rocket double, spring doubles; search.h, is_setup.reward_cap) */
enum { IS_REWARD_WIN = 0, IS_REWARD_POINTS = 1 };
/* the bid_by key: DDZ bids by expected points over the sampled deals (bid.c) or by bid1..bid3 */
enum { IS_BID_POINTS = 0, IS_BID_WINRATE = 1 };

typedef struct is_params {
    uint64_t iterations;   /* per decision, over all threads (0 when time_ms is the budget) */
    uint32_t time_ms;      /* per decision (0 when iterations is the budget) */
    int threads;
    double threshold;      /* PDK 包庄: declare when P(out first) >= threshold */
    double bid[3];         /* DDZ 叫分: bid k when P(landlord wins) >= bid[k-1] */
    double exploration;
    int rollout;           /* IS_ROLLOUT_* */
    uint64_t seed;
    int bid_samples;       /* deals sampled per bidding decision */
    int width;             /* root candidates (plus the pass) */
    int endgame;           /* exact search from this many cards in all hands (0: never) */
    int opponents;         /* IS_OPP_*: PDK without 包庄, each opponent for itself (maxn) or not */
    int tree_width;        /* in-tree candidates at my nodes */
    int partner_width;     /* ... at my partner's nodes (DDZ farmers, PDK against a 包庄) */
    int opponent_width;    /* ... at the other side's nodes */
    int opponent_model;    /* IS_OPPM_*: the likelier model per world (inference = mix or fixed_mix), or level 6 */
    int inference;         /* IS_INFER_*: fitted per seat (to level 6, or mixed with the rule
                              agent), fixed (belief, belief_fit; level 6 alone, or with the rule
                              agent: fixed_mix) or off; BY_GAME: not given (is_inference_of) */
    double belief;         /* weight of a world per past choice the opponent model would not
                              have made (1: no inference; see plugin/common/belief.h); with
                              inference = fit only the walks' (belief_chains) */
    double belief_fit;     /* ... when some world explains every past choice */
    int belief_worlds;     /* worlds in the weighted pool (-1: by game) */
    int belief_explained;  /* fewer worlds than this explaining the record as well as the best:
                              the pool is built again four times as large (0: never; -1: by game) */
    int belief_chains;     /* 0: importance-weighted uniform worlds; else Metropolis walks */
    int tree_exact;        /* in-tree candidates: plays scored with an exact min-hands */
    int rollout_exact;     /* heuristic play-outs: the same (0: the rollout policy's own) */
    int root;              /* IS_ROOT_*: how the root's children share the iterations */
    int ddz_reward;        /* IS_REWARD_*: what a DDZ search maximises */
    double reward_cap;     /* ddz_reward = points: the multiplier the reward saturates at */
    int belief_ess;        /* inference = fit: temper the weights to at least this effective
                              sample size (0: never; -1: by game) */
    double stop_z;         /* halving's early stop: the paired lead, in standard errors (0: off) */
    int stop_min;          /* ... tested every this many worlds of a round */
    int bid_by;            /* IS_BID_*: DDZ bids by expected points or by the win-rate thresholds */
    int belief_early;      /* worlds in the pool while more than belief_early_hidden cards are
                              hidden from me (0: belief_worlds throughout; -1: by game) */
    int belief_early_hidden;
    double belief_uniform; /* the share of the search's worlds drawn uniformly, not from the pool
                              (-1: by game) */
    uint64_t iterations_early; /* the budget while more than belief_early_hidden cards are hidden
                                  from me, the first leads (0: iterations throughout) */
} is_params;

typedef struct is_inst {
    is_params p;
    cb_hcfg l6;            /* the heuristic's best level: root candidates and fallback answers */
    cb_hws ws;
    cb_replay replay;
    cb_worlds worlds;
    cb_belief belief;
    is_thread *th[IS_MAX_THREADS];
    cb_move moves[IS_MAX_WIDTH + 2];
    uint64_t visits[IS_MAX_WIDTH + 2];
    double wins[IS_MAX_WIDTH + 2];
    int kept[IS_MAX_WIDTH + 2]; /* threads whose halving kept the play */
} is_inst;

/* The parameter table (params.c): every key once, for the parser and the README's table. */
extern const cb_pdef is_param_table[];
extern const int is_param_count;
/* Parse a config's parameters into p (defaults first); 0, or -1 with a message naming the key. */
int is_params_parse(const cb_param *params, int nparams, is_params *p, char *err, size_t errlen);

/* Threads 0..n-1 ready (allocated on first use: each decision's first need). Returns 0 or -1. */
int is_threads_ready(is_inst *m, int n);

/* The end of every decision (play and bid): free what the decision sized — the threads (tree
 * arenas, solver tables, play-out and pool scratch, some 3 MB a thread), the belief pool's
 * worlds, and workspaces grown past IS_WS_KEEP plays — so that a server's idle seat keeps only
 * the instance (about 100 KB: its own workspaces and caches, the record's replay and proofs).
 * Nothing freed carries information from one decision to the next (the solver forgets its
 * table at every decision; the min-hands caches are caches), so answers do not change; the
 * next decision allocates again, from pages the allocator mostly still holds. */
void is_release(is_inst *m);
#define IS_WS_KEEP 512 /* plays a workspace keeps between decisions (cb_hws_init's size) */

/* One play decision (play.c): the plugin's decide_play. */
int is_play(void *inst, const cb_view *v, cb_decision *out);

/* The weighted belief pool (pool.c): build m->belief's slots from..worlds-1 on n threads
 * (from = 0: a new pool; from > 0 grows the finished pool of `from` slots). Returns the pool's
 * size, 0 or -1 when none. */
int is_pool_fill(is_inst *m, const cb_view *v, int n, uint64_t seed, int from, int worlds);
/* How many of the pool's worlds explain the record as well as its best one (0: no pool). */
int is_pool_best(const cb_belief *b, int pooled);

/* Bidding (bid.c): 包庄 / 叫分 by Monte Carlo over sampled deals. */
int is_decide_bid(is_inst *m, const cb_view *v, cb_decision *d);

/* Exact endgame over sampled worlds (endgame.c). Fills best (index into moves), wins per move
 * (of nworlds). Returns the number of worlds solved, 0 when the solver gave up (node budget, or
 * CLOCK_MONOTONIC past deadline_ns when not 0), -1 when no world could be sampled. */
int is_endgame(is_inst *m, const is_setup *S, const cb_move *moves, int nmoves, int want_worlds, uint64_t node_budget,
               uint64_t deadline_ns, int *wins_out);

/* A decision's limits from time_ms and the host's budget_ms (0: not given), for a decision that
 * started at t0 (CLOCK_MONOTONIC ns): the split documented at IS_POOL_NS_PER_TIME_MS. Every
 * deadline is absolute, 0 for none. */
typedef struct is_limits {
    uint64_t pool_deadline;    /* the belief pool stops growing (m->belief.deadline_ns) */
    uint64_t endgame_deadline; /* the root's exact endgame gives up */
    uint64_t endgame_nodes;    /* ... and its solver node budget */
    uint64_t search_deadline;  /* the search's threads stop (is_setup.deadline_ns); bidding too */
    uint64_t search_ns;        /* budget_ms's cap, from each search thread's start (is_setup.time_ns) */
} is_limits;
void is_limits_of(uint32_t time_ms, uint32_t budget_ms, uint64_t t0, is_limits *l);

#endif

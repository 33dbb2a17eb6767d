/* cardbot ismcts — the information-set Monte Carlo tree search.
 *
 * Single-observer ISMCTS (SO-ISMCTS, Cowling, Powley & Whitehouse 2012): one tree whose nodes
 * are the searcher's information sets; every iteration samples a world consistent with the
 * public record (plugin/common/worlds.c), walks down the tree with the actions available in
 * that world, expands one node and plays the rest out. Why single-observer: every action of
 * PDK and DDZ is public (fully observable), so the sequence of actions identifies the
 * searcher's information set and one tree suffices; MO-ISMCTS earns its cost (a tree per seat)
 * when moves are partly hidden, which here they are not — the paper itself found no gain from
 * it on Dou Di Zhu.
 *
 *  - Availability-aware UCB: a child's exploration term uses the number of times it was
 *    available (legal and among the candidates in the iteration's world), not its parent's
 *    visits, as the paper prescribes for actions whose availability depends on the world.
 *  - Candidates: a node considers the best few plays of the shared heuristic policy
 *    (plugin/common/policy.c) in that world, best first (the expansion order), plus the pass;
 *    the searcher's own nodes cache theirs (they are the same in every world). Where only one
 *    is wanted (the other seats at width 1) the lean play-out policy computes the heuristic's
 *    choice (is_lean_candidates).
 *  - Values are win/loss for the searcher's side: DDZ teams; PDK "paranoid" (the searcher, or
 *    a 包庄 declarer's side, against the rest; see solve.h). A node's statistics are kept for
 *    the side that chose it. DDZ may count points instead (is_setup.reward_cap): then when to
 *    bomb is the search's business, as its multiplier shows in the reward.
 *  - Leaves: play-outs with the rollout policy (by default the lean policy of
 *    plugin/common/rollout.h, which plays as the shared heuristic's fast configuration
 *    cb_hcfg_rollout does at about half its cost; or that configuration itself, or uniform
 *    random plays); with few cards left, the exact solver (solve.h) instead.
 *  - The root: sequential halving (by default; key `root`): the budget goes in rounds to the
 *    root's plays, the worse half dropped after each, every world of a round played through
 *    every surviving play — the plays are compared on the same deals, so the luck of the deal
 *    cancels out of their difference (common random numbers), which UCB's one play per world
 *    leaves in. Below the root every node is UCB's.
 *  - Root parallelism: each thread grows its own tree from its own seed (derived from the
 *    view's seed and the thread index) and worlds; the root children's statistics are summed.
 *    With a budget in iterations the result depends only on the seed and the thread count.
 */
#ifndef CARDBOT_ISMCTS_SEARCH_H
#define CARDBOT_ISMCTS_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/belief.h"
#include "cardbot/game.h"
#include "../common/policy.h"
#include "../common/rollout.h"
#include "../common/rule.h"
#include "../common/worlds.h"
#include "solve.h"

/* play-out policies: the shared heuristic (cb_hcfg_rollout), uniform random legal plays, the
 * lean policy of plugin/common/rollout.h (the heuristic's judgement at a fraction of its cost) */
enum { IS_ROLLOUT_HEURISTIC = 0, IS_ROLLOUT_RANDOM = 1, IS_ROLLOUT_FAST = 2 };
/* the root's policy: UCB like every node, or sequential halving over shared worlds */
enum { IS_ROOT_UCB = 0, IS_ROOT_HALVING = 1 };

/* root children at most (the plugin's width is at most 48, plus the pass) */
#define IS_ROOT_MAX 64

typedef struct is_node {
    cb_move move;         /* the action into this node */
    int32_t parent, child, sibling;
    int32_t cand_off;     /* searcher's nodes: cached candidates (-1: not yet) */
    uint32_t visits, avail;
    float wins;           /* rewards for the side of `actor` */
    int8_t actor;         /* the seat that chose `move` */
    uint8_t ncand;
    uint8_t pad[2];
} is_node;

/* What every thread shares (read only during the search). */
typedef struct is_setup {
    const cb_rules *rules;
    int me;
    uint8_t side[3];          /* 1 = the searcher's side (the solver's two sides) */
    uint8_t team[3];          /* the tree's teams: a node's reward is 1 when its actor's team
                                 wins (paranoid: team == side; max^n: PDK seats are their own) */
    bool solve_leaves_ok;     /* leaves may be solved (the solver's two sides are the teams) */
    cb_deal root;             /* the public position; hands filled per world */
    const cb_worlds *worlds;  /* template: each thread copies it (the proofs are shared) */
    const cb_belief *belief;  /* when not NULL and not empty: draw the worlds from this weighted
                                 pool instead of sampling a fresh one per iteration */
    const cb_move *moves;     /* root candidates, best heuristic score first */
    int nmoves;
    uint64_t iterations;      /* total over threads (0: by time only) */
    uint64_t time_ns;         /* stop after this long from each thread's start (0: no limit) */
    uint64_t deadline_ns;     /* stop at this CLOCK_MONOTONIC time (0: none); both: the earlier.
                                 Each thread makes at least one iteration, whatever the clock */
    int threads;
    double exploration;
    int rollout;              /* IS_ROLLOUT_* */
    int k_own, k_partner, k_opp; /* candidates per in-tree node: mine, my partner's, the other side's */
    int tree_exact;           /* in-tree candidate scoring: plays given an exact min-hands */
    int rollout_exact;        /* ... and the heuristic play-outs' (0: the policy's default) */
    int leaf_cards;           /* solve leaves with at most this many cards in all hands */
    uint64_t leaf_limit;      /* node limit of a leaf solve */
    uint64_t leaf_budget;     /* solver nodes per thread and search; past it, play-outs only */
    uint64_t seed;
    int root_policy;          /* IS_ROOT_* */
    /* 0: a node's reward is 1 when its actor's team wins, else 0. > 0 (DDZ points): the
     * winners' reward is 0.5 + 0.5 min(m, reward_cap) / reward_cap and the losers' 1 minus
     * that, m = the deal's multiplier per unit of bid (core's settlement: bombs, rocket,
     * spring), so the expected reward is linear in the expected points up to the cap. A solved
     * leaf counts the multiplier it has reached (the solver knows who wins, not by how much). */
    double reward_cap;
    /* Halving's early stop (search.c, halving): the search ends, its leader kept, when in the
     * current round the leader's paired lead over every other survivor exceeds stop_z standard
     * errors; tested once every stop_min worlds of the round (0: never) */
    double stop_z;
    int stop_min;
    /* The other seats' policy in the tree and the play-outs: false, level 6 (the heuristic's
     * candidates, the play-out policy); true (with a belief pool fitted with the rule model),
     * in each world drawn each other seat plays the model that world makes the likelier for
     * it (cb_belief_rule_chance above 1/2): the rule agent (its one choice, plus the pass at
     * its nodes) or level 6 as before. The likelier model rather than one drawn by that
     * chance: drawing gave the rule agent to level-6 and level-4 seats too often (DESIGN-NOTES,
     * opponent_model). */
    bool fitted_opponents;
    double belief_uniform;      /* the share of worlds drawn uniformly despite a pool */
    /* The other seats' candidates at a node depend on the node, the model the world gives the
     * seat, its hand by ranks and (DDZ) the bottom cards still unplayed, and the pool's worlds
     * come back again and again: each thread keeps them per (node, model, hand, bottom) for the
     * search (is_thread.oc). true: compute them at every visit instead (tests: keeping them must
     * change nothing). */
    bool fresh_candidates;
    /* The kept candidates' table doubles no further than this many slots (0: no bound but the
     * deadline's, is_oc_may_grow; it starts at 1024); once it is full, new entries are computed
     * and not kept. Tests set it. */
    uint32_t kept_slots;
} is_setup;

/* Per-thread state of one decision (the plugin instance frees it at the decision's end, see
 * is_release in ismcts.h: its arenas and solver table are megabytes). */
typedef struct is_thread {
    const is_setup *S;
    int index;
    cb_worlds worlds;         /* a copy of the template */
    is_node *nodes;
    int nnodes, cap_nodes;
    cb_move *cm;              /* cached candidates: the searcher's nodes', the other seats' */
    int ncm, cap_cm;
    struct is_ocand *oc;      /* the other seats' kept candidates (see fresh_candidates): an
                                 open-addressing table, cap_oc a power of two */
    int noc, cap_oc;
    uint64_t oc_hits;         /* visits answered from it (statistics) */
    cb_move cbuf[64];         /* candidates of the current node */
    cb_cards pool[32][3];     /* worlds kept for reuse when the sampler struggles */
    int npool, fails;         /* ... how many, and the sampler's failures this search */
    cb_rng rng;
    cb_heur_agent agent;      /* rollout policy (and its workspace) */
    cb_rollout roll;          /* ... the lean one (rollout = fast) */
    cb_hcfg tree_cfg;         /* candidate scoring inside the tree */
    cb_hws tree_ws;
    cb_rollout tree_lean;     /* the other seats' level-6 choice at width 1 (tree_cfg's
                                 exactness, the lean policy: is_lean_candidates) */
    cb_move *rmoves;          /* random rollouts: legal plays */
    is_solver solver;
    cb_belief bs;             /* scratch for building the belief pool on this thread */
    rb_ws rws;                /* the rule agent, for seats that play it (fitted_opponents) */
    bool rule_seat[3];        /* this iteration's world: the seat plays the rule agent */
    bool ready;
    /* results of the last search */
    uint64_t iters, playouts, solved, world_fail, tree_nodes, leaf_nodes;
    int kept;                 /* the root play sequential halving kept (-1: none) */
    uint64_t start_ns, end_ns;
    uint64_t deadline_ns;     /* this search's (0: none): the earlier of S's two limits */
    bool stopped;             /* halving's early stop decided the root (iters < the quota) */
} is_thread;

int is_thread_init(is_thread *t);
void is_thread_free(is_thread *t);

/* Run the search on n threads (ths[0] runs on the calling thread). Root statistics are merged
 * into visits[] / wins[] (indexed like S->moves); kept[j]: how many threads' sequential halving
 * kept play j to the end (all 0 with the UCB root, or when halving was cut short). Returns 0,
 * or -1 when a thread failed to start or every iteration failed to find a world. */
int is_search(const is_setup *S, is_thread **ths, int n, uint64_t *visits, double *wins, int *kept);

/* May the kept candidates' table double now, in a search that started at start_ns and must stop
 * at deadline_ns (0: no deadline; CLOCK_MONOTONIC ns)? A doubling re-inserts every entry into
 * memory touched for the first time, in one iteration: measured at about a quarter of the time
 * the search had run when the table reached it (2^17 slots, 11 ms into a 45 ms search; the
 * first touch of fresh pages is most of it), and nothing checks the clock inside an iteration.
 * So under a deadline the table grows only while at least half the time spent so far is left;
 * later new entries are computed and not kept. Without a deadline it always may. */
bool is_oc_may_grow(uint64_t start_ns, uint64_t now_ns, uint64_t deadline_ns);

/* The candidates of the seat to act in g: up to k of the heuristic's best plays, best first,
 * plus the pass when it is legal. Returns how many (>= 1), or -1 on failure. */
int is_candidates(const cb_hcfg *cfg, cb_hws *ws, const cb_deal *g, int k, cb_move *out, int cap);

/* The tree's candidate scoring at tree_exact (the key; <= 0: 8): the heuristic's configuration
 * for is_candidates, and the same exactness for is_lean_candidates. */
void is_tree_config(int tree_exact, cb_hcfg *cfg, cb_rollout *lean);

/* is_candidates at k = 1 by the lean play-out policy (rollout.h) instead of the heuristic: its
 * choice, plus the pass when it is legal (not after a play that empties the hand). The lean
 * policy scores as the heuristic does at ro's exactness and picks the same play but for the
 * last bits of its float products (tests/test_ismcts_search.c holds the agreement), at about
 * half the cost: the other seats' nodes are most of the tree's work. Returns 1 or 2, or -1. */
int is_lean_candidates(cb_rollout *ro, const cb_deal *g, cb_move *out);

#endif

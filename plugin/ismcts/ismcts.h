/* cardbot ismcts — the plugin instance and its parameters (shared by the plugin's files). */
#ifndef CARDBOT_ISMCTS_H
#define CARDBOT_ISMCTS_H

#include "search.h"

#define IS_MAX_THREADS 64
#define IS_MAX_WIDTH 48

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
    bool maxn;             /* PDK without 包庄: each opponent for itself (else paranoid) */
    int tree_width;        /* in-tree candidates at my nodes */
    int partner_width;     /* ... at my partner's nodes (DDZ farmers, PDK against a 包庄) */
    int opponent_width;    /* ... at the other side's nodes */
    double belief;         /* weight of a world per past choice the opponent model would not
                              have made (1: no inference; see plugin/common/belief.h) */
    double belief_fit;     /* ... when some world explains every past choice (-1: default) */
    int belief_worlds;     /* worlds in the weighted pool */
    int belief_explained;  /* fewer worlds than this explaining the record as well as the best:
                              the pool is built again four times as large (-1: by game) */
    int belief_chains;     /* 0: importance-weighted uniform worlds; else Metropolis walks */
    int tree_exact;        /* in-tree candidates: plays scored with an exact min-hands */
    int rollout_exact;     /* heuristic play-outs: the same (0: the rollout policy's own) */
    int root;              /* IS_ROOT_*: how the root's children share the iterations */
} is_params;

typedef struct ism {
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
} ism;

/* Threads 0..n-1 ready (allocated on first use). Returns 0 or -1. */
int ism_threads(ism *m, int n);

/* Bidding (bid.c): 包庄 / 叫分 by Monte Carlo over sampled deals. */
int ism_decide_bid(ism *m, const cb_view *v, cb_decision *d);

/* Exact endgame over sampled worlds (endgame.c). Fills best (index into moves), wins per move
 * (of nworlds). Returns the number of worlds solved, 0 when the solver gave up (node budget),
 * -1 when no world could be sampled. */
int ism_endgame(ism *m, const is_setup *S, const cb_move *moves, int nmoves, int want_worlds, uint64_t node_budget,
                int *wins_out);

#endif

/* cardbot pimc — perfect-information Monte Carlo ("determinized" search, as in Ginsberg's GIB):
 * the plugin instance, its parameters and the vote (shared by the plugin's files).
 *
 * A decision samples K worlds consistent with the view (plugin/common/worlds.h: the other
 * seats' hands with the right sizes, the DDZ bottom where it is known, and every pass under
 * must_beat and every warn_single play of the record made legal again), then scores each
 * candidate play in each world with every hand open: exactly (plugin/ismcts/solve.h, a
 * win/loss AND-OR search) when few cards remain, otherwise by one play-out in which every seat
 * plays a fixed greedy policy (by default the rule policy of plugin/common/rule.h, so this
 * bot shares nothing with our heuristic unless asked to). Scores are summed over the worlds
 * and the best sum is played: a vote. The known weakness of the family is kept on purpose
 * (strategy fusion: each world's answer assumes the hidden cards are known); this is the
 * opponent we want to measure against.
 */
#ifndef CARDBOT_PIMC_H
#define CARDBOT_PIMC_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/rng.h"
#include "../common/params.h"
#include "../common/rollout.h"
#include "../common/situ.h"
#include "../common/worlds.h"
#include "../ismcts/solve.h"
#include "../common/rule.h"
#include "cardbot/bot.h"

enum { PM_ROLL_RULE = 0, PM_ROLL_FAST = 1, PM_ROLL_RANDOM = 2 };
#define PM_MAX_WIDTH 64 /* candidates a decision scores: the buffer size of one world's scores */

typedef struct pm_params {
    int worlds;            /* worlds per decision */
    int solve_cards;       /* solve exactly when all hands hold at most this many cards (-1: by game) */
    uint64_t solve_nodes;  /* node limit of one exact solve (past it: a play-out instead) */
    int width;             /* candidate plays (plus the pass) */
    int rollout;           /* PM_ROLL_* */
    uint64_t seed;
    int bid_worlds;        /* deals played out per bidding decision */
    double threshold;      /* PDK 包庄: declare when P(out first) >= threshold */
} pm_params;

/* The keys, once (params.c): parsed by plugin/common/params.c, printed into README. The
 * solve_cards row's default is "by game": a config that does not give it gets -1. */
extern const cb_pdef pm_param_table[];
extern const int pm_param_count;
enum { PM_KEY_SOLVE_CARDS = 2 };

/* The uniformly random play-out policy's state. */
typedef struct pm_rand {
    cb_rng rng;
    cb_move *moves;
    int cap;
} pm_rand;

typedef struct pimc {
    pm_params p;
    rb_ws rule;            /* the rule policy: play-outs and the first candidate */
    cb_rollout fast;       /* rollout = fast (allocated on first use) */
    bool fast_ready;
    pm_rand rnd;
    is_solver solver;      /* allocated on first use */
    bool solver_ready;
    bool solve_now;        /* this decision's solver is reset for its rules and sides */
    cb_worlds worlds;
    cb_replay replay;
    cb_move *cands;        /* this decision's candidates */
    double *score;
    int ccap;
    cb_move *gen;          /* cb_legal_moves_ex buffer */
    int gcap;
} pimc;

/* The result of one vote. */
typedef struct pm_vote {
    int best;              /* index into the candidates */
    int worlds;            /* worlds evaluated */
    uint64_t solved;       /* evaluations answered exactly */
    uint64_t playouts;     /* evaluations played out */
    uint64_t nodes;        /* solver nodes */
    bool cut;              /* stopped by the time budget before `worlds` worlds */
    bool no_world;         /* the sampler found no consistent world */
} pm_vote;

/* Vote over the candidates m->cands[0..n) for the seat to act in v (s: its situation). Ties go
 * to the lower index. Returns 0, or -1 when the view does not add up or memory runs out. */
int pm_run_vote(pimc *m, const cb_view *v, const cb_situ *s, int n, pm_vote *out);

/* Bidding by playing sampled deals out (vote.c). Fills d->bid and d->explain. */
int pm_decide_bid(pimc *m, const cb_view *v, cb_decision *d);

/* The solve_cards in force under r (the parameter, or the game's default). */
int pm_solve_cards(const pimc *m, const cb_rules *r);

/* Monotonic nanoseconds. */
uint64_t pm_now_ns(void);

#endif

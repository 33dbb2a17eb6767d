/* cardbot plugins — the lean play-out policy (ISMCTS leaves).
 *
 * A play-out plays every seat to the end of the deal, a dozen decisions or more, thousands of
 * times per search decision: the policy must be cheap, and it must play like the players it
 * stands for, or the search learns from unrealistic endings. This policy keeps the shared
 * heuristic's judgement (policy.h: the same score terms and weights — structure from min-hands
 * after the play, the chance the play holds the trick from card counting and what passes
 * prove, control cards spent, rank, cards shed, bombs, opponents near the end, teams, endgame
 * finishing) and drops what a play-out does not need:
 *  - the legal plays come first: a forced action (under must_beat most answers are a forced
 *    pass) and a play that empties the hand are read off that list before any scoring;
 *  - the holding model is a few closed-form binomial tails per seat and bit masks of the ranks
 *    that can be out, instead of per-rank tables of every count;
 *  - exact min-hands (core's cb_min_hands through the workspace cache) only for the plays with
 *    the best cheap pre-score, every play only when the hand is small;
 *  - no explanation, no sampling, no win estimate.
 * It reads only what the seat to act may know: its own hand and the public part of the cb_deal
 * (cards played, cards left, the proofs of passes, the DDZ bottom, the landlord / 包庄
 * declarer). The rules come only from core (cb_legal_moves, cb_play_legal, cb_min_hands).
 */
#ifndef CARDBOT_PLUGIN_ROLLOUT_H
#define CARDBOT_PLUGIN_ROLLOUT_H

#include <stdint.h>

#include "cardbot/game.h"
#include "policy.h"

/* One scored play (internal to rollout.c; in the struct below only to keep its buffer). */
typedef struct cb_rollout_cand {
    double base;          /* the score terms that do not depend on min-hands after */
    double ub;            /* the score at the lowest min-hands after possible */
    float pre;            /* cheap pre-score (min-hands after estimated) */
    float hold;           /* chance nobody beats it */
    int idx;              /* into moves */
    uint8_t bomb, excused, must, pad;
} cb_rollout_cand;

#define CB_ROLLOUT_EXACT_TOP 4   /* default exact_top (the heuristic's cb_hcfg_rollout) */
#define CB_ROLLOUT_EXACT_ALL 8   /* default exact_all_upto (ditto) */

typedef struct cb_rollout {
    cb_hweights w[2];     /* [0] PDK, [1] DDZ: the heuristic's weights */
    int exact_top;        /* plays (by pre-score) whose min-hands after is computed exactly (< 1: 1) */
    int exact_all_upto;   /* ... every play's when the hand holds at most this many cards */
    bool class_best;      /* also the best pre-score of every shape and length */
    cb_hws ws;            /* the min-hands cache (its play buffers are not used) */
    cb_move *moves;       /* legal plays of the current decision */
    int nmoves;           /* ... how many (set by cb_rollout_choose) */
    cb_rollout_cand *cands;
    int cap;
    uint64_t decisions, scored;  /* statistics: all decisions, those that scored plays */
} cb_rollout;

/* Defaults (the configuration the ISMCTS plugin uses) and buffers. Returns 0, or -1 when
 * memory runs out (then nothing needs freeing). */
int cb_rollout_init(cb_rollout *ro);
void cb_rollout_free(cb_rollout *ro);

/* The action of g->turn. Returns 0, or -1 when no legal play exists (a broken position) or
 * memory runs out. Deterministic: the same position gives the same action. */
int cb_rollout_choose(cb_rollout *ro, const cb_deal *g, cb_move *out);

/* The same as a cb_deal_policy: user = cb_rollout. */
int cb_rollout_deal_policy(void *user, const cb_deal *g, cb_move *out);

#endif

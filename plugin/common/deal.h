/* cardbot plugins — a perfect-information game of PDK or DDZ, played quickly to the end.
 *
 * Rollouts (the ISMCTS plugin) and tests need to play a whole deal from a given point without a
 * host: all three hands are known, a policy callback picks each action. The state is a plain
 * struct (copy it to branch a rollout); the rules come only from core (cb_legal_moves /
 * cb_play_legal happen in the policy or, with `check` on, here).
 *
 * Conventions (the same as the console host): seats act in the order 0, 1, 2, 0, ...; a trick
 * ends when both other seats pass after a play, and the seat that made the play leads next; the
 * first seat to empty its hand wins and the deal ends at once. A bomb (or rocket) that is still
 * the table play when its trick ends — or that empties its player's hand — has won its trick
 * (PDK bomb points).
 */
#ifndef CARDBOT_PLUGIN_DEAL_H
#define CARDBOT_PLUGIN_DEAL_H

#include <stdbool.h>

#include "cardbot/bot.h"

/* What passes prove (card counting): under must_beat a seat that passes could not beat the
 * table, so it holds no higher single / pair / triple (三带二 with 5+ cards), and — with
 * must_beat_bomb — no bomb that would beat it. above[s][t] = r: seat s holds no rank above r
 * with t or more cards (CB_NRANKS: nothing known); no_bomb[s]: seat s holds no bomb at all.
 * Hands only shrink, so what a pass proves stays true. */
typedef struct cb_voids {
    int8_t above[3][5];
    uint8_t no_bomb[3];
} cb_voids;

void cb_voids_init(cb_voids *v);
/* Seat `seat`, holding `ncards`, passed on `table`. */
void cb_voids_on_pass(cb_voids *v, const cb_rules *r, int seat, const cb_move *table, int ncards);

typedef struct cb_deal {
    const cb_rules *rules;
    cb_cards hands[3];
    cb_cards played;          /* every card played so far */
    cb_cards bottom;          /* DDZ bottom cards (public; part of the landlord's hand at start) */
    int turn;                 /* seat to act */
    int first_seat;           /* seat that led first */
    int landlord;             /* DDZ landlord / PDK 包庄 declarer, -1 none */
    int bid;                  /* DDZ bid 1..3 (settlement) */
    int table_seat;           /* seat whose play is to beat, -1 when `turn` leads */
    int npass;                /* passes since the table play */
    cb_move table;            /* the play to beat (valid when table_seat >= 0) */
    cb_cards table_cards;
    bool first_play;          /* nothing played yet (spade-3 rule) */
    bool check;               /* validate every action with cb_play_legal (tests) */
    int winner;               /* -1 while the deal runs */
    int steps;                /* actions (plays and passes) so far */
    int plays[3];             /* plays (not passes) per seat */
    int bombs[3];             /* bombs + rockets per seat */
    int bomb_tricks[3];       /* bombs that won their trick, per seat */
    cb_voids voids;           /* what the passes so far prove (public) */
    /* Optional record of every action (NULL: none). Copies of a state share it: rollouts set
     * hist = NULL. */
    cb_play_rec *hist;
    int nhist, hist_cap;
} cb_deal;

/* Start a deal. hands: the three hands as dealt (DDZ: the landlord's already holds the bottom).
 * first_seat < 0 picks the holder of the spade 3 (PDK with spade3_first) or else the landlord
 * (DDZ) or seat 0. landlord: DDZ landlord or PDK 包庄 declarer (-1 none). bid: DDZ bid. */
void cb_deal_init(cb_deal *g, const cb_rules *r, const cb_cards hands[3], int first_seat,
                  int landlord, int bid, cb_cards bottom);

/* The rules' situation of the seat to act (ctx->table points into g). */
void cb_deal_ctx(const cb_deal *g, cb_ctx *ctx);

/* Apply the action of the seat to act (shape CB_PASS = pass). Returns 1 when the deal is over
 * (g->winner set), 0 when it goes on, -1 when the action is impossible (pass while leading,
 * cards not in the hand, or — with g->check — against the rules; why gets the reason). */
int cb_deal_step(cb_deal *g, const cb_move *m, char *why, size_t whylen);

/* A policy: choose the action of g->turn (g is perfect information: a fair policy reads only the
 * public part and its own hand). Return 0, or nonzero on failure. */
typedef int (*cb_deal_policy)(void *user, const cb_deal *g, cb_move *out);

/* Play to the end with one policy per seat (pols[s], users[s]). Returns the winner, -1 when a
 * policy failed or gave an impossible action, -2 when max_steps actions did not finish it. */
int cb_deal_run(cb_deal *g, cb_deal_policy const pols[3], void *const users[3], int max_steps,
                char *why, size_t whylen);

/* Points of a finished deal per seat (core settlement; sum 0). Returns 0, -1 if not finished. */
int cb_deal_points(const cb_deal *g, int delta[3]);

/* A public view of g for its seat to act (what a host would pass to a plugin). Pointers in
 * the view point into g (history) and r; valid while g lives and is not stepped. Needs a hist
 * record for the history (otherwise nhistory = 0). bids may be NULL. */
void cb_deal_view(const cb_deal *g, const int bids[3], uint64_t seed, cb_view *v);

#endif

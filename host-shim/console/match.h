/* cardbot match — the reference console host: the game engine (game.h) deals, bids, plays and
 * settles; every seat is driven only through shim.h, as an external server would. Games are independent: game g is a function of (seed, g) alone, so results do
 * not depend on --concurrency. */
#ifndef CARDBOT_MATCH_H
#define CARDBOT_MATCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cardbot/shim.h"

#define CB_MATCH_MAX_PLAYS 256

typedef struct cb_match_play {
    int32_t seat;
    int32_t code;        /* shim result: 0 own answer, > 0 fallback reason */
    cb_cards cards;      /* 0 = pass */
    cb_decision dec;     /* the explanation as returned */
    uint64_t ns;         /* wall time of the cb_decide_play call */
} cb_match_play;

typedef struct cb_match_bid {
    int32_t seat;
    int32_t bid;
    int32_t code;
    uint64_t ns;
    float value;
    char explain[112];
} cb_match_bid;

typedef struct cb_match_game {
    int index, deal, rotation, redeals;
    uint64_t seed;             /* the match key the deal and view seeds come from */
    const char *strategy[3];   /* names, owned by the table's shim config (copied below) */
    char strategy_buf[3][48];
    cb_cards dealt[3];         /* hands as dealt (DDZ: before the bottom) */
    cb_cards bottom;
    int first_seat;            /* first leader (DDZ: the landlord) */
    int first_bidder;          /* who bid first, -1 without bidding */
    cb_match_bid bids[8];
    int nbids;
    int landlord;              /* DDZ landlord, PDK 包庄 declarer, or -1 */
    int bid_value;             /* DDZ final bid */
    int nplays;
    int winner;
    int delta[3];
    int multiplier;
    int plays_made[3];
    int bomb_tricks[3];
    int bombs_total;
    int error;                 /* nonzero: the game could not be completed (shim error) */
    char errmsg[256];
    /* Last, and not zeroed between games (only plays[0..nplays) are meaningful): clearing
     * 47 KB per game was a quarter of a heuristic match's time. */
    cb_match_play plays[CB_MATCH_MAX_PLAYS];
} cb_match_game;

/* How games are run (from the command line). */
typedef struct cb_match_opts {
    uint64_t seed;
    bool duplicate;      /* game g plays deal g / 3 with hands rotated by g % 3 */
    uint32_t budget_ms;  /* per decision, passed in the view */
    int landlord;        /* DDZ: -1 = bid for it; else this seat is landlord at bid 1, no bidding */
} cb_match_opts;

/* The strategy whose decision this thread is waiting for (NULL between decisions): a plugin
 * that ends the process in-process is named by the match's exit trap (cmd_match.c). */
const char *cb_match_deciding(void);

/* Play game g of a match: deal from (seed, deal), rotate hands by rotation, run bidding and
 * play through table, settle. */
void cb_match_play_game(cb_table *table, const cb_rules *r, const cb_match_opts *o, int g, cb_match_game *out);

/* What cb_match_run plays (match_run.c). */
typedef struct cb_match_run_cfg {
    cb_shim *shim;
    const cb_rules *rules;            /* the shim's */
    const char *table_id;             /* seat by [table.ID] (NULL: [seats]) ... */
    const char *const *seating;       /* ... or by these names, one per seat (NULL: by id) */
    cb_match_opts opts;
    int games;                        /* play games 0..games-1 ... */
    const int *game_list;             /* ... or only these, ascending (NULL: all) */
    int ngames;                       /* entries of game_list */
    int concurrency;                  /* worker threads, each with its own table */
} cb_match_run_cfg;

/* Called on cb_match_run's caller's thread with each finished game, in game order; gm is
 * freed when it returns. Nonzero: stop (no new games; those in flight are dropped). */
typedef int (*cb_match_on_game)(void *ud, cb_match_game *gm);

/* Play the configured games on worker threads. SIGINT / SIGTERM stop it between games when
 * the caller blocked them first (cb_match_block_signals): *stopped (may be NULL) gets the
 * signal, else 0. While it runs, a plugin that exit()s the process is named on stderr and
 * the status is CB_CLI_EXIT_PLUGIN. Returns the number of games handed to on_game. */
int cb_match_run(const cb_match_run_cfg *cfg, cb_match_on_game on_game, void *ud, int *stopped);
/* Block SIGINT and SIGTERM in this thread (and the threads it starts): from then on they stop
 * a cb_match_run between games. old (may be NULL) gets the mask to restore. */
void cb_match_block_signals(sigset_t *old);

/* One JSON line describing the game (json-glib), newly allocated. */
char *cb_match_game_json(const cb_rules *r, const cb_match_game *gm);

/* The per-strategy summary, accumulated game by game (in game order). Printing ends it; lines
 * that depend on timing start with "timing" so scripts can compare the rest byte for byte. */
typedef struct cb_match_stats cb_match_stats;
cb_match_stats *cb_match_stats_new(const cb_rules *r);
void cb_match_stats_add(cb_match_stats *st, const cb_match_game *gm);
void cb_match_stats_print(cb_match_stats *st, FILE *f, double seconds);
void cb_match_stats_free(cb_match_stats *st);

#endif

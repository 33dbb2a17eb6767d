/* cardbot match — the reference console host: the game engine (game.h) deals, bids, plays and
 * settles; every seat is driven only through shim.h, as an external server would. Games are
 * independent: game g is a function of (seed, g) alone — and of its line of a --deals file —
 * so results do not depend on --concurrency, and a match cut into shards (--shard K/N) and
 * merged (cardbot merge) prints what the whole match prints.
 *
 * Files: match_run.c plays games on threads and hands them over in order; match_game.c plays
 * one; match_sink.c consumes each (result lines, summary, files, progress) for both match and
 * merge; match_stats.c the summary; match_progress.c live progress; match_replay.c game JSON
 * lines both ways; match_deals.c deals files; match_results.c results files; match_info.c the
 * run's identity and "Match:" line; cmd_match.c / match_setup.c / cmd_merge.c the commands. */
#ifndef CARDBOT_MATCH_H
#define CARDBOT_MATCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cardbot/shim.h"

#define CB_MATCH_MAX_PLAYS 256

/* One deal of a --deals file (match_deals.c), in deal order: hand h sits at seat
 * (h - rotation) mod 3, so a duplicate match moves every hand round the seats. */
typedef struct cb_match_deal {
    cb_cards hands[3];
    cb_cards bottom;           /* DDZ */
    int first_bidder;          /* DDZ with bidding: the hand that bids first; -1 = drawn from the key */
} cb_match_deal;

typedef struct cb_match_play {
    int32_t seat;
    int32_t code;        /* shim result: 0 own answer, > 0 fallback reason */
    cb_cards cards;      /* 0 = pass */
    cb_decision dec;     /* the explanation as returned */
    uint64_t ns;         /* wall time of the cb_decide_play call */
    bool forced;         /* one legal play only: no choice to make (timing reports the
                            decisions with a choice apart: a search's cost is theirs) */
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
    /* The deal as it opened, in deal order (DDZ: before any redeal; first_bidder a hand
     * index): what --save-deals writes. opened = false when no engine was started. */
    bool opened;
    cb_match_deal opening;
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
    const cb_match_deal *deals; /* --deals: deal d is deals[d] (NULL: dealt from the key) */
    int ndeals;
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

/* One JSON line describing the game (json-glib), newly allocated: the --replay line. */
char *cb_match_game_json(const cb_rules *r, const cb_match_game *gm);
/* The same line plus what only a results file needs to give the game back whole: the wall
 * time of every decision ("ns"), plays made, bombs that won their trick, bombs in all and
 * the error code. */
char *cb_match_game_json_full(const cb_rules *r, const cb_match_game *gm);
/* Decode a line of either kind back into *gm (plays beyond it are not cleared); what the
 * line lacks (times in a replay line) is zero, gm->seed is left to the caller. 0, or -1 with
 * what is wrong in err. */
int cb_match_game_from_json(const cb_rules *r, const char *line, cb_match_game *gm, char *err, size_t errlen);

/* The per-strategy summary, accumulated game by game (in game order). Printing ends it; lines
 * that depend on timing start with "timing" so scripts can compare the rest byte for byte. */
typedef struct cb_match_stats cb_match_stats;
cb_match_stats *cb_match_stats_new(const cb_rules *r);
/* Figures without the decision times (no timing lines): for a running count over a whole
 * tournament, whose memory would otherwise grow with every decision played. */
cb_match_stats *cb_match_stats_new_untimed(const cb_rules *r);
void cb_match_stats_add(cb_match_stats *st, const cb_match_game *gm);
/* Did seat s win game g? PDK: it went out first; DDZ: its side did (every statistic counts a
 * win this way, so summaries, pairs and tournaments agree). */
bool cb_match_seat_won(const cb_rules *r, const cb_match_game *g, int s);
void cb_match_stats_print(cb_match_stats *st, FILE *f, double seconds);
void cb_match_stats_free(cb_match_stats *st);
/* One strategy's running figures, with the summary's 95% intervals (the same arithmetic:
 * live progress and the summary never disagree). */
typedef struct cb_match_row {
    const char *name;          /* valid while st lives */
    long n;                    /* seat-games */
    double win, win_lo, win_hi; /* win share 0..1, Wilson interval */
    double pts, pts_lo, pts_hi; /* mean points per game, normal interval */
} cb_match_row;
/* Rows in the summary's order; returns how many (up to cap are written). */
int cb_match_stats_rows(const cb_match_stats *st, cb_match_row *out, int cap);
long cb_match_stats_games(const cb_match_stats *st);

/* ---- live progress (match_progress.c), always on stderr ---- */

typedef struct cb_match_progress_cfg {
    long total;                /* games this run plays */
    int concurrency;           /* for the estimate line */
    bool tty;                  /* one status line rewritten in place, else plain lines */
    int every_games;           /* plain lines: every N games ... */
    double every_s;            /* ... or every S seconds (0: not by time); both 0 = off */
    FILE *out;                 /* the result stream when it shares the terminal (flushed first) */
} cb_match_progress_cfg;
typedef struct cb_match_progress cb_match_progress;
cb_match_progress *cb_match_progress_new(const cb_match_progress_cfg *c);
/* Parse --progress: "N" games, "Ns" seconds, "0" off. 0, or -1 (the caller says why). */
int cb_match_progress_parse(const char *text, int *games, double *seconds);
/* --progress as match and tournament take it: text (NULL: not given) into pc->every_games /
 * every_s for a run of pc->total games. Not given: a line every tenth of the run and at least
 * every 30 s, so a log gets about ten lines however long the run. *off: "0". 0, or -1 for text
 * that is none of N, Ns, 0 (the caller names the option). */
int cb_match_progress_option(const char *text, cb_match_progress_cfg *pc, bool *off);
/* A game was consumed (st includes it): maybe print the estimate and a progress line. */
void cb_match_progress_game(cb_match_progress *p, const cb_match_stats *st);
/* Take the status line off the terminal before other output to it (a no-op for plain
 * lines); ..._before_results: only when the result stream shares the terminal. */
void cb_match_progress_hide(cb_match_progress *p);
void cb_match_progress_before_results(cb_match_progress *p);
void cb_match_progress_free(cb_match_progress *p); /* also hides; p may be NULL */

/* ---- deals files (match_deals.c) ---- */

/* Read and check every line of a --deals file against r: one JSON object per line,
 * {"rules","hands","bottom","first_bidder"} (format: match_deals.c). 0 with *deals (g_free)
 * and *n, or -1 with "FILE:LINE: what is wrong" in err. */
int cb_match_deals_read(const char *path, const cb_rules *r, bool bidding, cb_match_deal **deals, int *n,
                        char *err, size_t errlen);
/* One deals line (json-glib), newly allocated; bidding: DDZ with a bidding phase (first_bidder
 * is written then). */
char *cb_match_deal_json(const cb_rules *r, const cb_match_deal *d, bool bidding);

/* ---- what identifies a run (cmd_match.c fills it, results files carry it) ---- */

typedef struct cb_match_info {
    char *config;              /* the --config path as given */
    char *config_sha256;       /* of the file's bytes: a shard of an edited config is another run */
    char *rules;               /* preset name */
    int games;                 /* of the whole match (all shards) */
    bool duplicate;
    uint64_t seed;
    bool random_seed;          /* no seed given: the key is printed after the summary */
    int landlord;              /* --landlord, -1 none */
    char *table;               /* --table ID or NULL */
    char *deals, *deals_sha256; /* --deals FILE or NULL */
    int shard, nshards;        /* 1 / 1: the whole match */
    char *version;             /* CB_VERSION of the cardbot that played */
    char *config_abs;          /* the config's absolute path as the run read it (results files
                                  since 1.4; NULL from older ones): a merge run from another
                                  directory finds the config by it (its sha256 still checked) */
} cb_match_info;
void cb_match_info_clear(cb_match_info *m); /* frees the strings */
/* The "Match: ..." line. The shard part appears only when nshards > 1 (a merge prints the
 * whole match's line). */
void cb_match_print_header(FILE *f, const cb_match_info *m, int shard_games);
/* The deal and shard of game g. */
int cb_match_deal_of(const cb_match_info *m, int g);
int cb_match_shard_of(const cb_match_info *m, int g);

/* ---- results files (match_results.c): a header line, one line per game, an end line ---- */

char *cb_match_results_header(const cb_match_info *m);
char *cb_match_results_end(int games, double seconds, int concurrency);
/* Parse a header line into *m (cleared first). 0, or -1 with what is wrong. */
int cb_match_results_read_header(const char *line, cb_match_info *m, char *err, size_t errlen);
/* An end line? 1 with its fields, 0 when the line is something else. */
int cb_match_results_read_end(const char *line, int *games, double *seconds, int *concurrency);
/* The first header field in which b differs from a (shard number aside), as "seed 8, not 7";
 * NULL when they belong to one run. Newly allocated. */
char *cb_match_info_differs(const cb_match_info *a, const cb_match_info *b);

/* ---- the game consumer both cardbot match and cardbot merge feed (match_sink.c) ----
 * Every game of a match passes through cb_match_sink_game once, in game order, whether it
 * was just played or read back from a shard's results: result line, summary figures,
 * replay / results / deals lines, progress. Anything else that follows the match game by game
 * (a sequential test) belongs there too, so a merged run and a single run agree on it. */
typedef struct cb_match_verdicts cb_match_verdicts; /* match_verdict.h */
typedef struct cb_match_sink_cfg {
    const cb_rules *rules;
    FILE *out;                 /* "Finished game" lines (unless quiet) */
    bool quiet;
    FILE *replay;              /* each NULL when not wanted; *_path for messages */
    const char *replay_path;
    FILE *results;
    const char *results_path;
    FILE *save_deals;
    const char *save_deals_path;
    bool bidding;              /* DDZ with a bidding phase: deals lines name a first bidder */
    cb_match_progress *progress; /* may be NULL */
    const char *cmd;           /* "match" / "merge", for messages */
    cb_match_verdicts *verdicts; /* the pair, SPRT and report (may be NULL) */
} cb_match_sink_cfg;
typedef struct cb_match_sink cb_match_sink;
cb_match_sink *cb_match_sink_new(const cb_match_sink_cfg *c);
/* A cb_match_on_game: ud is the sink. Nonzero: a file could not be written (stop). */
int cb_match_sink_game(void *ud, cb_match_game *gm);
cb_match_stats *cb_match_sink_stats(cb_match_sink *k);
/* Games consumed, games that could not be completed (first_err: the first one's message),
 * and the exit status so far (1 after a write error). */
int cb_match_sink_seen(const cb_match_sink *k);
int cb_match_sink_errors(const cb_match_sink *k, const char **first_err);
int cb_match_sink_status(const cb_match_sink *k);
void cb_match_sink_free(cb_match_sink *k);

/* ---- replay files (replay_header.c, replay_read.c): a header line, then one line per game ----
 * The header ({"type":"header","format":"cardbot-replay","version":1,...}: the run's identity,
 * the rules with every flag, every strategy's parameters, the date) and the game lines
 * ({"type":"game",...}, cb_match_game_json) are documented by schema/cardbot-replay-1.schema.json. */
#define CB_REPLAY_FORMAT "cardbot-replay"
#define CB_REPLAY_VERSION 1
/* The header line (json-glib), newly allocated. r: the rules the games were played under, or
 * NULL when only m->rules (the preset) is known (cardbot merge): the flags and the strategies
 * are then read from m->config when its bytes still hash to m->config_sha256, else written as
 * null. A random seed is written as null: a plugin could read the file while the match runs
 * (the summary prints the seed at the end). The date honours SOURCE_DATE_EPOCH. */
char *cb_replay_header_json(const cb_match_info *m, const cb_rules *r);
/* Write the header as the first line of f and flush. 0, or -1 (errno set). */
int cb_replay_header_write(FILE *f, const cb_match_info *m, const cb_rules *r);

#endif

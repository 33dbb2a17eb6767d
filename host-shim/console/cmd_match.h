/* cardbot match — the command's own state, shared by its option parsing and run
 * (cmd_match.c) and its setup (match_setup.c). Not an API: the match API is match.h. */
#ifndef CARDBOT_CMD_MATCH_H
#define CARDBOT_CMD_MATCH_H

#include <glib.h>
#include <stdio.h>

#include "cli.h"
#include "match.h"
#include "match_verdict.h"

/* The command line as given (GOption fills it). */
typedef struct cb_match_args {
    char *config, *replay, *table_id, *deals, *save_deals, *results, *shard, *progress, *sprt, *report, *help_strategy;
    gint64 games, seed; /* G_MININT64: not given */
    gint concurrency, landlord;
    gboolean duplicate, quiet;
} cb_match_args;

/* Everything the run needs, once set up. */
typedef struct cb_match_cmd {
    cb_match_args a;
    cb_cli_match_conf conf;     /* the config's [match] */
    cb_shim *shim;
    const cb_rules *rules;
    cb_match_info info;
    FILE *out, *rf, *resf, *df; /* results (stdout's copy), replay, results file, saved deals */
    cb_match_deal *deals;
    int ndeals;
    int *game_list, ngames;     /* this shard's games (all of them unsharded) */
    long long budget;
    int progress_games;
    double progress_s;
    bool progress_off;
    bool has_sprt;              /* --sprt given: sprt holds it */
    cb_sprt_opts sprt;
} cb_match_cmd;

/* One line on stderr ("cardbot match: ..."); returns CB_CLI_EXIT_USAGE. */
int cb_match_usage_error(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
/* Everything checked and opened before the first game: a mistake costs no games. 0, or the
 * exit status (m keeps what was opened, for the caller to close). */
int cb_match_setup(cb_match_cmd *m);
/* DDZ with a bidding phase (deals files then name a first bidder). */
bool cb_match_bidding(const cb_match_cmd *m);

#endif

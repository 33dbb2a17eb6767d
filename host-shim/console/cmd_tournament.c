/* cardbot tournament — a gauntlet or a round robin between a config's strategies (tour.h).
 *
 *   cardbot tournament --config FILE (--gauntlet NAME | --round-robin) [--strategies a,b,c]
 *                      [--games N] [--seed S] [--concurrency K] [--landlord SEAT] [--quiet]
 *                      [--progress N|Ns|0] [--report FILE.html]
 *
 * Each pairing's two seatings are played one after the other by cb_match_run (match_run.c),
 * which hands this thread the games in game order: the result lines, the summaries, the
 * crosstable and the standings are a function of the games alone, whatever --concurrency
 * (only lines starting with "timing" are not).
 *
 * Here: the options, the checks that need no config, the result stream and the cleanup; the
 * setup is tour_setup.c's, the pairings played tour_run.c's. */
#include <glib.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "match.h"
#include "tour.h"

#define CMD "tournament"

/* GOption's step: 0, or the status cb_cli_parse gives (--help, a bad option). */
static int parse_options(int *argc, char ***argv, cb_tour_args *a)
{
    a->games = a->seed = G_MININT64;
    a->concurrency = 1;
    a->landlord = -1;
    GOptionEntry entries[] = {
        {"config", 'c', 0, G_OPTION_ARG_FILENAME, &a->config, "INI config: its [strategy.NAME] groups play", "FILE"},
        {"gauntlet", 0, 0, G_OPTION_ARG_STRING, &a->gauntlet, "NAME against each other strategy in turn", "NAME"},
        {"round-robin", 0, 0, G_OPTION_ARG_NONE, &a->round_robin, "every strategy against every other", NULL},
        {"strategies", 0, 0, G_OPTION_ARG_STRING, &a->list, "only these strategies (default: all the config's)",
         "A,B,..."},
        {"games", 'g', 0, G_OPTION_ARG_INT64, &a->games,
         "games per pairing, rounded up to whole deals of 6 (default [match] games or 100)", "N"},
        {"seed", 's', 0, G_OPTION_ARG_INT64, &a->seed,
         "seed of the deals every pairing plays (default [match] seed, else random)", "S"},
        {"concurrency", 'j', 0, G_OPTION_ARG_INT, &a->concurrency, "games played at once (threads; default 1)", "K"},
        {"landlord", 'l', 0, G_OPTION_ARG_INT, &a->landlord, "DDZ: no bidding, SEAT is landlord at bid 1", "SEAT"},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &a->quiet, "no per-game lines", NULL},
        {"progress", 0, 0, G_OPTION_ARG_STRING, &a->progress,
         "progress on stderr, as cardbot match: a status line on a terminal; elsewhere a line every N games or "
         "N seconds (default: every 10% of all the pairings' games, at least every 30 s); 0: none",
         "N|Ns|0"},
        {"report", 0, 0, G_OPTION_ARG_FILENAME, &a->report, "write an HTML page: crosstable, series", "FILE.html"},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    GOptionContext *ctx = g_option_context_new("- gauntlet or round robin between a config's strategies");
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_description(
        ctx, "A pairing A vs B plays the seatings (A, B, B) and (B, A, A) on the same deals, each deal with its\n"
             "hands rotated over the three seats; every pairing plays the same deals. Score: per game, A's share\n"
             "of (A seat, B seat) pairs in which A finished with more points (a tie counts half), averaged per\n"
             "deal; 0.5 is even. Elo = 400 log10(score / (1 - score)).");
    return cb_cli_parse(CMD, ctx, entries, argc, argv);
}

/* What can be checked before the config is read. 0 or the usage status. */
static int check_options(const cb_tour_args *a, int argc, char **argv)
{
    if (argc > 1) {
        cb_cli_error(CMD, "unexpected argument '%s'", argv[1]);
        return CB_CLI_EXIT_USAGE;
    }
    if (!a->config) {
        cb_cli_error(CMD, "missing --config FILE");
        return CB_CLI_EXIT_USAGE;
    }
    if (!a->gauntlet == !a->round_robin) {
        cb_cli_error(CMD, "give one of --gauntlet NAME and --round-robin");
        return CB_CLI_EXIT_USAGE;
    }
    int pg;
    double ps;
    if (a->progress && cb_match_progress_parse(a->progress, &pg, &ps) != 0) {
        cb_cli_error(CMD, "--progress %s: give games (10), seconds (30s) or 0 (none)", a->progress);
        return CB_CLI_EXIT_USAGE;
    }
    if (cb_cli_check_games(CMD, a->games, CB_CLI_MAX_GAMES) != 0 || cb_cli_check_seed(CMD, a->seed) != 0 ||
        cb_cli_check_concurrency(CMD, a->concurrency) != 0 || cb_cli_check_landlord(CMD, a->landlord, a->config, NULL))
        return CB_CLI_EXIT_USAGE;
    /* the report is tried (opened to append) in setup: it must not be the config */
    const cb_cli_file in[] = {{"--config", a->config}}, out[] = {{"--report", a->report}};
    return cb_cli_check_files(CMD, in, G_N_ELEMENTS(in), out, G_N_ELEMENTS(out));
}

/* Results go to a private copy of stdout and fd 1 to stderr, as in cardbot match: what a
 * plugin prints cannot pass for a result line. 0 or 1. */
static int open_results(cb_tour_cmd *c)
{
    int out_fd = dup(1);
    if (out_fd < 0 || !(c->out = fdopen(out_fd, "w")) || dup2(2, 1) < 0) {
        cb_cli_error(CMD, "cannot set up the result stream");
        if (out_fd >= 0 && !c->out)
            close(out_fd);
        return 1;
    }
    return 0;
}

static void args_free(cb_tour_args *a)
{
    g_free(a->config);
    g_free(a->gauntlet);
    g_free(a->list);
    g_free(a->report);
    g_free(a->progress);
}

int cb_cmd_tournament(int argc, char **argv)
{
    cb_tour_cmd c;
    memset(&c, 0, sizeof c);
    int status = parse_options(&argc, &argv, &c.a);
    if (status) {
        args_free(&c.a);
        return status;
    }
    /* SIGINT / SIGTERM wait for cb_match_run's watcher, between whole games */
    sigset_t old_sigs;
    cb_match_block_signals(&old_sigs);
    status = check_options(&c.a, argc, argv);
    if (!status)
        status = open_results(&c);
    if (!status)
        status = cb_tour_setup(&c);
    if (!status)
        status = cb_tour_run(&c);
    if (c.out && (fflush(c.out) != 0 || ferror(c.out)) && status == 0) {
        cb_cli_error(CMD, "error writing the results");
        status = 1;
    }
    if (c.out)
        fclose(c.out);
    pthread_sigmask(SIG_SETMASK, &old_sigs, NULL);
    cb_tour_free(c.tour);
    cb_report_free(c.rep);
    g_free(c.pairs);
    g_strfreev(c.names);
    if (c.shim)
        cb_shim_free(c.shim);
    args_free(&c.a);
    return status;
}

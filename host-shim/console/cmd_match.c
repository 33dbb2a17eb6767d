/* cardbot match — options (in the spirit of cutechess-cli / fastchess), setup, the run.
 *
 *   cardbot match --config FILE [--games N] [--seed S] [--concurrency K] [--duplicate]
 *                 [--replay FILE.jsonl] [--table ID] [--landlord SEAT] [--quiet]
 *                 [--progress N|Ns|0] [--deals FILE] [--save-deals FILE]
 *                 [--shard K/N --results FILE] [--sprt elo0=E0,elo1=E1[,alpha=A,beta=B]]
 *                 [--report FILE.html]
 *
 * Games are played by cb_match_run (match_run.c): game g is a function of (seed, g) — and of
 * line g (or g / 3) of a --deals file — alone, and this thread gets the games in game order
 * and hands each to the sink (match_sink.c), so result lines, replay lines and the summary do
 * not depend on --concurrency. Progress goes to stderr only (match_progress.c). Without
 * --seed or [match] seed, the key is random and printed after the summary.
 *
 * A match that seats two strategies ends its summary with their paired comparison (match_pair.c);
 * --sprt runs a sequential test on it and stops the match at its verdict (match_verdicts.c);
 * --report writes the figures as an HTML page.
 *
 * --shard K/N plays whole deals d with d mod N = K - 1 and writes them to --results FILE
 * (match_results.c); cardbot merge (cmd_merge.c) puts the shards back together and prints
 * what the single run prints. */
#include <errno.h>
#include <glib.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cardbot/game.h"
#include "cli.h"
#include "cmd_match.h"
#include "match.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* What can be checked before the config is read: each number its own range, and no output
 * file that would overwrite another or an input (before anything is opened). 0 or the usage
 * status. */
static int check_options(const cb_match_args *a)
{
    const char *cmd = "match";
    if (cb_cli_check_games(cmd, a->games, CB_CLI_MAX_GAMES) || cb_cli_check_seed(cmd, a->seed) ||
        cb_cli_check_concurrency(cmd, a->concurrency) || cb_cli_check_landlord(cmd, a->landlord, a->config, NULL))
        return CB_CLI_EXIT_USAGE;
    /* every file the match writes (results, replay, deals, report) and every one it reads */
    const cb_cli_file in[] = {{"--config", a->config}, {"--deals", a->deals}};
    const cb_cli_file out[] = {{"--results", a->results}, {"--replay", a->replay}, {"--save-deals", a->save_deals},
                               {"--report", a->report}};
    return cb_cli_check_files(cmd, in, G_N_ELEMENTS(in), out, G_N_ELEMENTS(out));
}

static int parse_options(int *argc, char ***argv, cb_match_args *a)
{
    a->games = a->seed = G_MININT64;
    a->concurrency = 1;
    a->landlord = -1;
    GOptionEntry entries[] = {
        {"config", 'c', 0, G_OPTION_ARG_FILENAME, &a->config, "INI config (strategies, seats, rules)", "FILE"},
        {"games", 'g', 0, G_OPTION_ARG_INT64, &a->games,
         "games to play (default: every deal of --deals, else [match] games or 100)", "N"},
        {"seed", 's', 0, G_OPTION_ARG_INT64, &a->seed, "match seed (default [match] seed, else random)", "S"},
        {"concurrency", 'j', 0, G_OPTION_ARG_INT, &a->concurrency, "games played at once (threads; default 1)", "K"},
        {"duplicate", 'd', 0, G_OPTION_ARG_NONE, &a->duplicate, "replay each deal with hands rotated over the seats",
         NULL},
        {"replay", 'r', 0, G_OPTION_ARG_FILENAME, &a->replay, "write a header and every deal, bid and decision as JSON lines (cardbot replay shows them)",
         "FILE"},
        {"table", 't', 0, G_OPTION_ARG_STRING, &a->table_id, "seat strategies from [table.ID]", "ID"},
        {"landlord", 'l', 0, G_OPTION_ARG_INT, &a->landlord, "DDZ: no bidding, SEAT is landlord at bid 1 (evaluations)",
         "SEAT"},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &a->quiet, "no per-game lines", NULL},
        {"progress", 0, 0, G_OPTION_ARG_STRING, &a->progress,
         "progress on stderr: a status line on a terminal; elsewhere a line every N games or N seconds "
         "(default: every 10% of the games or 30 s); 0 = none",
         "N|Ns|0"},
        {"deals", 0, 0, G_OPTION_ARG_FILENAME, &a->deals, "play the deals of this JSON lines file (line d = deal d)",
         "FILE"},
        {"save-deals", 0, 0, G_OPTION_ARG_FILENAME, &a->save_deals, "write the deals played, for --deals", "FILE"},
        {"shard", 0, 0, G_OPTION_ARG_STRING, &a->shard, "play only shard K of N (whole deals; needs --results)",
         "K/N"},
        {"results", 0, 0, G_OPTION_ARG_FILENAME, &a->results, "write the results for cardbot merge", "FILE"},
        {"sprt", 0, 0, G_OPTION_ARG_STRING, &a->sprt,
         "sequential test of the two seated strategies on paired deals; stops at its verdict "
         "(alpha, beta default 0.05)",
         "elo0=E0,elo1=E1[,alpha=A,beta=B]"},
        {"help-strategy", 0, 0, G_OPTION_ARG_STRING, &a->help_strategy,
         "print a bundled plugin's parameters (ismcts, heuristic, pimc, rulebot, exec) and exit", "PLUGIN"},
        {"report", 0, 0, G_OPTION_ARG_FILENAME, &a->report,
         "write a self-contained HTML page: win share and points as the games went, the pair, the SPRT", "FILE"},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    GOptionContext *ctx = g_option_context_new("- play bot matches through the shim");
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_description(
        ctx, "Results go to stdout; everything on it but lines starting with \"timing\" is a function of the games.\n"
             "Shards: run --shard K/N --results FILE for K = 1..N (same options otherwise), then\n"
             "cardbot merge FILE... prints what the whole match prints.");
    int rc = cb_cli_parse("match", ctx, entries, argc, argv);
    if (rc)
        return rc;
    if (*argc > 1)
        return cb_match_usage_error("unexpected argument '%s'", (*argv)[1]);
    if (a->help_strategy)
        return -1; /* printed by the caller: no config needed */
    if (!a->config)
        return cb_match_usage_error("missing --config FILE");
    return check_options(a);
}

static void args_free(cb_match_args *a)
{
    g_free(a->config);
    g_free(a->replay);
    g_free(a->table_id);
    g_free(a->deals);
    g_free(a->save_deals);
    g_free(a->results);
    g_free(a->shard);
    g_free(a->progress);
    g_free(a->sprt);
    g_free(a->report);
    g_free(a->help_strategy);
}

/* The strategy names the match seats ([table.ID] over [seats]; the shim checked them). */
static void seat_names(const cb_match_cmd *m, const char *names[3])
{
    char *group = m->a.table_id ? g_strdup_printf("table.%s", m->a.table_id) : NULL;
    for (int s = 0; s < 3; s++) {
        char key[12];
        snprintf(key, sizeof key, "%d", s);
        names[s] = group ? cb_shim_get(m->shim, group, key) : NULL;
        if (!names[s])
            names[s] = cb_shim_get(m->shim, "seats", key);
    }
    g_free(group);
}

/* --sprt and --report, checked before any game. 0 or the usage status. */
static int setup_verdicts(cb_match_cmd *m)
{
    if (m->a.sprt) {
        char err[200];
        if (cb_sprt_parse(m->a.sprt, &m->sprt, err, sizeof err) != 0)
            return cb_match_usage_error("--sprt %s: %s", m->a.sprt, err);
        if (m->a.shard || m->a.results)
            return cb_match_usage_error("--sprt stops a match at its verdict: not with --shard / --results "
                                        "(cardbot merge --sprt tests the shards' games)");
        const char *names[3], *x, *y;
        seat_names(m, names);
        if (cb_match_pair_names(names, &x, &y) != 0)
            return cb_match_usage_error("--sprt compares two strategies: the seating (%s, %s, %s) has %s",
                                        names[0] ? names[0] : "?", names[1] ? names[1] : "?",
                                        names[2] ? names[2] : "?",
                                        names[0] && names[1] && names[2] && !strcmp(names[0], names[1]) &&
                                                !strcmp(names[1], names[2])
                                            ? "one"
                                            : "three");
        m->has_sprt = true;
    }
    if (m->a.report) { /* writable now, so a bad path costs no games */
        FILE *f = fopen(m->a.report, "w");
        if (!f)
            return cb_match_usage_error("--report %s: cannot write: %s", m->a.report, g_strerror(errno));
        fclose(f);
    }
    return 0;
}

static void print_summary(cb_match_cmd *m, cb_match_sink *k, cb_match_verdicts *v, int played, int stopped,
                          double secs)
{
    if (stopped > 0)
        fprintf(m->out, "Interrupted by %s after %d of %d games: the summary covers those %d\n",
                stopped == SIGINT ? "SIGINT" : "SIGTERM", played, m->ngames, played);
    else if (cb_match_verdicts_decided(v))
        fprintf(m->out, "SPRT decided after %d of %d games: the summary covers those %d\n", played, m->ngames,
                played);
    cb_match_stats_print(cb_match_sink_stats(k), m->out, secs);
    cb_match_verdicts_print(v, m->out);
    fprintf(m->out, "timing concurrency %d\n", m->a.concurrency);
    if (m->info.random_seed)
        fprintf(m->out, "Seed %llu (chosen at random: replay this match with --seed %llu)\n",
                (unsigned long long)m->info.seed, (unsigned long long)m->info.seed);
}

/* Play the games through the sink; the summary; the exit status. */
static int run(cb_match_cmd *m)
{
    cb_match_print_header(m->out, &m->info, m->ngames);
    fflush(m->out);
    if (m->resf) {
        char *h = cb_match_results_header(&m->info);
        fprintf(m->resf, "%s\n", h);
        g_free(h);
    }
    cb_match_progress *progress = NULL;
    if (!m->progress_off) {
        bool tty = isatty(2);
        cb_match_progress_cfg pc = {.total = m->ngames, .concurrency = m->a.concurrency, .tty = tty,
                                    .every_games = m->progress_games, .every_s = m->progress_s,
                                    .out = tty && isatty(fileno(m->out)) ? m->out : NULL};
        progress = cb_match_progress_new(&pc);
    }
    char *title = m->a.report ? g_strdup_printf("cardbot match: %s", m->a.config) : NULL;
    char *line = NULL;
    size_t len = 0;
    FILE *mem = m->a.report ? open_memstream(&line, &len) : NULL;
    if (mem) {
        cb_match_print_header(mem, &m->info, m->ngames);
        fclose(mem);
        g_strchomp(line);
    }
    cb_match_verdicts *v = cb_match_verdicts_new(m->rules, m->a.duplicate, m->has_sprt ? &m->sprt : NULL, title,
                                                 line, m->ngames);
    g_free(title);
    free(line);
    cb_match_sink_cfg sc = {.rules = m->rules, .out = m->out, .quiet = m->a.quiet, .replay = m->rf,
                            .replay_path = m->a.replay, .results = m->resf, .results_path = m->a.results,
                            .save_deals = m->df, .save_deals_path = m->a.save_deals, .bidding = cb_match_bidding(m),
                            .progress = progress, .cmd = "match", .verdicts = v};
    cb_match_sink *k = cb_match_sink_new(&sc);
    cb_match_run_cfg cfg = {.shim = m->shim, .rules = m->rules, .table_id = m->a.table_id,
                            .opts = {.seed = m->info.seed, .duplicate = m->a.duplicate,
                                     .budget_ms = (uint32_t)m->budget, .landlord = m->a.landlord,
                                     .deals = m->deals, .ndeals = m->ndeals},
                            .games = m->info.games, .game_list = m->game_list, .ngames = m->ngames,
                            .concurrency = m->a.concurrency};
    double t0 = now_s();
    int stopped = 0;
    int played = cb_match_run(&cfg, cb_match_sink_game, k, &stopped);
    double secs = now_s() - t0;
    cb_match_progress_free(progress);
    int status = cb_match_sink_status(k);
    print_summary(m, k, v, played, stopped, secs);
    char err[300];
    if (m->a.report && cb_match_verdicts_write_report(v, cb_match_sink_stats(k), m->a.report, err, sizeof err) != 0) {
        cb_cli_error("match", "%s", err);
        status = 1;
    }
    if (m->resf && played == m->ngames && status == 0) {
        char *end = cb_match_results_end(played, secs, m->a.concurrency);
        fprintf(m->resf, "%s\n", end);
        g_free(end);
    }
    if (stopped > 0)
        status = 128 + stopped;
    const char *first_err;
    int errors = cb_match_sink_errors(k, &first_err);
    if (errors) {
        fprintf(stderr, "cardbot match: %d games could not be completed (first: %s)\n", errors, first_err);
        status = 1;
    }
    cb_match_sink_free(k);
    cb_match_verdicts_free(v);
    return status;
}

static int close_file(FILE *f, const char *what, const char *path, int status)
{
    if (f && fclose(f) && status == 0) {
        cb_cli_error("match", "error writing %s file '%s'", what, path);
        return 1;
    }
    return status;
}

int cb_cmd_match(int argc, char **argv)
{
    cb_match_cmd m;
    memset(&m, 0, sizeof m);
    int status = parse_options(&argc, &argv, &m.a);
    if (status == -1) {
        status = cb_cli_strategy_help(stdout, m.a.help_strategy);
        args_free(&m.a);
        return status;
    }
    /* SIGINT / SIGTERM wait for the watcher thread (match_run.c): blocked from here on, in
     * this thread and every thread started after, so none of them is cut short mid-line */
    sigset_t old_sigs;
    cb_match_block_signals(&old_sigs);
    if (!status)
        status = cb_match_setup(&m);
    if (!status)
        status = setup_verdicts(&m);
    if (!status)
        status = run(&m);
    status = close_file(m.rf, "replay", m.a.replay, status);
    status = close_file(m.resf, "results", m.a.results, status);
    status = close_file(m.df, "deals", m.a.save_deals, status);
    if (m.out && (fflush(m.out) != 0 || ferror(m.out)) && status == 0) {
        cb_cli_error("match", "error writing the results");
        status = 1;
    }
    if (m.out)
        fclose(m.out);
    pthread_sigmask(SIG_SETMASK, &old_sigs, NULL);
    if (m.shim)
        cb_shim_free(m.shim);
    cb_match_info_clear(&m.info);
    g_free(m.deals);
    g_free(m.game_list);
    args_free(&m.a);
    return status;
}


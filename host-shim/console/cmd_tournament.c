/* cardbot tournament — a gauntlet or a round robin between a config's strategies (tour.h).
 *
 *   cardbot tournament --config FILE (--gauntlet NAME | --round-robin) [--strategies a,b,c]
 *                      [--games N] [--seed S] [--concurrency K] [--landlord SEAT] [--quiet]
 *                      [--report FILE.html]
 *
 * Each pairing's two seatings are played one after the other by cb_match_run (match_run.c),
 * which hands this thread the games in game order: the result lines, the summaries, the
 * crosstable and the standings are a function of the games alone, whatever --concurrency
 * (only lines starting with "timing" are not). */
#include <errno.h>
#include <glib.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "match.h"
#include "match_verdict.h"
#include "tour.h"

#define CMD "tournament"

/* What the tournament does with each game, in game order (cb_match_run's on_game). */
typedef struct sink {
    FILE *out;
    cb_match_stats *stats; /* this seating's summary */
    cb_pair *pair;         /* this pairing's verdict */
    cb_tour *tour;
    long base;             /* games of the tournament before this seating's */
    long total;
    int pairing, npair;
    bool quiet, tty;
    long errors;
    char first_err[300];
    double last_progress;
} sink;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* cardbot match's result line, numbered over the whole tournament so a line names one game. */
static void game_line(FILE *f, long number, const cb_match_game *gm)
{
    if (gm->error) {
        fprintf(f, "Finished game %ld: error: %s\n", number, gm->errmsg);
        return;
    }
    fprintf(f, "Finished game %ld (%s, %s, %s): winner seat %d, points %+d %+d %+d", number, gm->strategy[0],
            gm->strategy[1], gm->strategy[2], gm->winner, gm->delta[0], gm->delta[1], gm->delta[2]);
    if (gm->landlord >= 0)
        fprintf(f, " {%s seat %d}", gm->bid_value ? "landlord" : "bao", gm->landlord);
    fputc('\n', f);
}

static int on_game(void *ud, cb_match_game *gm)
{
    sink *k = ud;
    long number = k->base + gm->index + 1;
    if (gm->error && !k->errors++)
        snprintf(k->first_err, sizeof k->first_err, "game %ld: %s", number, gm->errmsg);
    cb_match_stats_add(k->stats, gm);
    cb_pair_add(k->pair, gm);
    cb_tour_add(k->tour, gm);
    if (!k->quiet)
        game_line(k->out, number, gm);
    if (k->tty && now_s() - k->last_progress > 0.5) {
        k->last_progress = now_s();
        fprintf(stderr, "\rpairing %d/%d, %ld/%ld games", k->pairing + 1, k->npair, number, k->total);
    }
    return 0;
}

/* [group] key as a number: 1 found, 0 absent, -1 not a number (reported). */
static int setting(cb_shim *shim, const char *group, const char *key, long long *v)
{
    const char *s = cb_shim_get(shim, group, key);
    if (!s)
        return 0;
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (end == s || *end || errno) {
        cb_cli_error(CMD, "[%s] %s: not a number: '%s'", group, key, s);
        return -1;
    }
    *v = x;
    return 1;
}

int cb_cmd_tournament(int argc, char **argv)
{
    char *config = NULL, *gauntlet = NULL, *list = NULL, *report = NULL;
    gint64 games = G_MININT64, seed = G_MININT64; /* MININT: not given */
    gint concurrency = 1, landlord = -1;
    gboolean round_robin = FALSE, quiet = FALSE;
    GOptionEntry entries[] = {
        {"config", 'c', 0, G_OPTION_ARG_FILENAME, &config, "INI config: its [strategy.NAME] groups play", "FILE"},
        {"gauntlet", 0, 0, G_OPTION_ARG_STRING, &gauntlet, "NAME against each other strategy in turn", "NAME"},
        {"round-robin", 0, 0, G_OPTION_ARG_NONE, &round_robin, "every strategy against every other", NULL},
        {"strategies", 0, 0, G_OPTION_ARG_STRING, &list, "only these strategies (default: all the config's)",
         "A,B,..."},
        {"games", 'g', 0, G_OPTION_ARG_INT64, &games,
         "games per pairing, rounded up to whole deals of 6 (default [match] games or 100)", "N"},
        {"seed", 's', 0, G_OPTION_ARG_INT64, &seed,
         "seed of the deals every pairing plays (default [match] seed, else random)", "S"},
        {"concurrency", 'j', 0, G_OPTION_ARG_INT, &concurrency, "games played at once (threads)", "K"},
        {"landlord", 'l', 0, G_OPTION_ARG_INT, &landlord, "DDZ: no bidding, SEAT is landlord at bid 1", "SEAT"},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "no per-game lines", NULL},
        {"report", 0, 0, G_OPTION_ARG_FILENAME, &report, "write an HTML page: crosstable, series", "FILE.html"},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    GOptionContext *ctx = g_option_context_new("- gauntlet or round robin between a config's strategies");
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_description(
        ctx, "A pairing A vs B plays the seatings (A, B, B) and (B, A, A) on the same deals, each deal with its\n"
             "hands rotated over the three seats; every pairing plays the same deals. Score: per game, A's share\n"
             "of (A seat, B seat) pairs in which A finished with more points (a tie counts half), averaged per\n"
             "deal; 0.5 is even. Elo = 400 log10(score / (1 - score)).");
    int rc = cb_cli_parse(CMD, ctx, &argc, &argv);
    if (rc)
        return rc;
    /* SIGINT / SIGTERM wait for cb_match_run's watcher, between whole games */
    sigset_t old_sigs;
    cb_match_block_signals(&old_sigs);
    int status = CB_CLI_EXIT_USAGE;
    cb_shim *shim = NULL;
    FILE *out = NULL;
    cb_tour *tour = NULL;
    cb_report *rep = NULL;
    cb_tour_pairing *pairs = NULL;
    char **names = NULL;
    char err[1024];
    if (argc > 1) {
        cb_cli_error(CMD, "unexpected argument '%s'", argv[1]);
        goto out;
    }
    if (!config) {
        cb_cli_error(CMD, "missing --config FILE");
        goto out;
    }
    if (!gauntlet == !round_robin) {
        cb_cli_error(CMD, "give one of --gauntlet NAME and --round-robin");
        goto out;
    }
    if (games != G_MININT64 && (games < 1 || games > 10000000)) {
        cb_cli_error(CMD, "--games %lld: must be 1..10000000", (long long)games);
        goto out;
    }
    if (seed != G_MININT64 && seed < 0) {
        cb_cli_error(CMD, "--seed %lld: must be 0 or more", (long long)seed);
        goto out;
    }
    if (concurrency < 1 || concurrency > 256) {
        cb_cli_error(CMD, "--concurrency %d: must be 1..256", concurrency);
        goto out;
    }
    /* Results go to a private copy of stdout and fd 1 to stderr, as in cardbot match: what a
     * plugin prints cannot pass for a result line. */
    int out_fd = dup(1);
    if (out_fd < 0 || !(out = fdopen(out_fd, "w")) || dup2(2, 1) < 0) {
        cb_cli_error(CMD, "cannot set up the result stream");
        if (out_fd >= 0 && !out)
            close(out_fd);
        status = 1;
        goto out;
    }
    shim = cb_shim_open(config, err, sizeof err);
    if (!shim) {
        cb_cli_error(CMD, "%s", err);
        goto out;
    }
    const cb_rules *rules = cb_shim_rules(shim);
    if (landlord < -1 || landlord > 2 || (landlord >= 0 && rules->game != CB_GAME_DDZ)) {
        cb_cli_error(CMD, "--landlord takes a seat 0..2 and only applies to ddz rules");
        goto out;
    }
    names = cb_tour_strategies(shim, config, list, gauntlet, err, sizeof err);
    if (!names) {
        cb_cli_error(CMD, "%s", err);
        goto out;
    }
    int n = (int)g_strv_length(names), g = -1;
    for (int i = 0; gauntlet && i < n; i++)
        if (!strcmp(names[i], gauntlet))
            g = i;
    if (report && n > CB_REPORT_MAX) {
        cb_cli_error(CMD, "--report: %d strategies, a report shows at most %d (choose with --strategies)", n,
                     CB_REPORT_MAX);
        goto out;
    }
    long long v;
    if (games == G_MININT64) {
        games = 100;
        if ((rc = setting(shim, "match", "games", &v)) < 0)
            goto out;
        if (rc) {
            if (v < 1 || v > 10000000) {
                cb_cli_error(CMD, "%s: [match] games: %lld must be 1..10000000", config, v);
                goto out;
            }
            games = v;
        }
    }
    bool random_seed = false;
    if (seed == G_MININT64) {
        if ((rc = setting(shim, "match", "seed", &v)) < 0)
            goto out;
        if (rc && v < 0) {
            cb_cli_error(CMD, "%s: [match] seed: %lld must be 0 or more", config, v);
            goto out;
        }
        if (rc) {
            seed = v;
        } else { /* as cardbot match: a secret key, printed once every game is over */
            uint64_t key = 0;
            if (getrandom(&key, sizeof key, 0) != (ssize_t)sizeof key) {
                cb_cli_error(CMD, "no --seed and no random key available: give --seed");
                status = 1;
                goto out;
            }
            seed = (gint64)(key >> 1);
            random_seed = true;
        }
    }
    long long budget = 1000;
    if (setting(shim, "shim", "budget_ms", &budget) < 0)
        goto out;
    if (games % 6)
        games += 6 - games % 6; /* whole deals: 3 rotations in each of the 2 seatings */
    long half = (long)games / 2;
    if (report) { /* a report that cannot be written is a mistake to hear before the games */
        FILE *rf = fopen(report, "a");
        if (!rf) {
            cb_cli_error(CMD, "cannot write report '%s': %s", report, g_strerror(errno));
            goto out;
        }
        fclose(rf);
    }
    int npair = 0;
    pairs = cb_tour_pairings(n, g, &npair);
    long total = (long)npair * games;

    GString *head = g_string_new(NULL);
    g_string_append_printf(head, "Tournament: %s, rules %s, ", config, rules->preset);
    if (g >= 0)
        g_string_append_printf(head, "gauntlet of %s against %d %s (", names[g], n - 1,
                               n == 2 ? "strategy" : "strategies");
    else
        g_string_append_printf(head, "round robin of %d strategies (", n);
    for (int i = 0, first = 1; i < n; i++)
        if (i != g) {
            g_string_append_printf(head, "%s%s", first ? "" : ", ", names[i]);
            first = 0;
        }
    g_string_append_printf(head, "), %d pairing%s of %lld games (2 seatings x %ld deal%s x 3 rotations), ", npair,
                           npair == 1 ? "" : "s", (long long)games, half / 3, half == 3 ? "" : "s");
    if (random_seed)
        g_string_append(head, "seed chosen at random (printed at the end)");
    else
        g_string_append_printf(head, "seed %lld", (long long)seed);
    if (landlord >= 0)
        g_string_append_printf(head, ", landlord fixed at seat %d", landlord);
    fprintf(out, "%s\n", head->str);
    fflush(out);
    if (report)
        rep = cb_report_new("cardbot tournament", head->str);
    g_string_free(head, TRUE);
    tour = cb_tour_new(rules, names, pairs, npair, (long)games, rep);
    names = NULL; /* the tour owns them */

    cb_match_run_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.shim = shim;
    cfg.rules = rules;
    cfg.opts.seed = (uint64_t)seed;
    cfg.opts.duplicate = true;
    cfg.opts.budget_ms = (uint32_t)budget;
    cfg.opts.landlord = landlord;
    cfg.games = (int)half;
    cfg.concurrency = concurrency;
    sink k;
    memset(&k, 0, sizeof k);
    k.out = out;
    k.tour = tour;
    k.total = total;
    k.npair = npair;
    k.quiet = quiet;
    k.tty = quiet && isatty(2);
    double t0 = now_s();
    long played = 0;
    int stopped = 0;
    for (int p = 0; p < npair && !stopped; p++) {
        const char *a = tour->name[tour->pair[p].a], *b = tour->name[tour->pair[p].b];
        fprintf(out, "\nPairing %d/%d: %s vs %s\n", p + 1, npair, a, b);
        k.pairing = p;
        k.pair = cb_pair_new(rules, a, b);
        for (int s = 0; s < 2 && !stopped; s++) {
            const char *seats[3] = {s ? b : a, s ? a : b, s ? a : b};
            fprintf(out, "Seating %s, %s, %s: %ld games\n", seats[0], seats[1], seats[2], half);
            fflush(out);
            cfg.seating = seats;
            k.base = (long)p * games + s * half;
            k.stats = cb_match_stats_new(rules);
            double s0 = now_s();
            played += cb_match_run(&cfg, on_game, &k, &stopped);
            cb_match_stats_print(k.stats, out, now_s() - s0);
            cb_match_stats_free(k.stats);
        }
        cb_pair_print(k.pair, out);
        cb_tour_set_pair(tour, p, k.pair);
        cb_pair_free(k.pair);
        fflush(out);
    }
    double secs = now_s() - t0;
    if (k.tty)
        fprintf(stderr, "\r%*s\r", 40, "");
    fputc('\n', out);
    if (stopped > 0)
        fprintf(out, "Interrupted by %s after %ld of %ld games: the tables cover those %ld\n",
                stopped == SIGINT ? "SIGINT" : "SIGTERM", played, total, played);
    cb_tour_print_crosstable(tour, out);
    fputc('\n', out);
    cb_tour_print_standings(tour, out);
    fprintf(out, "timing %ld games in %.2f s, concurrency %d\n", played, secs, concurrency);
    if (random_seed)
        fprintf(out, "Seed %lld (chosen at random: replay this tournament with --seed %lld)\n", (long long)seed,
                (long long)seed);
    status = stopped > 0 ? 128 + stopped : 0;
    if (k.errors) {
        fprintf(stderr, "cardbot tournament: %ld games could not be completed (first: %s)\n", k.errors,
                k.first_err);
        status = 1;
    }
    if (rep) {
        if (random_seed) {
            char *line = g_strdup_printf("%s; seed %lld", rep->match_line, (long long)seed);
            g_free(rep->match_line);
            rep->match_line = line;
        }
        cb_tour_series_flush(tour);
        cb_tour_fill_report(tour);
        if (cb_report_write(report, rep, err, sizeof err) != 0) {
            cb_cli_error(CMD, "%s", err);
            status = 1;
        }
    }
out:
    if (out && (fflush(out) != 0 || ferror(out)) && status == 0) {
        cb_cli_error(CMD, "error writing the results");
        status = 1;
    }
    if (out)
        fclose(out);
    pthread_sigmask(SIG_SETMASK, &old_sigs, NULL);
    cb_tour_free(tour);
    cb_report_free(rep);
    g_free(pairs);
    g_strfreev(names);
    if (shim)
        cb_shim_free(shim);
    g_free(config);
    g_free(gauntlet);
    g_free(list);
    g_free(report);
    return status;
}

/* cardbot match — options (in the spirit of cutechess-cli), worker threads, ordered output.
 *
 *   cardbot match --config FILE [--games N] [--seed S] [--concurrency K] [--duplicate]
 *                 [--replay FILE.jsonl] [--table ID] [--landlord SEAT] [--quiet]
 *
 * Games are played by cb_match_run (match_run.c): game g is a function of (seed, g) alone,
 * and this thread gets the games in game order, so result lines, replay lines and the summary
 * do not depend on --concurrency. Without --seed or [match] seed, the key is random and
 * printed after the summary. */
#include <errno.h>
#include <glib.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "match.h"

/* What the match does with each game, in game order (cb_match_run's on_game). */
typedef struct sink {
    FILE *out, *rf;
    const char *replay;
    const cb_rules *rules;
    cb_match_stats *stats;
    bool quiet, tty;
    int games, seen, errors, status;
    char first_err[300];
    double last_progress;
} sink;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void game_line(FILE *f, const cb_match_game *gm)
{
    if (gm->error) {
        fprintf(f, "Finished game %d: error: %s\n", gm->index + 1, gm->errmsg);
        return;
    }
    fprintf(f, "Finished game %d (%s, %s, %s): winner seat %d, points %+d %+d %+d", gm->index + 1,
            gm->strategy[0], gm->strategy[1], gm->strategy[2], gm->winner, gm->delta[0], gm->delta[1],
            gm->delta[2]);
    if (gm->landlord >= 0)
        fprintf(f, " {%s seat %d}", gm->bid_value ? "landlord" : "bao", gm->landlord);
    fputc('\n', f);
}

static int read_int_setting(cb_shim *shim, const char *group, const char *key, long long *v)
{
    const char *s = cb_shim_get(shim, group, key);
    if (!s)
        return 0;
    char *end;
    long long x = strtoll(s, &end, 10);
    if (end == s || *end) {
        cb_cli_error("match", "[%s] %s: not a number: '%s'", group, key, s);
        return -1;
    }
    *v = x;
    return 1;
}

static int on_game(void *ud, cb_match_game *gm)
{
    sink *k = ud;
    k->seen++;
    if (gm->error && !k->errors++)
        snprintf(k->first_err, sizeof k->first_err, "game %d: %s", gm->index + 1, gm->errmsg);
    cb_match_stats_add(k->stats, gm);
    if (!k->quiet)
        game_line(k->out, gm);
    int stop = 0;
    if (k->rf) {
        char *line = cb_match_game_json(k->rules, gm);
        if (fprintf(k->rf, "%s\n", line) < 0 || fflush(k->rf) != 0) {
            cb_cli_error("match", "error writing replay file '%s': %s", k->replay, g_strerror(errno));
            k->status = 1;
            stop = 1;
        }
        g_free(line);
    }
    if (k->tty && now_s() - k->last_progress > 0.5) {
        k->last_progress = now_s();
        fprintf(stderr, "\r%d/%d games", k->seen, k->games);
    }
    return stop;
}

int cb_cmd_match(int argc, char **argv)
{
    char *config = NULL, *replay = NULL, *table_id = NULL;
    gint64 games = G_MININT64, seed = G_MININT64; /* MININT: not given */
    gint concurrency = 1, landlord = -1;
    gboolean duplicate = FALSE, quiet = FALSE;
    GOptionEntry entries[] = {
        {"config", 'c', 0, G_OPTION_ARG_FILENAME, &config, "INI config (strategies, seats, rules)", "FILE"},
        {"games", 'g', 0, G_OPTION_ARG_INT64, &games, "games to play (default [match] games or 100)", "N"},
        {"seed", 's', 0, G_OPTION_ARG_INT64, &seed, "match seed (default [match] seed or 1)", "S"},
        {"concurrency", 'j', 0, G_OPTION_ARG_INT, &concurrency, "games played at once (threads)", "K"},
        {"duplicate", 'd', 0, G_OPTION_ARG_NONE, &duplicate, "replay each deal with hands rotated over the seats", NULL},
        {"replay", 'r', 0, G_OPTION_ARG_FILENAME, &replay, "write every deal, bid and decision as JSON lines", "FILE"},
        {"table", 't', 0, G_OPTION_ARG_STRING, &table_id, "seat strategies from [table.ID]", "ID"},
        {"landlord", 'l', 0, G_OPTION_ARG_INT, &landlord, "DDZ: no bidding, SEAT is landlord at bid 1 (evaluations)", "SEAT"},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "no per-game lines", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    GOptionContext *ctx = g_option_context_new("- play bot matches through the shim");
    g_option_context_add_main_entries(ctx, entries, NULL);
    int rc = cb_cli_parse("match", ctx, &argc, &argv);
    if (rc)
        return rc;
    /* SIGINT / SIGTERM wait for the watcher thread (signal_watch): blocked from here on, in
     * this thread and every thread started after, so none of them is cut short mid-line */
    sigset_t old_sigs;
    cb_match_block_signals(&old_sigs);
    int status = 0;
    cb_shim *shim = NULL;
    FILE *rf = NULL, *out = NULL;
    if (argc > 1) {
        cb_cli_error("match", "unexpected argument '%s'", argv[1]);
        status = CB_CLI_EXIT_USAGE;
        goto out;
    }
    if (!config) {
        cb_cli_error("match", "missing --config FILE");
        status = CB_CLI_EXIT_USAGE;
        goto out;
    }
    /* Results go to a private copy of stdout; fd 1 itself goes to stderr, so whatever a plugin
     * prints cannot pass for a result line (main() made sure fds 0-2 are open, so nothing of
     * ours lands on a closed fd 1 either). */
    int out_fd = dup(1);
    if (out_fd < 0 || !(out = fdopen(out_fd, "w")) || dup2(2, 1) < 0) {
        cb_cli_error("match", "cannot set up the result stream");
        if (out_fd >= 0 && !out)
            close(out_fd);
        status = 1;
        goto out;
    }
    char err[512];
    shim = cb_shim_open(config, err, sizeof err);
    if (!shim) {
        cb_cli_error("match", "%s", err);
        status = CB_CLI_EXIT_USAGE;
        goto out;
    }
    long long v;
    if (games != G_MININT64 && games < 1) {
        cb_cli_error("match", "--games %lld: must be 1 or more", (long long)games);
        status = CB_CLI_EXIT_USAGE;
        goto out;
    }
    if (seed != G_MININT64 && seed < 0) {
        cb_cli_error("match", "--seed %lld: must be 0 or more", (long long)seed);
        status = CB_CLI_EXIT_USAGE;
        goto out;
    }
    if (games == G_MININT64) {
        games = 100;
        if ((rc = read_int_setting(shim, "match", "games", &v)) < 0) {
            status = CB_CLI_EXIT_USAGE;
            goto out;
        }
        if (rc)
            games = v;
    }
    bool random_seed = false;
    if (seed == G_MININT64) {
        if ((rc = read_int_setting(shim, "match", "seed", &v)) < 0) {
            status = CB_CLI_EXIT_USAGE;
            goto out;
        }
        if (rc && v < 0) {
            cb_cli_error("match", "%s: [match] seed: %lld must be 0 or more", config, v);
            status = CB_CLI_EXIT_USAGE;
            goto out;
        }
        if (rc) {
            seed = v;
        } else {
            /* no seed anywhere: a secret key from the kernel, printed only once the match is
             * over (so the run can be replayed), never while a plugin could read it */
            uint64_t k = 0;
            if (getrandom(&k, sizeof k, 0) != (ssize_t)sizeof k) {
                cb_cli_error("match", "no --seed and no random key available: give --seed");
                status = 1;
                goto out;
            }
            seed = (gint64)(k >> 1);
            random_seed = true;
        }
    }
    long long budget = 1000;
    if (read_int_setting(shim, "shim", "budget_ms", &budget) < 0) {
        status = CB_CLI_EXIT_USAGE;
        goto out;
    }
    if (games < 1 || games > 10000000 || concurrency < 1 || concurrency > 256) {
        cb_cli_error("match", "--games must be 1..10000000 and --concurrency 1..256");
        status = CB_CLI_EXIT_USAGE;
        goto out;
    }
    if (landlord < -1 || landlord > 2 || (landlord >= 0 && cb_shim_rules(shim)->game != CB_GAME_DDZ)) {
        cb_cli_error("match", "--landlord takes a seat 0..2 and only applies to ddz rules");
        status = CB_CLI_EXIT_USAGE;
        goto out;
    }
    if (duplicate && games % 3)
        games += 3 - games % 3; /* whole rotations only, so luck cancels */
    if (replay && !(rf = fopen(replay, "w"))) {
        cb_cli_error("match", "cannot write replay file '%s'", replay);
        status = CB_CLI_EXIT_USAGE;
        goto out;
    }
    if (table_id) { /* a seating the config does not have is a mistake, not [seats] */
        char *group = g_strdup_printf("table.%s", table_id);
        bool seated = false;
        for (int seatno = 0; seatno < 3 && !seated; seatno++) {
            char key[12];
            snprintf(key, sizeof key, "%d", seatno);
            seated = cb_shim_get(shim, group, key) != NULL;
        }
        g_free(group);
        if (!seated) {
            cb_cli_error("match", "--table %s: %s has no [table.%s] seating", table_id, config, table_id);
            status = CB_CLI_EXIT_USAGE;
            goto out;
        }
    }
    cb_match_run_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.shim = shim;
    cfg.rules = cb_shim_rules(shim);
    cfg.table_id = table_id;
    cfg.opts.seed = (uint64_t)seed;
    cfg.opts.duplicate = duplicate;
    cfg.opts.budget_ms = (uint32_t)budget;
    cfg.opts.landlord = landlord;
    cfg.games = (int)games;
    cfg.concurrency = concurrency;
    sink k;
    memset(&k, 0, sizeof k);
    k.out = out;
    k.rf = rf;
    k.replay = replay;
    k.rules = cfg.rules;
    k.stats = cb_match_stats_new(cfg.rules);
    k.quiet = quiet;
    k.tty = isatty(2) && quiet;
    k.games = cfg.games;
    /* The concurrency is printed on the timing line: everything else must not depend on it. */
    fprintf(out, "Match: %s, rules %s, %d games%s, ", config, cfg.rules->preset, cfg.games,
            duplicate ? " (duplicate: each deal with hands rotated over 3 seats)" : "");
    if (random_seed)
        fprintf(out, "seed chosen at random (printed at the end)");
    else
        fprintf(out, "seed %lld", (long long)seed);
    if (landlord >= 0)
        fprintf(out, ", landlord fixed at seat %d", landlord);
    fprintf(out, "\n");
    fflush(out);
    double t0 = now_s();
    int stopped = 0;
    int played = cb_match_run(&cfg, on_game, &k, &stopped);
    double secs = now_s() - t0;
    status = k.status;
    if (k.tty)
        fprintf(stderr, "\r%*s\r", 30, "");
    if (stopped > 0)
        fprintf(out, "Interrupted by %s after %d of %d games: the summary covers those %d\n",
                stopped == SIGINT ? "SIGINT" : "SIGTERM", played, cfg.games, played);
    cb_match_stats_print(k.stats, out, secs);
    fprintf(out, "timing concurrency %d\n", concurrency);
    if (random_seed)
        fprintf(out, "Seed %lld (chosen at random: replay this match with --seed %lld)\n", (long long)seed,
                (long long)seed);
    cb_match_stats_free(k.stats);
    if (stopped > 0)
        status = 128 + stopped;
    if (k.errors) {
        fprintf(stderr, "cardbot match: %d games could not be completed (first: %s)\n", k.errors, k.first_err);
        status = 1;
    }
out:
    if (rf && fclose(rf) && status == 0) {
        cb_cli_error("match", "error writing replay file '%s'", replay);
        status = 1;
    }
    if (out && (fflush(out) != 0 || ferror(out)) && status == 0) {
        cb_cli_error("match", "error writing the results");
        status = 1;
    }
    if (out)
        fclose(out);
    pthread_sigmask(SIG_SETMASK, &old_sigs, NULL);
    if (shim)
        cb_shim_free(shim);
    g_free(config);
    g_free(replay);
    g_free(table_id);
    return status;
}

/* cardbot match — options (in the spirit of cutechess-cli), worker threads, ordered output.
 *
 *   cardbot match --config FILE [--games N] [--seed S] [--concurrency K] [--duplicate]
 *                 [--replay FILE.jsonl] [--table ID] [--landlord SEAT] [--quiet]
 *
 * Game g depends only on (seed, g): the engine deals from (seed, deal) and gives every
 * decision's view a seed from (seed, game, decision) — separate keyed streams, so a seed
 * reveals nothing of the deal — and neither thread scheduling nor earlier games change it.
 * Without --seed or [match] seed, the key is random and printed after the summary. Workers
 * finish games in any order; the main thread prints result lines and replay lines strictly in
 * game order. */
#include <errno.h>
#include <glib.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
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

typedef struct run {
    cb_shim *shim;
    const cb_rules *rules;
    const char *table_id;
    cb_match_opts opts;
    int games;
    cb_match_game **slots; /* a finished game waits here until the main thread consumes it */
    gint next;
    int consumed;          /* games the main thread has taken (under lock) */
    int window;            /* workers stay at most this far ahead, bounding memory */
    GMutex lock;
    GCond cond;
    int failed_tables;
    char table_err[256];
    int stop;              /* under lock: a signal number, or -1 (a write failed): no new games */
    bool done;             /* the signal watcher may go */
} run;

/* The exit trap: a plugin that calls exit() in-process ends the whole program; the match is
 * then incomplete, and the trap says so and whose decision it was instead of leaving a silent
 * exit 0. Process-wide by nature (atexit), set while a match runs. */
static atomic_int match_running;

static void exit_trap(void)
{
    if (!atomic_load(&match_running))
        return;
    const char *who = cb_match_deciding();
    fprintf(stderr, "cardbot match: the process was ended (exit) during a decision%s%s%s; the match is "
            "incomplete\n", who ? " of strategy '" : "", who ? who : "", who ? "'" : "");
    fflush(stderr);
    _exit(CB_CLI_EXIT_PLUGIN);
}

/* SIGINT / SIGTERM are blocked in every thread and taken here, so the main thread only ever
 * stops between whole result and replay lines. */
static gpointer signal_watch(gpointer data)
{
    run *R = data;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    struct timespec tick = {0, 100 * 1000 * 1000};
    for (;;) {
        int sig = sigtimedwait(&set, NULL, &tick);
        g_mutex_lock(&R->lock);
        bool done = R->done;
        if (sig > 0 && !R->stop)
            R->stop = sig;
        g_cond_broadcast(&R->cond);
        g_mutex_unlock(&R->lock);
        if (done)
            return NULL;
    }
}

static gpointer worker(gpointer data)
{
    run *R = data;
    /* One table per worker, reused from game to game as a server reuses a table. The ABI
     * requires an answer to depend only on the view (and its seed) and the parameters, so
     * which worker plays a game cannot change it; the -j1 / -j2 end-to-end test checks that. */
    char err[200];
    cb_table *t = cb_table_new(R->shim, R->table_id, err, sizeof err);
    for (;;) {
        int g = g_atomic_int_add(&R->next, 1);
        if (g >= R->games)
            break;
        g_mutex_lock(&R->lock);
        while (g >= R->consumed + R->window && !R->stop)
            g_cond_wait(&R->cond, &R->lock);
        bool stop = R->stop != 0;
        g_mutex_unlock(&R->lock);
        if (stop)
            break;
        cb_match_game *gm = g_new(cb_match_game, 1); /* cb_match_play_game clears what it uses */
        if (!t) {
            memset(gm, 0, offsetof(cb_match_game, plays));
            gm->index = g;
            gm->error = CB_ERR_CONFIG;
            snprintf(gm->errmsg, sizeof gm->errmsg, "%s", err);
        } else {
            cb_match_play_game(t, R->rules, &R->opts, g, gm);
        }
        g_mutex_lock(&R->lock);
        R->slots[g] = gm;
        g_cond_broadcast(&R->cond);
        g_mutex_unlock(&R->lock);
    }
    if (t)
        cb_table_free(t);
    return NULL;
}

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
    sigset_t sigs, old_sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &sigs, &old_sigs);
    int status = 0;
    cb_shim *shim = NULL;
    FILE *rf = NULL, *out = NULL;
    run R;
    memset(&R, 0, sizeof R);
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
    R.shim = shim;
    R.rules = cb_shim_rules(shim);
    R.table_id = table_id;
    R.opts.seed = (uint64_t)seed;
    R.opts.duplicate = duplicate;
    R.opts.budget_ms = (uint32_t)budget;
    R.opts.landlord = landlord;
    R.games = (int)games;
    R.slots = g_new0(cb_match_game *, R.games);
    R.window = 4 * concurrency + 16;
    cb_match_stats *stats = cb_match_stats_new(R.rules);
    g_mutex_init(&R.lock);
    g_cond_init(&R.cond);
    /* The concurrency is printed on the timing line: everything else must not depend on it. */
    fprintf(out, "Match: %s, rules %s, %d games%s, ", config, R.rules->preset, R.games,
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
    GThread *watch = g_thread_new("signals", signal_watch, &R);
    atomic_store(&match_running, 1);
    static atomic_int trap_set;
    if (!atomic_exchange(&trap_set, 1))
        atexit(exit_trap);
    GThread **th = g_new0(GThread *, concurrency);
    for (int i = 0; i < concurrency; i++)
        th[i] = g_thread_new("match", worker, &R);
    bool tty = isatty(2) && quiet;
    double last_progress = 0;
    int errors = 0;
    char first_err[300] = "";
    int played = 0;
    for (int g = 0; g < R.games; g++) {
        g_mutex_lock(&R.lock);
        while (!R.slots[g] && !R.stop)
            g_cond_wait(&R.cond, &R.lock);
        if (R.stop) { /* interrupted or a write failed: whole lines only, then the summary */
            g_mutex_unlock(&R.lock);
            break;
        }
        cb_match_game *gm = R.slots[g];
        R.slots[g] = NULL;
        R.consumed = g + 1;
        g_cond_broadcast(&R.cond);
        g_mutex_unlock(&R.lock);
        if (gm->error && !errors++)
            snprintf(first_err, sizeof first_err, "game %d: %s", g + 1, gm->errmsg);
        cb_match_stats_add(stats, gm);
        played++;
        if (!quiet)
            game_line(out, gm);
        if (rf) {
            char *line = cb_match_game_json(R.rules, gm);
            if (fprintf(rf, "%s\n", line) < 0 || fflush(rf) != 0) {
                cb_cli_error("match", "error writing replay file '%s': %s", replay, g_strerror(errno));
                status = 1;
                g_mutex_lock(&R.lock);
                R.stop = -1;
                g_cond_broadcast(&R.cond);
                g_mutex_unlock(&R.lock);
            }
            g_free(line);
        }
        if (tty && now_s() - last_progress > 0.5) {
            last_progress = now_s();
            fprintf(stderr, "\r%d/%d games", g + 1, R.games);
        }
        g_free(gm);
    }
    g_mutex_lock(&R.lock);
    if (!R.stop && played < R.games)
        R.stop = -1;
    int stopped = R.stop;
    if (!R.stop)
        R.stop = -2; /* all consumed: no worker has a game left to take */
    g_cond_broadcast(&R.cond);
    g_mutex_unlock(&R.lock);
    for (int i = 0; i < concurrency; i++)
        g_thread_join(th[i]);
    g_free(th);
    atomic_store(&match_running, 0);
    g_mutex_lock(&R.lock);
    R.done = true;
    g_mutex_unlock(&R.lock);
    g_thread_join(watch);
    for (int g = played; g < R.games; g++) /* finished after the stop: not reported */
        g_free(R.slots[g]);
    double secs = now_s() - t0;
    if (tty)
        fprintf(stderr, "\r%*s\r", 30, "");
    if (stopped > 0)
        fprintf(out, "Interrupted by %s after %d of %d games: the summary covers those %d\n",
                stopped == SIGINT ? "SIGINT" : "SIGTERM", played, R.games, played);
    cb_match_stats_print(stats, out, secs);
    fprintf(out, "timing concurrency %d\n", concurrency);
    if (random_seed)
        fprintf(out, "Seed %lld (chosen at random: replay this match with --seed %lld)\n", (long long)seed,
                (long long)seed);
    cb_match_stats_free(stats);
    if (stopped > 0)
        status = 128 + stopped;
    if (errors) {
        fprintf(stderr, "cardbot match: %d games could not be completed (first: %s)\n", errors, first_err);
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
    if (R.slots) {
        g_free(R.slots);
        g_mutex_clear(&R.lock);
        g_cond_clear(&R.cond);
    }
    if (shim)
        cb_shim_free(shim);
    g_free(config);
    g_free(replay);
    g_free(table_id);
    return status;
}

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
#include <glib.h>
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
} run;

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
        while (g >= R->consumed + R->window)
            g_cond_wait(&R->cond, &R->lock);
        g_mutex_unlock(&R->lock);
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
    int status = 0;
    cb_shim *shim = NULL;
    FILE *rf = NULL;
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
    printf("Match: %s, rules %s, %d games%s, ", config, R.rules->preset, R.games,
           duplicate ? " (duplicate: each deal with hands rotated over 3 seats)" : "");
    if (random_seed)
        printf("seed chosen at random (printed at the end)");
    else
        printf("seed %lld", (long long)seed);
    if (landlord >= 0)
        printf(", landlord fixed at seat %d", landlord);
    printf("\n");
    fflush(stdout);
    double t0 = now_s();
    GThread **th = g_new0(GThread *, concurrency);
    for (int i = 0; i < concurrency; i++)
        th[i] = g_thread_new("match", worker, &R);
    bool tty = isatty(2) && quiet;
    double last_progress = 0;
    int errors = 0;
    char first_err[300] = "";
    for (int g = 0; g < R.games; g++) {
        g_mutex_lock(&R.lock);
        while (!R.slots[g])
            g_cond_wait(&R.cond, &R.lock);
        cb_match_game *gm = R.slots[g];
        R.slots[g] = NULL;
        R.consumed = g + 1;
        g_cond_broadcast(&R.cond);
        g_mutex_unlock(&R.lock);
        if (gm->error && !errors++)
            snprintf(first_err, sizeof first_err, "game %d: %s", g + 1, gm->errmsg);
        cb_match_stats_add(stats, gm);
        if (!quiet)
            game_line(stdout, gm);
        if (rf) {
            char *line = cb_match_game_json(R.rules, gm);
            fprintf(rf, "%s\n", line);
            g_free(line);
        }
        if (tty && now_s() - last_progress > 0.5) {
            last_progress = now_s();
            fprintf(stderr, "\r%d/%d games", g + 1, R.games);
        }
        g_free(gm);
    }
    for (int i = 0; i < concurrency; i++)
        g_thread_join(th[i]);
    g_free(th);
    double secs = now_s() - t0;
    if (tty)
        fprintf(stderr, "\r%*s\r", 30, "");
    cb_match_stats_print(stats, stdout, secs);
    printf("timing concurrency %d\n", concurrency);
    if (random_seed)
        printf("Seed %lld (chosen at random: replay this match with --seed %lld)\n", (long long)seed, (long long)seed);
    cb_match_stats_free(stats);
    if (errors) {
        fprintf(stderr, "cardbot match: %d games could not be completed (first: %s)\n", errors, first_err);
        status = 1;
    }
out:
    if (rf && fclose(rf)) {
        cb_cli_error("match", "error writing replay file '%s'", replay);
        status = 1;
    }
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

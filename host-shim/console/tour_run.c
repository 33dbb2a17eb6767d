/* cardbot tournament — the run: the header, each pairing's two seatings played through
 * cb_match_run, the crosstable and standings, the report. Everything but the lines starting
 * with "timing" is a function of the games (tour.h). */
#include <glib.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
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
    long errors;
    char first_err[300];
    cb_match_stats *all;           /* every game of the tournament, for the progress line */
    cb_match_progress *progress;   /* NULL: --progress 0 */
    bool quiet;
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
    if (!k->quiet) {
        cb_match_progress_before_results(k->progress);
        game_line(k->out, number, gm);
    }
    if (k->progress) {
        cb_match_stats_add(k->all, gm);
        cb_match_progress_game(k->progress, k->all);
    }
    return 0;
}

/* The header line, on the results and (with --report) at the head of the report; then the
 * tour, which takes over the names. */
static void start(cb_tour_cmd *c)
{
    int n = c->n, g = c->g;
    long half = c->half;
    GString *head = g_string_new(NULL);
    g_string_append_printf(head, "Tournament: %s, rules %s, ", c->a.config, c->rules->preset);
    if (g >= 0)
        g_string_append_printf(head, "gauntlet of %s against %d %s (", c->names[g], n - 1,
                               n == 2 ? "strategy" : "strategies");
    else
        g_string_append_printf(head, "round robin of %d strategies (", n);
    for (int i = 0, first = 1; i < n; i++)
        if (i != g) {
            g_string_append_printf(head, "%s%s", first ? "" : ", ", c->names[i]);
            first = 0;
        }
    g_string_append_printf(head, "), %d pairing%s of %lld games (2 seatings x %ld deal%s x 3 rotations), ",
                           c->npair, c->npair == 1 ? "" : "s", (long long)c->a.games, half / 3,
                           half == 3 ? "" : "s");
    if (c->random_seed)
        g_string_append(head, "seed chosen at random (printed at the end)");
    else
        g_string_append_printf(head, "seed %lld", (long long)c->a.seed);
    if (c->a.landlord >= 0)
        g_string_append_printf(head, ", landlord fixed at seat %d", c->a.landlord);
    fprintf(c->out, "%s\n", head->str);
    fflush(c->out);
    if (c->a.report)
        c->rep = cb_report_new("cardbot tournament", head->str);
    g_string_free(head, TRUE);
    c->tour = cb_tour_new(c->rules, c->names, c->pairs, c->npair, (long)c->a.games, c->rep);
    c->names = NULL; /* the tour owns them */
}

/* Every pairing, each seating's summary and the pairing's verdict as it ends. The games
 * played; *stopped as cb_match_run sets it. */
static long play(cb_tour_cmd *c, sink *k, int *stopped)
{
    cb_match_run_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.shim = c->shim;
    cfg.rules = c->rules;
    cfg.opts.seed = (uint64_t)c->a.seed;
    cfg.opts.duplicate = true;
    cfg.opts.budget_ms = (uint32_t)c->budget;
    cfg.opts.landlord = c->a.landlord;
    cfg.games = (int)c->half;
    cfg.concurrency = c->a.concurrency;
    cb_tour *tour = c->tour;
    long played = 0;
    for (int p = 0; p < c->npair && !*stopped; p++) {
        const char *a = tour->name[tour->pair[p].a], *b = tour->name[tour->pair[p].b];
        cb_match_progress_before_results(k->progress);
        fprintf(c->out, "\nPairing %d/%d: %s vs %s\n", p + 1, c->npair, a, b);
        k->pair = cb_pair_new(c->rules, a, b);
        for (int s = 0; s < 2 && !*stopped; s++) {
            const char *seats[3] = {s ? b : a, s ? a : b, s ? a : b};
            fprintf(c->out, "Seating %s, %s, %s: %ld games\n", seats[0], seats[1], seats[2], c->half);
            fflush(c->out);
            cfg.seating = seats;
            k->base = (long)p * c->a.games + s * c->half;
            k->stats = cb_match_stats_new(c->rules);
            double s0 = now_s();
            played += cb_match_run(&cfg, on_game, k, stopped);
            cb_match_progress_before_results(k->progress);
            cb_match_stats_print(k->stats, c->out, now_s() - s0);
            cb_match_stats_free(k->stats);
        }
        cb_pair_print(k->pair, c->out);
        cb_tour_set_pair(tour, p, k->pair);
        cb_pair_free(k->pair);
        fflush(c->out);
    }
    return played;
}

/* The report, with the random seed (if it was one) added to its match line. 0 or 1. */
static int write_report(cb_tour_cmd *c)
{
    cb_report *rep = c->rep;
    if (c->random_seed) {
        char *line = g_strdup_printf("%s; seed %lld", rep->match_line, (long long)c->a.seed);
        g_free(rep->match_line);
        rep->match_line = line;
    }
    cb_tour_series_flush(c->tour);
    cb_tour_fill_report(c->tour);
    char err[1024];
    if (cb_report_write(c->a.report, rep, err, sizeof err) != 0) {
        cb_cli_error(CMD, "%s", err);
        return 1;
    }
    return 0;
}

int cb_tour_run(cb_tour_cmd *c)
{
    start(c);
    sink k;
    memset(&k, 0, sizeof k);
    k.out = c->out;
    k.tour = c->tour;
    k.total = (long)c->npair * c->a.games;
    k.quiet = c->a.quiet;
    /* progress as cardbot match shows it, over the whole tournament: the running win share of
     * each strategy over all its games so far (against whoever it met) */
    bool tty = isatty(2), off;
    cb_match_progress_cfg pc = {.total = k.total, .concurrency = c->a.concurrency, .tty = tty,
                                .out = tty && isatty(fileno(c->out)) ? c->out : NULL};
    if (cb_match_progress_option(c->a.progress, &pc, &off) == 0 && !off) {
        k.progress = cb_match_progress_new(&pc);
        k.all = cb_match_stats_new_untimed(c->rules);
    }
    double t0 = now_s();
    int stopped = 0;
    long played = play(c, &k, &stopped);
    double secs = now_s() - t0;
    cb_match_progress_free(k.progress);
    if (k.all)
        cb_match_stats_free(k.all);
    fputc('\n', c->out);
    if (stopped > 0)
        fprintf(c->out, "Interrupted by %s after %ld of %ld games: the tables cover those %ld\n",
                stopped == SIGINT ? "SIGINT" : "SIGTERM", played, k.total, played);
    cb_tour_print_crosstable(c->tour, c->out);
    fputc('\n', c->out);
    cb_tour_print_standings(c->tour, c->out);
    fprintf(c->out, "timing %ld games in %.2f s, concurrency %d\n", played, secs, c->a.concurrency);
    if (c->random_seed)
        fprintf(c->out, "Seed %lld (chosen at random: replay this tournament with --seed %lld)\n",
                (long long)c->a.seed, (long long)c->a.seed);
    int status = stopped > 0 ? 128 + stopped : 0;
    if (k.errors) {
        fprintf(stderr, "cardbot tournament: %ld games could not be completed (first: %s)\n", k.errors,
                k.first_err);
        status = 1;
    }
    if (c->rep && write_report(c) != 0)
        status = 1;
    return status;
}

/* cardbot bench — what a server pays in memory per bot seat, between decisions.
 *
 * For each strategy (heuristic level 6, ismcts) and game (pdk16, ddz): N tables of one shim,
 * every seat that strategy, in-process (the shim's default); each table plays one whole game
 * (bidding included) through the engine and is then kept, as a server keeps a table between
 * games. The heap in use (glibc mallinfo2: allocated bytes, not address space) before the
 * tables and after their games, divided by the seats, is what one seat keeps; seats per GB
 * follows. Figures only: nothing is asserted.
 *
 *   bench_seats [TABLES] [ISMCTS_ITERATIONS]   (defaults 50 and 1000: ismcts frees its
 *                                               trees, solver tables and belief pool at the end
 *                                               of each decision, so what a seat keeps does not
 *                                               grow with the iterations; a smaller count
 *                                               keeps the bench short)
 * Build dir: $CB_BUILD, else the directory above this binary.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cardbot/game.h"
#include "cardbot/shim.h"

static size_t heap_in_use(void)
{
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd; /* small-block arena in use + mmapped blocks */
}

static char *build_dir(const char *argv0)
{
    const char *b = getenv("CB_BUILD");
    if (b)
        return g_canonicalize_filename(b, NULL);
    char *exe = g_file_read_link("/proc/self/exe", NULL);
    char *dir = g_path_get_dirname(exe ? exe : argv0);
    char *up = g_build_filename(dir, "..", NULL);
    char *abs = g_canonicalize_filename(up, NULL);
    g_free(exe);
    g_free(dir);
    g_free(up);
    return abs;
}

/* One whole game at table t; 0 or -1 (printed). */
static int play_game(cb_table *t, const cb_rules *r, uint64_t key)
{
    cb_engine_opts o = {.struct_size = sizeof o, .key = key, .deal = key, .game = key, .first_bidder = -1,
                        .landlord = -1};
    char err[200];
    cb_engine *e = cb_engine_new(r, &o, err, sizeof err);
    if (!e) {
        printf("bench_seats: engine: %s\n", err);
        return -1;
    }
    int rc = 0;
    while (rc == 0 && cb_engine_phase(e) != CB_PHASE_OVER) {
        cb_view v;
        cb_decision d = {.struct_size = sizeof d};
        cb_engine_view(e, cb_engine_turn(e), 0, &v);
        bool bid = cb_engine_phase(e) == CB_PHASE_BID;
        int code = bid ? cb_decide_bid(t, &v, &d) : cb_decide_play(t, &v, &d);
        if (code < 0 || (bid ? cb_engine_bid(e, d.bid, err, sizeof err) : cb_engine_play(e, d.cards, err, sizeof err))) {
            printf("bench_seats: decision refused: %s\n", code < 0 ? cb_table_last_error(t) : err);
            rc = -1;
        }
    }
    cb_engine_free(e);
    return rc;
}

static int measure(const char *build, const char *tmp, const char *strategy, const char *params, const char *rules,
                   int ntables)
{
    char *path = g_build_filename(tmp, "seats.ini", NULL);
    char *text = g_strdup_printf("[shim]\nplugin_dir = %s/plugins\nbudget_ms = 600000\n[game]\nrules = %s\n"
                                 "[strategy.s]\nplugin = %s\n%s[seats]\n0 = s\n1 = s\n2 = s\n",
                                 build, rules, strategy, params);
    g_file_set_contents(path, text, -1, NULL);
    char err[512];
    cb_shim *shim = cb_shim_open(path, err, sizeof err);
    g_unlink(path);
    g_free(path);
    g_free(text);
    if (!shim) {
        printf("bench_seats: %s\n", err);
        return -1;
    }
    /* one table first, so what every table shares (the plugin's code and static tables, the
     * shim's own state) is not counted per seat */
    cb_table *warm = cb_table_new(shim, NULL, err, sizeof err);
    if (!warm || play_game(warm, cb_shim_rules(shim), 1) != 0) {
        printf("bench_seats: %s\n", warm ? "warm-up game failed" : err);
        return -1;
    }
    cb_table **t = g_new0(cb_table *, ntables);
    size_t before = heap_in_use();
    size_t after_new = 0;
    gint64 t0 = g_get_monotonic_time();
    for (int i = 0; i < ntables; i++) {
        t[i] = cb_table_new(shim, NULL, err, sizeof err);
        if (!t[i]) {
            printf("bench_seats: table %d: %s\n", i, err);
            return -1;
        }
    }
    after_new = heap_in_use();
    for (int i = 0; i < ntables; i++)
        if (play_game(t[i], cb_shim_rules(shim), 100 + (uint64_t)i) != 0)
            return -1;
    size_t after = heap_in_use();
    double secs = (g_get_monotonic_time() - t0) / 1e6;
    double seats = 3.0 * ntables;
    double per_new = (double)(after_new - before) / seats, per = (double)(after - before) / seats;
    printf("  %-9s %-6s %4d tables: %7.1f KB a seat when created, %7.1f KB after a whole game: "
           "%8.0f seats per GB (%.1f s)\n",
           strategy, rules, ntables, per_new / 1024, per / 1024, per > 0 ? (1024.0 * 1024 * 1024) / per : 0.0,
           secs);
    for (int i = 0; i < ntables; i++)
        cb_table_free(t[i]);
    cb_table_free(warm);
    g_free(t);
    cb_shim_free(shim);
    return 0;
}

int main(int argc, char **argv)
{
    int ntables = argc > 1 ? atoi(argv[1]) : 50;
    int iters = argc > 2 ? atoi(argv[2]) : 1000;
    if (ntables < 1 || iters < 1) {
        fprintf(stderr, "usage: bench_seats [TABLES] [ISMCTS_ITERATIONS]\n");
        return 2;
    }
    char *build = build_dir(argv[0]);
    char *tmp = g_dir_make_tmp("cbseats-XXXXXX", NULL);
    char *ism = g_strdup_printf("iterations = %d\n", iters);
    printf("bench_seats: heap kept per bot seat between decisions (in-process, glibc mallinfo2), %d tables "
           "per row, ismcts at %d iterations\n",
           ntables, iters);
    int rc = 0;
    const char *games[2] = {"pdk16", "ddz"};
    for (int g = 0; g < 2 && !rc; g++) {
        rc |= measure(build, tmp, "heuristic", "level = 6\n", games[g], ntables);
        rc |= measure(build, tmp, "ismcts", ism, games[g], ntables);
    }
    g_rmdir(tmp);
    g_free(tmp);
    g_free(ism);
    g_free(build);
    return rc ? 1 : 0;
}

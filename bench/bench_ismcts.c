/* cardbot ismcts benchmark: play-outs per second per core and decision times.
 *
 * usage: bench_ismcts [POSITIONS [SEED]]   (defaults 300 and 1)
 *
 * 1. Play-outs (plugin/common, no plugin): whole deals and the rest of deals from mid-game
 *    positions, played by the shared heuristic rollout configuration (cb_hcfg_rollout), by the
 *    lean rollout policy (plugin/common/rollout.h, "fast": ismcts's default) — both scoring
 *    every play exactly as ismcts runs them (rollout_exact 48) — by the lean policy at its own
 *    default ("fast-top4") and by uniform random legal plays, on one core. The unit the search spends is a play-out from a tree
 *    leaf, which is a mid-game position (reached here by the row's own policy, the random
 *    rows' by the heuristic).
 * 2. Decisions (build/<v>/plugins/ismcts.so, found next to this binary): POSITIONS positions
 *    per game taken from heuristic self-play deals at random points where the seat has a real
 *    choice (more than one legal play), decided by ismcts at its default budget, one thread
 *    and then two, plus one-thread rows with the play-outs of the heuristic itself
 *    (rollout = heuristic) for comparison. Prints wall time p50 / p99 / max, CPU time,
 *    iterations per second of CPU (playouts inside the real search) and how many decisions the
 *    exact endgame took.
 * Figures only: nothing here asserts. On a machine shared with other work, wall times include
 * preemption; the CPU-time columns do not.
 *
 * usage: bench_ismcts --stop [POSITIONS [SEED]]   (defaults 100 and 1)
 *
 * Halving's early stop (the key stop_z): the same positions (taken as in 2.) decided at the
 * default budget on one thread with stop_z = 0 (the reference: the whole budget) and 2, 2.5,
 * 3 (stop_min at its default), and once more at stop_z = 0 with the key seed = 1 (the noise
 * floor: the reference's agreement with itself under other worlds and play-outs). Per row,
 * over the decisions the reference searched: how many stopped early, the share answering the
 * reference's play, the iterations (mean, p50) and CPU ms per decision (mean, p50). The view's
 * seed is the same for the stop_z rows, so a search that stops is the reference's search cut
 * short: a different answer is the early stop's doing.
 */
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cardbot/bot.h"
#include "cardbot/game.h"
#include "../plugin/common/policy.h"
#include "../plugin/common/rollout.h"
#include "../plugin/ismcts/search.h"
#include "support/deals.h"

static double now_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void start_deal(cb_deal *g, const cb_rules *r, cb_rng *rng)
{
    cb_cards h[3], b;
    cbb_deal_random(rng, r, h, &b);
    bool ddz = r->game == CB_GAME_DDZ;
    if (ddz)
        h[0] |= b;
    cb_deal_init(g, r, h, -1, ddz ? 0 : -1, 1, ddz ? b : 0);
}

typedef struct rnd_user {
    cb_rng rng;
    cb_move *buf;
} rnd_user;

static int random_policy(void *user, const cb_deal *g, cb_move *out)
{
    rnd_user *u = user;
    cb_ctx ctx;
    cb_deal_ctx(g, &ctx);
    int n = cb_legal_moves(g->rules, &ctx, u->buf, CB_MOVES_CAP);
    if (n <= 0)
        return -1;
    if (n > CB_MOVES_CAP)
        n = CB_MOVES_CAP;
    *out = u->buf[cb_rng_below(&u->rng, (uint32_t)n)];
    return 0;
}

static void bench_playouts(const char *preset, uint64_t seed)
{
    cb_rules r;
    cb_rules_preset(preset, &r);
    cb_heur_agent a;
    memset(&a, 0, sizeof a);
    cb_hcfg_rollout(&a.cfg);
    a.cfg.exact_top = CB_HCFG_EXACT_L6; /* as ismcts runs it (rollout_exact) */
    cb_hws_init(&a.ws);
    rnd_user ru;
    cb_rng_seed(&ru.rng, seed);
    ru.buf = malloc(sizeof(cb_move) * CB_MOVES_CAP);
    cb_rollout ro, ro4;
    if (!ru.buf || cb_rollout_init(&ro) != 0 || cb_rollout_init(&ro4) != 0) {
        printf("out of memory\n");
        exit(1);
    }
    ro.exact_top = CB_HCFG_EXACT_L6; /* ismcts's default: every play scored exactly (bounded) */
    cb_rng rng;
    /* fast-top4: the lean policy's own default (exact min-hands for the 4 best pre-scores), the
     * play-outs ismcts ran before rollout_exact defaulted to 48 */
    static const char *const names[4] = {"heuristic", "fast", "fast-top4", "random"};
    for (int pol = 0; pol < 4; pol++) {
        for (int mid = 0; mid < 2; mid++) {
            cb_rng_seed(&rng, seed * 7 + (uint64_t)mid);
            cb_deal_policy p = pol == 0 ? cb_heur_deal_policy : pol <= 2 ? cb_rollout_deal_policy : random_policy;
            void *u = pol == 0 ? (void *)&a : pol == 1 ? (void *)&ro : pol == 2 ? (void *)&ro4 : (void *)&ru;
            cb_deal_policy pols[3] = {p, p, p};
            void *users[3] = {u, u, u};
            /* mid-game positions are reached by the row's own policy (so its caches are in the
             * same state as the heuristic row's always were), the random rows' by the
             * heuristic */
            cb_deal_policy ap = pol == 1 || pol == 2 ? cb_rollout_deal_policy : cb_heur_deal_policy;
            void *au = pol == 1 ? (void *)&ro : pol == 2 ? (void *)&ro4 : (void *)&a;
            cb_deal_policy hp[3] = {ap, ap, ap};
            void *hu[3] = {au, au, au};
            double cpu = 0;
            long steps = 0, n = 0;
            double t_end = now_s(CLOCK_MONOTONIC) + 3.0;
            while (now_s(CLOCK_MONOTONIC) < t_end) {
                cb_deal g;
                memset(&g, 0, sizeof g);
                start_deal(&g, &r, &rng);
                if (mid) {
                    /* advance to a random point of the first two thirds */
                    int stop = (int)cb_rng_below(&rng, 30) + 5;
                    while (g.winner < 0 && g.steps < stop) {
                        cb_move m;
                        if (hp[g.turn](hu[g.turn], &g, &m) != 0 || cb_deal_step(&g, &m, NULL, 0) < 0)
                            break;
                    }
                    if (g.winner >= 0)
                        continue;
                }
                int s0 = g.steps;
                double t0 = now_s(CLOCK_THREAD_CPUTIME_ID);
                cb_deal_run(&g, pols, users, 2000, NULL, 0);
                cpu += now_s(CLOCK_THREAD_CPUTIME_ID) - t0;
                steps += g.steps - s0;
                n++;
            }
            printf("%-6s %-9s %-14s %8ld %12.0f %10.2f %10.1f\n", preset, names[pol],
                   mid ? "from mid-game" : "whole deal", n, n / cpu, cpu / steps * 1e6, (double)steps / n);
            fflush(stdout);
        }
    }
    free(ru.buf);
    cb_rollout_free(&ro);
    cb_rollout_free(&ro4);
    cb_hws_free(&a.ws);
}

/* The decision positions of 2. and --stop: heuristic self-play (the rollout configuration)
 * from seeded deals; pos_init exits when memory runs out. */
typedef struct pos_gen {
    cb_heur_agent a;
    cb_rng rng;
    cb_play_rec *hist;
    cb_move *buf;
} pos_gen;

static void pos_init(pos_gen *P, uint64_t seed)
{
    memset(&P->a, 0, sizeof P->a);
    cb_hcfg_rollout(&P->a.cfg);
    cb_hws_init(&P->a.ws);
    cb_rng_seed(&P->rng, seed);
    P->hist = malloc(sizeof *P->hist * 1024);
    P->buf = malloc(sizeof(cb_move) * CB_MOVES_CAP);
    if (!P->hist || !P->buf) {
        printf("out of memory\n");
        exit(1);
    }
}

static void pos_free(pos_gen *P)
{
    free(P->buf);
    free(P->hist);
    cb_hws_free(&P->a.ws);
}

/* One position: self-play to a random point where the seat has a real choice. Returns false
 * when the deal ended first (draw another). */
static bool next_position(const cb_rules *r, pos_gen *P, cb_deal *g, cb_view *v)
{
    cb_heur_agent *a = &P->a;
    cb_rng *rng = &P->rng;
    cb_move *buf = P->buf;
    memset(g, 0, sizeof *g);
    g->hist = P->hist;
    g->hist_cap = 1024;
    start_deal(g, r, rng);
    int stop = (int)cb_rng_below(rng, r->game == CB_GAME_DDZ ? 50 : 40);
    while (g->winner < 0) {
        cb_ctx ctx;
        cb_deal_ctx(g, &ctx);
        int nl = cb_legal_moves(r, &ctx, buf, CB_MOVES_CAP);
        cb_move whole;
        bool real = nl > 1 && !cb_play_legal(r, &ctx, ctx.hand, &whole, NULL, 0);
        if (real && g->steps >= stop)
            break;
        cb_move m;
        if (cb_heur_deal_policy(a, g, &m) != 0 || cb_deal_step(g, &m, NULL, 0) < 0)
            break;
    }
    if (g->winner >= 0)
        return false;
    int bids[3] = {-1, -1, -1};
    if (r->game == CB_GAME_DDZ) {
        bids[0] = 1;
        bids[1] = bids[2] = 0;
    }
    cb_deal_view(g, bids, cb_rng_next(rng), v);
    v->budget_ms = 0;
    return true;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef struct plugin {
    void *so;
    const cb_bot *bot;
} plugin;

/* rollout: NULL for the plugin's default */
static void bench_decisions(const plugin *P, const char *preset, int positions, uint64_t seed, const char *threads,
                            const char *rollout)
{
    cb_rules r;
    cb_rules_preset(preset, &r);
    cb_param prm[2] = {{"threads", threads}, {"rollout", rollout}};
    char err[200] = "";
    void *inst = P->bot->create(prm, rollout ? 2 : 1, err, sizeof err);
    if (!inst) {
        printf("create: %s\n", err);
        return;
    }
    pos_gen pos;
    pos_init(&pos, seed);
    double *wall = malloc(sizeof(double) * (size_t)positions);
    double *cpu = malloc(sizeof(double) * (size_t)positions);
    int n = 0, endgames = 0, fallbacks = 0;
    double cpu_search = 0, sims = 0, slowest = 0;
    char slow_explain[sizeof(((cb_decision *)0)->explain)] = "";
    while (n < positions) {
        cb_deal g;
        cb_view v;
        if (!next_position(&r, &pos, &g, &v))
            continue;
        cb_decision d;
        memset(&d, 0, sizeof d);
        d.struct_size = sizeof d;
        double w0 = now_s(CLOCK_MONOTONIC), c0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
        int rc = P->bot->decide_play(inst, &v, &d);
        double w1 = now_s(CLOCK_MONOTONIC), c1 = now_s(CLOCK_PROCESS_CPUTIME_ID);
        if (rc != 0) {
            printf("decide_play failed\n");
            break;
        }
        cpu[n] = (c1 - c0) * 1e3;
        if (cpu[n] > slowest) {
            slowest = cpu[n];
            memcpy(slow_explain, d.explain, sizeof slow_explain);
        }
        wall[n++] = (w1 - w0) * 1e3;
        if (d.flags & CB_DEC_ENDGAME)
            endgames++;
        else if (strstr(d.explain, "heuristic"))
            fallbacks++;
        else {
            cpu_search += c1 - c0;
            sims += (double)d.simulations;
        }
    }
    qsort(wall, (size_t)n, sizeof wall[0], cmp_double);
    qsort(cpu, (size_t)n, sizeof cpu[0], cmp_double);
    int p99 = (int)((n - 1) * 0.99 + 0.5);
    char label[48];
    snprintf(label, sizeof label, "threads %s%s%s", threads, rollout ? " rollout=" : "", rollout ? rollout : "");
    printf("%-6s %-27s %6d %9.1f %9.1f %9.1f %9.1f %9.1f %12.0f %8d %9d\n", preset, label, n, wall[n / 2], wall[p99],
           wall[n - 1], cpu[n / 2], cpu[p99], cpu_search > 0 ? sims / cpu_search : 0, endgames, fallbacks);
    printf("       slowest (%.1f ms CPU): %s\n", slowest, slow_explain);
    fflush(stdout);
    P->bot->destroy(inst);
    free(wall);
    free(cpu);
    pos_free(&pos);
}

static double mean_of(const double *x, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    return n ? s / n : 0;
}

static double p50_of(double *x, int n)
{
    qsort(x, (size_t)n, sizeof x[0], cmp_double);
    return n ? x[n / 2] : 0;
}

/* The early stop against the whole budget on the same positions (see the usage above). The
 * last row is the whole budget again under another seed (the key seed): how often the
 * reference itself changes its play when only its luck changes — the floor under "same %". */
enum { NSTOP = 5 };
static void bench_stop(const plugin *P, const char *preset, int positions, uint64_t seed)
{
    static const char *const zs[NSTOP] = {"0", "2", "2.5", "3", "0"};
    static const char *const label[NSTOP] = {"stop_z=0", "stop_z=2", "stop_z=2.5", "stop_z=3", "0 seed+1"};
    cb_rules r;
    cb_rules_preset(preset, &r);
    void *inst[NSTOP];
    for (int k = 0; k < NSTOP; k++) {
        cb_param prm[2] = {{"stop_z", zs[k]}, {"seed", "1"}};
        char err[200] = "";
        inst[k] = P->bot->create(prm, k == NSTOP - 1 ? 2 : 1, err, sizeof err);
        if (!inst[k]) {
            printf("create: %s\n", err);
            exit(1);
        }
    }
    pos_gen pos;
    pos_init(&pos, seed);
    double *iters[NSTOP], *cpu[NSTOP];
    int same[NSTOP] = {0}, stopped[NSTOP] = {0};
    for (int k = 0; k < NSTOP; k++) {
        iters[k] = malloc(sizeof(double) * (size_t)positions);
        cpu[k] = malloc(sizeof(double) * (size_t)positions);
    }
    int n = 0, tried = 0;
    while (tried < positions) {
        cb_deal g;
        cb_view v;
        if (!next_position(&r, &pos, &g, &v))
            continue;
        tried++;
        cb_decision d[NSTOP];
        double c[NSTOP];
        for (int k = 0; k < NSTOP; k++) {
            memset(&d[k], 0, sizeof d[k]);
            d[k].struct_size = sizeof d[k];
            double c0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
            if (P->bot->decide_play(inst[k], &v, &d[k]) != 0) {
                printf("decide_play failed\n");
                exit(1);
            }
            c[k] = (now_s(CLOCK_PROCESS_CPUTIME_ID) - c0) * 1e3;
        }
        /* the searched decisions (not the endgame's, not a fallback's) */
        if (strncmp(d[0].explain, "ismcts v=", 9) != 0)
            continue;
        for (int k = 0; k < NSTOP; k++) {
            iters[k][n] = (double)d[k].simulations;
            cpu[k][n] = c[k];
            same[k] += d[k].cards == d[0].cards;
            stopped[k] += d[k].simulations < d[0].simulations;
        }
        n++;
    }
    for (int k = 0; k < NSTOP; k++) {
        double im = mean_of(iters[k], n), cm = mean_of(cpu[k], n);
        printf("%-6s %-11s %6d %8d %9.1f %10.0f %10.0f %9.1f %9.1f\n", preset, label[k], n, stopped[k],
               n ? 100.0 * same[k] / n : 0, im, p50_of(iters[k], n), cm, p50_of(cpu[k], n));
    }
    fflush(stdout);
    for (int k = 0; k < NSTOP; k++) {
        P->bot->destroy(inst[k]);
        free(iters[k]);
        free(cpu[k]);
    }
    pos_free(&pos);
}

static bool open_plugin(const char *argv0, plugin *P)
{
    char path[PATH_MAX], exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) {
        snprintf(exe, sizeof exe, "%s", argv0);
        len = (ssize_t)strlen(exe);
    }
    exe[len] = 0;
    snprintf(path, sizeof path, "%s/../plugins/ismcts.so", dirname(exe));
    P->so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!P->so) {
        printf("\n(no plugin: %s)\n", dlerror());
        return false;
    }
    cb_plugin_entry_fn entry = (cb_plugin_entry_fn)dlsym(P->so, CB_PLUGIN_ENTRY);
    if (!entry) {
        printf("\n(no entry point in %s)\n", path);
        return false;
    }
    P->bot = entry();
    return true;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--stop") == 0) {
        int positions = argc > 2 ? atoi(argv[2]) : 100;
        uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 0) : 1;
        if (positions < 1) {
            fprintf(stderr, "usage: bench_ismcts --stop [POSITIONS [SEED]]\n");
            return 2;
        }
        plugin P;
        if (!open_plugin(argv[0], &P))
            return 0;
        printf("cardbot ismcts early stop: seed %llu, %d positions per game, default budget, 1 thread\n",
               (unsigned long long)seed, positions);
        printf("(searched: decisions the reference searched; stopped: used fewer iterations; same %%: the\n"
               "reference's play; iterations and CPU ms per decision, mean and p50)\n");
        printf("%-6s %-11s %6s %8s %9s %10s %10s %9s %9s\n", "game", "", "search", "stopped", "same %",
               "iter mean", "iter p50", "cpu mean", "cpu p50");
        bench_stop(&P, "pdk16", positions, seed);
        bench_stop(&P, "ddz", positions, seed);
        dlclose(P.so);
        return 0;
    }
    int positions = argc > 1 ? atoi(argv[1]) : 300;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
    if (positions < 1) {
        fprintf(stderr, "usage: bench_ismcts [POSITIONS [SEED]] | --stop [POSITIONS [SEED]]\n");
        return 2;
    }
    printf("cardbot ismcts benchmark: seed %llu, %d decision positions per game\n\n", (unsigned long long)seed,
           positions);
    printf("Play-outs on one core (3 s per row; CPU time of this thread):\n");
    printf("%-6s %-9s %-14s %8s %12s %10s %10s\n", "game", "policy", "start", "n", "playouts/s", "us/step",
           "steps");
    bench_playouts("pdk16", seed);
    bench_playouts("ddz", seed);

    plugin P;
    if (!open_plugin(argv[0], &P))
        return 0;
    printf("\nDecisions at the default budget (positions with a real choice; wall ms p50 / p99 / max; CPU ms\n"
           "p50 / p99 over all threads; iterations per CPU second inside searches = play-outs/s/core;\n"
           "decisions taken by the exact endgame; heuristic fallbacks):\n");
    printf("%-6s %-27s %6s %9s %9s %9s %9s %9s %12s %8s %9s\n", "game", "", "n", "p50 ms", "p99 ms", "max ms",
           "cpu p50", "cpu p99", "iter/cpu-s", "endgame", "fallback");
    bench_decisions(&P, "pdk16", positions, seed, "1", NULL);
    bench_decisions(&P, "ddz", positions, seed, "1", NULL);
    bench_decisions(&P, "pdk16", positions, seed, "2", NULL);
    bench_decisions(&P, "ddz", positions, seed, "2", NULL);
    bench_decisions(&P, "pdk16", positions, seed, "1", "heuristic");
    bench_decisions(&P, "ddz", positions, seed, "1", "heuristic");
    dlclose(P.so);
    return 0;
}

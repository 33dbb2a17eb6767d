/* cardbot bench — does ismcts keep an operator's time_ms? The whole decision's wall time, from
 * the call to the answer (belief pool, endgame, search, the answer and freeing the decision's
 * memory), measured around the plugin's decide_bid / decide_play.
 *
 *   bench_deadline [GAMES [SEED [TIME_MS [THREADS]]]]   (defaults 30, 1, 50, 1)
 *
 * For pdk16 and ddz: GAMES whole games (bidding included) through core's engine (keys SEED+g),
 * ismcts with time_ms = TIME_MS at seat g % 3 and the heuristic (level 6) at the other two,
 * both plugins loaded from the build directory ($CB_BUILD, else the directory above this
 * binary) as a host loads them; the views carry no budget_ms, so time_ms alone limits the
 * decision. Rows: every ismcts decision; those that searched (the explanation starts "ismcts"
 * or "ENDGAME": not forced, not out in one play, not a fallback); the bids. Columns: count, wall
 * time p50 / p90 / p99 / max, CPU time p50 / p99 (the process's: one search thread), and how
 * many decisions took longer than TIME_MS and than TIME_MS + 20%. The load average before and
 * after is printed: on a shared machine wall times include waiting for a core, CPU times do not.
 * Figures only: nothing is asserted.
 */
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cardbot/bot.h"
#include "cardbot/game.h"

typedef struct plugin {
    void *so;
    const cb_bot *bot;
} plugin;

static int plugin_open(const char *build, const char *name, plugin *p)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/plugins/%s.so", build, name);
    p->so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    const cb_bot *(*entry)(void) = NULL;
    if (p->so)
        *(void **)&entry = dlsym(p->so, CB_PLUGIN_ENTRY);
    if (!entry) {
        printf("bench_deadline: %s: %s\n", path, dlerror());
        return -1;
    }
    p->bot = entry();
    return 0;
}

static double now_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void loadavg(char *buf, size_t len)
{
    snprintf(buf, len, "?");
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f)
        return;
    if (fgets(buf, (int)len, f))
        buf[strcspn(buf, "\n")] = 0;
    fclose(f);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* nearest rank: the smallest value with at least q of the sample at or below it */
static double quantile(const double *sorted, int n, double q)
{
    int i = (int)ceil(q * n) - 1;
    return sorted[i < 0 ? 0 : i >= n ? n - 1 : i];
}

typedef struct sample {
    double *wall, *cpu;
    int n, cap;
} sample;

static void add(sample *s, double wall, double cpu)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 256;
        s->wall = realloc(s->wall, sizeof(double) * (size_t)s->cap);
        s->cpu = realloc(s->cpu, sizeof(double) * (size_t)s->cap);
        if (!s->wall || !s->cpu) {
            printf("bench_deadline: out of memory\n");
            exit(1);
        }
    }
    s->wall[s->n] = wall;
    s->cpu[s->n++] = cpu;
}

static void row(const char *game, const char *what, sample *s, int time_ms)
{
    if (s->n == 0) {
        printf("%-6s %-9s %6d\n", game, what, 0);
        return;
    }
    qsort(s->wall, (size_t)s->n, sizeof s->wall[0], cmp_double);
    qsort(s->cpu, (size_t)s->n, sizeof s->cpu[0], cmp_double);
    int over = 0, over20 = 0;
    for (int i = 0; i < s->n; i++) {
        over += s->wall[i] > time_ms;
        over20 += s->wall[i] > time_ms * 1.2;
    }
    printf("%-6s %-9s %6d %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %7d %7d\n", game, what, s->n, quantile(s->wall, s->n, 0.5),
           quantile(s->wall, s->n, 0.9), quantile(s->wall, s->n, 0.99), s->wall[s->n - 1], quantile(s->cpu, s->n, 0.5),
           quantile(s->cpu, s->n, 0.99), over, over20);
}

/* GAMES games of one preset; 0 or -1 (printed). */
static int run(const plugin *ism, const plugin *heur, const char *preset, int games, uint64_t seed, int time_ms,
               int threads)
{
    cb_rules r;
    if (cb_rules_preset(preset, &r) != 0)
        return -1;
    char tm[16], th[16], err[200] = "";
    snprintf(tm, sizeof tm, "%d", time_ms);
    snprintf(th, sizeof th, "%d", threads);
    cb_param ip[2] = {{"time_ms", tm}, {"threads", th}};
    cb_param hp[1] = {{"level", "6"}};
    void *is = ism->bot->create(ip, 2, err, sizeof err);
    void *h = heur->bot->create(hp, 1, err, sizeof err);
    if (!is || !h) {
        printf("bench_deadline: create: %s\n", err);
        return -1;
    }
    sample all = {0}, searched = {0}, bids = {0};
    int rc = 0;
    for (int g = 0; g < games && rc == 0; g++) {
        uint64_t key = seed + (uint64_t)g;
        cb_engine_opts o = {.struct_size = sizeof o, .key = key, .deal = key, .game = key, .first_bidder = -1,
                            .landlord = -1};
        cb_engine *e = cb_engine_new(&r, &o, err, sizeof err);
        if (!e) {
            printf("bench_deadline: engine: %s\n", err);
            return -1;
        }
        int me = g % 3;
        while (rc == 0 && cb_engine_phase(e) != CB_PHASE_OVER) {
            int seat = cb_engine_turn(e);
            cb_view v;
            cb_engine_view(e, seat, 0, &v); /* no budget_ms: time_ms alone */
            cb_decision d;
            memset(&d, 0, sizeof d);
            d.struct_size = sizeof d;
            bool bid = cb_engine_phase(e) == CB_PHASE_BID;
            const cb_bot *b = seat == me ? ism->bot : heur->bot;
            void *inst = seat == me ? is : h;
            double w0 = now_ms(CLOCK_MONOTONIC), c0 = now_ms(CLOCK_PROCESS_CPUTIME_ID);
            int code = bid ? b->decide_bid(inst, &v, &d) : b->decide_play(inst, &v, &d);
            double w = now_ms(CLOCK_MONOTONIC) - w0, c = now_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
            if (code != 0) {
                printf("bench_deadline: %s seat %d: decision failed\n", preset, seat);
                rc = -1;
                break;
            }
            if (seat == me) {
                add(&all, w, c);
                if (bid)
                    add(&bids, w, c);
                else if (strncmp(d.explain, "ismcts", 6) == 0 || strncmp(d.explain, "ENDGAME", 7) == 0)
                    add(&searched, w, c);
            }
            if (bid ? cb_engine_bid(e, d.bid, err, sizeof err) : cb_engine_play(e, d.cards, err, sizeof err)) {
                printf("bench_deadline: %s: refused: %s\n", preset, err);
                rc = -1;
            }
        }
        cb_engine_free(e);
    }
    if (rc == 0) {
        row(preset, "all", &all, time_ms);
        row(preset, "searched", &searched, time_ms);
        row(preset, "bids", &bids, time_ms);
    }
    free(all.wall);
    free(all.cpu);
    free(searched.wall);
    free(searched.cpu);
    free(bids.wall);
    free(bids.cpu);
    ism->bot->destroy(is);
    heur->bot->destroy(h);
    return rc;
}

int main(int argc, char **argv)
{
    int games = argc > 1 ? atoi(argv[1]) : 30;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
    int time_ms = argc > 3 ? atoi(argv[3]) : 50;
    int threads = argc > 4 ? atoi(argv[4]) : 1;
    if (games < 1 || time_ms < 1 || threads < 1 || threads > 64) {
        fprintf(stderr, "usage: bench_deadline [GAMES [SEED [TIME_MS [THREADS]]]]\n");
        return 2;
    }
    char build[PATH_MAX];
    const char *env = getenv("CB_BUILD");
    if (env && *env) {
        snprintf(build, sizeof build, "%s", env);
    } else {
        char exe[PATH_MAX];
        ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (k <= 0)
            snprintf(exe, sizeof exe, "%s", argv[0]);
        else
            exe[k] = 0;
        snprintf(build, sizeof build, "%s/..", dirname(exe)); /* build/<v>/bench/.. */
    }
    plugin ism, heur;
    if (plugin_open(build, "ismcts", &ism) != 0 || plugin_open(build, "heuristic", &heur) != 0)
        return 1;
    char la[128];
    loadavg(la, sizeof la);
    printf("bench_deadline: ismcts time_ms = %d, threads %d, against two heuristics (level 6); seed %llu, %d games "
           "per game; plugins from %s\nload average before: %s\n",
           time_ms, threads, (unsigned long long)seed, games, build, la);
    printf("%-6s %-9s %6s %8s %8s %8s %8s %8s %8s %7s %7s\n", "game", "decisions", "n", "p50 ms", "p90 ms", "p99 ms",
           "max ms", "cpu p50", "cpu p99", ">time", ">+20%");
    int rc = 0;
    static const char *presets[] = {"pdk16", "ddz"};
    for (int i = 0; i < 2 && rc == 0; i++) {
        rc = run(&ism, &heur, presets[i], games, seed, time_ms, threads);
        fflush(stdout);
    }
    loadavg(la, sizeof la);
    printf("load average after: %s\n", la);
    return rc ? 1 : 0;
}

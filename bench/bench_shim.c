/* cardbot bench — the shim's in-process overhead per decision.
 *
 * The same views are decided twice: by the "lowest" test plugin called directly (what a host
 * without the shim would do: clear a cb_decision, call decide_play) and through
 * cb_decide_play (view checks, generation check, timing, answer validation with
 * cb_play_legal, statistics). The difference is the shim's overhead. The views come from
 * whole pdk16 games played by "lowest" at all seats, so leads and follows, early and late
 * positions, all appear in their natural mix.
 *
 * Passes alternate (direct, shim, direct, ...) so a frequency change hits both; the median
 * pass is reported with the spread. Figures only: never asserts on time.
 *
 * Build dir: $CB_BUILD, else the directory above this binary (build/<v>/bench/..).
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "cardbot/shim.h"

#define NGAMES 200
#define MAXHIST 160
#define NPASSES 15

typedef struct game {
    cb_play_rec hist[MAXHIST];
} game;

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t rng_next(rng *g)
{
    uint64_t z = (g->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Deal one pdk16 game and let bot play it at all seats, keeping every view. */
static int play_game(const cb_rules *r, const cb_bot *bot, void *inst, rng *g, game *gm,
                     cb_view *views, int cap)
{
    int ids[CB_NCARDS], n = 0;
    for (int id = 0; id < CB_NCARDS; id++)
        if (r->deck & cb_card_bit(id))
            ids[n++] = id;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(rng_next(g) % (uint64_t)(i + 1));
        int t = ids[i];
        ids[i] = ids[j];
        ids[j] = t;
    }
    cb_cards hand[3] = { 0, 0, 0 };
    for (int i = 0; i < n; i++)
        hand[i % 3] |= cb_card_bit(ids[i]);
    int cur = 0;
    for (int s = 0; s < 3; s++)
        if (hand[s] & 1u)
            cur = s;
    int first = cur, nh = 0, nv = 0, table_seat = -1;
    cb_cards table = 0;
    while (nv < cap && nh < MAXHIST) {
        cb_view *v = &views[nv++];
        memset(v, 0, sizeof *v);
        v->struct_size = sizeof *v;
        v->abi_version = CB_ABI_VERSION;
        v->rules = r;
        v->phase = CB_PHASE_PLAY;
        v->seat = cur;
        v->nseats = 3;
        v->first_seat = first;
        v->hand = hand[cur];
        for (int s = 0; s < 3; s++) {
            v->cards_left[s] = cb_cards_size(hand[s]);
            v->bids[s] = 0;
        }
        v->landlord = -1;
        v->history = gm->hist;
        v->nhistory = nh;
        v->table = table;
        v->table_seat = table_seat;
        v->budget_ms = 1000;
        v->seed = rng_next(g);
        cb_decision d;
        memset(&d, 0, sizeof d);
        d.struct_size = sizeof d;
        if (bot->decide_play(inst, v, &d) != 0)
            return -1;
        gm->hist[nh].seat = cur;
        gm->hist[nh++].cards = d.cards;
        if (d.cards) {
            hand[cur] &= ~d.cards;
            table = d.cards;
            table_seat = cur;
            if (!hand[cur])
                break;
        }
        cur = (cur + 1) % 3;
        if (cur == table_seat) {
            table = 0;
            table_seat = -1;
        }
    }
    return nv;
}

int main(void)
{
    char build[PATH_MAX];
    const char *env = getenv("CB_BUILD");
    if (env && *env) {
        if (!realpath(env, build)) {
            printf("bench_shim: no build directory %s\n", env);
            return 1;
        }
    } else {
        char self[PATH_MAX];
        ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
        if (k <= 0) {
            printf("bench_shim: set CB_BUILD\n");
            return 1;
        }
        self[k] = '\0';
        char *d1 = g_path_get_dirname(self), *d2 = g_path_get_dirname(d1);
        snprintf(build, sizeof build, "%s", d2);
        g_free(d1);
        g_free(d2);
    }
    char *tplugs = g_build_filename(build, "tests", "plugins", NULL);
    char *lowest = g_build_filename(tplugs, "lowest.so", NULL);
    char *shimso = g_build_filename(build, "libcardbot-shim.so", NULL);
    if (!g_file_test(lowest, G_FILE_TEST_EXISTS) || !g_file_test(shimso, G_FILE_TEST_EXISTS)) {
        printf("bench_shim: skipped: needs %s and %s (make test builds the test plugins)\n",
               shimso, lowest);
        return 0;
    }

    void *sdl = dlopen(shimso, RTLD_NOW | RTLD_LOCAL);
    void *pdl = dlopen(lowest, RTLD_NOW | RTLD_LOCAL);
    if (!sdl || !pdl) {
        printf("bench_shim: %s\n", dlerror());
        return 1;
    }
    cb_shim *(*shim_open)(const char *, char *, size_t);
    void (*shim_free)(cb_shim *);
    cb_table *(*table_new)(cb_shim *, const char *, char *, size_t);
    void (*table_free)(cb_table *);
    int (*decide_play)(cb_table *, const cb_view *, cb_decision *);
    const cb_rules *(*shim_rules)(const cb_shim *);
    cb_plugin_entry_fn entry;
    void *sym;
#define SYM(dl, name, var)                                                                     \
    do {                                                                                       \
        if (!(sym = dlsym(dl, name))) {                                                        \
            printf("bench_shim: no %s\n", name);                                               \
            return 1;                                                                          \
        }                                                                                      \
        memcpy(&var, &sym, sizeof sym);                                                        \
    } while (0)
    SYM(sdl, "cb_shim_open", shim_open);
    SYM(sdl, "cb_shim_free", shim_free);
    SYM(sdl, "cb_table_new", table_new);
    SYM(sdl, "cb_table_free", table_free);
    SYM(sdl, "cb_decide_play", decide_play);
    SYM(sdl, "cb_shim_rules", shim_rules);
    SYM(pdl, CB_PLUGIN_ENTRY, entry);
    const cb_bot *bot = entry();

    char *tmp = g_dir_make_tmp("cbbench-XXXXXX", NULL);
    char *conf = g_build_filename(tmp, "bench.ini", NULL);
    char *text = g_strdup_printf("[shim]\nplugin_dir = %s\nbudget_ms = 60000\n[game]\nrules = pdk16\n"
                                 "[strategy.lo]\nplugin = lowest\n[seats]\n0 = lo\n1 = lo\n2 = lo\n",
                                 tplugs);
    g_file_set_contents(conf, text, -1, NULL);
    char err[1024];
    cb_shim *shim = shim_open(conf, err, sizeof err);
    if (!shim) {
        printf("bench_shim: %s\n", err);
        return 1;
    }
    cb_table *table = table_new(shim, NULL, err, sizeof err);
    if (!table) {
        printf("bench_shim: %s\n", err);
        return 1;
    }
    const cb_rules *r = shim_rules(shim);
    char perr[256];
    void *inst = bot->create(NULL, 0, perr, sizeof perr);

    /* the views of NGAMES whole games */
    game *games = g_new0(game, NGAMES);
    int cap = NGAMES * MAXHIST, nv = 0;
    cb_view *views = g_new0(cb_view, cap);
    rng g = { 20240601u };
    for (int i = 0; i < NGAMES; i++) {
        int k = play_game(r, bot, inst, &g, &games[i], views + nv, cap - nv);
        if (k < 0) {
            printf("bench_shim: the plugin failed while dealing games\n");
            return 1;
        }
        nv += k;
    }
    int leads = 0;
    for (int i = 0; i < nv; i++)
        leads += views[i].table == 0;

    /* warm up, and check that every shim answer is the plugin's own */
    cb_decision d;
    for (int i = 0; i < nv; i++) {
        int rc = decide_play(table, &views[i], &d);
        if (rc != CB_OK) {
            printf("bench_shim: view %d: shim answered %d\n", i, rc);
            return 1;
        }
    }

    uint64_t tdir[NPASSES], tshim[NPASSES], sink = 0;
    for (int p = 0; p < NPASSES; p++) {
        uint64_t t0 = now_ns();
        for (int i = 0; i < nv; i++) {
            memset(&d, 0, sizeof d);
            d.struct_size = sizeof d;
            bot->decide_play(inst, &views[i], &d);
            sink += d.cards;
        }
        uint64_t t1 = now_ns();
        for (int i = 0; i < nv; i++) {
            decide_play(table, &views[i], &d);
            sink += d.cards;
        }
        uint64_t t2 = now_ns();
        tdir[p] = t1 - t0;
        tshim[p] = t2 - t1;
    }
    uint64_t diff[NPASSES];
    for (int p = 0; p < NPASSES; p++)
        diff[p] = tshim[p] > tdir[p] ? tshim[p] - tdir[p] : 0;
    qsort(tdir, NPASSES, sizeof tdir[0], cmp_u64);
    qsort(tshim, NPASSES, sizeof tshim[0], cmp_u64);
    qsort(diff, NPASSES, sizeof diff[0], cmp_u64);
    double n = nv;
    printf("bench_shim: %d decisions per pass (%d leads, %d follows) from %d pdk16 games, "
           "%d passes, plugin 'lowest'\n", nv, leads, nv - leads, NGAMES, NPASSES);
    printf("  direct plugin call   %7.1f ns/decision (median; min %.1f, max %.1f)\n",
           tdir[NPASSES / 2] / n, tdir[0] / n, tdir[NPASSES - 1] / n);
    printf("  through the shim     %7.1f ns/decision (median; min %.1f, max %.1f)\n",
           tshim[NPASSES / 2] / n, tshim[0] / n, tshim[NPASSES - 1] / n);
    printf("  shim overhead        %7.1f ns/decision (median of per-pass differences; "
           "min %.1f, max %.1f; target <= 300)\n",
           diff[NPASSES / 2] / n, diff[0] / n, diff[NPASSES - 1] / n);
    if (sink == 42)
        printf(" \n");

    bot->destroy(inst);
    table_free(table);
    shim_free(shim);
    g_unlink(conf);
    g_rmdir(tmp);
    g_free(views);
    g_free(games);
    g_free(text);
    g_free(conf);
    g_free(tmp);
    g_free(shimso);
    g_free(lowest);
    g_free(tplugs);
    return 0;
}

/* cardbot bench — what process isolation costs per decision, against in-process.
 *
 * The same views (every decision of NGAMES pdk16 games played by "lowest" at all seats, so
 * leads and follows, short and long histories in their natural mix) are decided through
 * cb_decide_play by two tables: one of a shim with isolation = inproc, one with isolation =
 * process (a request frame written to the seat's worker, the worker decides, a reply frame
 * read back, with ppoll() waits on both sides). Passes alternate (inproc, process, ...) so a
 * frequency change hits both; medians of per-pass times, min and max are printed. Also the
 * cost of starting a worker (fork + create() + hello, from cb_table_new / cb_table_free of a
 * three-seat table) and, when the heuristic plugin is built, the same comparison for it.
 * Figures only: never asserts on time.
 *
 * Expect two regimes: a request and its reply are two process wakeups, which cost little when
 * host and worker share a CPU (taskset -c 0: about 7 us per decision on the 2-vCPU build VM)
 * and a lot more when each wakeup lands on an idle CPU that has to wake first (the same VM
 * unpinned: between 7 and about 40 us from run to run). The min column shows the cheap one.
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

#define NGAMES 100
#define MAXHIST 160
#define NPASSES 11
#define NSTARTS 30

typedef struct game {
    cb_play_rec hist[MAXHIST];
} game;

typedef struct api {
    cb_shim *(*shim_open)(const char *, char *, size_t);
    void (*shim_free)(cb_shim *);
    cb_table *(*table_new)(cb_shim *, const char *, char *, size_t);
    void (*table_free)(cb_table *);
    int (*decide_play)(cb_table *, const cb_view *, cb_decision *);
    const cb_rules *(*shim_rules)(const cb_shim *);
} api;

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
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

/* Deal one pdk16 game and play it through table t at all seats, keeping every view. */
static int play_game(const api *A, cb_table *t, const cb_rules *r, uint64_t *g, game *gm,
                     cb_view *views, int cap)
{
    int ids[CB_NCARDS], n = 0;
    for (int id = 0; id < CB_NCARDS; id++)
        if (r->deck & cb_card_bit(id))
            ids[n++] = id;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(rng_next(g) % (uint64_t)(i + 1));
        int x = ids[i];
        ids[i] = ids[j];
        ids[j] = x;
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
        v->seed = rng_next(g);
        cb_decision d;
        if (A->decide_play(t, v, &d) != CB_OK)
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

static cb_shim *open_conf(const api *A, const char *tmp, const char *name, const char *text)
{
    char *path = g_build_filename(tmp, name, NULL);
    g_file_set_contents(path, text, -1, NULL);
    char err[1024];
    cb_shim *s = A->shim_open(path, err, sizeof err);
    if (!s)
        printf("bench_isolation: %s\n", err);
    g_unlink(path);
    g_free(path);
    return s;
}

/* Inproc vs process for one strategy group over the views; prints the figures. */
static int compare(const api *A, const char *tmp, const char *label, const char *tplugs,
                   const char *group, const cb_view *views, int nv)
{
    char *ti = g_strdup_printf("[shim]\nplugin_dir = %s\nbudget_ms = 60000\n[game]\nrules = pdk16\n"
                               "%s[seats]\n0 = x\n1 = x\n2 = x\n", tplugs, group);
    char *tp = g_strdup_printf("[shim]\nplugin_dir = %s\nbudget_ms = 60000\nisolation = process\n"
                               "[game]\nrules = pdk16\n%s[seats]\n0 = x\n1 = x\n2 = x\n", tplugs, group);
    cb_shim *si = open_conf(A, tmp, "inproc.ini", ti), *sp = open_conf(A, tmp, "process.ini", tp);
    g_free(ti);
    g_free(tp);
    if (!si || !sp)
        return -1;
    char err[1024];
    cb_table *t[2] = { A->table_new(si, NULL, err, sizeof err), A->table_new(sp, NULL, err, sizeof err) };
    if (!t[0] || !t[1]) {
        printf("bench_isolation: %s\n", err);
        return -1;
    }
    cb_decision d;
    uint64_t sink = 0;
    for (int m = 0; m < 2; m++) /* warm up; every answer must be the plugin's own */
        for (int i = 0; i < nv; i++)
            if (A->decide_play(t[m], &views[i], &d) != CB_OK) {
                printf("bench_isolation: %s: view %d: not the plugin's answer\n", label, i);
                return -1;
            }
    uint64_t tm[2][NPASSES], diff[NPASSES];
    for (int p = 0; p < NPASSES; p++) {
        for (int m = 0; m < 2; m++) {
            uint64_t t0 = now_ns();
            for (int i = 0; i < nv; i++) {
                A->decide_play(t[m], &views[i], &d);
                sink += d.cards;
            }
            tm[m][p] = now_ns() - t0;
        }
        diff[p] = tm[1][p] > tm[0][p] ? tm[1][p] - tm[0][p] : 0;
    }
    qsort(tm[0], NPASSES, sizeof tm[0][0], cmp_u64);
    qsort(tm[1], NPASSES, sizeof tm[1][0], cmp_u64);
    qsort(diff, NPASSES, sizeof diff[0], cmp_u64);
    double n = nv;
    printf("  %s: %d decisions per pass x %d passes = %d per mode\n", label, nv, NPASSES, nv * NPASSES);
    printf("    inproc             %9.1f ns/decision (median; min %.1f, max %.1f)\n",
           tm[0][NPASSES / 2] / n, tm[0][0] / n, tm[0][NPASSES - 1] / n);
    printf("    process            %9.1f ns/decision (median; min %.1f, max %.1f)\n",
           tm[1][NPASSES / 2] / n, tm[1][0] / n, tm[1][NPASSES - 1] / n);
    printf("    isolation overhead %9.1f ns/decision (median of per-pass differences; min %.1f, max %.1f)\n",
           diff[NPASSES / 2] / n, diff[0] / n, diff[NPASSES - 1] / n);
    if (sink == 42)
        printf(" \n");
    A->table_free(t[0]);
    A->table_free(t[1]);

    /* starting workers: a table of three seats, new + free */
    uint64_t st[NSTARTS];
    for (int k = 0; k < NSTARTS; k++) {
        uint64_t t0 = now_ns();
        cb_table *x = A->table_new(sp, NULL, err, sizeof err);
        uint64_t t1 = now_ns();
        A->table_free(x);
        uint64_t t2 = now_ns();
        st[k] = (t1 - t0) / 3 + ((t2 - t1) / 3 << 32);
    }
    uint64_t s_new[NSTARTS], s_free[NSTARTS];
    for (int k = 0; k < NSTARTS; k++) {
        s_new[k] = st[k] & 0xFFFFFFFFu;
        s_free[k] = st[k] >> 32;
    }
    qsort(s_new, NSTARTS, sizeof s_new[0], cmp_u64);
    qsort(s_free, NSTARTS, sizeof s_free[0], cmp_u64);
    printf("    worker start       %9.1f us (fork + create + hello; median of %d, min %.1f, max %.1f)\n",
           s_new[NSTARTS / 2] / 1e3, NSTARTS * 3, s_new[0] / 1e3, s_new[NSTARTS - 1] / 1e3);
    printf("    worker stop        %9.1f us (EOF, exit, reap; median of %d, min %.1f, max %.1f)\n",
           s_free[NSTARTS / 2] / 1e3, NSTARTS * 3, s_free[0] / 1e3, s_free[NSTARTS - 1] / 1e3);
    A->shim_free(si);
    A->shim_free(sp);
    return 0;
}

int main(void)
{
    char build[PATH_MAX];
    const char *env = getenv("CB_BUILD");
    if (env && *env) {
        if (!realpath(env, build)) {
            printf("bench_isolation: no build directory %s\n", env);
            return 1;
        }
    } else {
        char self[PATH_MAX];
        ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
        if (k <= 0) {
            printf("bench_isolation: set CB_BUILD\n");
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
    char *heur = g_build_filename(build, "plugins", "heuristic.so", NULL);
    char *shimso = g_build_filename(build, "libcardbot-shim.so", NULL);
    if (!g_file_test(lowest, G_FILE_TEST_EXISTS) || !g_file_test(shimso, G_FILE_TEST_EXISTS)) {
        printf("bench_isolation: skipped: needs %s and %s (make test builds the test plugins)\n",
               shimso, lowest);
        return 0;
    }
    void *sdl = dlopen(shimso, RTLD_NOW | RTLD_LOCAL);
    if (!sdl) {
        printf("bench_isolation: %s\n", dlerror());
        return 1;
    }
    api A;
    void *sym;
#define SYM(name, var)                                                                         \
    do {                                                                                       \
        if (!(sym = dlsym(sdl, name))) {                                                       \
            printf("bench_isolation: no %s\n", name);                                          \
            return 1;                                                                          \
        }                                                                                      \
        memcpy(&A.var, &sym, sizeof sym);                                                      \
    } while (0)
    SYM("cb_shim_open", shim_open);
    SYM("cb_shim_free", shim_free);
    SYM("cb_table_new", table_new);
    SYM("cb_table_free", table_free);
    SYM("cb_decide_play", decide_play);
    SYM("cb_shim_rules", shim_rules);

    char *tmp = g_dir_make_tmp("cbbenchiso-XXXXXX", NULL);
    char *gen = g_strdup_printf("[shim]\nplugin_dir = %s\nbudget_ms = 60000\n[game]\nrules = pdk16\n"
                                "[strategy.lo]\nplugin = lowest\n[seats]\n0 = lo\n1 = lo\n2 = lo\n", tplugs);
    cb_shim *gs = open_conf(&A, tmp, "gen.ini", gen);
    g_free(gen);
    if (!gs)
        return 1;
    char err[1024];
    cb_table *gt = A.table_new(gs, NULL, err, sizeof err);
    if (!gt) {
        printf("bench_isolation: %s\n", err);
        return 1;
    }
    game *games = g_new0(game, NGAMES);
    int cap = NGAMES * MAXHIST, nv = 0;
    cb_view *views = g_new0(cb_view, cap);
    uint64_t g = 20240611u;
    const cb_rules *r = A.shim_rules(gs);
    for (int i = 0; i < NGAMES; i++) {
        int k = play_game(&A, gt, r, &g, &games[i], views + nv, cap - nv);
        if (k < 0) {
            printf("bench_isolation: dealing games failed\n");
            return 1;
        }
        nv += k;
    }
    /* the views point at gs's rules: keep it open while they are used */
    printf("bench_isolation: views from %d pdk16 games; isolation = process costs, per decision:\n", NGAMES);
    int rc = compare(&A, tmp, "lowest", tplugs, "[strategy.x]\nplugin = lowest\n", views, nv);
    if (rc == 0 && g_file_test(heur, G_FILE_TEST_EXISTS)) {
        char *grp = g_strdup_printf("[strategy.x]\nplugin = %s\nlevel = 6\n", heur);
        rc = compare(&A, tmp, "heuristic level 6", tplugs, grp, views, nv);
        g_free(grp);
    }
    A.table_free(gt);
    A.shim_free(gs);
    g_rmdir(tmp);
    g_free(tmp);
    g_free(views);
    g_free(games);
    g_free(shimso);
    g_free(heur);
    g_free(lowest);
    g_free(tplugs);
    return rc == 0 ? 0 : 1;
}

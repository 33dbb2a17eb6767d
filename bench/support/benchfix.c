/* cardbot bench — what the shim benchmarks share (see benchfix.h). */
#include "benchfix.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

uint64_t cbb_rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t cbb_now_ns(void)
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

cbb_spread cbb_spread_of(uint64_t *t, int n, double div)
{
    qsort(t, (size_t)n, sizeof t[0], cmp_u64);
    return (cbb_spread){ t[n / 2] / div, t[0] / div, t[n - 1] / div };
}

/* $CB_BUILD, else the directory above this binary; NULL (printed) when neither. g_free. */
static char *build_dir(const char *who)
{
    const char *env = getenv("CB_BUILD");
    if (env && *env) {
        char abs[PATH_MAX];
        if (!realpath(env, abs)) {
            printf("%s: no build directory %s\n", who, env);
            return NULL;
        }
        return g_strdup(abs);
    }
    char self[PATH_MAX];
    ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
    if (k <= 0) {
        printf("%s: set CB_BUILD\n", who);
        return NULL;
    }
    self[k] = '\0';
    char *d1 = g_path_get_dirname(self), *d2 = g_path_get_dirname(d1);
    g_free(d1);
    return d2;
}

static int shim_load(const char *who, const char *shimso, cbb_shim_api *A)
{
    void *dl = dlopen(shimso, RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        printf("%s: %s\n", who, dlerror());
        return -1;
    }
    const struct {
        const char *name;
        void *fnp;
    } syms[] = {
        {"cb_shim_open", &A->shim_open},     {"cb_shim_free", &A->shim_free},
        {"cb_table_new", &A->table_new},     {"cb_table_free", &A->table_free},
        {"cb_decide_play", &A->decide_play}, {"cb_shim_rules", &A->shim_rules},
    };
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
        void *sym = dlsym(dl, syms[i].name);
        if (!sym) {
            printf("%s: no %s\n", who, syms[i].name);
            return -1;
        }
        memcpy(syms[i].fnp, &sym, sizeof sym);
    }
    return 0;
}

int cbb_env_init(cbb_env *E, const char *who, const char *tmpl)
{
    memset(E, 0, sizeof *E);
    E->who = who;
    E->build = build_dir(who);
    if (!E->build)
        return -1;
    E->tplugs = g_build_filename(E->build, "tests", "plugins", NULL);
    E->lowest = g_build_filename(E->tplugs, "lowest.so", NULL);
    E->shimso = g_build_filename(E->build, "libcardbot-shim.so", NULL);
    if (!g_file_test(E->lowest, G_FILE_TEST_EXISTS) || !g_file_test(E->shimso, G_FILE_TEST_EXISTS)) {
        printf("%s: skipped: needs %s and %s (make test builds the test plugins)\n", who, E->shimso,
               E->lowest);
        return 1;
    }
    if (shim_load(who, E->shimso, &E->api))
        return -1;
    E->tmp = g_dir_make_tmp(tmpl, NULL);
    if (!E->tmp) {
        printf("%s: cannot make a temp dir\n", who);
        return -1;
    }
    return 0;
}

void cbb_env_free(cbb_env *E)
{
    if (E->tmp)
        g_rmdir(E->tmp);
    g_free(E->tmp);
    g_free(E->shimso);
    g_free(E->lowest);
    g_free(E->tplugs);
    g_free(E->build);
    memset(E, 0, sizeof *E);
}

cb_shim *cbb_open_conf(const cbb_env *E, const char *name, const char *text)
{
    char *path = g_build_filename(E->tmp, name, NULL);
    g_file_set_contents(path, text, -1, NULL);
    char err[1024];
    cb_shim *s = E->api.shim_open(path, err, sizeof err);
    if (!s)
        printf("%s: %s\n", E->who, err);
    g_unlink(path);
    g_free(path);
    return s;
}

int cbb_open_lowest(const cbb_env *E, cb_shim **s, cb_table **t)
{
    char *text = g_strdup_printf("[shim]\nplugin_dir = %s\nbudget_ms = 60000\n[game]\nrules = pdk16\n"
                                 "[strategy.lo]\nplugin = lowest\n[seats]\n0 = lo\n1 = lo\n2 = lo\n",
                                 E->tplugs);
    *s = cbb_open_conf(E, "lowest.ini", text);
    g_free(text);
    if (!*s)
        return -1;
    char err[1024];
    *t = E->api.table_new(*s, NULL, err, sizeof err);
    if (!*t) {
        printf("%s: %s\n", E->who, err);
        return -1;
    }
    return 0;
}

int cbb_play_game(const cb_rules *r, cbb_decide_fn decide, void *ctx, uint64_t *rng,
                  uint32_t budget_ms, cbb_game *gm, cb_view *views, int cap)
{
    int ids[CB_NCARDS], n = 0;
    for (int id = 0; id < CB_NCARDS; id++)
        if (r->deck & cb_card_bit(id))
            ids[n++] = id;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(cbb_rng_next(rng) % (uint64_t)(i + 1));
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
    while (nv < cap && nh < CBB_MAXHIST) {
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
        v->budget_ms = budget_ms;
        v->seed = cbb_rng_next(rng);
        cb_decision d;
        memset(&d, 0, sizeof d);
        d.struct_size = sizeof d;
        if (decide(ctx, v, &d) != 0)
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

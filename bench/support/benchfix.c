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

#include "cardbot/game.h"

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
    /* the engine deals and keeps the record, so every view is one a real game reaches (the
     * shim refuses any other) */
    cb_engine_opts o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.key = cb_splitmix64(rng);
    o.first_bidder = o.landlord = -1;
    char err[160];
    cb_engine *e = cb_engine_new(r, &o, err, sizeof err);
    if (!e) {
        printf("cbb_play_game: %s\n", err);
        return -1;
    }
    int nv = 0, rc = 0;
    /* 包庄 (or DDZ bids): everybody passes; the benchmarks time plays */
    while (rc == 0 && cb_engine_phase(e) == CB_PHASE_BID)
        rc = cb_engine_bid(e, 0, err, sizeof err);
    while (rc == 0 && nv < cap && cb_engine_phase(e) == CB_PHASE_PLAY) {
        int nh = 0;
        const cb_play_rec *h = cb_engine_history(e, &nh);
        if (nh > CBB_MAXHIST)
            break;
        memcpy(gm->hist, h, (size_t)nh * sizeof *h);
        cb_view *v = &views[nv++];
        cb_engine_view(e, cb_engine_turn(e), budget_ms, v);
        /* the game's own record and the caller's rules: both outlive the engine */
        v->history = gm->hist;
        v->rules = r;
        cb_decision d = { .struct_size = sizeof d };
        if (decide(ctx, v, &d) != 0) {
            snprintf(err, sizeof err, "the strategy failed");
            rc = -1;
        } else {
            rc = cb_engine_play(e, d.cards, err, sizeof err);
        }
    }
    if (rc != 0)
        printf("cbb_play_game: view %d: %s\n", nv, err);
    cb_engine_free(e);
    return rc == 0 ? nv : -1;
}

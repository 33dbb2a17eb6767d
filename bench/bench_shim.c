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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "cardbot/shim.h"
#include "support/benchfix.h"

#define NGAMES 200
#define NPASSES 15

/* The games are dealt by the plugin called directly, as the direct passes call it. */
typedef struct direct {
    const cb_bot *bot;
    void *inst;
} direct;

static int decide_direct(void *ctx, const cb_view *v, cb_decision *d)
{
    const direct *x = ctx;
    return x->bot->decide_play(x->inst, v, d);
}

int main(void)
{
    cbb_env E;
    int rc = cbb_env_init(&E, "bench_shim", "cbbench-XXXXXX");
    if (rc)
        return rc < 0 ? 1 : 0;
    const cbb_shim_api *A = &E.api;
    void *pdl = dlopen(E.lowest, RTLD_NOW | RTLD_LOCAL);
    void *sym = pdl ? dlsym(pdl, CB_PLUGIN_ENTRY) : NULL;
    if (!sym) {
        printf("bench_shim: %s\n", dlerror());
        return 1;
    }
    cb_plugin_entry_fn entry;
    memcpy(&entry, &sym, sizeof sym);
    const cb_bot *bot = entry();

    cb_shim *shim;
    cb_table *table;
    if (cbb_open_lowest(&E, &shim, &table))
        return 1;
    const cb_rules *r = A->shim_rules(shim);
    char perr[256];
    direct dir = { bot, bot->create(NULL, 0, perr, sizeof perr) };

    /* the views of NGAMES whole games */
    cbb_game *games = g_new0(cbb_game, NGAMES);
    int cap = NGAMES * CBB_MAXHIST, nv = 0;
    cb_view *views = g_new0(cb_view, cap);
    uint64_t g = 20240601u;
    for (int i = 0; i < NGAMES; i++) {
        int k = cbb_play_game(r, decide_direct, &dir, &g, 1000, &games[i], views + nv, cap - nv);
        if (k < 0) {
            printf("bench_shim: the plugin failed while dealing games\n");
            return 1;
        }
        nv += k;
    }
    int leads = 0;
    for (int i = 0; i < nv; i++)
        leads += views[i].table == 0;

    /* warm up, and check that every shim answer is the plugin's own; the host sets
     * struct_size (the shim keeps it at the size it wrote) */
    cb_decision d = { .struct_size = sizeof d };
    for (int i = 0; i < nv; i++) {
        int rc = A->decide_play(table, &views[i], &d);
        if (rc != CB_OK) {
            printf("bench_shim: view %d: shim answered %d (%s)\n", i, rc, rc < 0 ? "refused" : d.explain);
            return 1;
        }
    }

    uint64_t tdir[NPASSES], tshim[NPASSES], sink = 0;
    for (int p = 0; p < NPASSES; p++) {
        uint64_t t0 = cb_now_ns();
        for (int i = 0; i < nv; i++) {
            memset(&d, 0, sizeof d);
            d.struct_size = sizeof d;
            bot->decide_play(dir.inst, &views[i], &d);
            sink += d.cards;
        }
        uint64_t t1 = cb_now_ns();
        for (int i = 0; i < nv; i++) {
            A->decide_play(table, &views[i], &d);
            sink += d.cards;
        }
        uint64_t t2 = cb_now_ns();
        tdir[p] = t1 - t0;
        tshim[p] = t2 - t1;
    }
    uint64_t diff[NPASSES];
    for (int p = 0; p < NPASSES; p++)
        diff[p] = tshim[p] > tdir[p] ? tshim[p] - tdir[p] : 0;
    cbb_spread q_dir = cbb_spread_of(tdir, NPASSES, nv), q_shim = cbb_spread_of(tshim, NPASSES, nv),
               q_over = cbb_spread_of(diff, NPASSES, nv);
    printf("bench_shim: %d decisions per pass (%d leads, %d follows) from %d pdk16 games, "
           "%d passes, plugin 'lowest'\n", nv, leads, nv - leads, NGAMES, NPASSES);
    printf("  direct plugin call   %7.1f ns/decision (median; min %.1f, max %.1f)\n",
           q_dir.median, q_dir.min, q_dir.max);
    printf("  through the shim     %7.1f ns/decision (median; min %.1f, max %.1f)\n",
           q_shim.median, q_shim.min, q_shim.max);
    printf("  shim overhead        %7.1f ns/decision (median of per-pass differences; "
           "min %.1f, max %.1f; target <= 300)\n",
           q_over.median, q_over.min, q_over.max);
    if (sink == 42)
        printf(" \n");

    bot->destroy(dir.inst);
    A->table_free(table);
    A->shim_free(shim);
    g_free(views);
    g_free(games);
    cbb_env_free(&E);
    return 0;
}

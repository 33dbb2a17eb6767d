/* cardbot bench — what process isolation costs per decision, against in-process.
 *
 * The same views (every decision of NGAMES pdk16 games played by "lowest" at all seats, so
 * leads and follows, short and long histories in their natural mix) are decided through
 * cb_decide_play by two tables: one of a shim with isolation = inproc, one with isolation =
 * process (a request frame written to the seat's worker, the worker decides, a reply frame
 * read back, with ppoll() waits on both sides). Passes alternate (inproc, process, ...) so a
 * frequency change hits both; medians of per-pass times, min and max are printed. A third
 * table runs the same workers under [shim] sandbox = on (a seccomp filter on every system
 * call the worker makes: the reply's send and the next request's recv). Also the cost of
 * starting a worker (fork + loading the plugin in the child + create() + hello, from
 * cb_table_new / cb_table_free of a three-seat table), with and without the sandbox, and,
 * when the heuristic plugin is built, the same comparison for it. Figures only: never asserts
 * on time.
 *
 * Expect two regimes: a request and its reply are two process wakeups, which cost little when
 * host and worker share a CPU (taskset -c 0: about 7 us per decision on the 2-vCPU build VM)
 * and a lot more when each wakeup lands on an idle CPU that has to wake first (the same VM
 * unpinned: between 7 and about 40 us from run to run). The min column shows the cheap one.
 *
 * Build dir: $CB_BUILD, else the directory above this binary (build/<v>/bench/..).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "cardbot/shim.h"
#include "support/benchfix.h"

#define NGAMES 100
#define NPASSES 11
#define NSTARTS 30

/* The games are dealt through table t of the shim, at all seats. */
typedef struct through {
    const cbb_shim_api *A;
    cb_table *t;
} through;

static int decide_through(void *ctx, const cb_view *v, cb_decision *d)
{
    const through *x = ctx;
    return x->A->decide_play(x->t, v, d) == CB_OK ? 0 : -1;
}

/* Starting and stopping workers of shim sp: a table of three seats, new + free. */
static void starts(const cbb_shim_api *A, cb_shim *sp, const char *label)
{
    char err[1024];
    uint64_t s_new[NSTARTS], s_free[NSTARTS];
    for (int k = 0; k < NSTARTS; k++) {
        uint64_t t0 = cb_now_ns();
        cb_table *x = A->table_new(sp, NULL, err, sizeof err);
        uint64_t t1 = cb_now_ns();
        A->table_free(x);
        uint64_t t2 = cb_now_ns();
        s_new[k] = (t1 - t0) / 3;
        s_free[k] = (t2 - t1) / 3;
    }
    cbb_spread sn = cbb_spread_of(s_new, NSTARTS, 1e3), sf = cbb_spread_of(s_free, NSTARTS, 1e3);
    printf("    worker start%-7s %9.1f us (fork + load + create + hello; median of %d, min %.1f, max %.1f)\n",
           label, sn.median, NSTARTS * 3, sn.min, sn.max);
    printf("    worker stop%-8s %9.1f us (EOF, exit, reap; median of %d, min %.1f, max %.1f)\n",
           label, sf.median, NSTARTS * 3, sf.min, sf.max);
}

/* Inproc vs process (vs process + sandbox) for one strategy group over the views; prints the
 * figures. */
static int compare(const cbb_env *E, const char *label, const char *group, const cb_view *views, int nv)
{
    const cbb_shim_api *A = &E->api;
    enum { NM = 3 };
    static const char *const extra[NM] = { "", "isolation = process\n", "isolation = process\nsandbox = on\n" };
    static const char *const files[NM] = { "inproc.ini", "process.ini", "sandbox.ini" };
    cb_shim *sh[NM];
    cb_table *t[NM];
    char err[1024];
    for (int m = 0; m < NM; m++) {
        char *text = g_strdup_printf("[shim]\nplugin_dir = %s\nbudget_ms = 60000\n%s[game]\nrules = pdk16\n"
                                     "%s[seats]\n0 = x\n1 = x\n2 = x\n", E->tplugs, extra[m], group);
        sh[m] = cbb_open_conf(E, files[m], text);
        g_free(text);
        if (!sh[m])
            return -1;
        t[m] = A->table_new(sh[m], NULL, err, sizeof err);
        if (!t[m]) {
            printf("bench_isolation: %s\n", err);
            return -1;
        }
    }
    cb_decision d = { .struct_size = sizeof d }; /* the host's part; the shim keeps it */
    uint64_t sink = 0;
    for (int m = 0; m < NM; m++) /* warm up; every answer must be the plugin's own */
        for (int i = 0; i < nv; i++)
            if (A->decide_play(t[m], &views[i], &d) != CB_OK) {
                printf("bench_isolation: %s: view %d: not the plugin's answer\n", label, i);
                return -1;
            }
    uint64_t tm[NM][NPASSES], diff[NPASSES], sdiff[NPASSES];
    for (int p = 0; p < NPASSES; p++) {
        for (int m = 0; m < NM; m++) {
            uint64_t t0 = cb_now_ns();
            for (int i = 0; i < nv; i++) {
                A->decide_play(t[m], &views[i], &d);
                sink += d.cards;
            }
            tm[m][p] = cb_now_ns() - t0;
        }
        diff[p] = tm[1][p] > tm[0][p] ? tm[1][p] - tm[0][p] : 0;
        sdiff[p] = tm[2][p] > tm[1][p] ? tm[2][p] - tm[1][p] : 0;
    }
    double n = nv;
    cbb_spread q_in = cbb_spread_of(tm[0], NPASSES, n), q_proc = cbb_spread_of(tm[1], NPASSES, n),
               q_sb = cbb_spread_of(tm[2], NPASSES, n), q_over = cbb_spread_of(diff, NPASSES, n),
               q_sover = cbb_spread_of(sdiff, NPASSES, n);
    printf("  %s: %d decisions per pass x %d passes = %d per mode\n", label, nv, NPASSES, nv * NPASSES);
    printf("    inproc             %9.1f ns/decision (median; min %.1f, max %.1f)\n",
           q_in.median, q_in.min, q_in.max);
    printf("    process            %9.1f ns/decision (median; min %.1f, max %.1f)\n",
           q_proc.median, q_proc.min, q_proc.max);
    printf("    process + sandbox  %9.1f ns/decision (median; min %.1f, max %.1f)\n",
           q_sb.median, q_sb.min, q_sb.max);
    printf("    isolation overhead %9.1f ns/decision (median of per-pass differences; min %.1f, max %.1f)\n",
           q_over.median, q_over.min, q_over.max);
    printf("    sandbox overhead   %9.1f ns/decision (over process; median of per-pass differences; "
           "min %.1f, max %.1f)\n", q_sover.median, q_sover.min, q_sover.max);
    if (sink == 42)
        printf(" \n");
    for (int m = 0; m < NM; m++)
        A->table_free(t[m]);
    starts(A, sh[1], "");
    starts(A, sh[2], " (sbx)");
    for (int m = 0; m < NM; m++)
        A->shim_free(sh[m]);
    return 0;
}

int main(void)
{
    cbb_env E;
    int rc = cbb_env_init(&E, "bench_isolation", "cbbenchiso-XXXXXX");
    if (rc)
        return rc < 0 ? 1 : 0;
    cb_shim *gs;
    cb_table *gt;
    if (cbb_open_lowest(&E, &gs, &gt))
        return 1;
    cbb_game *games = g_new0(cbb_game, NGAMES);
    int cap = NGAMES * CBB_MAXHIST, nv = 0;
    cb_view *views = g_new0(cb_view, cap);
    uint64_t g = 20240611u;
    const cb_rules *r = E.api.shim_rules(gs);
    through gen_table = { &E.api, gt };
    for (int i = 0; i < NGAMES; i++) {
        int k = cbb_play_game(r, decide_through, &gen_table, &g, 0, &games[i], views + nv, cap - nv);
        if (k < 0) {
            printf("bench_isolation: dealing games failed\n");
            return 1;
        }
        nv += k;
    }
    /* the views point at gs's rules: keep it open while they are used */
    printf("bench_isolation: views from %d pdk16 games; isolation = process costs, per decision:\n", NGAMES);
    rc = compare(&E, "lowest", "[strategy.x]\nplugin = lowest\n", views, nv);
    /* this build's heuristic.so: found by its base name next to the shim library */
    char *heur = g_build_filename(E.build, "plugins", "heuristic.so", NULL);
    if (rc == 0 && g_file_test(heur, G_FILE_TEST_EXISTS))
        rc = compare(&E, "heuristic level 6", "[strategy.x]\nplugin = heuristic\nlevel = 6\n", views, nv);
    g_free(heur);
    E.api.table_free(gt);
    E.api.shim_free(gs);
    g_free(views);
    g_free(games);
    cbb_env_free(&E);
    return rc == 0 ? 0 : 1;
}

/* cardbot bench — what the shim benchmarks (bench_shim.c, bench_isolation.c) share: finding
 * the build directory, loading the shim with dlopen as a host would, writing and opening a
 * config, the views of whole pdk16 games (played with the engine), a clock and the spread of
 * per-pass times.
 *
 * The Makefile links each .c of bench/support into every bench binary. Messages go to stdout,
 * like the rest of a benchmark's report, prefixed with the benchmark's name (who).
 */
#ifndef CARDBOT_BENCH_BENCHFIX_H
#define CARDBOT_BENCH_BENCHFIX_H

#include <stddef.h>
#include <stdint.h>

#include "cardbot/shim.h"

#include "util_int.h" /* core/: cb_splitmix64 (deals, view seeds), cb_now_ns (timing) */

/* Median (t[n/2] after sorting), min and max of n per-pass times, each divided by div. */
typedef struct cbb_spread {
    double median, min, max;
} cbb_spread;
/* Sorts t[0..n) in place. */
cbb_spread cbb_spread_of(uint64_t *t, int n, double div);

/* The part of the shim's API the benchmarks call, resolved from the .so. */
typedef struct cbb_shim_api {
    cb_shim *(*shim_open)(const char *, char *, size_t);
    void (*shim_free)(cb_shim *);
    cb_table *(*table_new)(cb_shim *, const char *, char *, size_t);
    void (*table_free)(cb_table *);
    int (*decide_play)(cb_table *, const cb_view *, cb_decision *);
    const cb_rules *(*shim_rules)(const cb_shim *);
} cbb_shim_api;

/* What a shim benchmark runs in: the build directory ($CB_BUILD, else the directory above
 * this binary: build/<v>/bench/..), the shim loaded from it, the "lowest" test plugin, and a
 * temp dir for configs. */
typedef struct cbb_env {
    const char *who;  /* the benchmark's name, in its messages */
    char *build;      /* absolute */
    char *tplugs;     /* build/tests/plugins */
    char *lowest;     /* build/tests/plugins/lowest.so */
    char *shimso;     /* build/libcardbot-shim.so */
    char *tmp;        /* temp dir (g_dir_make_tmp template tmpl) */
    cbb_shim_api api;
} cbb_env;

/* 0: ready. 1: the shim or the test plugins are not built ("skipped" printed: the benchmark
 * exits 0). -1: an error, printed. */
int cbb_env_init(cbb_env *E, const char *who, const char *tmpl);
/* Remove the temp dir (empty by then), free the paths. */
void cbb_env_free(cbb_env *E);

/* Write text to the temp dir as name, open it as a shim config, remove the file again. NULL
 * (the shim's message printed) when the config does not open. */
cb_shim *cbb_open_conf(const cbb_env *E, const char *name, const char *text);
/* The config every benchmark deals its games with: "lowest" at all three pdk16 seats, budget
 * 60 s; its shim in *s and a table of the default seating in *t. 0, or -1 printed. */
int cbb_open_lowest(const cbb_env *E, cb_shim **s, cb_table **t);

/* ---- views of whole games ---- */

#define CBB_MAXHIST 160

typedef struct cbb_game {
    cb_play_rec hist[CBB_MAXHIST]; /* the record the game's views point into */
} cbb_game;

/* Decide one play of view v into d (cleared, struct_size set: the host's part); 0 when it
 * answered. */
typedef int (*cbb_decide_fn)(void *ctx, const cb_view *v, cb_decision *d);

/* Play one game of r with the engine (game.h; the deal's key drawn from rng; 包庄 declined
 * by all) and let decide play it at all seats, keeping every play view (budget_ms, the
 * engine's seed) in views[0..cap): real positions, as the shim's view check wants them. The
 * views point at r and at gm's copy of the record. Returns the number of views, or -1 (the
 * reason printed) when decide fails or its answer is illegal. */
int cbb_play_game(const cb_rules *r, cbb_decide_fn decide, void *ctx, uint64_t *rng,
                  uint32_t budget_ms, cbb_game *gm, cb_view *views, int cap);

#endif

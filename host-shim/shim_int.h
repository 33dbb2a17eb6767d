/* cardbot shim — private types shared by the files of libcardbot-shim.so.
 *
 *   shim_config.c    the config file -> an immutable, refcounted shim_conf (one per load)
 *   shim_loader.c    dlopen a plugin and check its entry point, ABI major and struct size
 *   shim_validate.c  check a host's view, a plugin's answer, and the rules-only safe answer
 *   shim_stats.c     per-table statistics slots and the shim's merged totals
 *   shim_process.c   isolation = process: a forked worker per instance (shim_process.h)
 *   shim.c           the public API of shim.h: open, reload, tables, decisions
 *
 * Ownership: a shim_conf owns its plugins (dlopen handles) and strategies. The shim holds a
 * reference to the current conf; each table holds a reference to the conf its instances were
 * created from, so a reload never unloads code a live instance still runs.
 */
#ifndef CARDBOT_SHIM_INT_H
#define CARDBOT_SHIM_INT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include "cardbot/shim.h"

#define SHIM_NAME_MAX ((int)sizeof(((cb_strategy_stats *)0)->name)) /* incl. the NUL */

/* Everything declared here is internal to libcardbot-shim.so: the library exports only the
 * cb_ API of shim.h (the core it links is kept local by the link, -Wl,--exclude-libs,ALL, so
 * a plugin's own copy of the rules is never interposed by the shim's, nor the reverse). */
#pragma GCC visibility push(hidden)

/* ---- shim_loader.c ---- */

typedef struct shim_plugin {
    char *path;
    void *dl;
    const cb_bot *bot;
} shim_plugin;

/* dlopen path (RTLD_NOW | RTLD_LOCAL) and check it. On failure NULL and a message (without
 * the file/group prefix: the caller adds it). */
shim_plugin *shim_plugin_load(const char *path, char *err, size_t errlen);
void shim_plugin_unload(shim_plugin *p);

/* ---- shim_config.c ---- */

typedef struct shim_strategy {
    char *name;          /* NAME of [strategy.NAME] */
    char *group;         /* "strategy.NAME", for messages */
    shim_plugin *plugin; /* owned by the conf */
    cb_param *params;    /* every key but "plugin", in file order */
    int nparams;
    char **strs;         /* storage of the params' keys and values */
} shim_strategy;

/* [shim] isolation */
enum { SHIM_ISO_INPROC = 0, SHIM_ISO_PROCESS = 1 };

typedef struct shim_conf {
    atomic_int refs;
    char *file;                /* the config path as the host gave it (for messages) */
    cb_rules rules;
    uint32_t budget_ms;
    int isolation;             /* SHIM_ISO_*: how this conf's instances run */
    int fallback;              /* strategy index, -1 = none */
    int seats[CB_MAX_SEATS];   /* strategy index, -1 = no strategy */
    GHashTable *tables;        /* table id -> int[CB_MAX_SEATS] (-2 = use [seats]) */
    GPtrArray *plugins;        /* shim_plugin *, one per distinct path */
    shim_strategy *strat;
    int nstrat;
    GHashTable *kv;            /* "group\x1fkey" -> value, for cb_shim_get */
} shim_conf;

shim_conf *shim_conf_load(const char *path, char *err, size_t errlen);
shim_conf *shim_conf_ref(shim_conf *c);
void shim_conf_unref(shim_conf *c);
/* The strategy index of each seat for table_id (NULL or unknown id: [seats]). */
void shim_conf_seating(const shim_conf *c, const char *table_id, int out[CB_MAX_SEATS]);
/* Create an instance of strategy s; on failure NULL and "file: [strategy.NAME]: message". */
void *shim_strategy_create(const shim_conf *c, int s, char *err, size_t errlen);
const char *shim_conf_get(const shim_conf *c, const char *group, const char *key);

/* ---- shim_validate.c ---- */

/* What one play decision is checked against, derived once from the view. */
typedef struct shim_play_check {
    cb_ctx ctx;            /* ctx.table points at table below when following */
    cb_move table;
    bool need_spade3;      /* the answer must hold the spade 3 itself, not only a 3 */
} shim_play_check;

/* The last play-to-beat a table classified: the seats of one trick see the same one, and
 * classifying it is the dearest part of checking a view. Per table, so no locking. */
typedef struct shim_cls_cache {
    bool valid;
    const cb_rules *rp;
    cb_rules r;          /* a byte copy of *rp when cached: a changed rule set misses */
    cb_cards cards;
    cb_move m;
} shim_cls_cache;

/* 0, or CB_ERR_VIEW when the view is malformed, with the reason (naming the view's field) in
 * err (may be NULL). pc may be NULL for the bid phase; cache may be NULL. */
int shim_view_check(const cb_view *v, int phase, shim_play_check *pc, shim_cls_cache *cache,
                    char *err, size_t errlen);
/* Is cards a legal answer? On false, why says which rule it breaks. */
bool shim_play_ok(const cb_view *v, const shim_play_check *pc, cb_cards cards, char *why, size_t whylen);
bool shim_bid_ok(const cb_view *v, int bid, char *why, size_t whylen);
/* The rules-only safe play: pass when legal, else the first play cb_legal_moves lists. */
cb_cards shim_safe_play(const cb_view *v, const shim_play_check *pc);

/* ---- shim_stats.c ---- */

/* One strategy's counters inside a table. Only the table's thread writes the counters
 * (relaxed atomics: plain stores on common hardware, yet cb_shim_stats may read them from
 * another thread); name changes only under the shim's lock. */
typedef struct shim_slot {
    const char *name; /* NULL = unused; points into the table's conf */
    _Atomic uint64_t decisions, total_ns, max_ns;
    _Atomic uint64_t fallbacks[CB_FB_NREASONS];
} shim_slot;

void shim_slot_record(shim_slot *s, uint64_t ns, int reason);
void shim_slot_reset(shim_slot *s, const char *name);
/* Add a slot's counters into totals (a GArray of cb_strategy_stats), by name. */
void shim_totals_add(GArray *totals, const shim_slot *s);
/* Make sure totals has an entry for name (zero counts). */
void shim_totals_touch(GArray *totals, const char *name);

#pragma GCC visibility pop

#endif

/* cardbot shim — private types shared by the files of libcardbot-shim.so.
 *
 *   shim_config.c    the config file -> an immutable, refcounted shim_conf (one per load)
 *   shim_loader.c    dlopen a plugin (a private copy when the file changed under a loaded
 *                    name) and check its entry point, ABI major and struct size
 *   shim_validate.c  check a host's view, a plugin's answer, and the rules-only safe answer
 *   shim_stats.c     per-table statistics slots and the shim's merged totals
 *   shim_process.c   isolation = process: a forked worker per instance (shim_process.h)
 *   shim.c           the public API of shim.h: open, reload, tables, decisions
 *
 * Ownership: a shim_conf owns its strategies and a reference to each of its plugins (dlopen
 * handles; a plugin whose file did not change is shared by the confs of successive reloads).
 * The shim holds a reference to the current conf; each table holds a reference to the conf
 * its instances were created from, so a reload never unloads code a live instance still runs.
 */
#ifndef CARDBOT_SHIM_INT_H
#define CARDBOT_SHIM_INT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include "cardbot/game.h"
#include "cardbot/shim.h"

#define SHIM_NAME_MAX ((int)sizeof(((cb_strategy_stats *)0)->name)) /* incl. the NUL */

/* Everything declared here is internal to libcardbot-shim.so: the library exports only the
 * cb_ API of shim.h (the core it links is kept local by the link, -Wl,--exclude-libs,ALL, so
 * a plugin's own copy of the rules is never interposed by the shim's, nor the reverse). */
#pragma GCC visibility push(hidden)

/* ---- shim_loader.c ---- */

/* A file's identity as stat() tells it: a deploy that renames a new build over the path
 * changes dev/ino, one that rewrites it in place changes size or mtime. */
typedef struct shim_file_id {
    uint64_t dev, ino;
    int64_t size;
    int64_t mtime_sec, mtime_nsec;
} shim_file_id;

/* One loaded plugin file. Shared (refcounted) by every conf that names the same path while
 * the file stays the same: a reload that finds the file unchanged keeps the loaded code. */
typedef struct shim_plugin {
    atomic_int refs;      /* one per conf holding it */
    char *path;           /* the file as the config names it, resolved */
    shim_file_id id;      /* the file when its bytes were read (fstat of the descriptor read) */
    char sha256[65];      /* SHA-256 of those bytes, lowercase hex */
    unsigned gen;         /* the config generation that loaded it (1 = the open) */
    bool private_copy;    /* loaded from a memfd copy: the path's name was taken by other bytes */
    int memfd;            /* the copy's descriptor, kept open while loaded so that its
                           * /proc/self/fd/N name cannot be reused by another copy; -1 none */
    void *dl;
    const cb_bot *bot;
} shim_plugin;

/* Load path (RTLD_NOW | RTLD_LOCAL) and check it; gen is recorded in the plugin. When the
 * path's name is already loaded in this process with other bytes (an older build still run
 * by an older config or another shim), the new bytes are loaded from a private memfd copy,
 * since dlopen would hand back the old object. On failure NULL and a message (without the
 * file/group prefix: the caller adds it). */
shim_plugin *shim_plugin_load(const char *path, unsigned gen, char *err, size_t errlen);
shim_plugin *shim_plugin_ref(shim_plugin *p);
/* Drop a reference; the last one dlcloses. NULL is fine. */
void shim_plugin_unref(shim_plugin *p);
/* The identity of the file at path now (following symlinks); -1 when it cannot be stat'ed. */
int shim_file_id_of(const char *path, shim_file_id *id);
bool shim_file_id_equal(const shim_file_id *a, const shim_file_id *b);

/* ---- shim_config.c ---- */

typedef struct shim_strategy {
    char *name;          /* NAME of [strategy.NAME] */
    char *group;         /* "strategy.NAME", for messages */
    shim_plugin *plugin; /* owned by the conf */
    cb_param *params;    /* every key but "plugin", in file order */
    int nparams;
    char **strs;         /* storage of the params' keys and values */
} shim_strategy;

/* [shim] isolation (the public numbers: cb_seat_info reports it as is) */
enum { SHIM_ISO_INPROC = CB_ISOLATION_INPROC, SHIM_ISO_PROCESS = CB_ISOLATION_PROCESS };

typedef struct shim_conf {
    atomic_int refs;
    char *file;                /* the config path as the host gave it (for messages) */
    cb_rules rules;
    uint32_t budget_ms;
    unsigned gen;              /* the shim's config generation: 1 at open, +1 per reload */
    int isolation;             /* SHIM_ISO_*: how this conf's instances run */
    int fallback;              /* strategy index, -1 = none */
    int seats[CB_MAX_SEATS];   /* strategy index, -1 = no strategy */
    GHashTable *tables;        /* table id -> int[CB_MAX_SEATS] (-2 = use [seats]) */
    GPtrArray *plugins;        /* shim_plugin * (a reference each), one per distinct path */
    shim_strategy *strat;
    int nstrat;
    GHashTable *kv;            /* "group\x1fkey" -> value, for cb_shim_get */
} shim_conf;

/* Read the config at path as generation gen. prev (may be NULL: the open) is the config now
 * running: a plugin path whose file has the identity prev loaded is shared with prev, not
 * loaded again; a changed file is loaded anew (shim_plugin_load). */
shim_conf *shim_conf_load(const char *path, const shim_conf *prev, unsigned gen, char *err,
                          size_t errlen);
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
 * err (may be NULL). pc may be NULL for the bid phase; cache and chk (the table's incremental
 * view checker, see game.h) may be NULL. */
int shim_view_check(const cb_view *v, int phase, shim_play_check *pc, shim_cls_cache *cache,
                    cb_view_checker *chk, char *err, size_t errlen);
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

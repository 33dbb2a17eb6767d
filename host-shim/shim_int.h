/* cardbot shim — private types shared by the files of libcardbot-shim.so.
 *
 *   shim_config.c    the config file -> an immutable, refcounted shim_conf (one per load)
 *   shim_loader.c    dlopen a plugin (a private copy when the file changed under a loaded
 *                    name) and check its entry point, ABI major and struct size; under
 *                    process isolation only read it in the host and load it in the worker
 *   shim_validate.c  check a host's view, a plugin's answer, and the rules-only safe answer
 *   shim_stats.c     per-table statistics slots and the shim's merged totals
 *   shim_process.c   isolation = process: a forked worker per instance (shim_process.h)
 *   shim.c           the public API of shim.h: open, reload, tables, decisions
 *
 * Ownership: a shim_conf owns its strategies and a reference to each of its plugins (dlopen
 * handles, or under process isolation the bytes workers load; a plugin whose file did not
 * change is shared by the confs of successive reloads).
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

/* The shim's own record of the dynamic loader, one per shim (every conf of it points here):
 *  - which names of plugin files are taken, under process isolation: a worker forked from the
 *    host loads its plugin by the path when the conf loaded it from the path, from the conf's
 *    private copy otherwise (see shim_plugin_read). In-process the dynamic linker itself
 *    keeps that record; a host that never dlopens a plugin keeps its own (path -> the live
 *    records loaded from it), so a reload reports and loads exactly as it would in-process;
 *  - the order of the shim's dlopen / dlclose calls (in-process loads) against its forks
 *    (worker starts): a fork taken while another thread is inside dlopen leaves the child's
 *    loader state half updated, and the worker then fails in its own dlopen (glibc aborts:
 *    "Inconsistency detected by ld.so"). Forks share the lock, the loader calls take it
 *    alone (writers first). A dlopen of another shim or of the host itself is not ordered:
 *    a worker that dies while loading is started once more (shim_process.c).
 * Locked inside: plugin records are released on any thread. */
typedef struct shim_names shim_names;
shim_names *shim_names_new(void);
/* Only once every plugin record registered in it is gone. NULL is fine. */
void shim_names_free(shim_names *n);
/* Around a fork (n may be NULL): no loader call of this shim runs meanwhile. */
void shim_names_fork_begin(shim_names *n);
void shim_names_fork_end(shim_names *n);

/* One plugin file. Shared (refcounted) by every conf that names the same path while the file
 * stays the same: a reload that finds the file unchanged keeps the loaded code.
 *
 * In-process (shim_plugin_load) the host dlopens it: dl and bot are set. Under process
 * isolation (shim_plugin_read) the host never maps a plugin: it keeps the file's identity and
 * a sealed memfd copy of the bytes it hashed, and each worker loads the plugin after fork
 * (shim_plugin_open_worker); dl and bot stay NULL and the bot's description (name, version,
 * abi_version, has_bid) comes from the worker that validated it at config load. */
typedef struct shim_plugin {
    atomic_int refs;      /* one per conf holding it */
    char *path;           /* the file as the config names it, resolved */
    shim_file_id id;      /* the file when its bytes were read (fstat of the descriptor read) */
    char sha256[65];      /* SHA-256 of those bytes, lowercase hex */
    unsigned gen;         /* the config generation that loaded it (1 = the open) */
    bool private_copy;    /* loaded from a memfd copy: the path's name was taken by other bytes */
    bool isolated;        /* process isolation: never dlopen'ed by the host (see above) */
    bool described;       /* name ... has_bid are set (isolated: once a worker loaded it) */
    int memfd;            /* the copy's descriptor, kept open while loaded so that its
                           * /proc/self/fd/N name cannot be reused by another copy (isolated:
                           * always, the bytes workers load when the path no longer has them);
                           * -1 none */
    void *dl;
    const cb_bot *bot;
    /* the cb_bot as the shim reports and calls it, in both modes */
    char *name;           /* cb_bot.name ("" when it has none) */
    char *version;        /* cb_bot.version ("" when it has none) */
    uint32_t abi_version;
    bool has_bid;         /* decide_bid is not NULL */
    shim_names *names;    /* the shim's (dlclose is ordered against its forks); NULL: none */
    bool registered;      /* isolated and loaded from the path: in names' record of names */
} shim_plugin;

/* Load path (RTLD_NOW | RTLD_LOCAL) and check it; gen is recorded in the plugin. When the
 * path's name is already loaded in this process with other bytes (an older build still run
 * by an older config or another shim), the new bytes are loaded from a private memfd copy,
 * since dlopen would hand back the old object. On failure NULL and a message (without the
 * file/group prefix: the caller adds it). */
shim_plugin *shim_plugin_load(const char *path, unsigned gen, shim_names *names, char *err,
                              size_t errlen);
/* Process isolation: read path (identity, SHA-256, a sealed memfd copy) without loading it.
 * private_copy as shim_plugin_load would decide it, from names (whose path -> record entry it
 * takes when the name is free). Not yet described: a worker must load it first
 * (shim_plugin_describe). On failure NULL and a message as shim_plugin_load's. */
shim_plugin *shim_plugin_read(const char *path, unsigned gen, shim_names *names, char *err,
                              size_t errlen);
/* In a worker (after fork, never in the host): load p's bytes — from the path when p is not a
 * private copy and the file there still has p's identity, else from p's copy, whose
 * descriptor the worker holds as copy_fd — and check the entry point, ABI and size as
 * shim_plugin_load does. The bot, or NULL and the message shim_plugin_load would give. */
const cb_bot *shim_plugin_open_worker(const shim_plugin *p, int copy_fd, char *err, size_t errlen);
/* Record what a worker reported of an isolated plugin not described yet (only while no other
 * thread can see p: during the load of the conf that read it). */
void shim_plugin_describe(shim_plugin *p, const char *name, const char *version,
                          uint32_t abi_version, bool has_bid);
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
    cb_param *params;    /* every key but "plugin", in file order (nparams of them); then
                          * params[nparams], the shim's own config_dir (below) */
    int nparams;
    char **strs;         /* storage of the params' keys and values */
} shim_strategy;

/* The exec plugin (plugin/exec: a bot as a child program) takes relative paths — its
 * program's working directory, the program, a stderr file — from the config file's
 * directory, as the shim does plugin_dir. Only the shim knows that directory, so it hands it
 * to exec as one more parameter after the config's own: config_dir = the config file's
 * directory, absolute. Only to a plugin whose cb_bot.name is "exec" (why:
 * shim_strategy_nparams). */
#define SHIM_CONFIG_DIR_PARAM "config_dir"
#define SHIM_CONFIG_DIR_BOT "exec"
/* How many of s->params a plugin named bot_name (cb_bot.name) is given: nparams, or
 * nparams + 1 (config_dir) for exec. Both places that call create() ask here. */
int shim_strategy_nparams(const shim_strategy *s, const char *bot_name);

/* [shim] isolation (the public numbers: cb_seat_info reports it as is) */
enum { SHIM_ISO_INPROC = CB_ISOLATION_INPROC, SHIM_ISO_PROCESS = CB_ISOLATION_PROCESS };

typedef struct shim_conf {
    atomic_int refs;
    char *file;                /* the config path as the host gave it (for messages) */
    cb_rules rules;
    uint32_t budget_ms;
    unsigned gen;              /* the shim's config generation: 1 at open, +1 per reload */
    int isolation;             /* SHIM_ISO_*: how this conf's instances run */
    /* process isolation only (a conf with isolation = inproc refuses them): */
    uint32_t worker_memory_mb; /* address space a worker may add to what it was forked with
                                * (RLIMIT_AS), 0 = no limit */
    uint32_t worker_cpu_s;     /* CPU seconds of one worker process (RLIMIT_CPU), 0 = none */
    bool sandbox;              /* seccomp allow-list once the instance is created */
    int fallback;              /* strategy index, -1 = none */
    int seats[CB_MAX_SEATS];   /* strategy index, -1 = no strategy */
    GHashTable *tables;        /* table id -> int[CB_MAX_SEATS] (-2 = use [seats]) */
    GPtrArray *plugins;        /* shim_plugin * (a reference each), one per distinct path */
    shim_strategy *strat;
    int nstrat;
    GHashTable *kv;            /* "group\x1fkey" -> value, for cb_shim_get */
    shim_names *names;         /* the shim's (it outlives every conf of it); NULL: none */
} shim_conf;

/* Read the config at path as generation gen. prev (may be NULL: the open) is the config now
 * running: a plugin path whose file has the identity prev loaded is shared with prev, not
 * loaded again; a changed file is loaded anew (shim_plugin_load, or under process isolation
 * shim_plugin_read with names, the shim's record of taken names, and validated in a
 * short-lived worker). */
shim_conf *shim_conf_load(const char *path, const shim_conf *prev, unsigned gen,
                          shim_names *names, char *err, size_t errlen);
shim_conf *shim_conf_ref(shim_conf *c);
void shim_conf_unref(shim_conf *c);
/* The strategy index of each seat for table_id (NULL or unknown id: [seats]). */
void shim_conf_seating(const shim_conf *c, const char *table_id, int out[CB_MAX_SEATS]);
/* Create an instance of strategy s (in-process only); on failure NULL and
 * "file: [strategy.NAME]: message". */
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

/* cardbot — the host-facing API of libcardbot-shim.so.
 *
 * Plain C, no glib types, so a host in C, C#, Java, Go or Python can call it through its FFI.
 * The shim reads an INI config, loads strategy plugins, asks them for bids and plays on a
 * restricted view, checks every answer with the rules (core/) and falls back — to the config's
 * fallback strategy, then to a rules-only safe play — so the host always gets a legal answer.
 *
 * Threads: a cb_shim may be shared by many threads; each cb_table must be used by one thread
 * at a time. Statistics are kept per table and merged on cb_shim_stats / cb_table_free.
 */
#ifndef CARDBOT_SHIM_H
#define CARDBOT_SHIM_H

#include "bot.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cb_shim cb_shim;
typedef struct cb_table cb_table;

/* Result codes: 0 = the strategy's own answer was used; > 0 = a fallback answer was used
 * (the reason); < 0 = the call itself failed (bad arguments or view), out untouched.
 * One exception, CB_FB_LATE: in-process (isolation = inproc) the shim cannot preempt a
 * plugin, so an answer that came after the budget but is legal is still used — it is the
 * strategy's own answer, CB_DEC_FALLBACK stays clear, and the lateness is counted. An answer
 * that is late and wrong counts as its wrongness (CB_FB_ILLEGAL / CB_FB_FAILED). Under
 * isolation = process the worker gets the budget plus a small margin; past that it is killed,
 * the decision counts CB_FB_LATE and the fallback answers. */
enum {
    CB_OK = 0,
    CB_FB_ILLEGAL = 1,     /* answer broke the rules (shape, not in hand, does not beat, flags) */
    CB_FB_FAILED = 2,      /* plugin returned an error */
    CB_FB_LATE = 3,        /* answer came after the decision budget */
    CB_FB_NO_PLUGIN = 4,   /* no strategy / instance for this seat (process: worker in restart back-off) */
    CB_FB_CRASHED = 5,     /* plugin worker died or sent a broken reply (process isolation) */
    CB_FB_NREASONS = 6,
    CB_ERR_ARG = -1,       /* NULL or inconsistent arguments */
    CB_ERR_VIEW = -2,      /* the view is malformed (sizes, seat, hand vs cards_left, phase) */
    CB_ERR_CONFIG = -3,
};
const char *cb_strerror(int code);

/* Open a config. On failure returns NULL and writes a message naming the file, group and key
 * to err. The config must be a regular file; [seats] must name a strategy at every seat; a
 * group or a key written twice, a [rules] flag the game does not use and a plugin given by
 * path without [shim] allow_plugin_paths = true are refused (README: "Configs"). */
cb_shim *cb_shim_open(const char *config_path, char *err, size_t errlen);
/* Re-read the config. On failure the old config keeps running (returns -1, message in err);
 * on success tables pick up the new seating from their next decision: a live table then
 * destroys all its plugin instances and creates new ones from the new config. A reload may
 * not change the rules ([game] / [rules]): that is refused like any other error, so the
 * cb_shim_rules pointer stays valid and constant for the shim's life.
 * Plugins: a plugin file whose identity (device, inode, size, mtime) is still the one loaded
 * keeps its loaded code; a changed file — a new build renamed over the path, as deploy tools
 * do, or rewritten in place (which may crash the old code still mapped from it: rename) — is
 * loaded again, its new bytes under a private name when the old object still holds the
 * path's, so old and new code run side by side until every table has switched. Reloads are
 * serialised; cb_table_seat_info tells which file and version each seat runs. */
int cb_shim_reload(cb_shim *shim, char *err, size_t errlen);
/* Live tables keep the shim alive: it is released with the last of them. */
void cb_shim_free(cb_shim *shim);
/* The rule set named by the config ([game] rules = ... plus [rules] overrides). */
const cb_rules *cb_shim_rules(const cb_shim *shim);
/* Read a string from the config ("game", "rules", ...) for hosts that keep their own settings
 * in it; NULL when absent. Valid until the next reload (do not call it from one thread while
 * another reloads and still use the result). */
const char *cb_shim_get(const cb_shim *shim, const char *group, const char *key);

/* A table: one plugin instance per seat, seated by [table.ID] if present, else [seats]. */
cb_table *cb_table_new(cb_shim *shim, const char *table_id, char *err, size_t errlen);
/* A table seated by name: strategies[i] (one per seat, n = the rules' players) names a
 * [strategy.NAME] of the config, for hosts that choose seatings at run time (tournaments,
 * lobbies). A name the config lacks, or a wrong n, is refused (NULL, err says which seat).
 * After a reload the names are looked up again: a seat whose strategy the new config no longer
 * has is answered by the fallback (CB_FB_NO_PLUGIN), as a seat [seats] leaves empty. */
cb_table *cb_table_new_seated(cb_shim *shim, const char *const *strategies, int n, char *err, size_t errlen);
void cb_table_free(cb_table *table);
/* The strategy name sitting at seat (NULL when none or seat out of range): the one the seat's
 * next decision will ask. Right after a reload that is already the new config's, though the
 * table switches its instances only at that decision (cb_seat_info.pending). The string
 * stays valid while the shim lives (a table keeps its shim alive). */
const char *cb_table_strategy(const cb_table *table, int seat);

/* Ask the seat's strategy. Always fills a legal answer when the return value is >= 0; on
 * < 0 out is untouched and cb_table_last_error says why.
 *  - view: view->struct_size is the size of cb_view the host was built with. A view from an
 *    older host (at least CB_VIEW_SIZE_1_0) is read only up to its struct_size and upgraded
 *    with cb_view_upgrade (game.h: first_bidder's default); a smaller one is CB_ERR_VIEW.
 *    view->rules may be NULL (the config's rules); non-NULL it must equal the table's
 *    (cb_rules_equal), and view->nseats the table's seat count, else CB_ERR_VIEW. The budget
 *    the plugin sees is view->budget_ms capped by [shim] budget_ms (0 = the config's).
 *  - out: the host sets out->struct_size (bot.h: sizeof(cb_decision) as the host knows it;
 *    0 is read as the 1.0 size). The shim writes only that many bytes of *out (at most the
 *    cb_decision it knows) and sets out->struct_size to the number it wrote; an explanation
 *    cut by a short size is still NUL-terminated inside it. A nonzero size smaller than
 *    offsetof(cb_decision, explain) is CB_ERR_ARG. The plugin itself always gets a whole
 *    cb_decision.
 * A fallback answer has CB_DEC_FALLBACK set and says why in out->explain. */
int cb_decide_bid(cb_table *table, const cb_view *view, cb_decision *out);
int cb_decide_play(cb_table *table, const cb_view *view, cb_decision *out);

/* Per-strategy statistics since open (reloads keep them): every strategy configured since
 * open, in the order first seen, plus "(none)" for decisions asked at seats without a
 * strategy once there have been some (a config names a strategy at every seat, so a table
 * seated by one never has such a seat). decisions counts every answer asked of the strategy, at its
 * seats and as the fallback; fallbacks[reason] counts its answers that were replaced (or, for
 * CB_FB_LATE, late); total_ns / max_ns time the plugin's own calls. */
typedef struct cb_strategy_stats {
    char name[48];
    uint64_t decisions;
    uint64_t total_ns;
    uint64_t max_ns;
    uint64_t fallbacks[CB_FB_NREASONS]; /* by reason; [0] unused */
} cb_strategy_stats;
/* Writes up to cap entries, returns the number of strategies. */
int cb_shim_stats(cb_shim *shim, cb_strategy_stats *out, int cap);

/* Why the last call on table that returned < 0 (CB_ERR_ARG, CB_ERR_VIEW) failed, naming the
 * argument or the view's member first ("nseats: ...", "rules: ...", "struct_size: ...");
 * "" when the last call succeeded. The calls that set it: cb_decide_bid, cb_decide_play,
 * cb_table_seat_info. Valid until the next of those on the table. Never NULL (a NULL table
 * gets a constant text). */
const char *cb_table_last_error(const cb_table *table);

/* [shim] isolation, as cb_seat_info reports it. */
enum { CB_ISOLATION_INPROC = 0, CB_ISOLATION_PROCESS = 1 };

/* Process isolation ([shim] isolation = process): each plugin instance — one per table seat,
 * plus the fallback's — runs in a worker process forked from the host.
 *  - The host never loads a plugin in this mode. cb_shim_open and cb_shim_reload read each
 *    plugin file (identity, SHA-256, a sealed in-memory copy) and validate it in a
 *    short-lived worker: load, entry point, ABI, create() with the strategy's parameters.
 *    Its errors read as in-process ("FILE: [strategy.NAME] plugin: ..." for the load,
 *    "FILE: [strategy.NAME]: ..." for create()); a plugin that crashes while loading (a
 *    constructor) fails the call with "FILE: [strategy.NAME] plugin: plugin crashed while
 *    loading PATH: signal 11 (SIGSEGV)", and the host runs on (a reload keeps the old config).
 *    Workers load the plugin from its path while the file there is the one read, else from
 *    the copy (cb_seat_info.private_copy as in-process).
 *  - Each worker is a process group of its own; stopping one (cb_table_free, a reload's
 *    switch, a kill after a crash or a blown deadline) SIGKILLs the whole group, so whatever
 *    a plugin forked goes with it. A worker gets SIGKILL when the host dies
 *    (PR_SET_PDEATHSIG). That signal follows the host THREAD that started the worker: when
 *    a thread that created a table (or restarted a worker inside a decision) exits while the
 *    table lives, the table's next decision finds the worker dead — counted CB_FB_CRASHED,
 *    answered by the fallback, the worker restarted. Hosts that end threads should create,
 *    use and free a table on one long-lived thread (as cardbot match does).
 *  - A worker reads stdin from /dev/null and writes its stdout to the host's stderr: a
 *    plugin's output never mixes into what the host prints on stdout.
 *  - [shim] worker_memory_mb = N: RLIMIT_AS of a worker at its size when forked plus N MB (so
 *    the host's own image, shared copy-on-write, does not count; thread stacks a plugin
 *    starts do); [shim] worker_cpu_s = N: RLIMIT_CPU, N CPU seconds over a worker's life
 *    (SIGXCPU, SIGKILL a second later). Off (0) by default. A plugin that hits a limit fails
 *    its allocation or dies: its worker is counted CB_FB_CRASHED and restarted with fresh
 *    limits.
 *  - [shim] sandbox = on: once the instance is created the worker installs a seccomp
 *    allow-list (libseccomp): its socket, memory, threads, time, futexes, its own signals.
 *    Opening files, sockets, fork, exec, ptrace, signals to other processes and the rest
 *    fail with EPERM (a call of a foreign system-call ABI kills the worker). A plugin that
 *    needs files or a network must open them in create(). Refused under inproc, like the
 *    limits: they apply to worker processes.
 *  - Restarts back off after repeated failures (answered by the fallback, counted
 *    CB_FB_NO_PLUGIN), counted in decisions; the back-off is forgotten when a new game
 *    starts at the table, which the shim sees by the view itself: a bid view where nobody
 *    has bid yet (a DDZ redeal too) or a play view with an empty history. So the fallbacks of
 *    a game depend on that game's views alone, not on what the table served before, and a
 *    match gives the same results at any number of threads. */

/* What a seat runs: which strategy, from which plugin file, of which build. Every member but
 * struct_size is set by the shim; strings stay valid while the shim lives (a table keeps its
 * shim alive). Grows only at its end. */
typedef struct cb_seat_info {
    uint32_t struct_size;       /* host: sizeof(cb_seat_info) as the host knows it; the shim
                                 * writes only that many bytes and sets it to the number written */
    int32_t isolation;          /* CB_ISOLATION_*: how the seat's instance runs */
    const char *strategy;       /* NAME of [strategy.NAME]; NULL when the seat has no strategy
                                 * (then the plugin members are NULL / 0 / "") */
    const char *plugin_path;    /* the plugin file as the config names it, resolved
                                 * (plugin_dir/NAME.so, or the path, relative ones joined to
                                 * the config file's directory) */
    const char *plugin_name;    /* the plugin's cb_bot.name ("" when it has none) */
    const char *plugin_version; /* the plugin's cb_bot.version ("" when it has none) */
    uint64_t config_gen;        /* the config the seat runs: 1 from cb_shim_open, +1 per
                                 * successful cb_shim_reload */
    uint64_t load_gen;          /* the config generation that loaded these plugin bytes: a
                                 * reload that found the file unchanged keeps it, one that
                                 * loaded a changed file gives its own */
    uint64_t file_dev;          /* the file when its bytes were loaded: stat's st_dev, */
    uint64_t file_ino;          /* st_ino, */
    int64_t file_size;          /* st_size, */
    int64_t file_mtime_sec;     /* st_mtim.tv_sec */
    int64_t file_mtime_nsec;    /* and st_mtim.tv_nsec */
    int32_t pending;            /* 1: a reload is not yet applied at this table — its instances
                                 * are still the old config's; the next decision switches to
                                 * what this struct describes. 0: they are this config's */
    int32_t private_copy;       /* 1: loaded from a private in-memory copy (the path's name was
                                 * still held by an older build); 0: dlopen'ed from the path */
    char sha256[65];            /* SHA-256 of the loaded bytes, lowercase hex ("" without a
                                 * strategy): compare with `sha256sum` of a deployed file */
} cb_seat_info;

/* The smallest struct_size cb_table_seat_info accepts: the first version's members. */
#define CB_SEAT_INFO_SIZE_1_1 ((uint32_t)(offsetof(cb_seat_info, sha256) + 65))

/* Describe seat: what its next decision runs (after a reload: the new config's, with pending
 * set until the table's next decision switches). Should the plugin's create() then fail, that
 * seat is answered by the fallback (counted CB_FB_NO_PLUGIN in cb_shim_stats). 0, or
 * CB_ERR_ARG (NULL table or out, seat out of range, out->struct_size below
 * CB_SEAT_INFO_SIZE_1_1; cb_table_last_error says which) with out untouched. */
int cb_table_seat_info(const cb_table *table, int seat, cb_seat_info *out);

#ifdef __cplusplus
}
#endif
#endif

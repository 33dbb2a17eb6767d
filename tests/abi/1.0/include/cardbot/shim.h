/* Frozen copy of the ABI 1.0 public header (git show 4d8233c:include/cardbot/shim.h) for the compatibility test tests/abi: never edit. */
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
 * to err. */
cb_shim *cb_shim_open(const char *config_path, char *err, size_t errlen);
/* Re-read the config. On failure the old config keeps running (returns -1, message in err);
 * on success tables pick up the new seating from their next decision: a live table then
 * destroys all its plugin instances and creates new ones from the new config. A reload may
 * not change the rules ([game] / [rules]): that is refused like any other error, so the
 * cb_shim_rules pointer stays valid and constant for the shim's life. */
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
void cb_table_free(cb_table *table);
/* The strategy name sitting at seat (NULL when none). After a reload it shows the new
 * seating from the table's next decision on. */
const char *cb_table_strategy(const cb_table *table, int seat);

/* Ask the seat's strategy. out->struct_size is set by the shim. Always fills a legal answer
 * when the return value is >= 0. view->rules may be NULL (the config's rules); the budget the
 * plugin sees is view->budget_ms capped by [shim] budget_ms (0 = the config's). A fallback
 * answer has CB_DEC_FALLBACK set and says why in out->explain. */
int cb_decide_bid(cb_table *table, const cb_view *view, cb_decision *out);
int cb_decide_play(cb_table *table, const cb_view *view, cb_decision *out);

/* Per-strategy statistics since open (reloads keep them): every strategy configured since
 * open, in the order first seen, plus "(none)" for decisions asked at seats without a
 * strategy once there have been some. decisions counts every answer asked of the strategy, at its
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

#ifdef __cplusplus
}
#endif
#endif

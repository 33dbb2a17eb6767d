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
 * (the reason); < 0 = the call itself failed (bad arguments or view), out untouched. */
enum {
    CB_OK = 0,
    CB_FB_ILLEGAL = 1,     /* answer broke the rules (shape, not in hand, does not beat, flags) */
    CB_FB_FAILED = 2,      /* plugin returned an error */
    CB_FB_LATE = 3,        /* answer came after the decision budget */
    CB_FB_NO_PLUGIN = 4,   /* no strategy / instance for this seat */
    CB_FB_CRASHED = 5,     /* plugin process died (process isolation) */
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
 * on success tables pick up the new seating from their next decision. */
int cb_shim_reload(cb_shim *shim, char *err, size_t errlen);
void cb_shim_free(cb_shim *shim);
/* The rule set named by the config ([game] rules = ... plus [rules] overrides). */
const cb_rules *cb_shim_rules(const cb_shim *shim);
/* Read a string from the config ("game", "rules", ...) for hosts that keep their own settings
 * in it; NULL when absent. Valid until the next reload. */
const char *cb_shim_get(const cb_shim *shim, const char *group, const char *key);

/* A table: one plugin instance per seat, seated by [table.ID] if present, else [seats]. */
cb_table *cb_table_new(cb_shim *shim, const char *table_id, char *err, size_t errlen);
void cb_table_free(cb_table *table);
/* The strategy name sitting at seat (NULL when none). */
const char *cb_table_strategy(const cb_table *table, int seat);

/* Ask the seat's strategy. out->struct_size is set by the shim. Always fills a legal answer
 * when the return value is >= 0. */
int cb_decide_bid(cb_table *table, const cb_view *view, cb_decision *out);
int cb_decide_play(cb_table *table, const cb_view *view, cb_decision *out);

/* Per-strategy statistics since open (reloads keep them). */
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

/* Frozen copy of the ABI 1.0 public header (git show 4d8233c:include/cardbot/bot.h) for the compatibility test tests/abi: never edit. */
/* cardbot — the strategy plugin ABI.
 *
 * A plugin is a shared object exporting one symbol, cb_plugin_entry, that returns a
 * const cb_bot *: a table of the ABI version, its own size, a name and four functions. As in
 * SQLite's VFS and Redis's module API, structs only grow at their end; a struct_size field
 * tells either side which members exist. A plugin built for another ABI major is refused at
 * load; a newer minor may only add members at the end.
 *
 * One instance per (table, seat): a plugin keeps all its state in the instance (no mutable
 * globals), so a host may run thousands of tables on many threads. The host never calls one
 * instance from two threads at once. An instance lives across games; it may cache (a
 * min-hands table, say) but its answer must depend only on the view — seed included — and its
 * parameters, so a replayed game replays exactly, whatever the instance saw before.
 *
 * The view holds only public information plus the deciding seat's own hand. A plugin must not
 * keep pointers into a view after its decide_* call returns.
 */
#ifndef CARDBOT_BOT_H
#define CARDBOT_BOT_H

#include "rules.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CB_ABI_MAJOR 1
#define CB_ABI_MINOR 0
#define CB_ABI_VERSION ((CB_ABI_MAJOR << 16) | CB_ABI_MINOR)
#define CB_ABI_MAJOR_OF(v) ((v) >> 16)
#define CB_MAX_SEATS 3

typedef enum { CB_PHASE_BID = 1, CB_PHASE_PLAY = 2 } cb_phase;

/* One entry of the public play history: who, and what (0 = pass). */
typedef struct cb_play_rec {
    cb_cards cards;
    int32_t seat;
    int32_t pad;
} cb_play_rec;

typedef struct cb_view {
    uint32_t struct_size;         /* sizeof(cb_view) as the host knows it */
    uint32_t abi_version;         /* CB_ABI_VERSION of the host */
    const cb_rules *rules;        /* the table's rule set */
    int32_t phase;                /* cb_phase */
    int32_t seat;                 /* the deciding seat, 0..nseats-1 */
    int32_t nseats;               /* 3 */
    int32_t first_seat;           /* who bid first / led first (PDK: the spade-3 holder) */
    cb_cards hand;                /* my cards */
    int32_t cards_left[CB_MAX_SEATS];
    int32_t bombs[CB_MAX_SEATS];  /* bombs (and the rocket) each seat has played */
    /* Bidding so far, in seat order: -1 = not yet, 0 = pass, DDZ 1..3 = score, PDK 1 = 包庄. */
    int32_t bids[CB_MAX_SEATS];
    int32_t landlord;             /* DDZ landlord / PDK 包庄 declarer, -1 none (yet) */
    cb_cards bottom;              /* DDZ bottom cards once shown, else 0 */
    const cb_play_rec *history;   /* the whole public play history, oldest first */
    int32_t nhistory;
    int32_t table_seat;           /* seat that made the play to beat, -1 when leading */
    cb_cards table;               /* the play to beat (0 = I lead) */
    uint32_t budget_ms;           /* time for this decision */
    uint32_t pad;
    uint64_t seed;                /* per-decision seed: same view + seed -> same answer */
} cb_view;

/* Decision flags (explanations, never orders). */
enum {
    CB_DEC_BOMB = 1u << 0,        /* plays a bomb / rocket */
    CB_DEC_ENDGAME = 1u << 1,     /* chosen by exact endgame reasoning */
    CB_DEC_COUNTED = 1u << 2,     /* used card counting (what is still out) */
    CB_DEC_SUBOPTIMAL = 1u << 3,  /* a weak level chose other than its best */
    CB_DEC_FALLBACK = 1u << 4,    /* set by the shim: this answer is a fallback's */
};

typedef struct cb_decision {
    uint32_t struct_size;         /* set by the host; a plugin writes only members inside it */
    uint32_t flags;               /* CB_DEC_* */
    cb_cards cards;               /* the play (0 = pass); must be a subset of view->hand */
    int32_t bid;                  /* decide_bid: DDZ 0 = pass, 1..3; PDK 0 = no, 1 = 包庄 */
    float value;                  /* estimated win rate / value of the choice (NAN: none) */
    uint64_t simulations;         /* playouts or worlds evaluated */
    uint64_t nodes;               /* search nodes */
    int32_t minhands_before;      /* min_hands of my hand before / after (-1 unknown) */
    int32_t minhands_after;
    char explain[112];            /* short human text, NUL-terminated */
} cb_decision;

typedef struct cb_param {
    const char *key;
    const char *value;
} cb_param;

typedef struct cb_bot {
    uint32_t abi_version;         /* CB_ABI_VERSION the plugin was built for */
    uint32_t struct_size;         /* sizeof(cb_bot) in that build */
    const char *name;
    const char *version;
    /* Create an instance from the config's key/value parameters; unknown keys or bad values
     * -> NULL with a message naming the key in err. */
    void *(*create)(const cb_param *params, int nparams, char *err, size_t errlen);
    void (*destroy)(void *instance);
    /* Fill out; return 0, or nonzero on failure (the shim falls back). */
    int (*decide_bid)(void *instance, const cb_view *view, cb_decision *out);
    int (*decide_play)(void *instance, const cb_view *view, cb_decision *out);
} cb_bot;

typedef const cb_bot *(*cb_plugin_entry_fn)(void);
#define CB_PLUGIN_ENTRY "cb_plugin_entry"

#ifdef __cplusplus
}
#endif
#endif

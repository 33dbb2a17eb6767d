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
#define CB_ABI_MINOR 1
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

/* The view: what the deciding seat may know. The host fills every member (cb_engine_view in
 * game.h builds it exactly); the shim checks it (cb_view_check) and refuses a view no real
 * game produces with CB_ERR_VIEW and the field named (cb_table_last_error). The contract:
 *
 *  - Turn order is seat, seat + 1, seat + 2 (mod nseats), in bidding and in play.
 *  - Bidding. DDZ 叫分: from first_bidder, each seat once, 0 = pass or a score above every
 *    earlier one, 3 ends it; all pass = a redeal (a new view, new hands, bids reset). DDZ
 *    叫/抢地主 (rules->rob): from first_bidder, until someone calls each seat may call (1) or
 *    pass (0); after a call the later seats may rob (2) or pass (0); if anyone robbed, the
 *    first caller may rob back (2) or pass (0) once more; the last caller or robber is
 *    landlord. PDK 包庄 (rules->bao): in turn from first_seat, 1 = declare, 0 = no; the first
 *    declaration ends the bidding, so the seats after the declarer keep -1 in bids[].
 *  - bids[s] is seat s's latest bidding action (-1 = not asked). In play it keeps the
 *    bidding's final record (DDZ: the landlord's bid is the highest; under rob 1 = called,
 *    2 = robbed).
 *  - first_seat is the seat that leads (or led) the first trick: PDK the spade-3 holder when
 *    rules->spade3_first, else the seat the host's rule names; DDZ the landlord (-1 while the
 *    DDZ bidding has no landlord yet). first_bidder is who bid first (DDZ: the host's choice;
 *    PDK: first_seat, as 包庄 is asked from the first leader). They are different facts.
 *  - history holds every play and pass of the play phase, oldest first, in turn order from
 *    first_seat (no bids). A trick ends after a play followed by two passes; its last play's
 *    seat leads next. The game ends when a seat's hand empties.
 *  - table / table_seat: the current trick's last play and who made it; 0 / -1 when the
 *    deciding seat leads (a new trick, or the first play).
 *  - cards_left counts every seat's cards now (the landlord's include the bottom); bombs
 *    counts each seat's bombs and rockets played so far; bottom is the DDZ bottom once the
 *    landlord is known (0 before, and always 0 in PDK).
 *  - budget_ms bounds this decision's wall time; the shim caps it by [shim] budget_ms. A
 *    strategy's own parameters (ismcts iterations, time_ms) bound its work below that.
 *  - seed: the host's per-decision seed. It must come from a stream independent of the
 *    dealing (e.g. a keyed hash of match key, seat and decision number, as cb_engine_view
 *    does): a seed drawn from the shuffle's generator lets a plugin recover the deal. Same
 *    view and seed -> the same answer.
 *
 * Growth: members are added only at the end with an ABI minor bump. A host built against an
 * older minor passes its smaller struct_size; the shim and cb_view_upgrade give the missing
 * members their documented defaults (zero unless stated). */
typedef struct cb_view {
    uint32_t struct_size;         /* host: sizeof(cb_view) as the host knows it */
    uint32_t abi_version;         /* host: CB_ABI_VERSION of the host */
    const cb_rules *rules;        /* host: the table's rule set (the shim's: NULL allowed) */
    int32_t phase;                /* host: cb_phase */
    int32_t seat;                 /* host: the deciding seat, 0..nseats-1 */
    int32_t nseats;               /* host: 3 */
    int32_t first_seat;           /* host: first leader (see above); -1 in DDZ bidding */
    cb_cards hand;                /* host: the deciding seat's cards */
    int32_t cards_left[CB_MAX_SEATS];
    int32_t bombs[CB_MAX_SEATS];  /* bombs (and the rocket) each seat has played */
    /* Bidding, by seat: -1 = not yet, 0 = pass, DDZ 1..3 = score (rob: 1 call, 2 rob),
     * PDK 1 = 包庄. */
    int32_t bids[CB_MAX_SEATS];
    int32_t landlord;             /* DDZ landlord / PDK 包庄 declarer, -1 none (yet) */
    cb_cards bottom;              /* DDZ bottom cards once the landlord is known, else 0 */
    const cb_play_rec *history;   /* the whole public play history, oldest first */
    int32_t nhistory;
    int32_t table_seat;           /* seat that made the play to beat, -1 when leading */
    cb_cards table;               /* the play to beat (0 = I lead) */
    uint32_t budget_ms;           /* time for this decision */
    uint32_t pad;
    uint64_t seed;                /* per-decision seed, independent of the deal */
    /* ---- ABI 1.1 ---- */
    int32_t first_bidder;         /* host: who bid first; -1 = no bidding (PDK without 包庄,
                                   * DDZ with fixed roles). Default for a 1.0 view: see
                                   * cb_view_upgrade. */
    int32_t pad2;
} cb_view;

/* The size of a view from a host built against ABI 1.0 (no first_bidder). */
#define CB_VIEW_SIZE_1_0 ((uint32_t)offsetof(cb_view, first_bidder))

/* Decision flags (explanations, never orders). */
enum {
    CB_DEC_BOMB = 1u << 0,        /* plays a bomb / rocket */
    CB_DEC_ENDGAME = 1u << 1,     /* chosen by exact endgame reasoning */
    CB_DEC_COUNTED = 1u << 2,     /* used card counting (what is still out) */
    CB_DEC_SUBOPTIMAL = 1u << 3,  /* a weak level chose other than its best */
    CB_DEC_FALLBACK = 1u << 4,    /* set by the shim: this answer is a fallback's */
};

/* A decision. The host sets struct_size (sizeof as it knows it; 0 is read as the 1.0 size)
 * and the shim writes only that many bytes; the shim sets struct_size to the size it gives a
 * plugin, and a plugin writes only members inside it. */
typedef struct cb_decision {
    uint32_t struct_size;         /* see above */
    uint32_t flags;               /* CB_DEC_* */
    cb_cards cards;               /* the play (0 = pass); must be a subset of view->hand */
    int32_t bid;                  /* decide_bid: DDZ 叫分 0 = pass, 1..3; under rules->rob 0 = pass,
                                   * 1 = call, 2 = rob (see "Bidding" above); PDK 0 = no, 1 = 包庄 */
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
     * -> NULL with a message naming the key in err. (The cardbot shim adds one parameter of
     * its own, config_dir = the config file's directory, for the plugin named "exec" only:
     * relative paths there are the config's. Other plugins get exactly the config's keys.) */
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

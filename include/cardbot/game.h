/* cardbot — the game engine: dealing, bidding, turns, legal actions, apply, views, settlement.
 *
 * One engine for everybody: the console host (`cardbot match`), the shim's view check, the
 * plugins' play-outs and any server that would rather not write its own state machine. Two
 * layers:
 *
 *  - cb_engine (opaque, FFI-friendly): a whole game from the deal to the settlement — the
 *    shuffle, the bidding phase (DDZ 叫分 with redeals, DDZ 叫/抢地主 when rules->rob, PDK
 *    包庄), the play, the exact cb_view for any seat, and the points. Every action is checked
 *    and a wrong one is refused with a reason; nothing changes then.
 *  - cb_deal (a plain struct, copy it to branch): the play phase with all hands known, for
 *    play-outs. Validation is switchable (cb_deal.check) because a rollout policy that only
 *    chooses from cb_legal_moves need not pay for it twice. cb_engine plays through it, so
 *    the trick flow exists once.
 *
 * Seeds: a match has a 64-bit key. The shuffle of deal d (and of its redeals) and the seed of
 * every view are separate outputs of a keyed pseudo-random function (HMAC-SHA-256 keyed by
 * the match key, over a purpose label and the indices), so a view's seed tells nothing about
 * any hand: hosts that make their own seeds must do the same (bot.h).
 *
 * Threads: an engine or a deal is used by one thread at a time; nothing is shared.
 */
#ifndef CARDBOT_GAME_H
#define CARDBOT_GAME_H

#include "bot.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- library version ---- */
#define CB_VERSION_MAJOR 1
#define CB_VERSION_MINOR 4
#define CB_VERSION_PATCH 0
#define CB_VERSION "1.4.0"
/* The version of the library actually loaded ("1.4.0"); compare with CB_VERSION. */
const char *cb_version(void);

/* ---- what passes prove ---- */

/* Under must_beat a seat that passes could not beat the table, so it holds no higher single /
 * pair / triple (PDK 三带二 with 5+ cards), and — with must_beat_bomb — no bomb that would
 * beat it. above[s][t] = r: seat s holds no rank above r with t or more cards (CB_NRANKS:
 * nothing known); no_bomb[s]: seat s holds no bomb at all. Hands only shrink, so what a pass
 * proves stays true. */
typedef struct cb_voids {
    int8_t above[3][5];
    uint8_t no_bomb[3];
} cb_voids;

void cb_voids_init(cb_voids *v);
/* Seat `seat`, holding `ncards`, passed on `table`. */
void cb_voids_on_pass(cb_voids *v, const cb_rules *r, int seat, const cb_move *table, int ncards);

/* ---- the play phase with all hands known ---- */

/* Conventions: seats act in the order 0, 1, 2, 0, ...; a trick ends when both other seats pass
 * after a play, and the seat that made the play leads next; the first seat to empty its hand
 * wins and the deal ends at once. A bomb (or rocket) that is still the table play when its
 * trick ends — or that empties its player's hand — has won its trick (PDK bomb points).
 *
 * Members are read-only for callers (set by cb_deal_init / cb_deal_step) except check, hist
 * and hist_cap, which the caller sets before cb_deal_init. The layout is fixed for ABI major
 * 1: it never grows (new engine state goes into cb_engine), so a plugin may keep one on its
 * stack and copy it by assignment. */
typedef struct cb_deal {
    const cb_rules *rules;
    cb_cards hands[3];
    cb_cards played;          /* every card played so far */
    cb_cards bottom;          /* DDZ bottom cards (public; part of the landlord's hand at start) */
    int turn;                 /* seat to act */
    int first_seat;           /* seat that led first */
    int landlord;             /* DDZ landlord / PDK 包庄 declarer, -1 none */
    int bid;                  /* DDZ stake from the bidding, >= 1 (settlement) */
    int table_seat;           /* seat whose play is to beat, -1 when `turn` leads */
    int npass;                /* passes since the table play */
    cb_move table;            /* the play to beat (valid when table_seat >= 0) */
    cb_cards table_cards;
    bool first_play;          /* nothing played yet (spade-3 rule) */
    bool check;               /* caller: validate every action with cb_play_legal */
    int winner;               /* -1 while the deal runs */
    int steps;                /* actions (plays and passes) so far */
    int plays[3];             /* plays (not passes) per seat */
    int bombs[3];             /* bombs + rockets per seat */
    int bomb_tricks[3];       /* bombs that won their trick, per seat */
    cb_voids voids;           /* what the passes so far prove (public) */
    /* caller: optional record of every action (NULL: none). Copies of a state share it:
     * rollouts set hist = NULL. */
    cb_play_rec *hist;
    int nhist, hist_cap;
} cb_deal;

/* Start a deal. hands: the three hands as dealt (DDZ: the landlord's already holds the bottom).
 * first_seat < 0 picks the holder of the spade 3 (PDK with spade3_first) or else the landlord
 * (DDZ) or seat 0. landlord: DDZ landlord or PDK 包庄 declarer (-1 none). bid: DDZ stake. */
void cb_deal_init(cb_deal *g, const cb_rules *r, const cb_cards hands[3], int first_seat,
                  int landlord, int bid, cb_cards bottom);
/* The rules' situation of the seat to act (ctx->table points into g). */
void cb_deal_ctx(const cb_deal *g, cb_ctx *ctx);
/* Apply the action of the seat to act (shape CB_PASS = pass). Returns 1 when the deal is over
 * (g->winner set), 0 when it goes on, -1 when the action is impossible (pass while leading,
 * cards not in the hand, or — with g->check — against the rules; why gets the reason). The
 * cards leave the hand lowest ids first (cb_cards_pick); cb_deal_step_cards names them. */
int cb_deal_step(cb_deal *g, const cb_move *m, char *why, size_t whylen);
/* The same with the actual cards (0 = pass); m may be NULL (then cards are classified; with
 * g->check off the caller vouches that they are a legal play). */
int cb_deal_step_cards(cb_deal *g, cb_cards cards, const cb_move *m, char *why, size_t whylen);

/* A policy: choose the action of g->turn (g is perfect information: a fair policy reads only
 * the public part and its own hand). Return 0, or nonzero on failure. */
typedef int (*cb_deal_policy)(void *user, const cb_deal *g, cb_move *out);
/* Play to the end with one policy per seat (pols[s], users[s]). Returns the winner, -1 when a
 * policy failed or gave an impossible action, -2 when max_steps actions did not finish it. */
int cb_deal_run(cb_deal *g, cb_deal_policy const pols[3], void *const users[3], int max_steps,
                char *why, size_t whylen);
/* Points of a finished deal per seat (core settlement; sum 0). Returns the DDZ multiplier
 * (PDK: 1), or -1 if not finished. */
int cb_deal_points(const cb_deal *g, int delta[3]);
/* A public view of g for its seat to act. Pointers in the view point into g (history) and r;
 * valid while g lives and is not stepped. Needs a hist record for the history (otherwise
 * nhistory = 0). bids may be NULL (all -1); first_bidder -1; budget_ms 1000. */
void cb_deal_view(const cb_deal *g, const int bids[3], uint64_t seed, cb_view *v);

/* ---- views ---- */

/* Does v describe a position a real game under r reaches? 0, or CB_ERR_VIEW (-2) with the
 * reason, naming the field, in err (may be NULL). r may be NULL: v->rules then. Checked:
 * struct_size / abi_version, rules (v->rules, when both are given, must equal r), phase, seat,
 * nseats, first_seat / first_bidder / landlord / bids as the bidding leaves them (bot.h), the
 * card counts against the deck and the hand size, my hand, the bottom, the history (seats in
 * turn from first_seat, every card once, each play legal against its trick and the first
 * play's spade 3, passes only when following, my own plays and passes legal with the hand I
 * held), the table and table_seat (the current trick's last play), bombs per seat. A view
 * with struct_size below sizeof(cb_view) is read as cb_view_upgrade reads it. */
int cb_view_check(const cb_rules *r, const cb_view *v, char *err, size_t errlen);

/* The same check, done incrementally: a checker remembers, per seat, the last view it accepted
 * and where its replay stood, so a view that goes on from it (same game: that history a prefix
 * of this one, the hand then = this hand plus what the seat played since) replays only the new
 * entries. The verdict is always cb_view_check's. One checker per table (the shim keeps one);
 * not for two threads at once. */
typedef struct cb_view_checker cb_view_checker;
cb_view_checker *cb_view_checker_new(void);
void cb_view_checker_free(cb_view_checker *c);
int cb_view_checker_check(cb_view_checker *c, const cb_rules *r, const cb_view *v, char *err, size_t errlen);

/* The bids the deciding seat may make in a bid-phase view, increasing (DDZ 叫分: 0 and the
 * scores above the highest so far; rob: 0 and 1 (call) or 2 (rob); PDK 包庄: 0 and 1).
 * Returns how many and writes up to cap; 0 for a view cb_view_check refuses or a play view. */
int cb_view_legal_bids(const cb_view *v, int32_t *out, int cap);

/* Copy a host's view of any known size into *out at this library's size: members beyond
 * in->struct_size take their defaults (zero, except first_bidder: a 1.0 view's first_seat
 * meant "who bid first" in DDZ, so a 1.0 DDZ view gives first_bidder = first_seat and
 * first_seat = the landlord (-1 while bidding) — or first_bidder = -1 for a play view where
 * no seat was ever asked to bid (fixed roles); a 1.0 PDK view gives first_bidder =
 * first_seat when rules->bao, else -1). Returns 0, or -1 when in->struct_size is smaller
 * than a 1.0 view. */
int cb_view_upgrade(const cb_view *in, cb_view *out);

/* ---- a whole game ---- */

typedef struct cb_engine cb_engine;

#define CB_PHASE_OVER 3 /* cb_engine_phase: the game has ended (cb_phase has BID and PLAY) */

typedef struct cb_engine_opts {
    uint32_t struct_size;   /* caller: sizeof(cb_engine_opts) */
    uint32_t pad;
    uint64_t key;           /* the match key: names every shuffle and view seed */
    uint64_t deal;          /* which deal of the match (a duplicate match replays a deal) */
    uint64_t game;          /* which game of the match (the view seeds) */
    int32_t rotation;       /* 0..2: the deal's hand (p + rotation) % 3 goes to seat p */
    int32_t first_bidder;   /* DDZ: who bids first; -1 = drawn from the deal's stream.
                             * PDK: ignored (包庄 is asked from the first leader) */
    int32_t landlord;       /* DDZ: >= 0 = fixed roles, this seat is landlord at bid 1 and
                             * there is no bidding; -1 = bid for it */
    int32_t max_redeals;    /* DDZ: all-pass redeals before the first bidder is made landlord
                             * at 1 (so no strategy can stall a game); 0 = 16 */
    const cb_cards *hands;  /* NULL = shuffle; else the 3 hands as dealt (before rotation and
                             * before the bottom; redeals then shuffle as above) */
    cb_cards bottom;        /* with hands: the DDZ bottom */
} cb_engine_opts;

/* Start a game (the first phase: DDZ bidding, PDK 包庄 when rules->bao, else play). The engine
 * keeps its own copy of *r. NULL with the reason in err for bad rules or options (given hands
 * that do not partition the deck). */
cb_engine *cb_engine_new(const cb_rules *r, const cb_engine_opts *o, char *err, size_t errlen);
void cb_engine_free(cb_engine *e);
/* A copy (for a host that wants to look ahead); NULL on allocation failure. */
cb_engine *cb_engine_clone(const cb_engine *e);
const cb_rules *cb_engine_rules(const cb_engine *e);

int cb_engine_phase(const cb_engine *e);  /* CB_PHASE_BID, CB_PHASE_PLAY or CB_PHASE_OVER */
int cb_engine_turn(const cb_engine *e);   /* the seat to act, -1 when over */
cb_cards cb_engine_hand(const cb_engine *e, int seat);    /* cards now */
cb_cards cb_engine_dealt(const cb_engine *e, int seat);   /* as dealt (DDZ: before the bottom) */
cb_cards cb_engine_bottom(const cb_engine *e);            /* DDZ bottom (0 in PDK) */
int cb_engine_landlord(const cb_engine *e);  /* DDZ landlord / PDK 包庄 declarer, -1 none */
int cb_engine_first_seat(const cb_engine *e);   /* first leader (-1 while DDZ bidding) */
int cb_engine_first_bidder(const cb_engine *e); /* -1 when there is no bidding */
int cb_engine_stake(const cb_engine *e);     /* DDZ: the bid (叫分) or 2^robs (rob); PDK: 1 */
int cb_engine_redeals(const cb_engine *e);   /* DDZ all-pass redeals so far */
/* The bidding record: bids[s] as in cb_view; returns the number of bid actions taken and
 * writes up to cap of them in order (seat, value) into seats / values (either may be NULL). */
int cb_engine_bids(const cb_engine *e, int32_t bids[3], int32_t *seats, int32_t *values, int cap);
/* The public play history (passes included); valid until the next action. */
const cb_play_rec *cb_engine_history(const cb_engine *e, int *n);
/* The play state (read-only; NULL while bidding). */
const cb_deal *cb_engine_deal(const cb_engine *e);

/* The actions the seat to act may take. Bids: DDZ 叫分 0 (pass) and each score above the
 * highest so far; rob: 0 and 1 (call) or 2 (rob); PDK 包庄: 0 and 1. Plays: actual cards,
 * one per distinct play by ranks (cb_legal_moves' order, a pass first as 0 when allowed),
 * the cards picked lowest ids first (a play with a 3 takes the spade 3). Return the count
 * and write up to cap (0 when it is not that phase). */
int cb_engine_legal_bids(const cb_engine *e, int32_t *out, int cap);
int cb_engine_legal_plays(const cb_engine *e, cb_cards *out, int cap);
/* Apply the seat-to-act's bid / play (0 = pass). 0, or -1 with the reason in err and the game
 * unchanged (not its phase, not in hand, against the rules). */
int cb_engine_bid(cb_engine *e, int bid, char *err, size_t errlen);
int cb_engine_play(cb_engine *e, cb_cards cards, char *err, size_t errlen);

/* The exact view of seat (any seat; usually the one to act) for its next decision: own hand
 * plus the public record, first_seat / first_bidder / bids / landlord / bottom as bot.h
 * says, seed from the keyed stream (key, game, decision number, seat), budget_ms as given.
 * Pointers (rules, history) point into e: valid until the next action. -1 when over. */
int cb_engine_view(const cb_engine *e, int seat, uint32_t budget_ms, cb_view *v);

int cb_engine_winner(const cb_engine *e);  /* first out, -1 while running */
/* Points per seat once over (sum 0); returns the DDZ multiplier (PDK 1), -1 while running. */
int cb_engine_points(const cb_engine *e, int delta[3]);
/* Counts for reports: plays made and bombs that won their trick per seat, bombs in all. */
int cb_engine_plays_made(const cb_engine *e, int seat);
int cb_engine_bomb_tricks(const cb_engine *e, int seat);

/* The keyed stream behind the shuffles and seeds: a 64-bit output of HMAC-SHA-256 keyed by
 * key over (purpose, a, b, c). Hosts with their own state machine derive view seeds with it
 * (purpose "seed"), never from their dealing generator. */
uint64_t cb_prf64(uint64_t key, const char *purpose, uint64_t a, uint64_t b, uint64_t c);

/* ---- appended in 1.2.0: facts of a view that every reader used to re-derive ---- */

/* The highest bid in v->bids: 0 when no seat has bid above a pass (-1 = not asked counts as
 * nothing). DDZ 叫分: 1..3; rob: 1 called, 2 robbed; PDK: 1 = 包庄 declared. */
int cb_view_high_bid(const cb_view *v);

/* The stake the bidding set, as the engine settles with it (cb_engine_stake): DDZ 叫分 the
 * highest bid; DDZ rob 2^(robs), a rob being a seat whose record is 2 (each seat robs at most
 * once: the later seats in the first round, the caller on its rob-back); PDK, and a DDZ view
 * with no bid above a pass, 1. */
int cb_view_stake(const cb_view *v);

/* The rules' situation of the deciding seat of a play view (cb_ctx_make over v: its hand, the
 * next seat's cards_left, nothing played while the history is empty). table is the reading of
 * v->table to beat (NULL when leading); the caller classifies it, once, as it sees fit. */
void cb_view_ctx(const cb_view *v, const cb_move *table, cb_ctx *ctx);

/* The position of a play view as a deal, replayed through the deal's own bookkeeping: the
 * deciding seat's hand, the other hands 0 (a determinization deals them: set g->hands[s]),
 * and every public fact — cards played, plays / bombs / bombs that won their trick per seat,
 * the open trick (the reading of its last play as cb_play_legal accepted it against the play
 * before, the passes since), first_play, what the passes prove (voids), steps, landlord,
 * bottom, turn = v->seat. bid: cb_view_stake(v) (the DDZ stake; PDK does not read it). check
 * off, no hist.
 * Returns 0, or -1 with the reason in err when the history does not replay (a seat out of
 * turn, a pass while leading, a play no rule accepts there, v->seat not to act after it).
 * A view cb_view_check accepts always replays. */
int cb_deal_of_view(const cb_view *v, cb_deal *g, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif

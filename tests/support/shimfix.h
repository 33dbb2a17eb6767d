/* cardbot tests — the fixture of the shim tests (test_shim.c, test_isolation.c).
 *
 * The shim is the built libcardbot-shim.so of one variant ($CB_BUILD, default build/plain),
 * loaded with dlopen exactly as a host in another language would, its API resolved by name;
 * the fault-injection plugins are $CB_BUILD/tests/plugins/NAME.so. Configs are written to a
 * fresh temp directory, removed again at teardown. Views are real positions, played with the
 * engine (game.h) from chosen hands.
 *
 * Everything here fails the running cmocka test (fail_msg / assert_*) on a problem, so the
 * tests read as the checks they make.
 */
#ifndef CBT_SHIMFIX_H
#define CBT_SHIMFIX_H

#include <stdbool.h>
#include <stddef.h>

#include "cardbot/shim.h"

/* The shim's API, resolved from the .so. */
typedef struct cbt_shim_api {
    void *dl;
    cb_shim *(*open)(const char *, char *, size_t);
    int (*reload)(cb_shim *, char *, size_t);
    void (*free)(cb_shim *);
    const cb_rules *(*rules)(const cb_shim *);
    const char *(*get)(const cb_shim *, const char *, const char *);
    cb_table *(*table_new)(cb_shim *, const char *, char *, size_t);
    cb_table *(*table_new_seated)(cb_shim *, const char *const *, int, char *, size_t);
    void (*table_free)(cb_table *);
    const char *(*table_strategy)(const cb_table *, int);
    int (*decide_bid)(cb_table *, const cb_view *, cb_decision *);
    int (*decide_play)(cb_table *, const cb_view *, cb_decision *);
    int (*stats)(cb_shim *, cb_strategy_stats *, int);
    const char *(*strerror)(int);
    const char *(*last_error)(const cb_table *);
    int (*seat_info)(const cb_table *, int, cb_seat_info *);
} cbt_shim_api;

/* A decision to pass to cb_decide_*: the host sets struct_size (bot.h), the rest is the
 * shim's to write. */
#define CBT_DEC { .struct_size = sizeof(cb_decision) }

typedef struct cbt_shimfix {
    cbt_shim_api api;
    char *build;  /* absolute $CB_BUILD */
    char *tplugs; /* absolute $CB_BUILD/tests/plugins */
    char *tmp;    /* temp dir for configs */
    int nfiles;
} cbt_shimfix;

/* cmocka group setup: load the shim, make the temp dir (g_dir_make_tmp template tmpl), store
 * the fixture in *state. who prefixes the messages on stderr. Returns 0 or -1. */
int cbt_shimfix_setup(void **state, const char *who, const char *tmpl);
/* cmocka group teardown: remove the temp dir and its files. The shim stays loaded: glib keeps
 * process-wide state that must not vanish under it. */
int cbt_shimfix_teardown(void **state);

/* ---- configs ---- */

/* Write a config (printf-style) to a new file in the temp dir; returns its path (g_free). */
char *cbt_conf_raw(cbt_shimfix *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same, with [shim] plugin_dir pointing at the test plugins: put first in the body's own
 * [shim] group when it has one (the shim refuses a group written twice), else in a [shim]
 * group of its own before the body. */
char *cbt_conf_tp(cbt_shimfix *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Replace the contents of a config file. */
void cbt_rewrite(const char *path, const char *body);

/* Open must fail with a message holding every one of the NULL-terminated needles. */
void cbt_expect_open_error(cbt_shimfix *f, const char *path, ...) __attribute__((sentinel));
cb_shim *cbt_open_ok(cbt_shimfix *f, const char *path);
/* A table of s (id NULL: the default seating). */
cb_table *cbt_table_ok(cbt_shimfix *f, cb_shim *s, const char *id);

/* ---- views ---- */

/* Card text in the rules' deck. */
cb_cards cbt_cards(const cb_rules *r, const char *text);

/* ---- real positions: views the strict view check (cb_view_check) accepts ----
 *
 * The shim refuses every view no real game produces, so a test that needs a position (the
 * next seat down to one card, a table to follow, the first play) plays it with the engine
 * from chosen hands. Every builder fails the test with the engine's or the view check's
 * reason when the position cannot be reached: a fixture mistake shows as one. */

#define CBT_MAXHIST 64

/* A view and its own copy of the history (so a test may break either). */
typedef struct cbt_vb {
    cb_view v;
    cb_play_rec hist[CBT_MAXHIST];
} cbt_vb;

/* The view of the seat to act after a script of actions. keep[s] (text, NULL = nothing): cards
 * seat s is dealt besides those it plays in the script; the cards the script plays join their
 * seat's deal; the rest of the deck is dealt at random (a fixed stream; DDZ: what is left is
 * the bottom). When a random deal makes an action illegal (a pass where the seat could beat)
 * the next deal of the stream is tried. first_bidder: DDZ's first bidder (PDK: ignored, the
 * spade-3 holder bids and leads first). The script, actions separated by spaces:
 *   S=N      seat S bids N
 *   S:CARDS  seat S plays CARDS (suits named: "3s4s5s"); S:- passes
 *   *        every seat still to bid bids 0 (PDK 包庄: nobody declares; not in DDZ, where
 *            all passing redeals)
 * Each action must be the seat to act's. The view: budget 0 (the config's), rules = r, the
 * history copied into b. */
void cbt_pos(cbt_vb *b, const cb_rules *r, const char *const keep[3], int first_bidder, const char *script);

/* PDK (spade3_first) positions of seat holding exactly hand, parsed in the deck without the
 * spade 3 (it opened the game: a bare "3" is another 3), table after hand likewise:
 *  - cbt_pos_lead: seat leads a later trick. seat opened the game with the straight of the
 *    spade 3 and as many cards as it holds besides hand; both others passed (a full hand
 *    left each).
 *  - cbt_pos_follow: seat follows table, played by table_seat. As above, but one of the
 *    others beat the opening straight with the straight of as many cards up to the A, both
 *    others passed, and it led table: table_seat = seat + 2 (mod 3) leads at once;
 *    table_seat = seat + 1 leads and seat + 2 passes (a pass that must be legal: under
 *    must_beat only when seat + 2 cannot beat table).
 * seat holds no bomb (it passes over the A straight); the opening straight, hand size minus
 * hand, has 5..12 cards (5..11 to follow: pdk16 hands of 4..11 cards, 5..11). */
void cbt_pos_lead(cbt_vb *b, const cb_rules *r, int seat, const char *hand);
void cbt_pos_follow(cbt_vb *b, const cb_rules *r, int seat, const char *hand, const char *table,
                    int table_seat);
/* The game's first play (after 包庄, when on, was declined by all): seat holds hand, which
 * must hold the spade 3, and random cards to the hand size. */
void cbt_pos_first(cbt_vb *b, const cb_rules *r, int seat, const char *hand);
/* *dst = *src with dst's view pointing at dst's own history. */
void cbt_vb_copy(cbt_vb *dst, const cbt_vb *src);
/* Fails the test unless cb_view_check(r, v) accepts v (the reason in the message). */
void cbt_assert_real(const cb_rules *r, const cb_view *v, const char *what);
/* A card of rank (0 = 3 .. 12 = 2) that neither the view's hand nor its history holds; 0 when
 * there is none. For tests that break a view with cards some other seat may hold. */
cb_cards cbt_unseen(const cb_view *v, int rank);

/* ---- real views (game.h's engine): what the strict view check accepts ---- */

struct cb_engine;
/* A game under r: deal and seeds from key; DDZ first_bidder as cb_engine_opts (-1: drawn).
 * Free with cb_engine_free. Fails the test on error. */
struct cb_engine *cbt_engine(const cb_rules *r, uint64_t key, int first_bidder);
/* The view of the seat to act, budget 0 (the config's). */
void cbt_engine_view(const struct cb_engine *e, cb_view *v);
/* v as a host built against ABI 1.0 passes it: struct_size CB_VIEW_SIZE_1_0, abi_version 1.0,
 * and in DDZ first_seat holding the first bidder (the one 1.0 member for "who bid / led
 * first"). It is placed so that its last byte is the last before an inaccessible page: a shim
 * that reads beyond struct_size faults. Free with cbt_view_1_0_free. */
cb_view *cbt_view_1_0(const cb_view *v);
void cbt_view_1_0_free(cb_view *v);

/* ---- answers ---- */

/* Is the decision a legal play for the view (checked with core, as the host would)? On the
 * PDK first play it must hold the spade 3 itself. */
void cbt_assert_legal(const cb_view *v, const cb_decision *d);
/* The statistics entry of strategy name among st[0..n). */
const cb_strategy_stats *cbt_stat_of(const cb_strategy_stats *st, int n, const char *name);

#endif

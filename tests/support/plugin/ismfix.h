/* cardbot tests — what the ismcts tests (tests/test_ismcts_*.c) share: the plugin opened
 * through its entry (botfix.h), instances made from parameter lists, and positions from deals
 * played by level-6 heuristic seats with core's deal API (the heuristic linked from the
 * plugins' static library, plugin/common/policy.h).
 *
 * Linked only into the plugin tests (the Makefile's PLUGIN_SUPPORT_OBJ), because it calls
 * plugin code that the other tests do not link.
 */
#ifndef CARDBOT_TESTS_ISMFIX_H
#define CARDBOT_TESTS_ISMFIX_H

#include <stdbool.h>
#include <stdint.h>

#include "../../../plugin/common/policy.h"
#include "../botfix.h"
#include "../randhand.h"

/* cmocka group setup: the ismcts plugin (cbt_bot_plugin_setup). */
int cbt_ism_setup(void **state);
/* An instance from params[0..n), or NULL with the plugin's message printed. */
void *cbt_ism_make(const cbt_bot_plugin *a, const cb_param *p, int n);
/* A decision as the host hands it over: zeroed, struct_size set. */
void cbt_dec_init(cb_decision *d);

/* ---- positions from deals ---- */

typedef struct cbt_player {
    const cbt_bot_plugin *a;
    cb_rules r; /* set by the caller before cbt_player_start */
    cb_deal g;
    cb_play_rec hist[400];
    cb_heur_agent heur;
    cb_move moves[CB_MOVES_CAP];
    cbt_rng rng;
} cbt_player;

/* A player for the position tests: level-6 heuristic seats, a generator seeded with seed. */
cbt_player *cbt_player_new(const cbt_bot_plugin *a, uint64_t seed);
void cbt_player_free(cbt_player *P);
/* A fresh deal of P->r from P's generator (DDZ: the bottom to landlord), checked steps. */
void cbt_player_start(cbt_player *P, int landlord);
/* One step of the seat to play: a uniform legal play (random_play) or the heuristic's. */
void cbt_player_step(cbt_player *P, bool random_play);
/* The answer must be legal where it was asked. */
void cbt_player_check_legal(cbt_player *P, const cb_view *v, const cb_decision *d);

/* Along heuristic play of `deals` PDK deals (a player seeded with seed), every view with at
 * least min_hist actions on record is decided by each of the n instances (n <= 3); check sees
 * the n decisions of one view, in the instances' order. */
typedef void (*cbt_views_check)(const cb_decision *d, void *ctx);
void cbt_decide_along_play(const cbt_bot_plugin *a, uint64_t seed, int deals, int min_hist, void *const *inst,
                           int n, cbt_views_check check, void *ctx);

/* Counts for the tests that decide each view with three instances (cbt_decide_along_play). */
typedef struct cbt_three_count {
    int searched, differ;
} cbt_three_count;
/* A searched decision d[0] (a default) is counted and must equal d[1] (the same key given). */
bool cbt_searched_as_given(const cb_decision *d, cbt_three_count *c);
/* Three instances from three parameter lists, every view of the play decided by each, then
 * freed. */
void cbt_decide_three(const cbt_bot_plugin *a, uint64_t seed, int deals, int min_hist, const cb_param *const p[3],
                      const int np[3], cbt_views_check check, cbt_three_count *c);

#endif

/* cardbot tests — the fixture of the bot plugin tests (test_heuristic.c, test_ismcts_*.c,
 * test_rollout.c): a built plugin opened through its one exported symbol, cb_plugin_entry
 * (cbt_plugin_setup, plugload.h), as a host opens it; and hand-made views. The plugins'
 * internals (plugin/common, plugin/ismcts) are not reached through the .so — it exports
 * nothing else — but linked into the test from the build's static libraries (the Makefile's
 * PLUGIN_LIBS) and called directly through the plugins' private headers.
 */
#ifndef CARDBOT_TESTS_BOTFIX_H
#define CARDBOT_TESTS_BOTFIX_H

#include <stddef.h>

#include "cardbot/bot.h"
#include "cardbot/game.h"
#include "plugload.h"

/* The state of a test of one bot plugin through its ABI. */
typedef struct cbt_bot_plugin {
    void *so; /* first: the state of cbt_plugin_setup */
    cb_plugin_entry_fn entry;
    const cb_bot *bot; /* entry() */
} cbt_bot_plugin;

/* cmocka group setup: open plugin name, resolve its entry point (the one symbol a plugin
 * exports), ask it for its bot. Tear down with cbt_plugin_teardown. */
int cbt_bot_plugin_setup(void **state, const char *name);

/* A hand-made view of a three-seat game: zeroed, then the ABI fields, r, phase, seat, first
 * seat and hand; nothing on the table, no landlord, every bid -1 (none yet), every seat
 * holding r->hand_size cards, seed 0. Callers change what their situation needs. */
void cbt_view_init(cb_view *v, const cb_rules *r, int phase, int seat, int first, cb_cards hand);

/* A whole deal from given hands, for the tests that play one through a plugin's vtable: d
 * (recording into hist[0..cap)) as cb_deal_init makes it with no first seat given and stake 1,
 * and bids as the views read them: the landlord's 1 and the others' 0, every one -1 without a
 * landlord. */
void cbt_deal_start(cb_deal *d, cb_play_rec *hist, int cap, const cb_rules *r, const cb_cards hands[3],
                    cb_cards bottom, int landlord, int bids[3]);
/* The view of the seat to act at step `step` (1, 2, ...) of such a deal, with the seed
 * seed + step * 7919. Fails the running test past step 250 (a deal that never ends). */
void cbt_deal_step_view(const cb_deal *d, const int bids[3], uint64_t seed, int step, cb_view *v);

/* create(p[0..n)) must fail with a message naming `named` (the key a bad parameter is refused
 * by; bot.h's create contract). Fails the running test otherwise, printing the message. */
void cbt_expect_refused(const cb_bot *bot, const cb_param *p, int n, const char *named);
/* The same for one key = value. */
void cbt_expect_refused1(const cb_bot *bot, const char *key, const char *value, const char *named);

#endif

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

/* create(p[0..n)) must fail with a message naming `named` (the key a bad parameter is refused
 * by; bot.h's create contract). Fails the running test otherwise, printing the message. */
void cbt_expect_refused(const cb_bot *bot, const cb_param *p, int n, const char *named);
/* The same for one key = value. */
void cbt_expect_refused1(const cb_bot *bot, const char *key, const char *value, const char *named);

#endif

/* cardbot tests — the fixture of the bot plugin tests (test_heuristic.c, test_ismcts.c,
 * test_worlds.c): a built plugin opened with its bot and what every plugin exports from
 * plugin/common, the deal helper (deal.h) and the shared heuristic (policy.h) — and for the
 * tests that sample worlds the determinization (worlds.h) — reached with dlsym
 * (cbt_plugin_setup, plugload.h); and hand-made views. The function pointer types are
 * taken from plugin/common's headers, so a test cannot drift from them.
 */
#ifndef CBT_BOTFIX_H
#define CBT_BOTFIX_H

#include <stddef.h>

#include "cardbot/bot.h"
#include "cardbot/game.h"
#include "../../plugin/common/policy.h"
#include "../../plugin/common/worlds.h"
#include "plugload.h"

typedef struct cbt_deal_api {
    __typeof__(cb_deal_init) *deal_init;
    __typeof__(cb_deal_step) *deal_step;
    __typeof__(cb_deal_view) *deal_view;
    __typeof__(cb_deal_ctx) *deal_ctx;
    __typeof__(cb_deal_points) *deal_points;
    __typeof__(cb_hcfg_level) *hcfg_level;
    __typeof__(cb_hws_init) *hws_init;
    __typeof__(cb_hws_free) *hws_free;
    __typeof__(cb_heur_deal_policy) *heur_policy;
} cbt_deal_api;

/* The cbt_sym rows that resolve member m (a cbt_deal_api) of the state struct T. */
#define CBT_DEAL_API_SYMS(T, m)                                                               \
    {"cb_deal_init", offsetof(T, m.deal_init)}, {"cb_deal_step", offsetof(T, m.deal_step)},   \
    {"cb_deal_view", offsetof(T, m.deal_view)}, {"cb_deal_ctx", offsetof(T, m.deal_ctx)},     \
    {"cb_deal_points", offsetof(T, m.deal_points)},                                           \
    {"cb_hcfg_level", offsetof(T, m.hcfg_level)}, {"cb_hws_init", offsetof(T, m.hws_init)},   \
    {"cb_hws_free", offsetof(T, m.hws_free)},                                                 \
    {"cb_heur_deal_policy", offsetof(T, m.heur_policy)}

/* plugin/common's determinization (worlds.h), for the tests that sample worlds. */
typedef struct cbt_worlds_api {
    __typeof__(cb_worlds_from_view) *from_view;
    __typeof__(cb_worlds_sample) *sample;
    __typeof__(cb_worlds_consistent) *consistent;
    __typeof__(cb_worlds_free) *wfree;
} cbt_worlds_api;

/* The cbt_sym rows that resolve member m (a cbt_worlds_api) of the state struct T. */
#define CBT_WORLDS_API_SYMS(T, m)                                                             \
    {"cb_worlds_from_view", offsetof(T, m.from_view)},                                        \
    {"cb_worlds_sample", offsetof(T, m.sample)},                                              \
    {"cb_worlds_consistent", offsetof(T, m.consistent)},                                      \
    {"cb_worlds_free", offsetof(T, m.wfree)}

/* The state of a test of one bot plugin through its ABI. */
typedef struct cbt_bot_plugin {
    void *so; /* first: the state of cbt_plugin_setup */
    cb_plugin_entry_fn entry;
    const cb_bot *bot;   /* entry() */
    cbt_deal_api common; /* plugin/common: the deal helper and the shared heuristic */
} cbt_bot_plugin;

/* cmocka group setup: open plugin name, resolve its entry point and plugin/common's
 * functions, ask it for its bot. Tear down with cbt_plugin_teardown. */
int cbt_bot_plugin_setup(void **state, const char *name);

/* A hand-made view of a three-seat game: zeroed, then the ABI fields, r, phase, seat, first
 * seat and hand; nothing on the table, no landlord, every bid -1 (none yet), every seat
 * holding r->hand_size cards, seed 0. Callers change what their situation needs. */
void cbt_view_init(cb_view *v, const cb_rules *r, int phase, int seat, int first, cb_cards hand);

#endif

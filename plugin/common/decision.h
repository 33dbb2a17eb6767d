/* cardbot plugins — the ABI chores every plugin shares: is this a view we understand, a fresh
 * decision with "unknown" explanation fields, and delivering only the members the host's
 * cb_decision has (struct_size), as bot.h requires. */
#ifndef CARDBOT_PLUGIN_DECISION_H
#define CARDBOT_PLUGIN_DECISION_H

#include <stdbool.h>

#include "cardbot/bot.h"

/* The one symbol a plugin exports. Plugin objects are compiled with -fvisibility=hidden (the
 * Makefile), so everything else — plugin/common and the plugin's own code — stays inside the
 * .so: two plugins loaded in one host cannot bind to each other's copy of a helper, and the
 * dynamic table holds cb_plugin_entry alone (tests/test_plugin_exports.sh checks it). */
#define CB_PLUG_EXPORT __attribute__((visibility("default")))

/* The view members plugins read all exist in ABI 1.0's cb_view; PDK or DDZ only. */
bool cb_plug_view_ok(const cb_view *v);
/* Zeroed, own struct_size, value NAN, min-hands -1 (unknown). */
void cb_plug_decision_init(cb_decision *d);
/* Copy d into out, writing only members inside out->struct_size (0: the host did not say). */
void cb_plug_deliver(cb_decision *out, const cb_decision *d);
/* A DDZ bid from the score a strategy would bid (0..3), legal for the view: 叫分 bids the
 * score when it tops the highest so far, else passes; 叫/抢地主 (rules->rob) calls at a score
 * of 1 or more and robs at 2 or more (a rob doubles the stake). */
int cb_plug_ddz_bid(const cb_view *v, int want);

#endif

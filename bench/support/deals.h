/* cardbot bench — random deals for the benchmarks that play with the engine and the plugins'
 * code directly (bench_ismcts.c, bench_belief.c).
 *
 * The Makefile links each .c of bench/support into every bench binary; this one uses only
 * core/ and the plugins' header-only generator (plugin/common/rng.h).
 */
#ifndef CARDBOT_BENCH_DEALS_H
#define CARDBOT_BENCH_DEALS_H

#include "cardbot/game.h"
#include "../../plugin/common/rng.h"

/* Shuffle r's deck with g (a Fisher-Yates pass from the top card down) and deal it in order:
 * hand_size cards to each of the three seats, the rest to *bottom (0 when none). The draw
 * order is fixed: a benchmark's positions, and so its figures, are named by their seed. */
void cbb_deal_random(cb_rng *g, const cb_rules *r, cb_cards h[3], cb_cards *bottom);

#endif

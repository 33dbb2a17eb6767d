/* cardbot bench — random deals (deals.h) */
#include "deals.h"

#include "shuffle_int.h" /* core/: cb_shuffle_deal */

static uint32_t draw_rng(void *g, uint32_t n) { return cb_rng_below(g, n); }

void cbb_deal_random(cb_rng *g, const cb_rules *r, cb_cards h[3], cb_cards *bottom)
{
    cb_shuffle_deal(r->deck, r->hand_size, draw_rng, g, h, bottom);
}

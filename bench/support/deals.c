/* cardbot bench — random deals (deals.h) */
#include "deals.h"

void cbb_deal_random(cb_rng *g, const cb_rules *r, cb_cards h[3], cb_cards *bottom)
{
    int ids[CB_NCARDS], n = 0;
    for (int i = 0; i < CB_NCARDS; i++)
        if (r->deck & cb_card_bit(i))
            ids[n++] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)cb_rng_below(g, (uint32_t)(i + 1));
        int t = ids[i];
        ids[i] = ids[j];
        ids[j] = t;
    }
    int k = 0;
    for (int s = 0; s < 3; s++) {
        h[s] = 0;
        for (int c = 0; c < r->hand_size; c++)
            h[s] |= cb_card_bit(ids[k++]);
    }
    *bottom = 0;
    for (; k < n; k++)
        *bottom |= cb_card_bit(ids[k]);
}

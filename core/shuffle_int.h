/* cardbot — the shuffle and deal of a deck, written once: the engine's deals (core/engine.c,
 * drawing from its keyed stream), the tests' random deals (tests/support/randhand.c) and the
 * benchmarks' (bench/support/deals.c). Each caller keeps its own draw, so every deal a seed
 * names stays what it was.
 *
 * Header-only (static inline, no symbol), like util_int.h: nothing is added to libcardbot's
 * ABI, and a draw known at the call is inlined.
 */
#ifndef CARDBOT_CORE_SHUFFLE_INT_H
#define CARDBOT_CORE_SHUFFLE_INT_H

#include <stdint.h>

#include "cardbot/cards.h"

/* A uniform draw in 0..n-1 (n >= 1) from the caller's generator state. */
typedef uint32_t (*cb_draw_fn)(void *state, uint32_t n);

/* Shuffle the deck's cards (Fisher-Yates from the top card down, one draw per card but the
 * last) and deal them in order: hand_size to each of the three hands, the rest to *bottom (0
 * when none). */
static inline void cb_shuffle_deal(cb_cards deck, int hand_size, cb_draw_fn draw, void *state, cb_cards hands[3],
                                   cb_cards *bottom)
{
    int ids[CB_NCARDS], n = 0;
    for (int id = 0; id < CB_NCARDS; id++)
        if (deck & cb_card_bit(id))
            ids[n++] = id;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)draw(state, (uint32_t)(i + 1));
        int t = ids[i];
        ids[i] = ids[j];
        ids[j] = t;
    }
    int k = 0;
    for (int s = 0; s < 3; s++) {
        hands[s] = 0;
        for (int c = 0; c < hand_size && k < n; c++)
            hands[s] |= cb_card_bit(ids[k++]);
    }
    *bottom = 0;
    while (k < n)
        *bottom |= cb_card_bit(ids[k++]);
}

#endif

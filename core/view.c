/* cardbot — views across ABI minors (cb_view_upgrade). The check of a view's contents is
 * view_check.c. */
#include "cardbot/game.h"

#include <string.h>

int cb_view_upgrade(const cb_view *in, cb_view *out)
{
    if (!in || !out || in->struct_size < CB_VIEW_SIZE_1_0)
        return -1;
    size_t n = in->struct_size < sizeof *out ? in->struct_size : sizeof *out;
    cb_view v;
    memset(&v, 0, sizeof v);
    memcpy(&v, in, n);
    if (n < sizeof v) {
        /* ABI 1.0 had one field for "who bid first / led first". In DDZ hosts filled it with
         * the first bidder (the first leader is always the landlord there); in PDK 包庄 is
         * asked from the first leader, so the two are the same seat. */
        const cb_rules *r = v.rules;
        bool ddz = r && r->game == CB_GAME_DDZ;
        if (ddz) {
            /* a play view where nobody was ever asked to bid: fixed roles (a 1.0 host's
             * --landlord mode), so no bidding took place */
            bool asked = v.bids[0] != -1 || v.bids[1] != -1 || v.bids[2] != -1;
            v.first_bidder = v.phase == CB_PHASE_PLAY && !asked ? -1 : v.first_seat;
            v.first_seat = v.phase == CB_PHASE_PLAY ? v.landlord : -1;
        } else {
            v.first_bidder = (r && r->bao) ? v.first_seat : -1;
        }
    }
    v.struct_size = sizeof v;
    *out = v;
    return 0;
}

int cb_view_high_bid(const cb_view *v)
{
    int high = 0;
    for (int s = 0; s < 3; s++)
        if (v->bids[s] > high)
            high = v->bids[s];
    return high;
}

int cb_view_stake(const cb_view *v)
{
    if (!v || !v->rules || v->rules->game != CB_GAME_DDZ)
        return 1;
    if (!v->rules->rob) {
        int high = cb_view_high_bid(v);
        return high > 1 ? high : 1;
    }
    int robs = 0;
    for (int s = 0; s < 3; s++)
        robs += v->bids[s] == 2;
    return 1 << robs;
}

void cb_view_ctx(const cb_view *v, const cb_move *table, cb_ctx *ctx)
{
    int next = v->seat == 2 ? 0 : v->seat + 1;
    cb_ctx_make(ctx, v->rules, v->hand, table, v->cards_left[next], v->nhistory == 0);
}

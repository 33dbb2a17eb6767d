/* cardbot — the bidding state machine (bidding.h). */
#include "bidding.h"

#include <string.h>

void bidding_start(bidding *b, int first_bidder)
{
    memset(b, 0, sizeof *b);
    for (int s = 0; s < 3; s++)
        b->bids[s] = -1;
    b->turn = first_bidder;
    b->best_seat = b->caller = b->last = -1;
}

int bidding_legal(const bidding *b, const cb_rules *r, int32_t out[4])
{
    int n = 0;
    out[n++] = 0;
    if (r->game == CB_GAME_PDK)
        out[n++] = 1;
    else if (r->rob)
        out[n++] = b->caller < 0 ? 1 : 2;
    else
        for (int x = b->best + 1; x <= 3; x++)
            out[n++] = x;
    return n;
}

static int done(int *landlord, int *stake, int who, int how_much)
{
    *landlord = who;
    *stake = how_much;
    return BIDDING_DONE;
}

int bidding_apply(bidding *b, const cb_rules *r, int bid, int *landlord, int *stake)
{
    int s = b->turn;
    if (b->bids[s] < bid)
        b->bids[s] = bid;
    if (r->game == CB_GAME_DDZ && r->rob) {
        if (bid == 1)
            b->caller = s;
        if (bid == 2)
            b->robs++;
        if (bid > 0)
            b->last = s;
        if (b->final_turn)
            return done(landlord, stake, b->last, 1 << b->robs);
        if (++b->asked < 3) {
            b->turn = (s + 1) % 3;
            return BIDDING_GOES_ON;
        }
        if (b->caller < 0)
            return BIDDING_ALL_PASSED;
        if (b->robs > 0) { /* the first caller may rob back once */
            b->final_turn = true;
            b->turn = b->caller;
            return BIDDING_GOES_ON;
        }
        return done(landlord, stake, b->caller, 1);
    }
    if (bid > b->best) {
        b->best = bid;
        b->best_seat = s;
    }
    b->asked++;
    if (r->game == CB_GAME_PDK) {
        if (bid > 0 || b->asked == 3)
            return done(landlord, stake, b->best_seat, 1);
    } else if (b->best == 3 || b->asked == 3) {
        if (b->best == 0)
            return BIDDING_ALL_PASSED;
        return done(landlord, stake, b->best_seat, b->best);
    }
    b->turn = (s + 1) % 3;
    return BIDDING_GOES_ON;
}

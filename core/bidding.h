/* cardbot — the bidding phase as a small state machine (private to core/): the engine runs it
 * and the view check replays a view's bids through it, so the bidding rules exist once.
 *
 *  DDZ 叫分: from the first bidder each seat once, 0 = pass or a score above the highest so
 *  far; a 3 ends it; after three bids the highest bidder is landlord at its score, and if all
 *  passed the deal is void (BIDDING_ALL_PASSED: the engine redeals).
 *  DDZ 叫/抢地主 (rules->rob): from the first bidder, until someone calls each seat may call
 *  (1) or pass (0); after the call the later seats may rob (2) or pass (0); if anyone robbed,
 *  the first caller may rob back (2) or pass (0) once more. The last caller or robber is
 *  landlord at a stake of 2^robs. bids[s] keeps a seat's strongest action (1 called, 2 robbed).
 *  PDK 包庄: from the first leader each seat once, 1 = declare, 0 = no; the first declaration
 *  ends it (the later seats keep -1). */
#ifndef CARDBOT_CORE_BIDDING_H
#define CARDBOT_CORE_BIDDING_H

#include "cardbot/rules.h"

#pragma GCC visibility push(hidden)

typedef struct bidding {
    int bids[3];        /* as cb_view.bids */
    int turn;           /* seat to bid */
    int asked;          /* actions of the first round so far */
    int best, best_seat;
    int caller, robs, last; /* rob: the first caller, robs so far, the last caller / robber */
    bool final_turn;    /* rob: the first caller's second chance is next */
} bidding;

enum { BIDDING_GOES_ON = 0, BIDDING_DONE = 1, BIDDING_ALL_PASSED = 2 };

void bidding_start(bidding *b, int first_bidder);
/* The bids the seat to act may make, increasing; returns how many (at most 4). */
int bidding_legal(const bidding *b, const cb_rules *r, int32_t out[4]);
/* Apply the seat to act's bid (the caller checked it is legal). BIDDING_DONE sets *landlord
 * (PDK: -1 when nobody declared) and *stake. */
int bidding_apply(bidding *b, const cb_rules *r, int bid, int *landlord, int *stake);

#pragma GCC visibility pop

#endif

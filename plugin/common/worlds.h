/* cardbot plugins — determinization: deal the cards a seat cannot see into "worlds" that agree
 * with everything public.
 *
 * The unknown cards are the deck minus my hand minus every card played (DDZ while bidding: also
 * the three bottom cards, not yet shown). A world gives each other seat exactly as many cards
 * as it holds, keeps the cards a seat is known to hold where they are (DDZ: the bottom cards the
 * landlord has not played; PDK while bidding: the spade 3 with the first seat), and makes every
 * recorded action legal again: under must_beat a pass proves the seat could not beat the table
 * at that moment — its hand then was its hand now plus everything it played later — and under
 * warn_single a single played while the next seat held one card proves it was the seat's
 * highest. Both are re-checked exactly with core's cb_play_legal on the reconstructed hand (the
 * cheap cb_voids-style bounds only guide the proposals).
 *
 * Sampling is rejection plus repair: a proposal deals the cards a single-card bound forces to
 * one seat, then the rest uniformly; a proposal that breaks a proof is repaired by swapping
 * cards between the two seats (a swap is kept when it does not break more proofs) and, after a
 * bounded number of swaps, thrown away for a fresh one. When no consistent world turns up
 * within max_restarts proposals the sampler fails — it never returns a world that contradicts
 * the record. Proposals are uniform, so pure rejection would sample consistent worlds uniformly;
 * repairs bias that a little toward worlds near the proposal.
 */
#ifndef CARDBOT_PLUGIN_WORLDS_H
#define CARDBOT_PLUGIN_WORLDS_H

#include <stdbool.h>

#include "cardbot/bot.h"
#include "rng.h"

/* One public proof about a seat's hand at one moment of the history. */
typedef struct cb_wproof {
    cb_counts later;     /* what the seat played from that moment on (added back to its hand) */
    cb_counts play;      /* the action: 0 = a pass */
    cb_move table;       /* the play to beat then (shape CB_PASS: the seat was leading) */
    int8_t seat;
    bool next_has_one;   /* the next seat held one card then (warn_single) */
    uint8_t pad[6];
} cb_wproof;

typedef struct cb_worlds {
    const cb_rules *rules;
    int me;
    bool bidding;        /* built from a bidding view (DDZ: the bottom is sampled too) */
    cb_cards my_hand;
    cb_cards pool;       /* the unknown cards: dealt to the other seats (and the bottom) */
    cb_cards fixed[3];   /* cards known to be in a seat's hand (not in pool) */
    int need[3];         /* pool cards each seat gets (0 for me) */
    int need_bottom;     /* DDZ bidding: 3 bottom cards drawn from the pool, else 0 */
    cb_cards bottom;     /* the public bottom (play phase), else 0 */
    int8_t top_bound[3]; /* a seat holds no card above this rank (single passes); CB_NRANKS-1: none */
    cb_wproof *proofs;
    int nproofs, cap_proofs;
    /* the replayed trick (the readings core accepted each play under) */
    cb_move trick;       /* the play to beat now (shape CB_PASS when leading) */
    int trick_seat;      /* who made it, -1 when leading */
    int trick_passes;    /* passes since it */
    int nplays;          /* plays (not passes) so far, all seats */
    /* bounds of the sampler (set by cb_worlds_from_view; callers may change them) */
    int max_restarts;    /* fresh proposals per sample */
    int max_swaps;       /* repair swaps per proposal */
    /* statistics since cb_worlds_from_view */
    uint64_t samples, proposals, swaps, rejects, failures, checks;
} cb_worlds;

/* Build the sampler of the deciding seat of v (play or bidding phase). w must be zeroed the
 * first time (or come from an earlier call: its proof buffer is reused). Returns 0, or -1 when
 * the view does not add up (cards played twice, counts that do not match the unknown cards),
 * with a reason in err. */
int cb_worlds_from_view(cb_worlds *w, const cb_view *v, char *err, size_t errlen);
void cb_worlds_free(cb_worlds *w);

/* Sample one world: hands[3] (mine is my hand) and *bottom (the public bottom, or the sampled
 * one while bidding DDZ; may be NULL). Returns 0, or -1 when no consistent world was found
 * within the bounds (nothing is written then). */
int cb_worlds_sample(cb_worlds *w, cb_rng *rng, cb_cards hands[3], cb_cards *bottom);

/* Does a world agree with the public record: my hand, the sizes, exactly the unknown cards,
 * the known cards, every proof? (Tests, and the true hands must always pass.) */
bool cb_worlds_consistent(const cb_worlds *w, const cb_cards hands[3], cb_cards bottom);

/* Number of proofs a world's seat breaks (0 = consistent with every proof about it). */
int cb_worlds_broken(const cb_worlds *w, int seat, cb_cards hand);

#endif

/* cardbot tests — seeded random hands for the oracle tests.
 *
 * A small local PRNG (splitmix64) whose whole state lives in a struct, so every test is
 * reproducible from one printed seed and no test shares hidden state with another. Hands are
 * rank counts (cb_counts) drawn from a pool of rank counts (usually the deck's).
 */
#ifndef CARDBOT_TESTS_RANDHAND_H
#define CARDBOT_TESTS_RANDHAND_H

#include <stdint.h>
#include "cardbot/cards.h"

typedef struct cbt_rng {
    uint64_t s;
} cbt_rng;

void cbt_rng_seed(cbt_rng *g, uint64_t seed);
uint64_t cbt_rng_next(cbt_rng *g);
/* Uniform in 0..n-1 (n >= 1). */
uint32_t cbt_rng_below(cbt_rng *g, uint32_t n);
/* True with probability num/den. */
int cbt_rng_chance(cbt_rng *g, uint32_t num, uint32_t den);

/* The seed of a test: the environment variable CB_SEED (decimal or 0x hex) when set, else
 * dflt. Tests print it so a failure can be replayed. */
uint64_t cbt_seed(uint64_t dflt);

/* n cards drawn uniformly (every card of the pool equally likely, without replacement) from
 * pool; n is clipped to the pool's size. */
cb_counts cbt_hand_uniform(cbt_rng *g, cb_counts pool, int n);
/* n cards from pool, bomb- and triple-heavy: mostly whole groups of a rank (4 or 3, sometimes
 * 2), the rest single cards. */
cb_counts cbt_hand_heavy(cbt_rng *g, cb_counts pool, int n);
/* n cards from pool, chain-heavy: mostly runs of consecutive ranks (3..A) taken 1, 2 or 3
 * deep, the rest single cards; stresses the chain / plane part of min-hands searches. */
cb_counts cbt_hand_chainy(cbt_rng *g, cb_counts pool, int n);
/* A hand of n cards that holds at least one card of rank `must` (which the pool must hold),
 * the rest uniform or heavy. */
cb_counts cbt_hand_with(cbt_rng *g, cb_counts pool, int n, int must, int heavy);

/* Is a a sub-multiset of b (every rank count of a <= that of b)? */
static inline int cbt_counts_le(cb_counts a, cb_counts b)
{
    for (int r = 0; r < CB_NRANKS; r++)
        if (cb_count(a, r) > cb_count(b, r))
            return 0;
    return 1;
}

#endif

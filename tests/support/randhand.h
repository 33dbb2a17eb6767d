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
/* Seed g with its own stream for name (seed mixed with the name's bytes, FNV-1a style): each
 * variant of a test replays alone with the same seed. */
void cbt_rng_seed_named(cbt_rng *g, uint64_t seed, const char *name);
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

/* A whole deal of real cards: the deck shuffled (Fisher-Yates, cbt_rng_below), the first
 * hand_size cards of it to seat 0, the next to seat 1, then seat 2, the rest to *bottom. */
void cbt_deal(cbt_rng *g, cb_cards deck, int hand_size, cb_cards h[3], cb_cards *bottom);

/* Is a a sub-multiset of b (every rank count of a <= that of b)? */
static inline int cbt_counts_le(cb_counts a, cb_counts b)
{
    for (int r = 0; r < CB_NRANKS; r++)
        if (cb_count(a, r) > cb_count(b, r))
            return 0;
    return 1;
}

#endif

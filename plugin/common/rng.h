/* cardbot plugins — a small seeded PRNG whose whole state lives in a struct.
 *
 * splitmix64 (core/util_int.h, the tree's one copy): one 64-bit word of state, so an instance
 * can be reseeded per decision from the view's seed and the instance's own seed (same view,
 * same answer) and copied freely into rollouts. Everything is inline: plugins call it in their
 * innermost loops.
 */
#ifndef CARDBOT_PLUGIN_RNG_H
#define CARDBOT_PLUGIN_RNG_H

#include <stdint.h>

#include "util_int.h" /* core/: cb_splitmix64, cb_mix64, CB_GOLDEN64 */

typedef struct cb_rng {
    uint64_t s;
} cb_rng;

/* Mix two words into one seed (the view's seed and the instance's), so neither alone decides. */
static inline uint64_t cb_rng_mix(uint64_t a, uint64_t b)
{
    return cb_mix64(a ^ (b + CB_GOLDEN64 + (a << 6) + (a >> 2)));
}

static inline void cb_rng_seed(cb_rng *g, uint64_t seed) { g->s = seed; }

static inline uint64_t cb_rng_next(cb_rng *g) { return cb_splitmix64(&g->s); }

/* Uniform in 0..n-1 (n >= 1); multiply-shift, bias at most n / 2^32. */
static inline uint32_t cb_rng_below(cb_rng *g, uint32_t n)
{
    return (uint32_t)(((cb_rng_next(g) >> 32) * (uint64_t)n) >> 32);
}

/* Uniform in [0, 1). */
static inline double cb_rng_unit(cb_rng *g) { return (double)(cb_rng_next(g) >> 11) * (1.0 / 9007199254740992.0); }

#endif

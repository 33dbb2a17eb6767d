/* cardbot — the small utilities every part of this tree needs, written once: the splitmix64
 * step and the monotonic clock.
 *
 * Header-only (static inline, no symbol), so it adds nothing to libcardbot's ABI and costs
 * nothing in the innermost loops; core, the plugins (plugin/common/rng.h), the tests and the
 * benchmarks all compile with -Icore and include it from here. A plugin built outside this
 * tree does not see it and needs nothing from it.
 */
#ifndef CARDBOT_CORE_UTIL_INT_H
#define CARDBOT_CORE_UTIL_INT_H

#include <stdint.h>
#include <time.h>

/* 2^64 / golden ratio, odd: splitmix64's Weyl increment, and a multiplier that spreads keys
 * over a hash table's top bits (Fibonacci hashing). */
#define CB_GOLDEN64 0x9E3779B97F4A7C15ull

/* splitmix64's finaliser (Stafford's mix 13): a bijection of 64-bit words in which every
 * input bit reaches every output bit. */
static inline uint64_t cb_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* splitmix64 (Steele, Lea, Flood): one 64-bit word of state stepped by the Weyl increment,
 * then mixed. Small, seedable from any word (0 included), copied freely: every generator of
 * deals, rollouts and tests in the tree is this one. */
static inline uint64_t cb_splitmix64(uint64_t *s)
{
    return cb_mix64(*s += CB_GOLDEN64);
}

/* CLOCK_MONOTONIC in nanoseconds: deadlines and elapsed times (never the wall clock, which
 * can jump). */
static inline uint64_t cb_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif

/* cardbot tests — seeded random hands (see randhand.h). */
#include "randhand.h"

#include <stdlib.h>

#include "shuffle_int.h" /* core/: cb_shuffle_deal */
#include "util_int.h"    /* core/: cb_splitmix64 */

void cbt_rng_seed(cbt_rng *g, uint64_t seed) { g->s = seed; }

uint64_t cbt_rng_next(cbt_rng *g) { return cb_splitmix64(&g->s); }

void cbt_rng_seed_named(cbt_rng *g, uint64_t seed, const char *name)
{
    uint64_t h = seed;
    for (const char *p = name; *p; p++)
        h = (h ^ (uint8_t)*p) * 0x100000001B3ull;
    cbt_rng_seed(g, h);
}

uint32_t cbt_rng_below(cbt_rng *g, uint32_t n)
{
    /* multiply-shift: the bias is at most n / 2^32, far below anything a test can notice */
    return (uint32_t)(((cbt_rng_next(g) >> 32) * (uint64_t)n) >> 32);
}

int cbt_rng_chance(cbt_rng *g, uint32_t num, uint32_t den) { return cbt_rng_below(g, den) < num; }

uint64_t cbt_seed(uint64_t dflt)
{
    const char *s = getenv("CB_SEED");
    if (!s || !*s)
        return dflt;
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 0);
    return (end && *end == '\0') ? (uint64_t)v : dflt;
}

/* Move one random card (uniform over the cards of *pool) from *pool into *hand. */
static void take_one(cbt_rng *g, cb_counts *pool, cb_counts *hand)
{
    int total = cb_counts_total(*pool);
    if (total == 0)
        return;
    int i = (int)cbt_rng_below(g, (uint32_t)total);
    for (int r = 0; r < CB_NRANKS; r++) {
        int c = cb_count(*pool, r);
        if (i < c) {
            *pool = cb_count_add(*pool, r, -1);
            *hand = cb_count_add(*hand, r, 1);
            return;
        }
        i -= c;
    }
}

cb_counts cbt_hand_uniform(cbt_rng *g, cb_counts pool, int n)
{
    cb_counts hand = 0;
    for (int i = 0; i < n; i++)
        take_one(g, &pool, &hand);
    return hand;
}

cb_counts cbt_hand_heavy(cbt_rng *g, cb_counts pool, int n)
{
    cb_counts hand = 0;
    int left = n;
    while (left > 0 && cb_counts_total(pool) > 0) {
        if (left >= 2 && cbt_rng_chance(g, 3, 4)) {
            /* a group: four (3/8), three (3/8) or a pair (1/4) of one rank */
            uint32_t u = cbt_rng_below(g, 8);
            int want = u < 3 ? 4 : u < 6 ? 3 : 2;
            if (want > left)
                want = left;
            int ok[CB_NRANKS], nok = 0;
            for (int r = 0; r < CB_NRANKS; r++)
                if (cb_count(pool, r) >= want)
                    ok[nok++] = r;
            if (nok > 0) {
                int r = ok[cbt_rng_below(g, (uint32_t)nok)];
                pool = cb_count_add(pool, r, -want);
                hand = cb_count_add(hand, r, want);
                left -= want;
                continue;
            }
        }
        take_one(g, &pool, &hand);
        left--;
    }
    return hand;
}

cb_counts cbt_hand_chainy(cbt_rng *g, cb_counts pool, int n)
{
    cb_counts hand = 0;
    int left = n, tries = 0;
    while (left > 0 && cb_counts_total(pool) > 0) {
        if (left >= 3 && tries < 8 && cbt_rng_chance(g, 3, 4)) {
            int depth = 1 + (int)cbt_rng_below(g, 3);
            int len = 2 + (int)cbt_rng_below(g, 7); /* 2..8 ranks */
            int start = (int)cbt_rng_below(g, (uint32_t)(CB_RANK_A + 1));
            int took = 0;
            for (int r = start; r <= CB_RANK_A && r < start + len && left >= depth; r++) {
                if (cb_count(pool, r) < depth)
                    break; /* keep runs consecutive */
                pool = cb_count_add(pool, r, -depth);
                hand = cb_count_add(hand, r, depth);
                left -= depth;
                took++;
            }
            if (took == 0)
                tries++;
            continue;
        }
        take_one(g, &pool, &hand);
        left--;
    }
    return hand;
}

cb_counts cbt_hand_with(cbt_rng *g, cb_counts pool, int n, int must, int heavy)
{
    if (n <= 0 || cb_count(pool, must) == 0)
        return heavy ? cbt_hand_heavy(g, pool, n) : cbt_hand_uniform(g, pool, n);
    pool = cb_count_add(pool, must, -1);
    cb_counts hand = heavy ? cbt_hand_heavy(g, pool, n - 1) : cbt_hand_uniform(g, pool, n - 1);
    return cb_count_add(hand, must, 1);
}

static uint32_t draw_cbt(void *g, uint32_t n) { return cbt_rng_below(g, n); }

void cbt_deal(cbt_rng *g, cb_cards deck, int hand_size, cb_cards h[3], cb_cards *bottom)
{
    cb_shuffle_deal(deck, hand_size, draw_cbt, g, h, bottom);
}

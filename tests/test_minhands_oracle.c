/* cardbot tests — cb_min_hands against an exhaustive oracle.
 *
 * The oracle (tests/support/oracle_minhands.c) reads every sub-multiset of the hand with the
 * classifier and searches all partitions (memoised, the lowest remaining rank's play tried in
 * every way, no budget). Random hands per preset, sizes 1..a full hand (pdk16 16, pdk15 15, ddz
 * 20 with the bottom, noip2015 23): half bomb- and triple-heavy (in PDK half of those
 * full-sized), a quarter chain-heavy (runs of consecutive ranks), a quarter uniform. Counts:
 * 5,000 hands per preset and 1,000 per extra flag variant in the plain build; a fifth of that
 * under AddressSanitizer (~3x slower; the plain build carries the volume). CB_SEED=<n> replays
 * another seed; the seed is printed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "support/oracle.h"
#include "support/randhand.h"
#include "support/variant.h"

#define SEED_DEFAULT 0x5EED2015u
#define MAX_REPORTS 12

typedef struct variant {
    cbt_variant base;     /* preset and rule flags */
    int maxsize;
    long hands; /* plain build */
} variant;

static void run_variant(void **state)
{
    const variant *v = *state;
    cb_rules r;
    cbt_variant_rules(v->base.preset, v->base.flags, &r);
    char name[160];
    cbt_variant_name(v->base.preset, v->base.flags, name, sizeof name);
    long count = CBT_UNDER_ASAN ? v->hands / 5 : v->hands;
    uint64_t seed = cbt_seed(SEED_DEFAULT);
    cbt_rng g;
    cbt_rng_seed_named(&g, seed, name); /* one stream per variant: it replays alone */

    cb_counts deck = cb_counts_of(r.deck);
    long bad = 0, heavy_n = 0, chainy_n = 0, states = 0, max_states = 0;
    long by_answer[32] = {0};
    double t_oracle = 0, t_fast = 0;
    for (long i = 0; i < count; i++) {
        /* half bomb/triple-heavy, a quarter uniform, a quarter chain-heavy. In PDK half of the
         * heavy hands are full-sized: two short plays beat one only in big hands (pdk16
         * 4444555588889999: 2 plays under short_triple always, 3 under last). */
        bool heavy = (i & 1) != 0;
        int size = 1 + (int)cbt_rng_below(&g, (uint32_t)v->maxsize);
        if (heavy && (i & 2) && r.game == CB_GAME_PDK)
            size = v->maxsize;
        cb_counts hand = heavy ? cbt_hand_heavy(&g, deck, size)
                         : (i & 2) ? cbt_hand_chainy(&g, deck, size)
                                   : cbt_hand_uniform(&g, deck, size);
        heavy_n += heavy;
        chainy_n += !heavy && (i & 2);
        cbt_mh_stats st;
        clock_t c0 = clock();
        int want = cbt_oracle_min_hands(&r, hand, &st);
        clock_t c1 = clock();
        int got = cb_min_hands(&r, hand);
        clock_t c2 = clock();
        t_oracle += (double)(c1 - c0) / CLOCKS_PER_SEC;
        t_fast += (double)(c2 - c1) / CLOCKS_PER_SEC;
        states += st.states;
        if (st.states > max_states)
            max_states = st.states;
        if (want < 0)
            fail_msg("oracle failed (readings overflow or out of memory) on a hand of %d", size);
        if (want < 32)
            by_answer[want]++;
        if (got != want) {
            bad++;
            if (bad <= MAX_REPORTS) {
                char b[64];
                cb_counts_format(hand, b, sizeof b);
                fprintf(stderr, "MISMATCH [%s]: hand %s (%d cards): oracle %d, cb_min_hands %d\n",
                        name, b, cb_counts_total(hand), want, got);
            }
        }
    }
    printf("min-hands oracle [%s] seed=%llu%s: %ld hands (%ld heavy, %ld chain-heavy), sizes 1..%d, %ld memo states "
           "(max %ld); answers:",
           name, (unsigned long long)seed, CBT_UNDER_ASAN ? " (asan: 1/5 count)" : "", count,
           heavy_n, chainy_n, v->maxsize, states, max_states);
    for (int a = 0; a < 32; a++)
        if (by_answer[a])
            printf(" %d:%ld", a, by_answer[a]);
    printf("; %ld mismatches; oracle %.1fs, cb_min_hands %.2fs\n", bad, t_oracle, t_fast);
    fflush(stdout);
    if (bad)
        fail_msg("%ld mismatches in [%s] (seed %llu)", bad, name, (unsigned long long)seed);
}

/* The oracle on hands whose answers are known, so it cannot drift into agreeing with a
 * broken cb_min_hands. */
typedef struct known {
    const char *preset, *key, *value, *hand;
    int answer;
} known;

static const known knowns[] = {
    {"ddz", NULL, NULL, "", 0},
    {"ddz", NULL, NULL, "3", 1},
    {"ddz", NULL, NULL, "34", 2},
    {"ddz", NULL, NULL, "34567", 1},
    {"ddz", NULL, NULL, "3456", 4},
    {"ddz", NULL, NULL, "XD", 1},               /* rocket */
    {"ddz", NULL, NULL, "3333XD", 2},           /* never both jokers as kickers: bomb + rocket */
    {"ddz", NULL, NULL, "33334444", 2},         /* DDZ four + 2 pairs wants two ranks */
    {"ddz", NULL, NULL, "3333445566", 2},       /* four + 2 pairs, + a pair */
    {"ddz", NULL, NULL, "333444555666789T", 1}, /* plane of 4 + 4 singles */
    {"noip2015", "four_two_same", "true", "333344", 1},
    {"noip2015", "four_two_same", "false", "333344", 2},
    {"noip2015", "four_two_same", "false", "33334444", 1}, /* two pairs of one rank */
    {"noip2015", "four_two_same", "false", "XD", 1},
    {"noip2015", "four_two_same", "false", "3333XD", 1}, /* the jokers as two singles */
    {"noip2015", "four_two_same", "true", "3456789TJQKA2", 2}, /* no 2 in a chain */
    {"ddz", NULL, NULL, "334455", 1},
    {"ddz", NULL, NULL, "333444555666777888", 1},
    {"noip2015", "four_two_same", "false", "333444", 1}, /* triple chain, no wings */
    {"noip2015", "four_two_same", "false", "3334445", 2},
    {"pdk16", NULL, NULL, "333", 1},                  /* short, as the last play */
    {"pdk16", "short_triple", "never", "333", 2},
    {"pdk16", "short_triple", "never", "333444", 2},  /* 三带二 33344 + 4 */
    {"pdk16", NULL, NULL, "333444555", 1},            /* a short plane, as the last play */
    {"pdk16", NULL, NULL, "333444", 1},
    {"pdk16", NULL, NULL, "333555", 2},               /* no chain; only one short play */
    {"pdk16", "short_triple", "never", "3334445", 2},
    {"pdk16", NULL, NULL, "333444555666", 1},         /* a short plane as the last play */
    {"pdk16", "short_triple", "never", "333444555666", 2}, /* 333444+5556, then 66 */
    {"pdk16", NULL, NULL, "333345", 2},               /* 33345 + 3 (no four + k in pdk16) */
    {"guanpai", NULL, NULL, "333345", 1},             /* four + 2 */
    {"guanpai", NULL, NULL, "3333456", 1},            /* four + 3 */
    {"pdk16", NULL, NULL, "33334444", 2},             /* two bombs */
    {"pdk16", NULL, NULL, "4444555588889999", 3},     /* one short play at most */
    {"pdk16", "short_triple", "always", "4444555588889999", 2}, /* 444555+89, 888999+45 */
    {"pdk16", NULL, NULL, "3344", 2},                 /* pair chains start at 3 pairs by default */
    {"pdk16", "min_pair_chain", "2", "3344", 1},
};

static void oracle_known(void **state)
{
    (void)state;
    int bad = 0;
    for (size_t i = 0; i < sizeof knowns / sizeof knowns[0]; i++) {
        const known *k = &knowns[i];
        cb_rules r;
        assert_int_equal(cb_rules_preset(k->preset, &r), 0);
        if (k->key)
            assert_int_equal(cb_rules_set(&r, k->key, k->value, NULL, 0), 0);
        cb_counts hand;
        assert_int_equal(cb_counts_parse(k->hand, r.deck, &hand, NULL, 0), 0);
        int o = cbt_oracle_min_hands(&r, hand, NULL);
        if (o != k->answer) {
            fprintf(stderr, "oracle: %s %s=%s hand %s: %d, expected %d\n", k->preset,
                    k->key ? k->key : "", k->value ? k->value : "", k->hand, o, k->answer);
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

static const variant variants[] = {
    {{"pdk16", {NULL}}, 16, 5000},
    {{"pdk15", {NULL}}, 15, 5000},
    {{"guanpai", {NULL}}, 16, 5000},
    {{"ddz", {NULL}}, 20, 5000},
    {{"noip2015", {"four_two_same", "true", NULL}}, 23, 5000},
    {{"noip2015", {"four_two_same", "false", NULL}}, 23, 5000},
    {{"pdk16", {"short_triple", "never", NULL}}, 16, 1000},
    {{"pdk16", {"short_triple", "always", NULL}}, 16, 1000},
    {{"pdk16", {"min_pair_chain", "2", "aaa_bomb", "true", NULL}}, 16, 1000},
    {{"pdk16", {"four_with", "both", NULL}}, 16, 1000},
    {{"pdk16", {"plane_single_wings", "true", "short_triple", "never", NULL}}, 16, 1000},
    {{"pdk16", {"plane_pair_wings", "true", NULL}}, 16, 1000},
    {{"pdk16", {"max_pair_chain", "3", "min_pair_chain", "2", NULL}}, 16, 1000},
    {{"ddz", {"rocket_kickers", "true", NULL}}, 20, 1000},
};

int main(void)
{
    const struct CMUnitTest first = cmocka_unit_test(oracle_known);
    return cbt_run_variants("test_minhands_oracle", SEED_DEFAULT, "; AddressSanitizer build: a fifth of the hands",
                            &first, run_variant, variants, sizeof variants / sizeof variants[0],
                            sizeof variants[0]);
}

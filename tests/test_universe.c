/* cardbot tests — cb_universe: the set of every distinct play by ranks.
 *
 * ddz must have exactly 27,471 members (the standard action space of public DDZ engines).
 * For every preset (and a few flag variants) the count is printed, and the set is checked:
 * no multiset twice, every member inside the deck and classified by cb_classify to the same
 * shape, main rank and length. From the other side, for PDK (small decks) every sub-multiset of
 * the deck with at most a hand's worth of cards is read with the oracle's cbt_readings
 * (cb_readings; under the PDK house rules the oracle's own reading of them), and the universe
 * must be exactly those with a reading (short-only ones excepted under short_triple = never):
 * an exhaustive check, ~24M multisets for pdk16. For ddz and noip2015 (0.5 and 1.2 billion
 * such multisets) every classifiable sub-multiset of random full hands must be a member
 * instead. Under AddressSanitizer only pdk15 is walked exhaustively (the others sample hands).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "support/oracle.h"
#include "support/randhand.h"

#define SEED_DEFAULT 0x27471u
#define MAX_REPORTS 10

typedef struct variant {
    const char *preset;
    const char *flags[10];
    long expect; /* exact count, or -1: printed only */
    int hands;   /* random full hands for the completeness check (plain build) */
    bool exhaustive; /* walk every sub-multiset of the deck up to a hand's size */
    bool check_short; /* expect_short is asserted */
    long expect_short; /* members short by the oracle's cbt_is_short */
} variant;

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void print_variant(const variant *v, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%s", v->preset);
    for (int i = 0; v->flags[i] && n < (int)len; i += 2)
        n += snprintf(buf + n, len - (size_t)n, " %s=%s", v->flags[i], v->flags[i + 1]);
}

/* The exhaustive completeness walk: every sub-multiset of the deck with at most `left` more
 * cards, rank by rank. */
typedef struct walk {
    const cb_rules *r;
    cb_counts deck;
    const cb_counts *keys;
    int nkeys;
    long expected, missing;
    const char *name;
} walk;

static void walk_ranks(walk *w, int rank, cb_counts cur, int left)
{
    if (rank == CB_NRANKS) {
        if (cur == 0)
            return;
        cb_move rd[CBT_READINGS_CAP];
        int n = cbt_readings(w->r, cur, rd);
        bool member = false;
        for (int i = 0; i < n; i++)
            if (!cbt_is_short(w->r, &rd[i]) || w->r->short_triple != CB_SHORT_NEVER)
                member = true;
        if (n < 0) {
            member = true; /* cannot tell: count it, so the totals disagree loudly */
            w->missing++;
        }
        if (!member)
            return;
        w->expected++;
        if (!bsearch(&cur, w->keys, (size_t)w->nkeys, sizeof *w->keys, cmp_u64) &&
            ++w->missing <= MAX_REPORTS) {
            char mt[128];
            cbt_move_text(&rd[0], mt, sizeof mt);
            fprintf(stderr, "[%s] %s has a reading but is not in the universe\n", w->name, mt);
        }
        return;
    }
    int most = cb_count(w->deck, rank);
    if (most > left)
        most = left;
    for (int c = 0; c <= most; c++)
        walk_ranks(w, rank + 1, cb_count_add(cur, rank, c), left - c);
}

static void run_variant(void **state)
{
    const variant *v = *state;
    cb_rules r;
    assert_int_equal(cb_rules_preset(v->preset, &r), 0);
    for (int i = 0; v->flags[i]; i += 2)
        assert_int_equal(cb_rules_set(&r, v->flags[i], v->flags[i + 1], NULL, 0), 0);
    char name[128];
    print_variant(v, name, sizeof name);

    cb_move one;
    int n = cb_universe(&r, &one, 1);
    assert_true(n > 0);
    cb_move *u = malloc((size_t)n * sizeof *u);
    cb_counts *keys = malloc((size_t)n * sizeof *keys);
    assert_non_null(u);
    assert_non_null(keys);
    assert_int_equal(cb_universe(&r, u, n), n);

    cb_counts deck = cb_counts_of(r.deck);
    long bad = 0, nshort = 0, byshape[CB_NSHAPES] = {0};
    for (int i = 0; i < n; i++) {
        keys[i] = u[i].counts;
        char mt[128];
        cbt_move_text(&u[i], mt, sizeof mt);
        if (u[i].shape < CB_NSHAPES)
            byshape[u[i].shape]++;
        nshort += cbt_is_short(&r, &u[i]);
        cb_move c;
        char why[128] = "";
        if (u[i].counts == 0 || !cbt_counts_le(u[i].counts, deck) ||
            u[i].ncards != cb_counts_total(u[i].counts)) {
            if (++bad <= MAX_REPORTS)
                fprintf(stderr, "[%s] member %s: empty, outside the deck or wrong ncards\n", name, mt);
        } else if (!cb_classify(&r, u[i].counts, &c, why, sizeof why)) {
            if (++bad <= MAX_REPORTS)
                fprintf(stderr, "[%s] member %s: cb_classify rejects it (%s)\n", name, mt, why);
        } else if (c.shape != u[i].shape || c.main != u[i].main || c.len != u[i].len) {
            char ct[128];
            cbt_move_text(&c, ct, sizeof ct);
            if (++bad <= MAX_REPORTS)
                fprintf(stderr, "[%s] member %s: cb_classify reads %s\n", name, mt, ct);
        }
    }
    qsort(keys, (size_t)n, sizeof *keys, cmp_u64);
    long dups = 0;
    for (int i = 1; i < n; i++)
        if (keys[i] == keys[i - 1] && ++dups <= MAX_REPORTS) {
            char b[64];
            cb_counts_format(keys[i], b, sizeof b);
            fprintf(stderr, "[%s] %s is listed twice\n", name, b);
        }

    /* completeness: every classifiable sub-multiset of random full hands is a member */
    uint64_t seed = cbt_seed(SEED_DEFAULT);
    uint64_t h = seed;
    for (const char *p = name; *p; p++)
        h = (h ^ (uint8_t)*p) * 0x100000001B3ull;
    cbt_rng g;
    cbt_rng_seed(&g, h);
    /* The sanitizer build (~3x slower) walks only pdk15's deck exhaustively (10M multisets)
     * and samples random hands for the other PDK variants; the plain build walks them all. */
    bool exhaustive = v->exhaustive && (!CBT_UNDER_ASAN || strcmp(v->preset, "pdk15") == 0);
    int hands = exhaustive ? 0 : CBT_UNDER_ASAN ? v->hands / 4 : v->hands;
    int full = r.hand_size + r.bottom;
    long checked = 0, missing = 0;
    cb_counts *subs = NULL;
    for (int k = 0; k < hands; k++) {
        cb_counts hand = (k & 1) ? cbt_hand_heavy(&g, deck, full) : cbt_hand_uniform(&g, deck, full);
        long ns = cbt_submultisets(hand, NULL, 0);
        subs = realloc(subs, (size_t)ns * sizeof *subs);
        assert_non_null(subs);
        cbt_submultisets(hand, subs, ns);
        for (long s = 1; s < ns; s++) {
            cb_move c;
            if (!cb_classify(&r, subs[s], &c, NULL, 0))
                continue;
            if (cbt_is_short(&r, &c) && nshort == 0)
                continue;
            checked++;
            if (!bsearch(&subs[s], keys, (size_t)n, sizeof *keys, cmp_u64) && ++missing <= MAX_REPORTS) {
                char mt[128];
                cbt_move_text(&c, mt, sizeof mt);
                fprintf(stderr, "[%s] %s classifies but is not in the universe\n", name, mt);
            }
        }
    }
    free(subs);

    walk w = {.r = &r, .deck = deck, .keys = keys, .nkeys = n, .name = name};
    if (exhaustive) {
        walk_ranks(&w, 0, 0, r.hand_size + r.bottom);
        printf("universe [%s]: exhaustive: %ld sub-multisets of the deck with a reading, %ld "
               "missing from the universe\n", name, w.expected, w.missing);
    }

    printf("universe [%s]: %d plays (%ld short); by shape:", name, n, nshort);
    for (int s = 0; s < CB_NSHAPES; s++)
        if (byshape[s])
            printf(" %s=%ld", cb_shape_names[s] ? cb_shape_names[s] : "?", byshape[s]);
    printf("; completeness: %ld classifiable sub-multisets of %d random full hands (seed %llu), "
           "%ld missing; %ld bad members, %ld duplicates\n",
           checked, hands, (unsigned long long)seed, missing, bad, dups);
    fflush(stdout);
    free(u);
    free(keys);
    if (v->expect >= 0)
        assert_int_equal(n, v->expect);
    if (v->check_short)
        assert_int_equal(nshort, v->expect_short);
    assert_int_equal(bad, 0);
    assert_int_equal(dups, 0);
    assert_int_equal(missing, 0);
    if (exhaustive) {
        assert_int_equal(w.missing, 0);
        assert_int_equal(w.expected, n); /* with no duplicates: the very same set */
    }
}

static const variant variants[] = {
    {"ddz", {NULL}, 27471, 400, false, false, 0},
    {"pdk16", {NULL}, -1, 100, true, false, 0},
    {"pdk15", {NULL}, -1, 100, true, false, 0},
    {"guanpai", {NULL}, -1, 100, true, false, 0},
    {"noip2015", {NULL}, -1, 200, false, false, 0},
    {"ddz", {"rocket_kickers", "true", NULL}, -1, 200, false, false, 0},
    {"pdk16", {"min_pair_chain", "2", NULL}, -1, 100, true, false, 0},
    {"pdk16", {"aaa_bomb", "true", NULL}, -1, 100, true, false, 0},
    {"pdk16", {"short_triple", "never", NULL}, -1, 100, true, false, 0},
    {"pdk16", {"four_with", "both", "short_triple", "always", NULL}, -1, 100, true, false, 0},
    /* The PDK house rules. Each figure was obtained by running this test: the exhaustive walk
     * (every sub-multiset of the pdk16 deck up to 16 cards, read by the oracle, which applies
     * these flags itself: oracle.h) counted it, and the walk's count is asserted equal to
     * cb_universe's (above). Against the default's 85,806 plays (34,390 short):
     *  - plane_single_wings: 85,806, the same plays (under short_triple = last every plane + L
     *    kickers was a member already, as a short play); 2,939 of them are now full (the chain
     *    of L triples times L distinct other ranks of 13: 11 C(11,2) + 10 C(10,3) + 9 C(9,4)
     *    for L = 2, 3, 4), so 31,451 short;
     *  - the same with short_triple = never: 51,416 (never's universe) + 2,939 = 54,355;
     *  - plane_pair_wings: the 50,375 planes + 2L become the 1,335 with L distinct pairs
     *    (11 C(10,2) + 10 C(9,3): pairs from the 12 - L other ranks 3..A), and 1,496 multisets
     *    that were a plane + 2L but also read as a short longer plane (3334445556) stay as
     *    that: 85,806 - 50,375 + 1,335 + 1,496 = 38,262;
     *  - short_follow off: 85,806, the same plays (it changes what beats what, not what is a
     *    play);
     *  - max_pair_chain 6: the pair chains of 7 and 8 pairs (6 + 5) go: 85,795;
     *  - all four (the implementation they come from): 38,262 - 11 = 38,251. */
    {"pdk16", {"plane_single_wings", "true", NULL}, 85806, 100, true, true, 31451},
    {"pdk16", {"plane_single_wings", "true", "short_triple", "never", NULL}, 54355, 100, true,
     true, 0},
    {"pdk16", {"plane_pair_wings", "true", NULL}, 38262, 100, true, true, 35886},
    {"pdk16", {"short_follow", "false", NULL}, 85806, 100, true, true, 34390},
    {"pdk16", {"max_pair_chain", "6", NULL}, 85795, 100, true, true, 34390},
    {"pdk16", {"plane_single_wings", "true", "plane_pair_wings", "true", "short_follow", "false",
               "max_pair_chain", "6", NULL}, 38251, 100, true, true, 32947},
};

int main(void)
{
    enum { NV = sizeof variants / sizeof variants[0] };
    char names[NV][128];
    struct CMUnitTest tests[NV];
    for (size_t i = 0; i < NV; i++) {
        tests[i] = (struct CMUnitTest)cmocka_unit_test_prestate(run_variant, (void *)&variants[i]);
        print_variant(&variants[i], names[i], sizeof names[i]);
        tests[i].name = names[i];
    }
    return cmocka_run_group_tests(tests, NULL, NULL);
}

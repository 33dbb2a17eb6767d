/* Fuzz target "rules": classify, legal moves, the one-play check and min-hands (rules.h)
 * cross-checked against each other on fuzzed rules, hands and tables.
 *
 * Input: a preset and rule flags (each set through cb_rules_set, so only values it accepts),
 * a hand (a count per rank, cut to what the deck holds and to the largest hand of the game),
 * maybe a table play (counts the other seats could hold that classify), the decision's flags,
 * then bytes that pick sub-multisets of the hand and the plays of a greedy partition.
 * Checked (any failure aborts):
 *  - every play cb_legal_moves lists is in the hand, passes cb_play_legal (the same shape),
 *    classifies, and is listed once; a pass is listed first exactly when cb_play_legal allows
 *    it; cb_legal_moves_ex's kicker classes are each one of the full list's plays and cover
 *    every class of it;
 *  - a sub-multiset of the hand that cb_play_legal accepts is in the list;
 *  - cb_min_hands: 0 exactly for the empty hand, 1 when the whole hand is one legal lead, never
 *    more than the cards; greedy play of legal leads empties the hand in at least that many
 *    plays, and each lead p keeps min_hands(hand) <= 1 + min_hands(hand - p).
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzzkit.h"

#define MAXMOVES CB_MOVES_CAP
static cb_move moves[MAXMOVES], ex[MAXMOVES], leads[MAXMOVES];

static void set_flag(cb_rules *r, const char *key, const char *value)
{
    (void)cb_rules_set(r, key, value, NULL, 0); /* a refused value leaves r as it was */
}

static void fuzz_rules(fz_in *in, cb_rules *r)
{
    static const char *const presets[] = {"pdk16", "pdk15", "guanpai", "ddz", "noip2015"};
    if (cb_rules_preset(presets[fz_below(in, 5)], r) != 0)
        fz_fail("preset");
    uint32_t f = fz_u32(in);
    static const char *const tf[] = {"false", "true"};
    static const char *const shorts[] = {"last", "always", "never", "last"};
    static const char *const fours[] = {"none", "2", "3", "both"};
    static const char *const caps[] = {"0", "0", "5", "6"};
    if (f & 1) {
        set_flag(r, "must_beat", tf[(f >> 1) & 1]);
        set_flag(r, "must_beat_bomb", tf[(f >> 2) & 1]);
        set_flag(r, "warn_single", tf[(f >> 3) & 1]);
        set_flag(r, "spade3_first", tf[(f >> 4) & 1]);
        set_flag(r, "short_triple", shorts[(f >> 5) & 3]);
        set_flag(r, "four_with", fours[(f >> 7) & 3]);
        set_flag(r, "aaa_bomb", tf[(f >> 9) & 1]);
        set_flag(r, "min_pair_chain", (f >> 10) & 1 ? "2" : "3");
        set_flag(r, "plane_single_wings", tf[(f >> 11) & 1]);
        set_flag(r, "plane_pair_wings", tf[(f >> 12) & 1]);
        set_flag(r, "short_follow", tf[(f >> 13) & 1]);
        set_flag(r, "max_pair_chain", caps[(f >> 14) & 3]);
        set_flag(r, "rocket_kickers", tf[(f >> 16) & 1]);
        set_flag(r, "four_two_same", tf[(f >> 17) & 1]);
    }
}

/* The largest hand a seat holds in the game (DDZ: the landlord's with the bottom). */
static int max_hand(const cb_rules *r)
{
    return r->hand_size + r->bottom;
}

/* Counts from the input, each rank cut to avail, the whole to at most cap cards. */
static cb_counts fuzz_counts(fz_in *in, cb_counts avail, int cap)
{
    uint64_t raw = fz_u64(in);
    cb_counts k = 0;
    int total = 0;
    for (int r = 0; r < CB_NRANKS && total < cap; r++) {
        int n = (int)((raw >> (4 * r)) & 15u) % (cb_count(avail, r) + 1);
        if (n > cap - total)
            n = cap - total;
        k = cb_count_add(k, r, n);
        total += n;
    }
    return k;
}

static bool same_play(const cb_move *a, const cb_move *b)
{
    return a->counts == b->counts && a->shape == b->shape && a->main == b->main && a->len == b->len &&
           a->kick == b->kick;
}

static const char *txt(cb_counts k)
{
    static char buf[4][64];
    static int i;
    i = (i + 1) & 3;
    cb_counts_format(k, buf[i], sizeof buf[i]);
    return buf[i];
}

static int find_counts(const cb_move *list, int n, cb_counts k)
{
    for (int i = 0; i < n; i++)
        if (list[i].counts == k)
            return i;
    return -1;
}

/* A uniformly unbiased-enough sub-multiset of hand from 8 bytes. */
static cb_counts sub_of(fz_in *in, cb_counts hand)
{
    uint64_t raw = fz_u64(in);
    cb_counts k = 0;
    for (int r = 0; r < CB_NRANKS; r++)
        k = cb_count_add(k, r, (int)((raw >> (4 * r)) & 15u) % (cb_count(hand, r) + 1));
    return k;
}

static void check_min_hands(const cb_rules *r, cb_counts hand, fz_in *in)
{
    int m = cb_min_hands(r, hand);
    int cards = cb_counts_total(hand);
    FZ_CHECK(m >= 0, "cb_min_hands(%s, %s) = %d for a hand the deck holds", r->preset, txt(hand), m);
    FZ_CHECK((m == 0) == (cards == 0), "cb_min_hands(%s, %s) = %d", r->preset, txt(hand), m);
    FZ_CHECK(m <= cards, "cb_min_hands(%s, %s) = %d > %d cards", r->preset, txt(hand), m, cards);
    cb_ctx lead = {.hand = hand};
    cb_move whole;
    if (cards && cb_play_legal(r, &lead, hand, &whole, NULL, 0))
        FZ_CHECK(m == 1, "%s: the whole hand %s is one legal lead (%s), cb_min_hands says %d", r->preset,
                 txt(hand), cb_shape_names[whole.shape], m);
    /* greedy partition by legal leads: the plays are chosen by the input (by default the
     * first listed) */
    cb_counts h = hand;
    int plays = 0, mh = m;
    while (h) {
        cb_ctx c = {.hand = h};
        int n = cb_legal_moves(r, &c, leads, MAXMOVES);
        FZ_CHECK(n > 0 && n <= MAXMOVES, "%s: no legal lead from %s (n = %d)", r->preset, txt(h), n);
        const cb_move *p = &leads[fz_below(in, (unsigned)n)];
        FZ_CHECK(p->shape != CB_PASS && p->counts && cbt_le(p->counts, h), "%s: lead %s from %s", r->preset,
                 txt(p->counts), txt(h));
        cb_counts next = h - p->counts;
        int mn = cb_min_hands(r, next);
        FZ_CHECK(mh <= 1 + mn, "%s: cb_min_hands(%s) = %d, but leading %s (%s) leaves %s with cb_min_hands %d",
                 r->preset, txt(h), mh, txt(p->counts), cb_shape_names[p->shape], txt(next), mn);
        h = next;
        mh = mn;
        plays++;
    }
    FZ_CHECK(plays >= m, "%s: %s emptied in %d legal leads, cb_min_hands says %d", r->preset, txt(hand), plays, m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    cb_rules r;
    fuzz_rules(&in, &r);
    cb_counts deck = cb_counts_of(r.deck);
    cb_counts hand = fuzz_counts(&in, deck, max_hand(&r));
    uint8_t fl = fz_u8(&in);
    cb_move table;
    bool follow = false;
    if (fl & 1) {
        cb_counts t = fuzz_counts(&in, deck - hand, 20);
        follow = t && cb_classify(&r, t, &table, NULL, 0);
    }
    cb_ctx ctx = {.hand = hand, .table = follow ? &table : NULL, .next_has_one = (fl >> 1) & 1,
                  .first_play = !follow && ((fl >> 2) & 1)};

    int n = cb_legal_moves(&r, &ctx, moves, MAXMOVES);
    FZ_CHECK(n >= 0 && n <= MAXMOVES, "cb_legal_moves returned %d", n);
    cb_move m;
    char why[160];
    bool pass_ok = cb_play_legal(&r, &ctx, 0, &m, NULL, 0);
    FZ_CHECK(!pass_ok || follow, "%s: a pass is legal while leading", r.preset);
    FZ_CHECK((n > 0 && moves[0].shape == CB_PASS) == pass_ok, "%s hand %s table %s: pass listed %d, legal %d",
             r.preset, txt(hand), follow ? txt(table.counts) : "-", n > 0 && moves[0].shape == CB_PASS, pass_ok);
    for (int i = 0; i < n; i++) {
        const cb_move *p = &moves[i];
        if (p->shape == CB_PASS) {
            FZ_CHECK(i == 0 && p->counts == 0, "a pass at %d", i);
            continue;
        }
        FZ_CHECK(p->counts && cbt_le(p->counts, hand), "%s: play %s not in hand %s", r.preset, txt(p->counts),
                 txt(hand));
        why[0] = '\0';
        bool ok = cb_play_legal(&r, &ctx, p->counts, &m, why, sizeof why);
        FZ_CHECK(ok, "%s hand %s table %s next1 %d first %d: listed %s (%s) refused by cb_play_legal: %s", r.preset,
                 txt(hand), follow ? txt(table.counts) : "-", ctx.next_has_one, ctx.first_play, txt(p->counts),
                 cb_shape_names[p->shape], why);
        cb_move c;
        FZ_CHECK(cb_classify(&r, p->counts, &c, NULL, 0), "%s: listed %s does not classify", r.preset,
                 txt(p->counts));
        FZ_CHECK(find_counts(moves, i, p->counts) < 0, "%s: %s listed twice (%s, %s)", r.preset, txt(p->counts),
                 cb_shape_names[moves[find_counts(moves, i, p->counts)].shape], cb_shape_names[p->shape]);
    }
    /* the kicker classes of cb_legal_moves_ex */
    int ne = cb_legal_moves_ex(&r, &ctx, ex, MAXMOVES, CB_GEN_KICK_LOWEST);
    FZ_CHECK(ne >= 0 && ne <= n, "cb_legal_moves_ex: %d plays, the full list %d", ne, n);
    for (int i = 0; i < ne; i++) {
        int j = find_counts(moves, n, ex[i].counts);
        FZ_CHECK(j >= 0 && same_play(&moves[j], &ex[i]), "%s: cb_legal_moves_ex lists %s (%s), not in the full list",
                 r.preset, txt(ex[i].counts), cb_shape_names[ex[i].shape]);
    }
    for (int i = 0; i < n; i++) {
        bool found = false;
        for (int j = 0; j < ne && !found; j++)
            found = ex[j].shape == moves[i].shape && ex[j].main == moves[i].main && ex[j].len == moves[i].len &&
                    ex[j].kick == moves[i].kick;
        FZ_CHECK(found, "%s: class of %s (%s main %d len %d kick %d) missing from cb_legal_moves_ex", r.preset,
                 txt(moves[i].counts), cb_shape_names[moves[i].shape], moves[i].main, moves[i].len, moves[i].kick);
    }
    /* sub-multisets the one-play check accepts are listed */
    int subs = 8 + (int)fz_below(&in, 24);
    for (int s = 0; s <= subs; s++) {
        cb_counts k = s == 0 ? hand : sub_of(&in, hand);
        if (!k)
            continue;
        if (cb_play_legal(&r, &ctx, k, &m, NULL, 0))
            FZ_CHECK(find_counts(moves, n, k) >= 0, "%s hand %s table %s: %s (%s) is legal but not listed", r.preset,
                     txt(hand), follow ? txt(table.counts) : "-", txt(k), cb_shape_names[m.shape]);
    }
    check_min_hands(&r, hand, &in);
    return 0;
}

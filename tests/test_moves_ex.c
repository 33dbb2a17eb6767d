/* cardbot tests — cb_legal_moves_ex against the full generator (cb_legal_moves).
 *
 * flags = 0 must give cb_legal_moves' list byte for byte. CB_GEN_KICK_LOWEST must give the
 * list built here from the full one: every play without kickers (and the pass) as it stands,
 * and each kicker class (shape, main, len, kick) once, at the place of its first layout, as
 * the layout of that class with the smallest counts word. So each class of the full list is
 * present exactly once, nothing else is, and the layout is the lowest; besides, every
 * representative must pass cb_play_legal, a count-only call (out NULL) must return the same
 * number, a short buffer must receive exactly the head of the list and nothing past cap, and
 * the whole hand must be listed exactly when cb_legal_moves lists it.
 *
 * Positions per rule variant: hands drawn uniform, triple/bomb-heavy or chain-heavy, of any
 * size up to a full hand (landlord: with the bottom cards), leading (sometimes the first play,
 * sometimes next_has_one) or following a random play of another hand, half the time one with
 * kickers (三带二, planes, four + k), the case the flag is for. Tables are any play of the
 * other hand, short ones included: the generator must cope with every table it can be given.
 * One position in six is a small triple-heavy hand against a play with kickers, where the
 * whole hand may go as a short play (PDK 甩尾) of a class the loops also list.
 * Plus hand-made positions whose representatives are worked out in the comments.
 * Counts: 24,000 positions per variant in the plain build, a quarter under AddressSanitizer.
 * CB_SEED=<n> replays another seed; the seed is printed.
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
#include "support/variant.h"

#define SEED_DEFAULT 0x5EED0E11u
#define POSITIONS (CBT_UNDER_ASAN ? 6000 : 24000)
#define MAX_REPORTS 6
#define CLASS_SLOTS 4096 /* far above the kicker classes of any hand (a few hundred at most) */

typedef struct variant {
    cbt_variant base;     /* preset and rule flags */
} variant;

/* Buffers of one variant's run (heap: a list can hold CB_MOVES_CAP plays). */
typedef struct work {
    cb_move *full, *ex, *low, *want, *other;
    struct {
        uint32_t key, stamp;
        cb_counts min; /* the lowest layout of the class in the full list */
        bool emitted;  /* already placed in the expected list */
    } slot[CLASS_SLOTS];
    uint32_t stamp;
    long positions, following, kick_tables, full_plays, low_plays, classes, folded, bad;
    long whole_kick; /* the hand itself listed as a kicker play in the lowest list */
} work;

static uint32_t class_of(const cb_move *m)
{
    return (uint32_t)m->shape << 24 | (uint32_t)m->main << 16 | (uint32_t)m->len << 8 | m->kick;
}

/* The slot of a class in this position's table (open addressing; a new stamp empties it);
 * *fresh: the class was not in it yet. */
static int slot_find(work *w, uint32_t key, bool *fresh)
{
    uint32_t i = (key * 2654435761u) >> 20; /* 12 bits: CLASS_SLOTS */
    for (;; i = (i + 1) & (CLASS_SLOTS - 1)) {
        if (w->slot[i].stamp != w->stamp) {
            w->slot[i].stamp = w->stamp;
            w->slot[i].key = key;
            w->slot[i].emitted = false;
            *fresh = true;
            return (int)i;
        }
        if (w->slot[i].key == key) {
            *fresh = false;
            return (int)i;
        }
    }
}

/* The expected CB_GEN_KICK_LOWEST list, built from the full list alone: plays without kickers
 * as they stand, each kicker class at its first layout's place as its lowest layout. */
static int expected_lowest(work *w, const cb_move *full, int n, cb_move *want)
{
    w->stamp++;
    for (int i = 0; i < n; i++) {
        if (!full[i].kick)
            continue;
        bool fresh;
        int s = slot_find(w, class_of(&full[i]), &fresh);
        if (fresh || full[i].counts < w->slot[s].min)
            w->slot[s].min = full[i].counts;
    }
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (!full[i].kick) {
            want[m++] = full[i];
            continue;
        }
        bool fresh;
        uint32_t key = class_of(&full[i]);
        int s = slot_find(w, key, &fresh);
        if (w->slot[s].emitted)
            continue;
        w->slot[s].emitted = true;
        for (int j = 0; j < n; j++)
            if (full[j].counts == w->slot[s].min && class_of(&full[j]) == key) {
                want[m++] = full[j];
                break;
            }
    }
    return m;
}

static void report(work *w, const cb_rules *r, const cb_ctx *ctx, const char *fmt, ...)
{
    w->bad++;
    if (w->bad > MAX_REPORTS)
        return;
    char pos[512];
    cbt_ctx_text(r, ctx, pos, sizeof pos);
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "MISMATCH: ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n  position: %s\n", pos);
}

static void print_move(const char *title, const cb_move *m)
{
    char b[128];
    cbt_move_text(m, b, sizeof b);
    fprintf(stderr, "  %s: %s\n", title, b);
}

static void check_position(work *w, const cb_rules *r, const cb_ctx *ctx)
{
    w->positions++;
    int n = cb_legal_moves(r, ctx, w->full, CB_MOVES_CAP);
    if (n > CB_MOVES_CAP) {
        report(w, r, ctx, "more than CB_MOVES_CAP plays (%d)", n);
        return;
    }
    int n0 = cb_legal_moves_ex(r, ctx, w->ex, CB_MOVES_CAP, 0);
    if (n0 != n || memcmp(w->ex, w->full, (size_t)n * sizeof *w->ex) != 0)
        report(w, r, ctx, "flags 0: %d plays, not cb_legal_moves' %d identical plays", n0, n);

    int nw = expected_lowest(w, w->full, n, w->want);
    int nl = cb_legal_moves_ex(r, ctx, w->low, CB_MOVES_CAP, CB_GEN_KICK_LOWEST);
    w->full_plays += n;
    w->low_plays += nl;
    for (int i = 0; i < nw; i++)
        w->classes += w->want[i].kick != 0;
    w->folded += n - nw;
    if (nl != nw) {
        report(w, r, ctx, "CB_GEN_KICK_LOWEST: %d plays, expected %d (full list %d)", nl, nw, n);
        return;
    }
    for (int i = 0; i < nl; i++)
        if (memcmp(&w->low[i], &w->want[i], sizeof w->low[i]) != 0) {
            report(w, r, ctx, "CB_GEN_KICK_LOWEST: entry %d differs", i);
            if (w->bad <= MAX_REPORTS) {
                print_move("got", &w->low[i]);
                print_move("expected", &w->want[i]);
            }
            return;
        }
    /* the whole hand is listed exactly when cb_legal_moves lists it (rollouts look for it) */
    bool whole_full = false, whole_low = false;
    for (int i = 0; i < n; i++)
        whole_full |= w->full[i].counts == ctx->hand;
    for (int i = 0; i < nl; i++)
        whole_low |= w->low[i].counts == ctx->hand;
    if (whole_full != whole_low)
        report(w, r, ctx, "CB_GEN_KICK_LOWEST: the whole hand %s, cb_legal_moves %s",
               whole_low ? "listed" : "missing", whole_full ? "lists it" : "does not");
    /* legal per the one-play check (the shim's and the plugins' judge) */
    for (int i = 0; i < nl; i++) {
        const cb_move *m = &w->low[i];
        w->whole_kick += m->kick && m->counts == ctx->hand;
        cb_move got;
        if (!cb_play_legal(r, ctx, m->counts, &got, NULL, 0)) {
            char why[160] = "";
            cb_play_legal(r, ctx, m->counts, NULL, why, sizeof why);
            report(w, r, ctx, "CB_GEN_KICK_LOWEST: entry %d refused by cb_play_legal (%s)", i, why);
            return;
        }
    }
    /* counting only, and a short buffer: the head of the list, nothing written past cap */
    int nc = cb_legal_moves_ex(r, ctx, NULL, 0, CB_GEN_KICK_LOWEST);
    if (nc != nl)
        report(w, r, ctx, "CB_GEN_KICK_LOWEST count-only call: %d, with a buffer %d", nc, nl);
    if (nl >= 2) {
        int cap = nl / 2;
        memset(w->ex, 0xA5, (size_t)(cap + 1) * sizeof *w->ex);
        cb_move sentinel;
        memset(&sentinel, 0xA5, sizeof sentinel);
        int ns = cb_legal_moves_ex(r, ctx, w->ex, cap, CB_GEN_KICK_LOWEST);
        if (ns != nl || memcmp(w->ex, w->low, (size_t)cap * sizeof *w->ex) != 0 ||
            memcmp(&w->ex[cap], &sentinel, sizeof sentinel) != 0)
            report(w, r, ctx, "CB_GEN_KICK_LOWEST with cap %d of %d: not the head of the list", cap, nl);
    }
}

static bool has_kickers(const cb_move *m) { return m->kick > 0; }

/* A random play of `other` to follow (half the time one with kickers, when it has any). */
static bool pick_table(cbt_rng *g, const cb_rules *r, cb_counts other, cb_move *moves, cb_move *table,
                       bool kick_only)
{
    cb_ctx lead = {.hand = other};
    int n = cb_legal_moves(r, &lead, moves, CB_MOVES_CAP);
    if (n <= 0)
        return false;
    if (n > CB_MOVES_CAP)
        n = CB_MOVES_CAP;
    int nk = 0;
    for (int i = 0; i < n; i++)
        nk += has_kickers(&moves[i]);
    if (nk > 0 && (kick_only || cbt_rng_chance(g, 1, 2))) {
        int which = (int)cbt_rng_below(g, (uint32_t)nk);
        for (int i = 0; i < n; i++)
            if (has_kickers(&moves[i]) && which-- == 0)
                *table = moves[i];
    } else {
        *table = moves[cbt_rng_below(g, (uint32_t)n)];
    }
    return true;
}

static void run_variant(void **state)
{
    const variant *v = *state;
    cb_rules r;
    cbt_variant_rules(v->base.preset, v->base.flags, &r);
    char name[160];
    cbt_variant_name(v->base.preset, v->base.flags, name, sizeof name);
    uint64_t seed = cbt_seed(SEED_DEFAULT);
    cbt_rng g;
    /* each variant its own stream: one replays alone with the printed seed */
    cbt_rng_seed_named(&g, seed, name);

    work *w = calloc(1, sizeof *w);
    assert_non_null(w);
    cb_move **bufs[] = {&w->full, &w->ex, &w->low, &w->want, &w->other};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) {
        *bufs[i] = malloc(sizeof(cb_move) * CB_MOVES_CAP);
        assert_non_null(*bufs[i]);
    }
    cb_counts deck = cb_counts_of(r.deck);
    int maxhand = r.hand_size + r.bottom;
    for (int p = 0; p < POSITIONS; p++) {
        bool endgame = cbt_rng_chance(&g, 1, 6);
        int size = endgame ? 5 + (int)cbt_rng_below(&g, 6) : 1 + (int)cbt_rng_below(&g, (uint32_t)maxhand);
        int kind = endgame ? 0 : (int)cbt_rng_below(&g, 3);
        cb_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.hand = kind == 0 ? cbt_hand_heavy(&g, deck, size)
                 : kind == 1 ? cbt_hand_chainy(&g, deck, size)
                             : cbt_hand_uniform(&g, deck, size);
        ctx.next_has_one = cbt_rng_chance(&g, 1, 4);
        cb_move table;
        if (endgame || cbt_rng_chance(&g, 1, 2)) {
            cb_counts rest = deck - ctx.hand;
            int osize = 1 + (int)cbt_rng_below(&g, (uint32_t)maxhand);
            cb_counts other = endgame || cbt_rng_chance(&g, 1, 2) ? cbt_hand_heavy(&g, rest, osize)
                                                                  : cbt_hand_uniform(&g, rest, osize);
            if (!pick_table(&g, &r, other, w->other, &table, endgame))
                continue;
            ctx.table = &table;
            w->following++;
            w->kick_tables += table.kick > 0;
        } else {
            ctx.first_play = cbt_rng_chance(&g, 1, 5);
        }
        check_position(w, &r, &ctx);
    }
    printf("moves_ex [%s] seed=%llu%s: %ld positions (%ld following, %ld of them a play with "
           "kickers); full lists %ld plays, CB_GEN_KICK_LOWEST %ld (%ld kicker classes, %ld layouts "
           "folded; %ld times the whole hand); %ld problems\n",
           name, (unsigned long long)seed, CBT_UNDER_ASAN ? " (asan: 1/4 count)" : "", w->positions,
           w->following, w->kick_tables, w->full_plays, w->low_plays, w->classes, w->folded, w->whole_kick,
           w->bad);
    fflush(stdout);
    long bad = w->bad, folded = w->folded;
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        free(*bufs[i]);
    free(w);
    if (bad)
        fail_msg("%ld problems in [%s] (seed %llu)", bad, name, (unsigned long long)seed);
    /* the positions must exercise the flag: hands with several layouts of a class */
    assert_true(folded > 0);
}

/* ---- hand-made positions ---- */

static cb_counts K(const cb_rules *r, const char *text)
{
    cb_counts k;
    char err[160] = "";
    if (cb_counts_parse(text, r->deck, &k, err, sizeof err) != 0)
        fail_msg("parse %s: %s", text, err);
    return k;
}

/* The plays of shape `shape` in the CB_GEN_KICK_LOWEST list; returns how many, the first in *m. */
static int lowest_of_shape(const cb_rules *r, const cb_ctx *ctx, int shape, cb_move *first)
{
    cb_move *out = malloc(sizeof(cb_move) * CB_MOVES_CAP);
    assert_non_null(out);
    int n = cb_legal_moves_ex(r, ctx, out, CB_MOVES_CAP, CB_GEN_KICK_LOWEST);
    assert_true(n >= 0 && n <= CB_MOVES_CAP);
    int c = 0;
    for (int i = 0; i < n; i++)
        if (out[i].shape == shape && c++ == 0)
            *first = out[i];
    free(out);
    return c;
}

static void hand_made(void **state)
{
    (void)state;
    cb_rules r;
    assert_int_equal(cb_rules_preset("pdk16", &r), 0);
    cb_move m;

    /* 333 + two of 4 5 6 6: 33345 (kickers 4 5) is lower than 33346, 33356, 33366 */
    cb_ctx ctx = {.hand = K(&r, "3334566")};
    assert_int_equal(lowest_of_shape(&r, &ctx, CB_TRIPLE_2, &m), 1);
    assert_true(m.counts == K(&r, "33345"));

    /* 333 + two of 5 5 6 6: the pair 55 is lower than 56 (its highest kicker is lower) */
    ctx.hand = K(&r, "3335566");
    assert_int_equal(lowest_of_shape(&r, &ctx, CB_TRIPLE_2, &m), 1);
    assert_true(m.counts == K(&r, "33355"));

    /* 333 + 4 K: the only layout */
    ctx.hand = K(&r, "3334K");
    assert_int_equal(lowest_of_shape(&r, &ctx, CB_TRIPLE_2, &m), 1);
    assert_true(m.counts == K(&r, "3334K"));

    /* two triples: 33344 (333 + 44) and 33444 (444 + 33) are two classes, one play each */
    ctx.hand = K(&r, "3334445566K");
    cb_move *out = malloc(sizeof(cb_move) * CB_MOVES_CAP);
    assert_non_null(out);
    int n = cb_legal_moves_ex(&r, &ctx, out, CB_MOVES_CAP, CB_GEN_KICK_LOWEST);
    int t2 = 0, p2 = 0;
    for (int i = 0; i < n; i++) {
        if (out[i].shape == CB_TRIPLE_2) {
            t2++;
            assert_true(out[i].counts == (out[i].main == CB_RANK_3 ? K(&r, "33344") : K(&r, "33444")));
        }
        if (out[i].shape == CB_PLANE_2) { /* 333444 + four of 5 5 6 6 K: 5566 */
            p2++;
            assert_true(out[i].counts == K(&r, "3334445566"));
        }
    }
    assert_int_equal(t2, 2);
    assert_int_equal(p2, 1);

    /* following the plane 333444 + 5678 with 555666777 89TJ. 5556667778 reads first as
     * 666777 + 5558 (the higher chain), so it is the lowest of class 666777; class 555666
     * cannot take 7778 nor 7779 (both read first as 666777 + ...) and its lowest is 77 8 9. */
    cb_move table;
    assert_true(cb_classify(&r, K(&r, "3334445678"), &table, NULL, 0));
    ctx = (cb_ctx){.hand = K(&r, "55566677789TJ"), .table = &table};
    n = cb_legal_moves_ex(&r, &ctx, out, CB_MOVES_CAP, CB_GEN_KICK_LOWEST);
    assert_int_equal(n, 2); /* must beat: no pass; no bombs */
    for (int i = 0; i < n; i++) {
        assert_int_equal(out[i].shape, CB_PLANE_2);
        assert_true(out[i].counts == (out[i].main == CB_RANK_5 ? K(&r, "5556667789") : K(&r, "5556667778")));
    }
    assert_int_not_equal(out[0].main, out[1].main);
    /* the full list has many layouts of the same two classes */
    assert_true(cb_legal_moves(&r, &ctx, NULL, 0) > 2);

    /* DDZ: triple + 1 single takes the lowest other rank; a plane + singles never takes both
     * jokers, so 333444 + X D 5 rides 5 X */
    cb_rules d;
    assert_int_equal(cb_rules_preset("ddz", &d), 0);
    ctx = (cb_ctx){.hand = K(&d, "33345X")};
    assert_int_equal(lowest_of_shape(&d, &ctx, CB_TRIPLE_1, &m), 1);
    assert_true(m.counts == K(&d, "3334"));
    ctx = (cb_ctx){.hand = K(&d, "3334445XD")};
    assert_int_equal(lowest_of_shape(&d, &ctx, CB_PLANE_1, &m), 1);
    assert_true(m.counts == K(&d, "3334445X"));
    free(out);
}

static const variant variants[] = {
    {{"pdk16", {NULL}}},
    {{"pdk15", {NULL}}},
    {{"guanpai", {NULL}}},
    {{"ddz", {NULL}}},
    {{"noip2015", {NULL}}},
    {{"pdk16", {"short_triple", "always", NULL}}},
    {{"pdk16", {"short_triple", "never", NULL}}},
    {{"pdk16", {"must_beat", "false", NULL}}},
    {{"pdk16", {"aaa_bomb", "true", "four_with", "both", NULL}}},
    {{"guanpai", {"short_triple", "always", NULL}}},
    {{"pdk16", {"warn_single", "false", "spade3_first", "false", NULL}}},
    {{"ddz", {"rocket_kickers", "true", NULL}}},
    {{"noip2015", {"four_two_same", "true", NULL}}},
    /* PDK house rules: under plane_single_wings the class (plane_1, main, len, L) holds full
     * single-wings layouts and short ones with a repeated kicker, from two loops */
    {{"pdk16", {"plane_single_wings", "true", NULL}}},
    {{"pdk16", {"plane_single_wings", "true", "short_triple", "always", NULL}}},
    {{"pdk16", {"plane_pair_wings", "true", "short_triple", "always", NULL}}},
    {{"pdk16", {"plane_single_wings", "true", "plane_pair_wings", "true", "short_follow", "false",
                "max_pair_chain", "6", NULL}}},
};

int main(void)
{
    const struct CMUnitTest first = cmocka_unit_test(hand_made);
    return cbt_run_variants("test_moves_ex", SEED_DEFAULT, "; AddressSanitizer build: a quarter of the positions",
                            &first, run_variant, variants, sizeof variants / sizeof variants[0],
                            sizeof variants[0]);
}

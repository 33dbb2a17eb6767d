/* cardbot tests — cb_legal_moves and cb_play_legal against the brute-force oracle.
 *
 * Random positions per rule variant: a hand drawn from the deck (half bomb/triple-heavy, the
 * rest uniform or chain-heavy; a third of them end-game sized, else any size up to a full
 * hand), leading (sometimes the game's first play) or following a random play of another hand
 * drawn from the rest of the deck (sometimes a small triple-heavy hand against a full triple or
 * plane, for the PDK last-play rules), with next_has_one set at random. For
 * each position:
 *   - cb_legal_moves must list exactly the oracle's set of multisets, without duplicates, a
 *     pass first exactly when the oracle allows one;
 *   - every listed move's reading must be one of cb_readings and allowed here; when leading it
 *     must be cb_classify's canonical reading;
 *   - cb_play_legal must accept every oracle play (with an allowed reading), reject a sample
 *     of the other sub-multisets, a play not in the hand, and agree on the pass;
 *   - under the PDK house rules (plane_single_wings, plane_pair_wings, short_follow,
 *     max_pair_chain), which the oracle reads itself (oracle.h): every sub-multiset of the
 *     hand must have the oracle's readings in cb_readings and its canonical one in cb_classify.
 * Counts: 20,000 positions per preset and 3,000 per flag variant in the plain build; a quarter
 * of that under AddressSanitizer (the sanitizer build is ~3x slower; the plain build carries
 * the volume). CB_SEED=<n> replays another seed; the seed is printed.
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

#define SEED_DEFAULT 0xCA4DB07u
#define MAX_REPORTS 4

typedef struct variant {
    cbt_variant base;     /* preset and rule flags */
    long positions;       /* plain build */
} variant;

typedef struct tally {
    long positions, leading, first_play, next_one, following, pass_ok, fast_moves, oracle_moves;
    long subs, play_legal_checks;
    long follow_beat;  /* following positions with at least one beating play */
    long whole_short;  /* positions where a short whole-hand play is legal (last play) */
    long whole_short_follow; /* ... while following (甩尾) */
    long warn_cut;     /* next_has_one positions where some single was refused */
    long house_reads;  /* PDK house-rule variants: sub-multisets whose cb_readings and
                        * cb_classify were compared with the oracle's reading of the flags */
    long house_full1;  /* ... of them read as a full single-wings plane */
    long plane2_tables, single_wing_tables; /* following a full plane (+ 2L, + L singles) */
    long bad;
    int reports;
} tally;

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* One problem in one position: counted always, printed with the position for the first few. */
static void report(tally *t, const cb_rules *r, const cb_ctx *ctx, const char *fmt, ...)
{
    t->bad++;
    if (t->reports >= MAX_REPORTS * 8)
        return;
    t->reports++;
    char pos[512];
    cbt_ctx_text(r, ctx, pos, sizeof pos);
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "MISMATCH: ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n  position: %s\n", pos);
}

static void print_list(const char *title, const cb_counts *a, long n)
{
    fprintf(stderr, "  %s (%ld):", title, n);
    for (long i = 0; i < n && i < 40; i++) {
        char b[64];
        cb_counts_format(a[i], b, sizeof b);
        fprintf(stderr, " %s", b);
    }
    fprintf(stderr, n > 40 ? " ...\n" : "\n");
}

/* A random play of `other` to follow: a random shape among its leading plays, then a random
 * play of that shape; sometimes a non-canonical reading of it (a seat may follow with one).
 * Short readings are skipped under short_triple = last/never: such a play would have ended
 * the game (or be illegal) and can never stand on the table. prefer: PREFER_TRIPLES: 3 times
 * in 4 a full triple / plane (the PDK last-play rules); PREFER_PLANES: a plane + one kicker
 * per triple or a full plane whenever there is one (the house rules' plane cases). Returns
 * false when none. */
enum { PREFER_NONE, PREFER_TRIPLES, PREFER_PLANES };
static bool pick_table(cbt_rng *g, const cb_rules *r, cb_counts other, cb_move *moves, cb_move *table,
                       int prefer)
{
    cb_ctx lead = {.hand = other};
    int n = cb_legal_moves(r, &lead, moves, CB_MOVES_CAP);
    if (n <= 0)
        return false;
    if (n > CB_MOVES_CAP)
        n = CB_MOVES_CAP;
    bool has[CB_NSHAPES] = {false};
    int nshapes = 0;
    for (int i = 0; i < n; i++) {
        bool ok = moves[i].shape < CB_NSHAPES &&
                  !(cbt_is_short(r, &moves[i]) && r->short_triple != CB_SHORT_ALWAYS);
        if (ok && !has[moves[i].shape]) {
            has[moves[i].shape] = true;
            nshapes++;
        }
    }
    if (nshapes == 0)
        return false;
    int pick = (int)cbt_rng_below(g, (uint32_t)nshapes), shape = 0;
    for (shape = 0; shape < CB_NSHAPES; shape++)
        if (has[shape] && pick-- == 0)
            break;
    /* the full shapes a short last play may follow (甩尾) */
    if (prefer == PREFER_PLANES) {
        if (has[CB_PLANE_1] && (!has[CB_PLANE_2] || cbt_rng_chance(g, 1, 2)))
            shape = CB_PLANE_1;
        else if (has[CB_PLANE_2])
            shape = CB_PLANE_2;
    }
    if (prefer == PREFER_TRIPLES && cbt_rng_chance(g, 3, 4)) {
        if (has[CB_PLANE_2] && cbt_rng_chance(g, 1, 2))
            shape = CB_PLANE_2;
        else if (r->plane_single_wings && has[CB_PLANE_1] && cbt_rng_chance(g, 1, 2))
            shape = CB_PLANE_1; /* a full single-wings plane (the flag is tested first: the
                                 * other variants draw the same numbers as before it) */
        else if (has[CB_TRIPLE_2])
            shape = CB_TRIPLE_2;
    }
    /* PREFER_PLANES: a full play of the shape when there is one (under short_triple = always
     * most planes + kickers are short; the full single-wings ones are the case wanted) */
    bool full_only = false;
    for (int i = 0; i < n && prefer == PREFER_PLANES && !full_only; i++)
        full_only = moves[i].shape == shape && !cbt_is_short(r, &moves[i]);
    int cnt = 0;
    for (int i = 0; i < n; i++)
        if (moves[i].shape == shape && !(full_only && cbt_is_short(r, &moves[i])))
            cnt++;
    int which = (int)cbt_rng_below(g, (uint32_t)cnt);
    cb_counts chosen = 0;
    for (int i = 0; i < n; i++)
        if (moves[i].shape == shape && !(full_only && cbt_is_short(r, &moves[i])) && which-- == 0)
            chosen = moves[i].counts;
    if (!cb_classify(r, chosen, table, NULL, 0))
        return false;
    if (cbt_rng_chance(g, 1, 4)) {
        cb_move rd[CBT_READINGS_CAP];
        int nr = cbt_readings(r, chosen, rd);
        if (nr > 0) {
            const cb_move *alt = &rd[cbt_rng_below(g, (uint32_t)nr)];
            if (!(cbt_is_short(r, alt) && r->short_triple != CB_SHORT_ALWAYS))
                *table = *alt;
        }
    }
    return !(cbt_is_short(r, table) && r->short_triple != CB_SHORT_ALWAYS);
}

/* cb_play_legal on sub-multiset k of the hand must agree with the oracle, and when it accepts,
 * the reading it returns must be one of the multiset's readings and allowed here. */
static void check_play_legal(const cb_rules *r, const cb_ctx *ctx, const cbt_legal *o, long k, tally *t)
{
    t->play_legal_checks++;
    cb_move m;
    memset(&m, 0, sizeof m);
    char why[160] = "";
    bool ok = cb_play_legal(r, ctx, o->subs[k], &m, why, sizeof why);
    char b[64];
    cb_counts_format(o->subs[k], b, sizeof b);
    if (ok != o->legal[k]) {
        report(t, r, ctx, "cb_play_legal(%s) = %d, oracle %d (why: %s)", b, ok, o->legal[k], why);
    } else if (ok && (m.counts != o->subs[k] || !cbt_is_a_reading(r, &m) ||
                      !cbt_reading_allowed(r, ctx, &m))) {
        char mt[128];
        cbt_move_text(&m, mt, sizeof mt);
        report(t, r, ctx, "cb_play_legal(%s) accepts it with reading %s, not allowed here", b, mt);
    }
}

/* Under the PDK house rules the oracle reads the flags itself (oracle.h): cb_readings must
 * give the same readings, and cb_classify the canonical one by the oracle's order. */
static void check_house_readings(const cb_rules *r, const cb_ctx *ctx, cb_counts k, tally *t)
{
    cb_move fast[CBT_READINGS_CAP], slow[CBT_READINGS_CAP];
    int nf = cb_readings(r, k, fast, CBT_READINGS_CAP);
    int ns = cbt_readings(r, k, slow);
    t->house_reads++;
    char b[64];
    cb_counts_format(k, b, sizeof b);
    bool same = nf == ns && nf <= CBT_READINGS_CAP;
    for (int i = 0; same && i < nf; i++) {
        bool found = false;
        for (int j = 0; j < ns && !found; j++)
            found = cbt_move_eq(&fast[i], &slow[j]);
        same = found;
    }
    if (!same) {
        report(t, r, ctx, "%s: cb_readings gives %d readings, the oracle %d (or other ones)", b,
               nf, ns);
        return;
    }
    cb_move c, o;
    bool fc = cb_classify(r, k, &c, NULL, 0), oc = cbt_canonical(r, k, &o);
    if (fc != oc || (fc && !cbt_move_eq(&c, &o))) {
        char ct[128] = "-", ot[128] = "-";
        if (fc)
            cbt_move_text(&c, ct, sizeof ct);
        if (oc)
            cbt_move_text(&o, ot, sizeof ot);
        report(t, r, ctx, "%s: cb_classify reads %s, the oracle's canonical reading is %s", b, ct, ot);
    }
    if (oc && o.shape == CB_PLANE_1 && !cbt_is_short(r, &o))
        t->house_full1++;
}

static void check_position(const cb_rules *r, const cb_ctx *ctx, cbt_rng *g, cb_move *fast,
                           cb_counts *fastset, tally *t)
{
    cbt_legal o;
    if (cbt_oracle_legal(r, ctx, &o) != 0)
        fail_msg("oracle: out of memory");
    t->positions++;
    t->subs += o.nsubs;
    t->oracle_moves += o.nplays;
    t->pass_ok += o.pass_ok;
    t->follow_beat += ctx->table && o.nplays > 0;
    {
        cb_move rd[CBT_READINGS_CAP];
        int nr = cbt_readings(r, ctx->hand, rd);
        for (int i = 0; i < nr; i++)
            if (cbt_is_short(r, &rd[i]) && cbt_reading_allowed(r, ctx, &rd[i])) {
                t->whole_short++;
                t->whole_short_follow += ctx->table != NULL;
                break;
            }
    }
    if (ctx->next_has_one && r->warn_single)
        for (long i = 0; i < o.nsubs; i++)
            if (cb_counts_total(o.subs[i]) == 1 && !o.legal[i]) {
                cb_move one;
                if (cb_classify(r, o.subs[i], &one, NULL, 0) &&
                    (!ctx->table || cb_beats(r, &one, ctx->table, o.subs[i] == ctx->hand))) {
                    t->warn_cut++;
                    break;
                }
            }
    if (o.overflow)
        report(t, r, ctx, "cb_readings returned more than %d readings for some sub-multiset",
               CBT_READINGS_CAP);
    if (cbt_house_flags(r))
        for (long i = 0; i < o.nsubs; i++)
            check_house_readings(r, ctx, o.subs[i], t);

    int n = cb_legal_moves(r, ctx, fast, CB_MOVES_CAP);
    if (n < 0 || n > CB_MOVES_CAP) {
        report(t, r, ctx, "cb_legal_moves returned %d", n);
        cbt_legal_free(&o);
        return;
    }
    if (cbt_rng_chance(g, 1, 8)) {
        int n0 = cb_legal_moves(r, ctx, NULL, 0);
        if (n0 != n)
            report(t, r, ctx, "cb_legal_moves counts %d with cap 0 but %d with room", n0, n);
    }
    t->fast_moves += n;

    /* the pass: first, present exactly when allowed */
    int first = 0;
    bool fast_pass = n > 0 && fast[0].shape == CB_PASS;
    if (fast_pass)
        first = 1;
    if (fast_pass != o.pass_ok)
        report(t, r, ctx, "pass: oracle %s, cb_legal_moves %s (oracle: beat_plain=%d beat_bomb=%d)",
               o.pass_ok ? "allowed" : "not allowed", fast_pass ? "lists it" : "does not list it",
               o.beat_plain, o.beat_bomb);
    if (fast_pass && fast[0].counts != 0)
        report(t, r, ctx, "the pass move has non-empty counts");

    /* every fast move: a sub-multiset, one of its readings, allowed here, canonical if leading */
    long nf = 0;
    for (int i = first; i < n; i++) {
        const cb_move *m = &fast[i];
        char mt[128];
        cbt_move_text(m, mt, sizeof mt);
        if (m->shape == CB_PASS) {
            report(t, r, ctx, "a pass at position %d of the list", i);
            continue;
        }
        fastset[nf++] = m->counts;
        if (m->counts == 0 || !cbt_counts_le(m->counts, ctx->hand)) {
            report(t, r, ctx, "move %s is not a non-empty part of the hand", mt);
            continue;
        }
        if (m->ncards != cb_counts_total(m->counts))
            report(t, r, ctx, "move %s: ncards %d but %d cards", mt, m->ncards,
                   cb_counts_total(m->counts));
        if (!cbt_is_a_reading(r, m))
            report(t, r, ctx, "move %s is not one of cb_readings of its cards", mt);
        if (!cbt_reading_allowed(r, ctx, m))
            report(t, r, ctx, "move %s: this reading is not allowed here", mt);
        if (!ctx->table) {
            cb_move c;
            if (!cb_classify(r, m->counts, &c, NULL, 0) || !cbt_move_eq(&c, m)) {
                char ct[128];
                cbt_move_text(&c, ct, sizeof ct);
                report(t, r, ctx, "leading move %s is not cb_classify's reading %s", mt, ct);
            }
        }
    }
    qsort(fastset, (size_t)nf, sizeof *fastset, cmp_u64);
    for (long i = 1; i < nf; i++)
        if (fastset[i] == fastset[i - 1]) {
            char b[64];
            cb_counts_format(fastset[i], b, sizeof b);
            report(t, r, ctx, "cb_legal_moves lists %s twice", b);
        }

    /* the same set */
    long i = 0, j = 0, extra = 0, missing = 0;
    cb_counts ex[8], mi[8];
    while (i < nf || j < o.nplays) {
        if (j >= o.nplays || (i < nf && fastset[i] < o.plays[j])) {
            if (extra < 8)
                ex[extra] = fastset[i];
            extra++;
            i++;
        } else if (i >= nf || o.plays[j] < fastset[i]) {
            if (missing < 8)
                mi[missing] = o.plays[j];
            missing++;
            j++;
        } else {
            cb_counts v = fastset[i];
            while (i < nf && fastset[i] == v)
                i++;
            j++;
        }
    }
    if (extra || missing) {
        report(t, r, ctx, "cb_legal_moves lists %ld plays the oracle rejects, misses %ld it allows",
               extra, missing);
        if (t->reports <= MAX_REPORTS * 8) {
            print_list("only in cb_legal_moves", ex, extra < 8 ? extra : 8);
            print_list("only in the oracle", mi, missing < 8 ? missing : 8);
            print_list("oracle", o.plays, o.nplays);
            print_list("cb_legal_moves", fastset, nf);
        }
    }

    /* cb_play_legal: every oracle play, 24 random sub-multisets, the pass, a play not in hand */
    for (long k = 0; k < o.nsubs; k++)
        if (o.legal[k])
            check_play_legal(r, ctx, &o, k, t);
    for (int q = 0; q < 24; q++)
        check_play_legal(r, ctx, &o, (long)cbt_rng_below(g, (uint32_t)o.nsubs), t);
    {
        cb_move m;
        char why[160] = "";
        bool ok = cb_play_legal(r, ctx, 0, &m, why, sizeof why);
        t->play_legal_checks++;
        if (ok != o.pass_ok)
            report(t, r, ctx, "cb_play_legal(pass) = %d, oracle %d (why: %s)", ok, o.pass_ok, why);
    }
    cb_counts deck = cb_counts_of(r->deck);
    int rk0 = (int)cbt_rng_below(g, CB_NRANKS);
    for (int i = 0; i < CB_NRANKS; i++) {
        int rk = (rk0 + i) % CB_NRANKS;
        if (cb_count(ctx->hand, rk) < cb_count(deck, rk)) {
            /* the hand plus one card it lacks, and that card alone when the hand has none of
             * its rank */
            cb_counts tries[2] = {cb_count_add(ctx->hand, rk, 1),
                                  cb_count(ctx->hand, rk) == 0 ? cb_count_add(0, rk, 1)
                                                               : cb_count_add(ctx->hand, rk, 1)};
            for (int q = 0; q < 2; q++) {
                cb_move m;
                char why[160] = "";
                t->play_legal_checks++;
                if (cb_play_legal(r, ctx, tries[q], &m, why, sizeof why)) {
                    char b[64];
                    cb_counts_format(tries[q], b, sizeof b);
                    report(t, r, ctx, "cb_play_legal(%s) accepts cards not in the hand", b);
                }
            }
            break;
        }
    }
    cbt_legal_free(&o);
}

static void run_variant(void **state)
{
    const variant *v = *state;
    cb_rules r;
    cbt_variant_rules(v->base.preset, v->base.flags, &r);
    char name[160];
    cbt_variant_name(v->base.preset, v->base.flags, name, sizeof name);
    long count = CBT_UNDER_ASAN ? v->positions / 4 : v->positions;
    uint64_t seed = cbt_seed(SEED_DEFAULT);
    cbt_rng g;
    cbt_rng_seed_named(&g, seed, name); /* one stream per variant: it replays alone */

    cb_move *moves = malloc(CB_MOVES_CAP * sizeof *moves);
    cb_move *fast = malloc(CB_MOVES_CAP * sizeof *fast);
    cb_counts *fastset = malloc(CB_MOVES_CAP * sizeof *fastset);
    assert_non_null(moves);
    assert_non_null(fast);
    assert_non_null(fastset);

    cb_counts deck = cb_counts_of(r.deck);
    int maxhand = r.hand_size + r.bottom;
    tally t;
    memset(&t, 0, sizeof t);
    clock_t t0 = clock();
    while (t.positions < count) {
        bool heavy = cbt_rng_chance(&g, 1, 2);
        /* a third of the hands are end-game sized, where the last-play rules bite */
        int size = 1 + (int)cbt_rng_below(&g, cbt_rng_chance(&g, 1, 3) ? 6u : (uint32_t)maxhand);
        cb_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.next_has_one = cbt_rng_chance(&g, 1, 4);
        cb_move table;
        /* 0..2 lead, 3 first play, 4..9 follow, 10 follow with a small triple-heavy hand
         * against a preferably full triple / plane (the PDK last-play rules); under the PDK
         * house rules also 11: a triple-heavy hand against a plane of a triple-heavy hand (the
         * other variants draw 0..10, as before those rules) */
        int kind = (int)cbt_rng_below(&g, cbt_house_flags(&r) ? 12 : 11);
        if (kind == 3) {
            /* the first play: a full hand holding a 3 (its holder leads) */
            ctx.first_play = true;
            ctx.hand = cbt_hand_with(&g, deck, r.hand_size, CB_RANK_3, heavy);
            t.first_play++;
        } else if (kind == 10) {
            ctx.hand = cbt_hand_heavy(&g, deck, 3 + (int)cbt_rng_below(&g, 8));
        } else if (kind == 11) {
            ctx.hand = cbt_hand_heavy(&g, deck, 6 + (int)cbt_rng_below(&g, (uint32_t)maxhand - 5));
        } else {
            ctx.hand = heavy ? cbt_hand_heavy(&g, deck, size)
                       : cbt_rng_chance(&g, 1, 2) ? cbt_hand_chainy(&g, deck, size)
                                                  : cbt_hand_uniform(&g, deck, size);
        }
        if (kind >= 4) {
            cb_counts rest = deck - ctx.hand;
            cb_counts other;
            if (kind == 11) {
                other = cbt_hand_heavy(&g, rest, 8 + (int)cbt_rng_below(&g, (uint32_t)maxhand - 7));
            } else {
                int osize = 1 + (int)cbt_rng_below(&g, (uint32_t)maxhand);
                other = cbt_rng_chance(&g, 1, 2) ? cbt_hand_heavy(&g, rest, osize)
                                                 : cbt_hand_uniform(&g, rest, osize);
            }
            if (!pick_table(&g, &r, other, moves, &table,
                            kind == 10 ? PREFER_TRIPLES : kind == 11 ? PREFER_PLANES : PREFER_NONE))
                continue;
            ctx.table = &table;
            t.following++;
            if (table.shape == CB_PLANE_2)
                t.plane2_tables++;
            else if (table.shape == CB_PLANE_1 && !cbt_is_short(&r, &table))
                t.single_wing_tables++;
        } else {
            t.leading++;
        }
        t.next_one += ctx.next_has_one;
        check_position(&r, &ctx, &g, fast, fastset, &t);
    }
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    printf("legal oracle [%s] seed=%llu%s: %ld positions (%ld leading incl. %ld first plays, %ld "
           "following (%ld can beat), %ld with next_has_one (%ld refusing a single), %ld pass allowed, "
           "%ld with a short whole-hand play, %ld of them following), %ld sub-multisets, %ld oracle "
           "plays, %ld cb_legal_moves entries, %ld cb_play_legal checks; %ld problems; %.1fs\n",
           name, (unsigned long long)seed, CBT_UNDER_ASAN ? " (asan: 1/4 count)" : "", t.positions,
           t.leading, t.first_play, t.following, t.follow_beat, t.next_one, t.warn_cut, t.pass_ok,
           t.whole_short, t.whole_short_follow, t.subs, t.oracle_moves,
           t.fast_moves, t.play_legal_checks, t.bad, secs);
    if (t.house_reads)
        printf("legal oracle [%s]: house rules: %ld sub-multisets read by cb_readings / "
               "cb_classify and by the oracle (%ld of them full single-wings planes); following "
               "a full plane + 2L %ld times, a single-wings plane %ld times\n", name,
               t.house_reads, t.house_full1, t.plane2_tables, t.single_wing_tables);
    fflush(stdout);
    free(moves);
    free(fast);
    free(fastset);
    if (t.bad)
        fail_msg("%ld problems in [%s] (seed %llu)", t.bad, name, (unsigned long long)seed);
}

/* The oracle itself on hand-made positions whose answers are known, so a broken oracle cannot
 * pass silently by agreeing with a broken generator. */
static void oracle_sanity(void **state)
{
    (void)state;
    cb_rules r;
    assert_int_equal(cb_rules_preset("pdk16", &r), 0);
    cb_counts hand, k;
    assert_int_equal(cb_counts_parse("33345", r.deck, &hand, NULL, 0), 0);
    cb_ctx ctx = {.hand = hand};
    cbt_legal o;
    assert_int_equal(cbt_oracle_legal(&r, &ctx, &o), 0);
    assert_int_equal(o.nsubs, 4 * 2 * 2 - 1);
    bool has_33345 = false, has_333 = false, has_3334 = false, has_345 = false;
    for (long i = 0; i < o.nplays; i++) {
        has_33345 |= o.plays[i] == hand;
        assert_int_equal(cb_counts_parse("333", r.deck, &k, NULL, 0), 0);
        has_333 |= o.plays[i] == k;
        assert_int_equal(cb_counts_parse("3334", r.deck, &k, NULL, 0), 0);
        has_3334 |= o.plays[i] == k;
        assert_int_equal(cb_counts_parse("345", r.deck, &k, NULL, 0), 0);
        has_345 |= o.plays[i] == k;
    }
    /* singles 3 4 5, pair 33, 三带二 33345; no bare triple / 三带一 before the last play */
    assert_true(has_33345);
    assert_false(has_333);
    assert_false(has_3334);
    assert_false(has_345);
    assert_int_equal(o.nplays, 5);
    assert_false(o.pass_ok);
    cbt_legal_free(&o);

    /* following a single 4 with 3 5 7 and next_has_one: only the 7 (the highest) */
    assert_int_equal(cb_counts_parse("357", r.deck, &hand, NULL, 0), 0);
    cb_move four;
    assert_true(cb_classify(&r, cb_count_add(0, CB_RANK_4, 1), &four, NULL, 0));
    ctx = (cb_ctx){.hand = hand, .table = &four, .next_has_one = true};
    assert_int_equal(cbt_oracle_legal(&r, &ctx, &o), 0);
    assert_int_equal(o.nplays, 1);
    assert_true(o.plays[0] == cb_count_add(0, CB_RANK_7, 1));
    assert_false(o.pass_ok); /* must_beat */
    cbt_legal_free(&o);

    /* a single 2 on the table, hand 3333 4: only the bomb beats; must_beat_bomb forbids the pass */
    assert_int_equal(cb_counts_parse("33334", r.deck, &hand, NULL, 0), 0);
    cb_move two;
    assert_true(cb_classify(&r, cb_count_add(0, CB_RANK_2, 1), &two, NULL, 0));
    ctx = (cb_ctx){.hand = hand, .table = &two};
    assert_int_equal(cbt_oracle_legal(&r, &ctx, &o), 0);
    assert_int_equal(o.nplays, 1);
    assert_true(o.beat_bomb);
    assert_false(o.beat_plain);
    assert_false(o.pass_ok);
    cbt_legal_free(&o);
    r.must_beat_bomb = false;
    assert_int_equal(cbt_oracle_legal(&r, &ctx, &o), 0);
    assert_true(o.pass_ok);
    cbt_legal_free(&o);
}

static const variant variants[] = {
    {{"pdk16", {NULL}}, 20000},
    {{"pdk15", {NULL}}, 20000},
    {{"guanpai", {NULL}}, 20000},
    {{"ddz", {NULL}}, 20000},
    {{"pdk16", {"min_pair_chain", "2", NULL}}, 3000},
    {{"pdk16", {"short_triple", "always", NULL}}, 3000},
    {{"pdk16", {"short_triple", "never", NULL}}, 3000},
    {{"pdk16", {"must_beat", "false", NULL}}, 3000},
    {{"pdk16", {"must_beat_bomb", "false", NULL}}, 3000},
    {{"pdk16", {"aaa_bomb", "true", NULL}}, 3000},
    {{"pdk16", {"four_with", "2", NULL}}, 3000},
    {{"pdk16", {"four_with", "3", NULL}}, 3000},
    {{"pdk15", {"short_triple", "always", "aaa_bomb", "true", NULL}}, 3000},
    {{"guanpai", {"short_triple", "never", "min_pair_chain", "2", NULL}}, 3000},
    {{"pdk16", {"warn_single", "false", "spade3_first", "false", NULL}}, 3000},
    {{"ddz", {"rocket_kickers", "true", NULL}}, 3000},
    /* the PDK house rules (rules.h), alone, with the short_triple settings they meet, and all
     * four as in the implementation they come from */
    {{"pdk16", {"plane_single_wings", "true", NULL}}, 3000},
    {{"pdk16", {"plane_pair_wings", "true", NULL}}, 3000},
    {{"pdk16", {"short_follow", "false", NULL}}, 3000},
    {{"pdk16", {"max_pair_chain", "6", NULL}}, 3000},
    {{"pdk16", {"max_pair_chain", "3", "min_pair_chain", "2", NULL}}, 3000},
    {{"pdk16", {"plane_single_wings", "true", "short_triple", "always", NULL}}, 3000},
    {{"pdk16", {"plane_single_wings", "true", "short_triple", "never", NULL}}, 3000},
    {{"pdk16", {"short_follow", "false", "short_triple", "always", NULL}}, 3000},
    {{"pdk16", {"plane_pair_wings", "true", "short_triple", "always", NULL}}, 3000},
    {{"pdk16", {"plane_single_wings", "true", "plane_pair_wings", "true", "short_follow", "false",
                "max_pair_chain", "6", NULL}}, 3000},
    {{"pdk15", {"plane_single_wings", "true", "plane_pair_wings", "true", NULL}}, 3000},
    {{"guanpai", {"plane_single_wings", "true", "short_follow", "false", "aaa_bomb", "true", NULL}}, 3000},
};

int main(void)
{
    const struct CMUnitTest first = cmocka_unit_test(oracle_sanity);
    return cbt_run_variants("test_legal_oracle", SEED_DEFAULT, "; AddressSanitizer build: a quarter of the positions",
                            &first, run_variant, variants, sizeof variants / sizeof variants[0],
                            sizeof variants[0]);
}

/* Belief (plugin/common/belief.c): worlds weighted by how well the opponent model explains the
 * other seats' past choices. Linked from the plugins' static library (the Makefile's PLUGIN_LIBS).
 *
 * Deals are played here by the shared heuristic at level 6 in every seat (the model's own
 * configuration), with a record, under pdk16, pdk16 with a 包庄 declarer, and DDZ. At random
 * decisions the deciding seat's view is built and:
 *  - the TRUE hands must be fully explained: the model, replayed inside them, makes every
 *    recorded choice of the other seats (0 mismatches), and enough choices are compared that
 *    this says something;
 *  - the same record played by level-1 seats (which sample and blunder) must show mismatches:
 *    the comparison sees a deviation when there is one;
 *  - worlds sampled uniformly from the record must on average be explained worse than the truth;
 *  - a pool: every world consistent with the record, weights eps^(mismatches - best), the
 *    cumulative weights increasing, draws in proportion to the weights, the same seed giving the
 *    same pool, eps = 1 giving equal weights without any replay; weighed again with a sharper
 *    eps (cb_belief_weigh), the same worlds with eps2^(mismatches - best);
 *  - a pool built in pieces on several scratch beliefs, or grown (cb_belief_extend) from a
 *    smaller one, is the pool built in one go — also when slots of it hold no world;
 *  - fitted weights (b->fit): on records where seat 1 plays level 6 and seat 2 uniformly random
 *    legal plays, seat 1's mu is high and seat 2's near 0 (chance); both seats random: mu near
 *    0 for both and weights close to uniform; both level 6: the true hands rank near the top
 *    of the pool by weight, where belief = 1 ranks them in the middle.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/botfix.h"
#include "support/randhand.h"
#include "cardbot/bot.h"
#include "../plugin/common/belief.h"
#include "../plugin/common/rule.h"
#include "cardbot/game.h"

/* ---- deals played by heuristic seats, with a record ---- */

typedef struct table {
    cb_rules r;
    cb_deal g;
    cb_play_rec hist[400];
    cb_heur_agent agent[3];
    bool random[3]; /* the seat plays uniformly random legal plays instead */
    bool rule[3];   /* the seat plays the rule agent (rule.h) instead */
    bool any_suits; /* a play takes random cards of its ranks (a host may pick any), not the
                       engine's own pick */
    rb_ws rws[3];
    cb_move moves[CB_MOVES_CAP];
    int bids[3];
    cbt_rng rng;
} table;

enum { MODE_PDK, MODE_PDK_BAO, MODE_DDZ };

static void table_open(table *T, int mode, int level, uint64_t seed)
{
    memset(T, 0, sizeof *T);
    cb_rules_preset(mode == MODE_DDZ ? "ddz" : "pdk16", &T->r);
    cbt_rng_seed(&T->rng, seed);
    for (int s = 0; s < 3; s++) {
        cb_hcfg_level(&T->agent[s].cfg, level);
        T->agent[s].cfg.explain = false;
        assert_int_equal(cb_hws_init(&T->agent[s].ws), 0);
        cb_rng_seed(&T->agent[s].rng, seed * 3 + (uint64_t)s + 1);
        assert_int_equal(rb_ws_init(&T->rws[s]), 0);
    }
}

static void table_close(table *T)
{
    for (int s = 0; s < 3; s++) {
        cb_hws_free(&T->agent[s].ws);
        rb_ws_free(&T->rws[s]);
    }
}

static void table_deal(table *T, int mode)
{
    cb_cards h[3], bottom;
    cbt_deal(&T->rng, T->r.deck, T->r.hand_size, h, &bottom);
    int ll = -1, bid = 0;
    T->bids[0] = T->bids[1] = T->bids[2] = 0;
    if (mode == MODE_DDZ) {
        ll = (int)cbt_rng_below(&T->rng, 3);
        h[ll] |= bottom;
        bid = 1 + (int)cbt_rng_below(&T->rng, 3);
        T->bids[ll] = bid;
    } else if (mode == MODE_PDK_BAO) {
        ll = (int)cbt_rng_below(&T->rng, 3);
        T->bids[ll] = 1;
        bottom = 0;
    } else {
        bottom = 0;
    }
    T->g.hist = T->hist;
    T->g.hist_cap = (int)(sizeof T->hist / sizeof T->hist[0]);
    cb_deal_init(&T->g, &T->r, h, -1, ll, bid, mode == MODE_DDZ ? bottom : 0);
}

static void table_step(table *T)
{
    cb_move m;
    if (T->random[T->g.turn]) {
        cb_ctx ctx;
        cb_deal_ctx(&T->g, &ctx);
        int n = cb_legal_moves(&T->r, &ctx, T->moves, CB_MOVES_CAP);
        assert_true(n > 0);
        m = T->moves[cbt_rng_below(&T->rng, (uint32_t)(n < CB_MOVES_CAP ? n : CB_MOVES_CAP))];
    } else if (T->rule[T->g.turn]) {
        assert_int_equal(rb_deal_policy(&T->rws[T->g.turn], &T->g, &m), 0);
    } else {
        assert_int_equal(cb_heur_deal_policy(&T->agent[T->g.turn], &T->g, &m), 0);
    }
    if (T->any_suits && m.shape != CB_PASS) {
        cb_cards hand = T->g.hands[T->g.turn], cards = 0;
        for (int r = 0; r < CB_NRANKS; r++) {
            cb_cards of = cb_cards_of_rank(hand, r);
            for (int k = cb_count(m.counts, r); k > 0; k--) { /* k of them, at random */
                cb_cards c = of;
                for (int skip = (int)cbt_rng_below(&T->rng, (uint32_t)cb_cards_size(of)); skip > 0; skip--)
                    c &= c - 1;
                c &= -c;
                cards |= c;
                of &= ~c;
            }
        }
        if (T->g.first_play && (hand & cb_card_bit(CB_CARD_S3)) && T->r.spade3_first && !(cards & cb_card_bit(CB_CARD_S3)))
            cards = (cards & ~cb_cards_of_rank(cards, CB_RANK_3)) | cb_card_bit(CB_CARD_S3) |
                    (cb_cards_of_rank(cards, CB_RANK_3) & (cb_cards_of_rank(cards, CB_RANK_3) - 1));
        assert_true(cb_deal_step_cards(&T->g, cards, &m, NULL, 0) >= 0);
        return;
    }
    assert_true(cb_deal_step(&T->g, &m, NULL, 0) >= 0);
}

/* ---- tests ---- */

typedef struct tally {
    long views, compared, truth_miss, random_worlds, random_miss;
} tally;

/* Play deals; at about one decision in `every` check the truth (and, when `sampled`, some
 * uniformly sampled worlds) against the model. any_suits: the plays take random suits. */
static void run(int mode, int level, uint64_t seed, int deals, int every, int sampled, bool any_suits, tally *t)
{
    table T;
    table_open(&T, mode, level, seed);
    T.any_suits = any_suits;
    cb_belief B;
    assert_int_equal(cb_belief_init(&B), 0);
    cb_worlds W;
    memset(&W, 0, sizeof W);
    cb_rng wr;
    cb_rng_seed(&wr, seed ^ 0x5EEDull);
    for (int d = 0; d < deals; d++) {
        table_deal(&T, mode);
        while (T.g.winner < 0) {
            if (T.g.nhist > 0 && cbt_rng_below(&T.rng, (uint32_t)every) == 0) {
                cb_view v;
                cb_deal_view(&T.g, T.bids, 1, &v);
                int dec = -1;
                int mm = cb_belief_mismatches(&B, &v, T.g.hands, &dec);
                assert_true(mm >= 0);
                assert_true(dec >= 0);
                t->views++;
                t->compared += dec;
                t->truth_miss += mm;
                if (sampled > 0 && dec >= 3) {
                    char err[160] = "";
                    if (cb_worlds_from_view(&W, &v, err, sizeof err) != 0)
                        fail_msg("cb_worlds_from_view refused a real record: %s", err);
                    for (int i = 0; i < sampled; i++) {
                        cb_cards w[3];
                        if (cb_worlds_sample(&W, &wr, w, NULL) != 0)
                            continue;
                        int m2 = cb_belief_mismatches(&B, &v, w, NULL);
                        assert_true(m2 >= 0);
                        t->random_worlds++;
                        t->random_miss += m2;
                    }
                }
            }
            table_step(&T);
        }
    }
    cb_worlds_free(&W);
    cb_belief_free(&B);
    table_close(&T);
}

static void test_truth_explained(void **state)
{
    (void)state;
    static const char *const names[] = {"pdk16", "pdk16 with 包庄", "ddz"};
    uint64_t seed = cbt_seed(71);
    /* twice: plays as the engine picks their cards, and as a host may (any suits of the ranks:
     * the replay must count the cards the record shows, not the ones it would have picked) */
    for (int k = 0; k < 6; k++) {
        int mode = k % 3;
        bool any = k >= 3;
        tally t;
        memset(&t, 0, sizeof t);
        run(mode, 6, seed + (uint64_t)k, 60, 4, 6, any, &t);
        double rnd = t.random_worlds ? (double)t.random_miss / (double)t.random_worlds : 0;
        print_message("  %-16s %s seed %llu: %ld views, %ld choices compared, truth %ld mismatches; %ld sampled "
                      "worlds, %.2f mismatches each\n",
                      names[mode], any ? "any suits " : "engine's  ", (unsigned long long)(seed + (uint64_t)k), t.views,
                      t.compared, t.truth_miss, t.random_worlds, rnd);
        assert_true(t.views >= 200);
        assert_true(t.compared >= 5 * t.views / 2); /* the check is not vacuous */
        assert_int_equal(t.truth_miss, 0);          /* the model's own play is fully explained */
        assert_true(t.random_worlds >= 300);
        assert_true(rnd > 0.5);                     /* a random world explains it worse */
    }
}

static void test_deviation_seen(void **state)
{
    (void)state;
    uint64_t seed = cbt_seed(72);
    tally t;
    memset(&t, 0, sizeof t);
    run(MODE_PDK, 1, seed, 40, 4, 0, false, &t);
    print_message("  level-1 seats, seed %llu: %ld views, %ld choices compared, %ld mismatches with the truth\n",
                  (unsigned long long)seed, t.views, t.compared, t.truth_miss);
    assert_true(t.compared > 0);
    assert_true(t.truth_miss > t.compared / 20); /* level 1 plays otherwise, and it shows */
}

/* The replay asks whether a recorded play is the model's choice (cb_heur_explains) rather than
 * for the choice. The answer must be the full choice's (its counts, 0 for a pass, compared
 * with the play) for the chosen play, the pass and up to ten other legal plays spread over
 * the list, at every decision of level-6 deals, for level 6 and the deterministic
 * personalities, in PDK (with and without a 包庄 declarer) and DDZ; both answers must occur,
 * and the plays scored exactly besides the asked one must be fewer than the choice's exact
 * candidates (the point of asking). A hint (a play to try first) must not change an answer,
 * and the shortcut for many plays (a no proven by a class best) must have been taken, each
 * time by a play the choice scored exactly; a fifth configuration (level 6 scoring only 6
 * plays besides the class bests) makes the class bests most of the candidates. */
static void test_explains(void **state)
{
    (void)state;
    static const char *const styles[] = {"none", "bomber", "hoarder", "chain"};
    long asked = 0, yes = 0, checked = 0, exact = 0, proofs = 0, hinted_proofs = 0;
    cb_counts carried = 0;
    cb_move *moves = malloc(CB_MOVES_CAP * sizeof *moves);
    assert_non_null(moves);
    for (int mode = MODE_PDK; mode <= MODE_DDZ; mode++) {
        table T;
        table_open(&T, mode, 6, cbt_seed(86) + (uint64_t)mode);
        cb_hws ws, ws2;
        assert_int_equal(cb_hws_init(&ws), 0);
        assert_int_equal(cb_hws_init(&ws2), 0);
        for (int d = 0; d < 12; d++) {
            table_deal(&T, mode);
            while (T.g.winner < 0) {
                cb_situ st;
                cb_situ_from_deal(&T.g, &st);
                cb_ctx ctx;
                cb_situ_ctx(&st, &ctx);
                int n = cb_legal_moves(st.rules, &ctx, moves, CB_MOVES_CAP);
                assert_true(n > 0 && n <= CB_MOVES_CAP);
                for (int k = 0; k < 5; k++) {
                    cb_hcfg cfg;
                    cb_hcfg_level(&cfg, 6);
                    cfg.explain = false;
                    assert_int_equal(cb_hcfg_personality(&cfg, styles[k < 4 ? k : 0]), 0);
                    if (k == 4)
                        cfg.exact_top = 6; /* class bests are most of the candidates */
                    cb_hchoice ch;
                    assert_int_equal(cb_heur_choose(&cfg, &st, &ws, NULL, &ch), 0);
                    cb_counts chosen = ch.move.shape == CB_PASS ? 0 : ch.move.counts;
                    exact += ch.nexact;
                    cb_counts ask[12];
                    int na = 0;
                    ask[na++] = chosen;
                    ask[na++] = 0;
                    for (int j = 0; j < 10 && j < n; j++)
                        ask[na++] = moves[(long)j * n / 10].shape == CB_PASS ? 0 : moves[(long)j * n / 10].counts;
                    for (int j = 0; j < na; j++) {
                        /* hints: none, the choice, another asked play, and one carried from
                         * ask to ask as the replay carries it: the same answer with each */
                        for (int hk = 0; hk < 4; hk++) {
                            cb_counts h = hk == 1 ? chosen : hk == 2 ? ask[(j + 3) % na] : carried;
                            int nm = 0;
                            uint64_t c0 = ws2.exact_checked, p0 = ws2.class_proofs;
                            int ex = cb_heur_explains(&cfg, &st, &ws2, ask[j], hk == 0 ? NULL : &h, &nm);
                            if (ws2.class_proofs > p0 && hk != 0) {
                                /* a no proven by a class best: the hint names it, and it must be
                                 * one the choice scored exactly */
                                bool among = false;
                                for (int a = 0; a < ch.nexact; a++)
                                    among |= ws.moves[ws.cands[a].idx].shape != CB_PASS &&
                                             ws.moves[ws.cands[a].idx].counts == h;
                                if (!among)
                                    fail_msg("mode %d config %d: the proof's play %llx is not among the choice's %d "
                                             "exact candidates", mode, k, (unsigned long long)h, ch.nexact);
                                hinted_proofs++;
                            }
                            if (ex != (ask[j] == chosen) || nm != ch.nmoves)
                                fail_msg("mode %d config %d, %d legal plays: asked %llx (hint %d: %llx), explains "
                                         "says %d (%d moves), the choice is %llx (%d moves)",
                                         mode, k, n, (unsigned long long)ask[j], hk,
                                         (unsigned long long)(hk == 0 ? 0 : h), ex, nm,
                                         (unsigned long long)chosen, ch.nmoves);
                            if (hk == 3)
                                carried = h;
                            asked++;
                            yes += ex;
                            if (j == 0 && hk == 0)
                                checked += (long)(ws2.exact_checked - c0);
                        }
                    }
                }
                table_step(&T);
            }
        }
        cb_hws_free(&ws);
        proofs += (long)ws2.class_proofs;
        cb_hws_free(&ws2);
        table_close(&T);
    }
    free(moves);
    print_message("  %ld plays asked, %ld of them the choice; for the chosen play %ld other plays scored exactly, "
                  "where the choice had %ld candidates to score; %ld answers no proven by a class best (%ld with a "
                  "hint, each play among the choice's exact candidates)\n", asked, yes, checked, exact, proofs,
                  hinted_proofs);
    assert_true(asked >= 50000);
    assert_true(proofs > 1000); /* the shortcut was asked to prove, and did */
    assert_true(hinted_proofs > 500);
    assert_true(yes > 0 && yes < asked);
    assert_true(checked < exact);
}

/* ---- the pool fixture (test_pool, test_walk) ---- */

/* A pdk16 table of level-6 seats, two beliefs (the second builds the same pool again: the same
 * seed must give the same worlds) and the worlds of the current view. */
typedef struct poolfix {
    table T;
    cb_belief B, B2;
    cb_worlds W;
} poolfix;

static void poolfix_open(poolfix *f, uint64_t seed)
{
    table_open(&f->T, MODE_PDK, 6, seed);
    assert_int_equal(cb_belief_init(&f->B), 0);
    assert_int_equal(cb_belief_init(&f->B2), 0);
    memset(&f->W, 0, sizeof f->W);
}

static void poolfix_close(poolfix *f)
{
    cb_worlds_free(&f->W);
    cb_belief_free(&f->B);
    cb_belief_free(&f->B2);
    table_close(&f->T);
}

/* A new deal played 12 to 23 recorded actions in, then the view of the seat to act (its
 * pointers into the table's deal) and its worlds, which must accept the record. False when
 * the deal ended first (nothing built). */
static bool poolfix_view(poolfix *f, cb_view *v)
{
    table *T = &f->T;
    table_deal(T, MODE_PDK);
    int stop = 12 + (int)cbt_rng_below(&T->rng, 12);
    while (T->g.winner < 0 && T->g.nhist < stop)
        table_step(T);
    if (T->g.winner >= 0)
        return false;
    cb_deal_view(&T->g, T->bids, 1, v);
    char err[160] = "";
    assert_int_equal(cb_worlds_from_view(&f->W, v, err, sizeof err), 0);
    return true;
}

static void test_pool(void **state)
{
    (void)state;
    uint64_t seed = cbt_seed(73);
    poolfix f;
    poolfix_open(&f, seed);
    cb_belief *const B = &f.B, *const B2 = &f.B2;
    cb_worlds *const W = &f.W;
    int pools = 0;
    for (int d = 0; d < 12; d++) {
        cb_view v;
        if (!poolfix_view(&f, &v))
            continue;
        const double eps = 0.3;
        int n = cb_belief_build(B, &v, W, 64, eps, seed + (uint64_t)d);
        assert_true(n >= 60 && n <= 64);
        assert_int_equal(cb_belief_build(B2, &v, W, 64, eps, seed + (uint64_t)d), n);
        int best = 1 << 30;
        for (int i = 0; i < n; i++) {
            assert_true(cb_worlds_consistent(W, B->hands[i], 0));
            assert_memory_equal(B->hands[i], B2->hands[i], sizeof B->hands[i]); /* same seed, same pool */
            assert_int_equal(B->mismatch[i], B2->mismatch[i]);
            assert_int_equal(B->mismatch[i], cb_belief_mismatches(B2, &v, B->hands[i], NULL));
            if (B->mismatch[i] < best)
                best = B->mismatch[i];
        }
        assert_int_equal(best, B->min_mismatch);
        /* the weights */
        double prev = 0;
        for (int i = 0; i < n; i++) {
            double w = pow(eps, B->mismatch[i] - best);
            assert_true(fabs((B->cum[i] - prev) - w) < 1e-9);
            prev = B->cum[i];
        }
        /* weighed again with a sharper eps (ismcts's belief_fit): eps2^(k - best), the same
         * worlds, and a smaller effective size whenever some world is worse than the best */
        const double eps2 = 0.01;
        double ess1 = B2->ess;
        cb_belief_weigh(B2, eps2);
        prev = 0;
        bool worse = false;
        for (int i = 0; i < n; i++) {
            double w = pow(eps2, B2->mismatch[i] - best);
            assert_true(fabs((B2->cum[i] - prev) - w) < 1e-9);
            assert_memory_equal(B->hands[i], B2->hands[i], sizeof B->hands[i]);
            prev = B2->cum[i];
            worse = worse || B2->mismatch[i] > best;
        }
        if (worse)
            assert_true(B2->ess < ess1);
        /* draws follow the weights: every world's count within 5 sigma of its expectation */
        enum { DRAWS = 20000 };
        int *cnt = calloc((size_t)n, sizeof *cnt);
        assert_non_null(cnt);
        cb_rng r;
        cb_rng_seed(&r, seed + 99);
        for (int k = 0; k < DRAWS; k++) {
            cb_cards h[3];
            cb_belief_draw(B, &r, h);
            int j = 0;
            while (j < n && memcmp(B->hands[j], h, sizeof h) != 0)
                j++;
            assert_true(j < n);
            /* identical worlds may repeat in the pool: credit the first of them */
            cnt[j]++;
        }
        double tot = B->cum[n - 1];
        for (int i = 0; i < n; i++) {
            double p = 0;
            for (int j = 0; j < n; j++)
                if (memcmp(B->hands[j], B->hands[i], sizeof B->hands[i]) == 0) {
                    if (j < i)
                        p = -1; /* counted at its first copy */
                    else if (p >= 0)
                        p += (B->cum[j] - (j ? B->cum[j - 1] : 0)) / tot;
                }
            if (p < 0)
                continue;
            double e = p * DRAWS, sd = sqrt(DRAWS * p * (1 - p));
            assert_true(fabs(cnt[i] - e) <= 5 * sd + 1);
        }
        free(cnt);
        /* eps = 1: equal weights, nothing replayed */
        int n1 = cb_belief_build(B2, &v, W, 32, 1.0, seed);
        assert_true(n1 >= 30);
        for (int i = 0; i < n1; i++)
            assert_int_equal(B2->mismatch[i], 0);
        assert_true(fabs(B2->ess - n1) < 1e-9);
        pools++;
    }
    assert_true(pools >= 8);
    poolfix_close(&f);
}

/* The Metropolis walks: every world of the pool consistent with the record and carrying its
 * own mismatch count, the same seed giving the same pool, and the pool explaining the record
 * better than uniform worlds do (the walk targets the weights). */
static void test_walk(void **state)
{
    (void)state;
    uint64_t seed = cbt_seed(74);
    poolfix f;
    poolfix_open(&f, seed);
    cb_belief *const B = &f.B, *const B2 = &f.B2;
    cb_worlds *const W = &f.W;
    B->chains = B2->chains = 4;
    double walk_sum = 0, uni_sum = 0;
    long walk_n = 0, uni_n = 0;
    int views = 0;
    int tried = 0;
    for (int d = 0; d < 24; d++) {
        cb_view v;
        if (!poolfix_view(&f, &v))
            continue;
        tried++;
        int n = cb_belief_build(B, &v, W, 80, 0.1, seed + (uint64_t)d);
        if (n <= 0)
            continue;
        assert_int_equal(cb_belief_build(B2, &v, W, 80, 0.1, seed + (uint64_t)d), n);
        assert_true(B->steps > 0);
        for (int i = 0; i < n; i++) {
            assert_true(cb_worlds_consistent(W, B->hands[i], 0));
            assert_memory_equal(B->hands[i], B2->hands[i], sizeof B->hands[i]);
            assert_int_equal(B->mismatch[i], cb_belief_mismatches(B2, &v, B->hands[i], NULL));
            walk_sum += B->mismatch[i];
            walk_n++;
        }
        cb_rng r;
        cb_rng_seed(&r, seed + 1000 + (uint64_t)d);
        for (int i = 0; i < 40; i++) {
            cb_cards h[3];
            if (cb_worlds_sample(W, &r, h, NULL) != 0)
                continue;
            uni_sum += cb_belief_mismatches(B2, &v, h, NULL);
            uni_n++;
        }
        views++;
    }
    print_message("  %d views tried, %d with a pool\n", tried, views);
    assert_true(views >= 12);
    double wm = walk_sum / (double)walk_n, um = uni_sum / (double)uni_n;
    print_message("  seed %llu: %d views; mismatches per world: walk %.2f, uniform %.2f\n", (unsigned long long)seed,
                  views, wm, um);
    assert_true(wm < 0.6 * um);
    poolfix_close(&f);
}

/* A deadline in the past: the pool keeps exactly the one world it always keeps and says it was
 * cut; without a deadline the same build is whole and not cut. */
static void test_deadline(void **state)
{
    (void)state;
    uint64_t seed = cbt_seed(75);
    poolfix f;
    poolfix_open(&f, seed);
    int views = 0;
    for (int d = 0; d < 6; d++) {
        cb_view v;
        if (!poolfix_view(&f, &v))
            continue;
        for (int chains = 0; chains <= 2; chains += 2) {
            f.B.chains = chains;
            f.B.deadline_ns = 1; /* long past */
            assert_int_equal(cb_belief_build(&f.B, &v, &f.W, 50, 0.1, seed), 1);
            assert_true(f.B.cut);
            assert_true(cb_worlds_consistent(&f.W, f.B.hands[0], 0));
            f.B.deadline_ns = 0;
            assert_int_equal(cb_belief_build(&f.B, &v, &f.W, 50, 0.1, seed), 50);
            assert_false(f.B.cut);
        }
        views++;
    }
    assert_true(views >= 3);
    poolfix_close(&f);
}

/* The pool built in pieces — slots split over three scratch beliefs and three copies of the
 * sampler, filled in reverse order, as the plugin does on its search threads — is the pool that
 * cb_belief_build makes in one go: same worlds, same order, same weights. */
static void test_split(void **state)
{
    (void)state;
    uint64_t seed = cbt_seed(76);
    poolfix f;
    poolfix_open(&f, seed);
    cb_belief S[3];
    for (int k = 0; k < 3; k++)
        assert_int_equal(cb_belief_init(&S[k]), 0);
    int views = 0;
    for (int d = 0; d < 8; d++) {
        cb_view v;
        if (!poolfix_view(&f, &v))
            continue;
        const int n = 61;
        int whole = cb_belief_build(&f.B, &v, &f.W, n, 0.1, seed + (uint64_t)d);
        assert_true(whole > 50);
        assert_int_equal(cb_belief_reserve(&f.B2, &v, n), 0);
        for (int k = 2; k >= 0; k--) {
            cb_worlds wk = f.W;
            assert_int_equal(cb_belief_fill(&f.B2, &S[k], &v, &wk, k, 3, n, 0.1, seed + (uint64_t)d), 0);
        }
        assert_int_equal(cb_belief_finish(&f.B2, n, 0.1), whole);
        for (int i = 0; i < whole; i++) {
            assert_memory_equal(f.B.hands[i], f.B2.hands[i], sizeof f.B.hands[i]);
            assert_int_equal(f.B.mismatch[i], f.B2.mismatch[i]);
            assert_true(fabs(f.B.cum[i] - f.B2.cum[i]) < 1e-12);
        }
        assert_int_equal(f.B.decisions, f.B2.decisions);
        assert_int_equal(f.B.min_mismatch, f.B2.min_mismatch);
        views++;
    }
    assert_true(views >= 4);
    for (int k = 0; k < 3; k++)
        cb_belief_free(&S[k]);
    poolfix_close(&f);
}

/* Slots that hold no world (the sampler found none) in the fixture below: every 7th, from 0. */
static void blank(cb_belief *B, int from, int n)
{
    for (int i = from; i < n; i++)
        if (i % 7 == 0)
            B->mismatch[i] = -1;
}

static void pools_equal(const cb_belief *A, const cb_belief *B)
{
    assert_int_equal(A->n, B->n);
    for (int i = 0; i < A->n; i++) {
        assert_memory_equal(A->hands[i], B->hands[i], sizeof A->hands[i]);
        assert_int_equal(A->mismatch[i], B->mismatch[i]);
        assert_true(fabs(A->cum[i] - B->cum[i]) < 1e-12);
    }
    assert_int_equal(A->decisions, B->decisions);
    assert_int_equal(A->min_mismatch, B->min_mismatch);
}

/* A pool grown from 53 to 200 slots (the plugin grows its pool 4x when few worlds explain the
 * record) is the pool of 200 built at once: the first slots' worlds are kept, not sampled
 * again. Also with empty slots, which finish squeezed out and the growth must put back. */
static void test_extend(void **state)
{
    (void)state;
    uint64_t seed = cbt_seed(77);
    poolfix f;
    poolfix_open(&f, seed);
    cb_belief S;
    assert_int_equal(cb_belief_init(&S), 0);
    int views = 0;
    const int n = 53, n2 = 200;
    for (int d = 0; d < 8; d++) {
        cb_view v;
        if (!poolfix_view(&f, &v))
            continue;
        uint64_t sd = seed + (uint64_t)d;
        /* no empty slot: against cb_belief_build */
        int whole = cb_belief_build(&f.B, &v, &f.W, n2, 0.1, sd);
        assert_true(whole > 190);
        assert_int_equal(cb_belief_reserve(&f.B2, &v, n), 0);
        assert_int_equal(cb_belief_fill(&f.B2, &S, &v, &f.W, 0, 1, n, 0.1, sd), 0);
        assert_true(cb_belief_finish(&f.B2, n, 0.1) > 0);
        assert_int_equal(cb_belief_extend(&f.B2, &v, n, n2), 0);
        for (int k = 1; k >= 0; k--) { /* two strides, in reverse, as two threads would */
            cb_worlds wk = f.W;
            assert_int_equal(cb_belief_fill(&f.B2, &S, &v, &wk, n + k, 2, n2, 0.1, sd), 0);
        }
        assert_int_equal(cb_belief_finish(&f.B2, n2, 0.1), whole);
        pools_equal(&f.B, &f.B2);
        /* empty slots on both sides of n: against a pool of n2 with the same empty slots */
        assert_int_equal(cb_belief_reserve(&f.B, &v, n2), 0);
        assert_int_equal(cb_belief_fill(&f.B, &S, &v, &f.W, 0, 1, n2, 0.1, sd), 0);
        blank(&f.B, 0, n2);
        int holes = cb_belief_finish(&f.B, n2, 0.1);
        assert_true(holes < whole - 25);
        assert_int_equal(cb_belief_reserve(&f.B2, &v, n), 0);
        assert_int_equal(cb_belief_fill(&f.B2, &S, &v, &f.W, 0, 1, n, 0.1, sd), 0);
        blank(&f.B2, 0, n);
        assert_true(cb_belief_finish(&f.B2, n, 0.1) < n);
        assert_int_equal(cb_belief_extend(&f.B2, &v, n, n2), 0);
        assert_int_equal(cb_belief_fill(&f.B2, &S, &v, &f.W, n, 1, n2, 0.1, sd), 0);
        blank(&f.B2, n, n2);
        assert_int_equal(cb_belief_finish(&f.B2, n2, 0.1), holes);
        pools_equal(&f.B, &f.B2);
        views++;
    }
    assert_true(views >= 4);
    cb_belief_free(&S);
    poolfix_close(&f);
}

/* Late in a deal few cards remain unknown and a pool's draws repeat: a world whose hands hold
 * the same rank counts as an earlier draw takes that draw's record instead of a replay. Every
 * slot's record must still be the one a replay of its own world gives (both models: the rule
 * model's count is copied too), over two shares filled as two threads would, in PDK (the
 * spade-3 lead) and DDZ, and repeats must have happened. */
static void repeat_run(int mode, uint64_t seed)
{
    poolfix f;
    poolfix_open(&f, seed);
    if (mode != MODE_PDK) { /* the fixture's table, in the other game */
        table_close(&f.T);
        table_open(&f.T, mode, 6, seed);
    }
    f.T.any_suits = true; /* worlds alike in ranks then differ in the suits the record shows */
    cb_belief S, R;
    assert_int_equal(cb_belief_init(&S), 0);
    assert_int_equal(cb_belief_init(&R), 0);
    f.B.rule_model = S.rule_model = R.rule_model = true;
    int views = 0, reused = 0, filled = 0, rule_miss = 0;
    const int n = 300;
    for (int d = 0; d < 40 && views < 8; d++) {
        table *T = &f.T;
        table_deal(T, mode);
        /* on until the two seats after the one to act hold 7..12 cards between them */
        for (;;) {
            if (T->g.winner >= 0)
                break;
            int t = T->g.turn, u = cb_cards_size(T->g.hands[(t + 1) % 3]) + cb_cards_size(T->g.hands[(t + 2) % 3]);
            if (u <= 12 && T->g.nhist >= 12)
                break;
            table_step(T);
        }
        int t = T->g.turn, u = cb_cards_size(T->g.hands[(t + 1) % 3]) + cb_cards_size(T->g.hands[(t + 2) % 3]);
        if (T->g.winner >= 0 || u < 7)
            continue;
        cb_view v;
        cb_deal_view(&T->g, T->bids, 1, &v);
        char err[160] = "";
        assert_int_equal(cb_worlds_from_view(&f.W, &v, err, sizeof err), 0);
        assert_int_equal(cb_belief_reserve(&f.B, &v, n), 0);
        for (int k = 1; k >= 0; k--) {
            cb_worlds wk = f.W;
            assert_int_equal(cb_belief_fill(&f.B, &S, &v, &wk, k, 2, n, 0.1, seed + (uint64_t)d), 0);
            reused += S.reused;
        }
        for (int i = 0; i < n; i++) {
            if (f.B.mismatch[i] < 0)
                continue;
            cb_belief_seat rec[2];
            assert_int_equal(cb_belief_record(&R, &v, f.B.hands[i], rec), f.B.mismatch[i]);
            for (int o = 0; o < 2; o++) {
                assert_int_equal(rec[o].miss, f.B.seat[i][o].miss);
                assert_int_equal(rec[o].dec, f.B.seat[i][o].dec);
                assert_int_equal(rec[o].miss_rule, f.B.seat[i][o].miss_rule);
                assert_true(rec[o].logk == f.B.seat[i][o].logk);
                rule_miss += rec[o].miss_rule;
            }
            filled++;
        }
        views++;
    }
    print_message("  %s, seed %llu: %d late views, %d worlds filled, %d of them repeats (record copied), "
                  "%d rule-model misses\n", mode == MODE_DDZ ? "ddz" : "pdk16", (unsigned long long)seed, views,
                  filled, reused, rule_miss);
    assert_true(views >= 4);
    assert_true(reused > filled / 4); /* late pools repeat: the path was taken */
    assert_true(reused < filled);
    assert_true(rule_miss > 0);       /* the copied records hold rule counts to compare */
    cb_belief_free(&S);
    cb_belief_free(&R);
    poolfix_close(&f);
}

static void test_repeat(void **state)
{
    (void)state;
    repeat_run(MODE_PDK, cbt_seed(78));
    repeat_run(MODE_DDZ, cbt_seed(79));
}

/* ---- fitted weights ---- */

/* What the fit made of one kind of table, summed over views of seat 0. */
typedef struct fitsum {
    int views;
    double mu[2];  /* sum of the fitted mu per other seat (0: seat 1, 1: seat 2) */
    double ess;    /* sum of ess / n */
    double ess_fixed; /* the same with the fixed eps = 0.1 (ismcts's inference = fixed) */
    double rank_fit, rank_off; /* sum of the true hands' rank by weight (0 top .. 1 bottom) */
} fitsum;

/* ln of a record's weight under the fit of b (the formula of belief.h) */
static double lr_of(const cb_belief *b, const cb_belief_seat rec[2])
{
    double x = 0;
    for (int o = 0; o < 2; o++)
        x += (rec[o].dec - rec[o].miss) * log1p(b->mu[o] * (b->k[o] - 1)) + rec[o].miss * log1p(-b->mu[o]);
    return x;
}

/* The true hands' rank among the pool's worlds by weight: the share of worlds weighed above
 * them, ties counting half (uniform weights: 0.5). */
static double true_rank(const cb_belief *b, double truth)
{
    double above = 0;
    for (int i = 0; i < b->n; i++) {
        double w = lr_of(b, b->seat[i]);
        above += w > truth + 1e-9 ? 1 : fabs(w - truth) <= 1e-9 ? 0.5 : 0;
    }
    return above / b->n;
}

/* The fitted views both fit tests read: deals of T's pdk16 table (seat 0 level 6); one view per
 * deal (views of one deal share most of the record), at seat 0's first decision with 12 plays
 * or more on record and at least 8 choices of the other seats, where B (set up by the caller:
 * fit, rule_model) gets a pool of 300 worlds and fn is called with the true hands' record.
 * Stops at want views (asserted). */
typedef void (*view_fn)(void *ctx, const table *T, cb_belief *B, const cb_belief_seat truth[2], int n);

static void fitted_views(table *T, cb_belief *B, uint64_t seed, int want, view_fn fn, void *ctx)
{
    cb_worlds W;
    memset(&W, 0, sizeof W);
    int views = 0;
    for (int d = 0; d < 200 && views < want; d++) {
        table_deal(T, MODE_PDK);
        bool done = false;
        while (T->g.winner < 0) {
            if (!done && T->g.turn == 0 && T->g.nhist >= 12) {
                cb_view v;
                cb_deal_view(&T->g, T->bids, 1, &v);
                cb_belief_seat truth[2];
                assert_true(cb_belief_record(B, &v, T->g.hands, truth) >= 0);
                if (truth[0].dec + truth[1].dec >= 8) {
                    char err[160] = "";
                    if (cb_worlds_from_view(&W, &v, err, sizeof err) != 0)
                        fail_msg("cb_worlds_from_view refused a real record: %s", err);
                    int n = cb_belief_build(B, &v, &W, 300, 0.1, seed + (uint64_t)d);
                    assert_true(n > 250);
                    views++;
                    fn(ctx, T, B, truth, n);
                    done = true;
                }
            }
            table_step(T);
        }
    }
    cb_worlds_free(&W);
    assert_int_equal(views, want);
}

static void fit_view(void *ctx, const table *T, cb_belief *B, const cb_belief_seat truth[2], int n)
{
    (void)T;
    fitsum *f = ctx;
    f->views++;
    f->mu[0] += B->mu[0];
    f->mu[1] += B->mu[1];
    f->ess += B->ess / n;
    f->rank_fit += true_rank(B, lr_of(B, truth));
    /* belief = 1: every world weighs 1, the truth too */
    double mu[2] = {B->mu[0], B->mu[1]};
    B->mu[0] = B->mu[1] = 0;
    f->rank_off += true_rank(B, lr_of(B, truth));
    B->mu[0] = mu[0];
    B->mu[1] = mu[1];
    cb_belief_weigh(B, 0.1);
    f->ess_fixed += B->ess / n;
}

/* Deals of pdk16 where seats 1 and 2 play level 6 or random plays (seat 0: level 6); at
 * seat 0's decisions with at least 8 choices of the other seats on record, a fitted pool of
 * 300 worlds. */
static void fit_run(bool rnd1, bool rnd2, uint64_t seed, int want_views, fitsum *f)
{
    memset(f, 0, sizeof *f);
    table T;
    table_open(&T, MODE_PDK, 6, seed);
    T.random[1] = rnd1;
    T.random[2] = rnd2;
    cb_belief B;
    assert_int_equal(cb_belief_init(&B), 0);
    B.fit = true;
    fitted_views(&T, &B, seed, want_views, fit_view, f);
    cb_belief_free(&B);
    table_close(&T);
    print_message("  seat 1 %s, seat 2 %s, seed %llu, %d views: mu %.2f / %.2f, ess/n %.2f (fixed 0.1: %.2f), "
                  "true hands' rank %.2f (belief = 1: %.2f)\n",
                  rnd1 ? "random" : "level 6", rnd2 ? "random" : "level 6", (unsigned long long)seed, f->views,
                  f->mu[0] / f->views, f->mu[1] / f->views, f->ess / f->views, f->ess_fixed / f->views,
                  f->rank_fit / f->views, f->rank_off / f->views);
}

/* Seat 1 level 6, seat 2 random: the fit tells them apart. A PDK record holds few choices
 * per seat (about 4 to 6 here), so the posterior of mu stays broad and its mean moderate:
 * seat 1 about 0.75, seat 2 about 0.3 (at k = 5 options a factor 0.3 per unexplained choice,
 * against 0.06 for seat 1). */
static void test_fit_per_seat(void **state)
{
    (void)state;
    fitsum f;
    fit_run(false, true, cbt_seed(78), 16, &f);
    double mu1 = f.mu[0] / f.views, mu2 = f.mu[1] / f.views;
    assert_true(mu1 > 0.6);        /* the model explains seat 1 */
    assert_true(mu2 < 0.45);       /* seat 2 not much better than chance */
    assert_true(mu1 - mu2 > 0.3);  /* and the fit tells the seats apart */
}

/* The fit's mu, written here again world by world from belief.h's formula (the grid, the
 * log-sum-exp mean of the worlds' ratios, the posterior mean): cb_belief_fit_mu groups the
 * worlds by their record and must give the very same double, for pools of a few record kinds,
 * of many, and of more kinds than it groups (its plain loop then). */
static double plain_fit(const cb_belief_seat *rec, int n, double k)
{
    double ll[CB_BELIEF_GRID], top_ll = -INFINITY;
    for (int j = 0; j < CB_BELIEF_GRID; j++) {
        double mu = CB_BELIEF_MU_MAX * j / (CB_BELIEF_GRID - 1);
        double a = log1p(mu * (k - 1)), c = log1p(-mu), top = -INFINITY, sum = 0;
        for (int i = 0; i < n; i++) {
            double x = (rec[i].dec - rec[i].miss) * a + rec[i].miss * c;
            if (x > top)
                top = x;
        }
        for (int i = 0; i < n; i++)
            sum += exp((rec[i].dec - rec[i].miss) * a + rec[i].miss * c - top);
        ll[j] = top + log(sum / n);
        if (ll[j] > top_ll)
            top_ll = ll[j];
    }
    double z = 0, m = 0;
    for (int j = 0; j < CB_BELIEF_GRID; j++) {
        double p = exp(ll[j] - top_ll);
        z += p;
        m += p * (CB_BELIEF_MU_MAX * j / (CB_BELIEF_GRID - 1));
    }
    return m / z;
}

static void test_fit_grouped(void **state)
{
    (void)state;
    enum { N = 5000 };
    cb_belief_seat *rec = calloc(N, sizeof *rec);
    assert_non_null(rec);
    cbt_rng g;
    cbt_rng_seed_named(&g, cbt_seed(87), "fit grouped");
    static const int spans[] = {3, 12, 40, 120};
    for (int t = 0; t < 40; t++) {
        int n = 1 + (int)cbt_rng_below(&g, N), span = spans[t % 4];
        for (int i = 0; i < n; i++) {
            rec[i].dec = (int16_t)cbt_rng_below(&g, (uint32_t)span);
            rec[i].miss = (int16_t)(rec[i].dec ? cbt_rng_below(&g, (uint32_t)rec[i].dec + 1) : 0);
        }
        double k = 1.5 + (double)cbt_rng_below(&g, 200) / 10;
        double want = plain_fit(rec, n, k), got = cb_belief_fit_mu(rec, 1, n, k);
        if (got != want)
            fail_msg("case %d (%d worlds, records up to %d decisions, k %.1f): mu %.17g, world by world %.17g", t,
                     n, span, k, got, want);
    }
    free(rec);
}

/* Both random: mu low for both, and the weights closer to uniform than the fixed eps's. */
static void test_fit_random(void **state)
{
    (void)state;
    fitsum f;
    fit_run(true, true, cbt_seed(79), 16, &f);
    assert_true(f.mu[0] / f.views < 0.45);
    assert_true(f.mu[1] / f.views < 0.45);
    assert_true(f.ess / f.views > f.ess_fixed / f.views + 0.1);
}

/* Both level 6: the true hands rank high by weight — better than with belief = 1 (0.5). */
static void test_fit_truth_rank(void **state)
{
    (void)state;
    fitsum f;
    fit_run(false, false, cbt_seed(80), 16, &f);
    assert_true(f.mu[0] / f.views > 0.6);
    assert_true(f.mu[1] / f.views > 0.6);
    assert_true(fabs(f.rank_off / f.views - 0.5) < 1e-9);
    assert_true(f.rank_fit / f.views < 0.3);
}

/* Two models (rule_model): seats that play the rule agent are explained by it in their true
 * hands at every choice, and the mixed fit gives the rule model most of the posterior share of
 * each such seat; seats that play level 6 keep most of it with level 6. (Moderate shares, about
 * 0.75 against 0.3: the evidence is the pool's uniform worlds, few of which explain a long
 * record under either model.) pdk16, seat 0 level 6, views
 * at seat 0's decisions with at least 8 choices of the other seats on record, 300 worlds. */
typedef struct mixsum {
    int views;
    double p_rule[2];
    long rule_miss, dec;     /* the rule seats' true records: choices the rule model misses */
    int told, wrong_model;   /* seats whose true record tells the models apart (the other
                                model misses a choice), and of those where the likelier model
                                there is not the seat's */
} mixsum;

static void mix_view(void *ctx, const table *T, cb_belief *B, const cb_belief_seat truth[2], int n)
{
    (void)n;
    mixsum *m = ctx;
    m->views++;
    m->p_rule[0] += B->p_rule[0];
    m->p_rule[1] += B->p_rule[1];
    /* in the true world each seat's own model is the likelier: the rule seat explained in full
     * by it, the level-6 seat by level 6 */
    for (int o = 0; o < 2; o++) {
        bool rule = T->rule[o + 1];
        if (rule) {
            m->rule_miss += truth[o].miss_rule;
            m->dec += truth[o].dec;
        }
        if ((rule ? truth[o].miss : truth[o].miss_rule) == 0)
            continue; /* the other model explains the record too */
        m->told++;
        double c = cb_belief_rule_chance(B, &truth[o], o);
        if (rule ? c < 0.5 : c > 0.5)
            m->wrong_model++;
    }
}

static void mix_run(bool rule1, bool rule2, bool fit, uint64_t seed, int want_views, double p_rule[2],
                    double *truth_rule_miss)
{
    table T;
    table_open(&T, MODE_PDK, 6, seed);
    T.rule[1] = rule1;
    T.rule[2] = rule2;
    cb_belief B;
    assert_int_equal(cb_belief_init(&B), 0);
    B.fit = fit; /* else the fixed weights (0.1) with both models */
    B.rule_model = true;
    mixsum m;
    memset(&m, 0, sizeof m);
    fitted_views(&T, &B, seed, want_views, mix_view, &m);
    cb_belief_free(&B);
    table_close(&T);
    int views = m.views, told = m.told, wrong_model = m.wrong_model;
    long rule_miss = m.rule_miss, dec = m.dec;
    p_rule[0] = m.p_rule[0];
    p_rule[1] = m.p_rule[1];
    p_rule[0] /= views;
    p_rule[1] /= views;
    *truth_rule_miss = dec ? (double)rule_miss / (double)dec : 0;
    print_message("  %s, seat 1 %s, seat 2 %s, seed %llu, %d views: rule model's share %.2f / %.2f; rule seats' "
                  "true hands: %ld of %ld choices unexplained by it; the truth's likelier model wrong for %d "
                  "of %d seats whose record tells\n",
                  fit ? "fitted" : "fixed 0.1", rule1 ? "rule" : "level 6", rule2 ? "rule" : "level 6",
                  (unsigned long long)seed, views, p_rule[0],
                  p_rule[1], rule_miss, dec, wrong_model, told);
    assert_true(told >= views / 2); /* not vacuous: most views tell */
    assert_int_equal(wrong_model, 0);
}

static void test_mix_models(void **state)
{
    (void)state;
    double p[2], miss;
    mix_run(true, false, true, cbt_seed(81), 16, p, &miss);
    assert_true(miss == 0);                /* the rule agent is the rule model */
    assert_true(p[0] > 0.6 && p[1] < 0.4); /* each seat's model carries its weights */
    mix_run(false, true, true, cbt_seed(82), 16, p, &miss);
    assert_true(miss == 0);
    assert_true(p[0] < 0.4 && p[1] > 0.6);
}

/* A pool of n worlds over caller-owned records and cumulative weights (no replay): the weighing
 * functions read only these */
static void synthetic_pool(cb_belief *B, int n, cb_belief_seat (*seat)[2], double *cum)
{
    memset(B, 0, sizeof *B);
    B->n = n;
    B->seat = seat;
    B->cum = cum;
}

/* Fixed weights with both models (rule_model without fit; ismcts inference = fixed_mix), on a
 * synthetic pool: a world's weight is the product over the two other seats of the mean of
 * eps^(level 6's misses) and eps^(the rule agent's), here recomputed directly from the records
 * (not through belief.c's log terms); the seat's likelier model in a world is the one that
 * misses fewer of its choices (a tie: level 6). On real PDK deals the truth's likelier model
 * is the seat's own, as under the fitted mix (mix_run with fit off). */
static void test_mix_fixed(void **state)
{
    (void)state;
    enum { N = 60 };
    static cb_belief_seat seat[N][2];
    static double cum[N];
    cb_belief B;
    synthetic_pool(&B, N, seat, cum);
    B.rule_model = true;
    for (int i = 0; i < N; i++)
        for (int o = 0; o < 2; o++) {
            seat[i][o].dec = 6;
            seat[i][o].miss = (int16_t)((i * 5 + o) % 7);
            seat[i][o].miss_rule = (int16_t)((i * 3 + 2 * o) % 7);
        }
    const double eps = 0.1;
    cb_belief_weigh(&B, eps);
    double want[N], top = 0;
    for (int i = 0; i < N; i++) {
        want[i] = 1;
        for (int o = 0; o < 2; o++)
            want[i] *= (pow(eps, seat[i][o].miss) + pow(eps, seat[i][o].miss_rule)) / 2;
        if (want[i] > top)
            top = want[i];
    }
    double tot = 0, sq = 0;
    for (int i = 0; i < N; i++) {
        double w = cum[i] - (i ? cum[i - 1] : 0);
        /* relative to the best world, as the weights are kept */
        assert_true(fabs(w - want[i] / top) < 1e-9);
        tot += w;
        sq += w * w;
        for (int o = 0; o < 2; o++) {
            double c = cb_belief_rule_chance(&B, &seat[i][o], o);
            double c0 = pow(eps, seat[i][o].miss_rule) / (pow(eps, seat[i][o].miss) + pow(eps, seat[i][o].miss_rule));
            assert_true(fabs(c - c0) < 1e-9);
            assert_true((c > 0.5) == (seat[i][o].miss_rule < seat[i][o].miss));
        }
    }
    assert_true(fabs(B.ess - tot * tot / sq) < 1e-9 * B.ess);
    assert_true(B.p_rule[0] > 0 && B.p_rule[0] < 1 && B.p_rule[1] > 0 && B.p_rule[1] < 1);
    /* level 6 alone (rule_model off): no rule model to choose */
    B.rule_model = false;
    assert_true(cb_belief_rule_chance(&B, &seat[0][0], 0) == 0);
    double p[2], miss;
    mix_run(true, false, false, cbt_seed(81), 16, p, &miss);
    assert_true(miss == 0);
    assert_true(p[0] > p[1]); /* the rule seat's share is the larger */
    mix_run(false, true, false, cbt_seed(82), 16, p, &miss);
    assert_true(p[1] > p[0]);
}

/* Tempering (cb_belief_temper) on a synthetic pool: 200 worlds whose records (10 choices per
 * other seat) leave 0..10 of them unexplained; the fit trusts the model, so a few worlds carry
 * the weight. Tempered to 30: at least 30 carry it, the exponent is the largest (to 1/64) that
 * does, and the weights keep their order. A target the fitted weights already meet leaves
 * them as they are. */
static double ess_at(const cb_belief *b, double beta)
{
    double tot = 0, sq = 0;
    for (int i = 0; i < b->n; i++) {
        double w = exp(beta * lr_of(b, b->seat[i]));
        tot += w;
        sq += w * w;
    }
    return tot * tot / sq;
}

static void test_temper(void **state)
{
    (void)state;
    enum { N = 200 };
    static cb_belief_seat seat[N][2];
    static double cum[N], cum0[N];
    cb_belief B;
    synthetic_pool(&B, N, seat, cum);
    for (int i = 0; i < N; i++)
        for (int o = 0; o < 2; o++) {
            seat[i][o].dec = 10;
            seat[i][o].miss = (i * 7 + o * 3) % 11;
            seat[i][o].logk = (float)(10 * log(5.0));
        }
    seat[17][0].miss = seat[17][1].miss = 0; /* one world explains everything */
    cb_belief_weigh_fit(&B);
    assert_true(B.mu[0] > 0.5 && B.mu[1] > 0.5);
    assert_true(B.ess < 30);
    memcpy(cum0, cum, sizeof cum);
    double ess1 = B.ess;
    /* a target already met: nothing changes */
    cb_belief_temper(&B, ess1 / 2);
    assert_true(B.beta == 1 && B.ess == ess1);
    assert_memory_equal(cum, cum0, sizeof cum);
    cb_belief_temper(&B, 30);
    assert_true(B.beta > 0 && B.beta < 1);
    assert_true(B.ess >= 30 && fabs(B.ess - ess_at(&B, B.beta)) < 1e-6 * B.ess);
    assert_true(ess_at(&B, B.beta + 1.0 / 64) < 30);
    /* the weights keep their order: a better explained world weighs more */
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double wi = cum[i] - (i ? cum[i - 1] : 0), wj = cum[j] - (j ? cum[j - 1] : 0);
            if (lr_of(&B, seat[i]) > lr_of(&B, seat[j]) + 1e-9)
                assert_true(wi > wj);
        }
    print_message("  tempered: ess %.1f -> %.1f at beta %.3f\n", ess1, B.ess, B.beta);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_temper),
        cmocka_unit_test(test_truth_explained),
        cmocka_unit_test(test_deviation_seen),
        cmocka_unit_test(test_explains),
        cmocka_unit_test(test_pool),
        cmocka_unit_test(test_walk),
        cmocka_unit_test(test_deadline),
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_extend),
        cmocka_unit_test(test_repeat),
        cmocka_unit_test(test_fit_per_seat),
        cmocka_unit_test(test_fit_random),
        cmocka_unit_test(test_fit_grouped),
        cmocka_unit_test(test_fit_truth_rank),
        cmocka_unit_test(test_mix_models),
        cmocka_unit_test(test_mix_fixed),
    };
    return cmocka_run_group_tests_name("belief", tests, NULL, NULL);
}

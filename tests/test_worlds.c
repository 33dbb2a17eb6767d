/* Determinization (plugin/common/worlds.c), linked from the plugins' static library (the
 * Makefile's PLUGIN_LIBS).
 *
 * Thousands of public histories come from whole deals played with core's deal API
 * by a mix of uniform random and heuristic seats, under several rule sets (PDK pdk16 / pdk15 /
 * guanpai, DDZ, and DDZ with must_beat on so passes prove something there too). At random
 * decisions the deciding seat's view is handed to the sampler and every world it returns is
 * checked here, independently of the sampler: my hand unchanged, no card dealt twice or from the
 * played cards, exactly the unknown cards dealt, every hand of exactly its size, the DDZ bottom
 * cards not yet played with the landlord, and every pass under must_beat (and every single
 * played under warn_single while the next seat held one card) still legal with core's
 * cb_play_legal on the seat's hand then (its hand in the world plus what it played later). The
 * true hands must always count as consistent, and the sampler must rarely fail. Bidding views
 * (the PDK spade 3 with the first seat, the DDZ bottom sampled too) and records no world can
 * satisfy (the sampler must fail, never answer) are checked as well.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/botfix.h"
#include "cardbot/bot.h"
#include "support/randhand.h"
#include "../plugin/common/policy.h"
#include "../plugin/common/worlds.h"

/* ---- what the record proves, kept by the test while it plays ---- */

typedef struct proof {
    int index;          /* history entry */
    int seat;
    cb_counts play;     /* 0: a pass */
    cb_move table;      /* shape CB_PASS: leading */
    bool next_has_one;
} proof;

typedef struct game {
    cb_rules r;
    cb_deal g;
    cb_play_rec hist[400];
    proof proofs[400];
    int nproofs;
    cb_move moves[CB_MOVES_CAP];
    cb_heur_agent heur;
    bool random_seat[3];
    cbt_rng rng;
} game;

static void record_proof(game *G, const cb_move *m)
{
    const cb_deal *g = &G->g;
    const cb_rules *r = &G->r;
    int s = g->turn, nx = s == 2 ? 0 : s + 1;
    bool next_one = cb_cards_size(g->hands[nx]) == 1;
    proof p;
    memset(&p, 0, sizeof p);
    p.index = g->nhist;
    p.seat = s;
    p.next_has_one = next_one;
    if (g->table_seat >= 0)
        p.table = g->table;
    if (m->shape == CB_PASS) {
        if (!r->must_beat || g->table_seat < 0)
            return;
    } else {
        if (!(r->warn_single && next_one && m->shape == CB_SINGLE))
            return;
        p.play = m->counts;
    }
    G->proofs[G->nproofs++] = p;
}

/* Is the world consistent with every proof about the seats other than me? (The test's own
 * check: hand then = hand in the world + what the seat played from that entry on.) */
static bool proofs_hold(const game *G, int me, const cb_cards world[3], int upto)
{
    for (int i = 0; i < G->nproofs; i++) {
        const proof *p = &G->proofs[i];
        if (p->seat == me || p->index >= upto)
            continue;
        cb_cards then = world[p->seat];
        for (int j = p->index; j < upto; j++)
            if (G->hist[j].seat == p->seat)
                then |= G->hist[j].cards;
        cb_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.hand = cb_counts_of(then);
        ctx.table = p->table.shape != CB_PASS ? &p->table : NULL;
        ctx.next_has_one = p->next_has_one;
        char why[120] = "";
        if (!cb_play_legal(&G->r, &ctx, p->play, NULL, why, sizeof why)) {
            print_error("proof at entry %d (seat %d, %s) broken: %s\n", p->index, p->seat,
                        p->play ? "single" : "pass", why);
            return false;
        }
    }
    return true;
}

/* Check one sampled world against the view, independently of the sampler. */
static void check_world(const game *G, const cb_view *v, const cb_cards w[3], cb_cards bottom, bool bidding)
{
    const cb_rules *r = &G->r;
    cb_cards played = 0;
    for (int i = 0; i < v->nhistory; i++)
        played |= v->history[i].cards;
    assert_true(w[v->seat] == v->hand);
    cb_cards all = 0;
    for (int s = 0; s < 3; s++) {
        assert_int_equal(w[s] & all, 0);          /* no card twice */
        assert_int_equal(w[s] & played, 0);       /* nothing already played */
        assert_int_equal(w[s] & ~r->deck, 0);
        assert_int_equal(cb_cards_size(w[s]), v->cards_left[s]);
        all |= w[s];
    }
    if (bidding && r->game == CB_GAME_DDZ) {
        assert_int_equal(cb_cards_size(bottom), r->bottom);
        assert_int_equal(bottom & all, 0);
        all |= bottom;
    }
    /* exactly the unknown cards (plus my hand) */
    assert_true(all == (r->deck & ~played));
    if (!bidding && r->game == CB_GAME_DDZ && v->landlord >= 0) {
        cb_cards keep = v->bottom & ~played;
        assert_true((w[v->landlord] & keep) == keep);
    }
    if (bidding && r->game == CB_GAME_PDK && r->spade3_first) {
        cb_cards s3 = cb_card_bit(CB_CARD_S3);
        assert_true(w[v->first_seat] & s3);
    }
    assert_true(proofs_hold(G, v->seat, w, v->nhistory));
}

static int pick_random(game *G, cb_move *out)
{
    cb_ctx ctx;
    cb_deal_ctx(&G->g, &ctx);
    int n = cb_legal_moves(&G->r, &ctx, G->moves, CB_MOVES_CAP);
    if (n <= 0)
        return -1;
    if (n > CB_MOVES_CAP)
        n = CB_MOVES_CAP;
    *out = G->moves[cbt_rng_below(&G->rng, (uint32_t)n)];
    return 0;
}

typedef struct tally {
    long views, worlds, failures, proofs_checked;
} tally;

static void sample_view(game *G, cb_worlds *W, const cb_view *v, const cb_cards truth[3], cb_cards truth_bottom,
                        cb_rng *wr, int k, bool bidding, tally *t)
{
    char err[160] = "";
    if (cb_worlds_from_view(W, v, err, sizeof err) != 0)
        fail_msg("cb_worlds_from_view refused a real record: %s", err);
    assert_true(cb_worlds_consistent(W, truth, truth_bottom)); /* the truth is never excluded */
    t->views++;
    for (int i = 0; i < k; i++) {
        cb_cards w[3], bottom = 0;
        if (cb_worlds_sample(W, wr, w, &bottom) != 0) {
            t->failures++;
            continue;
        }
        t->worlds++;
        t->proofs_checked += G->nproofs;
        check_world(G, v, w, bottom, bidding);
        assert_true(cb_worlds_consistent(W, w, bottom));
    }
}

static void run_rules(const char *preset, const char *flag, const char *value, int games,
                      uint64_t seed, tally *t)
{
    game *G = calloc(1, sizeof *G);
    assert_non_null(G);
    assert_int_equal(cb_rules_preset(preset, &G->r), 0);
    if (flag)
        assert_int_equal(cb_rules_set(&G->r, flag, value, NULL, 0), 0);
    const cb_rules *r = &G->r;
    bool ddz = r->game == CB_GAME_DDZ;
    cbt_rng_seed(&G->rng, seed);
    cb_hcfg_level(&G->heur.cfg, 6);
    assert_int_equal(cb_hws_init(&G->heur.ws), 0);
    cb_worlds W;
    memset(&W, 0, sizeof W);
    cb_rng wr;
    cb_rng_seed(&wr, seed ^ 0x5EED);
    for (int gi = 0; gi < games; gi++) {
        cb_cards h[3], bottom;
        cbt_deal(&G->rng, G->r.deck, G->r.hand_size, h, &bottom);
        /* bidding: my hand only (PDK: the spade 3 is with the first seat; DDZ: the bottom too) */
        {
            int me = (int)cbt_rng_below(&G->rng, 3);
            int first = 0;
            if (!ddz && r->spade3_first)
                for (int s = 0; s < 3; s++)
                    if (h[s] & cb_card_bit(CB_CARD_S3))
                        first = s;
            cb_view v;
            cbt_view_init(&v, r, CB_PHASE_BID, me, first, h[me]);
            G->nproofs = 0;
            sample_view(G, &W, &v, h, ddz ? bottom : 0, &wr, 2, true, t);
        }
        if (ddz)
            h[0] |= bottom;
        memset(&G->g, 0, sizeof G->g);
        G->g.hist = G->hist;
        G->g.hist_cap = 400;
        G->g.check = true;
        cb_deal_init(&G->g, r, h, -1, ddz ? 0 : -1, 1, ddz ? bottom : 0);
        G->nproofs = 0;
        for (int s = 0; s < 3; s++)
            G->random_seat[s] = cbt_rng_below(&G->rng, 2) == 0;
        int bids[3] = {1, 0, 0};
        while (G->g.winner < 0 && G->g.nhist < 390) {
            /* a view of the seat to act, now and then */
            if (cbt_rng_below(&G->rng, 4) == 0) {
                cb_view v;
                cb_deal_view(&G->g, ddz ? bids : NULL, cbt_rng_next(&G->rng), &v);
                sample_view(G, &W, &v, G->g.hands, 0, &wr, 3, false, t);
            }
            cb_move m;
            int rc = G->random_seat[G->g.turn] ? pick_random(G, &m)
                                               : cb_heur_deal_policy(&G->heur, &G->g, &m);
            assert_int_equal(rc, 0);
            record_proof(G, &m);
            char why[120] = "";
            if (cb_deal_step(&G->g, &m, why, sizeof why) < 0)
                fail_msg("%s: a policy broke the rules: %s", preset, why);
        }
    }
    cb_worlds_free(&W);
    cb_hws_free(&G->heur.ws);
    free(G);
}

static void test_random_histories(void **state)
{
    (void)state;
    uint64_t seed = cbt_seed(2024);
    print_message("seed %llu\n", (unsigned long long)seed);
    static const struct {
        const char *preset, *flag, *value;
        int games;
    } runs[] = {
        {"pdk16", NULL, NULL, 400},
        {"pdk15", NULL, NULL, 150},
        {"guanpai", NULL, NULL, 150},
        {"pdk16", "must_beat_bomb", "false", 120},
        {"ddz", NULL, NULL, 150},
        {"ddz", "must_beat", "true", 250},
    };
    tally all = {0, 0, 0, 0};
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        tally t = {0, 0, 0, 0};
        run_rules(runs[i].preset, runs[i].flag, runs[i].value, runs[i].games, seed + i, &t);
        print_message("%-8s %-16s %4d games: %5ld views, %6ld worlds checked, %ld failed samples, %ld proof checks\n",
                      runs[i].preset, runs[i].flag ? runs[i].flag : "", runs[i].games, t.views, t.worlds, t.failures,
                      t.proofs_checked);
        all.views += t.views;
        all.worlds += t.worlds;
        all.failures += t.failures;
    }
    assert_true(all.views >= 8000);
    /* the sampler may give up on a very tight record, but hardly ever */
    assert_true(all.failures * 200 <= all.worlds);
}

/* Records no world can satisfy: the sampler fails (never answers with a world). */
static void test_impossible_records(void **state)
{
    (void)state;
    cb_rules r;
    assert_int_equal(cb_rules_preset("pdk16", &r), 0);
    r.spade3_first = false;
    cb_cards deck = r.deck;
    cb_cards c;
    /* 1) seat 0 leads the ace of hearts, both others pass: neither holds a card above an ace,
     *    but the only 2 of the deck is unseen */
    assert_int_equal(cb_cards_parse("Ah", deck, &c, NULL, 0), 0);
    cb_play_rec h1[3] = {{c, 0, 0}, {0, 1, 0}, {0, 2, 0}};
    cb_cards mine;
    assert_int_equal(cb_cards_parse("3s3h3c4s4h4c5s5h5c6s6h6c7s7h7c", deck, &mine, NULL, 0), 0);
    cb_view v;
    cbt_view_init(&v, &r, CB_PHASE_PLAY, 0, 0, mine);
    v.cards_left[0] = 15;
    v.cards_left[1] = v.cards_left[2] = 16;
    v.history = h1;
    v.nhistory = 3;
    cb_worlds W;
    memset(&W, 0, sizeof W);
    assert_int_equal(cb_worlds_from_view(&W, &v, NULL, 0), 0);
    cb_rng g;
    cb_rng_seed(&g, 1);
    cb_cards w[3];
    for (int i = 0; i < 20; i++)
        assert_int_equal(cb_worlds_sample(&W, &g, w, NULL), -1);
    /* 2) a pair of kings led, both others pass: neither holds a pair above kings, yet the
     *    three aces are all unseen, so one of them holds two (only the exact check knows) */
    assert_int_equal(cb_cards_parse("KsKh", deck, &c, NULL, 0), 0);
    cb_play_rec h2[3] = {{c, 0, 0}, {0, 1, 0}, {0, 2, 0}};
    assert_int_equal(cb_cards_parse("3s3h3c4s4h4c5s5h5c6s6h6c7s7h", deck, &mine, NULL, 0), 0);
    v.hand = mine;
    v.cards_left[0] = 14;
    v.history = h2;
    assert_int_equal(cb_worlds_from_view(&W, &v, NULL, 0), 0);
    for (int i = 0; i < 5; i++)
        assert_int_equal(cb_worlds_sample(&W, &g, w, NULL), -1);
    /* ... while the same record with an ace in my hand leaves worlds to find */
    assert_int_equal(cb_cards_parse("3s3h3c4s4h4c5s5h5c6s6h6c7sAh", deck, &mine, NULL, 0), 0);
    v.hand = mine;
    assert_int_equal(cb_worlds_from_view(&W, &v, NULL, 0), 0);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(cb_worlds_sample(&W, &g, w, NULL), 0);
        assert_true(cb_worlds_consistent(&W, w, 0));
    }
    /* 3) a record that does not add up is refused outright */
    v.cards_left[1] = 10;
    char err[160] = "";
    assert_int_not_equal(cb_worlds_from_view(&W, &v, err, sizeof err), 0);
    assert_true(err[0] != 0);
    cb_worlds_free(&W);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_histories),
        cmocka_unit_test(test_impossible_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The plugins' fast replays, checked against the engine on random games.
 *
 * Three readers of a public record keep their own fast path instead of stepping core's deal:
 * plugin/common/situ.c (an incremental replay cached per instance: a decision reads only the
 * new history entries), plugin/common/worlds.c (one pass that also collects the proofs about
 * each seat's hand at each moment) and the ismcts endgame solver (plugin/ismcts/solve.c: rank
 * counts, no record, for speed). Random legal games of every preset (and must_beat /
 * warn_single variants) are played through cb_engine; at every play decision the situation
 * (from the view, cached and uncached, and from the deal), the worlds' trick replay and the
 * true hands' consistency must equal the engine's own state; and from random positions the
 * solver's position is stepped side by side with the engine's deal to the end: the same
 * legal plays at every step (is_pos_ctx against cb_deal_ctx), the same trick, turn and
 * winner. Any drift of a fast path from the rules fails here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cardbot/game.h"
#include "support/randhand.h"
#include "../plugin/common/situ.h"
#include "../plugin/common/worlds.h"
#include "../plugin/ismcts/solve.h"

typedef struct totals {
    int decisions, cached, tricks, passes, solver_steps, solver_games;
} totals;

/* The cards seat s has played: what it was dealt (the landlord: with the bottom) less its hand. */
static cb_counts played_by(const cb_engine *e, int s)
{
    cb_cards dealt = cb_engine_dealt(e, s);
    if (cb_engine_rules(e)->game == CB_GAME_DDZ && s == cb_engine_landlord(e))
        dealt |= cb_engine_bottom(e);
    return cb_counts_of(dealt & ~cb_engine_hand(e, s));
}

static void check_situ(const cb_engine *e, const cb_deal *d, const cb_situ *s)
{
    const cb_rules *r = cb_engine_rules(e);
    assert_int_equal(s->seat, d->turn);
    assert_int_equal(s->landlord, d->landlord);
    assert_true(s->hand_cards == d->hands[d->turn]);
    assert_true(s->out == cb_counts_of(r->deck & ~d->hands[d->turn] & ~d->played));
    int nplays = 0;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(s->cards_left[i], cb_cards_size(d->hands[i]));
        nplays += d->plays[i];
    }
    assert_int_equal(s->nplays, nplays);
    assert_int_equal(s->first_play, d->first_play);
    assert_int_equal(s->table_seat, d->table_seat);
    if (d->table_seat >= 0)
        assert_true(s->table.counts == d->table.counts);
    assert_memory_equal(&s->voids, &d->voids, sizeof s->voids);
    cb_ctx a, b;
    cb_deal_ctx(d, &a);
    cb_situ_ctx(s, &b);
    assert_true(a.hand == b.hand && a.next_has_one == b.next_has_one && a.first_play == b.first_play);
    assert_int_equal(a.table != NULL, b.table != NULL);
}

/* Everything the fast replays derive from this view, against the engine's deal. */
static void check_decision(const cb_engine *e, cb_replay cache[3], cb_worlds *w, totals *t)
{
    const cb_deal *d = cb_engine_deal(e);
    cb_view v;
    assert_int_equal(cb_engine_view(e, d->turn, 1000, &v), 0);
    cb_situ s;
    assert_int_equal(cb_situ_from_view(&v, &s), 0);
    check_situ(e, d, &s);
    for (int i = 0; i < 3; i++)
        if (s.landlord < 0 || i != s.landlord || i == s.seat || !d->bottom)
            assert_true(s.played[i] == played_by(e, i));
    assert_int_equal(cb_situ_from_view_cached(&v, &cache[d->turn], &s), 0);
    check_situ(e, d, &s);
    t->cached += cache[d->turn].n > 0;
    cb_situ_from_deal(d, &s);
    check_situ(e, d, &s);

    char err[160];
    if (cb_worlds_from_view(w, &v, err, sizeof err) != 0) {
        print_error("cb_worlds_from_view: %s\n", err);
        fail();
    }
    assert_int_equal(w->trick_seat, d->table_seat);
    if (d->table_seat >= 0) {
        assert_memory_equal(&w->trick, &d->table, sizeof w->trick);
        assert_int_equal(w->trick_passes, d->npass);
        t->tricks++;
    }
    assert_int_equal(w->nplays, s.nplays);
    cb_cards hands[3];
    for (int i = 0; i < 3; i++)
        hands[i] = d->hands[i];
    assert_true(cb_worlds_consistent(w, hands, d->bottom));
    t->decisions++;
}

static bool same_moves(const cb_rules *r, const cb_ctx *a, const cb_ctx *b, cb_move *ma, cb_move *mb, int *n)
{
    int na = cb_legal_moves(r, a, ma, CB_MOVES_CAP), nb = cb_legal_moves(r, b, mb, CB_MOVES_CAP);
    *n = na;
    return na == nb && memcmp(ma, mb, (size_t)na * sizeof *ma) == 0;
}

/* From the engine's position, the solver's packed position and a copy of the deal play the
 * same random legal plays to the end and must agree at every step. */
static void step_side_by_side(const cb_deal *from, cbt_rng *g, totals *t)
{
    static cb_move ma[CB_MOVES_CAP], mb[CB_MOVES_CAP];
    cb_deal d = *from;
    d.hist = NULL;
    d.hist_cap = d.nhist = 0;
    d.check = true;
    is_pos p;
    is_pos_of_deal(&d, NULL, &p);
    const cb_rules *r = d.rules;
    for (;;) {
        for (int s = 0; s < 3; s++)
            assert_true(p.h[s] == cb_counts_of(d.hands[s]));
        assert_int_equal(p.turn, d.turn);
        assert_int_equal(p.tseat, d.table_seat);
        if (d.table_seat >= 0) {
            assert_int_equal(p.npass, d.npass);
            assert_memory_equal(&p.table, &d.table, sizeof p.table);
        }
        cb_ctx a, b;
        is_pos_ctx(&p, &a);
        cb_deal_ctx(&d, &b);
        int n;
        assert_true(same_moves(r, &a, &b, ma, mb, &n));
        assert_true(n >= 1);
        cb_move m = ma[cbt_rng_below(g, (uint32_t)n)];
        int won = is_pos_apply(r, &p, &m);
        char why[112];
        int rc = cb_deal_step(&d, &m, why, sizeof why);
        if (rc < 0)
            fail_msg("cb_deal_step: %s", why);
        t->solver_steps++;
        if (rc == 1) {
            assert_int_equal(won, d.winner);
            break;
        }
        assert_int_equal(won, -1);
    }
    t->solver_games++;
}

static void random_games(const char *preset, const char *flag, int games, uint64_t seed)
{
    cb_rules r;
    assert_int_equal(cb_rules_preset(preset, &r), 0);
    if (flag)
        assert_int_equal(cb_rules_set(&r, flag, "true", NULL, 0), 0);
    cbt_rng g;
    cbt_rng_seed_named(&g, cbt_seed(seed), preset);
    static cb_cards plays[CB_MOVES_CAP];
    cb_worlds w;
    memset(&w, 0, sizeof w);
    totals t;
    memset(&t, 0, sizeof t);
    for (int game = 0; game < games; game++) {
        cb_engine_opts o;
        memset(&o, 0, sizeof o);
        o.struct_size = sizeof o;
        o.key = seed;
        o.deal = o.game = (uint64_t)game;
        o.first_bidder = -1;
        o.landlord = -1;
        char err[160];
        cb_engine *e = cb_engine_new(&r, &o, err, sizeof err);
        assert_non_null(e);
        cb_replay cache[3];
        for (int s = 0; s < 3; s++)
            cb_replay_reset(&cache[s], &r);
        bool solved = false;
        while (cb_engine_phase(e) != CB_PHASE_OVER) {
            if (cb_engine_phase(e) == CB_PHASE_BID) {
                int32_t b[4];
                int n = cb_engine_legal_bids(e, b, 4);
                assert_int_equal(cb_engine_bid(e, b[cbt_rng_below(&g, (uint32_t)n)], err, sizeof err), 0);
                continue;
            }
            check_decision(e, cache, &w, &t);
            const cb_deal *d = cb_engine_deal(e);
            int left = cb_cards_size(d->hands[0] | d->hands[1] | d->hands[2]);
            if (!solved && !d->first_play && left <= 24 && cbt_rng_chance(&g, 1, 3)) {
                step_side_by_side(d, &g, &t);
                solved = true;
            }
            /* passes more often than uniform, so tricks run their whole course */
            int n = cb_engine_legal_plays(e, plays, CB_MOVES_CAP);
            assert_true(n >= 1);
            cb_cards c = plays[0] == 0 && cbt_rng_chance(&g, 1, 2) ? 0 : plays[cbt_rng_below(&g, (uint32_t)n)];
            t.passes += c == 0;
            assert_int_equal(cb_engine_play(e, c, err, sizeof err), 0);
        }
        cb_engine_free(e);
    }
    cb_worlds_free(&w);
    print_message("%s%s%s: %d games, %d decisions (%d from a cached replay, %d with a trick open), %d passes; "
                  "solver stepped %d positions, %d steps\n", preset, flag ? " " : "", flag ? flag : "", games,
                  t.decisions, t.cached, t.tricks, t.passes, t.solver_games, t.solver_steps);
    assert_true(t.decisions > games * 10 && t.cached > 0 && t.tricks > 0 && t.passes > 0);
    assert_true(t.solver_games > games / 4);
}

static void test_pdk16(void **s) { (void)s; random_games("pdk16", NULL, 150, 1); }
static void test_pdk16_warn(void **s) { (void)s; random_games("pdk16", "warn_single", 100, 2); }
static void test_pdk16_bomb(void **s) { (void)s; random_games("pdk16", "must_beat_bomb", 100, 3); }
static void test_pdk15(void **s) { (void)s; random_games("pdk15", NULL, 100, 4); }
static void test_guanpai(void **s) { (void)s; random_games("guanpai", NULL, 100, 5); }
static void test_ddz(void **s) { (void)s; random_games("ddz", NULL, 150, 6); }
static void test_ddz_must(void **s) { (void)s; random_games("ddz", "must_beat", 100, 7); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pdk16), cmocka_unit_test(test_pdk16_warn), cmocka_unit_test(test_pdk16_bomb),
        cmocka_unit_test(test_pdk15), cmocka_unit_test(test_guanpai),    cmocka_unit_test(test_ddz),
        cmocka_unit_test(test_ddz_must),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

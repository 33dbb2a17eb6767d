/* ismcts endgames with a forced win: positions from real deals (PDK and DDZ, found by playing
 * level-6 heuristic deals from fixed seeds and keeping positions where some play wins in every
 * world consistent with the record while the heuristic plays another), including a DDZ one
 * where the rocket must be kept. Records are replayed with core's deal API. The claim is
 * re-checked here with a plain minimax over every consistent world (this file's own,
 * independent of the plugin's solver); ismcts must choose a winning play and say ENDGAME; with
 * the solver off, the search alone must find one too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cardbot/bot.h"
#include "support/botfix.h"
#include "support/plugin/ismfix.h"
#include "support/randhand.h"
#include "support/shimfix.h" /* cbt_cards */

/* ---- replaying a record ---- */

typedef struct replay {
    cb_rules r;
    cb_deal g;
    cb_play_rec hist[256];
    /* proofs of the record (for the oracle's worlds) */
    int np;
    struct {
        int index, seat;
        cb_counts play;
        cb_move table;
        bool next_has_one;
    } pr[256];
} replay;

/* Play the actions (space separated, "-" = pass) from the deal; every step is checked by
 * core's deal API (check on); the actual cards (suits) are kept. */
static void replay_record(replay *R, const char *preset, const char *const hands[3], const char *bottom,
                          int landlord, const char *actions)
{
    memset(R, 0, sizeof *R);
    assert_int_equal(cb_rules_preset(preset, &R->r), 0);
    R->r.bao = false;
    cb_cards h[3];
    for (int s = 0; s < 3; s++)
        h[s] = cbt_cards(&R->r, hands[s]);
    cb_cards b = bottom && *bottom ? cbt_cards(&R->r, bottom) : 0;
    if (landlord >= 0)
        h[landlord] |= b;
    R->g.hist = R->hist;
    R->g.hist_cap = 256;
    R->g.check = true;
    cb_deal_init(&R->g, &R->r, h, -1, landlord, 1, b);
    char buf[2048];
    snprintf(buf, sizeof buf, "%s", actions);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        cb_deal *g = &R->g;
        int s = g->turn, nx = s == 2 ? 0 : s + 1;
        cb_cards c = strcmp(tok, "-") == 0 ? 0 : cbt_cards(&R->r, tok);
        cb_ctx ctx;
        cb_deal_ctx(g, &ctx);
        cb_move m;
        memset(&m, 0, sizeof m);
        if (c)
            assert_true(cb_play_legal(&R->r, &ctx, cb_counts_of(c), &m, NULL, 0));
        bool next_one = cb_cards_size(g->hands[nx]) == 1;
        if ((!c && R->r.must_beat) || (c && R->r.warn_single && next_one && m.shape == CB_SINGLE)) {
            R->pr[R->np].index = g->nhist;
            R->pr[R->np].seat = s;
            R->pr[R->np].play = cb_counts_of(c);
            memset(&R->pr[R->np].table, 0, sizeof(cb_move));
            if (g->table_seat >= 0)
                R->pr[R->np].table = g->table;
            R->pr[R->np].next_has_one = next_one;
            R->np++;
        }
        cb_cards before = g->hands[s];
        char why[120] = "";
        if (cb_deal_step(g, &m, why, sizeof why) < 0)
            fail_msg("record step '%s': %s", tok, why);
        if (c) {
            cb_cards picked = before & ~g->hands[s];
            g->hands[s] = before & ~c;
            g->played = (g->played & ~picked) | c;
            g->table_cards = c;
            g->hist[g->nhist - 1].cards = c;
        }
    }
}

/* ---- an independent oracle: plain minimax, two sides, every legal play ---- */

typedef struct opos {
    cb_counts h[3];
    cb_move table;
    int turn, tseat, npass;
} opos;

typedef struct oracle {
    const cb_rules *r;
    int side[3];
    cb_move *buf;
    int cap;
    long nodes;
} oracle;

/* Does side 1 win from p with best play by both sides? */
static bool o_win(oracle *O, const opos *p, int sp)
{
    O->nodes++;
    cb_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.hand = p->h[p->turn];
    ctx.table = p->tseat >= 0 ? &p->table : NULL;
    ctx.next_has_one = cb_counts_total(p->h[p->turn == 2 ? 0 : p->turn + 1]) == 1;
    cb_move *mv = O->buf + sp;
    int n = cb_legal_moves(O->r, &ctx, mv, O->cap - sp);
    assert_true(n > 0 && n <= O->cap - sp);
    bool ours = O->side[p->turn] != 0;
    for (int i = 0; i < n; i++) {
        opos c = *p;
        bool v;
        if (mv[i].shape == CB_PASS) {
            if (++c.npass >= 2) {
                c.turn = c.tseat;
                c.tseat = -1;
                c.npass = 0;
            } else {
                c.turn = c.turn == 2 ? 0 : c.turn + 1;
            }
            v = o_win(O, &c, sp + n);
        } else {
            c.h[c.turn] -= mv[i].counts;
            if (c.h[c.turn] == 0) {
                v = O->side[c.turn] != 0;
            } else {
                c.table = mv[i];
                c.tseat = c.turn;
                c.npass = 0;
                c.turn = c.turn == 2 ? 0 : c.turn + 1;
                v = o_win(O, &c, sp + n);
            }
        }
        if (v == ours)
            return ours;
    }
    return !ours;
}

/* Every world consistent with the record (sizes, the landlord's bottom, the proofs), and in each
 * whether playing `play` (0 = pass) now wins for the mover's side. Returns the worlds counted;
 * *all_win says whether it won in all of them. */
static int oracle_check(const replay *R, cb_counts play, bool *all_win)
{
    const cb_deal *g = &R->g;
    const cb_rules *r = &R->r;
    int me = g->turn, a = me == 0 ? 1 : 0, c = 3 - me - a;
    cb_cards fixed[3] = {0, 0, 0};
    if (r->game == CB_GAME_DDZ && g->landlord >= 0 && g->landlord != me)
        fixed[g->landlord] = g->bottom & ~g->played;
    cb_cards pool = r->deck & ~g->played & ~g->hands[me] & ~fixed[a] & ~fixed[c];
    int ids[CB_NCARDS], np = 0;
    for (cb_cards x = pool; x; x &= x - 1)
        ids[np++] = __builtin_ctzll(x);
    assert_true(np <= 20);
    int need_a = cb_cards_size(g->hands[a]) - cb_cards_size(fixed[a]);
    oracle O;
    O.r = r;
    for (int s = 0; s < 3; s++)
        O.side[s] = r->game == CB_GAME_DDZ ? ((s == g->landlord) == (me == g->landlord)) : s == me;
    O.cap = 1 << 16;
    O.buf = malloc(sizeof(cb_move) * (size_t)O.cap);
    O.nodes = 0;
    int worlds = 0;
    *all_win = true;
    for (uint32_t mask = 0; mask < (1u << np); mask++) {
        if (__builtin_popcount(mask) != need_a)
            continue;
        cb_cards w[3];
        w[me] = g->hands[me];
        w[a] = fixed[a];
        w[c] = fixed[c];
        for (int i = 0; i < np; i++)
            w[(mask >> i) & 1 ? a : c] |= cb_card_bit(ids[i]);
        bool ok = true;
        for (int i = 0; i < R->np && ok; i++) {
            if (R->pr[i].seat == me)
                continue;
            cb_cards then = w[R->pr[i].seat];
            for (int j = R->pr[i].index; j < g->nhist; j++)
                if (g->hist[j].seat == R->pr[i].seat)
                    then |= g->hist[j].cards;
            cb_ctx ctx;
            memset(&ctx, 0, sizeof ctx);
            ctx.hand = cb_counts_of(then);
            ctx.table = R->pr[i].table.shape != CB_PASS ? &R->pr[i].table : NULL;
            ctx.next_has_one = R->pr[i].next_has_one;
            ok = cb_play_legal(r, &ctx, R->pr[i].play, NULL, NULL, 0);
        }
        if (!ok)
            continue;
        worlds++;
        opos p;
        memset(&p, 0, sizeof p);
        for (int s = 0; s < 3; s++)
            p.h[s] = cb_counts_of(w[s]);
        p.turn = me;
        p.tseat = g->table_seat;
        p.npass = g->npass;
        if (g->table_seat >= 0)
            p.table = g->table;
        cb_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.hand = p.h[me];
        ctx.table = p.tseat >= 0 ? &p.table : NULL;
        ctx.next_has_one = cb_counts_total(p.h[me == 2 ? 0 : me + 1]) == 1;
        cb_move m;
        memset(&m, 0, sizeof m);
        if (play)
            assert_true(cb_play_legal(r, &ctx, play, &m, NULL, 0));
        else
            assert_true(cb_play_legal(r, &ctx, 0, &m, NULL, 0));
        opos q = p;
        bool v;
        if (!play) {
            if (++q.npass >= 2) {
                q.turn = q.tseat;
                q.tseat = -1;
                q.npass = 0;
            } else {
                q.turn = q.turn == 2 ? 0 : q.turn + 1;
            }
            v = o_win(&O, &q, 0);
        } else {
            q.h[me] -= play;
            if (q.h[me] == 0) {
                v = true;
            } else {
                q.table = m;
                q.tseat = me;
                q.npass = 0;
                q.turn = me == 2 ? 0 : me + 1;
                v = o_win(&O, &q, 0);
            }
        }
        if (!v)
            *all_win = false;
    }
    free(O.buf);
    return worlds;
}

/* ---- endgames with a forced win ---- */

typedef struct fixture {
    const char *preset;
    const char *hands[3];
    const char *bottom;
    int landlord;
    const char *actions;
    const char *winners[5]; /* the plays that win in every consistent world ("pass" for a pass) */
    const char *note;
} fixture;

/* Found by playing level-6 heuristic deals from fixed seeds (pdk16 / ddz, seed 77 + game) and
 * keeping positions with at most 10 cards in all hands where some play wins in every world
 * consistent with the record and the heuristic chooses another. */
static const fixture fixtures[] = {
    {"pdk16", {"3c4h4c5h6s6c7s7h9s9h9dTsJhKsKh2s", "3s4s5s5c5d7c7d8h8c8d9cTcJsJdKcAc", "3h3d4d6h6d8sThTdJcQsQhQcQdKdAhAd"}, "", -1,
     "3s4s5s5c5d QsQhQcQd - - 3h3d KsKh - AhAd - - 6h6d 7s7h JsJd - - 8h8c8d9cTc - 3c5h9s9h9d - - 4h4c 7c7d ThTd - - 4d",
     {"T", "J"}, "PDK: the lone 2 is the wrong card to spend now"},
    {"pdk16", {"3s4d5d6h6c7s7c7d9hThTdJhJcQsKd2s", "3h4s4h5h5c6d7h8h8c9sTcJsJdKsKcAh", "3c3d4c5s6s8s8d9c9dTsQhQcQdKhAcAd"}, "", -1,
     "3s4d5d6h7s 6d7h8h9sTc - 9hThJhQsKd - - 7c7d JsJd AcAd - - 4c5sQhQcQd - - 3c3d - 4s4h 8s8d - KsKc - - 5h5c 9c9d - - 6s 2s - - 6c",
     {"8"}, "PDK: only the 8 wins (the heuristic plays the ace)"},
    {"pdk16", {"3s3d4h4c5h6h7s7h7c7d8c9c9dQhKs2s", "3c5s5c6d8s8h8d9hTsJcJdQdKhKcAcAd", "3h4s4d5d6s6c9sThTcTdJsJhQsQcKdAh"}, "", -1,
     "3s4h5h6h7s8c9c 8s9hTsJcQdKhAc - - 5s5c 6s6c 7h7c 8h8d ThTc - - 4s4d - - 9sTdJsQsKdAh - - 3h 4c 6d Jh Ks Ad - 2s - - 3d",
     {"J"}, "PDK: only the jack wins (the heuristic plays the king)"},
    {"ddz", {"4h5d6c7s7h7c8s8d9sTsThJcKcKdAhAdX", "3s3c3d4s5h5c6h6d8c9dTcTdJsJhQcQdAs", "3h4c4d5s6s7d8hJdQsQhKsKhAc2s2c2dD"}, "9h9c2h", 0,
     "4h5d6c7s8s9sTs - - 7h8d9hThJc 8c9dTcJsQc - - 3s3c3d5h5c - - 4s Jd 2h - D - - 3h4c5s6s7d8h - - 4d 7c Td Ac X - - 9c Jh - - 6h6d - KcKd - 2s2c - -",
     {"Q", "K"}, "DDZ farmer: a queen or king, not the 2"},
    {"ddz", {"3s3c3d5c6h6c7h7c8h9s9cThJdQsKsKd2c", "4s5s5h6s7s8c8dTdJsQdKhAhAd2h2dXD", "4h4c5d6d7d8s9h9dTsTcJcQhQcKcAsAc2s"}, "3h4dJh", 0,
     "3s3h3c3d6h7h - - 4d5c6c7c8h9sThJhQsKs XD - - 4s5s6s7s8c - - TdJsQdKhAh - - Ad 2s - - 4h5d6d7d8s9hTs - - 9dTcJcQhKc - - 4c 2c - - 9c 2h - -",
     {"5", "8"}, "DDZ farmer: a low single, not the 2"},
    {"ddz", {"3h3c4d5s5h5c6s7c8hTcJsQsQcAhAd2c2d", "3s4s4h4c6h6c7s7h8c9sTsJhJcQhQdKdAc", "3d5d6d8s8d9c9dThTdJdKhKcAs2s2hXD"}, "7d9hKs", 0,
     "3h4d5s6s7c8h9hTcJsQsKs - - 3c 6h Jd Qc - As - - 8s8d9c9dThTd - - 3d 7d Jh - - 3s4s4h4c - - 6c7s8c9sTsJcQhKdAc - - 7h - 2c - - 5h5c -",
     {"22"}, "DDZ farmer: the rocket must be kept (only the pair of 2s wins)"},
};

static bool in_winners(const fixture *f, const cb_rules *r, cb_cards play)
{
    for (int i = 0; i < 5 && f->winners[i]; i++) {
        if (strcmp(f->winners[i], "pass") == 0) {
            if (!play)
                return true;
            continue;
        }
        cb_counts k;
        assert_int_equal(cb_counts_parse(f->winners[i], r->deck, &k, NULL, 0), 0);
        if (play && cb_counts_of(play) == k)
            return true;
    }
    return false;
}

/* One decision of a fresh instance with these parameters; prints it under `label` and leaves
 * the play's text ("pass" for a pass) in txt[64]. */
static void decide_fixture(const cbt_bot_plugin *a, const cb_view *v, const cb_param *p, int np, const char *label,
                           cb_decision *d, char *txt)
{
    void *inst = cbt_ism_make(a, p, np);
    assert_non_null(inst);
    cbt_dec_init(d);
    assert_int_equal(a->bot->decide_play(inst, v, d), 0);
    if (d->cards)
        cb_cards_format(d->cards, false, txt, 64);
    else
        snprintf(txt, 64, "pass");
    print_message("%-62s -> %-6s %s\n", label, txt, d->explain);
    a->bot->destroy(inst);
}

static void test_endgames(void **state)
{
    const cbt_bot_plugin *a = *state;
    replay *R = malloc(sizeof *R);
    assert_non_null(R);
    for (size_t fi = 0; fi < sizeof fixtures / sizeof fixtures[0]; fi++) {
        const fixture *f = &fixtures[fi];
        replay_record(R, f->preset, f->hands, f->bottom, f->landlord, f->actions);
        /* the oracle: each listed play wins in every consistent world */
        for (int i = 0; i < 5 && f->winners[i]; i++) {
            cb_counts k = 0;
            if (strcmp(f->winners[i], "pass") != 0)
                assert_int_equal(cb_counts_parse(f->winners[i], R->r.deck, &k, NULL, 0), 0);
            bool all = false;
            int worlds = oracle_check(R, k, &all);
            assert_true(worlds >= 1);
            if (!all)
                fail_msg("fixture %zu: %s does not win in every world", fi, f->winners[i]);
        }
        int bids[3] = {1, 0, 0};
        cb_view v;
        cb_deal_view(&R->g, f->landlord >= 0 ? bids : NULL, 1234 + fi, &v);
        v.budget_ms = 0;
        for (int threads = 1; threads <= 2; threads++) {
            char th[16];
            snprintf(th, sizeof th, "%d", threads);
            cb_param p = {"threads", th};
            cb_decision d;
            char txt[64];
            decide_fixture(a, &v, &p, 1, f->note, &d, txt);
            if (!in_winners(f, &R->r, d.cards))
                fail_msg("fixture %zu (%s): ismcts played '%s' (%s)", fi, f->note, txt, d.explain);
            assert_true(d.flags & CB_DEC_ENDGAME);
        }
        /* the search alone (no solver at the root or at the leaves) finds the win as well: the
         * root's sequential halving keeps the better plays (it would lose here if it kept the
         * worse half) */
        cb_param p[2] = {{"endgame", "0"}, {"iterations", "3000"}};
        cb_decision d;
        char txt[64];
        decide_fixture(a, &v, p, 2, "  (search only)", &d, txt);
        if (!in_winners(f, &R->r, d.cards) || !strstr(d.explain, " kept=1/1"))
            fail_msg("fixture %zu (%s), search only: ismcts played '%s' (%s)", fi, f->note, txt, d.explain);
    }
    free(R);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_endgames),
    };
    return cmocka_run_group_tests(tests, cbt_ism_setup, cbt_plugin_teardown);
}

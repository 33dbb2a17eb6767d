/* The ismcts plugin through its ABI: dlopen build/<v>/plugins/ismcts.so (env CB_BUILD, default
 * build/plain); the plugin's own deal helper is reached with dlsym to replay records.
 *
 *  - parameters: defaults, every key, bad values refused with a message naming the key;
 *  - endgames with a forced win: positions from real deals (PDK and DDZ, found by playing
 *    level-6 heuristic deals from fixed seeds and keeping positions where some play wins in
 *    every world consistent with the record while the heuristic plays another), including a
 *    DDZ one where the rocket must be kept. The claim is re-checked here with a plain
 *    minimax over every consistent world (this file's own, independent of the plugin's solver);
 *    ismcts must choose a winning play and say ENDGAME; with the solver off, the search alone
 *    must find one too;
 *  - the root: sequential halving by default (its schedule, the budget kept, the play kept
 *    with one and two threads; UCB with time_ms or root = ucb);
 *  - reproducibility: same view + seed + thread count -> the same decision (1 and 2 threads);
 *  - legality: hundreds of positions of random and heuristic deals (PDK with and without a
 *    包庄 declarer, DDZ landlord and farmers), every answer checked with core's cb_play_legal;
 *  - bidding (包庄 / 叫分), the fallback when no world fits the record, bad views.
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
#include "cardbot/bot.h"
#include "support/randhand.h"
#include "../plugin/common/policy.h"

typedef cbt_bot_plugin api; /* tests/support/botfix.h */

static int setup(void **state)
{
    return cbt_bot_plugin_setup(state, "ismcts");
}

static void *make(const api *a, const cb_param *p, int n)
{
    char err[200] = "";
    void *inst = a->bot->create(p, n, err, sizeof err);
    if (!inst)
        print_error("create: %s\n", err);
    return inst;
}

static void init_dec(cb_decision *d)
{
    memset(d, 0, sizeof *d);
    d->struct_size = sizeof *d;
}

/* ---- parameters ---- */

static void test_entry(void **state)
{
    api *a = *state;
    assert_int_equal(a->bot->abi_version, CB_ABI_VERSION);
    assert_int_equal(a->bot->struct_size, sizeof(cb_bot));
    assert_string_equal(a->bot->name, "ismcts");
    assert_non_null(a->bot->create);
    assert_non_null(a->bot->destroy);
    assert_non_null(a->bot->decide_bid);
    assert_non_null(a->bot->decide_play);
}

static void expect_reject(const api *a, const cb_param *p, int n, const char *named)
{
    char err[200] = "";
    void *inst = a->bot->create(p, n, err, sizeof err);
    if (inst)
        a->bot->destroy(inst);
    assert_null(inst);
    if (!strstr(err, named))
        print_error("message for %s=%s does not name '%s': %s\n", p[n - 1].key, p[n - 1].value, named, err);
    assert_non_null(strstr(err, named));
}

static void reject1(const api *a, const char *key, const char *value)
{
    cb_param p = {key, value};
    expect_reject(a, &p, 1, key);
}

static void test_params(void **state)
{
    api *a = *state;
    void *inst = a->bot->create(NULL, 0, NULL, 0);
    assert_non_null(inst);
    a->bot->destroy(inst);
    const cb_param good[] = {
        {"iterations", "500"}, {"threads", "2"},   {"threshold", "0.8"}, {"bid1", "0.4"},
        {"bid2", "0.5"},       {"bid3", "0.6"},    {"exploration", "1"}, {"rollout", "random"},
        {"seed", "99"},        {"bid_samples", "50"}, {"width", "8"},    {"tree_width", "4"},
        {"partner_width", "2"}, {"opponent_width", "3"}, {"endgame", "0"}, {"opponents", "maxn"},
        {"root", "ucb"},
    };
    inst = make(a, good, (int)(sizeof good / sizeof good[0]));
    assert_non_null(inst);
    a->bot->destroy(inst);
    cb_param t = {"time_ms", "30"};
    inst = make(a, &t, 1);
    assert_non_null(inst);
    a->bot->destroy(inst);

    reject1(a, "iterations", "0");
    reject1(a, "belief_fit", "0");
    reject1(a, "belief_fit", "1.5");
    reject1(a, "belief_fit", "sharp");
    reject1(a, "belief_explained", "-1");
    reject1(a, "belief_explained", "100001");
    reject1(a, "belief_explained", "many");
    reject1(a, "iterations", "many");
    reject1(a, "iterations", "-5");
    reject1(a, "time_ms", "0");
    reject1(a, "time_ms", "1.5");
    reject1(a, "threads", "0");
    reject1(a, "threads", "65");
    reject1(a, "threshold", "1.5");
    reject1(a, "threshold", "high");
    reject1(a, "bid1", "-0.1");
    reject1(a, "bid3", "");
    reject1(a, "exploration", "-1");
    reject1(a, "exploration", "nan");
    reject1(a, "rollout", "minimax");
    reject1(a, "seed", "-1");
    reject1(a, "bid_samples", "0");
    reject1(a, "width", "49");
    reject1(a, "opponent_width", "0");
    reject1(a, "endgame", "x");
    reject1(a, "opponents", "friendly");
    reject1(a, "root", "minimax");
    reject1(a, "depth", "3");
    /* both budgets; thresholds out of order */
    const cb_param both[] = {{"iterations", "100"}, {"time_ms", "10"}};
    expect_reject(a, both, 2, "time_ms");
    const cb_param order[] = {{"bid1", "0.6"}, {"bid2", "0.5"}};
    expect_reject(a, order, 2, "bid2");
    a->bot->destroy(NULL);
}

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

static cb_cards parse(const cb_rules *r, const char *text)
{
    cb_cards c = 0;
    char err[128] = "";
    if (cb_cards_parse(text, r->deck, &c, err, sizeof err) != 0)
        fail_msg("parse '%s': %s", text, err);
    return c;
}

/* Play the actions (space separated, "-" = pass) from the deal; every step is checked by the
 * deal helper (check on); the actual cards (suits) are kept. */
static void replay_record(const api *a, replay *R, const char *preset, const char *const hands[3], const char *bottom,
                          int landlord, const char *actions)
{
    memset(R, 0, sizeof *R);
    assert_int_equal(cb_rules_preset(preset, &R->r), 0);
    R->r.bao = false;
    cb_cards h[3];
    for (int s = 0; s < 3; s++)
        h[s] = parse(&R->r, hands[s]);
    cb_cards b = bottom && *bottom ? parse(&R->r, bottom) : 0;
    if (landlord >= 0)
        h[landlord] |= b;
    R->g.hist = R->hist;
    R->g.hist_cap = 256;
    R->g.check = true;
    a->common.deal_init(&R->g, &R->r, h, -1, landlord, 1, b);
    char buf[2048];
    snprintf(buf, sizeof buf, "%s", actions);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        cb_deal *g = &R->g;
        int s = g->turn, nx = s == 2 ? 0 : s + 1;
        cb_cards c = strcmp(tok, "-") == 0 ? 0 : parse(&R->r, tok);
        cb_ctx ctx;
        a->common.deal_ctx(g, &ctx);
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
        if (a->common.deal_step(g, &m, why, sizeof why) < 0)
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
static void decide_fixture(const api *a, const cb_view *v, const cb_param *p, int np, const char *label,
                           cb_decision *d, char *txt)
{
    void *inst = make(a, p, np);
    assert_non_null(inst);
    init_dec(d);
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
    api *a = *state;
    replay *R = malloc(sizeof *R);
    assert_non_null(R);
    for (size_t fi = 0; fi < sizeof fixtures / sizeof fixtures[0]; fi++) {
        const fixture *f = &fixtures[fi];
        replay_record(a, R, f->preset, f->hands, f->bottom, f->landlord, f->actions);
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
        a->common.deal_view(&R->g, f->landlord >= 0 ? bids : NULL, 1234 + fi, &v);
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

/* ---- positions from deals ---- */

typedef struct player {
    const api *a;
    cb_rules r;
    cb_deal g;
    cb_play_rec hist[400];
    cb_heur_agent heur;
    cb_move moves[CB_MOVES_CAP];
    cbt_rng rng;
} player;

/* A player for the position tests: level-6 heuristic seats, a generator seeded with seed. */
static player *player_new(const api *a, uint64_t seed)
{
    player *P = calloc(1, sizeof *P);
    assert_non_null(P);
    P->a = a;
    a->common.hcfg_level(&P->heur.cfg, 6);
    assert_int_equal(a->common.hws_init(&P->heur.ws), 0);
    cbt_rng_seed(&P->rng, seed);
    return P;
}

static void player_free(player *P)
{
    P->a->common.hws_free(&P->heur.ws);
    free(P);
}

static void start(player *P, int landlord)
{
    cb_cards h[3], b;
    cbt_deal(&P->rng, P->r.deck, P->r.hand_size, h, &b);
    bool ddz = P->r.game == CB_GAME_DDZ;
    if (ddz)
        h[landlord] |= b;
    memset(&P->g, 0, sizeof P->g);
    P->g.hist = P->hist;
    P->g.hist_cap = 400;
    P->g.check = true;
    P->a->common.deal_init(&P->g, &P->r, h, -1, landlord, 1, ddz ? b : 0);
}

static void step_policy(player *P, bool random_play)
{
    cb_move m;
    if (random_play) {
        cb_ctx ctx;
        P->a->common.deal_ctx(&P->g, &ctx);
        int n = cb_legal_moves(&P->r, &ctx, P->moves, CB_MOVES_CAP);
        assert_true(n > 0);
        if (n > CB_MOVES_CAP)
            n = CB_MOVES_CAP;
        m = P->moves[cbt_rng_below(&P->rng, (uint32_t)n)];
    } else {
        assert_int_equal(P->a->common.heur_policy(&P->heur, &P->g, &m), 0);
    }
    char why[120] = "";
    if (P->a->common.deal_step(&P->g, &m, why, sizeof why) < 0)
        fail_msg("policy step: %s", why);
}

/* The answer must be legal where it was asked. */
static void check_legal(player *P, const cb_view *v, const cb_decision *d)
{
    assert_int_equal(d->cards & ~v->hand, 0);
    cb_ctx ctx;
    P->a->common.deal_ctx(&P->g, &ctx);
    char why[120] = "";
    if (!cb_play_legal(&P->r, &ctx, cb_counts_of(d->cards), NULL, why, sizeof why))
        fail_msg("illegal answer (%s): %s", why, d->explain);
}

static void test_reproducible(void **state)
{
    api *a = *state;
    uint64_t seed = cbt_seed(31);
    player *P = player_new(a, seed);
    const char *presets[] = {"pdk16", "ddz"};
    int checked = 0;
    for (int gi = 0; gi < 2; gi++) {
        assert_int_equal(cb_rules_preset(presets[gi], &P->r), 0);
        bool ddz = P->r.game == CB_GAME_DDZ;
        for (int threads = 1; threads <= 2; threads++) {
            char th[16];
            snprintf(th, sizeof th, "%d", threads);
            cb_param p[3] = {{"iterations", "200"}, {"threads", th}, {"seed", "7"}};
            void *i1 = make(a, p, 3), *i2 = make(a, p, 3);
            assert_non_null(i1);
            assert_non_null(i2);
            for (int game = 0; game < 3; game++) {
                start(P, ddz ? 0 : -1);
                int bids[3] = {1, 0, 0};
                while (P->g.winner < 0) {
                    if (cbt_rng_below(&P->rng, 3) == 0) {
                        cb_view v;
                        a->common.deal_view(&P->g, ddz ? bids : NULL, cbt_rng_next(&P->rng), &v);
                        v.budget_ms = 0;
                        cb_decision d1, d2, d3;
                        init_dec(&d1);
                        init_dec(&d2);
                        init_dec(&d3);
                        assert_int_equal(a->bot->decide_play(i1, &v, &d1), 0);
                        assert_int_equal(a->bot->decide_play(i2, &v, &d2), 0);
                        assert_int_equal(a->bot->decide_play(i1, &v, &d3), 0); /* same instance again */
                        assert_true(d1.cards == d2.cards && d1.cards == d3.cards);
                        assert_true(d1.simulations == d2.simulations && d1.simulations == d3.simulations);
                        assert_true((isnan(d1.value) && isnan(d2.value)) || d1.value == d2.value);
                        assert_true(d1.flags == d2.flags);
                        check_legal(P, &v, &d1);
                        checked++;
                    }
                    step_policy(P, false);
                }
            }
            a->bot->destroy(i1);
            a->bot->destroy(i2);
        }
    }
    print_message("seed %llu: %d positions decided three times each\n", (unsigned long long)seed, checked);
    assert_true(checked >= 40);
    player_free(P);
}

static void test_legal_answers(void **state)
{
    api *a = *state;
    uint64_t seed = cbt_seed(57);
    player *P = player_new(a, seed);
    /* a small budget: this is about legality, not strength */
    cb_param p[2] = {{"iterations", "40"}, {"bid_samples", "10"}};
    void *inst = make(a, p, 2);
    cb_param p2[3] = {{"time_ms", "2"}, {"rollout", "random"}, {"threads", "2"}};
    void *inst2 = make(a, p2, 3);
    assert_non_null(inst);
    assert_non_null(inst2);
    static const struct {
        const char *preset;
        int landlord; /* DDZ landlord / PDK 包庄 declarer, -1 none */
    } runs[] = {{"pdk16", -1}, {"pdk16", 1}, {"pdk15", -1}, {"guanpai", -1}, {"ddz", 0}, {"ddz", 2}};
    int answered = 0, endgames = 0;
    for (size_t ri = 0; ri < sizeof runs / sizeof runs[0]; ri++) {
        assert_int_equal(cb_rules_preset(runs[ri].preset, &P->r), 0);
        bool ddz = P->r.game == CB_GAME_DDZ;
        for (int game = 0; game < 8; game++) {
            start(P, runs[ri].landlord);
            bool rnd[3];
            for (int s = 0; s < 3; s++)
                rnd[s] = cbt_rng_below(&P->rng, 2) == 0;
            int bids[3] = {-1, -1, -1};
            if (runs[ri].landlord >= 0)
                for (int s = 0; s < 3; s++)
                    bids[s] = s == runs[ri].landlord ? 1 : 0;
            while (P->g.winner < 0) {
                if (cbt_rng_below(&P->rng, 2) == 0) {
                    cb_view v;
                    a->common.deal_view(&P->g, bids, cbt_rng_next(&P->rng), &v);
                    cb_decision d;
                    init_dec(&d);
                    void *which = cbt_rng_below(&P->rng, 4) == 0 ? inst2 : inst;
                    assert_int_equal(a->bot->decide_play(which, &v, &d), 0);
                    check_legal(P, &v, &d);
                    assert_true(memchr(d.explain, 0, sizeof d.explain) != NULL);
                    if (d.flags & CB_DEC_ENDGAME)
                        endgames++;
                    answered++;
                }
                step_policy(P, rnd[P->g.turn]);
            }
        }
        (void)ddz;
    }
    print_message("seed %llu: %d answers checked with cb_play_legal (%d by the exact endgame)\n",
                  (unsigned long long)seed, answered, endgames);
    assert_true(answered >= 300);
    a->bot->destroy(inst);
    a->bot->destroy(inst2);
    player_free(P);
}

/* ---- the belief pool's size: by game unless given ---- */

/* The pool's size in the explanation of the first searched decision (not forced, not the
 * endgame solver) that inst makes along heuristic play of one deal; -1 when none came. */
static int pool_worlds(player *P, void *inst, bool ddz)
{
    start(P, ddz ? 0 : -1);
    int bids[3] = {1, 0, 0};
    int got = -1;
    while (P->g.winner < 0 && got < 0) {
        if (P->g.nhist >= 6) { /* some record to weigh the worlds by */
            cb_view v;
            P->a->common.deal_view(&P->g, ddz ? bids : NULL, cbt_rng_next(&P->rng), &v);
            v.budget_ms = 0;
            cb_decision d;
            init_dec(&d);
            assert_int_equal(P->a->bot->decide_play(inst, &v, &d), 0);
            const char *w = strstr(d.explain, " worlds=");
            if (strncmp(d.explain, "ismcts v=", 9) == 0 && w)
                got = atoi(w + 8);
        }
        step_policy(P, false);
    }
    return got;
}

static void test_pool_size(void **state)
{
    api *a = *state;
    player *P = player_new(a, cbt_seed(83));
    /* belief_explained = 0: the pool keeps its size (test_belief_explained covers the growth) */
    cb_param dflt[2] = {{"iterations", "50"}, {"belief_explained", "0"}};
    cb_param given[3] = {{"iterations", "50"}, {"belief_explained", "0"}, {"belief_worlds", "123"}};
    const char *presets[] = {"pdk16", "ddz"};
    const int want[] = {3000, 300}; /* the defaults documented in plugin/ismcts/ismcts.c */
    for (int gi = 0; gi < 2; gi++) {
        assert_int_equal(cb_rules_preset(presets[gi], &P->r), 0);
        bool ddz = P->r.game == CB_GAME_DDZ;
        void *i1 = make(a, dflt, 2), *i2 = make(a, given, 3);
        assert_non_null(i1);
        assert_non_null(i2);
        int n1 = -1, n2 = -1;
        for (int deal = 0; deal < 20 && n1 < 0; deal++)
            n1 = pool_worlds(P, i1, ddz);
        for (int deal = 0; deal < 20 && n2 < 0; deal++)
            n2 = pool_worlds(P, i2, ddz);
        print_message("%s: pool of %d worlds by default, %d with belief_worlds = 123\n", presets[gi], n1, n2);
        /* a world the sampler cannot find is skipped, so allow a few missing */
        assert_true(n1 <= want[gi] && n1 >= want[gi] * 9 / 10);
        assert_true(n2 <= 123 && n2 >= 110);
        a->bot->destroy(i1);
        a->bot->destroy(i2);
    }
    player_free(P);
}

/* Along heuristic play of `deals` PDK deals (a player seeded with seed), every view with at
 * least min_hist actions on record is decided by each of the n instances (n <= 3); check sees
 * the n decisions of one view, in the instances' order. */
typedef void (*views_check)(const cb_decision *d, void *ctx);

static void decide_along_play(const api *a, uint64_t seed, int deals, int min_hist, void *const *inst, int n,
                              views_check check, void *ctx)
{
    player *P = player_new(a, seed);
    assert_int_equal(cb_rules_preset("pdk16", &P->r), 0);
    for (int deal = 0; deal < deals; deal++) {
        start(P, -1);
        while (P->g.winner < 0) {
            if (P->g.nhist >= min_hist) {
                cb_view v;
                a->common.deal_view(&P->g, NULL, cbt_rng_next(&P->rng), &v);
                v.budget_ms = 0;
                cb_decision d[3];
                for (int i = 0; i < n; i++) {
                    init_dec(&d[i]);
                    assert_int_equal(a->bot->decide_play(inst[i], &v, &d[i]), 0);
                }
                check(d, ctx);
            }
            step_policy(P, false);
        }
    }
    player_free(P);
}

/* belief_explained (PDK default 100): when fewer worlds of the pool than that explain the
 * record as well as its best one, the pool is built again four times as large. On the same
 * views: with belief_explained = 0 the pool is always belief_worlds (200) worlds; by default
 * it is 800 exactly where that pool had fewer than 100 best-explained worlds, else the same
 * 200 — and it does grow somewhere. */
typedef struct explained_count {
    int grown, kept;
} explained_count;

/* d[0]: the default, d[1]: belief_explained = 0 */
static void check_explained(const cb_decision *d, void *ctx)
{
    explained_count *c = ctx;
    const char *w1 = strstr(d[0].explain, " worlds="), *w0 = strstr(d[1].explain, " worlds=");
    const char *b0 = strstr(d[1].explain, " best="), *m0 = strstr(d[1].explain, " miss=");
    if (strncmp(d[1].explain, "ismcts v=", 9) != 0 || !w1 || !w0 || !b0 || !m0)
        return;
    int n1 = atoi(w1 + 8), n0 = atoi(w0 + 8), best0 = atoi(b0 + 6), dec0 = 0;
    const char *slash = strchr(m0, '/');
    if (slash)
        dec0 = atoi(slash + 1);
    assert_true(n0 <= 200 && n0 >= 180);
    if (dec0 > 0 && best0 < 100) {
        if (n1 <= 4 * 200 && n1 >= 4 * 180)
            c->grown++;
        else
            fail_msg("pool of %d worlds where %d of %d explain the record: %s", n1, best0, n0, d[0].explain);
    } else {
        assert_int_equal(n1, n0);
        c->kept++;
    }
}

static void test_belief_explained(void **state)
{
    api *a = *state;
    cb_param pd[2] = {{"iterations", "20"}, {"belief_worlds", "200"}};
    cb_param p0[3] = {{"iterations", "20"}, {"belief_worlds", "200"}, {"belief_explained", "0"}};
    void *inst[2] = {make(a, pd, 2), make(a, p0, 3)};
    assert_non_null(inst[0]);
    assert_non_null(inst[1]);
    explained_count c = {0, 0};
    decide_along_play(a, cbt_seed(103), 8, 3, inst, 2, check_explained, &c);
    print_message("belief_explained: %d pools grown four times, %d kept\n", c.grown, c.kept);
    assert_true(c.grown > 0);
    assert_true(c.kept > 0);
    a->bot->destroy(inst[0]);
    a->bot->destroy(inst[1]);
}

/* belief_fit is wired: on the same view, the default (0.01 when some world explains every
 * past choice) never leaves a larger effective pool than belief_fit = 0.1 (= belief: off), and
 * a smaller one somewhere; where no world explains everything, the two pools are the same. */
typedef struct fit_count {
    int fitted, sharper, unfitted;
} fit_count;

/* d[0]: the default, d[1]: belief_fit = 0.1 (off) */
static void check_fit(const cb_decision *d, void *ctx)
{
    fit_count *c = ctx;
    const char *e1 = strstr(d[0].explain, " ess="), *e2 = strstr(d[1].explain, " ess=");
    double s1, s2;
    int m1, n1, m2, n2;
    if (!e1 || !e2 || sscanf(e1, " ess=%lf miss=%d/%d", &s1, &m1, &n1) != 3 ||
        sscanf(e2, " ess=%lf miss=%d/%d", &s2, &m2, &n2) != 3)
        return;
    assert_int_equal(m1, m2);
    assert_int_equal(n1, n2);
    if (m1 == 0 && n1 > 0) {
        c->fitted++;
        assert_true(s1 <= s2 + 0.5); /* printed rounded */
        if (s1 < s2 - 0.5)
            c->sharper++;
    } else if (m1 > 0) {
        c->unfitted++;
        assert_true(fabs(s1 - s2) < 0.5);
    }
}

static void test_belief_fit(void **state)
{
    api *a = *state;
    cb_param pf[2] = {{"iterations", "20"}, {"belief_worlds", "200"}};
    cb_param pn[3] = {{"iterations", "20"}, {"belief_worlds", "200"}, {"belief_fit", "0.1"}};
    void *inst[2] = {make(a, pf, 2), make(a, pn, 3)};
    assert_non_null(inst[0]);
    assert_non_null(inst[1]);
    fit_count c = {0, 0, 0};
    decide_along_play(a, cbt_seed(89), 12, 4, inst, 2, check_fit, &c);
    print_message("belief_fit: %d fitted pools (%d sharper than with belief_fit = 0.1), %d not fitted\n", c.fitted,
                  c.sharper, c.unfitted);
    assert_true(c.fitted >= 20);
    assert_true(c.sharper > 0);
    a->bot->destroy(inst[0]);
    a->bot->destroy(inst[1]);
}

/* ---- the opponent model's exactness: level 6's own by default ---- */

/* tree_exact and rollout_exact default to 48 (level 6's count): on the same views the default
 * decides exactly as the keys given at 48 do, and differently from 8 / 4 (the old defaults,
 * under which the model only approximated level 6) somewhere — in the play or its estimate. */
/* Counts for the tests that decide each view with three instances (decide_along_play). */
typedef struct three_count {
    int searched, differ;
} three_count;

/* A searched decision d[0] (a default) is counted and must equal d[1] (the same key given). */
static bool searched_as_given(const cb_decision *d, three_count *c)
{
    if (strncmp(d[0].explain, "ismcts v=", 9) != 0)
        return false;
    c->searched++;
    assert_true(d[0].cards == d[1].cards);
    assert_true(memcmp(&d[0].value, &d[1].value, sizeof d[0].value) == 0);
    return true;
}

/* Three instances from three parameter lists, every view of the play decided by each, then
 * freed. */
static void decide_three(const api *a, uint64_t seed, int deals, int min_hist, const cb_param *const p[3],
                         const int np[3], views_check check, three_count *c)
{
    void *inst[3];
    for (int i = 0; i < 3; i++) {
        inst[i] = make(a, p[i], np[i]);
        assert_non_null(inst[i]);
    }
    decide_along_play(a, seed, deals, min_hist, inst, 3, check, c);
    for (int i = 0; i < 3; i++)
        a->bot->destroy(inst[i]);
}

/* d[0]: the default, d[1]: 48 / 48 given, d[2]: 8 / 4 */
static void check_exact(const cb_decision *d, void *ctx)
{
    three_count *c = ctx;
    if (searched_as_given(d, c) && (d[0].cards != d[2].cards || d[0].value != d[2].value))
        c->differ++;
}

static void test_exact_default(void **state)
{
    api *a = *state;
    cb_param pd[2] = {{"iterations", "60"}, {"belief_worlds", "100"}};
    cb_param p48[4] = {{"iterations", "60"}, {"belief_worlds", "100"}, {"tree_exact", "48"}, {"rollout_exact", "48"}};
    cb_param pold[4] = {{"iterations", "60"}, {"belief_worlds", "100"}, {"tree_exact", "8"}, {"rollout_exact", "4"}};
    three_count c = {0, 0};
    decide_three(a, cbt_seed(97), 6, 3, (const cb_param *const[3]){pd, p48, pold}, (const int[3]){2, 4, 4},
                 check_exact, &c);
    print_message("exact defaults: %d searched decisions, the same as at 48 / 48; %d differ at 8 / 4\n", c.searched,
                  c.differ);
    assert_true(c.searched >= 20);
    assert_true(c.differ > 0);
}

/* ---- the root: sequential halving by default ---- */

/* The visits sequential halving gives the play it keeps (search.c): ceil(log2 k) rounds, each
 * giving every survivor an equal share of what is left for the rounds to come (no round when
 * that share is 0), the better half (rounded up) kept; the last survivor takes what remains.
 * Written here from that description, apart from the plugin's code. */
static uint64_t halving_visits(int k, uint64_t budget)
{
    int rounds = 0;
    while ((1 << rounds) < k)
        rounds++;
    uint64_t used = 0, mine = 0;
    for (int r = 0; r < rounds && k > 1; r++, k = (k + 1) / 2) {
        uint64_t per = (budget > used ? budget - used : 0) / (uint64_t)(rounds - r) / (uint64_t)k;
        if (per == 0)
            break;
        used += per * (uint64_t)k;
        mine += per;
    }
    return mine + (budget > used ? budget - used : 0);
}

/* d[0]: the default, d[1]: root = halving given, d[2]: root = ucb. The searched decisions:
 * the default is halving's; the kept play has halving's visits ("n=", for "cand=k" root
 * plays and the instance's 700 iterations), which UCB's does not always have. */
static void check_root(const cb_decision *d, void *ctx)
{
    three_count *c = ctx;
    if (!searched_as_given(d, c))
        return;
    unsigned long long n = 0, nu = 0;
    int k = 0;
    const char *cand = strstr(d[0].explain, " cand=");
    assert_non_null(cand);
    assert_int_equal(sscanf(d[0].explain, "ismcts v=%*f n=%llu", &n), 1);
    assert_int_equal(sscanf(cand, " cand=%d", &k), 1);
    assert_true(k >= 2);
    if (n != halving_visits(k, 700))
        fail_msg("halving kept a play with %llu visits, not %llu (%d root plays): %s", n,
                 (unsigned long long)halving_visits(k, 700), k, d[0].explain);
    assert_non_null(strstr(d[0].explain, " kept=1/1 ")); /* one thread: the play it kept */
    assert_null(strstr(d[2].explain, " kept="));
    if (strncmp(d[2].explain, "ismcts v=", 9) == 0 && sscanf(d[2].explain, "ismcts v=%*f n=%llu", &nu) == 1 && nu != n)
        c->differ++;
}

/* d[0]: 10 iterations (fewer than the root's plays: no round can give each a world), d[1]:
 * time_ms (halving needs a budget in iterations: the root is UCB's), d[2]: 2 threads. */
static void check_root_budgets(const cb_decision *d, void *ctx)
{
    three_count *c = ctx;
    if (strncmp(d[0].explain, "ismcts v=", 9) != 0)
        return;
    unsigned long long it = 0;
    int k = 0, kept = 0, th = 0;
    const char *itp = strstr(d[0].explain, " it="), *cand = strstr(d[0].explain, " cand=");
    assert_non_null(itp);
    assert_non_null(cand);
    assert_int_equal(sscanf(itp, " it=%llu", &it), 1);
    assert_int_equal(sscanf(cand, " cand=%d", &k), 1);
    assert_true(it <= 10); /* never past the budget */
    if (k > 10) {
        c->searched++;
        assert_int_equal(it, 10);
    }
    if (strncmp(d[1].explain, "ismcts v=", 9) == 0)
        assert_null(strstr(d[1].explain, " kept="));
    if (strncmp(d[2].explain, "ismcts v=", 9) == 0) {
        const char *kp = strstr(d[2].explain, " kept=");
        assert_non_null(kp);
        assert_int_equal(sscanf(kp, " kept=%d/%d", &kept, &th), 2);
        assert_int_equal(th, 2);
        assert_true(kept >= 1); /* the answer is a play some thread kept */
        c->differ += kept == 1;
    }
}

static void test_root_halving(void **state)
{
    api *a = *state;
    cb_param pd[2] = {{"iterations", "700"}, {"belief_worlds", "100"}};
    cb_param ph[3] = {{"iterations", "700"}, {"belief_worlds", "100"}, {"root", "halving"}};
    cb_param pu[3] = {{"iterations", "700"}, {"belief_worlds", "100"}, {"root", "ucb"}};
    three_count c = {0, 0};
    decide_three(a, cbt_seed(107), 4, 2, (const cb_param *const[3]){pd, ph, pu}, (const int[3]){2, 3, 3}, check_root,
                 &c);
    print_message("root: %d searched decisions kept halving's visits; ucb's differ in %d\n", c.searched, c.differ);
    assert_true(c.searched >= 20);
    assert_true(c.differ > c.searched / 2);

    cb_param p10[1] = {{"iterations", "10"}};
    cb_param pt[1] = {{"time_ms", "5"}};
    cb_param p2[3] = {{"iterations", "400"}, {"belief_worlds", "100"}, {"threads", "2"}};
    three_count c2 = {0, 0};
    decide_three(a, cbt_seed(109), 3, 2, (const cb_param *const[3]){p10, pt, p2}, (const int[3]){1, 1, 3},
                 check_root_budgets, &c2);
    print_message("root: %d decisions with more plays than 10 iterations used exactly 10; 2 threads split %d times\n",
                  c2.searched, c2.differ);
    assert_true(c2.searched >= 3);
}

/* ---- bidding ---- */

static int bid(const api *a, void *inst, const cb_rules *r, int seat, int first, const char *hand, const int bids[3],
               cb_decision *d)
{
    cb_view v;
    cbt_view_init(&v, r, CB_PHASE_BID, seat, first, parse(r, hand));
    for (int s = 0; s < 3; s++)
        v.bids[s] = bids[s];
    v.seed = 5;
    init_dec(d);
    assert_int_equal(a->bot->decide_bid(inst, &v, d), 0);
    print_message("%-6s %-22s -> %d  %s\n", r->preset, hand, d->bid, d->explain);
    /* an estimate when deals were sampled (its sample size is in the text), else no value */
    if (strstr(d->explain, "deals"))
        assert_true(d->value >= 0 && d->value <= 1 && d->simulations > 0);
    else
        assert_true(isnan(d->value) && d->bid == 0);
    return d->bid;
}

static void test_bidding(void **state)
{
    api *a = *state;
    cb_rules pdk, ddz;
    assert_int_equal(cb_rules_preset("pdk16", &pdk), 0);
    assert_int_equal(cb_rules_preset("ddz", &ddz), 0);
    cb_param p = {"bid_samples", "120"};
    void *inst = make(a, &p, 1);
    assert_non_null(inst);
    const int none[3] = {-1, -1, -1}, declared[3] = {-1, 1, -1}, three[3] = {-1, 3, -1}, two[3] = {2, -1, -1};
    cb_decision d;
    /* 包庄: the 2, all the aces, three bombs: out first almost surely */
    assert_int_equal(bid(a, inst, &pdk, 0, 1, "2AAAKKKKQQQQJJJJ", none, &d), 1);
    assert_true(d.value >= 0.7f);
    /* scattered low cards: no */
    assert_int_equal(bid(a, inst, &pdk, 0, 0, "3s3h4567899TJQ5h6h7h8h", none, &d), 0);
    /* somebody declared first: the first declaration binds */
    assert_int_equal(bid(a, inst, &pdk, 0, 1, "2AAAKKKKQQQQJJJJ", declared, &d), 0);
    /* 叫分 */
    assert_int_equal(bid(a, inst, &ddz, 0, 0, "XD2222AAKKK345678", none, &d), 3);
    assert_int_equal(bid(a, inst, &ddz, 0, 0, "3s4h5c7d8s9hJcQdKs3h4c6d8h9cTdJs5s", none, &d), 0);
    assert_int_equal(bid(a, inst, &ddz, 0, 0, "XD2222AAKKK345678", three, &d), 0);
    int b = bid(a, inst, &ddz, 1, 0, "XD2222AAKKK345678", two, &d);
    assert_true(b == 0 || b == 3);
    a->bot->destroy(inst);
    /* the thresholds decide */
    cb_param hi = {"threshold", "1"};
    inst = make(a, &hi, 1);
    assert_int_equal(bid(a, inst, &pdk, 0, 1, "3s3h4567899TJQ5h6h7h8h", none, &d), 0);
    a->bot->destroy(inst);
}

/* ---- fallback and bad views ---- */

/* An answer depends on the view and the parameters only: a bid on a fresh instance and on one
 * that has just searched a play (the two share the play-out agent) are the same. */
static void test_bid_stateless(void **state)
{
    api *a = *state;
    cb_param p[3] = {{"bid_samples", "120"}, {"iterations", "60"}, {"belief_worlds", "100"}};
    void *fresh = make(a, p, 3), *used = make(a, p, 3);
    assert_non_null(fresh);
    assert_non_null(used);
    player *P = player_new(a, cbt_seed(107));
    assert_int_equal(cb_rules_preset("pdk16", &P->r), 0);
    int searched = 0;
    while (searched == 0) {
        start(P, -1);
        while (P->g.winner < 0 && searched == 0) {
            if (P->g.nhist >= 3) {
                cb_view v;
                a->common.deal_view(&P->g, NULL, cbt_rng_next(&P->rng), &v);
                v.budget_ms = 0;
                cb_decision d;
                init_dec(&d);
                assert_int_equal(a->bot->decide_play(used, &v, &d), 0);
                searched = strncmp(d.explain, "ismcts v=", 9) == 0;
            }
            step_policy(P, false);
        }
    }
    const int none[3] = {-1, -1, -1};
    const char *hands[] = {"2AAKKQQJJTT99887", "3s3h4567899TJQ5h6h7h8h", "2AAAKKQQJ9988776"};
    for (int i = 0; i < 3; i++) {
        cb_decision d1, d2;
        bid(a, fresh, &P->r, 0, 0, hands[i], none, &d1);
        bid(a, used, &P->r, 0, 0, hands[i], none, &d2);
        assert_int_equal(d1.bid, d2.bid);
        assert_true(memcmp(&d1.value, &d2.value, sizeof d1.value) == 0);
    }
    player_free(P);
    a->bot->destroy(fresh);
    a->bot->destroy(used);
}

static void test_fallback(void **state)
{
    api *a = *state;
    cb_rules r;
    assert_int_equal(cb_rules_preset("pdk16", &r), 0);
    r.spade3_first = false;
    /* seat 0 led the ace of hearts and both others passed (so neither holds a card above an
     * ace), yet the only 2 is unseen: no world fits, the heuristic answers */
    cb_play_rec h[3] = {{parse(&r, "Ah"), 0, 0}, {0, 1, 0}, {0, 2, 0}};
    cb_view v;
    cbt_view_init(&v, &r, CB_PHASE_PLAY, 0, 0, parse(&r, "3s3h4s4h5s5h6s6h7s8h9cTcJcQcKc"));
    v.cards_left[0] = 15;
    v.cards_left[1] = v.cards_left[2] = 16;
    v.history = h;
    v.nhistory = 3;
    v.seed = 3;
    void *inst = make(a, NULL, 0);
    cb_decision d;
    init_dec(&d);
    assert_int_equal(a->bot->decide_play(inst, &v, &d), 0);
    print_message("fallback: %s\n", d.explain);
    assert_non_null(strstr(d.explain, "heuristic"));
    assert_non_null(strstr(d.explain, "no consistent world"));
    cb_ctx ctx = {.hand = cb_counts_of(v.hand)};
    assert_true(d.cards && (d.cards & ~v.hand) == 0);
    assert_true(cb_play_legal(&r, &ctx, cb_counts_of(d.cards), NULL, NULL, 0));
    /* bad views are refused */
    v.rules = NULL;
    assert_int_not_equal(a->bot->decide_play(inst, &v, &d), 0);
    v.rules = &r;
    v.phase = CB_PHASE_BID;
    assert_int_not_equal(a->bot->decide_play(inst, &v, &d), 0);
    v.phase = CB_PHASE_PLAY;
    v.seat = 4;
    assert_int_not_equal(a->bot->decide_play(inst, &v, &d), 0);
    v.seat = 0;
    v.history = NULL;
    assert_int_not_equal(a->bot->decide_play(inst, &v, &d), 0);
    a->bot->destroy(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entry),
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_endgames),
        cmocka_unit_test(test_reproducible),
        cmocka_unit_test(test_legal_answers),
        cmocka_unit_test(test_pool_size),
        cmocka_unit_test(test_belief_fit),
        cmocka_unit_test(test_belief_explained),
        cmocka_unit_test(test_exact_default),
        cmocka_unit_test(test_root_halving),
        cmocka_unit_test(test_bidding),
        cmocka_unit_test(test_bid_stateless),
        cmocka_unit_test(test_fallback),
    };
    return cmocka_run_group_tests(tests, setup, cbt_plugin_teardown);
}

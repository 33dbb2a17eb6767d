/* cardbot tests — the ismcts tests' shared fixture (see ismfix.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "ismfix.h"

int cbt_ism_setup(void **state)
{
    return cbt_bot_plugin_setup(state, "ismcts");
}

void *cbt_ism_make(const cbt_bot_plugin *a, const cb_param *p, int n)
{
    char err[200] = "";
    void *inst = a->bot->create(p, n, err, sizeof err);
    if (!inst)
        print_error("create: %s\n", err);
    return inst;
}

void cbt_dec_init(cb_decision *d)
{
    memset(d, 0, sizeof *d);
    d->struct_size = sizeof *d;
}

cbt_player *cbt_player_new(const cbt_bot_plugin *a, uint64_t seed)
{
    cbt_player *P = calloc(1, sizeof *P);
    assert_non_null(P);
    P->a = a;
    cb_hcfg_level(&P->heur.cfg, 6);
    assert_int_equal(cb_hws_init(&P->heur.ws), 0);
    cbt_rng_seed(&P->rng, seed);
    return P;
}

void cbt_player_free(cbt_player *P)
{
    cb_hws_free(&P->heur.ws);
    free(P);
}

void cbt_player_start(cbt_player *P, int landlord)
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
    cb_deal_init(&P->g, &P->r, h, -1, landlord, 1, ddz ? b : 0);
}

void cbt_player_step(cbt_player *P, bool random_play)
{
    cb_move m;
    if (random_play) {
        cb_ctx ctx;
        cb_deal_ctx(&P->g, &ctx);
        int n = cb_legal_moves(&P->r, &ctx, P->moves, CB_MOVES_CAP);
        assert_true(n > 0);
        if (n > CB_MOVES_CAP)
            n = CB_MOVES_CAP;
        m = P->moves[cbt_rng_below(&P->rng, (uint32_t)n)];
    } else {
        assert_int_equal(cb_heur_deal_policy(&P->heur, &P->g, &m), 0);
    }
    char why[120] = "";
    if (cb_deal_step(&P->g, &m, why, sizeof why) < 0)
        fail_msg("policy step: %s", why);
}

void cbt_player_check_legal(cbt_player *P, const cb_view *v, const cb_decision *d)
{
    assert_int_equal(d->cards & ~v->hand, 0);
    cb_ctx ctx;
    cb_deal_ctx(&P->g, &ctx);
    char why[120] = "";
    if (!cb_play_legal(&P->r, &ctx, cb_counts_of(d->cards), NULL, why, sizeof why))
        fail_msg("illegal answer (%s): %s", why, d->explain);
}

void cbt_decide_along_play(const cbt_bot_plugin *a, uint64_t seed, int deals, int min_hist, void *const *inst, int n,
                           cbt_views_check check, void *ctx)
{
    cbt_player *P = cbt_player_new(a, seed);
    assert_int_equal(cb_rules_preset("pdk16", &P->r), 0);
    for (int deal = 0; deal < deals; deal++) {
        cbt_player_start(P, -1);
        while (P->g.winner < 0) {
            if (P->g.nhist >= min_hist) {
                cb_view v;
                cb_deal_view(&P->g, NULL, cbt_rng_next(&P->rng), &v);
                v.budget_ms = 0;
                cb_decision d[3];
                for (int i = 0; i < n; i++) {
                    cbt_dec_init(&d[i]);
                    assert_int_equal(a->bot->decide_play(inst[i], &v, &d[i]), 0);
                }
                check(d, ctx);
            }
            cbt_player_step(P, false);
        }
    }
    cbt_player_free(P);
}

bool cbt_searched_as_given(const cb_decision *d, cbt_three_count *c)
{
    if (strncmp(d[0].explain, "ismcts v=", 9) != 0)
        return false;
    c->searched++;
    assert_true(d[0].cards == d[1].cards);
    assert_true(memcmp(&d[0].value, &d[1].value, sizeof d[0].value) == 0);
    return true;
}

void cbt_decide_three(const cbt_bot_plugin *a, uint64_t seed, int deals, int min_hist, const cb_param *const p[3],
                      const int np[3], cbt_views_check check, cbt_three_count *c)
{
    void *inst[3];
    for (int i = 0; i < 3; i++) {
        inst[i] = cbt_ism_make(a, p[i], np[i]);
        assert_non_null(inst[i]);
    }
    cbt_decide_along_play(a, seed, deals, min_hist, inst, 3, check, c);
    for (int i = 0; i < 3; i++)
        a->bot->destroy(inst[i]);
}

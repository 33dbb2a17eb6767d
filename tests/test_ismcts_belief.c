/* ismcts's belief pool on positions from heuristic deals: its default size unless
 * belief_worlds is given (and belief_early while many cards are hidden), its growth when
 * belief_explained is given, belief_fit's sharper weights (with inference = fixed), and the
 * inference key: fit by default, belief given meaning fixed, off meaning no pool. Also the
 * other default by situation: DDZ's search budget by side. */
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
#include "../plugin/ismcts/ismcts.h"

/* ---- the belief pool's size: by game and by how much is hidden, unless given ---- */

/* The pool's size in the explanation of the first searched decision (not forced, not the
 * endgame solver) that inst makes along heuristic play of one deal with more than hidden_gt and
 * at most hidden_le cards hidden from the deciding seat; -1 when none came. */
static int pool_worlds(cbt_player *P, void *inst, bool ddz, int hidden_gt, int hidden_le)
{
    cbt_player_start(P, ddz ? 0 : -1);
    int bids[3] = {1, 0, 0};
    int got = -1;
    while (P->g.winner < 0 && got < 0) {
        if (P->g.nhist >= 6) { /* some record to weigh the worlds by */
            cb_view v;
            cb_deal_view(&P->g, ddz ? bids : NULL, cbt_rng_next(&P->rng), &v);
            v.budget_ms = 0;
            int hidden = 0;
            for (int o = 0; o < 3; o++)
                hidden += o == v.seat ? 0 : v.cards_left[o];
            if (hidden > hidden_gt && hidden <= hidden_le) {
                cb_decision d;
                cbt_dec_init(&d);
                assert_int_equal(P->a->bot->decide_play(inst, &v, &d), 0);
                const char *w = strstr(d.explain, " worlds=");
                if (strncmp(d.explain, "ismcts v=", 9) == 0 && w)
                    got = atoi(w + 8);
            }
        }
        cbt_player_step(P, false);
    }
    return got;
}

/* The pool of inst's first searched decision with hidden cards in (gt, le] over up to 20 deals,
 * against want (a world the sampler cannot find is skipped, so a few may be missing). */
static void expect_pool(cbt_player *P, void *inst, bool ddz, int gt, int le, int want, const char *what)
{
    int n = -1;
    for (int deal = 0; deal < 20 && n < 0; deal++)
        n = pool_worlds(P, inst, ddz, gt, le);
    print_message("%s %s, %d-%d cards hidden: pool of %d worlds (want %d)\n", ddz ? "ddz" : "pdk16", what,
                  gt + 1, le, n, want);
    assert_true(n <= want && n >= want * 9 / 10);
}

/* Defaults of plugin/ismcts/ismcts.h (README's table): PDK 3000 worlds throughout (belief_early
 * 0), DDZ 1000 while more than 24 cards are hidden (belief_early 1000) and 3000 after.
 * belief_worlds given sets both in PDK (DDZ: the later pool; 123 < 1000, so the early one too);
 * belief_early = 300 or 50 holds while more than belief_early_hidden (24, or moved) cards are
 * hidden, then the pool is belief_worlds; belief_early = 0 keeps belief_worlds throughout. */
static void test_pool_size(void **state)
{
    const cbt_bot_plugin *a = *state;
    cbt_player *P = cbt_player_new(a, cbt_seed(83));
    /* the pool's size before any growth: belief_explained 0 here (PDK's default grows it,
     * test_belief_explained covers that) */
    cb_param dflt[2] = {{"iterations", "50"}, {"belief_explained", "0"}};
    cb_param given[3] = {{"iterations", "50"}, {"belief_worlds", "123"}, {"belief_explained", "0"}};
    cb_param early300[3] = {{"iterations", "50"}, {"belief_early", "300"}, {"belief_explained", "0"}};
    cb_param early0[3] = {{"iterations", "50"}, {"belief_early", "0"}, {"belief_explained", "0"}};
    const char *presets[] = {"pdk16", "ddz"};
    const int want[] = {3000, 3000};
    for (int gi = 0; gi < 2; gi++) {
        assert_int_equal(cb_rules_preset(presets[gi], &P->r), 0);
        bool ddz = P->r.game == CB_GAME_DDZ;
        void *i1 = cbt_ism_make(a, dflt, 2), *i2 = cbt_ism_make(a, given, 3);
        /* the threshold moved: a PDK seat sees 32 cards hidden at most, a DDZ seat 37 */
        int gt = ddz ? 30 : 20;
        cb_param moved[4] = {{"iterations", "50"}, {"belief_early", "50"},
                             {"belief_early_hidden", ddz ? "30" : "20"}, {"belief_explained", "0"}};
        void *i3 = cbt_ism_make(a, early300, 3), *i4 = cbt_ism_make(a, moved, 4);
        void *i5 = cbt_ism_make(a, early0, 3);
        assert_non_null(i5);
        assert_non_null(i1);
        assert_non_null(i2);
        assert_non_null(i3);
        assert_non_null(i4);
        /* README's table, against plugin/ismcts/ismcts.h */
        int late = want[gi];
        assert_int_equal(late, ddz ? IS_BELIEF_WORLDS_DDZ : IS_BELIEF_WORLDS_PDK);
        int early = ddz ? IS_BELIEF_EARLY_DDZ : IS_BELIEF_EARLY_PDK;
        assert_int_equal(early, ddz ? 1000 : 0);
        expect_pool(P, i1, ddz, 24, 99, early > 0 ? early : late, "default");
        expect_pool(P, i1, ddz, 0, 24, late, "default");
        expect_pool(P, i5, ddz, 24, 99, late, "belief_early = 0");
        expect_pool(P, i5, ddz, 0, 24, late, "belief_early = 0");
        expect_pool(P, i2, ddz, 24, 99, 123, "belief_worlds = 123");
        expect_pool(P, i2, ddz, 0, 24, 123, "belief_worlds = 123");
        expect_pool(P, i3, ddz, 24, 99, 300, "belief_early = 300");
        expect_pool(P, i3, ddz, 0, 24, late, "belief_early = 300");
        expect_pool(P, i4, ddz, gt, 99, 50, "belief_early = 50, threshold moved");
        expect_pool(P, i4, ddz, gt - 6, gt, late, "belief_early = 50, threshold moved");
        a->bot->destroy(i1);
        a->bot->destroy(i2);
        a->bot->destroy(i3);
        a->bot->destroy(i4);
        a->bot->destroy(i5);
    }
    cbt_player_free(P);
}

/* Along heuristic play of `deals` PDK deals (a player seeded with seed), every view with at
 * least min_hist actions on record is decided by each of the n instances (n <= 3); check sees
 * the n decisions of one view, in the instances' order. */
/* belief_explained = 100 (PDK's default; DDZ 0, never): when fewer worlds of the pool than that carry its weight,
 * the pool is built again four times as large. With fixed weights the worlds that carry it are
 * those that explain the record as well as the best one; with fitted weights (the default) the
 * pool's effective sample size. On the same views: with belief_explained = 0 the pool is
 * always belief_worlds (200) worlds; otherwise it is 800 exactly where that pool had fewer
 * than 100 carrying worlds, else the same 200 — and it does grow somewhere. */
typedef struct explained_count {
    bool fit; /* the instances weigh with the fitted model */
    int grown, kept;
} explained_count;

/* d[0]: belief_explained = 100, d[1]: belief_explained = 0 */
static void check_explained(const cb_decision *d, void *ctx)
{
    explained_count *c = ctx;
    const char *w1 = strstr(d[0].explain, " worlds="), *w0 = strstr(d[1].explain, " worlds=");
    const char *b0 = strstr(d[1].explain, " best="), *m0 = strstr(d[1].explain, " miss=");
    const char *e0 = strstr(d[1].explain, " ess=");
    if (strncmp(d[1].explain, "ismcts v=", 9) != 0 || !w1 || !w0 || !b0 || !m0 || !e0)
        return;
    int n1 = atoi(w1 + 8), n0 = atoi(w0 + 8), best0 = atoi(b0 + 6), ess0 = atoi(e0 + 5), dec0 = 0;
    const char *slash = strchr(m0, '/');
    if (slash)
        dec0 = atoi(slash + 1);
    assert_true(n0 <= 200 && n0 >= 180);
    if (c->fit && ess0 == 100)
        return; /* printed rounded: 99.5 .. 100.5 is on either side of the line */
    int carrying = c->fit ? ess0 : best0;
    if (dec0 > 0 && carrying < 100) {
        if (n1 <= 4 * 200 && n1 >= 4 * 180)
            c->grown++;
        else
            fail_msg("pool of %d worlds where %d of %d carry the weight: %s", n1, carrying, n0, d[0].explain);
    } else {
        assert_int_equal(n1, n0);
        c->kept++;
    }
}

static void explained_along_play(const cbt_bot_plugin *a, const char *inference)
{
    cb_param pd[4] = {{"iterations", "20"}, {"belief_worlds", "200"}, {"inference", inference}, {"belief_explained", "100"}};
    cb_param p0[4] = {{"iterations", "20"}, {"belief_worlds", "200"}, {"inference", inference}, {"belief_explained", "0"}};
    void *inst[2] = {cbt_ism_make(a, pd, 4), cbt_ism_make(a, p0, 4)};
    assert_non_null(inst[0]);
    assert_non_null(inst[1]);
    explained_count c = {strcmp(inference, "fit") == 0, 0, 0};
    cbt_decide_along_play(a, cbt_seed(103), 8, 3, inst, 2, check_explained, &c);
    print_message("belief_explained, inference = %s: %d pools grown four times, %d kept\n", inference, c.grown,
                  c.kept);
    assert_true(c.grown > 0);
    assert_true(c.kept > 0);
    a->bot->destroy(inst[0]);
    a->bot->destroy(inst[1]);
}

static void test_belief_explained(void **state)
{
    explained_along_play(*state, "fit");
    explained_along_play(*state, "fixed");
    explained_along_play(*state, "fixed_mix");
}

/* belief_fit is wired: on the same view, inference = fixed (0.01 when some world explains every
 * past choice) never leaves a larger effective pool than belief_fit = 0.1 (= belief: off), and
 * a smaller one somewhere; where no world explains everything, the two pools are the same. */
typedef struct fit_count {
    int fitted, sharper, unfitted;
} fit_count;

/* d[0]: inference = fixed, d[1]: the same with belief_fit = 0.1 (off) */
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
    const cbt_bot_plugin *a = *state;
    cb_param pf[3] = {{"iterations", "20"}, {"belief_worlds", "200"}, {"inference", "fixed"}};
    cb_param pn[4] = {{"iterations", "20"}, {"belief_worlds", "200"}, {"inference", "fixed"}, {"belief_fit", "0.1"}};
    void *inst[2] = {cbt_ism_make(a, pf, 3), cbt_ism_make(a, pn, 4)};
    assert_non_null(inst[0]);
    assert_non_null(inst[1]);
    fit_count c = {0, 0, 0};
    cbt_decide_along_play(a, cbt_seed(89), 12, 4, inst, 2, check_fit, &c);
    print_message("belief_fit: %d fitted pools (%d sharper than with belief_fit = 0.1), %d not fitted\n", c.fitted,
                  c.sharper, c.unfitted);
    assert_true(c.fitted >= 20);
    assert_true(c.sharper > 0);
    a->bot->destroy(inst[0]);
    a->bot->destroy(inst[1]);
}

/* ---- the inference key ---- */

typedef struct infer_count {
    cbt_three_count three;
    int fitted; /* decisions whose explanation shows the fitted mu */
} infer_count;

/* The texts of two explanations past the time (which varies) agree: up to the shorter one's end,
 * as a text that reaches the field's size is cut where the time's digits leave it. */
static void assert_same_past_time(const char *a, const char *b)
{
    const char *x = strstr(a, " cand="), *y = strstr(b, " cand=");
    assert_non_null(x);
    assert_non_null(y);
    size_t n = strlen(x) < strlen(y) ? strlen(x) : strlen(y);
    if (strncmp(x, y, n) != 0)
        fail_msg("explanations differ: '%s' / '%s'", a, b);
}

/* d[0]: the default, d[1]: inference = fixed_mix and opponent_model = fitted given, d[2]:
 * inference = off (PDK views). PDK's default is fixed_mix (the same decisions as given, the rule
 * model's share shown per seat, " r=", in percent, and no fitted mu); off builds no pool. */
static void check_default_fit(const cb_decision *d, void *ctx)
{
    infer_count *c = ctx;
    if (!cbt_searched_as_given(d, &c->three))
        return;
    assert_same_past_time(d[0].explain, d[1].explain);
    assert_null(strstr(d[0].explain, " mu="));
    const char *r = strstr(d[0].explain, " r=");
    double r1, r2;
    if (r && sscanf(r, " r=%lf/%lf", &r1, &r2) == 2) {
        assert_true(r1 >= 0 && r1 <= 100 && r2 >= 0 && r2 <= 100);
        c->fitted++;
    }
    if (strncmp(d[2].explain, "ismcts v=", 9) == 0)
        assert_null(strstr(d[2].explain, " ess="));
}

/* d[0]: inference = fixed, d[1]: the same with belief = 0.1 given (its default), d[2]: belief =
 * 1 given alone (off): the first two decide alike and show no fitted mu; the third builds no
 * pool. */
static void check_fixed(const cb_decision *d, void *ctx)
{
    infer_count *c = ctx;
    if (!cbt_searched_as_given(d, &c->three))
        return;
    assert_same_past_time(d[0].explain, d[1].explain);
    assert_null(strstr(d[0].explain, " mu="));
    if (strstr(d[0].explain, " ess="))
        c->fitted++;
    if (strncmp(d[2].explain, "ismcts v=", 9) == 0)
        assert_null(strstr(d[2].explain, " ess="));
}

typedef struct mix_count {
    cbt_three_count three;
    int shown[2]; /* decisions of d[0] / d[1] whose explanation shows the rule model's share */
    int mu;       /* decisions of d[2] (fit) showing the fitted mu */
} mix_count;

/* d[0]: inference = mix with opponent_model = level6, d[1]: mix with fitted, d[2]: fit (the
 * fitted mu shown, no rule model). */
static void check_mix(const cb_decision *d, void *ctx)
{
    mix_count *c = ctx;
    if (strncmp(d[0].explain, "ismcts v=", 9) != 0 || strncmp(d[1].explain, "ismcts v=", 9) != 0)
        return;
    c->three.searched++;
    for (int i = 0; i < 2; i++) {
        const char *r = strstr(d[i].explain, " r=");
        double a, b;
        if (r && sscanf(r, " r=%lf/%lf", &a, &b) == 2) {
            assert_true(a >= 0 && a <= 100 && b >= 0 && b <= 100);
            c->shown[i]++;
        }
    }
    assert_null(strstr(d[2].explain, " r="));
    const char *mu = strstr(d[2].explain, " mu=");
    double m1, m2;
    if (mu && sscanf(mu, " mu=%lf/%lf", &m1, &m2) == 2) {
        assert_true(m1 >= 0 && m1 <= 0.99 && m2 >= 0 && m2 <= 0.99);
        c->mu++;
    }
}

/* d[0]: inference = fixed_mix, d[1]: fixed_mix with opponent_model = level6, d[2]: fixed: the
 * first two show the rule model's share per seat (the pool weighs both models), fixed shows
 * none, and none shows a fitted mu. */
static void check_fixed_mix(const cb_decision *d, void *ctx)
{
    mix_count *c = ctx;
    if (strncmp(d[0].explain, "ismcts v=", 9) != 0 || strncmp(d[1].explain, "ismcts v=", 9) != 0 ||
        strncmp(d[2].explain, "ismcts v=", 9) != 0)
        return;
    c->three.searched++;
    for (int i = 0; i < 3; i++) {
        assert_null(strstr(d[i].explain, " mu="));
        const char *r = strstr(d[i].explain, " r=");
        double a, b;
        if (i == 2)
            assert_null(r);
        else if (r && sscanf(r, " r=%lf/%lf", &a, &b) == 2) {
            assert_true(a >= 0 && a <= 100 && b >= 0 && b <= 100);
            c->shown[i]++;
        }
    }
}

static void test_inference(void **state)
{
    const cbt_bot_plugin *a = *state;
    /* explanations short enough to hold the mu: a small pool, few iterations */
    cb_param pd[2] = {{"iterations", "20"}, {"belief_worlds", "100"}};
    cb_param pfit[3] = {{"iterations", "20"}, {"belief_worlds", "100"}, {"inference", "fit"}};
    cb_param pgiven[4] = {{"iterations", "20"}, {"belief_worlds", "100"}, {"inference", "fixed_mix"},
                          {"opponent_model", "fitted"}};
    cb_param poff[3] = {{"iterations", "20"}, {"belief_worlds", "100"}, {"inference", "off"}};
    const cb_param *const p1[3] = {pd, pgiven, poff};
    const int n1[3] = {2, 4, 3};
    infer_count c;
    memset(&c, 0, sizeof c);
    cbt_decide_three(a, cbt_seed(107), 4, 4, p1, n1, check_default_fit, &c.three);
    print_message("inference = fixed_mix by default: %d searched decisions, %d showing the rule model's share\n",
                  c.three.searched, c.fitted);
    assert_true(c.three.searched >= 10);
    assert_true(c.fitted >= c.three.searched / 2);

    cb_param pfx[3] = {{"iterations", "20"}, {"belief_worlds", "100"}, {"inference", "fixed"}};
    cb_param pb[4] = {{"iterations", "20"}, {"belief_worlds", "100"}, {"inference", "fixed"}, {"belief", "0.1"}};
    cb_param p1b[3] = {{"iterations", "20"}, {"belief_worlds", "100"}, {"belief", "1"}};
    const cb_param *const p2[3] = {pfx, pb, p1b};
    const int n2[3] = {3, 4, 3};
    memset(&c, 0, sizeof c);
    cbt_decide_three(a, cbt_seed(108), 4, 4, p2, n2, check_fixed, &c.three);
    print_message("inference = fixed: %d searched decisions, %d with a pool\n", c.three.searched, c.fitted);
    assert_true(c.three.searched >= 10);
    assert_true(c.fitted >= c.three.searched / 2);

    /* inference = mix: the rule model's share per seat shown (" r=", in percent); the same with
     * opponent_model = fitted (the search draws each seat's model by it); fit shows none */
    cb_param pmix[4] = {{"iterations", "20"}, {"belief_worlds", "100"}, {"inference", "mix"},
                        {"opponent_model", "level6"}};
    cb_param pmf[4] = {{"iterations", "20"}, {"belief_worlds", "100"}, {"inference", "mix"},
                       {"opponent_model", "fitted"}};
    const cb_param *const p3[3] = {pmix, pmf, pfit};
    const int n3[3] = {4, 4, 3};
    mix_count mc;
    memset(&mc, 0, sizeof mc);
    cbt_decide_three(a, cbt_seed(109), 4, 4, p3, n3, check_mix, &mc.three);
    print_message("inference = mix: %d searched decisions, %d / %d showing the rule model's share (level-6 / "
                  "fitted opponents), fit: %d showing mu\n", mc.three.searched, mc.shown[0], mc.shown[1], mc.mu);
    assert_true(mc.three.searched >= 10);
    assert_true(mc.shown[0] >= mc.three.searched / 2);
    assert_true(mc.shown[1] >= mc.three.searched / 2);
    assert_true(mc.mu >= mc.three.searched / 2);

    cb_param pfm[3] = {{"iterations", "20"}, {"belief_worlds", "100"}, {"inference", "fixed_mix"}};
    cb_param pfm6[4] = {{"iterations", "20"}, {"belief_worlds", "100"}, {"inference", "fixed_mix"},
                        {"opponent_model", "level6"}};
    const cb_param *const p4[3] = {pfm, pfm6, pfx};
    const int n4[3] = {3, 4, 3};
    memset(&mc, 0, sizeof mc);
    cbt_decide_three(a, cbt_seed(110), 4, 4, p4, n4, check_fixed_mix, &mc.three);
    print_message("inference = fixed_mix: %d searched decisions, %d / %d showing the rule model's share\n",
                  mc.three.searched, mc.shown[0], mc.shown[1]);
    assert_true(mc.three.searched >= 10);
    assert_true(mc.shown[0] >= mc.three.searched / 2);
    assert_true(mc.shown[1] >= mc.three.searched / 2);

    /* opponent_model = fitted reads the rule model's fit: given with another inference it is
     * refused; by default it follows inference (fit, off: level 6 in the search) */
    cb_param bad3[2] = {{"inference", "fit"}, {"opponent_model", "fitted"}};
    char err3[200] = "";
    is_params p3p;
    assert_int_equal(is_params_parse(bad3, 2, &p3p, err3, sizeof err3), -1);
    assert_non_null(strstr(err3, "opponent_model"));
    assert_int_equal(is_params_parse(pmf + 2, 2, &p3p, err3, sizeof err3), 0);
    assert_int_equal(p3p.opponent_model, IS_OPPM_FITTED);
    assert_int_equal(is_params_parse(bad3, 1, &p3p, err3, sizeof err3), 0);
    assert_int_equal(is_params_parse(poff + 2, 1, &p3p, err3, sizeof err3), 0);

    /* belief and belief_fit are fixed weights: with inference = fit or off they are refused */
    cb_param bad1[2] = {{"inference", "fit"}, {"belief", "0.1"}};
    cb_param bad2[2] = {{"belief_fit", "0.01"}, {"inference", "off"}};
    cb_param good[2] = {{"inference", "fixed"}, {"belief_fit", "0.001"}};
    char err[200] = "";
    is_params p;
    assert_int_equal(is_params_parse(bad1, 2, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "inference"));
    assert_int_equal(is_params_parse(bad2, 2, &p, err, sizeof err), -1);
    assert_int_equal(is_params_parse(good, 2, &p, err, sizeof err), 0);
    assert_int_equal(p.inference, IS_INFER_FIXED);
    assert_int_equal(is_params_parse(good, 0, &p, err, sizeof err), 0);
    assert_int_equal(p.inference, IS_INFER_BY_GAME); /* PDK fixed_mix, DDZ fit */
    assert_int_equal(is_inference_of(p.inference, false), IS_INFER_FIXED_MIX);
    assert_int_equal(is_inference_of(p.inference, true), IS_INFER_FIT);
    assert_int_equal(p.opponent_model, IS_OPPM_FITTED);
    assert_int_equal(is_params_parse(poff + 2, 1, &p, err, sizeof err), 0);
    assert_true(p.belief == 1); /* off: the pool is not replayed */
    /* belief or belief_fit given alone: the game's fixed weights (PDK fixed_mix, DDZ fixed) */
    assert_int_equal(is_params_parse(pb + 3, 1, &p, err, sizeof err), 0);
    assert_int_equal(p.inference, IS_INFER_FIXED_BY_GAME);
    assert_int_equal(is_inference_of(p.inference, false), IS_INFER_FIXED_MIX);
    assert_int_equal(is_inference_of(p.inference, true), IS_INFER_FIXED);
    assert_true(p.belief == 0.1);
    /* fixed_mix takes the fixed weights and the fitted opponents */
    cb_param fm[3] = {{"inference", "fixed_mix"}, {"belief", "0.2"}, {"opponent_model", "fitted"}};
    assert_int_equal(is_params_parse(fm, 3, &p, err, sizeof err), 0);
    assert_int_equal(p.inference, IS_INFER_FIXED_MIX);
    assert_true(p.belief == 0.2);
    assert_int_equal(p.opponent_model, IS_OPPM_FITTED);
}

/* ---- belief_uniform: a share of the search's worlds drawn uniformly despite the pool ---- */

typedef struct uniform_count {
    cbt_three_count three;
    int pooled;     /* decisions of d[0] that built a pool (" ess=" shown) */
    int half_moved; /* decisions where d[2] (a share of 1/2) differs from d[0] in value or visits */
} uniform_count;

/* The search's part of an explanation: value, visits of the play, iterations ("v=.. n=.. it=..",
 * up to " worlds=", which counts the pool's worlds when there is one). */
static void search_part(const char *e, char *out, size_t n)
{
    const char *w = strstr(e, " worlds=");
    size_t k = w ? (size_t)(w - e) : strlen(e);
    if (k >= n)
        k = n - 1;
    memcpy(out, e, k);
    out[k] = '\0';
}

/* d[0]: belief_uniform = 1, d[1]: inference = off, d[2]: belief_uniform = 0.5 (endgame 0 in all:
 * the exact endgame draws from the pool on its own). With every world uniform (and level 6 for
 * every other seat there, though the pool fits the rule agent to some) the search is that of
 * inference = off — same play, value, visits and iterations — though d[0] still builds its pool;
 * half the worlds from the pool move some decision. */
static void check_uniform(const cb_decision *d, void *ctx)
{
    uniform_count *c = ctx;
    if (strncmp(d[0].explain, "ismcts v=", 9) != 0)
        return;
    c->three.searched++;
    char s0[112], s1[112], s2[112];
    search_part(d[0].explain, s0, sizeof s0);
    search_part(d[1].explain, s1, sizeof s1);
    search_part(d[2].explain, s2, sizeof s2);
    if (d[0].cards != d[1].cards)
        fail_msg("%s | %s", d[0].explain, d[1].explain);
    assert_string_equal(s0, s1);
    assert_null(strstr(d[1].explain, " ess="));
    if (strstr(d[0].explain, " ess="))
        c->pooled++;
    if (strcmp(s0, s2) != 0)
        c->half_moved++;
}

/* d[0]: PDK's default share given, d[1]: not given, d[2]: the same with PDK's default inference
 * (fixed_mix) given: all three decide alike. */
static void check_uniform_zero(const cb_decision *d, void *ctx)
{
    uniform_count *c = ctx;
    if (!cbt_searched_as_given(d, &c->three))
        return;
    char s0[112], s1[112], s2[112];
    search_part(d[0].explain, s0, sizeof s0);
    search_part(d[1].explain, s1, sizeof s1);
    search_part(d[2].explain, s2, sizeof s2);
    assert_string_equal(s0, s1);
    assert_string_equal(s0, s2);
}

static void test_belief_uniform(void **state)
{
    const cbt_bot_plugin *a = *state;
    cb_param p1[4] = {{"iterations", "200"}, {"belief_worlds", "100"}, {"endgame", "0"}, {"belief_uniform", "1"}};
    cb_param poff[4] = {{"iterations", "200"}, {"belief_worlds", "100"}, {"endgame", "0"}, {"inference", "off"}};
    cb_param ph[4] = {{"iterations", "200"}, {"belief_worlds", "100"}, {"endgame", "0"}, {"belief_uniform", "0.5"}};
    const cb_param *const pa[3] = {p1, poff, ph};
    const int na[3] = {4, 4, 4};
    uniform_count c;
    memset(&c, 0, sizeof c);
    cbt_decide_three(a, cbt_seed(113), 4, 4, pa, na, check_uniform, &c.three);
    print_message("belief_uniform = 1: %d searched decisions as inference = off's (%d with a pool); 0.5 moved %d\n",
                  c.three.searched, c.pooled, c.half_moved);
    assert_true(c.three.searched >= 10);
    assert_true(c.pooled >= c.three.searched / 2);
    assert_true(c.half_moved > 0);

    char share[16];
    snprintf(share, sizeof share, "%g", IS_BELIEF_UNIFORM_PDK);
    cb_param p0[4] = {{"iterations", "200"}, {"belief_worlds", "100"}, {"endgame", "0"}, {"belief_uniform", share}};
    cb_param pd[3] = {{"iterations", "200"}, {"belief_worlds", "100"}, {"endgame", "0"}};
    cb_param pm[4] = {{"iterations", "200"}, {"belief_worlds", "100"}, {"endgame", "0"}, {"inference", "fixed_mix"}};
    const cb_param *const pz[3] = {p0, pd, pm};
    const int nz[3] = {4, 3, 4};
    memset(&c, 0, sizeof c);
    cbt_decide_three(a, cbt_seed(114), 4, 4, pz, nz, check_uniform_zero, &c.three);
    print_message("belief_uniform = %s: %d searched decisions as the default's\n", share, c.three.searched);
    assert_true(c.three.searched >= 10);
}

/* ---- the search's budget by side (DDZ): the landlord's default is larger ---- */

/* The iterations of each searched DDZ decision (explanation "it=N") that inst makes along
 * heuristic play of deals until `want` came for the landlord's seat and for a farmer's; with
 * stop_z 0 a search spends its whole budget. Checks every one against the side's budget. */
static void expect_iterations(cbt_player *P, void *inst, int want_landlord, int want_farmer, const char *what)
{
    int seen[2] = {0, 0}; /* [is landlord] */
    for (int deal = 0; deal < 20 && (seen[0] < 3 || seen[1] < 3); deal++) {
        cbt_player_start(P, 0);
        int bids[3] = {1, 0, 0};
        while (P->g.winner < 0) {
            cb_view v;
            cb_deal_view(&P->g, bids, cbt_rng_next(&P->rng), &v);
            v.budget_ms = 0;
            cb_decision d;
            cbt_dec_init(&d);
            assert_int_equal(P->a->bot->decide_play(inst, &v, &d), 0);
            const char *it = strstr(d.explain, " it=");
            if (strncmp(d.explain, "ismcts v=", 9) == 0 && it) {
                int ll = v.seat == v.landlord;
                int want = ll ? want_landlord : want_farmer;
                if (atoi(it + 4) != want)
                    fail_msg("%s: %s seat searched %d iterations, want %d (%s)", what, ll ? "landlord" : "farmer",
                             atoi(it + 4), want, d.explain);
                seen[ll]++;
            }
            cbt_player_step(P, false);
        }
    }
    print_message("ddz %s: %d landlord and %d farmer searches at %d / %d iterations\n", what, seen[1], seen[0],
                  want_landlord, want_farmer);
    assert_true(seen[0] >= 3 && seen[1] >= 3);
}

static void test_iterations_by_side(void **state)
{
    const cbt_bot_plugin *a = *state;
    cbt_player *P = cbt_player_new(a, cbt_seed(84));
    assert_int_equal(cb_rules_preset("ddz", &P->r), 0);
    /* small pools: the budget is what is checked */
    cb_param dflt[2] = {{"stop_z", "0"}, {"belief_worlds", "50"}};
    cb_param given[3] = {{"stop_z", "0"}, {"belief_worlds", "50"}, {"iterations", "700"}};
    void *i1 = cbt_ism_make(a, dflt, 2), *i2 = cbt_ism_make(a, given, 3);
    assert_non_null(i1);
    assert_non_null(i2);
    assert_int_equal(IS_ITERATIONS_DDZ_LANDLORD, 1500);
    assert_int_equal(IS_ITERATIONS_DDZ, 1000);
    expect_iterations(P, i1, IS_ITERATIONS_DDZ_LANDLORD, IS_ITERATIONS_DDZ, "default");
    expect_iterations(P, i2, 700, 700, "iterations = 700");
    a->bot->destroy(i1);
    a->bot->destroy(i2);
    cbt_player_free(P);
}

/* iterations_early: the budget of every searched PDK decision (stop_z 0: spent whole) while more
 * than belief_early_hidden cards are hidden from the seat, iterations after. */
static void expect_iterations_early(cbt_player *P, void *inst, int hidden_gt, int want_early, int want_late,
                                    const char *what)
{
    int seen[2] = {0, 0}; /* [early] */
    for (int deal = 0; deal < 20 && (seen[0] < 3 || seen[1] < 3); deal++) {
        cbt_player_start(P, -1);
        while (P->g.winner < 0) {
            cb_view v;
            cb_deal_view(&P->g, NULL, cbt_rng_next(&P->rng), &v);
            v.budget_ms = 0;
            int hidden = 0;
            for (int o = 0; o < 3; o++)
                hidden += o == v.seat ? 0 : v.cards_left[o];
            cb_decision d;
            cbt_dec_init(&d);
            assert_int_equal(P->a->bot->decide_play(inst, &v, &d), 0);
            const char *it = strstr(d.explain, " it=");
            if (strncmp(d.explain, "ismcts v=", 9) == 0 && it) {
                int early = hidden > hidden_gt;
                int want = early ? want_early : want_late;
                if (atoi(it + 4) != want)
                    fail_msg("%s: %d cards hidden, searched %d iterations, want %d (%s)", what, hidden, atoi(it + 4),
                             want, d.explain);
                seen[early]++;
            }
            cbt_player_step(P, false);
        }
    }
    print_message("pdk16 %s: %d early and %d later searches at %d / %d iterations\n", what, seen[1], seen[0],
                  want_early, want_late);
    assert_true(seen[0] >= 3 && seen[1] >= 3);
}

static void test_iterations_early(void **state)
{
    const cbt_bot_plugin *a = *state;
    cbt_player *P = cbt_player_new(a, cbt_seed(86));
    assert_int_equal(cb_rules_preset("pdk16", &P->r), 0);
    cb_param off[3] = {{"stop_z", "0"}, {"belief_worlds", "50"}, {"iterations", "300"}};
    cb_param on[4] = {{"stop_z", "0"}, {"belief_worlds", "50"}, {"iterations", "300"}, {"iterations_early", "900"}};
    cb_param moved[5] = {{"stop_z", "0"}, {"belief_worlds", "50"}, {"iterations", "300"},
                         {"iterations_early", "900"}, {"belief_early_hidden", "28"}};
    void *i1 = cbt_ism_make(a, off, 3), *i2 = cbt_ism_make(a, on, 4), *i3 = cbt_ism_make(a, moved, 5);
    assert_non_null(i1);
    assert_non_null(i2);
    assert_non_null(i3);
    expect_iterations_early(P, i1, 24, 300, 300, "iterations_early unset");
    expect_iterations_early(P, i2, 24, 900, 300, "iterations_early = 900");
    expect_iterations_early(P, i3, 28, 900, 300, "iterations_early = 900, belief_early_hidden = 28");
    a->bot->destroy(i1);
    a->bot->destroy(i2);
    a->bot->destroy(i3);
    cbt_player_free(P);
}

/* ---- the explanation: whole clauses only ---- */

/* s matches pat: '#' one or more digits, '9' one digit, anything else itself. */
static bool fits(const char *pat, const char *s)
{
    for (; *pat; pat++) {
        if (*pat == '#') {
            if (*s < '0' || *s > '9')
                return false;
            while (*s >= '0' && *s <= '9')
                s++;
        } else if (*pat == '9') {
            if (*s < '0' || *s > '9')
                return false;
            s++;
        } else if (*s++ != *pat) {
            return false;
        }
    }
    return *s == 0;
}

/* Every clause of an ismcts explanation whole: each key's value in its full format. The
 * explanation (cb_decision.explain, 112 bytes) is often too short for every clause, and one
 * that does not fit must be left out, not cut ("mu=0.4"). */
static bool explain_whole(const char *text)
{
    static const struct { const char *key, *pat; } form[] = {
        {"v", "9.99"}, {"n", "#"}, {"it", "#"}, {"worlds", "#"}, {"exact", "#"}, {"cand", "#/#"},
        {"kept", "#/#"}, {"ess", "#"}, {"miss", "#/#"}, {"best", "#"}, {"r", "#/#"}, {"mu", "9.99/9.99"},
        {"beta", "9.99"},
    };
    char copy[sizeof ((cb_decision *)0)->explain + 1], *save = NULL;
    snprintf(copy, sizeof copy, "%s", text);
    char *t = strtok_r(copy, " ", &save);
    bool ok = t && strcmp(t, "ismcts") == 0;
    while (ok && (t = strtok_r(NULL, " ", &save))) {
        char *eq = strchr(t, '=');
        if (!eq) { /* the time, and words */
            ok = fits("#.9ms", t) || strcmp(t, "cut") == 0 || strcmp(t, "bomb") == 0 || strcmp(t, "solved") == 0;
            continue;
        }
        *eq = 0;
        ok = false;
        for (size_t k = 0; k < sizeof form / sizeof form[0]; k++)
            if (strcmp(t, form[k].key) == 0)
                ok = fits(form[k].pat, eq + 1) || (strcmp(t, "v") == 0 && strcmp(eq + 1, "nan") == 0);
    }
    return ok;
}

static void test_explain_whole_clauses(void **state)
{
    const cbt_bot_plugin *a = *state;
    cbt_player *P = cbt_player_new(a, cbt_seed(85));
    assert_int_equal(cb_rules_preset("pdk16", &P->r), 0);
    /* inference = mix: the longest explanation (the rule model's share and the fitted mu) */
    cb_param prm[3] = {{"iterations", "300"}, {"belief_worlds", "100"}, {"inference", "mix"}};
    void *inst = cbt_ism_make(a, prm, 3);
    assert_non_null(inst);
    int searched = 0, full = 0;
    for (int deal = 0; deal < 8; deal++) {
        cbt_player_start(P, -1);
        while (P->g.winner < 0) {
            cb_view v;
            cb_deal_view(&P->g, NULL, cbt_rng_next(&P->rng), &v);
            v.budget_ms = 0;
            cb_decision d;
            cbt_dec_init(&d);
            assert_int_equal(a->bot->decide_play(inst, &v, &d), 0);
            if (strncmp(d.explain, "ismcts v=", 9) == 0) {
                searched++;
                /* the fitted model's clauses did not all fit: the bound was met */
                full += strstr(d.explain, " r=") && !strstr(d.explain, " mu=");
                if (!explain_whole(d.explain))
                    fail_msg("a clause cut: \"%s\"", d.explain);
            }
            cbt_player_step(P, false);
        }
    }
    print_message("%d searched decisions, %d with a clause left out\n", searched, full);
    assert_true(searched >= 20 && full >= 3);
    a->bot->destroy(inst);
    cbt_player_free(P);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pool_size),
        cmocka_unit_test(test_belief_fit),
        cmocka_unit_test(test_belief_explained),
        cmocka_unit_test(test_inference),
        cmocka_unit_test(test_belief_uniform),
        cmocka_unit_test(test_iterations_by_side),
        cmocka_unit_test(test_iterations_early),
        cmocka_unit_test(test_explain_whole_clauses),
    };
    return cmocka_run_group_tests(tests, cbt_ism_setup, cbt_plugin_teardown);
}

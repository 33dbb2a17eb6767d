/* cardbot tests — cb_table_new_seated: a table seated by strategy names (tournaments, lobbies)
 * instead of [seats] / [table.ID]; refused names; what a reload that drops a name does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "cardbot/game.h"
#include "cardbot/shim.h"
#include "support/shimfix.h"

typedef cbt_shimfix fx;

static int group_setup(void **state)
{
    return cbt_shimfix_setup(state, "test_shim_seated", "cbseated-XXXXXX");
}

/* [seats] says lo everywhere: a seated table must not use it */
#define CONF \
    "[game]\nrules = pdk16\n[strategy.lo]\nplugin = lowest\n[strategy.pa]\nplugin = passer\n" \
    "[strategy.lo2]\nplugin = lowest\n[seats]\n0 = lo\n1 = lo\n2 = lo\n"

static uint64_t decisions_of(fx *f, cb_shim *s, const char *name)
{
    cb_strategy_stats st[8];
    int n = f->api.stats(s, st, 8);
    const cb_strategy_stats *x = cbt_stat_of(st, n, name);
    return x ? x->decisions : 0;
}

/* The names seat the table, and each seat's decisions go to its named strategy. */
static void test_seated_by_name(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, CONF);
    cb_shim *s = cbt_open_ok(f, p);
    const char *names[3] = {"lo2", "pa", "lo2"};
    char err[256] = "x";
    cb_table *t = f->api.table_new_seated(s, names, 3, err, sizeof err);
    assert_non_null(t);
    assert_string_equal(err, "");
    for (int i = 0; i < 3; i++)
        assert_string_equal(f->api.table_strategy(t, i), names[i]);
    /* a real game through the seated table: every decision lands on lo2 or pa, none on lo */
    const cb_rules *r = f->api.rules(s);
    cb_engine *e = cbt_engine(r, 7, -1);
    int guard = 0;
    while (cb_engine_phase(e) != CB_PHASE_OVER && guard++ < 400) {
        cb_view v;
        cbt_engine_view(e, &v);
        cb_decision d = CBT_DEC;
        char why[160];
        if (cb_engine_phase(e) == CB_PHASE_BID) {
            assert_true(f->api.decide_bid(t, &v, &d) >= 0);
            assert_int_equal(cb_engine_bid(e, d.bid, why, sizeof why), 0);
        } else {
            assert_true(f->api.decide_play(t, &v, &d) >= 0);
            assert_int_equal(cb_engine_play(e, d.cards, why, sizeof why), 0);
        }
    }
    assert_int_equal(cb_engine_phase(e), CB_PHASE_OVER);
    cb_engine_free(e);
    assert_true(decisions_of(f, s, "lo2") > 0);
    f->api.table_free(t); /* folds the table's counts into the shim's */
    assert_true(decisions_of(f, s, "lo2") > 0);
    assert_true(decisions_of(f, s, "pa") > 0);
    assert_int_equal(decisions_of(f, s, "lo"), 0);
    f->api.free(s);
    g_free(p);
}

/* A name the config lacks and a wrong seat count are refused, naming the seat. */
static void test_seated_refusals(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, CONF);
    cb_shim *s = cbt_open_ok(f, p);
    char err[256];
    const char *bad[3] = {"lo", "nobody", "lo"};
    assert_null(f->api.table_new_seated(s, bad, 3, err, sizeof err));
    assert_non_null(strstr(err, "seat 1"));
    assert_non_null(strstr(err, "nobody"));
    const char *null_name[3] = {"lo", "lo", NULL};
    assert_null(f->api.table_new_seated(s, null_name, 3, err, sizeof err));
    assert_non_null(strstr(err, "seat 2"));
    const char *two[2] = {"lo", "lo"};
    assert_null(f->api.table_new_seated(s, two, 2, err, sizeof err));
    assert_non_null(strstr(err, "2 strategies for a table of 3 seats"));
    assert_null(f->api.table_new_seated(s, NULL, 3, err, sizeof err));
    assert_null(f->api.table_new_seated(NULL, bad, 3, err, sizeof err));
    f->api.free(s);
    g_free(p);
}

/* After a reload that drops a seat's strategy, that seat is the fallback's (no-plugin); the
 * others keep their names. */
static void test_seated_reload(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, CONF);
    cb_shim *s = cbt_open_ok(f, p);
    const char *names[3] = {"pa", "lo2", "lo2"};
    char err[256];
    cb_table *t = f->api.table_new_seated(s, names, 3, err, sizeof err);
    assert_non_null(t);
    char *body = g_strdup_printf("[shim]\nplugin_dir = %s\nfallback = lo\n"
                                 "[game]\nrules = pdk16\n[strategy.lo]\nplugin = lowest\n"
                                 "[strategy.lo2]\nplugin = lowest\n[seats]\n0 = lo\n1 = lo\n2 = lo\n",
                                 f->tplugs);
    cbt_rewrite(p, body);
    g_free(body);
    assert_int_equal(f->api.reload(s, err, sizeof err), 0);
    assert_null(f->api.table_strategy(t, 0));
    assert_string_equal(f->api.table_strategy(t, 1), "lo2");
    const cb_rules *r = f->api.rules(s);
    cb_engine *e = cbt_engine(r, 11, -1);
    while (cb_engine_phase(e) != CB_PHASE_OVER && cb_engine_turn(e) != 0) {
        cb_view v;
        cbt_engine_view(e, &v);
        cb_decision d = CBT_DEC;
        char why[160];
        if (cb_engine_phase(e) == CB_PHASE_BID) {
            assert_true(f->api.decide_bid(t, &v, &d) >= 0);
            assert_int_equal(cb_engine_bid(e, d.bid, why, sizeof why), 0);
        } else {
            assert_true(f->api.decide_play(t, &v, &d) >= 0);
            assert_int_equal(cb_engine_play(e, d.cards, why, sizeof why), 0);
        }
    }
    assert_int_equal(cb_engine_turn(e), 0);
    cb_view v;
    cbt_engine_view(e, &v);
    cb_decision d = CBT_DEC;
    int code = cb_engine_phase(e) == CB_PHASE_BID ? f->api.decide_bid(t, &v, &d) : f->api.decide_play(t, &v, &d);
    assert_int_equal(code, CB_FB_NO_PLUGIN);
    cb_engine_free(e);
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seated_by_name),
        cmocka_unit_test(test_seated_refusals),
        cmocka_unit_test(test_seated_reload),
    };
    return cmocka_run_group_tests(tests, group_setup, cbt_shimfix_teardown);
}

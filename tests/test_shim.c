/* cardbot tests — the shim (libcardbot-shim.so) through its public API, with the
 * fault-injection plugins of tests/plugins/.
 *
 * The shim and the plugins are the built shared objects of one variant: $CB_BUILD (default
 * build/plain)/libcardbot-shim.so, loaded with dlopen exactly as a host in another language
 * would, and $CB_BUILD/tests/plugins/NAME.so. Configs are written to a fresh temp directory.
 * Every config error is checked for the file, the group and the key in its message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "cardbot/game.h"
#include "cardbot/shim.h"
#include "support/shimfix.h"

/* The fixture: the shim, the test plugins, a temp dir for configs (tests/support/shimfix.h). */
typedef cbt_shimfix fx;

static int group_setup(void **state)
{
    return cbt_shimfix_setup(state, "test_shim", "cbshim-XXXXXX");
}

/* ---- config errors ---- */

static void test_missing_file(void **state)
{
    fx *f = *state;
    char *p = g_build_filename(f->tmp, "nope.ini", NULL);
    cbt_expect_open_error(f, p, p, "cannot read", NULL);
    g_free(p);
}

static void test_syntax_error(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_raw(f, "[game]\nrules = pdk16\nthis line has no equals sign\n");
    cbt_expect_open_error(f, p, p, NULL);
    g_free(p);
}

typedef struct err_case {
    const char *body;      /* after the [shim] plugin_dir line */
    const char *needle[3]; /* besides the file name */
} err_case;

static void test_config_errors(void **state)
{
    fx *f = *state;
    static const err_case cases[] = {
        { "[game]\nrules = pdk16\n[foo]\nx = 1\n", { "[foo]", "unknown group" } },
        { "[game]\nrules = pdk16\n[shim]\nbogus = 1\n", { "[shim] bogus", "unknown key" } },
        { "[game]\nrules = pdk16\nplayers = 4\n", { "[game] players", "unknown key" } },
        { "[game]\nrules = pdk17\n", { "[game] rules", "pdk17" } },
        { "[seats]\n", { "[game]", "missing" } },
        { "[game]\n", { "[game] rules", "missing" } },
        { "[game]\nrules = noip2015\n", { "[game] rules", "noip2015" } },
        { "[game]\nrules = pdk16\n[rules]\nmust_beat = maybe\n", { "[rules] must_beat", "maybe" } },
        { "[game]\nrules = pdk16\n[rules]\nno_such_flag = 1\n", { "[rules] no_such_flag" } },
        { "[game]\nrules = pdk16\n[shim]\nbudget_ms = soon\n", { "[shim] budget_ms", "soon" } },
        { "[game]\nrules = pdk16\n[shim]\nbudget_ms = 0\n", { "[shim] budget_ms", "bad value" } },
        { "[game]\nrules = pdk16\n[shim]\nisolation = Process\n", { "[shim] isolation", "(inproc, process)" } },
        { "[game]\nrules = pdk16\n[shim]\nisolation = vm\n", { "[shim] isolation", "'vm'" } },
        { "[game]\nrules = pdk16\n[shim]\nfallback = nobody\n", { "[shim] fallback", "unknown strategy 'nobody'" } },
        { "[game]\nrules = pdk16\n[strategy.lo]\nplugin = lowest\n[seats]\n1 = foo\n",
          { "[seats] 1", "unknown strategy 'foo'" } },
        { "[game]\nrules = pdk16\n[strategy.lo]\nplugin = lowest\n[seats]\n3 = lo\n", { "[seats] 3", "unknown key" } },
        { "[game]\nrules = pdk16\n[strategy.lo]\nplugin = lowest\n[seats]\nnorth = lo\n", { "[seats] north", "unknown key" } },
        { "[game]\nrules = pdk16\n[strategy.lo]\nx = 1\n", { "[strategy.lo] plugin", "missing" } },
        { "[game]\nrules = pdk16\n[strategy.h]\nplugin = nosuch\n", { "[strategy.h] plugin", "cannot load", "/nosuch.so" } },
        { "[game]\nrules = pdk16\n[strategy.h]\nplugin = bad_noentry\n", { "[strategy.h] plugin", "no entry point cb_plugin_entry" } },
        { "[game]\nrules = pdk16\n[strategy.h]\nplugin = bad_abi\n", { "[strategy.h] plugin", "built for ABI 99.0, this shim speaks 1.x" } },
        { "[game]\nrules = pdk16\n[strategy.h]\nplugin = bad_size\n", { "[strategy.h] plugin", "not binary compatible" } },
        { "[game]\nrules = pdk16\n[strategy.lo]\nplugin = lowest\nfoo = 1\n", { "[strategy.lo]", "foo" } },
        { "[game]\nrules = pdk16\n[strategy.lo]\nplugin = lowest\nbid = 9\n", { "[strategy.lo]", "bid", "'9'" } },
        { "[game]\nrules = pdk16\n[strategy.f]\nplugin = failing\ncreate = fail\n", { "[strategy.f]", "create" } },
        { "[game]\nrules = pdk16\n[strategy.]\nplugin = lowest\n", { "[strategy.]", "bad strategy name" } },
        { "[game]\nrules = pdk16\n[strategy.lo]\nplugin = lowest\n[seats]\n0 = lo\n1 = lo\n2 = lo\n"
          "[table.t1]\n0 = zed\n", { "[table.t1] 0", "unknown strategy 'zed'" } },
        { "[game]\nrules = pdk16\n[strategy.lo]\nplugin = lowest\n[seats]\n0 = lo\n1 = lo\n2 = lo\n"
          "[table.t1]\n5 = lo\n", { "[table.t1] 5", "unknown key" } },
        { "[game]\nrules = pdk16\n[strategy.lo]\nplugin = lowest\n[seats]\n0 = lo\n1 = lo\n2 = lo\n"
          "[table.]\n0 = lo\n", { "[table.]", "empty table id" } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *p = cbt_conf_tp(f, "%s", cases[i].body);
        cbt_expect_open_error(f, p, p, cases[i].needle[0] ? cases[i].needle[0] : p,
                              cases[i].needle[1] ? cases[i].needle[1] : p,
                              cases[i].needle[2] ? cases[i].needle[2] : p, NULL);
        g_free(p);
    }
}

/* [match] is the console host's: any key, no complaint; read back through cb_shim_get. */
static void test_match_group_and_get(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, "[game]\nrules = ddz\n[strategy.lo]\nplugin = lowest\n"
                             "[seats]\n0 = lo\n1 = lo\n2 = lo\n[match]\ngames = 200\nanything = goes\n");
    cb_shim *s = cbt_open_ok(f, p);
    assert_string_equal(f->api.get(s, "match", "games"), "200");
    assert_string_equal(f->api.get(s, "game", "rules"), "ddz");
    assert_null(f->api.get(s, "match", "nothing"));
    assert_int_equal(f->api.rules(s)->game, CB_GAME_DDZ);
    f->api.free(s);
    g_free(p);
}

/* No plugin_dir: the directory of the shim library + /plugins. */
static void test_default_plugin_dir(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_raw(f, "[game]\nrules = pdk16\n[strategy.x]\nplugin = no_such_plugin\n");
    char *want = g_build_filename(f->build, "plugins", "no_such_plugin.so", NULL);
    cbt_expect_open_error(f, p, p, "[strategy.x] plugin", want, NULL);
    g_free(want);
    g_free(p);
}

/* A relative plugin_dir is relative to the config file's directory, not to the cwd. */
static void test_relative_plugin_dir(void **state)
{
    fx *f = *state;
    char *link = g_build_filename(f->tmp, "plugs", NULL);
    assert_int_equal(symlink(f->tplugs, link), 0);
    char *p = cbt_conf_raw(f, "[shim]\nplugin_dir = plugs\n[game]\nrules = pdk16\n"
                              "[strategy.lo]\nplugin = lowest\n[seats]\n0 = lo\n1 = lo\n2 = lo\n");
    cb_shim *s = cbt_open_ok(f, p);
    f->api.free(s);
    g_free(p);
    p = cbt_conf_raw(f, "[shim]\nplugin_dir = elsewhere\n[game]\nrules = pdk16\n"
                        "[strategy.lo]\nplugin = lowest\n");
    char *want = g_build_filename(f->tmp, "elsewhere", "lowest.so", NULL);
    cbt_expect_open_error(f, p, p, "[strategy.lo] plugin", want, NULL);
    g_free(want);
    g_free(p);
    g_unlink(link);
    g_free(link);
}

/* ---- decisions and fallbacks ---- */

#define PDK_BASE "[game]\nrules = pdk16\n[strategy.lo]\nplugin = lowest\n"
/* The hand of most play tests: no bomb, no straight, nothing above a K. */
#define H1 "4 5 6 7 9 9 J K"

static void test_illegal_no_fallback(void **state)
{
    fx *f = *state;
    static const char *const modes[] = { "notinhand", "shape", "garbage" };
    for (int k = 0; k < 3; k++) {
        char *p = cbt_conf_tp(f, PDK_BASE "[strategy.bad]\nplugin = illegal\nmode = %s\n"
                                 "[seats]\n0 = bad\n1 = lo\n2 = lo\n", modes[k]);
        cb_shim *s = cbt_open_ok(f, p);
        cb_table *t = cbt_table_ok(f, s, NULL);
        assert_string_equal(f->api.table_strategy(t, 0), "bad");
        const cb_rules *r = f->api.rules(s);
        cbt_vb b;
        cbt_pos_lead(&b, r, 0, H1);
        cb_decision d = CBT_DEC;
        int rc = f->api.decide_play(t, &b.v, &d);
        assert_int_equal(rc, CB_FB_ILLEGAL);
        assert_true(d.flags & CB_DEC_FALLBACK);
        assert_int_equal(d.struct_size, sizeof d);
        cbt_assert_legal(&b.v, &d);
        assert_non_null(strstr(d.explain, "bad"));
        /* following: the safe answer passes when passing is legal (nothing beats a 2 here) */
        cbt_pos_follow(&b, r, 0, H1, "2", 2);
        assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_FB_ILLEGAL);
        assert_int_equal(d.cards, 0);
        cb_strategy_stats st[8];
        int n = f->api.stats(s, st, 8);
        assert_int_equal(n, 2);
        const cb_strategy_stats *sb = cbt_stat_of(st, n, "bad");
        assert_int_equal(sb->decisions, 2);
        assert_int_equal(sb->fallbacks[CB_FB_ILLEGAL], 2);
        assert_int_equal(cbt_stat_of(st, n, "lo")->decisions, 0);
        f->api.table_free(t);
        /* the freed table's counts live on in the shim */
        n = f->api.stats(s, st, 8);
        assert_int_equal(cbt_stat_of(st, n, "bad")->fallbacks[CB_FB_ILLEGAL], 2);
        f->api.free(s);
        g_free(p);
    }
}

static void test_illegal_with_fallback(void **state)
{
    fx *f = *state;
    /* must_beat off: the rules-only answer would pass, the fallback strategy plays */
    char *p = cbt_conf_tp(f, PDK_BASE "[strategy.bad]\nplugin = illegal\n"
                             "[shim]\nfallback = lo\n[rules]\nmust_beat = false\n"
                             "[seats]\n0 = bad\n1 = lo\n2 = lo\n");
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL);
    const cb_rules *r = f->api.rules(s);
    cbt_vb b;
    cbt_pos_follow(&b, r, 0, H1, "3", 2);
    cb_decision d = CBT_DEC;
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_FB_ILLEGAL);
    assert_true(d.flags & CB_DEC_FALLBACK);
    cbt_assert_legal(&b.v, &d);
    assert_true(d.cards != 0); /* lowest plays; the rules-only answer would have passed */
    assert_non_null(strstr(d.explain, "fallback lo"));
    /* the same hand and table asked of seat 1 (lowest itself: seat 2 led the 3, seat 0
     * passed) give the same play */
    cbt_vb b1;
    cbt_pos_follow(&b1, r, 1, H1, "3", 2);
    cb_decision d1 = CBT_DEC;
    assert_int_equal(f->api.decide_play(t, &b1.v, &d1), CB_OK);
    assert_false(d1.flags & CB_DEC_FALLBACK);
    assert_int_equal(d1.cards, d.cards);
    cb_strategy_stats st[8];
    int n = f->api.stats(s, st, 8);
    assert_int_equal(cbt_stat_of(st, n, "bad")->fallbacks[CB_FB_ILLEGAL], 1);
    /* lo answered twice: once seated, once as the fallback */
    assert_int_equal(cbt_stat_of(st, n, "lo")->decisions, 2);
    assert_int_equal(cbt_stat_of(st, n, "lo")->fallbacks[CB_FB_ILLEGAL], 0);
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);
}

/* A fallback strategy that is wrong too: the rules-only answer, the reason of the seat's. */
static void test_fallback_also_wrong(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, PDK_BASE "[strategy.bad]\nplugin = illegal\n[strategy.pass]\nplugin = passer\n"
                             "[shim]\nfallback = pass\n[seats]\n0 = bad\n1 = lo\n2 = lo\n");
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL);
    cbt_vb b;
    cbt_pos_lead(&b, f->api.rules(s), 0, H1);
    cb_decision d = CBT_DEC;
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_FB_ILLEGAL);
    cbt_assert_legal(&b.v, &d);
    assert_non_null(strstr(d.explain, "fallback rules"));
    f->api.table_free(t);
    cb_strategy_stats st[8];
    int n = f->api.stats(s, st, 8);
    assert_int_equal(cbt_stat_of(st, n, "pass")->decisions, 1);
    assert_int_equal(cbt_stat_of(st, n, "pass")->fallbacks[CB_FB_ILLEGAL], 1);
    f->api.free(s);
    g_free(p);
}

static void test_failing(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, PDK_BASE "[strategy.f]\nplugin = failing\n[seats]\n0 = f\n1 = f\n2 = f\n");
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL);
    cbt_vb b;
    cbt_pos_lead(&b, f->api.rules(s), 1, "3 4 5 6 7 9 9 J K");
    cb_decision d = CBT_DEC;
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_FB_FAILED);
    cbt_assert_legal(&b.v, &d);
    assert_true(d.cards != b.v.hand); /* not the plugin's garbage */
    /* 包庄: seat 0 (the spade 3) said no, seat 1 is asked */
    cbt_pos(&b, f->api.rules(s), (const char *[3]){ "3s", "3 4 5 6 7 9 9 J K", NULL }, -1, "0=0");
    assert_int_equal(b.v.seat, 1);
    assert_int_equal(b.v.phase, CB_PHASE_BID);
    assert_int_equal(f->api.decide_bid(t, &b.v, &d), CB_FB_FAILED);
    assert_int_equal(d.bid, 0);
    assert_true(d.flags & CB_DEC_FALLBACK);
    cb_strategy_stats st[8];
    int n = f->api.stats(s, st, 8);
    assert_int_equal(cbt_stat_of(st, n, "f")->fallbacks[CB_FB_FAILED], 2);
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);
}

static void test_passer(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, PDK_BASE "[strategy.p]\nplugin = passer\n[seats]\n0 = p\n1 = p\n2 = p\n");
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL);
    const cb_rules *r = f->api.rules(s);
    cbt_vb b;
    cb_decision d = CBT_DEC;
    /* leading: a pass is never legal */
    cbt_pos_lead(&b, r, 2, H1);
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_FB_ILLEGAL);
    assert_true(d.cards != 0);
    cbt_assert_legal(&b.v, &d);
    /* must_beat and a 9 beats the 8: passing is illegal, the safe answer beats it */
    cbt_pos_follow(&b, r, 2, H1, "8", 1);
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_FB_ILLEGAL);
    assert_true(d.cards != 0);
    cbt_assert_legal(&b.v, &d);
    /* nothing beats the 2: the pass is the plugin's own, legal answer */
    cbt_pos_follow(&b, r, 2, H1, "2", 1);
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_OK);
    assert_int_equal(d.cards, 0);
    assert_false(d.flags & CB_DEC_FALLBACK);
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);
}

static void test_slow(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, PDK_BASE "[shim]\nbudget_ms = 20\n"
                             "[strategy.slow]\nplugin = slow\nsleep_ms = 60\n[seats]\n0 = slow\n1 = lo\n2 = lo\n");
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL);
    cbt_vb b;
    cbt_pos_lead(&b, f->api.rules(s), 0, H1);
    cb_decision d = CBT_DEC;
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_FB_LATE);
    /* in-process: the late but legal answer is used, and it is the strategy's own */
    assert_false(d.flags & CB_DEC_FALLBACK);
    assert_true(d.cards != 0);
    cbt_assert_legal(&b.v, &d);
    cb_strategy_stats st[8];
    int n = f->api.stats(s, st, 8);
    const cb_strategy_stats *ss = cbt_stat_of(st, n, "slow");
    assert_int_equal(ss->fallbacks[CB_FB_LATE], 1);
    assert_true(ss->max_ns >= 60000000u);
    assert_true(ss->total_ns >= ss->max_ns);
    /* a host budget below the config's is the one that counts */
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);
}

/* The PDK first play must hold the spade 3 itself. */
static void test_spade3_first(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, PDK_BASE "[strategy.bad]\nplugin = illegal\nmode = nospade3\n"
                             "[strategy.h3]\nplugin = illegal\nmode = fixed\nplay = 3h\n[seats]\n0 = bad\n1 = lo\n2 = h3\n");
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL);
    const cb_rules *r = f->api.rules(s);
    cbt_vb b;
    cb_decision d = CBT_DEC;
    cbt_pos_first(&b, r, 0, "3s 5 6 7 9 9 J K");
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_FB_ILLEGAL);
    assert_true(d.cards & 1u);
    cbt_assert_legal(&b.v, &d);
    /* not the first play (the spade 3 has gone): the highest single, K, is fine */
    cbt_pos_lead(&b, r, 0, "3h 5 6 7 9 9 J K");
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_OK);
    assert_int_equal(d.cards, cbt_cards(r, "Ks"));
    /* lowest opens the game with the spade 3 */
    cbt_pos_first(&b, r, 1, "3s 5 6 7 9 9 J K");
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_OK);
    assert_true(d.cards & 1u);
    /* a 3, but not the spade 3: the rules by ranks cannot tell, the shim must */
    cbt_pos_first(&b, r, 2, "3s 3h 6 7 9 9 J K");
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_FB_ILLEGAL);
    assert_true(d.cards & 1u);
    assert_non_null(strstr(d.explain, "spade 3"));
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);
}

/* warn_single: the next seat holds one card, so a single must be my highest. */
static void test_warn_single(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, PDK_BASE "[strategy.bad]\nplugin = illegal\nmode = fixed\nplay = 5h\n[seats]\n0 = bad\n1 = lo\n2 = lo\n");
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL);
    const cb_rules *r = f->api.rules(s);
    cbt_vb b;
    cb_decision d = CBT_DEC;
    cbt_pos_lead(&b, r, 0, "5h 7 9 J K");
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_OK); /* nobody is down to one */
    /* Seat 1 down to one card, seat 0 to lead with 5h 7 9 J K: seat 0 opens with 3..Q,
     * seat 1 beats it with 5..A, sheds AA and KK, leads a 4 and keeps one card; seat 2
     * beats the 4 with a 5, seat 0 takes the trick with the 2 (its highest: seat 1 holds
     * one) and leads. */
    static const char *const keep[3] = { "5h 7s 9s Js Ks", NULL, NULL };
    cbt_pos(&b, r, keep, -1,
            "* 0:3s4s5s6s7h8s9hTsJhQs 1:5c6h7c8h9cThJcQhKhAh 2:- 0:- 1:AcAd 2:- 0:- "
            "1:KcKd 2:- 0:- 1:4h 2:5d 0:2s 1:- 2:-");
    assert_int_equal(b.v.seat, 0);
    assert_int_equal(b.v.table_seat, -1);
    assert_int_equal(b.v.cards_left[1], 1);
    assert_int_equal(b.v.hand, cbt_cards(r, keep[0]));
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_FB_ILLEGAL);
    cbt_assert_legal(&b.v, &d);
    assert_int_equal(d.cards, cbt_cards(r, "Ks"));
    /* the seat after next down to one does not count: the same, with seats 1 and 2 swapped
     * (seat 2 beats the opening, sheds, leads the 4, which seat 0 takes with the 2) */
    cbt_pos(&b, r, keep, -1,
            "* 0:3s4s5s6s7h8s9hTsJhQs 1:- 2:5c6h7c8h9cThJcQhKhAh 0:- 1:- 2:AcAd 0:- 1:- "
            "2:KcKd 0:- 1:- 2:4h 0:2s 1:- 2:-");
    assert_int_equal(b.v.seat, 0);
    assert_int_equal(b.v.table_seat, -1);
    assert_int_equal(b.v.cards_left[2], 1);
    assert_true(b.v.cards_left[1] > 1);
    assert_int_equal(b.v.hand, cbt_cards(r, keep[0]));
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_OK);
    assert_int_equal(d.cards, cbt_cards(r, "5h"));
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);
}

/* short_triple = last: a triple with one kicker only as the hand's last play. */
static void test_short_triple(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, PDK_BASE "[strategy.bad]\nplugin = illegal\nmode = fixed\nplay = 3h3c3d4h\n"
                             "[seats]\n0 = bad\n1 = lo\n2 = lo\n");
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL);
    cbt_vb b;
    cb_decision d = CBT_DEC;
    cbt_pos_lead(&b, f->api.rules(s), 0, "3h 3c 3d 4h 9");
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_FB_ILLEGAL);
    cbt_assert_legal(&b.v, &d);
    cbt_pos_lead(&b, f->api.rules(s), 0, "3h 3c 3d 4h");
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_OK);
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);
}

/* Malformed views: CB_ERR_VIEW (or CB_ERR_ARG), the plugin never asked. Each case breaks one
 * member of a real view: seat 0 holding H1 follows a 3 that seat 2 led (history: seat 0's
 * opening straight, a pass, seat 2's higher straight, two passes, the 3). */
static void test_bad_views(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, PDK_BASE "[seats]\n0 = lo\n1 = lo\n2 = lo\n");
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL);
    const cb_rules *r = f->api.rules(s);
    cbt_vb base, b;
    cb_decision d = CBT_DEC;
    cbt_pos_follow(&base, r, 0, H1, "3", 2);
    const int last = base.v.nhistory - 1;
    assert_int_equal(base.hist[last].cards, base.v.table);
    assert_int_equal(base.hist[0].seat, 0);
    /* three cards no shape holds, none of them seen: a 3, a 4 and a 7 */
    cb_cards noshape = cbt_unseen(&base.v, CB_RANK_3) | cbt_unseen(&base.v, CB_RANK_4) |
                       cbt_unseen(&base.v, CB_RANK_7);
    assert_int_equal(cb_cards_size(noshape), 3);
    enum { N = 16 };
    for (int k = 0; k < N; k++) {
        cbt_vb_copy(&b, &base);
        cb_view *v = &b.v;
        int want = CB_ERR_VIEW;
        switch (k) {
        case 0: v->struct_size = 16; break;
        case 1: v->abi_version = 2u << 16; break;
        case 2: v->seat = 3; break;
        case 3: v->seat = -1; break;
        case 4: v->cards_left[0] = 7; break;                  /* hand holds 8 */
        case 5: v->phase = CB_PHASE_BID; break;
        case 6: v->table = cbt_cards(r, "4s"); b.hist[last].cards = v->table; break; /* in my hand */
        case 7: v->hand |= cb_card_bit(CB_CARD_X); v->cards_left[0]++; break; /* not in the deck */
        case 8: b.hist[0].cards |= cbt_cards(r, "Ks"); break; /* a played card still in my hand */
        case 9: v->table_seat = 0; break;                     /* beating my own play */
        case 10: v->nseats = 2; break;
        case 11: /* seat 2 led three cards of no shape (its count agrees) */
            v->table = b.hist[last].cards = noshape;
            v->cards_left[2] -= 2;
            break;
        case 12: v->history = NULL; break;
        case 13: b.hist[0].seat = 5; break;
        case 14: v->cards_left[2] = -1; break;
        case 15: want = CB_ERR_ARG; break;
        }
        int rc = k == 15 ? f->api.decide_play(t, NULL, &d) : f->api.decide_play(t, v, &d);
        if (rc != want)
            fail_msg("bad view case %d: %d (%s), want %d", k, rc, f->api.strerror(rc), want);
        if (f->api.last_error(t)[0] == '\0')
            fail_msg("bad view case %d: refused without a reason", k);
    }
    assert_int_equal(f->api.decide_play(NULL, &base.v, &d), CB_ERR_ARG);
    assert_int_equal(f->api.decide_play(t, &base.v, NULL), CB_ERR_ARG);
    /* a play view to decide_bid, a bid view (包庄, before anyone answered) to decide_play */
    assert_int_equal(f->api.decide_bid(t, &base.v, &d), CB_ERR_VIEW);
    cbt_pos(&b, r, NULL, -1, "");
    assert_int_equal(b.v.phase, CB_PHASE_BID);
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_ERR_VIEW);
    cb_strategy_stats st[4];
    int n = f->api.stats(s, st, 4);
    assert_int_equal(cbt_stat_of(st, n, "lo")->decisions, 0);
    /* and the good view after all that (nothing above was changed in it) */
    assert_int_equal(f->api.decide_play(t, &base.v, &d), CB_OK);
    /* view->rules NULL: the config's rules */
    base.v.rules = NULL;
    assert_int_equal(f->api.decide_play(t, &base.v, &d), CB_OK);
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);
}

static void test_bids(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, "[game]\nrules = ddz\n[strategy.two]\nplugin = lowest\nbid = 2\n"
                             "[strategy.bad]\nplugin = illegal\n[strategy.zero]\nplugin = lowest\n"
                             "[seats]\n0 = two\n1 = bad\n2 = zero\n");
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL);
    const cb_rules *r = f->api.rules(s);
    /* seat 0's hand; the others' are dealt at random */
    const char *const keep[3] = { "3 4 5 6 7 8 9 T J Q K A 2 X D 3 4", NULL, NULL };
    cbt_vb b;
    cb_decision d = CBT_DEC;
    cbt_pos(&b, r, keep, 0, "");         /* seat 0 bids first */
    assert_int_equal(b.v.seat, 0);
    assert_int_equal(f->api.decide_bid(t, &b.v, &d), CB_OK);
    assert_int_equal(d.bid, 2);
    assert_int_equal(d.cards, 0);
    cbt_pos(&b, r, keep, 1, "1=1 2=0"); /* 2 tops 1 */
    assert_int_equal(b.v.seat, 0);
    assert_int_equal(f->api.decide_bid(t, &b.v, &d), CB_OK);
    assert_int_equal(d.bid, 2);
    cbt_pos(&b, r, keep, 1, "1=0 2=2"); /* 2 does not top 2 */
    assert_int_equal(b.v.seat, 0);
    assert_int_equal(f->api.decide_bid(t, &b.v, &d), CB_FB_ILLEGAL);
    assert_int_equal(d.bid, 0);
    assert_true(d.flags & CB_DEC_FALLBACK);
    cbt_pos(&b, r, keep, 0, "0=1");
    assert_int_equal(b.v.seat, 1);
    assert_int_equal(f->api.decide_bid(t, &b.v, &d), CB_FB_ILLEGAL); /* 7 */
    assert_int_equal(d.bid, 0);
    cbt_pos(&b, r, keep, 0, "0=2 1=0"); /* (a 3 would have ended the bidding) */
    assert_int_equal(b.v.seat, 2);
    assert_int_equal(f->api.decide_bid(t, &b.v, &d), CB_OK);
    assert_int_equal(d.bid, 0);
    b.v.cards_left[2] = 5; /* hand size vs cards_left is checked */
    assert_int_equal(f->api.decide_bid(t, &b.v, &d), CB_ERR_VIEW);
    assert_non_null(strstr(f->api.last_error(t), "cards_left[2]"));
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);

    /* PDK 包庄: 1 only when bao is on and nobody declared. Views where it is not (no bidding
     * at all; a seat asked after a declaration ended the bidding) are no real positions: the
     * shim refuses them before the strategy is asked. */
    for (int bao = 0; bao < 2; bao++) {
        p = cbt_conf_tp(f, "[game]\nrules = pdk16\n[rules]\nbao = %s\n"
                           "[strategy.one]\nplugin = lowest\nbid = 1\n[strategy.zero]\nplugin = lowest\n"
                           "[seats]\n0 = one\n1 = zero\n2 = zero\n",
                        bao ? "true" : "false");
        s = cbt_open_ok(f, p);
        t = cbt_table_ok(f, s, NULL);
        r = f->api.rules(s);
        if (!bao) {
            /* the first play, asked as a bid: no bidding in these rules */
            cbt_pos_first(&b, r, 0, "3s " H1);
            b.v.phase = CB_PHASE_BID;
            assert_int_equal(f->api.decide_bid(t, &b.v, &d), CB_ERR_VIEW);
            assert_int_equal(strncmp(f->api.last_error(t), "phase", 5), 0);
        } else {
            /* seat 0 holds the spade 3: asked first */
            cbt_pos(&b, r, (const char *[3]){ "3s " H1, NULL, NULL }, -1, "");
            assert_int_equal(b.v.seat, 0);
            assert_int_equal(f->api.decide_bid(t, &b.v, &d), CB_OK);
            assert_int_equal(d.bid, 1);
            /* seat 1 asked first, declared: the bidding is over, seat 2 is not asked */
            cbt_pos(&b, r, (const char *[3]){ NULL, "3s", NULL }, -1, "");
            assert_int_equal(b.v.seat, 1);
            b.v.bids[1] = 1;
            b.v.seat = 2;
            b.v.hand = r->deck & ~b.v.hand; /* 16 of the cards seat 1 does not hold */
            while (cb_cards_size(b.v.hand) > b.v.cards_left[2])
                b.v.hand &= b.v.hand - 1;
            assert_int_equal(f->api.decide_bid(t, &b.v, &d), CB_ERR_VIEW);
            assert_non_null(strstr(f->api.last_error(t), "ended the bidding"));
        }
        cb_strategy_stats st[4];
        int n = f->api.stats(s, st, 4);
        assert_int_equal(cbt_stat_of(st, n, "one")->decisions, bao ? 1 : 0);
        f->api.table_free(t);
        f->api.free(s);
        g_free(p);
    }
}

/* ---- tables, reload, stats ---- */

static void test_table_overrides(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, PDK_BASE "[strategy.p]\nplugin = passer\n[seats]\n0 = lo\n1 = lo\n2 = lo\n"
                             "[table.t1]\n1 = p\n[table.t2]\n0 = p\n2 = p\n");
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t1 = cbt_table_ok(f, s, "t1"), *t2 = cbt_table_ok(f, s, "t2"), *t3 = cbt_table_ok(f, s, "t3"),
             *t0 = cbt_table_ok(f, s, NULL);
    assert_string_equal(f->api.table_strategy(t1, 0), "lo");
    assert_string_equal(f->api.table_strategy(t1, 1), "p");
    assert_string_equal(f->api.table_strategy(t1, 2), "lo");
    assert_string_equal(f->api.table_strategy(t2, 0), "p");
    assert_string_equal(f->api.table_strategy(t2, 1), "lo");
    assert_string_equal(f->api.table_strategy(t2, 2), "p");
    for (int i = 0; i < 3; i++) {
        assert_string_equal(f->api.table_strategy(t3, i), "lo");
        assert_string_equal(f->api.table_strategy(t0, i), "lo");
    }
    assert_null(f->api.table_strategy(t0, 3));
    cbt_vb b;
    cb_decision d = CBT_DEC;
    cbt_pos_lead(&b, f->api.rules(s), 1, H1);
    assert_int_equal(f->api.decide_play(t1, &b.v, &d), CB_FB_ILLEGAL); /* the passer leads */
    assert_int_equal(f->api.decide_play(t3, &b.v, &d), CB_OK);
    f->api.table_free(t0);
    f->api.table_free(t1);
    f->api.table_free(t2);
    f->api.table_free(t3);
    f->api.free(s);
    g_free(p);
}

/* create() failing after the check at open: cb_table_new fails with the file and group; on a
 * reload switch the seat is left without an instance and answered by the rules. */
static void test_table_create_fails(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, PDK_BASE "[strategy.f]\nplugin = failing\ncreate = env\n[seats]\n0 = lo\n1 = lo\n2 = f\n");
    g_unsetenv("CB_TEST_FAIL_CREATE");
    cb_shim *s = cbt_open_ok(f, p);
    char err[1024] = "";
    g_setenv("CB_TEST_FAIL_CREATE", "1", TRUE);
    assert_null(f->api.table_new(s, "x", err, sizeof err));
    assert_non_null(strstr(err, p));
    assert_non_null(strstr(err, "[strategy.f]"));
    assert_non_null(strstr(err, "CB_TEST_FAIL_CREATE"));
    /* a reload checks create() too, and keeps the old config */
    assert_int_equal(f->api.reload(s, err, sizeof err), -1);
    assert_non_null(strstr(err, "[strategy.f]"));
    g_unsetenv("CB_TEST_FAIL_CREATE");
    cb_table *t = cbt_table_ok(f, s, NULL);
    assert_int_equal(f->api.reload(s, err, sizeof err), 0);
    g_setenv("CB_TEST_FAIL_CREATE", "1", TRUE);
    cbt_vb b;
    cb_decision d = CBT_DEC;
    cbt_pos_lead(&b, f->api.rules(s), 2, H1);
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_FB_NO_PLUGIN);
    cbt_assert_legal(&b.v, &d);
    g_unsetenv("CB_TEST_FAIL_CREATE");
    cbt_pos_lead(&b, f->api.rules(s), 0, H1);
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_OK);
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);
}

static void test_reload(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, PDK_BASE "[strategy.bad]\nplugin = illegal\n[seats]\n0 = bad\n1 = lo\n2 = lo\n"
                             "[match]\ngames = 10\n");
    char *good2 = g_strdup_printf("[shim]\nplugin_dir = %s\n" PDK_BASE
                                  "[strategy.bad]\nplugin = illegal\n[seats]\n0 = lo\n1 = bad\n2 = lo\n"
                                  "[match]\ngames = 20\n", f->tplugs);
    char *broken = g_strdup_printf("[shim]\nplugin_dir = %s\n" PDK_BASE "[seats]\n0 = nobody\n1 = lo\n2 = lo\n", f->tplugs);
    char *other_rules = g_strdup_printf("[shim]\nplugin_dir = %s\n" PDK_BASE "[rules]\nmust_beat = false\n"
                                        "[seats]\n0 = lo\n1 = lo\n2 = lo\n", f->tplugs);
    cb_shim *s = cbt_open_ok(f, p);
    const cb_rules *r = f->api.rules(s);
    cb_table *t = cbt_table_ok(f, s, NULL);
    cbt_vb b;
    cb_decision d = CBT_DEC;
    cbt_pos_lead(&b, r, 0, H1);
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_FB_ILLEGAL);

    /* a broken file: -1, a message naming it, the old config keeps running */
    char err[1024] = "";
    cbt_rewrite(p, broken);
    assert_int_equal(f->api.reload(s, err, sizeof err), -1);
    assert_non_null(strstr(err, p));
    assert_non_null(strstr(err, "[seats] 0"));
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_FB_ILLEGAL);
    assert_string_equal(f->api.table_strategy(t, 0), "bad");
    assert_string_equal(f->api.get(s, "match", "games"), "10");
    /* a missing file, likewise */
    g_unlink(p);
    assert_int_equal(f->api.reload(s, err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot read"));
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_FB_ILLEGAL);
    /* other rules: refused, the rules pointer stays valid and unchanged */
    cbt_rewrite(p, other_rules);
    assert_int_equal(f->api.reload(s, err, sizeof err), -1);
    assert_non_null(strstr(err, "[game] rules"));
    assert_true(f->api.rules(s) == r);
    assert_true(r->must_beat);

    /* a good change: the live table switches at its next decision, a new table at once */
    cbt_rewrite(p, good2);
    assert_int_equal(f->api.reload(s, err, sizeof err), 0);
    assert_string_equal(f->api.get(s, "match", "games"), "20");
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_OK);
    assert_string_equal(f->api.table_strategy(t, 0), "lo");
    assert_string_equal(f->api.table_strategy(t, 1), "bad");
    cb_table *t2 = cbt_table_ok(f, s, NULL);
    assert_string_equal(f->api.table_strategy(t2, 0), "lo");
    /* statistics survive the switch */
    cb_strategy_stats st[8];
    int n = f->api.stats(s, st, 8);
    assert_int_equal(cbt_stat_of(st, n, "bad")->decisions, 3);
    assert_int_equal(cbt_stat_of(st, n, "bad")->fallbacks[CB_FB_ILLEGAL], 3);
    assert_int_equal(cbt_stat_of(st, n, "lo")->decisions, 1);
    /* the shim may be freed before its tables: they keep it alive */
    f->api.free(s);
    assert_int_equal(f->api.decide_play(t2, &b.v, &d), CB_OK);
    f->api.table_free(t);
    f->api.table_free(t2);
    g_free(good2);
    g_free(broken);
    g_free(other_rules);
    g_free(p);
}

/* Threads: one table per thread, reloads and stats from the main thread meanwhile. Run under
 * ASan / TSan this shows the locking; here it checks that no decision is lost. */
typedef struct worker {
    fx *f;
    cb_shim *s;
    int seat;
    const cb_view *view; /* built by the main thread: the fixture's checks fail the test there */
    gint *stop;
    int done;
    int bad;
} worker;

static gpointer work(gpointer data)
{
    worker *w = data;
    char err[256];
    cb_table *t = w->f->api.table_new(w->s, w->seat == 1 ? "t1" : NULL, err, sizeof err);
    if (!t) {
        w->bad = -1;
        return NULL;
    }
    cb_decision d = CBT_DEC;
    while (!g_atomic_int_get(w->stop)) {
        int rc = w->f->api.decide_play(t, w->view, &d);
        if (rc != CB_OK || d.cards == 0)
            w->bad++;
        w->done++;
    }
    w->f->api.table_free(t);
    return NULL;
}

static void test_threads(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, PDK_BASE "[strategy.lo2]\nplugin = lowest\n[seats]\n0 = lo\n1 = lo\n2 = lo\n");
    char *alt = g_strdup_printf("[shim]\nplugin_dir = %s\n" PDK_BASE
                                "[strategy.lo2]\nplugin = lowest\n[seats]\n0 = lo2\n1 = lo2\n2 = lo\n",
                                f->tplugs);
    char *orig = NULL;
    assert_true(g_file_get_contents(p, &orig, NULL, NULL));
    cb_shim *s = cbt_open_ok(f, p);
    enum { NT = 4 };
    /* each seat follows a 3 from the seat before it: "lowest" beats it */
    cbt_vb views[3];
    for (int seat = 0; seat < 3; seat++)
        cbt_pos_follow(&views[seat], f->api.rules(s), seat, H1, "3", (seat + 2) % 3);
    gint stop = 0;
    worker w[NT];
    GThread *th[NT];
    for (int i = 0; i < NT; i++) {
        w[i] = (worker){ f, s, i % 3, &views[i % 3].v, &stop, 0, 0 };
        th[i] = g_thread_new("w", work, &w[i]);
    }
    char err[512];
    cb_strategy_stats st[8];
    for (int k = 0; k < 20; k++) {
        g_usleep(2000);
        cbt_rewrite(p, k % 2 ? orig : alt);
        assert_int_equal(f->api.reload(s, err, sizeof err), 0);
        (void)f->api.stats(s, st, 8);
    }
    g_usleep(2000);
    g_atomic_int_set(&stop, 1);
    uint64_t done = 0;
    for (int i = 0; i < NT; i++) {
        g_thread_join(th[i]);
        assert_int_equal(w[i].bad, 0);
        done += (uint64_t)w[i].done;
    }
    int n = f->api.stats(s, st, 8);
    uint64_t total = 0;
    for (int i = 0; i < n; i++)
        total += st[i].decisions;
    assert_int_equal(total, done);
    /* the tables did switch between the two seatings while they ran */
    assert_true(cbt_stat_of(st, n, "lo2")->decisions > 0);
    assert_true(cbt_stat_of(st, n, "lo")->decisions > 0);
    f->api.free(s);
    g_free(orig);
    g_free(alt);
    g_free(p);
}

/* ---- the host's side of the ABI: view and decision sizes, refusal reasons ---- */

/* viewecho (tests/plugins/viewecho.c) at every seat: it reports the view it was given. */
#define ECHO_CONF(rules, flags) \
    "[game]\nrules = " rules "\n[rules]\n" flags "[strategy.e]\nplugin = viewecho\n[seats]\n0 = e\n1 = e\n2 = e\n"

static int decide_v(fx *f, cb_table *t, const cb_view *v, cb_decision *d)
{
    /* a 1.0 view's phase is within its size: readable */
    return v->phase == CB_PHASE_BID ? f->api.decide_bid(t, v, d) : f->api.decide_play(t, v, d);
}

static cb_decision echo_of(fx *f, cb_table *t, const cb_view *v)
{
    cb_decision d = CBT_DEC;
    int rc = decide_v(f, t, v, &d);
    if (rc != CB_OK)
        fail_msg("decide: %d (%s) %s", rc, f->api.strerror(rc), rc < 0 ? f->api.last_error(t) : d.explain);
    return d;
}

/* What viewecho saw of first_bidder and first_seat. */
static int seen_fb(const cb_decision *d) { return (int)(int64_t)d->simulations - 100; }
static int seen_fs(const cb_decision *d) { return (int)(int64_t)d->nodes - 100; }

/* The 1.1 view v and its 1.0 form give the plugin the same view but for abi_version (the
 * host's, kept), and the 1.0 form is read no further than its size (a guard page). */
static void same_as_1_0(fx *f, cb_table *t, const cb_view *v, int want_fb, int want_fs)
{
    cb_decision d11 = echo_of(f, t, v);
    assert_int_equal(seen_fb(&d11), want_fb);
    assert_int_equal(seen_fs(&d11), want_fs);
    cb_view *old = cbt_view_1_0(v);
    cb_decision d10 = echo_of(f, t, old);
    /* rules NULL (the table's): the upgrade must still know the game */
    old->rules = NULL;
    cb_decision d10n = echo_of(f, t, old);
    cbt_view_1_0_free(old);
    if (seen_fb(&d10) != want_fb || seen_fs(&d10) != want_fs)
        fail_msg("1.0 view: the plugin saw first_bidder %d first_seat %d, expected %d %d (%s)",
                 seen_fb(&d10), seen_fs(&d10), want_fb, want_fs, d10.explain);
    if (seen_fb(&d10n) != want_fb || seen_fs(&d10n) != want_fs)
        fail_msg("1.0 view, rules NULL: the plugin saw first_bidder %d first_seat %d, expected %d %d",
                 seen_fb(&d10n), seen_fs(&d10n), want_fb, want_fs);
    assert_int_equal(d10.cards, d11.cards);
    assert_int_equal(d10.minhands_before, d11.minhands_before);
    assert_int_equal(d10.minhands_after, d11.minhands_after);
    char want[160];
    snprintf(want, sizeof want, "ss=%zu abi=1.0 ", sizeof(cb_view));
    if (strncmp(d10.explain, want, strlen(want)) != 0)
        fail_msg("1.0 view reached the plugin as \"%s\", expected \"%s...\"", d10.explain, want);
    /* the rest of the echo is the same */
    assert_string_equal(strstr(d10.explain, " fb="), strstr(d11.explain, " fb="));
}

/* A deal whose first leader is not seat 0 (so a zeroed first_bidder would show). */
static cb_engine *deal_not_seat0(const cb_rules *r)
{
    for (uint64_t key = 1; key < 100; key++) {
        cb_engine *e = cbt_engine(r, key, -1);
        if (cb_engine_first_seat(e) > 0)
            return e;
        cb_engine_free(e);
    }
    fail_msg("no deal with a first leader other than seat 0");
    return NULL;
}

/* A view from a host built against ABI 1.0 is accepted and upgraded as cb_view_upgrade says:
 * PDK with 包庄 -> first_bidder = first_seat; without -> -1; DDZ -> first_bidder = the 1.0
 * first_seat, first_seat = the landlord (-1 while bidding). */
static void test_view_1_0(void **state)
{
    fx *f = *state;
    /* PDK, 包庄 on: the bidding view, then the play after everybody declined */
    char *p = cbt_conf_tp(f, ECHO_CONF("pdk16", "bao = true\n"));
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL);
    cb_engine *e = deal_not_seat0(f->api.rules(s));
    int first = cb_engine_first_seat(e);
    cb_view v;
    cbt_engine_view(e, &v);
    assert_int_equal(v.phase, CB_PHASE_BID);
    same_as_1_0(f, t, &v, first, first);
    char err[160];
    for (int k = 0; k < 3; k++)
        assert_int_equal(cb_engine_bid(e, 0, err, sizeof err), 0);
    cbt_engine_view(e, &v);
    assert_int_equal(v.phase, CB_PHASE_PLAY);
    same_as_1_0(f, t, &v, first, first);
    cb_engine_free(e);
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);

    /* PDK without 包庄: no bidding, first_bidder -1 (not a zero from the missing bytes) */
    p = cbt_conf_tp(f, ECHO_CONF("pdk16", "bao = false\n"));
    s = cbt_open_ok(f, p);
    t = cbt_table_ok(f, s, NULL);
    e = deal_not_seat0(f->api.rules(s));
    cbt_engine_view(e, &v);
    assert_int_equal(v.phase, CB_PHASE_PLAY);
    same_as_1_0(f, t, &v, -1, cb_engine_first_seat(e));
    cb_engine_free(e);
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);

    /* DDZ: seat 1 bids first and passes, seat 2 bids 3 and is landlord */
    p = cbt_conf_tp(f, ECHO_CONF("ddz", ""));
    s = cbt_open_ok(f, p);
    t = cbt_table_ok(f, s, NULL);
    e = cbt_engine(f->api.rules(s), 3, 1);
    cbt_engine_view(e, &v);
    assert_int_equal(v.phase, CB_PHASE_BID);
    assert_int_equal(v.seat, 1);
    same_as_1_0(f, t, &v, 1, -1);
    assert_int_equal(cb_engine_bid(e, 0, err, sizeof err), 0);
    assert_int_equal(cb_engine_bid(e, 3, err, sizeof err), 0);
    cbt_engine_view(e, &v);
    assert_int_equal(v.phase, CB_PHASE_PLAY);
    assert_int_equal(v.landlord, 2);
    same_as_1_0(f, t, &v, 1, 2);

    /* smaller than a 1.0 view: refused, naming struct_size */
    cb_decision d = CBT_DEC;
    cb_view small = v;
    small.struct_size = CB_VIEW_SIZE_1_0 - 8;
    assert_int_equal(f->api.decide_play(t, &small, &d), CB_ERR_VIEW);
    assert_non_null(strstr(f->api.last_error(t), "struct_size"));
    small.struct_size = 0;
    assert_int_equal(f->api.decide_play(t, &small, &d), CB_ERR_VIEW);
    assert_int_equal(strncmp(f->api.last_error(t), "struct_size", 11), 0);
    /* larger (a newer host): the members this shim knows, at its own size */
    union { cb_view v; unsigned char b[sizeof(cb_view) + 32]; } big;
    memset(&big, 0x5A, sizeof big);
    big.v = v;
    big.v.struct_size = sizeof big;
    d = echo_of(f, t, &big.v);
    char want[32];
    snprintf(want, sizeof want, "ss=%zu ", sizeof(cb_view));
    assert_int_equal(strncmp(d.explain, want, strlen(want)), 0);
    assert_int_equal(seen_fb(&d), 1);
    cb_engine_free(e);
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);
}

/* out->struct_size: the shim writes that many bytes and not one more. */
static void test_decision_sizes(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, ECHO_CONF("pdk16", "bao = false\n") "[strategy.p]\nplugin = passer\n"
                             "[table.pass]\n0 = p\n1 = p\n2 = p\n");
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL), *tp = cbt_table_ok(f, s, "pass");
    cb_engine *e = cbt_engine(f->api.rules(s), 5, -1);
    cb_view v;
    cbt_engine_view(e, &v); /* the first play: a lead, which the passer gets wrong */
    cb_decision full = echo_of(f, t, &v);
    assert_int_equal(full.struct_size, sizeof full);
    assert_true(strlen(full.explain) > 20);
    union { cb_decision d; unsigned char b[sizeof(cb_decision) + 64]; } u;
    const size_t at = offsetof(cb_decision, explain);
    static const struct { uint32_t asked; size_t written; } sizes[] = {
        { offsetof(cb_decision, explain) + 10, offsetof(cb_decision, explain) + 10 },
        { offsetof(cb_decision, explain), offsetof(cb_decision, explain) },
        { offsetof(cb_decision, explain) + 1, offsetof(cb_decision, explain) + 1 },
        { 0, sizeof(cb_decision) },                        /* 0 = the 1.0 size */
        { sizeof(cb_decision), sizeof(cb_decision) },
        { sizeof(cb_decision) + 64, sizeof(cb_decision) }, /* a newer host */
    };
    for (int fb = 0; fb < 2; fb++) {
        cb_table *tt = fb ? tp : t;
        int want_rc = fb ? CB_FB_ILLEGAL : CB_OK;
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            memset(&u, 0xA5, sizeof u);
            u.d.struct_size = sizes[k].asked;
            int rc = f->api.decide_play(tt, &v, &u.d);
            if (rc != want_rc)
                fail_msg("size %u: %d (%s)", (unsigned)sizes[k].asked, rc, f->api.last_error(tt));
            size_t n = sizes[k].written;
            assert_int_equal(u.d.struct_size, n);
            for (size_t i = n; i < sizeof u; i++)
                if (u.b[i] != 0xA5)
                    fail_msg("size %u: byte %zu beyond the %zu written was changed", (unsigned)sizes[k].asked, i, n);
            assert_int_equal(u.d.cards, fb ? u.d.cards : full.cards);
            cbt_assert_legal(&v, &u.d);
            assert_int_equal(!!(u.d.flags & CB_DEC_FALLBACK), fb);
            if (n > at) /* the text, cut at the size, still ends inside it */
                assert_non_null(memchr(u.d.explain, '\0', n - at));
            if (!fb && n > at + 10)
                assert_string_equal(u.d.explain, full.explain);
            if (!fb && n == at + 10)
                assert_int_equal(strncmp(u.d.explain, full.explain, 9), 0);
        }
    }
    /* below the smallest: CB_ERR_ARG, nothing written at all */
    static const uint32_t bad[] = { 1, 4, sizeof(uint32_t) * 2, offsetof(cb_decision, explain) - 1 };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        memset(&u, 0xA5, sizeof u);
        u.d.struct_size = bad[k];
        assert_int_equal(f->api.decide_play(t, &v, &u.d), CB_ERR_ARG);
        assert_int_equal(strncmp(f->api.last_error(t), "out->struct_size", 16), 0);
        assert_int_equal(u.d.struct_size, bad[k]);
        for (size_t i = sizeof u.d.struct_size; i < sizeof u; i++)
            assert_int_equal(u.b[i], 0xA5);
    }
    cb_engine_free(e);
    f->api.table_free(t);
    f->api.table_free(tp);
    f->api.free(s);
    g_free(p);
}

/* cb_table_last_error: the field of a refused call, "" after a good one. */
static void test_last_error(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, ECHO_CONF("pdk16", "bao = false\n"));
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL);
    const cb_rules *r = f->api.rules(s);
    assert_string_equal(f->api.last_error(t), "");
    assert_non_null(f->api.last_error(NULL));
    cb_engine *e = cbt_engine(r, 9, -1);
    cb_view v, w;
    cbt_engine_view(e, &v);
    cb_decision d = CBT_DEC;
    assert_int_equal(f->api.decide_play(t, &v, &d), CB_OK);
    assert_string_equal(f->api.last_error(t), "");

    /* rules that differ from the table's, in one flag or in the preset */
    cb_rules other = *r;
    other.must_beat = !other.must_beat;
    w = v;
    w.rules = &other;
    assert_int_equal(f->api.decide_play(t, &w, &d), CB_ERR_VIEW);
    assert_int_equal(strncmp(f->api.last_error(t), "rules: ", 7), 0);
    assert_non_null(strstr(f->api.last_error(t), "must_beat"));
    assert_int_equal(cb_rules_preset("pdk15", &other), 0);
    assert_int_equal(f->api.decide_play(t, &w, &d), CB_ERR_VIEW);
    assert_int_equal(strncmp(f->api.last_error(t), "rules: ", 7), 0);
    assert_non_null(strstr(f->api.last_error(t), "pdk15"));
    /* equal rules at another address are the table's */
    other = *r;
    assert_int_equal(f->api.decide_play(t, &w, &d), CB_OK);
    assert_string_equal(f->api.last_error(t), "");
    /* the seat count */
    w = v;
    w.nseats = 2;
    assert_int_equal(f->api.decide_play(t, &w, &d), CB_ERR_VIEW);
    assert_int_equal(strncmp(f->api.last_error(t), "nseats: 2", 9), 0);
    /* the view check's own reasons name the field too */
    w = v;
    w.cards_left[(w.seat + 1) % 3]--;
    assert_int_equal(f->api.decide_play(t, &w, &d), CB_ERR_VIEW);
    assert_non_null(strstr(f->api.last_error(t), "cards_left"));
    w = v;
    assert_int_equal(f->api.decide_bid(t, &w, &d), CB_ERR_VIEW);
    assert_true(f->api.last_error(t)[0] != '\0');
    /* arguments */
    assert_int_equal(f->api.decide_play(t, NULL, &d), CB_ERR_ARG);
    assert_int_equal(strncmp(f->api.last_error(t), "view", 4), 0);
    assert_int_equal(f->api.decide_play(t, &v, NULL), CB_ERR_ARG);
    assert_int_equal(strncmp(f->api.last_error(t), "out", 3), 0);
    /* the next good call clears it */
    assert_int_equal(f->api.decide_play(t, &v, &d), CB_OK);
    assert_string_equal(f->api.last_error(t), "");
    /* nothing refused was counted */
    cb_strategy_stats st[4];
    int n = f->api.stats(s, st, 4);
    assert_int_equal(cbt_stat_of(st, n, "e")->decisions, 3);
    cb_engine_free(e);
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);
}

/* ---- the shim's answers are always legal; impossible views are refused by name ---- */

/* "failing" at every seat and no [shim] fallback: every answer is the rules-only one. Whole
 * games of the engine, every bid and play asked of the shim and handed to the engine, which
 * must take it; every game must end. Returns the decisions made. */
static long fallback_games(fx *f, const char *label, const char *preset, const char *flags, int ngames)
{
    char *p = cbt_conf_tp(f, "[game]\nrules = %s\n[rules]\n%s"
                             "[strategy.f]\nplugin = failing\n[seats]\n0 = f\n1 = f\n2 = f\n",
                          preset, flags);
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL);
    const cb_rules *r = f->api.rules(s);
    long total = 0;
    char err[160], txt[64];
    for (int g = 0; g < ngames; g++) {
        cb_engine *e = cbt_engine(r, 7000 + (uint64_t)g, -1);
        for (int step = 0; cb_engine_phase(e) != CB_PHASE_OVER; step++) {
            /* a DDZ game is at most 17 redeals of 3 to 7 bids and 54 plays with passes */
            if (step > 1000)
                fail_msg("%s game %d: not over after %d actions", label, g, step);
            cb_view v;
            cbt_engine_view(e, &v);
            cb_decision d = CBT_DEC;
            bool bid = v.phase == CB_PHASE_BID;
            int rc = bid ? f->api.decide_bid(t, &v, &d) : f->api.decide_play(t, &v, &d);
            if (rc != CB_FB_FAILED)
                fail_msg("%s game %d action %d: %d (%s)", label, g, step, rc,
                         rc < 0 ? f->api.last_error(t) : d.explain);
            assert_true(d.flags & CB_DEC_FALLBACK);
            assert_non_null(strstr(d.explain, "fallback rules"));
            if (bid ? cb_engine_bid(e, d.bid, err, sizeof err) != 0
                    : cb_engine_play(e, d.cards, err, sizeof err) != 0) {
                cb_cards_format(d.cards, true, txt, sizeof txt);
                fail_msg("%s game %d action %d: the shim answered %s %s, the engine refuses it: %s",
                         label, g, step, bid ? "bid" : "play", bid ? "" : txt, err);
            }
            total++;
        }
        assert_true(cb_engine_winner(e) >= 0);
        cb_engine_free(e);
    }
    cb_strategy_stats st[4];
    int n = f->api.stats(s, st, 4);
    assert_int_equal(cbt_stat_of(st, n, "f")->decisions, (uint64_t)total);
    assert_int_equal(cbt_stat_of(st, n, "f")->fallbacks[CB_FB_FAILED], (uint64_t)total);
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);
    return total;
}

static void test_fallback_always_legal(void **state)
{
    fx *f = *state;
    static const struct { const char *label, *preset, *flags; } games[] = {
        { "pdk16", "pdk16", "" }, { "pdk15", "pdk15", "" }, { "guanpai", "guanpai", "" },
        { "ddz", "ddz", "" }, { "ddz rob", "ddz", "rob = true\n" },
    };
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        long n = fallback_games(f, games[i].label, games[i].preset, games[i].flags, 300);
        printf("    %s: 300 games, %ld rules-only answers, all legal\n", games[i].label, n);
    }

    /* the old hole: following (table set) with no history while holding the spade 3 — the
     * first-play rule and a table at once, which no game produces: refused, the field named */
    char *p = cbt_conf_tp(f, PDK_BASE "[strategy.f]\nplugin = failing\n[seats]\n0 = f\n1 = f\n2 = f\n");
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL);
    const cb_rules *r = f->api.rules(s);
    cbt_vb b;
    cb_decision d = CBT_DEC;
    cbt_pos_first(&b, r, 0, "3s " H1);
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_FB_FAILED);
    assert_true(d.cards & 1u);
    b.v.table = cbt_unseen(&b.v, CB_RANK_4);
    b.v.table_seat = 2;
    memset(&d, 0xA5, sizeof d);
    d.struct_size = sizeof d;
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_ERR_VIEW);
    if (strncmp(f->api.last_error(t), "table", 5) != 0)
        fail_msg("the reason \"%s\" does not name table", f->api.last_error(t));
    assert_int_equal(d.flags, 0xA5A5A5A5u); /* out untouched */
    cb_strategy_stats st[4];
    int n = f->api.stats(s, st, 4);
    assert_int_equal(cbt_stat_of(st, n, "f")->decisions, 1);
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);
}

/* The view must be refused with CB_ERR_VIEW and a reason that starts with field. */
static void refused_naming(fx *f, cb_table *t, const cb_view *v, const char *field, const char *what)
{
    cb_decision d = CBT_DEC;
    int rc = v->phase == CB_PHASE_BID ? f->api.decide_bid(t, v, &d) : f->api.decide_play(t, v, &d);
    if (rc != CB_ERR_VIEW)
        fail_msg("%s: %d (%s), not refused", what, rc, rc >= 0 ? d.explain : f->api.last_error(t));
    if (strncmp(f->api.last_error(t), field, strlen(field)) != 0)
        fail_msg("%s: the reason \"%s\" does not name %s", what, f->api.last_error(t), field);
    if (getenv("CB_VERBOSE"))
        printf("    %s: %s\n", what, f->api.last_error(t));
}

static int decide_ok(fx *f, cb_table *t, const cb_view *v)
{
    cb_decision d = CBT_DEC;
    return v->phase == CB_PHASE_BID ? f->api.decide_bid(t, v, &d) : f->api.decide_play(t, v, &d);
}

/* cb_table_last_error names the member for every kind of impossible view. Each case starts
 * from a real view (played by the engine), which is accepted, and breaks one thing, keeping
 * the rest consistent (a card count moved with a changed play) so that only that thing is
 * wrong. */
static void test_refusals_named(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, PDK_BASE "[seats]\n0 = lo\n1 = lo\n2 = lo\n");
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL);
    const cb_rules *r = f->api.rules(s);
    /* seat 0 follows the 3 seat 2 led; the history: 0 opens with a straight, 1 passes, 2 beats
     * it with a higher one, 0 and 1 pass, 2 leads the 3 */
    cbt_vb base, b;
    cbt_pos_follow(&base, r, 0, H1, "3", 2);
    assert_int_equal(base.v.nhistory, 6);
    assert_int_equal(base.hist[1].cards, 0);
    assert_int_equal(base.hist[1].seat, 1);
    assert_true(base.hist[2].cards != 0);
    assert_int_equal(base.hist[5].seat, 2);
    assert_int_equal(decide_ok(f, t, &base.v), CB_OK);

    cbt_vb_copy(&b, &base);
    b.v.cards_left[1]--;
    refused_naming(f, t, &b.v, "cards_left[1]", "cards_left not adding up");

    cbt_vb_copy(&b, &base);
    b.hist[1].seat = 2; /* a pass: the card counts stay right */
    refused_naming(f, t, &b.v, "history[1]", "a history seat out of turn");

    cbt_vb_copy(&b, &base);
    b.v.cards_left[2] += cb_cards_size(b.hist[5].cards);
    b.hist[5].cards = 0; /* seat 2 had won the trick: it leads */
    refused_naming(f, t, &b.v, "history[5]", "a pass while leading");

    cbt_vb_copy(&b, &base);
    b.v.cards_left[2] += cb_cards_size(b.hist[2].cards) - 1;
    b.hist[2].cards = cbt_unseen(&b.v, CB_RANK_K); /* a single K on a straight */
    assert_true(b.hist[2].cards != 0);
    refused_naming(f, t, &b.v, "history[2]", "an illegal play in the history");

    cbt_vb_copy(&b, &base);
    b.v.table = cbt_unseen(&b.v, CB_RANK_5);
    refused_naming(f, t, &b.v, "table:", "table not the current trick's last play");

    cbt_vb_copy(&b, &base);
    b.v.table_seat = 1;
    refused_naming(f, t, &b.v, "table_seat", "table_seat wrong");

    /* a hand of the wrong size at the first play */
    cbt_pos_first(&b, r, 1, "3s " H1);
    assert_int_equal(decide_ok(f, t, &b.v), CB_OK);
    b.v.hand &= ~cbt_cards(r, "Ks");
    refused_naming(f, t, &b.v, "hand", "a hand of the wrong size at the first play");

    /* view->rules: equal rules elsewhere are fine, other rules are not the table's */
    cb_rules other = *r;
    cbt_vb_copy(&b, &base);
    b.v.rules = &other;
    assert_int_equal(decide_ok(f, t, &b.v), CB_OK);
    other.warn_single = !other.warn_single;
    refused_naming(f, t, &b.v, "rules", "view->rules not the table's rules");
    f->api.table_free(t);
    cb_strategy_stats st[4];
    int n = f->api.stats(s, st, 4);
    assert_int_equal(cbt_stat_of(st, n, "lo")->decisions, 3); /* the good views only */
    f->api.free(s);
    g_free(p);

    /* DDZ: seat 0 bids first and bids 3, so it is landlord */
    p = cbt_conf_tp(f, "[game]\nrules = ddz\n[strategy.lo]\nplugin = lowest\n[seats]\n0 = lo\n1 = lo\n2 = lo\n");
    s = cbt_open_ok(f, p);
    t = cbt_table_ok(f, s, NULL);
    r = f->api.rules(s);
    cb_engine *e = cbt_engine(r, 11, 0);
    cb_view v, w;
    cbt_engine_view(e, &v);
    assert_int_equal(v.phase, CB_PHASE_BID);
    assert_int_equal(decide_ok(f, t, &v), CB_OK);
    w = v;
    w.bottom = cb_engine_bottom(e);
    assert_int_equal(cb_cards_size(w.bottom), 3);
    refused_naming(f, t, &w, "bottom", "DDZ bottom shown during the bidding");
    char err[160];
    assert_int_equal(cb_engine_bid(e, 3, err, sizeof err), 0);
    cbt_engine_view(e, &v); /* the landlord's first lead */
    assert_int_equal(v.phase, CB_PHASE_PLAY);
    assert_int_equal(v.landlord, 0);
    assert_int_equal(v.first_seat, 0);
    assert_int_equal(decide_ok(f, t, &v), CB_OK);
    w = v;
    w.first_seat = 1;
    refused_naming(f, t, &w, "first_seat", "DDZ first_seat not the landlord");
    w = v;
    w.landlord = w.first_seat = 1; /* consistent with each other, not with the bids */
    refused_naming(f, t, &w, "landlord", "landlord inconsistent with the bids");
    cb_engine_free(e);
    f->api.table_free(t);
    n = f->api.stats(s, st, 4);
    assert_int_equal(cbt_stat_of(st, n, "lo")->decisions, 2);
    f->api.free(s);
    g_free(p);
}

static void test_strerror(void **state)
{
    fx *f = *state;
    assert_string_equal(f->api.strerror(CB_OK), "ok");
    assert_non_null(strstr(f->api.strerror(CB_FB_LATE), "late"));
    assert_non_null(strstr(f->api.strerror(CB_ERR_VIEW), "view"));
    assert_non_null(f->api.strerror(12345));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_syntax_error),
        cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_match_group_and_get),
        cmocka_unit_test(test_default_plugin_dir),
        cmocka_unit_test(test_relative_plugin_dir),
        cmocka_unit_test(test_illegal_no_fallback),
        cmocka_unit_test(test_illegal_with_fallback),
        cmocka_unit_test(test_fallback_also_wrong),
        cmocka_unit_test(test_failing),
        cmocka_unit_test(test_passer),
        cmocka_unit_test(test_slow),
        cmocka_unit_test(test_spade3_first),
        cmocka_unit_test(test_warn_single),
        cmocka_unit_test(test_short_triple),
        cmocka_unit_test(test_bad_views),
        cmocka_unit_test(test_bids),
        cmocka_unit_test(test_table_overrides),
        cmocka_unit_test(test_table_create_fails),
        cmocka_unit_test(test_reload),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_view_1_0),
        cmocka_unit_test(test_decision_sizes),
        cmocka_unit_test(test_last_error),
        cmocka_unit_test(test_fallback_always_legal),
        cmocka_unit_test(test_refusals_named),
        cmocka_unit_test(test_strerror),
    };
    return cmocka_run_group_tests(tests, group_setup, cbt_shimfix_teardown);
}

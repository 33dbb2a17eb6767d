/* The HTML report (host-shim/console/match_report.c): a report built by hand is written and
 * read back — crosstable numbers, the mirrored cell, unplayed and diagonal cells, names
 * escaped (a strategy called <b&>), three SVG plots with the SPRT bounds, nothing fetched and
 * no script, the same bytes twice and in a comma-decimal locale, write errors naming the file.
 * With CB_REPORT_HTML=FILE the page is also written there (tests/test_report_render.sh renders
 * it in a headless browser). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host-shim/console/match_verdict.h"
#include "cardbot/rules.h"

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static void has(const char *page, const char *needle)
{
    if (!strstr(page, needle))
        fail_msg("the page lacks '%s'", needle);
}

/* A pair result as cb_pair_get would give it for score s +- half. */
static cb_pair_result result(long deals, long games, double s, double half, double pts, double ph)
{
    cb_pair_result r;
    memset(&r, 0, sizeof r);
    r.deals = deals;
    r.games = games;
    r.score = s;
    r.score_lo = s - half;
    r.score_hi = s + half;
    r.elo = cb_elo_of_score(s);
    r.elo_lo = cb_elo_of_score(s - half);
    r.elo_hi = cb_elo_of_score(s + half);
    r.pts_diff = pts;
    r.pts_lo = pts - ph;
    r.pts_hi = pts + ph;
    r.win_a = 0.401;
    r.win_b = 0.299;
    return r;
}

/* The sample report: three strategies, one of them named <b&>; two pairs played, one not; win
 * share and points series as a match would record them; an SPRT that accepts H1. */
static cb_report *sample(void)
{
    cb_report *rep = cb_report_new("Gauntlet <pdk16> & friends", "Match: config/pdk16.ini, rules pdk16, 900 games "
                                                                   "(duplicate), seed 1");
    cb_pair_result r = result(300, 900, 0.563, 0.032, 1.23, 0.83);
    assert_int_equal(cb_report_pair(rep, "ismcts", "<b&>", &r), 0);
    cb_pair_result r2 = result(150, 450, 0.612, 0.05, 3.5, 1.1);
    assert_int_equal(cb_report_pair(rep, "<b&>", "heuristic", &r2), 0);
    assert_int_equal(cb_report_pair(rep, "ismcts", "ismcts", &r2), -1); /* no diagonal */
    assert_int_equal(rep->nstrat, 3);
    cb_report_line(rep, "Pair ismcts vs <b&>: 300 deals (900 games), score 0.563 [0.531, 0.595]");
    /* series: a share that settles, with its interval narrowing; no interval at the start */
    const char *names[3] = {"ismcts", "<b&>", "heuristic"};
    double share[3] = {0.38, 0.33, 0.29}, ppg[3] = {1.2, -0.1, -1.1};
    for (int k = 0; k < 3; k++)
        for (long g = 30; g <= 900; g += 30) {
            double wobble = 0.08 * sin(g / 90.0 + k) * 30 / sqrt((double)g);
            double half = g < 60 ? NAN : 1.96 * sqrt(share[k] * (1 - share[k]) / g);
            double y = share[k] + wobble;
            assert_int_equal(cb_report_series_add(rep, names[k], CB_REPORT_WIN, g, y, y - half, y + half), 0);
            double ph = g < 60 ? NAN : 12 / sqrt((double)g);
            assert_int_equal(cb_report_series_add(rep, names[k], CB_REPORT_POINTS, g, ppg[k] + 10 * wobble,
                                                  ppg[k] + 10 * wobble - ph, ppg[k] + 10 * wobble + ph), 0);
        }
    cb_sprt_opts o;
    char err[100];
    assert_int_equal(cb_sprt_parse("elo0=0,elo1=20", &o, err, sizeof err), 0);
    /* an SPRT on a histogram that drifts toward H1 */
    for (long d = 10; d <= 200; d += 10) {
        cb_score_count h[2] = {{0.25, d * 35 / 100}, {0.75, d - d * 35 / 100}};
        cb_sprt_state s;
        cb_sprt_llr(&o, h, 2, &s);
        cb_report_sprt_add(rep, "ismcts vs <b&>", &o, &s);
        if (s.verdict)
            break;
    }
    assert_true(rep->has_sprt);
    assert_int_equal(rep->sprt_verdict, 1);
    return rep;
}

static char *write_read(const cb_report *rep)
{
    char *dir = g_dir_make_tmp("cb-report-XXXXXX", NULL);
    assert_non_null(dir);
    char *path = g_build_filename(dir, "report.html", NULL);
    char err[300] = "";
    if (cb_report_write(path, rep, err, sizeof err) != 0)
        fail_msg("cb_report_write: %s", err);
    char *text = NULL;
    assert_true(g_file_get_contents(path, &text, NULL, NULL));
    g_unlink(path);
    g_rmdir(dir);
    g_free(dir);
    g_free(path);
    return text;
}

static void test_page(void **state)
{
    (void)state;
    cb_report *rep = sample();
    char *page = write_read(rep);
    has(page, "<!DOCTYPE html>");
    has(page, "<title>Gauntlet &lt;pdk16&gt; &amp; friends</title>");
    has(page, "Match: config/pdk16.ini, rules pdk16, 900 games (duplicate), seed 1");
    /* the crosstable: ismcts (row) against <b&> (column), and the same deals seen from <b&> */
    has(page, "<table class=\"cross\">");
    has(page, "<span class=\"score\">0.563</span><span class=\"elo\">Elo +44 [+22, +67]</span>"
              "<span class=\"n\">900 games, 300 deals</span>");
    has(page, "<span class=\"score\">0.437</span><span class=\"elo\">Elo -44 [-67, -22]</span>");
    has(page, "<span class=\"score\">0.612</span>");
    has(page, "<span class=\"score\">0.388</span>");
    assert_int_equal(count(page, "<td class=\"diag\">"), 3);
    assert_int_equal(count(page, "<td class=\"none\""), 2); /* ismcts - heuristic, both ways */
    assert_int_equal(count(page, "<td class=\"cell\""), 4);
    /* names escaped everywhere: header, row, legend, lines, SPRT pair */
    assert_null(strstr(page, "<b&>"));
    assert_true(count(page, "&lt;b&amp;&gt;") >= 6);
    has(page, "Pair ismcts vs &lt;b&amp;&gt;: 300 deals");
    /* the plots: win share, points, SPRT with its two bounds and verdict */
    assert_int_equal(count(page, "<svg "), 3);
    assert_int_equal(count(page, "</svg>"), 3);
    assert_int_equal(count(page, "<polygon class=\"band\""), 6); /* 3 strategies x 2 plots */
    assert_int_equal(count(page, "<path class=\"ref\""), 2);
    has(page, "accept H1 (+2.94)");
    has(page, "accept H0 (-2.94)");
    has(page, "<span class=\"verdict\">H1 accepted</span>");
    has(page, "ismcts vs &lt;b&amp;&gt;: H0 Elo = 0 against H1 Elo = 20, alpha 0.05, beta 0.05");
    has(page, ">50%<"); /* a win-share tick */
    /* self-contained: no script, nothing loaded */
    assert_null(strstr(page, "<script"));
    assert_null(strstr(page, "src="));
    assert_null(strstr(page, "href="));
    assert_null(strstr(page, "url("));
    assert_null(strstr(page, "@import"));
    assert_int_equal(count(page, "http"), count(page, "xmlns=\"http://www.w3.org/2000/svg\""));
    /* the same bytes again */
    char *again = write_read(rep);
    assert_string_equal(page, again);
    g_free(again);
    /* and under a comma-decimal locale, when the machine has one */
    const char *comma[] = {"de_DE.UTF-8", "fr_FR.UTF-8", "ru_RU.UTF-8", "de_DE.utf8", NULL};
    char *old = g_strdup(setlocale(LC_NUMERIC, NULL));
    const char **l;
    for (l = comma; *l && !setlocale(LC_NUMERIC, *l); l++)
        ;
    if (*l) {
        char *loc = write_read(rep);
        setlocale(LC_NUMERIC, old);
        assert_string_equal(page, loc);
        g_free(loc);
        print_message("same page under LC_NUMERIC=%s\n", *l);
    } else {
        print_message("no comma-decimal locale installed: the locale comparison was not made\n");
    }
    setlocale(LC_NUMERIC, old);
    g_free(old);
    const char *keep = g_getenv("CB_REPORT_HTML");
    if (keep) {
        char err[300];
        if (cb_report_write(keep, rep, err, sizeof err) != 0)
            fail_msg("%s", err);
    }
    g_free(page);
    cb_report_free(rep);
}

/* A report straight from cb_pair: the cell is what cb_pair_get says. */
static void test_from_pair(void **state)
{
    (void)state;
    cb_rules r;
    assert_int_equal(cb_rules_preset("pdk16", &r), 0);
    cb_pair *p = cb_pair_new(&r, "A", "B");
    cb_match_game *gm = g_new0(cb_match_game, 1);
    for (int deal = 0; deal < 4; deal++)
        for (int rot = 0; rot < 3; rot++) {
            memset(gm, 0, offsetof(cb_match_game, plays));
            for (int s = 0; s < 3; s++) {
                snprintf(gm->strategy_buf[s], sizeof gm->strategy_buf[s], "%s", s ? "B" : "A");
                gm->strategy[s] = gm->strategy_buf[s];
            }
            gm->deal = deal;
            int w = (rot + deal) % 3 == 0 || (deal == 3 && rot == 1) ? 0 : 1;
            gm->winner = w;
            gm->delta[0] = w ? -1 : 2;
            gm->delta[1] = w ? 2 : -1;
            gm->delta[2] = -1;
            cb_pair_add(p, gm);
        }
    cb_pair_result x;
    cb_pair_get(p, &x);
    cb_report *rep = cb_report_new("from a pair", NULL);
    assert_int_equal(cb_report_pair(rep, "A", "B", &x), 0);
    char *page = write_read(rep);
    char want[200];
    snprintf(want, sizeof want, "<span class=\"score\">%.3f</span><span class=\"elo\">Elo %+.0f [%+.0f, %+.0f]</span>"
             "<span class=\"n\">12 games, 4 deals</span>", x.score, x.elo, x.elo_lo, x.elo_hi);
    has(page, want);
    assert_int_equal(count(page, "<svg "), 0); /* no series, no SPRT: no plots */
    g_free(page);
    cb_report_free(rep);
    cb_pair_free(p);
    g_free(gm);
}

static void test_empty_and_errors(void **state)
{
    (void)state;
    cb_report *rep = cb_report_new(NULL, NULL);
    char *page = write_read(rep);
    has(page, "<title>cardbot match</title>");
    has(page, "No strategies.");
    g_free(page);
    char err[300] = "";
    const char *bad = "/nonexistent-cb-dir/sub/report.html";
    assert_int_equal(cb_report_write(bad, rep, err, sizeof err), -1);
    has(err, bad);
    print_message("%s\n", err);
    /* a full report refuses more strategies instead of overrunning */
    for (int i = 0; i < CB_REPORT_MAX; i++) {
        char name[16];
        snprintf(name, sizeof name, "s%d", i);
        assert_int_equal(cb_report_strategy(rep, name), i);
    }
    assert_int_equal(cb_report_strategy(rep, "one-too-many"), -1);
    assert_int_equal(cb_report_strategy(rep, "s3"), 3);
    assert_int_equal(cb_report_series_add(rep, "one-too-many", CB_REPORT_WIN, 1, 0.5, NAN, NAN), -1);
    cb_report_free(rep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_page),
        cmocka_unit_test(test_from_pair),
        cmocka_unit_test(test_empty_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

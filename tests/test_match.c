/* End to end: `cardbot match` on every bundled config, fixed seeds. Every play of the replay is
 * re-validated here with core/ by an independent re-run of the trick state machine; points sum
 * to zero and equal a fresh settlement; healthy plugins never need a fallback; concurrency 1 and
 * 2 give identical summaries (timing lines aside) and identical replays; config errors exit 2
 * with a message naming file, group and key; a plugin answering illegally is replaced and
 * counted and the match completes. */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <stdlib.h>
#include <string.h>

#include "cardbot/rules.h"
#include "support/oracle_settle.h"
#include "support/clifix.h"

/* Strip lines starting with "timing" (the only ones allowed to differ between runs). */
static char *without_timing(const char *s)
{
    GString *g = g_string_new(NULL);
    char **lines = g_strsplit(s, "\n", -1);
    for (char **l = lines; *l; l++)
        if (strncmp(*l, "timing", 6) != 0)
            g_string_append_printf(g, "%s\n", *l);
    g_strfreev(lines);
    return g_string_free(g, FALSE);
}

/* The explanation text may carry the decision's wall time (ismcts says "29.9ms"): blank every
 * "explain" value before comparing replays; every other field must be identical. */
static char *without_explain(const char *s)
{
    GRegex *re = g_regex_new("\"explain\":\"(\\\\.|[^\"\\\\])*\"", 0, 0, NULL);
    char *out = g_regex_replace_literal(re, s, -1, 0, "\"explain\":\"\"", 0, NULL);
    g_regex_unref(re);
    return out;
}

static cb_cards parse_cards(const cb_rules *r, const char *s)
{
    cb_cards c = 0;
    char err[128];
    if (cb_cards_parse(s, r->deck, &c, err, sizeof err)) {
        print_error("replay card text '%s': %s\n", s, err);
        fail();
    }
    return c;
}

typedef struct replay_totals {
    int games, plays, fallbacks, bombs, passes, bao_or_landlord;
} replay_totals;

/* Re-validate one replay game with core/. */
static void check_game(const cb_rules *r, JsonObject *o, replay_totals *tot)
{
    JsonArray *hands = json_object_get_array_member(o, "hands");
    JsonArray *plays = json_object_get_array_member(o, "plays");
    JsonArray *pts = json_object_get_array_member(o, "points");
    assert_false(json_object_has_member(o, "error"));
    cb_cards hand[3];
    int left0 = 0;
    for (int s = 0; s < 3; s++) {
        hand[s] = parse_cards(r, json_array_get_string_element(hands, s));
        assert_int_equal(cb_cards_size(hand[s]), r->hand_size);
    }
    for (int s = 0; s < 3; s++)
        left0 |= (hand[s] & hand[(s + 1) % 3]) != 0;
    assert_int_equal(left0, 0); /* no card dealt twice */
    int landlord = (int)json_object_get_int_member(o, "landlord");
    int first = (int)json_object_get_int_member(o, "first_seat");
    int leader;
    cb_ddz_result dres = {0};
    if (r->game == CB_GAME_DDZ) {
        cb_cards bottom = parse_cards(r, json_object_get_string_member(o, "bottom"));
        assert_int_equal(cb_cards_size(bottom), 3);
        assert_true(landlord >= 0 && landlord < 3);
        hand[landlord] |= bottom;
        leader = landlord;
        dres.landlord = landlord;
        dres.bid = (int)json_object_get_int_member(o, "bid_value");
        assert_true(dres.bid >= 1 && dres.bid <= 3);
    } else {
        leader = first;
        if (r->spade3_first)
            assert_true(hand[first] & cb_card_bit(0)); /* the spade 3 holder leads */
    }
    if (landlord >= 0)
        tot->bao_or_landlord++;
    /* the record as played, for the independent settlement at the end */
    cb_cards start[3] = {hand[0], hand[1], hand[2]};
    guint nrec = json_array_get_length(plays);
    cb_play_rec *rec = g_new0(cb_play_rec, nrec ? nrec : 1);
    int cur = leader, passes = 0, table_seat = -1, made[3] = {0}, bombs = 0, btricks[3] = {0}, winner = -1;
    cb_move table = {0};
    bool have_table = false;
    guint n = json_array_get_length(plays);
    for (guint i = 0; i < n; i++) {
        JsonObject *p = json_array_get_object_element(plays, i);
        assert_int_equal(winner, -1); /* nothing after the game ended */
        assert_int_equal((int)json_object_get_int_member(p, "seat"), cur);
        cb_cards c = parse_cards(r, json_object_get_string_member(p, "cards"));
        if (json_object_get_int_member(p, "code") != 0)
            tot->fallbacks++;
        assert_true((c & ~hand[cur]) == 0);
        cb_ctx ctx = {.hand = cb_counts_of(hand[cur]), .table = have_table ? &table : NULL,
                      .next_has_one = cb_cards_size(hand[(cur + 1) % 3]) == 1, .first_play = i == 0};
        cb_move m;
        char why[160] = "";
        if (!cb_play_legal(r, &ctx, cb_counts_of(c), &m, why, sizeof why)) {
            char hb[100], cbuf[100];
            cb_cards_format(hand[cur], false, hb, sizeof hb);
            cb_cards_format(c, false, cbuf, sizeof cbuf);
            print_error("illegal play %u seat %d hand %s play '%s': %s\n", i, cur, hb, cbuf, why);
            fail();
        }
        if (i == 0 && r->game == CB_GAME_PDK && r->spade3_first)
            assert_true(c & cb_card_bit(0));
        rec[i].seat = cur;
        rec[i].cards = c;
        tot->plays++;
        if (!c) {
            tot->passes++;
            assert_true(have_table);
            if (++passes == 2) {
                if (table.shape == CB_BOMB || table.shape == CB_ROCKET)
                    btricks[table_seat]++;
                cur = table_seat;
                have_table = false;
                passes = 0;
                continue;
            }
        } else {
            hand[cur] &= ~c;
            made[cur]++;
            if (m.shape == CB_BOMB || m.shape == CB_ROCKET) {
                bombs++;
                tot->bombs++;
            }
            table = m;
            have_table = true;
            table_seat = cur;
            passes = 0;
            if (!hand[cur]) {
                winner = cur;
                if (m.shape == CB_BOMB || m.shape == CB_ROCKET)
                    btricks[cur]++;
            }
        }
        cur = (cur + 1) % 3;
    }
    assert_true(winner >= 0);
    assert_int_equal((int)json_object_get_int_member(o, "winner"), winner);
    int delta[3], sum = 0;
    if (r->game == CB_GAME_DDZ) {
        dres.bombs = bombs;
        dres.winner = winner;
        dres.landlord_plays = made[landlord];
        dres.farmer_plays = made[(landlord + 1) % 3] + made[(landlord + 2) % 3];
        cb_ddz_settle(r, &dres, delta);
    } else {
        cb_pdk_result pres = {.winner = winner, .bao = landlord};
        for (int s = 0; s < 3; s++) {
            pres.cards_left[s] = cb_cards_size(hand[s]);
            pres.plays[s] = made[s];
            pres.bomb_tricks[s] = btricks[s];
        }
        cb_pdk_settle(r, &pres, delta);
    }
    /* the oracle settles the game again from the record alone (its own bomb, trick and
     * spring reading, its own arithmetic): core's settlement produced the replay's points and
     * also the delta above, so only this comparison can see a slip in core/settle.c */
    int odelta[3], owinner = -1;
    int omult = cbt_oracle_settle_record(r, start, landlord, r->game == CB_GAME_DDZ ? dres.bid : 1, rec, (int)n,
                                         odelta, &owinner);
    assert_int_equal(owinner, winner);
    if (json_object_has_member(o, "multiplier"))
        assert_int_equal(omult, (int)json_object_get_int_member(o, "multiplier"));
    for (int s = 0; s < 3; s++) {
        int got = (int)json_array_get_int_element(pts, s);
        assert_int_equal(got, delta[s]);
        if (got != odelta[s])
            fail_msg("game %d seat %d: replay points %d, the oracle settles %d", (int)json_object_get_int_member(o, "game"),
                     s, got, odelta[s]);
        sum += got;
    }
    assert_int_equal(sum, 0);
    g_free(rec);
    tot->games++;
}

static void check_replay(const cb_rules *r, const char *path, int games, replay_totals *tot)
{
    char *text = NULL;
    assert_true(g_file_get_contents(path, &text, NULL, NULL));
    char **lines = g_strsplit(text, "\n", -1);
    int n = 0;
    /* the header line first (format: schema/cardbot-replay-1.schema.json), then the games */
    assert_non_null(lines[0]);
    assert_true(g_str_has_prefix(lines[0], "{\"type\":\"header\",\"format\":\"cardbot-replay\",\"version\":1,"));
    for (char **l = lines + 1; *l && **l; l++) {
        JsonParser *p = json_parser_new();
        GError *e = NULL;
        if (!json_parser_load_from_data(p, *l, -1, &e)) {
            print_error("replay line %d: %s\n", n + 2, e->message);
            fail();
        }
        JsonObject *o = json_node_get_object(json_parser_get_root(p));
        assert_string_equal(json_object_get_string_member(o, "type"), "game");
        assert_int_equal((int)json_object_get_int_member(o, "game"), n);
        check_game(r, o, tot);
        g_object_unref(p);
        n++;
    }
    assert_int_equal(n, games);
    g_strfreev(lines);
    g_free(text);
}

/* One config end to end: -j1 and -j2 must agree; every game re-validated. */
/* A copy of a bundled config whose [shim] budget_ms is raised to 60 s: the -j1 / -j2 check is
 * about determinism, and ismcts stops a search at 60% of the budget, which on a slow or
 * sanitizer build could otherwise make a decision depend on the clock. And an ismcts strategy
 * that names no budget gets iterations = 1000 (its PDK default is 20000, some 0.2 s a decision,
 * too slow for a sanitizer build of this test, which is about legality and determinism, not
 * strength). Everything else is the bundled file as written. */
static char *generous_copy(const char *config)
{
    GKeyFile *kf = g_key_file_new();
    GError *err = NULL;
    if (!g_key_file_load_from_file(kf, config, G_KEY_FILE_KEEP_COMMENTS, &err))
        fail_msg("%s: %s", config, err->message);
    g_key_file_set_string(kf, "shim", "budget_ms", "60000");
    gsize ng = 0;
    char **groups = g_key_file_get_groups(kf, &ng);
    for (gsize i = 0; i < ng; i++) {
        char *plugin = g_key_file_get_string(kf, groups[i], "plugin", NULL);
        if (plugin && strcmp(plugin, "ismcts") == 0 && !g_key_file_has_key(kf, groups[i], "iterations", NULL) &&
            !g_key_file_has_key(kf, groups[i], "time_ms", NULL))
            g_key_file_set_string(kf, groups[i], "iterations", "1000");
        g_free(plugin);
    }
    g_strfreev(groups);
    char *base = g_path_get_basename(config);
    char *path = cbt_tmp_path("cbmatch", base);
    assert_true(g_key_file_save_to_file(kf, path, NULL));
    g_key_file_free(kf);
    g_free(base);
    return path;
}

static void match_config(const char *bundled, const char *preset, const char *table, int games, bool expect_no_fallback)
{
    cb_rules r;
    assert_int_equal(cb_rules_preset(preset, &r), 0);
    char *config = generous_copy(bundled);
    char *rep1 = cbt_tmp_path("cbmatch", "r1.jsonl"), *rep2 = cbt_tmp_path("cbmatch", "r2.jsonl");
    games = cbt_games(games);
    char gbuf[16];
    snprintf(gbuf, sizeof gbuf, "%d", games);
    char *o1 = NULL, *o2 = NULL, *e1 = NULL, *e2 = NULL;
    const char *targ = table ? "--table" : "--quiet", *tval = table ? table : "--quiet";
    int c1 = cbt_cardbot(&o1, &e1, "match", "--config", config, "--games", gbuf, "--seed", "7", "--duplicate",
                         "--concurrency", "1", "--replay", rep1, "--quiet", targ, tval, NULL);
    int c2 = cbt_cardbot(&o2, &e2, "match", "--config", config, "--games", gbuf, "--seed", "7", "--duplicate",
                         "--concurrency", "2", "--replay", rep2, "--quiet", targ, tval, NULL);
    if (c1 || c2)
        print_error("%s: exit %d/%d\n%s%s", config, c1, c2, e1, e2);
    assert_int_equal(c1, 0);
    assert_int_equal(c2, 0);
    char *s1 = without_timing(o1), *s2 = without_timing(o2);
    assert_string_equal(s1, s2);
    char *t1 = NULL, *t2 = NULL;
    assert_true(g_file_get_contents(rep1, &t1, NULL, NULL));
    assert_true(g_file_get_contents(rep2, &t2, NULL, NULL));
    char *x1 = without_explain(t1), *x2 = without_explain(t2);
    assert_true(strlen(x1) > 0 && strlen(x1) < strlen(t1)); /* explanations were there */
    assert_string_equal(x1, x2);
    g_free(x1);
    g_free(x2);
    replay_totals tot = {0};
    int rounded = (games + 2) / 3 * 3;
    check_replay(&r, rep1, rounded, &tot);
    if (expect_no_fallback) {
        assert_int_equal(tot.fallbacks, 0);
        assert_non_null(strstr(o1, "total=0"));
        assert_null(strstr(s1, "illegal=1"));
    }
    printf("  %s%s%s: %d games, %d decisions (%d passes, %d bombs), %d with landlord/bao, %d fallbacks\n", config,
           table ? " --table " : "", table ? table : "", tot.games, tot.plays, tot.passes, tot.bombs,
           tot.bao_or_landlord, tot.fallbacks);
    g_free(t1);
    g_free(t2);
    g_free(s1);
    g_free(s2);
    g_free(o1);
    g_free(o2);
    g_free(e1);
    g_free(e2);
    g_unlink(rep1);
    g_unlink(rep2);
    g_free(rep1);
    g_free(rep2);
    g_free(config);
}

static void test_pdk16(void **s) { (void)s; match_config("config/pdk16.ini", "pdk16", NULL, 60, true); }
static void test_pdk15(void **s) { (void)s; match_config("config/pdk15.ini", "pdk15", NULL, 60, true); }
static void test_guanpai(void **s) { (void)s; match_config("config/guanpai.ini", "guanpai", NULL, 60, true); }
static void test_ddz(void **s) { (void)s; match_config("config/ddz.ini", "ddz", NULL, 60, true); }
static void test_ismcts_configs(void **s)
{
    (void)s;
    match_config("config/pdk-ismcts-vs-heuristic.ini", "pdk16", NULL, 24, true);
    match_config("config/ddz-ismcts-vs-heuristic.ini", "ddz", NULL, 24, true);
}

/* Process isolation gives the same games as in-process. Plain build only: GCC 12's ASan
 * allocator is not fork-safe in a threaded host (see tests/test_isolation.c), and the -j2 run
 * forks from two threads. */
static void test_process_config(void **s)
{
    (void)s;
    if (strstr(cbt_build_dir(), "asan")) {
        printf("  skipped under ASan (fork in a threaded ASan host)\n");
        return;
    }
    match_config("config/pdk16-process.ini", "pdk16", NULL, 30, true);
}

static void test_levels(void **s)
{
    (void)s;
    match_config("config/levels-pdk.ini", "pdk16", "2v1", 30, true);
    match_config("config/levels-ddz.ini", "ddz", "2v1", 30, true);
}

/* Configs written to the temp dir: plugin_dir points at this build's plugins. */
static char *write_config(const char *name, const char *body)
{
    char *path = cbt_tmp_path("cbmatch", name);
    assert_true(g_file_set_contents(path, body, -1, NULL));
    return path;
}

static void expect_usage_error(const char *config, const char *needle1, const char *needle2)
{
    char *err = NULL;
    int code = cbt_cardbot(NULL, &err, "match", "--config", config, "--games", "3", "--quiet", NULL);
    if (code != 2 || !strstr(err, needle1) || (needle2 && !strstr(err, needle2)))
        print_error("config %s: exit %d, stderr: %s (wanted '%s' '%s')\n", config, code, err, needle1,
                    needle2 ? needle2 : "");
    assert_int_equal(code, 2);
    assert_non_null(strstr(err, needle1));
    if (needle2)
        assert_non_null(strstr(err, needle2));
    g_free(err);
}

static void test_config_errors(void **s)
{
    (void)s;
    expect_usage_error("no/such/file.ini", "no/such/file.ini", NULL);
    char *p = write_config("unknown_strategy.ini", "[game]\nrules = pdk16\n[strategy.h]\nplugin = heuristic\n"
                                                   "[seats]\n0 = h\n1 = h\n2 = nosuch\n");
    expect_usage_error(p, "[seats]", "nosuch");
    g_free(p);
    p = write_config("bad_rules.ini", "[game]\nrules = pdk99\n[strategy.h]\nplugin = heuristic\n[seats]\n0 = h\n1 = h\n2 = h\n");
    expect_usage_error(p, "[game]", "rules");
    g_free(p);
    p = write_config("bad_param.ini", "[game]\nrules = pdk16\n[strategy.h]\nplugin = heuristic\nlevel = 9\n"
                                      "[seats]\n0 = h\n1 = h\n2 = h\n");
    expect_usage_error(p, "[strategy.h]", "level");
    g_free(p);
    p = write_config("no_plugin.ini", "[game]\nrules = pdk16\n[strategy.h]\nplugin = nosuchplugin\n"
                                      "[seats]\n0 = h\n1 = h\n2 = h\n");
    expect_usage_error(p, "[strategy.h]", "nosuchplugin");
    g_free(p);
    p = write_config("unknown_group.ini", "[game]\nrules = pdk16\n[strategy.h]\nplugin = heuristic\n"
                                          "[seats]\n0 = h\n1 = h\n2 = h\n[sates]\n0 = h\n");
    expect_usage_error(p, "unknown_group.ini", "[sates]");
    g_free(p);
    p = write_config("unknown_key.ini", "[shim]\nbudget_msec = 5\n[game]\nrules = pdk16\n[strategy.h]\n"
                                        "plugin = heuristic\n[seats]\n0 = h\n1 = h\n2 = h\n");
    expect_usage_error(p, "[shim]", "budget_msec");
    g_free(p);
    p = write_config("bad_value.ini", "[shim]\nbudget_ms = soon\n[game]\nrules = pdk16\n[strategy.h]\n"
                                      "plugin = heuristic\n[seats]\n0 = h\n1 = h\n2 = h\n");
    expect_usage_error(p, "[shim]", "budget_ms");
    g_free(p);
    /* Plugins built wrong, from tests/plugins/: no entry point, another ABI major. */
    char *dir = g_strdup_printf("%s/tests/plugins", cbt_build_dir());
    char *abs = g_canonicalize_filename(dir, NULL);
    const char *bad[][2] = {{"bad_noentry", "cb_plugin_entry"}, {"bad_abi", "ABI"}};
    for (int i = 0; i < 2; i++) {
        char *body = g_strdup_printf("[shim]\nplugin_dir = %s\n[game]\nrules = pdk16\n[strategy.b]\nplugin = %s\n"
                                     "[seats]\n0 = b\n1 = b\n2 = b\n", abs, bad[i][0]);
        char *name = g_strdup_printf("%s.ini", bad[i][0]);
        p = write_config(name, body);
        expect_usage_error(p, "[strategy.b]", bad[i][1]);
        g_free(p);
        g_free(name);
        g_free(body);
    }
    g_free(abs);
    g_free(dir);
}

/* A seat that always answers illegally: every answer replaced, counted, match completes. */
static void test_illegal_plugin(void **s)
{
    (void)s;
    char *dir = g_strdup_printf("%s/tests/plugins", cbt_build_dir());
    char *abs = g_canonicalize_filename(dir, NULL);
    for (int fb = 0; fb < 2; fb++) {
        char *body = g_strdup_printf("[shim]\nplugin_dir = %s\n%s[game]\nrules = %s\n"
                                     "[strategy.bad]\nplugin = illegal\n[strategy.good]\nplugin = lowest\n"
                                     "[seats]\n0 = bad\n1 = good\n2 = good\n",
                                     abs, fb ? "fallback = good\n" : "", fb ? "ddz" : "pdk16");
        char *cfg = write_config(fb ? "illegal_ddz.ini" : "illegal_pdk.ini", body);
        char *rep = cbt_tmp_path("cbmatch", "ill.jsonl"), *out = NULL, *err = NULL;
        int code = cbt_cardbot(&out, &err, "match", "--config", cfg, "--games", "12", "--seed", "3", "--replay", rep,
                               "--quiet", NULL);
        if (code)
            print_error("exit %d: %s\n", code, err);
        assert_int_equal(code, 0);
        cb_rules r;
        cb_rules_preset(fb ? "ddz" : "pdk16", &r);
        replay_totals tot = {0};
        check_replay(&r, rep, 12, &tot);
        assert_true(tot.fallbacks > 0); /* every bad answer was replaced ... */
        const char *line = strstr(out, "Fallbacks bad ");
        assert_non_null(line);
        const char *ill = strstr(line, "illegal=");
        assert_non_null(ill);
        assert_true(atoi(ill + 8) > 0); /* ... and counted by reason */
        printf("  illegal plugin (%s, fallback %s): %d fallbacks in %d decisions\n", r.preset, fb ? "good" : "none",
               tot.fallbacks, tot.plays);
        g_unlink(rep);
        g_free(rep);
        g_free(out);
        g_free(err);
        g_free(cfg);
        g_free(body);
    }
    g_free(abs);
    g_free(dir);
}

/* Inference is live in every searched decision of a match, at every (first bidder, landlord)
 * pair: the search reports its belief pool ("ess=") whenever its replay of the public record
 * from view->first_seat succeeded. A host view whose first_seat is not the first leader (the
 * DDZ console once gave the first bidder) makes the replay fail and the search run without
 * inference, silently; the shim now refuses such a view, and this test would see either. */
static void belief_everywhere(const char *rules, const char *landlord, const char *seed, int games, int want_pairs)
{
    char *body = g_strdup_printf("[shim]\nbudget_ms = 60000\n[game]\nrules = %s\n"
                                 "[strategy.i]\nplugin = ismcts\niterations = 150\nbelief_worlds = 60\n"
                                 "[seats]\n0 = i\n1 = i\n2 = i\n", rules);
    char *cfg = write_config("belief.ini", body);
    char *rep = cbt_tmp_path("cbmatch", "belief.jsonl");
    char *out = NULL, *err = NULL;
    char ngames[16];
    snprintf(ngames, sizeof ngames, "%d", games);
    int rc = landlord ? cbt_cardbot(&out, &err, "match", "--config", cfg, "--games", ngames, "--seed", seed, "--quiet",
                                    "--landlord", landlord, "--replay", rep, NULL)
                      : cbt_cardbot(&out, &err, "match", "--config", cfg, "--games", ngames, "--seed", seed, "--quiet",
                                    "--duplicate", "--replay", rep, NULL);
    if (rc != 0)
        print_error("%s%s", out, err);
    assert_int_equal(rc, 0);
    char *text = NULL;
    assert_true(g_file_get_contents(rep, &text, NULL, NULL));
    char **lines = g_strsplit(text, "\n", -1);
    int searched = 0, with_belief = 0;
    bool pair[4][3] = {{false}};
    for (char **l = lines + 1; *l && **l; l++) { /* after the header line */
        JsonParser *p = json_parser_new();
        assert_true(json_parser_load_from_data(p, *l, -1, NULL));
        JsonObject *o = json_node_get_object(json_parser_get_root(p));
        int fb = (int)json_object_get_int_member(o, "first_bidder");
        int ll = (int)json_object_get_int_member(o, "landlord");
        int fs = (int)json_object_get_int_member(o, "first_seat");
        if (strcmp(rules, "ddz") == 0)
            assert_int_equal(fs, ll); /* the DDZ first leader is the landlord */
        pair[fb + 1][strcmp(rules, "ddz") == 0 ? ll : fs] = true;
        JsonArray *plays = json_object_get_array_member(o, "plays");
        for (guint i = 0; i < json_array_get_length(plays); i++) {
            const char *ex = json_object_get_string_member(json_array_get_object_element(plays, i), "explain");
            if (strncmp(ex, "ismcts v=", 9) != 0)
                continue;
            searched++;
            if (strstr(ex, " ess="))
                with_belief++;
            else
                print_error("no belief (first_bidder %d, landlord %d, first_seat %d): %s\n", fb, ll, fs, ex);
        }
        g_object_unref(p);
    }
    int pairs = 0;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 3; b++)
            pairs += pair[a][b];
    print_message("%s%s%s: %d searched decisions, %d with the belief pool, %d (first bidder, %s) pairs\n", rules,
                  landlord ? " --landlord " : "", landlord ? landlord : "", searched, with_belief, pairs,
                  strcmp(rules, "ddz") == 0 ? "landlord" : "first leader");
    assert_true(searched > 0);
    assert_int_equal(with_belief, searched);
    assert_int_equal(pairs, want_pairs);
    g_strfreev(lines);
    g_free(text);
    g_free(out);
    g_free(err);
    g_free(rep);
    g_free(cfg);
    g_free(body);
}

static void test_belief_active(void **s)
{
    (void)s;
    /* bidding: seed 7's first 12 games reach all nine (first bidder, landlord) pairs */
    belief_everywhere("ddz", NULL, "7", 12, 9);
    belief_everywhere("ddz", "0", "3", 2, 1);   /* fixed roles: no bidder, each landlord */
    belief_everywhere("ddz", "1", "3", 2, 1);
    belief_everywhere("ddz", "2", "3", 2, 1);
    belief_everywhere("pdk16", NULL, "3", 6, 3); /* 包庄 from the first leader, each leader */
}

/* Seeds reveal nothing: a plugin that inverts the splitmix64 stream (tests/plugins/seedattack.c)
 * recovers every hand of a deal made the old way — one stream for the shuffle and the decision
 * seeds — and never a hand of cardbot match, whose shuffles and seeds are separate keyed
 * streams. */
typedef void (*predict_fn)(const cb_rules *, uint64_t, int, cb_cards[3][3]);

static uint64_t old_mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void test_seed_attack(void **s)
{
    (void)s;
    /* the attack is real: against the old dealing it finds the deal from any early seed */
    char *so = g_strdup_printf("%s/tests/plugins/seedattack.so", cbt_build_dir());
    void *dl = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    assert_non_null(dl);
    predict_fn predict = (predict_fn)dlsym(dl, "seedattack_predict");
    assert_non_null(predict);
    cb_rules r;
    assert_int_equal(cb_rules_preset("ddz", &r), 0);
    int found = 0;
    for (uint64_t deal = 0; deal < 20; deal++) {
        uint64_t match_seed = 1000 + deal, rot = deal % 3;
        uint64_t deal_state = match_seed ^ (0xD1B54A32D192ED03ull * (deal + 1));
        uint64_t stream = deal_state ^ (0x2545F4914F6CDD1Dull * (rot + 1));
        /* the old shuffle, dealt from deal_state */
        int ids[CB_NCARDS], n = 0;
        for (int id = 0; id < CB_NCARDS; id++)
            if (r.deck & cb_card_bit(id))
                ids[n++] = id;
        uint64_t d = deal_state;
        for (int i = n - 1; i > 0; i--) {
            int j = (int)(old_mix(&d) % (uint64_t)(i + 1));
            int t = ids[i];
            ids[i] = ids[j];
            ids[j] = t;
        }
        cb_cards hand0 = 0;
        for (int c = 0; c < r.hand_size; c++)
            hand0 |= cb_card_bit(ids[c]);
        int k = (int)(deal % 5); /* the seed of the k-th decision */
        uint64_t seed = 0;
        for (int i = 0; i <= k; i++)
            seed = old_mix(&stream);
        cb_cards g[3][3];
        predict(&r, seed, k, g);
        found += g[rot][0] == hand0;
    }
    dlclose(dl);
    g_free(so);
    assert_int_equal(found, 20);

    /* ... and against cardbot match it never does */
    const char *games[][3] = {{"pdk16", "15", "--duplicate"}, {"ddz", "15", "--duplicate"}, {"ddz", "6", NULL}};
    char *dir = g_strdup_printf("%s/tests/plugins", cbt_build_dir());
    char *abs = g_canonicalize_filename(dir, NULL);
    for (size_t c = 0; c < G_N_ELEMENTS(games); c++) {
        /* the test plugins' directory first; heuristic from the default place */
        char *body = g_strdup_printf("[shim]\nplugin_dir = %s\n[game]\nrules = %s\n[strategy.a]\nplugin = seedattack\n"
                                     "[strategy.h]\nplugin = heuristic\n[seats]\n0 = a\n1 = h\n2 = h\n",
                                     abs, games[c][0]);
        char *cfg = write_config("attack.ini", body);
        char *rep = cbt_tmp_path("cbmatch", "attack.jsonl");
        char *out = NULL, *err = NULL;
        int rc = games[c][2] ? cbt_cardbot(&out, &err, "match", "--config", cfg, "--games", games[c][1], "--seed", "7",
                                           "--quiet", games[c][2], "--replay", rep, NULL)
                             : cbt_cardbot(&out, &err, "match", "--config", cfg, "--games", games[c][1], "--seed", "7",
                                           "--quiet", "--replay", rep, NULL);
        if (rc != 0)
            print_error("%s%s", out, err);
        assert_int_equal(rc, 0);
        char *text = NULL;
        assert_true(g_file_get_contents(rep, &text, NULL, NULL));
        int miss = 0, hits = 0;
        for (const char *p = text; (p = strstr(p, "ATTACK ")); p += 7) {
            if (strncmp(p + 7, "hit", 3) == 0)
                hits++;
            else
                miss++;
        }
        print_message("%s %s: the attack missed %d decisions, hit %d\n", games[c][0], games[c][2] ? games[c][2] : "",
                      miss, hits);
        assert_true(miss > 0);
        assert_int_equal(hits, 0);
        g_free(text);
        g_free(out);
        g_free(err);
        g_free(rep);
        g_free(cfg);
        g_free(body);
    }
    g_free(abs);
    g_free(dir);
}

/* --seed and --games are refused when negative; without any seed the key is random and is
 * printed after the summary, and replaying with it gives the same games. */
static void test_seed_options(void **s)
{
    (void)s;
    char *body = g_strdup("[game]\nrules = pdk16\n[strategy.h]\nplugin = heuristic\n[seats]\n0 = h\n1 = h\n2 = h\n");
    char *cfg = write_config("seeds.ini", body);
    char *out = NULL, *err = NULL;
    assert_int_equal(cbt_cardbot(&out, &err, "match", "--config", cfg, "--games", "3", "--seed", "-5", NULL), 2);
    assert_non_null(strstr(err, "--seed -5"));
    g_free(out);
    g_free(err);
    assert_int_equal(cbt_cardbot(&out, &err, "match", "--config", cfg, "--games", "-1", NULL), 2);
    assert_non_null(strstr(err, "--games -1"));
    g_free(out);
    g_free(err);
    assert_int_equal(cbt_cardbot(&out, &err, "match", "--config", cfg, "--games", "6", NULL), 0);
    const char *line = strstr(out, "Seed ");
    assert_non_null(line);
    long long key = -1;
    assert_int_equal(sscanf(line, "Seed %lld", &key), 1);
    assert_null(strstr(out, "seed 1,")); /* not the old default */
    char *first = without_timing(out);
    g_free(out);
    g_free(err);
    char keytxt[32];
    snprintf(keytxt, sizeof keytxt, "%lld", key);
    assert_int_equal(cbt_cardbot(&out, &err, "match", "--config", cfg, "--games", "6", "--seed", keytxt, NULL), 0);
    char *again = without_timing(out);
    /* the same games: every result line after the header agrees */
    const char *a = strchr(first, '\n'), *b = strchr(again, '\n');
    assert_non_null(a);
    assert_non_null(b);
    const char *seed_line = strstr(a, "Seed ");
    assert_non_null(seed_line);
    assert_int_equal(strncmp(a, b, (size_t)(seed_line - a)), 0);
    g_free(first);
    g_free(again);
    g_free(out);
    g_free(err);
    g_free(cfg);
    g_free(body);
}

int main(void)
{
    /* replay headers carry the date: one fixed date, so two runs' replays compare byte for byte */
    g_setenv("SOURCE_DATE_EPOCH", "1700000000", TRUE);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pdk16),         cmocka_unit_test(test_pdk15),
        cmocka_unit_test(test_guanpai),       cmocka_unit_test(test_ddz),
        cmocka_unit_test(test_levels),        cmocka_unit_test(test_ismcts_configs),
        cmocka_unit_test(test_process_config), cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_illegal_plugin), cmocka_unit_test(test_belief_active),
        cmocka_unit_test(test_seed_attack),    cmocka_unit_test(test_seed_options),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    cbt_tmp_remove();
    return failed;
}

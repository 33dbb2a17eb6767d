/* cardbot match's run-shaping options, end to end on heuristic-only matches (fast):
 *  - --progress: with stderr a pipe, plain progress lines with every field (games done/total,
 *    per strategy win share and points with intervals, games/s, ETA) and one estimate line;
 *    none with --progress 0; about ten by default; stdout byte for byte the same with and
 *    without progress (timing lines aside); a bad value is refused;
 *  - --save-deals / --deals: a run saved and replayed with the same seed repeats itself — the
 *    summary and every game line (only the "Match:" line names the deals file), and the replay
 *    file byte for byte — for PDK and for DDZ with --duplicate (DDZ redeals included, at -j 2
 *    for the replay); a first_bidder the key would not draw is honoured, every hand at its
 *    seat; every kind of bad line is refused naming FILE:LINE; too few deals is refused;
 *  - --results without --shard, then cardbot merge of that one file, prints the run again;
 *  - --help-strategy: each bundled table as README has it, exec pointed to its README section;
 *  - mistakes refused before any game, each with its exact line: a [match] key other than
 *    games and seed or a bad value (match and tournament), an option out of its range, outputs
 *    that name one file or an input (match, tournament, merge, replay);
 *  - a strategy that never wins shows a win interval from 0.0%, not -0.0%. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "support/clifix.h"

/* Heuristic level 6 at seat 0 against level 3: a few milliseconds a game. The file NAME in the
 * temp dir, with extra (groups) at its end. */
static char *config_named(const char *name, const char *rules, const char *extra)
{
    char *body = g_strdup_printf("[game]\nrules = %s\n[strategy.strong]\nplugin = heuristic\nlevel = 6\n"
                                 "[strategy.weak]\nplugin = heuristic\nlevel = 3\n[seats]\n0 = strong\n1 = weak\n"
                                 "2 = weak\n%s",
                                 rules, extra);
    char *path = cbt_tmp_path("cbmatchcli", name);
    assert_true(g_file_set_contents(path, body, -1, NULL));
    g_free(body);
    return path;
}

static char *config(const char *rules)
{
    char *name = g_strdup_printf("%s.ini", rules);
    char *path = config_named(name, rules, "");
    g_free(name);
    return path;
}

/* The lines not starting with "timing" (the only ones allowed to differ between runs),
 * from line `from` (0: all). */
static char *stable(const char *s, int from)
{
    GString *g = g_string_new(NULL);
    char **lines = g_strsplit(s, "\n", -1);
    for (int i = from; lines[i]; i++)
        if (strncmp(lines[i], "timing", 6) != 0)
            g_string_append_printf(g, "%s\n", lines[i]);
    g_strfreev(lines);
    return g_string_free(g, FALSE);
}

static int count_prefix(const char *s, const char *prefix)
{
    int n = 0;
    char **lines = g_strsplit(s, "\n", -1);
    for (char **l = lines; *l; l++)
        n += g_str_has_prefix(*l, prefix);
    g_strfreev(lines);
    return n;
}

static void assert_same(const char *what, const char *a, const char *b)
{
    if (strcmp(a, b) != 0) {
        print_error("%s differ:\n--- first\n%s--- second\n%s", what, a, b);
        fail();
    }
}

static void test_progress(void **s)
{
    (void)s;
    char *cfg = config("ddz");
    char *out1, *err1, *out2, *err2, *out3, *err3;
    assert_int_equal(cbt_cardbot(&out1, &err1, "match", "--config", cfg, "--games", "12", "--seed", "4", "--progress",
                             "2", NULL), 0);
    assert_int_equal(cbt_cardbot(&out2, &err2, "match", "--config", cfg, "--games", "12", "--seed", "4", "--progress",
                             "0", NULL), 0);
    assert_int_equal(cbt_cardbot(&out3, &err3, "match", "--config", cfg, "--games", "30", "--seed", "4", NULL), 0);
    print_message("--progress 2, stderr:\n%s", err1);
    /* every 2 games: 6 lines; each with all its fields */
    assert_int_equal(count_prefix(err1, "progress "), 6);
    assert_non_null(strstr(err1, "progress 2/12 games: strong win "));
    assert_non_null(strstr(err1, "progress 12/12 games: "));
    GRegex *re = g_regex_new("^progress \\d+/12 games: strong win [0-9.]+% \\[[0-9.]+%, [0-9.]+%\\] pts [-+][0-9.]+ "
                             "\\[[-+][0-9.]+, [-+][0-9.]+\\], weak win [0-9.]+% \\[[0-9.]+%, [0-9.]+%\\] pts "
                             "[-+][0-9.]+ \\[[-+][0-9.]+, [-+][0-9.]+\\]; [0-9.]+ games/s, ETA \\S+$",
                             G_REGEX_MULTILINE, 0, NULL);
    GMatchInfo *mi = NULL;
    int matched = 0;
    for (g_regex_match(re, err1, 0, &mi); g_match_info_matches(mi); g_match_info_next(mi, NULL))
        matched++;
    g_match_info_free(mi);
    g_regex_unref(re);
    assert_int_equal(matched, 6);
    assert_int_equal(count_prefix(err1, "estimate: about "), 1);
    assert_non_null(strstr(err1, " for 12 games ("));
    assert_non_null(strstr(err1, " s/game at -j 1)"));
    assert_null(strstr(out1, "progress"));
    assert_null(strstr(out1, "estimate"));
    /* --progress 0: nothing; the results the same bytes */
    assert_int_equal(count_prefix(err2, "progress"), 0);
    assert_int_equal(count_prefix(err2, "estimate"), 0);
    char *a = stable(out1, 0), *b = stable(out2, 0);
    assert_same("stdout with and without progress", a, b);
    /* the default in a pipe: every 10% of the games */
    assert_int_equal(count_prefix(err3, "progress "), 10);
    assert_non_null(strstr(err3, "progress 3/30 games"));
    g_free(a);
    g_free(b);
    const char *bad[] = {"x", "-1", "5m", "3s2"};
    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
        char *o, *e;
        assert_int_equal(cbt_cardbot(&o, &e, "match", "--config", cfg, "--games", "3", "--progress", bad[i], NULL), 2);
        assert_non_null(strstr(e, "--progress"));
        assert_int_equal(count_prefix(e, "cardbot match: "), 1);
        g_free(o);
        g_free(e);
    }
    g_free(out1);
    g_free(err1);
    g_free(out2);
    g_free(err2);
    g_free(out3);
    g_free(err3);
    g_free(cfg);
}

/* The file's text ("" when it cannot be read: the comparisons then fail). */
static char *slurp(const char *path)
{
    GMappedFile *m = g_mapped_file_new(path, FALSE, NULL);
    if (!m)
        return g_strdup("");
    char *copy = g_strndup(g_mapped_file_get_contents(m), g_mapped_file_get_length(m));
    g_mapped_file_unref(m);
    return copy;
}

/* Run A saves its deals, run B plays them with the same seed (at -j 2): the same games. */
static void round_trip(const char *rules, bool duplicate)
{
    char *cfg = config(rules);
    char *deals = cbt_tmp_path("cbmatchcli", "deals.jsonl"), *ra = cbt_tmp_path("cbmatchcli", "a.jsonl"), *rb = cbt_tmp_path("cbmatchcli", "b.jsonl");
    const char *dup = duplicate ? "--duplicate" : "--quiet";
    char *outa, *erra, *outb, *errb;
    assert_int_equal(cbt_cardbot(&outa, &erra, "match", "--config", cfg, "--games", "45", "--seed", "11", dup,
                             "--progress", "0", "--save-deals", deals, "--replay", ra, NULL), 0);
    /* --games from the file: every deal (times 3 with --duplicate) */
    int rc = cbt_cardbot(&outb, &errb, "match", "--config", cfg, "--seed", "11", dup, "--progress", "0", "--deals", deals,
                     "--replay", rb, "--concurrency", "2", NULL);
    if (rc)
        print_error("%s", errb);
    assert_int_equal(rc, 0);
    char *text = slurp(deals);
    int lines = count_prefix(text, "{\"rules\":\"");
    assert_int_equal(lines, duplicate ? 15 : 45);
    if (!strcmp(rules, "ddz"))
        assert_int_equal(count_prefix(text, "{\"rules\":\"ddz\",\"hands\":[\""), lines);
    print_message("%s%s: %d deals saved, e.g. %.*s\n", rules, duplicate ? " --duplicate" : "", lines,
                  (int)(strchr(text, '\n') - text), text);
    /* the Match: line names the deals file, and nothing else differs */
    char *a = stable(outa, 1), *b = stable(outb, 1);
    assert_same("results of the saved and the replayed deals", a, b);
    assert_non_null(strstr(outb, ", deals from "));
    assert_null(strstr(outa, ", deals from "));
    char *repa = slurp(ra), *repb = slurp(rb);
    /* the header lines name the deals file (b's) and the date; every game line is the same */
    char *ga = stable(repa, 1), *gb = stable(repb, 1);
    assert_same("replay files' game lines", ga, gb);
    assert_non_null(strstr(repa, "\"deals\":null,"));
    assert_null(strstr(repb, "\"deals\":null,"));
    g_free(ga);
    g_free(gb);
    if (!strcmp(rules, "ddz")) /* the redeal path was taken */
        assert_non_null(strstr(repa, "\"redeals\":1"));
    g_free(repa);
    g_free(repb);
    g_free(a);
    g_free(b);
    g_free(text);
    g_free(outa);
    g_free(erra);
    g_free(outb);
    g_free(errb);
    g_free(deals);
    g_free(ra);
    g_free(rb);
    g_free(cfg);
}

static void test_deals_round_trip(void **s)
{
    (void)s;
    round_trip("pdk16", false);
    round_trip("pdk16", true);
    round_trip("ddz", true);
}

/* A first bidder the key would not draw: the given hand bids first, every hand at its seat
 * (hand h at seat (h - g mod 3) mod 3), in every rotation. */
static void test_deals_first_bidder(void **s)
{
    (void)s;
    char *cfg = config("ddz");
    char *deals = cbt_tmp_path("cbmatchcli", "fb.jsonl"), *rep = cbt_tmp_path("cbmatchcli", "fb-replay.jsonl");
    char *out, *err;
    assert_int_equal(cbt_cardbot(&out, &err, "match", "--config", cfg, "--games", "6", "--seed", "3", "--progress", "0",
                             "--save-deals", deals, NULL), 0);
    g_free(out);
    g_free(err);
    /* every line's first bidder moved on by one hand */
    char *text = slurp(deals);
    char **lines = g_strsplit(text, "\n", -1);
    GString *moved = g_string_new(NULL);
    int want[6];
    for (int i = 0; i < 6; i++) {
        char *p = strstr(lines[i], "\"first_bidder\":");
        assert_non_null(p);
        p += strlen("\"first_bidder\":");
        want[i] = (*p - '0' + 1) % 3;
        *p = (char)('0' + want[i]);
        g_string_append_printf(moved, "%s\n", lines[i]);
    }
    assert_true(g_file_set_contents(deals, moved->str, -1, NULL));
    assert_int_equal(cbt_cardbot(&out, &err, "match", "--config", cfg, "--games", "6", "--duplicate", "--seed", "3",
                             "--progress", "0", "--deals", deals, "--replay", rep, NULL), 0);
    char *rtext = slurp(rep);
    char **games = g_strsplit(rtext, "\n", -1);
    int checked = 0;
    for (int g = 0; g < 6; g++) {
        JsonParser *jp = json_parser_new();
        assert_true(json_parser_load_from_data(jp, games[g + 1], -1, NULL)); /* after the header */
        JsonObject *o = json_node_get_object(json_parser_get_root(jp));
        if (json_object_get_int_member(o, "redeals") == 0) { /* a redeal is the key's deal */
            int rot = g % 3, d = g / 3;
            assert_int_equal(json_object_get_int_member(o, "first_bidder"), (want[d] - rot + 3) % 3);
            JsonParser *dp = json_parser_new();
            assert_true(json_parser_load_from_data(dp, lines[d], -1, NULL));
            JsonArray *dh = json_object_get_array_member(json_node_get_object(json_parser_get_root(dp)), "hands");
            JsonArray *gh = json_object_get_array_member(o, "hands");
            for (int seat = 0; seat < 3; seat++)
                assert_string_equal(json_array_get_string_element(gh, (guint)seat),
                                    json_array_get_string_element(dh, (guint)((seat + rot) % 3)));
            g_object_unref(dp);
            checked++;
        }
        g_object_unref(jp);
    }
    print_message("moved first bidders honoured in %d of 6 games (the others were redealt)\n", checked);
    assert_true(checked >= 3);
    g_strfreev(games);
    g_free(rtext);
    g_strfreev(lines);
    g_string_free(moved, TRUE);
    g_free(text);
    g_free(out);
    g_free(err);
    g_free(rep);
    g_free(deals);
    g_free(cfg);
}

/* Each bad deals line: exit 2, one line on stderr naming FILE:LINE and the problem. */
static void test_deals_errors(void **s)
{
    (void)s;
    char *ddz = config("ddz"), *pdk = config("pdk16");
    char *good = cbt_tmp_path("cbmatchcli", "good.jsonl");
    char *out, *err;
    assert_int_equal(cbt_cardbot(&out, &err, "match", "--config", ddz, "--games", "2", "--seed", "3", "--progress", "0",
                             "--save-deals", good, NULL), 0);
    g_free(out);
    g_free(err);
    char *text = slurp(good);
    char *nl = strchr(text, '\n');
    *nl = 0; /* the first line */
    JsonParser *jp = json_parser_new();
    assert_true(json_parser_load_from_data(jp, text, -1, NULL));
    JsonObject *o = json_node_get_object(json_parser_get_root(jp));
    JsonArray *h = json_object_get_array_member(o, "hands");
    const char *h0 = json_array_get_string_element(h, 0), *h1 = json_array_get_string_element(h, 1),
               *h2 = json_array_get_string_element(h, 2), *bot = json_object_get_string_member(o, "bottom");
    /* hands[1] gets hands[0]'s first card in place of its own last one */
    char *h1dup = g_strdup_printf("%.*s%.2s", (int)strlen(h1) - 2, h1, h0);
    const char *pdk_good = "{\"rules\":\"pdk16\",\"hands\":[\"3s3h3c3d4s4h4c4d5s5h5c5d6s6h6c6d\","
                           "\"7s7h7c7d8s8h8c8d9s9h9c9dTsThTcTd\",\"JsJhJcJdQsQhQcQdKsKhKcKdAhAcAd2s\"]}";
    GPtrArray *keep = g_ptr_array_new_with_free_func(g_free); /* the lines made here */
#define MADE(...) ((const char *)g_ptr_array_index(keep, (g_ptr_array_add(keep, g_strdup_printf(__VA_ARGS__)), \
                                                          keep->len - 1)))
    struct {
        const char *cfg, *line, *want;
    } cases[] = {
        {ddz, "{\"rules\":\"ddz\"", "not JSON"},
        {ddz, "[1,2,3]", "not a JSON object"},
        {ddz, "{\"rules\":\"pdk16\",\"hands\":[\"3\",\"4\",\"5\"]}", "rules 'pdk16': this match plays ddz"},
        {ddz, MADE("{\"rules\":\"ddz\",\"hands\":[\"%s\",\"%s\",\"%s\"],\"bottom\":\"%s\"}", h0, h1dup, h2, bot),
         "already dealt to an earlier hand"},
        {ddz, MADE("{\"rules\":\"ddz\",\"hands\":[\"%s\",\"%s\"],\"bottom\":\"%s\"}", h0, h1, bot),
         "hands: not an array of 3"},
        {ddz, MADE("{\"rules\":\"ddz\",\"hands\":[\"%.*s\",\"%s\",\"%s\"],\"bottom\":\"%s\"}", (int)strlen(h0) - 2,
                   h0, h1, h2, bot), "hands[0]: 16 cards, a ddz hand has 17"},
        {ddz, MADE("{\"rules\":\"ddz\",\"hands\":[\"%s\",\"%s\",\"%s\"]}", h0, h1, h2), "bottom: missing"},
        {ddz, MADE("{\"rules\":\"ddz\",\"hands\":[\"%s\",\"%s\",\"%s\"],\"bottom\":\"%.2s\"}", h0, h1, h2, bot),
         "bottom: 1 cards, ddz has 3"},
        {ddz, MADE("{\"rules\":\"ddz\",\"hands\":[\"%s\",\"%s\",\"%s\"],\"bottom\":\"%s\",\"first_bidder\":3}", h0, h1,
                   h2, bot), "first_bidder: not a hand number 0..2"},
        {ddz, MADE("{\"rules\":\"ddz\",\"hands\":[\"%s\",\"%s\",\"%s\"],\"bottom\":\"%s\",\"first_bider\":1}", h0, h1,
                   h2, bot), "unknown member 'first_bider'"},
        {pdk, "{\"rules\":\"pdk16\",\"hands\":[\"3s3h3c3d4s4h4c4d5s5h5c5d6s6h6c6d\",\"7s7h7c7d8s8h8c8d9s9h9c9dTsThTcTd\","
              "\"JsJhJcJdQsQhQcQdKsKhKcKdAhAcAdX\"]}", "hands[2]: card X is not in the deck"},
        {pdk, "{\"rules\":\"pdk16\",\"hands\":[\"3s3h3c3d4s4h4c4d5s5h5c5d6s6h6c6d\",\"7s7h7c7d8s8h8c8d9s9h9c9dTsThTcTd\","
              "\"JsJhJcJdQsQhQcQdKsKhKcKdAhAcAd2h\"]}", "hands[2]: card 2h is not in the deck"},
        {pdk, "{\"rules\":\"pdk16\",\"hands\":[\"3s3h3c3d4s4h4c4d5s5h5c5d6s6h6c6d\",\"7s7h7c7d8s8h8c8d9s9h9c9dTsThTcTd\","
              "\"JsJhJcJdQsQhQcQdKsKhKcKdAhAcAd2s\"],\"bottom\":\"\"}", "bottom: pdk16 deals have no bottom cards"},
        {pdk, "{\"rules\":\"pdk16\",\"hands\":[\"3s3h3c3d4s4h4c4d5s5h5c5d6s6h6c6d\",\"7s7h7c7d8s8h8c8d9s9h9c9dTsThTcTd\","
              "\"JsJhJcJdQsQhQcQdKsKhKcKdAhAcAd2s\"],\"first_bidder\":0}", "first_bidder: pdk16 has no bidding order"},
    };
#undef MADE
    char *bad = cbt_tmp_path("cbmatchcli", "bad.jsonl");
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        /* a good line first, a blank one, then the bad one: line 3 */
        char *body = g_strdup_printf("%s\n\n%s\n", cases[i].cfg == ddz ? text : pdk_good, cases[i].line);
        assert_true(g_file_set_contents(bad, body, -1, NULL));
        int rc = cbt_cardbot(&out, &err, "match", "--config", cases[i].cfg, "--seed", "1", "--progress", "0", "--deals",
                         bad, NULL);
        char *where = g_strdup_printf("cardbot match: --deals: %s:3: ", bad);
        if (rc != 2 || !g_str_has_prefix(err, where) || !strstr(err, cases[i].want) ||
            count_prefix(err, "") != 2 /* one line and the empty rest */) {
            print_error("case %zu: %s\nstatus %d, stderr: %s(wanted '%s')\n", i, cases[i].line, rc, err, cases[i].want);
            fail();
        }
        assert_int_equal(strlen(out), 0); /* nothing played */
        g_free(where);
        g_free(body);
        g_free(out);
        g_free(err);
    }
    /* the good lines play; too few deals for the games asked is refused before any game */
    assert_true(g_file_set_contents(bad, pdk_good, -1, NULL));
    assert_int_equal(cbt_cardbot(&out, &err, "match", "--config", pdk, "--seed", "1", "--progress", "0", "--deals", bad,
                             NULL), 0);
    assert_non_null(strstr(out, "1 game, seed 1, deals from "));
    g_free(out);
    g_free(err);
    assert_int_equal(cbt_cardbot(&out, &err, "match", "--config", ddz, "--seed", "1", "--games", "9", "--progress", "0",
                             "--duplicate", "--deals", good, NULL), 2);
    assert_non_null(strstr(err, "has 2 deals; 9 games need 3 (one per 3 games with --duplicate)"));
    assert_int_equal(strlen(out), 0);
    g_free(out);
    g_free(err);
    g_ptr_array_free(keep, TRUE);
    g_object_unref(jp);
    g_free(h1dup);
    g_free(text);
    g_free(bad);
    g_free(good);
    g_free(pdk);
    g_free(ddz);
}

/* The sums over a summary's "timing NAME decisions N ... with a choice M ..." lines. */
static void timing_counts(const char *out, long *n, long *c)
{
    for (const char *p = out; (p = strstr(p, "\ntiming ")); p++) {
        long dn = 0, dc = 0;
        const char *d = strstr(p + 1, " decisions "), *w = strstr(p + 1, "with a choice ");
        const char *eol = strchr(p + 1, '\n');
        if (!d || !w || (eol && (d > eol || w > eol)))
            continue;
        assert_int_equal(sscanf(d, " decisions %ld", &dn), 1);
        assert_int_equal(sscanf(w, "with a choice %ld", &dc), 1);
        *n += dn;
        *c += dc;
    }
}

/* --results without --shard is the whole match as shard 1/1: merging that one file prints
 * the run again, the random key's closing line included. */
static void test_results_whole(void **s)
{
    (void)s;
    char *cfg = config("pdk16");
    char *res = cbt_tmp_path("cbmatchcli", "whole.res");
    char *out, *err, *mout, *merr;
    assert_int_equal(cbt_cardbot(&out, &err, "match", "--config", cfg, "--games", "7", "--progress", "0", "--results",
                             res, NULL), 0);
    assert_non_null(strstr(out, "seed chosen at random"));
    assert_int_equal(cbt_cardbot(&mout, &merr, "merge", res, NULL), 0);
    /* a results file given to replay is named for what it is, with the way to a replay */
    char *rout, *rerr;
    assert_int_equal(cbt_cardbot(&rout, &rerr, "replay", res, NULL), 2);
    if (!strstr(rerr, ":1: a results file (cardbot match --results), not a replay: `cardbot merge --replay")) {
        print_error("stderr:\n%s", rerr);
        fail();
    }
    g_free(rout);
    g_free(rerr);
    char *a = stable(out, 0), *b = stable(mout, 0);
    assert_same("the run and the merge of its results", a, b);
    assert_non_null(strstr(b, "(chosen at random: replay this match with --seed "));
    /* the timing lines count the decisions and those with a choice; the merge reads the
     * forced plays back from the results, so it counts the same */
    long n_run = 0, c_run = 0, n_merge = 0, c_merge = 0;
    timing_counts(out, &n_run, &c_run);
    timing_counts(mout, &n_merge, &c_merge);
    assert_true(c_run > 0 && c_run < n_run); /* PDK under must_beat: some passes are forced */
    assert_int_equal(n_run, n_merge);
    assert_int_equal(c_run, c_merge);
    char *text = NULL;
    assert_true(g_file_get_contents(res, &text, NULL, NULL));
    long forced = 0;
    for (const char *p = text; (p = strstr(p, "\"forced\":true")); p++)
        forced++;
    assert_int_equal(forced, n_run - c_run); /* bids always have a choice */
    g_free(text);
    g_free(a);
    g_free(b);
    g_free(out);
    g_free(err);
    g_free(mout);
    g_free(merr);
    g_free(res);
    g_free(cfg);
}

/* --help-strategy prints each bundled plugin's parameter table: the very block README holds
 * between its params markers (both come from the plugin's own table); no config needed. exec
 * has no table: it is described, with its keys and where README explains them. */
static void test_help_strategy(void **s)
{
    (void)s;
    char *readme = slurp("README.md");
    assert_true(readme[0]);
    static const char *const plugins[] = {"ismcts", "heuristic", "pimc", "rulebot"};
    for (size_t i = 0; i < sizeof plugins / sizeof plugins[0]; i++) {
        char *out, *err;
        assert_int_equal(cbt_cardbot(&out, &err, "match", "--help-strategy", plugins[i], NULL), 0);
        char *open = g_strdup_printf("<!-- params:%s -->\n", plugins[i]);
        char *close = g_strdup_printf("<!-- /params:%s -->", plugins[i]);
        const char *a = strstr(readme, open), *b = a ? strstr(a, close) : NULL;
        assert_non_null(a);
        assert_non_null(b);
        char *block = g_strndup(a + strlen(open), (size_t)(b - a - strlen(open)));
        if (!strstr(out, block))
            print_error("--help-strategy %s printed:\n%s\nREADME has:\n%s\n", plugins[i], out, block);
        assert_non_null(strstr(out, block));
        g_free(block);
        g_free(open);
        g_free(close);
        g_free(out);
        g_free(err);
    }
    /* exec has no table: what it is, its keys, and the README section that describes each of
     * them (the section's example names every key) */
    char *out, *err;
    assert_int_equal(cbt_cardbot(&out, &err, "match", "--help-strategy", "exec", NULL), 0);
    print_message("%s", out);
    assert_true(g_str_has_prefix(out, "plugin = exec: a bot in any language"));
    assert_non_null(strstr(out, "README, section \"Bots in any language\".\n"));
    assert_string_equal(err, "");
    const char *sec = strstr(readme, "\n## Bots in any language\n");
    assert_non_null(sec);
    const char *sec_end = strstr(sec + 1, "\n## ");
    char *section = sec_end ? g_strndup(sec, (size_t)(sec_end - sec)) : g_strdup(sec);
    static const char *const keys[] = {"command", "cwd", "env", "stderr", "start_ms", "log"};
    for (size_t i = 0; i < G_N_ELEMENTS(keys); i++) {
        char *listed = g_strdup_printf(" %s%s", keys[i], i + 1 < G_N_ELEMENTS(keys) ? " " : ".");
        char *listed_c = g_strdup_printf(" %s,", keys[i]), *in_readme = g_strdup_printf("\n%s = ", keys[i]),
             *in_readme_c = g_strdup_printf("\n# %s = ", keys[i]);
        assert_true(strstr(out, listed) || strstr(out, listed_c));
        assert_true(strstr(section, in_readme) || strstr(section, in_readme_c));
        g_free(listed);
        g_free(listed_c);
        g_free(in_readme);
        g_free(in_readme_c);
    }
    g_free(section);
    g_free(out);
    g_free(err);
    assert_int_equal(cbt_cardbot(&out, &err, "match", "--help-strategy", "nosuch", NULL), 2);
    assert_string_equal(err, "cardbot match: --help-strategy nosuch: no such bundled plugin (ismcts, heuristic, pimc, "
                             "rulebot, exec)\n");
    assert_string_equal(out, "");
    g_free(out);
    g_free(err);
    g_free(readme);
}

/* A refusal before any game: exit 2, nothing on stdout, stderr exactly want (one line). Frees
 * out and err. */
static void refused(const char *what, int rc, char *out, char *err, const char *want)
{
    if (rc != 2 || strcmp(err, want) != 0 || out[0]) {
        print_error("%s: status %d (want 2), stdout '%s', stderr:\n%s(want:\n%s)\n", what, rc, out, err, want);
        fail();
    }
    g_free(out);
    g_free(err);
}

/* cardbot ARGS... must be refused with want: REFUSED(want, "match", "--config", ...). */
#define REFUSED(want, ...)                                                                                     \
    do {                                                                                                      \
        char *o_, *e_;                                                                                        \
        int rc_ = cbt_cardbot(&o_, &e_, __VA_ARGS__, NULL);                                                   \
        refused(#__VA_ARGS__, rc_, o_, e_, want);                                                             \
    } while (0)

/* [match] holds games and seed, for match and tournament alike: any other key, and a value
 * that is not a number in range, is refused naming the file, the group and the key. */
static void test_match_group(void **s)
{
    (void)s;
    static const struct {
        const char *extra, *want;
    } cases[] = {
        {"[match]\ngames = 4\nduplicate = true\n", "[match] duplicate: unknown key (games, seed)"},
        {"[match]\ngame = 5\n", "[match] game: unknown key (games, seed)"},
        {"[match]\nseed = 1\nrandom = yes\n", "[match] random: unknown key (games, seed)"},
        {"[match]\ngames[zh] = 5\n", "[match] games[zh]: unknown key (games, seed)"},
        {"[match]\ngames = 0\n", "[match] games: 0: must be 1..10000000"},
        {"[match]\ngames = 10000001\n", "[match] games: 10000001: must be 1..10000000"},
        {"[match]\ngames = 99999999999999999999\n", "[match] games: 99999999999999999999: must be 1..10000000"},
        {"[match]\ngames = 3x\n", "[match] games: not a number: '3x'"},
        {"[match]\nseed = abc\n", "[match] seed: not a number: 'abc'"},
        {"[match]\nseed =\n", "[match] seed: not a number: ''"},
        {"[match]\nseed = -1\n", "[match] seed: -1: must be 0..9223372036854775807"},
        /* past strtoll's range: still the range, not "0 or more" */
        {"[match]\nseed = 9223372036854775808\n", "[match] seed: 9223372036854775808: must be 0..9223372036854775807"},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        char *cfg = config_named("group.ini", "pdk16", cases[i].extra);
        char *want = g_strdup_printf("cardbot match: %s: %s\n", cfg, cases[i].want);
        REFUSED(want, "match", "--config", cfg, "--progress", "0");
        /* the file is wrong whatever the options say */
        REFUSED(want, "match", "--config", cfg, "--games", "3", "--seed", "1", "--progress", "0");
        g_free(want);
        want = g_strdup_printf("cardbot tournament: %s: %s\n", cfg, cases[i].want);
        REFUSED(want, "tournament", "--config", cfg, "--round-robin");
        g_free(want);
        g_free(cfg);
    }
    /* both keys, read; trailing blanks are not part of a value here either, as the shim reads
     * values (host-shim/conf_value.h) */
    const char *good[] = {"[match]\ngames = 4\nseed = 9\n", "[match]\ngames = 4 \nseed = 9\t\n"};
    for (size_t i = 0; i < G_N_ELEMENTS(good); i++) {
        char *cfg = config_named("group.ini", "pdk16", good[i]);
        char *out, *err;
        assert_int_equal(cbt_cardbot(&out, &err, "match", "--config", cfg, "--quiet", "--progress", "0", NULL), 0);
        assert_non_null(strstr(out, ", rules pdk16, 4 games, seed 9\n"));
        g_free(out);
        g_free(err);
        g_free(cfg);
    }
}

/* The replay header records the config as the shim read it: with trailing blanks after the
 * rules' name, a [rules] flag and a strategy's parameter, the header still has the rules'
 * flags and the parameter without its blanks (the strategies "as the plugin's create()
 * receives them"); a translated key is a key of its own whatever the locale. */
static void test_replay_header_values(void **s)
{
    (void)s;
    char *cfg = config_named("blanks.ini", "pdk16 \t",
                             "[rules]\nmust_beat = false \n[strategy.x]\nplugin = heuristic\nlevel = 5 \n");
    char *replay = cbt_tmp_path("cbmatchcli", "blanks.jsonl");
    char *out, *err;
    assert_int_equal(cbt_cardbot(&out, &err, "match", "--config", cfg, "--games", "1", "--seed", "3", "--replay",
                                 replay, "--quiet", "--progress", "0", NULL),
                     0);
    g_free(out);
    g_free(err);
    char *text = NULL;
    assert_true(g_file_get_contents(replay, &text, NULL, NULL));
    char *nl = strchr(text, '\n');
    assert_non_null(nl);
    *nl = '\0'; /* the header line */
    assert_non_null(strstr(text, "\"preset\":\"pdk16\""));
    assert_non_null(strstr(text, "\"must_beat\":false"));
    assert_non_null(strstr(text, "\"x\":{\"plugin\":\"heuristic\",\"level\":\"5\"}"));
    g_free(text);
    g_free(cfg);
    /* level[zh]: kept by GKeyFile only under a zh locale without KEEP_TRANSLATIONS; a key of
     * its own (here: one the heuristic refuses) in every locale with it */
    cfg = config_named("zh.ini", "pdk16", "[strategy.x]\nplugin = heuristic\nlevel[zh] = 2\n");
    assert_int_equal(cbt_cardbot(&out, &err, "match", "--config", cfg, "--games", "1", "--seed", "3", "--quiet",
                                 "--progress", "0", NULL),
                     2);
    assert_non_null(strstr(err, "level[zh]"));
    g_free(out);
    g_free(err);
    g_free(cfg);
    g_free(replay);
}

/* Each option out of range says which one and its range; --landlord tells a seat that does
 * not exist from rules without a landlord. */
static void test_option_ranges(void **s)
{
    (void)s;
    char *pdk = config("pdk16"), *ddz = config("ddz");
    REFUSED("cardbot match: --games 0: must be 1..10000000\n", "match", "--config", pdk, "--games", "0");
    REFUSED("cardbot match: --games 10000001: must be 1..10000000\n", "match", "--config", pdk, "--games",
            "10000001");
    REFUSED("cardbot match: --concurrency 0: must be 1..256\n", "match", "--config", pdk, "-j", "0");
    REFUSED("cardbot match: --concurrency 257: must be 1..256\n", "match", "--config", pdk, "-j", "257");
    REFUSED("cardbot match: --seed -2: must be 0..9223372036854775807\n", "match", "--config", pdk, "--seed", "-2");
    /* an output that cannot be opened says why, as the report does */
    REFUSED("cardbot match: cannot write replay file '/nonexistent-dir/x.jsonl': No such file or directory\n",
            "match", "--config", pdk, "--games", "3", "--replay", "/nonexistent-dir/x.jsonl");
    REFUSED("cardbot match: --landlord 3: must be a seat 0..2\n", "match", "--config", ddz, "--landlord", "3");
    char *want = g_strdup_printf("cardbot match: --landlord 0: only ddz has a landlord; %s plays pdk16\n", pdk);
    REFUSED(want, "match", "--config", pdk, "--landlord", "0");
    g_free(want);
    REFUSED("cardbot tournament: --landlord 3: must be a seat 0..2\n", "tournament", "--config", ddz,
            "--round-robin", "--landlord", "3");
    want = g_strdup_printf("cardbot tournament: --landlord 1: only ddz has a landlord; %s plays pdk16\n", pdk);
    REFUSED(want, "tournament", "--config", pdk, "--round-robin", "--landlord", "1");
    g_free(want);
    REFUSED("cardbot tournament: --concurrency 0: must be 1..256\n", "tournament", "--config", pdk, "--round-robin",
            "-j", "0");
    g_free(pdk);
    g_free(ddz);
}

/* Outputs that name one file, or an input, are refused before anything is opened: the same
 * text, another spelling of the directory, a hard link. /dev/null takes any number. */
static void test_output_files(void **s)
{
    (void)s;
    char *cfg = config("pdk16"), *before = slurp(cfg);
    char *x = cbt_tmp_path("cbmatchcli", "x.jsonl"), *dir = g_path_get_dirname(x);
    char *want = g_strdup_printf("cardbot match: --replay %s: the same file as --results\n", x);
    REFUSED(want, "match", "--config", cfg, "--games", "6", "--seed", "1", "--results", x, "--replay", x);
    assert_false(g_file_test(x, G_FILE_TEST_EXISTS));
    g_free(want);
    want = g_strdup_printf("cardbot match: --replay %s: that is the --config file (refusing to overwrite an input)\n",
                           cfg);
    REFUSED(want, "match", "--config", cfg, "--games", "6", "--seed", "1", "--replay", cfg);
    g_free(want);
    /* the directory spelled another way, through "." and through a symlink to it */
    char *dotted = g_strdup_printf("%s/./x.html", dir), *plain = g_strdup_printf("%s/x.html", dir);
    want = g_strdup_printf("cardbot match: --report %s: the same file as --save-deals %s\n", dotted, plain);
    REFUSED(want, "match", "--config", cfg, "--games", "6", "--save-deals", plain, "--report", dotted);
    g_free(want);
    char *alias = cbt_tmp_path("cbmatchcli", "alias"), *via = g_strdup_printf("%s/y.res", alias);
    assert_int_equal(symlink(dir, alias), 0);
    char *y = cbt_tmp_path("cbmatchcli", "y.res");
    want = g_strdup_printf("cardbot match: --replay %s: the same file as --results %s\n", y, via);
    REFUSED(want, "match", "--config", cfg, "--games", "6", "--results", via, "--replay", y);
    g_free(want);
    /* a symlink to an output not written yet: writing through it makes that file */
    char *dangling = cbt_tmp_path("cbmatchcli", "dangling.jsonl"), *absent = cbt_tmp_path("cbmatchcli", "absent.jsonl");
    assert_int_equal(symlink("absent.jsonl", dangling), 0);
    want = g_strdup_printf("cardbot match: --replay %s: the same file as --results %s\n", dangling, absent);
    REFUSED(want, "match", "--config", cfg, "--games", "6", "--results", absent, "--replay", dangling);
    assert_false(g_file_test(absent, G_FILE_TEST_EXISTS));
    g_free(want);
    g_free(dangling);
    g_free(absent);
    /* a deals file: not written over, under its name or a hard link's */
    char *deals = cbt_tmp_path("cbmatchcli", "in.deals"), *hard = cbt_tmp_path("cbmatchcli", "hard.deals");
    char *out, *err;
    assert_int_equal(cbt_cardbot(&out, &err, "match", "--config", cfg, "--games", "2", "--seed", "1", "--progress", "0",
                                 "--save-deals", deals, NULL), 0);
    g_free(out);
    g_free(err);
    char *deals_before = slurp(deals);
    want = g_strdup_printf("cardbot match: --save-deals %s: that is the --deals file (refusing to overwrite an "
                           "input)\n", deals);
    REFUSED(want, "match", "--config", cfg, "--deals", deals, "--save-deals", deals);
    g_free(want);
    assert_int_equal(link(deals, hard), 0);
    want = g_strdup_printf("cardbot match: --replay %s: that is the --deals file (refusing to overwrite an input)\n",
                           hard);
    REFUSED(want, "match", "--config", cfg, "--deals", deals, "--replay", hard);
    g_free(want);
    char *deals_after = slurp(deals), *after = slurp(cfg);
    assert_string_equal(deals_after, deals_before);
    assert_string_equal(after, before);
    /* nothing to overwrite in a device */
    assert_int_equal(cbt_cardbot(&out, &err, "match", "--config", cfg, "--games", "2", "--seed", "1", "--progress", "0",
                                 "--results", "/dev/null", "--replay", "/dev/null", NULL), 0);
    g_free(out);
    g_free(err);
    /* tournament --report, merge --replay, replay --html: the same rule */
    want = g_strdup_printf("cardbot tournament: --report %s: that is the --config file (refusing to overwrite an "
                           "input)\n", cfg);
    REFUSED(want, "tournament", "--config", cfg, "--round-robin", "--games", "6", "--report", cfg);
    g_free(want);
    char *res = cbt_tmp_path("cbmatchcli", "one.res"), *rep = cbt_tmp_path("cbmatchcli", "rep.html");
    assert_int_equal(cbt_cardbot(&out, &err, "match", "--config", cfg, "--games", "2", "--seed", "1", "--progress", "0",
                                 "--results", res, "--replay", rep, NULL), 0);
    g_free(out);
    g_free(err);
    char *res_before = slurp(res), *rep_before = slurp(rep);
    want = g_strdup_printf("cardbot merge: --replay %s: that is the results file (refusing to overwrite an input)\n",
                           res);
    REFUSED(want, "merge", "--replay", res, res);
    g_free(want);
    want = g_strdup_printf("cardbot replay: --html %s: that is the replay file (refusing to overwrite an input)\n",
                           rep);
    REFUSED(want, "replay", "--html", rep);
    g_free(want);
    char *res_after = slurp(res), *rep_after = slurp(rep);
    assert_string_equal(res_after, res_before);
    assert_string_equal(rep_after, rep_before);
    g_free(res_after);
    g_free(rep_after);
    g_free(res_before);
    g_free(rep_before);
    g_free(res);
    g_free(rep);
    g_free(deals_after);
    g_free(deals_before);
    g_free(after);
    g_free(deals);
    g_free(hard);
    g_free(y);
    g_free(via);
    g_free(alias);
    g_free(dotted);
    g_free(plain);
    g_free(dir);
    g_free(x);
    g_free(before);
    g_free(cfg);
}

/* A strategy that never wins: its interval starts at 0.0%, in the summary and in the progress
 * lines, never at -0.0% (at 5 seat-games the formula's lower bound rounds below zero). */
static void test_win_interval_zero(void **s)
{
    (void)s;
    char *plugins = g_strdup_printf("%s/tests/plugins", cbt_build_dir());
    char *abs = g_canonicalize_filename(plugins, NULL);
    char *extra = g_strdup_printf("[shim]\nplugin_dir = %s\n[strategy.low]\nplugin = lowest\n[table.low]\n0 = low\n"
                                  "1 = strong\n2 = strong\n",
                                  abs);
    char *cfg = config_named("low.ini", "pdk16", extra);
    char *out, *err;
    assert_int_equal(cbt_cardbot(&out, &err, "match", "--config", cfg, "--table", "low", "--games", "5", "--seed", "2",
                                 "--quiet", "--progress", "1", NULL), 0);
    if (!strstr(out, "\nlow                    5    0.0% [0.0%, 43.4%] ") ||
        !strstr(err, "progress 5/5 games: low win 0.0% [0.0%, 43.4%] ") || strstr(out, "-0.0%") ||
        strstr(err, "-0.0%")) {
        print_error("stdout:\n%sstderr:\n%s", out, err);
        fail();
    }
    g_free(out);
    g_free(err);
    g_free(cfg);
    g_free(extra);
    g_free(abs);
    g_free(plugins);
}

/* The role columns: PDK's 包庄 columns only under rules with 包庄, DDZ's bidding columns always;
 * a rate of no attempts (a seat that never declares, never becomes landlord) is "-", not 0.0%;
 * no line of the table ends in blanks. "lowest" bids its "bid" parameter: 0, never. */
static void test_role_columns(void **s)
{
    (void)s;
    char *plugins = g_strdup_printf("%s/tests/plugins", cbt_build_dir());
    char *abs = g_canonicalize_filename(plugins, NULL);
    const char *cases[][4] = {
        /* rules, [rules] lines, what the header line and low's line end with */
        {"pdk16", "", "Bao% BaoWin%", " 0.0%       -"},
        {"pdk16", "[rules]\nbao = false\n", "Pts/game 95% CI", "]"},
        {"ddz", "", "Bid%     LL%   LLwin%", " 0.0%    0.0%        -"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char *extra = g_strdup_printf("%s[shim]\nplugin_dir = %s\n[strategy.low]\nplugin = lowest\n[table.low]\n"
                                      "0 = low\n1 = strong\n2 = strong\n",
                                      cases[c][1], abs);
        char *name = g_strdup_printf("roles%zu.ini", c);
        char *cfg = config_named(name, cases[c][0], extra);
        char *out, *err;
        assert_int_equal(cbt_cardbot(&out, &err, "match", "--config", cfg, "--table", "low", "--games", "6", "--seed",
                                     "3", "--quiet", "--progress", "0", NULL),
                         0);
        char **lines = g_strsplit(out, "\n", -1);
        const char *header = NULL, *low = NULL;
        bool blanks = false;
        for (char **l = lines; *l; l++) {
            size_t n = strlen(*l);
            if (g_str_has_prefix(*l, "Strategy "))
                header = *l;
            else if (g_str_has_prefix(*l, "low "))
                low = *l;
            else
                continue;
            blanks |= n && (*l)[n - 1] == ' ';
        }
        bool ok = header && low && !blanks && g_str_has_suffix(header, cases[c][2]) &&
                  g_str_has_suffix(low, cases[c][3]) && (c != 1 || !strstr(header, "Bao"));
        if (!ok) {
            print_error("case %zu stdout:\n%s", c, out);
            fail();
        }
        g_strfreev(lines);
        g_free(out);
        g_free(err);
        g_free(cfg);
        g_free(name);
        g_free(extra);
    }
    g_free(abs);
    g_free(plugins);
}

/* A short option's value may be attached, as getopt allows: -j2 -g6 -s4 plays what -j 2 --games 6
 * --seed 4 plays (GOption alone read -j2 as -j taking the next argument); values attached to
 * a flag that takes none are still refused, and after "--" nothing is split. */
static void test_attached_short_values(void **s)
{
    (void)s;
    char *pdk = config("pdk16");
    char *o1, *e1, *o2, *e2;
    assert_int_equal(cbt_cardbot(&o1, &e1, "match", "--config", pdk, "-j2", "-g6", "-s4", "--progress", "0", NULL), 0);
    assert_int_equal(
        cbt_cardbot(&o2, &e2, "match", "--config", pdk, "-j", "2", "--games", "6", "--seed", "4", "--progress", "0", NULL),
        0);
    char *a = stable(o1, 0), *b = stable(o2, 0);
    assert_same("-j2 -g6 -s4 and -j 2 --games 6 --seed 4", a, b);
    if (!strstr(o1, "\ntiming concurrency 2\n") || count_prefix(o1, "Finished game ") != 6) {
        print_error("stdout:\n%s", o1);
        fail();
    }
    REFUSED("cardbot match: Cannot parse integer value \u201cx\u201d for -j (try cardbot match --help)\n", "match",
            "--config", pdk, "-jx");
    /* the value of the option before is never split: --seed -s5 gives --seed the text -s5 */
    REFUSED("cardbot match: Cannot parse integer value \u201c-s5\u201d for --seed (try cardbot match --help)\n",
            "match", "--config", pdk, "--seed", "-s5");
    /* the rules tools' shared options too: -rddz is --rules ddz */
    char *c1, *c2, *x1, *x2;
    assert_int_equal(cbt_cardbot(&c1, &x1, "classify", "-rddz", "-fmust_beat=false", "33344", NULL), 0);
    assert_int_equal(cbt_cardbot(&c2, &x2, "classify", "--rules", "ddz", "--flag", "must_beat=false", "33344", NULL), 0);
    assert_string_equal(c1, c2);
    g_free(c1);
    g_free(c2);
    g_free(x1);
    g_free(x2);
    char *out, *err;
    assert_int_equal(cbt_cardbot(&out, &err, "replay", "--", "-g2", NULL), 2);
    if (!strstr(err, "'-g2'")) {
        print_error("stderr:\n%s", err);
        fail();
    }
    g_free(out);
    g_free(err);
    g_free(a);
    g_free(b);
    g_free(o1);
    g_free(e1);
    g_free(o2);
    g_free(e2);
    g_free(pdk);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_progress),
        cmocka_unit_test(test_deals_round_trip),
        cmocka_unit_test(test_deals_first_bidder),
        cmocka_unit_test(test_deals_errors),
        cmocka_unit_test(test_results_whole),
        cmocka_unit_test(test_help_strategy),
        cmocka_unit_test(test_match_group),
        cmocka_unit_test(test_replay_header_values),
        cmocka_unit_test(test_option_ranges),
        cmocka_unit_test(test_output_files),
        cmocka_unit_test(test_win_interval_zero),
        cmocka_unit_test(test_role_columns),
        cmocka_unit_test(test_attached_short_values),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    cbt_tmp_remove();
    return failed;
}

/* The cardbot-1 codec (include/cardbot/json.h, core/view_json.c): every view the engine builds
 * in whole games of each preset (and with flags changed) goes to a request line and back to
 * an equal view that cb_view_check still accepts; every rules flag a preset can change
 * survives the trip (walking cb_rules_keys, so a flag added to the rules but not to the codec
 * fails here); malformed requests and answers are refused with the member named; answers
 * read back what cb_json_answer_format wrote, match rank-only card text to the hand, cut
 * explanations at a UTF-8 boundary and never take the FALLBACK flag from a bot. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "cardbot/game.h"
#include "cardbot/json.h"

/* Every member of two views agrees (history by content, rules by cb_rules_equal). */
static void assert_views_equal(const cb_view *a, const cb_view *b)
{
    assert_true(cb_rules_equal(a->rules, b->rules));
    assert_int_equal(a->phase, b->phase);
    assert_int_equal(a->seat, b->seat);
    assert_int_equal(a->nseats, b->nseats);
    assert_int_equal(a->first_seat, b->first_seat);
    assert_int_equal(a->first_bidder, b->first_bidder);
    assert_true(a->hand == b->hand);
    for (int s = 0; s < a->nseats; s++) {
        assert_int_equal(a->cards_left[s], b->cards_left[s]);
        assert_int_equal(a->bombs[s], b->bombs[s]);
        assert_int_equal(a->bids[s], b->bids[s]);
    }
    assert_int_equal(a->landlord, b->landlord);
    assert_true(a->bottom == b->bottom);
    assert_int_equal(a->nhistory, b->nhistory);
    for (int i = 0; i < a->nhistory; i++) {
        assert_int_equal(a->history[i].seat, b->history[i].seat);
        assert_true(a->history[i].cards == b->history[i].cards);
    }
    assert_int_equal(a->table_seat, b->table_seat);
    assert_true(a->table == b->table);
    assert_int_equal(a->budget_ms, b->budget_ms);
    assert_true(a->seed == b->seed);
}

/* One view through the codec: equal, and still a view a game reaches. Returns the line. */
static char *round_trip(const cb_view *v, int64_t id)
{
    char err[300] = "";
    char *line = cb_json_request_format(v, id, err, sizeof err);
    if (!line)
        print_error("format: %s\n", err);
    assert_non_null(line);
    assert_null(strchr(line, '\n'));
    cb_json_request *q = cb_json_request_parse(line, strlen(line), err, sizeof err);
    if (!q)
        print_error("parse: %s\nline: %s\n", err, line);
    assert_non_null(q);
    assert_int_equal(cb_json_request_kind(q), v->phase);
    assert_true(cb_json_request_id(q) == id);
    const cb_view *w = cb_json_request_view(q);
    assert_non_null(w);
    assert_views_equal(v, w);
    if (cb_view_check(NULL, w, err, sizeof err) != 0)
        print_error("the parsed view is refused: %s\n", err);
    assert_int_equal(cb_view_check(NULL, w, err, sizeof err), 0);
    cb_json_request_free(q);
    return line;
}

/* Whole games under r, random legal actions; every view of every decision round-trips. */
static int play_games(const cb_rules *r, int games, uint64_t key)
{
    int views = 0;
    GRand *rng = g_rand_new_with_seed((guint32)key);
    for (int g = 0; g < games; g++) {
        cb_engine_opts o = {.struct_size = sizeof o, .key = key, .deal = (uint64_t)g, .game = (uint64_t)g,
                            .first_bidder = -1, .landlord = -1};
        char err[200];
        cb_engine *e = cb_engine_new(r, &o, err, sizeof err);
        assert_non_null(e);
        while (cb_engine_phase(e) != CB_PHASE_OVER) {
            cb_view v;
            assert_int_equal(cb_engine_view(e, cb_engine_turn(e), 250 + (uint32_t)g, &v), 0);
            char *line = round_trip(&v, views % 3 == 0 ? -1 : views);
            cb_json_free(line);
            views++;
            if (v.phase == CB_PHASE_BID) {
                int32_t b[8];
                int n = cb_engine_legal_bids(e, b, 8);
                assert_true(n > 0);
                assert_int_equal(cb_engine_bid(e, b[g_rand_int_range(rng, 0, n)], err, sizeof err), 0);
            } else {
                cb_cards *p = malloc(CB_MOVES_CAP * sizeof *p);
                int n = cb_engine_legal_plays(e, p, CB_MOVES_CAP);
                assert_true(n > 0);
                int k = n < CB_MOVES_CAP ? n : CB_MOVES_CAP;
                assert_int_equal(cb_engine_play(e, p[g_rand_int_range(rng, 0, k)], err, sizeof err), 0);
                free(p);
            }
        }
        cb_engine_free(e);
    }
    g_rand_free(rng);
    return views;
}

static void test_engine_views(void **state)
{
    (void)state;
    static const char *const presets[] = {"pdk16", "pdk15", "guanpai", "ddz"};
    int total = 0;
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        cb_rules r;
        assert_int_equal(cb_rules_preset(presets[i], &r), 0);
        total += play_games(&r, 6, 100 + i);
    }
    cb_rules r;
    assert_int_equal(cb_rules_preset("ddz", &r), 0);
    r.rob = true;
    total += play_games(&r, 6, 7);
    assert_int_equal(cb_rules_preset("pdk16", &r), 0);
    char err[200];
    assert_int_equal(cb_rules_set(&r, "must_beat", "false", err, sizeof err), 0);
    assert_int_equal(cb_rules_set(&r, "min_pair_chain", "2", err, sizeof err), 0);
    assert_int_equal(cb_rules_set(&r, "short_triple", "always", err, sizeof err), 0);
    assert_int_equal(cb_rules_set(&r, "four_with", "3", err, sizeof err), 0);
    assert_int_equal(cb_rules_set(&r, "bomb_points", "7", err, sizeof err), 0);
    total += play_games(&r, 4, 8);
    print_message("%d engine views went through the codec and back\n", total);
    assert_true(total > 500);
}

/* Each flag of cb_rules_keys, set to each value its kind takes, on each preset that accepts
 * it: the rules survive the trip, written as "preset + the flags that differ". */
static void test_every_flag(void **state)
{
    (void)state;
    static const char *const presets[] = {"pdk16", "pdk15", "guanpai", "ddz", "noip2015"};
    static const char *const values[] = {"true", "false", "2", "3", "0", "12", "77", "last", "always", "never",
                                         "none", "both"};
    int tried = 0;
    int changed_anywhere[64] = {0};
    for (size_t p = 0; p < sizeof presets / sizeof presets[0]; p++)
        for (int k = 0; cb_rules_keys[k]; k++) {
            assert_true(k < 64);
            int changed = 0;
            for (size_t x = 0; x < sizeof values / sizeof values[0]; x++) {
                cb_rules base, r;
                assert_int_equal(cb_rules_preset(presets[p], &base), 0);
                r = base;
                if (cb_rules_set(&r, cb_rules_keys[k], values[x], NULL, 0) != 0 || cb_rules_equal(&r, &base))
                    continue;
                /* a plain view of these rules: the codec does not check it, the round trip
                 * of the rules is the point */
                cb_view v = {.struct_size = sizeof v, .abi_version = CB_ABI_VERSION, .rules = &r,
                             .phase = CB_PHASE_PLAY, .nseats = 3, .first_seat = 0, .first_bidder = -1,
                             .landlord = -1, .table_seat = -1, .budget_ms = 5};
                char err[300];
                char *line = cb_json_request_format(&v, -1, err, sizeof err);
                if (!line)
                    print_error("%s %s=%s: %s\n", presets[p], cb_rules_keys[k], values[x], err);
                assert_non_null(line);
                assert_non_null(strstr(line, cb_rules_keys[k]));
                cb_json_request *q = cb_json_request_parse(line, strlen(line), err, sizeof err);
                if (!q)
                    print_error("%s %s=%s: %s\n", presets[p], cb_rules_keys[k], values[x], err);
                assert_non_null(q);
                assert_true(cb_rules_equal(cb_json_request_view(q)->rules, &r));
                cb_json_request_free(q);
                cb_json_free(line);
                changed++;
                tried++;
            }
            changed_anywhere[k] += changed;
        }
    /* every key changes the rules of some preset (a key belongs to the games that read it:
     * rules.h; elsewhere only its preset value is accepted) */
    for (int k = 0; cb_rules_keys[k]; k++) {
        if (!changed_anywhere[k])
            print_error("%s: no value changes it on any preset\n", cb_rules_keys[k]);
        assert_true(changed_anywhere[k] > 0);
    }
    print_message("%d flag settings round-tripped\n", tried);
    /* rules that differ from their preset in what no flag names cannot be written */
    cb_rules r;
    assert_int_equal(cb_rules_preset("pdk16", &r), 0);
    r.deck &= ~(cb_cards)1;
    cb_view v = {.struct_size = sizeof v, .rules = &r, .phase = CB_PHASE_PLAY, .nseats = 3};
    char err[300] = "";
    assert_null(cb_json_request_format(&v, -1, err, sizeof err));
    assert_non_null(strstr(err, "view.rules"));
}

/* A real request line to break. */
static char *sample_line(const char *preset, int steps)
{
    cb_rules r;
    assert_int_equal(cb_rules_preset(preset, &r), 0);
    cb_engine_opts o = {.struct_size = sizeof o, .key = 5, .first_bidder = -1, .landlord = -1};
    cb_engine *e = cb_engine_new(&r, &o, NULL, 0);
    char err[200];
    for (int i = 0; i < steps && cb_engine_phase(e) != CB_PHASE_OVER; i++) {
        if (cb_engine_phase(e) == CB_PHASE_BID) {
            assert_int_equal(cb_engine_bid(e, r.game == CB_GAME_DDZ ? 1 : 0, err, sizeof err), 0);
        } else {
            cb_cards p[64];
            int n = cb_engine_legal_plays(e, p, 64);
            assert_int_equal(cb_engine_play(e, p[n > 1 ? 1 : 0], err, sizeof err), 0);
        }
    }
    cb_view v;
    assert_int_equal(cb_engine_view(e, cb_engine_turn(e), 100, &v), 0);
    char *line = cb_json_request_format(&v, 3, err, sizeof err);
    assert_non_null(line);
    cb_engine_free(e);
    return line;
}

/* Replace the first occurrence of `from` in line by `to` (it must be there). */
static char *mutate(const char *line, const char *from, const char *to)
{
    const char *at = strstr(line, from);
    if (!at)
        print_error("'%s' not in %s\n", from, line);
    assert_non_null(at);
    return g_strdup_printf("%.*s%s%s", (int)(at - line), line, to, at + strlen(from));
}

static void refused(const char *line, const char *want)
{
    char err[400] = "";
    cb_json_request *q = cb_json_request_parse(line, strlen(line), err, sizeof err);
    if (q || !strstr(err, want))
        print_error("line %s\nwanted an error naming '%s', got: %s\n", line, want, q ? "(accepted)" : err);
    assert_null(q);
    assert_non_null(strstr(err, want));
    assert_true(strncmp(err, want, strlen(want)) == 0); /* the path comes first */
}

static void test_malformed_requests(void **state)
{
    (void)state;
    char *line = sample_line("pdk16", 5);
    /* the sample itself is fine and has what the cases below break */
    char err[300];
    cb_json_request *ok = cb_json_request_parse(line, strlen(line), err, sizeof err);
    assert_non_null(ok);
    assert_true(cb_json_request_view(ok)->nhistory >= 2);
    cb_json_request_free(ok);
    static const struct { const char *from, *to, *want; } cases[] = {
        {"\"type\":\"play\"", "\"type\":\"deal\"", "type: 'deal'"},
        {"\"type\":\"play\"", "\"type\":7", "type: expected a string"},
        {"\"type\":\"play\",", "", "type: missing"},
        {"\"id\":3", "\"id\":-3", "id: -3 is out of range"},
        {"\"view\":{", "\"vue\":{", "view: missing"},
        {"\"preset\":\"pdk16\"", "\"preset\":\"pdk17\"", "view.rules.preset: 'pdk17'"},
        {"\"preset\":\"pdk16\"", "\"preset\":\"pdk16\",\"must_beat\":\"maybe\"", "view.rules.must_beat:"},
        {"\"preset\":\"pdk16\"", "\"preset\":\"pdk16\",\"colour\":true", "view.rules.colour:"},
        {"\"preset\":\"pdk16\"", "\"preset\":\"pdk16\",\"bao_points\":[1]", "view.rules.bao_points: expected"},
        {"\"seat\":", "\"seat\":\"1\",\"x\":", "view.seat: expected an integer"},
        {"\"nseats\":3", "\"nseats\":4", "view.nseats: 4 is out of range"},
        {"\"first_seat\":", "\"first_seat\":9,\"x\":", "view.first_seat: 9 is out of range"},
        {"\"hand\":\"", "\"hand\":\"Z", "view.hand: bad card character 'Z'"},
        {"\"hand\":\"", "\"hand\":\"XD", "view.hand: "},
        {"\"cards_left\":[", "\"cards_left\":[1,", "view.cards_left: 4 entries, nseats is 3"},
        {"\"bombs\":[", "\"bombs\":[\"a\",", "view.bombs"},
        {"\"bids\":[", "\"bids\":[7,", "view.bids"},
        {"\"history\":[{\"seat\":", "\"history\":[{\"seat\":5,\"x\":", "view.history[0].seat: 5 is out of range"},
        {"\"history\":[{", "\"history\":[{\"play\":\"3s3s\"},{", "view.history[0].seat: missing"},
        {"\"history\":[", "\"history\":[{\"seat\":0,\"play\":\"33Q!\"},", "view.history[0].play: bad card character '!'"},
        {"\"history\":[", "\"history\":[7,", "view.history[0]: expected an object"},
        {"\"history\":[", "\"history\":{\"a\":[", "(line): not JSON"},
        {"\"table\":\"", "\"table\":5,\"x\":\"", "view.table: expected a string"},
        {"\"seed\":\"", "\"seed\":\"-", "view.seed: '-"},
        {"\"seed\":\"", "\"seed\":\"x", "view.seed: 'x"},
        {"\"budget_ms\":", "\"budget_ms\":-1,\"x\":", "view.budget_ms: -1 is out of range"},
        {"{\"type\"", "[{\"type\"", "(line): not"},
        {"\"type\":\"play\",", "\"type\":\"play\",\n", "(line): a line break"},
    };
    /* the sample's id is 3: every refused line that is still one JSON object with a usable id
     * gives it to cb_json_line_id (for its error answer), the others -1 */
    assert_non_null(strstr(line, "\"id\":3"));
    assert_true(cb_json_line_id(line, strlen(line)) == 3);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *bad = mutate(line, cases[i].from, cases[i].to);
        refused(bad, cases[i].want);
        int64_t want_id = strncmp(cases[i].want, "(line)", 6) == 0 || strncmp(cases[i].want, "id:", 3) == 0 ? -1 : 3;
        if (cb_json_line_id(bad, strlen(bad)) != want_id)
            fail_msg("case %zu (%s): cb_json_line_id %lld, want %lld", i, cases[i].want,
                     (long long)cb_json_line_id(bad, strlen(bad)), (long long)want_id);
        g_free(bad);
    }
    assert_true(cb_json_line_id("{\"id\":\"13\"}", 11) == -1);
    assert_true(cb_json_line_id("{\"id\":12}", 9) == 12);
    assert_true(cb_json_line_id(NULL, 0) == -1);
    refused("", "(line): not");
    refused("null", "(line): not a JSON object");
    refused("{\"type\":\"hello\"}", "protocol: missing");
    char *big = g_strnfill(CB_JSON_MAX_LINE + 10, ' ');
    refused(big, "(line): ");
    g_free(big);
    /* hello */
    cb_json_free(line);
    line = cb_json_hello_format(NULL, NULL);
    cb_json_request *q = cb_json_request_parse(line, strlen(line), err, sizeof err);
    assert_non_null(q);
    assert_int_equal(cb_json_request_kind(q), CB_JSON_HELLO);
    assert_string_equal(cb_json_request_protocol(q), CB_JSON_PROTOCOL);
    assert_null(cb_json_request_view(q));
    cb_json_request_free(q);
    cb_json_free(line);
}

static void test_hello_answer(void **state)
{
    (void)state;
    char name[16], ver[16], err[200];
    char *line = cb_json_hello_answer_format("pybot", "1.0");
    assert_int_equal(cb_json_hello_answer_parse(line, strlen(line), name, sizeof name, ver, sizeof ver, err, sizeof err), 0);
    assert_string_equal(name, "pybot");
    assert_string_equal(ver, "1.0");
    cb_json_free(line);
    const char *other = "{\"protocol\":\"cardbot-2\",\"name\":\"x\"}";
    assert_int_equal(cb_json_hello_answer_parse(other, strlen(other), name, sizeof name, ver, sizeof ver, err, sizeof err), -1);
    assert_non_null(strstr(err, "protocol: the bot speaks 'cardbot-2'"));
    const char *none = "{\"name\":\"x\"}";
    assert_int_equal(cb_json_hello_answer_parse(none, strlen(none), name, sizeof name, ver, sizeof ver, err, sizeof err), -1);
    assert_non_null(strstr(err, "protocol: missing"));
    const char *bad = "{\"protocol\":\"cardbot-1\",\"name\":5}";
    assert_int_equal(cb_json_hello_answer_parse(bad, strlen(bad), name, sizeof name, ver, sizeof ver, err, sizeof err), -1);
    assert_non_null(strstr(err, "name: expected a string"));
}

static int parse_answer(const cb_view *v, const char *line, cb_decision *d, int64_t *id, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    d->struct_size = sizeof *d;
    return cb_json_answer_parse(line, strlen(line), v, d, id, err, errlen);
}

static void test_answers(void **state)
{
    (void)state;
    cb_rules r;
    assert_int_equal(cb_rules_preset("pdk16", &r), 0);
    cb_view v = {.struct_size = sizeof v, .rules = &r, .phase = CB_PHASE_PLAY, .nseats = 3};
    char err[300];
    assert_int_equal(cb_cards_parse("3h3c3d4h4c9s", r.deck, &v.hand, err, sizeof err), 0);
    cb_decision d;
    int64_t id;
    /* rank-only text takes the hand's cards */
    assert_int_equal(parse_answer(&v, "{\"play\":\"33344\",\"id\":9}", &d, &id, err, sizeof err), 0);
    cb_cards want;
    assert_int_equal(cb_cards_parse("3h3c3d4h4c", r.deck, &want, NULL, 0), 0);
    assert_true(d.cards == want);
    assert_true(id == 9);
    assert_true(isnan(d.value));
    assert_int_equal(d.minhands_before, -1);
    /* a card the hand lacks stays as written (the shim refuses it as not in hand) */
    assert_int_equal(parse_answer(&v, "{\"play\":\"KK\"}", &d, &id, err, sizeof err), 0);
    assert_int_equal(cb_cards_size(d.cards), 2);
    assert_true((d.cards & v.hand) == 0);
    assert_true(id == -1);
    assert_int_equal(parse_answer(&v, "{\"play\":\"pass\"}", &d, NULL, err, sizeof err), 0);
    assert_true(d.cards == 0);
    /* everything a bot may say, and a FALLBACK flag it may not set */
    const char *full = "{\"play\":\"9s\",\"explain\":\"\xe5\xb0\x8f\xe7\x89\x8c\",\"value\":0.25,\"simulations\":12,"
                       "\"nodes\":3,\"minhands_before\":4,\"minhands_after\":3,\"flags\":[\"bomb\",\"fallback\",\"later\"],"
                       "\"future_member\":{\"x\":1}}";
    assert_int_equal(parse_answer(&v, full, &d, NULL, err, sizeof err), 0);
    assert_string_equal(d.explain, "\xe5\xb0\x8f\xe7\x89\x8c");
    assert_true(fabsf(d.value - 0.25f) < 1e-6f);
    assert_true(d.simulations == 12 && d.nodes == 3);
    assert_int_equal(d.minhands_before, 4);
    assert_int_equal(d.minhands_after, 3);
    assert_int_equal(d.flags, CB_DEC_BOMB);
    /* an explanation longer than the decision holds is cut at a character boundary */
    GString *longx = g_string_new("{\"play\":\"pass\",\"explain\":\"");
    for (int i = 0; i < 60; i++)
        g_string_append(longx, "\xe7\x89\x8c");
    g_string_append(longx, "\"}");
    assert_int_equal(parse_answer(&v, longx->str, &d, NULL, err, sizeof err), 0);
    assert_true(strlen(d.explain) < sizeof d.explain);
    assert_true(g_utf8_validate(d.explain, -1, NULL));
    assert_true(strlen(d.explain) >= sizeof d.explain - 3);
    g_string_free(longx, TRUE);
    /* refusals name the member */
    static const struct { const char *line, *want; } bad[] = {
        {"{\"play\":5}", "play: expected a string"},
        {"{\"bid\":1}", "play: missing"},
        {"{\"play\":\"3Z\"}", "play: bad card character 'Z'"},
        {"{\"play\":\"3s3s\"}", "play: "},
        {"{\"play\":\"pass\",\"value\":\"high\"}", "value: expected a number"},
        {"{\"play\":\"pass\",\"explain\":7}", "explain: expected a string"},
        {"{\"play\":\"pass\",\"flags\":\"bomb\"}", "flags: expected an array"},
        {"{\"play\":\"pass\",\"flags\":[1]}", "flags[0]: expected a string"},
        {"{\"play\":\"pass\",\"id\":\"7\"}", "id: expected an integer"},
        {"{\"error\":\"no idea\"}", "error: the bot says: no idea"},
        {"{\"play\":\"pass\"", "(line): not JSON"},
        {"\"pass\"", "(line): not a JSON object"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        int rc = parse_answer(&v, bad[i].line, &d, NULL, err, sizeof err);
        if (rc == 0 || strncmp(err, bad[i].want, strlen(bad[i].want)) != 0)
            print_error("answer %s: wanted '%s', got %s\n", bad[i].line, bad[i].want, rc == 0 ? "(accepted)" : err);
        assert_int_equal(rc, -1);
        assert_true(strncmp(err, bad[i].want, strlen(bad[i].want)) == 0);
    }
    /* bids */
    v.phase = CB_PHASE_BID;
    assert_int_equal(parse_answer(&v, "{\"bid\":1}", &d, NULL, err, sizeof err), 0);
    assert_int_equal(d.bid, 1);
    assert_int_equal(parse_answer(&v, "{\"bid\":\"1\"}", &d, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "bid: expected an integer"));
    assert_int_equal(parse_answer(&v, "{\"play\":\"3\"}", &d, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "bid: missing"));
    /* a short decision (struct_size) is written only that far */
    cb_decision small;
    memset(&small, 0x5A, sizeof small);
    small.struct_size = (uint32_t)offsetof(cb_decision, value);
    assert_int_equal(cb_json_answer_parse("{\"bid\":2,\"value\":1}", 19, &v, &small, NULL, err, sizeof err), 0);
    assert_int_equal(small.bid, 2);
    assert_int_equal(small.struct_size, offsetof(cb_decision, value));
    unsigned char *tail = (unsigned char *)&small + offsetof(cb_decision, value);
    for (size_t i = 0; i < sizeof small - offsetof(cb_decision, value); i++)
        assert_int_equal(tail[i], 0x5A);
}

/* What cb_json_answer_format writes, cb_json_answer_parse reads back. */
static void test_answer_format(void **state)
{
    (void)state;
    cb_rules r;
    assert_int_equal(cb_rules_preset("ddz", &r), 0);
    cb_view v = {.struct_size = sizeof v, .rules = &r, .phase = CB_PHASE_PLAY, .nseats = 3};
    assert_int_equal(cb_cards_parse("3s3h3c3d4sXD", r.deck, &v.hand, NULL, 0), 0);
    cb_decision d = {.struct_size = sizeof d, .flags = CB_DEC_BOMB | CB_DEC_FALLBACK, .value = 0.5f,
                     .simulations = 100, .nodes = 7, .minhands_before = 3, .minhands_after = 0};
    assert_int_equal(cb_cards_parse("3s3h3c3d", r.deck, &d.cards, NULL, 0), 0);
    snprintf(d.explain, sizeof d.explain, "bomb \"quoted\" \xff bytes"); /* not UTF-8: made valid */
    char *line = cb_json_answer_format(CB_JSON_PLAY, &d, "illegal", 12);
    assert_non_null(line);
    assert_true(g_utf8_validate(line, -1, NULL));
    assert_non_null(strstr(line, "\"play\":\"3s3h3c3d\""));
    assert_non_null(strstr(line, "\"fallback\":\"illegal\""));
    cb_decision e;
    int64_t id;
    char err[200];
    assert_int_equal(parse_answer(&v, line, &e, &id, err, sizeof err), 0);
    assert_true(e.cards == d.cards);
    assert_true(id == 12);
    assert_int_equal(e.flags, CB_DEC_BOMB); /* fallback is the host's word, not the bot's */
    assert_true(e.value == d.value && e.simulations == 100 && e.nodes == 7);
    assert_int_equal(e.minhands_before, 3);
    assert_int_equal(e.minhands_after, 0);
    assert_non_null(strstr(e.explain, "bomb \"quoted\""));
    cb_json_free(line);
    d.cards = 0;
    d.value = NAN;
    line = cb_json_answer_format(CB_JSON_PLAY, &d, NULL, -1);
    assert_non_null(strstr(line, "\"play\":\"pass\""));
    assert_null(strstr(line, "value"));
    assert_null(strstr(line, "\"id\""));
    cb_json_free(line);
    assert_null(cb_json_answer_format(7, &d, NULL, -1));
    line = cb_json_error_format("view: bad \xff", 4);
    assert_true(g_utf8_validate(line, -1, NULL));
    assert_non_null(strstr(line, "\"id\":4"));
    cb_json_free(line);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_views),
        cmocka_unit_test(test_every_flag),
        cmocka_unit_test(test_malformed_requests),
        cmocka_unit_test(test_hello_answer),
        cmocka_unit_test(test_answers),
        cmocka_unit_test(test_answer_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* cardbot serve end to end.
 *
 *  - cardbot-1: whole games are played in process through the shim (the library loaded as a
 *    host would load it); every view becomes a request line and every answer the line
 *    cb_json_answer_format makes of the shim's decision. `cardbot serve` reads the recorded
 *    request file (hello first, plus a blank line, a broken line and a view of other rules)
 *    and must answer every line byte for byte as recorded, the broken ones with errors that
 *    name the member. Strategies: heuristic level 3 (it samples from the view's seed, so a
 *    seed lost on the way shows) and ismcts at a small iteration budget.
 *  - Botzone: a test judge runs full DDZ games with our engine as the referee and three
 *    `cardbot serve --protocol botzone` bots speaking FightTheLandlord2 — seat 0 started
 *    afresh each turn with the whole record (the platform's classic mode), seats 1 and 2 in
 *    keep-running mode (only the next request after the first). Every answer must be legal
 *    under our rules, take kickers FightTheLandlord2 accepts, and come from a view the shim
 *    accepted ("debug" never says the view was refused). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "cardbot/game.h"
#include "cardbot/json.h"
#include "support/shimfix.h"

static cbt_shimfix *F;

static int setup(void **state)
{
    signal(SIGPIPE, SIG_IGN); /* a bot that dies must fail an assertion, not kill the test */
    int rc = cbt_shimfix_setup(state, "test_exec_serve", "cbserve-XXXXXX");
    F = *state;
    return rc;
}

static char *cardbot_path(void)
{
    return g_build_filename(F->build, "cardbot", NULL);
}

/* Run argv with `input` on stdin; stdout returned (g_free), the wait status in *status. errout:
 * NULL leaves stderr the test's own, else it gets what the program wrote there (g_free). */
static char *run_full(char **argv, const char *input, size_t len, int *status, char **errout)
{
    GPid pid;
    int in_fd, out_fd, err_fd = -1;
    GError *e = NULL;
    if (!g_spawn_async_with_pipes(NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, &in_fd, &out_fd,
                                  errout ? &err_fd : NULL, &e))
        fail_msg("spawn %s: %s", argv[0], e->message);
    /* feed and drain together: the answers may fill the pipe before the requests are in */
    GString *out = g_string_new(""), *err = g_string_new("");
    size_t off = 0;
    bool in_open = true;
    for (;;) {
        struct pollfd p[3] = {{out_fd, POLLIN, 0}, {in_open ? in_fd : -1, POLLOUT, 0}, {err_fd, POLLIN, 0}};
        int pr = poll(p, 3, 60000);
        assert_true(pr > 0);
        if (p[1].revents) {
            ssize_t n = off < len ? write(in_fd, input + off, len - off) : 0;
            if (n > 0)
                off += (size_t)n;
            if (off >= len || n < 0) {
                close(in_fd);
                in_open = false;
            }
        }
        if (p[2].revents) {
            char buf[4096];
            ssize_t n = read(err_fd, buf, sizeof buf);
            if (n > 0) {
                g_string_append_len(err, buf, n);
            } else {
                close(err_fd);
                err_fd = -1;
            }
        }
        if (p[0].revents) {
            char buf[8192];
            ssize_t n = read(out_fd, buf, sizeof buf);
            if (n <= 0)
                break;
            g_string_append_len(out, buf, n);
        }
    }
    if (in_open)
        close(in_fd);
    close(out_fd);
    for (char buf[4096]; err_fd >= 0;) { /* stdout is shut: what is left on stderr */
        ssize_t n = read(err_fd, buf, sizeof buf);
        if (n <= 0) {
            close(err_fd);
            err_fd = -1;
        } else {
            g_string_append_len(err, buf, n);
        }
    }
    assert_int_equal(waitpid(pid, status, 0), pid);
    g_spawn_close_pid(pid);
    if (errout)
        *errout = g_string_free(err, FALSE);
    else
        g_string_free(err, TRUE);
    return g_string_free(out, FALSE);
}

/* run_full, the exit status checked 0. */
static char *run_with_input(char **argv, const char *input, size_t len)
{
    int ws;
    char *out = run_full(argv, input, len, &ws, NULL);
    if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0)
        fail_msg("%s exited with status %d", argv[0], ws);
    return out;
}

static const char *fallback_name(int code)
{
    static const char *const names[] = {NULL, "illegal", "failed", "late", "no-plugin", "crashed"};
    return code > 0 && code < 6 ? names[code] : NULL;
}

/* Record `games` games of `rules` played by `strategy` through the shim in process; request
 * lines into req, the expected answers into ans. */
static void record(const char *cfg, const char *strategy, int games, GString *req, GString *ans)
{
    cb_shim *shim = cbt_open_ok(F, cfg);
    const char *names[3] = {strategy, strategy, strategy};
    char err[300];
    cb_table *t = F->api.table_new_seated(shim, names, 3, err, sizeof err);
    assert_non_null(t);
    const cb_rules *r = F->api.rules(shim);
    int64_t id = 0;
    for (int g = 0; g < games; g++) {
        cb_engine_opts o = {.struct_size = sizeof o, .key = 77, .deal = (uint64_t)g, .game = (uint64_t)g,
                            .first_bidder = -1, .landlord = -1};
        cb_engine *e = cb_engine_new(r, &o, err, sizeof err);
        assert_non_null(e);
        while (cb_engine_phase(e) != CB_PHASE_OVER) {
            cb_view v;
            assert_int_equal(cb_engine_view(e, cb_engine_turn(e), 20000, &v), 0);
            cb_decision d = CBT_DEC;
            int code = v.phase == CB_PHASE_BID ? F->api.decide_bid(t, &v, &d) : F->api.decide_play(t, &v, &d);
            assert_true(code >= 0);
            char *line = cb_json_request_format(&v, id % 4 == 3 ? -1 : id, err, sizeof err);
            assert_non_null(line);
            g_string_append_printf(req, "%s\n", line);
            cb_json_free(line);
            line = cb_json_answer_format(v.phase, &d, fallback_name(code), id % 4 == 3 ? -1 : id);
            g_string_append_printf(ans, "%s\n", line);
            cb_json_free(line);
            id++;
            if (v.phase == CB_PHASE_BID)
                assert_int_equal(cb_engine_bid(e, d.bid, err, sizeof err), 0);
            else
                assert_int_equal(cb_engine_play(e, d.cards, err, sizeof err), 0);
        }
        cb_engine_free(e);
    }
    F->api.table_free(t);
    F->api.free(shim);
}

/* The answer line without its "explain" member (ismcts writes its search time there). */
static char *without_explain(const char *line)
{
    JsonParser *p = json_parser_new();
    if (!json_parser_load_from_data(p, line, -1, NULL)) {
        g_object_unref(p);
        return g_strdup(line);
    }
    JsonNode *root = json_parser_get_root(p);
    if (JSON_NODE_HOLDS_OBJECT(root))
        json_object_remove_member(json_node_get_object(root), "explain");
    char *s = json_to_string(root, FALSE);
    g_object_unref(p);
    return s;
}

/* exact: the whole line must agree; else all but "explain" (timings). */
static void serve_identical(const char *rules, const char *strategy_body, int games, bool exact)
{
    char *cfg = cbt_conf_raw(F, "[shim]\nfallback = safe\nbudget_ms = 20000\n[game]\nrules = %s\n"
                                "[strategy.s]\n%s\n[strategy.safe]\nplugin = heuristic\n[seats]\n0 = s\n1 = s\n2 = s\n",
                             rules, strategy_body);
    GString *req = g_string_new(""), *ans = g_string_new("");
    char *hello = cb_json_hello_format("test", "1");
    g_string_append_printf(req, "%s\n\n", hello); /* a blank line: skipped, unanswered */
    cb_json_free(hello);
    hello = cb_json_hello_answer_format("s", CB_VERSION);
    g_string_append_printf(ans, "%s\n", hello);
    cb_json_free(hello);
    record(cfg, "s", games, req, ans);
    /* lines serve cannot serve: each answered with an error naming the member, then on */
    g_string_append(req, "{\"type\":\"play\",\"id\":5,\"view\":{\"rules\":{\"preset\":\"pdk16\"},\"seat\":9}}\n");
    g_string_append(req, "not json\n");
    g_string_append(req, "{\"type\":\"hello\",\"protocol\":\"cardbot-0\",\"id\":2}\n");
    char *cmd = cardbot_path();
    char *argv[] = {cmd, "serve", "--config", cfg, "--strategy", "s", NULL};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    char *out = run_with_input(argv, req->str, req->len);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    char **want = g_strsplit(ans->str, "\n", -1), **got = g_strsplit(out, "\n", -1);
    int n = 0;
    for (; want[n] && want[n][0]; n++) {
        char *a = exact ? g_strdup(want[n]) : without_explain(want[n]);
        char *b = !got[n] ? NULL : exact ? g_strdup(got[n]) : without_explain(got[n]);
        bool same = b && strcmp(a, b) == 0;
        g_free(a);
        g_free(b);
        if (!same)
            fail_msg("%s answer %d differs:\n in process: %s\n serve:      %s", rules, n, want[n], got[n] ? got[n] : "(none)");
    }
    print_message("%s: %d answers identical (%.2f s)\n", rules, n, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
    assert_true(n > 20 * games);
    assert_non_null(got[n]);
    assert_non_null(strstr(got[n], "\"error\":\"view.seat: 9 is out of range"));
    assert_non_null(strstr(got[n], "\"id\":5")); /* refused by the codec: still its request's id */
    assert_non_null(got[n + 1]);
    assert_non_null(strstr(got[n + 1], "\"error\":\"(line): not JSON"));
    assert_non_null(got[n + 2]);
    assert_non_null(strstr(got[n + 2], "\"error\":\"protocol: the host speaks 'cardbot-0'"));
    assert_non_null(strstr(got[n + 2], "\"id\":2"));
    assert_true(!got[n + 3] || !got[n + 3][0]);
    g_strfreev(want);
    g_strfreev(got);
    g_free(out);
    g_free(cmd);
    g_string_free(req, TRUE);
    g_string_free(ans, TRUE);
    g_free(cfg);
}

static void test_serve_pdk(void **state)
{
    (void)state;
    serve_identical("pdk16", "plugin = heuristic\nlevel = 3", 4, true);
}

static void test_serve_ddz(void **state)
{
    (void)state;
    serve_identical("ddz", "plugin = heuristic\nlevel = 3", 4, true);
    /* ismcts is reproducible while its time caps (a share of budget_ms) are not reached:
     * the views carry 20 s, far above what 30 iterations take */
    serve_identical("ddz", "plugin = ismcts\niterations = 30", 1, false);
}

/* A view of other rules than the config's: refused with the reason, no answer made up. */
static void test_serve_wrong_rules(void **state)
{
    (void)state;
    char *cfg = cbt_conf_raw(F, "[shim]\nfallback = safe\n[game]\nrules = pdk15\n[strategy.s]\nplugin = heuristic\n"
                                "[strategy.safe]\nplugin = heuristic\n[seats]\n0 = s\n1 = s\n2 = s\n");
    cb_rules r;
    assert_int_equal(cb_rules_preset("pdk16", &r), 0);
    cb_engine_opts o = {.struct_size = sizeof o, .key = 1, .first_bidder = -1, .landlord = -1};
    cb_engine *e = cb_engine_new(&r, &o, NULL, 0);
    cb_view v;
    assert_int_equal(cb_engine_view(e, cb_engine_turn(e), 100, &v), 0);
    char *line = cb_json_request_format(&v, 1, NULL, 0);
    char *input = g_strdup_printf("%s\n", line);
    char *cmd = cardbot_path();
    char *argv[] = {cmd, "serve", "--config", cfg, "--strategy", "s", NULL};
    char *out = run_with_input(argv, input, strlen(input));
    assert_non_null(strstr(out, "{\"error\":\"view: rules"));
    assert_non_null(strstr(out, "\"id\":1"));
    g_free(out);
    g_free(cmd);
    g_free(input);
    cb_json_free(line);
    cb_engine_free(e);
    g_free(cfg);
}

/* A request line of `base` with view member `key` set to the string `text` (NULL: unchanged)
 * and "id" set to id. */
static char *request_with(const char *base, int64_t id, const char *key, const char *text, const int32_t *ints, int n)
{
    JsonParser *p = json_parser_new();
    assert_true(json_parser_load_from_data(p, base, -1, NULL));
    JsonObject *o = json_node_get_object(json_parser_get_root(p));
    json_object_set_int_member(o, "id", id);
    JsonObject *v = json_object_get_object_member(o, "view");
    if (key && text)
        json_object_set_string_member(v, key, text);
    if (key && ints) {
        JsonArray *a = json_array_new();
        for (int i = 0; i < n; i++)
            json_array_add_int_element(a, ints[i]);
        json_object_set_array_member(v, key, a);
    }
    char *line = json_to_string(json_parser_get_root(p), FALSE);
    g_object_unref(p);
    return line;
}

/* Every answer to a line that is a JSON object with a usable "id" carries it, errors too: the
 * codec's refusals (a bad card, no view, an unknown type, no type) as well as the shim's (a
 * view its check refused) — a host pairs answers by id and skips one without it as stale.
 * A line that is not JSON says where and why in a reader's words, not json-glib's "<data>". */
static void test_serve_error_ids(void **state)
{
    (void)state;
    char *cfg = cbt_conf_raw(F, "[shim]\nfallback = safe\n[game]\nrules = ddz\n[strategy.s]\nplugin = heuristic\n"
                                "[strategy.safe]\nplugin = heuristic\n[seats]\n0 = s\n1 = s\n2 = s\n");
    cb_rules r;
    assert_int_equal(cb_rules_preset("ddz", &r), 0);
    cb_engine_opts o = {.struct_size = sizeof o, .key = 1, .first_bidder = -1, .landlord = -1};
    cb_engine *e = cb_engine_new(&r, &o, NULL, 0);
    cb_view v;
    assert_int_equal(cb_engine_view(e, cb_engine_turn(e), 100, &v), 0);
    char *base = cb_json_request_format(&v, 0, NULL, 0);
    char hand[192];
    cb_cards_format(v.hand, true, hand, sizeof hand);
    char *bad_hand = g_strdup_printf("%sZ", hand);
    const int32_t left[3] = {3, 3, 3}; /* no bidding view has hands of 3 */
    char *lines[] = {
        request_with(base, 6, "hand", bad_hand, NULL, 0),
        request_with(base, 7, "cards_left", NULL, left, 3),
        g_strdup("{\"type\":\"bid\",\"id\":8}"),
        g_strdup("{\"type\":\"nosuch\",\"id\":9}"),
        g_strdup("{\"type\":\"play\",\"id\":10,\"view\":[]}"),
        g_strdup("{\"type\":\"hello\",\"id\":11}"),
        g_strdup("{\"id\":12}"),
        g_strdup("{\"type\":\"bid\",\"id\":\"13\"}"), /* no usable id: none in the answer */
        g_strdup("garbage"),
        request_with(base, 14, NULL, NULL, NULL, 0),
    };
    const struct {
        int64_t id;
        const char *error; /* the answer's "error" starts so; NULL: an answer */
    } want[] = {
        {6, "view.hand: bad card character 'Z'"}, {7, "view: "}, {8, "view: missing"},
        {9, "type: 'nosuch' is not hello, bid or play"}, {10, "view: expected an object"},
        {11, "protocol: missing"}, {12, "type: missing"}, {-1, "id: expected an integer"},
        {-1, "(line): not JSON at line 1 column "}, {14, NULL},
    };
    const size_t n = sizeof lines / sizeof lines[0];
    GString *input = g_string_new("");
    for (size_t i = 0; i < n; i++)
        g_string_append_printf(input, "%s\n", lines[i]);
    char *cmd = cardbot_path();
    char *argv[] = {cmd, "serve", "--config", cfg, "--strategy", "s", NULL};
    char *out = run_with_input(argv, input->str, input->len);
    char **got = g_strsplit(out, "\n", -1);
    for (size_t i = 0; i < n; i++) {
        if (!got[i] || !got[i][0])
            fail_msg("no answer to line %zu: %s", i + 1, lines[i]);
        print_message("%s\n", got[i]);
        JsonParser *p = json_parser_new();
        assert_true(json_parser_load_from_data(p, got[i], -1, NULL));
        JsonObject *a = json_node_get_object(json_parser_get_root(p));
        int64_t id = json_object_has_member(a, "id") ? json_object_get_int_member(a, "id") : -1;
        const char *error = json_object_has_member(a, "error") ? json_object_get_string_member(a, "error") : NULL;
        if (id != want[i].id)
            fail_msg("line %zu (%s): answer %s, expected id %lld", i + 1, lines[i], got[i], (long long)want[i].id);
        if (want[i].error ? !error || !g_str_has_prefix(error, want[i].error) : error != NULL)
            fail_msg("line %zu (%s): answer %s, expected %s", i + 1, lines[i], got[i],
                     want[i].error ? want[i].error : "a bid");
        if (error)
            assert_null(strstr(error, "<data>")); /* json-glib's name for its buffer stays inside */
        g_object_unref(p);
    }
    assert_true(!got[n] || !got[n][0]);
    g_strfreev(got);
    g_free(out);
    g_free(cmd);
    g_string_free(input, TRUE);
    for (size_t i = 0; i < n; i++)
        g_free(lines[i]);
    g_free(bad_hand);
    cb_json_free(base);
    cb_engine_free(e);
    g_free(cfg);
}

/* ---- the Botzone judge ---- */

typedef struct bz_bot {
    bool keep;        /* keep-running: one process for the game */
    GPid pid;
    int in_fd, out_fd;
    GString *rbuf;
    JsonArray *reqs;  /* the record (classic mode sends it all each turn) */
    JsonArray *resps;
    bool got_own, got_public;
} bz_bot;

static char *read_line_timeout(bz_bot *b, int ms)
{
    for (;;) {
        char *nl = memchr(b->rbuf->str, '\n', b->rbuf->len);
        if (nl) {
            char *line = g_strndup(b->rbuf->str, (gsize)(nl - b->rbuf->str));
            g_string_erase(b->rbuf, 0, (gssize)(nl - b->rbuf->str) + 1);
            return line;
        }
        struct pollfd p = {b->out_fd, POLLIN, 0};
        if (poll(&p, 1, ms) <= 0)
            fail_msg("the bot did not answer within %d ms", ms);
        char buf[4096];
        ssize_t n = read(b->out_fd, buf, sizeof buf);
        if (n <= 0)
            fail_msg("the bot closed its output");
        g_string_append_len(b->rbuf, buf, n);
    }
}

static void bz_start(bz_bot *b, const char *cfg, bool keep)
{
    char *cmd = cardbot_path();
    char *argv[] = {cmd, "serve", "--config", (char *)cfg, "--strategy", "h", "--protocol", "botzone",
                    keep ? NULL : "--no-keep-running", NULL};
    GError *e = NULL;
    if (!g_spawn_async_with_pipes(NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &b->pid, &b->in_fd,
                                  &b->out_fd, NULL, &e))
        fail_msg("spawn: %s", e->message);
    g_free(cmd);
    b->rbuf = g_string_new("");
}

static void bz_stop(bz_bot *b)
{
    if (!b->pid)
        return;
    close(b->in_fd);
    close(b->out_fd);
    int ws;
    waitpid(b->pid, &ws, 0);
    g_spawn_close_pid(b->pid);
    b->pid = 0;
    g_string_free(b->rbuf, TRUE);
    if (!b->keep || WEXITSTATUS(ws) != 0)
        assert_true(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
}

static void bz_reset(bz_bot *b, bool keep)
{
    if (b->reqs) {
        json_array_unref(b->reqs);
        json_array_unref(b->resps);
    }
    b->keep = keep;
    b->reqs = json_array_new();
    b->resps = json_array_new();
    b->got_own = b->got_public = false;
}

static void add_ids(JsonBuilder *jb, cb_cards c)
{
    json_builder_begin_array(jb);
    for (int id = 0; id < CB_NCARDS; id++)
        if (c & cb_card_bit(id))
            json_builder_add_int_value(jb, id);
    json_builder_end_array(jb);
}

static char *node_text(JsonNode *n)
{
    return json_to_string(n, FALSE);
}

/* One turn of bot b: send the request (classic: the whole record; keep-running: after the
 * first input, only the request), read {"response":...,"debug":...}; returns the response
 * node (owned) and checks the debug text. */
static JsonNode *bz_turn(bz_bot *b, const char *cfg, JsonNode *request)
{
    json_array_add_element(b->reqs, json_node_copy(request));
    char *input;
    if (b->keep && b->pid) {
        input = node_text(request);
    } else {
        JsonBuilder *jb = json_builder_new();
        json_builder_begin_object(jb);
        json_builder_set_member_name(jb, "requests");
        JsonNode *rq = json_node_new(JSON_NODE_ARRAY);
        json_node_set_array(rq, b->reqs);
        json_builder_add_value(jb, rq);
        json_builder_set_member_name(jb, "responses");
        JsonNode *rs = json_node_new(JSON_NODE_ARRAY);
        json_node_set_array(rs, b->resps);
        json_builder_add_value(jb, rs);
        json_builder_set_member_name(jb, "data");
        json_builder_add_string_value(jb, "");
        json_builder_end_object(jb);
        JsonNode *root = json_builder_get_root(jb);
        input = node_text(root);
        json_node_unref(root);
        g_object_unref(jb);
        if (!b->pid)
            bz_start(b, cfg, b->keep);
    }
    size_t len = strlen(input);
    assert_true(write(b->in_fd, input, len) == (ssize_t)len);
    assert_true(write(b->in_fd, "\n", 1) == 1);
    g_free(input);
    char *line = read_line_timeout(b, 30000);
    JsonParser *p = json_parser_new();
    if (!json_parser_load_from_data(p, line, -1, NULL))
        fail_msg("not JSON from the bot: %s", line);
    JsonObject *o = json_node_get_object(json_parser_get_root(p));
    assert_true(json_object_has_member(o, "response"));
    const char *debug = json_object_get_string_member(o, "debug");
    assert_non_null(debug);
    if (strstr(debug, "refused") || strstr(debug, "cannot read"))
        fail_msg("the bot could not use its view: %s\n(answer %s)", debug, line);
    JsonNode *resp = json_node_copy(json_object_get_member(o, "response"));
    g_object_unref(p);
    g_free(line);
    json_array_add_element(b->resps, json_node_copy(resp));
    if (b->keep) {
        char *mark = read_line_timeout(b, 30000);
        assert_string_equal(mark, ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<");
        g_free(mark);
    } else {
        bz_stop(b); /* classic mode: one answer, then the program ends */
    }
    return resp;
}

/* FightTheLandlord2 takes 4 + 2 singles and single-winged planes only with kickers of
 * distinct ranks. */
static bool ftl2_kickers_ok(const cb_rules *r, cb_cards c)
{
    cb_move m;
    if (!c || !cb_classify(r, cb_counts_of(c), &m, NULL, 0) || (m.shape != CB_FOUR_2 && m.shape != CB_PLANE_1))
        return true;
    cb_counts k = cb_counts_of(c);
    for (int i = 0; i < m.len; i++)
        k = cb_count_add(k, m.main + i, m.shape == CB_FOUR_2 ? -4 : -3);
    for (int rk = 0; rk < CB_NRANKS; rk++)
        if (cb_count(k, rk) > 1)
            return false;
    return true;
}

static int botzone_game(const char *cfg, const cb_rules *r, uint64_t deal)
{
    cb_engine_opts o = {.struct_size = sizeof o, .key = 2024, .deal = deal, .game = deal, .first_bidder = 0,
                        .landlord = -1, .max_redeals = 3};
    char err[300];
    cb_engine *e = cb_engine_new(r, &o, err, sizeof err);
    assert_non_null(e);
    bz_bot bots[3] = {{0}};
    for (int s = 0; s < 3; s++)
        bz_reset(&bots[s], s != 0);
    int redeals = 0, decisions = 0;
    while (cb_engine_phase(e) != CB_PHASE_OVER) {
        if (cb_engine_redeals(e) != redeals) { /* all passed: a new Botzone game, new bots */
            redeals = cb_engine_redeals(e);
            for (int s = 0; s < 3; s++) {
                bz_stop(&bots[s]);
                bz_reset(&bots[s], s != 0);
            }
        }
        int s = cb_engine_turn(e);
        bz_bot *b = &bots[s];
        JsonBuilder *jb = json_builder_new();
        json_builder_begin_object(jb);
        if (!b->got_own) {
            json_builder_set_member_name(jb, "own");
            add_ids(jb, cb_engine_dealt(e, s));
            b->got_own = true;
        }
        bool bid = cb_engine_phase(e) == CB_PHASE_BID;
        if (bid) {
            int32_t seats[16], values[16], now[3];
            int n = cb_engine_bids(e, now, seats, values, 16);
            json_builder_set_member_name(jb, "bid");
            json_builder_begin_array(jb);
            for (int i = 0; i < n; i++)
                json_builder_add_int_value(jb, values[i]);
            json_builder_end_array(jb);
        } else {
            if (!b->got_public) {
                json_builder_set_member_name(jb, "publiccard");
                add_ids(jb, cb_engine_bottom(e));
                json_builder_set_member_name(jb, "landlord");
                json_builder_add_int_value(jb, cb_engine_landlord(e));
                json_builder_set_member_name(jb, "pos");
                json_builder_add_int_value(jb, s);
                json_builder_set_member_name(jb, "finalbid");
                json_builder_add_int_value(jb, cb_engine_stake(e));
                b->got_public = true;
            }
            int nh;
            const cb_play_rec *h = cb_engine_history(e, &nh);
            json_builder_set_member_name(jb, "history");
            json_builder_begin_array(jb);
            for (int j = 0; j < 2; j++) { /* [pos - 2, pos - 1]: the last two actions */
                int i = nh - 2 + j;
                add_ids(jb, i >= 0 ? h[i].cards : 0);
            }
            json_builder_end_array(jb);
        }
        json_builder_end_object(jb);
        JsonNode *req = json_builder_get_root(jb);
        g_object_unref(jb);
        JsonNode *resp = bz_turn(b, cfg, req);
        json_node_unref(req);
        if (bid) {
            assert_true(JSON_NODE_HOLDS_VALUE(resp));
            int x = (int)json_node_get_int(resp);
            if (cb_engine_bid(e, x, err, sizeof err) != 0)
                fail_msg("seat %d bid %d: %s", s, x, err);
        } else {
            assert_true(JSON_NODE_HOLDS_ARRAY(resp));
            JsonArray *a = json_node_get_array(resp);
            cb_cards c = 0;
            for (guint i = 0; i < json_array_get_length(a); i++) {
                gint64 id = json_array_get_int_element(a, i);
                assert_true(id >= 0 && id < CB_NCARDS);
                c |= cb_card_bit((int)id);
            }
            if (!ftl2_kickers_ok(r, c))
                fail_msg("seat %d played kickers FightTheLandlord2 refuses", s);
            if (cb_engine_play(e, c, err, sizeof err) != 0)
                fail_msg("seat %d played an illegal answer: %s", s, err);
        }
        json_node_unref(resp);
        decisions++;
    }
    for (int s = 0; s < 3; s++) {
        bz_stop(&bots[s]);
        json_array_unref(bots[s].reqs);
        json_array_unref(bots[s].resps);
    }
    int pts[3];
    cb_engine_points(e, pts);
    print_message("botzone game %llu: winner seat %d, landlord %d, %d decisions, %d redeals, points %+d %+d %+d\n",
                  (unsigned long long)deal, cb_engine_winner(e), cb_engine_landlord(e), decisions, redeals, pts[0],
                  pts[1], pts[2]);
    assert_true(cb_engine_winner(e) >= 0);
    cb_engine_free(e);
    return decisions;
}

static void test_botzone_games(void **state)
{
    (void)state;
    char *cfg = cbt_conf_raw(F, "[shim]\nfallback = h\nbudget_ms = 900\n[game]\nrules = ddz\n[strategy.h]\n"
                                "plugin = heuristic\n[seats]\n0 = h\n1 = h\n2 = h\n");
    cb_rules r;
    assert_int_equal(cb_rules_preset("ddz", &r), 0);
    int total = 0;
    for (uint64_t g = 0; g < 3; g++)
        total += botzone_game(cfg, &r, g);
    assert_true(total > 30);
    g_free(cfg);
}

/* The platform's record read in one go, bids it never shows rebuilt: seat 2 gets its first
 * request after seat 0 bid 3 (no bid request, "own" and the public cards together). */
static void test_botzone_record(void **state)
{
    (void)state;
    char *cfg = cbt_conf_raw(F, "[shim]\nfallback = h\n[game]\nrules = ddz\n[strategy.h]\nplugin = heuristic\n"
                                "[seats]\n0 = h\n1 = h\n2 = h\n");
    /* seat 1 in a game where seat 0 bid 3: its first request is a play request */
    const char *input =
        "{\"requests\":[{\"own\":[0,1,2,4,5,6,8,9,12,13,16,20,24,28,32,36,40],\"history\":[[],[3,7,11,15,19]],"
        "\"publiccard\":[50,51,52],\"landlord\":0,\"pos\":1,\"finalbid\":3}],\"responses\":[]}\n";
    char *cmd = cardbot_path();
    char *argv[] = {cmd, "serve", "--config", cfg, "--strategy", "h", "--protocol", "botzone", "--no-keep-running", NULL};
    char *out = run_with_input(argv, input, strlen(input));
    print_message("answer: %s", out);
    assert_null(strstr(out, "refused"));
    assert_non_null(strstr(out, "{\"response\":["));
    assert_null(strstr(out, "KEEP_RUNNING"));
    g_free(out);
    /* garbage in: still one answer (a pass), the reason in debug */
    const char *bad = "{\"requests\":[{\"own\":[0,0],\"history\":[[],[]]}],\"responses\":[]}\n";
    out = run_with_input(argv, bad, strlen(bad));
    assert_non_null(strstr(out, "\"response\":[]"));
    assert_non_null(strstr(out, "card 0 twice"));
    g_free(out);
    g_free(cfg);
    /* kickers FightTheLandlord2 refuses are refitted: the landlord led 4444 + 6 7; the test
     * plugin "lowest" answers 5555 + 33 (our 4 + 2 singles may be a pair), serve must answer
     * 5555 with two singles of distinct ranks instead */
    cfg = cbt_conf_tp(F, "fallback = h\n[game]\nrules = ddz\n[strategy.low]\nplugin = lowest\n"
                         "[strategy.h]\nplugin = heuristic\n[seats]\n0 = low\n1 = low\n2 = low\n");
    const char *four =
        "{\"requests\":[{\"own\":[0,1,2,8,9,10,11,20,21,24,25,28,32,36,40,44,48],\"history\":[[],[4,5,6,7,12,16]],"
        "\"publiccard\":[50,51,52],\"landlord\":0,\"pos\":1,\"finalbid\":3}],\"responses\":[]}\n";
    argv[3] = cfg;
    argv[5] = "low";
    out = run_with_input(argv, four, strlen(four));
    print_message("refit: %s", out);
    assert_non_null(strstr(out, "kickers refit for FightTheLandlord2"));
    JsonParser *p = json_parser_new();
    assert_true(json_parser_load_from_data(p, out, -1, NULL));
    JsonArray *a = json_object_get_array_member(json_node_get_object(json_parser_get_root(p)), "response");
    cb_cards c = 0;
    for (guint i = 0; i < json_array_get_length(a); i++)
        c |= cb_card_bit((int)json_array_get_int_element(a, i));
    g_object_unref(p);
    cb_rules r;
    assert_int_equal(cb_rules_preset("ddz", &r), 0);
    cb_move m;
    assert_true(cb_classify(&r, cb_counts_of(c), &m, NULL, 0));
    assert_true(m.shape == CB_BOMB || (m.shape == CB_FOUR_2 && m.main == 2));
    assert_true(ftl2_kickers_ok(&r, c));
    assert_true((c & 0xF00) == 0xF00); /* the four 5s (ids 8..11) */
    g_free(out);
    g_free(cmd);
    g_free(cfg);
}

/* Botzone input that is not JSON ends serve (status 1) with a message that says what is wrong
 * and where, in stdin's line numbers; "incomplete" only when the input ends inside a value
 * still open. In keep-running mode a garbage line stops it at once, not at end of input (the
 * requests after it are not swallowed as part of one value). A record may span lines, and a
 * line of blanks is skipped like an empty one. */
static void test_botzone_bad_input(void **state)
{
    (void)state;
    char *cfg = cbt_conf_raw(F, "[shim]\nfallback = h\n[game]\nrules = ddz\n[strategy.h]\nplugin = heuristic\n"
                                "[seats]\n0 = h\n1 = h\n2 = h\n");
    const char *record = "{\"requests\":[{\"own\":[0,1,2,4,5,6,8,9,12,13,16,20,24,28,32,36,40],\"bid\":[]}],"
                         "\"responses\":[]}";
    char *trailing_comma = g_strdup_printf("%s,\n", record);
    const struct {
        const char *input;
        bool keep;
        int status;
        const char *says;   /* on stderr */
        int answers;        /* {"response":...} lines on stdout */
    } cases[] = {
        {"not json\n", false, 1, "cardbot serve: input: not JSON at line 1 column ", 0},
        {trailing_comma, false, 1, "cardbot serve: input: not JSON at line 1 column ", 0},
        {"{\"requests\":[{\"own\":[0,1,2],\n", false, 1,
         "cardbot serve: input: incomplete JSON at end of input: the value from line 1 on has 3 unclosed brackets", 0},
        {"{\"requests\":[{\"own\":[0,1,\n\n2,\"bid", false, 1,
         "cardbot serve: input: incomplete JSON at end of input: the value from line 1 on ends inside a string", 0},
        /* keep-running: a record over three lines, answered; then garbage on line 4 */
        {"{\"requests\":[{\"own\":[0,1,2,4,5,6,8,9,12,13,16,20,24,28,32,36,40],\n\"bid\":[]}],\n\"responses\":[]}\n"
         "garbage\n{\"bid\":[]}\n",
         true, 1, "cardbot serve: input: not JSON at line 4 column ", 1},
        /* blanks before the record: skipped */
        {" \t \n", false, 0, NULL, 0},
    };
    char *cmd = cardbot_path();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *argv[] = {cmd, "serve", "--config", cfg, "--strategy", "h", "--protocol", "botzone",
                        cases[i].keep ? NULL : "--no-keep-running", NULL};
        char *input = cases[i].says ? g_strdup(cases[i].input) : g_strdup_printf("%s%s\n", cases[i].input, record);
        int ws;
        char *err = NULL;
        char *out = run_full(argv, input, strlen(input), &ws, &err);
        print_message("case %zu: status %d, stderr: %s", i, WIFEXITED(ws) ? WEXITSTATUS(ws) : -1, err[0] ? err : "\n");
        if (!WIFEXITED(ws) || WEXITSTATUS(ws) != cases[i].status)
            fail_msg("case %zu: exit status %d, expected %d", i, ws, cases[i].status);
        if (cases[i].says) {
            if (!g_str_has_prefix(err, cases[i].says))
                fail_msg("case %zu: stderr %s, expected it to start %s", i, err, cases[i].says);
            assert_true(g_str_has_suffix(err, "\n") && strchr(err, '\n')[1] == '\0'); /* one line: the reason */
            assert_null(strstr(err, "<data>"));
            if (!strstr(cases[i].says, "incomplete"))
                assert_null(strstr(err, "incomplete"));
        } else {
            assert_string_equal(err, "");
        }
        int answers = 0;
        for (const char *l = out; (l = strstr(l, "{\"response\":")); l++)
            answers++;
        if (answers != (cases[i].says ? cases[i].answers : 1))
            fail_msg("case %zu: %d answers on stdout:\n%s", i, answers, out);
        if (cases[i].keep) /* the answer, its keep-running line, and nothing for what came after */
            assert_true(g_str_has_suffix(out, "}\n>>>BOTZONE_REQUEST_KEEP_RUNNING<<<\n"));
        g_free(out);
        g_free(err);
        g_free(input);
    }
    g_free(cmd);
    g_free(trailing_comma);
    g_free(cfg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_serve_pdk),
        cmocka_unit_test(test_serve_ddz),
        cmocka_unit_test(test_serve_wrong_rules),
        cmocka_unit_test(test_serve_error_ids),
        cmocka_unit_test(test_botzone_games),
        cmocka_unit_test(test_botzone_record),
        cmocka_unit_test(test_botzone_bad_input),
    };
    return cmocka_run_group_tests(tests, setup, cbt_shimfix_teardown);
}

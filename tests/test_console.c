/* cardbot match under faults a plugin or the operating system can cause: a plugin that calls
 * exit(0) in-process (non-zero status, the strategy named); a plugin that prints forged result
 * and JSON lines to stdout and returns explanations with bytes that are not UTF-8, infinite
 * values and UINT64_MAX counters (none of it reaches the results or the replay file, which stays
 * valid JSON lines, also with stdout closed); a replay file that cannot be written (/dev/full:
 * the command fails); SIGINT and SIGTERM in the middle of a match (whole replay lines, a summary
 * of the finished games, exit 128 + signal). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <stdbool.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "support/clifix.h"

/* A config seating `plugin` (from this build's tests/plugins) at seat 0 and heuristic
 * level 6 at seats 1 and 2, for `rules`. */
static char *config_with(const char *plugin, const char *rules)
{
    char *dir = g_strdup_printf("%s/tests/plugins", cbt_build_dir());
    char *abs = g_canonicalize_filename(dir, NULL);
    char *body = g_strdup_printf("[shim]\nplugin_dir = %s\nfallback = h\n[game]\nrules = %s\n[strategy.t]\nplugin = %s\n"
                                 "[strategy.h]\nplugin = heuristic\n[seats]\n0 = t\n1 = h\n2 = h\n",
                                 abs, rules, plugin);
    char *name = g_strdup_printf("%s-%s.ini", plugin, rules);
    char *path = cbt_tmp_path("cbconsole", name);
    assert_true(g_file_set_contents(path, body, -1, NULL));
    g_free(name);
    g_free(body);
    g_free(abs);
    g_free(dir);
    return path;
}

/* Run a shell command line (for redirections); exit status or 128 + signal. */
static int sh(const char *cmd, char **out, char **err)
{
    char *argv[] = {"/bin/sh", "-c", (char *)cmd, NULL};
    int ws = 0;
    GError *e = NULL;
    if (!g_spawn_sync(NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, out, err, &ws, &e)) {
        print_error("%s: %s\n", cmd, e->message);
        g_error_free(e);
        fail();
    }
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

/* Every line of a replay file is one JSON object: its header, then games; returns how many
 * games. */
static int json_lines(const char *path, const char *must_not_contain)
{
    char *text = NULL;
    assert_true(g_file_get_contents(path, &text, NULL, NULL));
    assert_true(g_utf8_validate(text, -1, NULL));
    if (must_not_contain)
        assert_null(strstr(text, must_not_contain));
    char **lines = g_strsplit(text, "\n", -1);
    int n = 0;
    for (char **l = lines; *l && **l; l++) {
        JsonParser *p = json_parser_new();
        GError *e = NULL;
        if (!json_parser_load_from_data(p, *l, -1, &e)) {
            print_error("line %d is not JSON: %s\n", (int)(l - lines) + 1, e->message);
            fail();
        }
        assert_true(JSON_NODE_HOLDS_OBJECT(json_parser_get_root(p)));
        /* the first line is the header, every other one a game (counted) */
        const char *type = json_object_get_string_member(json_node_get_object(json_parser_get_root(p)), "type");
        assert_string_equal(type, l == lines ? "header" : "game");
        g_object_unref(p);
        n += l != lines;
    }
    assert_true(text[0] == '\0' || text[strlen(text) - 1] == '\n'); /* no cut line */
    g_strfreev(lines);
    g_free(text);
    return n;
}

static void test_plugin_exit(void **s)
{
    (void)s;
    char *cfg = config_with("exiter", "pdk16");
    char *cmd = g_strdup_printf("%s/cardbot match --config %s --games 4 --seed 2", cbt_build_dir(), cfg);
    char *out = NULL, *err = NULL;
    int rc = sh(cmd, &out, &err);
    print_message("exit(0) in a plugin: status %d, stderr: %s", rc, err);
    assert_int_equal(rc, 3);
    assert_non_null(strstr(err, "strategy 't'"));
    g_free(out);
    g_free(err);
    g_free(cmd);
    g_free(cfg);
}

static void check_chatty(const char *rules, bool close_stdout)
{
    char *cfg = config_with("chatty", rules);
    char *rep = cbt_tmp_path("cbconsole", "chatty.jsonl");
    char *cmd = g_strdup_printf("%s/cardbot match --config %s --games 6 --seed 4 --replay %s%s", cbt_build_dir(), cfg, rep,
                                close_stdout ? " >&-" : "");
    char *out = NULL, *err = NULL;
    int rc = sh(cmd, &out, &err);
    if (rc != 0)
        print_error("%s\n%s%s", cmd, out, err);
    assert_int_equal(rc, 0);
    if (!close_stdout) {
        assert_null(strstr(out, "+99 -50 -49")); /* the forged result line */
        assert_null(strstr(out, "forged"));
        assert_non_null(strstr(out, "Finished game 6"));
        assert_non_null(strstr(err, "+99 -50 -49")); /* it went to stderr instead */
    }
    assert_int_equal(json_lines(rep, "forged"), 6);
    /* the repaired text and the counter as a string */
    char *text = NULL;
    assert_true(g_file_get_contents(rep, &text, NULL, NULL));
    assert_non_null(strstr(text, "\"sims\":\"18446744073709551615\""));
    assert_non_null(strstr(text, "bad \xef\xbf\xbd")); /* U+FFFD */
    assert_null(strstr(text, "inf"));
    print_message("chatty %s%s: results and 6 replay lines clean\n", rules, close_stdout ? " (stdout closed)" : "");
    g_free(text);
    g_unlink(rep);
    g_free(out);
    g_free(err);
    g_free(cmd);
    g_free(rep);
    g_free(cfg);
}

static void test_plugin_output(void **s)
{
    (void)s;
    check_chatty("pdk16", false);
    check_chatty("ddz", false);
    check_chatty("pdk16", true);
}

static void test_unknown_table(void **s)
{
    (void)s;
    char *cfg = config_with("lowest", "pdk16");
    char *cmd = g_strdup_printf("%s/cardbot match --config %s --games 3 --table nosuch", cbt_build_dir(), cfg);
    char *out = NULL, *err = NULL;
    int rc = sh(cmd, &out, &err);
    print_message("--table nosuch: status %d, %s", rc, err);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(err, "[table.nosuch]"));
    g_free(out);
    g_free(err);
    g_free(cmd);
    g_free(cfg);
}

static void test_replay_write_error(void **s)
{
    (void)s;
    char *cfg = config_with("lowest", "pdk16");
    char *cmd = g_strdup_printf("%s/cardbot match --config %s --games 30 --seed 1 --quiet --replay /dev/full", cbt_build_dir(),
                                cfg);
    char *out = NULL, *err = NULL;
    int rc = sh(cmd, &out, &err);
    print_message("--replay /dev/full: status %d, %s", rc, err);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(err, "replay"));
    g_free(out);
    g_free(err);
    g_free(cmd);
    g_free(cfg);
}

/* Start a long match, signal it once some games are in the replay file. */
static void interrupt(int sig)
{
    char *cfg = config_with("lowest", "ddz");
    char *rep = cbt_tmp_path("cbconsole", "intr.jsonl");
    char *outp = cbt_tmp_path("cbconsole", "intr.out");
    g_unlink(rep);
    char *bin = g_strdup_printf("%s/cardbot", cbt_build_dir());
    char *argv[] = {bin, "match", "--config", cfg, "--games", "200000", "--seed", "5", "--quiet", "-j", "2",
                    "--replay", rep, NULL};
    GPid pid;
    int out_fd = -1;
    GError *e = NULL;
    assert_true(g_spawn_async_with_pipes(NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                                         NULL, &pid, NULL, &out_fd, NULL, &e));
    /* wait for some games (at most 60 s) */
    for (int i = 0; i < 600; i++) {
        GStatBuf st;
        if (g_stat(rep, &st) == 0 && st.st_size > 20000)
            break;
        g_usleep(100000);
    }
    kill(pid, sig);
    GString *out = g_string_new(NULL);
    char buf[4096];
    ssize_t n;
    while ((n = read(out_fd, buf, sizeof buf)) > 0)
        g_string_append_len(out, buf, n);
    close(out_fd);
    int ws = 0;
    assert_int_equal(waitpid(pid, &ws, 0), pid);
    g_spawn_close_pid(pid);
    int status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
    int lines = json_lines(rep, NULL);
    int played = -1, total = -1;
    const char *line = strstr(out->str, "Interrupted by ");
    assert_non_null(line);
    assert_int_equal(sscanf(strstr(line, " after ") ? strstr(line, " after ") : "", " after %d of %d", &played, &total), 2);
    print_message("%s after %d replay lines: status %d, summary of %d of %d games\n", sig == SIGINT ? "SIGINT" : "SIGTERM",
                  lines, status, played, total);
    assert_int_equal(status, 128 + sig);
    assert_int_equal(played, lines);
    assert_true(lines > 0 && played < total);
    assert_non_null(strstr(out->str, "Strategy "));
    g_string_free(out, TRUE);
    g_free(bin);
    g_free(outp);
    g_unlink(rep);
    g_free(rep);
    g_free(cfg);
}

static void test_interrupt(void **s)
{
    (void)s;
    interrupt(SIGINT);
    interrupt(SIGTERM);
}

static int cleanup(void **s)
{
    (void)s;
    cbt_tmp_remove();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plugin_exit),
        cmocka_unit_test(test_plugin_output),
        cmocka_unit_test(test_replay_write_error),
        cmocka_unit_test(test_unknown_table),
        cmocka_unit_test(test_interrupt),
    };
    return cmocka_run_group_tests(tests, NULL, cleanup);
}

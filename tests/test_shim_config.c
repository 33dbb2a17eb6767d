/* cardbot tests — the config's strictness (host-shim/shim_config.c): what a config may leave
 * out, say twice or say at all, and what file it may be.
 *
 *  - [seats] is required and names a strategy at every seat ([table.ID] may name only some);
 *  - a group or a key written twice is refused (GKeyFile alone would merge or overwrite);
 *  - a [rules] key the game does not read takes only that game's own value (core/presets.c
 *    decides, as for the CLI's --flag: tests/test_cli.c);
 *  - `plugin =` with a '/' (a path) needs [shim] allow_plugin_paths = true;
 *  - only a regular file is read: a FIFO, a directory or a device is refused before reading
 *    (a FIFO must not block the loader), as are a NUL byte and a huge file;
 *  - a fault of the text itself names its line, found by GKeyFile (a line it refuses, with the
 *    group it is in; a value it cannot read; a group or a key written twice);
 *  - trailing blanks of a value are dropped (GKeyFile keeps them), \s keeps one;
 *  - plugin = NAME.so is refused with the base name to write.
 * Each refusal is checked for the file, the group and the key in its message. The shim is the
 * built libcardbot-shim.so of $CB_BUILD, loaded as a host would (tests/support/shimfix.h).
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "cardbot/game.h"
#include "cardbot/shim.h"
#include "support/shimfix.h"

typedef cbt_shimfix fx;

static int group_setup(void **state)
{
    return cbt_shimfix_setup(state, "test_shim_config", "cbshimconf-XXXXXX");
}

#define PDK_LO "[game]\nrules = pdk16\n[strategy.lo]\nplugin = lowest\n"
#define SEATS_LO "[seats]\n0 = lo\n1 = lo\n2 = lo\n"

/* ---- [seats] ---- */

static void test_seats_required(void **state)
{
    fx *f = *state;
    /* no [seats] at all: every seat would have run the fallback without a word */
    char *p = cbt_conf_tp(f, PDK_LO "[shim]\nfallback = lo\n");
    cbt_expect_open_error(f, p, p, ": [seats]: missing group", "0 = NAME .. 2 = NAME", NULL);
    g_free(p);
    /* a seat left out, in either game; the first missing one is named as the key */
    p = cbt_conf_tp(f, PDK_LO "[seats]\n0 = lo\n2 = lo\n");
    cbt_expect_open_error(f, p, p, ": [seats] 1: missing", "every seat 0..2", NULL);
    g_free(p);
    p = cbt_conf_tp(f, "[game]\nrules = ddz\n[strategy.lo]\nplugin = lowest\n[seats]\n0 = lo\n1 = lo\n");
    cbt_expect_open_error(f, p, p, ": [seats] 2: missing", NULL);
    g_free(p);
    /* a [table.ID] may name only some seats: the others are [seats]' */
    p = cbt_conf_tp(f, PDK_LO "[strategy.p]\nplugin = passer\n" SEATS_LO "[table.t]\n1 = p\n");
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, "t");
    assert_string_equal(f->api.table_strategy(t, 0), "lo");
    assert_string_equal(f->api.table_strategy(t, 1), "p");
    assert_string_equal(f->api.table_strategy(t, 2), "lo");
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);
}

/* ---- written twice ---- */

static void test_duplicate_groups(void **state)
{
    fx *f = *state;
    static const struct {
        const char *body, *needle[3];
    } cases[] = {
        /* the second [seats] would have been merged into the first */
        { PDK_LO SEATS_LO "[seats]\n2 = lo\n", { ": [seats]: group written twice", "(lines 7 and 11)" } },
        /* keys of both would have made one strategy */
        { PDK_LO "level = 1\n" SEATS_LO "[strategy.lo]\nbid = 1\n", { ": [strategy.lo]: group written twice" } },
        { "[shim]\nbudget_ms = 50\n" PDK_LO SEATS_LO "[shim]\nfallback = lo\n", { ": [shim]: group written twice" } },
        /* blanks around a header are GKeyFile's too: still the same group */
        { PDK_LO SEATS_LO "  [game]\t\r\nrules = pdk16\n", { ": [game]: group written twice" } },
        { PDK_LO SEATS_LO "[match]\ngames = 1\n[match]\nseed = 2\n", { ": [match]: group written twice" } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *p = cbt_conf_tp(f, "%s", cases[i].body);
        cbt_expect_open_error(f, p, p, cases[i].needle[0], cases[i].needle[1] ? cases[i].needle[1] : p, NULL);
        g_free(p);
    }
    /* a header inside a comment is no header; a group name with blanks is another name */
    char *p = cbt_conf_tp(f, PDK_LO SEATS_LO "# [seats]\n[match]\ngames = 1\n");
    cb_shim *s = cbt_open_ok(f, p);
    f->api.free(s);
    g_free(p);
    p = cbt_conf_tp(f, PDK_LO SEATS_LO "[ seats ]\n0 = lo\n");
    cbt_expect_open_error(f, p, p, "[ seats ]", "unknown group", NULL);
    g_free(p);
}

static void test_duplicate_keys(void **state)
{
    fx *f = *state;
    static const struct {
        const char *body, *needle;
    } cases[] = {
        /* GKeyFile answers the later line: the file would show one plugin and load another */
        { "[game]\nrules = pdk16\n[strategy.lo]\nplugin = passer\nplugin = lowest\n" SEATS_LO, ": [strategy.lo] plugin: key written twice" },
        { PDK_LO "[seats]\n0 = lo\n1 = lo\n0 = lo\n2 = lo\n", ": [seats] 0: key written twice" },
        { PDK_LO SEATS_LO "[shim]\nbudget_ms = 10\nbudget_ms = 20\n", ": [shim] budget_ms: key written twice" },
        { PDK_LO SEATS_LO "[rules]\nbao = false\nbao = true\n", ": [rules] bao: key written twice" },
        { PDK_LO SEATS_LO "[match]\ngames = 1\ngames = 2\n", ": [match] games: key written twice" },
        { PDK_LO "level = 1\nlevel = 1\n" SEATS_LO, ": [strategy.lo] level: key written twice" },
        { "[game]\nrules = pdk16\nrules = ddz\n[strategy.lo]\nplugin = lowest\n" SEATS_LO, ": [game] rules: key written twice" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *p = cbt_conf_tp(f, "%s", cases[i].body);
        cbt_expect_open_error(f, p, p, cases[i].needle, NULL);
        g_free(p);
    }
    /* a translated key (name[zh]) is a key of its own: no clash with name */
    char *p = cbt_conf_tp(f, PDK_LO SEATS_LO "[match]\ntitle = x\ntitle[zh] = y\ntitle[de] = z\n");
    cb_shim *s = cbt_open_ok(f, p);
    assert_string_equal(f->api.get(s, "match", "title"), "x");
    f->api.free(s);
    g_free(p);
}

/* A reload of a file with a group written twice fails like an open, the old config running. */
static void test_duplicate_on_reload(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, PDK_LO SEATS_LO "[match]\ngames = 10\n");
    cb_shim *s = cbt_open_ok(f, p);
    char *body = g_strdup_printf("[shim]\nplugin_dir = %s\n" PDK_LO SEATS_LO "[match]\ngames = 20\n"
                                 "[strategy.lo]\nlevel = 2\n", f->tplugs);
    cbt_rewrite(p, body);
    char err[1024] = "";
    assert_int_equal(f->api.reload(s, err, sizeof err), -1);
    assert_non_null(strstr(err, p));
    assert_non_null(strstr(err, ": [strategy.lo]: group written twice"));
    assert_string_equal(f->api.get(s, "match", "games"), "10");
    f->api.free(s);
    g_free(body);
    g_free(p);
}

/* ---- [rules] keys the game does not read ---- */

static void test_rules_of_other_games(void **state)
{
    fx *f = *state;
    static const struct {
        const char *rules, *key, *value;
    } refused[] = {
        { "ddz", "bao", "true" },           { "ddz", "aaa_bomb", "true" },     { "ddz", "card_points", "2" },
        { "ddz", "short_triple", "never" }, { "ddz", "four_with", "2" },       { "ddz", "bomb_points", "5" },
        { "ddz", "bao_points", "16" },      { "ddz", "spring_double", "on" },  { "ddz", "spade3_first", "true" },
        { "ddz", "plane_pair_wings", "true" }, { "pdk16", "rob", "true" },     { "pdk15", "rocket_kickers", "true" },
        { "guanpai", "rob", "yes" },        { "pdk16", "four_two_same", "true" },
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        char *p = cbt_conf_tp(f, "[game]\nrules = %s\n[rules]\n%s = %s\n[strategy.lo]\nplugin = lowest\n" SEATS_LO,
                              refused[i].rules, refused[i].key, refused[i].value);
        char key[64], game[64];
        snprintf(key, sizeof key, ": [rules] %s: ", refused[i].key);
        snprintf(game, sizeof game, "not used by %s", refused[i].rules);
        cbt_expect_open_error(f, p, p, key, game, NULL);
        g_free(p);
    }
    /* the game's own values: accepted, the rules those of the preset */
    char *p = cbt_conf_tp(f, "[game]\nrules = ddz\n[rules]\nbao = false\ncard_points = 0\nshort_triple = always\n"
                             "spade3_first = false\nrob = true\n[strategy.lo]\nplugin = lowest\n" SEATS_LO);
    cb_shim *s = cbt_open_ok(f, p);
    cb_rules want;
    assert_int_equal(cb_rules_preset("ddz", &want), 0);
    want.rob = true;
    assert_true(cb_rules_equal(f->api.rules(s), &want));
    f->api.free(s);
    g_free(p);
}

/* ---- plugin = a path ---- */

static void test_plugin_paths(void **state)
{
    fx *f = *state;
    char *so = g_build_filename(f->tplugs, "lowest.so", NULL);
    char *link = g_build_filename(f->tmp, "mine.so", NULL);
    assert_int_equal(symlink(so, link), 0);
    /* by default a path is refused, absolute or relative, and the message says how to opt in */
    const char *paths[] = { so, "./mine.so", "sub/../mine.so" };
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        char *p = cbt_conf_raw(f, "[game]\nrules = pdk16\n[strategy.lo]\nplugin = %s\n" SEATS_LO, paths[i]);
        char quoted[512];
        snprintf(quoted, sizeof quoted, "'%s' is a path", paths[i]);
        cbt_expect_open_error(f, p, p, ": [strategy.lo] plugin: ", quoted, "[shim] allow_plugin_paths = true", NULL);
        g_free(p);
        p = cbt_conf_raw(f, "[shim]\nallow_plugin_paths = false\n[game]\nrules = pdk16\n[strategy.lo]\nplugin = %s\n"
                            SEATS_LO, paths[i]);
        cbt_expect_open_error(f, p, p, ": [strategy.lo] plugin: ", quoted, NULL);
        g_free(p);
    }
    /* opted in: loaded from the path (relative: to the config file's directory) */
    char *p = cbt_conf_raw(f, "[shim]\nallow_plugin_paths = true\n[game]\nrules = pdk16\n[strategy.lo]\n"
                              "plugin = ./mine.so\n" SEATS_LO);
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL);
    cb_seat_info si = { .struct_size = sizeof si };
    assert_int_equal(f->api.seat_info(t, 0, &si), 0);
    char *want = g_build_filename(f->tmp, "./mine.so", NULL);
    assert_string_equal(si.plugin_path, want);
    g_free(want);
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);
    /* a base name needs nothing: it can only name a file on the plugin search path */
    p = cbt_conf_tp(f, PDK_LO SEATS_LO);
    s = cbt_open_ok(f, p);
    f->api.free(s);
    g_free(p);
    p = cbt_conf_tp(f, PDK_LO SEATS_LO "[shim]\nallow_plugin_paths = maybe\n");
    cbt_expect_open_error(f, p, p, ": [shim] allow_plugin_paths: ", "'maybe'", NULL);
    g_free(p);
    g_unlink(link);
    g_free(link);
    g_free(so);
}

/* ---- the line of a fault ---- */

/* Open must fail with exactly "PATH" followed by tail. */
static void expect_exact(fx *f, const char *path, const char *tail)
{
    char err[1024] = "";
    cb_shim *s = f->api.open(path, err, sizeof err);
    if (s) {
        f->api.free(s);
        fail_msg("%s opened, an error was expected", path);
    }
    char *want = g_strconcat(path, tail, NULL);
    assert_string_equal(err, want);
    g_free(want);
}

static void test_line_of_fault(void **state)
{
    fx *f = *state;
    static const struct {
        const char *body, *tail;
    } cases[] = {
        /* the trial's case: a line GKeyFile refuses, with its number and its group */
        { "[game]\nrules = pdk16\n\n[strategy.x]\nplugin = lowest\n# level is 2\nlevel 2\n" SEATS_LO,
          ":7: [strategy.x]: Key file contains line \u201clevel 2\u201d which is not a key-value pair, group, or comment" },
        /* a key before any group: no group to name */
        { "# top\n\nrules = pdk16\n[game]\n", ":3: Key file does not start with a group" },
        /* a broken header is in no group yet */
        { "[game]\nrules = pdk16\n  [strategy.x\nplugin = lowest\n",
          ":3: Key file contains line \u201c  [strategy.x\u201d which is not a key-value pair, group, or comment" },
        /* GKeyFile takes g_ascii_isspace as blanks before a header: form feed too (not \v) */
        { "[game]\nrules = pdk16\n\f[strategy.x\nplugin = lowest\n",
          ":3: Key file contains line \u201c\f[strategy.x\u201d which is not a key-value pair, group, or comment" },
        { "[game]\nrules = pdk16\n[strategy.x]\nk[ = 1\n", ":4: [strategy.x]: Invalid key name: k[" },
        /* a group opened again: its line is in the group the header names, not the last new one */
        { "[strategy.x]\nplugin = lowest\n[game]\nrules = pdk16\n[strategy.x]\nlevel 3\n",
          ":6: [strategy.x]: Key file contains line \u201clevel 3\u201d which is not a key-value pair, group, or comment" },
        /* CR LF lines, and a last line without its newline */
        { "[game]\r\nrules = pdk16\r\nbad line\r\n", ":3: [game]: Key file contains line \u201cbad line\u201d which is not a key-value pair, group, or comment" },
        { "[game]\nrules = pdk16\n[seats]\n0 = lo\noops", ":5: [seats]: Key file contains line \u201coops\u201d which is not a key-value pair, group, or comment" },
        /* values GKeyFile cannot read: once the text parsed, with the key */
        { "[game]\nrules = pdk16\n[match]\ngames = 1\ntitle = a\\x\n",
          ":5: [match] title: Key file contains key \u201ctitle\u201d which has a value that cannot be interpreted." },
        { "[game]\nrules = pdk16\n[match]\ntitle = \xff\n",
          ":4: [match] title: Key file contains key \u201ctitle\u201d with value \u201c\ufffd\u201d which is not UTF-8" },
        /* written twice: the second line, and both in the text */
        { PDK_LO "bid = 1\nbid = 2\n" SEATS_LO,
          ":6: [strategy.lo] bid: key written twice in the group (lines 5 and 6; GKeyFile would use only the last); write each key once" },
        { PDK_LO SEATS_LO "[seats]\n2 = lo\n",
          ":9: [seats]: group written twice (lines 5 and 9): GKeyFile would merge them into one; write each group once" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *p = cbt_conf_raw(f, "%s", cases[i].body);
        expect_exact(f, p, cases[i].tail);
        g_free(p);
    }
}

/* ---- trailing blanks ---- */

static void test_trailing_blanks(void **state)
{
    fx *f = *state;
    /* every value read without them: rules, a plugin name, a plugin's parameter, seats, [match] */
    char *p = cbt_conf_tp(f, "[game]\nrules = pdk16 \t\n[strategy.lo]\nplugin = lowest \nbid = 2  \n"
                             "[seats]\n0 = lo \n1 = lo\t\n2 = lo\n[match]\ngames = 5 \ntitle = x\\s \n");
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL);
    for (int i = 0; i < 3; i++)
        assert_string_equal(f->api.table_strategy(t, i), "lo");
    assert_string_equal(f->api.get(s, "match", "games"), "5");
    /* a blank wanted at the end is written \s: it stays */
    assert_string_equal(f->api.get(s, "match", "title"), "x ");
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);
    /* the value the plugin gets is the one the file shows: "fail", so create() refuses */
    p = cbt_conf_raw(f, "[shim]\nplugin_dir = %s\n[game]\nrules = pdk16\n[strategy.f]\nplugin = failing\n"
                        "create = fail \t \n" SEATS_LO, f->tplugs);
    expect_exact(f, p, ": [strategy.f]: failing: create: refused as asked");
    g_free(p);
}

/* ---- plugin = NAME.so ---- */

static void test_plugin_so_suffix(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, "[game]\nrules = pdk16\n[strategy.lo]\nplugin = lowest.so\n" SEATS_LO);
    expect_exact(f, p, ": [strategy.lo] plugin: 'lowest.so' ends in .so: give the base name, plugin = lowest "
                       "(lowest.so is looked for along the plugin search path)");
    g_free(p);
}

/* ---- what file ---- */

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "test_shim_config: the config loader blocked on a FIFO\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    _exit(3);
}

static void test_not_a_regular_file(void **state)
{
    fx *f = *state;
    /* a FIFO with no writer: opening it for reading would block the loader for good */
    char *fifo = g_build_filename(f->tmp, "fifo.ini", NULL);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    signal(SIGALRM, on_alarm);
    alarm(20);
    cbt_expect_open_error(f, fifo, fifo, ": cannot read: a FIFO, not a regular file", NULL);
    /* through a symbolic link too: what is read is what the link names */
    char *link = g_build_filename(f->tmp, "link.ini", NULL);
    assert_int_equal(symlink(fifo, link), 0);
    cbt_expect_open_error(f, link, link, "a FIFO, not a regular file", NULL);
    alarm(0);
    signal(SIGALRM, SIG_DFL);
    /* a directory, a device */
    char *dir = g_build_filename(f->tmp, "dir.ini", NULL);
    assert_int_equal(g_mkdir(dir, 0700), 0);
    cbt_expect_open_error(f, dir, dir, ": cannot read: a directory, not a regular file", NULL);
    cbt_expect_open_error(f, "/dev/null", "/dev/null: cannot read: a character device", NULL);
    g_rmdir(dir);
    /* a reload meeting a FIFO where the file was: refused at once, the old config runs on */
    char *p = cbt_conf_tp(f, PDK_LO SEATS_LO "[match]\ngames = 7\n");
    cb_shim *s = cbt_open_ok(f, p);
    assert_int_equal(g_unlink(p), 0);
    assert_int_equal(mkfifo(p, 0600), 0);
    char err[1024] = "";
    signal(SIGALRM, on_alarm);
    alarm(20);
    assert_int_equal(f->api.reload(s, err, sizeof err), -1);
    alarm(0);
    signal(SIGALRM, SIG_DFL);
    assert_non_null(strstr(err, p));
    assert_non_null(strstr(err, "a FIFO"));
    assert_string_equal(f->api.get(s, "match", "games"), "7");
    f->api.free(s);
    g_unlink(p);
    g_free(p);
    g_unlink(link);
    g_unlink(fifo);
    g_free(link);
    g_free(dir);
    g_free(fifo);
}

/* Text only, and of a config's size. */
static void test_not_text(void **state)
{
    fx *f = *state;
    char *p = g_build_filename(f->tmp, "nul.ini", NULL);
    static const char nul[] = "[game]\nrules = pdk16\n[strat\0egy.lo]\nplugin = lowest\n" SEATS_LO;
    assert_true(g_file_set_contents(p, nul, sizeof nul - 1, NULL));
    cbt_expect_open_error(f, p, p, ": a NUL byte on line 3", NULL);
    g_unlink(p);
    g_free(p);
    /* a huge file (sparse: nothing is written) is refused once 16 MiB are read */
    p = g_build_filename(f->tmp, "huge.ini", NULL);
    FILE *fp = fopen(p, "w");
    assert_non_null(fp);
    assert_int_equal(ftruncate(fileno(fp), 17 * 1024 * 1024), 0);
    fclose(fp);
    cbt_expect_open_error(f, p, p, ": cannot read: larger than 16777216 bytes", NULL);
    g_unlink(p);
    g_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seats_required),
        cmocka_unit_test(test_duplicate_groups),
        cmocka_unit_test(test_duplicate_keys),
        cmocka_unit_test(test_duplicate_on_reload),
        cmocka_unit_test(test_rules_of_other_games),
        cmocka_unit_test(test_plugin_paths),
        cmocka_unit_test(test_not_a_regular_file),
        cmocka_unit_test(test_not_text),
        cmocka_unit_test(test_line_of_fault),
        cmocka_unit_test(test_trailing_blanks),
        cmocka_unit_test(test_plugin_so_suffix),
    };
    return cmocka_run_group_tests(tests, group_setup, cbt_shimfix_teardown);
}

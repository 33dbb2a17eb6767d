/* The plugin search path (host-shim/shim_path.c): the order [shim] plugin_dir list ->
 * CARDBOT_PLUGIN_PATH -> the directories next to the shim library (build tree, installed tree),
 * how entries are split and resolved, what counts as found, and the message that lists every
 * file tried. Test binaries link only libcardbot, so the file is compiled in here; its
 * functions are the shim's own code, not a copy. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "../host-shim/shim_path.c"

/* A fresh temp directory per test, removed afterwards. */
typedef struct fx {
    char *tmp;
} fx;

static int setup(void **state)
{
    fx *f = g_new0(fx, 1);
    f->tmp = g_dir_make_tmp("cb-shim-path-XXXXXX", NULL);
    if (!f->tmp)
        return -1;
    *state = f;
    return 0;
}

static void rm_rf(const char *path)
{
    GDir *d = g_file_test(path, G_FILE_TEST_IS_SYMLINK) ? NULL : g_dir_open(path, 0, NULL);
    if (d) {
        const char *n;
        while ((n = g_dir_read_name(d))) {
            char *p = g_build_filename(path, n, NULL);
            rm_rf(p);
            g_free(p);
        }
        g_dir_close(d);
        g_rmdir(path);
    } else {
        g_unlink(path);
    }
}

static int teardown(void **state)
{
    fx *f = *state;
    rm_rf(f->tmp);
    g_free(f->tmp);
    g_free(f);
    return 0;
}

/* tmp/rel, created with its parents; returns the path (g_free). */
static char *mkdir_in(const fx *f, const char *rel)
{
    char *p = g_build_filename(f->tmp, rel, NULL);
    assert_int_equal(g_mkdir_with_parents(p, 0755), 0);
    return p;
}

/* An (empty) file tmp/rel: the search only asks for a regular file. */
static char *touch_in(const fx *f, const char *rel)
{
    char *p = g_build_filename(f->tmp, rel, NULL);
    char *dir = g_path_get_dirname(p);
    assert_int_equal(g_mkdir_with_parents(dir, 0755), 0);
    g_free(dir);
    assert_true(g_file_set_contents(p, "", 0, NULL));
    return p;
}

static void expect_path(char **dirs, const char **from, const char *const *want_dirs,
                        const char *const *want_from)
{
    int n = 0;
    while (want_dirs[n])
        n++;
    assert_int_equal(g_strv_length(dirs), n);
    for (int i = 0; i < n; i++) {
        assert_string_equal(dirs[i], want_dirs[i]);
        assert_string_equal(from[i], want_from[i]);
    }
    assert_null(from[n]);
}

/* Order and splitting: the config's list (':' and ';', blanks trimmed, empties skipped,
 * relative entries under the config's directory), the environment's (':' only, relative
 * entries kept relative to the working directory), then the two library defaults; a
 * directory listed again is searched once, where it first appeared. */
static void test_path_order(void **state)
{
    (void)state;
    const char **from = NULL;
    char **dirs = shim_plugin_path("/cfg", " a :/abs1;; b;/abs1:", "e1::/abs1:e;2", "/lib", &from);
    const char *const want[] = { "/cfg/a", "/abs1", "/cfg/b", "e1", "e;2", "/lib/plugins",
                                 "/lib/cardbot/plugins", NULL };
    const char *const wfrom[] = { "[shim] plugin_dir", "[shim] plugin_dir", "[shim] plugin_dir",
                                  "CARDBOT_PLUGIN_PATH", "CARDBOT_PLUGIN_PATH",
                                  "next to libcardbot-shim.so", "next to libcardbot-shim.so" };
    expect_path(dirs, from, want, wfrom);
    g_strfreev(dirs);
    g_free(from);

    /* nothing configured: the defaults alone; no library directory: nothing at all */
    dirs = shim_plugin_path("/cfg", NULL, NULL, "/usr/lib", &from);
    const char *const want2[] = { "/usr/lib/plugins", "/usr/lib/cardbot/plugins", NULL };
    expect_path(dirs, from, want2, wfrom + 5);
    g_strfreev(dirs);
    g_free(from);
    dirs = shim_plugin_path(NULL, "", "", NULL, NULL);
    assert_null(dirs[0]);
    g_strfreev(dirs);
    /* a relative entry with no config directory: relative to the working directory */
    dirs = shim_plugin_path(NULL, "plugs", NULL, NULL, NULL);
    assert_string_equal(dirs[0], "./plugs");
    assert_null(dirs[1]);
    g_strfreev(dirs);
}

/* The first directory along the path that holds NAME.so wins: the installed default, then the
 * build-tree default before it, then the environment, then the config. */
static void test_find_order(void **state)
{
    fx *f = *state;
    char *cfg = mkdir_in(f, "etc");
    char *self = mkdir_in(f, "lib");
    char *env = g_strdup_printf("%s/nowhere:%s/env", f->tmp, f->tmp);
    const char *list = "missing;p1";
    char err[512];

    char *want = touch_in(f, "lib/cardbot/plugins/x.so");
    char *got = shim_plugin_find_in("x", cfg, list, env, self, err, sizeof err);
    assert_non_null(got);
    assert_string_equal(got, want);
    assert_string_equal(err, "");
    g_free(got);
    g_free(want);

    want = touch_in(f, "lib/plugins/x.so");
    got = shim_plugin_find_in("x", cfg, list, env, self, err, sizeof err);
    assert_string_equal(got, want);
    g_free(got);
    g_free(want);

    want = touch_in(f, "env/x.so");
    got = shim_plugin_find_in("x", cfg, list, env, self, err, sizeof err);
    assert_string_equal(got, want);
    g_free(got);
    g_free(want);

    want = touch_in(f, "etc/p1/x.so");
    got = shim_plugin_find_in("x", cfg, list, env, self, err, sizeof err);
    assert_string_equal(got, want);
    g_free(got);
    g_free(want);

    /* another name is still searched all the way down */
    got = shim_plugin_find_in("y", cfg, list, env, self, err, sizeof err);
    assert_null(got);
    g_free(cfg);
    g_free(self);
    g_free(env);
}

/* Only a regular file counts (a symlink to one does): a directory named NAME.so is skipped. */
static void test_find_regular_files(void **state)
{
    fx *f = *state;
    char *d1 = mkdir_in(f, "d1/x.so");
    char *real = touch_in(f, "real/x.so");
    char *d2 = mkdir_in(f, "d2");
    char *link = g_build_filename(d2, "x.so", NULL);
    assert_int_equal(symlink(real, link), 0);
    char *list = g_strdup_printf("%s/d1:%s/d2", f->tmp, f->tmp);
    char *got = shim_plugin_find_in("x", NULL, list, NULL, NULL, NULL, 0);
    assert_non_null(got);
    assert_string_equal(got, link);
    g_free(got);
    /* a dangling link is no file either */
    g_unlink(real);
    assert_null(shim_plugin_find_in("x", NULL, list, NULL, NULL, NULL, 0));
    g_free(list);
    g_free(link);
    g_free(d2);
    g_free(real);
    g_free(d1);
}

/* A name with a '/' is a path: relative ones under the config's directory, no search (the
 * loader names a missing file itself). */
static void test_paths_are_not_searched(void **state)
{
    (void)state;
    char err[128] = "x";
    char *got = shim_plugin_find_in("sub/x.so", "/cfg", "/p", "/e", "/lib", err, sizeof err);
    assert_string_equal(got, "/cfg/sub/x.so");
    assert_string_equal(err, "");
    g_free(got);
    got = shim_plugin_find_in("/opt/bots/x.so", "/cfg", NULL, NULL, NULL, err, sizeof err);
    assert_string_equal(got, "/opt/bots/x.so");
    g_free(got);
    got = shim_plugin_find_in("./x.so", NULL, NULL, NULL, NULL, err, sizeof err);
    assert_string_equal(got, "./x.so");
    g_free(got);
}

/* Not found: the message names the plugin and every file tried, with where each directory
 * came from; a short buffer gets a cut, terminated text; no buffer is fine. */
static void test_not_found_message(void **state)
{
    (void)state;
    char err[1024];
    assert_null(shim_plugin_find_in("nosuch", "/cfg", "a;/b", "/e", "/lib", err, sizeof err));
    assert_string_equal(err,
                        "cannot load plugin 'nosuch': no nosuch.so in the plugin search path; tried "
                        "/cfg/a/nosuch.so, /b/nosuch.so ([shim] plugin_dir), /e/nosuch.so "
                        "(CARDBOT_PLUGIN_PATH), /lib/plugins/nosuch.so, "
                        "/lib/cardbot/plugins/nosuch.so (next to libcardbot-shim.so)");
    assert_null(shim_plugin_find_in("nosuch", NULL, NULL, NULL, NULL, err, sizeof err));
    assert_non_null(strstr(err, "no directory to search"));

    char small[24];
    memset(small, 'z', sizeof small);
    assert_null(shim_plugin_find_in("nosuch", "/cfg", "a", NULL, "/lib", small, sizeof small));
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_memory_equal(small, "cannot load plugin 'nos", sizeof small - 1);
    assert_null(shim_plugin_find_in("nosuch", "/cfg", "a", NULL, "/lib", NULL, 0));
    assert_null(shim_plugin_find_in("nosuch", "/cfg", "a", NULL, "/lib", small, 0));

    assert_null(shim_plugin_find_in("", "/cfg", "a", NULL, "/lib", err, sizeof err));
    assert_non_null(strstr(err, "empty name"));
    assert_null(shim_plugin_find_in(NULL, "/cfg", "a", NULL, "/lib", err, sizeof err));
}

/* The process's own view: CARDBOT_PLUGIN_PATH is read at each lookup, and the library default
 * comes from where the code was loaded from — here the test binary, $CB_BUILD/tests, whose
 * plugins/ directory holds the test plugins. */
static void test_environment_and_self(void **state)
{
    fx *f = *state;
    const char *b = getenv("CB_BUILD");
    char *build = g_canonicalize_filename(b && *b ? b : "build/plain", NULL);
    char *tests = g_build_filename(build, "tests", NULL);
    char *self = shim_self_dir();
    assert_non_null(self);
    assert_true(g_path_is_absolute(self));
    assert_string_equal(self, tests);

    char err[1024];
    g_unsetenv(SHIM_PLUGIN_PATH_ENV);
    char *got = shim_plugin_find("lowest", "/nonexistent", NULL, err, sizeof err);
    char *want = g_build_filename(tests, "plugins", "lowest.so", NULL);
    assert_non_null(got);
    assert_string_equal(got, want);
    g_free(got);
    g_free(want);

    want = touch_in(f, "mine/lowest.so");
    char *env = g_strdup_printf("%s/empty:%s/mine", f->tmp, f->tmp);
    g_setenv(SHIM_PLUGIN_PATH_ENV, env, TRUE);
    got = shim_plugin_find("lowest", "/nonexistent", NULL, err, sizeof err);
    assert_string_equal(got, want);
    g_free(got);
    /* the config's list still comes first */
    got = shim_plugin_find("lowest", NULL, tests, err, sizeof err); /* tests/lowest.so: none */
    assert_string_equal(got, want);
    g_free(got);
    assert_null(shim_plugin_find("nosuch", "/nonexistent", NULL, err, sizeof err));
    assert_non_null(strstr(err, "/mine/nosuch.so"));
    assert_non_null(strstr(err, "(CARDBOT_PLUGIN_PATH)"));
    g_unsetenv(SHIM_PLUGIN_PATH_ENV);
    g_free(env);
    g_free(want);
    g_free(self);
    g_free(tests);
    g_free(build);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_path_order),
        cmocka_unit_test_setup_teardown(test_find_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_find_regular_files, setup, teardown),
        cmocka_unit_test(test_paths_are_not_searched),
        cmocka_unit_test(test_not_found_message),
        cmocka_unit_test_setup_teardown(test_environment_and_self, setup, teardown),
    };
    return cmocka_run_group_tests_name("shim_path", tests, NULL, NULL);
}

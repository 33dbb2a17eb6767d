/* cardbot tests — cb_shim_reload deploys a rebuilt plugin; cb_table_seat_info says what runs.
 *
 * Two builds of one test plugin, tests/plugins/deploy1.c and deploy2.c (name "deploy",
 * version "1" / "2", each answer signed "deploy vN"), are copied in turn over one path in a
 * temp dir the way deploy tools do it: a new file beside the old one, rename()d over it. A
 * config finds it there by its base name (the temp dir on [shim] plugin_dir). dlopen() alone would hand back the old build after such a rename
 * while the old config still holds it; the shim must load the new bytes (shim_loader.c), keep
 * an unchanged file's loaded code, and report both through cb_table_seat_info. Every check
 * runs under isolation = inproc and isolation = process. Views come from the game engine, so
 * they are real positions.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
    return cbt_shimfix_setup(state, "test_reload", "cbreload-XXXXXX");
}

static int count_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += e->d_name[0] != '.';
    closedir(d);
    return n - 1; /* the directory's own descriptor */
}

/* The SHA-256 (hex, g_free) of test plugin name.so as built. */
static char *sha_of_plugin(fx *f, const char *name)
{
    char *src = g_strdup_printf("%s/%s.so", f->tplugs, name);
    gchar *data = NULL;
    gsize n = 0;
    assert_true(g_file_get_contents(src, &data, &n, NULL));
    char *sha = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)data, n);
    g_free(data);
    g_free(src);
    return sha;
}

/* Deploy test plugin name.so at dst: written to dst.new, then renamed over dst. */
static void deploy(fx *f, const char *name, const char *dst)
{
    char *src = g_strdup_printf("%s/%s.so", f->tplugs, name);
    char *tmp = g_strconcat(dst, ".new", NULL);
    gchar *data = NULL;
    gsize n = 0;
    assert_true(g_file_get_contents(src, &data, &n, NULL));
    FILE *fp = fopen(tmp, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(data, 1, n, fp), n);
    assert_int_equal(fclose(fp), 0);
    assert_int_equal(rename(tmp, dst), 0);
    g_free(data);
    g_free(tmp);
    g_free(src);
}

static cb_seat_info seat_info(fx *f, cb_table *t, int seat)
{
    cb_seat_info si;
    memset(&si, 0, sizeof si);
    si.struct_size = sizeof si;
    if (f->api.seat_info(t, seat, &si) != 0)
        fail_msg("cb_table_seat_info(%d): %s", seat, f->api.last_error(t));
    assert_int_equal(si.struct_size, sizeof si);
    return si;
}

/* The seat to act in a fresh pdk16 deal (no 包庄: straight to the play) decides; returns which
 * build answered (value of "deploy vN"), after checking the answer is the plugin's own. */
static int which_build(fx *f, cb_shim *s, cb_table *t)
{
    cb_engine *e = cbt_engine(f->api.rules(s), 7, -1);
    assert_int_equal(cb_engine_phase(e), CB_PHASE_PLAY);
    cb_view v;
    cbt_engine_view(e, &v);
    cb_decision d = CBT_DEC;
    int rc = f->api.decide_play(t, &v, &d);
    if (rc != CB_OK)
        fail_msg("decide: %d (%s) %s", rc, f->api.strerror(rc), rc < 0 ? f->api.last_error(t) : d.explain);
    cbt_assert_legal(&v, &d);
    int n = 0;
    if (sscanf(d.explain, "deploy v%d", &n) != 1)
        fail_msg("not a deploy answer: \"%s\"", d.explain);
    assert_true(d.value == (float)n && d.nodes == (uint64_t)n);
    cb_engine_free(e);
    return n;
}

static void file_is(const cb_seat_info *si, const char *path, const char *sha)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_string_equal(si->plugin_path, path);
    assert_int_equal(si->file_dev, (uint64_t)st.st_dev);
    assert_int_equal(si->file_ino, (uint64_t)st.st_ino);
    assert_int_equal(si->file_size, (int64_t)st.st_size);
    assert_int_equal(si->file_mtime_sec, (int64_t)st.st_mtim.tv_sec);
    assert_int_equal(si->file_mtime_nsec, (int64_t)st.st_mtim.tv_nsec);
    assert_string_equal(si->sha256, sha);
}

/* A config seating strategy d (the plugin file dst, NAME.so, found as `plugin = NAME` in
 * dst's directory put first on plugin_dir) and lo (lowest) as seats says. */
static char *conf_body(fx *f, bool process, const char *dst, const char *seats)
{
    char *dir = g_path_get_dirname(dst), *file = g_path_get_basename(dst);
    assert_true(g_str_has_suffix(file, ".so"));
    file[strlen(file) - 3] = '\0';
    char *body = g_strdup_printf("[shim]\nplugin_dir = %s:%s\nisolation = %s\n[game]\nrules = pdk16\n"
                                 "[rules]\nbao = false\n[strategy.d]\nplugin = %s\n"
                                 "[strategy.lo]\nplugin = lowest\n[seats]\n%s",
                                 dir, f->tplugs, process ? "process" : "inproc", file, seats);
    g_free(dir);
    g_free(file);
    return body;
}

static void run_deploy(fx *f, bool process)
{
    const char *iso = process ? "process" : "inproc";
    int fds = count_fds();
    char *dst = g_strdup_printf("%s/deploy-%s.so", f->tmp, iso);
    char *sha1 = sha_of_plugin(f, "deploy1"), *sha2 = sha_of_plugin(f, "deploy2");
    assert_string_not_equal(sha1, sha2);
    deploy(f, "deploy1", dst);
    char *body = conf_body(f, process, dst, "0 = d\n1 = d\n2 = d\n");
    char *p = cbt_conf_raw(f, "%s", body);
    g_free(body);
    char err[1024] = "";

    /* generation 1: build 1, loaded from the path itself */
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t1 = cbt_table_ok(f, s, NULL);
    cb_seat_info si = seat_info(f, t1, 0);
    assert_string_equal(si.strategy, "d");
    assert_string_equal(si.plugin_name, "deploy");
    assert_string_equal(si.plugin_version, "1");
    assert_int_equal(si.isolation, process ? CB_ISOLATION_PROCESS : CB_ISOLATION_INPROC);
    assert_int_equal(si.config_gen, 1);
    assert_int_equal(si.load_gen, 1);
    assert_int_equal(si.pending, 0);
    assert_int_equal(si.private_copy, 0);
    file_is(&si, dst, sha1);
    uint64_t ino1 = si.file_ino;
    assert_int_equal(which_build(f, s, t1), 1);

    /* generation 2, nothing deployed: the loaded code is kept (same load, same identity) */
    assert_int_equal(f->api.reload(s, err, sizeof err), 0);
    si = seat_info(f, t1, 2);
    assert_int_equal(si.config_gen, 2);
    assert_int_equal(si.load_gen, 1);
    assert_int_equal(si.pending, 1); /* t1 switches at its next decision */
    assert_int_equal(si.private_copy, 0);
    assert_string_equal(si.plugin_version, "1");
    file_is(&si, dst, sha1);
    assert_int_equal(which_build(f, s, t1), 1);
    assert_int_equal(seat_info(f, t1, 2).pending, 0);
    cb_table *t2 = cbt_table_ok(f, s, NULL); /* lives across the next deploy without deciding */

    /* generation 3: build 2 renamed over the path. The old object still holds the path's name
     * (t2 and the old config), so the new bytes come from a private copy */
    deploy(f, "deploy2", dst);
    assert_int_equal(f->api.reload(s, err, sizeof err), 0);
    si = seat_info(f, t1, 1);
    assert_int_equal(si.config_gen, 3);
    assert_int_equal(si.load_gen, 3);
    assert_int_equal(si.pending, 1);
    assert_int_equal(si.private_copy, 1);
    assert_string_equal(si.plugin_version, "2");
    file_is(&si, dst, sha2);
    assert_true(si.file_ino != ino1);
    assert_string_equal(f->api.table_strategy(t1, 1), "d");
    assert_int_equal(which_build(f, s, t1), 2);        /* the live table runs the new code */
    assert_int_equal(seat_info(f, t1, 1).pending, 0);
    cb_table *t3 = cbt_table_ok(f, s, NULL);
    assert_int_equal(seat_info(f, t3, 0).pending, 0);
    assert_int_equal(which_build(f, s, t3), 2);        /* and a new one */
    assert_int_equal(seat_info(f, t2, 0).pending, 1); /* t2 still holds build 1's instances */
    assert_string_equal(seat_info(f, t2, 0).plugin_version, "2");
    assert_int_equal(which_build(f, s, t2), 2);

    /* generation 4: build 1 again */
    deploy(f, "deploy1", dst);
    assert_int_equal(f->api.reload(s, err, sizeof err), 0);
    si = seat_info(f, t3, 0);
    assert_int_equal(si.load_gen, 4);
    assert_string_equal(si.plugin_version, "1");
    file_is(&si, dst, sha1);
    assert_int_equal(which_build(f, s, t1), 1);
    assert_int_equal(which_build(f, s, t2), 1);
    assert_int_equal(which_build(f, s, t3), 1);

    /* generation 5: the seating changes, the file does not: its load is shared (load_gen 4),
     * and the new seating shows at once, before the table's next decision */
    body = conf_body(f, process, dst, "0 = d\n1 = lo\n2 = d\n");
    cbt_rewrite(p, body);
    g_free(body);
    assert_int_equal(f->api.reload(s, err, sizeof err), 0);
    si = seat_info(f, t1, 0);
    assert_int_equal(si.config_gen, 5);
    assert_int_equal(si.load_gen, 4);
    assert_int_equal(si.pending, 1);
    assert_string_equal(si.plugin_version, "1");
    assert_string_equal(f->api.table_strategy(t1, 1), "lo");
    si = seat_info(f, t1, 1);
    assert_string_equal(si.strategy, "lo");
    assert_string_equal(si.plugin_name, "lowest");
    char *lo = g_strdup_printf("%s/lowest.so", f->tplugs);
    assert_string_equal(si.plugin_path, lo);
    g_free(lo);
    assert_int_equal(which_build(f, s, t1), 1);

    /* a reload that fails changes nothing */
    cbt_rewrite(p, "[game]\nrules = pdk16\n[seats]\n0 = nobody\n");
    assert_int_equal(f->api.reload(s, err, sizeof err), -1);
    si = seat_info(f, t1, 0);
    assert_int_equal(si.config_gen, 5);
    assert_int_equal(si.load_gen, 4);

    f->api.table_free(t1);
    f->api.table_free(t2);
    f->api.table_free(t3);
    f->api.free(s);
    assert_int_equal(count_fds(), fds); /* private copies' descriptors went with their loads */
    g_unlink(dst);
    g_free(sha1);
    g_free(sha2);
    g_free(dst);
    g_free(p);
}

static void test_deploy_inproc(void **state)
{
    run_deploy(*state, false);
}

static void test_deploy_process(void **state)
{
    run_deploy(*state, true);
}

/* Another shim of the process opens the path after a deploy while the first still runs the
 * old build from it: dlopen would return the old object by name; the new shim must run the
 * file that is there now, and leave the first shim's code alone. Two shims on an unchanged
 * file share its load. */
static void test_two_shims(void **state)
{
    fx *f = *state;
    char *dst = g_strdup_printf("%s/deploy-two.so", f->tmp);
    deploy(f, "deploy1", dst);
    char *body = conf_body(f, false, dst, "0 = d\n1 = d\n2 = d\n");
    char *p = cbt_conf_raw(f, "%s", body);
    g_free(body);
    cb_shim *a = cbt_open_ok(f, p), *b = cbt_open_ok(f, p);
    cb_table *ta = cbt_table_ok(f, a, NULL), *tb = cbt_table_ok(f, b, NULL);
    assert_int_equal(seat_info(f, tb, 0).private_copy, 0);
    assert_int_equal(which_build(f, b, tb), 1);
    f->api.table_free(tb);
    f->api.free(b);

    deploy(f, "deploy2", dst);
    cb_shim *c = cbt_open_ok(f, p);
    cb_table *tc = cbt_table_ok(f, c, NULL);
    cb_seat_info si = seat_info(f, tc, 0);
    assert_string_equal(si.plugin_version, "2");
    assert_int_equal(si.private_copy, 1);
    assert_int_equal(si.load_gen, 1);
    assert_int_equal(which_build(f, c, tc), 2);
    assert_int_equal(which_build(f, a, ta), 1); /* a was not reloaded: its build 1 runs on */
    assert_string_equal(seat_info(f, ta, 0).plugin_version, "1");
    f->api.table_free(tc);
    f->api.free(c);
    f->api.table_free(ta);
    f->api.free(a);
    g_unlink(dst);
    g_free(dst);
    g_free(p);
}

/* cb_table_seat_info's arguments and struct_size. */
static void test_seat_info_args(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, "[game]\nrules = pdk16\n[strategy.lo]\nplugin = lowest\n[seats]\n0 = lo\n1 = lo\n2 = lo\n");
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL);
    cb_seat_info si = seat_info(f, t, 1);
    assert_string_equal(si.strategy, "lo");
    assert_int_equal(strlen(si.sha256), 64);

    /* refusals: out untouched, the reason named */
    unsigned char raw[sizeof(cb_seat_info) + 16];
    memset(raw, 0xA5, sizeof raw);
    cb_seat_info *o = (cb_seat_info *)(void *)raw;
    o->struct_size = CB_SEAT_INFO_SIZE_1_1 - 1;
    assert_int_equal(f->api.seat_info(t, 1, o), CB_ERR_ARG);
    assert_non_null(strstr(f->api.last_error(t), "struct_size"));
    for (size_t i = sizeof o->struct_size; i < sizeof raw; i++)
        assert_int_equal(raw[i], 0xA5);
    o->struct_size = sizeof *o;
    assert_int_equal(f->api.seat_info(t, 3, o), CB_ERR_ARG);
    assert_non_null(strstr(f->api.last_error(t), "seat"));
    assert_int_equal(f->api.seat_info(t, -1, o), CB_ERR_ARG);
    assert_int_equal(f->api.seat_info(t, 0, NULL), CB_ERR_ARG);
    assert_non_null(strstr(f->api.last_error(t), "out"));
    assert_int_equal(f->api.seat_info(NULL, 0, o), CB_ERR_ARG);
    for (size_t i = sizeof o->struct_size; i < sizeof raw; i++)
        assert_int_equal(raw[i], 0xA5);
    /* a newer host's larger struct: the shim writes what it knows and says how much */
    o->struct_size = sizeof raw;
    assert_int_equal(f->api.seat_info(t, 1, o), 0);
    assert_string_equal(f->api.last_error(t), "");
    assert_int_equal(o->struct_size, sizeof(cb_seat_info));
    for (size_t i = sizeof(cb_seat_info); i < sizeof raw; i++)
        assert_int_equal(raw[i], 0xA5);
    /* the first version's exact size: everything up to sha256 written, nothing beyond */
    memset(raw, 0xA5, sizeof raw);
    o->struct_size = CB_SEAT_INFO_SIZE_1_1;
    assert_int_equal(f->api.seat_info(t, 1, o), 0);
    assert_int_equal(o->struct_size, CB_SEAT_INFO_SIZE_1_1);
    assert_int_equal(strlen(o->sha256), 64);
    for (size_t i = CB_SEAT_INFO_SIZE_1_1; i < sizeof raw; i++)
        assert_int_equal(raw[i], 0xA5);
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deploy_inproc),
        cmocka_unit_test(test_deploy_process),
        cmocka_unit_test(test_two_shims),
        cmocka_unit_test(test_seat_info_args),
    };
    return cmocka_run_group_tests(tests, group_setup, cbt_shimfix_teardown);
}

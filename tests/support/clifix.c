/* cardbot tests — running the cardbot command (see clifix.h). */
#include "clifix.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

static char *tmp_dir; /* one per test process, made and removed by its main thread */

const char *cbt_build_dir(void)
{
    const char *b = g_getenv("CB_BUILD");
    return b && *b ? b : "build/plain";
}

char *cbt_tmp_path(const char *prefix, const char *name)
{
    if (!tmp_dir) {
        char *tmpl = g_strdup_printf("%s-XXXXXX", prefix);
        tmp_dir = g_dir_make_tmp(tmpl, NULL);
        g_free(tmpl);
        if (!tmp_dir)
            fail_msg("cannot make a temp dir");
    }
    return g_build_filename(tmp_dir, name, NULL);
}

void cbt_tmp_remove(void)
{
    if (!tmp_dir)
        return;
    GDir *d = g_dir_open(tmp_dir, 0, NULL);
    const char *name;
    while (d && (name = g_dir_read_name(d))) {
        char *p = g_build_filename(tmp_dir, name, NULL);
        g_unlink(p);
        g_free(p);
    }
    if (d)
        g_dir_close(d);
    g_rmdir(tmp_dir);
    g_free(tmp_dir);
    tmp_dir = NULL;
}

int cbt_cardbot(char **out, char **err, const char *first, ...)
{
    GPtrArray *av = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(av, g_strdup_printf("%s/cardbot", cbt_build_dir()));
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a; a = va_arg(ap, const char *))
        g_ptr_array_add(av, g_strdup(a));
    va_end(ap);
    g_ptr_array_add(av, NULL);
    int ws = 0;
    GError *e = NULL;
    char *o = NULL, *r = NULL;
    if (!g_spawn_sync(NULL, (char **)av->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &o, &r, &ws, &e)) {
        print_error("spawn: %s\n", e->message);
        g_error_free(e);
        g_ptr_array_free(av, TRUE);
        fail();
    }
    g_ptr_array_free(av, TRUE);
    if (out)
        *out = o;
    else
        g_free(o);
    if (err)
        *err = r;
    else
        g_free(r);
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

int cbt_games(int n)
{
    if (!strstr(cbt_build_dir(), "asan"))
        return n;
    return n / 3 < 6 ? (n < 6 ? n : 6) : n / 3;
}

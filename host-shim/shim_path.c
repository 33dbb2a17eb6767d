/* cardbot shim — the plugin search path: which file `plugin = NAME` means (shim_path.h).
 *
 * Why a path and not one directory: the same libcardbot-shim.so objects run in the build tree
 * (plugins in build/<variant>/plugins, next to the library) and installed (plugins in
 * $(libdir)/cardbot/plugins, where a plugins/ directory next to the library would sit in a
 * shared $(libdir) among other packages' files); operators add their own plugin directories in
 * the config or, without editing it, in CARDBOT_PLUGIN_PATH. Both defaults are found from
 * where the library itself was loaded (dladdr), so nothing depends on the install prefix.
 *
 * Nothing here keeps state: every lookup reads the environment and the file system afresh,
 * so a reload sees a changed CARDBOT_PLUGIN_PATH or a newly deployed plugin directory.
 */
#include "shim_path.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

static const char FROM_CONFIG[] = "[shim] plugin_dir";
static const char FROM_ENV[] = SHIM_PLUGIN_PATH_ENV;
static const char FROM_SELF[] = "next to libcardbot-shim.so";
#ifdef CB_PLUGIN_DIR
static const char FROM_BUILD[] = "CB_PLUGIN_DIR";
#endif

/* The path being built: directories and where each came from, no directory twice. */
typedef struct search {
    GPtrArray *dirs;  /* char *, owned */
    GPtrArray *from;  /* const char *, static */
} search;

static void add_dir(search *s, char *dir, const char *from)
{
    for (guint i = 0; i < s->dirs->len; i++) {
        if (strcmp(g_ptr_array_index(s->dirs, i), dir) == 0) {
            g_free(dir);
            return;
        }
    }
    g_ptr_array_add(s->dirs, dir);
    g_ptr_array_add(s->from, (gpointer)from);
}

/* Each non-empty entry of list (split at any of seps, blanks around an entry dropped); a
 * relative entry joined to base when base is given. */
static void add_list(search *s, const char *list, const char *seps, const char *base, const char *from)
{
    if (!list)
        return;
    char **parts = g_strsplit_set(list, seps, -1);
    for (char **p = parts; *p; p++) {
        char *e = g_strstrip(*p);
        if (!*e)
            continue;
        if (base && !g_path_is_absolute(e))
            add_dir(s, g_build_filename(base, e, NULL), from);
        else
            add_dir(s, g_strdup(e), from);
    }
    g_strfreev(parts);
}

char **shim_plugin_path(const char *config_dir, const char *plugin_dir_list, const char *env,
                        const char *self_dir, const char ***from)
{
    search s = { g_ptr_array_new(), g_ptr_array_new() };
    /* GKeyFile lists use ';'; people used to PATH write ':'. Both mean "next entry" here. */
    add_list(&s, plugin_dir_list, ":;", config_dir ? config_dir : ".", FROM_CONFIG);
    add_list(&s, env, ":", NULL, FROM_ENV);
    if (self_dir && *self_dir) {
        add_dir(&s, g_build_filename(self_dir, "plugins", NULL), FROM_SELF);
        add_dir(&s, g_build_filename(self_dir, "cardbot", "plugins", NULL), FROM_SELF);
    }
#ifdef CB_PLUGIN_DIR
    add_dir(&s, g_strdup(CB_PLUGIN_DIR), FROM_BUILD);
#endif
    g_ptr_array_add(s.dirs, NULL);
    g_ptr_array_add(s.from, NULL);
    if (from)
        *from = (const char **)g_ptr_array_free(s.from, FALSE);
    else
        g_ptr_array_free(s.from, TRUE);
    return (char **)g_ptr_array_free(s.dirs, FALSE);
}

/* Copy text into err, cut to fit (NUL-terminated), as snprintf would. */
static void put_err(char *err, size_t errlen, const char *text)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", text);
}

char *shim_plugin_find_in(const char *name, const char *config_dir, const char *plugin_dir_list,
                          const char *env, const char *self_dir, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (!name || !*name) {
        put_err(err, errlen, "cannot load plugin '': empty name");
        return NULL;
    }
    if (strchr(name, '/')) /* a path: the config's directory for a relative one, no search */
        return g_path_is_absolute(name) || !config_dir ? g_strdup(name)
                                                       : g_build_filename(config_dir, name, NULL);
    /* NAME.so for NAME: refused with the spelling to use rather than searched as NAME.so.so
     * (which no one means) or taken as NAME (a second spelling of every plugin in configs,
     * messages and cb_seat_info; shim_path.h) */
    if (g_str_has_suffix(name, ".so")) {
        if (err && errlen) {
            char *base = g_strndup(name, strlen(name) - 3);
            snprintf(err, errlen, "'%s' ends in .so: give the base name, plugin = %s (%s is looked "
                     "for along the plugin search path)", name, *base ? base : "NAME", name);
            g_free(base);
        }
        return NULL;
    }

    const char **from = NULL;
    char **dirs = shim_plugin_path(config_dir, plugin_dir_list, env, self_dir, &from);
    char *file = g_strconcat(name, ".so", NULL);
    char *found = NULL;
    for (int i = 0; dirs[i] && !found; i++) {
        char *p = g_build_filename(dirs[i], file, NULL);
        /* a regular file, symlinks followed: a directory that happens to be named NAME.so is
         * not a plugin, and the next directory may hold the real one */
        if (g_file_test(p, G_FILE_TEST_IS_REGULAR))
            found = p;
        else
            g_free(p);
    }
    if (!found && err && errlen) {
        /* every file tried, grouped by where its directory came from */
        GString *m = g_string_new(NULL);
        g_string_append_printf(m, "cannot load plugin '%s': no %s in the plugin search path; tried", name, file);
        if (!dirs[0])
            g_string_append(m, " nothing (no directory to search)");
        for (int i = 0; dirs[i]; i++) {
            char *p = g_build_filename(dirs[i], file, NULL);
            g_string_append_printf(m, "%s %s", i == 0 ? "" : ",", p);
            g_free(p);
            if (!dirs[i + 1] || from[i + 1] != from[i])
                g_string_append_printf(m, " (%s)", from[i]);
        }
        put_err(err, errlen, m->str);
        g_string_free(m, TRUE);
    }
    g_free(file);
    g_strfreev(dirs);
    g_free(from);
    return found;
}

char *shim_self_dir(void)
{
    /* dladdr wants a data pointer; ISO C has no cast from a function pointer, so copy one */
    char *(*fn)(void) = shim_self_dir;
    void *self;
    memcpy(&self, &fn, sizeof self);
    Dl_info info;
    if (!dladdr(self, &info) || !info.dli_fname || !info.dli_fname[0])
        return NULL;
    /* absolute, so a host that changes directory later still finds the same plugins; not
     * through realpath: a distribution's symlinked library keeps its own directory */
    char *lib = g_canonicalize_filename(info.dli_fname, NULL);
    char *dir = g_path_get_dirname(lib);
    g_free(lib);
    return dir;
}

char *shim_plugin_find(const char *name, const char *config_dir, const char *plugin_dir_list,
                       char *err, size_t errlen)
{
    char *self = shim_self_dir();
    char *res = shim_plugin_find_in(name, config_dir, plugin_dir_list, g_getenv(SHIM_PLUGIN_PATH_ENV),
                                    self, err, errlen);
    g_free(self);
    return res;
}

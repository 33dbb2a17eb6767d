/* cardbot shim — the plugin search path (shim_path.c): where `plugin = NAME` of a
 * [strategy.NAME] group is found.
 *
 * A value with a '/' is a path (relative: to the config file's directory), which the config
 * loader accepts only under [shim] allow_plugin_paths = true (shim_config.c). A base name is
 * searched as NAME.so along, in this order, the first regular file found winning:
 *
 *   1. [shim] plugin_dir: directories separated by ':' or ';' (';' is GKeyFile's own list
 *      separator); relative entries are joined to the config file's directory;
 *   2. the environment variable CARDBOT_PLUGIN_PATH: directories separated by ':', as in
 *      PATH; relative entries are relative to the working directory;
 *   3. the defaults, found from the file libcardbot-shim.so was loaded from (dladdr), so the
 *      same objects serve the build tree and an installed tree with no prefix compiled in:
 *      LIBDIR/plugins (the build tree: build/<variant>/plugins) and LIBDIR/cardbot/plugins
 *      (installed: $(libdir)/cardbot/plugins); then CB_PLUGIN_DIR when the build defines it.
 *
 * Empty entries are skipped and a directory listed twice is searched once. When nothing is
 * found the message names every file tried and where its directory came from.
 *
 * A base name that ends in .so (plugin = rulebot.so) is refused, the message giving the name
 * to write (plugin = rulebot): it is not searched as rulebot.so.so, which nobody means, nor
 * taken as rulebot, which would give every plugin two spellings (in configs, in messages, in
 * cb_seat_info) for one file. A path (with a '/') names the file itself, .so and all.
 *
 * Internal to libcardbot-shim.so (hidden, like shim_int.h). Strings returned are g_malloc'ed.
 */
#ifndef CARDBOT_SHIM_PATH_H
#define CARDBOT_SHIM_PATH_H

#include <stddef.h>

#pragma GCC visibility push(hidden)

#define SHIM_PLUGIN_PATH_ENV "CARDBOT_PLUGIN_PATH"

/* The plugin file for a config's `plugin = name`: for a base name the first NAME.so along the
 * search path above, for a name with a '/' the path itself (relative: joined to config_dir;
 * the loader reports a missing file). config_dir: the config file's directory (NULL: the
 * working directory); plugin_dir_list: the [shim] plugin_dir value as written (NULL: none).
 * Returns the path (g_free it), or NULL with "cannot load plugin 'name': ..." listing every
 * file tried in err (may be NULL), or for a base name ending in .so "'NAME.so' ends in .so:
 * give the base name, plugin = NAME (...)". Reads CARDBOT_PLUGIN_PATH now, so a
 * reload sees a change. */
char *shim_plugin_find(const char *name, const char *config_dir, const char *plugin_dir_list,
                       char *err, size_t errlen);

/* The same with the environment's value and the library's directory given (tests, and callers
 * that already have them): env = the CARDBOT_PLUGIN_PATH value (NULL: unset); self_dir = the
 * directory of libcardbot-shim.so (NULL: no defaults from it). */
char *shim_plugin_find_in(const char *name, const char *config_dir, const char *plugin_dir_list,
                          const char *env, const char *self_dir, char *err, size_t errlen);

/* The directories searched for a base name, in order, each once: a NULL-terminated array
 * (g_strfreev). When from is not NULL it receives a parallel array (g_free it; the strings
 * are constant) naming where each directory came from: "[shim] plugin_dir",
 * "CARDBOT_PLUGIN_PATH", "next to libcardbot-shim.so" or "CB_PLUGIN_DIR". */
char **shim_plugin_path(const char *config_dir, const char *plugin_dir_list, const char *env,
                        const char *self_dir, const char ***from);

/* The directory libcardbot-shim.so was loaded from, absolute (g_free it); NULL if unknown. */
char *shim_self_dir(void);

#pragma GCC visibility pop

#endif

/* cardbot shim — the config file, read with GKeyFile, into an immutable shim_conf.
 *
 *   [shim]            plugin_dir (a list of directories searched first, ':' or ';' between
 *                     them, relative ones to the config file's directory: shim_path.h has the
 *                     whole search path), fallback (a strategy name), budget_ms (default
 *                     1000), isolation (inproc, the default: direct calls; process: each
 *                     instance in a forked worker, shim_process.c); process only (refused
 *                     with isolation = inproc, where they could not be honoured):
 *                     worker_memory_mb, worker_cpu_s (limits per worker, 0 = none, the
 *                     default), sandbox (on / off, the default: a seccomp allow-list);
 *                     in either mode allow_plugin_paths (on / off, the default: see
 *                     [strategy.NAME])
 *   [game]            rules = pdk16 | pdk15 | guanpai | ddz
 *   [rules]           flag overrides, each passed to cb_rules_set
 *   [strategy.NAME]   plugin = base name (NAME.so along the search path; "rulebot.so" is
 *                     refused with the base name to write, shim_path.h), or a path with a
 *                     '/' when [shim] allow_plugin_paths = true; every other key goes to the
 *                     plugin's create() as a cb_param (the exec plugin also gets config_dir,
 *                     the config file's directory: shim_int.h, SHIM_CONFIG_DIR_PARAM)
 *   [seats]           0 / 1 / 2 = strategy name: required, every seat named
 *   [table.ID]        0 / 1 / 2 = strategy name for table ID (other seats: [seats])
 *   [match]           the console host's keys (it checks them: host-shim/console/cli_common.c;
 *                     other hosts read theirs with cb_shim_get)
 *
 * Every message names the file, the group and the key: "FILE: [GROUP] KEY: what is wrong";
 * and the line, "FILE:LINE: [GROUP] KEY: ...", where the fault is one of the text itself: a
 * line GKeyFile refuses (with the group it is in), a value it cannot read, a group or a key
 * written twice. The line is GKeyFile's answer too, not a second parser's (parse_error).
 *
 * Values are read by one rule, cb_conf_value (conf_value.h; the console's readers of the same
 * file use it too): trailing blanks (spaces, tabs) are dropped, as GKeyFile drops leading
 * ones ("0 = bomber " names bomber); a blank wanted at the end is written \s or \t. The text
 * is loaded with CB_CONF_KEYFILE_FLAGS, so a translated key is a key whatever the locale.
 *
 * Strict by design: what GKeyFile or a loose reading would accept silently is refused, each
 * with its own message, because a config that quietly means something else than it says
 * runs a whole match on it:
 *  - [seats] is required and names a strategy at every seat 0..players-1. A seat left out
 *    would be answered by the fallback (or the rules-only play) at every decision, which
 *    looks like a working config. [table.ID] may still name only some seats: that is its purpose, the rest
 *    come from [seats].
 *  - A group written twice ([seats] ... [seats]) or a key written twice in one group
 *    (plugin = twice) is refused: GKeyFile merges the groups and answers the later key. A key
 *    with a locale (name[zh]) is another key than name.
 *  - A [rules] key the game does not read (bao under ddz, rob under pdk16, ...) takes only
 *    the value the game's preset holds. core/presets.c decides (cb_rules_set), the one place
 *    for rules, so the CLI's --flag refuses the same.
 *  - plugin = a path (anything with a '/') is refused unless [shim] allow_plugin_paths = true:
 *    a base name can only name a NAME.so in a directory on the plugin search path, a path any
 *    file the host can read. A config that may load code is code; the opt-in makes a config
 *    that reaches outside the plugin directories say so.
 *  - Only a regular file is read (stat, then open O_NONBLOCK and fstat the descriptor we
 *    read: a FIFO would block the loader, a device or a directory is no config), of text (no
 *    NUL byte) and of at most SHIM_CONF_MAX bytes; GKeyFile parses what was read.
 *
 * The whole conf is built before anyone sees it, so a failed load changes nothing (the
 * reload keeps the old conf, nginx style). Each strategy's parameters are checked by
 * creating one instance and destroying it again — under process isolation in a short-lived
 * worker, which also loads the plugin and checks its entry point and ABI: the host never
 * loads a plugin in that mode, so a plugin that crashes while loading (a constructor) or
 * creating fails the load with a message naming its strategy, and the host runs on.
 *
 * Plugins across reloads: a path whose file still has the identity (dev, inode, size, mtime)
 * the running conf loaded shares that loaded plugin; a changed file is loaded again — its new
 * bytes, under a name of their own when the old object still holds the path's (shim_loader.c)
 * — so a reload deploys a rebuilt plugin, and an untouched one keeps its code and state.
 */
#include "conf_value.h"
#include "shim_int.h"
#include "shim_path.h"
#include "shim_process.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SEATS_FROM_DEFAULT (-2)
/* The largest config read: far beyond any real one (a few hundred tables), small enough that
 * a wrong path to a huge regular file fails at once instead of filling memory. */
#define SHIM_CONF_MAX (16 * 1024 * 1024)

/* "FILE: [GROUP] KEY: msg", or "FILE:LINE: [GROUP] KEY: msg" when the line is known
 * (line > 0): the compilers' form, which editors and terminals jump to. */
__attribute__((format(printf, 7, 0)))
static void conf_verr(char *err, size_t errlen, const char *file, int line, const char *group,
                      const char *key, const char *fmt, va_list ap)
{
    if (!err || !errlen)
        return;
    char msg[768], at[24] = "";
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (line > 0)
        snprintf(at, sizeof at, ":%d", line);
    if (group && key)
        snprintf(err, errlen, "%s%s: [%s] %s: %s", file, at, group, key, msg);
    else if (group)
        snprintf(err, errlen, "%s%s: [%s]: %s", file, at, group, msg);
    else
        snprintf(err, errlen, "%s%s: %s", file, at, msg);
}

__attribute__((format(printf, 6, 7)))
static void conf_err(char *err, size_t errlen, const char *file, const char *group,
                     const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    conf_verr(err, errlen, file, 0, group, key, fmt, ap);
    va_end(ap);
}

__attribute__((format(printf, 7, 8)))
static void conf_err_at(char *err, size_t errlen, const char *file, int line, const char *group,
                        const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    conf_verr(err, errlen, file, line, group, key, fmt, ap);
    va_end(ap);
}

static bool valid_name(const char *s)
{
    if (!*s || (int)strlen(s) >= SHIM_NAME_MAX)
        return false;
    for (; *s; s++)
        if (!g_ascii_isalnum(*s) && *s != '_' && *s != '-' && *s != '.')
            return false;
    return true;
}

static void conf_free(shim_conf *c)
{
    for (int i = 0; i < c->nstrat; i++) {
        shim_strategy *s = &c->strat[i];
        g_free(s->name);
        g_free(s->group);
        g_free(s->params);
        g_strfreev(s->strs);
    }
    g_free(c->strat);
    if (c->plugins)
        g_ptr_array_free(c->plugins, TRUE);
    if (c->tables)
        g_hash_table_destroy(c->tables);
    if (c->kv)
        g_hash_table_destroy(c->kv);
    g_free(c->file);
    g_free(c);
}

shim_conf *shim_conf_ref(shim_conf *c)
{
    atomic_fetch_add_explicit(&c->refs, 1, memory_order_relaxed);
    return c;
}

void shim_conf_unref(shim_conf *c)
{
    if (c && atomic_fetch_sub_explicit(&c->refs, 1, memory_order_acq_rel) == 1)
        conf_free(c);
}

static int find_strategy(const shim_conf *c, const char *name)
{
    for (int i = 0; i < c->nstrat; i++)
        if (strcmp(c->strat[i].name, name) == 0)
            return i;
    return -1;
}

/* A string value as cb_conf_value reads it; NULL (and a message) when unreadable. (parse_conf
 * has read every value once already, with the line in its message: this is the backstop.) */
static char *get_str(GKeyFile *kf, const shim_conf *c, const char *group, const char *key,
                     char *err, size_t errlen)
{
    GError *ge = NULL;
    char *v = cb_conf_value(kf, group, key, &ge);
    if (!v) {
        conf_err(err, errlen, c->file, group, key, "%s", ge ? ge->message : "unreadable value");
        g_clear_error(&ge);
    }
    return v;
}

/* A switch: 1 (on, true, yes, 1), 0 (off, false, no, 0), -1 for anything else. */
static int on_off(const char *v)
{
    static const char *const on[] = { "on", "true", "yes", "1" };
    static const char *const off[] = { "off", "false", "no", "0" };
    for (size_t j = 0; j < G_N_ELEMENTS(on); j++) {
        if (g_ascii_strcasecmp(v, on[j]) == 0)
            return 1;
        if (g_ascii_strcasecmp(v, off[j]) == 0)
            return 0;
    }
    return -1;
}

static int load_shim_group(GKeyFile *kf, shim_conf *c, char **plugin_dir, char **fallback,
                           bool *allow_paths, char *err, size_t errlen)
{
    const char *g = "shim";
    gsize n = 0;
    char **keys = g_key_file_get_keys(kf, g, &n, NULL);
    int rc = 0;
    for (gsize i = 0; keys && i < n && rc == 0; i++) {
        const char *k = keys[i];
        char *v = get_str(kf, c, g, k, err, errlen);
        if (!v) {
            rc = -1;
            break;
        }
        if (strcmp(k, "plugin_dir") == 0) {
            if (!*v) {
                conf_err(err, errlen, c->file, g, k, "empty value");
                rc = -1;
            } else {
                g_free(*plugin_dir);
                *plugin_dir = g_strdup(v); /* a list: shim_path.c resolves its entries */
            }
        } else if (strcmp(k, "fallback") == 0) {
            g_free(*fallback);
            *fallback = g_strdup(v);
        } else if (strcmp(k, "budget_ms") == 0) {
            guint64 ms = 0;
            if (!g_ascii_string_to_unsigned(v, 10, 1, 3600000, &ms, NULL)) {
                conf_err(err, errlen, c->file, g, k,
                         "bad value '%s' (milliseconds, 1..3600000)", v);
                rc = -1;
            } else {
                c->budget_ms = (uint32_t)ms;
            }
        } else if (strcmp(k, "isolation") == 0) {
            if (strcmp(v, "process") == 0) {
                c->isolation = SHIM_ISO_PROCESS;
            } else if (strcmp(v, "inproc") == 0) {
                c->isolation = SHIM_ISO_INPROC;
            } else {
                conf_err(err, errlen, c->file, g, k, "unknown isolation '%s' (inproc, process)", v);
                rc = -1;
            }
        } else if (strcmp(k, "worker_memory_mb") == 0 || strcmp(k, "worker_cpu_s") == 0) {
            bool mem = strcmp(k, "worker_memory_mb") == 0;
            guint64 x = 0;
            if (!g_ascii_string_to_unsigned(v, 10, 0, 1u << 24, &x, NULL)) {
                conf_err(err, errlen, c->file, g, k, "bad value '%s' (%s, 0 = no limit)", v,
                         mem ? "megabytes a worker may add to its address space, 0..16777216"
                             : "CPU seconds of one worker process, 0..16777216");
                rc = -1;
            } else if (mem) {
                c->worker_memory_mb = (uint32_t)x;
            } else {
                c->worker_cpu_s = (uint32_t)x;
            }
        } else if (strcmp(k, "sandbox") == 0 || strcmp(k, "allow_plugin_paths") == 0) {
            int b = on_off(v);
            if (b < 0) {
                conf_err(err, errlen, c->file, g, k, "bad value '%s' (on or off)", v);
                rc = -1;
            } else if (strcmp(k, "sandbox") == 0) {
                c->sandbox = b;
            } else {
                *allow_paths = b;
            }
        } else {
            conf_err(err, errlen, c->file, g, k,
                     "unknown key (plugin_dir, fallback, budget_ms, isolation, sandbox, "
                     "worker_memory_mb, worker_cpu_s, allow_plugin_paths)");
            rc = -1;
        }
        g_free(v);
    }
    g_strfreev(keys);
    /* a worker's keys mean nothing in-process: refused rather than silently not honoured */
    if (rc == 0 && c->isolation != SHIM_ISO_PROCESS) {
        const char *k = c->sandbox ? "sandbox" : c->worker_memory_mb ? "worker_memory_mb"
                      : c->worker_cpu_s ? "worker_cpu_s" : NULL;
        if (k) {
            conf_err(err, errlen, c->file, g, k, "needs isolation = process (it applies to the "
                     "worker processes; in-process a plugin runs inside the host)");
            rc = -1;
        }
    }
    return rc;
}

static int load_game(GKeyFile *kf, shim_conf *c, char *err, size_t errlen)
{
    const char *g = "game";
    if (!g_key_file_has_group(kf, g)) {
        conf_err(err, errlen, c->file, g, NULL, "missing group (rules = pdk16, pdk15, guanpai or ddz)");
        return -1;
    }
    gsize n = 0;
    char **keys = g_key_file_get_keys(kf, g, &n, NULL);
    for (gsize i = 0; keys && i < n; i++) {
        if (strcmp(keys[i], "rules") != 0) {
            conf_err(err, errlen, c->file, g, keys[i], "unknown key (rules)");
            g_strfreev(keys);
            return -1;
        }
    }
    g_strfreev(keys);
    if (!g_key_file_has_key(kf, g, "rules", NULL)) {
        conf_err(err, errlen, c->file, g, "rules", "missing (pdk16, pdk15, guanpai or ddz)");
        return -1;
    }
    char *v = get_str(kf, c, g, "rules", err, errlen);
    if (!v)
        return -1;
    int rc = 0;
    if (cb_rules_preset(v, &c->rules) != 0 ||
        (c->rules.game != CB_GAME_PDK && c->rules.game != CB_GAME_DDZ)) {
        conf_err(err, errlen, c->file, g, "rules", "unknown rules '%s' (pdk16, pdk15, guanpai or ddz)", v);
        rc = -1;
    }
    g_free(v);
    if (rc == 0 && (c->rules.players < 2 || c->rules.players > CB_MAX_SEATS)) {
        conf_err(err, errlen, c->file, g, "rules", "rules for %d players are not a table game",
                 c->rules.players);
        rc = -1;
    }
    return rc;
}

static int load_rules(GKeyFile *kf, shim_conf *c, char *err, size_t errlen)
{
    const char *g = "rules";
    gsize n = 0;
    char **keys = g_key_file_get_keys(kf, g, &n, NULL);
    int rc = 0;
    for (gsize i = 0; keys && i < n && rc == 0; i++) {
        char *v = get_str(kf, c, g, keys[i], err, errlen);
        if (!v) {
            rc = -1;
            break;
        }
        char why[256] = "";
        if (cb_rules_set(&c->rules, keys[i], v, why, sizeof why) != 0) {
            conf_err(err, errlen, c->file, g, keys[i], "%s", why[0] ? why : "bad value");
            rc = -1;
        }
        g_free(v);
    }
    g_strfreev(keys);
    return rc;
}

/* The plugin at path: shared with another strategy of this conf, or with the running conf
 * (prev) when the file there is still the one it loaded (and in the same isolation mode: the
 * host maps it in-process, workers load it in process mode), else loaded (in-process) or read
 * (process: the check worker loads it) now. */
static shim_plugin *conf_plugin(shim_conf *c, const shim_conf *prev, shim_names *names,
                                const char *path, char *perr, size_t perrlen)
{
    bool isolated = c->isolation == SHIM_ISO_PROCESS;
    for (guint i = 0; i < c->plugins->len; i++) {
        shim_plugin *p = g_ptr_array_index(c->plugins, i);
        if (strcmp(p->path, path) == 0)
            return p;
    }
    shim_file_id now;
    if (prev && shim_file_id_of(path, &now) == 0) {
        for (guint i = 0; i < prev->plugins->len; i++) {
            shim_plugin *p = g_ptr_array_index(prev->plugins, i);
            if (strcmp(p->path, path) == 0 && p->isolated == isolated && shim_file_id_equal(&p->id, &now)) {
                g_ptr_array_add(c->plugins, shim_plugin_ref(p));
                return p;
            }
        }
    }
    shim_plugin *p = isolated ? shim_plugin_read(path, c->gen, names, perr, perrlen)
                              : shim_plugin_load(path, c->gen, names, perr, perrlen);
    if (p)
        g_ptr_array_add(c->plugins, p);
    return p;
}

static int load_strategy(GKeyFile *kf, shim_conf *c, const shim_conf *prev, shim_names *names,
                         const char *group, const char *plugin_dir, bool allow_paths,
                         char *err, size_t errlen)
{
    const char *name = group + strlen("strategy.");
    if (!valid_name(name)) {
        conf_err(err, errlen, c->file, group, NULL,
                 "bad strategy name '%s' (1..%d of A-Z a-z 0-9 _ - .)", name, SHIM_NAME_MAX - 1);
        return -1;
    }
    if (!g_key_file_has_key(kf, group, "plugin", NULL)) {
        conf_err(err, errlen, c->file, group, "plugin", "missing (the plugin's file base name)");
        return -1;
    }
    char *pv = get_str(kf, c, group, "plugin", err, errlen);
    if (!pv)
        return -1;
    if (!*pv) {
        conf_err(err, errlen, c->file, group, "plugin", "empty value");
        g_free(pv);
        return -1;
    }
    /* a base name can only name a NAME.so in a directory the operator put on the search
     * path; a path can name any file the host may read, so it needs the config's word */
    if (strchr(pv, '/') && !allow_paths) {
        conf_err(err, errlen, c->file, group, "plugin",
                 "'%s' is a path; plugin takes a base name, NAME for NAME.so along the plugin "
                 "search path ([shim] plugin_dir, CARDBOT_PLUGIN_PATH, the defaults). To load a "
                 "plugin by its path set [shim] allow_plugin_paths = true", pv);
        g_free(pv);
        return -1;
    }
    char perr[640];
    char *cdir = g_path_get_dirname(c->file);
    char *path = shim_plugin_find(pv, cdir, plugin_dir, perr, sizeof perr);
    g_free(cdir);
    g_free(pv);
    if (!path) {
        conf_err(err, errlen, c->file, group, "plugin", "%s", perr);
        return -1;
    }
    shim_plugin *p = conf_plugin(c, prev, names, path, perr, sizeof perr);
    g_free(path);
    if (!p) {
        conf_err(err, errlen, c->file, group, "plugin", "%s", perr);
        return -1;
    }

    shim_strategy *s = &c->strat[c->nstrat];
    gsize n = 0;
    char **keys = g_key_file_get_keys(kf, group, &n, NULL);
    /* the config's keys, then one slot for the shim's config_dir (shim_strategy_nparams) */
    s->params = g_new0(cb_param, n + 1);
    s->strs = g_new0(char *, 2 * n + 3);
    int ns = 0;
    for (gsize i = 0; keys && i < n; i++) {
        if (strcmp(keys[i], "plugin") == 0)
            continue;
        char *v = get_str(kf, c, group, keys[i], err, errlen);
        if (!v) {
            g_strfreev(keys);
            g_free(s->params);
            g_strfreev(s->strs);
            memset(s, 0, sizeof *s);
            return -1;
        }
        s->strs[ns++] = g_strdup(keys[i]);
        s->strs[ns++] = v;
        s->params[s->nparams].key = s->strs[ns - 2];
        s->params[s->nparams].value = v;
        s->nparams++;
    }
    g_strfreev(keys);
    /* absolute: the program exec starts must find the same files whatever the host's working
     * directory is by then (a reload, a long-running server that changes it) */
    char *dir = g_path_get_dirname(c->file);
    s->strs[ns++] = g_strdup(SHIM_CONFIG_DIR_PARAM);
    s->strs[ns++] = g_canonicalize_filename(dir, NULL);
    g_free(dir);
    s->params[s->nparams].key = s->strs[ns - 2];
    s->params[s->nparams].value = s->strs[ns - 1];
    s->name = g_strdup(name);
    s->group = g_strdup(group);
    s->plugin = p;
    c->nstrat++;

    /* create one instance to check the parameters, as a table would (under process
     * isolation in a worker that loads the plugin first: a constructor or a create() that
     * crashes must not take the host down) */
    if (c->isolation == SHIM_ISO_PROCESS)
        return shim_worker_check(c, c->nstrat - 1, err, errlen);
    void *inst = shim_strategy_create(c, c->nstrat - 1, err, errlen);
    if (!inst)
        return -1;
    p->bot->destroy(inst);
    return 0;
}

int shim_strategy_nparams(const shim_strategy *s, const char *bot_name)
{
    /* exec alone: every other plugin refuses a key it does not know, as it must (a misspelt
     * parameter is an error), so a key the config does not hold would break them; and the
     * ABI has no way for a plugin to ask for it. The plugin's own name (cb_bot.name), not
     * its file's, so a renamed copy of exec.so still gets it. */
    return s->nparams + (bot_name && strcmp(bot_name, SHIM_CONFIG_DIR_BOT) == 0);
}

void *shim_strategy_create(const shim_conf *c, int si, char *err, size_t errlen)
{
    const shim_strategy *s = &c->strat[si];
    char perr[512] = "";
    void *inst = s->plugin->bot->create(s->params, shim_strategy_nparams(s, s->plugin->bot->name),
                                        perr, sizeof perr);
    if (!inst) {
        perr[sizeof perr - 1] = '\0';
        const char *pname = s->plugin->bot->name ? s->plugin->bot->name : "plugin";
        if (perr[0])
            conf_err(err, errlen, c->file, s->group, NULL, "%s", perr);
        else
            conf_err(err, errlen, c->file, s->group, NULL, "%s: create() failed without a message", pname);
    }
    return inst;
}

/* A seat key: "0".."players-1". */
static int seat_of_key(const shim_conf *c, const char *k)
{
    if (k[0] >= '0' && k[0] <= '9' && k[1] == '\0' && k[0] - '0' < c->rules.players)
        return k[0] - '0';
    return -1;
}

static int load_seating(GKeyFile *kf, shim_conf *c, const char *group, int seats[CB_MAX_SEATS],
                        char *err, size_t errlen)
{
    gsize n = 0;
    char **keys = g_key_file_get_keys(kf, group, &n, NULL);
    int rc = 0;
    for (gsize i = 0; keys && i < n && rc == 0; i++) {
        int seat = seat_of_key(c, keys[i]);
        if (seat < 0) {
            conf_err(err, errlen, c->file, group, keys[i], "unknown key (seats are 0..%d)",
                     c->rules.players - 1);
            rc = -1;
            break;
        }
        char *v = get_str(kf, c, group, keys[i], err, errlen);
        if (!v) {
            rc = -1;
            break;
        }
        int s = find_strategy(c, v);
        if (s < 0) {
            conf_err(err, errlen, c->file, group, keys[i], "unknown strategy '%s'", v);
            rc = -1;
        }
        seats[seat] = s;
        g_free(v);
    }
    g_strfreev(keys);
    return rc;
}

static void load_kv(GKeyFile *kf, shim_conf *c)
{
    gsize ng = 0;
    char **groups = g_key_file_get_groups(kf, &ng);
    for (gsize i = 0; i < ng; i++) {
        gsize nk = 0;
        char **keys = g_key_file_get_keys(kf, groups[i], &nk, NULL);
        for (gsize j = 0; keys && j < nk; j++) {
            char *v = cb_conf_value(kf, groups[i], keys[j], NULL);
            if (v)
                g_hash_table_replace(c->kv, g_strconcat(groups[i], "\x1f", keys[j], NULL), v);
        }
        g_strfreev(keys);
    }
    g_strfreev(groups);
}

const char *shim_conf_get(const shim_conf *c, const char *group, const char *key)
{
    char buf[256];
    if (snprintf(buf, sizeof buf, "%s\x1f%s", group, key) >= (int)sizeof buf)
        return NULL;
    return g_hash_table_lookup(c->kv, buf);
}

void shim_conf_seating(const shim_conf *c, const char *table_id, int out[CB_MAX_SEATS])
{
    for (int i = 0; i < CB_MAX_SEATS; i++)
        out[i] = i < c->rules.players ? c->seats[i] : -1;
    const int *t = table_id ? g_hash_table_lookup(c->tables, table_id) : NULL;
    if (t)
        for (int i = 0; i < c->rules.players; i++)
            if (t[i] != SEATS_FROM_DEFAULT)
                out[i] = t[i];
}

static bool known_group(const char *g)
{
    static const char *const fixed[] = { "shim", "game", "rules", "seats", "match" };
    for (size_t i = 0; i < G_N_ELEMENTS(fixed); i++)
        if (strcmp(g, fixed[i]) == 0)
            return true;
    return g_str_has_prefix(g, "strategy.") || g_str_has_prefix(g, "table.");
}

static int conf_build(GKeyFile *kf, shim_conf *c, const shim_conf *prev, shim_names *names,
                      char *err, size_t errlen)
{
    gsize ng = 0;
    char **groups = g_key_file_get_groups(kf, &ng);
    char *plugin_dir = NULL, *fallback = NULL;
    bool allow_paths = false;
    int rc = -1;

    for (gsize i = 0; i < ng; i++) {
        if (!known_group(groups[i])) {
            conf_err(err, errlen, c->file, groups[i], NULL,
                     "unknown group (shim, game, rules, strategy.NAME, seats, table.ID, match)");
            goto out;
        }
    }
    if (load_shim_group(kf, c, &plugin_dir, &fallback, &allow_paths, err, errlen) != 0 ||
        load_game(kf, c, err, errlen) != 0 || load_rules(kf, c, err, errlen) != 0)
        goto out;

    c->strat = g_new0(shim_strategy, ng ? ng : 1);
    for (gsize i = 0; i < ng; i++)
        if (g_str_has_prefix(groups[i], "strategy.") &&
            load_strategy(kf, c, prev, names, groups[i], plugin_dir, allow_paths, err, errlen) != 0)
            goto out;

    if (fallback) {
        c->fallback = find_strategy(c, fallback);
        if (c->fallback < 0) {
            conf_err(err, errlen, c->file, "shim", "fallback", "unknown strategy '%s'", fallback);
            goto out;
        }
    }
    /* [seats] is required and names every seat: a seat left out would be answered by the
     * fallback (or the rules-only play) for the whole match without a word, which reads as
     * a config that works. [table.ID] may name only some seats: the others are [seats]'. */
    if (!g_key_file_has_group(kf, "seats")) {
        conf_err(err, errlen, c->file, "seats", NULL, "missing group: it names the strategy "
                 "at each seat, 0 = NAME .. %d = NAME", c->rules.players - 1);
        goto out;
    }
    if (load_seating(kf, c, "seats", c->seats, err, errlen) != 0)
        goto out;
    for (int i = 0; i < c->rules.players; i++) {
        if (c->seats[i] < 0) {
            char k[16];
            snprintf(k, sizeof k, "%d", i);
            conf_err(err, errlen, c->file, "seats", k, "missing: every seat 0..%d needs a "
                     "strategy ([table.ID] groups may name only some seats, not [seats])",
                     c->rules.players - 1);
            goto out;
        }
    }
    for (gsize i = 0; i < ng; i++) {
        if (!g_str_has_prefix(groups[i], "table."))
            continue;
        const char *id = groups[i] + strlen("table.");
        if (!*id) {
            conf_err(err, errlen, c->file, groups[i], NULL, "empty table id");
            goto out;
        }
        int *seats = g_new(int, CB_MAX_SEATS);
        for (int s = 0; s < CB_MAX_SEATS; s++)
            seats[s] = SEATS_FROM_DEFAULT;
        g_hash_table_replace(c->tables, g_strdup(id), seats);
        if (load_seating(kf, c, groups[i], seats, err, errlen) != 0)
            goto out;
    }
    load_kv(kf, c);
    rc = 0;
out:
    g_free(plugin_dir);
    g_free(fallback);
    g_strfreev(groups);
    return rc;
}

/* What a file that is not a regular one is, for the message. */
static const char *file_kind(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/* The config file's bytes (g_free; NUL-terminated, *len without the NUL), or NULL with a
 * message. Only a regular file is read: a FIFO would block the loader until some writer
 * came (and a reload runs on a host thread), a directory or a device is no config, and
 * reading /dev/zero would never end. The stat() before the open keeps us from opening a
 * device at all (opening some has effects); the decision itself is fstat() on the descriptor
 * we read, so a path swapped between the two is still caught. O_NONBLOCK: the open of a FIFO
 * returns at once instead of waiting for a writer (it means nothing for a regular file). */
static char *read_conf_file(const char *path, gsize *len, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        conf_err(err, errlen, path, NULL, NULL, "cannot read: %s, not a regular file (a config "
                 "is read from a file)", file_kind(st.st_mode));
        return NULL;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        conf_err(err, errlen, path, NULL, NULL, "cannot read: %s", g_strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0) {
        conf_err(err, errlen, path, NULL, NULL, "cannot read: %s", g_strerror(errno));
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        conf_err(err, errlen, path, NULL, NULL, "cannot read: %s, not a regular file (a config "
                 "is read from a file)", file_kind(st.st_mode));
        close(fd);
        return NULL;
    }
    GString *buf = g_string_sized_new(st.st_size > 0 && st.st_size < SHIM_CONF_MAX ? (gsize)st.st_size + 1 : 4096);
    char chunk[8192];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            conf_err(err, errlen, path, NULL, NULL, "cannot read: %s", g_strerror(errno));
            break;
        }
        if (n == 0) {
            close(fd);
            *len = buf->len;
            return g_string_free(buf, FALSE);
        }
        if (buf->len + (gsize)n > SHIM_CONF_MAX) {
            conf_err(err, errlen, path, NULL, NULL, "cannot read: larger than %d bytes, too "
                     "large for a config", SHIM_CONF_MAX);
            break;
        }
        g_string_append_len(buf, chunk, n);
    }
    close(fd);
    g_string_free(buf, TRUE);
    return NULL;
}

/* ---- which line: asked of GKeyFile itself ----
 *
 * GKeyFile says what is wrong but not where (its parse errors quote the line, its value
 * errors name the key, neither gives a number), and its groups and keys carry no line. We do
 * not parse the text a second way to find out: whatever GKeyFile makes of a line — blanks,
 * CR LF, comments, escapes, locales — a second parser would have to agree with, and the day
 * they disagree the number would point at the wrong line. Instead GKeyFile is asked again on
 * prefixes of the text, whole lines each: a property that holds for a prefix holds for every
 * longer one (a bad line stays bad, a key once there stays there), so bisecting finds the
 * shortest prefix that has it, and its last line is the one. A dozen loads of a prefix on a
 * failure, none when the config is fine. */

/* A property of the first lines of the text, given what GKeyFile made of them: kf (loaded
 * is false when GKeyFile refused them). */
typedef bool (*prefix_test)(GKeyFile *kf, bool loaded, const void *arg);

/* The number of lines of data (a last line without '\n' counts). */
static int count_lines(const char *data, gsize len)
{
    int n = 0;
    for (const char *p = data, *end = data + len; p < end; n++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    return n;
}

/* The bytes of the first n lines of data, '\n' included. */
static gsize lines_len(const char *data, gsize len, int n)
{
    const char *p = data, *end = data + len;
    for (int i = 0; i < n && p < end; i++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    return (gsize)(p - data);
}

static bool prefix_has(const char *data, gsize len, int n, prefix_test test, const void *arg)
{
    GKeyFile *kf = g_key_file_new();
    bool loaded = g_key_file_load_from_data(kf, data, lines_len(data, len, n), CB_CONF_KEYFILE_FLAGS, NULL);
    bool res = test(kf, loaded, arg);
    g_key_file_free(kf);
    return res;
}

/* The first line (1-based) at which the text's prefix has the property; 0 when even the whole
 * text has not (the caller then gives no line). */
static int first_line(const char *data, gsize len, prefix_test test, const void *arg)
{
    int lo = 1, hi = count_lines(data, len);
    if (hi == 0 || !prefix_has(data, len, hi, test, arg))
        return 0;
    while (lo < hi) { /* the answer is in lo..hi */
        int mid = lo + (hi - lo) / 2;
        if (prefix_has(data, len, mid, test, arg))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

static bool refused(GKeyFile *kf, bool loaded, const void *arg)
{
    (void)kf, (void)arg;
    return !loaded;
}

typedef struct key_nth {
    const char *group, *key;
    gsize nth; /* the prefix holds key in group at least nth times */
} key_nth;

static bool has_key_nth(GKeyFile *kf, bool loaded, const void *arg)
{
    const key_nth *k = arg;
    if (!loaded)
        return false;
    gsize n = 0, seen = 0;
    char **keys = g_key_file_get_keys(kf, k->group, &n, NULL);
    for (gsize i = 0; keys && i < n; i++)
        seen += strcmp(keys[i], k->key) == 0;
    g_strfreev(keys);
    return seen >= k->nth;
}

/* The line of the nth occurrence of key in group (0: not found). */
static int line_of_key(const char *data, gsize len, const char *group, const char *key, gsize nth)
{
    key_nth k = { group, key, nth };
    return first_line(data, len, has_key_nth, &k);
}

/* The group line `line` sits in, or NULL (before any group; a group header itself, which
 * belongs to no group yet). Asked of GKeyFile too: the lines before it, plus a key of our
 * own on a line of its own, loaded; the key lands in the group the line would have been
 * read in — the one whose key list it ends (a group written again further down has its keys
 * merged into the first, so the last group listed need not be the one). */
static char *group_of_line(const char *data, gsize len, int line)
{
    gsize at = lines_len(data, len, line - 1);
    const char *l = data + at;
    while (l < data + len && *l != '\n' && g_ascii_isspace(*l)) /* GKeyFile's blanks: \f \r too */
        l++;
    if (l < data + len && *l == '[')
        return NULL;
    static const char probe[] = "\ncardbot-line-probe = 1\n";
    GString *text = g_string_new_len(data, (gssize)at);
    g_string_append(text, probe);
    GKeyFile *kf = g_key_file_new();
    char *found = NULL;
    if (g_key_file_load_from_data(kf, text->str, text->len, CB_CONF_KEYFILE_FLAGS, NULL)) {
        gsize ng = 0;
        char **groups = g_key_file_get_groups(kf, &ng);
        for (gsize i = 0; i < ng && !found; i++) {
            gsize nk = 0;
            char **keys = g_key_file_get_keys(kf, groups[i], &nk, NULL);
            if (keys && nk && strcmp(keys[nk - 1], "cardbot-line-probe") == 0)
                found = g_strdup(groups[i]);
            g_strfreev(keys);
        }
        g_strfreev(groups);
    }
    g_key_file_free(kf);
    g_string_free(text, TRUE);
    return found;
}

/* A group written twice. GKeyFile merges the second [NAME] into the first, so two [seats]
 * or two [strategy.x] — a copy-paste slip — would run as one group, keys of both, the later
 * winning, and no API of GKeyFile tells: its groups are a set by the time it is loaded. So
 * this one scan looks at the text itself, for group header lines only (values are GKeyFile's
 * to parse). It runs after GKeyFile accepted the text, and takes a header exactly as
 * GKeyFile does: lines end at '\n', leading blanks go, a line starting with '[' is then a
 * group (no key may start with one) and the name runs to its last ']'. */
static int check_groups_once(const char *data, gsize len, const char *file, char *err, size_t errlen)
{
    GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    int rc = 0, line = 0;
    for (gsize i = 0; i < len && rc == 0;) {
        const char *l = data + i;
        const char *nl = memchr(l, '\n', len - i);
        gsize n = nl ? (gsize)(nl - l) : len - i;
        i += n + 1;
        line++;
        while (n > 0 && g_ascii_isspace(*l)) {
            l++;
            n--;
        }
        if (n == 0 || *l != '[')
            continue;
        const char *end = l + n - 1; /* the last ']' */
        while (end > l && *end != ']')
            end--;
        if (end == l)
            continue; /* not a header GKeyFile would take (it refused such a line already) */
        char *name = g_strndup(l + 1, (gsize)(end - l - 1));
        int first = GPOINTER_TO_INT(g_hash_table_lookup(seen, name));
        if (first) {
            conf_err_at(err, errlen, file, line, name, NULL, "group written twice (lines %d and "
                        "%d): GKeyFile would merge them into one; write each group once", first, line);
            g_free(name);
            rc = -1;
        } else {
            g_hash_table_insert(seen, name, GINT_TO_POINTER(line));
        }
    }
    g_hash_table_destroy(seen);
    return rc;
}

/* Every key of every group, in one pass:
 *  - written twice in its group: GKeyFile keeps both lines but answers every lookup with the
 *    later one, so `plugin =` twice would load one plugin while the file shows two. Its key
 *    list (g_key_file_get_keys) does hold a key once per line, which is what tells. A
 *    translated key (key[zh]) is a key of its own name, as GKeyFile treats it.
 *  - a value read once, as the shim reads it (cb_conf_value), so that one GKeyFile cannot read —
 *    not UTF-8, a bad escape — is refused with its line, in any group: [match] too, whose keys
 *    a host reads later through cb_shim_get and would otherwise find missing without a word. */
static int check_keys(GKeyFile *kf, const char *data, gsize len, const char *file, char *err, size_t errlen)
{
    gsize ng = 0;
    char **groups = g_key_file_get_groups(kf, &ng);
    int rc = 0;
    for (gsize i = 0; i < ng && rc == 0; i++) {
        gsize nk = 0;
        char **keys = g_key_file_get_keys(kf, groups[i], &nk, NULL);
        GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
        for (gsize j = 0; keys && j < nk && rc == 0; j++) {
            if (!g_hash_table_add(seen, keys[j])) {
                int first = line_of_key(data, len, groups[i], keys[j], 1);
                int again = line_of_key(data, len, groups[i], keys[j], 2);
                conf_err_at(err, errlen, file, again, groups[i], keys[j], "key written twice in "
                            "the group (lines %d and %d; GKeyFile would use only the last); write "
                            "each key once", first, again);
                rc = -1;
                break;
            }
            GError *ge = NULL;
            char *v = cb_conf_value(kf, groups[i], keys[j], &ge);
            if (!v) {
                conf_err_at(err, errlen, file, line_of_key(data, len, groups[i], keys[j], 1),
                            groups[i], keys[j], "%s", ge ? ge->message : "unreadable value");
                rc = -1;
            }
            g_clear_error(&ge);
            g_free(v);
        }
        g_hash_table_destroy(seen);
        g_strfreev(keys);
    }
    g_strfreev(groups);
    return rc;
}

/* GKeyFile's refusal of the text, with the line it refused and the group that line is in.
 * Every load error is about one line (GKeyFile stops at the first it cannot take: a line that
 * is no key = value, [group] or # comment, a bad group or key name, a key before any group),
 * so the first prefix GKeyFile refuses ends with that line. GKeyFile's own words are kept. */
static void parse_error(const char *data, gsize len, const char *file, const GError *ge,
                        char *err, size_t errlen)
{
    const char *msg = ge ? ge->message : "cannot parse";
    int line = first_line(data, len, refused, NULL);
    char *group = line > 0 ? group_of_line(data, len, line) : NULL;
    conf_err_at(err, errlen, file, line, group, NULL, "%s", msg);
    g_free(group);
}

/* The text of the config, parsed by GKeyFile, refused when it holds a group or a key twice
 * or a value GKeyFile cannot read; every refusal names its line. */
static GKeyFile *parse_conf(const char *path, char *err, size_t errlen)
{
    gsize len = 0;
    char *data = read_conf_file(path, &len, err, errlen);
    if (!data)
        return NULL;
    GKeyFile *kf = g_key_file_new();
    GError *ge = NULL;
    const char *nul = memchr(data, '\0', len);
    if (nul) {
        /* text only: GKeyFile would read a line up to its NUL and the scan above past it */
        int line = 1;
        for (const char *p = data; p < nul; p++)
            line += *p == '\n';
        conf_err(err, errlen, path, NULL, NULL, "a NUL byte on line %d: a config is text", line);
    } else if (!g_key_file_load_from_data(kf, data, len, CB_CONF_KEYFILE_FLAGS, &ge)) {
        parse_error(data, len, path, ge, err, errlen);
        g_clear_error(&ge);
    } else if (check_groups_once(data, len, path, err, errlen) == 0 &&
               check_keys(kf, data, len, path, err, errlen) == 0) {
        g_free(data);
        return kf;
    }
    g_free(data);
    g_key_file_free(kf);
    return NULL;
}

shim_conf *shim_conf_load(const char *path, const shim_conf *prev, unsigned gen,
                          shim_names *names, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (!path) {
        conf_err(err, errlen, "(null)", NULL, NULL, "no config file given");
        return NULL;
    }
    shim_conf *c = g_new0(shim_conf, 1);
    atomic_init(&c->refs, 1);
    c->file = g_strdup(path);
    c->gen = gen;
    c->names = names;
    c->budget_ms = 1000;
    c->fallback = -1;
    for (int i = 0; i < CB_MAX_SEATS; i++)
        c->seats[i] = -1;
    c->plugins = g_ptr_array_new_with_free_func((GDestroyNotify)shim_plugin_unref);
    c->tables = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    c->kv = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);

    GKeyFile *kf = parse_conf(path, err, errlen);
    int rc = kf ? conf_build(kf, c, prev, names, err, errlen) : -1;
    if (kf)
        g_key_file_free(kf);
    if (rc != 0) {
        conf_free(c);
        return NULL;
    }
    return c;
}

/* cardbot shim — loading one strategy plugin and checking it can be trusted to be called.
 *
 * Checks, in order (as SQLite's loadext and nginx's module signature do): the file loads with
 * every symbol resolved now (RTLD_NOW, so a missing symbol fails here and not mid-game); it
 * exports cb_plugin_entry; the entry returns a table; the table's ABI major is ours; the table
 * is at least as large as the members this shim calls; the functions we cannot do without are
 * there. A refused plugin is dlclose'd again.
 */
#include "shim_int.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The members this shim calls: everything up to decide_play. */
#define BOT_MIN_SIZE (offsetof(cb_bot, decide_play) + sizeof(((cb_bot *)0)->decide_play))

__attribute__((format(printf, 4, 5)))
static shim_plugin *refuse(void *dl, char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    if (dl)
        dlclose(dl);
    return NULL;
}

shim_plugin *shim_plugin_load(const char *path, char *err, size_t errlen)
{
    dlerror(); /* clear a stale message */
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        const char *e = dlerror();
        if (!e)
            e = "unknown error";
        /* glibc starts its message with the path again: say it once */
        size_t n = strlen(path);
        if (strncmp(e, path, n) == 0 && e[n] == ':' && e[n + 1] == ' ')
            e += n + 2;
        return refuse(NULL, err, errlen, "cannot load %s: %s", path, e);
    }
    /* dlsym returns the address as void *; POSIX guarantees it converts to a function pointer */
    void *sym = dlsym(dl, CB_PLUGIN_ENTRY);
    if (!sym)
        return refuse(dl, err, errlen, "%s: no entry point %s", path, CB_PLUGIN_ENTRY);
    cb_plugin_entry_fn entry;
    memcpy(&entry, &sym, sizeof entry);
    const cb_bot *bot = entry();
    if (!bot)
        return refuse(dl, err, errlen, "%s: %s returned NULL", path, CB_PLUGIN_ENTRY);
    /* abi_version and struct_size are the first two members in every ABI: safe to read */
    if (CB_ABI_MAJOR_OF(bot->abi_version) != CB_ABI_MAJOR)
        return refuse(dl, err, errlen, "%s: built for ABI %u.%u, this shim speaks %d.x", path,
                      (unsigned)CB_ABI_MAJOR_OF(bot->abi_version),
                      (unsigned)(bot->abi_version & 0xFFFFu), CB_ABI_MAJOR);
    if (bot->struct_size < BOT_MIN_SIZE)
        return refuse(dl, err, errlen,
                      "%s: its cb_bot is %u bytes, this shim needs at least %zu (not binary compatible)",
                      path, (unsigned)bot->struct_size, (size_t)BOT_MIN_SIZE);
    const char *missing = !bot->create ? "create" : !bot->destroy ? "destroy"
                        : !bot->decide_play ? "decide_play" : NULL;
    if (missing)
        return refuse(dl, err, errlen, "%s: cb_bot has no %s function", path, missing);
    /* decide_bid may be NULL (a PDK-only plugin without 包庄): such a bid counts as failed */

    shim_plugin *p = g_new0(shim_plugin, 1);
    p->path = g_strdup(path);
    p->dl = dl;
    p->bot = bot;
    return p;
}

void shim_plugin_unload(shim_plugin *p)
{
    if (!p)
        return;
    if (p->dl)
        dlclose(p->dl);
    g_free(p->path);
    g_free(p);
}

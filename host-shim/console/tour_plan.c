/* cardbot tournament — who takes part and who meets whom (tour.h). */
#include <glib.h>
#include <string.h>

#include "cli.h"
#include "tour.h"

static bool has(char *const *v, const char *name)
{
    for (; v && *v; v++)
        if (!strcmp(*v, name))
            return true;
    return false;
}

char **cb_tour_strategies(cb_shim *shim, const char *file, const char *list, const char *gauntlet, char *err,
                          size_t errlen)
{
    char **conf = cb_cli_strategies(shim); /* the config's, in file order */
    char *known = g_strjoinv(", ", conf);
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
    bool ok = false;
    if (gauntlet && !has(conf, gauntlet)) {
        g_snprintf(err, errlen, "--gauntlet %s: %s has no [strategy.%s] (it has: %s)", gauntlet, file, gauntlet,
                   known);
        goto out;
    }
    if (list) {
        char **v = g_strsplit(list, ",", -1);
        for (char **p = v; *p; p++) {
            char *name = g_strstrip(*p);
            const char *bad = !*name ? "an empty name" : !has(conf, name) ? "not a strategy of the config" : NULL;
            for (guint i = 0; i < out->len && !bad; i++)
                if (!strcmp(out->pdata[i], name))
                    bad = "named twice";
            if (bad) {
                g_snprintf(err, errlen, "--strategies '%s': %s%s%s%s (%s has: %s)", list, *name ? "'" : "", name,
                           *name ? "' is " : "", bad, file, known);
                g_strfreev(v);
                goto out;
            }
            g_ptr_array_add(out, g_strdup(name));
        }
        g_strfreev(v);
        if (gauntlet) { /* NAME always plays its own gauntlet: first, when the list lacks it */
            bool in = false;
            for (guint i = 0; i < out->len && !in; i++)
                in = !strcmp(out->pdata[i], gauntlet);
            if (!in)
                g_ptr_array_insert(out, 0, g_strdup(gauntlet));
        }
    } else {
        for (char **p = conf; *p; p++)
            g_ptr_array_add(out, g_strdup(*p));
    }
    if (out->len < 2) {
        g_snprintf(err, errlen, "a tournament needs at least 2 strategies, %s has %u to play (%s)",
                   list ? "--strategies" : file, out->len, list ? list : known);
        goto out;
    }
    ok = true;
out:
    g_strfreev(conf);
    g_free(known);
    if (!ok) {
        g_ptr_array_free(out, TRUE);
        return NULL;
    }
    g_ptr_array_add(out, NULL);
    g_ptr_array_set_free_func(out, NULL);
    return (char **)g_ptr_array_free(out, FALSE);
}

cb_tour_pairing *cb_tour_pairings(int n, int gauntlet, int *count)
{
    cb_tour_pairing *p = g_new0(cb_tour_pairing, n > 1 ? n * (n - 1) / 2 : 1);
    int k = 0;
    if (gauntlet >= 0) {
        for (int j = 0; j < n; j++)
            if (j != gauntlet)
                p[k++] = (cb_tour_pairing){gauntlet, j};
    } else {
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                p[k++] = (cb_tour_pairing){i, j};
    }
    *count = k;
    return p;
}

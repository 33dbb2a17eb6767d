/* cardbot shim — a config value as every reader takes it (see conf_value.h). */
#include <string.h>

#include "conf_value.h"

char *cb_conf_value(GKeyFile *kf, const char *group, const char *key, GError **error)
{
    char *raw = g_key_file_get_value(kf, group, key, error);
    if (!raw)
        return NULL;
    size_t blanks = 0, rlen = strlen(raw);
    while (blanks < rlen && (raw[rlen - 1 - blanks] == ' ' || raw[rlen - 1 - blanks] == '\t'))
        blanks++;
    g_free(raw);
    GError *ge = NULL;
    char *v = g_key_file_get_string(kf, group, key, &ge);
    if (ge) {
        g_free(v);
        g_propagate_error(error, ge);
        return NULL;
    }
    if (v) {
        /* the literal blanks at the end of the raw text are the last ones of the value */
        size_t n = strlen(v);
        v[n - MIN(blanks, n)] = '\0';
    }
    return v;
}

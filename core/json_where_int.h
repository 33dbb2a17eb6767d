/* cardbot — private to core/ and the console (not installed): where json-glib's parse error
 * points. json-glib words one "<data>:LINE:COL: Parse error: WHY" (LINE and COL from 1, COL in
 * bytes, at the last token it read); the readers of cardbot-1 lines (core/view_json.c) and of
 * Botzone input (the console's serve_botzone.c) say it in their own words. A static inline
 * function, because libcardbot exports the cb_ API alone and the console links it. */
#ifndef CARDBOT_CORE_JSON_WHERE_INT_H
#define CARDBOT_CORE_JSON_WHERE_INT_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Split msg into its line, column and reason (*why points into msg); false when the text has
 * another shape (another json-glib), and then the caller shows it whole. */
static inline bool cb_json_where(const char *msg, unsigned long *line, unsigned long *col, const char **why)
{
    const char *mark = strstr(msg, ": Parse error: ");
    if (!mark)
        return false;
    const char *p = mark;
    unsigned long v[2];
    for (int k = 1; k >= 0; k--) { /* back over ":LINE:COL" */
        const char *digits_end = p;
        while (p > msg && p[-1] >= '0' && p[-1] <= '9')
            p--;
        if (p == digits_end || p == msg || p[-1] != ':')
            return false;
        v[k] = strtoul(p, NULL, 10);
        p--; /* onto the ':' before the number */
    }
    *line = v[0];
    *col = v[1];
    *why = mark + strlen(": Parse error: ");
    return true;
}

#endif

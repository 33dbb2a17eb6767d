/* cardbot match — locale-independent number text (see match_num.h). */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "match_num.h"

const char *cb_num(char *buf, size_t len, const char *fmt, double v, bool plus)
{
    if (!len)
        return buf;
    if (isnan(v)) {
        g_strlcpy(buf, "n/a", len);
        return buf;
    }
    if (isinf(v)) {
        g_strlcpy(buf, v < 0 ? "-inf" : plus ? "+inf" : "inf", len);
        return buf;
    }
    char mag[64];
    g_ascii_formatd(mag, sizeof mag, fmt, fabs(v));
    /* the sign follows what is shown: -0.0004 at %.3f is "0.000", not "-0.000" */
    bool zero = strspn(mag, "0.e+-") == strlen(mag);
    const char *sign = v < 0 && !zero ? "-" : plus ? "+" : "";
    g_snprintf(buf, len, "%s%s", sign, mag);
    return buf;
}

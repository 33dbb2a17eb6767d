/* cardbot match — locale-independent number text, the Wilson interval (see match_num.h). */
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

void cb_wilson(double wins, double n, double z, double *lo, double *hi)
{
    double p = wins / n, den = 1 + z * z / n, mid = (p + z * z / (2 * n)) / den;
    double half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den;
    /* At 0 (n) wins the bound is exactly 0 (1), which mid - half (mid + half) meets only up to
     * rounding, on either side; elsewhere the clamp keeps a rounding from leaving [0, 1].
     * Comparisons, not fmax / fmin: those may answer -0.0 for (-0.0, 0.0). */
    *lo = wins > 0 && mid - half > 0 ? mid - half : 0.0;
    *hi = wins < n && mid + half < 1 ? mid + half : 1.0;
}

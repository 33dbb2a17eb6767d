/* cardbot match — numbers as text for verdict lines and reports (and the one interval every
 * win share is printed with): always '.' as the decimal
 * point (main() sets the user's locale, and "0,563 [0,531, 0,595]" would not parse, in a line
 * or in SVG coordinates), and one spelling for the values that are not numbers. */
#ifndef CARDBOT_MATCH_NUM_H
#define CARDBOT_MATCH_NUM_H

#include <stdbool.h>
#include <stddef.h>

/* v through fmt, one printf conversion among %.Nf, %.Ne, %.Ng (g_ascii_formatd's), into buf.
 * plus: a '+' before values that are not negative. A value that rounds to zero never shows a
 * '-'. NaN is "n/a"; infinities "+inf" / "-inf" ("inf" without plus). Returns buf. */
const char *cb_num(char *buf, size_t len, const char *fmt, double v, bool plus);

/* The Wilson score interval of a share of wins out of n > 0 at z (1.96: 95%), in *lo and *hi,
 * within [0, 1]: at 0 wins *lo is +0.0 and at n wins *hi is 1 exactly, where the formula meets
 * them only up to rounding (below 0 it would print "-0.0%"). */
void cb_wilson(double wins, double n, double z, double *lo, double *hi);

#endif

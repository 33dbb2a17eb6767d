/* cardbot match — numbers as text for verdict lines and reports: always '.' as the decimal
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

#endif

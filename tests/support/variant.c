/* cardbot tests — rule variants of the oracle tests (see variant.h). */
#include "variant.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

void cbt_variant_rules(const char *preset, const char *const *flags, cb_rules *r)
{
    assert_int_equal(cb_rules_preset(preset, r), 0);
    for (int i = 0; flags[i]; i += 2) {
        char err[160] = "";
        if (cb_rules_set(r, flags[i], flags[i + 1], err, sizeof err) != 0)
            fail_msg("cb_rules_set(%s, %s): %s", flags[i], flags[i + 1], err);
    }
}

void cbt_variant_name(const char *preset, const char *const *flags, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%s", preset);
    for (int i = 0; flags[i] && n < (int)len; i += 2)
        n += snprintf(buf + n, len - (size_t)n, " %s=%s", flags[i], flags[i + 1]);
}

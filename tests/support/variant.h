/* cardbot tests — the rule variants the oracle tests run over: a preset and rule flags.
 *
 * A variant is written as its preset name and a NULL-terminated list of key, value pairs for
 * cb_rules_set, e.g. "pdk16", {"short_triple", "never", NULL}; its test name is
 * "pdk16 short_triple=never".
 */
#ifndef CARDBOT_TESTS_VARIANT_H
#define CARDBOT_TESTS_VARIANT_H

#include <stddef.h>
#include "cardbot/rules.h"

/* The variant's rules: the preset, then each flag. Fails the running cmocka test (naming the
 * flag and cb_rules_set's message) when one is refused. */
void cbt_variant_rules(const char *preset, const char *const *flags, cb_rules *r);
/* Its name: "preset key=value ..." (cut to fit buf). */
void cbt_variant_name(const char *preset, const char *const *flags, char *buf, size_t len);

#endif

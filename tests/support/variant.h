/* cardbot tests — the rule variants the oracle tests run over: a preset and rule flags.
 *
 * A variant is written as its preset name and a NULL-terminated list of key, value pairs for
 * cb_rules_set, e.g. "pdk16", {"short_triple", "never", NULL}; its test name is
 * "pdk16 short_triple=never".
 */
#ifndef CARDBOT_TESTS_VARIANT_H
#define CARDBOT_TESTS_VARIANT_H

#include <stddef.h>
#include <stdint.h>
#include "cardbot/rules.h"

/* A variant as tests declare it; a test's own variant struct begins with one (member `base`). */
typedef struct cbt_variant {
    const char *preset;
    const char *flags[10]; /* key, value pairs, NULL-terminated (up to four pairs) */
} cbt_variant;

/* The variant's rules: the preset, then each flag. Fails the running cmocka test (naming the
 * flag and cb_rules_set's message) when one is refused. */
void cbt_variant_rules(const char *preset, const char *const *flags, cb_rules *r);
/* Its name: "preset key=value ..." (cut to fit buf). */
void cbt_variant_name(const char *preset, const char *const *flags, char *buf, size_t len);

/* The main() of a variant test: prints "PROG: seed S (set CB_SEED to change)" plus asan_note
 * in a sanitizer build, then runs the cmocka group `first`, then `run` once per variant with
 * the variant as its state, named "preset key=value ...". variants: n elements of `size` bytes,
 * each beginning with a cbt_variant. Returns cmocka's result. */
struct CMUnitTest;
int cbt_run_variants(const char *prog, uint64_t seed_default, const char *asan_note, const struct CMUnitTest *first,
                     void (*run)(void **state), const void *variants, size_t n, size_t size);
#endif

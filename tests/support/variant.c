/* cardbot tests — rule variants of the oracle tests (see variant.h). */
#include "variant.h"
#include "oracle.h"
#include "randhand.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

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

int cbt_run_variants(const char *prog, uint64_t seed_default, const char *asan_note, const struct CMUnitTest *first,
                     void (*run)(void **state), const void *variants, size_t n, size_t size)
{
    printf("%s: seed %llu (set CB_SEED to change)%s\n", prog, (unsigned long long)cbt_seed(seed_default),
           CBT_UNDER_ASAN ? asan_note : "");
    struct CMUnitTest *tests = calloc(n + 1, sizeof *tests);
    char(*names)[160] = calloc(n, sizeof *names);
    if (!tests || !names) {
        free(tests);
        free(names);
        fprintf(stderr, "%s: out of memory\n", prog);
        return 1;
    }
    tests[0] = *first;
    for (size_t i = 0; i < n; i++) {
        /* each element begins with its cbt_variant */
        const cbt_variant *v = (const cbt_variant *)(const void *)((const char *)variants + i * size);
        tests[i + 1] = (struct CMUnitTest)cmocka_unit_test_prestate(run, (void *)v);
        cbt_variant_name(v->preset, v->flags, names[i], sizeof names[i]);
        tests[i + 1].name = names[i];
    }
    int rc = _cmocka_run_group_tests("tests", tests, n + 1, NULL, NULL); /* the name cmocka_run_group_tests gave */
    free(tests);
    free(names);
    return rc;
}

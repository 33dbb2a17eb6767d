/* The plugins' parameter tables (plugin/common/params.h; plugin/ismcts/params.c,
 * plugin/heuristic/params.c), linked from the plugins' static libraries:
 *  - README.md holds each table exactly as cb_params_markdown prints it, between the markers
 *    <!-- params:NAME --> and <!-- /params:NAME -->: a key added, removed or changed in a table
 *    fails here until README is regenerated (`test_params_table --print NAME` prints the block);
 *  - every key of every table: its bounds accepted, one past them (or a word that is no value)
 *    refused with a message naming the key; a key given twice keeps the last; an unknown key
 *    is refused naming it and listing the table's keys.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../plugin/common/params.h"
#include "../plugin/heuristic/heuristic.h"
#include "../plugin/ismcts/ismcts.h"
#include "../plugin/pimc/pimc.h"
#include "../plugin/rulebot/rulebot.h"

typedef struct table {
    const char *plugin;
    const cb_pdef *t;
    int n;
} table;

static table tables(int i)
{
    switch (i) {
    case 0: return (table){"ismcts", is_param_table, is_param_count};
    case 1: return (table){"heuristic", heur_param_table, heur_param_count};
    case 2: return (table){"pimc", pm_param_table, pm_param_count};
    default: return (table){"rulebot", rb_param_table, rb_param_count};
    }
}
#define NTABLES 4

/* The Markdown block of one table, as README holds it (malloc'd). */
static char *block(const table *T)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    cb_params_markdown(f, T->t, T->n);
    fclose(f);
    return buf;
}

/* README.md: in the working directory (tests/run.sh runs from the root), else next to the
 * build directory this binary sits in (build/<v>/tests/..). */
static char *read_readme(void)
{
    char path[PATH_MAX + 32] = "README.md";
    FILE *f = fopen(path, "r");
    if (!f) {
        char exe[PATH_MAX];
        ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (k > 0) {
            exe[k] = '\0';
            snprintf(path, sizeof path, "%s/../../../README.md", dirname(exe));
            f = fopen(path, "r");
        }
    }
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + got + 1 > cap) {
            cap = (len + got + 1) * 2;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
        memcpy(buf + len, chunk, got);
        len += got;
    }
    fclose(f);
    if (buf)
        buf[len] = '\0';
    return buf;
}

static void test_readme_tables(void **state)
{
    (void)state;
    char *readme = read_readme();
    assert_non_null(readme);
    for (int i = 0; i < NTABLES; i++) {
        table T = tables(i);
        char open[64], close[64];
        snprintf(open, sizeof open, "<!-- params:%s -->\n", T.plugin);
        snprintf(close, sizeof close, "<!-- /params:%s -->", T.plugin);
        char *want = block(&T);
        const char *a = strstr(readme, open), *b = a ? strstr(a, close) : NULL;
        bool same = a && b && (size_t)(b - (a + strlen(open))) == strlen(want) &&
                    memcmp(a + strlen(open), want, strlen(want)) == 0;
        if (!same)
            print_error("README.md: the %s table is missing or stale; between %s and %s it must read:\n%s",
                        T.plugin, open, close, want);
        free(want);
        assert_true(same);
    }
    free(readme);
}

/* Parse one key=value of T into a scratch struct: 0 or -1 (err filled). */
static int parse1(const table *T, const char *key, const char *value, char *err, size_t errlen)
{
    union {
        is_params is;
        heur_params heur;
        pm_params pm;
        rb_params rb;
    } out;
    cb_param p = {key, value};
    return cb_params_parse(T->plugin, T->t, T->n, &p, 1, &out, NULL, err, errlen);
}

static void accept1(const table *T, const char *key, const char *value)
{
    char err[600] = "";
    if (parse1(T, key, value, err, sizeof err) != 0)
        fail_msg("%s: %s = '%s' refused: %s", T->plugin, key, value, err);
}

static void refuse1(const table *T, const char *key, const char *value)
{
    char err[600] = "";
    if (parse1(T, key, value, err, sizeof err) == 0)
        fail_msg("%s: %s = '%s' accepted", T->plugin, key, value);
    if (!strstr(err, key))
        fail_msg("%s: the message for %s = '%s' does not name the key: %s", T->plugin, key, value, err);
}

static void test_every_key(void **state)
{
    (void)state;
    for (int i = 0; i < NTABLES; i++) {
        table T = tables(i);
        for (int k = 0; k < T.n; k++) {
            const cb_pdef *d = &T.t[k];
            char v[64];
            refuse1(&T, d->name, "");
            refuse1(&T, d->name, "nonsense");
            switch (d->type) {
            case CB_PT_U64:
            case CB_PT_U32:
            case CB_PT_INT:
                snprintf(v, sizeof v, "%llu", (unsigned long long)d->ulo);
                accept1(&T, d->name, v);
                snprintf(v, sizeof v, "%llu", (unsigned long long)d->uhi);
                accept1(&T, d->name, v);
                refuse1(&T, d->name, "-1");
                if (d->ulo > 0) {
                    snprintf(v, sizeof v, "%llu", (unsigned long long)d->ulo - 1);
                    refuse1(&T, d->name, v);
                }
                if (d->uhi < UINT64_MAX) {
                    snprintf(v, sizeof v, "%llu", (unsigned long long)d->uhi + 1);
                    refuse1(&T, d->name, v);
                } else {
                    refuse1(&T, d->name, "18446744073709551616"); /* 2^64: overflow */
                }
                break;
            case CB_PT_REAL:
                snprintf(v, sizeof v, "%.17g", d->dlo);
                accept1(&T, d->name, v);
                snprintf(v, sizeof v, "%.17g", d->dhi);
                accept1(&T, d->name, v);
                snprintf(v, sizeof v, "%.17g", d->dhi + 0.5);
                refuse1(&T, d->name, v);
                snprintf(v, sizeof v, "%.17g", d->dlo - 0.5);
                refuse1(&T, d->name, v);
                refuse1(&T, d->name, "nan");
                break;
            case CB_PT_CHOICE:
                for (int c = 0; d->choices[c]; c++)
                    accept1(&T, d->name, d->choices[c]);
                break;
            }
        }
        /* unknown keys: named, and the known ones listed */
        char err[600] = "";
        assert_int_not_equal(parse1(&T, "no_such_key", "1", err, sizeof err), 0);
        assert_non_null(strstr(err, "no_such_key"));
        assert_non_null(strstr(err, T.t[T.n - 1].name));
    }
    /* a key given twice: the last wins; the mask says which rows were given */
    is_params p;
    uint64_t given = 0;
    const cb_param twice[] = {{"width", "3"}, {"width", "5"}};
    assert_int_equal(cb_params_parse("ismcts", is_param_table, is_param_count, twice, 2, &p, &given, NULL, 0), 0);
    assert_int_equal(p.width, 5);
    assert_int_equal(__builtin_popcountll(given), 1);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--print") == 0) {
        for (int i = 0; i < NTABLES; i++) {
            table T = tables(i);
            if (strcmp(argv[2], T.plugin) == 0) {
                cb_params_markdown(stdout, T.t, T.n);
                return 0;
            }
        }
        fprintf(stderr, "no parameter table for '%s' (ismcts, heuristic, pimc, rulebot)\n", argv[2]);
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_readme_tables),
        cmocka_unit_test(test_every_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

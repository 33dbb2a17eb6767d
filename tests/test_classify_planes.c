/* cardbot tests — DDZ planes whose kickers hold a triple, read from the rules text.
 *
 * DESIGN.md "Rules": a DDZ plane + one single per triple takes kickers of ranks outside the
 * chain, "repeats allowed; never both jokers, never four of a rank, never three of a rank
 * adjacent to the chain, which would really be a longer plane". So three kickers of one rank
 * are fine apart from the chain (333444555 + 777), but right above or below it they are not
 * kickers at all: 333444555666 is only the bare plane of four, never 333444555 + 666 nor
 * 444555666 + 333. "Adjacent" means a rank that could extend the chain: the 2 never chains,
 * so QQQKKKAAA + 222 is a plane with kickers, while A still chains, so JJJQQQKKK + AAA is the
 * bare plane J..A. A multiset with no allowed reading is no play.
 *
 * Every row is checked three ways: cb_classify's canonical reading, the number of readings
 * cb_readings lists (a forbidden kicker reading must not be among them, even where the
 * canonical one would hide it) and, for legal rows, that the reading found is one of them.
 * (A sibling of tests/test_classify_table.c, kept in its own file.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cardbot/rules.h"

#define ILL (-1)

typedef struct prow {
    const char *flags;  /* one "key=value" for cb_rules_set, or "" */
    const char *cards;
    int shape;          /* cb_shape or ILL */
    char main;          /* the chain's lowest rank */
    int len;            /* triples in the chain */
    int kick;           /* kicker cards */
    int readings;       /* how many readings in all */
} prow;

static const prow rows[] = {
    /* a triple right above or below the chain makes a longer bare plane, never kickers */
    {"", "333444555666", CB_PLANE, '3', 4, 0, 1},
    {"", "444555666777", CB_PLANE, '4', 4, 0, 1},
    {"", "JJJQQQKKKAAA", CB_PLANE, 'J', 4, 0, 1},  /* A extends a chain: adjacent */
    {"", "3334445556667778", ILL, 0, 0, 0, 0},      /* 3..6 + 777 8, or 4..7 + 333 8 */
    {"", "TTTJJJQQQKKKAAA9", ILL, 0, 0, 0, 0},      /* T..K + AAA 9, or J..A + TTT 9 */
    /* a triple one rank apart from the chain is a plain repeated kicker */
    {"", "333444555777", CB_PLANE_1, '3', 3, 3, 1},
    {"", "555666777333", CB_PLANE_1, '5', 3, 3, 1},
    {"", "444555666888", CB_PLANE_1, '4', 3, 3, 1},
    {"", "QQQKKKAAA222", CB_PLANE_1, 'Q', 3, 3, 1}, /* the 2 never extends a chain */
    {"", "3334445556667999", CB_PLANE_1, '3', 4, 4, 1}, /* 7 adjacent, but a single */
    /* fewer than three of the adjacent rank ride along freely */
    {"", "33344455", CB_PLANE_1, '3', 2, 2, 1},
    {"", "KKKAAA22", CB_PLANE_1, 'K', 2, 2, 1},
    {"", "333444555", CB_PLANE, '3', 3, 0, 1},
    /* the other kicker limits next to it: never both jokers (unless rocket_kickers), never a
     * four of a rank */
    {"", "KKKAAAXD", ILL, 0, 0, 0, 0},
    {"rocket_kickers=true", "KKKAAAXD", CB_PLANE_1, 'K', 2, 2, 1},
    {"", "3334445556667777", ILL, 0, 0, 0, 0},
};

static int rank_of(char c)
{
    const char *p = strchr(cb_rank_chars, c);
    return p ? (int)(p - cb_rank_chars) : -1;
}

static void test_rows(void **state)
{
    (void)state;
    int n = (int)(sizeof rows / sizeof rows[0]);
    for (int i = 0; i < n; i++) {
        const prow *w = &rows[i];
        cb_rules r;
        assert_int_equal(cb_rules_preset("ddz", &r), 0);
        if (w->flags[0]) {
            char key[32];
            const char *eq = strchr(w->flags, '=');
            assert_non_null(eq);
            snprintf(key, sizeof key, "%.*s", (int)(eq - w->flags), w->flags);
            assert_int_equal(cb_rules_set(&r, key, eq + 1, NULL, 0), 0);
        }
        cb_counts k = 0;
        char err[128];
        if (cb_counts_parse(w->cards, r.deck, &k, err, sizeof err) != 0)
            fail_msg("row %d '%s': %s", i, w->cards, err);
        cb_move m;
        memset(&m, 0, sizeof m);
        char why[128] = "";
        bool ok = cb_classify(&r, k, &m, why, sizeof why);
        cb_move all[64];
        int nr = cb_readings(&r, k, all, 64);
        if (w->shape == ILL) {
            if (ok)
                fail_msg("row %d ddz %s '%s': expected no play, got %s main %c len %d kick %d", i, w->flags,
                         w->cards, cb_shape_names[m.shape], cb_rank_chars[m.main], m.len, m.kick);
        } else {
            if (!ok)
                fail_msg("row %d ddz %s '%s': expected %s, refused: %s", i, w->flags, w->cards,
                         cb_shape_names[w->shape], why);
            if (m.shape != w->shape || m.main != rank_of(w->main) || m.len != w->len || m.kick != w->kick)
                fail_msg("row %d ddz %s '%s': expected %s main %c len %d kick %d, got %s main %c len %d kick %d", i,
                         w->flags, w->cards, cb_shape_names[w->shape], w->main, w->len, w->kick,
                         cb_shape_names[m.shape], cb_rank_chars[m.main], m.len, m.kick);
            bool listed = false;
            for (int j = 0; j < nr && j < 64; j++)
                listed |= all[j].shape == m.shape && all[j].main == m.main && all[j].len == m.len;
            assert_true(listed);
        }
        if (nr != w->readings) {
            for (int j = 0; j < nr && j < 64; j++)
                print_error("  reading %d: %s main %c len %d kick %d\n", j, cb_shape_names[all[j].shape],
                            cb_rank_chars[all[j].main], all[j].len, all[j].kick);
            fail_msg("row %d ddz %s '%s': %d readings, expected %d", i, w->flags, w->cards, nr, w->readings);
        }
    }
    printf("  %d DDZ plane rows\n", n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows),
    };
    return cmocka_run_group_tests_name("classify_planes", tests, NULL, NULL);
}

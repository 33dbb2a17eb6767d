/* The shared heuristic's candidate selection (plugin/common/policy.h cb_hcand_select_pre)
 * against the plain partial selection sort it replaces, written here again step by step:
 * random candidate lists (3 to 600 plays, from any start, k from 1 to 64) whose pre-scores
 * are drawn from a handful of values (long ties), from many (few ties) or mixed, with the
 * whole list compared play by play afterwards — the chosen front in order and the rest in
 * place, as the level-6 choice breaks ties by position. The fast path (k > 2, the list more
 * than 8 longer than k) must have been taken in most cases, or the comparison proves nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "../plugin/common/policy.h"
#include "../plugin/common/rng.h"

static void plain(cb_hcand *c, int from, int n, int k)
{
    for (int j = from; j < from + k; j++) {
        int b = j;
        for (int i = j + 1; i < n; i++)
            if (c[i].pre > c[b].pre)
                b = i;
        cb_hcand t = c[b];
        c[b] = c[j];
        c[j] = t;
    }
}

static void test_select_pre(void **state)
{
    (void)state;
    enum { NMAX = 600, CASES = 20000 };
    static cb_hcand a[NMAX], b[NMAX];
    cb_rng g;
    cb_rng_seed(&g, 20261202);
    int fast = 0;
    for (int t = 0; t < CASES; t++) {
        int n = 3 + (int)cb_rng_below(&g, t % 4 == 0 ? NMAX - 2 : 120);
        int from = (int)cb_rng_below(&g, (uint32_t)(n / 3 + 1));
        int room = n - from, kmax = room < 64 ? room : 64;
        int k = 1 + (int)cb_rng_below(&g, (uint32_t)kmax);
        int values = t % 3 == 0 ? 2 + (int)cb_rng_below(&g, 6) : t % 3 == 1 ? 1000000 : 40;
        for (int i = 0; i < n; i++) {
            memset(&a[i], 0, sizeof a[i]);
            a[i].idx = i;
            a[i].pre = (float)cb_rng_below(&g, (uint32_t)values) * 0.25f - 3.0f;
        }
        memcpy(b, a, (size_t)n * sizeof a[0]);
        plain(a, from, n, k);
        cb_hcand_select_pre(b, from, n, k);
        for (int i = 0; i < n; i++)
            if (a[i].idx != b[i].idx)
                fail_msg("case %d (n %d, from %d, k %d, %d values): position %d holds play %d, the plain "
                         "selection put %d there",
                         t, n, from, k, values, i, b[i].idx, a[i].idx);
        fast += k > 2 && k <= 64 && room > k + 8;
    }
    assert_true(fast > CASES / 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_select_pre),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The Wilson interval every win share is printed with (cb_wilson, match_num.h), on its own:
 * clamped to [0, 1], with a lower bound of +0.0 (never -0.0, which prints as "-0.0%") when
 * nothing was won, and an upper bound of exactly 1 when everything was, at every sample size
 * (whether the formula's rounding lands below 0 or above 1 depends on n: 5 and 10 do). The
 * console's source is compiled in, as test_shim_path.c does with the shim's: the cardbot binary
 * exports nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include "../host-shim/console/match_num.c"

static void test_bounds_at_the_ends(void **s)
{
    (void)s;
    int below = 0, above = 0;
    for (int n = 1; n <= 2000; n++) {
        double lo, hi;
        cb_wilson(0, n, 1.96, &lo, &hi);
        char text[16];
        snprintf(text, sizeof text, "%.1f%%", 100 * lo);
        if (lo != 0 || signbit(lo) || hi <= 0 || hi > 1 || text[0] == '-') {
            print_error("n %d, no wins: [%g, %g] prints %s\n", n, lo, hi, text);
            below++;
        }
        cb_wilson(n, n, 1.96, &lo, &hi);
        if (hi != 1 || lo <= 0 || lo >= 1) {
            print_error("n %d, all won: [%g, %g]\n", n, lo, hi);
            above++;
        }
    }
    assert_int_equal(below, 0);
    assert_int_equal(above, 0);
}

/* Away from the ends the interval is the formula's, unclamped: 1 of 10 is [1.8%, 40.4%]. */
static void test_inside(void **s)
{
    (void)s;
    double lo, hi;
    cb_wilson(1, 10, 1.96, &lo, &hi);
    assert_float_equal(lo, 0.0178757, 1e-6);
    assert_float_equal(hi, 0.4041564, 1e-6);
    cb_wilson(5, 10, 1.96, &lo, &hi);
    assert_float_equal(lo + hi, 1.0, 1e-12); /* symmetric about one half */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bounds_at_the_ends),
        cmocka_unit_test(test_inside),
    };
    return cmocka_run_group_tests_name("wilson", tests, NULL, NULL);
}

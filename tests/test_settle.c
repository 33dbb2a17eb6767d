/* Settlement (core/settle.c) against hand-computed tables: DDZ multiplier with bombs, spring
 * and anti-spring; PDK card points, the one-card rule, 关门, bombs, 包庄; deltas sum to 0. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cardbot/rules.h"

static void expect3(const int d[3], int a, int b, int c)
{
    assert_int_equal(d[0], a);
    assert_int_equal(d[1], b);
    assert_int_equal(d[2], c);
    assert_int_equal(d[0] + d[1] + d[2], 0);
}

static void test_ddz(void **state)
{
    (void)state;
    cb_rules r;
    int d[3];
    assert_int_equal(cb_rules_preset("ddz", &r), 0);
    cb_ddz_result x = {.landlord = 1, .bid = 3, .bombs = 0, .winner = 1, .landlord_plays = 5, .farmer_plays = 4};
    assert_int_equal(cb_ddz_settle(&r, &x, d), 3);
    expect3(d, -3, 6, -3);
    /* two bombs, farmers win */
    x.bombs = 2;
    x.winner = 0;
    assert_int_equal(cb_ddz_settle(&r, &x, d), 12);
    expect3(d, 12, -24, 12);
    /* spring: the farmers never played */
    x.bombs = 1;
    x.winner = 1;
    x.farmer_plays = 0;
    assert_int_equal(cb_ddz_settle(&r, &x, d), 12);
    expect3(d, -12, 24, -12);
    /* anti-spring: the landlord made only its first play and the farmers won */
    x = (cb_ddz_result){.landlord = 1, .bid = 2, .bombs = 0, .winner = 2, .landlord_plays = 1, .farmer_plays = 3};
    assert_int_equal(cb_ddz_settle(&r, &x, d), 4);
    expect3(d, 4, -8, 4);
    /* one landlord play that won the deal is no anti-spring */
    x.winner = 1;
    assert_int_equal(cb_ddz_settle(&r, &x, d), 2);
    expect3(d, -2, 4, -2);
    /* a seat out of range: nothing moves */
    x.landlord = 5;
    assert_int_equal(cb_ddz_settle(&r, &x, d), 0);
    expect3(d, 0, 0, 0);
}

static void test_pdk(void **state)
{
    (void)state;
    cb_rules r;
    int d[3];
    assert_int_equal(cb_rules_preset("pdk16", &r), 0);
    cb_pdk_result p = {.winner = 0, .cards_left = {0, 5, 1}, .plays = {4, 2, 3}, .bomb_tricks = {0, 0, 0}, .bao = -1};
    cb_pdk_settle(&r, &p, d);
    expect3(d, 5, -5, 0); /* one card left pays nothing */
    p.plays[1] = 0;       /* 关门: never played, pays double */
    cb_pdk_settle(&r, &p, d);
    expect3(d, 10, -10, 0);
    p.cards_left[2] = 16;
    p.plays[2] = 0;
    cb_pdk_settle(&r, &p, d);
    expect3(d, 42, -10, -32);
    p.bomb_tricks[1] = 1; /* seat 1's bomb: 10 from each other seat */
    cb_pdk_settle(&r, &p, d);
    expect3(d, 42 - 10, -10 + 20, -32 - 10);
    /* 包庄 replaces card points; bombs still paid */
    p.bao = 0; /* declarer won */
    cb_pdk_settle(&r, &p, d);
    expect3(d, 64 - 10, -32 + 20, -32 - 10);
    p.bao = 2; /* declarer lost */
    cb_pdk_settle(&r, &p, d);
    expect3(d, 32 - 10, 32 + 20, -64 - 10);
    /* a declaration does not count where 包庄 is off */
    assert_int_equal(cb_rules_set(&r, "bao", "false", NULL, 0), 0);
    cb_pdk_settle(&r, &p, d);
    expect3(d, 42 - 10, -10 + 20, -32 - 10);
    assert_int_equal(cb_rules_set(&r, "spring_double", "false", NULL, 0), 0);
    p.bomb_tricks[1] = 0;
    cb_pdk_settle(&r, &p, d);
    expect3(d, 21, -5, -16);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ddz),
        cmocka_unit_test(test_pdk),
    };
    return cmocka_run_group_tests_name("settle", tests, NULL, NULL);
}

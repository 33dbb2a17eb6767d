/* cardbot tests — hand-written classify / readings / beats tables over every preset.
 *
 * Every expected value is derived from the rules text (DESIGN.md "Rules" and the comments of
 * include/cardbot/rules.h), not from core/classify.c. The canonical reading of a multiset that
 * reads several ways is: not short first, then the higher cb_shape value, then the longer len,
 * then the higher main rank. PDK short shapes are the bare triple, 三带一, the bare plane and
 * the plane with fewer than two kickers per triple.
 *
 * Notes on derived cases that may look surprising:
 *  - DDZ plane + singles: three kickers of one rank are refused only when the rank is adjacent
 *    to the chain (it would make a longer plane). "333444555777" and "QQQKKKAAA222" are legal;
 *    with this reading the DDZ universe is exactly 27,471 plays (counted by a separate
 *    enumeration while writing this table), so it is the reading DESIGN.md describes.
 *  - PDK kickers are any cards outside the main part, so "4445556667" is 555666 + 4447, a full
 *    plane of two (main 5), which the canonical rule prefers over the short plane 444555666 + 7.
 *  - PDK "333444555" reads as a bare plane of three or as a plane of two with three kickers;
 *    all are short, so the higher shape (plane + kickers) with the higher main (444555) wins.
 *  - The PDK house rules of rules.h have rows of their own: under plane_pair_wings
 *    "3334445556" loses its full readings (the wings 3336 / 5556 are not pairs) and is only
 *    the short 333444555 + 6; under plane_single_wings "33344456" and "33344455" are both
 *    plane_1, the first full and the second short, which the beats rows tell apart.
 *    test_house_rule_keys checks the keys themselves (defaults, refusals outside PDK).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cardbot/cards.h"
#include "cardbot/rules.h"

#define ILL (-1)     /* legal cards, but no play */
#define NOPARSE (-2) /* the text must not parse in this preset's deck */

enum {
    SI = CB_SINGLE, PA = CB_PAIR, TR = CB_TRIPLE, T1 = CB_TRIPLE_1, T2 = CB_TRIPLE_2,
    ST = CB_STRAIGHT, PC = CB_PAIR_CHAIN, PL = CB_PLANE, P1 = CB_PLANE_1, P2 = CB_PLANE_2,
    F2 = CB_FOUR_2, F22 = CB_FOUR_22, F3 = CB_FOUR_3, BO = CB_BOMB, RO = CB_ROCKET
};

typedef struct crow {
    const char *preset;
    const char *flags; /* "key=value,key=value" for cb_rules_set */
    const char *cards;
    int shape;         /* cb_shape, ILL or NOPARSE */
    char main;         /* rank character; '*' for CB_MAIN_AAA */
    int len;
} crow;

static const crow classify_rows[] = {
    /* ================= DDZ ================= */
    {"ddz", "", "3", SI, '3', 1},
    {"ddz", "", "2", SI, '2', 1},
    {"ddz", "", "X", SI, 'X', 1},
    {"ddz", "", "D", SI, 'D', 1},
    {"ddz", "", "33", PA, '3', 1},
    {"ddz", "", "22", PA, '2', 1},
    {"ddz", "", "XD", RO, 'X', 1},
    {"ddz", "", "34", ILL, 0, 0},
    {"ddz", "", "2X", ILL, 0, 0},
    {"ddz", "", "333", TR, '3', 1},
    {"ddz", "", "222", TR, '2', 1},
    {"ddz", "", "3334", T1, '3', 1},
    {"ddz", "", "3332", T1, '3', 1},
    {"ddz", "", "333X", T1, '3', 1},
    {"ddz", "", "222D", T1, '2', 1},
    {"ddz", "", "33344", T2, '3', 1},
    {"ddz", "", "33322", T2, '3', 1},
    {"ddz", "", "22233", T2, '2', 1},
    {"ddz", "", "33345", ILL, 0, 0},  /* DDZ triple takes one single or one pair */
    {"ddz", "", "333XD", ILL, 0, 0},  /* the jokers are no pair */
    {"ddz", "", "33334", ILL, 0, 0},  /* 3333 + 4 is nothing; never 333 + 34 */
    {"ddz", "", "3333", BO, '3', 1},
    {"ddz", "", "2222", BO, '2', 1},
    {"ddz", "", "33333", NOPARSE, 0, 0},
    /* straights 5..12, 3..A */
    {"ddz", "", "34567", ST, '3', 5},
    {"ddz", "", "345678", ST, '3', 6},
    {"ddz", "", "3456", ILL, 0, 0},
    {"ddz", "", "34568", ILL, 0, 0},
    {"ddz", "", "TJQKA", ST, 'T', 5},
    {"ddz", "", "456789TJQKA", ST, '4', 11},
    {"ddz", "", "3456789TJQKA", ST, '3', 12},
    {"ddz", "", "JQKA2", ILL, 0, 0},
    {"ddz", "", "QKA23", ILL, 0, 0},
    {"ddz", "", "A2345", ILL, 0, 0},
    {"ddz", "", "23456", ILL, 0, 0},
    {"ddz", "", "TJQKAX", ILL, 0, 0},
    /* pair chains 3..10 */
    {"ddz", "", "334455", PC, '3', 3},
    {"ddz", "", "3344", ILL, 0, 0},
    {"ddz", "", "334466", ILL, 0, 0},
    {"ddz", "", "QQKKAA", PC, 'Q', 3},
    {"ddz", "", "KKAA22", ILL, 0, 0},
    {"ddz", "", "QQKKAA22", ILL, 0, 0},
    {"ddz", "", "33445566778899TTJJQQ", PC, '3', 10},
    {"ddz", "", "33445566778899TTJJQQKK", ILL, 0, 0}, /* 11 pairs: above DDZ's 10 */
    /* planes: bare 2..6 */
    {"ddz", "", "333444", PL, '3', 2},
    {"ddz", "", "KKKAAA", PL, 'K', 2},
    {"ddz", "", "AAA222", ILL, 0, 0},
    {"ddz", "", "333555", ILL, 0, 0},
    {"ddz", "", "333444555666", PL, '3', 4}, /* 666 adjacent: never 333444555 + 666 */
    {"ddz", "", "333444555666777888", PL, '3', 6},
    {"ddz", "", "333444555666777888999", ILL, 0, 0},
    /* plane + singles 2..5 */
    {"ddz", "", "33344456", P1, '3', 2},
    {"ddz", "", "33344455", P1, '3', 2},  /* the two singles may be a pair */
    {"ddz", "", "3334442X", P1, '3', 2},
    {"ddz", "", "333444XD", ILL, 0, 0},   /* never both jokers */
    {"ddz", "rocket_kickers=true", "333444XD", P1, '3', 2},
    {"ddz", "", "KKKAAA22", P1, 'K', 2},
    {"ddz", "", "333444555777", P1, '3', 3},  /* 777 not adjacent to 345 */
    {"ddz", "", "666777888333", P1, '6', 3},
    {"ddz", "", "QQQKKKAAA222", P1, 'Q', 3},  /* 2 never extends a chain */
    {"ddz", "", "3334445556667788", P1, '3', 4},
    {"ddz", "", "3334445556667778", ILL, 0, 0}, /* 777 / 333 adjacent either way */
    {"ddz", "", "3334445556668888", ILL, 0, 0}, /* never four of a rank */
    {"ddz", "", "3334445556667777", ILL, 0, 0},
    {"ddz", "", "3334445556667779TJQK", P1, '3', 5},
    {"ddz", "", "33344455566677788899", ILL, 0, 0},
    {"ddz", "", "3334445556667778889TJQKA", ILL, 0, 0}, /* 6 triples + 6: above 5 */
    {"ddz", "", "3334445556", ILL, 0, 0},
    {"ddz", "", "33344455566", ILL, 0, 0},
    /* plane + pairs 2..4 */
    {"ddz", "", "3334445566", P2, '3', 2},
    {"ddz", "", "3334442255", P2, '3', 2},
    {"ddz", "", "3334445555", ILL, 0, 0}, /* pairs of distinct ranks */
    {"ddz", "", "333444555667788", P2, '3', 3},
    {"ddz", "", "33344455566699TTJJQQ", P2, '3', 4},
    {"ddz", "", "33344455566677799TTJJQQKK", ILL, 0, 0},
    /* four + kickers; 4+2 is not a bomb */
    {"ddz", "", "333345", F2, '3', 1},
    {"ddz", "", "333355", F2, '3', 1},
    {"ddz", "", "333344", F2, '3', 1},
    {"ddz", "", "333322", F2, '3', 1},
    {"ddz", "", "222233", F2, '2', 1},
    {"ddz", "", "22223X", F2, '2', 1},
    {"ddz", "", "3333XD", ILL, 0, 0},
    {"ddz", "rocket_kickers=true", "3333XD", F2, '3', 1},
    {"ddz", "", "3333X", ILL, 0, 0},
    {"ddz", "", "3333445", ILL, 0, 0},
    {"ddz", "", "3333444", ILL, 0, 0},
    {"ddz", "", "33334455", F22, '3', 1},
    {"ddz", "", "44443355", F22, '4', 1},
    {"ddz", "", "33332255", F22, '3', 1},
    {"ddz", "", "33334444", ILL, 0, 0},
    {"ddz", "", "33332222", ILL, 0, 0},
    {"ddz", "", "3333444455", ILL, 0, 0},

    /* ================= NOIP 2015 ================= */
    {"noip2015", "", "3", SI, '3', 1},
    {"noip2015", "", "D", SI, 'D', 1},
    {"noip2015", "", "33", PA, '3', 1},
    {"noip2015", "", "XD", RO, 'X', 1},
    {"noip2015", "", "333", TR, '3', 1},
    {"noip2015", "", "3334", T1, '3', 1},
    {"noip2015", "", "333X", T1, '3', 1},
    {"noip2015", "", "33344", T2, '3', 1},
    {"noip2015", "", "33322", T2, '3', 1},
    {"noip2015", "", "333XD", ILL, 0, 0}, /* jokers are never a pair */
    {"noip2015", "", "33345", ILL, 0, 0},
    {"noip2015", "", "33334", ILL, 0, 0},
    {"noip2015", "", "34567", ST, '3', 5},
    {"noip2015", "", "3456789TJQKA", ST, '3', 12},
    {"noip2015", "", "3456", ILL, 0, 0},
    {"noip2015", "", "JQKA2", ILL, 0, 0},
    {"noip2015", "", "334455", PC, '3', 3},
    {"noip2015", "", "3344", ILL, 0, 0},
    {"noip2015", "", "KKAA22", ILL, 0, 0},
    {"noip2015", "", "33445566778899TTJJQQKK", PC, '3', 11},
    {"noip2015", "", "333444", PL, '3', 2},
    {"noip2015", "", "333444555666777888999", PL, '3', 7},
    {"noip2015", "", "3334445", ILL, 0, 0},   /* triple chains take no wings */
    {"noip2015", "", "33344456", ILL, 0, 0},
    {"noip2015", "", "33344455", ILL, 0, 0},
    {"noip2015", "", "3334445566", ILL, 0, 0},
    {"noip2015", "", "333345", F2, '3', 1},
    {"noip2015", "", "3333XD", F2, '3', 1},   /* jokers as two singles */
    {"noip2015", "", "2222XD", F2, '2', 1},
    {"noip2015", "four_two_same=true", "333344", F2, '3', 1},
    {"noip2015", "four_two_same=true", "333355", F2, '3', 1},
    {"noip2015", "four_two_same=false", "333344", ILL, 0, 0},
    {"noip2015", "four_two_same=false", "333345", F2, '3', 1},
    {"noip2015", "", "33334455", F22, '3', 1},
    {"noip2015", "", "33334444", F22, '4', 1}, /* one play; reads from 3333 or 4444, higher main */
    {"noip2015", "four_two_same=false", "33334444", F22, '4', 1},
    {"noip2015", "", "33332222", F22, '2', 1},
    {"noip2015", "", "3333", BO, '3', 1},
    {"noip2015", "", "2222", BO, '2', 1},

    /* ================= PDK pdk16 ================= */
    {"pdk16", "", "3", SI, '3', 1},
    {"pdk16", "", "2", SI, '2', 1},
    {"pdk16", "", "A", SI, 'A', 1},
    {"pdk16", "", "33", PA, '3', 1},
    {"pdk16", "", "AA", PA, 'A', 1},
    {"pdk16", "", "22", NOPARSE, 0, 0},  /* one 2 in pdk16 */
    {"pdk16", "", "X", NOPARSE, 0, 0},
    {"pdk16", "", "XD", NOPARSE, 0, 0},
    {"pdk16", "", "AAAA", NOPARSE, 0, 0},
    {"pdk16", "", "333", TR, '3', 1},
    {"pdk16", "", "AAA", TR, 'A', 1},
    {"pdk16", "", "3334", T1, '3', 1},
    {"pdk16", "", "33344", T2, '3', 1},
    {"pdk16", "", "33345", T2, '3', 1},  /* 三带二: any two cards */
    {"pdk16", "", "33324", T2, '3', 1},
    {"pdk16", "", "KKKA2", T2, 'K', 1},
    {"pdk16", "", "AAA2K", T2, 'A', 1},
    {"pdk16", "", "44433", T2, '4', 1},
    {"pdk16", "", "33334", ILL, 0, 0},   /* a 4th 3 never rides as 333's kicker */
    {"pdk16", "", "333456", ILL, 0, 0},
    {"pdk16", "", "3333", BO, '3', 1},
    {"pdk16", "", "KKKK", BO, 'K', 1},
    {"pdk16", "", "333344", ILL, 0, 0},  /* four_with none in pdk16 */
    {"pdk16", "", "333345", ILL, 0, 0},
    {"pdk16", "", "3333456", ILL, 0, 0},
    {"pdk16", "", "3333444", ILL, 0, 0},
    {"pdk16", "", "3334444", ILL, 0, 0},
    {"pdk16", "", "33344445", ILL, 0, 0},
    {"pdk16", "", "33334444", ILL, 0, 0},
    {"pdk16", "", "34", ILL, 0, 0},
    /* straights */
    {"pdk16", "", "34567", ST, '3', 5},
    {"pdk16", "", "3456", ILL, 0, 0},
    {"pdk16", "", "TJQKA", ST, 'T', 5},
    {"pdk16", "", "3456789TJQKA", ST, '3', 12},
    {"pdk16", "", "JQKA2", ILL, 0, 0},
    {"pdk16", "", "QKA23", ILL, 0, 0},
    {"pdk16", "", "A2345", ILL, 0, 0},
    /* pair chains: min_pair_chain 3 by default, 2 as a flag */
    {"pdk16", "", "334455", PC, '3', 3},
    {"pdk16", "", "3344", ILL, 0, 0},
    {"pdk16", "min_pair_chain=3", "3344", ILL, 0, 0},
    {"pdk16", "min_pair_chain=2", "3344", PC, '3', 2},
    {"pdk16", "min_pair_chain=2", "KKAA", PC, 'K', 2},
    {"pdk16", "min_pair_chain=2", "3355", ILL, 0, 0},
    {"pdk16", "min_pair_chain=2", "33", PA, '3', 1},
    {"pdk16", "min_pair_chain=2", "334455", PC, '3', 3},
    {"pdk16", "", "QQKKAA", PC, 'Q', 3},
    {"pdk16", "", "33445566778899TT", PC, '3', 8},
    /* planes */
    {"pdk16", "", "333444", PL, '3', 2},
    {"pdk16", "", "KKKAAA", PL, 'K', 2},
    {"pdk16", "", "333555", ILL, 0, 0},
    {"pdk16", "", "3334445", P1, '3', 2},
    {"pdk16", "", "33344456", P1, '3', 2},
    {"pdk16", "", "33344455", P1, '3', 2},
    {"pdk16", "", "333444567", P1, '3', 2},
    {"pdk16", "", "KKKAAA2", P1, 'K', 2},
    {"pdk16", "", "3334445678", P2, '3', 2},
    {"pdk16", "", "3334445566", P2, '3', 2},
    {"pdk16", "", "3334442567", P2, '3', 2},
    {"pdk16", "", "3334445555", P2, '3', 2},  /* kickers may repeat, a bomb may be split */
    {"pdk16", "", "3334445556", P2, '4', 2},  /* 444555 + 3336 beats the short 333444555 + 6 */
    {"pdk16", "", "4445556667", P2, '5', 2},
    {"pdk16", "", "33344456789", ILL, 0, 0},  /* five kickers for two triples */
    {"pdk16", "", "333444555", P1, '4', 2},
    {"pdk16", "", "QQQKKKAAA", P1, 'K', 2},
    {"pdk16", "", "333444555666", P1, '4', 3},
    {"pdk16", "", "33344455567", P1, '3', 3},
    {"pdk16", "", "3334445556789T", P1, '3', 3},
    {"pdk16", "", "3334445556789TJ", P2, '3', 3},
    {"pdk16", "", "3334445556789TJQ", ILL, 0, 0},
    {"pdk16", "", "3334445556667", P1, '3', 4},   /* longer len before higher main */
    {"pdk16", "", "33344455566677", P1, '3', 4},
    /* short_triple = never / always / last */
    {"pdk16", "short_triple=never", "333", ILL, 0, 0},
    {"pdk16", "short_triple=never", "3334", ILL, 0, 0},
    {"pdk16", "short_triple=never", "33344", T2, '3', 1},
    {"pdk16", "short_triple=never", "333444", ILL, 0, 0},
    {"pdk16", "short_triple=never", "3334445", ILL, 0, 0},
    {"pdk16", "short_triple=never", "333444555", ILL, 0, 0},
    {"pdk16", "short_triple=never", "33344455566677", ILL, 0, 0},
    {"pdk16", "short_triple=never", "3334445678", P2, '3', 2},
    {"pdk16", "short_triple=never", "3334445556", P2, '4', 2},
    {"pdk16", "short_triple=never", "3333", BO, '3', 1},
    {"pdk16", "short_triple=always", "333", TR, '3', 1},
    {"pdk16", "short_triple=always", "3334", T1, '3', 1},
    {"pdk16", "short_triple=always", "333444555", P1, '4', 2},
    {"pdk16", "short_triple=always", "33334", ILL, 0, 0},
    {"pdk16", "short_triple=always", "3333", BO, '3', 1},
    {"pdk16", "short_triple=last", "3334", T1, '3', 1},
    /* four_with overrides */
    {"pdk16", "four_with=2", "333345", F2, '3', 1},
    {"pdk16", "four_with=2", "333344", F2, '3', 1},
    {"pdk16", "four_with=2", "3333456", ILL, 0, 0},
    {"pdk16", "four_with=2", "33334", ILL, 0, 0},
    {"pdk16", "four_with=3", "3333456", F3, '3', 1},
    {"pdk16", "four_with=3", "333345", ILL, 0, 0},
    {"pdk16", "four_with=both", "333345", F2, '3', 1},
    {"pdk16", "four_with=both", "3333456", F3, '3', 1},
    {"pdk16", "four_with=none", "333345", ILL, 0, 0},
    /* aaa_bomb */
    {"pdk16", "aaa_bomb=true", "AAA", BO, '*', 1},
    {"pdk16", "aaa_bomb=false", "AAA", TR, 'A', 1},
    {"pdk16", "aaa_bomb=true", "AAAKK", T2, 'A', 1},
    {"pdk16", "aaa_bomb=true", "AAAK", T1, 'A', 1},
    {"pdk16", "aaa_bomb=true", "KKKK", BO, 'K', 1},
    {"pdk16", "aaa_bomb=true", "KKKAAA", PL, 'K', 2},
    /* plane_single_wings: a plane + one single per triple, of distinct ranks, is full (its
     * shape stays plane_1; full or short shows in beats and under short_triple = never) */
    {"pdk16", "plane_single_wings=true", "33344456", P1, '3', 2},
    {"pdk16", "plane_single_wings=true", "3334442A", P1, '3', 2},
    {"pdk16", "plane_single_wings=true", "33344455", P1, '3', 2},   /* short: a repeated rank */
    {"pdk16", "plane_single_wings=true", "3334445", P1, '3', 2},    /* short: too few */
    {"pdk16", "plane_single_wings=true", "333444567", P1, '3', 2},  /* short: 3 for 2 triples */
    {"pdk16", "plane_single_wings=true", "333444555678", P1, '3', 3},
    {"pdk16", "plane_single_wings=true", "3334445678", P2, '3', 2},
    {"pdk16", "plane_single_wings=true", "3334445566", P2, '3', 2},
    {"pdk16", "plane_single_wings=true", "3334445556", P2, '4', 2},
    {"pdk16", "plane_single_wings=true", "33334445", ILL, 0, 0},    /* never a 4th 3 */
    {"pdk16", "plane_single_wings=true", "33344", T2, '3', 1},
    {"pdk16", "plane_single_wings=true,short_triple=never", "33344456", P1, '3', 2},
    {"pdk16", "plane_single_wings=true,short_triple=never", "333444555678", P1, '3', 3},
    {"pdk16", "plane_single_wings=true,short_triple=never", "33344455", ILL, 0, 0},
    {"pdk16", "plane_single_wings=true,short_triple=never", "3334445", ILL, 0, 0},
    {"pdk16", "plane_single_wings=true,short_triple=never", "333444", ILL, 0, 0},
    {"pdk16", "plane_single_wings=true,short_triple=never", "3334", ILL, 0, 0},
    {"pdk16", "plane_single_wings=false,short_triple=never", "33344456", ILL, 0, 0},
    /* plane_pair_wings: a full plane's wings are one pair per triple, of distinct ranks */
    {"pdk16", "plane_pair_wings=true", "3334445566", P2, '3', 2},
    {"pdk16", "plane_pair_wings=true", "333444KKAA", P2, '3', 2},
    {"pdk16", "plane_pair_wings=true", "333444555667788", P2, '3', 3},
    {"pdk16", "plane_pair_wings=true", "3334445678", ILL, 0, 0},
    {"pdk16", "plane_pair_wings=true", "3334445567", ILL, 0, 0},
    {"pdk16", "plane_pair_wings=true", "3334445555", ILL, 0, 0},   /* two pairs of one rank */
    {"pdk16", "plane_pair_wings=true", "3334445556", P1, '3', 3},  /* only the short 333444555 + 6 */
    {"pdk16", "plane_pair_wings=true", "33344455", P1, '3', 2},
    {"pdk16", "plane_pair_wings=true", "33345", T2, '3', 1},       /* 三带二 keeps any two */
    {"pdk16", "plane_pair_wings=true,short_triple=never", "3334445566", P2, '3', 2},
    {"pdk16", "plane_pair_wings=true,short_triple=never", "3334445556", ILL, 0, 0},
    {"pdk16", "plane_pair_wings=true,plane_single_wings=true", "33344456", P1, '3', 2},
    /* max_pair_chain */
    {"pdk16", "max_pair_chain=6", "334455667788", PC, '3', 6},
    {"pdk16", "max_pair_chain=6", "33445566778899", ILL, 0, 0},
    {"pdk16", "max_pair_chain=6", "33445566778899TT", ILL, 0, 0},
    {"pdk16", "max_pair_chain=0", "33445566778899TT", PC, '3', 8},
    {"pdk16", "", "33445566778899", PC, '3', 7},
    {"pdk16", "max_pair_chain=3", "334455", PC, '3', 3},
    {"pdk16", "max_pair_chain=3", "33445566", ILL, 0, 0},
    {"pdk16", "max_pair_chain=2,min_pair_chain=2", "3344", PC, '3', 2},
    {"pdk16", "max_pair_chain=2,min_pair_chain=2", "334455", ILL, 0, 0},
    {"pdk16", "max_pair_chain=6", "3456789TJQKA", ST, '3', 12},   /* straights: no cap */
    /* short_follow changes no shape */
    {"pdk16", "short_follow=false", "333", TR, '3', 1},
    {"pdk16", "short_follow=false", "3334", T1, '3', 1},
    {"pdk16", "short_follow=false", "3334445", P1, '3', 2},

    /* ================= PDK pdk15 ================= */
    {"pdk15", "", "A", SI, 'A', 1},
    {"pdk15", "", "AA", NOPARSE, 0, 0},
    {"pdk15", "", "KKKK", NOPARSE, 0, 0},
    {"pdk15", "", "22", NOPARSE, 0, 0},
    {"pdk15", "", "KKK", TR, 'K', 1},
    {"pdk15", "", "QQQQ", BO, 'Q', 1},
    {"pdk15", "", "KKKA2", T2, 'K', 1},
    {"pdk15", "", "3456789TJQKA", ST, '3', 12},
    {"pdk15", "", "JQKA2", ILL, 0, 0},
    {"pdk15", "", "JJQQKK", PC, 'J', 3},
    {"pdk15", "", "QQQKKKA2", P1, 'Q', 2},
    {"pdk15", "", "JJJQQQKKKA", P2, 'Q', 2},
    {"pdk15", "", "33334", ILL, 0, 0},

    /* ================= 关牌 guanpai ================= */
    {"guanpai", "", "333345", F2, '3', 1},
    {"guanpai", "", "333344", F2, '3', 1},
    {"guanpai", "", "444433", F2, '4', 1},
    {"guanpai", "", "55552A", F2, '5', 1},
    {"guanpai", "", "3333456", F3, '3', 1},
    {"guanpai", "", "3333452", F3, '3', 1},
    {"guanpai", "", "3333444", F3, '3', 1},
    {"guanpai", "", "3334444", F3, '4', 1},  /* never 333444 + 4 */
    {"guanpai", "", "3333445", F3, '3', 1},
    {"guanpai", "", "3333", BO, '3', 1},
    {"guanpai", "", "33334", ILL, 0, 0},
    {"guanpai", "", "33332", ILL, 0, 0},
    {"guanpai", "", "33334444", ILL, 0, 0},
    {"guanpai", "", "33334445", ILL, 0, 0},
    {"guanpai", "", "33334567", ILL, 0, 0},
    {"guanpai", "", "33344", T2, '3', 1},
    {"guanpai", "", "3334445", P1, '3', 2},
    {"guanpai", "", "3334445678", P2, '3', 2},
    {"guanpai", "", "34567", ST, '3', 5},
    {"guanpai", "", "22", NOPARSE, 0, 0},
    {"guanpai", "four_with=none", "333345", ILL, 0, 0},
    {"guanpai", "four_with=3", "333345", ILL, 0, 0},
    {"guanpai", "four_with=3", "3333456", F3, '3', 1},
    {"guanpai", "four_with=2", "3333456", ILL, 0, 0},
};

typedef struct brow {
    const char *preset;
    const char *flags;
    const char *play;
    const char *table;
    bool whole;    /* the play empties the hand */
    bool expect;
    bool any;      /* true: some reading of play (cb_readings) beats; false: the canonical one */
} brow;

static const brow beats_rows[] = {
    /* ---- DDZ ---- */
    {"ddz", "", "4", "3", false, true, false},
    {"ddz", "", "3", "4", false, false, false},
    {"ddz", "", "4", "4", false, false, false},
    {"ddz", "", "D", "X", false, true, false},
    {"ddz", "", "X", "D", false, false, false},
    {"ddz", "", "X", "2", false, true, false},
    {"ddz", "", "2", "A", false, true, false},
    {"ddz", "", "44", "33", false, true, false},
    {"ddz", "", "22", "AA", false, true, false},
    {"ddz", "", "44", "3", false, false, false},
    {"ddz", "", "5553", "4446", false, true, false},
    {"ddz", "", "4443", "4446", false, false, false},
    {"ddz", "", "55533", "4446", false, false, false},
    {"ddz", "", "55533", "44466", false, true, false},
    {"ddz", "", "555", "4445", true, false, false},   /* no short-tail exception in DDZ */
    {"ddz", "", "45678", "34567", false, true, false},
    {"ddz", "", "456789", "34567", false, false, false},
    {"ddz", "", "34567", "45678", false, false, false},
    {"ddz", "", "445566", "334455", false, true, false},
    {"ddz", "", "44556677", "334455", false, false, false},
    {"ddz", "", "444555", "333444", false, true, false},
    {"ddz", "", "44455536", "33344479", false, true, false},
    {"ddz", "", "4445553366", "33344479", false, false, false},
    {"ddz", "", "3333", "22", false, true, false},
    {"ddz", "", "3333", "AAA22", false, true, false},
    {"ddz", "", "3333", "3456789TJQKA", false, true, false},
    {"ddz", "", "4444", "3333", false, true, false},
    {"ddz", "", "3333", "4444", false, false, false},
    {"ddz", "", "XD", "2222", false, true, false},
    {"ddz", "", "2222", "XD", false, false, false},
    {"ddz", "", "XD", "3", false, true, false},
    {"ddz", "", "XD", "222233", false, true, false},
    {"ddz", "", "444456", "333378", false, true, false},
    {"ddz", "", "444466", "333378", false, true, false},
    {"ddz", "", "333378", "444456", false, false, false},
    {"ddz", "", "3333", "222234", false, true, false},  /* any bomb beats a 4+2 */
    {"ddz", "", "222234", "3333", false, false, false}, /* 4+2 is not a bomb */
    {"ddz", "", "44445566", "33337788", false, true, false},
    {"ddz", "", "444456", "33337788", false, false, false},
    {"ddz", "", "33337788", "444456", false, false, false},
    {"ddz", "rocket_kickers=true", "4444", "3333XD", false, true, false},
    {"ddz", "rocket_kickers=true", "3333XD", "4444", false, false, false},

    /* ---- PDK pdk16 (short_triple = last) ---- */
    {"pdk16", "", "2", "A", false, true, false},
    {"pdk16", "", "A", "K", false, true, false},
    {"pdk16", "", "44455", "33366", false, true, false},
    {"pdk16", "", "33366", "44455", false, false, false},
    {"pdk16", "", "44433", "33344", false, true, false},
    {"pdk16", "", "44433", "33344", true, true, false},
    {"pdk16", "", "555", "44478", true, true, false},    /* 甩尾: bare triple as last play */
    {"pdk16", "", "555", "44478", false, false, false},
    {"pdk16", "", "5556", "44478", true, true, false},   /* 三带一 as last play */
    {"pdk16", "", "5556", "44478", false, false, false},
    {"pdk16", "", "4443", "44478", true, false, false},  /* not higher */
    {"pdk16", "", "3334", "44478", true, false, false},
    {"pdk16", "", "444555", "3334445678", true, true, false},   /* short plane, as many triples */
    {"pdk16", "", "444555", "3334445678", false, false, false},
    {"pdk16", "", "4445556", "3334445678", true, true, false},
    {"pdk16", "", "4445556", "3334445678", false, false, false},
    {"pdk16", "", "333444", "4445556789", true, false, false},
    {"pdk16", "", "444555", "3334445556789TJ", true, false, false}, /* fewer triples */
    {"pdk16", "", "5556667788", "3334445678", false, true, false},
    {"pdk16", "", "5556667788", "3334445556789TJ", false, false, false},
    /* 4445556667 is canonically a full plane of two (555666 + 4447); as a whole hand its short
     * reading 444555666 + 7 follows a full plane of three */
    {"pdk16", "", "4445556667", "3334445556789TJ", true, false, false},
    {"pdk16", "", "4445556667", "3334445556789TJ", true, true, true},
    {"pdk16", "", "4445556667", "3334445556789TJ", false, false, true},
    {"pdk16", "", "4445556667", "3334445678", false, true, false},
    {"pdk16", "", "3333", "44455", false, true, false},
    {"pdk16", "", "3333", "34567", false, true, false},
    {"pdk16", "", "3333", "3334445678", false, true, false},
    {"pdk16", "", "4444", "3333", false, true, false},
    {"pdk16", "", "44455", "3333", false, false, false},
    {"pdk16", "", "45678", "34567", false, true, false},
    {"pdk16", "", "3456789", "34567", false, false, false},
    {"pdk16", "", "445566", "334455", false, true, false},
    {"pdk16", "min_pair_chain=2", "4455", "3344", false, true, false},
    {"pdk16", "min_pair_chain=2", "4455", "334455", false, false, false},
    {"pdk16", "aaa_bomb=true", "AAA", "KKKK", false, true, false},
    {"pdk16", "aaa_bomb=true", "KKKK", "AAA", false, false, false},
    {"pdk16", "aaa_bomb=true", "AAA", "44455", false, true, false},
    {"pdk16", "aaa_bomb=true", "AAA", "2", false, true, false},
    {"pdk16", "short_triple=always", "555", "444", false, true, false},
    {"pdk16", "short_triple=always", "5556", "4447", false, true, false},
    {"pdk16", "short_triple=always", "4447", "5556", false, false, false},
    {"pdk16", "short_triple=always", "5556", "44478", true, true, false},
    {"pdk16", "four_with=2", "3333", "444456", false, true, false},
    /* plane_single_wings: 飞机带单 against itself by the chain; never against 飞机带二 */
    {"pdk16", "plane_single_wings=true", "44455567", "33344456", false, true, false},
    {"pdk16", "plane_single_wings=true", "33344456", "44455567", false, false, false},
    {"pdk16", "plane_single_wings=true", "444555666789", "333444555TJQ", false, true, false},
    {"pdk16", "plane_single_wings=true", "44455567", "333444555678", false, false, false},
    {"pdk16", "plane_single_wings=true", "44455567", "3334445678", false, false, false},
    {"pdk16", "plane_single_wings=true", "4445556677", "33344456", false, false, false},
    {"pdk16", "plane_single_wings=true", "3333", "33344456", false, true, false},
    /* ... 甩尾 over it: a plane of as many triples, as many or fewer cards, emptying the hand */
    {"pdk16", "plane_single_wings=true", "44455566", "33344456", true, true, false},
    {"pdk16", "plane_single_wings=true", "44455566", "33344456", false, false, false},
    {"pdk16", "plane_single_wings=true", "4445556", "33344456", true, true, false},
    {"pdk16", "plane_single_wings=true", "444555", "33344456", true, true, false},
    {"pdk16", "plane_single_wings=true", "444555", "33344456", false, false, false},
    {"pdk16", "plane_single_wings=true", "333444", "44455567", true, false, false},
    {"pdk16", "plane_single_wings=true", "4445556", "333444555678", true, false, false},
    /* ... and a full single-wings plane emptying the hand still follows 飞机带二 (甩尾) */
    {"pdk16", "plane_single_wings=true", "44455567", "3334445678", true, true, false},
    {"pdk16", "plane_single_wings=true,short_triple=never", "44455567", "3334445678", true, false, false},
    {"pdk16", "plane_single_wings=true,short_follow=false", "44455567", "3334445678", true, false, false},
    {"pdk16", "plane_single_wings=true,short_follow=false", "44455566", "33344456", true, false, false},
    {"pdk16", "plane_single_wings=true,short_follow=false", "444555", "33344456", true, false, false},
    /* ... short_triple = always: short over short of one size, full over short, never short
     * over full but as the last play */
    {"pdk16", "plane_single_wings=true,short_triple=always", "44455566", "33344455", false, true, false},
    {"pdk16", "plane_single_wings=true,short_triple=always", "44455567", "33344455", false, true, false},
    {"pdk16", "plane_single_wings=true,short_triple=always", "44455566", "33344456", false, false, false},
    {"pdk16", "plane_single_wings=true,short_triple=always", "44455566", "33344456", true, true, false},
    {"pdk16", "plane_single_wings=false,short_triple=always", "44455566", "33344456", false, true, false},
    /* plane_pair_wings */
    {"pdk16", "plane_pair_wings=true", "4445556677", "3334448899", false, true, false},
    {"pdk16", "plane_pair_wings=true", "3334448899", "4445556677", false, false, false},
    {"pdk16", "plane_pair_wings=true", "444555", "3334448899", true, true, false},
    /* short_follow = false: no 甩尾 */
    {"pdk16", "short_follow=true", "555", "44478", true, true, false},
    {"pdk16", "short_follow=false", "555", "44478", true, false, false},
    {"pdk16", "short_follow=false", "5556", "44478", true, false, false},
    {"pdk16", "short_follow=false", "444555", "3334445678", true, false, false},
    {"pdk16", "short_follow=false", "4445556", "3334445678", true, false, false},
    {"pdk16", "short_follow=false", "4445556667", "3334445556789TJ", true, false, true},
    {"pdk16", "short_follow=false", "44455", "33366", true, true, false},
    {"pdk16", "short_follow=false", "5556667788", "3334445678", true, true, false},
    {"pdk16", "short_follow=false,short_triple=always", "5556", "4447", false, true, false},
    {"pdk16", "short_follow=false,short_triple=always", "5556", "4447", true, true, false},
    {"pdk16", "short_follow=false,short_triple=always", "5556", "44478", true, false, false},
    /* max_pair_chain leaves shorter chains as they were */
    {"pdk16", "max_pair_chain=6", "445566778899", "334455667788", false, true, false},

    /* ---- guanpai ---- */
    {"guanpai", "", "444456", "333378", false, true, false},
    {"guanpai", "", "4444567", "3333789", false, true, false},
    {"guanpai", "", "444456", "3333789", false, false, false},
    {"guanpai", "", "4444567", "333378", false, false, false},
    {"guanpai", "", "3333", "444456", false, true, false},
    {"guanpai", "", "444456", "3333", false, false, false},
    {"guanpai", "", "3333", "4444567", false, true, false},
    {"guanpai", "", "4444567", "3333", false, false, false},

    /* ---- noip2015 ---- */
    {"noip2015", "", "55556666", "33334444", false, true, false},
    {"noip2015", "", "3333", "22223X", false, true, false},
    {"noip2015", "", "XD", "2222", false, true, false},
};

/* readings that must (or must not) be among cb_readings */
typedef struct rrow {
    const char *preset;
    const char *flags;
    const char *cards;
    int shape;
    char main;
    int len;
    bool present;
} rrow;

static const rrow reading_rows[] = {
    {"pdk16", "", "4445556667", P1, '4', 3, true},
    {"pdk16", "", "4445556667", P2, '5', 2, true},
    {"pdk16", "", "4445556667", P2, '4', 2, true},
    {"pdk16", "", "333444555", PL, '3', 3, true},
    {"pdk16", "", "333444555", P1, '3', 2, true},
    {"pdk16", "", "333444555", P1, '4', 2, true},
    {"pdk16", "", "3334445556667", P1, '4', 3, true},
    {"pdk16", "", "3333", T1, '3', 1, false},
    {"pdk16", "short_triple=always", "3333", T1, '3', 1, false},
    {"pdk16", "aaa_bomb=true", "AAA", BO, '*', 1, true},
    {"pdk16", "aaa_bomb=true", "AAA", TR, 'A', 1, true},
    {"pdk16", "short_triple=never", "3334445556", P1, '3', 3, false},
    {"ddz", "", "333444555666", P1, '3', 3, false},
    {"ddz", "", "333444555666", P1, '4', 3, false},
    {"noip2015", "", "33334444", F22, '3', 1, true},
    {"noip2015", "", "33334444", F22, '4', 1, true},
    {"pdk16", "plane_pair_wings=true", "3334445556", P2, '4', 2, false},
    {"pdk16", "plane_pair_wings=true", "3334445556", P2, '3', 2, false},
    {"pdk16", "plane_pair_wings=true", "3334445556", P1, '3', 3, true},
    {"pdk16", "plane_single_wings=true", "33344456", P1, '3', 2, true},
    {"pdk16", "max_pair_chain=6", "33445566778899", PC, '3', 7, false},
};

/* exact numbers of readings where the rules text leaves no doubt */
typedef struct nrow {
    const char *preset;
    const char *flags;
    const char *cards;
    int n;
} nrow;

static const nrow count_rows[] = {
    {"pdk16", "", "3333", 1},
    {"pdk16", "short_triple=always", "3333", 1},
    {"pdk16", "", "33334", 0},
    {"pdk16", "", "333444", 1},
    {"pdk16", "", "333444555", 3},
    {"pdk16", "short_triple=never", "333444555", 0},
    {"pdk16", "aaa_bomb=true", "AAA", 2},
    {"ddz", "", "3333", 1},
    {"ddz", "", "333444555666", 1},
    {"ddz", "", "33334444", 0},
    {"ddz", "", "XD", 1},
    {"noip2015", "", "33334444", 2},
    {"guanpai", "", "3334444", 1},
    {"pdk16", "", "3334445556", 3},
    {"pdk16", "plane_pair_wings=true", "3334445556", 1},
    {"pdk16", "plane_pair_wings=true,short_triple=never", "3334445556", 0},
    {"pdk16", "plane_single_wings=true", "33344456", 1},
    {"pdk16", "plane_single_wings=true,short_triple=never", "33344456", 1},
    {"pdk16", "plane_single_wings=true,short_triple=never", "33344455", 0},
    {"pdk16", "max_pair_chain=6", "33445566778899", 0},
};

/* ---- helpers ---- */

static int rank_of(char c)
{
    if (c == '*') return CB_MAIN_AAA;
    const char *p = strchr("3456789TJQKA2XD", c);
    return p ? (int)(p - "3456789TJQKA2XD") : -1;
}

/* Build the rules of a row: preset, then each "key=value" of flags through cb_rules_set. */
static void make_rules(const char *preset, const char *flags, cb_rules *r)
{
    char err[160] = "";
    assert_int_equal(cb_rules_preset(preset, r), 0);
    char buf[160];
    snprintf(buf, sizeof buf, "%s", flags);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        char *eq = strchr(tok, '=');
        assert_non_null(eq);
        *eq = '\0';
        int rc = cb_rules_set(r, tok, eq + 1, err, sizeof err);
        if (rc != 0) print_error("cb_rules_set(%s, %s): %s\n", tok, eq + 1, err);
        assert_int_equal(rc, 0);
    }
}

static cb_counts counts(const cb_rules *r, const char *text)
{
    char err[160] = "";
    cb_counts k = 0;
    int rc = cb_counts_parse(text, r->deck, &k, err, sizeof err);
    if (rc != 0) print_error("cannot parse \"%s\" in %s: %s\n", text, r->preset, err);
    assert_int_equal(rc, 0);
    return k;
}

/* PDK short readings; under plane_single_wings a plane + L singles of L distinct ranks (none
 * in the chain) is full. */
static bool is_short(const cb_rules *r, const cb_move *m)
{
    if (r->game != CB_GAME_PDK)
        return false;
    if (m->shape == CB_PLANE_1 && r->plane_single_wings && m->kick == m->len) {
        bool distinct = true;
        for (int i = 0; i < CB_NRANKS; i++)
            if ((i < m->main || i >= m->main + m->len) && cb_count(m->counts, i) > 1)
                distinct = false;
        if (distinct)
            return false;
    }
    return m->shape == CB_TRIPLE || m->shape == CB_TRIPLE_1 || m->shape == CB_PLANE ||
           m->shape == CB_PLANE_1;
}

/* Cards in the main part of a move of this shape (the rest are kickers). */
static int main_cards(int shape, int main, int len)
{
    switch (shape) {
    case CB_SINGLE: return 1;
    case CB_PAIR: return 2;
    case CB_TRIPLE: case CB_TRIPLE_1: case CB_TRIPLE_2: return 3;
    case CB_STRAIGHT: return len;
    case CB_PAIR_CHAIN: return 2 * len;
    case CB_PLANE: case CB_PLANE_1: case CB_PLANE_2: return 3 * len;
    case CB_FOUR_2: case CB_FOUR_22: case CB_FOUR_3: return 4;
    case CB_BOMB: return main == CB_MAIN_AAA ? 3 : 4;
    case CB_ROCKET: return 2;
    default: return -1;
    }
}

/* Is a at least as canonical as b: not short, then shape, then len, then main. */
static int canon_cmp(const cb_rules *r, const cb_move *a, const cb_move *b)
{
    int sa = !is_short(r, a), sb = !is_short(r, b);
    if (sa != sb) return sa - sb;
    if (a->shape != b->shape) return (int)a->shape - (int)b->shape;
    if (a->len != b->len) return (int)a->len - (int)b->len;
    return (int)a->main - (int)b->main;
}

static const char *shape_name(int s)
{
    if (s == ILL) return "illegal";
    if (s < 0 || s >= CB_NSHAPES) return "?";
    return cb_shape_names[s] ? cb_shape_names[s] : "?";
}

#define MAXR 512

/* ---- tests ---- */

static void test_classify_table(void **state)
{
    (void)state;
    int n = (int)(sizeof classify_rows / sizeof classify_rows[0]);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        const crow *w = &classify_rows[i];
        cb_rules r;
        make_rules(w->preset, w->flags, &r);
        char err[160] = "";
        cb_counts k = 0;
        int rc = cb_counts_parse(w->cards, r.deck, &k, err, sizeof err);
        if (w->shape == NOPARSE) {
            if (rc != -1 || err[0] == '\0') {
                print_error("row %d %s [%s] \"%s\": expected a parse error, rc %d\n", i,
                            w->preset, w->flags, w->cards, rc);
                bad++;
            }
            /* the card text must fail as cards too */
            cb_cards c = 0;
            if (cb_cards_parse(w->cards, r.deck, &c, NULL, 0) != -1) bad++;
            continue;
        }
        if (rc != 0) {
            print_error("row %d %s \"%s\": parse failed: %s\n", i, w->preset, w->cards, err);
            bad++;
            continue;
        }
        cb_move m;
        memset(&m, 0, sizeof m);
        char why[160] = "";
        bool ok = cb_classify(&r, k, &m, why, sizeof why);
        if (w->shape == ILL) {
            if (ok) {
                print_error("row %d %s [%s] \"%s\": expected illegal, got %s main %d len %d\n", i,
                            w->preset, w->flags, w->cards, shape_name(m.shape), m.main, m.len);
                bad++;
            } else if (why[0] == '\0') {
                print_error("row %d %s \"%s\": illegal without a reason\n", i, w->preset, w->cards);
                bad++;
            }
            continue;
        }
        int want_main = rank_of(w->main);
        if (!ok || m.shape != w->shape || m.main != want_main || m.len != w->len) {
            if (ok)
                print_error("row %d %s [%s] \"%s\": expected %s main %d len %d, got %s main %d len %d\n",
                            i, w->preset, w->flags, w->cards, shape_name(w->shape), want_main,
                            w->len, shape_name(m.shape), m.main, m.len);
            else
                print_error("row %d %s [%s] \"%s\": expected %s main %d len %d, got illegal (%s)\n",
                            i, w->preset, w->flags, w->cards, shape_name(w->shape), want_main,
                            w->len, why);
            bad++;
            continue;
        }
        int total = cb_counts_total(k);
        if (m.counts != k || m.ncards != total ||
            m.kick != total - main_cards(w->shape, want_main, w->len)) {
            print_error("row %d %s \"%s\": counts/ncards/kick wrong (ncards %d kick %d)\n", i,
                        w->preset, w->cards, m.ncards, m.kick);
            bad++;
        }
    }
    print_message("classify rows: %d, disagreements: %d\n", n, bad);
    assert_int_equal(bad, 0);
}

/* cb_readings agrees with cb_classify on every row: some reading iff legal, the canonical
 * reading is among them and is not beaten by any other under the canonical order. */
static void test_readings_consistent(void **state)
{
    (void)state;
    int n = (int)(sizeof classify_rows / sizeof classify_rows[0]);
    int bad = 0;
    static cb_move rd[MAXR];
    for (int i = 0; i < n; i++) {
        const crow *w = &classify_rows[i];
        if (w->shape == NOPARSE) continue;
        cb_rules r;
        make_rules(w->preset, w->flags, &r);
        cb_counts k = counts(&r, w->cards);
        cb_move m;
        bool ok = cb_classify(&r, k, &m, NULL, 0);
        int nr = cb_readings(&r, k, rd, MAXR);
        if (nr > MAXR) nr = MAXR;
        if (ok != (nr > 0)) {
            print_error("row %d %s \"%s\": classify %d but %d readings\n", i, w->preset, w->cards,
                        ok, nr);
            bad++;
            continue;
        }
        bool found = false;
        for (int j = 0; j < nr; j++) {
            if (rd[j].counts != k) {
                print_error("row %d \"%s\": reading %d has other counts\n", i, w->cards, j);
                bad++;
            }
            if (ok && rd[j].shape == m.shape && rd[j].main == m.main && rd[j].len == m.len) found = true;
            if (ok && canon_cmp(&r, &rd[j], &m) > 0) {
                print_error("row %d %s \"%s\": reading %s main %d len %d is more canonical than "
                            "classify's %s main %d len %d\n", i, w->preset, w->cards,
                            shape_name(rd[j].shape), rd[j].main, rd[j].len, shape_name(m.shape),
                            m.main, m.len);
                bad++;
            }
        }
        if (ok && !found) {
            print_error("row %d \"%s\": canonical reading missing from cb_readings\n", i, w->cards);
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

static void test_reading_rows(void **state)
{
    (void)state;
    int bad = 0;
    static cb_move rd[MAXR];
    for (size_t i = 0; i < sizeof reading_rows / sizeof reading_rows[0]; i++) {
        const rrow *w = &reading_rows[i];
        cb_rules r;
        make_rules(w->preset, w->flags, &r);
        cb_counts k = counts(&r, w->cards);
        int nr = cb_readings(&r, k, rd, MAXR);
        if (nr > MAXR) nr = MAXR;
        bool found = false;
        for (int j = 0; j < nr; j++)
            if (rd[j].shape == w->shape && rd[j].main == rank_of(w->main) && rd[j].len == w->len)
                found = true;
        if (found != w->present) {
            print_error("readings %s [%s] \"%s\": %s main %c len %d expected %s\n", w->preset,
                        w->flags, w->cards, shape_name(w->shape), w->main, w->len,
                        w->present ? "present" : "absent");
            bad++;
        }
    }
    for (size_t i = 0; i < sizeof count_rows / sizeof count_rows[0]; i++) {
        const nrow *w = &count_rows[i];
        cb_rules r;
        make_rules(w->preset, w->flags, &r);
        cb_counts k = counts(&r, w->cards);
        int nr = cb_readings(&r, k, rd, MAXR);
        if (nr != w->n) {
            print_error("readings %s [%s] \"%s\": expected %d, got %d\n", w->preset, w->flags,
                        w->cards, w->n, nr);
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

static void test_beats_table(void **state)
{
    (void)state;
    int n = (int)(sizeof beats_rows / sizeof beats_rows[0]);
    int bad = 0;
    static cb_move rd[MAXR];
    for (int i = 0; i < n; i++) {
        const brow *w = &beats_rows[i];
        cb_rules r;
        make_rules(w->preset, w->flags, &r);
        cb_counts kp = counts(&r, w->play), kt = counts(&r, w->table);
        cb_move p, t;
        char why[160] = "";
        if (!cb_classify(&r, kt, &t, why, sizeof why)) {
            print_error("beats row %d: table \"%s\" does not classify: %s\n", i, w->table, why);
            bad++;
            continue;
        }
        bool got = false;
        if (w->any) {
            int nr = cb_readings(&r, kp, rd, MAXR);
            if (nr > MAXR) nr = MAXR;
            for (int j = 0; j < nr; j++)
                if (cb_beats(&r, &rd[j], &t, w->whole)) got = true;
        } else {
            if (!cb_classify(&r, kp, &p, why, sizeof why)) {
                print_error("beats row %d: play \"%s\" does not classify: %s\n", i, w->play, why);
                bad++;
                continue;
            }
            got = cb_beats(&r, &p, &t, w->whole);
        }
        if (got != w->expect) {
            print_error("beats row %d %s [%s]: \"%s\" over \"%s\"%s%s: expected %s, got %s\n", i,
                        w->preset, w->flags, w->play, w->table, w->whole ? " (whole hand)" : "",
                        w->any ? " (any reading)" : "", w->expect ? "true" : "false",
                        got ? "true" : "false");
            bad++;
        }
    }
    print_message("beats rows: %d, disagreements: %d\n", n, bad);
    assert_int_equal(bad, 0);
}

/* Generic properties of cb_beats over every pair of legal table rows of one rule set:
 * irreflexive, antisymmetric for non-short plays, a rocket beats everything else, a bomb beats
 * every non-bomb. */
static void test_beats_properties(void **state)
{
    (void)state;
    const char *presets[] = {"ddz", "pdk16", "guanpai", "noip2015"};
    static cb_move mv[256];
    int bad = 0;
    for (size_t p = 0; p < 4; p++) {
        cb_rules r;
        make_rules(presets[p], "", &r);
        int nm = 0;
        for (size_t i = 0; i < sizeof classify_rows / sizeof classify_rows[0] && nm < 256; i++) {
            const crow *w = &classify_rows[i];
            if (strcmp(w->preset, presets[p]) != 0 || w->flags[0] || w->shape < 0) continue;
            cb_counts k = counts(&r, w->cards);
            if (cb_classify(&r, k, &mv[nm], NULL, 0)) nm++;
        }
        for (int a = 0; a < nm; a++) {
            for (int b = 0; b < nm; b++) {
                bool ab = cb_beats(&r, &mv[a], &mv[b], false);
                bool ba = cb_beats(&r, &mv[b], &mv[a], false);
                if (a == b && ab) bad++, print_error("%s: a play beats itself\n", presets[p]);
                if (ab && ba) bad++, print_error("%s: %d and %d beat each other\n", presets[p], a, b);
                bool abomb = mv[a].shape == CB_BOMB || mv[a].shape == CB_ROCKET;
                bool bbomb = mv[b].shape == CB_BOMB || mv[b].shape == CB_ROCKET;
                if (mv[a].shape == CB_ROCKET && mv[b].shape != CB_ROCKET && !ab)
                    bad++, print_error("%s: rocket does not beat shape %d\n", presets[p], mv[b].shape);
                if (abomb && !bbomb && !ab)
                    bad++, print_error("%s: bomb does not beat shape %d\n", presets[p], mv[b].shape);
                if (!abomb && bbomb && ab)
                    bad++, print_error("%s: shape %d beats a bomb\n", presets[p], mv[a].shape);
                if (!abomb && ab && (mv[a].shape != mv[b].shape || mv[a].len != mv[b].len ||
                                     mv[a].ncards != mv[b].ncards))
                    bad++, print_error("%s: shape %d len %d beats shape %d len %d\n", presets[p],
                                       mv[a].shape, mv[a].len, mv[b].shape, mv[b].len);
            }
        }
    }
    assert_int_equal(bad, 0);
}

/* The four PDK house rules as keys: defaults in every preset, refused outside PDK unless at
 * their default, ranges, cb_rules_equal, the reasons given, and the flow rule in cb_play_legal. */
static void test_house_rule_keys(void **state)
{
    (void)state;
    static const char *const keys[] = {"plane_single_wings", "plane_pair_wings", "short_follow",
                                       "max_pair_chain"};
    static const char *const on[] = {"true", "true", "false", "6"};
    static const char *const dflt[] = {"false", "false", "true", "0"};
    const char *presets[] = {"pdk16", "pdk15", "guanpai", "ddz", "noip2015"};
    for (size_t p = 0; p < 5; p++) {
        cb_rules r, x;
        make_rules(presets[p], "", &r);
        assert_false(r.plane_single_wings);
        assert_false(r.plane_pair_wings);
        assert_true(r.short_follow);
        assert_int_equal(r.max_pair_chain, 0);
        bool pdk = r.game == CB_GAME_PDK;
        for (size_t k = 0; k < 4; k++) {
            bool listed = false;
            for (int j = 0; cb_rules_keys[j]; j++)
                listed |= strcmp(cb_rules_keys[j], keys[k]) == 0;
            assert_true(listed);
            char err[200] = "";
            x = r;
            assert_int_equal(cb_rules_set(&x, keys[k], dflt[k], err, sizeof err), 0);
            assert_true(cb_rules_equal(&x, &r));
            int rc = cb_rules_set(&x, keys[k], on[k], err, sizeof err);
            if (pdk) {
                assert_int_equal(rc, 0);
                assert_false(cb_rules_equal(&x, &r)); /* cb_rules_equal sees the member */
            } else {
                assert_int_equal(rc, -1);
                assert_non_null(strstr(err, keys[k]));
                assert_true(cb_rules_equal(&x, &r)); /* refused: unchanged */
            }
        }
    }
    cb_rules r;
    make_rules("pdk16", "", &r);
    assert_int_equal(cb_rules_set(&r, "max_pair_chain", "12", NULL, 0), 0);
    assert_int_equal(cb_rules_set(&r, "max_pair_chain", "13", NULL, 0), -1);
    assert_int_equal(cb_rules_set(&r, "max_pair_chain", "-1", NULL, 0), -1);
    assert_int_equal(cb_rules_set(&r, "plane_pair_wings", "maybe", NULL, 0), -1);

    /* the reasons name the flag */
    char why[200] = "";
    make_rules("pdk16", "plane_pair_wings=true", &r);
    assert_false(cb_classify(&r, counts(&r, "3334445678"), NULL, why, sizeof why));
    assert_non_null(strstr(why, "plane_pair_wings"));
    make_rules("pdk16", "max_pair_chain=6", &r);
    assert_false(cb_classify(&r, counts(&r, "33445566778899"), NULL, why, sizeof why));
    assert_non_null(strstr(why, "max_pair_chain"));

    /* short_follow = false: 555 may still end the game leading, never over 44478 */
    cb_move t, m;
    make_rules("pdk16", "short_follow=false", &r);
    assert_true(cb_classify(&r, counts(&r, "44478"), &t, NULL, 0));
    cb_ctx ctx = {.hand = counts(&r, "555")};
    assert_true(cb_play_legal(&r, &ctx, ctx.hand, &m, NULL, 0));
    ctx.table = &t;
    assert_false(cb_play_legal(&r, &ctx, ctx.hand, &m, why, sizeof why));
    assert_non_null(strstr(why, "short_follow"));
    make_rules("pdk16", "", &r);
    assert_true(cb_play_legal(&r, &ctx, ctx.hand, &m, NULL, 0));

    /* plane_single_wings: 333444 + 56 is a play before the last one, 333444 + 55 is not */
    make_rules("pdk16", "plane_single_wings=true", &r);
    ctx = (cb_ctx){.hand = counts(&r, "3334445566")};
    assert_true(cb_play_legal(&r, &ctx, counts(&r, "33344456"), &m, NULL, 0));
    assert_int_equal(m.shape, CB_PLANE_1);
    assert_false(cb_play_legal(&r, &ctx, counts(&r, "33344455"), &m, NULL, 0));
    make_rules("pdk16", "", &r);
    assert_false(cb_play_legal(&r, &ctx, counts(&r, "33344456"), &m, NULL, 0));
}

/* A key the rules' game never reads (rules.h marks each member's game) takes only the value
 * that game's preset holds, which changes nothing; any other value is refused naming the key
 * and the preset, the rules unchanged. The config's [rules] and the CLI's --flag come here. */
/* cb_rules_get reads every flag back as cb_rules_set takes it: on each preset, each key's text
 * set on a fresh copy of the preset changes nothing; a changed flag reads back changed; the
 * kind matches the text; an unknown key is -1. */
static void test_rules_get(void **state)
{
    (void)state;
    static const char *const presets[] = {"pdk16", "pdk15", "guanpai", "ddz", "noip2015"};
    for (size_t p = 0; p < sizeof presets / sizeof presets[0]; p++) {
        cb_rules r, back;
        assert_int_equal(cb_rules_preset(presets[p], &r), 0);
        for (int k = 0; cb_rules_keys[k]; k++) {
            char text[32];
            cb_flag_kind kind;
            assert_int_equal(cb_rules_get(&r, cb_rules_keys[k], text, sizeof text, &kind), 0);
            back = r;
            assert_int_equal(cb_rules_set(&back, cb_rules_keys[k], text, NULL, 0), 0);
            assert_true(cb_rules_equal(&back, &r));
            if (kind == CB_FLAG_BOOL)
                assert_true(!strcmp(text, "true") || !strcmp(text, "false"));
            if (kind == CB_FLAG_NUMBER)
                assert_true(text[0] >= '0' && text[0] <= '9');
        }
    }
    cb_rules r;
    assert_int_equal(cb_rules_preset("pdk16", &r), 0);
    assert_int_equal(cb_rules_set(&r, "short_triple", "always", NULL, 0), 0);
    assert_int_equal(cb_rules_set(&r, "card_points", "7", NULL, 0), 0);
    char text[32];
    assert_int_equal(cb_rules_get(&r, "short_triple", text, sizeof text, NULL), 0);
    assert_string_equal(text, "always");
    assert_int_equal(cb_rules_get(&r, "card_points", text, sizeof text, NULL), 0);
    assert_string_equal(text, "7");
    assert_int_equal(cb_rules_get(&r, "no_such_key", text, sizeof text, NULL), -1);
}

static void test_keys_of_other_games(void **state)
{
    (void)state;
    static const struct {
        const char *preset, *key, *value;
    } refused[] = {
        {"ddz", "bao", "true"},           {"ddz", "bao_points", "10"},      {"ddz", "card_points", "1"},
        {"ddz", "spring_double", "true"}, {"ddz", "bomb_points", "10"},     {"ddz", "aaa_bomb", "true"},
        {"ddz", "short_triple", "last"},  {"ddz", "four_with", "both"},     {"ddz", "spade3_first", "true"},
        {"ddz", "four_two_same", "true"}, {"noip2015", "rob", "true"},      {"noip2015", "rocket_kickers", "true"},
        {"noip2015", "bao", "true"},      {"pdk16", "rob", "true"},         {"pdk15", "rocket_kickers", "true"},
        {"guanpai", "four_two_same", "true"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        cb_rules r, x;
        make_rules(refused[i].preset, "", &r);
        x = r;
        char err[300] = "";
        if (cb_rules_set(&x, refused[i].key, refused[i].value, err, sizeof err) != -1)
            fail_msg("%s: %s = %s accepted", refused[i].preset, refused[i].key, refused[i].value);
        if (!strstr(err, refused[i].key) || !strstr(err, refused[i].preset))
            fail_msg("%s: %s = %s: \"%s\" names neither", refused[i].preset, refused[i].key, refused[i].value, err);
        assert_true(cb_rules_equal(&x, &r));
    }
    /* each game's own values of the keys it does not read: written back, nothing changes */
    static const struct {
        const char *presets, *flags;
    } own[] = {
        {"ddz", "bao=false,bao_points=0,card_points=0,spring_double=false,bomb_points=0,aaa_bomb=false"},
        {"ddz", "short_triple=always,four_with=none,spade3_first=false,four_two_same=false"},
        {"ddz", "plane_single_wings=false,plane_pair_wings=false,short_follow=true,max_pair_chain=0"},
        {"noip2015", "rob=false,rocket_kickers=false,bao=false,short_triple=always,spade3_first=false"},
        {"pdk16", "rob=false,rocket_kickers=false,four_two_same=false"},
        {"guanpai", "rob=false,rocket_kickers=false,four_two_same=false"},
    };
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++) {
        cb_rules r, x;
        make_rules(own[i].presets, "", &r);
        make_rules(own[i].presets, own[i].flags, &x);
        assert_true(cb_rules_equal(&x, &r));
    }
    /* the keys every game reads stay settable everywhere */
    cb_rules r;
    make_rules("ddz", "must_beat=true,must_beat_bomb=true,warn_single=true,min_pair_chain=2", &r);
    assert_true(r.must_beat && r.must_beat_bomb && r.warn_single && r.min_pair_chain == 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_house_rule_keys),
        cmocka_unit_test(test_keys_of_other_games),
        cmocka_unit_test(test_rules_get),
        cmocka_unit_test(test_classify_table),
        cmocka_unit_test(test_readings_consistent),
        cmocka_unit_test(test_reading_rows),
        cmocka_unit_test(test_beats_table),
        cmocka_unit_test(test_beats_properties),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

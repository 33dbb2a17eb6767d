/* cardbot tests — card ids, rank counts, text <-> cards (include/cardbot/cards.h).
 *
 * Expected values come from the text of cards.h and DESIGN.md "Cards", not from core/cards.c:
 * id = rank * 4 + suit for 3..2 (s h c d), 52 = X, 53 = D; an unsuited rank takes the lowest
 * free suit of that rank in the deck after all suited cards are placed; errors name the bad
 * character and its position, duplicates, cards not in the deck and over-full ranks.
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
#include "util_int.h" /* core/: cb_splitmix64 */

/* Card id from rank char and suit char, spelled out here so the test does not share the
 * parser's tables. */
static int id_of(char rank, char suit)
{
    const char *ranks = "3456789TJQKA2XD";
    const char *suits = "shcd";
    int r = (int)(strchr(ranks, rank) - ranks);
    if (r == 13) return 52;
    if (r == 14) return 53;
    return r * 4 + (int)(strchr(suits, suit) - suits);
}
#define BIT(rank, suit) ((cb_cards)1 << id_of(rank, suit))

static cb_cards deck_of(const char *preset)
{
    cb_rules r;
    assert_int_equal(cb_rules_preset(preset, &r), 0);
    return r.deck;
}

/* Parse that must succeed; returns the set. */
static cb_cards parse_ok(const char *text, cb_cards deck)
{
    char err[128] = "";
    cb_cards out = 0;
    int rc = cb_cards_parse(text, deck, &out, err, sizeof err);
    if (rc != 0) print_error("parse \"%s\" failed: %s\n", text, err);
    assert_int_equal(rc, 0);
    return out;
}

/* Parse that must fail; the message is left in err and must be non-empty. */
static void parse_fail(const char *text, cb_cards deck, char *err, size_t errlen)
{
    cb_cards out = 0;
    err[0] = '\0';
    int rc = cb_cards_parse(text, deck, &out, err, errlen);
    if (rc != -1) print_error("parse \"%s\" should fail, got rc %d set %llx\n", text, rc,
                              (unsigned long long)out);
    assert_int_equal(rc, -1);
    assert_true(err[0] != '\0');
}

static void counts_fail(const char *text, cb_cards deck, char *err, size_t errlen)
{
    cb_counts out = 0;
    err[0] = '\0';
    int rc = cb_counts_parse(text, deck, &out, err, errlen);
    if (rc != -1) print_error("counts \"%s\" should fail, got rc %d\n", text, rc);
    assert_int_equal(rc, -1);
    assert_true(err[0] != '\0');
}

static void assert_has(const char *err, const char *needle)
{
    if (!strstr(err, needle)) print_error("error text \"%s\" lacks \"%s\"\n", err, needle);
    assert_non_null(strstr(err, needle));
}

/* ---- ids and inline helpers ---- */

static void test_ids(void **state)
{
    (void)state;
    assert_int_equal(cb_card_rank(0), CB_RANK_3);
    assert_int_equal(cb_card_suit(0), CB_SUIT_S);
    assert_int_equal(cb_card_rank(51), CB_RANK_2);
    assert_int_equal(cb_card_suit(51), CB_SUIT_D);
    assert_int_equal(cb_card_rank(CB_CARD_X), CB_RANK_X);
    assert_int_equal(cb_card_rank(CB_CARD_D), CB_RANK_D);
    assert_int_equal(cb_card_suit(CB_CARD_X), -1);
    assert_int_equal(cb_card_id(CB_RANK_X, 0), CB_CARD_X);
    assert_int_equal(cb_card_id(CB_RANK_D, 0), CB_CARD_D);
    assert_int_equal(cb_card_id(CB_RANK_T, CB_SUIT_H), 29);
    for (int id = 0; id < CB_NCARDS; id++) {
        int r = cb_card_rank(id);
        int s = cb_card_suit(id);
        assert_int_equal(cb_card_id(r, s < 0 ? 0 : s), id);
    }
    assert_int_equal(cb_cards_size(CB_FULL_DECK), 54);
    assert_true(cb_cards_of_rank(CB_FULL_DECK, CB_RANK_X) == cb_card_bit(CB_CARD_X));
    assert_true(cb_cards_of_rank(CB_FULL_DECK, CB_RANK_D) == cb_card_bit(CB_CARD_D));
    assert_true(cb_cards_of_rank(CB_FULL_DECK, CB_RANK_2) == ((cb_cards)15 << 48));
    assert_string_equal(cb_rank_chars, "3456789TJQKA2XD");
}

/* The preset decks as DESIGN.md lists them (the parser's "not in the deck" depends on them). */
static void test_decks(void **state)
{
    (void)state;
    cb_cards pdk16 = CB_FULL_DECK & ~(cb_card_bit(CB_CARD_X) | cb_card_bit(CB_CARD_D) |
                                      BIT('2', 'h') | BIT('2', 'c') | BIT('2', 'd') |
                                      BIT('A', 's'));
    cb_cards pdk15 = pdk16 & ~(BIT('A', 'h') | BIT('A', 'c') | BIT('K', 's'));
    assert_true(deck_of("ddz") == CB_FULL_DECK);
    assert_true(deck_of("pdk16") == pdk16);
    assert_true(deck_of("guanpai") == pdk16);
    assert_true(deck_of("pdk15") == pdk15);
    assert_int_equal(cb_cards_size(pdk16), 48);
    assert_int_equal(cb_cards_size(pdk15), 45);
    assert_int_equal(cb_counts_total(cb_counts_of(deck_of("noip2015"))), 54);
}

/* ---- cb_counts_of ---- */

static void test_counts_of(void **state)
{
    (void)state;
    cb_counts k = cb_counts_of(BIT('3', 's') | cb_card_bit(CB_CARD_X) | cb_card_bit(CB_CARD_D));
    assert_int_equal(cb_count(k, CB_RANK_3), 1);
    assert_int_equal(cb_count(k, CB_RANK_X), 1);
    assert_int_equal(cb_count(k, CB_RANK_D), 1);
    assert_int_equal(cb_counts_total(k), 3);
    for (int r = CB_RANK_4; r <= CB_RANK_2; r++) assert_int_equal(cb_count(k, r), 0);

    /* four 2s and the small joker: the 2s' nibble must not spill into X's */
    k = cb_counts_of(((cb_cards)15 << 48) | cb_card_bit(CB_CARD_X));
    assert_int_equal(cb_count(k, CB_RANK_2), 4);
    assert_int_equal(cb_count(k, CB_RANK_X), 1);
    assert_int_equal(cb_count(k, CB_RANK_D), 0);
    assert_int_equal(cb_counts_total(k), 5);

    /* big joker alone */
    k = cb_counts_of(cb_card_bit(CB_CARD_D));
    assert_int_equal(cb_count(k, CB_RANK_X), 0);
    assert_int_equal(cb_count(k, CB_RANK_D), 1);
    assert_int_equal(cb_counts_total(k), 1);

    /* the diamond 2 alone */
    k = cb_counts_of(BIT('2', 'd'));
    assert_int_equal(cb_count(k, CB_RANK_2), 1);
    assert_int_equal(cb_count(k, CB_RANK_X), 0);

    /* the full deck */
    k = cb_counts_of(CB_FULL_DECK);
    for (int r = CB_RANK_3; r <= CB_RANK_2; r++) assert_int_equal(cb_count(k, r), 4);
    assert_int_equal(cb_count(k, CB_RANK_X), 1);
    assert_int_equal(cb_count(k, CB_RANK_D), 1);
    assert_int_equal(cb_counts_total(k), 54);

    /* a set with one card of every rank */
    cb_cards one = cb_card_bit(CB_CARD_X) | cb_card_bit(CB_CARD_D);
    for (int r = 0; r < 13; r++) one |= cb_card_bit(r * 4 + (r & 3));
    k = cb_counts_of(one);
    for (int r = 0; r < CB_NRANKS; r++) assert_int_equal(cb_count(k, r), 1);
}

/* ---- parsing ---- */

static void test_parse_basic(void **state)
{
    (void)state;
    cb_cards full = CB_FULL_DECK;
    /* unsuited ranks take the lowest free suits: 3s 3h 3c 4s 4h */
    assert_true(parse_ok("33344", full) ==
                (BIT('3', 's') | BIT('3', 'h') | BIT('3', 'c') | BIT('4', 's') | BIT('4', 'h')));
    assert_true(parse_ok("3s3h3c4s4d", full) ==
                (BIT('3', 's') | BIT('3', 'h') | BIT('3', 'c') | BIT('4', 's') | BIT('4', 'd')));
    assert_true(parse_ok("XD", full) == (cb_card_bit(52) | cb_card_bit(53)));
    assert_true(parse_ok("X", full) == cb_card_bit(52));
    assert_true(parse_ok("D", full) == cb_card_bit(53));
    assert_true(parse_ok("2222", full) == ((cb_cards)15 << 48));
    assert_true(parse_ok("", full) == 0);
    assert_true(parse_ok("   ", full) == 0);
    assert_true(parse_ok("[]", full) == 0);
    /* "10" is T, also with a suit */
    assert_true(parse_ok("10", full) == BIT('T', 's'));
    assert_true(parse_ok("T", full) == BIT('T', 's'));
    assert_true(parse_ok("10h", full) == BIT('T', 'h'));
    assert_true(parse_ok("910J", full) == (BIT('9', 's') | BIT('T', 's') | BIT('J', 's')));
    assert_true(parse_ok("1010", full) == (BIT('T', 's') | BIT('T', 'h')));
    /* lower case ranks */
    assert_true(parse_ok("tjqka", full) ==
                (BIT('T', 's') | BIT('J', 's') | BIT('Q', 's') | BIT('K', 's') | BIT('A', 's')));
    assert_true(parse_ok("x", full) == cb_card_bit(52));
    assert_true(parse_ok("as", full) == BIT('A', 's'));
    assert_true(parse_ok("kd", full) == BIT('K', 'd'));
    /* separators: spaces, commas, brackets */
    assert_true(parse_ok("3 3,[4]", full) == (BIT('3', 's') | BIT('3', 'h') | BIT('4', 's')));
    assert_true(parse_ok("[3s, 3h] 4d", full) == (BIT('3', 's') | BIT('3', 'h') | BIT('4', 'd')));
    assert_true(parse_ok(" 3s , 2d , X ", full) ==
                (BIT('3', 's') | BIT('2', 'd') | cb_card_bit(52)));
}

/* Unsuited cards are placed after all suited ones, whatever the order in the text. */
static void test_parse_suit_placement(void **state)
{
    (void)state;
    cb_cards full = CB_FULL_DECK;
    assert_true(parse_ok("33 3s", full) == (BIT('3', 's') | BIT('3', 'h') | BIT('3', 'c')));
    assert_true(parse_ok("3 3h", full) == (BIT('3', 's') | BIT('3', 'h')));
    assert_true(parse_ok("3 3s", full) == (BIT('3', 's') | BIT('3', 'h')));
    assert_true(parse_ok("333 3s", full) == ((cb_cards)15));
    assert_true(parse_ok("3d 333", full) == ((cb_cards)15));
    /* in pdk16 the spade A is gone, so an unsuited A is the heart A, and the lone 2 is the spade 2 */
    cb_cards pdk16 = deck_of("pdk16");
    assert_true(parse_ok("A", pdk16) == BIT('A', 'h'));
    assert_true(parse_ok("AAA", pdk16) == (BIT('A', 'h') | BIT('A', 'c') | BIT('A', 'd')));
    assert_true(parse_ok("2", pdk16) == BIT('2', 's'));
    assert_true(parse_ok("A Ah", pdk16) == (BIT('A', 'h') | BIT('A', 'c')));
    cb_cards pdk15 = deck_of("pdk15");
    assert_true(parse_ok("A", pdk15) == BIT('A', 'd'));
    assert_true(parse_ok("K", pdk15) == BIT('K', 'h'));
    assert_true(parse_ok("KKK", pdk15) == (BIT('K', 'h') | BIT('K', 'c') | BIT('K', 'd')));
}

static void test_parse_errors(void **state)
{
    (void)state;
    char err[160];
    cb_cards full = CB_FULL_DECK;

    /* unknown character, named with its position (index 2, or 3 counting from one) */
    parse_fail("TTZJ", full, err, sizeof err);
    assert_has(err, "Z");
    assert_true(strstr(err, "2") != NULL || strstr(err, "3") != NULL);
    parse_fail("KKKKQQ?", full, err, sizeof err);
    assert_has(err, "?");
    assert_true(strstr(err, "6") != NULL || strstr(err, "7") != NULL);
    parse_fail("3456789TJQZ", full, err, sizeof err);
    assert_has(err, "Z");
    assert_true(strstr(err, "10") != NULL || strstr(err, "11") != NULL);
    /* a suit letter with no rank before it, a lone '1', a '0' */
    parse_fail("s3", full, err, sizeof err);
    parse_fail("1", full, err, sizeof err);
    parse_fail("31", full, err, sizeof err);
    parse_fail("0", full, err, sizeof err);
    parse_fail("3-4", full, err, sizeof err);
    assert_has(err, "-");

    /* duplicates */
    parse_fail("3s3s", full, err, sizeof err);
    assert_true(strstr(err, "3s") != NULL || strstr(err, "uplicate") != NULL);
    parse_fail("XX", full, err, sizeof err);
    parse_fail("DD", full, err, sizeof err);
    parse_fail("X D X", full, err, sizeof err);
    parse_fail("Ah Ah", full, err, sizeof err);

    /* more cards of a rank than the deck has */
    parse_fail("5555 5", full, err, sizeof err);
    assert_has(err, "5");
    parse_fail("3s3h3c3d3", full, err, sizeof err);
    parse_fail("22222", full, err, sizeof err);

    /* not in the deck: jokers and the missing 2s / As of pdk16 and pdk15 */
    cb_cards pdk16 = deck_of("pdk16");
    cb_cards pdk15 = deck_of("pdk15");
    parse_fail("X", pdk16, err, sizeof err);
    assert_has(err, "X");
    parse_fail("33D", pdk16, err, sizeof err);
    assert_has(err, "D");
    parse_fail("22", pdk16, err, sizeof err);
    assert_has(err, "2");
    parse_fail("2h", pdk16, err, sizeof err);
    assert_has(err, "2");
    parse_fail("As", pdk16, err, sizeof err);
    assert_has(err, "A");
    parse_fail("AAAA", pdk16, err, sizeof err);
    parse_fail("AA", pdk15, err, sizeof err);
    parse_fail("Ks", pdk15, err, sizeof err);
    parse_fail("KKKK", pdk15, err, sizeof err);
    parse_fail("Ah", pdk15, err, sizeof err);

    /* err may be NULL; a short err buffer stays NUL-terminated */
    cb_cards out = 0;
    assert_int_equal(cb_cards_parse("3Z", full, &out, NULL, 0), -1);
    char tiny[6];
    memset(tiny, 'q', sizeof tiny);
    assert_int_equal(cb_cards_parse("3Z", full, &out, tiny, sizeof tiny), -1);
    assert_true(memchr(tiny, '\0', sizeof tiny) != NULL);
}

/* The suit symbols replays and --unicode show are read as the letters are, after a rank only;
 * what is refused is quoted whole, at its place counted in characters (not bytes). */
static void test_parse_suit_symbols(void **state)
{
    (void)state;
    char err[160];
    cb_cards full = CB_FULL_DECK;
    assert_true(parse_ok("3\u2660 3\u2665 3\u2663 3\u2666", full) == parse_ok("3s3h3c3d", full));
    assert_true(parse_ok("T\u2666J\u2663, A\u2665 X D", full) == parse_ok("TdJcAhXD", full));
    /* what the formatter shows with suits, symbols put back, parses to the same set */
    cb_cards any = parse_ok("4s4c5c6s6h6c7s7c8s9hThTdJdQsQd2s", full);
    assert_true(parse_ok("4\u26604\u2663 5\u2663 6\u26606\u26656\u2663 7\u26607\u2663 8\u2660 9\u2665 "
                         "T\u2665T\u2666 J\u2666 Q\u2660Q\u2666 2\u2660",
                         full) == any);
    /* a symbol with no rank before it, or after a joker, is an unknown character */
    parse_fail("\u26603", full, err, sizeof err);
    assert_has(err, "'\u2660' at position 1");
    parse_fail("X\u2660", full, err, sizeof err);
    assert_has(err, "'\u2660' at position 2");
    /* positions in characters: two symbols before the Z make it the 5th character, not the 9th byte */
    parse_fail("3\u26604\u2665Z", full, err, sizeof err);
    assert_has(err, "'Z' at position 5");
    /* another symbol of the same block (the outline spade) is no suit */
    parse_fail("3\u2664", full, err, sizeof err);
    assert_has(err, "'\u2664' at position 2");
    /* a symbol duplicate of a letter */
    parse_fail("3s 3\u2660", full, err, sizeof err);
}

/* A play typed against a hand: cards of the deck first (a typo is -1 and named), then from
 * the hand (-2, said by rank or by the suited card); bare ranks take the lowest suits held. */
static void test_parse_held(void **state)
{
    (void)state;
    char err[200];
    cb_cards deck = deck_of("pdk16"), out = 0;
    cb_cards hand = BIT('3', 's') | BIT('7', 'h') | BIT('7', 'd') | BIT('9', 'c') | BIT('K', 'd');
    assert_int_equal(cb_cards_parse_held("77", deck, hand, &out, err, sizeof err), 0);
    assert_true(out == (BIT('7', 'h') | BIT('7', 'd'))); /* the suits held, not 7s7h */
    assert_int_equal(cb_cards_parse_held("3 9c", deck, hand, &out, err, sizeof err), 0);
    assert_true(out == (BIT('3', 's') | BIT('9', 'c')));
    /* a typo: -1, the character and its place */
    assert_int_equal(cb_cards_parse_held("7Z", deck, hand, &out, err, sizeof err), -1);
    assert_has(err, "not cards of this game");
    assert_has(err, "'Z' at position 2");
    /* cards of PDK's deck that the hand lacks: -2, by rank */
    assert_int_equal(cb_cards_parse_held("777", deck, hand, &out, err, sizeof err), -2);
    assert_string_equal(err, "only two 7s in the hand");
    assert_int_equal(cb_cards_parse_held("99QQ", deck, hand, &out, err, sizeof err), -2);
    assert_string_equal(err, "only one 9, no Q in the hand");
    /* the rank is held, the suit named is not */
    assert_int_equal(cb_cards_parse_held("7s", deck, hand, &out, err, sizeof err), -2);
    assert_has(err, "7s is not in the hand");
    assert_true(strstr(err, "deck") == NULL);
    /* not in PDK's deck at all (its 2s are the spade 2 only): the game's error, -1 */
    assert_int_equal(cb_cards_parse_held("2h", deck, hand, &out, err, sizeof err), -1);
    assert_has(err, "not cards of this game");
    /* err may be NULL */
    assert_int_equal(cb_cards_parse_held("777", deck, hand, &out, NULL, 0), -2);
    /* the suit tables say what the parser reads */
    for (int s = 0; s < 4; s++) {
        char txt[8];
        snprintf(txt, sizeof txt, "5%c", cb_suit_chars[s]);
        assert_true(parse_ok(txt, CB_FULL_DECK) == ((cb_cards)1 << (2 * 4 + s)));
        snprintf(txt, sizeof txt, "5%s", cb_suit_symbols[s]);
        assert_true(parse_ok(txt, CB_FULL_DECK) == ((cb_cards)1 << (2 * 4 + s)));
    }
    assert_string_equal(cb_suit_symbols[0], "\u2660");
    assert_string_equal(cb_suit_symbols[3], "\u2666");
}

static void test_counts_parse(void **state)
{
    (void)state;
    char err[160] = "";
    cb_counts k = 0;
    assert_int_equal(cb_counts_parse("33344", CB_FULL_DECK, &k, err, sizeof err), 0);
    assert_int_equal(cb_count(k, CB_RANK_3), 3);
    assert_int_equal(cb_count(k, CB_RANK_4), 2);
    assert_int_equal(cb_counts_total(k), 5);
    /* suits accepted and ignored */
    assert_int_equal(cb_counts_parse("3s3h4d", CB_FULL_DECK, &k, err, sizeof err), 0);
    assert_int_equal(cb_count(k, CB_RANK_3), 2);
    assert_int_equal(cb_count(k, CB_RANK_4), 1);
    assert_int_equal(cb_counts_parse("XD 10 t", CB_FULL_DECK, &k, err, sizeof err), 0);
    assert_int_equal(cb_count(k, CB_RANK_X), 1);
    assert_int_equal(cb_count(k, CB_RANK_D), 1);
    assert_int_equal(cb_count(k, CB_RANK_T), 2);
    assert_int_equal(cb_counts_total(k), 4);
    assert_int_equal(cb_counts_parse("2222", CB_FULL_DECK, &k, err, sizeof err), 0);
    assert_int_equal(cb_count(k, CB_RANK_2), 4);
    assert_int_equal(cb_count(k, CB_RANK_X), 0);
    assert_int_equal(cb_counts_parse("", CB_FULL_DECK, &k, err, sizeof err), 0);
    assert_true(k == 0);
    /* pdk16: one 2, three As, no jokers */
    cb_cards pdk16 = deck_of("pdk16");
    assert_int_equal(cb_counts_parse("AAA2", pdk16, &k, err, sizeof err), 0);
    assert_int_equal(cb_count(k, CB_RANK_A), 3);
    assert_int_equal(cb_count(k, CB_RANK_2), 1);
    counts_fail("22", pdk16, err, sizeof err);
    assert_has(err, "2");
    counts_fail("AAAA", pdk16, err, sizeof err);
    counts_fail("XD", pdk16, err, sizeof err);
    counts_fail("33333", CB_FULL_DECK, err, sizeof err);
    counts_fail("XX", CB_FULL_DECK, err, sizeof err);
    counts_fail("3Z", CB_FULL_DECK, err, sizeof err);
    assert_has(err, "Z");
    counts_fail("KKKK", deck_of("pdk15"), err, sizeof err);
    counts_fail("AA", deck_of("pdk15"), err, sizeof err);
}

/* ---- picking actual cards ---- */

static cb_counts counts_of_text(const char *t)
{
    cb_counts k = 0;
    assert_int_equal(cb_counts_parse(t, CB_FULL_DECK, &k, NULL, 0), 0);
    return k;
}

static void test_pick(void **state)
{
    (void)state;
    cb_cards out = 0;
    assert_int_equal(cb_cards_pick(CB_FULL_DECK, counts_of_text("3"), &out), 0);
    assert_true(out == BIT('3', 's'));
    assert_int_equal(cb_cards_pick(CB_FULL_DECK, counts_of_text("33"), &out), 0);
    assert_true(out == (BIT('3', 's') | BIT('3', 'h')));
    /* the spade 3 first, whatever else is held */
    cb_cards hand = BIT('3', 'h') | BIT('3', 'd') | BIT('3', 's') | BIT('4', 'c');
    assert_int_equal(cb_cards_pick(hand, counts_of_text("34"), &out), 0);
    assert_true(out == (BIT('3', 's') | BIT('4', 'c')));
    hand = BIT('3', 'h') | BIT('3', 'd');
    assert_int_equal(cb_cards_pick(hand, counts_of_text("3"), &out), 0);
    assert_true(out == BIT('3', 'h'));
    /* lacking a rank */
    assert_int_equal(cb_cards_pick(hand, counts_of_text("333"), &out), -1);
    assert_int_equal(cb_cards_pick(hand, counts_of_text("4"), &out), -1);
    /* jokers */
    assert_int_equal(cb_cards_pick(CB_FULL_DECK, counts_of_text("XD"), &out), 0);
    assert_true(out == (cb_card_bit(52) | cb_card_bit(53)));
    assert_int_equal(cb_cards_pick(cb_card_bit(52), counts_of_text("D"), &out), -1);
    assert_int_equal(cb_cards_pick(CB_FULL_DECK, counts_of_text("2222X"), &out), 0);
    assert_true(out == (((cb_cards)15 << 48) | cb_card_bit(52)));
    /* pdk16: the lone A picked from the deck is the heart A */
    assert_int_equal(cb_cards_pick(deck_of("pdk16"), counts_of_text("A2"), &out), 0);
    assert_true(out == (BIT('A', 'h') | BIT('2', 's')));
    /* empty counts pick nothing */
    assert_int_equal(cb_cards_pick(hand, 0, &out), 0);
    assert_true(out == 0);
    /* the pick realises the counts exactly */
    cb_counts k = counts_of_text("3344455TTJQKA2XD");
    assert_int_equal(cb_cards_pick(CB_FULL_DECK, k, &out), 0);
    assert_true(cb_counts_of(out) == k);
}

/* ---- formatting ---- */

static void test_format(void **state)
{
    (void)state;
    char buf[256];
    cb_cards c = BIT('3', 's') | BIT('3', 'h') | BIT('3', 'c') | BIT('4', 's') | BIT('4', 'd');
    assert_int_equal(cb_cards_format(c, true, buf, sizeof buf), 10);
    assert_string_equal(buf, "3s3h3c4s4d");
    assert_int_equal(cb_cards_format(c, false, buf, sizeof buf), 5);
    assert_string_equal(buf, "33344");
    c = cb_card_bit(53) | cb_card_bit(52) | BIT('T', 'h') | BIT('2', 'd');
    cb_cards_format(c, false, buf, sizeof buf);
    assert_string_equal(buf, "T2XD");
    cb_cards_format(c, true, buf, sizeof buf);
    assert_string_equal(buf, "Th2dXD");
    assert_int_equal(cb_cards_format(0, true, buf, sizeof buf), 0);
    assert_string_equal(buf, "");
    cb_cards_format(CB_FULL_DECK, false, buf, sizeof buf);
    assert_string_equal(buf, "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222XD");
    cb_cards_format(CB_FULL_DECK, true, buf, sizeof buf);
    assert_int_equal(strlen(buf), 52 * 2 + 2);
    assert_true(strncmp(buf, "3s3h3c3d4s", 10) == 0);
    assert_true(strcmp(buf + strlen(buf) - 6, "2c2dXD") == 0);

    /* truncation: NUL-terminated; like snprintf the return value is the full length, so a
     * caller can tell the text was cut (cards.h) */
    char small[4];
    size_t n = cb_cards_format(c, true, small, sizeof small);
    assert_true(memchr(small, '\0', sizeof small) != NULL);
    assert_string_equal(small, "Th2");
    assert_int_equal(n, 6);

    cb_counts k = counts_of_text("D X 2 3 3 3 4 4");
    assert_int_equal(cb_counts_format(k, buf, sizeof buf), 8);
    assert_string_equal(buf, "333442XD");
    assert_int_equal(cb_counts_format(0, buf, sizeof buf), 0);
    assert_string_equal(buf, "");
}

static void test_round_trip(void **state)
{
    (void)state;
    const char *presets[] = {"ddz", "pdk16", "pdk15"};
    uint64_t s = 20240611;
    char buf[256];
    for (int p = 0; p < 3; p++) {
        cb_cards deck = deck_of(presets[p]);
        for (int i = 0; i < 2000; i++) {
            cb_cards c = cb_splitmix64(&s) & cb_splitmix64(&s) & deck; /* about a quarter of the deck */
            if (i % 7 == 0) c = deck & cb_splitmix64(&s);
            cb_cards_format(c, true, buf, sizeof buf);
            cb_cards back = 0;
            char err[128] = "";
            int rc = cb_cards_parse(buf, deck, &back, err, sizeof err);
            if (rc != 0 || back != c) print_error("round trip \"%s\": %s\n", buf, err);
            assert_int_equal(rc, 0);
            assert_true(back == c);
            /* rank-only text round-trips through counts */
            cb_cards_format(c, false, buf, sizeof buf);
            cb_counts k = 0;
            assert_int_equal(cb_counts_parse(buf, deck, &k, err, sizeof err), 0);
            assert_true(k == cb_counts_of(c));
            char buf2[256];
            cb_counts_format(k, buf2, sizeof buf2);
            assert_string_equal(buf, buf2);
            /* and the rank-only text parses to the lowest suits of each rank */
            cb_cards low = 0;
            assert_int_equal(cb_cards_parse(buf, deck, &low, err, sizeof err), 0);
            assert_true(cb_counts_of(low) == k);
            cb_cards picked = 0;
            assert_int_equal(cb_cards_pick(deck, k, &picked), 0);
            assert_true(picked == low);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ids),
        cmocka_unit_test(test_decks),
        cmocka_unit_test(test_counts_of),
        cmocka_unit_test(test_parse_basic),
        cmocka_unit_test(test_parse_suit_placement),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_parse_suit_symbols),
        cmocka_unit_test(test_parse_held),
        cmocka_unit_test(test_counts_parse),
        cmocka_unit_test(test_pick),
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* cardbot — card ids, 64-bit card sets, rank counts, text <-> cards.
 *
 * Card id 0..53: for ids < 52, rank = id >> 2 and suit = id & 3 (0 s, 1 h, 2 c, 3 d);
 * 52 is the small joker X (rank 13), 53 the big joker D (rank 14). Because both jokers would
 * share id >> 2 == 13, always use cb_card_rank() rather than shifting by hand.
 * Rank index 0..14 = 3 4 5 6 7 8 9 T J Q K A 2 X D.
 *
 * A set of cards is a uint64_t bit set (bit id). Strategy code mostly works on rank counts:
 * cb_counts packs the count of rank r (0..4) into bits 4r..4r+3 of a uint64_t. For ranks 3..2
 * the 4 bits of a rank in a cb_cards are exactly the 4 bits of that rank's nibble, so the
 * conversion is a per-nibble popcount.
 */
#ifndef CARDBOT_CARDS_H
#define CARDBOT_CARDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t cb_cards;  /* bit set of card ids */
typedef uint64_t cb_counts; /* 4 bits per rank, rank r at bits 4r..4r+3 */

enum {
    CB_RANK_3 = 0, CB_RANK_4, CB_RANK_5, CB_RANK_6, CB_RANK_7, CB_RANK_8, CB_RANK_9,
    CB_RANK_T, CB_RANK_J, CB_RANK_Q, CB_RANK_K, CB_RANK_A, CB_RANK_2, CB_RANK_X, CB_RANK_D,
    CB_NRANKS = 15
};
enum { CB_SUIT_S = 0, CB_SUIT_H, CB_SUIT_C, CB_SUIT_D };
#define CB_CARD_X 52
#define CB_CARD_D 53
#define CB_NCARDS 54
#define CB_FULL_DECK ((cb_cards)0x3FFFFFFFFFFFFFull) /* all 54 cards */

static inline int cb_card_rank(int id) { return id < 52 ? id >> 2 : id - 39; }
static inline int cb_card_suit(int id) { return id < 52 ? (id & 3) : -1; }
static inline int cb_card_id(int rank, int suit) { return rank < 13 ? rank * 4 + suit : rank + 39; }
static inline cb_cards cb_card_bit(int id) { return (cb_cards)1 << id; }
static inline int cb_cards_size(cb_cards c) { return __builtin_popcountll(c); }

/* Count of rank r in packed counts. */
static inline int cb_count(cb_counts k, int r) { return (int)((k >> (4 * r)) & 15u); }
static inline cb_counts cb_count_add(cb_counts k, int r, int n) { return k + ((cb_counts)n << (4 * r)); }
/* Total number of cards in packed counts (sum of nibbles). */
static inline int cb_counts_total(cb_counts k)
{
    k = (k & 0x0F0F0F0F0F0F0F0Full) + ((k >> 4) & 0x0F0F0F0F0F0F0F0Full);
    return (int)((k * 0x0101010101010101ull) >> 56);
}
/* Rank counts of a card set: per-nibble popcount for 3..2, jokers moved to their own nibbles. */
static inline cb_counts cb_counts_of(cb_cards c)
{
    uint64_t x = c & 0x000FFFFFFFFFFFFFull; /* ids 0..51 */
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x |= ((c >> CB_CARD_X) & 1u) << (4 * CB_RANK_X);
    x |= ((c >> CB_CARD_D) & 1u) << (4 * CB_RANK_D);
    return x;
}
/* The cards of rank r in a set, as a set. */
static inline cb_cards cb_cards_of_rank(cb_cards c, int r)
{
    return r < 13 ? c & ((cb_cards)15 << (4 * r)) : c & cb_card_bit(r + 39);
}

/* Choose actual cards from `from` that realise the rank counts `k`, lowest ids first (so a
 * play containing a 3 uses the spade 3 when it is held). Returns 0 and sets *out, or -1 when
 * `from` lacks some rank. */
int cb_cards_pick(cb_cards from, cb_counts k, cb_cards *out);

/* Parse text into cards of `deck`. Accepted: ranks "3456789TJQKA2XD" (also lower case, and
 * "10" for T), each optionally followed by a suit letter s h c d or its symbol ♠ ♥ ♣ ♦
 * (UTF-8, as replays show them; the symbols since 1.3.0); spaces, commas and "[]" are
 * separators. A rank without a suit takes the lowest free suit of that rank in the deck after
 * all suited cards are placed. Errors (return -1, message in err): an unknown character (quoted whole, at its
 * position counted in characters from 1), a duplicate card, a card not in the deck, more
 * cards of a rank than the deck has. err may be NULL. */
int cb_cards_parse(const char *text, cb_cards deck, cb_cards *out, char *err, size_t errlen);
/* Parse rank-only text into counts ("33344"); suits are accepted and ignored. Same errors,
 * checked against the deck's count of each rank. */
int cb_counts_parse(const char *text, cb_cards deck, cb_counts *out, char *err, size_t errlen);

/* Text forms. Ranks ascending; with_suits adds the suit letter ("3s3h4d"). The empty set
 * prints as "". Like snprintf: the text is cut to fit and NUL-terminated when len > 0, and the
 * return value is the full length, so a result >= len means the text was cut. */
size_t cb_cards_format(cb_cards c, bool with_suits, char *buf, size_t len);
size_t cb_counts_format(cb_counts k, char *buf, size_t len);
extern const char cb_rank_chars[CB_NRANKS + 1]; /* "3456789TJQKA2XD" (read-only) */

/* ---- appended in 1.2.0 (existing declarations above are unchanged) ---- */

/* The spade 3 (rank 3, suit s: card id 0). Under the PDK spade3_first rule its holder leads
 * the deal and the first play must contain it (rules.h: cb_ctx_make); one name so no caller
 * spells the id by hand. */
#define CB_CARD_S3 0

/* ---- appended in 1.4.0: what every host that takes typed plays re-derived ---- */

/* The suits by suit number 0..3: letters "shcd" and symbols ♠ ♥ ♣ ♦ (UTF-8 strings), the two
 * forms cb_cards_parse reads, so a host shows cards in a form its players can type back. */
extern const char cb_suit_chars[5];
extern const char *const cb_suit_symbols[4];

/* Parse text as a play from `hand` in a game dealt from `deck` (a person's or a bot's typed
 * move): first as cards of the deck, then from the hand, a bare rank taking the lowest suit
 * held (so the spade 3 when it is held). Returns 0 and sets *out; -1 when the text is not
 * cards of the game (err: "not cards of this game: " and cb_cards_parse's reason, naming the
 * character); -2 when they are but the hand lacks some (err says which by rank, "only one 7
 * in the hand", "no K in the hand", or "card 7h is not in the hand"). err may be NULL. */
int cb_cards_parse_held(const char *text, cb_cards deck, cb_cards hand, cb_cards *out, char *err,
                        size_t errlen);

#ifdef __cplusplus
}
#endif
#endif

/* cardbot tests — brute-force oracles for the rules engine.
 *
 * These are deliberately slow and written apart from core/moves.c and core/minhands.c: they
 * share only the classifier (cb_readings), cb_beats and the card helpers, and spell out the
 * flow rules (short triples, warn_single, spade3_first, must_beat) again from rules.h, so a
 * bug in the fast generators shows up as a disagreement.
 *
 * The PDK house rules plane_single_wings, plane_pair_wings, short_follow and max_pair_chain
 * are not taken from the classifier or cb_beats: under them the oracle reads a multiset with
 * the flags off (short plays allowed everywhere) and applies each flag's text from rules.h to
 * those readings itself (drops a too long pair chain or a plane whose 2L wings are not L
 * distinct pairs, tells a single-wings plane from a short one, drops short readings under
 * short_triple = never), and compares plays by its own cbt_beats.
 *
 *  - cbt_oracle_legal: every sub-multiset of the hand, kept when one of its readings is
 *    allowed here; pass decided from the kept plays.
 *  - cbt_oracle_min_hands: exhaustive memoised search over sub-multisets of the hand; the
 *    play covering the lowest remaining rank is tried in every possible way.
 */
#ifndef CARDBOT_TESTS_ORACLE_H
#define CARDBOT_TESTS_ORACLE_H

#include <stdbool.h>
#include "cardbot/rules.h"

/* Sanitizer builds run smaller random counts (documented in each test); CBT_UNDER_ASAN is 1
 * when AddressSanitizer is compiled in. */
#if defined(__SANITIZE_ADDRESS__)
#define CBT_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CBT_UNDER_ASAN 1
#endif
#endif
#ifndef CBT_UNDER_ASAN
#define CBT_UNDER_ASAN 0
#endif

/* Room for the readings of one multiset; cbt_readings reports an overflow as -1. */
#define CBT_READINGS_CAP 256

/* Every sub-multiset of k, the empty one included, in odometer order (rank 3 fastest).
 * Returns how many there are (the product of count + 1); writes up to cap. */
long cbt_submultisets(cb_counts k, cb_counts *out, long cap);

/* The readings of k under r into out[CBT_READINGS_CAP]; -1 when there were more than that.
 * Without the four PDK house rules above (all at their defaults): cb_readings. With them: the
 * oracle's own reading of the flags over cb_readings with the flags off (see the top). */
int cbt_readings(const cb_rules *r, cb_counts k, cb_move *out);
/* Is some PDK house rule of the oracle's own reading (see the top) away from its default? */
bool cbt_house_flags(const cb_rules *r);
/* The canonical reading of k among cbt_readings (not short first, then the higher shape, the
 * longer chain, the higher main), by the oracle's cbt_is_short. false: no reading. */
bool cbt_canonical(const cb_rules *r, cb_counts k, cb_move *out);

/* Is m a PDK short play (bare triple, 三带一, bare plane, plane with too few wings — under
 * plane_single_wings a plane + L singles of distinct ranks is full)? */
bool cbt_is_short(const cb_rules *r, const cb_move *m);
/* Does play beat table? cb_beats without the PDK house rules; with them the oracle's own
 * comparison, spelt out from rules.h. */
bool cbt_beats(const cb_rules *r, const cb_move *play, const cb_move *table, bool whole_hand);
/* Is m a bomb or the rocket (what must_beat_bomb talks about)? */
bool cbt_is_bomb(const cb_move *m);

/* May reading m (of the multiset m->counts, a sub-multiset of ctx->hand) be played in ctx?
 * The flow rules of rules.h, spelt out: a short reading only under short_triple always, or
 * under last when it empties the hand; warn_single: a single must be the hand's highest rank
 * when the next seat holds one card; spade3_first: the first play contains a 3; following:
 * cbt_beats(table, whole_hand = the play empties the hand). */
bool cbt_reading_allowed(const cb_rules *r, const cb_ctx *ctx, const cb_move *m);
/* Is m (field by field) one of cb_readings(m->counts)? */
bool cbt_is_a_reading(const cb_rules *r, const cb_move *m);
bool cbt_move_eq(const cb_move *a, const cb_move *b);

typedef struct cbt_legal {
    cb_counts *subs;    /* every non-empty sub-multiset of the hand */
    bool *legal;        /* legal[i]: subs[i] is a legal play here */
    long nsubs;
    cb_counts *plays;   /* the legal ones, sorted ascending */
    long nplays;
    bool pass_ok;       /* a pass is legal (never when leading) */
    bool beat_plain;    /* some legal play beats the table with a non-bomb reading */
    bool beat_bomb;     /* some legal play beats it with a bomb / rocket reading */
    int overflow;       /* cb_readings returned more than CBT_READINGS_CAP somewhere */
} cbt_legal;

/* Fill *out (allocating; release with cbt_legal_free). Returns 0, or -1 on allocation failure. */
int cbt_oracle_legal(const cb_rules *r, const cb_ctx *ctx, cbt_legal *out);
void cbt_legal_free(cbt_legal *l);

typedef struct cbt_mh_stats {
    long states;   /* memo entries created */
    long plays;    /* valid plays found inside the hand */
} cbt_mh_stats;

/* Fewest plays that empty the hand (0 for the empty hand), by exhaustive memoised search.
 * PDK short_triple = last: at most one play whose readings are all short; never: none.
 * Returns -1 when no partition exists (should not happen: singles always work) or on
 * allocation failure. st may be NULL. */
int cbt_oracle_min_hands(const cb_rules *r, cb_counts hand, cbt_mh_stats *st);

/* Text of a move for failure messages: "33344 triple_2 main=3 len=1 kick=2". */
void cbt_move_text(const cb_move *m, char *buf, size_t len);
/* Text of a situation: hand, table, flags. */
void cbt_ctx_text(const cb_rules *r, const cb_ctx *ctx, char *buf, size_t len);

#endif

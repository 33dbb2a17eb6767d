/* cardbot plugins — the rule policy: play from a fewest-plays decomposition of the hand.
 *
 * The idea of the public rule agents of DDZ / PDK (decompose the hand into the fewest
 * combinations, lead the smallest group, follow with the smallest group that beats the table,
 * keep bombs), written here on core's exact min-hands instead of a hand-built splitter:
 * a play p is "a group of an optimal decomposition" exactly when
 *     cb_min_hands(hand - p) == cb_min_hands(hand) - 1,
 * so the rules never build the decomposition itself; they walk the legal plays in the order a
 * rule agent prefers and take the first that passes that test. The rules, in order:
 *
 *  - a play that empties the hand is taken;
 *  - leading: two plays left and one of them cannot be beaten by the cards still out (all the
 *    other seats' cards pooled: a safe over-estimate) -> that one first; a DDZ farmer (or a PDK
 *    seat against a 包庄 declarer) whose partner holds one card leads its lowest single; else
 *    the lowest group (lowest main rank, then the most cards, then the lowest kickers), where
 *    a shape the nearest opponent could finish with (a single when it holds one card, a pair
 *    when two) goes last and singles then go highest first; bombs, the rocket and plays that
 *    split a bomb come last of all;
 *  - following an opponent: the lowest group that beats the table; a 2 or a joker only on a
 *    table of J or above unless an opponent is about to go out (two cards or fewer), then the
 *    highest group instead; breaking a group only when about to lose or when the rules force a
 *    play (must_beat); a bomb only when it leaves at most one play (it wins the game) or an
 *    opponent is about to go out;
 *  - following the partner: pass, unless the partner's play is small (a single or pair below J)
 *    and one group over it leaves at most one play.
 * No search, no sampling, no card counting beyond "cards still out": deterministic.
 */
#ifndef CARDBOT_RULEBOT_RULE_H
#define CARDBOT_RULEBOT_RULE_H

#include <stdint.h>

#include "policy.h"
#include "situ.h"

typedef struct rb_cand {
    cb_counts counts;  /* the play (a sort key: lowest kickers first) */
    int idx;           /* into the workspace's move list */
    uint8_t cls;       /* 0 normal, 1 a shape the nearest opponent could finish with, 2 bomb */
    uint8_t main;      /* sort rank (reversed for "highest first") */
    uint8_t ncards;
    int8_t mh;         /* min-hands after, -1 not computed */
} rb_cand;

/* Buffers reused across decisions (one per instance; one per play-out user). */
typedef struct rb_ws {
    cb_move *moves;
    rb_cand *cands;
    int cap;
    cb_hws hws;        /* min-hands cache (its own move buffers are not used) */
    uint64_t decisions;
} rb_ws;

int rb_ws_init(rb_ws *ws);
void rb_ws_free(rb_ws *ws);

typedef struct rb_choice {
    cb_move move;      /* shape CB_PASS = pass */
    int mh_before, mh_after;
    uint32_t flags;    /* CB_DEC_BOMB, CB_DEC_ENDGAME, CB_DEC_COUNTED */
    int nmoves;        /* legal plays */
    const char *why;   /* a static string naming the rule that chose */
} rb_choice;

/* Choose a play for s->seat. Returns 0, or -1 when no legal play exists or memory runs out. */
int rb_choose(rb_ws *ws, const cb_situ *s, rb_choice *out);

/* A cb_deal_policy (user = rb_ws): the same rules on a perfect-information deal, reading only
 * the seat's own hand and the public part. */
int rb_deal_policy(void *user, const cb_deal *g, cb_move *out);

/* Bidding by a hand-strength count (see rule.c). DDZ: the score 0..3 to bid; PDK: 1 = 包庄. */
typedef struct rb_strength {
    int points;        /* DDZ: big joker 4, small joker 3, each 2 two, each bomb 5, rocket +2 */
    int min_hands;
    int bombs;
    int top;           /* cards no unseen card outranks (walking down from the top) */
} rb_strength;
void rb_strength_of(rb_ws *ws, const cb_rules *r, cb_cards hand, rb_strength *out);
int rb_bid_want(const cb_rules *r, const rb_strength *st);

#endif

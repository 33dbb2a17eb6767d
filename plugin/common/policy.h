/* cardbot plugins — the heuristic play policy (scoring legal plays without search).
 *
 * Shared by the heuristic plugin (its whole play logic) and by the ISMCTS plugin (candidates in
 * the tree, the opponent model of its belief, and play-outs with rollout = heuristic; its default
 * play-outs use rollout.h, which keeps these score terms and weights at a fraction of the cost).
 * Every legal play from core's cb_legal_moves gets a score in "plays" units (one unit is about
 * one more play needed to empty the hand):
 *   - structure: exact cb_min_hands of the hand after the play (for the candidates a cheap
 *     pre-score ranks best; all of them when exact_top = 0);
 *   - tempo: the chance the play holds the trick (nobody can beat it given what is still out —
 *     card counting, including what passes under must_beat prove a seat lacks — or, without
 *     counting, given every card I cannot see), because holding it means leading again;
 *   - the cost of spending control cards (cards few or no unseen cards outrank), low mains first;
 *   - cards shed; bomb management (keep bombs unless they win the game, stop an opponent about
 *     to go out, or — PDK — surely win their trick and its bomb points);
 *   - the threat of opponents near the end (a play they can beat when they hold few cards,
 *     passing an opponent's play when he holds few cards);
 *   - teams (DDZ farmers, PDK against a 包庄 declarer): do not beat the partner's holding play,
 *     feed a partner near the end;
 *   - endgame finishing: with two plays left, an unbeatable one first wins outright.
 * A play that empties the hand is always taken. Weaker configurations turn counting, teams and
 * endgame off, look at fewer kicker layouts and sample (softmax + blunders) within a loss cap.
 */
#ifndef CARDBOT_PLUGIN_POLICY_H
#define CARDBOT_PLUGIN_POLICY_H

#include <stdbool.h>

#include "rng.h"
#include "situ.h"

typedef struct cb_hweights {
    double lead;          /* the play holds the trick (I lead again) */
    double keep;          /* per control card spent (1 for a card nothing unseen outranks) */
    double rank;          /* main rank (leading) or rank above the table (following), per 12 */
    double shed;          /* per card played */
    double bomb;          /* a bomb spent when it neither wins nor stops anyone */
    double bombpts;       /* PDK: bomb points (per 10) times the chance the bomb holds */
    double threat;        /* opponents near the end who may beat the play */
    double coop;          /* partner's play that would hold: do not overtake it */
    double feed;          /* leading what a partner near the end can beat */
    double end;           /* endgame: the rest of the hand follows an unbeatable play */
} cb_hweights;

typedef struct cb_hcfg {
    int level;            /* 1..6, informational */
    bool counting;        /* use what has been played (else: every unseen card may be out) */
    bool team;            /* team play (DDZ farmers, PDK against a 包庄 declarer) */
    bool endgame;         /* endgame finishing */
    bool explain;         /* fill min-hands / value even for forced answers */
    int kick_layouts;     /* kicker layouts considered per main part (0 = all) */
    int exact_top;        /* candidates that get an exact min-hands after (0 = all) ... */
    int exact_all_upto;   /* ... except that hands of at most this many cards get it for all */
    double temperature;   /* softmax temperature over scores (0 = always the best) */
    double blunder;       /* chance of a uniform pick within the loss cap */
    double loss_cap;      /* never choose a play scoring more than this below the best */
    /* weights (plays units), [0] PDK, [1] DDZ */
    cb_hweights w[2];
} cb_hcfg;

/* Level 6's exact_top: plays scored with an exact min-hands after. ismcts's tree_exact and
 * rollout_exact default to it so that its opponent model plays as level 6 itself (one name:
 * a change of level 6 moves the model with it). */
#define CB_HCFG_EXACT_L6 48
/* A number macro as text ("48"), for parameter tables that print the default. */
#define CB_HCFG_STR_(x) #x
#define CB_HCFG_STR(x) CB_HCFG_STR_(x)

/* The configuration of a level 1..6 (clamped). Level 6 is the strongest and deterministic. */
void cb_hcfg_level(cb_hcfg *c, int level);
/* A fast deterministic configuration for rollouts (counting on, few exact min-hands). */
void cb_hcfg_rollout(cb_hcfg *c);

/* One scored candidate. */
typedef struct cb_hcand {
    int idx;              /* into the workspace's move list */
    float pre;            /* cheap pre-score */
    float score;          /* final score (valid when exact) */
    float risk;           /* chance an opponent beats the play */
    float orisk[3];       /* ... per opponent seat */
    int8_t mh;            /* min-hands after (exact when >= 0) */
    uint8_t exact;
} cb_hcand;

/* Put the best min(n, k) of c[0..n) at the front, best first by score, and return how many.
 * A partial selection sort (the lists are short): step j swaps c[j] with the first highest
 * score of c[j..n). Ties keep that order (the earlier at each step; the swaps move the
 * others), and the ismcts plays depend on it: it is the order both its candidate lists used. */
static inline int cb_hcand_best_first(cb_hcand *c, int n, int k)
{
    int j = 0;
    for (; j < n && j < k; j++) {
        int b = j;
        for (int i = j + 1; i < n; i++)
            if (c[i].score > c[b].score)
                b = i;
        cb_hcand tmp = c[b];
        c[b] = c[j];
        c[j] = tmp;
    }
    return j;
}

/* Move the best k pre-scores of c[from..n) to c[from..from+k) (k <= n - from), leaving c[] as
 * the partial selection sort by pre would — step j swaps c[j] with the first highest pre of
 * c[j..n) — but in about O(n + k log k) rather than O(k n): only the plays at or above the k-th
 * best pre can be chosen, and a step moves one of them at most. The same order in full,
 * unchosen plays included: the level-6 choice breaks ties by position. */
void cb_hcand_select_pre(cb_hcand *c, int from, int n, int k);

#define CB_MH_CACHE 2048  /* direct-mapped min-hands cache entries (power of two) */
#define CB_BT_CACHE 64    /* cached binomial tails of a seat's share of the unseen cards */

/* Workspace: buffers reused across decisions (one per instance / thread). */
typedef struct cb_hws {
    cb_move *moves;
    cb_hcand *cands;
    int cap;
    const cb_rules *mh_rules;          /* the rules the cache was filled under, by address: other
                                          rules at the same address need it set to NULL first
                                          (plugins get the shim's, fixed for its life) */
    cb_counts mh_key[CB_MH_CACHE];
    int8_t mh_val[CB_MH_CACHE];
    uint64_t mh_calls, mh_hits;        /* statistics */
    uint64_t exact_checked;            /* ... plays cb_heur_explains scored exactly besides the
                                          played one */
    uint64_t class_proofs;             /* ... its answers no proven by a class best alone */
    uint32_t bt_key[CB_BT_CACHE];      /* holding model: tails by share (policy.c), 0 = empty */
    float bt_val[CB_BT_CACHE][5][5];
} cb_hws;

int cb_hws_init(cb_hws *ws);
void cb_hws_free(cb_hws *ws);
/* cb_min_hands through the workspace cache. */
int cb_hws_min_hands(cb_hws *ws, const cb_rules *r, cb_counts hand);

typedef struct cb_hchoice {
    cb_move move;         /* the chosen play (shape CB_PASS = pass) */
    float score, best_score;
    float value;          /* crude win estimate 0..1 from the score terms */
    int mh_before, mh_after;  /* -1 unknown */
    uint32_t flags;       /* CB_DEC_* */
    int nmoves;           /* legal plays */
    int nexact;           /* candidates scored exactly */
    char why[80];         /* short reason */
} cb_hchoice;

/* Choose a play. rng is used only when the configuration samples. Returns 0, or -1 when no
 * legal play exists (a broken situation) or memory runs out. */
int cb_heur_choose(const cb_hcfg *cfg, const cb_situ *s, cb_hws *ws, cb_rng *rng, cb_hchoice *out);

/* Is `played` (rank counts; 0: the pass) the play cb_heur_choose would choose in s (rng NULL)?
 * The same answer as comparing its move's counts (0 for a pass) with played, for less work:
 * the played play is scored first, and only plays whose bound could beat it get an exact
 * min-hands — the first that does ends the question. Why: the belief replay asks exactly this
 * at every other-seat decision of thousands of worlds, and most worlds' answer is no.
 * hint (NULL: none): a play's counts whose class is tried first for a proof of no; on a no
 * proven that way, the play that proved it is written there (a hint changes the work, never
 * the answer). *nmoves gets cb_hchoice.nmoves (-1: out in one play, 1: forced). Returns 1, 0,
 * or -1 on failure (out of memory, no legal play). */
int cb_heur_explains(const cb_hcfg *cfg, const cb_situ *s, cb_hws *ws, cb_counts played, cb_counts *hint,
                     int *nmoves);

/* A cb_deal_policy for rollouts and tests: user = cb_heur_agent. */
typedef struct cb_heur_agent {
    cb_hcfg cfg;
    cb_hws ws;
    cb_rng rng;
    cb_hchoice last;
} cb_heur_agent;
int cb_heur_deal_policy(void *user, const cb_deal *g, cb_move *out);

/* Hand strength features for bidding (both plugins). */
typedef struct cb_hand_strength {
    int min_hands;
    int bombs;            /* four of a kind (and PDK AAA bombs when aaa_bomb) */
    int rocket;           /* DDZ both jokers */
    int twos, jokers, aces;
    int top_singles;      /* cards no unseen card outranks as a single */
    double score;         /* game-specific strength score (see strength.c) */
} cb_hand_strength;
void cb_hand_strength_of(const cb_rules *r, cb_cards hand, cb_hws *ws, cb_hand_strength *out);
/* The DDZ score (0..3) the heuristic bids on a strength score: its thresholds for bids 1, 2, 3
 * lowered by shift (weaker levels overbid). One place because ismcts models the other seats'
 * bids with level 6's rule (shift 0) when it prices passing (plugin/ismcts/bid.c). */
int cb_ddz_bid_want(double score, double shift);

/* Personalities (personality.c), evaluation opponents that are not ismcts's opponent model:
 * change c, already set by cb_hcfg_level, to play the style name — "none" (no change),
 * "bomber", "hoarder", "chain" or "careless"; personality.c lists what each changes and why.
 * Returns 0, or -1 (c unchanged) for an unknown name. */
int cb_hcfg_personality(cb_hcfg *c, const char *name);

#endif

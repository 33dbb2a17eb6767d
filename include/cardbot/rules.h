/* cardbot — rule sets, classification, beats, legal plays, min-hands, settlement.
 *
 * One implementation of the rules (core/), used by the console host, the shim's validation and
 * every plugin. Everything is a function of a cb_rules value: a preset plus variant flags, so a
 * house rule is a flag, not a fork. Plays are handled "by ranks" (cb_counts); suits matter only
 * when a host turns a play into actual cards (cb_cards_pick) and for the spade-3 rule.
 *
 * House-rule decisions (where the DESIGN leaves a choice, we took the most common app rule):
 *  - PDK four_with defaults to none in pdk16/pdk15 (four of a kind is only a bomb); guanpai: both.
 *  - PDK kickers are any cards of ranks outside the main part (pairs, repeats, 2s allowed);
 *    the 4th card of a triple's rank never rides as that triple's kicker.
 *  - short_triple = last: a bare triple / 三带一 / short plane is legal only as the hand's last
 *    play; it may then lead, or follow a full play of the same triple count and lower rank.
 *  - aaa_bomb: three As are a bomb above every four-of-a-kind (main = CB_MAIN_AAA).
 *  - warn_single (报单必顶): when the next seat holds one card, a single you play (lead or
 *    follow) must be your highest rank; other shapes are free. Passing stays legal where the
 *    other flags allow it.
 *  - must_beat: a seat that holds a play beating the table may not pass; bombs count only
 *    when must_beat_bomb is on. Leading never allows a pass.
 *  - 包庄 settlement replaces card-count settlement; bomb points are still paid.
 */
#ifndef CARDBOT_RULES_H
#define CARDBOT_RULES_H

#include "cards.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { CB_GAME_PDK = 1, CB_GAME_DDZ = 2, CB_GAME_NOIP = 3 } cb_game;
typedef enum { CB_SHORT_LAST = 0, CB_SHORT_ALWAYS = 1, CB_SHORT_NEVER = 2 } cb_short_rule;
/* four_with bits (PDK): four + 2 any cards, four + 3 any cards. DDZ always has 4+2 singles/pairs. */
enum { CB_FOUR_WITH_2 = 1, CB_FOUR_WITH_3 = 2 };

typedef struct cb_rules {
    cb_game game;
    char preset[16];          /* "pdk16", "pdk15", "guanpai", "ddz", "noip2015" */
    cb_cards deck;            /* the cards in play */
    uint8_t players;          /* 3 */
    uint8_t hand_size;        /* cards dealt per seat (noip2015: max hand size, 23) */
    uint8_t bottom;           /* DDZ bottom cards (3), else 0 */
    /* Which game reads a member is part of its contract: a member marked (PDK), (DDZ) or
     * (NOIP) below is read by that game only, and cb_rules_set refuses to set it on rules of
     * another game to anything but that game's own preset value (ddz: bao = false is
     * accepted and changes nothing; bao = true is refused naming the key). Unmarked members
     * are read by every game. */
    /* shapes */
    uint8_t min_pair_chain;   /* DDZ 3; PDK flag, default 3 (2 is the other common choice) */
    uint8_t short_triple;     /* cb_short_rule (PDK; ddz and noip2015 hold always: no short plays) */
    uint8_t four_with;        /* CB_FOUR_WITH_* bits (PDK; DDZ and NOIP have their own fours) */
    bool aaa_bomb;            /* (PDK) AAA is the top bomb */
    bool rocket_kickers;      /* (DDZ) allow X+D together as kickers (the looser action space) */
    bool four_two_same;       /* (NOIP) four + 2 singles may be two cards of one rank */
    /* flow */
    bool must_beat, must_beat_bomb, spade3_first, warn_single; /* spade3_first: (PDK) */
    bool rob;                 /* (DDZ) 叫/抢地主 bidding (call 1, rob 2, stake 2^robs) instead of 叫分 */
    /* scoring: PDK only (DDZ settles by bid, bombs and spring, with no flag) */
    int card_points;          /* (PDK) per card left (a single card left pays 0) */
    bool spring_double;       /* (PDK) 关门: a loser who never played pays double */
    int bomb_points;          /* (PDK) a bomb that wins its trick earns this from each other seat */
    bool bao;                 /* (PDK) 包庄 enabled */
    int bao_points;           /* (PDK) 包庄 stake per other seat */
    /* ---- PDK house rules added later (appended: the struct only grows at its end). Each
     * preset's default keeps the rules above exactly as they were. They shape PDK plays only:
     * DDZ already takes exact wings (one single or one pair per triple) and fixed chain
     * lengths: all four are (PDK), refused outside PDK but for the preset's own value (the
     * PDK default), as every game-specific member above. */
    /* plane_single_wings (飞机带单; default off): a plane of L triples + exactly L single
     * kickers of L distinct ranks outside the chain (333444 + 56; not + 55, never a 4th 3) is a
     * full play, also under short_triple = never, as in the apps that list 飞机带单 and
     * 飞机带对/带二 as separate shapes. It reads as CB_PLANE_1 with kick == len (full or short
     * is told by the cards: 333444 + 55 stays a short CB_PLANE_1). It beats / is beaten by a
     * plane + L singles of as many triples with a lower / higher chain, and never meets a
     * CB_PLANE_2 (another family and size): 飞机带单 and 飞机带二 do not beat each other. A
     * short plane of its size (444555 + 66) beats it only as 甩尾; it beats a short one of its
     * size (short_triple = always) by the chain. As the hand's last play under short_follow it
     * still follows a CB_PLANE_2 of as many triples and a lower chain (甩尾: fewer cards), so
     * the flag takes no play away. Off (ours): 333444 + 56 is a short plane like 333444 + 55. */
    bool plane_single_wings;
    /* plane_pair_wings (飞机带对; default off): a full plane's 2L kickers must be L pairs of L
     * distinct ranks outside the chain (333444 + 5566, not + 5555 or + 5678); CB_PLANE_2 keeps
     * its name. Off (ours, and apps whose 飞机 takes "any two cards per triple"): any 2L cards.
     * 2L kickers that are not L pairs are then no play at all (not even a short one: a short
     * plane has fewer than 2L kickers). Triples (三带二) keep any two cards. */
    bool plane_pair_wings;
    /* short_follow (甩尾; default on): under short_triple last / always, a short play that
     * empties the hand may follow a full play of its family with a lower main rank (bare
     * triple / 三带一 over 三带二; a plane of as many triples with fewer cards over a full
     * plane). Off (implementations without 甩尾): a short play never beats a full one; under
     * short_triple = last it may still be the hand's last play when leading, and under always
     * short plays still follow short plays of their own shape. */
    bool short_follow;
    /* max_pair_chain (0..12, default 0 = no cap beyond the hand size): the most pairs in a pair
     * chain (apps whose 连对 stop at 6 pairs set 6; a value below min_pair_chain leaves no pair
     * chain at all). */
    uint8_t max_pair_chain;
} cb_rules;

/* Fill *out with a preset; returns 0, or -1 for an unknown name. */
int cb_rules_preset(const char *name, cb_rules *out);
/* Override one flag by name with a text value ("must_beat" "false", "short_triple" "always",
 * "four_with" "both", "min_pair_chain" "2", ...). Returns 0, or -1 with a message naming the
 * key or the bad value, r unchanged. Keys: must_beat must_beat_bomb spade3_first warn_single
 * min_pair_chain short_triple four_with aaa_bomb rocket_kickers four_two_same rob card_points
 * spring_double bomb_points bao bao_points plane_single_wings plane_pair_wings short_follow
 * max_pair_chain. A key the rules' game does not read (marked in cb_rules: rob under pdk16,
 * bao under ddz, ...) takes only the value that game's preset holds, which changes nothing;
 * any other value is refused ("rules key 'bao': a PDK rule, not used by ddz; ..."), so a
 * config or a --flag cannot silently ask for a rule the game never plays. */
int cb_rules_set(cb_rules *r, const char *key, const char *value, char *err, size_t errlen);
/* The list of flag names, NULL-terminated (for help texts and config validation). */
extern const char *const cb_rules_keys[];
/* Do a and b describe the same rules (every member, compared field by field: padding bytes
 * of struct copies need not agree)? */
bool cb_rules_equal(const cb_rules *a, const cb_rules *b);

typedef enum cb_shape {
    CB_PASS = 0,
    CB_SINGLE, CB_PAIR, CB_TRIPLE,  /* bare triple (PDK: short) */
    CB_TRIPLE_1,                    /* triple + 1 single (PDK: short) */
    CB_TRIPLE_2,                    /* DDZ/NOIP: triple + 1 pair; PDK 三带二: triple + any 2 cards */
    CB_STRAIGHT, CB_PAIR_CHAIN,
    CB_PLANE,                       /* >= 2 consecutive triples, bare (PDK: short) */
    CB_PLANE_1,                     /* DDZ: one single per triple; PDK: short, 1..2L-1 kickers */
    CB_PLANE_2,                     /* DDZ: one pair per triple; PDK: two any cards per triple */
    CB_FOUR_2,                      /* four + 2 singles (DDZ/NOIP; PDK four_with 2: any 2) */
    CB_FOUR_22,                     /* four + 2 pairs (DDZ/NOIP) */
    CB_FOUR_3,                      /* PDK four_with 3: four + any 3 */
    CB_BOMB,                        /* four of a rank (PDK aaa_bomb: AAA) */
    CB_ROCKET,                      /* X + D (DDZ/NOIP) */
    CB_NSHAPES
} cb_shape;

#define CB_MAIN_AAA 15 /* main rank of the PDK AAA bomb: above every four-of-a-kind */

/* A play, by ranks. main = lowest rank of the main part (the triple's rank, the chain's first
 * rank, the four's rank); len = chain units (1 for non-chains); kick = kicker cards. */
typedef struct cb_move {
    cb_counts counts;
    uint8_t shape;  /* cb_shape */
    uint8_t main;
    uint8_t len;
    uint8_t ncards;
    uint8_t kick;
    uint8_t pad[3];
} cb_move;

extern const char *const cb_shape_names[CB_NSHAPES]; /* "pass", "single", ... */

/* Classify rank counts as one play under r. Returns true and fills *m (the canonical reading:
 * when a multiset reads several ways, the one that is not short, then the highest shape order
 * above, then the longest len, then the highest main rank), or false with a reason in why
 * (may be NULL). Examples: PDK 3334445556 reads as the full plane 444555 + 3336; DDZ
 * 333444555666 only as a bare plane of 4 (a triple beside the chain is never its kicker). */
bool cb_classify(const cb_rules *r, cb_counts k, cb_move *m, char *why, size_t whylen);
/* All readings of k under r (a multiset may be e.g. a full plane or a short longer plane).
 * Returns how many, writes up to cap. */
int cb_readings(const cb_rules *r, cb_counts k, cb_move *out, int cap);

/* Does `play` beat `table`? whole_hand: play empties the player's hand (enables PDK short
 * triples / planes following a full one of as many triples). Pure shape comparison: flags
 * such as must_beat are for cb_legal_moves. */
bool cb_beats(const cb_rules *r, const cb_move *play, const cb_move *table, bool whole_hand);

/* The situation of one decision. */
typedef struct cb_ctx {
    cb_counts hand;          /* the deciding seat's hand */
    const cb_move *table;    /* play to beat, NULL when leading */
    bool next_has_one;       /* the next seat holds exactly one card (warn_single) */
    bool first_play;         /* the game's first play (spade3_first: must contain a 3, i.e. the spade 3) */
} cb_ctx;

/* Every distinct legal play by ranks, kickers without duplicates. When following, a pass
 * (shape CB_PASS) comes first if the flags allow it. Returns the number of plays; writes at
 * most cap of them (out may be NULL with cap 0 to count). CB_MOVES_CAP bounds any hand. */
#define CB_MOVES_CAP 32768
int cb_legal_moves(const cb_rules *r, const cb_ctx *ctx, cb_move *out, int cap);

/* cb_legal_moves with options (flags = 0: exactly cb_legal_moves; unknown bits are ignored).
 *
 * CB_GEN_KICK_LOWEST: one play per kicker class. Plays with kickers (kick > 0) that share
 * (shape, main, len, kick) differ only in which cards ride along; a caller that scores the
 * main part and places kickers by a fixed rule (a rollout policy) need not see every layout:
 * PDK's "any two cards per triple" gives a 16-card hand up to 322 of them, where this lists
 * 45 plays in all. Each class is listed once, with its lowest layout: the smallest counts
 * word, i.e. the layout whose highest kicker rank is lowest, then the next highest, ... —
 * 33344 before 33345 before 33355 before 3334K. The representative is one of the layouts
 * cb_legal_moves lists (so it is legal here: spade 3, warn_single, beating the table all
 * hold), and a class is present exactly when cb_legal_moves lists some play of it. The list
 * is cb_legal_moves' list with each class's layouts replaced by that one play at the place of
 * the first (plays without kickers and the pass stay as they are); the return value and cap
 * behave as there. The whole hand, when it is a legal play, is listed as in cb_legal_moves (a
 * class of plays as big as the hand has that one layout). It also costs less: the kicker
 * loops stop at the lowest layout. */
#define CB_GEN_KICK_LOWEST 1u
int cb_legal_moves_ex(const cb_rules *r, const cb_ctx *ctx, cb_move *out, int cap, unsigned flags);

/* Is this one play legal here (the same rules as cb_legal_moves, without generating them)?
 * On false, why names the rule broken. The shim validates plugin answers with this. */
bool cb_play_legal(const cb_rules *r, const cb_ctx *ctx, cb_counts play, cb_move *m, char *why, size_t whylen);

/* Every distinct play by ranks that the rules allow from the full deck (leading, no flags).
 * Returns the count; writes up to cap. ddz: 27,471. */
int cb_universe(const cb_rules *r, cb_move *out, int cap);

/* Exact fewest plays that empty the hand (no node budget). PDK short_triple = last allows one
 * short play in the partition. Returns 0 for the empty hand, -1 when the hand is impossible
 * under r (more of a rank than the deck holds) or r is NULL / unknown. */
int cb_min_hands(const cb_rules *r, cb_counts hand);

/* ---- settlement ---- */
typedef struct cb_ddz_result {
    int landlord;       /* seat */
    int bid;            /* 1..3 */
    int bombs;          /* bombs + rockets played by anyone */
    int winner;         /* seat that went out first */
    int landlord_plays; /* plays (not passes) the landlord made */
    int farmer_plays;   /* plays (not passes) both farmers made */
} cb_ddz_result;
/* Multiplier = bid x 2^bombs x 2 (spring: farmers never played / anti-spring: landlord played
 * only its first lead). Landlord +/- 2 x mult, each farmer -/+ mult. Returns the multiplier. */
int cb_ddz_settle(const cb_rules *r, const cb_ddz_result *res, int delta[3]);

typedef struct cb_pdk_result {
    int winner;           /* first out */
    int cards_left[3];
    int plays[3];         /* plays (not passes) each seat made */
    int bomb_tricks[3];   /* bombs each seat played that won their trick */
    int bao;              /* 包庄 declarer seat, or -1 */
} cb_pdk_result;
/* Card points (1 card left pays 0; a loser with no play pays double under spring_double),
 * bombs (bomb_points from each other seat per winning bomb), 包庄 (replaces card points).
 * Sum of deltas is always 0. */
void cb_pdk_settle(const cb_rules *r, const cb_pdk_result *res, int delta[3]);

/* ---- appended in 1.2.0: helpers every caller used to re-derive ---- */

/* Is m a bomb in the counting sense: four of a kind (PDK aaa_bomb: AAA) or the rocket — the
 * plays cb_view.bombs counts, the DDZ stake doubles for and PDK pays bomb points for. Inline:
 * play-outs ask it of every play they score. (What beats what is cb_beats'; the pass proofs
 * of cb_voids_on_pass read a four and the rocket apart, as they prove different things.) */
static inline bool cb_move_is_bomb(const cb_move *m) { return m->shape == CB_BOMB || m->shape == CB_ROCKET; }

/* Fill the situation of one decision from what the deciding seat sees: its cards `hand`, the
 * play to beat (`table`, NULL when leading; ctx->table points at it), the next seat's card
 * count (warn_single) and whether no card has been played yet in the deal. first_play is set
 * exactly when the spade-3 rule binds: PDK with spade3_first, nothing played yet, and the
 * hand holds the spade 3 (CB_CARD_S3). Hosts, view checks, plugins and play-outs all build
 * their cb_ctx here, so they cannot disagree about that rule. */
void cb_ctx_make(cb_ctx *ctx, const cb_rules *r, cb_cards hand, const cb_move *table, int next_left,
                 bool nothing_played);

/* The value of rules flag `key` in r as cb_rules_set reads it back ("true", "3", "last",
 * "both"), into buf, and its kind for writers of typed formats (JSON): CB_FLAG_BOOL ("true" /
 * "false"), CB_FLAG_NUMBER (decimal digits), CB_FLAG_WORD (a word of the flag's own, four_with's
 * "2" and "3" included). 0, or -1 for a key cb_rules_keys lacks. Appended in 1.2.0: the one
 * reader of flags (the protocol codec and replay headers write rules through it). */
typedef enum cb_flag_kind { CB_FLAG_BOOL = 0, CB_FLAG_NUMBER = 1, CB_FLAG_WORD = 2 } cb_flag_kind;
int cb_rules_get(const cb_rules *r, const char *key, char *buf, size_t len, cb_flag_kind *kind);

#ifdef __cplusplus
}
#endif
#endif

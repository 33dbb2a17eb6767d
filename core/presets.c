/* cardbot — rule presets (pdk16, pdk15, guanpai, ddz, noip2015), setting flags by name, and the
 * shape names. The defaults are those of DESIGN.md and the decisions in rules.h. */
#include "cardbot/rules.h"
#include "msg.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const cb_shape_names[CB_NSHAPES] = {
    "pass", "single", "pair", "triple", "triple_1", "triple_2", "straight", "pair_chain",
    "plane", "plane_1", "plane_2", "four_2", "four_22", "four_3", "bomb", "rocket",
};

/* Keep in the same order as the key table in cb_rules_set below. */
const char *const cb_rules_keys[] = {
    "must_beat", "must_beat_bomb", "spade3_first", "warn_single", "min_pair_chain",
    "short_triple", "four_with", "aaa_bomb", "rocket_kickers", "four_two_same", "rob",
    "card_points", "spring_double", "bomb_points", "bao", "bao_points", "plane_single_wings",
    "plane_pair_wings", "short_follow", "max_pair_chain", NULL,
};

/* The 52 ranked cards (no jokers). */
#define DECK_NO_JOKERS ((cb_cards)0xFFFFFFFFFFFFFull)

static cb_cards pdk16_deck(void)
{
    cb_cards d = DECK_NO_JOKERS;
    /* of the 2s only the spade 2 stays; the spade A goes (three As left) */
    d &= ~cb_card_bit(cb_card_id(CB_RANK_2, CB_SUIT_H));
    d &= ~cb_card_bit(cb_card_id(CB_RANK_2, CB_SUIT_C));
    d &= ~cb_card_bit(cb_card_id(CB_RANK_2, CB_SUIT_D));
    d &= ~cb_card_bit(cb_card_id(CB_RANK_A, CB_SUIT_S));
    return d;
}

static void pdk_defaults(cb_rules *r)
{
    r->game = CB_GAME_PDK;
    r->deck = pdk16_deck();
    r->players = 3;
    r->hand_size = 16;
    r->bottom = 0;
    r->min_pair_chain = 3;
    r->short_triple = CB_SHORT_LAST;
    r->four_with = 0;
    r->aaa_bomb = false;
    r->must_beat = r->must_beat_bomb = r->spade3_first = r->warn_single = true;
    r->card_points = 1;
    r->spring_double = true;
    r->bomb_points = 10;
    r->bao = true;
    r->bao_points = 32;
    r->plane_single_wings = false;
    r->plane_pair_wings = false;
    r->short_follow = true;
    r->max_pair_chain = 0;
}

int cb_rules_preset(const char *name, cb_rules *out)
{
    if (!name || !out)
        return -1;
    cb_rules r;
    memset(&r, 0, sizeof r);
    if (strcmp(name, "pdk16") == 0) {
        pdk_defaults(&r);
    } else if (strcmp(name, "pdk15") == 0) {
        pdk_defaults(&r);
        r.deck &= ~cb_card_bit(cb_card_id(CB_RANK_A, CB_SUIT_H));
        r.deck &= ~cb_card_bit(cb_card_id(CB_RANK_A, CB_SUIT_C));
        r.deck &= ~cb_card_bit(cb_card_id(CB_RANK_K, CB_SUIT_S));
        r.hand_size = 15;
    } else if (strcmp(name, "guanpai") == 0) {
        pdk_defaults(&r);
        r.four_with = CB_FOUR_WITH_2 | CB_FOUR_WITH_3;
        r.bao = false;
    } else if (strcmp(name, "ddz") == 0) {
        r.game = CB_GAME_DDZ;
        r.deck = CB_FULL_DECK;
        r.players = 3;
        r.hand_size = 17;
        r.bottom = 3;
        r.min_pair_chain = 3;
        r.short_triple = CB_SHORT_ALWAYS; /* DDZ has no short plays: a bare triple is always fine */
        r.short_follow = true; /* the PDK-only keys hold their PDK default (see cb_rules_set) */
    } else if (strcmp(name, "noip2015") == 0) {
        /* a one-hand puzzle (min-hands only): one "player" holding up to 23 cards */
        r.game = CB_GAME_NOIP;
        r.deck = CB_FULL_DECK;
        r.players = 1;
        r.hand_size = 23;
        r.bottom = 0;
        r.min_pair_chain = 3;
        r.short_triple = CB_SHORT_ALWAYS;
        r.four_two_same = true;
        r.short_follow = true;
    } else {
        return -1;
    }
    snprintf(r.preset, sizeof r.preset, "%s", name);
    *out = r;
    return 0;
}

typedef enum { K_BOOL, K_U8, K_INT, K_SHORT, K_FOUR } key_kind;

static const struct {
    const char *key;
    key_kind kind;
    size_t off;
    int lo, hi;    /* integer range (K_U8, K_INT) */
    bool pdk_only; /* a PDK house rule: other games take only its default value (rules.h) */
} key_table[] = {
    { "must_beat", K_BOOL, offsetof(cb_rules, must_beat), 0, 0, false },
    { "must_beat_bomb", K_BOOL, offsetof(cb_rules, must_beat_bomb), 0, 0, false },
    { "spade3_first", K_BOOL, offsetof(cb_rules, spade3_first), 0, 0, false },
    { "warn_single", K_BOOL, offsetof(cb_rules, warn_single), 0, 0, false },
    { "min_pair_chain", K_U8, offsetof(cb_rules, min_pair_chain), 2, 3, false },
    { "short_triple", K_SHORT, offsetof(cb_rules, short_triple), 0, 0, false },
    { "four_with", K_FOUR, offsetof(cb_rules, four_with), 0, 0, false },
    { "aaa_bomb", K_BOOL, offsetof(cb_rules, aaa_bomb), 0, 0, false },
    { "rocket_kickers", K_BOOL, offsetof(cb_rules, rocket_kickers), 0, 0, false },
    { "four_two_same", K_BOOL, offsetof(cb_rules, four_two_same), 0, 0, false },
    { "rob", K_BOOL, offsetof(cb_rules, rob), 0, 0, false },
    { "card_points", K_INT, offsetof(cb_rules, card_points), 0, 1000, false },
    { "spring_double", K_BOOL, offsetof(cb_rules, spring_double), 0, 0, false },
    { "bomb_points", K_INT, offsetof(cb_rules, bomb_points), 0, 100000, false },
    { "bao", K_BOOL, offsetof(cb_rules, bao), 0, 0, false },
    { "bao_points", K_INT, offsetof(cb_rules, bao_points), 0, 100000, false },
    { "plane_single_wings", K_BOOL, offsetof(cb_rules, plane_single_wings), 0, 0, true },
    { "plane_pair_wings", K_BOOL, offsetof(cb_rules, plane_pair_wings), 0, 0, true },
    { "short_follow", K_BOOL, offsetof(cb_rules, short_follow), 0, 0, true },
    { "max_pair_chain", K_U8, offsetof(cb_rules, max_pair_chain), 0, 12, true },
};

/* a message for the caller, and -1 */
#define set_err(err, errlen, ...) core_msg_ret(-1, (err), (errlen), __VA_ARGS__)

static int parse_bool(const char *v, bool *out)
{
    static const char *const yes[] = { "true", "1", "yes", "on" };
    static const char *const no[] = { "false", "0", "no", "off" };
    for (size_t i = 0; i < 4; i++) {
        if (strcasecmp(v, yes[i]) == 0) { *out = true; return 0; }
        if (strcasecmp(v, no[i]) == 0) { *out = false; return 0; }
    }
    return -1;
}

/* Decimal integer with optional sign and nothing else; -1 on anything else or overflow. */
static int parse_int(const char *v, long *out)
{
    const char *p = v;
    if (*p == '+' || *p == '-')
        p++;
    if (!isdigit((unsigned char)*p))
        return -1;
    errno = 0;
    char *end = NULL;
    long x = strtol(v, &end, 10);
    if (errno || *end != '\0')
        return -1;
    *out = x;
    return 0;
}

/* A PDK-only key (key_table[i].pdk_only) set to `size` bytes at `val` on rules of another game:
 * refused unless it is the PDK default, which changes nothing there. DDZ planes already take
 * exact wings and DDZ chains have fixed lengths, so a non-default value would be silently
 * meaningless: better a message naming the key. */
static int pdk_only_check(size_t i, const cb_rules *r, const void *val, size_t size, char *err,
                          size_t errlen)
{
    if (!key_table[i].pdk_only || r->game == CB_GAME_PDK)
        return 0;
    cb_rules d;
    memset(&d, 0, sizeof d);
    pdk_defaults(&d);
    if (memcmp((const char *)&d + key_table[i].off, val, size) == 0)
        return 0;
    return set_err(err, errlen, "rules key '%s': a PDK house rule, not used by %s (its planes "
                   "take exact wings and its chains have fixed lengths); only the default is "
                   "accepted here", key_table[i].key, r->preset[0] ? r->preset : "this game");
}

int cb_rules_set(cb_rules *r, const char *key, const char *value, char *err, size_t errlen)
{
    if (!r || !key)
        return set_err(err, errlen, "rules: no rules or no key given");
    if (!value)
        return set_err(err, errlen, "rules key '%s': no value", key);
    size_t n = sizeof key_table / sizeof key_table[0];
    size_t i = 0;
    while (i < n && strcmp(key_table[i].key, key) != 0)
        i++;
    if (i == n) {
        char known[400] = "";
        size_t used = 0;
        for (size_t j = 0; cb_rules_keys[j] && used < sizeof known; j++)
            used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", j ? " " : "",
                                     cb_rules_keys[j]);
        return set_err(err, errlen, "unknown rules key '%s' (known: %s)", key, known);
    }
    char *field = (char *)r + key_table[i].off;
    switch (key_table[i].kind) {
    case K_BOOL: {
        bool b;
        if (parse_bool(value, &b) != 0)
            return set_err(err, errlen, "rules key '%s': bad value '%s' (expected true/false, "
                           "1/0, yes/no or on/off)", key, value);
        if (pdk_only_check(i, r, &b, sizeof b, err, errlen) != 0)
            return -1;
        memcpy(field, &b, sizeof b);
        return 0;
    }
    case K_U8:
    case K_INT: {
        long x;
        if (parse_int(value, &x) != 0 || x < key_table[i].lo || x > key_table[i].hi)
            return set_err(err, errlen, "rules key '%s': bad value '%s' (expected an integer "
                           "%d..%d)", key, value, key_table[i].lo, key_table[i].hi);
        if (key_table[i].kind == K_U8) {
            uint8_t u = (uint8_t)x;
            if (pdk_only_check(i, r, &u, sizeof u, err, errlen) != 0)
                return -1;
            memcpy(field, &u, sizeof u);
        } else {
            int v = (int)x;
            memcpy(field, &v, sizeof v);
        }
        return 0;
    }
    case K_SHORT: {
        uint8_t s;
        if (strcasecmp(value, "last") == 0)
            s = CB_SHORT_LAST;
        else if (strcasecmp(value, "always") == 0)
            s = CB_SHORT_ALWAYS;
        else if (strcasecmp(value, "never") == 0)
            s = CB_SHORT_NEVER;
        else
            return set_err(err, errlen, "rules key '%s': bad value '%s' (expected last, always "
                           "or never)", key, value);
        memcpy(field, &s, sizeof s);
        return 0;
    }
    case K_FOUR: {
        uint8_t f;
        if (strcasecmp(value, "none") == 0)
            f = 0;
        else if (strcmp(value, "2") == 0)
            f = CB_FOUR_WITH_2;
        else if (strcmp(value, "3") == 0)
            f = CB_FOUR_WITH_3;
        else if (strcasecmp(value, "both") == 0)
            f = CB_FOUR_WITH_2 | CB_FOUR_WITH_3;
        else
            return set_err(err, errlen, "rules key '%s': bad value '%s' (expected none, 2, 3 or "
                           "both)", key, value);
        memcpy(field, &f, sizeof f);
        return 0;
    }
    }
    return set_err(err, errlen, "rules key '%s': internal error", key);
}

/* Field by field (padding bytes are not reliably equal after struct copies). Every member of
 * cb_rules is listed: a member added at the end must be added here too. */
bool cb_rules_equal(const cb_rules *a, const cb_rules *b)
{
    if (!a || !b)
        return a == b;
    return a->game == b->game && strcmp(a->preset, b->preset) == 0 && a->deck == b->deck &&
           a->players == b->players && a->hand_size == b->hand_size && a->bottom == b->bottom &&
           a->min_pair_chain == b->min_pair_chain && a->short_triple == b->short_triple &&
           a->four_with == b->four_with && a->aaa_bomb == b->aaa_bomb &&
           a->rocket_kickers == b->rocket_kickers && a->four_two_same == b->four_two_same &&
           a->must_beat == b->must_beat && a->must_beat_bomb == b->must_beat_bomb &&
           a->spade3_first == b->spade3_first && a->warn_single == b->warn_single &&
           a->rob == b->rob && a->card_points == b->card_points &&
           a->spring_double == b->spring_double && a->bomb_points == b->bomb_points &&
           a->bao == b->bao && a->bao_points == b->bao_points &&
           a->plane_single_wings == b->plane_single_wings &&
           a->plane_pair_wings == b->plane_pair_wings && a->short_follow == b->short_follow &&
           a->max_pair_chain == b->max_pair_chain;
}

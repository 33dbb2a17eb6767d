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
        r.short_follow = true; /* as in PDK: DDZ never reads it (see cb_rules_set) */
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

/* The games a key means something in (rules.h says which member each game reads). */
enum { G_PDK = 1 << CB_GAME_PDK, G_DDZ = 1 << CB_GAME_DDZ, G_NOIP = 1 << CB_GAME_NOIP,
       G_ALL = G_PDK | G_DDZ | G_NOIP };

static const struct {
    const char *key;
    key_kind kind;
    size_t off;
    int lo, hi;    /* integer range (K_U8, K_INT) */
    unsigned games; /* G_*: the games whose code reads the member; any other game takes only
                     * its own preset's value (rules_game_check) */
} key_table[] = {
    { "must_beat", K_BOOL, offsetof(cb_rules, must_beat), 0, 0, G_ALL },
    { "must_beat_bomb", K_BOOL, offsetof(cb_rules, must_beat_bomb), 0, 0, G_ALL },
    { "spade3_first", K_BOOL, offsetof(cb_rules, spade3_first), 0, 0, G_PDK },
    { "warn_single", K_BOOL, offsetof(cb_rules, warn_single), 0, 0, G_ALL },
    { "min_pair_chain", K_U8, offsetof(cb_rules, min_pair_chain), 2, 3, G_ALL },
    { "short_triple", K_SHORT, offsetof(cb_rules, short_triple), 0, 0, G_PDK },
    { "four_with", K_FOUR, offsetof(cb_rules, four_with), 0, 0, G_PDK },
    { "aaa_bomb", K_BOOL, offsetof(cb_rules, aaa_bomb), 0, 0, G_PDK },
    { "rocket_kickers", K_BOOL, offsetof(cb_rules, rocket_kickers), 0, 0, G_DDZ },
    { "four_two_same", K_BOOL, offsetof(cb_rules, four_two_same), 0, 0, G_NOIP },
    { "rob", K_BOOL, offsetof(cb_rules, rob), 0, 0, G_DDZ },
    { "card_points", K_INT, offsetof(cb_rules, card_points), 0, 1000, G_PDK },
    { "spring_double", K_BOOL, offsetof(cb_rules, spring_double), 0, 0, G_PDK },
    { "bomb_points", K_INT, offsetof(cb_rules, bomb_points), 0, 100000, G_PDK },
    { "bao", K_BOOL, offsetof(cb_rules, bao), 0, 0, G_PDK },
    { "bao_points", K_INT, offsetof(cb_rules, bao_points), 0, 100000, G_PDK },
    { "plane_single_wings", K_BOOL, offsetof(cb_rules, plane_single_wings), 0, 0, G_PDK },
    { "plane_pair_wings", K_BOOL, offsetof(cb_rules, plane_pair_wings), 0, 0, G_PDK },
    { "short_follow", K_BOOL, offsetof(cb_rules, short_follow), 0, 0, G_PDK },
    { "max_pair_chain", K_U8, offsetof(cb_rules, max_pair_chain), 0, 12, G_PDK },
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

/* The preset whose values stand for "not played here" in a game: the presets of one game
 * agree on every key that game does not read (pdk16, pdk15 and guanpai differ only in PDK
 * keys), so any of them would do. NULL for a value that names no game. */
static const char *game_preset(int game)
{
    switch (game) {
    case CB_GAME_PDK: return "pdk16";
    case CB_GAME_DDZ: return "ddz";
    case CB_GAME_NOIP: return "noip2015";
    }
    return NULL;
}

/* A value of key_table[i]'s kind as a config would write it. */
static void value_text(size_t i, const void *val, char *buf, size_t len)
{
    uint8_t u = 0;
    int x = 0;
    bool b = false;
    switch (key_table[i].kind) {
    case K_BOOL:
        memcpy(&b, val, sizeof b);
        snprintf(buf, len, "%s", b ? "true" : "false");
        return;
    case K_U8:
        memcpy(&u, val, sizeof u);
        snprintf(buf, len, "%u", (unsigned)u);
        return;
    case K_INT:
        memcpy(&x, val, sizeof x);
        snprintf(buf, len, "%d", x);
        return;
    case K_SHORT:
        memcpy(&u, val, sizeof u);
        snprintf(buf, len, "%s", u == CB_SHORT_LAST ? "last" : u == CB_SHORT_ALWAYS ? "always" : "never");
        return;
    case K_FOUR:
        memcpy(&u, val, sizeof u);
        snprintf(buf, len, "%s", u == 0 ? "none" : u == CB_FOUR_WITH_2 ? "2" : u == CB_FOUR_WITH_3 ? "3" : "both");
        return;
    }
    snprintf(buf, len, "?");
}

int cb_rules_get(const cb_rules *r, const char *key, char *buf, size_t len, cb_flag_kind *kind)
{
    for (size_t i = 0; i < sizeof key_table / sizeof key_table[0]; i++) {
        if (strcmp(key_table[i].key, key) != 0)
            continue;
        value_text(i, (const char *)r + key_table[i].off, buf, len);
        if (kind)
            *kind = key_table[i].kind == K_BOOL ? CB_FLAG_BOOL
                    : key_table[i].kind == K_U8 || key_table[i].kind == K_INT ? CB_FLAG_NUMBER
                                                                              : CB_FLAG_WORD;
        return 0;
    }
    return -1;
}

/* key_table[i] set to `size` bytes at `val` on rules r: refused when r's game does not read the
 * key, unless the value is the one the game's own preset holds (it changes nothing, and so a
 * full list of keys read from any rules can be written back to them). Why refuse: the game's
 * code never looks at the member, so `bao = true` under ddz or `rob = true` under pdk16 would
 * be accepted and silently mean nothing — a config that says one game and plays another. One
 * owner: the shim's [rules] and the CLI's --flag both come through here. */
static int rules_game_check(size_t i, const cb_rules *r, const void *val, size_t size, char *err,
                            size_t errlen)
{
    const char *base = game_preset(r->game);
    if (!base || (key_table[i].games & (1u << r->game)))
        return 0; /* no game to judge by (a zeroed struct), or a key the game reads */
    cb_rules d;
    if (cb_rules_preset(base, &d) != 0)
        return set_err(err, errlen, "rules key '%s': internal error (preset %s)", key_table[i].key, base);
    const void *own = (const char *)&d + key_table[i].off;
    if (memcmp(own, val, size) == 0)
        return 0;
    unsigned g = key_table[i].games;
    const char *owner = g == G_PDK ? "a PDK rule" : g == G_DDZ ? "a DDZ rule"
                      : g == G_NOIP ? "a noip2015 rule" : "a rule of other games";
    const char *game = r->preset[0] ? r->preset : base;
    char want[16], got[16];
    value_text(i, own, want, sizeof want);
    value_text(i, val, got, sizeof got);
    return set_err(err, errlen, "rules key '%s': %s, not used by %s; only %s's own value '%s' "
                   "is accepted (it changes nothing), not '%s'", key_table[i].key, owner, game,
                   game, want, got);
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
    /* parse into the member's own representation, check it against the game, then store */
    union {
        bool b;
        uint8_t u;
        int x;
    } val;
    size_t size = 0;
    switch (key_table[i].kind) {
    case K_BOOL:
        if (parse_bool(value, &val.b) != 0)
            return set_err(err, errlen, "rules key '%s': bad value '%s' (expected true/false, "
                           "1/0, yes/no or on/off)", key, value);
        size = sizeof val.b;
        break;
    case K_U8:
    case K_INT: {
        long x;
        if (parse_int(value, &x) != 0 || x < key_table[i].lo || x > key_table[i].hi)
            return set_err(err, errlen, "rules key '%s': bad value '%s' (expected an integer "
                           "%d..%d)", key, value, key_table[i].lo, key_table[i].hi);
        if (key_table[i].kind == K_U8) {
            val.u = (uint8_t)x;
            size = sizeof val.u;
        } else {
            val.x = (int)x;
            size = sizeof val.x;
        }
        break;
    }
    case K_SHORT:
        if (strcasecmp(value, "last") == 0)
            val.u = CB_SHORT_LAST;
        else if (strcasecmp(value, "always") == 0)
            val.u = CB_SHORT_ALWAYS;
        else if (strcasecmp(value, "never") == 0)
            val.u = CB_SHORT_NEVER;
        else
            return set_err(err, errlen, "rules key '%s': bad value '%s' (expected last, always "
                           "or never)", key, value);
        size = sizeof val.u;
        break;
    case K_FOUR:
        if (strcasecmp(value, "none") == 0)
            val.u = 0;
        else if (strcmp(value, "2") == 0)
            val.u = CB_FOUR_WITH_2;
        else if (strcmp(value, "3") == 0)
            val.u = CB_FOUR_WITH_3;
        else if (strcasecmp(value, "both") == 0)
            val.u = CB_FOUR_WITH_2 | CB_FOUR_WITH_3;
        else
            return set_err(err, errlen, "rules key '%s': bad value '%s' (expected none, 2, 3 or "
                           "both)", key, value);
        size = sizeof val.u;
        break;
    }
    if (size == 0)
        return set_err(err, errlen, "rules key '%s': internal error", key);
    if (rules_game_check(i, r, &val, size, err, errlen) != 0)
        return -1;
    memcpy((char *)r + key_table[i].off, &val, size);
    return 0;
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

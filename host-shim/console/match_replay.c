/* cardbot match — one JSON line per game for --replay (json-glib builds and prints it); the
 * fuller line of a results file (--results, read back by cardbot merge) and its decoder.
 *
 * Plugin-supplied values are made safe for JSON here: explanation text that is not UTF-8 is
 * repaired (g_utf8_make_valid: bad bytes become U+FFFD), a value that is not a finite number
 * (NaN, inf) is left out as "unknown", and a counter above INT64_MAX is written as a decimal
 * string (json-glib writes integers as gint64). */
#include <json-glib/json-glib.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "match.h"
#include "match_json.h"

static void add_cards(JsonBuilder *b, const char *key, cb_cards c)
{
    char buf[200];
    cb_cards_format(c, true, buf, sizeof buf);
    json_builder_set_member_name(b, key);
    json_builder_add_string_value(b, buf);
}

static void add_u64(JsonBuilder *b, const char *key, uint64_t v)
{
    json_builder_set_member_name(b, key);
    if (v <= (uint64_t)G_MAXINT64) {
        json_builder_add_int_value(b, (gint64)v);
    } else {
        char buf[24];
        snprintf(buf, sizeof buf, "%" G_GUINT64_FORMAT, (guint64)v);
        json_builder_add_string_value(b, buf);
    }
}

static void add_int_array(JsonBuilder *b, const char *key, const int v[3])
{
    json_builder_set_member_name(b, key);
    json_builder_begin_array(b);
    for (int s = 0; s < 3; s++)
        json_builder_add_int_value(b, v[s]);
    json_builder_end_array(b);
}

static void add_value(JsonBuilder *b, float v)
{
    if (!isfinite(v))
        return;
    json_builder_set_member_name(b, "value");
    json_builder_add_double_value(b, v);
}

/* A plugin's text: cut at the buffer's end, made valid UTF-8. */
static void add_text(JsonBuilder *b, const char *key, const char *text, size_t cap)
{
    char *valid = g_utf8_make_valid(text, (gssize)strnlen(text, cap));
    json_builder_set_member_name(b, key);
    json_builder_add_string_value(b, valid);
    g_free(valid);
}

static void add_flags(JsonBuilder *b, uint32_t f)
{
    static const char *const names[] = {"BOMB", "ENDGAME", "COUNTED", "SUBOPTIMAL", "FALLBACK"};
    json_builder_set_member_name(b, "flags");
    json_builder_begin_array(b);
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        if (f & (1u << i))
            json_builder_add_string_value(b, names[i]);
    json_builder_end_array(b);
}

static char *game_json(const cb_rules *r, const cb_match_game *gm, bool full)
{
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    /* the discriminator: a replay file opens with a "header" line (replay_header.c) */
    json_builder_set_member_name(b, "type");
    json_builder_add_string_value(b, "game");
    cb_match_json_int(b, "game", gm->index);
    cb_match_json_int(b, "deal", gm->deal);
    cb_match_json_int(b, "rotation", gm->rotation);
    json_builder_set_member_name(b, "rules");
    json_builder_add_string_value(b, r->preset);
    json_builder_set_member_name(b, "seats");
    json_builder_begin_array(b);
    for (int s = 0; s < 3; s++) {
        char *name = g_utf8_make_valid(gm->strategy[s], -1);
        json_builder_add_string_value(b, name);
        g_free(name);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "hands");
    json_builder_begin_array(b);
    for (int s = 0; s < 3; s++) {
        char buf[200];
        cb_cards_format(gm->dealt[s], true, buf, sizeof buf);
        json_builder_add_string_value(b, buf);
    }
    json_builder_end_array(b);
    add_cards(b, "bottom", gm->bottom);
    cb_match_json_int(b, "redeals", gm->redeals);
    cb_match_json_int(b, "first_seat", gm->first_seat);
    cb_match_json_int(b, "first_bidder", gm->first_bidder);
    json_builder_set_member_name(b, "bids");
    json_builder_begin_array(b);
    for (int i = 0; i < gm->nbids; i++) {
        const cb_match_bid *bd = &gm->bids[i];
        json_builder_begin_object(b);
        cb_match_json_int(b, "seat", bd->seat);
        cb_match_json_int(b, "bid", bd->bid);
        cb_match_json_int(b, "code", bd->code);
        add_value(b, bd->value);
        add_text(b, "explain", bd->explain, sizeof bd->explain);
        if (full)
            add_u64(b, "ns", bd->ns);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    cb_match_json_int(b, "landlord", gm->landlord);
    cb_match_json_int(b, "bid_value", gm->bid_value);
    json_builder_set_member_name(b, "plays");
    json_builder_begin_array(b);
    for (int i = 0; i < gm->nplays; i++) {
        const cb_match_play *p = &gm->plays[i];
        json_builder_begin_object(b);
        cb_match_json_int(b, "seat", p->seat);
        add_cards(b, "cards", p->cards);
        cb_match_json_int(b, "code", p->code);
        add_value(b, p->dec.value);
        add_u64(b, "sims", p->dec.simulations);
        cb_match_json_int(b, "mh_before", p->dec.minhands_before);
        cb_match_json_int(b, "mh_after", p->dec.minhands_after);
        add_flags(b, p->dec.flags);
        add_text(b, "explain", p->dec.explain, sizeof p->dec.explain);
        if (full) {
            add_u64(b, "ns", p->ns);
            if (p->forced)
                cb_match_json_bool(b, "forced", TRUE);
        }
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    cb_match_json_int(b, "winner", gm->winner);
    cb_match_json_int(b, "multiplier", gm->multiplier);
    json_builder_set_member_name(b, "points");
    json_builder_begin_array(b);
    for (int s = 0; s < 3; s++)
        json_builder_add_int_value(b, gm->delta[s]);
    json_builder_end_array(b);
    if (gm->error)
        add_text(b, "error", gm->errmsg, sizeof gm->errmsg);
    if (full) {
        add_int_array(b, "plays_made", gm->plays_made);
        add_int_array(b, "bomb_tricks", gm->bomb_tricks);
        cb_match_json_int(b, "bombs", gm->bombs_total);
        if (gm->error)
            cb_match_json_int(b, "error_code", gm->error);
    }
    return cb_match_json_finish(b);
}

char *cb_match_game_json(const cb_rules *r, const cb_match_game *gm)
{
    return game_json(r, gm, false);
}

char *cb_match_game_json_full(const cb_rules *r, const cb_match_game *gm)
{
    return game_json(r, gm, true);
}

/* ---- decoding: the encoder's members back into a cb_match_game ---- */

typedef struct rd {
    const cb_rules *r;
    char *err;
    size_t errlen;
    bool bad; /* the first problem is kept */
} rd;

static bool bad(rd *d, const char *fmt, const char *what)
{
    if (!d->bad)
        snprintf(d->err, d->errlen, fmt, what);
    d->bad = true;
    return false;
}

static JsonNode *member(rd *d, JsonObject *o, const char *name, bool optional)
{
    JsonNode *n = o ? json_object_get_member(o, name) : NULL;
    if (!n && !optional)
        bad(d, "%s: missing", name);
    return n;
}

static gint64 get_int(rd *d, JsonObject *o, const char *name, gint64 lo, gint64 hi)
{
    JsonNode *n = member(d, o, name, false);
    if (!n)
        return 0;
    if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_INT64)
        return bad(d, "%s: not an integer", name), 0;
    gint64 v = json_node_get_int(n);
    if (v < lo || v > hi)
        return bad(d, "%s: out of range", name), 0;
    return v;
}

static const char *get_str(rd *d, JsonObject *o, const char *name)
{
    JsonNode *n = member(d, o, name, false);
    if (n && (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING))
        return bad(d, "%s: not a string", name), NULL;
    return n ? json_node_get_string(n) : NULL;
}

/* Text into a fixed buffer, cut on a UTF-8 character boundary. */
static void copy_text(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    if (n >= cap) {
        n = cap - 1;
        while (n > 0 && ((unsigned char)src[n] & 0xC0) == 0x80)
            n--;
    }
    memcpy(dst, src, n);
    dst[n] = 0;
}

static cb_cards get_cards(rd *d, const char *what, const char *text)
{
    cb_cards c = 0;
    char why[160];
    if (text && cb_cards_parse(text, d->r->deck, &c, why, sizeof why) != 0) {
        if (!d->bad)
            snprintf(d->err, d->errlen, "%s: %s", what, why);
        d->bad = true;
    }
    return c;
}

static JsonArray *get_array(rd *d, JsonObject *o, const char *name, guint min, guint max)
{
    JsonNode *n = member(d, o, name, false);
    if (!n)
        return NULL;
    JsonArray *a = JSON_NODE_HOLDS_ARRAY(n) ? json_node_get_array(n) : NULL;
    if (!a || json_array_get_length(a) < min || json_array_get_length(a) > max)
        return bad(d, "%s: not an array of the right length", name), NULL;
    return a;
}

static JsonObject *element_object(rd *d, JsonArray *a, guint i, const char *what)
{
    JsonNode *n = json_array_get_element(a, i);
    if (!JSON_NODE_HOLDS_OBJECT(n))
        return bad(d, "%s: an element is not an object", what), NULL;
    return json_node_get_object(n);
}

static void get_three(rd *d, JsonObject *o, const char *name, int out[3], bool optional)
{
    if (optional && !json_object_has_member(o, name))
        return;
    JsonArray *a = get_array(d, o, name, 3, 3);
    for (guint s = 0; a && s < 3; s++) {
        JsonNode *n = json_array_get_element(a, s);
        if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_INT64)
            bad(d, "%s: not integers", name);
        else
            out[s] = (int)json_node_get_int(n);
    }
}

static float get_value(JsonObject *o)
{
    JsonNode *n = json_object_get_member(o, "value");
    return n && JSON_NODE_HOLDS_VALUE(n) ? (float)json_node_get_double(n) : NAN;
}

static uint64_t get_u64(rd *d, JsonObject *o, const char *name, bool optional)
{
    JsonNode *n = member(d, o, name, optional);
    if (!n)
        return 0;
    if (JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_INT64 && json_node_get_int(n) >= 0)
        return (uint64_t)json_node_get_int(n);
    if (JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING) /* above INT64_MAX */
        return g_ascii_strtoull(json_node_get_string(n), NULL, 10);
    return bad(d, "%s: not a count", name), 0;
}

/* An optional boolean member, false when absent. */
static bool get_flag(rd *d, JsonObject *o, const char *name)
{
    JsonNode *n = member(d, o, name, true);
    if (!n)
        return false;
    if (JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_BOOLEAN)
        return json_node_get_boolean(n);
    return bad(d, "%s: not true or false", name);
}

static void decode_bids(rd *d, JsonObject *o, cb_match_game *gm)
{
    JsonArray *a = get_array(d, o, "bids", 0, sizeof gm->bids / sizeof gm->bids[0]);
    for (guint i = 0; a && i < json_array_get_length(a) && !d->bad; i++) {
        JsonObject *e = element_object(d, a, i, "bids");
        cb_match_bid *b = &gm->bids[gm->nbids++];
        b->seat = (int32_t)get_int(d, e, "seat", 0, 2);
        b->bid = (int32_t)get_int(d, e, "bid", 0, 3);
        b->code = (int32_t)get_int(d, e, "code", 0, CB_FB_NREASONS - 1);
        b->value = e ? get_value(e) : NAN;
        const char *x = get_str(d, e, "explain");
        copy_text(b->explain, sizeof b->explain, x ? x : "");
        b->ns = get_u64(d, e, "ns", true);
    }
}

static uint32_t decode_flags(rd *d, JsonObject *e)
{
    static const char *const names[] = {"BOMB", "ENDGAME", "COUNTED", "SUBOPTIMAL", "FALLBACK"};
    JsonArray *a = get_array(d, e, "flags", 0, 32);
    uint32_t f = 0;
    for (guint i = 0; a && i < json_array_get_length(a); i++) {
        const char *s = json_array_get_string_element(a, i);
        for (unsigned k = 0; s && k < sizeof names / sizeof names[0]; k++)
            if (!strcmp(s, names[k]))
                f |= 1u << k;
    }
    return f;
}

static void decode_plays(rd *d, JsonObject *o, cb_match_game *gm)
{
    JsonArray *a = get_array(d, o, "plays", 0, CB_MATCH_MAX_PLAYS);
    for (guint i = 0; a && i < json_array_get_length(a) && !d->bad; i++) {
        JsonObject *e = element_object(d, a, i, "plays");
        cb_match_play *p = &gm->plays[gm->nplays++];
        memset(p, 0, sizeof *p);
        p->seat = (int32_t)get_int(d, e, "seat", 0, 2);
        p->cards = get_cards(d, "plays", get_str(d, e, "cards"));
        p->code = (int32_t)get_int(d, e, "code", 0, CB_FB_NREASONS - 1);
        p->dec.struct_size = sizeof p->dec;
        p->dec.cards = p->cards;
        p->dec.value = e ? get_value(e) : NAN;
        p->dec.simulations = get_u64(d, e, "sims", false);
        p->dec.minhands_before = (int32_t)get_int(d, e, "mh_before", INT32_MIN, INT32_MAX);
        p->dec.minhands_after = (int32_t)get_int(d, e, "mh_after", INT32_MIN, INT32_MAX);
        p->dec.flags = decode_flags(d, e);
        const char *x = get_str(d, e, "explain");
        copy_text(p->dec.explain, sizeof p->dec.explain, x ? x : "");
        p->ns = get_u64(d, e, "ns", true);
        p->forced = get_flag(d, e, "forced");
    }
}

int cb_match_game_from_json(const cb_rules *r, const char *line, cb_match_game *gm, char *err, size_t errlen)
{
    rd d = {r, err, errlen, false};
    memset(gm, 0, offsetof(cb_match_game, plays));
    JsonParser *jp = json_parser_new();
    GError *ge = NULL;
    if (!json_parser_load_from_data(jp, line, -1, &ge)) {
        snprintf(err, errlen, "not JSON: %s", ge->message);
        g_error_free(ge);
        g_object_unref(jp);
        return -1;
    }
    JsonNode *root = json_parser_get_root(jp);
    JsonObject *o = root && JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
    if (!o)
        bad(&d, "%s", "not a JSON object");
    /* "type" names the line; lines written before it existed have none and are games */
    const char *type = o && json_object_has_member(o, "type") ? get_str(&d, o, "type") : "game";
    if (type && strcmp(type, "game") != 0)
        bad(&d, "type '%s': not a game line", type);
    gm->index = (int)get_int(&d, o, "game", 0, G_MAXINT);
    gm->deal = (int)get_int(&d, o, "deal", 0, G_MAXINT);
    gm->rotation = (int)get_int(&d, o, "rotation", 0, 2);
    const char *rules = get_str(&d, o, "rules");
    if (rules && strcmp(rules, r->preset) != 0)
        bad(&d, "rules '%s': not the match's", rules);
    JsonArray *seats = get_array(&d, o, "seats", 3, 3);
    JsonArray *hands = get_array(&d, o, "hands", 3, 3);
    for (guint s = 0; seats && hands && s < 3; s++) {
        const char *name = json_array_get_string_element(seats, s);
        copy_text(gm->strategy_buf[s], sizeof gm->strategy_buf[s], name ? name : "?");
        gm->strategy[s] = gm->strategy_buf[s];
        gm->dealt[s] = get_cards(&d, "hands", json_array_get_string_element(hands, s));
    }
    gm->bottom = get_cards(&d, "bottom", get_str(&d, o, "bottom"));
    gm->redeals = (int)get_int(&d, o, "redeals", 0, G_MAXINT);
    gm->first_seat = (int)get_int(&d, o, "first_seat", -1, 2);
    gm->first_bidder = (int)get_int(&d, o, "first_bidder", -1, 2);
    gm->landlord = (int)get_int(&d, o, "landlord", -1, 2);
    gm->bid_value = (int)get_int(&d, o, "bid_value", 0, G_MAXINT);
    gm->winner = (int)get_int(&d, o, "winner", -1, 2);
    gm->multiplier = (int)get_int(&d, o, "multiplier", G_MININT, G_MAXINT);
    get_three(&d, o, "points", gm->delta, false);
    decode_bids(&d, o, gm);
    decode_plays(&d, o, gm);
    if (o && json_object_has_member(o, "error")) {
        const char *e = get_str(&d, o, "error");
        copy_text(gm->errmsg, sizeof gm->errmsg, e ? e : "");
        gm->error = json_object_has_member(o, "error_code") ? (int)get_int(&d, o, "error_code", G_MININT, G_MAXINT) : 1;
        if (!gm->error)
            gm->error = 1;
    }
    get_three(&d, o, "plays_made", gm->plays_made, true);
    get_three(&d, o, "bomb_tricks", gm->bomb_tricks, true);
    if (o && json_object_has_member(o, "bombs"))
        gm->bombs_total = (int)get_int(&d, o, "bombs", 0, G_MAXINT);
    g_object_unref(jp);
    return d.bad ? -1 : 0;
}

/* cardbot — the cardbot-1 JSON-lines codec (include/cardbot/json.h): views, requests and
 * answers <-> JSON, with json-glib doing all the JSON (never a hand-made writer or parser:
 * escaping, numbers and UTF-8 are where hand-made ones break). Card text goes through
 * cb_cards_format / cb_cards_parse, rules flags through cb_rules_set, so the protocol reads
 * cards and flags exactly as the config and the command line do.
 *
 * Every reader names the member it refuses, as a path from the line's root
 * ("view.history[3].play: ..."): a bot author reading a host's complaint, or a host reading
 * a bot's, must find the wrong member without a debugger. */
#include "cardbot/json.h"
#include "cardbot/game.h"
#include "json_where_int.h"
#include "msg.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-glib/json-glib.h>

struct cb_json_request {
    int kind;
    int64_t id;
    char protocol[64];
    cb_view view;
    cb_rules rules;
    cb_play_rec *history;
};

void cb_json_free(char *text)
{
    g_free(text);
}

/* ---- rules flags ----
 * Flags are read through cb_rules_get (presets.c owns the key table) and written typed; after
 * writing, the flags must give back the very rules (cb_rules_equal): rules that differ in a
 * member no flag names cannot be carried, and are refused rather than silently dropped. */

static void add_flag_value(JsonBuilder *b, const char *text, cb_flag_kind kind)
{
    if (kind == CB_FLAG_BOOL)
        json_builder_add_boolean_value(b, strcmp(text, "true") == 0);
    else if (kind == CB_FLAG_NUMBER)
        json_builder_add_int_value(b, strtol(text, NULL, 10));
    else
        json_builder_add_string_value(b, text);
}

/* ---- writing ---- */

static void add_int(JsonBuilder *b, const char *key, int64_t v)
{
    json_builder_set_member_name(b, key);
    json_builder_add_int_value(b, v);
}

static void add_str(JsonBuilder *b, const char *key, const char *v)
{
    json_builder_set_member_name(b, key);
    json_builder_add_string_value(b, v);
}

static void add_cards(JsonBuilder *b, const char *key, cb_cards c, bool pass_word)
{
    char buf[192];
    if (!c && pass_word)
        snprintf(buf, sizeof buf, "pass");
    else
        cb_cards_format(c, true, buf, sizeof buf); /* 54 cards x 2 chars fit */
    add_str(b, key, buf);
}

static void add_int_array(JsonBuilder *b, const char *key, const int32_t *v, int n)
{
    json_builder_set_member_name(b, key);
    json_builder_begin_array(b);
    for (int i = 0; i < n; i++)
        json_builder_add_int_value(b, v[i]);
    json_builder_end_array(b);
}

static char *to_line(JsonBuilder *b)
{
    JsonNode *root = json_builder_get_root(b);
    JsonGenerator *g = json_generator_new();
    json_generator_set_root(g, root);
    json_generator_set_pretty(g, FALSE); /* one line: pretty output would break the framing */
    char *s = json_generator_to_data(g, NULL);
    g_object_unref(g);
    json_node_unref(root);
    g_object_unref(b);
    return s;
}

/* The rules object: the preset and the flags that differ from it. -1 when the rules differ
 * from the preset in something no flag names (a custom deck, say): the other side could not
 * rebuild them. */
static int add_rules(JsonBuilder *b, const cb_rules *r, char *err, size_t errlen)
{
    cb_rules base, rebuilt;
    char preset[sizeof r->preset + 1];
    memcpy(preset, r->preset, sizeof r->preset);
    preset[sizeof r->preset] = '\0';
    if (cb_rules_preset(preset, &base) != 0)
        return core_msg_ret(-1, err, errlen, "view.rules.preset: '%s' is not a preset", preset);
    rebuilt = base;
    json_builder_set_member_name(b, "rules");
    json_builder_begin_object(b);
    add_str(b, "preset", preset);
    for (int i = 0; cb_rules_keys[i]; i++) {
        char text[32], was[32];
        cb_flag_kind kind;
        if (cb_rules_get(r, cb_rules_keys[i], text, sizeof text, &kind) != 0 ||
            cb_rules_get(&base, cb_rules_keys[i], was, sizeof was, NULL) != 0 || strcmp(text, was) == 0)
            continue;
        if (cb_rules_set(&rebuilt, cb_rules_keys[i], text, err, errlen) != 0)
            return -1;
        json_builder_set_member_name(b, cb_rules_keys[i]);
        add_flag_value(b, text, kind);
    }
    json_builder_end_object(b);
    if (!cb_rules_equal(&rebuilt, r))
        return core_msg_ret(-1, err, errlen, "view.rules: differ from preset '%s' in a member no "
                            "rules flag names (the protocol cannot carry them)", preset);
    return 0;
}

char *cb_json_hello_format(const char *host, const char *version)
{
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    add_str(b, "type", "hello");
    add_str(b, "protocol", CB_JSON_PROTOCOL);
    add_str(b, "host", host ? host : "cardbot");
    add_str(b, "version", version ? version : cb_version());
    json_builder_end_object(b);
    return to_line(b);
}

char *cb_json_hello_answer_format(const char *name, const char *version)
{
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    add_str(b, "protocol", CB_JSON_PROTOCOL);
    add_str(b, "name", name ? name : "");
    add_str(b, "version", version ? version : "");
    json_builder_end_object(b);
    return to_line(b);
}

char *cb_json_request_format(const cb_view *v, int64_t id, char *err, size_t errlen)
{
    if (!v || !v->rules) {
        core_msg(err, errlen, "view: %s", v ? "rules: NULL (give the table's rules)" : "NULL");
        return NULL;
    }
    cb_view view;
    if (cb_view_upgrade(v, &view) != 0) {
        core_msg(err, errlen, "view.struct_size: %u is below a 1.0 view", (unsigned)v->struct_size);
        return NULL;
    }
    if (view.phase != CB_PHASE_BID && view.phase != CB_PHASE_PLAY) {
        core_msg(err, errlen, "view.phase: %d is neither bid nor play", (int)view.phase);
        return NULL;
    }
    if (view.nseats < 1 || view.nseats > CB_MAX_SEATS) {
        core_msg(err, errlen, "view.nseats: %d is not 1..%d", (int)view.nseats, CB_MAX_SEATS);
        return NULL;
    }
    if (view.nhistory < 0 || (view.nhistory > 0 && !view.history)) {
        core_msg(err, errlen, "view.history: %d entries at %s", (int)view.nhistory, view.history ? "an address" : "NULL");
        return NULL;
    }
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    add_str(b, "type", view.phase == CB_PHASE_BID ? "bid" : "play");
    if (id >= 0)
        add_int(b, "id", id);
    json_builder_set_member_name(b, "view");
    json_builder_begin_object(b);
    if (add_rules(b, view.rules, err, errlen) != 0) {
        g_object_unref(b);
        return NULL;
    }
    add_int(b, "seat", view.seat);
    add_int(b, "nseats", view.nseats);
    add_int(b, "first_seat", view.first_seat);
    add_int(b, "first_bidder", view.first_bidder);
    add_cards(b, "hand", view.hand, false);
    add_int_array(b, "cards_left", view.cards_left, view.nseats);
    add_int_array(b, "bombs", view.bombs, view.nseats);
    add_int_array(b, "bids", view.bids, view.nseats);
    add_int(b, "landlord", view.landlord);
    add_cards(b, "bottom", view.bottom, false);
    json_builder_set_member_name(b, "history");
    json_builder_begin_array(b);
    for (int i = 0; i < view.nhistory; i++) {
        json_builder_begin_object(b);
        add_int(b, "seat", view.history[i].seat);
        add_cards(b, "play", view.history[i].cards, true);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    add_cards(b, "table", view.table, false);
    add_int(b, "table_seat", view.table_seat);
    add_int(b, "budget_ms", view.budget_ms);
    char seed[24];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)view.seed);
    add_str(b, "seed", seed);
    if (view.phase == CB_PHASE_BID) {
        /* derived, for bots that would rather not replay the bidding rules (rob, 包庄) */
        int32_t bids[8];
        int n = cb_view_legal_bids(&view, bids, 8);
        add_int_array(b, "legal_bids", bids, n < 0 ? 0 : n > 8 ? 8 : n);
    }
    json_builder_end_object(b);
    json_builder_end_object(b);
    return to_line(b);
}

static const struct {
    uint32_t bit;
    const char *name;
} flag_names[] = {
    {CB_DEC_BOMB, "bomb"}, {CB_DEC_ENDGAME, "endgame"}, {CB_DEC_COUNTED, "counted"},
    {CB_DEC_SUBOPTIMAL, "suboptimal"}, {CB_DEC_FALLBACK, "fallback"},
};

static uint32_t decision_size(const cb_decision *d)
{
    uint32_t size = d->struct_size;
    return size == 0 || size > sizeof *d ? (uint32_t)sizeof *d : size;
}
#define HAS(size, member) ((size) >= offsetof(cb_decision, member) + sizeof(((cb_decision *)0)->member))

char *cb_json_answer_format(int kind, const cb_decision *d, const char *fallback, int64_t id)
{
    if (!d || (kind != CB_JSON_BID && kind != CB_JSON_PLAY))
        return NULL;
    uint32_t size = decision_size(d);
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    if (kind == CB_JSON_BID)
        add_int(b, "bid", HAS(size, bid) ? d->bid : 0);
    else
        add_cards(b, "play", HAS(size, cards) ? d->cards : 0, true);
    if (HAS(size, explain) && d->explain[0]) {
        char text[sizeof d->explain + 1];
        memcpy(text, d->explain, sizeof d->explain);
        text[sizeof d->explain] = '\0';
        char *valid = g_utf8_make_valid(text, -1); /* a plugin's bytes need not be UTF-8 */
        add_str(b, "explain", valid);
        g_free(valid);
    }
    if (HAS(size, value) && isfinite(d->value)) {
        json_builder_set_member_name(b, "value");
        json_builder_add_double_value(b, d->value);
    }
    /* json-glib writes integers as gint64: counters past INT64_MAX are written as that */
    if (HAS(size, simulations) && d->simulations)
        add_int(b, "simulations", d->simulations > INT64_MAX ? INT64_MAX : (int64_t)d->simulations);
    if (HAS(size, nodes) && d->nodes)
        add_int(b, "nodes", d->nodes > INT64_MAX ? INT64_MAX : (int64_t)d->nodes);
    if (HAS(size, minhands_before) && d->minhands_before >= 0)
        add_int(b, "minhands_before", d->minhands_before);
    if (HAS(size, minhands_after) && d->minhands_after >= 0)
        add_int(b, "minhands_after", d->minhands_after);
    if (d->flags) {
        json_builder_set_member_name(b, "flags");
        json_builder_begin_array(b);
        for (size_t i = 0; i < sizeof flag_names / sizeof flag_names[0]; i++)
            if (d->flags & flag_names[i].bit)
                json_builder_add_string_value(b, flag_names[i].name);
        json_builder_end_array(b);
    }
    if (fallback)
        add_str(b, "fallback", fallback);
    if (id >= 0)
        add_int(b, "id", id);
    json_builder_end_object(b);
    return to_line(b);
}

char *cb_json_error_format(const char *message, int64_t id)
{
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    char *valid = g_utf8_make_valid(message ? message : "", -1);
    add_str(b, "error", valid);
    g_free(valid);
    if (id >= 0)
        add_int(b, "id", id);
    json_builder_end_object(b);
    return to_line(b);
}

/* ---- reading ---- */

/* "(line): not JSON at line L column C: WHY" from json-glib's parse error (json_where_int.h):
 * its reason and place, without its name for the buffer, which means nothing to the reader.
 * Text of another shape is passed on whole. Every caller keeps the "(line): not JSON" start. */
static void not_json(const char *msg, char *err, size_t errlen)
{
    unsigned long line, col;
    const char *why;
    if (cb_json_where(msg, &line, &col, &why))
        core_msg(err, errlen, "(line): not JSON at line %lu column %lu: %s", line, col, why);
    else
        core_msg(err, errlen, "(line): not JSON: %s", msg);
}

/* The line's root object, or NULL with "(line): ..." in err. */
static JsonParser *parse_object(const char *line, size_t len, JsonObject **out, char *err, size_t errlen)
{
    if (!line) {
        core_msg(err, errlen, "(line): NULL");
        return NULL;
    }
    if (len > CB_JSON_MAX_LINE) {
        core_msg(err, errlen, "(line): %zu bytes, more than %d", len, CB_JSON_MAX_LINE);
        return NULL;
    }
    if (memchr(line, '\n', len)) {
        /* a message is one line: a newline inside is framing gone wrong, not a member */
        core_msg(err, errlen, "(line): a line break inside one message");
        return NULL;
    }
    JsonParser *p = json_parser_new();
    GError *e = NULL;
    if (!json_parser_load_from_data(p, line, (gssize)len, &e)) {
        not_json(e ? e->message : "?", err, errlen);
        if (e)
            g_error_free(e);
        g_object_unref(p);
        return NULL;
    }
    JsonNode *root = json_parser_get_root(p);
    if (!root || !JSON_NODE_HOLDS_OBJECT(root)) {
        core_msg(err, errlen, "(line): not a JSON object");
        g_object_unref(p);
        return NULL;
    }
    *out = json_node_get_object(root);
    return p;
}

/* Member `key` of o as an integer in lo..hi. present: NULL = required; else set to whether
 * it was there (absent leaves *v). */
static int get_int(JsonObject *o, const char *path, const char *key, int64_t lo, int64_t hi, int64_t *v,
                   bool *present, char *err, size_t errlen)
{
    JsonNode *n = json_object_get_member(o, key);
    if (present)
        *present = n != NULL;
    if (!n) {
        if (present)
            return 0;
        return core_msg_ret(-1, err, errlen, "%s%s: missing", path, key);
    }
    if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_INT64)
        return core_msg_ret(-1, err, errlen, "%s%s: expected an integer", path, key);
    int64_t x = json_node_get_int(n);
    if (x < lo || x > hi)
        return core_msg_ret(-1, err, errlen, "%s%s: %lld is out of range (%lld..%lld)", path, key, (long long)x,
                            (long long)lo, (long long)hi);
    *v = x;
    return 0;
}

int64_t cb_json_line_id(const char *line, size_t len)
{
    char err[8];
    JsonObject *o = NULL;
    JsonParser *p = parse_object(line, len, &o, err, sizeof err);
    if (!p)
        return -1;
    int64_t id = -1;
    bool present = false;
    if (get_int(o, "", "id", 0, INT64_MAX, &id, &present, err, sizeof err) != 0 || !present)
        id = -1;
    g_object_unref(p);
    return id;
}

static int get_i32(JsonObject *o, const char *path, const char *key, int64_t lo, int64_t hi, int32_t *v,
                   char *err, size_t errlen)
{
    int64_t x;
    if (get_int(o, path, key, lo, hi, &x, NULL, err, errlen) != 0)
        return -1;
    *v = (int32_t)x;
    return 0;
}

/* A string member; NULL with the message when missing (required) or not a string. */
static const char *get_str(JsonObject *o, const char *path, const char *key, bool required, char *err,
                           size_t errlen)
{
    JsonNode *n = json_object_get_member(o, key);
    if (!n) {
        if (required)
            core_msg(err, errlen, "%s%s: missing", path, key);
        return NULL;
    }
    if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING) {
        core_msg(err, errlen, "%s%s: expected a string", path, key);
        return NULL;
    }
    return json_node_get_string(n);
}

/* Card text against the deck; "pass" (when allowed) and "" are the empty set. */
static int get_cards(const char *text, const char *what, const char *key, cb_cards deck, bool pass_word, cb_cards *out,
                     char *err, size_t errlen)
{
    if (!text[0] || (pass_word && strcmp(text, "pass") == 0)) {
        *out = 0;
        return 0;
    }
    char why[160];
    if (cb_cards_parse(text, deck, out, why, sizeof why) != 0)
        return core_msg_ret(-1, err, errlen, "%s%s: %s", what, key, why);
    return 0;
}

static int get_cards_member(JsonObject *o, const char *path, const char *key, cb_cards deck, bool pass_word,
                            cb_cards *out, char *err, size_t errlen)
{
    const char *s = get_str(o, path, key, true, err, errlen);
    if (!s)
        return -1;
    return get_cards(s, path, key, deck, pass_word, out, err, errlen);
}

static int get_seat_array(JsonObject *o, const char *path, const char *key, int nseats, int64_t lo, int64_t hi,
                          int32_t *out, char *err, size_t errlen)
{
    JsonNode *n = json_object_get_member(o, key);
    if (!n)
        return core_msg_ret(-1, err, errlen, "%s%s: missing", path, key);
    if (!JSON_NODE_HOLDS_ARRAY(n))
        return core_msg_ret(-1, err, errlen, "%s%s: expected an array of %d integers", path, key, nseats);
    JsonArray *a = json_node_get_array(n);
    if ((int)json_array_get_length(a) != nseats)
        return core_msg_ret(-1, err, errlen, "%s%s: %u entries, nseats is %d", path, key, json_array_get_length(a), nseats);
    for (int i = 0; i < nseats; i++) {
        JsonNode *e = json_array_get_element(a, (guint)i);
        if (!JSON_NODE_HOLDS_VALUE(e) || json_node_get_value_type(e) != G_TYPE_INT64)
            return core_msg_ret(-1, err, errlen, "%s%s[%d]: expected an integer", path, key, i);
        int64_t x = json_node_get_int(e);
        if (x < lo || x > hi)
            return core_msg_ret(-1, err, errlen, "%s%s[%d]: %lld is out of range (%lld..%lld)", path, key, i,
                                (long long)x, (long long)lo, (long long)hi);
        out[i] = (int32_t)x;
    }
    return 0;
}

/* "rules": {"preset": ..., flags...} -> *r. Unknown keys are refused here (unlike unknown
 * members elsewhere): rules a reader does not understand are rules it would get wrong. */
static int read_rules(JsonObject *view, cb_rules *r, char *err, size_t errlen)
{
    JsonNode *n = json_object_get_member(view, "rules");
    if (!n)
        return core_msg_ret(-1, err, errlen, "view.rules: missing");
    if (!JSON_NODE_HOLDS_OBJECT(n))
        return core_msg_ret(-1, err, errlen, "view.rules: expected an object");
    JsonObject *o = json_node_get_object(n);
    const char *preset = get_str(o, "view.rules.", "preset", true, err, errlen);
    if (!preset)
        return -1;
    if (cb_rules_preset(preset, r) != 0)
        return core_msg_ret(-1, err, errlen, "view.rules.preset: '%s' is not a preset (pdk16, pdk15, guanpai, ddz)",
                            preset);
    GList *members = json_object_get_members(o);
    int rc = 0;
    for (GList *l = members; l && rc == 0; l = l->next) {
        const char *key = l->data;
        if (strcmp(key, "preset") == 0)
            continue;
        JsonNode *m = json_object_get_member(o, key);
        char text[64];
        if (JSON_NODE_HOLDS_VALUE(m) && json_node_get_value_type(m) == G_TYPE_BOOLEAN)
            snprintf(text, sizeof text, "%s", json_node_get_boolean(m) ? "true" : "false");
        else if (JSON_NODE_HOLDS_VALUE(m) && json_node_get_value_type(m) == G_TYPE_INT64)
            snprintf(text, sizeof text, "%lld", (long long)json_node_get_int(m));
        else if (JSON_NODE_HOLDS_VALUE(m) && json_node_get_value_type(m) == G_TYPE_STRING)
            snprintf(text, sizeof text, "%s", json_node_get_string(m));
        else {
            rc = core_msg_ret(-1, err, errlen, "view.rules.%s: expected a boolean, an integer or a string", key);
            break;
        }
        char why[400];
        if (cb_rules_set(r, key, text, why, sizeof why) != 0)
            rc = core_msg_ret(-1, err, errlen, "view.rules.%s: %s", key, why);
    }
    g_list_free(members);
    return rc;
}

static int read_view(JsonObject *o, int phase, cb_json_request *q, char *err, size_t errlen)
{
    cb_view *v = &q->view;
    memset(v, 0, sizeof *v);
    v->struct_size = sizeof *v;
    v->abi_version = CB_ABI_VERSION;
    v->phase = phase;
    if (read_rules(o, &q->rules, err, errlen) != 0)
        return -1;
    v->rules = &q->rules;
    const cb_rules *r = &q->rules;
    const char *P = "view.";
    int64_t x;
    bool present;
    if (get_int(o, P, "nseats", 1, CB_MAX_SEATS, &x, &present, err, errlen) != 0)
        return -1;
    v->nseats = present ? (int32_t)x : r->players;
    int ns = v->nseats;
    if (get_i32(o, P, "seat", 0, ns - 1, &v->seat, err, errlen) || get_i32(o, P, "first_seat", -1, ns - 1, &v->first_seat, err, errlen) ||
        get_i32(o, P, "first_bidder", -1, ns - 1, &v->first_bidder, err, errlen) ||
        get_i32(o, P, "landlord", -1, ns - 1, &v->landlord, err, errlen) ||
        get_i32(o, P, "table_seat", -1, ns - 1, &v->table_seat, err, errlen))
        return -1;
    if (get_cards_member(o, P, "hand", r->deck, false, &v->hand, err, errlen) ||
        get_cards_member(o, P, "bottom", r->deck, false, &v->bottom, err, errlen) ||
        get_cards_member(o, P, "table", r->deck, false, &v->table, err, errlen))
        return -1;
    if (get_seat_array(o, P, "cards_left", ns, 0, CB_NCARDS, v->cards_left, err, errlen) ||
        get_seat_array(o, P, "bombs", ns, 0, CB_NCARDS, v->bombs, err, errlen) ||
        get_seat_array(o, P, "bids", ns, -1, 3, v->bids, err, errlen))
        return -1;
    v->budget_ms = 1000;
    if (get_int(o, P, "budget_ms", 0, UINT32_MAX, &x, &present, err, errlen) != 0)
        return -1;
    if (present)
        v->budget_ms = (uint32_t)x;
    /* the seed: a decimal string (writers), or a non-negative integer (a hand-written view) */
    JsonNode *sn = json_object_get_member(o, "seed");
    if (sn) {
        if (JSON_NODE_HOLDS_VALUE(sn) && json_node_get_value_type(sn) == G_TYPE_STRING) {
            const char *s = json_node_get_string(sn);
            char *end = NULL;
            errno = 0;
            unsigned long long u = s[0] >= '0' && s[0] <= '9' ? strtoull(s, &end, 10) : 0;
            if (!end || *end || errno)
                return core_msg_ret(-1, err, errlen, "view.seed: '%s' is not a decimal uint64", s);
            v->seed = u;
        } else if (JSON_NODE_HOLDS_VALUE(sn) && json_node_get_value_type(sn) == G_TYPE_INT64 && json_node_get_int(sn) >= 0) {
            v->seed = (uint64_t)json_node_get_int(sn);
        } else {
            return core_msg_ret(-1, err, errlen, "view.seed: expected a decimal string");
        }
    }
    JsonNode *hn = json_object_get_member(o, "history");
    if (!hn)
        return core_msg_ret(-1, err, errlen, "view.history: missing");
    if (!JSON_NODE_HOLDS_ARRAY(hn))
        return core_msg_ret(-1, err, errlen, "view.history: expected an array");
    JsonArray *ha = json_node_get_array(hn);
    guint nh = json_array_get_length(ha);
    if (nh > 4 * CB_NCARDS) /* every play sheds a card and a trick ends after two passes */
        return core_msg_ret(-1, err, errlen, "view.history: %u entries, no game is that long", nh);
    if (nh) {
        q->history = calloc(nh, sizeof *q->history);
        if (!q->history)
            return core_msg_ret(-1, err, errlen, "view.history: out of memory");
    }
    for (guint i = 0; i < nh; i++) {
        JsonNode *e = json_array_get_element(ha, i);
        char path[48];
        snprintf(path, sizeof path, "view.history[%u].", i);
        if (!JSON_NODE_HOLDS_OBJECT(e))
            return core_msg_ret(-1, err, errlen, "view.history[%u]: expected an object {\"seat\":S,\"play\":\"...\"}", i);
        JsonObject *eo = json_node_get_object(e);
        if (get_i32(eo, path, "seat", 0, ns - 1, &q->history[i].seat, err, errlen) ||
            get_cards_member(eo, path, "play", r->deck, true, &q->history[i].cards, err, errlen))
            return -1;
    }
    v->history = q->history;
    v->nhistory = (int32_t)nh;
    return 0;
}

cb_json_request *cb_json_request_parse(const char *line, size_t len, char *err, size_t errlen)
{
    JsonObject *o = NULL;
    JsonParser *p = parse_object(line, len, &o, err, errlen);
    if (!p)
        return NULL;
    cb_json_request *q = calloc(1, sizeof *q);
    if (!q) {
        core_msg(err, errlen, "(line): out of memory");
        g_object_unref(p);
        return NULL;
    }
    q->id = -1;
    int rc = -1;
    const char *type = get_str(o, "", "type", true, err, errlen);
    bool present;
    if (!type)
        goto out;
    if (get_int(o, "", "id", 0, INT64_MAX, &q->id, &present, err, errlen) != 0)
        goto out;
    if (!present)
        q->id = -1;
    if (strcmp(type, "hello") == 0) {
        q->kind = CB_JSON_HELLO;
        const char *proto = get_str(o, "", "protocol", true, err, errlen);
        if (!proto)
            goto out;
        snprintf(q->protocol, sizeof q->protocol, "%s", proto);
        rc = 0;
    } else if (strcmp(type, "bid") == 0 || strcmp(type, "play") == 0) {
        q->kind = type[0] == 'b' ? CB_JSON_BID : CB_JSON_PLAY;
        JsonNode *vn = json_object_get_member(o, "view");
        if (!vn)
            core_msg(err, errlen, "view: missing");
        else if (!JSON_NODE_HOLDS_OBJECT(vn))
            core_msg(err, errlen, "view: expected an object");
        else
            rc = read_view(json_node_get_object(vn), q->kind, q, err, errlen);
    } else {
        char shown[40];
        snprintf(shown, sizeof shown, "%s", type);
        core_msg(err, errlen, "type: '%s' is not hello, bid or play", shown);
    }
out:
    g_object_unref(p);
    if (rc != 0) {
        cb_json_request_free(q);
        return NULL;
    }
    return q;
}

void cb_json_request_free(cb_json_request *q)
{
    if (!q)
        return;
    free(q->history);
    free(q);
}

int cb_json_request_kind(const cb_json_request *q) { return q ? q->kind : -1; }
int64_t cb_json_request_id(const cb_json_request *q) { return q ? q->id : -1; }
const char *cb_json_request_protocol(const cb_json_request *q) { return q ? q->protocol : ""; }
const cb_view *cb_json_request_view(const cb_json_request *q)
{
    return q && q->kind != CB_JSON_HELLO ? &q->view : NULL;
}

int cb_json_hello_answer_parse(const char *line, size_t len, char *name, size_t namelen, char *version,
                               size_t versionlen, char *err, size_t errlen)
{
    JsonObject *o = NULL;
    JsonParser *p = parse_object(line, len, &o, err, errlen);
    if (!p)
        return -1;
    int rc = -1;
    const char *proto = get_str(o, "", "protocol", true, err, errlen);
    if (proto && strcmp(proto, CB_JSON_PROTOCOL) != 0) {
        char shown[40];
        snprintf(shown, sizeof shown, "%s", proto);
        core_msg(err, errlen, "protocol: the bot speaks '%s', this host '%s'", shown, CB_JSON_PROTOCOL);
    } else if (proto) {
        const char *nm = get_str(o, "", "name", false, err, errlen);
        const char *ver = get_str(o, "", "version", false, err, errlen);
        bool bad = (!nm && json_object_has_member(o, "name")) || (!ver && json_object_has_member(o, "version"));
        if (!bad) {
            if (name && namelen)
                g_strlcpy(name, nm ? nm : "", namelen);
            if (version && versionlen)
                g_strlcpy(version, ver ? ver : "", versionlen);
            rc = 0;
        }
    }
    g_object_unref(p);
    return rc;
}

/* Copy text into buf (len bytes with the NUL), cut at a UTF-8 character boundary. */
static void copy_utf8(char *buf, size_t len, const char *text)
{
    size_t n = strlen(text);
    if (n >= len) {
        n = len - 1;
        while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80)
            n--; /* text[n] would start the cut: back to a lead byte */
    }
    memcpy(buf, text, n);
    buf[n] = '\0';
}

int cb_json_answer_parse(const char *line, size_t len, const cb_view *v, cb_decision *out, int64_t *id, char *err,
                         size_t errlen)
{
    if (id)
        *id = -1;
    if (!v || !out || !v->rules)
        return core_msg_ret(-1, err, errlen, "(answer): no view, rules or decision to read it for");
    JsonObject *o = NULL;
    JsonParser *p = parse_object(line, len, &o, err, errlen);
    if (!p)
        return -1;
    cb_decision d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.value = NAN;
    d.minhands_before = d.minhands_after = -1;
    int rc = -1;
    int64_t x;
    bool present;
    if (json_object_has_member(o, "error")) {
        /* a bot that says it cannot answer: pass its words on */
        const char *msg = get_str(o, "", "error", true, err, errlen);
        if (msg)
            core_msg(err, errlen, "error: the bot says: %.200s", msg);
        goto out;
    }
    if (get_int(o, "", "id", 0, INT64_MAX, &x, &present, err, errlen) != 0)
        goto out;
    if (present && id)
        *id = x;
    if (v->phase == CB_PHASE_BID) {
        if (get_int(o, "", "bid", -1000000, 1000000, &x, NULL, err, errlen) != 0)
            goto out;
        d.bid = (int32_t)x; /* its legality is the shim's to judge */
    } else {
        const char *s = get_str(o, "", "play", true, err, errlen);
        if (!s)
            goto out;
        cb_cards c;
        if (get_cards(s, "", "play", v->rules->deck, true, &c, err, errlen) != 0)
            goto out;
        cb_cards mine;
        /* by rank from the hand unless the named cards are all there */
        if ((c & ~v->hand) && cb_cards_pick(v->hand, cb_counts_of(c), &mine) == 0)
            c = mine;
        d.cards = c;
    }
    const char *ex = get_str(o, "", "explain", false, err, errlen);
    if (!ex && json_object_has_member(o, "explain"))
        goto out;
    if (ex)
        copy_utf8(d.explain, sizeof d.explain, ex);
    JsonNode *vn = json_object_get_member(o, "value");
    if (vn) {
        GType t = JSON_NODE_HOLDS_VALUE(vn) ? json_node_get_value_type(vn) : G_TYPE_INVALID;
        if (t != G_TYPE_DOUBLE && t != G_TYPE_INT64) {
            core_msg(err, errlen, "value: expected a number");
            goto out;
        }
        d.value = (float)json_node_get_double(vn);
    }
    if (get_int(o, "", "simulations", 0, INT64_MAX, &x, &present, err, errlen) != 0)
        goto out;
    if (present)
        d.simulations = (uint64_t)x;
    if (get_int(o, "", "nodes", 0, INT64_MAX, &x, &present, err, errlen) != 0)
        goto out;
    if (present)
        d.nodes = (uint64_t)x;
    if (get_int(o, "", "minhands_before", -1, 64, &x, &present, err, errlen) != 0)
        goto out;
    if (present)
        d.minhands_before = (int32_t)x;
    if (get_int(o, "", "minhands_after", -1, 64, &x, &present, err, errlen) != 0)
        goto out;
    if (present)
        d.minhands_after = (int32_t)x;
    JsonNode *fn = json_object_get_member(o, "flags");
    if (fn) {
        if (!JSON_NODE_HOLDS_ARRAY(fn)) {
            core_msg(err, errlen, "flags: expected an array of strings");
            goto out;
        }
        JsonArray *a = json_node_get_array(fn);
        for (guint i = 0; i < json_array_get_length(a); i++) {
            JsonNode *e = json_array_get_element(a, i);
            if (!JSON_NODE_HOLDS_VALUE(e) || json_node_get_value_type(e) != G_TYPE_STRING) {
                core_msg(err, errlen, "flags[%u]: expected a string", i);
                goto out;
            }
            const char *nm = json_node_get_string(e);
            for (size_t k = 0; k < sizeof flag_names / sizeof flag_names[0]; k++)
                if (strcmp(nm, flag_names[k].name) == 0 && flag_names[k].bit != CB_DEC_FALLBACK)
                    d.flags |= flag_names[k].bit;
        }
    }
    rc = 0;
out:
    g_object_unref(p);
    if (rc == 0) {
        /* write only what the caller's decision holds (bot.h: struct_size) */
        uint32_t size = decision_size(out);
        uint32_t keep = out->struct_size;
        memcpy(out, &d, size);
        out->struct_size = keep;
    }
    return rc;
}

/* cardbot match — one JSON line per game for --replay (json-glib builds and prints it).
 *
 * Plugin-supplied values are made safe for JSON here: explanation text that is not UTF-8 is
 * repaired (g_utf8_make_valid: bad bytes become U+FFFD), a value that is not a finite number
 * (NaN, inf) is left out as "unknown", and a counter above INT64_MAX is written as a decimal
 * string (json-glib writes integers as gint64). */
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "match.h"

static void add_cards(JsonBuilder *b, const char *key, cb_cards c)
{
    char buf[200];
    cb_cards_format(c, true, buf, sizeof buf);
    json_builder_set_member_name(b, key);
    json_builder_add_string_value(b, buf);
}

static void add_int(JsonBuilder *b, const char *key, gint64 v)
{
    json_builder_set_member_name(b, key);
    json_builder_add_int_value(b, v);
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

char *cb_match_game_json(const cb_rules *r, const cb_match_game *gm)
{
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    add_int(b, "game", gm->index);
    add_int(b, "deal", gm->deal);
    add_int(b, "rotation", gm->rotation);
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
    add_int(b, "redeals", gm->redeals);
    add_int(b, "first_seat", gm->first_seat);
    add_int(b, "first_bidder", gm->first_bidder);
    json_builder_set_member_name(b, "bids");
    json_builder_begin_array(b);
    for (int i = 0; i < gm->nbids; i++) {
        const cb_match_bid *bd = &gm->bids[i];
        json_builder_begin_object(b);
        add_int(b, "seat", bd->seat);
        add_int(b, "bid", bd->bid);
        add_int(b, "code", bd->code);
        add_value(b, bd->value);
        add_text(b, "explain", bd->explain, sizeof bd->explain);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    add_int(b, "landlord", gm->landlord);
    add_int(b, "bid_value", gm->bid_value);
    json_builder_set_member_name(b, "plays");
    json_builder_begin_array(b);
    for (int i = 0; i < gm->nplays; i++) {
        const cb_match_play *p = &gm->plays[i];
        json_builder_begin_object(b);
        add_int(b, "seat", p->seat);
        add_cards(b, "cards", p->cards);
        add_int(b, "code", p->code);
        add_value(b, p->dec.value);
        add_u64(b, "sims", p->dec.simulations);
        add_int(b, "mh_before", p->dec.minhands_before);
        add_int(b, "mh_after", p->dec.minhands_after);
        add_flags(b, p->dec.flags);
        add_text(b, "explain", p->dec.explain, sizeof p->dec.explain);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    add_int(b, "winner", gm->winner);
    add_int(b, "multiplier", gm->multiplier);
    json_builder_set_member_name(b, "points");
    json_builder_begin_array(b);
    for (int s = 0; s < 3; s++)
        json_builder_add_int_value(b, gm->delta[s]);
    json_builder_end_array(b);
    if (gm->error)
        add_text(b, "error", gm->errmsg, sizeof gm->errmsg);
    json_builder_end_object(b);
    JsonGenerator *gen = json_generator_new();
    JsonNode *root = json_builder_get_root(b);
    json_generator_set_root(gen, root);
    char *text = json_generator_to_data(gen, NULL);
    json_node_unref(root);
    g_object_unref(gen);
    g_object_unref(b);
    return text;
}

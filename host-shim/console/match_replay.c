/* cardbot match — one JSON line per game for --replay (json-glib builds and prints it). */
#include <json-glib/json-glib.h>
#include <math.h>

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
    for (int s = 0; s < 3; s++)
        json_builder_add_string_value(b, gm->strategy[s]);
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
        if (!isnan(bd->value)) {
            json_builder_set_member_name(b, "value");
            json_builder_add_double_value(b, bd->value);
        }
        json_builder_set_member_name(b, "explain");
        json_builder_add_string_value(b, bd->explain);
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
        if (!isnan(p->dec.value)) {
            json_builder_set_member_name(b, "value");
            json_builder_add_double_value(b, p->dec.value);
        }
        add_int(b, "sims", (gint64)p->dec.simulations);
        add_int(b, "mh_before", p->dec.minhands_before);
        add_int(b, "mh_after", p->dec.minhands_after);
        add_flags(b, p->dec.flags);
        json_builder_set_member_name(b, "explain");
        json_builder_add_string_value(b, p->dec.explain);
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
    if (gm->error) {
        json_builder_set_member_name(b, "error");
        json_builder_add_string_value(b, gm->errmsg);
    }
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

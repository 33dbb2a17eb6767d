/* cardbot match — deals files: --deals FILE plays given deals, --save-deals FILE writes the
 * deals a run used, so two teams (or two versions of one bot) meet the same openings.
 *
 * Format: JSON lines, one deal per line, blank lines skipped; line d (counting deal lines
 * from 0) is deal d of the match:
 *
 *   {"rules":"ddz","hands":["3s4h...","...","..."],"bottom":"XD2s","first_bidder":1}
 *   {"rules":"pdk16","hands":["...","...","..."]}
 *
 *  - rules: the preset the match plays (a file for pdk16 is refused by a ddz match);
 *  - hands: three hands of the rules' hand size in deal order, card text as cb_cards_parse
 *    reads it (cb_cards_format with suits writes it). Hand h sits at seat h when the deal
 *    is played as it is; with --duplicate, game 3d + k plays deal d with hand h at seat
 *    (h - k) mod 3, so each hand visits every seat. A rank without a suit takes the lowest
 *    suit no earlier hand (or, for the bottom, no hand) holds;
 *  - bottom: DDZ only, the 3 bottom cards (required there);
 *  - first_bidder: DDZ only, optional: the hand (0..2, an index into hands) that bids first;
 *    it moves round the seats with its hand. Absent: drawn from the match key (--seed), as
 *    without --deals. Ignored under --landlord (no bidding); --save-deals then leaves it out.
 * Unknown members are refused (a misspelt first_bidder must not pass silently), as are a card
 * twice, a card not in the deck, a hand of the wrong size, and lines that are not JSON
 * objects: the error names FILE:LINE.
 *
 * A DDZ deal everybody passes is redealt as a match without --deals redeals: hands and first
 * bidder drawn from the match key (deal d, redeal n); so a file written by --save-deals and
 * played with the same --seed repeats the run exactly. */
#include <errno.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "match_json.h"

static const char *const members[] = {"rules", "hands", "bottom", "first_bidder", NULL};

/* Parse one card text against the cards still free; what names it in messages. taken: the
 * cards of the earlier hands. */
static int parse_part(const cb_rules *r, const char *what, const char *text, cb_cards taken, cb_cards *out,
                      char *err, size_t errlen)
{
    char why[200];
    cb_cards all;
    if (cb_cards_parse(text, r->deck, &all, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: %s", what, why);
        return -1;
    }
    if (cb_cards_parse(text, r->deck & ~taken, out, why, sizeof why) != 0) {
        char dup[200] = "";
        cb_cards_format(all & taken, true, dup, sizeof dup);
        if (dup[0])
            snprintf(err, errlen, "%s: %s already dealt to an earlier hand", what, dup);
        else
            snprintf(err, errlen, "%s: more cards of a rank than the %s deck has, with the hands before it (%s)",
                     what, r->preset, why);
        return -1;
    }
    return 0;
}

static int string_member(JsonObject *o, const char *name, const char **out, char *err, size_t errlen)
{
    JsonNode *n = json_object_get_member(o, name);
    if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING) {
        snprintf(err, errlen, "%s: %s", name, n ? "not a string" : "missing");
        return -1;
    }
    *out = json_node_get_string(n);
    return 0;
}

/* One line into *d; bidding: DDZ with a bidding phase (else first_bidder is ignored). */
static int parse_line(const cb_rules *r, bool bidding, JsonParser *jp, const char *line, cb_match_deal *d, char *err,
                      size_t errlen)
{
    GError *ge = NULL;
    if (!json_parser_load_from_data(jp, line, -1, &ge)) {
        snprintf(err, errlen, "not JSON: %s", ge->message);
        g_error_free(ge);
        return -1;
    }
    JsonNode *root = json_parser_get_root(jp);
    if (!root || !JSON_NODE_HOLDS_OBJECT(root)) {
        snprintf(err, errlen, "not a JSON object");
        return -1;
    }
    JsonObject *o = json_node_get_object(root);
    GList *names = json_object_get_members(o);
    for (GList *l = names; l; l = l->next) {
        bool known = false;
        for (int i = 0; members[i]; i++)
            known |= strcmp(l->data, members[i]) == 0;
        if (!known) {
            snprintf(err, errlen, "unknown member '%s' (known: rules hands bottom first_bidder)", (char *)l->data);
            g_list_free(names);
            return -1;
        }
    }
    g_list_free(names);
    const char *rules;
    if (string_member(o, "rules", &rules, err, errlen))
        return -1;
    if (strcmp(rules, r->preset) != 0) {
        snprintf(err, errlen, "rules '%s': this match plays %s", rules, r->preset);
        return -1;
    }
    JsonNode *hn = json_object_get_member(o, "hands");
    JsonArray *ha = hn && JSON_NODE_HOLDS_ARRAY(hn) ? json_node_get_array(hn) : NULL;
    if (!ha || json_array_get_length(ha) != 3) {
        snprintf(err, errlen, "hands: %s", !hn ? "missing" : "not an array of 3 card texts");
        return -1;
    }
    memset(d, 0, sizeof *d);
    d->first_bidder = -1;
    cb_cards taken = 0;
    for (int h = 0; h < 3; h++) {
        JsonNode *e = json_array_get_element(ha, (guint)h);
        char what[24]; /* room for any int: -O1 cannot see h < 3 */
        snprintf(what, sizeof what, "hands[%d]", h);
        if (!JSON_NODE_HOLDS_VALUE(e) || json_node_get_value_type(e) != G_TYPE_STRING) {
            snprintf(err, errlen, "%s: not a string", what);
            return -1;
        }
        if (parse_part(r, what, json_node_get_string(e), taken, &d->hands[h], err, errlen))
            return -1;
        if (cb_cards_size(d->hands[h]) != r->hand_size) {
            snprintf(err, errlen, "%s: %d cards, a %s hand has %d", what, cb_cards_size(d->hands[h]), r->preset,
                     r->hand_size);
            return -1;
        }
        taken |= d->hands[h];
    }
    bool ddz = r->game == CB_GAME_DDZ;
    if (!ddz && json_object_has_member(o, "bottom")) {
        snprintf(err, errlen, "bottom: %s deals have no bottom cards", r->preset);
        return -1;
    }
    if (ddz) {
        const char *text;
        if (string_member(o, "bottom", &text, err, errlen) ||
            parse_part(r, "bottom", text, taken, &d->bottom, err, errlen))
            return -1;
        if (cb_cards_size(d->bottom) != r->bottom) {
            snprintf(err, errlen, "bottom: %d cards, %s has %d", cb_cards_size(d->bottom), r->preset, r->bottom);
            return -1;
        }
        taken |= d->bottom;
    }
    if (taken != r->deck) { /* sizes and no card twice make it so; a rules change would not */
        snprintf(err, errlen, "hands%s: not the whole %s deck", ddz ? " and bottom" : "", r->preset);
        return -1;
    }
    JsonNode *fb = json_object_get_member(o, "first_bidder");
    if (fb) {
        if (!ddz) {
            snprintf(err, errlen, "first_bidder: %s has no bidding order to give (the spade 3 or the key picks "
                     "the first leader)", r->preset);
            return -1;
        }
        if (!JSON_NODE_HOLDS_VALUE(fb) || json_node_get_value_type(fb) != G_TYPE_INT64 ||
            json_node_get_int(fb) < 0 || json_node_get_int(fb) > 2) {
            snprintf(err, errlen, "first_bidder: not a hand number 0..2");
            return -1;
        }
        if (bidding)
            d->first_bidder = (int)json_node_get_int(fb);
    }
    return 0;
}

int cb_match_deals_read(const char *path, const cb_rules *r, bool bidding, cb_match_deal **deals, int *n,
                        char *err, size_t errlen)
{
    *deals = NULL;
    *n = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, g_strerror(errno));
        return -1;
    }
    GArray *a = g_array_new(FALSE, FALSE, sizeof(cb_match_deal));
    JsonParser *jp = json_parser_new();
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    int rc = 0;
    while (rc == 0 && getline(&line, &cap, f) >= 0) {
        lineno++;
        g_strstrip(line);
        if (!line[0])
            continue;
        if (a->len >= 10000000) {
            snprintf(err, errlen, "%s:%ld: more than 10000000 deals", path, lineno);
            rc = -1;
            break;
        }
        cb_match_deal d;
        char why[300];
        if (parse_line(r, bidding, jp, line, &d, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s:%ld: %s", path, lineno, why);
            rc = -1;
            break;
        }
        g_array_append_val(a, d);
    }
    if (rc == 0 && ferror(f)) {
        snprintf(err, errlen, "%s: read error", path);
        rc = -1;
    }
    if (rc == 0 && a->len == 0) {
        snprintf(err, errlen, "%s: no deals in the file", path);
        rc = -1;
    }
    free(line);
    fclose(f);
    g_object_unref(jp);
    *n = (int)a->len;
    *deals = (cb_match_deal *)(void *)g_array_free(a, rc != 0);
    if (rc)
        *n = 0;
    return rc;
}

char *cb_match_deal_json(const cb_rules *r, const cb_match_deal *d, bool bidding)
{
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "rules");
    json_builder_add_string_value(b, r->preset);
    json_builder_set_member_name(b, "hands");
    json_builder_begin_array(b);
    char buf[200];
    for (int h = 0; h < 3; h++) {
        cb_cards_format(d->hands[h], true, buf, sizeof buf);
        json_builder_add_string_value(b, buf);
    }
    json_builder_end_array(b);
    if (r->game == CB_GAME_DDZ) {
        cb_cards_format(d->bottom, true, buf, sizeof buf);
        json_builder_set_member_name(b, "bottom");
        json_builder_add_string_value(b, buf);
        if (bidding && d->first_bidder >= 0) {
            json_builder_set_member_name(b, "first_bidder");
            json_builder_add_int_value(b, d->first_bidder);
        }
    }
    return cb_match_json_finish(b);
}

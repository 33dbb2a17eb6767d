/* cardbot replay — one game as plain text: what a person at the table would have seen, plus
 * what each bot said about its decision. Plain lines without colour or cursor control, so the
 * same bytes read well in a terminal, a pager and a diff, and a test can compare them with a
 * golden file. Cards and bids are shown as cardbot play shows them (play_show.c). */
#include <math.h>
#include <string.h>

#include "play.h"
#include "replay.h"

static const char *jstr(JsonObject *o, const char *name)
{
    JsonNode *n = o ? json_object_get_member(o, name) : NULL;
    return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING ? json_node_get_string(n)
                                                                                         : NULL;
}

static gint64 jint(JsonObject *o, const char *name, gint64 dflt)
{
    JsonNode *n = o ? json_object_get_member(o, name) : NULL;
    return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_INT64 ? json_node_get_int(n) : dflt;
}

static bool jbool(JsonObject *o, const char *name)
{
    JsonNode *n = o ? json_object_get_member(o, name) : NULL;
    return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_BOOLEAN && json_node_get_boolean(n);
}

static JsonObject *jobj(JsonObject *o, const char *name)
{
    JsonNode *n = o ? json_object_get_member(o, name) : NULL;
    return n && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

/* The flags that differ from the preset, as "key=value": each one alone changes the preset's
 * rules (cb_rules_equal), which needs no table of how flags are stored. */
static void print_flags(FILE *f, JsonObject *rules, const char *preset)
{
    JsonObject *flags = jobj(rules, "flags");
    cb_rules base;
    if (!flags || cb_rules_preset(preset, &base) != 0) {
        fprintf(f, "flags unknown (the config could not be read when this file was written)");
        return;
    }
    int shown = 0;
    GList *keys = json_object_get_members(flags);
    for (GList *k = keys; k; k = k->next) {
        JsonNode *v = json_object_get_member(flags, k->data);
        if (!JSON_NODE_HOLDS_VALUE(v))
            continue;
        char text[64];
        GType t = json_node_get_value_type(v);
        if (t == G_TYPE_BOOLEAN)
            snprintf(text, sizeof text, "%s", json_node_get_boolean(v) ? "true" : "false");
        else if (t == G_TYPE_INT64)
            snprintf(text, sizeof text, "%lld", (long long)json_node_get_int(v));
        else if (t == G_TYPE_STRING)
            snprintf(text, sizeof text, "%s", json_node_get_string(v));
        else
            continue;
        cb_rules one = base;
        char why[200];
        if (cb_rules_set(&one, k->data, text, why, sizeof why) == 0 && !cb_rules_equal(&one, &base))
            fprintf(f, "%s%s=%s", shown++ ? " " : "flags ", (const char *)k->data, text);
    }
    g_list_free(keys);
    if (!shown)
        fprintf(f, "the preset's flags");
}

void cb_replay_text_header(FILE *f, const cb_replay *rp, bool unicode)
{
    (void)unicode;
    fprintf(f, "Replay %s: %u game%s", rp->path, rp->lines->len, rp->lines->len == 1 ? "" : "s");
    JsonObject *h = rp->header ? json_node_get_object(rp->header) : NULL;
    if (!h) {
        fprintf(f, ", no header line (written before cardbot 1.1 replays had one); rules %s\n", rp->rules.preset);
        return;
    }
    fprintf(f, ", written by cardbot %s on %s\n", jstr(h, "cardbot") ? jstr(h, "cardbot") : "?",
            jstr(h, "date") ? jstr(h, "date") : "?");
    const char *sha = jstr(h, "config_sha256");
    fprintf(f, "Config %s", jstr(h, "config") ? jstr(h, "config") : "?");
    if (sha)
        fprintf(f, " (sha256 %.12s...)", sha);
    fprintf(f, ", rules %s: ", rp->rules.preset);
    print_flags(f, jobj(h, "rules"), rp->rules.preset);
    fputc('\n', f);
    long long games = jint(h, "games", 0);
    fprintf(f, "Match: %lld game%s", games, games == 1 ? "" : "s");
    if (jbool(h, "duplicate"))
        fprintf(f, " (duplicate)");
    if (jstr(h, "seed"))
        fprintf(f, ", seed %s", jstr(h, "seed"));
    else if (jbool(h, "random_seed"))
        fprintf(f, ", seed chosen at random (not written: see the match's summary)");
    gint64 ll = jint(h, "landlord", -1);
    if (ll >= 0)
        fprintf(f, ", landlord fixed at seat %lld", (long long)ll);
    if (jstr(h, "table"))
        fprintf(f, ", table %s", jstr(h, "table"));
    if (jstr(h, "deals"))
        fprintf(f, ", deals from %s", jstr(h, "deals"));
    if (jint(h, "shards", 1) > 1)
        fprintf(f, ", shard %lld/%lld", (long long)jint(h, "shard", 1), (long long)jint(h, "shards", 1));
    fputc('\n', f);
    JsonObject *st = jobj(h, "strategies");
    if (!st) {
        fprintf(f, "Strategies: unknown (the config could not be read when this file was written)\n");
        return;
    }
    GList *names = json_object_get_members(st);
    for (GList *n = names; n; n = n->next) {
        fprintf(f, "Strategy %s:", (const char *)n->data);
        JsonObject *params = jobj(st, n->data);
        GList *keys = params ? json_object_get_members(params) : NULL;
        for (GList *k = keys; k; k = k->next)
            fprintf(f, " %s=%s", (const char *)k->data, jstr(params, k->data) ? jstr(params, k->data) : "?");
        g_list_free(keys);
        fputc('\n', f);
    }
    g_list_free(names);
}

static void print_seat(FILE *f, const cb_match_game *gm, int s, int width)
{
    fprintf(f, "  seat %d %-*s", s, width, gm->strategy[s]);
}

/* The second line of a decision: value, plans, flags, fallback and the explanation. */
static void print_why(FILE *f, float value, const cb_decision *d, int code, const char *explain)
{
    static const char *const flag_names[] = {"bomb", "endgame", "counted", "suboptimal", "fallback"};
    static const char *const fb_names[] = {"", "illegal", "failed", "late", "no plugin", "crashed"};
    fprintf(f, "      ");
    if (isfinite(value))
        fprintf(f, "value %.3f", value);
    else
        fprintf(f, "value -");
    if (d && d->minhands_before >= 0 && d->minhands_after >= 0)
        fprintf(f, ", plays %d->%d", d->minhands_before, d->minhands_after);
    if (d && d->simulations)
        fprintf(f, ", %llu simulations", (unsigned long long)d->simulations);
    for (unsigned i = 0; d && i < 4; i++) /* the fallback flag is said with its reason below */
        if (d->flags & (1u << i))
            fprintf(f, ", %s", flag_names[i]);
    if (code > 0)
        fprintf(f, ", FALLBACK (%s)", code < CB_FB_NREASONS ? fb_names[code] : "?");
    fprintf(f, "%s%s\n", explain[0] ? ": " : "", explain);
}

void cb_replay_text_game(FILE *f, const cb_replay *rp, const cb_match_game *gm, bool unicode)
{
    const cb_rules *r = &rp->rules;
    bool ddz = r->game == CB_GAME_DDZ;
    int width = 0;
    for (int s = 0; s < 3; s++)
        width = (int)strlen(gm->strategy[s]) > width ? (int)strlen(gm->strategy[s]) : width;
    char buf[512];
    fprintf(f, "\nGame %d (deal %d, rotation %d), rules %s\n", gm->index + 1, gm->deal + 1, gm->rotation, r->preset);
    if (gm->redeals)
        fprintf(f, "Redealt %d time%s: everybody passed\n", gm->redeals, gm->redeals == 1 ? "" : "s");
    fprintf(f, "\nHands as dealt\n");
    for (int s = 0; s < 3; s++) {
        cb_play_fmt_hand(gm->dealt[s], unicode, buf, sizeof buf);
        print_seat(f, gm, s, width);
        fprintf(f, "  %2d  %s\n", cb_cards_size(gm->dealt[s]), buf);
    }
    if (ddz) {
        cb_play_fmt_hand(gm->bottom, unicode, buf, sizeof buf);
        fprintf(f, "  bottom %*s  %2d  %s\n", width + 2, "", cb_cards_size(gm->bottom), buf);
    }
    if (gm->nbids) {
        fprintf(f, "\n%s (seat %d first)\n", ddz ? "Bidding" : "包庄 declarations", gm->bids[0].seat);
        for (int i = 0; i < gm->nbids; i++) {
            const cb_match_bid *b = &gm->bids[i];
            print_seat(f, gm, b->seat, width);
            fprintf(f, "  %s\n", cb_play_bid_text(r, b->bid));
            print_why(f, b->value, NULL, b->code, b->explain);
        }
    }
    if (ddz && gm->landlord >= 0)
        fprintf(f, "Landlord: seat %d (%s)%s, stake %d; the bottom joins its hand\n", gm->landlord,
                gm->strategy[gm->landlord], gm->first_bidder < 0 ? " fixed by --landlord" : "", gm->bid_value);
    else if (!ddz && gm->landlord >= 0)
        fprintf(f, "包庄: seat %d (%s) declared: it wins %d from each other seat if it goes out first, else pays "
                   "each\n", gm->landlord, gm->strategy[gm->landlord], r->bao_points);
    else if (!ddz && r->bao)
        fprintf(f, "包庄: nobody declared\n");
    cb_cards hand[3];
    for (int s = 0; s < 3; s++)
        hand[s] = gm->dealt[s] | (ddz && s == gm->landlord ? gm->bottom : 0);
    fprintf(f, "\nPlay (seat %d leads)\n", gm->first_seat);
    int trick = 0, last = -1; /* last: who made the trick's latest play */
    for (int i = 0; i < gm->nplays; i++) {
        const cb_match_play *p = &gm->plays[i];
        if (last < 0 || p->seat == last) /* everybody else passed: a new trick */
            fprintf(f, "Trick %d\n", ++trick);
        if (p->cards)
            last = p->seat;
        hand[p->seat] &= ~p->cards;
        print_seat(f, gm, p->seat, width);
        if (p->cards) {
            char shape[200];
            cb_play_fmt_hand(p->cards, unicode, buf, sizeof buf);
            cb_play_fmt_move(r, p->cards, shape, sizeof shape);
            fprintf(f, "  %s  [%s]", buf, shape);
        } else {
            fprintf(f, "  pass");
        }
        fprintf(f, "  (%d left)\n", cb_cards_size(hand[p->seat]));
        print_why(f, p->dec.value, &p->dec, p->code, p->dec.explain);
    }
    fprintf(f, "\nResult\n");
    if (gm->error) {
        fprintf(f, "  the game could not be completed: %s\n", gm->errmsg);
        return;
    }
    if (gm->winner >= 0) {
        fprintf(f, "  seat %d (%s) went out first", gm->winner, gm->strategy[gm->winner]);
        if (ddz && gm->landlord >= 0)
            fprintf(f, ": the %s win", gm->winner == gm->landlord ? "landlord's side" : "farmers");
        fprintf(f, "; multiplier %d\n", gm->multiplier);
    }
    for (int s = 0; s < 3; s++) {
        cb_play_fmt_hand(hand[s], unicode, buf, sizeof buf);
        print_seat(f, gm, s, width);
        fprintf(f, "  %+d points", gm->delta[s]);
        if (hand[s])
            fprintf(f, ", left with %d: %s", cb_cards_size(hand[s]), buf);
        fputc('\n', f);
    }
}

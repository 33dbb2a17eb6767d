/* cardbot serve --protocol botzone — our DDZ strategies on the Botzone platform's Dou Dizhu
 * (FightTheLandlord2, 斗地主叫分版) bot protocol, so they can enter its ladder as they are.
 *
 * The protocol, as the platform runs it (wiki.botzone.org.cn, pages "Bot" and
 * "FightTheLandlord2"; ANCHORS.md):
 *  - One JSON object in, one out, per turn. The first input of a game is the whole record:
 *    {"requests":[r0, r1, ...], "responses":[a0, ...], "data":..., "globaldata":..., ...};
 *    the bot answers the last request: {"response": A, "debug": "..."} on one line.
 *  - Keep-running mode: a bot that prints the line ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<" after
 *    its answer is not restarted; its next input is only the next request object (one line).
 *    We always ask for it unless --no-keep-running. Either way the record is kept here and
 *    the view is rebuilt from all of it each turn.
 *  - Cards are ids 0..53: id / 4 is the rank (0 = 3, ..., 11 = A, 12 = 2), 52 the small joker,
 *    53 the big joker; four cards of a rank have consecutive ids. That is exactly our card id
 *    (cards.h: rank = id >> 2, 52 = X, 53 = D), so the mapping is the identity; Botzone's
 *    suit order is never used by its rules, ours only for display.
 *  - Positions 0, 1, 2 bid in that order (position 0 bids first: our first_bidder = 0, seat =
 *    position) and play in that order from the landlord (our turn order seat + 1).
 *  - Bid request (the first request, while the bidding is on):
 *      {"own":[17 ids], "bid":[the bids before mine]}    -> response: 0 (pass) or 1..3,
 *    above every earlier bid; 3 ends the bidding. My position = the length of "bid".
 *  - Play requests: {"history":[[ids of position pos-2], [ids of pos-1]]} = the last two
 *    actions before mine ([] = a pass, or no action yet at the game's start). The first one
 *    also carries "publiccard" (the 3 bottom ids), "landlord", "pos" (mine) and "finalbid";
 *    if the bidding ended (a 3) before my turn to bid, it is my first request and carries
 *    "own" too.                                           -> response: [ids], [] = pass.
 *    In the first play request only the last (pos - landlord) mod 3 entries of "history" are
 *    actions (the landlord leads).
 *  - Bids I never see (those after mine) are rebuilt as the bidding allows: the landlord's is
 *    finalbid, a seat bidding before the landlord passed (0: it did not bid above, the only
 *    choice consistent with any record), a seat after it passed, or was never asked when
 *    finalbid is 3 (-1). The view then passes cb_view_check like a host's.
 *
 * Rules: FightTheLandlord2 (its sample judge's card combos) and our ddz preset differ in:
 *  - 航天飞机 (space shuttle): two or more consecutive bombs, bare or with 2 singles / 2 pairs
 *    per four, are plays there and not here. We never play one; when an opponent does, the
 *    history no longer replays under our rules, the shim refuses the view, and we answer a
 *    rules-only safe move (pass when following, else our lowest card) for the rest of the game
 *    (written in the "debug" text). No flag closes this gap.
 *  - Both jokers as kickers (4 + X + D, a plane with X and D as wings) are legal there; ours
 *    refuses them unless `rocket_kickers = true`: set it in the config's [rules] so such a
 *    history replays (config/ddz-botzone.ini does).
 *  - Kickers of one rank: there 四带两只 needs two singles of two ranks and 飞机带小翼 one
 *    single of a distinct rank per triple (3333+55 and 333444+55 are no plays); ours accepts
 *    those layouts. No flag: serve checks each answer and, when ours has such kickers, answers
 *    the same main part with kickers of distinct ranks (another legal layout), or else the
 *    next legal play that both rule sets accept (or a pass).
 *  - All pass in the bidding: our engine redeals; the platform's judge decides alone and
 *    serve reads the outcome from "landlord" / "finalbid" (when it makes the first bidder
 *    landlord, the record reads as our "all passed" case; another outcome is refused by the
 *    view check and answered with safe moves).
 *  - Scoring (springs, bomb doubling) is the judge's business: it never reaches a bot.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "cardbot/game.h"
#include "cli.h"
#include "json_where_int.h"
#include "serve.h"

#define BZ_KEEP_RUNNING ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
#define BZ_MAX_INPUT (1 << 20)
#define BZ_MAX_HISTORY 256

typedef struct bz_view {
    cb_view v;
    cb_play_rec hist[BZ_MAX_HISTORY];
} bz_view;

static int bz_err(char *err, size_t errlen, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static int bz_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* An array of card ids -> a card set (ids 0..53, each once). */
static int bz_cards(JsonNode *n, const char *what, cb_cards *out, char *err, size_t errlen)
{
    *out = 0;
    if (!n || !JSON_NODE_HOLDS_ARRAY(n))
        return bz_err(err, errlen, "%s: expected an array of card ids", what);
    JsonArray *a = json_node_get_array(n);
    for (guint i = 0; i < json_array_get_length(a); i++) {
        JsonNode *e = json_array_get_element(a, i);
        if (!JSON_NODE_HOLDS_VALUE(e) || json_node_get_value_type(e) != G_TYPE_INT64)
            return bz_err(err, errlen, "%s[%u]: expected a card id", what, i);
        gint64 id = json_node_get_int(e);
        if (id < 0 || id >= CB_NCARDS)
            return bz_err(err, errlen, "%s[%u]: %lld is not a card id 0..53", what, i, (long long)id);
        if (*out & cb_card_bit((int)id))
            return bz_err(err, errlen, "%s[%u]: card %lld twice", what, i, (long long)id);
        *out |= cb_card_bit((int)id);
    }
    return 0;
}

static int bz_int(JsonObject *o, const char *key, int lo, int hi, int *out, char *err, size_t errlen)
{
    JsonNode *n = json_object_get_member(o, key);
    if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_INT64)
        return bz_err(err, errlen, "%s: expected an integer", key);
    gint64 x = json_node_get_int(n);
    if (x < lo || x > hi)
        return bz_err(err, errlen, "%s: %lld is not %d..%d", key, (long long)x, lo, hi);
    *out = (int)x;
    return 0;
}

static int bz_push(bz_view *bv, int seat, cb_cards cards, char *err, size_t errlen)
{
    if (bv->v.nhistory >= BZ_MAX_HISTORY)
        return bz_err(err, errlen, "history: longer than any game");
    bv->hist[bv->v.nhistory].seat = seat;
    bv->hist[bv->v.nhistory].cards = cards;
    bv->v.nhistory++;
    return 0;
}

/* Rebuild the view of the last request from the whole record (see the header comment). */
static int bz_build(const cb_rules *r, JsonArray *reqs, JsonArray *resps, bz_view *bv, char *err, size_t errlen)
{
    cb_view *v = &bv->v;
    memset(v, 0, sizeof *v);
    v->struct_size = sizeof *v;
    v->abi_version = CB_ABI_VERSION;
    v->rules = r;
    v->nseats = 3;
    v->first_bidder = 0;
    v->first_seat = v->landlord = v->table_seat = -1;
    v->history = bv->hist;
    for (int s = 0; s < 3; s++)
        v->bids[s] = -1;
    guint n = json_array_get_length(reqs);
    if (n == 0)
        return bz_err(err, errlen, "requests: empty");
    if (json_array_get_length(resps) + 1 < n)
        return bz_err(err, errlen, "responses: %u for %u requests", json_array_get_length(resps), n);
    cb_cards own = 0, pub = 0;
    bool have_own = false, playing = false, first_play = true;
    int pos = -1, finalbid = 0;
    for (guint i = 0; i < n; i++) {
        char what[48];
        JsonNode *rn = json_array_get_element(reqs, i);
        if (!JSON_NODE_HOLDS_OBJECT(rn))
            return bz_err(err, errlen, "requests[%u]: expected an object", i);
        JsonObject *q = json_node_get_object(rn);
        JsonNode *resp = i + 1 < n ? json_array_get_element(resps, i) : NULL;
        if (json_object_has_member(q, "own")) {
            snprintf(what, sizeof what, "requests[%u].own", i);
            if (bz_cards(json_object_get_member(q, "own"), what, &own, err, errlen))
                return -1;
            have_own = true;
        }
        if (json_object_has_member(q, "publiccard")) {
            snprintf(what, sizeof what, "requests[%u].publiccard", i);
            if (bz_cards(json_object_get_member(q, "publiccard"), what, &pub, err, errlen) ||
                bz_int(q, "landlord", 0, 2, &v->landlord, err, errlen) || bz_int(q, "pos", 0, 2, &pos, err, errlen) ||
                bz_int(q, "finalbid", 0, 3, &finalbid, err, errlen))
                return -1;
            v->first_seat = v->landlord;
            for (int s = 0; s < 3; s++) {
                if (v->bids[s] != -1)
                    continue; /* seen, or my own */
                if (s == v->landlord)
                    v->bids[s] = finalbid;
                else
                    v->bids[s] = s > v->landlord && finalbid == 3 ? -1 : 0;
            }
        }
        if (json_object_has_member(q, "history")) {
            JsonNode *hn = json_object_get_member(q, "history");
            if (!JSON_NODE_HOLDS_ARRAY(hn) || json_array_get_length(json_node_get_array(hn)) != 2)
                return bz_err(err, errlen, "requests[%u].history: expected two arrays", i);
            if (v->landlord < 0 || pos < 0)
                return bz_err(err, errlen, "requests[%u]: a play request before publiccard / landlord / pos", i);
            playing = true;
            JsonArray *h = json_node_get_array(hn);
            int k = first_play ? (pos - v->landlord + 3) % 3 : 2; /* actions, counted from the end */
            for (int j = 2 - k; j < 2; j++) {
                cb_cards c;
                snprintf(what, sizeof what, "requests[%u].history[%d]", i, j);
                if (bz_cards(json_array_get_element(h, (guint)j), what, &c, err, errlen) ||
                    bz_push(bv, (pos + j + 1) % 3, c, err, errlen)) /* j = 0: pos - 2, j = 1: pos - 1 */
                    return -1;
            }
            first_play = false;
            if (resp) {
                cb_cards c;
                snprintf(what, sizeof what, "responses[%u]", i);
                if (bz_cards(resp, what, &c, err, errlen) || bz_push(bv, pos, c, err, errlen))
                    return -1;
            }
        } else if (json_object_has_member(q, "bid")) {
            JsonNode *bn = json_object_get_member(q, "bid");
            if (!JSON_NODE_HOLDS_ARRAY(bn) || json_array_get_length(json_node_get_array(bn)) > 2)
                return bz_err(err, errlen, "requests[%u].bid: expected an array of up to 2 bids", i);
            JsonArray *b = json_node_get_array(bn);
            pos = (int)json_array_get_length(b);
            for (int j = 0; j < pos; j++) {
                JsonNode *e = json_array_get_element(b, (guint)j);
                gint64 x = JSON_NODE_HOLDS_VALUE(e) && json_node_get_value_type(e) == G_TYPE_INT64 ? json_node_get_int(e) : -9;
                if (x < 0 || x > 3)
                    return bz_err(err, errlen, "requests[%u].bid[%d]: expected a bid 0..3", i, j);
                v->bids[j] = (int32_t)x;
            }
            if (resp) {
                gint64 x = JSON_NODE_HOLDS_VALUE(resp) && json_node_get_value_type(resp) == G_TYPE_INT64 ? json_node_get_int(resp) : -9;
                if (x < 0 || x > 3)
                    return bz_err(err, errlen, "responses[%u]: expected my bid 0..3", i);
                v->bids[pos] = (int32_t)x;
            }
        } else {
            return bz_err(err, errlen, "requests[%u]: neither a bid request nor a play request", i);
        }
    }
    if (!have_own)
        return bz_err(err, errlen, "requests: no \"own\" cards");
    v->seat = pos;
    if (!playing) {
        v->phase = CB_PHASE_BID;
        v->hand = own;
        for (int s = 0; s < 3; s++)
            v->cards_left[s] = r->hand_size;
        return 0;
    }
    v->phase = CB_PHASE_PLAY;
    v->bottom = pub;
    cb_cards played[3] = {0, 0, 0};
    for (int i = 0; i < v->nhistory; i++) {
        const cb_play_rec *h = &bv->hist[i];
        played[h->seat] |= h->cards;
        cb_move m;
        if (h->cards && cb_classify(r, cb_counts_of(h->cards), &m, NULL, 0) &&
            (m.shape == CB_BOMB || m.shape == CB_ROCKET))
            v->bombs[h->seat]++;
        if (h->cards) {
            v->table = h->cards;
            v->table_seat = h->seat;
        } else if (v->table_seat >= 0 && (h->seat + 1) % 3 == v->table_seat) {
            v->table = 0; /* the second pass after a play: the trick is over */
            v->table_seat = -1;
        }
    }
    v->hand = (own | (pos == v->landlord ? pub : 0)) & ~played[pos];
    for (int s = 0; s < 3; s++)
        v->cards_left[s] = r->hand_size + (s == v->landlord ? r->bottom : 0) - cb_cards_size(played[s]);
    return 0;
}

/* ---- FightTheLandlord2's kicker rule ---- */

/* Does FightTheLandlord2 accept these cards as a play (given that our rules do)? Only the
 * kicker layouts differ (header comment): 4 + 2 singles and a plane with single wings need
 * kickers of distinct ranks. */
static bool ftl2_accepts(const cb_rules *r, cb_cards cards)
{
    cb_move m;
    if (!cards || !cb_classify(r, cb_counts_of(cards), &m, NULL, 0))
        return true;
    if (m.shape != CB_FOUR_2 && m.shape != CB_PLANE_1)
        return true;
    cb_counts k = cb_counts_of(cards);
    int unit = m.shape == CB_FOUR_2 ? 4 : 3;
    for (int i = 0; i < m.len; i++)
        k = cb_count_add(k, m.main + i, -unit);
    for (int rk = 0; rk < CB_NRANKS; rk++)
        if (cb_count(k, rk) > 1)
            return false;
    return true;
}

/* Our answer, made acceptable to FightTheLandlord2: the same main part with other kickers,
 * else the first legal play both accept (a pass first, when following). */
static cb_cards ftl2_fix(const cb_view *v, cb_cards cards, char *note, size_t notelen)
{
    const cb_rules *r = v->rules;
    if (ftl2_accepts(r, cards))
        return cards;
    cb_move want, table;
    cb_classify(r, cb_counts_of(cards), &want, NULL, 0);
    cb_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.hand = cb_counts_of(v->hand);
    if (v->table && cb_classify(r, cb_counts_of(v->table), &table, NULL, 0))
        ctx.table = &table;
    ctx.next_has_one = v->cards_left[(v->seat + 1) % 3] == 1;
    cb_move *moves = g_new(cb_move, CB_MOVES_CAP);
    int n = cb_legal_moves(r, &ctx, moves, CB_MOVES_CAP);
    int pick = -1;
    for (int pass = 0; pass < 2 && pick < 0; pass++)
        for (int i = 0; i < n && pick < 0; i++) {
            const cb_move *m = &moves[i];
            bool same = m->shape == want.shape && m->main == want.main && m->len == want.len;
            if ((pass == 0 && !same) || m->shape == CB_PASS)
                continue;
            cb_cards c;
            if (cb_cards_pick(v->hand, m->counts, &c) == 0 && ftl2_accepts(r, c))
                pick = i;
        }
    cb_cards out = 0; /* a pass, when nothing else fits (only following: a lead has singles) */
    if (pick >= 0)
        cb_cards_pick(v->hand, moves[pick].counts, &out);
    g_free(moves);
    snprintf(note, notelen, "; kickers refit for FightTheLandlord2");
    return out;
}

/* A move that is legal whatever the view's trouble: pass when following, else the lowest card. */
static cb_cards safe_move(const cb_view *v)
{
    if (v->table)
        return 0;
    return v->hand & (~v->hand + 1);
}

/* ---- the loop ---- */

static JsonNode *cards_node(cb_cards c)
{
    JsonArray *a = json_array_new();
    for (int id = 0; id < CB_NCARDS; id++)
        if (c & cb_card_bit(id))
            json_array_add_int_element(a, id);
    JsonNode *n = json_node_new(JSON_NODE_ARRAY);
    json_node_take_array(n, a);
    return n;
}

/* Answer the record's last request; *resp gets the response node (owned by the caller). */
static char *bz_answer(cb_serve *s, JsonArray *reqs, JsonArray *resps, JsonNode **resp)
{
    bz_view *bv = g_new0(bz_view, 1);
    char err[400] = "", note[80] = "";
    const cb_rules *r = cb_shim_rules(s->shim);
    GString *debug = g_string_new("");
    if (bz_build(r, reqs, resps, bv, err, sizeof err) != 0) {
        /* no view at all: the smallest answer the turn's kind allows */
        g_string_printf(debug, "cannot read the request: %s", err);
        JsonNode *last = json_array_get_element(reqs, json_array_get_length(reqs) - 1);
        bool bid = last && JSON_NODE_HOLDS_OBJECT(last) && !json_object_has_member(json_node_get_object(last), "history");
        *resp = bid ? json_node_init_int(json_node_alloc(), 0) : cards_node(0);
    } else {
        cb_view *v = &bv->v;
        v->budget_ms = s->budget_ms;
        v->seed = cb_prf64(s->seed, "botzone", bv->v.hand, json_array_get_length(reqs), (uint64_t)v->seat);
        cb_decision d = {.struct_size = sizeof d};
        int code = v->phase == CB_PHASE_BID ? cb_decide_bid(s->table, v, &d) : cb_decide_play(s->table, v, &d);
        if (code < 0) {
            g_string_printf(debug, "view refused (%s): safe move", cb_table_last_error(s->table));
            d.bid = 0;
            d.cards = safe_move(v);
        } else {
            g_string_append_len(debug, d.explain, (gssize)strnlen(d.explain, sizeof d.explain));
        }
        if (v->phase == CB_PHASE_BID) {
            *resp = json_node_init_int(json_node_alloc(), d.bid);
        } else {
            d.cards = ftl2_fix(v, d.cards, note, sizeof note);
            g_string_append(debug, note);
            *resp = cards_node(d.cards);
        }
    }
    g_free(bv);
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "response");
    json_builder_add_value(b, json_node_copy(*resp));
    json_builder_set_member_name(b, "debug");
    char *valid = g_utf8_make_valid(debug->str, -1);
    json_builder_add_string_value(b, valid);
    g_free(valid);
    g_string_free(debug, TRUE);
    json_builder_end_object(b);
    JsonNode *root = json_builder_get_root(b);
    char *line = json_to_string(root, FALSE);
    json_node_unref(root);
    g_object_unref(b);
    return line;
}

/* Whether buf can still become one JSON value when more lines come: it ends inside a string
 * or with brackets open, and no bracket was closed by the wrong one. *open: the brackets open
 * at the end; *in_string: it ends inside a string. */
static bool bz_still_open(const char *buf, size_t len, int *open, bool *in_string)
{
    GString *stack = g_string_new("");
    bool str = false, esc = false, mismatch = false;
    for (size_t i = 0; i < len && !mismatch; i++) {
        char c = buf[i];
        if (str) {
            if (esc)
                esc = false;
            else if (c == '\\')
                esc = true;
            else if (c == '"')
                str = false;
        } else if (c == '"') {
            str = true;
        } else if (c == '{' || c == '[') {
            g_string_append_c(stack, c == '{' ? '}' : ']');
        } else if (c == '}' || c == ']') {
            if (stack->len == 0 || stack->str[stack->len - 1] != c)
                mismatch = true;
            else
                g_string_truncate(stack, stack->len - 1);
        }
    }
    *open = (int)stack->len;
    *in_string = str;
    g_string_free(stack, TRUE);
    return !mismatch && (str || *open > 0);
}

/* The line and byte column (from 1) of buf's last byte that is not blank. */
static void bz_last_token(const char *buf, size_t len, unsigned *line, unsigned *col)
{
    unsigned l = 1, c = 0;
    *line = 1;
    *col = 0;
    for (size_t i = 0; i < len; i++) {
        if (buf[i] == '\n') {
            l++;
            c = 0;
            continue;
        }
        c++;
        if (buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\r') {
            *line = l;
            *col = c;
        }
    }
}

/* Read one JSON value, which may span lines (a record written by hand, pretty-printed); NULL
 * at the end of input (*eof) or with the reason in err. *lineno counts the lines of stdin read
 * so far, so a message says where the input went wrong in the file's own line numbers.
 *
 * Lines are gathered while what was read can still become a value: json-glib refuses it, but
 * only at its end, and it ends inside a string or with brackets open. Anything else json-glib
 * refuses is wrong whatever comes next, and is said at once with json-glib's reason and
 * place ("input: not JSON at line 2 column 7: unexpected identifier ..."): waiting for more
 * would swallow every later request and end in a misleading "incomplete" at end of input.
 * "Incomplete" is said only when the input ends inside a value still open. */
static JsonNode *bz_read(FILE *in, unsigned *lineno, char *err, size_t errlen, bool *eof)
{
    GString *buf = g_string_new("");
    unsigned first = 0; /* the value's first line on stdin */
    int open = 0;
    bool in_string = false;
    *eof = false;
    for (;;) {
        size_t len;
        char *line = cb_serve_read_line(in, &len);
        if (!line) {
            *eof = buf->len == 0;
            if (!*eof) {
                if (in_string)
                    bz_err(err, errlen, "input: incomplete JSON at end of input: the value from line %u on ends "
                           "inside a string", first);
                else
                    bz_err(err, errlen, "input: incomplete JSON at end of input: the value from line %u on has %d "
                           "unclosed bracket%s", first, open, open == 1 ? "" : "s");
            }
            g_string_free(buf, TRUE);
            return NULL;
        }
        ++*lineno;
        if (buf->len == 0)
            first = *lineno;
        g_string_append_len(buf, line, (gssize)len);
        g_free(line);
        if (buf->len == 0)
            continue;
        JsonParser *p = json_parser_new();
        GError *ge = NULL;
        if (json_parser_load_from_data(p, buf->str, (gssize)buf->len, &ge)) {
            JsonNode *root = json_parser_get_root(p);
            if (!root) { /* blanks only: a blank line, skipped like an empty one */
                g_object_unref(p);
                g_string_truncate(buf, 0);
                continue;
            }
            root = json_node_copy(root);
            g_object_unref(p);
            g_string_free(buf, TRUE);
            return root;
        }
        g_object_unref(p);
        unsigned long el = 0, ec = 0;
        unsigned tl, tc;
        const char *why = ge->message;
        bool placed = cb_json_where(ge->message, &el, &ec, &why);
        bz_last_token(buf->str, buf->len, &tl, &tc);
        bool at_end = !placed || el > tl || (el == tl && ec >= tc);
        if (!at_end || !bz_still_open(buf->str, buf->len, &open, &in_string)) {
            if (placed)
                bz_err(err, errlen, "input: not JSON at line %lu column %lu: %.200s", first + (el ? el - 1 : 0), ec,
                       why);
            else
                bz_err(err, errlen, "input: not JSON (the value from line %u on): %.200s", first, why);
            g_error_free(ge);
            g_string_free(buf, TRUE);
            return NULL;
        }
        g_error_free(ge);
        if (buf->len > BZ_MAX_INPUT) {
            bz_err(err, errlen, "input: no JSON object in %zu bytes", buf->len);
            g_string_free(buf, TRUE);
            return NULL;
        }
        g_string_append_c(buf, '\n');
    }
}

int cb_serve_botzone(cb_serve *s, FILE *in)
{
    JsonArray *reqs = json_array_new(), *resps = json_array_new();
    int rc = 0;
    unsigned lineno = 0;
    for (;;) {
        char err[400];
        bool eof;
        JsonNode *input = bz_read(in, &lineno, err, sizeof err, &eof);
        /* Input we cannot read ends the command with the reason on stderr and status 1, in
         * keep-running mode too: a garbage line there is framing lost, not one bad request
         * (the platform's judge sends well-formed records), and we could not tell which
         * request it stood for. Skipping it would leave the judge waiting for an answer until
         * its time-out; answering would put a made-up response into the record. Stopping
         * shows the failure at once in the platform's log, as a bot that exited. */
        if (!input) {
            if (!eof) {
                cb_cli_error("serve", "%s", err);
                rc = 1;
            }
            break;
        }
        if (!JSON_NODE_HOLDS_OBJECT(input)) {
            cb_cli_error("serve", "input: not a JSON object");
            json_node_unref(input);
            rc = 1;
            break;
        }
        JsonObject *o = json_node_get_object(input);
        if (json_object_has_member(o, "requests")) {
            /* the whole record: it replaces what we kept */
            JsonNode *rq = json_object_get_member(o, "requests"), *rs = json_object_get_member(o, "responses");
            if (!JSON_NODE_HOLDS_ARRAY(rq) || (rs && !JSON_NODE_HOLDS_ARRAY(rs))) {
                cb_cli_error("serve", "input: requests / responses must be arrays");
                json_node_unref(input);
                rc = 1;
                break;
            }
            json_array_unref(reqs);
            json_array_unref(resps);
            reqs = json_array_new();
            resps = json_array_new();
            JsonArray *a = json_node_get_array(rq);
            for (guint i = 0; i < json_array_get_length(a); i++)
                json_array_add_element(reqs, json_node_copy(json_array_get_element(a, i)));
            a = rs ? json_node_get_array(rs) : NULL;
            for (guint i = 0; a && i < json_array_get_length(a); i++)
                json_array_add_element(resps, json_node_copy(json_array_get_element(a, i)));
        } else {
            json_array_add_element(reqs, json_node_copy(input)); /* keep-running: the next request */
        }
        json_node_unref(input);
        if (json_array_get_length(reqs) == 0) {
            cb_cli_error("serve", "input: no request");
            rc = 1;
            break;
        }
        while (json_array_get_length(resps) + 1 > json_array_get_length(reqs))
            json_array_remove_element(resps, json_array_get_length(resps) - 1);
        JsonNode *resp = NULL;
        char *line = bz_answer(s, reqs, resps, &resp);
        json_array_add_element(resps, resp);
        int w = cb_serve_write_line(s, line);
        g_free(line);
        if (w == 0 && s->keep_running)
            w = cb_serve_write_line(s, BZ_KEEP_RUNNING);
        if (w != 0) {
            rc = 1;
            break;
        }
        if (!s->keep_running)
            break;
    }
    json_array_unref(reqs);
    json_array_unref(resps);
    return rc;
}

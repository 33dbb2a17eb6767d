/* cardbot play — one game with a person at one seat. The engine deals, runs the bidding and
 * the play and settles (game.h), exactly as `cardbot match` uses it; bots answer through the
 * shim on the engine's view (so validation and fallback apply to them); the person's answers
 * go to the same cb_engine_bid / cb_engine_play, whose refusal is what the person reads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "play.h"

static void help(cb_play_session *s, bool bidding)
{
    if (bidding)
        fprintf(s->out, "Type one of the choices listed (a number%s), or:\n",
                s->rules->game == CB_GAME_PDK ? ", yes or no" : s->rules->rob ? ", call, rob or pass" : " or pass");
    else
        fprintf(s->out, "Type a play by ranks: 33344, T or 10 for a ten, X and D for the jokers; suits are\n"
                        "optional (3s3h4d%s): without them your lowest suits are played.\n",
                s->unicode ? " or 3\xe2\x99\xa0" "3\xe2\x99\xa5" "4\xe2\x99\xa6" : "");
    fprintf(s->out, "  %-10s %s\n", "pass, p", bidding ? "no bid" : "pass (when following)");
    fprintf(s->out, "  %-10s ask %s for its choice and why\n", "hint, h", s->hint_name);
    fprintf(s->out, "  %-10s show %syour hand again\n", "hand", bidding ? "" : "the table and ");
    fprintf(s->out, "  %-10s list every legal %s\n", "moves", bidding ? "bid" : "play");
    fprintf(s->out, "  %-10s this text\n", "help, ?");
    fprintf(s->out, "  %-10s leave now (the game is not finished)\n", "quit");
}

static void show_hand(cb_play_session *s, const cb_engine *e, const char *what)
{
    char buf[256];
    cb_cards hand = cb_engine_hand(e, s->me);
    cb_play_fmt_hand(hand, s->unicode, buf, sizeof buf);
    fprintf(s->out, "%s (%d): %s\n", what, cb_cards_size(hand), buf);
}

static void decision_init(cb_decision *d)
{
    memset(d, 0, sizeof *d);
    d->struct_size = sizeof *d;
}

/* The shim refused the call itself (not a fallback: a bad view or argument). A bug if it
 * happens, since the engine built the view; said once and the session ends. */
static int shim_failed(cb_play_session *s, cb_table *t, int seat, int code)
{
    const char *why = cb_table_last_error(t);
    fflush(s->out); /* the transcript so far, then the error */
    cb_cli_error("play", "seat %d: the shim refused the decision: %s", seat, why && why[0] ? why : cb_strerror(code));
    return -1;
}

/* Why and how sure, when the strategy says; a fallback says what it replaced. */
static void show_explain(cb_play_session *s, const cb_decision *d)
{
    bool value = isfinite(d->value);
    if (!d->explain[0] && !value && !(d->flags & CB_DEC_FALLBACK))
        return;
    fprintf(s->out, "  why: %s", d->explain[0] ? d->explain : "(no explanation)");
    if (value)
        fprintf(s->out, " (value %.2f)", d->value);
    if (d->flags & CB_DEC_FALLBACK)
        fprintf(s->out, " [a fallback answer]");
    fputc('\n', s->out);
}

static void show_hint(cb_play_session *s, cb_engine *e)
{
    cb_view v;
    if (cb_engine_view(e, s->me, s->budget_ms, &v) != 0)
        return;
    cb_decision d;
    decision_init(&d);
    bool bidding = cb_engine_phase(e) == CB_PHASE_BID;
    int code = bidding ? cb_decide_bid(s->hint_table, &v, &d) : cb_decide_play(s->hint_table, &v, &d);
    if (code < 0) {
        const char *why = cb_table_last_error(s->hint_table);
        fprintf(s->out, "no hint: %s\n", why && why[0] ? why : cb_strerror(code));
        return;
    }
    d.explain[sizeof d.explain - 1] = 0;
    char shown[128], typed[64];
    if (bidding) {
        fprintf(s->out, "hint from %s: %s   [enter: %d]\n", s->hint_name, cb_play_bid_text(s->rules, d.bid), d.bid);
    } else {
        cb_play_fmt_move(s->rules, d.cards, shown, sizeof shown);
        cb_play_fmt_typed(d.cards, typed, sizeof typed);
        fprintf(s->out, "hint from %s: %s   [enter: %s]\n", s->hint_name, shown, typed);
    }
    show_explain(s, &d);
}

static int bot_bid(cb_play_session *s, cb_engine *e)
{
    int seat = cb_engine_turn(e);
    cb_view v;
    cb_engine_view(e, seat, s->budget_ms, &v);
    cb_decision d;
    decision_init(&d);
    int code = cb_decide_bid(s->table, &v, &d);
    if (code < 0)
        return shim_failed(s, s->table, seat, code);
    char err[200], who[64];
    if (cb_engine_bid(e, d.bid, err, sizeof err) != 0) { /* the shim checked it: a bug if so */
        fflush(s->out);
        cb_cli_error("play", "seat %d: bid %d refused by the engine: %s", seat, d.bid, err);
        return -1;
    }
    fprintf(s->out, "%s %s%s\n", cb_play_who(s, seat, who, sizeof who), cb_play_bid_text(s->rules, d.bid),
            d.flags & CB_DEC_FALLBACK ? " [a fallback answer]" : "");
    return 0;
}

static int bot_play(cb_play_session *s, cb_engine *e)
{
    int seat = cb_engine_turn(e);
    cb_view v;
    cb_engine_view(e, seat, s->budget_ms, &v);
    cb_decision d;
    decision_init(&d);
    int code = cb_decide_play(s->table, &v, &d);
    if (code < 0)
        return shim_failed(s, s->table, seat, code);
    char err[200], who[64], shown[128];
    if (cb_engine_play(e, d.cards, err, sizeof err) != 0) {
        fflush(s->out);
        cb_cli_error("play", "seat %d: play refused by the engine: %s", seat, err);
        return -1;
    }
    cb_play_who(s, seat, who, sizeof who);
    const char *fb = d.flags & CB_DEC_FALLBACK ? " [a fallback answer]" : "";
    if (!d.cards) {
        fprintf(s->out, "%s passes%s\n", who, fb);
        return 0;
    }
    cb_play_fmt_move(s->rules, d.cards, shown, sizeof shown);
    int left = cb_cards_size(cb_engine_hand(e, seat));
    fprintf(s->out, "%s plays %s, %d card%s left%s\n", who, shown, left, left == 1 ? "" : "s", fb);
    return 0;
}

/* The choices of a bid, as the prompt lists them. */
static void bid_choices(const cb_play_session *s, const int32_t *legal, int n, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; i < n && k < len; i++) {
        const char *name = "";
        if (s->rules->game == CB_GAME_PDK)
            name = legal[i] ? " (yes: declare 包庄)" : " (no)";
        else if (legal[i] == 0)
            name = " (pass)";
        else if (s->rules->rob)
            name = legal[i] == 1 ? " (call)" : " (rob)";
        k += (size_t)snprintf(buf + k, len - k, "%s%d%s", i ? ", " : "", legal[i], name);
    }
}

/* A typed bid: a number, or a word for the rules' kind of bidding. -1 when not a bid. */
static int read_bid(const cb_rules *r, const char *t)
{
    if (cb_play_is(t, "pass p no n"))
        return 0;
    if (r->game == CB_GAME_PDK && cb_play_is(t, "yes y"))
        return 1;
    if (r->rob && cb_play_is(t, "call"))
        return 1;
    if (r->rob && cb_play_is(t, "rob"))
        return 2;
    if (t[0] >= '0' && t[0] <= '9' && t[1] == 0)
        return t[0] - '0';
    return -1;
}

static void list_moves(cb_play_session *s, const cb_engine *e);

/* The person's next line that is an action (a bid, or cards / pass), after answering the
 * commands both prompts take — help, hand, hint, and moves while playing; blank lines are
 * skipped. NULL when they leave: quit, exit or the end of input. */
static const char *read_action(cb_play_session *s, cb_engine *e, bool bidding)
{
    for (;;) {
        const char *t = cb_play_read(s, bidding ? "bid> " : "play> ");
        if (!t)
            return NULL;
        if (!t[0])
            continue;
        if (cb_play_is(t, "quit exit"))
            return NULL;
        if (cb_play_is(t, "help ?"))
            help(s, bidding);
        else if (cb_play_is(t, "hand") && bidding)
            show_hand(s, e, "your hand");
        else if (cb_play_is(t, "hand"))
            cb_play_show_state(s, e);
        else if (cb_play_is(t, "hint h"))
            show_hint(s, e);
        else if (cb_play_is(t, "moves") && !bidding)
            list_moves(s, e);
        else
            return t;
    }
}

/* 0 when the person bid, 1 when they quit. */
static int human_bid(cb_play_session *s, cb_engine *e)
{
    int32_t legal[4];
    int n = cb_engine_legal_bids(e, legal, 4);
    char choices[160], shown[48], err[200], who[64];
    bid_choices(s, legal, n > 4 ? 4 : n, choices, sizeof choices);
    fprintf(s->out, "-- your %s: %s --\n", s->rules->game == CB_GAME_PDK ? "包庄 choice" : "bid", choices);
    for (;;) {
        const char *t = read_action(s, e, true);
        if (!t)
            return 1;
        if (cb_play_is(t, "moves")) { /* as while playing: the legal choices */
            fprintf(s->out, "legal bids: %s\n", choices);
            continue;
        }
        int bid = read_bid(s->rules, t);
        if (bid < 0) {
            fprintf(s->out, "refused: '%s' is not a bid (choices: %s)\n", cb_cli_shorten(t, shown, sizeof shown),
                    choices);
            continue;
        }
        if (cb_engine_bid(e, bid, err, sizeof err) != 0) {
            /* the engine speaks of "bid 2"; a word typed (rob, call, yes) is named too */
            bool word = t[0] < '0' || t[0] > '9';
            fprintf(s->out, "refused: %s%s%s (choices: %s)\n", word ? cb_cli_shorten(t, shown, sizeof shown) : "",
                    word ? ": " : "", err, choices);
            continue;
        }
        fprintf(s->out, "%s %s\n", cb_play_who(s, s->me, who, sizeof who), cb_play_bid_text(s->rules, bid));
        return 0;
    }
}

static void list_moves(cb_play_session *s, const cb_engine *e)
{
    int n = cb_engine_legal_plays(e, NULL, 0);
    if (n <= 0)
        return;
    cb_cards *cards = malloc((size_t)n * sizeof *cards);
    cb_move *moves = calloc((size_t)n, sizeof *moves);
    if (!cards || !moves) {
        fprintf(s->out, "out of memory\n");
        free(cards);
        free(moves);
        return;
    }
    n = cb_engine_legal_plays(e, cards, n);
    for (int i = 0; i < n; i++)
        moves[i].counts = cb_counts_of(cards[i]);
    qsort(moves, (size_t)n, sizeof *moves, cb_cli_move_cmp);
    /* a long list (DDZ kickers) is cut: a terminal's worth is what a person reads */
    enum { SHOW = 120 };
    int col = fprintf(s->out, "%d legal play%s:", n, n == 1 ? "" : "s");
    for (int i = 0; i < n && i < SHOW; i++) {
        char t[64];
        cb_cli_move_text(moves[i].counts, t, sizeof t);
        int w = (int)strlen(t) + 1;
        if (col + w > 78) {
            fputs("\n ", s->out);
            col = 1;
        }
        fprintf(s->out, " %s", t);
        col += w;
    }
    if (n > SHOW)
        fprintf(s->out, " ... (%d more)", n - SHOW);
    fputc('\n', s->out);
    free(cards);
    free(moves);
}

/* 0 when the person played or passed, 1 when they quit. */
static int human_play(cb_play_session *s, cb_engine *e)
{
    char err[200], who[64], shown[128];
    const cb_deal *d = cb_engine_deal(e);
    cb_cards only[2];
    if (cb_engine_legal_plays(e, only, 2) == 1 && only[0] == 0) {
        /* nothing beats the table: the one legal action needs no typing (要不起) */
        cb_play_fmt_move(s->rules, d->table_cards, shown, sizeof shown);
        if (cb_engine_play(e, 0, err, sizeof err) != 0) {
            fflush(s->out);
            cb_cli_error("play", "your pass was refused: %s", err);
            return -1;
        }
        fprintf(s->out, "you (seat %d) cannot beat %s: you pass\n", s->me, shown);
        return 0;
    }
    cb_play_show_state(s, e);
    for (;;) {
        const char *t = read_action(s, e, false);
        if (!t)
            return 1;
        cb_cards cards = 0;
        if (!cb_play_is(t, "pass p") &&
            cb_cards_parse_held(t, s->rules->deck, cb_engine_hand(e, s->me), &cards, err, sizeof err) != 0) {
            fprintf(s->out, "refused: %s: %s\n", cb_cli_shorten(t, shown, sizeof shown), err);
            continue;
        }
        if (cb_engine_play(e, cards, err, sizeof err) != 0) {
            cb_play_fmt_move(s->rules, cards, shown, sizeof shown);
            fprintf(s->out, "refused: %s: %s\n", shown, err);
            continue;
        }
        cb_play_who(s, s->me, who, sizeof who);
        if (!cards) {
            fprintf(s->out, "%s pass\n", who);
        } else {
            cb_play_fmt_move(s->rules, cards, shown, sizeof shown);
            int left = cb_cards_size(cb_engine_hand(e, s->me));
            fprintf(s->out, "%s play %s, %d card%s left\n", who, shown, left, left == 1 ? "" : "s");
        }
        return 0;
    }
}

/* Who bids first (at the start and after a redeal). */
static void announce_bidding(cb_play_session *s, const cb_engine *e)
{
    char who[64];
    int first = cb_engine_first_bidder(e);
    if (s->rules->game == CB_GAME_PDK)
        fprintf(s->out, "包庄 is asked in turn from %s, the first leader\n", cb_play_who(s, first, who, sizeof who));
    else
        fprintf(s->out, "bidding starts with %s\n", cb_play_who(s, first, who, sizeof who));
}

/* The roles once the bidding is over, and who leads. */
static void announce_play(cb_play_session *s, const cb_engine *e)
{
    const cb_rules *r = s->rules;
    char who[64], buf[128];
    int lord = cb_engine_landlord(e), first = cb_engine_first_seat(e);
    if (r->game == CB_GAME_DDZ) {
        cb_play_fmt_hand(cb_engine_bottom(e), s->unicode, buf, sizeof buf);
        fprintf(s->out, "%s %s the landlord at stake %d; the bottom cards: %s\n",
                cb_play_who(s, lord, who, sizeof who), lord == s->me ? "are" : "is", cb_engine_stake(e), buf);
        if (lord == s->me)
            show_hand(s, e, "your hand now");
    } else if (lord >= 0) {
        fprintf(s->out, "%s declared 包庄: out first wins %d from each seat, else pays each %d\n",
                cb_play_who(s, lord, who, sizeof who), r->bao_points, r->bao_points);
    } else if (r->bao) {
        fprintf(s->out, "nobody declared 包庄\n");
    }
    fprintf(s->out, "%s %s%s\n", cb_play_who(s, first, who, sizeof who), first == s->me ? "lead" : "leads",
            r->game == CB_GAME_PDK && r->spade3_first ? " (holds the spade 3, which the first play must hold)" : "");
}

int cb_play_game(cb_play_session *s, int g)
{
    cb_engine_opts eo;
    memset(&eo, 0, sizeof eo);
    eo.struct_size = sizeof eo;
    eo.key = s->seed;
    eo.deal = (uint64_t)g;
    eo.game = (uint64_t)g;
    eo.first_bidder = -1;
    eo.landlord = -1;
    char err[200];
    cb_engine *e = cb_engine_new(s->rules, &eo, err, sizeof err);
    if (!e) {
        cb_cli_error("play", "engine: %s", err);
        return -1;
    }
    fprintf(s->out, "\n== game %d: %s, you are seat %d; hints from %s ==\n", g + 1, s->rules->preset, s->me,
            s->hint_name);
    for (int seat = 0; seat < 3; seat++)
        if (seat != s->me)
            fprintf(s->out, "seat %d: %s\n", seat, s->name[seat]);
    int rc = 0, redeals = 0;
    if (cb_engine_phase(e) == CB_PHASE_BID) {
        show_hand(s, e, "your hand");
        announce_bidding(s, e);
    }
    while (rc == 0 && cb_engine_phase(e) == CB_PHASE_BID) {
        rc = cb_engine_turn(e) == s->me ? human_bid(s, e) : bot_bid(s, e);
        if (rc == 0 && cb_engine_redeals(e) != redeals) {
            redeals = cb_engine_redeals(e);
            fprintf(s->out, "everybody passed: the cards are dealt again (redeal %d)\n", redeals);
            show_hand(s, e, "your hand");
            announce_bidding(s, e);
        }
    }
    if (rc == 0) {
        if (cb_engine_landlord(e) < 0 && !s->rules->bao && s->rules->game == CB_GAME_PDK)
            show_hand(s, e, "your hand");
        announce_play(s, e);
    }
    while (rc == 0 && cb_engine_phase(e) == CB_PHASE_PLAY)
        rc = cb_engine_turn(e) == s->me ? human_play(s, e) : bot_play(s, e);
    if (rc == 0)
        cb_play_show_result(s, e, g);
    cb_engine_free(e);
    return rc;
}

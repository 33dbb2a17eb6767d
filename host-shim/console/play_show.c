/* cardbot play — what the person sees. Plain lines, no cursor control: the same text works in
 * a terminal, under tmux and in a pipe, and a test can read it back. */
#include <string.h>

#include "cli.h"
#include "play.h"

void cb_play_fmt_hand(cb_cards c, bool unicode, char *buf, size_t len)
{
    if (!len)
        return;
    buf[0] = 0;
    size_t n = 0;
    for (int rk = 0; rk < CB_NRANKS; rk++) {
        cb_cards of = cb_cards_of_rank(c, rk);
        if (!of)
            continue;
        if (n && n < len)
            n += (size_t)snprintf(buf + n, len - n, " ");
        for (int id = 0; id < CB_NCARDS && n < len; id++) {
            if (!(of & cb_card_bit(id)))
                continue;
            int su = cb_card_suit(id);
            if (su < 0)
                n += (size_t)snprintf(buf + n, len - n, "%c", cb_rank_chars[rk]);
            else if (unicode)
                n += (size_t)snprintf(buf + n, len - n, "%c%s", cb_rank_chars[rk], cb_suit_symbols[su]);
            else
                n += (size_t)snprintf(buf + n, len - n, "%c%c", cb_rank_chars[rk], cb_suit_chars[su]);
        }
    }
}

void cb_play_fmt_move(const cb_rules *r, cb_cards c, char *buf, size_t len)
{
    if (!c) {
        snprintf(buf, len, "pass");
        return;
    }
    cb_move m;
    char all[64], main_txt[64], kick_txt[64];
    cb_counts_format(cb_counts_of(c), all, sizeof all);
    if (!cb_classify(r, cb_counts_of(c), &m, NULL, 0)) {
        snprintf(buf, len, "%s", all); /* never for a played card set: the engine checked it */
        return;
    }
    const char *shape = m.shape < CB_NSHAPES && cb_shape_names[m.shape] ? cb_shape_names[m.shape] : "?";
    cb_counts kick = cb_cli_kickers(&m);
    if (!kick) {
        snprintf(buf, len, "%s (%s)", all, shape);
        return;
    }
    cb_counts_format(m.counts - kick, main_txt, sizeof main_txt);
    cb_counts_format(kick, kick_txt, sizeof kick_txt);
    snprintf(buf, len, "%s + %s (%s)", main_txt, kick_txt, shape);
}

void cb_play_fmt_typed(cb_cards c, char *buf, size_t len)
{
    if (!c)
        snprintf(buf, len, "pass");
    else
        cb_counts_format(cb_counts_of(c), buf, len);
}

const char *cb_play_who(const cb_play_session *s, int seat, char *buf, size_t len)
{
    if (seat == s->me)
        snprintf(buf, len, "you (seat %d)", seat);
    else
        snprintf(buf, len, "seat %d (%s)", seat, s->name[seat]);
    return buf;
}

const char *cb_play_bid_text(const cb_rules *r, int bid)
{
    if (r->game == CB_GAME_PDK)
        return bid ? "包庄: yes" : "包庄: no";
    if (r->rob)
        return bid == 0 ? "bid: pass" : bid == 1 ? "bid: call (叫地主)" : "bid: rob (抢地主)";
    static const char *const score[] = {"bid: pass", "bid: 1", "bid: 2", "bid: 3"};
    return bid >= 0 && bid <= 3 ? score[bid] : "bid: ?";
}

/* The role a seat holds, for the seat lines ("" for none). */
static const char *role(const cb_rules *r, const cb_engine *e, int seat)
{
    if (cb_engine_landlord(e) != seat)
        return "";
    return r->game == CB_GAME_PDK ? "  包庄" : "  landlord";
}

void cb_play_show_state(cb_play_session *s, const cb_engine *e)
{
    const cb_rules *r = s->rules;
    char buf[256], who[64];
    fprintf(s->out, "-- your turn --\n");
    for (int seat = 0; seat < 3; seat++) {
        int left = cb_cards_size(cb_engine_hand(e, seat));
        fprintf(s->out, "  seat %d  %-12s %2d card%s%s%s\n", seat, seat == s->me ? "you" : s->name[seat], left,
                left == 1 ? " " : "s", role(r, e, seat), left == 1 && seat != s->me ? "  ONE CARD LEFT" : "");
    }
    if (r->game == CB_GAME_DDZ && cb_engine_landlord(e) >= 0) {
        const cb_deal *d = cb_engine_deal(e);
        int bombs = d ? d->bombs[0] + d->bombs[1] + d->bombs[2] : 0;
        cb_play_fmt_hand(cb_engine_bottom(e), s->unicode, buf, sizeof buf);
        fprintf(s->out, "  stake %d, bombs so far %d, bottom %s\n", cb_engine_stake(e), bombs, buf);
    }
    const cb_deal *d = cb_engine_deal(e);
    if (d && d->table_seat >= 0) {
        cb_play_fmt_move(r, d->table_cards, buf, sizeof buf);
        fprintf(s->out, "  to beat: %s from %s\n", buf, cb_play_who(s, d->table_seat, who, sizeof who));
    } else {
        fprintf(s->out, "  you lead%s\n", d && d->first_play ? " the first trick" : "");
    }
    cb_cards hand = cb_engine_hand(e, s->me);
    cb_play_fmt_hand(hand, s->unicode, buf, sizeof buf);
    fprintf(s->out, "  your hand (%d): %s\n", cb_cards_size(hand), buf);
}

void cb_play_show_result(cb_play_session *s, const cb_engine *e, int g)
{
    const cb_rules *r = s->rules;
    int delta[3] = {0, 0, 0};
    int mult = cb_engine_points(e, delta);
    int winner = cb_engine_winner(e), lord = cb_engine_landlord(e);
    char who[64], buf[256];
    bool won = winner == s->me;
    if (r->game == CB_GAME_DDZ && lord >= 0) /* farmers win or lose together */
        won = (winner == lord) == (s->me == lord);
    fprintf(s->out, "== game %d over: %s went out first: you %s ==\n", g + 1,
            cb_play_who(s, winner, who, sizeof who), won ? "win" : "lose");
    for (int seat = 0; seat < 3; seat++) {
        cb_cards left = cb_engine_hand(e, seat);
        cb_play_fmt_hand(left, s->unicode, buf, sizeof buf);
        fprintf(s->out, "  seat %d  %-12s %+5d   %s%s\n", seat, seat == s->me ? "you" : s->name[seat],
                delta[seat], left ? "held " : "out", buf);
    }
    if (r->game == CB_GAME_DDZ && lord >= 0) {
        /* Say what doubled the stake in this deal only: a spring (the farmers never played) or
         * an anti-spring (the landlord made only its first lead) doubles once, every bomb
         * counted once more (the settlement's cap included, as the points show it). */
        int stake = cb_engine_stake(e), farmer_plays = 0;
        for (int seat = 0; seat < 3; seat++)
            if (seat != lord)
                farmer_plays += cb_engine_plays_made(e, seat);
        bool spring = winner == lord && farmer_plays == 0;
        bool anti = winner != lord && cb_engine_plays_made(e, lord) == 1;
        int factor = stake > 0 ? mult / stake / ((spring || anti) ? 2 : 1) : 1, bombs = 0;
        while (factor > 1) {
            factor >>= 1;
            bombs++;
        }
        char why[96] = "";
        size_t n = 0;
        if (bombs)
            n += (size_t)snprintf(why + n, sizeof why - n, ", %d bomb%s x2 each", bombs, bombs == 1 ? "" : "s");
        if (spring || anti)
            snprintf(why + n, sizeof why - n, ", %s x2", spring ? "spring" : "anti-spring");
        fprintf(s->out, "  landlord seat %d: stake %d%s: %d a farmer\n", lord, stake, why, mult);
    }
    else if (r->game != CB_GAME_DDZ && lord >= 0)
        fprintf(s->out, "  seat %d declared 包庄 and %s\n", lord, winner == lord ? "made it" : "failed");
    for (int seat = 0; seat < 3; seat++)
        s->totals[seat] += delta[seat];
    s->played++;
    fprintf(s->out, "totals after %d game%s:", s->played, s->played == 1 ? "" : "s");
    for (int seat = 0; seat < 3; seat++) /* by seat: two seats may run one strategy */
        fprintf(s->out, " seat %d%s %+lld%s", seat, seat == s->me ? " (you)" : "", s->totals[seat],
                seat < 2 ? "," : "\n");
}

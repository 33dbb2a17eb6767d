/* cardbot — does a view describe a position a real game reaches? (game.h: cb_view_check)
 *
 * A view is the host's word about public facts; a wrong one feeds wrong information to every
 * strategy (inference replays the history from first_seat), so the shim refuses it before any
 * plugin runs, with the field named. The check replays what the view says happened: the
 * bidding through the engine's own state machine (bidding.c), the play through the rules
 * (cb_play_legal). Other seats' hands are unknown, so their plays are checked for shape, for
 * beating their trick and for the first play's spade 3, and their passes only for being
 * allowed at all (following); the deciding seat's own past plays and passes are checked fully,
 * with the hand it held then (its hand now plus what it played since).
 */
#include "cardbot/game.h"
#include "msg.h"

#include "bidding.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REFUSED (-2) /* shim.h's CB_ERR_VIEW: the shim returns this code as it is */

/* a message naming the field, and the refusal */
#define bad(err, errlen, ...) core_msg_ret(REFUSED, (err), (errlen), __VA_ARGS__)

/* The bidding the view records, replayed: where it stands (*out), and who bids next. */
static int check_bids(const cb_rules *r, const cb_view *v, bidding *out, char *err, size_t errlen)
{
    bidding_start(out, -1);
    bool ddz = r->game == CB_GAME_DDZ;
    if (!ddz && !r->bao) {
        for (int s = 0; s < 3; s++)
            if (v->bids[s] != -1)
                return bad(err, errlen, "bids[%d]: %d, but 包庄 is off in these rules (all -1)", s, v->bids[s]);
        if (v->first_bidder != -1)
            return bad(err, errlen, "first_bidder: %d, but there is no bidding (-1)", v->first_bidder);
        if (v->landlord != -1)
            return bad(err, errlen, "landlord: %d, but 包庄 is off in these rules (-1)", v->landlord);
        if (v->phase != CB_PHASE_PLAY)
            return bad(err, errlen, "phase: a bid, but there is no bidding in these rules");
        return 0;
    }
    if (ddz && v->first_bidder == -1) { /* fixed roles: no bidding took place */
        for (int s = 0; s < 3; s++)
            if (v->bids[s] != -1)
                return bad(err, errlen, "bids[%d]: %d without a first_bidder (fixed roles: all -1)", s, v->bids[s]);
        if (v->phase != CB_PHASE_PLAY || v->landlord < 0)
            return bad(err, errlen, "first_bidder: -1 (fixed roles) needs the play phase and a landlord");
        return 0;
    }
    if (v->first_bidder < 0 || v->first_bidder > 2)
        return bad(err, errlen, "first_bidder: %d is not a seat%s", v->first_bidder,
                   ddz ? "" : " (these rules have 包庄, asked from first_seat: first_bidder is first_seat)");
    if (!ddz && v->first_bidder != v->first_seat)
        return bad(err, errlen, "first_bidder: %d, but 包庄 is asked from first_seat %d", v->first_bidder, v->first_seat);

    /* the actions in turn order: the first round, then (rob) the first caller again */
    bidding b;
    bidding_start(&b, v->first_bidder);
    int landlord = -1, stake = 1, state = BIDDING_GOES_ON;
    while (state == BIDDING_GOES_ON) {
        int s = b.turn;
        int x = v->bids[s];
        if (b.final_turn) /* the caller's second action shows only as a 2 (its strongest) */
            x = x == 2 ? 2 : (x == 1 && v->phase == CB_PHASE_PLAY ? 0 : -1);
        else if (ddz && r->rob && x == 2 && b.caller < 0)
            x = 1; /* a caller who later robbed back: its first action was the call */
        if (x == -1)
            break;
        int32_t ok[4];
        int n = bidding_legal(&b, r, ok);
        bool legal = false;
        for (int i = 0; i < n; i++)
            legal = legal || ok[i] == x;
        if (!legal)
            return bad(err, errlen, "bids[%d]: %d cannot follow the bids before it (from first_bidder %d)",
                       s, v->bids[s], v->first_bidder);
        state = bidding_apply(&b, r, x, &landlord, &stake);
    }
    *out = b;
    for (int s = 0; s < 3; s++)
        if (v->bids[s] != b.bids[s])
            return bad(err, errlen, "bids[%d]: %d, but the bidding in turn from first_bidder %d gives %d",
                       s, v->bids[s], v->first_bidder, b.bids[s]);
    if (v->phase == CB_PHASE_BID) {
        if (state != BIDDING_GOES_ON)
            return bad(err, errlen, "phase: the bids recorded have ended the bidding");
        if (v->seat != b.turn)
            return bad(err, errlen, "seat: %d, but seat %d bids next", v->seat, b.turn);
        if (v->landlord != -1)
            return bad(err, errlen, "landlord: %d during the bidding (-1)", v->landlord);
        return 0;
    }
    if (state == BIDDING_ALL_PASSED) {
        /* after the last redeal the first bidder is made landlord at 1 */
        if (v->landlord != v->first_bidder)
            return bad(err, errlen, "landlord: %d, but after all passed only first_bidder %d can be", v->landlord, v->first_bidder);
        return 0;
    }
    if (state != BIDDING_DONE)
        return bad(err, errlen, "bids: the bidding is not over in the play phase");
    if (v->landlord != landlord)
        return bad(err, errlen, "landlord: %d, but the bids make it %d", v->landlord, landlord);
    return 0;
}

/* Who holds what, and how many: the deck adds up. */
static int check_cards(const cb_rules *r, const cb_view *v, const cb_cards played[3], char *err, size_t errlen)
{
    if (v->hand & ~r->deck)
        return bad(err, errlen, "hand: cards not in the %s deck", r->preset);
    for (int s = 0; s < 3; s++) {
        if (v->cards_left[s] < 0 || v->cards_left[s] > r->hand_size + r->bottom)
            return bad(err, errlen, "cards_left[%d]: %d is out of range", s, v->cards_left[s]);
        if (v->bombs[s] < 0)
            return bad(err, errlen, "bombs[%d]: %d is negative", s, v->bombs[s]);
    }
    if (cb_cards_size(v->hand) != v->cards_left[v->seat])
        return bad(err, errlen, "hand: %d cards, cards_left[%d] says %d", cb_cards_size(v->hand), v->seat,
                   v->cards_left[v->seat]);
    for (int s = 0; s < 3; s++) {
        int dealt = r->hand_size + (r->game == CB_GAME_DDZ && v->phase == CB_PHASE_PLAY && s == v->landlord ? r->bottom : 0);
        int have = v->cards_left[s] + cb_cards_size(played[s]);
        if (have != dealt)
            return bad(err, errlen, "cards_left[%d]: %d left + %d played = %d, a %s seat starts with %d", s,
                       v->cards_left[s], cb_cards_size(played[s]), have, r->preset, dealt);
        if (v->phase == CB_PHASE_PLAY && v->cards_left[s] == 0)
            return bad(err, errlen, "cards_left[%d]: 0, the game is over", s);
    }
    bool ddz = r->game == CB_GAME_DDZ;
    if (v->phase == CB_PHASE_BID || !ddz) {
        if (v->bottom)
            return bad(err, errlen, "bottom: shown %s", ddz ? "before the landlord is known" : "in PDK (no bottom)");
    } else {
        if ((v->bottom & ~r->deck) || cb_cards_size(v->bottom) != r->bottom)
            return bad(err, errlen, "bottom: %d cards, the %s bottom has %d", cb_cards_size(v->bottom), r->preset, r->bottom);
        cb_cards mine = v->hand | played[v->seat];
        if (v->seat == v->landlord) {
            if (v->bottom & ~mine)
                return bad(err, errlen, "bottom: the landlord neither holds nor played every bottom card");
        } else {
            if (v->bottom & mine)
                return bad(err, errlen, "bottom: a bottom card is in a farmer's hand");
            for (int s = 0; s < 3; s++)
                if (s != v->landlord && (v->bottom & played[s]))
                    return bad(err, errlen, "bottom: seat %d, a farmer, played a bottom card", s);
        }
    }
    return 0;
}

/* Where a replay of the history stands after its first n entries: enough to go on from there
 * (a checker keeps it between the views of one seat, see cb_view_checker). */
typedef struct replay_state {
    int n;              /* entries replayed */
    int played_n[3];    /* cards each seat played in them */
    int bombs[3];
    cb_move table;
    cb_cards table_cards;
    int table_seat, passes;
} replay_state;

static void replay_start(replay_state *st)
{
    memset(st, 0, sizeof *st);
    st->table_seat = -1;
}

/* The history, replayed in turn order from first_seat, from st (entries before st->n were
 * checked already); st ends at the end of the history. */
static int check_history(const cb_rules *r, const cb_view *v, const cb_cards played[3], replay_state *st,
                         char *err, size_t errlen)
{
    int left[3];
    for (int s = 0; s < 3; s++) /* dealt, less what was played before st->n */
        left[s] = v->cards_left[s] + cb_cards_size(played[s]) - st->played_n[s];
    cb_cards mine_played = 0; /* what I play from here on */
    for (int i = st->n; i < v->nhistory; i++)
        if (v->history[i].seat == v->seat)
            mine_played |= v->history[i].cards;
    bool pdk_s3 = r->game == CB_GAME_PDK && r->spade3_first && (r->deck & cb_card_bit(CB_CARD_S3));
    int seat = (v->first_seat + st->n) % 3;
    char why[112];
    for (int i = st->n; i < v->nhistory; i++) {
        const cb_play_rec *h = &v->history[i];
        if (h->seat != seat)
            return bad(err, errlen, "history[%d]: seat %d, but seat %d is to act", i, h->seat, seat);
        cb_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.table = st->table_seat >= 0 ? &st->table : NULL;
        if (!h->cards) {
            if (st->table_seat < 0)
                return bad(err, errlen, "history[%d]: seat %d passes while leading", i, seat);
            if (seat == v->seat) {
                cb_ctx_make(&ctx, r, v->hand | mine_played, ctx.table, left[(seat + 1) % 3], false);
                cb_move m;
                if (!cb_play_legal(r, &ctx, 0, &m, why, sizeof why))
                    return bad(err, errlen, "history[%d]: my pass: %s", i, why);
            }
            if (++st->passes == 2) {
                st->table_seat = -1;
                st->table_cards = 0;
                st->passes = 0;
            }
        } else {
            cb_counts k = cb_counts_of(h->cards);
            cb_move m;
            if (i == 0 && pdk_s3 && !(h->cards & cb_card_bit(CB_CARD_S3)))
                return bad(err, errlen, "history[0]: the first play must hold the spade 3");
            if (seat == v->seat) {
                cb_ctx_make(&ctx, r, v->hand | mine_played, ctx.table, left[(seat + 1) % 3], i == 0);
                mine_played &= ~h->cards;
            } else {
                /* an unknown hand that still holds cards after this play: give the check one
                 * card more than the play (a big joker's nibble, which no play's reading
                 * looks at) so the play is not taken for the whole hand */
                ctx.hand = k + ((cb_counts)1 << (4 * CB_RANK_D));
            }
            if (!cb_play_legal(r, &ctx, k, &m, why, sizeof why))
                return bad(err, errlen, "history[%d]: seat %d plays %s: %s", i, seat,
                           (cb_cards_format(h->cards, false, why + 64, 48), why + 64), why);
            if (cb_move_is_bomb(&m))
                st->bombs[seat]++;
            st->table = m;
            st->table_cards = h->cards;
            st->table_seat = seat;
            st->passes = 0;
            int nc = cb_cards_size(h->cards);
            left[seat] -= nc;
            st->played_n[seat] += nc;
        }
        seat = (seat + 1) % 3;
        st->n = i + 1;
    }
    if (v->seat != seat)
        return bad(err, errlen, "seat: %d, but after the history seat %d is to act", v->seat, seat);
    for (int s = 0; s < 3; s++)
        if (st->bombs[s] != v->bombs[s])
            return bad(err, errlen, "bombs[%d]: %d, the history shows %d", s, v->bombs[s], st->bombs[s]);
    if (v->table != st->table_cards)
        return bad(err, errlen, "table: %s", st->table_cards ? "not the current trick's last play" : "set, but no trick is open");
    if (v->table_seat != st->table_seat)
        return bad(err, errlen, "table_seat: %d, the current trick's last play is seat %d's", v->table_seat,
                   st->table_seat);
    return 0;
}

/* What a checker remembers of one seat's last accepted view. */
typedef struct seat_memo {
    bool valid;
    cb_rules rules;
    int first_seat;
    cb_cards hand;
    int nhist;
    cb_play_rec hist[256];
    replay_state st;
} seat_memo;

struct cb_view_checker {
    seat_memo seat[3];
};

cb_view_checker *cb_view_checker_new(void)
{
    return calloc(1, sizeof(cb_view_checker));
}

void cb_view_checker_free(cb_view_checker *c)
{
    free(c);
}

/* The replay state to start from: the memo's when this view goes on from the seat's last
 * accepted one (same rules and first leader, its history a prefix of this one, and this hand
 * plus what I played since equal to the hand then — so every entry the memo checked would be
 * checked the same way now); else the start. */
static void resume(const seat_memo *m, const cb_rules *r, const cb_view *v, replay_state *st)
{
    replay_start(st);
    if (!m || !m->valid || m->first_seat != v->first_seat || m->nhist > v->nhistory)
        return;
    /* (an empty history may come as NULL: no memcmp on it) */
    if (!cb_rules_equal(&m->rules, r) ||
        (m->nhist > 0 && memcmp(m->hist, v->history, (size_t)m->nhist * sizeof m->hist[0]) != 0))
        return;
    cb_cards since = 0;
    for (int i = m->nhist; i < v->nhistory; i++)
        if (v->history[i].seat == v->seat)
            since |= v->history[i].cards;
    if ((v->hand | since) != m->hand)
        return;
    *st = m->st;
}

static void remember(seat_memo *m, const cb_rules *r, const cb_view *v, const replay_state *st)
{
    if (v->nhistory > (int)(sizeof m->hist / sizeof m->hist[0])) {
        m->valid = false;
        return;
    }
    if (v->nhistory > 0) /* an empty history may come as NULL */
        memcpy(m->hist, v->history, (size_t)v->nhistory * sizeof m->hist[0]);
    m->rules = *r;
    m->first_seat = v->first_seat;
    m->hand = v->hand;
    m->nhist = v->nhistory;
    m->st = *st;
    m->valid = true;
}

static int view_check(const cb_rules *rules, const cb_view *in, cb_view_checker *chk, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (!in)
        return bad(err, errlen, "view: NULL");
    if (in->struct_size < CB_VIEW_SIZE_1_0)
        return bad(err, errlen, "struct_size: %u is smaller than a 1.0 view (%u)", (unsigned)in->struct_size,
                   (unsigned)CB_VIEW_SIZE_1_0);
    if (CB_ABI_MAJOR_OF(in->abi_version) != CB_ABI_MAJOR)
        return bad(err, errlen, "abi_version: major %u, this library speaks %d", (unsigned)CB_ABI_MAJOR_OF(in->abi_version),
                   CB_ABI_MAJOR);
    cb_view v;
    if (in->struct_size < sizeof v) {
        cb_view tmp = {0};
        memcpy(&tmp, in, CB_VIEW_SIZE_1_0);
        if (!tmp.rules)
            tmp.rules = rules;
        tmp.struct_size = CB_VIEW_SIZE_1_0;
        cb_view_upgrade(&tmp, &v);
    } else {
        v = *in;
    }
    const cb_rules *r = rules ? rules : v.rules;
    if (!r)
        return bad(err, errlen, "rules: none given");
    if (rules && v.rules && v.rules != rules && !cb_rules_equal(rules, v.rules))
        return bad(err, errlen, "rules: not the table's rules (%s with its flags)", rules->preset);
    if ((r->game != CB_GAME_PDK && r->game != CB_GAME_DDZ) || r->players != 3)
        return bad(err, errlen, "rules: %s is not a three-player PDK or DDZ rule set", r->preset);
    if (v.phase != CB_PHASE_BID && v.phase != CB_PHASE_PLAY)
        return bad(err, errlen, "phase: %d is neither CB_PHASE_BID nor CB_PHASE_PLAY", v.phase);
    if (v.nseats != 3)
        return bad(err, errlen, "nseats: %d, the game has 3", v.nseats);
    if (v.seat < 0 || v.seat > 2)
        return bad(err, errlen, "seat: %d is not 0..2", v.seat);
    if (v.landlord < -1 || v.landlord > 2)
        return bad(err, errlen, "landlord: %d is not -1..2", v.landlord);
    for (int s = 0; s < 3; s++)
        if (v.bids[s] < -1 || v.bids[s] > 3)
            return bad(err, errlen, "bids[%d]: %d is not -1..3", s, v.bids[s]);
    bool ddz = r->game == CB_GAME_DDZ;
    if (ddz) {
        int want = v.phase == CB_PHASE_PLAY ? v.landlord : -1;
        if (v.first_seat != want)
            return bad(err, errlen, "first_seat: %d, in DDZ the first leader is the landlord (%d)", v.first_seat, want);
    } else if (v.first_seat < 0 || v.first_seat > 2) {
        return bad(err, errlen, "first_seat: %d is not a seat", v.first_seat);
    }
    if (v.nhistory < 0 || (v.nhistory > 0 && !v.history))
        return bad(err, errlen, "history: nhistory %d with %s", v.nhistory, v.history ? "a history" : "no history");
    if (v.phase == CB_PHASE_BID && v.nhistory > 0)
        return bad(err, errlen, "history: %d entries during the bidding", v.nhistory);
    if (v.phase == CB_PHASE_BID && (v.table || v.table_seat != -1))
        return bad(err, errlen, "table: set during the bidding");
    bidding bids;
    int rc = check_bids(r, &v, &bids, err, errlen);
    if (rc)
        return rc;

    /* every card at most once: my hand and the history */
    cb_cards seen = v.hand, played[3] = {0, 0, 0};
    for (int i = 0; i < v.nhistory; i++) {
        const cb_play_rec *h = &v.history[i];
        if (h->seat != (v.first_seat + i) % 3) /* three seats: every action passes the turn on */
            return bad(err, errlen, "history[%d]: seat %d, but seat %d is to act", i, h->seat, (v.first_seat + i) % 3);
        if (h->cards & ~r->deck)
            return bad(err, errlen, "history[%d]: cards not in the %s deck", i, r->preset);
        if (h->cards & seen)
            return bad(err, errlen, "history[%d]: a card %s", i, (h->cards & v.hand) ? "still in my hand" : "played twice");
        seen |= h->cards;
        played[h->seat] |= h->cards;
    }
    /* the history's own story first (turns, passes, legality): a broken entry is named as
     * such rather than as the card counts it upsets */
    replay_state st;
    seat_memo *memo = chk && v.phase == CB_PHASE_PLAY ? &chk->seat[v.seat] : NULL;
    if (v.phase == CB_PHASE_PLAY) {
        resume(memo, r, &v, &st);
        rc = check_history(r, &v, played, &st, err, errlen);
        if (rc)
            return rc;
    }
    rc = check_cards(r, &v, played, err, errlen);
    if (rc)
        return rc;
    if (!ddz && r->spade3_first && (r->deck & cb_card_bit(CB_CARD_S3)) && v.nhistory == 0) {
        bool mine = (v.hand & cb_card_bit(CB_CARD_S3)) != 0;
        if (mine != (v.seat == v.first_seat))
            return bad(err, errlen, "first_seat: %d, but the spade 3 is %s", v.first_seat,
                       mine ? "in my hand" : "not in the first leader's hand");
    }
    if (memo)
        remember(memo, r, &v, &st);
    return 0;
}

int cb_view_check(const cb_rules *rules, const cb_view *v, char *err, size_t errlen)
{
    return view_check(rules, v, NULL, err, errlen);
}

int cb_view_checker_check(cb_view_checker *c, const cb_rules *rules, const cb_view *v, char *err, size_t errlen)
{
    return view_check(rules, v, c, err, errlen);
}

int cb_view_legal_bids(const cb_view *v, int32_t *out, int cap)
{
    if (!v || !v->rules || cb_view_check(v->rules, v, NULL, 0) != 0 || v->phase != CB_PHASE_BID)
        return 0;
    cb_view u;
    if (cb_view_upgrade(v, &u) != 0)
        return 0;
    bidding b;
    if (check_bids(u.rules, &u, &b, NULL, 0) != 0)
        return 0;
    int32_t ok[4];
    int n = bidding_legal(&b, u.rules, ok);
    for (int i = 0; out && i < n && i < cap; i++)
        out[i] = ok[i];
    return n;
}

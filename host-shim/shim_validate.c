/* cardbot shim — checking the host's view, a plugin's answer, and the rules-only safe answer.
 *
 * The view is checked at the boundary (as Stockfish checks a move that may be garbage) so a
 * plugin may trust it: a malformed view is the host's bug and is refused with CB_ERR_VIEW
 * before any plugin runs. An answer is checked with the one rules implementation, core's
 * cb_play_legal, plus the two things only actual cards show: the cards are in the hand, and
 * the game's first play holds the spade 3 itself.
 */
#include "shim_int.h"

#include <stdio.h>
#include <string.h>

#define CARD_S3 0 /* the spade 3: rank 0, suit 0 */

static bool classify_cached(const cb_rules *r, cb_cards table, cb_move *m, shim_cls_cache *c)
{
    if (c && c->valid && c->rp == r && c->cards == table && memcmp(&c->r, r, sizeof *r) == 0) {
        *m = c->m;
        return true;
    }
    if (!cb_classify(r, cb_counts_of(table), m, NULL, 0))
        return false;
    if (c) {
        c->valid = true;
        c->rp = r;
        memcpy(&c->r, r, sizeof *r);
        c->cards = table;
        c->m = *m;
    }
    return true;
}

int shim_view_check(const cb_view *v, int phase, shim_play_check *pc, shim_cls_cache *cache,
                    char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    /* struct_size first: nothing beyond it may be read */
    if (v->struct_size < sizeof(cb_view) || CB_ABI_MAJOR_OF(v->abi_version) != CB_ABI_MAJOR)
        return CB_ERR_VIEW;
    const cb_rules *r = v->rules;
    if (!r || (r->game != CB_GAME_PDK && r->game != CB_GAME_DDZ))
        return CB_ERR_VIEW;
    if (v->phase != phase || v->nseats != r->players || v->nseats < 2 || v->nseats > CB_MAX_SEATS)
        return CB_ERR_VIEW;
    int n = v->nseats;
    if (v->seat < 0 || v->seat >= n || v->first_seat < 0 || v->first_seat >= n)
        return CB_ERR_VIEW;
    if (v->landlord < -1 || v->landlord >= n)
        return CB_ERR_VIEW;
    const int most = r->hand_size + r->bottom;
    for (int i = 0; i < n; i++) {
        if (v->cards_left[i] < 0 || v->cards_left[i] > most || v->bombs[i] < 0)
            return CB_ERR_VIEW;
        if (v->bids[i] < -1 || v->bids[i] > 3)
            return CB_ERR_VIEW;
    }
    if ((v->hand & ~r->deck) || cb_cards_size(v->hand) != v->cards_left[v->seat])
        return CB_ERR_VIEW;
    if (v->bottom & ~r->deck)
        return CB_ERR_VIEW;
    if (v->nhistory < 0 || (v->nhistory > 0 && !v->history))
        return CB_ERR_VIEW;
    /* every card is played at most once, and never one still in my hand. Branch-free
     * accumulation, as this runs over the whole history at every decision. */
    cb_cards seen = v->hand, twice = 0;
    unsigned bad_seat = 0;
    for (int i = 0; i < v->nhistory; i++) {
        const cb_play_rec *h = &v->history[i];
        bad_seat |= (unsigned)h->seat >= (unsigned)n;
        twice |= seen & h->cards;
        seen |= h->cards;
    }
    if (bad_seat || twice || (seen & ~r->deck))
        return CB_ERR_VIEW;
    if (phase == CB_PHASE_BID)
        return 0;

    if (v->hand == 0) /* a seat with no cards left is never asked */
        return CB_ERR_VIEW;
    memset(pc, 0, sizeof *pc);
    pc->ctx.hand = cb_counts_of(v->hand);
    if (v->table) {
        if ((v->table & ~r->deck) || (v->table & v->hand) || v->table_seat < 0 ||
            v->table_seat >= n || v->table_seat == v->seat)
            return CB_ERR_VIEW;
        if (!classify_cached(r, v->table, &pc->table, cache))
            return CB_ERR_VIEW;
        pc->ctx.table = &pc->table;
    }
    pc->ctx.next_has_one = v->cards_left[(v->seat + 1) % n] == 1;
    pc->ctx.first_play = r->game == CB_GAME_PDK && r->spade3_first && v->nhistory == 0 &&
                         (v->hand & cb_card_bit(CARD_S3));
    pc->need_spade3 = pc->ctx.first_play;
    return 0;
}

bool shim_play_ok(const cb_view *v, const shim_play_check *pc, cb_cards cards, char *why,
                  size_t whylen)
{
    if (cards & ~v->hand) {
        char buf[64];
        cb_cards_format(cards & ~v->hand & CB_FULL_DECK, true, buf, sizeof buf);
        snprintf(why, whylen, "cards not in hand%s%s", buf[0] ? ": " : "", buf);
        return false;
    }
    if (pc->need_spade3 && !(cards & cb_card_bit(CARD_S3))) {
        snprintf(why, whylen, "the first play must hold the spade 3");
        return false;
    }
    /* cb_play_legal's ctx.table is a pointer into pc: copy so the callee sees our own */
    cb_ctx ctx = pc->ctx;
    if (ctx.table)
        ctx.table = &pc->table;
    cb_move m;
    return cb_play_legal(v->rules, &ctx, cb_counts_of(cards), &m, why, whylen);
}

bool shim_bid_ok(const cb_view *v, int bid, char *why, size_t whylen)
{
    const cb_rules *r = v->rules;
    if (bid == 0)
        return true;
    if (r->game == CB_GAME_DDZ) {
        int high = 0;
        for (int i = 0; i < v->nseats; i++)
            if (v->bids[i] > high)
                high = v->bids[i];
        if (bid < 1 || bid > 3) {
            snprintf(why, whylen, "bid %d is not 0..3", bid);
            return false;
        }
        if (bid <= high) {
            snprintf(why, whylen, "bid %d does not top the highest bid %d", bid, high);
            return false;
        }
        return true;
    }
    /* PDK: 1 = declare 包庄, only when the rule is on and nobody declared first */
    if (bid != 1) {
        snprintf(why, whylen, "bid %d is not 0 or 1 (包庄)", bid);
        return false;
    }
    if (!r->bao) {
        snprintf(why, whylen, "包庄 is off in these rules");
        return false;
    }
    bool declared = v->landlord >= 0;
    for (int i = 0; i < v->nseats; i++)
        declared = declared || v->bids[i] == 1;
    if (declared) {
        snprintf(why, whylen, "包庄 was already declared");
        return false;
    }
    return true;
}

cb_cards shim_safe_play(const cb_view *v, const shim_play_check *pc)
{
    cb_ctx ctx = pc->ctx;
    if (ctx.table) {
        ctx.table = &pc->table;
        cb_move m;
        char why[8];
        if (cb_play_legal(v->rules, &ctx, 0, &m, why, sizeof why))
            return 0;
    }
    /* the list starts with the pass when one is allowed; we only get here when it is not */
    cb_move moves[2];
    int n = cb_legal_moves(v->rules, &ctx, moves, 2);
    for (int i = 0; i < n && i < 2; i++) {
        cb_cards cards;
        if (moves[i].shape != CB_PASS && cb_cards_pick(v->hand, moves[i].counts, &cards) == 0)
            return cards; /* lowest ids first: a play with a 3 takes the spade 3 */
    }
    return 0; /* no legal play exists (only for a view the rules cannot continue) */
}

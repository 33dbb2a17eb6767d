/* cardbot shim — checking the host's view, a plugin's answer, and the rules-only safe answer.
 *
 * The view is checked at the boundary (as Stockfish checks a move that may be garbage) so a
 * plugin may trust it: a malformed view is the host's bug and is refused with CB_ERR_VIEW
 * before any plugin runs. An answer is checked with the one rules implementation, core's
 * cb_play_legal, plus the two things only actual cards show: the cards are in the hand, and
 * the game's first play holds the spade 3 itself.
 */
#include "shim_int.h"

#include "cardbot/game.h"

#include <stdio.h>
#include <string.h>


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
                    cb_view_checker *chk, char *err, size_t errlen)
{
    if (v->phase != phase) {
        if (err && errlen)
            snprintf(err, errlen, "phase: %d, but this is a %s decision", v->phase,
                     phase == CB_PHASE_BID ? "bid" : "play");
        return CB_ERR_VIEW;
    }
    /* the whole contract (bot.h), with the field named: core's check, the one every host
     * can call itself (through the table's checker: only what is new since the seat's last
     * view is replayed) */
    int rc = chk ? cb_view_checker_check(chk, v->rules, v, err, errlen) : cb_view_check(v->rules, v, err, errlen);
    if (rc != 0 || phase == CB_PHASE_BID)
        return rc;
    const cb_rules *r = v->rules;
    memset(pc, 0, sizeof *pc);
    if (v->table && !classify_cached(r, v->table, &pc->table, cache)) {
        if (err && errlen)
            snprintf(err, errlen, "table: not a legal play");
        return CB_ERR_VIEW;
    }
    cb_view_ctx(v, v->table ? &pc->table : NULL, &pc->ctx); /* core's one play context */
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
    if (pc->need_spade3 && !(cards & cb_card_bit(CB_CARD_S3))) {
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
    /* the bidding rules are the engine's (core/bidding.c), replayed from the view */
    int32_t ok[4];
    int n = cb_view_legal_bids(v, ok, 4);
    char list[32] = "";
    size_t used = 0;
    for (int i = 0; i < n; i++) {
        if (ok[i] == bid)
            return true;
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%d", i ? ", " : "", (int)ok[i]);
        if (used >= sizeof list)
            break;
    }
    snprintf(why, whylen, "bid %d is not one of the legal bids (%s)", bid, list);
    return false;
}

cb_cards shim_safe_play(const cb_view *v, const shim_play_check *pc)
{
    cb_ctx ctx = pc->ctx;
    if (ctx.table)
        ctx.table = &pc->table;
    /* the first legal play that the answer check itself accepts (the list starts with the
     * pass when one is allowed): a fallback answer is never one the shim would refuse */
    cb_move moves[64];
    int n = cb_legal_moves(v->rules, &ctx, moves, 64);
    char why[96];
    for (int i = 0; i < n && i < 64; i++) {
        cb_cards cards = 0;
        if (moves[i].shape != CB_PASS && cb_cards_pick(v->hand, moves[i].counts, &cards) != 0)
            continue;
        if (shim_play_ok(v, pc, cards, why, sizeof why))
            return cards; /* lowest ids first: a play with a 3 takes the spade 3 */
    }
    return 0; /* no legal play exists (only for a view the rules cannot continue) */
}

/* cardbot — private helpers shared by the move generator (moves.c) and the play check
 * (legal.c). */
#ifndef CARDBOT_CORE_MOVES_INT_H
#define CARDBOT_CORE_MOVES_INT_H

#include "cardbot/rules.h"
#include "classify_int.h"

/* The canonical order of readings, the same as cb_classify's: a non-short reading first, then
 * the higher shape enum, then the longer chain, then the higher main rank. Is a before b? */
static inline bool cb_reading_before(const cb_rules *r, const cb_move *a, const cb_move *b)
{
    bool la = !cb_move_is_short(r, a), lb = !cb_move_is_short(r, b);
    if (la != lb)
        return la;
    if (a->shape != b->shape)
        return a->shape > b->shape;
    if (a->len != b->len)
        return a->len > b->len;
    return a->main > b->main;
}

/* Highest rank held in k, or -1 for no cards (warn_single: the only single allowed). */
static inline int cb_counts_top(cb_counts k)
{
    k &= 0x0FFFFFFFFFFFFFFFull;
    return k ? (63 - __builtin_clzll(k)) >> 2 : -1;
}

/* Is every rank count of a at most that of b? (Nibble-wise, no borrow across ranks.) */
static inline bool cb_counts_within(cb_counts a, cb_counts b)
{
    if (a >> 60)
        return false;
    for (int i = 0; i < CB_NRANKS; i++)
        if (cb_count(a, i) > cb_count(b, i))
            return false;
    return true;
}

/* Does the spade-3 rule bind this decision? Only the game's first lead, and only when the hand
 * holds a 3 (the seat with the spade 3 leads; without a 3 the rule cannot be met, so it is not
 * applied rather than leaving no legal play). */
static inline bool cb_need_spade3(const cb_rules *r, const cb_ctx *ctx, bool following)
{
    return r->spade3_first && ctx->first_play && !following && cb_count(ctx->hand, CB_RANK_3) > 0;
}

/* cb_ctx_make's body (rules.h), inline for cb_deal_ctx, which play-outs call every step and
 * which knows "the next seat holds one card" without a popcount. */
static inline void cb_ctx_fill(cb_ctx *ctx, const cb_rules *r, cb_cards hand, const cb_move *table, bool next_one,
                               bool nothing_played)
{
    ctx->hand = cb_counts_of(hand);
    ctx->table = table;
    ctx->next_has_one = next_one;
    ctx->first_play = nothing_played && r->game == CB_GAME_PDK && r->spade3_first &&
                      (hand & cb_card_bit(CB_CARD_S3));
}

#endif

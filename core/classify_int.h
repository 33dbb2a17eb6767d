/* cardbot — private helpers shared by classify.c, beats.c and the move generator. */
#ifndef CARDBOT_CLASSIFY_INT_H
#define CARDBOT_CLASSIFY_INT_H

#include "cardbot/rules.h"

/* PDK "short" plays (bare triple, 三带一, bare plane, plane with fewer than two kickers per
 * triple): legal only as the hand's last play under short_triple = last. Other games have no
 * short plays: a DDZ bare triple or plane is an ordinary shape. */
static inline bool cb_shape_is_short(const cb_rules *r, int shape)
{
    return r->game == CB_GAME_PDK &&
           (shape == CB_TRIPLE || shape == CB_TRIPLE_1 || shape == CB_PLANE || shape == CB_PLANE_1);
}

/* Largest play, in cards, that one hand can hold (DDZ landlord: hand + bottom). Chain length
 * limits (DDZ straight <= 12, pair chain <= 10, plane <= 6 ...) follow from this and the deck. */
static inline int cb_max_play_cards(const cb_rules *r)
{
    int m = r->hand_size + r->bottom;
    return m > 0 ? m : CB_NCARDS;
}

#endif

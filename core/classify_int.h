/* cardbot — private helpers shared by classify.c, beats.c and the move generator. */
#ifndef CARDBOT_CORE_CLASSIFY_INT_H
#define CARDBOT_CORE_CLASSIFY_INT_H

#include "cardbot/rules.h"

#define CB_NIB_LOW 0x1111111111111111ull /* bit 0 of every rank nibble */

/* The chain of a plane reading: 3 cards of each rank main .. main+len-1. */
static inline cb_counts cb_plane_body(int main, int len)
{
    return ((((cb_counts)1 << (4 * len)) - 1) / 15 * 3) << (4 * main);
}

/* Does every rank of k hold at most one card (rank counts are <= 4: bits 1..3 clear)? */
static inline bool cb_counts_distinct(cb_counts k)
{
    return ((k >> 1 | k >> 2 | k >> 3) & CB_NIB_LOW) == 0;
}

/* Does every rank of k hold 0 or 2 cards? */
static inline bool cb_counts_pairs(cb_counts k)
{
    return ((k | k >> 2 | k >> 3) & CB_NIB_LOW) == 0;
}

/* PDK plane_single_wings: is m a plane of L triples + L single kickers of distinct ranks (a
 * full play)? A reading's chain ranks hold exactly 3 cards, so the kickers are outside it. */
static inline bool cb_plane_single_wings(const cb_rules *r, const cb_move *m)
{
    return r->plane_single_wings && r->game == CB_GAME_PDK && m->shape == CB_PLANE_1 &&
           m->kick == m->len && cb_counts_distinct(m->counts - cb_plane_body(m->main, m->len));
}

/* PDK "short" plays (bare triple, 三带一, bare plane, plane with fewer than two kickers per
 * triple, unless it is a plane_single_wings plane): legal only as the hand's last play under
 * short_triple = last. Other games have no short plays: a DDZ bare triple or plane is an
 * ordinary shape. Short-ness is a property of the reading, not of its shape alone: under
 * plane_single_wings, 333444+56 is full and 333444+55 short, both CB_PLANE_1. */
static inline bool cb_move_is_short(const cb_rules *r, const cb_move *m)
{
    if (r->game != CB_GAME_PDK)
        return false;
    switch (m->shape) {
    case CB_TRIPLE: case CB_TRIPLE_1: case CB_PLANE: return true;
    case CB_PLANE_1: return !cb_plane_single_wings(r, m);
    default: return false;
    }
}

/* Largest play, in cards, that one hand can hold (DDZ landlord: hand + bottom). Chain length
 * limits (DDZ straight <= 12, pair chain <= 10, plane <= 6 ...) follow from this and the deck. */
static inline int cb_max_play_cards(const cb_rules *r)
{
    int m = r->hand_size + r->bottom;
    return m > 0 ? m : CB_NCARDS;
}

#endif

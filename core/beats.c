/* cardbot — does one play beat another? Pure shape comparison; whether a seat must or may
 * play (must_beat, warn_single, short plays only as the last play) is cb_legal_moves' job. */
#include "cardbot/rules.h"
#include "classify_int.h"

bool cb_beats(const cb_rules *r, const cb_move *play, const cb_move *table, bool whole_hand)
{
    if (!r || !play || play->shape == CB_PASS)
        return false; /* a pass never beats */
    if (!table || table->shape == CB_PASS)
        return true;  /* nothing to beat: any play will do */
    if (table->shape == CB_ROCKET)
        return false;
    if (play->shape == CB_ROCKET)
        return true;
    if (play->shape == CB_BOMB) /* the AAA bomb's main (CB_MAIN_AAA) tops every four */
        return table->shape != CB_BOMB || play->main > table->main;
    if (table->shape == CB_BOMB)
        return false;
    /* PDK 甩尾: a short play that empties the hand may beat a full play of its family (only
     * so: short_follow off takes that away). */
    bool tail = r->game == CB_GAME_PDK && whole_hand && r->short_triple != CB_SHORT_NEVER &&
                r->short_follow;
    if (play->shape == table->shape && play->len == table->len && play->ncards == table->ncards) {
        /* one shape, one size: only plane_single_wings mixes full and short here (333444+56
         * and 333444+55 are both CB_PLANE_1 of 8 cards) */
        if (!tail && cb_move_is_short(r, play) && !cb_move_is_short(r, table))
            return false;
        return play->main > table->main;
    }
    /* 甩尾 with fewer cards: a short triple / 三带一 over 三带二, or a plane of as many triples
     * with fewer cards over a full plane (+ two cards per triple, or under plane_single_wings
     * + one single per triple), of a lower rank. A full single-wings plane that empties the
     * hand still follows a full CB_PLANE_2: the flag takes no 甩尾 away. */
    if (tail && play->main > table->main) {
        if ((play->shape == CB_TRIPLE || play->shape == CB_TRIPLE_1) && table->shape == CB_TRIPLE_2)
            return true;
        if ((play->shape == CB_PLANE || play->shape == CB_PLANE_1) &&
            (table->shape == CB_PLANE_2 || table->shape == CB_PLANE_1) &&
            !cb_move_is_short(r, table) && play->len == table->len &&
            play->ncards < table->ncards)
            return true;
    }
    return false;
}

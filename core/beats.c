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
    if (play->shape == table->shape && play->len == table->len && play->ncards == table->ncards)
        return play->main > table->main;
    /* PDK 甩尾: a short triple / plane that empties the hand may follow the full shape of as
     * many triples (三带二 / plane with two kickers per triple) of a lower rank. */
    if (r->game == CB_GAME_PDK && whole_hand && r->short_triple != CB_SHORT_NEVER &&
        cb_shape_is_short(r, play->shape) && play->main > table->main) {
        if ((play->shape == CB_TRIPLE || play->shape == CB_TRIPLE_1) && table->shape == CB_TRIPLE_2)
            return true;
        if ((play->shape == CB_PLANE || play->shape == CB_PLANE_1) && table->shape == CB_PLANE_2 &&
            play->len == table->len)
            return true;
    }
    return false;
}

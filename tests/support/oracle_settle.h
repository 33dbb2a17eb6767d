/* cardbot tests — an independent settlement oracle.
 *
 * Written from the rules text (../shared/DESIGN.md "Rules", README's flag table, rules.h's
 * comments on cb_ddz_result / cb_pdk_result), not from core/settle.c, and in another shape:
 * core moves points pairwise seat to seat; this computes each seat's total directly. Tests
 * compare the two, so a slip in either shows as a disagreement, and a test that re-settles a
 * replayed game here no longer agrees with a mutated core by construction.
 *
 * What it takes from the rules text:
 *  - DDZ: multiplier = stake (the bid) x 2 per bomb or rocket played (by anyone), x 2 once
 *    more for a spring (the landlord went out and the farmers never played a card) or an
 *    anti-spring (the farmers went out and the landlord made only its first play). The
 *    landlord wins or loses 2 x the multiplier, each farmer the opposite 1 x.
 *  - PDK: the first out wins. Without 包庄 each loser pays the winner card_points per card
 *    left, nothing for a single card left, double when it never played (关门, spring_double).
 *    With a 包庄 declaration (only where rules->bao) card points are off: the declarer takes
 *    bao_points from each other seat when it went out first, else pays each bao_points.
 *    Either way every bomb that won its trick earns bomb_points from each other seat.
 *
 * Only results a real game can produce are in its domain (seats 0..2, bid >= 1, counts >= 0,
 * the landlord made at least its first play); core's handling of nonsense input is core's.
 */
#ifndef CARDBOT_TESTS_ORACLE_SETTLE_H
#define CARDBOT_TESTS_ORACLE_SETTLE_H

#include "cardbot/bot.h"
#include "cardbot/rules.h"

/* The multiplier; delta[s] = seat s's points (sum 0). */
int cbt_oracle_ddz(const cb_rules *r, const cb_ddz_result *res, int delta[3]);
void cbt_oracle_pdk(const cb_rules *r, const cb_pdk_result *res, int delta[3]);

/* A whole play record settled from scratch: which plays were bombs (four cards of one rank,
 * the rocket, PDK's AAA under aaa_bomb — read off the cards, not through cb_classify), who
 * went out, which bombs won their trick (still the table play when both others passed, or
 * the play that emptied its player's hand), how many plays each seat made. hands: each seat's
 * cards when play began (DDZ: the landlord's with the bottom). landlord: DDZ landlord, PDK
 * 包庄 declarer or -1. stake: DDZ bid / rob stake (PDK: ignored). hist: the play phase's
 * history (seat + cards, 0 = pass). Returns the multiplier (PDK 1) and fills delta, or -1
 * when the record is not a finished game (nobody emptied a hand, a card not in its seat's
 * hand, or anything after the end); *winner (may be NULL) gets the first out. */
int cbt_oracle_settle_record(const cb_rules *r, const cb_cards hands[3], int landlord, int stake,
                             const cb_play_rec *hist, int n, int delta[3], int *winner);

#endif

/* cardbot plugins — personalities of the heuristic (policy.h, cb_hcfg_personality).
 *
 * Evaluation opponents that are not ismcts's opponent model: the search models every other
 * seat as level 6 itself, so a gauntlet against level 6 alone measures the bot against the
 * player it assumes. A personality is a level's configuration (level 6 by default) with a few
 * weights and switches moved in one stated direction, so that each plays a recognisable style
 * with otherwise the same judgement (exact min-hands, the same candidates):
 *
 *   bomber    spends bombs freely and early: a bomb spent is a bonus of one play rather than a
 *             cost (bomb = -1), and PDK bomb points count double (bombpts x2), so a bomb goes
 *             down as soon as it is legal, beaten or not. (PDK's level 6 already drops a bomb
 *             at three chances in four for its points; DDZ's keeps them: the difference is
 *             largest there. tests/test_personality.c prints both.)
 *   hoarder   keeps control cards and bombs: spending a card nothing outranks costs twice as
 *             much (keep x2), so does a main rank above the table (rank x2); holding the trick
 *             is worth half as much (lead x0.5), so topping a play to lead again rarely pays;
 *             a bomb that neither wins nor stops anyone costs two plays more (bomb + 2) and
 *             PDK bomb points count half. It passes where level 6 beats with high cards.
 *   chain     sheds many cards at once: every card played is worth half a play more (shed +
 *             0.5), which outweighs a split group or two, and spending control cards costs
 *             half (keep x0.5) so an ace at the top of a straight does not hold it back. Long
 *             straights, pair chains and planes (and big kicker plays) go first. A bomb's four
 *             cards would gain two plays from the shed step; half of it is taken back (bomb +
 *             1), which leaves it bombing about as often as level 6 does (DDZ 7.8% against
 *             8.0% of its chances in the test): a chain-lover, not a second bomber.
 *   careless  plays without attention: no card counting, no team play, opponents near the end
 *             worry it half as much (threat x0.5), and it samples with a softmax temperature
 *             of at least 0.3 plus a 5% blunder rate within a loss cap of at least one play.
 *
 * The weights of both games ([0] PDK, [1] DDZ) move by the same factor or step, from whatever
 * the level set (the weights are level-independent today; factors follow a retuning of level
 * 6). On a lower level the careless sampling is the larger of the level's and its own, and
 * switches a level already turned off stay off: a personality only adds its style. The
 * bidding is the level's (plugin/heuristic), not the personality's.
 */
#include <string.h>

#include "policy.h"

static double at_least(double x, double lo) { return x > lo ? x : lo; }

int cb_hcfg_personality(cb_hcfg *c, const char *name)
{
    if (!name || strcmp(name, "none") == 0)
        return 0;
    if (strcmp(name, "bomber") == 0) {
        for (int g = 0; g < 2; g++) {
            c->w[g].bomb = -1.0;
            c->w[g].bombpts *= 2.0;
        }
        return 0;
    }
    if (strcmp(name, "hoarder") == 0) {
        for (int g = 0; g < 2; g++) {
            c->w[g].keep *= 2.0;
            c->w[g].rank *= 2.0;
            c->w[g].lead *= 0.5;
            c->w[g].bomb += 2.0;
            c->w[g].bombpts *= 0.5;
        }
        return 0;
    }
    if (strcmp(name, "chain") == 0) {
        for (int g = 0; g < 2; g++) {
            c->w[g].shed += 0.5;
            c->w[g].keep *= 0.5;
            c->w[g].bomb += 1.0; /* half a bomb's extra shed credit back (see above) */
        }
        return 0;
    }
    if (strcmp(name, "careless") == 0) {
        c->counting = false;
        c->team = false;
        for (int g = 0; g < 2; g++)
            c->w[g].threat *= 0.5;
        c->temperature = at_least(c->temperature, 0.3);
        c->blunder = at_least(c->blunder, 0.05);
        c->loss_cap = at_least(c->loss_cap, 1.0);
        return 0;
    }
    return -1;
}

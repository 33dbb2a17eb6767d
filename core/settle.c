/* cardbot — settlement of a finished deal (DDZ multiplier, PDK card / bomb / 包庄 points).
 *
 * Both functions are pure arithmetic over a result the host filled in; they never fail on odd
 * input. A seat outside 0..2 leaves every delta 0 (and cb_ddz_settle returns 0), so a host bug
 * shows as a zero-sum no-op rather than an out-of-bounds write. Every transfer is made pairwise
 * (one seat pays, another receives), which is what keeps the sum of deltas at 0.
 */
#include <string.h>

#include "cardbot/rules.h"

/* DDZ has at most 13 bombs + 1 rocket; clamping the exponent keeps bid x 2^bombs x 2 x 2 in an
 * int even for a nonsense count. */
#define DDZ_MAX_BOMBS 20

static bool seat_ok(int s) { return s >= 0 && s < 3; }

static void transfer(int delta[3], int from, int to, int points)
{
    delta[from] -= points;
    delta[to] += points;
}

int cb_ddz_settle(const cb_rules *r, const cb_ddz_result *res, int delta[3])
{
    (void)r; /* no DDZ scoring flag yet; kept so a future one needs no signature change */
    memset(delta, 0, 3 * sizeof delta[0]);
    if (!seat_ok(res->landlord) || !seat_ok(res->winner))
        return 0;

    int bombs = res->bombs < 0 ? 0 : res->bombs > DDZ_MAX_BOMBS ? DDZ_MAX_BOMBS : res->bombs;
    int bid = res->bid < 1 ? 1 : res->bid;
    int mult = bid << bombs;
    bool landlord_won = res->winner == res->landlord;
    /* Spring: the landlord went out and the farmers never played a card.
     * Anti-spring: the farmers went out and the landlord made only its first lead. */
    bool spring = landlord_won && res->farmer_plays == 0;
    bool anti_spring = !landlord_won && res->landlord_plays == 1;
    if (spring || anti_spring)
        mult *= 2;

    for (int s = 0; s < 3; s++) {
        if (s == res->landlord)
            continue;
        if (landlord_won)
            transfer(delta, s, res->landlord, mult);
        else
            transfer(delta, res->landlord, s, mult);
    }
    return mult;
}

void cb_pdk_settle(const cb_rules *r, const cb_pdk_result *res, int delta[3])
{
    memset(delta, 0, 3 * sizeof delta[0]);
    if (!seat_ok(res->winner))
        return;
    int w = res->winner;
    bool bao = r->bao && seat_ok(res->bao); /* a declaration counts only where 包庄 is played */

    if (bao) {
        /* 包庄 replaces card points: the declarer wins or pays bao_points against every seat. */
        for (int s = 0; s < 3; s++) {
            if (s == res->bao)
                continue;
            if (w == res->bao)
                transfer(delta, s, res->bao, r->bao_points);
            else
                transfer(delta, res->bao, s, r->bao_points);
        }
    } else {
        for (int s = 0; s < 3; s++) {
            if (s == w)
                continue;
            int left = res->cards_left[s];
            /* One card left pays nothing: that seat was one play from going out. */
            int pts = left == 1 || left < 0 ? 0 : left * r->card_points;
            if (r->spring_double && res->plays[s] == 0)
                pts *= 2; /* 关门: the loser never played */
            transfer(delta, s, w, pts);
        }
    }

    /* Bombs that won their trick are paid by each other seat, 包庄 or not. */
    for (int b = 0; b < 3; b++) {
        int n = res->bomb_tricks[b] < 0 ? 0 : res->bomb_tricks[b];
        for (int s = 0; s < 3; s++)
            if (s != b)
                transfer(delta, s, b, n * r->bomb_points);
    }
}

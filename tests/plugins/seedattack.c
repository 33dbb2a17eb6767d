/* Test plugin "seedattack": tries to recover the deal from its view's seed, as a cheating bot
 * would, and says in every explanation whether it succeeded ("ATTACK hit ..." / "ATTACK miss").
 * It plays the lowest legal play and never bids.
 *
 * The attack is the one that worked against the dealing of cardbot match up to ABI 1.0: each
 * decision's seed was the next output of the splitmix64 stream whose starting state also seeded
 * the shuffle. splitmix64's output function is invertible, so one seed gives the stream's state,
 * hence the shuffle's seed, hence every hand and the DDZ bottom. seedattack_predict() undoes a
 * first-decision seed into the three hands that stream would have dealt (for each of the three
 * duplicate rotations); the plugin checks whether one of them is its own hand. tests/test_match.c
 * checks that the attack recovers deals made the old way (so the attack is real) and never a
 * deal of cardbot match (so the seeds reveal nothing).
 */
#include "tplug.h"

#include "shuffle_int.h" /* core/: cb_shuffle_deal */

#define GAMMA 0x9E3779B97F4A7C15ull

static uint64_t mix64(uint64_t *s)
{
    uint64_t z = (*s += GAMMA);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* x ^ (x >> k), undone. */
static uint64_t unshift(uint64_t y, int k)
{
    uint64_t x = y;
    for (int i = 0; i < 64 / k + 1; i++)
        x = y ^ (x >> k);
    return x;
}

/* The multiplicative inverse of an odd 64-bit number (Newton's iteration). */
static uint64_t inverse(uint64_t a)
{
    uint64_t x = a;
    for (int i = 0; i < 6; i++)
        x *= 2 - a * x;
    return x;
}

/* The state s (before the increment) whose next output is z. */
static uint64_t unmix(uint64_t z)
{
    z = unshift(z, 31);
    z *= inverse(0x94D049BB133111EBull);
    z = unshift(z, 27);
    z *= inverse(0xBF58476D1CE4E5B9ull);
    z = unshift(z, 30);
    return z - GAMMA;
}

static uint32_t old_draw(void *rng, uint32_t n) { return (uint32_t)(mix64(rng) % n); }

/* The old shuffle: core's shuffle and deal (Fisher-Yates over the deck's ids) drawing from the
 * stream, hand_size cards each. */
static void old_deal(const cb_rules *r, uint64_t rng, cb_cards hands[3])
{
    cb_cards bottom;
    cb_shuffle_deal(r->deck, r->hand_size, old_draw, &rng, hands, &bottom);
}

/* From the seed of a game's decision number k (0 = its first), the hands the old stream dealt,
 * one guess per rotation: guesses[rot][hand]. The old console drew decision seeds from a
 * stream that started at deal_state ^ 0x2545F4914F6CDD1D * (rotation + 1), and dealt from
 * deal_state; the k-th output comes from the start plus k increments. */
void seedattack_predict(const cb_rules *r, uint64_t seed, int k, cb_cards guesses[3][3])
{
    uint64_t state = unmix(seed) - (uint64_t)k * GAMMA;
    for (int rot = 0; rot < 3; rot++)
        old_deal(r, state ^ (0x2545F4914F6CDD1Dull * (uint64_t)(rot + 1)), guesses[rot]);
}

/* Does some guess hold exactly my hand as one of its three hands? The decision number is not
 * in the view; every plausible one is tried. */
static int hit(const cb_view *v)
{
    cb_cards mine = v->hand;
    for (int i = 0; i < v->nhistory; i++) /* my hand as dealt: what I hold plus what I played */
        if (v->history[i].seat == v->seat)
            mine |= v->history[i].cards;
    if (v->rules->game == CB_GAME_DDZ && v->seat == v->landlord)
        mine &= ~v->bottom;
    for (int k = 0; k <= v->nhistory + 8; k++) {
        cb_cards g[3][3];
        seedattack_predict(v->rules, v->seed, k, g);
        for (int rot = 0; rot < 3; rot++)
            for (int h = 0; h < 3; h++)
                if (g[rot][h] == mine)
                    return 1;
    }
    return 0;
}

static void *create(const cb_param *params, int n, char *err, size_t errlen)
{
    if (n > 0) {
        tplug_unknown("seedattack", &params[0], err, errlen);
        return NULL;
    }
    return calloc(1, sizeof(tplug));
}

static void destroy(void *inst) { free(inst); }

static int decide_bid(void *inst, const cb_view *v, cb_decision *out)
{
    (void)inst;
    out->bid = 0;
    snprintf(out->explain, sizeof out->explain, "ATTACK %s", hit(v) ? "hit" : "miss");
    return 0;
}

static int decide_play(void *inst, const cb_view *v, cb_decision *out)
{
    (void)inst;
    snprintf(out->explain, sizeof out->explain, "ATTACK %s", hit(v) ? "hit" : "miss");
    return tplug_lowest(v, &out->cards);
}

static const cb_bot bot = {
    CB_ABI_VERSION, sizeof(cb_bot), "seedattack", "1.0", create, destroy, decide_bid, decide_play,
};
TPLUG_ENTRY(bot)

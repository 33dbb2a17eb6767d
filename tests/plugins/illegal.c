/* Test plugin "illegal": answers that break the rules. Parameter mode:
 *   notinhand (default)  the lowest card of the deck that is not in the hand
 *   shape                the lowest and the highest card of the hand (no legal shape)
 *   nospade3             the highest card alone (wrong as the PDK first play, which must
 *                        hold the spade 3 itself)
 *   garbage              bits outside the 54-card deck
 *   fixed                exactly the cards of parameter play (e.g. play = 3334): lets a test
 *                        pose any answer, such as a short triple that is not the last play
 * Bids: parameter bid (default 7, never legal). */
#include "tplug.h"

enum { M_NOTINHAND, M_SHAPE, M_NOSPADE3, M_GARBAGE, M_FIXED, M_NMODES };

static void *create(const cb_param *params, int n, char *err, size_t errlen)
{
    static const char *const modes[M_NMODES] = { "notinhand", "shape", "nospade3", "garbage", "fixed" };
    tplug t = { .bid = 7 };
    for (int i = 0; i < n; i++) {
        long x;
        if (strcmp(params[i].key, "play") == 0) {
            /* parsed against the full deck: the test may name cards outside the game's deck */
            if (cb_cards_parse(params[i].value, CB_FULL_DECK, &t.play, err, errlen) != 0)
                return NULL;
            continue;
        }
        if (strcmp(params[i].key, "bid") == 0) {
            if (tplug_int("illegal", &params[i], -100, 100, &x, err, errlen) != 0)
                return NULL;
            t.bid = (int)x;
            continue;
        }
        if (strcmp(params[i].key, "mode") != 0) {
            tplug_unknown("illegal", &params[i], err, errlen);
            return NULL;
        }
        int m = -1;
        for (int k = 0; k < M_NMODES; k++)
            if (strcmp(params[i].value, modes[k]) == 0)
                m = k;
        if (m < 0) {
            snprintf(err, errlen, "illegal: mode: bad value '%s' (notinhand, shape, nospade3, garbage, fixed)",
                     params[i].value);
            return NULL;
        }
        t.mode = m;
    }
    tplug *p = malloc(sizeof *p);
    if (p)
        *p = t;
    return p;
}

static void destroy(void *inst) { free(inst); }

static int decide_bid(void *inst, const cb_view *v, cb_decision *out)
{
    (void)v;
    out->bid = ((tplug *)inst)->bid;
    return 0;
}

static int decide_play(void *inst, const cb_view *v, cb_decision *out)
{
    tplug *t = inst;
    cb_cards h = v->hand, outside = v->rules->deck & ~h;
    switch (t->mode) {
    case M_NOTINHAND:
        out->cards = outside & -outside;
        break;
    case M_SHAPE:
        out->cards = (h & -h) | ((cb_cards)1 << (63 - __builtin_clzll(h)));
        break;
    case M_NOSPADE3:
        out->cards = (cb_cards)1 << (63 - __builtin_clzll(h));
        break;
    case M_GARBAGE:
        out->cards = (cb_cards)1 << 60 | (h & -h);
        break;
    default:
        out->cards = t->play;
        break;
    }
    t->calls++;
    return 0;
}

static const cb_bot bot = {
    CB_ABI_VERSION, sizeof(cb_bot), "illegal", "1.0", create, destroy, decide_bid, decide_play,
};
TPLUG_ENTRY(bot)

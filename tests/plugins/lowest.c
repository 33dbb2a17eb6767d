/* Test plugin "lowest": plays the first legal play cb_legal_moves lists (never passes when it
 * may play), bids the value of its "bid" parameter (default 0). The shim's tests and the
 * shim benchmark use it as a small legal strategy that does not depend on real plugins. */
#include "tplug.h"

static void *create(const cb_param *params, int n, char *err, size_t errlen)
{
    tplug t = { 0 };
    for (int i = 0; i < n; i++) {
        long x;
        if (strcmp(params[i].key, "bid") == 0) {
            if (tplug_int("lowest", &params[i], 0, 3, &x, err, errlen) != 0)
                return NULL;
            t.bid = (int)x;
        } else {
            tplug_unknown("lowest", &params[i], err, errlen);
            return NULL;
        }
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
    (void)inst;
    snprintf(out->explain, sizeof out->explain, "lowest legal play");
    return tplug_lowest(v, &out->cards);
}

static const cb_bot bot = {
    CB_ABI_VERSION, sizeof(cb_bot), "lowest", "1.0", create, destroy, decide_bid, decide_play,
};
TPLUG_ENTRY(bot)

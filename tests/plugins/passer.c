/* Test plugin "passer": always passes and always bids 0 — also when it leads, where a pass is
 * illegal, and under must_beat when it could beat the table. */
#include "tplug.h"

static void *create(const cb_param *params, int n, char *err, size_t errlen)
{
    if (n > 0) {
        tplug_unknown("passer", &params[0], err, errlen);
        return NULL;
    }
    return calloc(1, sizeof(tplug));
}

static void destroy(void *inst) { free(inst); }

static int decide_bid(void *inst, const cb_view *v, cb_decision *out)
{
    (void)inst, (void)v;
    out->bid = 0;
    return 0;
}

static int decide_play(void *inst, const cb_view *v, cb_decision *out)
{
    (void)inst, (void)v;
    out->cards = 0;
    return 0;
}

static const cb_bot bot = {
    CB_ABI_VERSION, sizeof(cb_bot), "passer", "1.0", create, destroy, decide_bid, decide_play,
};
TPLUG_ENTRY(bot)

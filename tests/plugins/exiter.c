/* Test plugin "exiter": calls exit(0) at its first play decision, as a careless plugin might
 * (in-process, that ends the host). cardbot match must report it, naming the strategy, with a
 * non-zero status instead of vanishing with 0. Bids 0. */
#include "tplug.h"

static void *create(const cb_param *params, int n, char *err, size_t errlen)
{
    if (n > 0) {
        tplug_unknown("exiter", &params[0], err, errlen);
        return NULL;
    }
    return calloc(1, sizeof(tplug));
}

static void destroy(void *inst) { free(inst); }

static int decide_bid(void *inst, const cb_view *v, cb_decision *out)
{
    (void)inst;
    (void)v;
    out->bid = 0;
    return 0;
}

static int decide_play(void *inst, const cb_view *v, cb_decision *out)
{
    (void)inst;
    (void)v;
    (void)out;
    exit(0);
}

static const cb_bot bot = {
    CB_ABI_VERSION, sizeof(cb_bot), "exiter", "1.0", create, destroy, decide_bid, decide_play,
};
TPLUG_ENTRY(bot)

/* Test plugin "slow": sleeps sleep_ms (default 50) before every answer, then answers like
 * "lowest" (a legal play, bid 0): the shim must count it late and still use the answer. */
#include <time.h>

#include "tplug.h"

static void *create(const cb_param *params, int n, char *err, size_t errlen)
{
    tplug t = { .sleep_ms = 50 };
    for (int i = 0; i < n; i++) {
        long x;
        if (strcmp(params[i].key, "sleep_ms") != 0) {
            tplug_unknown("slow", &params[i], err, errlen);
            return NULL;
        }
        if (tplug_int("slow", &params[i], 0, 60000, &x, err, errlen) != 0)
            return NULL;
        t.sleep_ms = (unsigned)x;
    }
    tplug *p = malloc(sizeof *p);
    if (p)
        *p = t;
    return p;
}

static void destroy(void *inst) { free(inst); }

static void dawdle(const tplug *t)
{
    struct timespec ts = { t->sleep_ms / 1000, (long)(t->sleep_ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0)
        ;
}

static int decide_bid(void *inst, const cb_view *v, cb_decision *out)
{
    (void)v;
    dawdle(inst);
    out->bid = 0;
    return 0;
}

static int decide_play(void *inst, const cb_view *v, cb_decision *out)
{
    dawdle(inst);
    return tplug_lowest(v, &out->cards);
}

static const cb_bot bot = {
    CB_ABI_VERSION, sizeof(cb_bot), "slow", "1.0", create, destroy, decide_bid, decide_play,
};
TPLUG_ENTRY(bot)

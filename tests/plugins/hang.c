/* Test plugin "hang": never answers, for the process isolation tests. Parameters:
 *   mode = spin   a busy loop (default)      mode = sleep   blocked in pause() forever
 *   after = N     answer the first N decisions of the instance like "lowest", hang on every
 *                 later one (default 0)
 * Under isolation = inproc it would hang the host's thread for good: process isolation kills
 * the worker at the deadline instead. */
#include <unistd.h>

#include "tplug.h"

static void *create(const cb_param *params, int n, char *err, size_t errlen)
{
    tplug t = { 0 };
    for (int i = 0; i < n; i++) {
        long x;
        if (strcmp(params[i].key, "after") == 0) {
            if (tplug_int("hang", &params[i], 0, 1000000000L, &x, err, errlen) != 0)
                return NULL;
            t.sleep_ms = (unsigned)x; /* reused as "after" */
        } else if (strcmp(params[i].key, "mode") == 0 && (strcmp(params[i].value, "spin") == 0 ||
                                                          strcmp(params[i].value, "sleep") == 0)) {
            t.mode = strcmp(params[i].value, "sleep") == 0;
        } else if (strcmp(params[i].key, "mode") == 0) {
            snprintf(err, errlen, "hang: mode: bad value '%s' (spin, sleep)", params[i].value);
            return NULL;
        } else {
            tplug_unknown("hang", &params[i], err, errlen);
            return NULL;
        }
    }
    tplug *p = malloc(sizeof *p);
    if (p)
        *p = t;
    return p;
}

static void destroy(void *inst) { free(inst); }

static void maybe_hang(tplug *t)
{
    if (t->calls++ < t->sleep_ms)
        return;
    volatile unsigned long spins = 0;
    for (;;) {
        if (t->mode)
            pause();
        else
            spins++;
    }
}

static int decide_bid(void *inst, const cb_view *v, cb_decision *out)
{
    (void)v;
    maybe_hang(inst);
    out->bid = 0;
    return 0;
}

static int decide_play(void *inst, const cb_view *v, cb_decision *out)
{
    maybe_hang(inst);
    return tplug_lowest(v, &out->cards);
}

static const cb_bot bot = {
    CB_ABI_VERSION, sizeof(cb_bot), "hang", "1.0", create, destroy, decide_bid, decide_play,
};
TPLUG_ENTRY(bot)

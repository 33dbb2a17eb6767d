/* Test plugin "abort": calls abort() (SIGABRT, as a failed assert does), for the process
 * isolation tests. Parameter after = N: answer the first N decisions of the instance like
 * "lowest", abort on every later one (default 0). Never seat it under isolation = inproc. */
#include "tplug.h"

static void *create(const cb_param *params, int n, char *err, size_t errlen)
{
    tplug t = { 0 };
    for (int i = 0; i < n; i++) {
        long x;
        if (strcmp(params[i].key, "after") != 0) {
            tplug_unknown("abort", &params[i], err, errlen);
            return NULL;
        }
        if (tplug_int("abort", &params[i], 0, 1000000000L, &x, err, errlen) != 0)
            return NULL;
        t.sleep_ms = (unsigned)x; /* reused as "after" */
    }
    tplug *p = malloc(sizeof *p);
    if (p)
        *p = t;
    return p;
}

static void destroy(void *inst) { free(inst); }

static void maybe_abort(tplug *t)
{
    if (t->calls++ >= t->sleep_ms)
        abort();
}

static int decide_bid(void *inst, const cb_view *v, cb_decision *out)
{
    (void)v;
    maybe_abort(inst);
    out->bid = 0;
    return 0;
}

static int decide_play(void *inst, const cb_view *v, cb_decision *out)
{
    maybe_abort(inst);
    return tplug_lowest(v, &out->cards);
}

static const cb_bot bot = {
    CB_ABI_VERSION, sizeof(cb_bot), "abort", "1.0", create, destroy, decide_bid, decide_play,
};
TPLUG_ENTRY(bot)

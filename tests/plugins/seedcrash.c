/* Test plugin "seedcrash": answers like "lowest", but segfaults on the decisions whose view
 * seed falls in one of `rate` of every 100 (the seed's low bits, mixed), for the tests that
 * results do not depend on concurrency even with a faulty plugin (test_isolation.c). Whether
 * it crashes is a function of the view alone, as bot.h asks of every answer, so a match
 * replays the same at any --concurrency: only the shim's own state (restart back-off) could
 * make two runs differ. Parameters:
 *   rate = N   crash on N % of the decisions, 0..100 (default 20)
 * Never seat it under isolation = inproc. */
#include <stdint.h>

#include "tplug.h"

static void segfault(void)
{
    volatile uintptr_t addr = 16; /* a plain SIGSEGV (see crash.c) */
    *(volatile int *)addr = 1;
}

static void *create(const cb_param *params, int n, char *err, size_t errlen)
{
    tplug t = { 0 };
    t.mode = 20;
    for (int i = 0; i < n; i++) {
        long x;
        if (strcmp(params[i].key, "rate") == 0) {
            if (tplug_int("seedcrash", &params[i], 0, 100, &x, err, errlen) != 0)
                return NULL;
            t.mode = (int)x;
        } else {
            tplug_unknown("seedcrash", &params[i], err, errlen);
            return NULL;
        }
    }
    tplug *p = malloc(sizeof *p);
    if (p)
        *p = t;
    return p;
}

static void destroy(void *inst) { free(inst); }

static void maybe_crash(const tplug *t, const cb_view *v)
{
    uint64_t z = v->seed * 0x9E3779B97F4A7C15ull;
    if ((int)((z >> 40) % 100u) < t->mode)
        segfault();
}

static int decide_bid(void *inst, const cb_view *v, cb_decision *out)
{
    maybe_crash(inst, v);
    out->bid = 0;
    return 0;
}

static int decide_play(void *inst, const cb_view *v, cb_decision *out)
{
    maybe_crash(inst, v);
    snprintf(out->explain, sizeof out->explain, "lowest legal play");
    return tplug_lowest(v, &out->cards);
}

static const cb_bot bot = {
    CB_ABI_VERSION, sizeof(cb_bot), "seedcrash", "1.0", create, destroy, decide_bid, decide_play,
};
TPLUG_ENTRY(bot)

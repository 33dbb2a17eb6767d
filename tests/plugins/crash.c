/* Test plugin "crash": a real segmentation fault (a store to an unmapped address), for the
 * process isolation tests. Parameters:
 *   after = N     answer the first N decisions of the instance (bids and plays) like "lowest",
 *                 then crash on every later one (default 0: the first decision crashes)
 *   when = create crash inside create() instead (when = decide, the default: in decide_*)
 * Never seat it under isolation = inproc: it takes the host down, which is what process
 * isolation is for. A restarted worker is a new instance: its count starts again at 0. */
#include <stdint.h>

#include "tplug.h"

static void segfault(void)
{
    /* not NULL: a compiler may turn a visible NULL store into a trap (SIGILL) and UBSan would
     * report it; the volatile address keeps this a plain SIGSEGV */
    volatile uintptr_t addr = 16;
    *(volatile int *)addr = 1;
}

static void *create(const cb_param *params, int n, char *err, size_t errlen)
{
    tplug t = { 0 };
    bool in_create = false;
    for (int i = 0; i < n; i++) {
        long x;
        if (strcmp(params[i].key, "after") == 0) {
            if (tplug_int("crash", &params[i], 0, 1000000000L, &x, err, errlen) != 0)
                return NULL;
            t.sleep_ms = (unsigned)x; /* reused as "after" */
        } else if (strcmp(params[i].key, "when") == 0 && (strcmp(params[i].value, "create") == 0 ||
                                                          strcmp(params[i].value, "decide") == 0)) {
            in_create = strcmp(params[i].value, "create") == 0;
        } else if (strcmp(params[i].key, "when") == 0) {
            snprintf(err, errlen, "crash: when: bad value '%s' (create, decide)", params[i].value);
            return NULL;
        } else {
            tplug_unknown("crash", &params[i], err, errlen);
            return NULL;
        }
    }
    if (in_create)
        segfault();
    tplug *p = malloc(sizeof *p);
    if (p)
        *p = t;
    return p;
}

static void destroy(void *inst) { free(inst); }

static void maybe_crash(tplug *t)
{
    if (t->calls++ >= t->sleep_ms)
        segfault();
}

static int decide_bid(void *inst, const cb_view *v, cb_decision *out)
{
    (void)v;
    maybe_crash(inst);
    out->bid = 0;
    return 0;
}

static int decide_play(void *inst, const cb_view *v, cb_decision *out)
{
    maybe_crash(inst);
    return tplug_lowest(v, &out->cards);
}

static const cb_bot bot = {
    CB_ABI_VERSION, sizeof(cb_bot), "crash", "1.0", create, destroy, decide_bid, decide_play,
};
TPLUG_ENTRY(bot)

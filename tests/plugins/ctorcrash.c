/* Test plugin "ctorcrash": a constructor that segfaults when the plugin is loaded — before
 * the shim could call anything of it — as a broken static initialiser would (tests of
 * isolation = process: the host never loads a plugin itself, so the crash stays in a worker
 * and fails the config load with a message naming the strategy). It crashes only while the
 * environment has CB_TEST_CTOR_CRASH set, so a tool that loads every test plugin survives it;
 * without it, it answers like "lowest". No parameters. */
#include <stdint.h>

#include "tplug.h"

__attribute__((constructor)) static void ctor(void)
{
    if (getenv("CB_TEST_CTOR_CRASH")) {
        volatile uintptr_t addr = 16; /* a plain SIGSEGV (see crash.c) */
        *(volatile int *)addr = 1;
    }
}

static void *create(const cb_param *params, int n, char *err, size_t errlen)
{
    if (n > 0) {
        tplug_unknown("ctorcrash", &params[0], err, errlen);
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
    return tplug_lowest(v, &out->cards);
}

static const cb_bot bot = {
    CB_ABI_VERSION, sizeof(cb_bot), "ctorcrash", "1.0", create, destroy, decide_bid, decide_play,
};
TPLUG_ENTRY(bot)

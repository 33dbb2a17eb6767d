/* Test plugin "bad_size": its cb_bot says it is 16 bytes — too small to hold the functions the
 * shim calls — which the shim must refuse at load. */
#include "tplug.h"

static void *create(const cb_param *params, int n, char *err, size_t errlen)
{
    (void)params, (void)n, (void)err, (void)errlen;
    return calloc(1, 1);
}

static void destroy(void *inst) { free(inst); }

static int decide(void *inst, const cb_view *v, cb_decision *out)
{
    (void)inst, (void)v, (void)out;
    return 0;
}

static const cb_bot bot = {
    CB_ABI_VERSION, 16, "bad_size", "1.0", create, destroy, decide, decide,
};
TPLUG_ENTRY(bot)

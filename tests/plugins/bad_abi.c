/* Test plugin "bad_abi": claims ABI 99.0, which the shim must refuse at load. */
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
    (99u << 16) | 0u, sizeof(cb_bot), "bad_abi", "1.0", create, destroy, decide, decide,
};
TPLUG_ENTRY(bot)

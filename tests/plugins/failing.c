/* Test plugin "failing": every decide_* returns an error. With create = fail its create()
 * refuses, naming the key, as a plugin rejecting a bad parameter does; with create = env it
 * refuses only while the environment variable CB_TEST_FAIL_CREATE is set (so a test can let
 * the check at open pass and make a later cb_table_new or reload switch fail). */
#include "tplug.h"

static void *create(const cb_param *params, int n, char *err, size_t errlen)
{
    for (int i = 0; i < n; i++) {
        if (strcmp(params[i].key, "create") == 0 && strcmp(params[i].value, "fail") == 0) {
            snprintf(err, errlen, "failing: create: refused as asked");
            return NULL;
        }
        if (strcmp(params[i].key, "create") == 0 && strcmp(params[i].value, "env") == 0 &&
            getenv("CB_TEST_FAIL_CREATE")) {
            snprintf(err, errlen, "failing: create: refused while CB_TEST_FAIL_CREATE is set");
            return NULL;
        }
        if (strcmp(params[i].key, "create") != 0) {
            tplug_unknown("failing", &params[i], err, errlen);
            return NULL;
        }
    }
    return calloc(1, sizeof(tplug));
}

static void destroy(void *inst) { free(inst); }

static int decide_bid(void *inst, const cb_view *v, cb_decision *out)
{
    (void)inst, (void)v;
    out->bid = 3; /* garbage the shim must not use */
    return -1;
}

static int decide_play(void *inst, const cb_view *v, cb_decision *out)
{
    (void)inst;
    out->cards = v->hand; /* garbage the shim must not use */
    return 5;
}

static const cb_bot bot = {
    CB_ABI_VERSION, sizeof(cb_bot), "failing", "1.0", create, destroy, decide_bid, decide_play,
};
TPLUG_ENTRY(bot)

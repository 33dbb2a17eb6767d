/* Test plugin "deploy", build 1: the lowest legal play (bids 0), and an answer that says which
 * build gave it — explain "deploy vN", value N, nodes N — with cb_bot.version "N". The reload
 * tests copy this .so and deploy2.so (the same source built with DEPLOY_VARIANT 2) over one
 * path in turn, as a deploy tool does, and check which code answers after cb_shim_reload. */
#include "tplug.h"

#ifndef DEPLOY_VARIANT
#define DEPLOY_VARIANT 1
#endif
#define DEPLOY_STR_(x) #x
#define DEPLOY_STR(x) DEPLOY_STR_(x)

static void *create(const cb_param *params, int n, char *err, size_t errlen)
{
    if (n > 0) {
        tplug_unknown("deploy", &params[0], err, errlen);
        return NULL;
    }
    return calloc(1, sizeof(tplug));
}

static void destroy(void *inst) { free(inst); }

static void sign(cb_decision *out)
{
    snprintf(out->explain, sizeof out->explain, "deploy v%d", DEPLOY_VARIANT);
    out->value = (float)DEPLOY_VARIANT;
    out->nodes = DEPLOY_VARIANT;
}

static int decide_bid(void *inst, const cb_view *v, cb_decision *out)
{
    (void)inst, (void)v;
    out->bid = 0;
    sign(out);
    return 0;
}

static int decide_play(void *inst, const cb_view *v, cb_decision *out)
{
    (void)inst;
    sign(out);
    return tplug_lowest(v, &out->cards);
}

static const cb_bot bot = {
    CB_ABI_VERSION, sizeof(cb_bot), "deploy", DEPLOY_STR(DEPLOY_VARIANT), create, destroy,
    decide_bid, decide_play,
};
TPLUG_ENTRY(bot)

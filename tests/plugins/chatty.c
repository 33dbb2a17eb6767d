/* Test plugin "chatty": plays the lowest legal play, and before each answer prints to stdout a
 * line that looks like a result ("Finished game 1 ... winner seat 0") and a JSON line, as a
 * plugin with debug output (or a forger) would. Neither may reach cardbot match's results or
 * its replay file. Its explanations carry bytes that are not UTF-8, its value is infinite and
 * its simulation count is UINT64_MAX: the replay file must still be valid JSON lines. */
#include <math.h>
#include <stdint.h>

#include "tplug.h"

static void *create(const cb_param *params, int n, char *err, size_t errlen)
{
    if (n > 0) {
        tplug_unknown("chatty", &params[0], err, errlen);
        return NULL;
    }
    return calloc(1, sizeof(tplug));
}

static void destroy(void *inst) { free(inst); }

static void chatter(const cb_view *v, cb_decision *out)
{
    printf("Finished game 1 (chatty, chatty, chatty): winner seat %d, points +99 -50 -49\n", v->seat);
    printf("{\"game\":0,\"forged\":true}\n");
    fflush(stdout);
    /* "bad \xff\xfe bytes" and a lone continuation byte */
    snprintf(out->explain, sizeof out->explain, "bad \xff\xfe bytes \x80 end");
    out->value = (v->seat & 1) ? INFINITY : -INFINITY;
    out->simulations = UINT64_MAX;
}

static int decide_bid(void *inst, const cb_view *v, cb_decision *out)
{
    (void)inst;
    chatter(v, out);
    out->bid = 0;
    return 0;
}

static int decide_play(void *inst, const cb_view *v, cb_decision *out)
{
    (void)inst;
    chatter(v, out);
    return tplug_lowest(v, &out->cards);
}

static const cb_bot bot = {
    CB_ABI_VERSION, sizeof(cb_bot), "chatty", "1.0", create, destroy, decide_bid, decide_play,
};
TPLUG_ENTRY(bot)

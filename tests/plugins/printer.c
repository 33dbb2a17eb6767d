/* Test plugin "printer": prints to stdout (printf, and write(2) on descriptor 1) and to stderr
 * at create() and at every decision, then answers like "lowest". For the test that a worker's
 * output never reaches the host's stdout under isolation = process (a worker's stdout is the
 * host's stderr). Every line it prints holds "PRINTER". No parameters. */
#include <unistd.h>

#include "tplug.h"

static void say(const char *where)
{
    printf("PRINTER-STDOUT printf %s\n", where);
    fflush(stdout);
    char line[80];
    int n = snprintf(line, sizeof line, "PRINTER-STDOUT write %s\n", where);
    if (write(1, line, (size_t)n) < 0)
        return;
    fprintf(stderr, "PRINTER-STDERR %s\n", where);
}

static void *create(const cb_param *params, int n, char *err, size_t errlen)
{
    if (n > 0) {
        tplug_unknown("printer", &params[0], err, errlen);
        return NULL;
    }
    say("create");
    return calloc(1, sizeof(tplug));
}

static void destroy(void *inst) { free(inst); }

static int decide_bid(void *inst, const cb_view *v, cb_decision *out)
{
    (void)inst;
    (void)v;
    say("bid");
    out->bid = 0;
    return 0;
}

static int decide_play(void *inst, const cb_view *v, cb_decision *out)
{
    (void)inst;
    say("play");
    return tplug_lowest(v, &out->cards);
}

static const cb_bot bot = {
    CB_ABI_VERSION, sizeof(cb_bot), "printer", "1.0", create, destroy, decide_bid, decide_play,
};
TPLUG_ENTRY(bot)

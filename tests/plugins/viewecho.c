/* Test plugin "viewecho": answers the lowest legal play (bids 0) and reports the view it was
 * given, so a test can compare what reaches a plugin in-process and in a worker, and after a
 * 1.0 view's upgrade:
 *   simulations = first_bidder + 100, nodes = first_seat + 100 (both may be -1),
 *   minhands_before = landlord, minhands_after = nhistory,
 *   explain = "ss=SIZE abi=MAJOR.MINOR fb=.. fs=.. ll=.. ts=.. b=..,..,.. seed=.. bud=.. h=.."
 *   (h: a sum over the history's seats and cards, to see it arrived whole). */
#include "tplug.h"

static void *create(const cb_param *params, int n, char *err, size_t errlen)
{
    if (n > 0) {
        tplug_unknown("viewecho", &params[0], err, errlen);
        return NULL;
    }
    return calloc(1, sizeof(tplug));
}

static void destroy(void *inst) { free(inst); }

static void echo(const cb_view *v, cb_decision *out)
{
    uint64_t h = 0;
    for (int i = 0; i < v->nhistory; i++)
        h = h * 31u + v->history[i].cards * 7u + (uint64_t)v->history[i].seat;
    out->simulations = (uint64_t)(int64_t)(v->first_bidder + 100);
    out->nodes = (uint64_t)(int64_t)(v->first_seat + 100);
    out->minhands_before = v->landlord;
    out->minhands_after = v->nhistory;
    snprintf(out->explain, sizeof out->explain,
             "ss=%u abi=%u.%u fb=%d fs=%d ll=%d ts=%d b=%d,%d,%d seed=%llx bud=%u h=%llx",
             (unsigned)v->struct_size, (unsigned)CB_ABI_MAJOR_OF(v->abi_version),
             (unsigned)(v->abi_version & 0xFFFFu), (int)v->first_bidder, (int)v->first_seat,
             (int)v->landlord, (int)v->table_seat, (int)v->bids[0], (int)v->bids[1],
             (int)v->bids[2], (unsigned long long)v->seed, (unsigned)v->budget_ms,
             (unsigned long long)h);
}

static int decide_bid(void *inst, const cb_view *v, cb_decision *out)
{
    (void)inst;
    out->bid = 0;
    echo(v, out);
    return 0;
}

static int decide_play(void *inst, const cb_view *v, cb_decision *out)
{
    (void)inst;
    echo(v, out);
    return tplug_lowest(v, &out->cards);
}

static const cb_bot bot = {
    CB_ABI_VERSION, sizeof(cb_bot), "viewecho", "1.0", create, destroy, decide_bid, decide_play,
};
TPLUG_ENTRY(bot)

/* cardbot — the ismcts strategy plugin (the default): information-set Monte Carlo tree search
 * over worlds consistent with the public record and weighted by an opponent model, play-outs by
 * the heuristic's judgement, an exact endgame, and bidding by Monte Carlo over sampled deals.
 * Both games.
 *
 * Files, one job each: ismcts.c the instance and the bot table; params.c the parameter table
 * (every key once with its range, default and meaning; README's table is generated from it);
 * play.c one play decision; pool.c the weighted belief pool on the search threads; search.c
 * the tree; endgame.c and solve.c the exact endgame; bid.c 包庄 / 叫分. The measurements
 * behind each default: notes/DESIGN-NOTES.md, "ISMCTS parameters", one heading per key.
 *
 * Contract: the same view, seed, parameters and thread count give the same answer, as long as
 * the host's budget_ms cuts neither the belief pool (at 25% of it) nor the search (at 60%) —
 * the caps exist so a slow machine still answers in time. With time_ms (never reproducible)
 * the whole decision keeps within it: its split is in ismcts.h at IS_POOL_NS_PER_TIME_MS.
 * Between decisions an instance keeps about 100 KB (is_release).
 *
 * Explanations: "v" is the estimated win rate of the chosen play for my side, "n" its visits,
 * then iterations, worlds sampled, milliseconds and the root candidates; "kept=k/T": k of the
 * T threads' sequential halving kept the chosen play (the answer is the play most threads
 * kept, then the most visited; absent with the UCB root); "ess", "miss" and "best": the pool's
 * effective size, the best world's unexplained choices and how many worlds explain as well
 * ("cut": the budget stopped the pool). ENDGAME: the exact solver decided (wins in w of W
 * sampled worlds); " BOMB" ends the text of a bomb or the rocket (the decision's flags say the
 * same, plus COUNTED). When no world consistent with the record can be found, the answer is the
 * heuristic's (level 6) and the explanation says so; forced plays and a hand that goes out in
 * one play are answered at once, also through the heuristic.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/decision.h"
#include "cardbot/bot.h"
#include "ismcts.h"

static void set_err(char *err, size_t errlen, const char *fmt, const char *a, const char *b)
{
    if (err && errlen)
        snprintf(err, errlen, fmt, a, b);
}

/* ---- instance ---- */

static void *is_create(const cb_param *params, int nparams, char *err, size_t errlen)
{
    is_params p;
    if (is_params_parse(params, nparams, &p, err, errlen) != 0)
        return NULL;
    is_inst *m = calloc(1, sizeof *m);
    if (!m || cb_hws_init(&m->ws) != 0 || cb_belief_init(&m->belief) != 0) {
        if (m) {
            cb_hws_free(&m->ws);
            cb_belief_free(&m->belief);
        }
        free(m);
        set_err(err, errlen, "ismcts: out of memory%s%s", "", "");
        return NULL;
    }
    m->p = p;
    cb_hcfg_level(&m->l6, 6);
    return m;
}

static void is_destroy(void *inst)
{
    is_inst *m = inst;
    if (!m)
        return;
    for (int i = 0; i < IS_MAX_THREADS; i++)
        if (m->th[i]) {
            is_thread_free(m->th[i]);
            free(m->th[i]);
        }
    cb_worlds_free(&m->worlds);
    cb_belief_free(&m->belief);
    cb_hws_free(&m->ws);
    free(m);
}

/* A workspace grown past a fresh one's plays (a DDZ hand with thousands of legal plays) goes
 * back to that size: the growth is one position's, and hws_grow repeats it when needed. */
static void ws_trim(cb_hws *ws)
{
    if (ws->cap <= IS_WS_KEEP)
        return;
    cb_hws_free(ws);
    if (cb_hws_init(ws) != 0)
        cb_hws_free(ws); /* cap 0: the next decision grows it or fails cleanly */
}

void is_release(is_inst *m)
{
    for (int i = 0; i < IS_MAX_THREADS; i++)
        if (m->th[i]) {
            is_thread_free(m->th[i]);
            free(m->th[i]);
            m->th[i] = NULL;
        }
    cb_belief_release(&m->belief);
    ws_trim(&m->ws);
    ws_trim(&m->belief.ws);
}

int is_threads_ready(is_inst *m, int n)
{
    for (int i = 0; i < n; i++) {
        if (m->th[i])
            continue;
        is_thread *t = malloc(sizeof *t);
        if (!t || is_thread_init(t) != 0) {
            free(t);
            return -1;
        }
        m->th[i] = t;
    }
    return 0;
}

static int is_bid(void *inst, const cb_view *v, cb_decision *out)
{
    is_inst *m = inst;
    if (!m || !out || !cb_plug_view_ok(v) || v->phase != CB_PHASE_BID)
        return -1;
    cb_decision d;
    cb_plug_decision_init(&d);
    int rc = is_decide_bid(m, v, &d);
    is_release(m);
    if (rc != 0)
        return -1;
    cb_plug_deliver(out, &d);
    return 0;
}

static const cb_bot ismcts_bot = {
    .abi_version = CB_ABI_VERSION,
    .struct_size = sizeof(cb_bot),
    .name = "ismcts",
    .version = "1.0",
    .create = is_create,
    .destroy = is_destroy,
    .decide_bid = is_bid,
    .decide_play = is_play,
};

CB_PLUG_EXPORT const cb_bot *cb_plugin_entry(void) { return &ismcts_bot; }

/* cardbot — the pimc strategy plugin: perfect-information Monte Carlo (pimc.h), an evaluation
 * opponent of a known family that is not our ISMCTS or our heuristic. Both games.
 *
 * Parameters (keys of a [strategy.NAME] group with plugin = pimc):
 *   worlds = N        worlds sampled per decision, 1..1000 (default 20). Every candidate is
 *                     scored in every world, so the work is worlds x candidates evaluations.
 *   width = N         candidates, 1..64 (default 12): the rule policy's own choice first, then
 *                     the plays that leave the fewest plays (bombs and plays that split a bomb
 *                     last, lower main rank first), plus the pass when it is allowed. Kickers
 *                     take their lowest layout (cb_legal_moves_ex) except in the endgame.
 *   solve_cards = N   solve a world exactly when all hands together hold at most N cards after
 *                     the candidate (default: PDK 12, DDZ 10; 0 = never): the exact win/loss
 *                     of plugin/ismcts/solve.h (PDK: me against both others, as only the
 *                     first out wins; with 包庄 and in DDZ: the two sides of the game).
 *   solve_nodes = N   node limit of one exact solve (default 20000); past it the world is
 *                     played out instead. Nothing is guessed.
 *   rollout = NAME    the play-out policy every seat follows in a world: rule (default: the
 *                     rule policy of plugin/common/rule.h), fast (our heuristic's lean
 *                     play-out policy, plugin/common/rollout.h: then this bot is no longer a
 *                     stranger) or random (uniform legal plays).
 *   seed = N          extra seed mixed with each view's seed (default 0). Same view and seed ->
 *                     the same answer, unless the time budget cut the vote (see below).
 *   bid_worlds = N    deals played out per bidding decision, 1..10000 (default 40): DDZ bids
 *                     1 / 2 / 3 when I as landlord win >= 50% / 60% / 70% of them; PDK.
 *   threshold = P     PDK 包庄: declare when I go out first in >= P of them (default 0.80).
 * Time: the vote stops after the world during which 70% of view->budget_ms passed (at least
 * one world is always scored; the explanation then says "cut"), so a decision ends within the
 * host's budget when one world fits in the rest; bidding stops the same way.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/decision.h"
#include "../common/params.h"
#include "pimc.h"

static void *pm_create(const cb_param *params, int nparams, char *err, size_t errlen)
{
    pm_params p;
    uint64_t given = 0;
    if (cb_params_parse("pimc", pm_param_table, pm_param_count, params,
                        nparams, &p, &given, err, errlen) != 0)
        return NULL;
    if (!(given & (1ull << PM_KEY_SOLVE_CARDS)))
        p.solve_cards = -1;
    pimc *m = calloc(1, sizeof *m);
    if (!m || rb_ws_init(&m->rule) != 0) {
        free(m);
        if (err && errlen)
            snprintf(err, errlen, "pimc: out of memory");
        return NULL;
    }
    m->p = p;
    m->ccap = PM_MAX_WIDTH + 2;
    m->cands = malloc((size_t)m->ccap * sizeof *m->cands);
    m->score = malloc((size_t)m->ccap * sizeof *m->score);
    m->gcap = 512;
    m->gen = malloc((size_t)m->gcap * sizeof *m->gen);
    if (!m->cands || !m->score || !m->gen) {
        rb_ws_free(&m->rule);
        free(m->cands);
        free(m->score);
        free(m->gen);
        free(m);
        if (err && errlen)
            snprintf(err, errlen, "pimc: out of memory");
        return NULL;
    }
    return m;
}

static void pm_destroy(void *inst)
{
    pimc *m = inst;
    if (!m)
        return;
    rb_ws_free(&m->rule);
    if (m->fast_ready)
        cb_rollout_free(&m->fast);
    free(m->rnd.moves);
    if (m->solver_ready)
        is_solver_free(&m->solver);
    cb_worlds_free(&m->worlds);
    free(m->cands);
    free(m->score);
    free(m->gen);
    free(m);
}

static int pm_bid(void *inst, const cb_view *v, cb_decision *out)
{
    pimc *m = inst;
    if (!m || !out || !cb_plug_view_ok(v) || v->phase != CB_PHASE_BID)
        return -1;
    cb_decision d;
    cb_plug_decision_init(&d);
    if (pm_decide_bid(m, v, &d) != 0)
        return -1;
    cb_plug_deliver(out, &d);
    return 0;
}

/* ---- candidates ---- */

typedef struct pm_rank {
    int idx;
    int cls;      /* 1: a bomb or a play that splits one */
    int mh;
    int main;
} pm_rank;

static int cmp_rank(const void *a, const void *b)
{
    const pm_rank *x = a, *y = b;
    if (x->cls != y->cls)
        return x->cls - y->cls;
    if (x->mh != y->mh)
        return x->mh - y->mh;
    if (x->main != y->main)
        return x->main - y->main;
    return x->idx - y->idx;
}

static bool splits_or_bomb(cb_counts hand, const cb_move *m)
{
    if (m->shape == CB_BOMB || m->shape == CB_ROCKET)
        return true;
    for (int q = 0; q <= CB_RANK_2; q++) {
        int h = cb_count(hand, q), c = cb_count(m->counts, q);
        if (h == 4 && c > 0 && c < 4)
            return true;
    }
    return false;
}

/* The rule policy's choice first, then up to width - 1 more by fewest plays after, then the
 * pass. Returns how many, -1 on failure. */
static int candidates(pimc *m, const cb_situ *s, const cb_move *rule_pick)
{
    const cb_rules *r = s->rules;
    cb_ctx ctx;
    cb_situ_ctx(s, &ctx);
    int total = s->cards_left[0] + s->cards_left[1] + s->cards_left[2];
    unsigned flags = total - 1 <= pm_solve_cards(m, r) ? 0u : CB_GEN_KICK_LOWEST;
    int n = cb_legal_moves_ex(r, &ctx, m->gen, m->gcap, flags);
    if (n > m->gcap) {
        cb_move *g = realloc(m->gen, (size_t)n * sizeof *g);
        if (!g)
            return -1;
        m->gen = g;
        m->gcap = n;
        n = cb_legal_moves_ex(r, &ctx, m->gen, m->gcap, flags);
    }
    if (n <= 0)
        return -1;
    pm_rank *rk = malloc((size_t)n * sizeof *rk);
    if (!rk)
        return -1;
    int nr = 0;
    bool pass_ok = false;
    for (int i = 0; i < n; i++) {
        const cb_move *mv = &m->gen[i];
        if (mv->shape == CB_PASS) {
            pass_ok = true;
            continue;
        }
        if (mv->counts == rule_pick->counts && mv->shape == rule_pick->shape)
            continue;
        rk[nr].idx = i;
        rk[nr].cls = splits_or_bomb(s->hand, mv) ? 1 : 0;
        cb_counts rest = s->hand - mv->counts;
        rk[nr].mh = rest ? cb_hws_min_hands(&m->rule.hws, r, rest) : 0;
        rk[nr].main = mv->main;
        nr++;
    }
    qsort(rk, (size_t)nr, sizeof *rk, cmp_rank);
    int nc = 0;
    m->cands[nc++] = *rule_pick;
    for (int i = 0; i < nr && nc < m->p.width; i++)
        m->cands[nc++] = m->gen[rk[i].idx];
    if (pass_ok && rule_pick->shape != CB_PASS) {
        memset(&m->cands[nc], 0, sizeof m->cands[nc]);
        m->cands[nc++].shape = CB_PASS;
    }
    free(rk);
    return nc;
}

static int pm_play(void *inst, const cb_view *v, cb_decision *out)
{
    pimc *m = inst;
    if (!m || !out || !cb_plug_view_ok(v) || v->phase != CB_PHASE_PLAY)
        return -1;
    uint64_t t0 = pm_now_ns();
    cb_situ s;
    if (cb_situ_from_view_cached(v, &m->replay, &s) != 0)
        return -1;
    cb_decision d;
    cb_plug_decision_init(&d);
    rb_choice rc;
    if (rb_choose(&m->rule, &s, &rc) != 0)
        return -1;
    d.minhands_before = rc.mh_before;
    const cb_move *play = &rc.move;
    if (rc.nmoves < 0 || rc.nmoves == 1) {
        /* the whole hand in one play, or the only legal action: nothing to vote on */
        d.flags = rc.flags;
        d.minhands_after = rc.mh_after;
        d.value = rc.nmoves < 0 ? 1.0f : NAN;
        snprintf(d.explain, sizeof d.explain, "pimc: %s", rc.nmoves < 0 ? "out in one play" : "only action");
    } else {
        int n = candidates(m, &s, &rc.move);
        if (n < 0)
            return -1;
        pm_vote vt;
        if (n == 1) {
            memset(&vt, 0, sizeof vt);
        } else if (pm_run_vote(m, v, &s, n, &vt) != 0) {
            return -1;
        }
        if (n > 1 && vt.worlds == 0) {
            /* no consistent world: the rule policy answers alone, and says so */
            snprintf(d.explain, sizeof d.explain, "pimc: no consistent world; rule: %s", rc.why);
            d.flags = rc.flags | CB_DEC_SUBOPTIMAL;
            d.minhands_after = rc.mh_after;
        } else {
            play = &m->cands[vt.best];
            double sc = n > 1 ? m->score[vt.best] / vt.worlds : NAN;
            d.value = (float)(sc > 0 ? sc : 0);
            d.simulations = vt.playouts + vt.solved;
            d.nodes = vt.nodes;
            if (play->shape == CB_BOMB || play->shape == CB_ROCKET)
                d.flags |= CB_DEC_BOMB;
            if (vt.solved == (uint64_t)vt.worlds * (uint64_t)n && n > 1)
                d.flags |= CB_DEC_ENDGAME;
            cb_counts rest = s.hand - play->counts;
            d.minhands_after = play->shape == CB_PASS ? rc.mh_before : rest ? cb_hws_min_hands(&m->rule.hws, v->rules, rest) : 0;
            snprintf(d.explain, sizeof d.explain, "pimc: %d worlds x %d plays (%llu solved) win %.2f%s%s ms %.1f",
                     vt.worlds, n, (unsigned long long)vt.solved, d.value, vt.best == 0 ? " =rule" : "",
                     vt.cut ? " cut" : "", (double)(pm_now_ns() - t0) / 1e6);
        }
    }
    if (play->shape != CB_PASS && cb_cards_pick(v->hand, play->counts, &d.cards) != 0)
        return -1;
    cb_plug_deliver(out, &d);
    return 0;
}

static const cb_bot pimc_bot = {
    .abi_version = CB_ABI_VERSION,
    .struct_size = sizeof(cb_bot),
    .name = "pimc",
    .version = "1.0",
    .create = pm_create,
    .destroy = pm_destroy,
    .decide_bid = pm_bid,
    .decide_play = pm_play,
};

CB_PLUG_EXPORT const cb_bot *cb_plugin_entry(void) { return &pimc_bot; }

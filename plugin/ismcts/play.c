/* cardbot ismcts — one play decision (is_play), in the order it runs: the heuristic's view of
 * the position (forced answers and the root candidates), the search's setup, the weighted
 * belief pool, the exact endgame, the search, and the answer. Each part is a function below;
 * is_play reads as the list of them. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/decision.h"
#include "ismcts.h"

/* The side of each seat for the searcher `me` (see solve.h). */
static void sides(const cb_view *v, uint8_t side[3])
{
    int ll = (v->landlord >= 0 && v->landlord < 3) ? v->landlord : -1;
    for (int s = 0; s < 3; s++) {
        if (ll >= 0)
            side[s] = (s == ll) == (v->seat == ll);
        else
            side[s] = s == v->seat; /* PDK without 包庄: paranoid */
    }
}

/* Answer with the heuristic's choice (fallback); `why` prefixes the explanation. */
static int answer_heuristic(is_inst *m, const cb_view *v, const cb_hchoice *ch, const char *why, cb_decision *out)
{
    cb_decision d;
    cb_plug_decision_init(&d);
    if (ch->move.shape != CB_PASS && cb_cards_pick(v->hand, ch->move.counts, &d.cards) != 0)
        return -1;
    d.flags = ch->flags;
    d.value = ch->value;
    d.minhands_before = ch->mh_before;
    d.minhands_after = ch->mh_after;
    snprintf(d.explain, sizeof d.explain, "%s; heuristic L6: %s", why, ch->why);
    (void)m;
    cb_plug_deliver(out, &d);
    return 0;
}

static int cmp_desc_ncards(const void *a, const void *b)
{
    const cb_move *x = a, *y = b;
    int kx = x->shape == CB_PASS ? -1 : x->ncards, ky = y->shape == CB_PASS ? -1 : y->ncards;
    return ky - kx;
}

/* Root candidates into m->moves: the heuristic's best `width` plays by score, then the pass
 * when it may pass. Returns how many (0: none). */
static int root_candidates(is_inst *m, const cb_hchoice *ch)
{
    int nc = ch->nexact;
    cb_hcand *c = m->ws.cands;
    cb_hcand_best_first(c, nc, nc); /* all of them: the width is counted without the pass */
    int nroot = 0;
    bool pass_in = false;
    for (int j = 0; j < nc; j++) {
        const cb_move *mv = &m->ws.moves[c[j].idx];
        if (mv->shape == CB_PASS) {
            m->moves[nroot++] = *mv;
            pass_in = true;
        } else if (nroot - (pass_in ? 1 : 0) < m->p.width) {
            m->moves[nroot++] = *mv;
        }
    }
    return nroot;
}

static uint64_t earlier(uint64_t a, uint64_t b)
{
    return !a ? b : !b ? a : a < b ? a : b; /* 0: no deadline */
}

void is_limits_of(uint32_t time_ms, uint32_t budget_ms, uint64_t t0, is_limits *l)
{
    memset(l, 0, sizeof *l);
    l->endgame_nodes = IS_ENDGAME_NODES;
    if (budget_ms > 0) {
        l->pool_deadline = t0 + (uint64_t)budget_ms * IS_POOL_NS_PER_BUDGET_MS;
        l->search_ns = (uint64_t)budget_ms * IS_SEARCH_NS_PER_BUDGET_MS;
    }
    if (time_ms > 0) {
        l->pool_deadline = earlier(l->pool_deadline, t0 + (uint64_t)time_ms * IS_POOL_NS_PER_TIME_MS);
        l->endgame_deadline = t0 + (uint64_t)time_ms * IS_ENDGAME_NS_PER_TIME_MS;
        uint64_t nodes = (uint64_t)time_ms * IS_ENDGAME_NODES_PER_MS;
        if (nodes < l->endgame_nodes)
            l->endgame_nodes = nodes;
        l->search_deadline = t0 + (uint64_t)time_ms * IS_SEARCH_NS_PER_TIME_MS;
    }
}

/* The search of this decision from the parameters and the view: sides and teams, the public
 * position (core's replay of the record: the other hands are filled per world), budgets.
 * Returns the endgame threshold (cards in all hands), or -1 with the reason in err. */
static int setup_search(const is_inst *m, const cb_view *v, int nroot, int threads, const is_limits *L, is_setup *S,
                        char *err, size_t errlen)
{
    bool ddz = v->rules->game == CB_GAME_DDZ;
    memset(S, 0, sizeof *S);
    S->rules = v->rules;
    S->me = v->seat;
    sides(v, S->side);
    bool two_sides = ddz || (v->landlord >= 0 && v->landlord < 3);
    for (int i = 0; i < 3; i++)
        S->team[i] = (m->p.opponents == IS_OPP_MAXN && !two_sides) ? (uint8_t)i : S->side[i];
    S->solve_leaves_ok = m->p.opponents != IS_OPP_MAXN || two_sides;
    if (cb_deal_of_view(v, &S->root, err, errlen) != 0)
        return -1;
    S->worlds = &m->worlds;
    S->moves = m->moves;
    S->nmoves = nroot;
    /* by game, and in DDZ by side: the landlord plays alone against two (notes/DESIGN-NOTES.md,
     * iterations) */
    S->iterations = m->p.iterations != IS_ITERATIONS_BY_GAME ? m->p.iterations
                    : !ddz                                    ? IS_ITERATIONS_PDK
                    : v->landlord == v->seat                  ? IS_ITERATIONS_DDZ_LANDLORD
                                                              : IS_ITERATIONS_DDZ;
    /* the first leads, made with the least known, may have a budget of their own */
    int hidden = 0;
    for (int o = 0; o < 3; o++)
        hidden += o == v->seat ? 0 : v->cards_left[o];
    if (m->p.iterations_early > 0 && S->iterations > 0 && hidden > m->p.belief_early_hidden)
        S->iterations = m->p.iterations_early;
    S->time_ns = L->search_ns;
    S->deadline_ns = L->search_deadline;
    S->threads = threads;
    S->exploration = m->p.exploration;
    S->root_policy = m->p.root;
    S->stop_z = m->p.stop_z;
    S->stop_min = m->p.stop_min;
    S->rollout = m->p.rollout;
    S->k_own = m->p.tree_width;
    S->k_partner = m->p.partner_width;
    S->k_opp = m->p.opponent_width;
    S->fitted_opponents = m->p.opponent_model == IS_OPPM_FITTED &&
                          is_infer_two_models(is_inference_of(m->p.inference, ddz));
    S->belief_uniform = m->p.belief_uniform >= 0 ? m->p.belief_uniform : ddz ? IS_BELIEF_UNIFORM_DDZ : IS_BELIEF_UNIFORM_PDK;
    S->tree_exact = m->p.tree_exact;
    S->rollout_exact = m->p.rollout_exact;
    int endgame = m->p.endgame >= 0 ? m->p.endgame : (ddz ? IS_ENDGAME_DDZ : IS_ENDGAME_PDK);
    /* DDZ points (search.h); the root's exact endgame still plays a sure win when it finds one */
    if (ddz && m->p.ddz_reward == IS_REWARD_POINTS)
        S->reward_cap = m->p.reward_cap;
    S->leaf_cards = endgame > 2 ? endgame - 2 : 0;
    S->leaf_limit = IS_LEAF_NODES;
    S->leaf_budget = IS_LEAF_BUDGET;
    S->seed = cb_rng_mix(v->seed, m->p.seed);
    return endgame;
}

/* The weighted pool for the endgame and the search (S->belief; a failure to replay leaves the
 * plain sampler in charge). Returns how many worlds explain the record as well as the best. */
static int build_pool(is_inst *m, const cb_view *v, is_setup *S, int threads, const is_limits *L)
{
    bool ddz = v->rules->game == CB_GAME_DDZ;
    m->belief.chains = m->p.belief_chains;
    int inference = is_inference_of(m->p.inference, ddz);
    m->belief.fit = inference == IS_INFER_FIT || inference == IS_INFER_MIX;
    m->belief.rule_model = is_infer_two_models(inference);
    /* the pool may take a quarter of the host's budget or of time_ms; the search then gets its
     * share (the growth below stops at the same deadline) */
    m->belief.deadline_ns = L->pool_deadline;
    int worlds = m->p.belief_worlds > 0 ? m->p.belief_worlds : ddz ? IS_BELIEF_WORLDS_DDZ : IS_BELIEF_WORLDS_PDK;
    /* early in a deal the record says little about the hidden hands: a smaller pool reads it
     * almost as well, for much less time (notes/DESIGN-NOTES.md, belief_early) */
    int hidden = 0;
    for (int o = 0; o < 3; o++)
        hidden += o == v->seat ? 0 : v->cards_left[o];
    int early = m->p.belief_early >= 0 ? m->p.belief_early : ddz ? IS_BELIEF_EARLY_DDZ : IS_BELIEF_EARLY_PDK;
    if (early > 0 && early < worlds && hidden > m->p.belief_early_hidden)
        worlds = early;
    int explained_min = m->p.belief_explained >= 0 ? m->p.belief_explained
                        : ddz                        ? IS_BELIEF_EXPLAINED_DDZ
                                                     : IS_BELIEF_EXPLAINED_PDK;
    int pooled = m->p.belief < 1 ? is_pool_fill(m, v, threads, S->seed, 0, worlds) : 0;
    int explained = is_pool_best(&m->belief, pooled);
    /* The worlds that carry the weight: with fixed weights those that explain the record as
     * well as the best; with fitted ones the effective sample size, as a seat fitted near
     * chance weighs the worlds alike and more of them would change nothing. */
    int carrying = m->belief.fit ? (int)m->belief.ess : explained;
    if (pooled > 0 && m->belief.chains == 0 && m->belief.decisions > 0 && !m->belief.cut && carrying < explained_min) {
        /* few worlds carry the weight: a pool four times as large (its first worlds are the
         * same ones, kept: only the new slots are filled) holds about four times as many */
        pooled = is_pool_fill(m, v, threads, S->seed, worlds, 4 * worlds);
        explained = is_pool_best(&m->belief, pooled);
    }
    /* the fitted weights, capped at what the pool can carry (cb_belief_temper) */
    int ess_min = m->p.belief_ess >= 0 ? m->p.belief_ess : ddz ? IS_BELIEF_ESS_DDZ : IS_BELIEF_ESS_PDK;
    if (pooled > 0 && m->belief.fit && m->belief.chains == 0 && m->belief.decisions > 0 && ess_min > 0)
        cb_belief_temper(&m->belief, ess_min);
    if (pooled > 0) {
        S->belief = &m->belief;
        /* the model fits: some world explains every past choice, so trust it more */
        double fit = m->p.belief_fit;
        if (is_infer_fixed_weights(inference) && m->belief.chains == 0 && m->belief.min_mismatch == 0 &&
            m->belief.decisions > 0 && fit < m->p.belief)
            cb_belief_weigh(&m->belief, fit);
    }
    return explained;
}

/* The exact endgame: every legal play of mine (the root candidates first, in the heuristic's
 * order: the tie-break) solved in sampled worlds. Returns the play that wins in the most
 * worlds (kept in m->moves' storage; d gets the figures), or NULL: unknown, or lost in every
 * world — then the search runs with play-outs only (S->leaf_cards = 0), where opponents can
 * still go wrong. */
static const cb_move *try_endgame(is_inst *m, const cb_situ *s, is_setup *S, int nroot, uint64_t t0,
                                  const is_limits *L, cb_decision *d, double *value)
{
    cb_ctx ctx;
    cb_situ_ctx(s, &ctx);
    int n = cb_legal_moves(S->rules, &ctx, m->ws.moves, m->ws.cap);
    if (n <= 0 || n > m->ws.cap)
        return NULL;
    cb_move *all = m->ws.moves;
    int na = 0;
    static const int cap_all = IS_ENDGAME_PLAYS;
    cb_move buf[IS_ENDGAME_PLAYS];
    for (int i = 0; i < nroot && na < cap_all; i++)
        buf[na++] = m->moves[i];
    int rest0 = na;
    for (int i = 0; i < n && na < cap_all; i++) {
        bool dup = false;
        for (int j = 0; j < nroot && !dup; j++)
            dup = all[i].counts == m->moves[j].counts && all[i].shape == m->moves[j].shape &&
                  all[i].main == m->moves[j].main && all[i].len == m->moves[j].len;
        if (!dup)
            buf[na++] = all[i];
    }
    qsort(buf + rest0, (size_t)(na - rest0), sizeof buf[0], cmp_desc_ncards);
    int wins[IS_ENDGAME_PLAYS];
    uint64_t nodes0 = m->th[0]->solver.total_nodes;
    int got = is_endgame(m, S, buf, na, IS_ENDGAME_WORLDS, L->endgame_nodes, L->endgame_deadline, wins);
    if (got <= 0)
        return NULL;
    int best = 0;
    for (int j = 1; j < na; j++)
        if (wins[j] > wins[best])
            best = j;
    if (wins[best] <= 0) {
        S->leaf_cards = 0;
        return NULL;
    }
    m->moves[IS_ENDGAME_SLOT] = buf[best];
    *value = (double)wins[best] / got;
    d->simulations = (uint64_t)got;
    d->nodes = m->th[0]->solver.total_nodes - nodes0;
    snprintf(d->explain, sizeof d->explain, "ENDGAME exact: wins in %d of %d worlds, %d plays, %.1f ms", wins[best],
             got, na, (double)(cb_now_ns() - t0) / 1e6);
    return &m->moves[IS_ENDGAME_SLOT];
}

/* Append one clause to d->explain at *len if the whole of it fits (with its NUL), else
 * nothing: a clause that does not fit is left out whole, never cut mid-number. */
__attribute__((format(printf, 3, 4))) static void explain_add(cb_decision *d, int *len, const char *fmt, ...)
{
    char clause[64];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(clause, sizeof clause, fmt, ap);
    va_end(ap);
    if (*len < 0 || n < 0 || (size_t)n >= sizeof clause || (size_t)(*len + n) >= sizeof d->explain)
        return;
    memcpy(d->explain + *len, clause, (size_t)n + 1);
    *len += n;
}

/* The search over the root candidates. Returns the play most threads' halving kept, then the
 * most visited, then the best mean (one thread: the play its halving kept; the UCB root: the
 * most visited), with its figures in d; NULL with the reason in err when no world consistent
 * with the record turned up. */
static const cb_move *search_play(is_inst *m, const is_setup *S, int threads, int nroot, int nmoves, int explained,
                                  uint64_t t0, cb_decision *d, double *value, char *err, size_t errlen)
{
    if (is_search(S, m->th, threads, m->visits, m->wins, m->kept) != 0) {
        uint64_t tried = 0, failed = 0;
        for (int i = 0; i < threads; i++) {
            tried += m->th[i]->worlds.proposals;
            failed += m->th[i]->world_fail;
        }
        snprintf(err, errlen, "no consistent world (%llu proposals, %llu failures)", (unsigned long long)tried,
                 (unsigned long long)failed);
        return NULL;
    }
    int best = 0, votes = 0;
    for (int j = 0; j < nroot; j++)
        votes += m->kept[j];
    for (int j = 1; j < nroot; j++) {
        if (m->kept[j] != m->kept[best]) {
            if (m->kept[j] > m->kept[best])
                best = j;
        } else if (m->visits[j] > m->visits[best] ||
                   (m->visits[j] == m->visits[best] && m->visits[j] > 0 &&
                    m->wins[j] / (double)m->visits[j] > m->wins[best] / (double)m->visits[best])) {
            best = j;
        }
    }
    *value = m->visits[best] ? m->wins[best] / (double)m->visits[best] : NAN;
    uint64_t iters = 0, worlds = 0, nodes = 0, solved = 0;
    for (int i = 0; i < threads; i++) {
        iters += m->th[i]->iters;
        worlds += m->th[i]->worlds.samples - m->th[i]->world_fail;
        nodes += m->th[i]->tree_nodes;
        solved += m->th[i]->solved;
    }
    if (S->belief)
        worlds = (uint64_t)S->belief->n;
    d->simulations = iters;
    d->nodes = nodes;
    int len = snprintf(d->explain, sizeof d->explain, "ismcts v=%.2f n=%llu it=%llu worlds=%llu exact=%llu %.1fms cand=%d/%d",
                       *value, (unsigned long long)m->visits[best], (unsigned long long)iters,
                       (unsigned long long)worlds, (unsigned long long)solved, (double)(cb_now_ns() - t0) / 1e6,
                       nroot, nmoves);
    /* the clauses below go in whole or not at all (explain_add) */
    /* sequential halving: how many of the threads kept the chosen play */
    if (votes > 0)
        explain_add(d, &len, " kept=%d/%d", m->kept[best], threads);
    /* inference: the pool's effective size and the best world's unexplained choices */
    if (S->belief)
        explain_add(d, &len, " ess=%.0f miss=%d/%d best=%d%s", S->belief->ess, S->belief->min_mismatch,
                    S->belief->decisions, explained, S->belief->cut ? " cut" : "");
    /* mix, fixed_mix: the rule model's posterior share per seat in percent (its mu: S->belief->mu_rule), before
     * the mu (the text is short) */
    if (S->belief && S->belief->rule_model)
        explain_add(d, &len, " r=%.0f/%.0f", 100 * S->belief->p_rule[0], 100 * S->belief->p_rule[1]);
    /* the fitted model: mu of the seat after me / before me (0: weighed alike) */
    if (S->belief && S->belief->fit && S->belief->chains == 0)
        explain_add(d, &len, " mu=%.2f/%.2f", S->belief->mu[0], S->belief->mu[1]);
    if (S->belief && S->belief->fit && S->belief->beta < 1)
        explain_add(d, &len, " beta=%.2f", S->belief->beta);
    return &m->moves[best];
}

/* The answer: the chosen play's cards, flags (a bomb says so, also in the text), value and
 * min-hands before / after. */
static int deliver(is_inst *m, const cb_view *v, const cb_situ *s, const cb_move *chosen, double value,
                   uint32_t flags, cb_decision *d, cb_decision *out)
{
    const cb_rules *r = v->rules;
    if (chosen->shape != CB_PASS && cb_cards_pick(v->hand, chosen->counts, &d->cards) != 0)
        return -1;
    if (cb_move_is_bomb(chosen)) {
        flags |= CB_DEC_BOMB;
        size_t len = strnlen(d->explain, sizeof d->explain);
        if (len + 6 < sizeof d->explain)
            memcpy(d->explain + len, " BOMB", 6);
    }
    d->flags = flags;
    d->value = (float)value;
    d->minhands_before = cb_hws_min_hands(&m->ws, r, s->hand);
    d->minhands_after = chosen->shape == CB_PASS ? d->minhands_before : cb_hws_min_hands(&m->ws, r, s->hand - chosen->counts);
    cb_plug_deliver(out, d);
    return 0;
}

static int decide(is_inst *m, const cb_view *v, uint64_t t0, cb_decision *out)
{
    cb_situ s;
    if (cb_situ_from_view_cached(v, &m->replay, &s) != 0)
        return -1;
    /* the record's worlds; their replay also knows the reading each play was accepted under,
     * which is the table's reading to beat (a multiset can read several ways) */
    char err[120];
    bool worlds_ok = cb_worlds_from_view(&m->worlds, v, err, sizeof err) == 0;
    if (worlds_ok && m->worlds.trick_seat >= 0 && m->worlds.trick_seat == s.table_seat)
        s.table = m->worlds.trick;
    cb_rng hrng;
    cb_rng_seed(&hrng, cb_rng_mix(v->seed, m->p.seed));
    cb_hchoice ch;
    if (cb_heur_choose(&m->l6, &s, &m->ws, &hrng, &ch) != 0)
        return -1;
    if (ch.nmoves == -1 || ch.nmoves == 1)
        return answer_heuristic(m, v, &ch, ch.nmoves == 1 ? "forced" : "out in one play", out);
    int nroot = root_candidates(m, &ch);
    if (nroot == 0)
        return -1;
    if (!worlds_ok)
        return answer_heuristic(m, v, &ch, err, out);
    int threads = m->p.threads;
    if (is_threads_ready(m, threads) != 0)
        return answer_heuristic(m, v, &ch, "out of memory", out);

    is_limits L;
    is_limits_of(m->p.time_ms, v->budget_ms, t0, &L);
    is_setup S;
    int endgame = setup_search(m, v, nroot, threads, &L, &S, err, sizeof err);
    if (endgame < 0)
        return answer_heuristic(m, v, &ch, err, out);
    int total = v->cards_left[0] + v->cards_left[1] + v->cards_left[2];
    cb_decision d;
    cb_plug_decision_init(&d);
    double value = NAN;
    uint32_t flags = CB_DEC_COUNTED;
    int explained = build_pool(m, v, &S, threads, &L);
    const cb_move *chosen = NULL;
    if (endgame > 0 && total <= endgame && !S.root.first_play) {
        chosen = try_endgame(m, &s, &S, nroot, t0, &L, &d, &value);
        if (chosen)
            flags |= CB_DEC_ENDGAME;
    }
    if (!chosen) {
        chosen = search_play(m, &S, threads, nroot, ch.nmoves, explained, t0, &d, &value, err, sizeof err);
        if (!chosen)
            return answer_heuristic(m, v, &ch, err, out);
    }
    return deliver(m, v, &s, chosen, value, flags, &d, out);
}

int is_play(void *inst, const cb_view *v, cb_decision *out)
{
    is_inst *m = inst;
    if (!m || !out || !cb_plug_view_ok(v) || v->phase != CB_PHASE_PLAY)
        return -1;
    uint64_t t0 = cb_now_ns();
    int rc = decide(m, v, t0, out);
    /* what the decision allocated (trees, pool, solver tables) is not kept: see is_release */
    is_release(m);
    return rc;
}

/* cardbot — the ismcts strategy plugin (the default): information-set Monte Carlo tree search
 * over worlds consistent with the public record, heuristic play-outs, an exact endgame, and
 * bidding by Monte Carlo over sampled deals. Both games.
 *
 * Parameters (keys of a [strategy.NAME] group with plugin = ismcts):
 *   iterations = N     budget per decision in iterations, over all threads (default: PDK
 *                      20000, DDZ 1000). Same view, seed and thread count -> same answer.
 *                      Once the opponent model became level 6 itself (tree_exact), more
 *                      iterations paid in PDK against level 6 (seed 9, 3000 games, paired:
 *                      1000 -> 3000 +0.77 +- 0.71 points, -> 10000 +1.27 +- 0.87; seed 1,
 *                      10000 -> 20000: +0.48 +- 0.30 over 6000 games, 50.1% win share);
 *                      a PDK decision then takes p50 142 / p99 344 ms on one thread, 72 /
 *                      178 on two (bench_ismcts 300 1; 100 / 311 at 10000).
 *                      DDZ keeps 1000: its target is met there, more is not measured.
 *   time_ms = N        budget per decision in milliseconds instead (not reproducible). Give
 *                      iterations or time_ms, not both.
 *   threads = N        root-parallel search threads, 1..64 (default 1): each grows its own
 *                      tree; the root statistics are summed. The iterations are split over them.
 *   threshold = P      PDK 包庄: declare when the estimated P(go out first) >= P (default 0.70).
 *                      The estimate plays every seat as the heuristic, so it is cautious:
 *                      against level 6, hands declared at 0.70 went out first 86% of the
 *                      time, and 0.60 gave +1.4 points per game at the same win share
 *                      (notes/DESIGN-NOTES.md). Against stronger players the declared hands
 *                      would go out first less often (not measured); hence the default.
 *   bid1, bid2, bid3   DDZ 叫分: bid k when the estimated landlord win rate >= bid_k (defaults
 *                      0.50, 0.58, 0.66; non-decreasing) and k beats the highest bid so far.
 *   exploration = C    UCB exploration constant (default 0.7; rewards are win/loss 0..1).
 *   root = P           how the root's plays share the iterations: halving (default; sequential
 *                      halving over worlds shared by the plays, see search.h) or ucb (the
 *                      root is one more UCB node). Halving against ucb, PDK against two
 *                      level-6 seats, paired games: +0.99 +- 0.78 points of win share on
 *                      seed 9 (2111 games), -0.05 +- 0.41 on seed 1 (6000): +0.22 +- 0.37
 *                      pooled, at the same cost — at 10000 iterations the root had mostly
 *                      converged either way. Halving plans its rounds from the budget:
 *                      with time_ms the root is UCB's whatever this says, and a budget too
 *                      small to give every root play one world skips the rounds left.
 *   rollout = NAME     play-out policy: fast (default: the lean policy of plugin/common/
 *                      rollout.h, the shared heuristic's judgement at about half its cost),
 *                      heuristic (the shared heuristic itself, cb_hcfg_rollout) or random
 *                      (uniform legal plays: fastest, much weaker in the search).
 *   seed = N           extra seed mixed with each view's seed (default 0).
 *   bid_samples = N    deals sampled per bidding decision (default 200).
 *   width = N          root candidates: the heuristic's N best plays (plus the pass), 1..48
 *                      (default 12).
 *   tree_width = N     in-tree candidates at my own nodes (default 6).
 *   partner_width = N  ... at my partner's nodes (DDZ farmers, PDK against a 包庄; default 1)
 *   opponent_width = N ... at the other side's nodes (default 1). Width 1 makes a seat follow
 *                      the heuristic's choice in each world (plus the pass when it may pass):
 *                      an opponent model, measured stronger against level 6 than letting the
 *                      tree explore the other seats' plays at this budget; raise it to model
 *                      opponents that search.
 *   endgame = N        solve exactly when all hands together hold at most N cards (default: 14
 *                      PDK, 12 DDZ; leaves of the tree from N - 2); 0 turns the solver off.
 *   belief = E         inference (plugin/common/belief.h): the worlds come from a pool of
 *                      belief_worlds sampled worlds, each weighted E^k where k counts the other
 *                      seats' past choices that the opponent model (heuristic level 6) would
 *                      not have made in it; 1 turns inference off (a fresh uniform world per
 *                      iteration). Default 0.1 (notes/DESIGN-NOTES.md has the measurements).
 *   belief_fit = E     the weight per unexplained choice instead of `belief` when the pool
 *                      holds a world that explains every past choice: the other seats then
 *                      play like the model, so it is trusted more (default 0.01; set it to
 *                      `belief` to turn this off). Against level 6 the best world explains
 *                      everything in 98-100% of decisions; against level 4 (which deviates)
 *                      in 44% with 3-5 choices on record, 13% with 6-8, 2% past that.
 *   belief_worlds = N  the pool's size (default: PDK 3000, DDZ 300). A larger pool holds more
 *                      of the few worlds that explain a long record (PDK against level 6,
 *                      seed 7, 6000 games: 45.5% with 300 worlds, 46.2% with 3000; at 1000
 *                      iterations it was most of a PDK decision's time, p50 34 ms instead of
 *                      8). The pool stops at 25% of the host's budget. DDZ keeps
 *                      300: its target is met, larger pools there are not measured.
 *   belief_explained = N  when fewer than N worlds of the pool explain the record as well as
 *                      its best world, the pool grows to four times its size (its worlds are
 *                      kept: cb_belief_extend), once (default: PDK 100, DDZ 0 = never). Late
 *                      in a PDK deal few uniform worlds explain a long record; this gives the
 *                      search more of them where it matters, at 3x the pool's cost there
 *                      (seed 9, 3000 paired games: +0.47 +- 0.47 at 1000 iterations, +0.27
 *                      +- 0.47 at 3000). The explanation's "best=K" counts those worlds.
 *   belief_chains = N  0 (default): the pool is belief_worlds uniform worlds weighted as above;
 *                      N > 0: the pool is the path of N Metropolis walks whose worlds are
 *                      distributed by those weights (plugin/common/belief.h). Measured no
 *                      stronger than the default against level 6 (44.9% vs 45.2%, 1500 games).
 *   tree_exact = N     in-tree candidates: plays the heuristic scores with an exact min-hands
 *                      (default 48, level 6's own: the in-tree opponent model then chooses as
 *                      level 6 itself does, where 8 left it an approximation).
 *   rollout_exact = N  the same for the play-outs (default 48: the lean policy then plays as
 *                      level 6; its bound skips most exact counts, so it still makes 214k
 *                      PDK play-outs/s/core from mid-game, bench_ismcts, against 219k at 4).
 *                      Both at 48 against 8 / 4: +0.65 +- 0.58 points of PDK win share against
 *                      two level-6 seats (6000 paired games, seeds 9 and 10).
 *   opponents = M      PDK without 包庄: paranoid (default; the other two seats as one side,
 *                      see solve.h) or maxn (each seat for itself in the tree; leaves are then
 *                      never solved, the solver being two-sided).
 *
 * The view's budget_ms (when not 0) caps the belief pool's building at 25% of it (the pool keeps
 * the worlds it has by then) and every search at 60% of it, so a slow machine answers in time;
 * reproducibility holds as long as neither cap is reached.
 *
 * Explanations: "v" is the estimated win rate of the chosen play for my side, "n" its visits,
 * then iterations, worlds sampled, milliseconds and the root candidates; "kept=k/T": k of the
 * T threads' sequential halving kept the chosen play (the answer is the play most threads
 * kept, then the most visited; absent with the UCB root). ENDGAME: the exact
 * solver decided (wins in w of W sampled worlds); " BOMB" ends the text of a bomb or the rocket
 * (the decision's flags say the same, plus COUNTED). When no world consistent with the record can
 * be found, the answer is the heuristic's (level 6) and the explanation says so; forced plays and
 * a hand that goes out in one play are answered at once, also through the heuristic.
 */
#include <math.h>
#include <pthread.h>
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

static void *ism_create(const cb_param *params, int nparams, char *err, size_t errlen)
{
    is_params p;
    if (is_params_parse(params, nparams, &p, err, errlen) != 0)
        return NULL;
    ism *m = calloc(1, sizeof *m);
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

static void ism_destroy(void *inst)
{
    ism *m = inst;
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

int ism_threads(ism *m, int n)
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

static int ism_bid(void *inst, const cb_view *v, cb_decision *out)
{
    ism *m = inst;
    if (!m || !out || !cb_plug_view_ok(v) || v->phase != CB_PHASE_BID)
        return -1;
    cb_decision d;
    cb_plug_decision_init(&d);
    if (ism_decide_bid(m, v, &d) != 0)
        return -1;
    cb_plug_deliver(out, &d);
    return 0;
}

/* ---- play ---- */

static bool is_bomb(const cb_move *mv) { return mv->shape == CB_BOMB || mv->shape == CB_ROCKET; }

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

/* The public position as a deal; the other hands are filled per world. */
static void root_deal(const cb_view *v, const cb_worlds *w, const cb_situ *s, cb_deal *g)
{
    memset(g, 0, sizeof *g);
    g->rules = v->rules;
    g->hands[v->seat] = v->hand;
    for (int i = 0; i < v->nhistory; i++) {
        g->played |= v->history[i].cards;
        if (v->history[i].cards && v->history[i].seat >= 0 && v->history[i].seat < 3)
            g->plays[v->history[i].seat]++;
    }
    g->bottom = v->bottom;
    g->turn = v->seat;
    g->first_seat = v->first_seat;
    g->landlord = (v->landlord >= 0 && v->landlord < 3) ? v->landlord : -1;
    int high = 0;
    for (int i = 0; i < 3; i++)
        if (v->bids[i] > high)
            high = v->bids[i];
    g->bid = v->rules->game == CB_GAME_DDZ ? (high > 0 ? high : 1) : 0;
    g->table_seat = w->trick_seat;
    g->npass = w->trick_passes;
    if (w->trick_seat >= 0) {
        g->table = w->trick;
        g->table_cards = v->table;
    }
    g->first_play = w->nplays == 0;
    g->winner = -1;
    g->steps = v->nhistory;
    for (int i = 0; i < 3; i++)
        g->bombs[i] = v->bombs[i];
    g->voids = s->voids;
    g->hist = NULL;
}

/* ---- the belief pool, on the search threads ---- */

typedef struct fill_job {
    ism *m;
    is_thread *t;
    const cb_view *v;
    int first, stride, n;
    uint64_t seed;
    int rc;
} fill_job;

static void *fill_main(void *arg)
{
    fill_job *j = arg;
    ism *m = j->m;
    is_thread *t = j->t;
    j->rc = -1;
    if (!t->bs.ready && cb_belief_init(&t->bs) != 0)
        return NULL;
    t->bs.cut = false;
    t->worlds = m->worlds; /* its own copy (the sampler counts); the proofs are shared, read only */
    j->rc = cb_belief_fill(&m->belief, &t->bs, j->v, &t->worlds, j->first, j->stride, j->n,
                           m->p.belief, j->seed);
    return NULL;
}

/* Build m->belief's slots from..worlds-1: world i of the pool on thread i mod n (the pool does
 * not depend on n, see belief.h), or on one thread for walks. from = 0 builds a new pool; from
 * > 0 grows the finished pool of `from` slots (cb_belief_extend). Returns the pool's size, 0
 * or -1 when none. */
static int ism_belief(ism *m, const cb_view *v, int n, uint64_t seed, int from, int worlds)
{
    if (from == 0 && m->belief.chains > 0)
        return cb_belief_build(&m->belief, v, &m->worlds, worlds, m->p.belief, seed);
    if (from > 0 ? cb_belief_extend(&m->belief, v, from, worlds) != 0 : cb_belief_reserve(&m->belief, v, worlds) != 0)
        return -1;
    fill_job jobs[IS_MAX_THREADS];
    pthread_t tid[IS_MAX_THREADS];
    bool started[IS_MAX_THREADS];
    for (int i = 0; i < n; i++) {
        jobs[i] = (fill_job){.m = m, .t = m->th[i], .v = v, .first = from + i, .stride = n, .n = worlds, .seed = seed, .rc = -1};
        started[i] = i > 0 && pthread_create(&tid[i], NULL, fill_main, &jobs[i]) == 0;
    }
    fill_main(&jobs[0]);
    int rc = jobs[0].rc;
    for (int i = 1; i < n; i++) {
        if (started[i])
            pthread_join(tid[i], NULL);
        else
            fill_main(&jobs[i]); /* no thread: do its share here */
        if (jobs[i].rc != 0)
            rc = -1;
    }
    if (rc != 0)
        return -1;
    for (int i = 0; i < n; i++)
        if (m->th[i]->bs.cut)
            m->belief.cut = true;
    return cb_belief_finish(&m->belief, worlds, m->p.belief);
}

/* How many of the pool's worlds explain the record as well as its best one (0: no pool). */
static int best_explained(const cb_belief *b, int pooled)
{
    int k = 0;
    for (int i = 0; pooled > 0 && i < b->n; i++)
        k += b->mismatch[i] == b->min_mismatch;
    return k;
}

/* Answer with the heuristic's choice (fallback); `why` prefixes the explanation. */
static int answer_heuristic(ism *m, const cb_view *v, const cb_hchoice *ch, const char *why, cb_decision *out)
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

static int ism_play(void *inst, const cb_view *v, cb_decision *out)
{
    ism *m = inst;
    if (!m || !out || !cb_plug_view_ok(v) || v->phase != CB_PHASE_PLAY)
        return -1;
    uint64_t t0 = cb_now_ns();
    const cb_rules *r = v->rules;
    bool ddz = r->game == CB_GAME_DDZ;
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

    /* root candidates: the heuristic's best `width` plays by score, then the pass */
    int nc = ch.nexact;
    cb_hcand *c = m->ws.cands;
    for (int j = 0; j < nc; j++) { /* selection sort by score, best first */
        int b = j;
        for (int i = j + 1; i < nc; i++)
            if (c[i].score > c[b].score)
                b = i;
        cb_hcand tmp = c[b];
        c[b] = c[j];
        c[j] = tmp;
    }
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
    if (nroot == 0)
        return -1;

    if (!worlds_ok)
        return answer_heuristic(m, v, &ch, err, out);

    int threads = m->p.threads;
    if (ism_threads(m, threads) != 0)
        return answer_heuristic(m, v, &ch, "out of memory", out);

    is_setup S;
    memset(&S, 0, sizeof S);
    S.rules = r;
    S.me = v->seat;
    sides(v, S.side);
    bool two_sides = ddz || (v->landlord >= 0 && v->landlord < 3);
    for (int i = 0; i < 3; i++)
        S.team[i] = (m->p.opponents == IS_OPP_MAXN && !two_sides) ? (uint8_t)i : S.side[i];
    S.solve_leaves_ok = m->p.opponents != IS_OPP_MAXN || two_sides;
    root_deal(v, &m->worlds, &s, &S.root);
    S.worlds = &m->worlds;
    S.moves = m->moves;
    S.nmoves = nroot;
    S.iterations = m->p.iterations != IS_ITERATIONS_BY_GAME ? m->p.iterations
                   : ddz                                     ? IS_ITERATIONS_DDZ
                                                             : IS_ITERATIONS_PDK;
    S.time_ns = (uint64_t)m->p.time_ms * 1000000ull;
    if (v->budget_ms > 0) {
        uint64_t cap = (uint64_t)v->budget_ms * IS_SEARCH_NS_PER_BUDGET_MS;
        if (!S.time_ns || S.time_ns > cap)
            S.time_ns = cap;
    }
    S.threads = threads;
    S.exploration = m->p.exploration;
    S.root_policy = m->p.root;
    S.rollout = m->p.rollout;
    S.k_own = m->p.tree_width;
    S.k_partner = m->p.partner_width;
    S.k_opp = m->p.opponent_width;
    S.tree_exact = m->p.tree_exact;
    S.rollout_exact = m->p.rollout_exact;
    int endgame = m->p.endgame >= 0 ? m->p.endgame : (ddz ? IS_ENDGAME_DDZ : IS_ENDGAME_PDK);
    S.leaf_cards = endgame > 2 ? endgame - 2 : 0;
    S.leaf_limit = IS_LEAF_NODES;
    S.leaf_budget = IS_LEAF_BUDGET;
    S.seed = cb_rng_mix(v->seed, m->p.seed);

    int total = 0;
    for (int i = 0; i < 3; i++)
        total += v->cards_left[i];

    cb_decision d;
    cb_plug_decision_init(&d);
    const cb_move *chosen = NULL;
    double value = NAN;
    uint32_t flags = CB_DEC_COUNTED;

    /* the weighted pool for the endgame and the search (a failure to replay leaves the plain
     * sampler in charge) */
    m->belief.chains = m->p.belief_chains;
    /* the pool may take a quarter of the host's budget; the search then gets its 60% */
    m->belief.deadline_ns = v->budget_ms > 0 ? t0 + (uint64_t)v->budget_ms * IS_POOL_NS_PER_BUDGET_MS : 0;
    int worlds = m->p.belief_worlds > 0 ? m->p.belief_worlds : ddz ? IS_BELIEF_WORLDS_DDZ : IS_BELIEF_WORLDS_PDK;
    int explained_min = m->p.belief_explained >= 0 ? m->p.belief_explained : ddz ? 0 : IS_BELIEF_EXPLAINED_PDK;
    int pooled = m->p.belief < 1 ? ism_belief(m, v, threads, S.seed, 0, worlds) : 0;
    int explained = best_explained(&m->belief, pooled);
    if (pooled > 0 && m->belief.chains == 0 && m->belief.decisions > 0 && !m->belief.cut && explained < explained_min) {
        /* few worlds explain the record as well as the best: a pool four times as large (its
         * first worlds are the same ones, kept: only the new slots are filled) holds about
         * four times as many */
        pooled = ism_belief(m, v, threads, S.seed, worlds, 4 * worlds);
        explained = best_explained(&m->belief, pooled);
    }
    if (pooled > 0) {
        S.belief = &m->belief;
        /* the model fits: some world explains every past choice, so trust it more */
        double fit = m->p.belief_fit;
        if (m->belief.chains == 0 && m->belief.min_mismatch == 0 && m->belief.decisions > 0 && fit < m->p.belief)
            cb_belief_weigh(&m->belief, fit);
    }

    /* exact endgame: every legal play of mine in sampled worlds */
    if (endgame > 0 && total <= endgame && S.root.first_play == false) {
        cb_ctx ctx;
        cb_situ_ctx(&s, &ctx);
        int n = cb_legal_moves(r, &ctx, m->ws.moves, m->ws.cap);
        if (n > 0 && n <= m->ws.cap) {
            /* the root candidates first (heuristic order: the tie-break), then the rest */
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
            int got = ism_endgame(m, &S, buf, na, IS_ENDGAME_WORLDS, IS_ENDGAME_NODES, wins);
            if (got > 0) {
                int best = 0;
                for (int j = 1; j < na; j++)
                    if (wins[j] > wins[best])
                        best = j;
                if (wins[best] > 0) {
                    /* decided by the solver; keep the move in m->moves' storage */
                    m->moves[IS_ENDGAME_SLOT] = buf[best];
                    chosen = &m->moves[IS_ENDGAME_SLOT];
                    value = (double)wins[best] / got;
                    flags |= CB_DEC_ENDGAME;
                    d.simulations = (uint64_t)got;
                    d.nodes = m->th[0]->solver.total_nodes - nodes0;
                    snprintf(d.explain, sizeof d.explain, "ENDGAME exact: wins in %d of %d worlds, %d plays, %.1f ms",
                             wins[best], got, na, (double)(cb_now_ns() - t0) / 1e6);
                } else {
                    /* lost against best play in every world: search with play-outs, where
                     * opponents can still go wrong */
                    S.leaf_cards = 0;
                }
            }
        }
    }

    if (!chosen) {
        if (is_search(&S, m->th, threads, m->visits, m->wins, m->kept) != 0) {
            uint64_t tried = 0, failed = 0;
            for (int i = 0; i < threads; i++) {
                tried += m->th[i]->worlds.proposals;
                failed += m->th[i]->world_fail;
            }
            snprintf(err, sizeof err, "no consistent world (%llu proposals, %llu failures)", (unsigned long long)tried,
                     (unsigned long long)failed);
            return answer_heuristic(m, v, &ch, err, out);
        }
        /* the play most threads' halving kept, then the most visited, then the best mean (one
         * thread: the play its halving kept; the UCB root: the most visited) */
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
        chosen = &m->moves[best];
        value = m->visits[best] ? m->wins[best] / (double)m->visits[best] : NAN;
        uint64_t iters = 0, worlds = 0, nodes = 0, solved = 0;
        for (int i = 0; i < threads; i++) {
            iters += m->th[i]->iters;
            worlds += m->th[i]->worlds.samples - m->th[i]->world_fail;
            nodes += m->th[i]->tree_nodes;
            solved += m->th[i]->solved;
        }
        if (S.belief)
            worlds = (uint64_t)S.belief->n;
        d.simulations = iters;
        d.nodes = nodes;
        int len = snprintf(d.explain, sizeof d.explain, "ismcts v=%.2f n=%llu it=%llu worlds=%llu exact=%llu %.1fms cand=%d/%d",
                           value, (unsigned long long)m->visits[best], (unsigned long long)iters,
                           (unsigned long long)worlds, (unsigned long long)solved, (double)(cb_now_ns() - t0) / 1e6,
                           nroot, ch.nmoves);
        /* inference: the pool's effective size and the best world's unexplained choices */
        /* sequential halving: how many of the threads kept the chosen play */
        if (votes > 0 && len > 0 && (size_t)len < sizeof d.explain)
            len += snprintf(d.explain + len, sizeof d.explain - (size_t)len, " kept=%d/%d", m->kept[best], threads);
        if (S.belief && len > 0 && (size_t)len < sizeof d.explain)
            snprintf(d.explain + len, sizeof d.explain - (size_t)len, " ess=%.0f miss=%d/%d best=%d%s", S.belief->ess,
                     S.belief->min_mismatch, S.belief->decisions, explained, S.belief->cut ? " cut" : "");
    }
    if (chosen->shape != CB_PASS && cb_cards_pick(v->hand, chosen->counts, &d.cards) != 0)
        return -1;
    if (is_bomb(chosen)) {
        flags |= CB_DEC_BOMB;
        size_t len = strnlen(d.explain, sizeof d.explain);
        if (len + 6 < sizeof d.explain)
            memcpy(d.explain + len, " BOMB", 6);
    }
    d.flags = flags;
    d.value = (float)value;
    d.minhands_before = cb_hws_min_hands(&m->ws, r, s.hand);
    d.minhands_after = chosen->shape == CB_PASS ? d.minhands_before : cb_hws_min_hands(&m->ws, r, s.hand - chosen->counts);
    cb_plug_deliver(out, &d);
    return 0;
}

static const cb_bot ismcts_bot = {
    .abi_version = CB_ABI_VERSION,
    .struct_size = sizeof(cb_bot),
    .name = "ismcts",
    .version = "1.0",
    .create = ism_create,
    .destroy = ism_destroy,
    .decide_bid = ism_bid,
    .decide_play = ism_play,
};

CB_PLUG_EXPORT const cb_bot *cb_plugin_entry(void) { return &ismcts_bot; }

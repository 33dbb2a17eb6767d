/* cardbot ismcts — the information-set Monte Carlo tree search (see search.h). */
#include "search.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

int is_thread_init(is_thread *t)
{
    memset(t, 0, sizeof *t);
    t->cap_nodes = 4096;
    t->nodes = malloc((size_t)t->cap_nodes * sizeof *t->nodes);
    t->cap_cm = 4096;
    t->cm = malloc((size_t)t->cap_cm * sizeof *t->cm);
    t->rmoves = malloc((size_t)CB_MOVES_CAP * sizeof *t->rmoves);
    if (!t->nodes || !t->cm || !t->rmoves || cb_hws_init(&t->agent.ws) != 0 || cb_hws_init(&t->tree_ws) != 0 ||
        cb_rollout_init(&t->roll) != 0 || cb_rollout_init(&t->tree_lean) != 0 || rb_ws_init(&t->rws) != 0 ||
        is_solver_init(&t->solver, 15, 1 << 15) != 0) {
        is_thread_free(t);
        return -1;
    }
    /* the configurations of tree_cfg and agent are set by each search and each bid */
    t->ready = true;
    return 0;
}

void is_thread_free(is_thread *t)
{
    free(t->nodes);
    free(t->cm);
    free(t->oc);
    free(t->rmoves);
    cb_hws_free(&t->agent.ws);
    cb_rollout_free(&t->roll);
    cb_rollout_free(&t->tree_lean);
    cb_hws_free(&t->tree_ws);
    is_solver_free(&t->solver);
    cb_belief_free(&t->bs);
    rb_ws_free(&t->rws);
    memset(t, 0, sizeof *t);
}

/* ---- candidates ---- */

static bool same_move(const cb_move *a, const cb_move *b)
{
    return a->counts == b->counts && a->shape == b->shape && a->main == b->main && a->len == b->len;
}

int is_candidates(const cb_hcfg *cfg, cb_hws *ws, const cb_deal *g, int k, cb_move *out, int cap)
{
    cb_situ s;
    cb_situ_from_deal(g, &s);
    cb_hchoice ch;
    if (cb_heur_choose(cfg, &s, ws, NULL, &ch) != 0)
        return -1;
    if (ch.nmoves == -1) { /* the whole hand in one play: nothing else is worth a look */
        out[0] = ch.move;
        return 1;
    }
    if (ch.nmoves == 1) {
        out[0] = ws->moves[0];
        return 1;
    }
    /* the best k of the exactly scored candidates, best first */
    int n = ch.nexact;
    const cb_hcand *c = ws->cands;
    int got = cb_hcand_best_first(ws->cands, n, k < cap ? k : cap);
    for (int j = 0; j < got; j++)
        out[j] = ws->moves[c[j].idx];
    /* plus the pass when it is legal and not among them (search.h). The moves hold at most one
     * pass (core's generator), so looking past the best k finds it if it was left out. */
    for (int i = got; i < n && got < cap; i++)
        if (ws->moves[c[i].idx].shape == CB_PASS) {
            out[got++] = ws->moves[c[i].idx];
            break;
        }
    return got;
}

void is_tree_config(int tree_exact, cb_hcfg *cfg, cb_rollout *lean)
{
    cb_hcfg_rollout(cfg);
    cfg->exact_top = tree_exact > 0 ? tree_exact : 8;
    cfg->exact_all_upto = 10;
    lean->w[0] = cfg->w[0];
    lean->w[1] = cfg->w[1];
    lean->class_best = true; /* as pick_exact always keeps each class's best */
    lean->exact_top = cfg->exact_top;
    lean->exact_all_upto = cfg->exact_all_upto;
}

int is_lean_candidates(cb_rollout *ro, const cb_deal *g, cb_move *out)
{
    if (cb_rollout_choose(ro, g, &out[0]) != 0)
        return -1;
    if (ro->nmoves <= 1 || out[0].shape == CB_PASS || out[0].counts == cb_counts_of(g->hands[g->turn]))
        return 1;
    for (int i = 0; i < ro->nmoves; i++) /* the legal plays of that decision */
        if (ro->moves[i].shape == CB_PASS) {
            out[1] = ro->moves[i];
            return 2;
        }
    return 1;
}

/* The candidates of a seat that plays the rule agent: its choice, plus the pass when it is
 * legal (as is_candidates adds it to the heuristic's). Returns how many, or -1. */
static int rule_candidates(rb_ws *ws, const cb_deal *g, cb_move *out)
{
    cb_situ s;
    cb_situ_from_deal(g, &s);
    rb_choice rc;
    if (rb_choose(ws, &s, &rc) != 0)
        return -1;
    out[0] = rc.move;
    if (rc.nmoves <= 1 || rc.move.shape == CB_PASS)
        return 1;
    for (int i = 0; i < rc.nmoves; i++) /* rb_choose left the legal plays in ws->moves */
        if (ws->moves[i].shape == CB_PASS) {
            out[1] = ws->moves[i];
            return 2;
        }
    return 1;
}

/* ---- the tree ---- */

static int new_node(is_thread *t, int parent, const cb_move *m, int actor)
{
    if (t->nnodes == t->cap_nodes) {
        int cap = t->cap_nodes * 2;
        is_node *nn = realloc(t->nodes, (size_t)cap * sizeof *nn);
        if (!nn)
            return -1;
        t->nodes = nn;
        t->cap_nodes = cap;
    }
    int i = t->nnodes++;
    is_node *x = &t->nodes[i];
    memset(x, 0, sizeof *x);
    if (m)
        x->move = *m;
    x->parent = parent;
    x->child = -1;
    x->sibling = -1;
    x->cand_off = -1;
    x->actor = (int8_t)actor;
    if (parent >= 0) {
        /* append, so children keep the candidates' order (the expansion order) */
        int *link = &t->nodes[parent].child;
        while (*link >= 0)
            link = &t->nodes[*link].sibling;
        *link = i;
    }
    return i;
}

/* Room for n more candidates in t->cm; returns 0 or -1 (out of memory). */
static int cm_reserve(is_thread *t, int n)
{
    if (t->ncm + n > t->cap_cm) {
        int cap = t->cap_cm;
        while (t->ncm + n > cap)
            cap *= 2;
        cb_move *nc = realloc(t->cm, (size_t)cap * sizeof *nc);
        if (!nc)
            return -1;
        t->cm = nc;
        t->cap_cm = cap;
    }
    return 0;
}

static int cache_cands(is_thread *t, int node, const cb_move *c, int n)
{
    if (cm_reserve(t, n) != 0)
        return -1;
    memcpy(t->cm + t->ncm, c, (size_t)n * sizeof *c);
    t->nodes[node].cand_off = t->ncm;
    t->nodes[node].ncand = (uint8_t)n;
    t->ncm += n;
    return 0;
}

/* ---- the other seats' candidates, kept (is_setup.fresh_candidates) ---- */

typedef struct is_ocand {
    cb_counts hand, known; /* the seat's hand by ranks; the bottom cards not yet played */
    int32_t key;           /* node * 2 + model (1: the rule agent); -1: empty */
    int32_t off, n;        /* the candidates: t->cm[off .. off + n - 1] */
} is_ocand;

static unsigned oc_slot(const is_thread *t, int32_t key, cb_counts hand, cb_counts known)
{
    uint64_t h = (hand * CB_GOLDEN64) ^ ((uint64_t)(uint32_t)key * 0xC2B2AE3D27D4EB4Full) ^
                 (known * 0x165667B19E3779F9ull);
    return (unsigned)(h >> 32) & (unsigned)(t->cap_oc - 1);
}

/* The slot holding (key, hand, known), or the empty slot where it goes. */
static unsigned oc_find(const is_thread *t, int32_t key, cb_counts hand, cb_counts known)
{
    unsigned j = oc_slot(t, key, hand, known);
    while (t->oc[j].key >= 0 && !(t->oc[j].key == key && t->oc[j].hand == hand && t->oc[j].known == known))
        j = (j + 1) & (unsigned)(t->cap_oc - 1);
    return j;
}

/* An empty table of at least `cap` entries (a power of two); 0 or -1. */
static int oc_reset(is_thread *t, int cap)
{
    if (cap > t->cap_oc) {
        is_ocand *o = realloc(t->oc, (size_t)cap * sizeof *o);
        if (!o)
            return -1;
        t->oc = o;
        t->cap_oc = cap;
    }
    for (int i = 0; i < t->cap_oc; i++)
        t->oc[i].key = -1;
    t->noc = 0;
    return 0;
}

/* Twice the entries, the old ones put back; 0 or -1 (the table unchanged). */
static int oc_grow(is_thread *t)
{
    int cap = 2 * t->cap_oc;
    is_ocand *o = malloc((size_t)cap * sizeof *o), *old = t->oc;
    if (!o)
        return -1;
    for (int i = 0; i < cap; i++)
        o[i].key = -1;
    int oldcap = t->cap_oc;
    t->oc = o;
    t->cap_oc = cap;
    for (int i = 0; i < oldcap; i++) {
        if (old[i].key >= 0)
            t->oc[oc_find(t, old[i].key, old[i].hand, old[i].known)] = old[i];
    }
    free(old);
    return 0;
}

bool is_oc_may_grow(uint64_t start_ns, uint64_t now_ns, uint64_t deadline_ns)
{
    if (!deadline_ns)
        return true;
    if (now_ns >= deadline_ns)
        return false;
    uint64_t spent = now_ns > start_ns ? now_ns - start_ns : 0;
    return deadline_ns - now_ns >= spent / 2;
}

/* The model's candidates of the other seat to act in g, into t->cbuf; how many, or -1. */
static int model_cands(is_thread *t, const cb_deal *g, bool rule)
{
    const is_setup *S = t->S;
    int k = S->side[g->turn] ? S->k_partner : S->k_opp;
    if (rule)
        return rule_candidates(&t->rws, g, t->cbuf);
    return k == 1 ? is_lean_candidates(&t->tree_lean, g, t->cbuf) : is_candidates(&t->tree_cfg, &t->tree_ws, g, k, t->cbuf, 64);
}

/* The candidates of the other seat to act in g at `node` (the model of this iteration's world:
 * t->rule_seat), kept or computed; *cand points at them (valid until t->cm grows). Returns how
 * many, or -1. */
static int other_cands(is_thread *t, int node, const cb_deal *g, const cb_move **cand)
{
    int seat = g->turn;
    bool rule = t->rule_seat[seat];
    if (t->S->fresh_candidates || t->cap_oc == 0) {
        *cand = t->cbuf;
        return model_cands(t, g, rule);
    }
    int32_t key = node * 2 + rule;
    cb_counts hand = cb_counts_of(g->hands[seat]), known = g->bottom ? cb_counts_of(g->bottom & ~g->played) : 0;
    unsigned j = oc_find(t, key, hand, known);
    if (t->oc[j].key >= 0) {
        t->oc_hits++;
        *cand = t->cm + t->oc[j].off;
        return t->oc[j].n;
    }
    int nc = model_cands(t, g, rule);
    if (nc <= 0)
        return nc;
    if (2 * (t->noc + 1) > t->cap_oc) {
        /* full: double it, unless that is now too late (is_oc_may_grow) or past the bound */
        const is_setup *S = t->S;
        if ((S->kept_slots && 2 * (uint32_t)t->cap_oc > S->kept_slots) ||
            !is_oc_may_grow(t->start_ns, t->deadline_ns ? cb_now_ns() : 0, t->deadline_ns)) {
            *cand = t->cbuf; /* computed, not kept */
            return nc;
        }
        if (oc_grow(t) != 0)
            return -1;
        j = oc_find(t, key, hand, known);
    }
    if (cm_reserve(t, nc) != 0)
        return -1;
    t->oc[j] = (is_ocand){.hand = hand, .known = known, .key = key, .off = t->ncm, .n = nc};
    t->noc++;
    memcpy(t->cm + t->ncm, t->cbuf, (size_t)nc * sizeof *t->cbuf);
    t->ncm += nc;
    *cand = t->cm + t->oc[j].off;
    return nc;
}

static int total_cards(const cb_deal *g)
{
    return cb_cards_size(g->hands[0]) + cb_cards_size(g->hands[1]) + cb_cards_size(g->hands[2]);
}

static int random_policy(void *user, const cb_deal *g, cb_move *out)
{
    is_thread *t = user;
    cb_ctx ctx;
    cb_deal_ctx(g, &ctx);
    int n = cb_legal_moves(g->rules, &ctx, t->rmoves, CB_MOVES_CAP);
    if (n <= 0)
        return -1;
    if (n > CB_MOVES_CAP)
        n = CB_MOVES_CAP;
    /* the whole hand when it goes in one play (any sane player takes it) */
    cb_move whole;
    if (cb_play_legal(g->rules, &ctx, ctx.hand, &whole, NULL, 0)) {
        *out = whole;
        return 0;
    }
    *out = t->rmoves[cb_rng_below(&t->rng, (uint32_t)n)];
    return 0;
}

/* The winners' reward of a finished deal: 1, or under DDZ points (S->reward_cap > 0) what its
 * multiplier per unit of bid is worth (search.h). */
static float win_reward(const is_setup *S, const cb_deal *g)
{
    if (S->reward_cap <= 0)
        return 1.0f;
    int delta[3];
    int mult = cb_deal_points(g, delta);
    double m = g->bid > 0 && mult > 0 ? (double)mult / g->bid : 1.0;
    if (m > S->reward_cap)
        m = S->reward_cap;
    return (float)(0.5 + 0.5 * m / S->reward_cap);
}

/* Winner of g played out from here: exact when few cards are left, else a play-out; *reward:
 * the winners' reward (win_reward). -1 on failure. */
static int evaluate(is_thread *t, cb_deal *g, float *reward)
{
    const is_setup *S = t->S;
    *reward = 1.0f;
    if (g->winner >= 0) {
        *reward = win_reward(S, g);
        return g->winner;
    }
    if (S->solve_leaves_ok && S->leaf_cards > 0 && total_cards(g) <= S->leaf_cards &&
        t->leaf_nodes < S->leaf_budget) {
        is_pos p;
        is_pos_of_deal(g, NULL, &p);
        int v = is_solve(&t->solver, &p, S->leaf_limit);
        t->leaf_nodes += t->solver.nodes;
        if (v >= 0) {
            t->solved++;
            /* a seat of the winning side stands for the result; under points, the deal as if
             * that side went out now: the multiplier so far (bombs played, a spring if the
             * losers have not played), which the solver's line may still raise */
            for (int s = 0; s < 3; s++)
                if ((S->side[s] != 0) == (v == 1)) {
                    if (S->reward_cap > 0) {
                        cb_deal end = *g;
                        end.winner = s;
                        *reward = win_reward(S, &end);
                    }
                    return s;
                }
        }
    }
    t->playouts++;
    cb_deal_policy pol = cb_heur_deal_policy;
    void *user = &t->agent;
    if (S->rollout == IS_ROLLOUT_RANDOM) {
        pol = random_policy;
        user = t;
    } else if (S->rollout == IS_ROLLOUT_FAST) {
        /* rollout_exact applies to this policy as to the heuristic's (0: the default) */
        t->roll.exact_top = S->rollout_exact > 0 ? S->rollout_exact : CB_ROLLOUT_EXACT_TOP;
        pol = cb_rollout_deal_policy;
        user = &t->roll;
    }
    cb_deal_policy pols[3] = {pol, pol, pol};
    void *users[3] = {user, user, user};
    for (int s = 0; s < 3; s++)
        if (t->rule_seat[s]) {
            pols[s] = rb_deal_policy;
            users[s] = &t->rws;
        }
    g->hist = NULL;
    int w = cb_deal_run(g, pols, users, 600, NULL, 0);
    if (w < 0)
        return -1;
    *reward = win_reward(S, g);
    return w;
}

/* One iteration in the world `hands`, through root child `first` (an index into S->moves), or
 * the root's UCB choice when first < 0. Returns 0, or -1 on failure (out of memory, a policy
 * that failed). */
static int iterate(is_thread *t, const cb_cards hands[3], int first)
{
    const is_setup *S = t->S;
    cb_deal g = S->root;
    for (int s = 0; s < 3; s++)
        g.hands[s] = hands[s];
    int path[512];
    int depth = 0;
    int node = 0;
    path[depth++] = 0;
    bool expanded = false;
    while (g.winner < 0 && !expanded && depth < (int)(sizeof path / sizeof path[0])) {
        int seat = g.turn;
        const cb_move *cand;
        int nc;
        if (node == 0) {
            cand = S->moves;
            nc = S->nmoves;
        } else if (seat == S->me) {
            if (t->nodes[node].cand_off < 0) {
                nc = is_candidates(&t->tree_cfg, &t->tree_ws, &g, S->k_own, t->cbuf, 64);
                if (nc <= 0 || cache_cands(t, node, t->cbuf, nc) != 0)
                    return -1;
            }
            cand = t->cm + t->nodes[node].cand_off;
            nc = t->nodes[node].ncand;
        } else {
            nc = other_cands(t, node, &g, &cand);
            if (nc <= 0)
                return -1;
        }
        /* children matching the candidates; the first candidate without one is expanded */
        int match[64];
        int untried = -1;
        for (int i = 0; i < nc && i < 64; i++) {
            match[i] = -1;
            for (int c = t->nodes[node].child; c >= 0; c = t->nodes[c].sibling)
                if (same_move(&t->nodes[c].move, &cand[i])) {
                    match[i] = c;
                    break;
                }
            if (untried < 0 && (match[i] < 0 || t->nodes[match[i]].visits == 0))
                untried = i;
        }
        if (nc > 64)
            nc = 64;
        int next;
        if (node == 0 && first >= 0) {
            /* the root's children are nodes 1..nmoves, in the order of S->moves */
            next = 1 + first;
            t->nodes[next].avail++;
        } else if (untried >= 0) {
            next = match[untried];
            if (next < 0) {
                next = new_node(t, node, &cand[untried], seat);
                if (next < 0)
                    return -1;
            }
            expanded = true;
            /* an expansion still counts as the other candidates being available */
            for (int i = 0; i < nc; i++)
                if (match[i] >= 0)
                    t->nodes[match[i]].avail++;
            if (match[untried] < 0)
                t->nodes[next].avail++;
        } else {
            double best = -1e300;
            next = -1;
            for (int i = 0; i < nc; i++) {
                is_node *x = &t->nodes[match[i]];
                x->avail++;
                double v = x->wins / x->visits + S->exploration * sqrt(log((double)x->avail) / x->visits);
                if (v > best) {
                    best = v;
                    next = match[i];
                }
            }
        }
        cb_move m = t->nodes[next].move;
        if (cb_deal_step(&g, &m, NULL, 0) < 0)
            return -1;
        node = next;
        path[depth++] = node;
    }
    float won;
    int w = evaluate(t, &g, &won);
    if (w < 0)
        return -1;
    t->nodes[0].visits++;
    for (int i = 1; i < depth; i++) {
        is_node *x = &t->nodes[path[i]];
        x->visits++;
        x->wins += S->team[x->actor] == S->team[w] ? won : 1.0f - won;
    }
    return 0;
}

/* A fresh world from the sampler while it finds them easily. A record tight enough to make it
 * fail is expensive to sample (each failure runs every bounded restart and swap), so after the
 * first failure the iterations reuse the worlds found so far, and new ones are sought only until
 * POOL of them are kept or FAIL_LIMIT failures: the cost of a decision stays bounded. Returns 0
 * (hands filled), 1 (none this time) or -1 (no world found at all). `it` numbers the draw (it
 * picks the slot a fresh world replaces). */
enum { POOL = 32, FAIL_LIMIT = 4 };
static int fresh_world(is_thread *t, uint64_t it, cb_cards hands[3])
{
    bool fresh = t->fails == 0 || (t->npool < POOL && t->fails < FAIL_LIMIT);
    if (fresh && cb_worlds_sample(&t->worlds, &t->rng, hands, NULL) == 0) {
        if (t->npool < POOL) {
            memcpy(t->pool[t->npool], hands, sizeof t->pool[0]);
            t->npool++;
        } else {
            memcpy(t->pool[it % POOL], hands, sizeof t->pool[0]);
        }
        return 0;
    }
    if (fresh) {
        t->world_fail++;
        t->fails++;
    }
    if (t->npool == 0)
        return t->fails >= FAIL_LIMIT ? -1 : 1;
    memcpy(hands, t->pool[cb_rng_below(&t->rng, (uint32_t)t->npool)], sizeof t->pool[0]);
    return 0;
}

/* Worlds: from the belief pool when there is one, but for a share of fresh ones
 * (belief_uniform; 1 asks no random number, so the search is then that of inference = off);
 * else fresh ones (fresh_world). In a fresh world every other seat plays level 6, as without a
 * pool: the world has no record of its own, and the model the seat's whole record makes likelier
 * measured no better there (DESIGN-NOTES, belief_uniform). Returns 0 (hands filled), 1 (none
 * this time) or -1 (no world found at all: give up; the caller falls back). */
static int next_world(is_thread *t, uint64_t it, cb_cards hands[3])
{
    const is_setup *S = t->S;
    memset(t->rule_seat, 0, sizeof t->rule_seat);
    bool pool = S->belief && S->belief->n > 0;
    bool uniform = pool && (S->belief_uniform >= 1 || (S->belief_uniform > 0 && cb_rng_unit(&t->rng) < S->belief_uniform));
    if (uniform && fresh_world(t, it, hands) == 0)
        return 0;
    if (pool) { /* (also when the sampler found no fresh world) */
        int i = cb_belief_draw(S->belief, &t->rng, hands);
        /* each other seat's likelier model in this world (search.h, fitted_opponents) */
        if (S->fitted_opponents && S->belief->rule_model)
            for (int o = 0; o < 2; o++)
                t->rule_seat[(S->me + 1 + o) % 3] = cb_belief_rule_chance(S->belief, &S->belief->seat[i][o], o) > 0.5;
        return 0;
    }
    return fresh_world(t, it, hands);
}

/* Sequential halving at the root (Karnin, Koren & Somekh 2013; applied to MCTS roots by
 * Pepels, Cazenave, Winands & Lanctot 2014): the budget is split into ceil(log2 n) rounds; in
 * each, every surviving root child gets the same number of iterations and the worse half (by
 * mean reward so far) is dropped. Below the root the tree is the usual UCB tree. The children
 * of a round share their worlds — each world drawn is played through every survivor — so
 * their difference is measured on the same deals: how strong the sampled opponents' hands are
 * moves every child's reward alike and cancels out of the comparison (common random numbers).
 * The statistics end in the root's children as with UCB; t->kept is the survivor (each thread
 * halves on its own share: is_search counts the threads that kept each play).
 *
 * Early stop (S->stop_z > 0): a root that is decided need not spend the rest of the budget.
 * Within a round the paired differences are kept — per world, the reward each survivor got on
 * it — and once every S->stop_min worlds of the round the round's leader (most wins on the
 * round's worlds; ties to the earlier survivor) is tested against every other survivor j: with
 * d = r_leader - r_j over the round's m worlds, mean(d) - stop_z * sd(d) / sqrt(m) > 0 for
 * every j ends the search with the leader kept (t->stopped). Paired because the worlds are
 * shared: the deal's luck cancels out of d as it does out of the halving itself. Tested every
 * stop_min worlds rather than every world, because each look is a chance for noise to cross
 * the bar (optional stopping): fewer looks, fewer false stops. */
typedef struct stop_sums {
    uint32_t wins[IS_ROOT_MAX];             /* per survivor (by position in alive[]): rewards */
    uint32_t both[IS_ROOT_MAX][IS_ROOT_MAX]; /* i < j: worlds where both i and j won */
    uint32_t worlds;                        /* worlds of the round played through every survivor */
} stop_sums;

/* The survivor (position) that leads and beats every other, or -1. Rewards are 0 or 1, so the
 * sum of d^2 is the number of worlds where exactly one of the two won. */
static int stop_leader(const stop_sums *ss, int n, double z)
{
    int lead = 0;
    for (int i = 1; i < n; i++)
        if (ss->wins[i] > ss->wins[lead])
            lead = i;
    double m = ss->worlds;
    for (int j = 0; j < n; j++) {
        if (j == lead)
            continue;
        if (ss->wins[lead] <= ss->wins[j])
            return -1;
        double both = lead < j ? ss->both[lead][j] : ss->both[j][lead];
        double sum = (double)ss->wins[lead] - ss->wins[j];
        double sumsq = (double)ss->wins[lead] + ss->wins[j] - 2 * both;
        double mean = sum / m;
        double var = (sumsq - m * mean * mean) / (m - 1);
        if (var < 0) /* rounding: d was constant */
            var = 0;
        if (mean - z * sqrt(var / m) <= 0)
            return -1;
    }
    return lead;
}

static void halving(is_thread *t, uint64_t quota, uint64_t deadline)
{
    const is_setup *S = t->S;
    int alive[IS_ROOT_MAX];
    int n = S->nmoves < IS_ROOT_MAX ? S->nmoves : IS_ROOT_MAX;
    for (int i = 0; i < n; i++)
        alive[i] = i;
    int rounds = 0;
    for (int k = 1; k < n; k *= 2)
        rounds++;
    uint64_t it = 0, drawn = 0; /* iterations spent, worlds drawn */
    /* the early stop's sums: 16 KB, on the thread's stack only while the search runs */
    bool stop = S->stop_z > 0 && S->stop_min > 0;
    stop_sums ss;
    for (int r = 0; r < rounds && n > 1; r++) {
        /* this round's share of what is left, split over the survivors; a budget too small to
         * give each survivor a world ends the rounds (the best so far takes the rest) */
        uint64_t left = quota > it ? quota - it : 0;
        uint64_t per = left / (uint64_t)(rounds - r) / (uint64_t)n;
        if (per == 0)
            break;
        if (stop)
            memset(&ss, 0, sizeof ss);
        for (uint64_t w = 0; w < per; w++) {
            if (deadline && t->iters > 0 && cb_now_ns() >= deadline)
                goto out;
            cb_cards hands[3];
            int got = next_world(t, drawn++, hands);
            if (got < 0)
                goto out;
            if (got > 0)
                continue;
            int won[IS_ROOT_MAX], nwon = 0;
            for (int i = 0; i < n; i++) {
                /* the reward of this world is the change of the child's wins: 0 or 1 (exact
                 * while wins < 2^24, as the float statistics themselves are), or under DDZ
                 * points above 0.5 exactly when my side won — the test counts wins */
                float before = t->nodes[1 + alive[i]].wins;
                if (iterate(t, hands, alive[i]) != 0)
                    goto out;
                t->iters++;
                it++;
                if (t->nodes[1 + alive[i]].wins - before > 0.5f)
                    won[nwon++] = i;
            }
            if (!stop)
                continue;
            ss.worlds++;
            for (int a = 0; a < nwon; a++) {
                ss.wins[won[a]]++;
                for (int b = a + 1; b < nwon; b++) /* won[] is increasing */
                    ss.both[won[a]][won[b]]++;
            }
            if (ss.worlds % (uint32_t)S->stop_min == 0) {
                int lead = stop_leader(&ss, n, S->stop_z);
                if (lead >= 0) {
                    t->kept = alive[lead];
                    t->stopped = true;
                    return;
                }
            }
        }
        /* keep the better half by mean reward; ties to the heuristic's order (lower index) */
        for (int i = 1; i < n; i++) {
            int a = alive[i], j = i;
            const is_node *x = &t->nodes[1 + a];
            double va = x->visits ? x->wins / x->visits : 0;
            while (j > 0) {
                const is_node *y = &t->nodes[1 + alive[j - 1]];
                double vb = y->visits ? y->wins / y->visits : 0;
                if (vb > va || (vb == va && alive[j - 1] < a))
                    break;
                alive[j] = alive[j - 1];
                j--;
            }
            alive[j] = a;
        }
        n = (n + 1) / 2;
    }
    /* the last survivor takes what is left of the budget */
    t->kept = alive[0];
    while (it < quota) {
        if (deadline && t->iters > 0 && cb_now_ns() >= deadline) /* every iteration: see thread_main */
            return;
        cb_cards hands[3];
        int got = next_world(t, drawn++, hands);
        if (got < 0)
            return;
        it++;
        if (got > 0)
            continue;
        if (iterate(t, hands, alive[0]) != 0)
            return;
        t->iters++;
    }
    return;
out: /* cut short (deadline, no world, a failed iteration): no play was kept */
    t->kept = -1;
}

static void *thread_main(void *arg)
{
    is_thread *t = arg;
    const is_setup *S = t->S;
    t->start_ns = cb_now_ns();
    t->iters = t->playouts = t->solved = t->world_fail = t->leaf_nodes = 0;
    t->fails = t->npool = 0;
    t->nnodes = 0;
    t->ncm = 0;
    t->oc_hits = 0;
    if (!S->fresh_candidates && oc_reset(t, 1024) != 0)
        t->cap_oc = 0; /* out of memory: computed at every visit (other_cands) */
    t->worlds = *S->worlds;
    t->worlds.samples = t->worlds.proposals = t->worlds.swaps = t->worlds.rejects = t->worlds.failures = 0;
    t->worlds.checks = 0;
    /* set for every search (bidding shares the agent): nothing carries over between decisions.
     * Inside the tree the candidates matter more than in a play-out: more of them are scored
     * exactly (all of them, level 6's count, by default: tree_exact) */
    is_tree_config(S->tree_exact, &t->tree_cfg, &t->tree_lean);
    cb_hcfg_rollout(&t->agent.cfg);
    if (S->rollout_exact > 0)
        t->agent.cfg.exact_top = S->rollout_exact;
    cb_rng_seed(&t->rng, cb_rng_mix(S->seed, 0x1517ull + (uint64_t)t->index));
    cb_rng_seed(&t->agent.rng, cb_rng_mix(S->seed, 0xA6E7ull + (uint64_t)t->index));
    is_solver_reset(&t->solver, S->rules, S->side);
    new_node(t, -1, NULL, -1);
    for (int i = 0; i < S->nmoves; i++)
        new_node(t, 0, &S->moves[i], S->me);
    uint64_t quota = S->iterations;
    if (quota) {
        uint64_t per = quota / (uint64_t)S->threads, rem = quota % (uint64_t)S->threads;
        quota = per + ((uint64_t)t->index < rem ? 1 : 0);
    }
    uint64_t deadline = S->time_ns ? t->start_ns + S->time_ns : 0;
    if (S->deadline_ns && (!deadline || S->deadline_ns < deadline))
        deadline = S->deadline_ns;
    t->deadline_ns = deadline;
    /* halving plans its rounds from the budget, so it needs one in iterations: with time_ms
     * (quota 0) the root is UCB's */
    t->kept = -1;
    t->stopped = false;
    if (S->root_policy == IS_ROOT_HALVING && S->nmoves > 1 && quota > 0)
        halving(t, quota, deadline);
    else
        for (uint64_t it = 0; !quota || it < quota; it++) {
            /* every iteration: the clock costs ~20 ns, an iteration 10 us or more (a leaf solve
             * some ms), and time_ms is the decision's wall time; one iteration always runs, so
             * a search that starts late still answers */
            if (deadline && t->iters > 0 && cb_now_ns() >= deadline)
                break;
            cb_cards hands[3];
            int got = next_world(t, it, hands);
            if (got < 0)
                break;
            if (got > 0)
                continue;
            if (iterate(t, hands, -1) != 0)
                break;
            t->iters++;
        }
    t->tree_nodes = (uint64_t)t->nnodes;
    t->end_ns = cb_now_ns();
    return NULL;
}

int is_search(const is_setup *S, is_thread **ths, int n, uint64_t *visits, double *wins, int *kept)
{
    pthread_t tid[64];
    bool started[64];
    if (n > 64)
        n = 64;
    for (int i = 0; i < n; i++) {
        ths[i]->S = S;
        ths[i]->index = i;
        started[i] = false;
    }
    int rc = 0;
    for (int i = 1; i < n; i++) {
        if (pthread_create(&tid[i], NULL, thread_main, ths[i]) != 0) {
            rc = -1;
            break;
        }
        started[i] = true;
    }
    thread_main(ths[0]);
    for (int i = 1; i < n; i++)
        if (started[i])
            pthread_join(tid[i], NULL);
    if (rc != 0)
        return -1;
    for (int j = 0; j < S->nmoves; j++) {
        visits[j] = 0;
        wins[j] = 0;
        kept[j] = 0;
    }
    uint64_t iters = 0;
    for (int i = 0; i < n; i++) {
        is_thread *t = ths[i];
        iters += t->iters;
        /* the root's children are nodes 1..nmoves, in the order of S->moves */
        for (int j = 0; j < S->nmoves; j++) {
            visits[j] += t->nodes[1 + j].visits;
            wins[j] += t->nodes[1 + j].wins;
        }
        if (t->kept >= 0 && t->kept < S->nmoves)
            kept[t->kept]++;
    }
    return iters > 0 ? 0 : -1;
}

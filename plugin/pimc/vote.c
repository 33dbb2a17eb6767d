/* cardbot pimc — the vote over sampled worlds, and bidding by play-outs (see pimc.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/decision.h"
#include "pimc.h"

int pm_solve_cards(const pimc *m, const cb_rules *r)
{
    if (m->p.solve_cards >= 0)
        return m->p.solve_cards;
    return r->game == CB_GAME_DDZ ? 10 : 12;
}

uint64_t pm_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* ---- play-out policies ---- */

static int random_policy(void *user, const cb_deal *g, cb_move *out)
{
    pm_rand *pr = user;
    cb_ctx ctx;
    cb_deal_ctx(g, &ctx);
    int n = cb_legal_moves(g->rules, &ctx, pr->moves, pr->cap);
    if (n > pr->cap) {
        cb_move *m = realloc(pr->moves, (size_t)n * sizeof *m);
        if (!m)
            return -1;
        pr->moves = m;
        pr->cap = n;
        n = cb_legal_moves(g->rules, &ctx, pr->moves, pr->cap);
    }
    if (n <= 0)
        return -1;
    *out = pr->moves[cb_rng_below(&pr->rng, (uint32_t)n)];
    return 0;
}

static int policy_of(pimc *m, cb_deal_policy *pol, void **user)
{
    switch (m->p.rollout) {
    case PM_ROLL_FAST:
        if (!m->fast_ready) {
            if (cb_rollout_init(&m->fast) != 0)
                return -1;
            m->fast_ready = true;
        }
        *pol = cb_rollout_deal_policy;
        *user = &m->fast;
        return 0;
    case PM_ROLL_RANDOM:
        if (!m->rnd.moves) {
            m->rnd.cap = 256;
            if (!(m->rnd.moves = malloc((size_t)m->rnd.cap * sizeof *m->rnd.moves)))
                return -1;
        }
        *pol = random_policy;
        *user = &m->rnd;
        return 0;
    default:
        *pol = rb_deal_policy;
        *user = &m->rule;
        return 0;
    }
}

/* Play g out with one policy at every seat; the winner, or -1. */
static int play_out(pimc *m, cb_deal *g)
{
    cb_deal_policy pol;
    void *user;
    if (policy_of(m, &pol, &user) != 0)
        return -1;
    cb_deal_policy const pols[3] = {pol, pol, pol};
    void *const users[3] = {user, user, user};
    return cb_deal_run(g, pols, users, 600, NULL, 0);
}

/* ---- the public position as a deal (hands filled per world) ---- */

static void root_deal(const cb_view *v, const cb_worlds *w, const cb_situ *s, cb_deal *g)
{
    memset(g, 0, sizeof *g);
    g->rules = v->rules;
    for (int i = 0; i < v->nhistory; i++) {
        g->played |= v->history[i].cards;
        if (v->history[i].cards && v->history[i].seat >= 0 && v->history[i].seat < 3)
            g->plays[v->history[i].seat]++;
    }
    g->bottom = v->bottom;
    g->turn = v->seat;
    g->first_seat = v->first_seat;
    g->landlord = s->landlord;
    int high = 1;
    for (int i = 0; i < 3; i++)
        if (v->bids[i] > high)
            high = v->bids[i];
    g->bid = high;
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
    g->check = false; /* every action comes from cb_legal_moves */
    g->hist = NULL;
}

/* The two sides of the value (and of the solver): DDZ landlord against farmers, PDK 包庄
 * declarer against the rest, plain PDK me against both others (only the first out wins). */
static void sides(const cb_situ *s, uint8_t side[3])
{
    for (int i = 0; i < 3; i++)
        side[i] = s->landlord >= 0 ? (uint8_t)((i == s->landlord) == (s->seat == s->landlord)) : (uint8_t)(i == s->seat);
}

/* One candidate in one world: 1 win, 0 loss, minus a tie-break for the cards a PDK loser keeps
 * (points are paid per card, so among plays that lose everywhere the one that sheds most). */
static double evaluate(pimc *m, const cb_deal *root, const cb_move *cand, const uint8_t side[3], double eps,
                       pm_vote *out)
{
    cb_deal g = *root;
    int rc = cb_deal_step(&g, cand, NULL, 0);
    if (rc < 0)
        return -1e9; /* cannot happen for a legal candidate */
    if (rc == 0) {
        int total = cb_cards_size(g.hands[0] | g.hands[1] | g.hands[2]);
        if (total <= pm_solve_cards(m, g.rules) && m->solve_now) {
            is_pos p;
            memset(&p, 0, sizeof p);
            for (int i = 0; i < 3; i++)
                p.h[i] = cb_counts_of(g.hands[i]);
            p.turn = (int8_t)g.turn;
            p.tseat = (int8_t)g.table_seat;
            p.npass = (int8_t)g.npass;
            if (g.table_seat >= 0)
                p.table = g.table;
            int v = is_solve(&m->solver, &p, m->p.solve_nodes);
            out->nodes += m->solver.nodes;
            if (v >= 0) {
                out->solved++;
                /* an exact loss still pays its cards: the cards now are a lower bound */
                return v ? 1.0 : -eps * cb_cards_size(g.hands[root->turn]);
            }
        }
        out->playouts++;
        if (play_out(m, &g) < 0)
            return -1e9;
    } else {
        out->solved++; /* the candidate ends the deal: known exactly */
    }
    if (side[g.winner])
        return 1.0;
    return g.rules->game == CB_GAME_PDK ? -eps * cb_cards_size(g.hands[root->turn]) : 0.0;
}

int pm_run_vote(pimc *m, const cb_view *v, const cb_situ *s, int n, pm_vote *out)
{
    memset(out, 0, sizeof *out);
    uint64_t t0 = pm_now_ns();
    /* the vote stops at 70% of the host's budget; the rest covers the answer's way back */
    uint64_t limit = v->budget_ms ? (uint64_t)v->budget_ms * 700000ull : 0;
    if (cb_worlds_from_view(&m->worlds, v, NULL, 0) != 0)
        return -1;
    cb_deal root;
    root_deal(v, &m->worlds, s, &root);
    uint8_t side[3];
    sides(s, side);
    int total = 0;
    for (int i = 0; i < 3; i++)
        total += v->cards_left[i];
    int most = 0; /* the most cards a candidate sheds */
    for (int j = 0; j < n; j++)
        if (m->cands[j].ncards > most)
            most = m->cands[j].ncards;
    m->solve_now = pm_solve_cards(m, v->rules) > 0 && total - most <= pm_solve_cards(m, v->rules);
    if (m->solve_now) {
        if (!m->solver_ready) {
            if (is_solver_init(&m->solver, 15, 8192) != 0)
                return -1;
            m->solver_ready = true;
        }
        is_solver_reset(&m->solver, v->rules, side);
    }
    for (int j = 0; j < n; j++)
        m->score[j] = 0;
    /* a loser's cards may never outweigh one world's win, summed over every world */
    double eps = 0.5 / ((double)m->p.worlds * (v->rules->hand_size + v->rules->bottom + 1));
    cb_rng rng;
    cb_rng_seed(&rng, cb_rng_mix(v->seed, m->p.seed ^ 0x9E1Cull));
    cb_rng_seed(&m->rnd.rng, cb_rng_mix(v->seed, m->p.seed ^ 0x7A11Dull));
    for (int k = 0; k < m->p.worlds; k++) {
        cb_cards hands[3];
        if (cb_worlds_sample(&m->worlds, &rng, hands, NULL) != 0) {
            out->no_world = out->worlds == 0;
            break;
        }
        for (int i = 0; i < 3; i++)
            root.hands[i] = hands[i];
        for (int j = 0; j < n; j++)
            m->score[j] += evaluate(m, &root, &m->cands[j], side, eps, out);
        out->worlds++;
        if (limit && k + 1 < m->p.worlds && pm_now_ns() - t0 > limit) {
            out->cut = true;
            break;
        }
    }
    out->best = 0;
    for (int j = 1; j < n; j++)
        if (m->score[j] > m->score[out->best])
            out->best = j;
    return 0;
}

/* ---- bidding ---- */

int pm_decide_bid(pimc *m, const cb_view *v, cb_decision *d)
{
    const cb_rules *r = v->rules;
    int me = v->seat;
    bool taken = false;
    for (int s = 0; s < 3; s++)
        if (s != me && v->bids[s] == 1)
            taken = true;
    if (r->game == CB_GAME_PDK && (!r->bao || taken)) {
        d->bid = 0;
        snprintf(d->explain, sizeof d->explain, "pimc: %s", r->bao ? "包庄 already declared" : "no 包庄 in these rules");
        return 0;
    }
    if (cb_worlds_from_view(&m->worlds, v, NULL, 0) != 0)
        return -1;
    uint64_t t0 = pm_now_ns();
    uint64_t limit = v->budget_ms ? (uint64_t)v->budget_ms * 700000ull : 0;
    cb_rng rng;
    cb_rng_seed(&rng, cb_rng_mix(v->seed, m->p.seed ^ 0xB1Dull));
    cb_rng_seed(&m->rnd.rng, cb_rng_mix(v->seed, m->p.seed ^ 0xB1D2ull));
    int wins = 0, n = 0;
    for (int k = 0; k < m->p.bid_worlds; k++) {
        cb_cards hands[3], bottom = 0;
        if (cb_worlds_sample(&m->worlds, &rng, hands, &bottom) != 0)
            break;
        cb_deal g;
        memset(&g, 0, sizeof g);
        if (r->game == CB_GAME_DDZ) {
            /* as if I were the landlord at bid 1: the bottom joins my hand and I lead */
            hands[me] |= bottom;
            cb_deal_init(&g, r, hands, -1, me, 1, bottom);
        } else {
            cb_deal_init(&g, r, hands, -1, -1, 1, 0);
        }
        int w = play_out(m, &g);
        if (w < 0)
            return -1;
        wins += w == me;
        n++;
        if (limit && pm_now_ns() - t0 > limit)
            break;
    }
    double p = n ? (double)wins / n : 0.0;
    d->value = (float)p;
    d->simulations = (uint64_t)n;
    if (r->game == CB_GAME_DDZ) {
        /* landlord win rate as a bid: the stake grows with the bid, so it asks for more */
        int want = p >= 0.70 ? 3 : p >= 0.60 ? 2 : p >= 0.50 ? 1 : 0;
        d->bid = cb_plug_ddz_bid(v, want);
        snprintf(d->explain, sizeof d->explain, "pimc: landlord won %d of %d play-outs: want %d, bid %d", wins, n,
                 want, d->bid);
    } else {
        d->bid = n > 0 && p >= m->p.threshold ? 1 : 0;
        snprintf(d->explain, sizeof d->explain, "pimc: out first in %d of %d play-outs: %s", wins, n,
                 d->bid ? "包庄" : "no 包庄");
    }
    return 0;
}

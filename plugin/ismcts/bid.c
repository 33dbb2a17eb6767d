/* cardbot ismcts — bidding by double-dummy Monte Carlo over sampled deals.
 *
 * My hand is fixed; the other hands (DDZ: and the bottom) are sampled consistently with what is
 * public (plugin/common/worlds.c: PDK's spade 3 is with the first seat). Each deal is played
 * out by the shared heuristic rollout policy for every seat, with me in the role the bid would
 * give me (DDZ landlord taking the bottom and leading; PDK 包庄 declarer, the others playing as
 * a team against me), and the estimate is the share of deals my side wins:
 *   PDK 包庄: declare when P(go out first) >= threshold (and nobody declared before me);
 *   DDZ 叫分: the highest k with P(landlord wins) >= bid_k, bid only above the current high.
 * The rollout policy is weaker than the search that then plays the hand, so the estimate is on
 * the cautious side; the thresholds are parameters.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ismcts.h"
#include "../common/decision.h"

int is_decide_bid(is_inst *m, const cb_view *v, cb_decision *d)
{
    uint64_t start = cb_now_ns();
    const cb_rules *r = v->rules;
    bool ddz = r->game == CB_GAME_DDZ;
    int high = cb_view_high_bid(v);
    bool taken = false; /* 包庄 declared by another seat */
    for (int s = 0; s < 3; s++)
        if (s != v->seat && v->bids[s] == 1)
            taken = true;
    if (!ddz) {
        if (!r->bao) {
            d->bid = 0;
            snprintf(d->explain, sizeof d->explain, "包庄 is off");
            return 0;
        }
        if (taken) {
            d->bid = 0;
            snprintf(d->explain, sizeof d->explain, "包庄 already declared");
            return 0;
        }
    } else if (high >= 3 && !r->rob) {
        d->bid = 0;
        snprintf(d->explain, sizeof d->explain, "bid 3 already made");
        return 0;
    }
    if (is_threads_ready(m, 1) != 0)
        return -1;
    is_thread *t = m->th[0];
    char err[120];
    if (cb_worlds_from_view(&m->worlds, v, err, sizeof err) != 0)
        return -1;
    cb_rng rng;
    cb_rng_seed(&rng, cb_rng_mix(v->seed, m->p.seed ^ 0xB1DB1Dull));
    cb_rng_seed(&t->agent.rng, cb_rng_mix(v->seed, m->p.seed ^ 0xB1DA6Eull));
    /* the play-outs' configuration, set here: the agent is shared with the search, and an
     * answer must not depend on what the instance decided before */
    cb_hcfg_rollout(&t->agent.cfg);
    if (m->p.rollout_exact > 0)
        t->agent.cfg.exact_top = m->p.rollout_exact;
    cb_deal_policy pol = cb_heur_deal_policy;
    cb_deal_policy pols[3] = {pol, pol, pol};
    void *users[3] = {&t->agent, &t->agent, &t->agent};
    /* the deals stop where a search would (time_ms's 90%, budget_ms's 60%; at least one) */
    is_limits L;
    is_limits_of(m->p.time_ms, v->budget_ms, start, &L);
    uint64_t deadline = L.search_deadline;
    if (L.search_ns && (!deadline || start + L.search_ns < deadline))
        deadline = start + L.search_ns;
    int n = 0, wins = 0;
    uint64_t t0 = cb_now_ns();
    for (int i = 0; i < m->p.bid_samples; i++) {
        if (deadline && n > 0 && cb_now_ns() >= deadline)
            break;
        cb_cards hands[3], bottom = 0;
        if (cb_worlds_sample(&m->worlds, &rng, hands, &bottom) != 0)
            continue;
        cb_deal g;
        memset(&g, 0, sizeof g);
        if (ddz) {
            hands[v->seat] |= bottom;
            cb_deal_init(&g, r, hands, v->seat, v->seat, 1, bottom);
        } else {
            cb_deal_init(&g, r, hands, v->first_seat >= 0 && v->first_seat < 3 ? v->first_seat : -1, v->seat, 0, 0);
        }
        int w = cb_deal_run(&g, pols, users, 600, NULL, 0);
        if (w < 0)
            continue;
        n++;
        if (w == v->seat)
            wins++;
    }
    double ms = (double)(cb_now_ns() - t0) / 1e6;
    if (n == 0)
        return -1; /* nothing sampled: the shim's fallback bids */
    double p = (double)wins / n;
    d->value = (float)p;
    d->simulations = (uint64_t)n;
    if (ddz) {
        int want = 0;
        for (int k = 1; k <= 3; k++)
            if (p >= m->p.bid[k - 1])
                want = k;
        d->bid = cb_plug_ddz_bid(v, want);
        if (d->bid)
            snprintf(d->explain, sizeof d->explain, "P(landlord wins) %.2f over %d deals, %.0f ms: bid %d (high %d)", p, n,
                     ms, d->bid, high);
        else
            snprintf(d->explain, sizeof d->explain, "P(landlord wins) %.2f over %d deals, %.0f ms: pass (worth %d, high %d)",
                     p, n, ms, want, high);
    } else {
        d->bid = p >= m->p.threshold ? 1 : 0;
        snprintf(d->explain, sizeof d->explain, "P(out first as 包庄) %.2f over %d deals, %.0f ms, threshold %.2f: %s", p,
                 n, ms, m->p.threshold, d->bid ? "包庄" : "no");
    }
    return 0;
}

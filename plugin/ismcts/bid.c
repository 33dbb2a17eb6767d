/* cardbot ismcts — bidding by double-dummy Monte Carlo over sampled deals.
 *
 * My hand is fixed; the other hands (DDZ: and the bottom) are sampled consistently with what is
 * public (plugin/common/worlds.c: PDK's spade 3 is with the first seat). Each deal is played
 * out by the shared heuristic rollout policy for every seat, with me in the role the bid would
 * give me (DDZ landlord taking the bottom and leading; PDK 包庄 declarer, the others playing as
 * a team against me).
 *
 * PDK 包庄: declare when P(go out first) >= threshold (and nobody declared before me). 包庄's
 * stake is fixed (bao_points either way), so the win rate is the whole question.
 *
 * DDZ, bid_by = points (the default; notes/DESIGN-NOTES.md, "bid_by"): each answer I may give
 * is priced in points, from the same deals. A deal's result is what the engine settles
 * (cb_deal_points: bombs and the rocket double, spring / anti-spring double) at stake 1; the
 * stake only multiplies it (cb_ddz_settle: stake x 2^bombs x spring), so at stake k a deal is
 * worth k times that. What my answer leads to is not mine alone: the seats still to bid answer
 * too, so for every deal the rest of the bidding is played out with the other seats bidding as
 * the heuristic's level 6 does on their sampled hands (cb_ddz_bid_want: its strength rule,
 * deterministic at level 6 — a model of the others, exact for the heuristic and a guess for
 * anyone else). The bidding then ends in
 *   - me as landlord at stake s: s x my result in the deal played out with me as landlord;
 *   - another seat as landlord at stake s: s x my (farmer's) result in the deal played out with
 *     that seat as landlord, the bottom in its hand;
 *   - everybody passing: a redeal, worth 0: the deals are valued with every seat playing the
 *     same rollout policy, under which a fresh deal is even on average (the edge my own play
 *     may have over these opponents is in none of the values, so it is left out of this one
 *     too).
 * The answer with the best mean over the deals is given, a bid only when it beats passing by
 * more than the standard error of their paired difference (a tie: the lower answer).
 * So a pass is worth what the seat that then takes the deal loses or wins against me, not 0,
 * and a low bid is priced with the chance that a later seat outbids it. 叫分 answers are the
 * scores above the high bid; 叫/抢地主 (rules->rob) answers are call (1) or rob (2) and pass,
 * the stake 2^robs: a call is priced twice, once with me robbing back if somebody robs after
 * it and once without, and takes the better (the rob-back is a later decision of mine, made
 * then with its own view; this only says what calling is worth). The seats' earlier bids say
 * something of their hands: a sampled deal is kept only when the model, on that deal's hands,
 * answers as they did (a 2 before me is a strong hand: priced as a random one, passing to it
 * looks far better than it is). At most BID_DRAWS draws per deal wanted; when fewer than a
 * quarter of the deals wanted fit, the model does not explain those bids (or prices too few
 * deals) and the deals are drawn again without the condition.
 *
 * DDZ, bid_by = winrate (the former rule): the highest k with P(landlord wins) >= bid_k, bid
 * only above the current high (rob: call at k >= 1, rob at k >= 2).
 *
 * The rollout policy is weaker than the search that then plays the hand, so the estimates are
 * on the cautious side.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ismcts.h"
#include "../common/decision.h"

/* DDZ answers priced per deal: up to 4 (pass and 叫分's 1..3), each with my rob-back or not. */
#define BID_OPTS 4
/* Points: sampled deals drawn per deal kept at most (some 20 us a draw). A deal is kept when
 * the other seats' bids so far are what the model would have bid on their sampled hands; a 2
 * before a hand that holds the top cards itself keeps about 1 draw in 600. */
#define BID_DRAWS 50

/* 叫分: the landlord and stake after my answer `mine`, the seats still to bid answering
 * want[s] when it tops the high bid (cb_plug_ddz_bid's rule); -1 when all pass (a redeal). */
static int score_outcome(const cb_view *v, const int want[3], int mine, int *stake)
{
    int me = v->seat, high = 0, hs = -1;
    for (int s = 0; s < 3; s++)
        if (s != me && v->bids[s] > high) {
            high = v->bids[s];
            hs = s;
        }
    if (mine > high) {
        high = mine;
        hs = me;
    }
    /* the later seats: one round, so the seats after me that have not bid yet */
    for (int i = 1; i <= 2 && high < 3; i++) {
        int s = (me + i) % 3;
        if (v->bids[s] < 0 && want[s] > high) {
            high = want[s];
            hs = s;
        }
    }
    *stake = high;
    return hs;
}

/* 叫/抢地主: the same, the stake 2^robs. back: my rob-back (0 or 2) when I called and someone
 * robbed; the other seats call at want >= 1, rob and rob back at want >= 2 (cb_plug_ddz_bid). */
static int rob_outcome(const cb_view *v, const int want[3], int mine, int back, int *stake)
{
    int me = v->seat, a = (me + 1) % 3, b = (me + 2) % 3;
    if (v->bids[a] >= 0 && v->bids[b] >= 0 && v->bids[me] >= 0) {
        /* my rob-back: I called, and the robbers came after me, me + 2 the later */
        int robs = (v->bids[a] == 2) + (v->bids[b] == 2) + (mine == 2);
        *stake = 1 << robs;
        return mine == 2 ? me : v->bids[b] == 2 ? b : a;
    }
    /* the first round in turn order: the seats that bid before me (oldest first: a seat that
     * bid before me comes after me in seat order), me, then the rest */
    int order[3], acts[3], n = 0;
    for (int i = 1; i <= 2; i++) {
        int s = (me + i) % 3;
        if (v->bids[s] >= 0) {
            order[n] = s;
            acts[n++] = v->bids[s];
        }
    }
    order[n] = me;
    acts[n++] = mine;
    for (int i = 1; i <= 2; i++) {
        int s = (me + i) % 3;
        if (v->bids[s] < 0) {
            order[n] = s;
            acts[n++] = -1; /* answered below, once the caller is known */
        }
    }
    int caller = -1, robs = 0, last = -1;
    for (int i = 0; i < n; i++) {
        int x = acts[i];
        if (x < 0)
            x = caller < 0 ? (want[order[i]] >= 1 ? 1 : 0) : (want[order[i]] >= 2 ? 2 : 0);
        if (x == 1 && caller < 0)
            caller = order[i];
        robs += x == 2;
        if (x > 0)
            last = order[i];
    }
    if (caller < 0)
        return -1;
    if (robs > 0 && (caller == me ? back == 2 : want[caller] >= 2)) {
        robs++;
        last = caller;
    }
    *stake = 1 << robs;
    return last;
}

/* Would the other seats, bidding by want[] (the model above), have answered what they did?
 * Their records replayed in turn order; mine is taken as it stands. */
static bool bids_fit(const cb_view *v, const int want[3])
{
    int me = v->seat, order[3], n = 0;
    bool rob_back = v->rules->rob && v->bids[0] >= 0 && v->bids[1] >= 0 && v->bids[2] >= 0;
    if (rob_back) {
        /* my rob-back: the whole first round, from the first bidder (me when not given) */
        int fb = v->first_bidder >= 0 && v->first_bidder < 3 ? v->first_bidder : me;
        for (int i = 0; i < 3; i++)
            order[n++] = (fb + i) % 3;
    } else {
        /* the seats that answered before me, oldest first (as in rob_outcome) */
        for (int i = 1; i <= 2; i++)
            if (v->bids[(me + i) % 3] >= 0)
                order[n++] = (me + i) % 3;
    }
    int high = 0;
    bool called = false;
    for (int i = 0; i < n; i++) {
        int s = order[i], b = v->bids[s];
        if (s != me) {
            int model = v->rules->rob ? (!called ? (want[s] >= 1) : (want[s] >= 2 ? 2 : 0))
                                      : (want[s] > high ? want[s] : 0);
            if (model != b)
                return false;
        }
        called |= b > 0;
        if (b > high)
            high = b;
    }
    return true;
}

/* One play-out of the deal with `landlord` holding the bottom at stake 1: the winner (or < 0
 * when the policy failed) and my points as the engine settles them. */
static int play_out(const cb_rules *r, const cb_cards hands[3], cb_cards bottom, int landlord, int me,
                    cb_deal_policy const pols[3], void *const users[3], double *pts)
{
    cb_cards h[3] = {hands[0], hands[1], hands[2]};
    h[landlord] |= bottom;
    cb_deal g;
    memset(&g, 0, sizeof g);
    cb_deal_init(&g, r, h, landlord, landlord, 1, bottom);
    int w = cb_deal_run(&g, pols, users, 600, NULL, 0);
    if (w < 0)
        return w;
    int delta[3];
    cb_deal_points(&g, delta);
    *pts = delta[me];
    return w;
}

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
    bool points = ddz && m->p.bid_by == IS_BID_POINTS;
    /* my answers (pass first): the legal ones, as cb_plug_ddz_bid gives them */
    int opt[BID_OPTS], nopt = 0;
    opt[nopt++] = 0;
    for (int k = 1; ddz && k <= 3; k++) {
        int b = cb_plug_ddz_bid(v, k);
        bool seen = false;
        for (int i = 0; i < nopt; i++)
            seen |= opt[i] == b;
        if (!seen)
            opt[nopt++] = b;
    }
    /* sum[i][j]: answer opt[i] with my rob-back (j = 1) or without, over the deals */
    double sum[BID_OPTS][2] = {{0}}, sq[BID_OPTS][2] = {{0}}, mine_sum = 0; /* sq: (answer - pass)^2 */
    int n = 0, wins = 0;
    uint64_t t0 = cb_now_ns();
    /* points: draws up to BID_DRAWS per deal wanted, as the bids so far reject some; when
     * fewer than a quarter of the deals wanted are kept, the model explains the bids poorly
     * (or the deals that fit are too few to price anything): they start again unconditioned,
     * another round of as many draws */
    int draws = points ? BID_DRAWS * m->p.bid_samples : m->p.bid_samples, drawn = 0;
    bool fit = points;
    for (; n < m->p.bid_samples; drawn++) {
        if (drawn == draws) {
            if (!fit || 4 * n >= m->p.bid_samples)
                break;
            fit = false;
            drawn = n = wins = 0;
            mine_sum = 0;
            memset(sum, 0, sizeof sum);
            memset(sq, 0, sizeof sq);
        }
        if (deadline && cb_now_ns() >= deadline) {
            if (n > 0)
                break;
            /* out of time with nothing kept: the next deal drawn is priced as it is */
            fit = false;
        }
        cb_cards hands[3], bottom = 0;
        if (cb_worlds_sample(&m->worlds, &rng, hands, &bottom) != 0)
            continue;
        if (!ddz) {
            cb_deal g;
            memset(&g, 0, sizeof g);
            cb_deal_init(&g, r, hands, v->first_seat >= 0 && v->first_seat < 3 ? v->first_seat : -1, v->seat, 0, 0);
            int w = cb_deal_run(&g, pols, users, 600, NULL, 0);
            if (w < 0)
                continue;
            n++;
            wins += w == v->seat;
            continue;
        }
        /* the other seats' bids are read off their sampled 17 cards, before the bottom goes
         * anywhere: that is what they bid on */
        int want[3] = {0, 0, 0};
        for (int later = 0; points && later < 2; later++) {
            /* the seats that bid already first: a deal they reject costs no more */
            if (later && fit && !bids_fit(v, want))
                break;
            for (int s = 0; s < 3; s++)
                if (s != v->seat && (v->bids[s] < 0) == later) {
                    cb_hand_strength st;
                    cb_hand_strength_of(r, hands[s], &m->ws, &st);
                    want[s] = cb_ddz_bid_want(st.score, 0);
                }
        }
        if (fit && !bids_fit(v, want))
            continue;
        double pts[3] = {0, 0, 0};
        bool have[3] = {false, false, false}, ok = true;
        int w = play_out(r, hands, bottom, v->seat, v->seat, pols, users, &pts[v->seat]);
        if (w < 0)
            continue;
        have[v->seat] = true;
        double val[BID_OPTS][2] = {{0}};
        for (int o = 0; points && o < nopt && ok; o++)
            for (int back = 0; back < 2 && ok; back++) {
                int stake = 0;
                int ll = r->rob ? rob_outcome(v, want, opt[o], back ? 2 : 0, &stake)
                                : score_outcome(v, want, opt[o], &stake);
                if (ll < 0)
                    continue; /* all pass: a redeal, worth 0 */
                if (!have[ll]) {
                    ok = play_out(r, hands, bottom, ll, v->seat, pols, users, &pts[ll]) >= 0;
                    have[ll] = true;
                }
                val[o][back] = stake * pts[ll];
            }
        if (!ok)
            continue;
        n++;
        wins += w == v->seat;
        mine_sum += pts[v->seat];
        for (int o = 0; o < nopt; o++)
            for (int back = 0; back < 2; back++) {
                sum[o][back] += val[o][back];
                sq[o][back] += (val[o][back] - val[0][0]) * (val[o][back] - val[0][0]);
            }
    }
    double ms = (double)(cb_now_ns() - t0) / 1e6;
    if (n == 0)
        return -1; /* nothing sampled: the shim's fallback bids */
    double p = (double)wins / n;
    d->value = (float)p;
    d->simulations = (uint64_t)n;
    if (points) {
        /* the best answer by its mean; a call keeps the better of its two rob-back plans */
        int best = 0, plan = 0;
        double bestv = -INFINITY, mean[BID_OPTS];
        for (int o = 0; o < nopt; o++) {
            int j = r->rob && opt[o] == 1 && sum[o][1] > sum[o][0];
            mean[o] = sum[o][j] / n;
            if (mean[o] > bestv) {
                bestv = mean[o];
                best = o;
                plan = j;
            }
        }
        /* A bid must beat passing by more than the standard error of the difference (paired
         * over the same deals): an answer barely ahead of passing is ahead by the deals drawn,
         * and taking the deal is the answer whose mistakes cost stakes. */
        double gain = bestv - mean[0], var = sq[best][plan] / n - gain * gain;
        if (best > 0 && gain <= sqrt((var > 0 ? var : 0) / n))
            best = 0;
        d->bid = opt[best];
        /* the choice, then each answer's mean (0 pass; rob 1 call, 2 rob); what does not fit
         * the explanation's room is cut */
        size_t len = (size_t)snprintf(d->explain, sizeof d->explain, "landlord %+.2f/stake P %.2f, %d deals %.0f ms: %s %d;",
                                      mine_sum / n, p, n, ms, d->bid ? "bid" : "pass", d->bid);
        for (int o = 0; o < nopt && len < sizeof d->explain; o++)
            len += (size_t)snprintf(d->explain + len, sizeof d->explain - len, " %d:%+.2f", opt[o], mean[o]);
    } else if (ddz) {
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

/* cardbot plugins — belief: worlds weighted by the other seats' past choices (see belief.h). */
#include "belief.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cardbot/game.h"
#include "rule.h"
#include "situ.h"

int cb_belief_init(cb_belief *b)
{
    memset(b, 0, sizeof *b);
    cb_hcfg_level(&b->model, 6);
    b->model.explain = false;
    if (cb_hws_init(&b->ws) != 0)
        return -1;
    b->ready = true;
    return 0;
}

void cb_belief_free(cb_belief *b)
{
    cb_belief_release(b); /* the rule model's workspace too */
    cb_hws_free(&b->ws);
    memset(b, 0, sizeof *b);
}

static int grow(cb_belief *b, int n, int nhist)
{
    if (n > b->cap) {
        cb_cards(*h)[3] = realloc(b->hands, (size_t)n * sizeof *h);
        if (!h)
            return -1;
        b->hands = h;
        int *mm = realloc(b->mismatch, (size_t)n * sizeof *mm);
        if (!mm)
            return -1;
        b->mismatch = mm;
        cb_belief_seat(*se)[2] = realloc(b->seat, (size_t)n * sizeof *se);
        if (!se)
            return -1;
        b->seat = se;
        int *dd = realloc(b->dec, (size_t)n * sizeof *dd);
        if (!dd)
            return -1;
        b->dec = dd;
        int *sl = realloc(b->slot, (size_t)n * sizeof *sl);
        if (!sl)
            return -1;
        b->slot = sl;
        double *c = realloc(b->cum, (size_t)n * sizeof *c);
        if (!c)
            return -1;
        b->cum = c;
        b->cap = n;
    }
    if (nhist > b->hist_cap) {
        cb_play_rec *r = realloc(b->hist, (size_t)nhist * sizeof *r);
        if (!r)
            return -1;
        b->hist = r;
        cb_counts *hn = realloc(b->hint, (size_t)nhist * sizeof *hn);
        if (!hn)
            return -1;
        memset(hn, 0, (size_t)nhist * sizeof *hn);
        b->hint = hn;
        b->hist_cap = nhist;
    }
    return 0;
}

int cb_belief_mismatches(cb_belief *b, const cb_view *v, const cb_cards hands[3], int *decisions)
{
    cb_belief_seat rec[2];
    int miss = cb_belief_record(b, v, hands, rec);
    if (decisions)
        *decisions = miss < 0 ? 0 : rec[0].dec + rec[1].dec;
    return miss;
}

int cb_belief_record(cb_belief *b, const cb_view *v, const cb_cards hands[3], cb_belief_seat seat[2])
{
    const cb_rules *r = v->rules;
    memset(seat, 0, 2 * sizeof *seat);
    if (grow(b, b->cap > 0 ? b->cap : 1, v->nhistory > 0 ? v->nhistory : 1) != 0)
        return -1;
    if (b->rule_model && !b->rws) {
        b->rws = malloc(sizeof *b->rws);
        if (!b->rws)
            return -1;
        if (rb_ws_init(b->rws) != 0) {
            free(b->rws);
            b->rws = NULL;
            return -1;
        }
    }
    /* the hands as dealt: each seat's world hand plus what it has played */
    cb_cards start[3] = {hands[0], hands[1], hands[2]};
    for (int i = 0; i < v->nhistory; i++)
        start[v->history[i].seat] |= v->history[i].cards;
    int ll = (v->landlord >= 0 && v->landlord < 3) ? v->landlord : -1;
    int bid = cb_view_stake(v);
    cb_deal g;
    memset(&g, 0, sizeof g);
    g.hist = b->hist;
    g.hist_cap = b->hist_cap;
    cb_deal_init(&g, r, start, v->first_seat, ll, bid, v->bottom);
    for (int i = 0; i < v->nhistory; i++) {
        const cb_play_rec *h = &v->history[i];
        int s = h->seat;
        if (g.winner >= 0 || g.turn != s)
            return -1;
        if (s != v->seat) {
            cb_situ st;
            cb_situ_from_deal(&g, &st);
            int nmoves = 0;
            int explained = cb_heur_explains(&b->model, &st, &b->ws, cb_counts_of(h->cards), &b->hint[i], &nmoves);
            if (explained < 0)
                return -1;
            if (nmoves != 1) { /* a real choice (-1: it could go out in one play) */
                cb_belief_seat *o = &seat[(s - v->seat + 3) % 3 - 1];
                o->dec++;
                /* the options' count, for the chance level; going out in one play was not
                 * counted (the heuristic stops there): 2, the least a choice has */
                o->logk += (float)log(nmoves > 1 ? nmoves : 2);
                if (!explained)
                    o->miss++;
                if (b->rule_model) {
                    rb_choice rc;
                    if (rb_choose(b->rws, &st, &rc) != 0)
                        return -1;
                    if ((rc.move.shape == CB_PASS ? 0 : rc.move.counts) != cb_counts_of(h->cards))
                        o->miss_rule++;
                }
            }
        }
        cb_move m;
        memset(&m, 0, sizeof m);
        m.shape = CB_PASS;
        if (h->cards) {
            cb_ctx ctx;
            cb_deal_ctx(&g, &ctx);
            if (!cb_play_legal(r, &ctx, cb_counts_of(h->cards), &m, NULL, 0))
                return -1;
        }
        /* the recorded cards themselves: hand, played set and record (a step by ranks picks
         * suits of its own, and its played set then differs from the public one by suits —
         * and by ranks once the seat plays the card the step took: the model's count of the
         * cards still out went wrong, and the replay depended on the world's suits) */
        if (cb_deal_step_cards(&g, h->cards, &m, NULL, 0) < 0)
            return -1;
    }
    /* fixed weights with both models: a seat's choices count as explained by whichever model
     * explains more of them (cb_belief_weigh) */
    if (b->rule_model && !b->fit)
        return (seat[0].miss < seat[0].miss_rule ? seat[0].miss : seat[0].miss_rule) +
               (seat[1].miss < seat[1].miss_rule ? seat[1].miss : seat[1].miss_rule);
    return seat[0].miss + seat[1].miss;
}

/* Past the deadline (with at least one world in the pool)? */
static bool late(cb_belief *b)
{
    if (!b->deadline_ns || b->n == 0)
        return false;
    if (cb_now_ns() < b->deadline_ns)
        return false;
    b->cut = true;
    return true;
}

/* the k-th card (0-based) of a set */
static cb_cards nth_bit(cb_cards c, int k)
{
    while (k-- > 0)
        c &= c - 1;
    return c & (~c + 1);
}

/* The Metropolis walks (see belief.h). */
static int walk(cb_belief *b, const cb_view *v, cb_worlds *w, int n, double eps, uint64_t seed)
{
    int me = v->seat, sa = me == 0 ? 1 : 0, sb = 3 - me - sa;
    int per = (n + b->chains - 1) / b->chains;
    for (int c = 0; c < b->chains && b->n < n; c++) {
        cb_rng rng;
        cb_rng_seed(&rng, cb_rng_mix(seed, 0xC4A1ull + (uint64_t)c));
        cb_cards h[3];
        if (cb_worlds_sample(w, &rng, h, NULL) != 0)
            continue;
        cb_belief_seat rec[2], rec2[2];
        int mm = cb_belief_record(b, v, h, rec);
        if (mm < 0)
            return -1;
        if (rec[0].dec + rec[1].dec > b->decisions)
            b->decisions = rec[0].dec + rec[1].dec;
        /* a short burn-in, then every state of the walk is a pool world */
        int burn = per / 4;
        for (int step = 0; step < burn + per && b->n < n && !late(b); step++) {
            cb_cards fa = h[sa] & ~w->fixed[sa], fb = h[sb] & ~w->fixed[sb];
            int na = cb_cards_size(fa), nb = cb_cards_size(fb);
            if (na > 0 && nb > 0) {
                b->steps++;
                cb_cards x = nth_bit(fa, (int)cb_rng_below(&rng, (uint32_t)na));
                cb_cards y = nth_bit(fb, (int)cb_rng_below(&rng, (uint32_t)nb));
                cb_cards t[3] = {h[0], h[1], h[2]};
                t[sa] = (t[sa] & ~x) | y;
                t[sb] = (t[sb] & ~y) | x;
                if (cb_worlds_broken(w, sa, t[sa]) == 0 && cb_worlds_broken(w, sb, t[sb]) == 0) {
                    int m2 = cb_belief_record(b, v, t, rec2);
                    if (m2 < 0)
                        return -1;
                    double acc = 1;
                    for (int k = mm; k < m2; k++)
                        acc *= eps;
                    if (m2 <= mm || cb_rng_unit(&rng) < acc) {
                        memcpy(h, t, sizeof t);
                        memcpy(rec, rec2, sizeof rec);
                        mm = m2;
                        b->accepted++;
                    }
                }
            }
            if (step < burn)
                continue;
            memcpy(b->hands[b->n], h, sizeof h);
            b->mismatch[b->n] = mm;
            memcpy(b->seat[b->n], rec, sizeof rec);
            if (b->min_mismatch < 0 || mm < b->min_mismatch)
                b->min_mismatch = mm;
            b->n++;
        }
    }
    for (int i = 0; i < b->n; i++)
        b->cum[i] = (double)(i + 1);
    b->ess = b->n;
    return b->n;
}

int cb_belief_reserve(cb_belief *b, const cb_view *v, int n)
{
    if (n < 1 || grow(b, n, v->nhistory > 0 ? v->nhistory : 1) != 0)
        return -1;
    b->n = 0;
    b->decisions = 0;
    b->min_mismatch = -1;
    b->steps = b->accepted = 0;
    b->cut = false;
    return 0;
}

/* The share's table of filled slots by world: a power of two at least twice the share. */
static int seen_init(cb_belief *s, int share)
{
    int cap = 64;
    while (cap < 2 * share)
        cap *= 2;
    if (cap > s->seen_cap) {
        int *t = realloc(s->seen, (size_t)cap * sizeof *t);
        if (!t)
            return -1;
        s->seen = t;
        s->seen_cap = cap;
    }
    memset(s->seen, 0xFF, (size_t)s->seen_cap * sizeof *s->seen);
    return 0;
}

/* The table's entry for world h: the slot holding a world with the same rank counts in every
 * hand, or the empty entry (-1) where it goes. By rank counts because the replay reads nothing
 * else: the models and the rules play by ranks, and suits matter only to the spade-3 lead,
 * whose seat is public (every world gives it the spade 3). */
static int *seen_at(cb_belief *s, const cb_belief *pool, const cb_cards h[3])
{
    cb_counts c[3] = {cb_counts_of(h[0]), cb_counts_of(h[1]), cb_counts_of(h[2])};
    uint64_t k = (c[0] * CB_GOLDEN64) ^ (c[1] * 0xC2B2AE3D27D4EB4Full) ^ (c[2] * 0x165667B19E3779F9ull);
    unsigned mask = (unsigned)s->seen_cap - 1;
    for (unsigned j = (unsigned)(k >> 32) & mask;; j = (j + 1) & mask) {
        int *e = &s->seen[j];
        if (*e < 0)
            return e;
        const cb_cards *o = pool->hands[*e];
        if (cb_counts_of(o[0]) == c[0] && cb_counts_of(o[1]) == c[1] && cb_counts_of(o[2]) == c[2])
            return e;
    }
}

int cb_belief_fill(cb_belief *pool, cb_belief *s, const cb_view *v, cb_worlds *w, int first, int stride, int n,
                   double eps, uint64_t seed)
{
    s->reused = 0;
    if (eps < 1 && seen_init(s, (n - first + stride - 1) / stride) != 0)
        return -1;
    for (int i = first; i < n; i += stride) {
        pool->mismatch[i] = -1;
        pool->dec[i] = 0;
        /* slot 0 is always tried: a cut pool still has a world */
        if (i > 0 && pool->deadline_ns && cb_now_ns() >= pool->deadline_ns) {
            s->cut = true;
            continue;
        }
        cb_rng rng;
        cb_rng_seed(&rng, cb_rng_mix(seed, 0xBE11EFull + (uint64_t)i));
        cb_cards h[3];
        if (cb_worlds_sample(w, &rng, h, NULL) != 0)
            continue;
        cb_belief_seat rec[2];
        memset(rec, 0, sizeof rec);
        int mm = 0;
        if (eps < 1) {
            int *e = seen_at(s, pool, h);
            if (*e >= 0) { /* its ranks drawn before in this share: the same replay */
                mm = pool->mismatch[*e];
                memcpy(rec, pool->seat[*e], sizeof rec);
                s->reused++;
            } else {
                mm = cb_belief_record(s, v, h, rec);
                if (mm < 0)
                    return -1;
                *e = i;
            }
        }
        memcpy(pool->hands[i], h, sizeof h);
        pool->mismatch[i] = mm;
        memcpy(pool->seat[i], rec, sizeof rec);
        pool->dec[i] = rec[0].dec + rec[1].dec;
    }
    return 0;
}

int cb_belief_finish(cb_belief *b, int n, double eps)
{
    b->n = 0;
    for (int i = 0; i < n; i++) {
        if (b->mismatch[i] < 0)
            continue;
        if (b->n != i) {
            memcpy(b->hands[b->n], b->hands[i], sizeof b->hands[i]);
            b->mismatch[b->n] = b->mismatch[i];
            memcpy(b->seat[b->n], b->seat[i], sizeof b->seat[i]);
        }
        b->slot[b->n] = i;
        if (b->dec[i] > b->decisions)
            b->decisions = b->dec[i];
        if (b->min_mismatch < 0 || b->mismatch[i] < b->min_mismatch)
            b->min_mismatch = b->mismatch[i];
        b->n++;
    }
    if (b->n == 0)
        return 0;
    if (b->fit && eps < 1)
        cb_belief_weigh_fit(b);
    else
        cb_belief_weigh(b, eps);
    return b->n;
}

int cb_belief_extend(cb_belief *b, const cb_view *v, int slots, int n2)
{
    /* a walk's pool has no slots (walk() does not record them) */
    if (slots < 1 || n2 <= slots || b->n > slots || b->chains > 0 || (b->n > 0 && b->slot[b->n - 1] >= slots) ||
        grow(b, n2, v->nhistory > 0 ? v->nhistory : 1) != 0)
        return -1;
    /* back to the slots, from the last world: world j goes to slot[j] >= j, so no world is
     * overwritten before it moves; the slots between hold no world */
    int next = slots;
    for (int j = b->n - 1; j >= 0; j--) {
        int s = b->slot[j];
        for (int k = s + 1; k < next; k++)
            b->mismatch[k] = -1;
        if (s != j) {
            memcpy(b->hands[s], b->hands[j], sizeof b->hands[j]);
            b->mismatch[s] = b->mismatch[j];
            memcpy(b->seat[s], b->seat[j], sizeof b->seat[j]);
        }
        next = s;
    }
    for (int k = 0; k < next; k++)
        b->mismatch[k] = -1;
    /* finish takes these again over all the slots */
    b->n = 0;
    b->decisions = 0;
    b->min_mismatch = -1;
    return 0;
}

static void weigh_terms(cb_belief *b);

void cb_belief_weigh(cb_belief *b, double eps)
{
    if (b->n == 0)
        return;
    if (b->rule_model && !b->fit && eps < 1) {
        /* both models at the fixed eps: a seat's factor is the mean of eps^(level 6's misses)
         * and eps^(the rule agent's), the fitted pool's mixture with mu fixed by eps */
        b->beta = 1;
        for (int o = 0; o < 2; o++)
            for (int md = 0; md < 2; md++) {
                b->fa[o][md] = 0;
                b->fc[o][md] = log(eps);
            }
        weigh_terms(b);
        return;
    }
    /* weights relative to the best explained world (eps^0 = 1 there: no underflow) */
    double tot = 0, sq = 0;
    for (int i = 0; i < b->n; i++) {
        double wt = 1;
        for (int k = b->min_mismatch; k < b->mismatch[i]; k++)
            wt *= eps;
        tot += wt;
        sq += wt * wt;
        b->cum[i] = tot;
    }
    b->ess = tot * tot / sq;
}

/* ln of a world's likelihood ratio for one seat and model (0 level 6, 1 the rule agent; see
 * belief.h): a = ln(1 + mu (k - 1)) per explained choice, c = ln(1 - mu) per unexplained one */
static double seat_lr(const cb_belief_seat *r, int model, double a, double c)
{
    int miss = model ? r->miss_rule : r->miss;
    return (r->dec - miss) * a + miss * c;
}

/* The fit's log ratio terms per other seat and model (b->fa, b->fc) from b->mu, b->mu_rule, b->k */
static void set_terms(cb_belief *b)
{
    for (int o = 0; o < 2; o++) {
        const double mu[2] = {b->mu[o], b->rule_model ? b->mu_rule[o] : 0};
        for (int md = 0; md < 2; md++) {
            b->fa[o][md] = log1p(mu[md] * (b->k[o] - 1));
            b->fc[o][md] = log1p(-mu[md]);
        }
    }
}

/* ln of world i's weight: per seat its ratio, or with the rule model the mean of the two */
static double world_lr(const cb_belief *b, int i)
{
    double x = 0;
    for (int o = 0; o < 2; o++) {
        const cb_belief_seat *r = &b->seat[i][o];
        double l0 = seat_lr(r, 0, b->fa[o][0], b->fc[o][0]);
        if (!b->rule_model) {
            x += l0;
            continue;
        }
        double l1 = seat_lr(r, 1, b->fa[o][1], b->fc[o][1]);
        double hi = l0 > l1 ? l0 : l1;
        x += hi + log((exp(l0 - hi) + exp(l1 - hi)) / 2);
    }
    return x;
}

/* The distinct records of n worlds (rec[0], rec[stride], ..) for one model: world i's is
 * kind[id[i]] (its decisions and, for the model, misses). Returns how many, or -1 when more
 * than max (then the caller loops over the worlds). */
static int kinds_of(const cb_belief_seat *rec, int model, int stride, int n, int *id, cb_belief_seat *kind, int max)
{
    enum { SLOTS = 1024 }; /* more than twice max */
    int16_t slot[SLOTS];
    memset(slot, 0xFF, sizeof slot);
    int nk = 0;
    for (int i = 0; i < n; i++) {
        const cb_belief_seat *r = &rec[(size_t)i * (size_t)stride];
        int miss = model ? r->miss_rule : r->miss;
        unsigned h = ((unsigned)r->dec * 131u + (unsigned)miss) & (SLOTS - 1);
        for (;; h = (h + 1) & (SLOTS - 1)) {
            int e = slot[h];
            if (e < 0) {
                if (nk == max)
                    return -1;
                memset(&kind[nk], 0, sizeof kind[nk]);
                kind[nk].dec = r->dec;
                if (model)
                    kind[nk].miss_rule = (int16_t)miss;
                else
                    kind[nk].miss = (int16_t)miss;
                slot[h] = (int16_t)nk;
                id[i] = nk++;
                break;
            }
            if (kind[e].dec == r->dec && (model ? kind[e].miss_rule : kind[e].miss) == miss) {
                id[i] = e;
                break;
            }
        }
    }
    return nk;
}

static double fit_mu_model(const cb_belief_seat *rec, int model, int stride, int n, double k)
{
    if (n < 1 || !(k > 1))
        return 0;
    /* Worlds share records (a record is two small counts): one ratio per distinct record and
     * grid point instead of one per world — the sums still run over the worlds in order, so
     * the fit is that of a loop over the worlds, bit for bit. */
    enum { KINDS = 400 };
    cb_belief_seat kind[KINDS];
    double ek[KINDS];
    int *id = malloc((size_t)n * sizeof *id);
    int nk = id ? kinds_of(rec, model, stride, n, id, kind, KINDS) : -1;
    /* ln of the record's likelihood ratio at each mu of the grid: the mean of the worlds'
     * ratios, by log-sum-exp (a ratio reaches 5^40) */
    double ll[CB_BELIEF_GRID], top_ll = -INFINITY;
    for (int j = 0; j < CB_BELIEF_GRID; j++) {
        double mu = CB_BELIEF_MU_MAX * j / (CB_BELIEF_GRID - 1);
        double a = log1p(mu * (k - 1)), c = log1p(-mu);
        double top = -INFINITY, sum = 0;
        if (nk > 0) {
            for (int e = 0; e < nk; e++) {
                ek[e] = seat_lr(&kind[e], model, a, c);
                if (ek[e] > top)
                    top = ek[e];
            }
            for (int e = 0; e < nk; e++)
                ek[e] = exp(ek[e] - top);
            for (int i = 0; i < n; i++)
                sum += ek[id[i]];
        } else {
            for (int i = 0; i < n; i++) {
                double x = seat_lr(&rec[(size_t)i * (size_t)stride], model, a, c);
                if (x > top)
                    top = x;
            }
            for (int i = 0; i < n; i++)
                sum += exp(seat_lr(&rec[(size_t)i * (size_t)stride], model, a, c) - top);
        }
        ll[j] = top + log(sum / n);
        if (ll[j] > top_ll)
            top_ll = ll[j];
    }
    free(id);
    /* the posterior mean under a uniform prior (not the most likely mu: after two or three
     * choices a random player's natural-looking plays make mu = 0.99 the likeliest, while
     * the posterior is still broad and its mean modest) */
    double z = 0, m = 0;
    for (int j = 0; j < CB_BELIEF_GRID; j++) {
        double p = exp(ll[j] - top_ll);
        z += p;
        m += p * (CB_BELIEF_MU_MAX * j / (CB_BELIEF_GRID - 1));
    }
    return m / z;
}

double cb_belief_fit_mu(const cb_belief_seat *rec, int stride, int n, double k)
{
    return fit_mu_model(rec, 0, stride, n, k);
}

void cb_belief_weigh_fit(cb_belief *b)
{
    b->beta = 1;
    if (b->n == 0)
        return;
    for (int o = 0; o < 2; o++) {
        double dec = 0, logk = 0;
        for (int i = 0; i < b->n; i++) {
            dec += b->seat[i][o].dec;
            logk += b->seat[i][o].logk;
        }
        b->k[o] = dec > 0 ? exp(logk / dec) : 1;
        b->mu[o] = fit_mu_model(&b->seat[0][o], 0, 2, b->n, b->k[o]);
        b->mu_rule[o] = b->rule_model ? fit_mu_model(&b->seat[0][o], 1, 2, b->n, b->k[o]) : 0;
    }
    set_terms(b);
    weigh_terms(b);
}

/* p_rule and the weights from the log ratio terms b->fa, b->fc */
static void weigh_terms(cb_belief *b)
{
    /* the rule model's posterior share per seat: its ratios' sum over both models' */
    for (int o = 0; o < 2; o++) {
        b->p_rule[o] = 0;
        if (!b->rule_model)
            continue;
        double top = -INFINITY, s0 = 0, s1 = 0;
        for (int i = 0; i < b->n; i++)
            for (int md = 0; md < 2; md++) {
                double x = seat_lr(&b->seat[i][o], md, b->fa[o][md], b->fc[o][md]);
                if (x > top)
                    top = x;
            }
        for (int i = 0; i < b->n; i++) {
            s0 += exp(seat_lr(&b->seat[i][o], 0, b->fa[o][0], b->fc[o][0]) - top);
            s1 += exp(seat_lr(&b->seat[i][o], 1, b->fa[o][1], b->fc[o][1]) - top);
        }
        b->p_rule[o] = s1 / (s0 + s1);
    }
    /* weights relative to the best world's (1 there: no overflow) */
    double top = -INFINITY;
    for (int i = 0; i < b->n; i++) {
        double x = world_lr(b, i);
        if (x > top)
            top = x;
    }
    double tot = 0, sq = 0;
    for (int i = 0; i < b->n; i++) {
        double wt = exp(world_lr(b, i) - top);
        tot += wt;
        sq += wt * wt;
        b->cum[i] = tot;
    }
    b->ess = tot * tot / sq;
}

/* The pool's cumulative weights at likelihood exponent beta from the log ratios x[] (top = 0
 * at the best world); returns their effective sample size. */
static double weights_at(cb_belief *b, const double *x, double beta)
{
    double tot = 0, sq = 0;
    for (int i = 0; i < b->n; i++) {
        double wt = exp(beta * x[i]);
        tot += wt;
        sq += wt * wt;
        b->cum[i] = tot;
    }
    return tot * tot / sq;
}

void cb_belief_temper(cb_belief *b, double target)
{
    b->beta = 1;
    if (b->n < 2 || !(target > 1) || b->ess >= target || b->ess >= b->n)
        return;
    double *x = malloc((size_t)b->n * sizeof *x);
    if (!x)
        return; /* untempered: the fitted weights stand */
    double top = -INFINITY;
    for (int i = 0; i < b->n; i++) {
        x[i] = world_lr(b, i);
        if (x[i] > top)
            top = x[i];
    }
    for (int i = 0; i < b->n; i++)
        x[i] -= top;
    if (target > b->n)
        target = b->n;
    /* ESS falls as beta grows (from n at 0 to b->ess at 1): the largest beta that keeps the
     * target, to 1/64 of the interval */
    double lo = 0, hi = 1;
    for (int it = 0; it < 6; it++) {
        double mid = (lo + hi) / 2;
        if (weights_at(b, x, mid) >= target)
            lo = mid;
        else
            hi = mid;
    }
    b->beta = lo;
    b->ess = weights_at(b, x, lo);
    free(x);
}

int cb_belief_build(cb_belief *b, const cb_view *v, cb_worlds *w, int n, double eps, uint64_t seed)
{
    if (n < 1 || !(eps > 0 && eps <= 1))
        return -1;
    if (cb_belief_reserve(b, v, n) != 0)
        return -1;
    if (b->chains > 0 && eps < 1)
        return walk(b, v, w, n, eps, seed);
    if (cb_belief_fill(b, b, v, w, 0, 1, n, eps, seed) != 0)
        return -1;
    return cb_belief_finish(b, n, eps);
}

double cb_belief_rule_chance(const cb_belief *b, const cb_belief_seat *r, int o)
{
    if (!b->rule_model)
        return 0;
    double l0 = seat_lr(r, 0, b->fa[o][0], b->fc[o][0]), l1 = seat_lr(r, 1, b->fa[o][1], b->fc[o][1]);
    return 1 / (1 + exp(l0 - l1));
}

int cb_belief_draw(const cb_belief *b, cb_rng *rng, cb_cards hands[3])
{
    double u = cb_rng_unit(rng) * b->cum[b->n - 1];
    int lo = 0, hi = b->n - 1;
    while (lo < hi) { /* the first world whose cumulative weight exceeds u */
        int mid = (lo + hi) / 2;
        if (b->cum[mid] > u)
            hi = mid;
        else
            lo = mid + 1;
    }
    memcpy(hands, b->hands[lo], sizeof b->hands[0]);
    return lo;
}

void cb_belief_release(cb_belief *b)
{
    /* the pool and the replay's history are sized by one decision (thousands of worlds): a
     * caller that keeps b between decisions need not keep them; grow() allocates them again */
    free(b->hands);
    free(b->mismatch);
    free(b->seat);
    free(b->dec);
    free(b->slot);
    free(b->cum);
    free(b->hist);
    free(b->hint);
    free(b->seen);
    if (b->rws) { /* its buffers are regrown when next asked */
        rb_ws_free(b->rws);
        free(b->rws);
        b->rws = NULL;
    }
    b->hands = NULL;
    b->mismatch = NULL;
    b->seat = NULL;
    b->dec = NULL;
    b->slot = NULL;
    b->cum = NULL;
    b->hist = NULL;
    b->hint = NULL;
    b->seen = NULL;
    b->n = b->cap = b->hist_cap = b->seen_cap = 0;
}

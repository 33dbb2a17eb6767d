/* cardbot plugins — determinization: worlds consistent with the public record (see worlds.h). */
#include "worlds.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((format(printf, 3, 4)))
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int add_proof(cb_worlds *w, const cb_wproof *p)
{
    if (w->nproofs == w->cap_proofs) {
        int cap = w->cap_proofs ? w->cap_proofs * 2 : 64;
        cb_wproof *np = realloc(w->proofs, (size_t)cap * sizeof *np);
        if (!np)
            return -1;
        w->proofs = np;
        w->cap_proofs = cap;
    }
    w->proofs[w->nproofs++] = *p;
    return 0;
}

/* The reading a recorded play was accepted under: the same choice cb_play_legal makes (the
 * canonical reading when leading, else the best one that beats the table). `whole`: the play
 * emptied the hand (PDK short plays are allowed only then). The hand is the play plus one
 * foreign card when it was not whole, so the whole-hand rule sees "not the last play". */
static bool reading_of(const cb_rules *r, cb_counts play, const cb_move *table, bool whole, cb_move *m)
{
    cb_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.hand = play;
    if (!whole) {
        int q = 0;
        while (q < CB_NRANKS - 1 && cb_count(play, q) >= 4)
            q++;
        ctx.hand = cb_count_add(play, q, 1);
    }
    ctx.table = table;
    return cb_play_legal(r, &ctx, play, m, NULL, 0);
}

/* The cards played, in all (*played_all) and per seat (total): nothing played twice, from my
 * hand or outside the deck, every seat 0..2. */
static int count_played(const cb_view *v, cb_cards *played_all, cb_counts total[3], char *err, size_t errlen)
{
    const cb_rules *r = v->rules;
    *played_all = 0;
    total[0] = total[1] = total[2] = 0;
    for (int i = 0; i < v->nhistory; i++) {
        const cb_play_rec *h = &v->history[i];
        if (h->seat < 0 || h->seat > 2)
            return fail(err, errlen, "worlds: history entry %d has seat %d", i, (int)h->seat);
        if (h->cards & (*played_all | ~r->deck | v->hand))
            return fail(err, errlen, "worlds: history entry %d replays or invents cards", i);
        *played_all |= h->cards;
        total[h->seat] += cb_counts_of(h->cards);
    }
    return 0;
}

/* The cards known to be in a seat's hand (DDZ: the landlord's unplayed bottom; PDK: the spade 3
 * with the first seat), the pool of unknown cards and what each other seat draws from it
 * (DDZ while bidding: the bottom too). */
static int known_cards(cb_worlds *w, const cb_view *v, cb_cards played_all, char *err, size_t errlen)
{
    const cb_rules *r = v->rules;
    cb_cards pool = r->deck & ~v->hand & ~played_all;
    int ll = (v->landlord >= 0 && v->landlord < 3) ? v->landlord : -1;
    if (r->game == CB_GAME_DDZ && v->bottom && ll >= 0) {
        cb_cards b = v->bottom & ~played_all;
        w->bottom = v->bottom;
        if (ll == w->me) {
            if (b & ~v->hand)
                return fail(err, errlen, "worlds: the bottom is not in the landlord's (my) hand");
        } else {
            if (b & v->hand)
                return fail(err, errlen, "worlds: I hold a bottom card but am not the landlord");
            w->fixed[ll] = b;
        }
    }
    if (r->game == CB_GAME_PDK && r->spade3_first && (pool & cb_card_bit(CB_CARD_S3)) && v->first_seat >= 0 &&
        v->first_seat < 3 && v->first_seat != w->me)
        w->fixed[v->first_seat] |= cb_card_bit(CB_CARD_S3); /* the first seat is the spade-3 holder */
    for (int s = 0; s < 3; s++)
        pool &= ~w->fixed[s];
    w->pool = pool;
    int sum = 0;
    for (int s = 0; s < 3; s++) {
        w->top_bound[s] = CB_NRANKS - 1;
        if (s == w->me)
            continue;
        w->need[s] = v->cards_left[s] - cb_cards_size(w->fixed[s]);
        if (w->need[s] < 0)
            return fail(err, errlen, "worlds: seat %d holds %d cards but %d are known to be there", s,
                        v->cards_left[s], cb_cards_size(w->fixed[s]));
        sum += w->need[s];
    }
    if (r->game == CB_GAME_DDZ && w->bidding && !v->bottom)
        w->need_bottom = r->bottom;
    sum += w->need_bottom;
    if (sum != cb_cards_size(pool))
        return fail(err, errlen, "worlds: %d unknown cards but the other seats hold %d", cb_cards_size(pool), sum);
    return 0;
}

/* The proofs: replay the tricks; a seat's hand at entry i is its hand now plus what it played
 * from i on (total[s] less what it played before i). Under must_beat a pass by another seat is
 * a proof (and a single passed caps its top rank); under warn_single so is a single played
 * while the next seat held one card. Also the trick as it stands (w->trick...). */
static int replay_proofs(cb_worlds *w, const cb_view *v, const cb_counts total[3], char *err, size_t errlen)
{
    const cb_rules *r = v->rules;
    cb_counts before[3] = {0, 0, 0};
    int left_now[3];
    for (int s = 0; s < 3; s++)
        left_now[s] = v->cards_left[s];
    cb_move tm;
    memset(&tm, 0, sizeof tm);
    bool trick = false;
    int passes = 0;
    for (int i = 0; i < v->nhistory; i++) {
        const cb_play_rec *h = &v->history[i];
        int s = h->seat;
        int nx = s == 2 ? 0 : s + 1;
        cb_counts later = total[s] - before[s];
        int nx_left = left_now[nx] + cb_counts_total(total[nx] - before[nx]);
        if (!h->cards) {
            if (!trick)
                return fail(err, errlen, "worlds: history entry %d passes on no play", i);
            if (r->must_beat && s != w->me) {
                cb_wproof p;
                memset(&p, 0, sizeof p);
                p.later = later;
                p.play = 0;
                p.table = tm;
                p.seat = (int8_t)s;
                p.next_has_one = nx_left == 1;
                if (add_proof(w, &p) != 0)
                    return fail(err, errlen, "worlds: out of memory");
                if (tm.shape == CB_SINGLE && tm.main < w->top_bound[s])
                    w->top_bound[s] = (int8_t)tm.main;
            }
            if (++passes >= 2) {
                trick = false;
                passes = 0;
                memset(&tm, 0, sizeof tm);
            }
            continue;
        }
        cb_counts k = cb_counts_of(h->cards);
        bool whole = left_now[s] == 0 && later == k; /* this play emptied the hand */
        cb_move m;
        if (!reading_of(r, k, trick ? &tm : NULL, whole, &m))
            return fail(err, errlen, "worlds: history entry %d is not a legal play here", i);
        if (r->warn_single && m.shape == CB_SINGLE && nx_left == 1 && s != w->me) {
            cb_wproof p;
            memset(&p, 0, sizeof p);
            p.later = later;
            p.play = k;
            if (trick)
                p.table = tm;
            p.seat = (int8_t)s;
            p.next_has_one = true;
            if (add_proof(w, &p) != 0)
                return fail(err, errlen, "worlds: out of memory");
            /* the highest single: nothing above it then, so nothing above it now */
            if (m.main < w->top_bound[s])
                w->top_bound[s] = (int8_t)m.main;
        }
        before[s] += k;
        tm = m;
        trick = true;
        passes = 0;
        w->trick_seat = s;
        w->nplays++;
    }
    if (trick) {
        w->trick = tm;
        w->trick_passes = passes;
    } else {
        w->trick_seat = -1;
    }
    return 0;
}

int cb_worlds_from_view(cb_worlds *w, const cb_view *v, char *err, size_t errlen)
{
    cb_wproof *keep = w->proofs;
    int keep_cap = w->cap_proofs;
    memset(w, 0, sizeof *w);
    w->proofs = keep;
    w->cap_proofs = keep ? keep_cap : 0;
    w->trick_seat = -1;
    w->max_restarts = 48;
    w->max_swaps = 48;
    if (!v || !v->rules || v->seat < 0 || v->seat > 2 || v->nseats != 3 || v->nhistory < 0 ||
        (v->nhistory > 0 && !v->history))
        return fail(err, errlen, "worlds: unusable view");
    const cb_rules *r = v->rules;
    w->rules = r;
    w->me = v->seat;
    w->bidding = v->phase == CB_PHASE_BID;
    w->my_hand = v->hand;
    if (v->hand & ~r->deck)
        return fail(err, errlen, "worlds: my hand holds cards outside the deck");
    if (cb_cards_size(v->hand) != v->cards_left[v->seat])
        return fail(err, errlen, "worlds: my hand has %d cards, cards_left says %d", cb_cards_size(v->hand),
                    v->cards_left[v->seat]);

    cb_cards played_all;
    cb_counts total[3];
    if (count_played(v, &played_all, total, err, errlen) != 0 || known_cards(w, v, played_all, err, errlen) != 0)
        return -1;
    return replay_proofs(w, v, total, err, errlen);
}

void cb_worlds_free(cb_worlds *w)
{
    free(w->proofs);
    w->proofs = NULL;
    w->cap_proofs = w->nproofs = 0;
}

int cb_worlds_broken(const cb_worlds *w, int seat, cb_cards hand)
{
    const cb_rules *r = w->rules;
    cb_counts k = cb_counts_of(hand);
    int broken = 0;
    for (int i = 0; i < w->nproofs; i++) {
        const cb_wproof *p = &w->proofs[i];
        if (p->seat != seat)
            continue;
        cb_ctx ctx;
        ctx.hand = k + p->later;
        ctx.table = p->table.shape != CB_PASS ? &p->table : NULL;
        ctx.next_has_one = p->next_has_one;
        ctx.first_play = false;
        if (!cb_play_legal(r, &ctx, p->play, NULL, NULL, 0))
            broken++;
    }
    return broken;
}

static int broken_counted(cb_worlds *w, int seat, cb_cards hand)
{
    w->checks++;
    return cb_worlds_broken(w, seat, hand);
}

/* the k-th card (0-based) of a set */
static int nth_card(cb_cards c, int k)
{
    while (k-- > 0)
        c &= c - 1;
    return __builtin_ctzll(c);
}

static cb_cards random_card(cb_rng *rng, cb_cards c)
{
    int n = cb_cards_size(c);
    return n ? cb_card_bit(nth_card(c, (int)cb_rng_below(rng, (uint32_t)n))) : 0;
}

/* Cards of a set whose rank is above `top`. */
static cb_cards above_rank(cb_cards c, int top)
{
    cb_cards out = 0;
    for (int q = top + 1; q < CB_NRANKS; q++)
        out |= cb_cards_of_rank(c, q);
    return out;
}

int cb_worlds_sample(cb_worlds *w, cb_rng *rng, cb_cards hands[3], cb_cards *bottom)
{
    w->samples++;
    int a = w->me == 0 ? 1 : 0;
    int b = 3 - w->me - a;
    /* a card above a seat's single bound must be with the other seat */
    cb_cards to_a = above_rank(w->pool, w->top_bound[b]);
    cb_cards to_b = above_rank(w->pool, w->top_bound[a]);
    if ((to_a & to_b) || cb_cards_size(to_a) > w->need[a] || cb_cards_size(to_b) > w->need[b] ||
        (w->need_bottom && (to_a | to_b))) {
        w->failures++;
        return -1;
    }
    cb_cards free_cards = w->pool & ~to_a & ~to_b;
    int ids[CB_NCARDS], n = 0;
    for (cb_cards c = free_cards; c; c &= c - 1)
        ids[n++] = __builtin_ctzll(c);
    int take_a = w->need[a] - cb_cards_size(to_a);
    for (int restart = 0; restart < w->max_restarts; restart++) {
        w->proposals++;
        for (int i = n - 1; i > 0; i--) {
            int j = (int)cb_rng_below(rng, (uint32_t)(i + 1));
            int t = ids[i];
            ids[i] = ids[j];
            ids[j] = t;
        }
        cb_cards bot = 0, fa = 0, fb = 0;
        int i = 0;
        for (; i < w->need_bottom; i++)
            bot |= cb_card_bit(ids[i]);
        for (int k = 0; k < take_a; k++, i++)
            fa |= cb_card_bit(ids[i]);
        for (; i < n; i++)
            fb |= cb_card_bit(ids[i]);
        cb_cards ha = w->fixed[a] | to_a | fa, hb = w->fixed[b] | to_b | fb;
        int va = w->nproofs ? broken_counted(w, a, ha) : 0;
        int vb = w->nproofs ? broken_counted(w, b, hb) : 0;
        /* repair: swap a free card of the seat that breaks a proof with one of the other's */
        for (int step = 0; va + vb > 0 && step < w->max_swaps && fa && fb; step++) {
            w->swaps++;
            bool from_a = va > 0 && (vb == 0 || (cb_rng_next(rng) & 1));
            cb_cards x = random_card(rng, from_a ? fa : fb);
            cb_cards y = random_card(rng, from_a ? fb : fa);
            cb_cards na = from_a ? (fa & ~x) | y : (fa & ~y) | x;
            cb_cards nb = from_a ? (fb & ~y) | x : (fb & ~x) | y;
            cb_cards hna = w->fixed[a] | to_a | na, hnb = w->fixed[b] | to_b | nb;
            int wa = broken_counted(w, a, hna), wb = broken_counted(w, b, hnb);
            if (wa + wb <= va + vb) {
                fa = na;
                fb = nb;
                ha = hna;
                hb = hnb;
                va = wa;
                vb = wb;
            }
        }
        if (va + vb == 0) {
            hands[w->me] = w->my_hand;
            hands[a] = ha;
            hands[b] = hb;
            if (bottom)
                *bottom = w->need_bottom ? bot : w->bottom;
            return 0;
        }
        w->rejects++;
    }
    w->failures++;
    return -1;
}

bool cb_worlds_consistent(const cb_worlds *w, const cb_cards hands[3], cb_cards bottom)
{
    if (hands[w->me] != w->my_hand)
        return false;
    cb_cards seen = 0;
    for (int s = 0; s < 3; s++) {
        if (s == w->me)
            continue;
        cb_cards h = hands[s];
        if ((h & w->fixed[s]) != w->fixed[s] || (h & ~w->fixed[s] & ~w->pool) || (h & seen))
            return false;
        if (cb_cards_size(h) != w->need[s] + cb_cards_size(w->fixed[s]))
            return false;
        seen |= h & ~w->fixed[s];
    }
    if (w->need_bottom) {
        if ((bottom & ~w->pool) || (bottom & seen) || cb_cards_size(bottom) != w->need_bottom)
            return false;
        seen |= bottom;
    }
    if (seen != w->pool)
        return false;
    for (int s = 0; s < 3; s++)
        if (s != w->me && cb_worlds_broken(w, s, hands[s]) != 0)
            return false;
    return true;
}

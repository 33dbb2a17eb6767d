/* cardbot plugins — situation of a decision and card counting (see situ.h). */
#include "situ.h"

#include <string.h>

static void finish(cb_situ *s, cb_cards deck, cb_cards hand, cb_cards played_all, cb_cards bottom)
{
    s->hand_cards = hand;
    s->hand = cb_counts_of(hand);
    s->out = cb_counts_of(deck & ~hand & ~played_all);
    s->unseen = cb_counts_of(deck & ~hand);
    memset(s->known, 0, sizeof s->known);
    /* The bottom cards were shown to all: those the landlord has not played are still his. */
    if (bottom && s->landlord >= 0 && s->landlord < 3 && s->landlord != s->seat &&
        s->rules->game == CB_GAME_DDZ)
        s->known[s->landlord] = cb_counts_of(bottom & ~played_all);
}

static uint64_t hash_rec(uint64_t h, const cb_play_rec *r)
{
    h = (h ^ r->cards) * 0x100000001B3ull;
    h = (h ^ (uint64_t)(uint32_t)r->seat) * 0x100000001B3ull;
    return h ^ (h >> 29);
}

void cb_replay_reset(cb_replay *rp, const cb_rules *r)
{
    memset(rp, 0, sizeof *rp);
    rp->rules = r;
    rp->hash = 0xCBF29CE484222325ull;
    cb_voids_init(&rp->voids);
    for (int i = 0; i < 3; i++)
        rp->left[i] = r->hand_size;
}

/* One history entry: the table of a pass is the trick's last play, classified once per trick
 * and only when someone passes on it. */
static void replay_feed(cb_replay *rp, const cb_play_rec *h)
{
    const cb_rules *r = rp->rules;
    bool seat_ok = h->seat >= 0 && h->seat < 3;
    rp->hash = hash_rec(rp->hash, h);
    rp->n++;
    if (!h->cards) {
        if (rp->trick && seat_ok && r->must_beat) {
            if (!rp->classified)
                rp->classified = cb_classify(r, cb_counts_of(rp->trick), &rp->tm, NULL, 0);
            if (rp->classified)
                cb_voids_on_pass(&rp->voids, r, h->seat, &rp->tm, rp->left[h->seat]);
        }
        if (++rp->passes >= 2) {
            rp->trick = 0;
            rp->passes = 0;
        }
        return;
    }
    rp->played_all |= h->cards;
    rp->nplays++;
    rp->trick = h->cards;
    rp->passes = 0;
    rp->classified = false;
    if (seat_ok) {
        rp->played[h->seat] += cb_counts_of(h->cards);
        rp->left[h->seat] -= cb_cards_size(h->cards);
    }
}

int cb_situ_from_view_cached(const cb_view *v, cb_replay *cache, cb_situ *s)
{
    if (!v || !v->rules || v->seat < 0 || v->seat > 2 || v->nhistory < 0 ||
        (v->nhistory > 0 && !v->history))
        return -1;
    /* the cache holds a replay of a prefix of this history when the rules, the length and the
     * hash of that prefix agree; otherwise (another deal, another table) start again */
    bool ok = cache->rules == v->rules && cache->n <= v->nhistory;
    if (ok) {
        uint64_t h = 0xCBF29CE484222325ull;
        for (int i = 0; i < cache->n; i++)
            h = hash_rec(h, &v->history[i]);
        ok = h == cache->hash;
    }
    if (!ok)
        cb_replay_reset(cache, v->rules);
    for (int i = cache->n; i < v->nhistory; i++)
        replay_feed(cache, &v->history[i]);

    memset(s, 0, sizeof *s);
    s->rules = v->rules;
    s->seat = v->seat;
    s->landlord = (v->landlord >= 0 && v->landlord < 3) ? v->landlord : -1;
    for (int i = 0; i < 3; i++) {
        s->cards_left[i] = v->cards_left[i];
        s->played[i] = cache->played[i];
    }
    s->nplays = cache->nplays;
    s->voids = cache->voids;
    s->first_play = s->nplays == 0;
    s->table_seat = -1;
    if (v->table && v->table_seat >= 0 && v->table_seat < 3) {
        if (cache->trick == v->table && cache->classified)
            s->table = cache->tm;
        else if (!cb_classify(v->rules, cb_counts_of(v->table), &s->table, NULL, 0))
            return -1;
        s->table_seat = v->table_seat;
    }
    finish(s, v->rules->deck, v->hand, cache->played_all, v->bottom);
    return 0;
}

int cb_situ_from_view(const cb_view *v, cb_situ *s)
{
    cb_replay rp;
    memset(&rp, 0, sizeof rp); /* rules NULL: never matches, so it is reset */
    return cb_situ_from_view_cached(v, &rp, s);
}

void cb_situ_from_deal(const cb_deal *g, cb_situ *s)
{
    memset(s, 0, sizeof *s);
    s->rules = g->rules;
    s->seat = g->turn;
    s->landlord = g->landlord;
    for (int i = 0; i < 3; i++) {
        s->cards_left[i] = cb_cards_size(g->hands[i]);
        s->nplays += g->plays[i];
    }
    /* per-seat played counts: without a history the game state keeps only the union; the
     * hands at the start are not public, so leave played[] empty unless a record exists */
    for (int i = 0; g->hist && i < g->nhist; i++)
        if (g->hist[i].cards && g->hist[i].seat >= 0 && g->hist[i].seat < 3)
            s->played[g->hist[i].seat] += cb_counts_of(g->hist[i].cards);
    s->first_play = g->first_play;
    s->voids = g->voids;
    s->table_seat = g->table_seat;
    if (g->table_seat >= 0)
        s->table = g->table;
    finish(s, g->rules->deck, g->hands[g->turn], g->played, g->bottom);
}

void cb_situ_ctx(const cb_situ *s, cb_ctx *ctx)
{
    cb_ctx_make(ctx, s->rules, s->hand_cards, s->table_seat >= 0 ? &s->table : NULL,
                s->cards_left[cb_situ_next(s->seat)], s->first_play);
}

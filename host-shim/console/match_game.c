/* cardbot match — one game: deal, bidding (DDZ 叫分 with redeal on all-pass; PDK 包庄), play
 * and settlement. The host keeps the true state; seats see only the cb_view it builds. */
#include <stddef.h>
#include <string.h>
#include <time.h>

#include "match.h"

/* splitmix64: the deal's shuffle and the per-decision seeds come from (match seed, deal). */
static uint64_t mix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Shuffle the rules' deck and deal hand_size cards to each of 3 hands; the rest is the bottom. */
static void deal_cards(const cb_rules *r, uint64_t *rng, cb_cards hands[3], cb_cards *bottom)
{
    int ids[CB_NCARDS], n = 0;
    for (int id = 0; id < CB_NCARDS; id++)
        if (r->deck & cb_card_bit(id))
            ids[n++] = id;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(mix64(rng) % (uint64_t)(i + 1));
        int t = ids[i];
        ids[i] = ids[j];
        ids[j] = t;
    }
    int k = 0;
    for (int s = 0; s < 3; s++) {
        hands[s] = 0;
        for (int c = 0; c < r->hand_size && k < n; c++)
            hands[s] |= cb_card_bit(ids[k++]);
    }
    *bottom = 0;
    while (k < n)
        *bottom |= cb_card_bit(ids[k++]);
}

typedef struct state {
    const cb_rules *r;
    cb_table *table;
    cb_cards hand[3];
    int nhist;
    int bids[3];
    int bombs[3];
    uint64_t rng;
    uint32_t budget_ms;
    cb_play_rec hist[CB_MATCH_MAX_PLAYS]; /* last: only hist[0..nhist) is read */
} state;

static void base_view(const state *st, const cb_match_game *gm, int seat, cb_view *v)
{
    memset(v, 0, sizeof *v);
    v->struct_size = sizeof *v;
    v->abi_version = CB_ABI_VERSION;
    v->rules = st->r;
    v->seat = seat;
    v->nseats = 3;
    v->first_seat = gm->first_seat;
    v->hand = st->hand[seat];
    for (int s = 0; s < 3; s++) {
        v->cards_left[s] = cb_cards_size(st->hand[s]);
        v->bombs[s] = st->bombs[s];
        v->bids[s] = st->bids[s];
    }
    v->landlord = gm->landlord;
    v->bottom = (st->r->game == CB_GAME_DDZ && gm->landlord >= 0) ? gm->bottom : 0;
    v->history = st->hist;
    v->nhistory = st->nhist;
    v->table_seat = -1;
    v->budget_ms = st->budget_ms;
}

static int ask_bid(state *st, cb_match_game *gm, int seat)
{
    cb_view v;
    base_view(st, gm, seat, &v);
    v.phase = CB_PHASE_BID;
    v.seed = mix64(&st->rng);
    cb_decision d;
    memset(&d, 0, sizeof d);
    uint64_t t0 = now_ns();
    int code = cb_decide_bid(st->table, &v, &d);
    uint64_t ns = now_ns() - t0;
    if (code < 0) {
        gm->error = code;
        snprintf(gm->errmsg, sizeof gm->errmsg, "bid at seat %d: %s", seat, cb_strerror(code));
        return -1;
    }
    if (gm->nbids < (int)(sizeof gm->bids / sizeof gm->bids[0])) {
        cb_match_bid *b = &gm->bids[gm->nbids++];
        b->seat = seat;
        b->bid = d.bid;
        b->code = code;
        b->ns = ns;
        b->value = d.value;
        memcpy(b->explain, d.explain, sizeof b->explain);
        b->explain[sizeof b->explain - 1] = 0;
    }
    st->bids[seat] = d.bid;
    return d.bid;
}

static bool is_bomb(const cb_rules *r, cb_cards c)
{
    int n = cb_cards_size(c);
    if (n < 2 || n > 4) /* rocket 2, AAA bomb 3, bomb 4: skip classifying everything else */
        return false;
    cb_move m;
    return cb_classify(r, cb_counts_of(c), &m, NULL, 0) && (m.shape == CB_BOMB || m.shape == CB_ROCKET);
}

/* The play loop: returns 0, or -1 when the shim refused a call (recorded in gm). */
static int play_out(state *st, cb_match_game *gm, int leader)
{
    const cb_rules *r = st->r;
    int cur = leader, passes = 0, table_seat = -1;
    cb_cards table = 0;
    while (gm->nplays < CB_MATCH_MAX_PLAYS) {
        cb_view v;
        base_view(st, gm, cur, &v);
        v.phase = CB_PHASE_PLAY;
        v.table = table;
        v.table_seat = table ? table_seat : -1;
        v.seed = mix64(&st->rng);
        cb_match_play *p = &gm->plays[gm->nplays];
        memset(p, 0, sizeof *p);
        p->seat = cur;
        uint64_t t0 = now_ns();
        int code = cb_decide_play(st->table, &v, &p->dec);
        p->ns = now_ns() - t0;
        if (code < 0) {
            gm->error = code;
            snprintf(gm->errmsg, sizeof gm->errmsg, "play at seat %d: %s", cur, cb_strerror(code));
            return -1;
        }
        p->code = code;
        p->cards = p->dec.cards;
        gm->nplays++;
        st->hist[st->nhist].seat = cur;
        st->hist[st->nhist].cards = p->cards;
        st->nhist++;
        if (!p->cards) {
            if (++passes == 2) { /* the trick is over: its last play won it */
                if (is_bomb(r, table))
                    gm->bomb_tricks[table_seat]++;
                cur = table_seat;
                table = 0;
                passes = 0;
                continue;
            }
        } else {
            st->hand[cur] &= ~p->cards;
            gm->plays_made[cur]++;
            if (is_bomb(r, p->cards)) {
                st->bombs[cur]++;
                gm->bombs_total++;
            }
            table = p->cards;
            table_seat = cur;
            passes = 0;
            if (!st->hand[cur]) {
                if (is_bomb(r, p->cards)) /* nobody can answer a bomb that ends the game */
                    gm->bomb_tricks[cur]++;
                gm->winner = cur;
                return 0;
            }
        }
        cur = (cur + 1) % 3;
    }
    gm->error = CB_ERR_ARG;
    snprintf(gm->errmsg, sizeof gm->errmsg, "game exceeded %d decisions", CB_MATCH_MAX_PLAYS);
    return -1;
}

static int spade3_holder(const cb_cards hands[3])
{
    for (int s = 0; s < 3; s++)
        if (hands[s] & cb_card_bit(cb_card_id(CB_RANK_3, CB_SUIT_S)))
            return s;
    return 0;
}

/* DDZ 叫分: each seat once from the first bidder, 0 = pass or more than the highest so far;
 * 3 ends it. All pass: redeal (a fresh shuffle from the same deal stream). After 16 redeals
 * the first bidder is made landlord at 1 so a pathological strategy cannot stall the match. */
static int ddz_bidding(state *st, cb_match_game *gm, int first)
{
    int best = 0, who = -1;
    for (int i = 0; i < 3 && best < 3; i++) {
        int s = (first + i) % 3;
        int b = ask_bid(st, gm, s);
        if (b < 0)
            return -1;
        if (b > best) {
            best = b;
            who = s;
        }
    }
    gm->bid_value = best;
    return who;
}

void cb_match_play_game(cb_table *table, const cb_rules *r, const cb_match_opts *o, int g, cb_match_game *gm)
{
    uint64_t seed = o->seed;
    bool duplicate = o->duplicate;
    memset(gm, 0, offsetof(cb_match_game, plays));
    gm->index = g;
    gm->deal = duplicate ? g / 3 : g;
    gm->rotation = duplicate ? g % 3 : 0;
    gm->landlord = -1;
    gm->winner = -1;
    for (int s = 0; s < 3; s++) {
        const char *name = cb_table_strategy(table, s);
        snprintf(gm->strategy_buf[s], sizeof gm->strategy_buf[s], "%s", name ? name : "?");
        gm->strategy[s] = gm->strategy_buf[s];
    }
    state stv;
    memset(&stv, 0, offsetof(state, hist));
    state *st = &stv;
    st->r = r;
    st->table = table;
    st->budget_ms = o->budget_ms;
    /* The deal stream depends on (seed, deal) only; the rotation gives hand (p + rot) % 3 to
     * seat p so each strategy meets every hand of a duplicate deal. */
    uint64_t deal_rng = seed ^ (0xD1B54A32D192ED03ull * (uint64_t)(gm->deal + 1));
    gm->seed = deal_rng;
    st->rng = deal_rng ^ (0x2545F4914F6CDD1Dull * (uint64_t)(gm->rotation + 1));
    for (;;) {
        cb_cards dealt[3], bottom;
        deal_cards(r, &deal_rng, dealt, &bottom);
        uint64_t first_hand = mix64(&deal_rng) % 3; /* DDZ: which hand bids first */
        for (int p = 0; p < 3; p++)
            gm->dealt[p] = st->hand[p] = dealt[(p + gm->rotation) % 3];
        gm->bottom = bottom;
        for (int s = 0; s < 3; s++)
            st->bids[s] = -1;
        gm->nbids = 0;
        if (r->game == CB_GAME_DDZ) {
            gm->first_seat = (int)((first_hand + 3 - (uint64_t)gm->rotation) % 3);
            int ll;
            if (o->landlord >= 0) { /* evaluation mode: roles fixed, no bidding */
                ll = o->landlord;
                gm->bid_value = 1;
            } else {
                ll = ddz_bidding(st, gm, gm->first_seat);
                if (gm->error)
                    return;
            }
            if (ll < 0 && gm->redeals < 16) {
                gm->redeals++;
                continue;
            }
            if (ll < 0) {
                ll = gm->first_seat;
                gm->bid_value = 1;
            }
            gm->landlord = ll;
            st->hand[ll] |= bottom;
            if (play_out(st, gm, ll))
                return;
            cb_ddz_result res = {.landlord = ll, .bid = gm->bid_value, .bombs = gm->bombs_total,
                                 .winner = gm->winner, .landlord_plays = gm->plays_made[ll],
                                 .farmer_plays = gm->plays_made[(ll + 1) % 3] + gm->plays_made[(ll + 2) % 3]};
            gm->multiplier = cb_ddz_settle(r, &res, gm->delta);
        } else {
            gm->first_seat = r->spade3_first ? spade3_holder(st->hand) : (int)((first_hand + 3 - (uint64_t)gm->rotation) % 3);
            if (r->bao) { /* 包庄: in turn from the first leader; the first declaration binds */
                for (int i = 0; i < 3; i++) {
                    int s = (gm->first_seat + i) % 3;
                    int b = ask_bid(st, gm, s);
                    if (b < 0)
                        return;
                    if (b > 0) {
                        gm->landlord = s;
                        break;
                    }
                }
            }
            if (play_out(st, gm, gm->first_seat))
                return;
            cb_pdk_result res = {.winner = gm->winner, .bao = gm->landlord};
            for (int s = 0; s < 3; s++) {
                res.cards_left[s] = cb_cards_size(st->hand[s]);
                res.plays[s] = gm->plays_made[s];
                res.bomb_tricks[s] = gm->bomb_tricks[s];
            }
            cb_pdk_settle(r, &res, gm->delta);
            gm->multiplier = 1;
        }
        return;
    }
}

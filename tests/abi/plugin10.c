/* tests/abi/plugin10.c — a strategy plugin built ONLY against the frozen ABI 1.0 headers
 * (tests/abi/1.0/include), loaded by the current shim and linked to the current libcardbot.
 *
 * It is the plugin side of the compatibility test (tests/test_install.sh): a plugin that was
 * written for 1.0 must keep working, unmodified, under every later 1.x shim. So it reads only
 * what the 1.0 bot.h promises and checks that the view keeps the 1.0 contract as 1.0 plugins
 * could rely on it (the 1.0 shim refused any view breaking these rules before a plugin ran):
 * sizes and ABI major, a seat and a first_seat that are seats, the hand matching cards_left,
 * every card at most once, the table being the current trick's last play, and in PDK the
 * spade-3 holder leading first. A broken promise is printed on stderr ("plugin10: ...") and
 * answered with a failure, so the host sees a fallback instead of CB_OK and fails the test.
 *
 * Its answers: a legal play chosen with the view's seed among cb_legal_moves' list (rules.h of
 * 1.0: the library function's signature has not changed), so bombs, chains and passes all
 * occur; bids: 0 or the lowest legal nonzero bid, by the seed. One instance per seat, no
 * mutable globals; no parameters (an unknown key is refused, naming it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cardbot/bot.h"

#define SPADE3 ((cb_cards)1) /* card id 0: rank 3, suit spade */

typedef struct p10 {
    unsigned long decisions;
    cb_move *moves; /* scratch for cb_legal_moves, grown on demand */
    int cap;
} p10;

static void *p10_create(const cb_param *params, int nparams, char *err, size_t errlen)
{
    if (nparams > 0) {
        snprintf(err, errlen, "plugin10: unknown parameter '%s' (it takes none)", params[0].key);
        return NULL;
    }
    return calloc(1, sizeof(p10));
}

static void p10_destroy(void *inst)
{
    p10 *p = inst;
    if (p)
        free(p->moves);
    free(p);
}

static int broken(const char *what, int a, int b)
{
    fprintf(stderr, "plugin10: the view breaks the ABI 1.0 contract: %s (%d, %d)\n", what, a, b);
    return 1;
}

/* The 1.0 contract, as far as a plugin can see it. 0 when kept. */
static int view_ok(const cb_view *v, const cb_decision *out)
{
    if (v->struct_size < sizeof(cb_view))
        return broken("struct_size below the 1.0 view", (int)v->struct_size, (int)sizeof(cb_view));
    if (CB_ABI_MAJOR_OF(v->abi_version) != CB_ABI_MAJOR)
        return broken("abi_version major", (int)CB_ABI_MAJOR_OF(v->abi_version), CB_ABI_MAJOR);
    if (out->struct_size != 0 && out->struct_size < sizeof(cb_decision))
        return broken("decision struct_size below the 1.0 decision", (int)out->struct_size, (int)sizeof(cb_decision));
    const cb_rules *r = v->rules;
    if (!r || (r->game != CB_GAME_PDK && r->game != CB_GAME_DDZ))
        return broken("rules missing or not PDK / DDZ", r ? (int)r->game : -1, 0);
    if (v->nseats != 3 || v->seat < 0 || v->seat > 2)
        return broken("nseats / seat", v->nseats, v->seat);
    if (v->first_seat < 0 || v->first_seat > 2)
        return broken("first_seat is not a seat (1.0: who bid first / led first)", v->first_seat, v->phase);
    if (v->landlord < -1 || v->landlord > 2)
        return broken("landlord", v->landlord, 0);
    for (int s = 0; s < 3; s++)
        if (v->bids[s] < -1 || v->bids[s] > 3 || v->cards_left[s] < 0 || v->bombs[s] < 0)
            return broken("bids / cards_left / bombs of a seat", s, v->bids[s]);
    if (cb_cards_size(v->hand) != v->cards_left[v->seat] || (v->hand & ~r->deck))
        return broken("hand against cards_left / the deck", cb_cards_size(v->hand), v->cards_left[v->seat]);
    if (v->nhistory < 0 || (v->nhistory > 0 && !v->history))
        return broken("history", v->nhistory, 0);
    cb_cards seen = v->hand, last = 0;
    int last_seat = -1, passes = 0;
    for (int i = 0; i < v->nhistory; i++) {
        const cb_play_rec *h = &v->history[i];
        if (h->seat < 0 || h->seat > 2 || (h->cards & seen))
            return broken("history entry: bad seat or a card seen twice", i, h->seat);
        seen |= h->cards;
        if (h->cards) {
            last = h->cards;
            last_seat = h->seat;
            passes = 0;
        } else if (++passes == 2) {
            last = 0;
            last_seat = -1;
            passes = 0;
        }
    }
    if (v->phase == CB_PHASE_PLAY && (v->table != last || v->table_seat != last_seat))
        return broken("table / table_seat are not the current trick's last play", v->table_seat, last_seat);
    if (r->game == CB_GAME_PDK && r->spade3_first && (r->deck & SPADE3) && v->phase == CB_PHASE_PLAY) {
        if (v->nhistory > 0 && (v->history[0].seat != v->first_seat || !(v->history[0].cards & SPADE3)))
            return broken("PDK: the first play is not first_seat's with the spade 3", v->history[0].seat, v->first_seat);
        if (v->nhistory == 0 && (v->seat == v->first_seat) != ((v->hand & SPADE3) != 0))
            return broken("PDK: first_seat is not the spade-3 holder", v->first_seat, v->seat);
    }
    return 0;
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x7FB5D329728EA185ull;
    x ^= x >> 27;
    x *= 0x81DADEF4BC2DD44Dull;
    return x ^ (x >> 33);
}

static int p10_bid(void *inst, const cb_view *v, cb_decision *out)
{
    p10 *p = inst;
    p->decisions++;
    if (view_ok(v, out) != 0)
        return 1;
    int high = 0;
    for (int s = 0; s < 3; s++)
        high = v->bids[s] > high ? v->bids[s] : high;
    int want = (int)(mix(v->seed) % 3); /* 0: pass; else the lowest bid that is legal */
    if (v->rules->game == CB_GAME_PDK)
        out->bid = want == 2 ? 1 : 0; /* 包庄: 1 declares */
    else
        out->bid = want && high < 3 ? high + 1 : 0;
    snprintf(out->explain, sizeof out->explain, "plugin10 bid %d", out->bid);
    return 0;
}

static int p10_play(void *inst, const cb_view *v, cb_decision *out)
{
    p10 *p = inst;
    p->decisions++;
    if (view_ok(v, out) != 0)
        return 1;
    cb_ctx ctx;
    cb_move table;
    memset(&ctx, 0, sizeof ctx);
    ctx.hand = cb_counts_of(v->hand);
    if (v->table) {
        if (!cb_classify(v->rules, cb_counts_of(v->table), &table, NULL, 0))
            return broken("table is not a play", v->table_seat, 0);
        ctx.table = &table;
    }
    ctx.next_has_one = v->cards_left[(v->seat + 1) % 3] == 1;
    ctx.first_play = v->rules->game == CB_GAME_PDK && v->rules->spade3_first && v->nhistory == 0;
    int n = cb_legal_moves(v->rules, &ctx, NULL, 0);
    if (n <= 0)
        return broken("no legal action at all", n, 0);
    if (n > p->cap) {
        cb_move *m = realloc(p->moves, (size_t)n * sizeof *m);
        if (!m)
            return 1;
        p->moves = m;
        p->cap = n;
    }
    n = cb_legal_moves(v->rules, &ctx, p->moves, p->cap);
    const cb_move *m = &p->moves[mix(v->seed) % (uint64_t)n];
    out->cards = 0;
    if (m->shape != CB_PASS && cb_cards_pick(v->hand, m->counts, &out->cards) != 0)
        return 1;
    snprintf(out->explain, sizeof out->explain, "plugin10: one of %d legal actions", n);
    return 0;
}

static const cb_bot plugin10_bot = {
    .abi_version = CB_ABI_VERSION, /* 1.0: the frozen header's */
    .struct_size = sizeof(cb_bot),
    .name = "plugin10",
    .version = "1.0",
    .create = p10_create,
    .destroy = p10_destroy,
    .decide_bid = p10_bid,
    .decide_play = p10_play,
};

__attribute__((visibility("default"))) const cb_bot *cb_plugin_entry(void);
const cb_bot *cb_plugin_entry(void) { return &plugin10_bot; }

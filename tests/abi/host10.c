/* tests/abi/host10.c — a host built ONLY against the frozen ABI 1.0 headers
 * (tests/abi/1.0/include: cards.h rules.h bot.h shim.h), run against the current libraries.
 *
 * It is the host side of the compatibility test (tests/test_install.sh): a card server built
 * for 1.0 must keep working, unrebuilt, with every later libcardbot-shim.so.1. ABI 1.0 had no
 * game engine, so this host runs its own small state machine, as 1.0 hosts did (the 1.0
 * console's conventions): it deals, runs the bidding (DDZ 叫分 from a first bidder, all passing
 * makes the first bidder landlord at 1; PDK 包庄 from the first leader) or fixes the DDZ
 * landlord (--landlord), plays to the end and settles with the 1.0 rules functions. Every view
 * is a 1.0 view: struct_size = sizeof(cb_view) of 1.0 (no first_bidder), abi_version 1.0, and
 * first_seat with its 1.0 meaning — PDK the first leader (the spade-3 holder), DDZ the first
 * bidder. Decisions go out at the 1.0 size.
 *
 * Asserted: the shim accepts every view (no CB_ERR_*), every answer is the strategy's own
 * (CB_OK: no fallback, which is also how a 1.0 plugin at a seat reports a broken view
 * contract), every answer is legal by this host's own check (cards in hand, cb_play_legal,
 * the spade 3 on the first PDK play, a legal bid), the decision comes back at the 1.0 size,
 * every game ends and its points sum to zero, and the shim's statistics show no fallback.
 *
 * Usage: host10 [--landlord SEAT] [--rules null|shim|copy] CONFIG GAMES SEED
 *   --rules: what views carry in rules: NULL (the config's), cb_shim_rules' pointer (default),
 *            or a pointer to the host's own copy (struct assignment, as a 1.0 host would keep).
 * Prints one "result ..." line per game and a final "host10: ok ..." line; exit 0 = pass.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cardbot/shim.h"

#define MAXHIST 256
#define SPADE3 ((cb_cards)1) /* card id 0 */

typedef struct game {
    const cb_rules *r;       /* the shim's rules, for this host's own checks */
    const cb_rules *vrules;  /* what the views carry (--rules) */
    cb_cards hand[3], bottom;
    int first_seat;          /* the 1.0 meaning: PDK first leader, DDZ first bidder */
    int bids[3], landlord, stake;
    int bombs[3], plays[3], bomb_tricks[3];
    cb_play_rec hist[MAXHIST];
    int nhist;
    cb_cards table;          /* the current trick's last play (0 = the seat to act leads) */
    int table_seat, passes;
    int table_bomb;          /* the table play is a bomb / rocket */
    uint64_t seed;
    unsigned decisions;
} game;

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* cb_table_last_error came with ABI 1.1: a 1.0 host cannot call it, but the test may look it
 * up at run time to say why a view was refused. */
static const char *why_refused(const cb_table *t)
{
    const char *(*fn)(const cb_table *) = NULL;
    void *sym = dlsym(RTLD_DEFAULT, "cb_table_last_error");
    memcpy(&fn, &sym, sizeof fn);
    return fn ? fn(t) : "(no cb_table_last_error)";
}

static void deal(game *g, const cb_rules *r, uint64_t seed, int gi)
{
    int ids[64], n = 0;
    for (int c = 0; c < 54; c++)
        if (r->deck & ((cb_cards)1 << c))
            ids[n++] = c;
    uint64_t s = seed * 0x100000001B3ull + (uint64_t)gi; /* the deal's own stream */
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(splitmix(&s) % (uint64_t)(i + 1));
        int t = ids[i];
        ids[i] = ids[j];
        ids[j] = t;
    }
    int k = 0;
    for (int p = 0; p < 3; p++)
        for (int c = 0; c < r->hand_size; c++)
            g->hand[p] |= (cb_cards)1 << ids[k++];
    while (k < n)
        g->bottom |= (cb_cards)1 << ids[k++];
}

static void make_view(game *g, int seat, int phase, cb_view *v)
{
    memset(v, 0, sizeof *v);
    v->struct_size = sizeof *v; /* the 1.0 size */
    v->abi_version = CB_ABI_VERSION;
    v->rules = g->vrules;
    v->phase = phase;
    v->seat = seat;
    v->nseats = 3;
    v->first_seat = g->first_seat;
    v->hand = g->hand[seat];
    for (int s = 0; s < 3; s++) {
        v->cards_left[s] = cb_cards_size(g->hand[s]);
        v->bombs[s] = g->bombs[s];
        v->bids[s] = g->bids[s];
    }
    v->landlord = g->landlord;
    v->bottom = g->r->game == CB_GAME_DDZ && phase == CB_PHASE_PLAY ? g->bottom : 0;
    v->history = g->hist;
    v->nhistory = g->nhist;
    v->table_seat = g->table_seat;
    v->table = g->table;
    v->budget_ms = 1000;
    /* per decision, from a stream independent of the deal's (bot.h) */
    uint64_t s = g->seed ^ 0x5EEDull ^ ((uint64_t)++g->decisions << 32);
    v->seed = splitmix(&s);
}

/* Ask seat for a decision; 0, or -1 after printing why. */
static int ask(game *g, cb_table *t, int seat, int phase, cb_decision *d)
{
    cb_view v;
    make_view(g, seat, phase, &v);
    memset(d, 0, sizeof *d);
    d->struct_size = sizeof *d; /* the 1.0 size */
    int code = phase == CB_PHASE_BID ? cb_decide_bid(t, &v, d) : cb_decide_play(t, &v, d);
    if (code != CB_OK) {
        fprintf(stderr, "host10: seat %d (%s) %s: %s (%d): %s\n", seat, cb_table_strategy(t, seat),
                phase == CB_PHASE_BID ? "bid" : "play", cb_strerror(code), code,
                code < 0 ? why_refused(t) : d->explain);
        return -1;
    }
    if (d->struct_size != sizeof *d) {
        fprintf(stderr, "host10: decision struct_size %u, the host asked for %zu\n", (unsigned)d->struct_size,
                sizeof *d);
        return -1;
    }
    return 0;
}

/* DDZ 叫分 from the first bidder, or PDK 包庄 from the first leader. 0, or -1. */
static int bidding(game *g, cb_table *t)
{
    bool ddz = g->r->game == CB_GAME_DDZ;
    int high = 0, best = -1; /* the landlord is known only once the bidding is over */
    for (int i = 0; i < 3; i++) {
        int s = (g->first_seat + i) % 3;
        cb_decision d;
        if (ask(g, t, s, CB_PHASE_BID, &d) != 0)
            return -1;
        bool legal = d.bid == 0 || (ddz ? d.bid > high && d.bid <= 3 : d.bid == 1);
        if (!legal) {
            fprintf(stderr, "host10: seat %d bid %d: not a legal bid (highest %d)\n", s, d.bid, high);
            return -1;
        }
        g->bids[s] = d.bid;
        if (d.bid > high) {
            high = d.bid;
            best = s;
        }
        if ((ddz && d.bid == 3) || (!ddz && d.bid == 1))
            break; /* 3 ends 叫分; the first 包庄 binds */
    }
    g->landlord = best;
    if (ddz && best < 0)
        g->landlord = g->first_seat; /* all passed: the first bidder is landlord at 1 */
    g->stake = high > 0 ? high : 1;
    return 0;
}

/* One play decision, checked by this host and applied. 1 = the game is over, 0 = go on,
 * -1 = a failure (printed). */
static int play_once(game *g, cb_table *t, int seat)
{
    cb_decision d;
    if (ask(g, t, seat, CB_PHASE_PLAY, &d) != 0)
        return -1;
    cb_cards c = d.cards;
    cb_ctx ctx;
    cb_move table, m;
    memset(&ctx, 0, sizeof ctx);
    ctx.hand = cb_counts_of(g->hand[seat]);
    if (g->table) {
        if (!cb_classify(g->r, cb_counts_of(g->table), &table, NULL, 0))
            return fprintf(stderr, "host10: our own table is no play\n"), -1;
        ctx.table = &table;
    }
    ctx.next_has_one = cb_cards_size(g->hand[(seat + 1) % 3]) == 1;
    bool s3 = g->r->game == CB_GAME_PDK && g->r->spade3_first && (g->r->deck & SPADE3);
    ctx.first_play = s3 && g->nhist == 0;
    char why[128] = "", txt[64];
    cb_cards_format(c, true, txt, sizeof txt);
    if ((c & ~g->hand[seat]) || !cb_play_legal(g->r, &ctx, cb_counts_of(c), &m, why, sizeof why) ||
        (ctx.first_play && !(c & SPADE3))) {
        fprintf(stderr, "host10: seat %d answered '%s': not legal here (%s)\n", seat, txt,
                why[0] ? why : "cards not in hand or no spade 3");
        return -1;
    }
    if (g->nhist >= MAXHIST)
        return fprintf(stderr, "host10: history overflow\n"), -1;
    g->hist[g->nhist].cards = c;
    g->hist[g->nhist].seat = seat;
    g->nhist++;
    if (!c) {
        if (++g->passes == 2) { /* the trick ends: its last play's seat leads */
            if (g->table_bomb)
                g->bomb_tricks[g->table_seat]++;
            g->table = 0;
            g->table_seat = -1;
            g->passes = 0;
            g->table_bomb = 0;
        }
        return 0;
    }
    bool bomb = m.shape == CB_BOMB || m.shape == CB_ROCKET;
    g->hand[seat] &= ~c;
    g->plays[seat]++;
    g->bombs[seat] += bomb;
    g->table = c;
    g->table_seat = seat;
    g->table_bomb = bomb;
    g->passes = 0;
    if (g->hand[seat])
        return 0;
    g->bomb_tricks[seat] += bomb; /* a bomb that empties the hand wins its trick */
    return 1;
}

static int play_game(cb_table *t, const cb_rules *r, const cb_rules *vrules, int fixed_landlord,
                     uint64_t seed, int gi, int *total)
{
    game g;
    memset(&g, 0, sizeof g);
    g.r = r;
    g.vrules = vrules;
    g.seed = seed + (uint64_t)gi;
    g.landlord = g.table_seat = -1;
    for (int s = 0; s < 3; s++)
        g.bids[s] = -1;
    deal(&g, r, seed, gi);
    bool ddz = r->game == CB_GAME_DDZ;
    int leader;
    if (ddz) {
        g.first_seat = gi % 3; /* the first bidder: 1.0's first_seat in DDZ */
        if (fixed_landlord >= 0) { /* roles fixed, no bidding, as the 1.0 console's --landlord */
            g.landlord = fixed_landlord;
            g.stake = 1;
        } else if (bidding(&g, t) != 0) {
            return -1;
        }
        g.hand[g.landlord] |= g.bottom;
        leader = g.landlord;
    } else {
        g.first_seat = gi % 3;
        for (int s = 0; s < 3 && r->spade3_first && (r->deck & SPADE3); s++)
            if (g.hand[s] & SPADE3)
                g.first_seat = s;
        if (r->bao && bidding(&g, t) != 0)
            return -1;
        leader = g.first_seat;
    }
    int seat = leader, rc = 0;
    while ((rc = play_once(&g, t, seat)) == 0)
        seat = (seat + 1) % 3;
    if (rc < 0)
        return -1;
    int delta[3], mult = 1;
    if (ddz) {
        int ll = g.landlord;
        cb_ddz_result res = {.landlord = ll, .bid = g.stake, .bombs = g.bombs[0] + g.bombs[1] + g.bombs[2],
                             .winner = seat, .landlord_plays = g.plays[ll],
                             .farmer_plays = g.plays[(ll + 1) % 3] + g.plays[(ll + 2) % 3]};
        mult = cb_ddz_settle(r, &res, delta);
    } else {
        cb_pdk_result res = {.winner = seat, .bao = g.landlord};
        for (int s = 0; s < 3; s++) {
            res.cards_left[s] = cb_cards_size(g.hand[s]);
            res.plays[s] = g.plays[s];
            res.bomb_tricks[s] = g.bomb_tricks[s];
        }
        cb_pdk_settle(r, &res, delta);
    }
    printf("result %s game %d first_seat %d landlord %d winner %d actions %d multiplier %d points %d %d %d\n",
           r->preset, gi, g.first_seat, g.landlord, seat, g.nhist, mult, delta[0], delta[1], delta[2]);
    if (delta[0] + delta[1] + delta[2] != 0)
        return fprintf(stderr, "host10: points do not sum to zero\n"), -1;
    *total += (int)g.decisions;
    return 0;
}

int main(int argc, char **argv)
{
    int landlord = -1, a = 1;
    const char *rules_mode = "shim";
    for (; a + 1 < argc && argv[a][0] == '-'; a += 2) {
        if (strcmp(argv[a], "--landlord") == 0)
            landlord = atoi(argv[a + 1]);
        else if (strcmp(argv[a], "--rules") == 0)
            rules_mode = argv[a + 1];
        else
            break;
    }
    if (argc - a != 3 || landlord < -1 || landlord > 2 ||
        (strcmp(rules_mode, "null") && strcmp(rules_mode, "shim") && strcmp(rules_mode, "copy"))) {
        fprintf(stderr, "usage: host10 [--landlord SEAT] [--rules null|shim|copy] CONFIG GAMES SEED\n");
        return 2;
    }
    int games = atoi(argv[a + 1]);
    uint64_t seed = strtoull(argv[a + 2], NULL, 10);
    char err[1024];
    cb_shim *shim = cb_shim_open(argv[a], err, sizeof err);
    if (!shim)
        return fprintf(stderr, "host10: %s\n", err), 1;
    cb_table *t = cb_table_new(shim, NULL, err, sizeof err);
    if (!t)
        return fprintf(stderr, "host10: %s\n", err), 1;
    const cb_rules *r = cb_shim_rules(shim);
    cb_rules copy = *r; /* a 1.0 host's own copy of the table's rules */
    const cb_rules *vrules = rules_mode[0] == 'n' ? NULL : rules_mode[0] == 's' ? r : &copy;
    if (landlord >= 0 && r->game != CB_GAME_DDZ)
        return fprintf(stderr, "host10: --landlord is for DDZ\n"), 2;
    printf("host10: %s, seats %s / %s / %s, views of %zu bytes (ABI %d.%d), rules %s\n", r->preset,
           cb_table_strategy(t, 0), cb_table_strategy(t, 1), cb_table_strategy(t, 2), sizeof(cb_view),
           CB_ABI_MAJOR, CB_ABI_MINOR, rules_mode);
    int decisions = 0, rc = 0;
    for (int gi = 0; gi < games && rc == 0; gi++)
        rc = play_game(t, r, vrules, landlord, seed, gi, &decisions);
    cb_table_free(t); /* merges the table's statistics */
    cb_strategy_stats st[8];
    int n = cb_shim_stats(shim, st, 8);
    for (int i = 0; i < n && i < 8 && rc == 0; i++) {
        for (int k = 1; k < CB_FB_NREASONS; k++) {
            if (st[i].fallbacks[k]) {
                fprintf(stderr, "host10: strategy %s: %llu fallbacks (%s)\n", st[i].name,
                        (unsigned long long)st[i].fallbacks[k], cb_strerror(k));
                rc = -1;
            }
        }
    }
    cb_shim_free(shim);
    if (rc != 0) {
        printf("host10: FAILED\n");
        return 1;
    }
    printf("host10: ok, %d games, %d decisions, every answer the strategy's own and legal\n", games, decisions);
    return 0;
}

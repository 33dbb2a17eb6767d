/* cardbot engine benchmark: games per second of the game engine with random legal actions, and
 * the cost of checking a view (cb_view_check) per decision.
 *
 * usage: bench_engine [GAMES [SEED]]   (defaults 20000 and 1)
 * Rows:
 *  - cb_engine: a whole game through the host API (deal by the keyed stream, bidding, every
 *    play validated, legal plays listed as cards), uniformly random legal actions;
 *  - cb_deal, check off: the play phase as a play-out runs it (random legal moves by ranks from
 *    cb_legal_moves, stepped without re-validation);
 *  - cb_view_check: views of DDZ games taken when the history holds 40 entries (the seat to
 *    act's view), each checked VIEW_REPS times; and per history length for DDZ and PDK;
 *  - cb_view_checker, per decision: every decision's view of whole games checked in order
 *    through one checker, as the shim does (only what is new since a seat's last view is
 *    replayed).
 * Prints figures only; nothing here asserts on time.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cardbot/game.h"
#include "util_int.h" /* core/: cb_now_ns */

#define VIEW_REPS 200

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static double now_s(void) { return (double)cb_now_ns() * 1e-9; }

static cb_engine *start(const cb_rules *r, uint64_t seed, uint64_t g)
{
    cb_engine_opts o = {.struct_size = sizeof o, .key = seed, .deal = g, .game = g, .first_bidder = -1,
                        .landlord = -1};
    return cb_engine_new(r, &o, NULL, 0);
}

/* One random game; returns its actions, or -1. If views is set, stores a copy of the view of
 * the seat to act when the history first holds want_hist entries. */
static int engine_game(const cb_rules *r, uint64_t seed, uint64_t g, uint64_t *rng, int want_hist, cb_view *view,
                       cb_play_rec *hist, int *got)
{
    static cb_cards plays[CB_MOVES_CAP];
    cb_engine *e = start(r, seed, g);
    if (!e)
        return -1;
    int actions = 0;
    while (cb_engine_phase(e) != CB_PHASE_OVER) {
        if (view && !*got) {
            int nh;
            cb_engine_history(e, &nh);
            if (cb_engine_phase(e) == CB_PHASE_PLAY && nh == want_hist) {
                cb_engine_view(e, cb_engine_turn(e), 100, view);
                memcpy(hist, view->history, (size_t)nh * sizeof *hist);
                view->history = hist;
                view->rules = NULL; /* points into e: the check gets the rules from the caller */
                *got = 1;
            }
        }
        int rc;
        if (cb_engine_phase(e) == CB_PHASE_BID) {
            int32_t b[4];
            int n = cb_engine_legal_bids(e, b, 4);
            rc = cb_engine_bid(e, b[next_rand(rng) % (uint64_t)n], NULL, 0);
        } else {
            int n = cb_engine_legal_plays(e, plays, CB_MOVES_CAP);
            rc = n > 0 ? cb_engine_play(e, plays[next_rand(rng) % (uint64_t)n], NULL, 0) : -1;
        }
        if (rc != 0) {
            cb_engine_free(e);
            return -1;
        }
        actions++;
    }
    cb_engine_free(e);
    return actions;
}

typedef struct rand_policy {
    uint64_t rng;
    cb_move moves[CB_MOVES_CAP];
} rand_policy;

static int random_move(void *user, const cb_deal *g, cb_move *out)
{
    rand_policy *p = user;
    cb_ctx ctx;
    cb_deal_ctx(g, &ctx);
    int n = cb_legal_moves(g->rules, &ctx, p->moves, CB_MOVES_CAP);
    if (n <= 0)
        return -1;
    *out = p->moves[next_rand(&p->rng) % (uint64_t)n];
    return 0;
}

static void bench_games(const char *preset, int games, uint64_t seed)
{
    cb_rules r;
    if (cb_rules_preset(preset, &r) != 0)
        return;
    uint64_t rng = seed | 1;
    long actions = 0;
    int done = 0;
    double t0 = now_s();
    for (int g = 0; g < games; g++) {
        int a = engine_game(&r, seed, (uint64_t)g, &rng, 0, NULL, NULL, NULL);
        if (a < 0)
            continue;
        actions += a;
        done++;
    }
    double t = now_s() - t0;
    printf("%-8s cb_engine (checked, random legal actions)  %7d games  %9.0f games/s  %6.2f us/action\n", preset,
           done, done / t, 1e6 * t / (double)actions);

    /* the same deals' play phase as a play-out: all hands known, no re-validation */
    rand_policy pol;
    pol.rng = seed | 1;
    cb_deal_policy pols[3] = {random_move, random_move, random_move};
    void *users[3] = {&pol, &pol, &pol};
    long steps = 0;
    done = 0;
    t0 = now_s();
    for (int g = 0; g < games; g++) {
        cb_engine *e = start(&r, seed, (uint64_t)g);
        cb_cards hands[3] = {cb_engine_dealt(e, 0), cb_engine_dealt(e, 1), cb_engine_dealt(e, 2)};
        cb_cards bottom = cb_engine_bottom(e);
        cb_engine_free(e);
        if (r.game == CB_GAME_DDZ)
            hands[0] |= bottom;
        cb_deal d;
        memset(&d, 0, sizeof d);
        cb_deal_init(&d, &r, hands, -1, r.game == CB_GAME_DDZ ? 0 : -1, 1, r.game == CB_GAME_DDZ ? bottom : 0);
        if (cb_deal_run(&d, pols, users, 1000, NULL, 0) < 0)
            continue;
        steps += d.steps;
        done++;
    }
    t = now_s() - t0;
    printf("%-8s cb_deal play-out (check off, random moves)  %7d games  %9.0f games/s  %6.2f us/action "
           "(deal included)\n", preset, done, done / t, 1e6 * t / (double)steps);
}

static void bench_view_check(const char *preset, int want_hist, int nviews, uint64_t seed)
{
    cb_rules r;
    if (cb_rules_preset(preset, &r) != 0)
        return;
    cb_view *views = calloc((size_t)nviews, sizeof *views);
    cb_play_rec(*hists)[256] = calloc((size_t)nviews, sizeof *hists);
    if (!views || !hists)
        return;
    uint64_t rng = seed * 7 + 3;
    int n = 0, tried = 0;
    long hand_cards = 0;
    while (n < nviews && tried < nviews * 20) {
        int got = 0;
        engine_game(&r, seed + 1000, (uint64_t)tried++, &rng, want_hist, &views[n], hists[n], &got);
        if (got) {
            hand_cards += cb_cards_size(views[n].hand);
            n++;
        }
    }
    int bad = 0;
    double t0 = now_s();
    for (int rep = 0; rep < VIEW_REPS; rep++)
        for (int i = 0; i < n; i++)
            bad += cb_view_check(&r, &views[i], NULL, 0) != 0;
    double t = now_s() - t0;
    printf("%-8s cb_view_check, %2d history entries  %5d views x %d  %7.3f us/view  (hand %.1f cards on "
           "average; %d refused)\n", preset, want_hist, n, VIEW_REPS, n ? 1e6 * t / ((double)n * VIEW_REPS) : 0,
           n ? (double)hand_cards / n : 0, bad);
    free(views);
    free(hists);
}

/* Per decision through a checker: the views of whole random games, in order. */
static void bench_checker(const char *preset, int games, uint64_t seed)
{
    cb_rules r;
    if (cb_rules_preset(preset, &r) != 0)
        return;
    cb_view_checker *chk = cb_view_checker_new();
    uint64_t rng = seed * 5 + 1;
    static cb_cards plays[CB_MOVES_CAP];
    double spent = 0, cold = 0;
    long n = 0, nh = 0;
    int bad = 0;
    for (int g = 0; g < games; g++) {
        cb_engine *e = start(&r, seed + 2000, (uint64_t)g);
        while (e && cb_engine_phase(e) != CB_PHASE_OVER) {
            cb_view v;
            cb_engine_view(e, cb_engine_turn(e), 100, &v);
            double t0 = now_s();
            bad += cb_view_checker_check(chk, &r, &v, NULL, 0) != 0;
            double t1 = now_s();
            bad += cb_view_check(&r, &v, NULL, 0) != 0;
            cold += now_s() - t1;
            spent += t1 - t0;
            n++;
            nh += v.nhistory;
            if (cb_engine_phase(e) == CB_PHASE_BID) {
                int32_t b[4];
                int k = cb_engine_legal_bids(e, b, 4);
                cb_engine_bid(e, b[next_rand(&rng) % (uint64_t)k], NULL, 0);
            } else {
                int k = cb_engine_legal_plays(e, plays, CB_MOVES_CAP);
                cb_engine_play(e, plays[next_rand(&rng) % (uint64_t)k], NULL, 0);
            }
        }
        cb_engine_free(e);
    }
    cb_view_checker_free(chk);
    printf("%-8s per decision over %d games (%ld views, %.1f history entries on average): checker %.3f us, "
           "cb_view_check %.3f us (%d refused)\n", preset, games, n, (double)nh / (double)n, 1e6 * spent / (double)n,
           1e6 * cold / (double)n, bad);
}

int main(int argc, char **argv)
{
    int games = argc > 1 ? atoi(argv[1]) : 20000;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    if (games < 1)
        games = 1;
    printf("bench_engine: %d games per row, seed %llu (random legal actions; figures, not assertions)\n", games,
           (unsigned long long)seed);
    bench_games("pdk16", games, seed);
    bench_games("ddz", games, seed);
    int nviews = games / 20 > 50 ? games / 20 : 50;
    for (int h = 0; h <= 60; h += 20)
        bench_view_check("ddz", h == 0 ? 1 : h, nviews, seed);
    bench_view_check("ddz", 40, nviews, seed);
    bench_view_check("pdk16", 40, nviews, seed);
    bench_checker("ddz", games / 10 > 20 ? games / 10 : 20, seed);
    bench_checker("pdk16", games / 10 > 20 ? games / 10 : 20, seed);
    return 0;
}

/* ismcts: the limits of a decision — what an instance keeps between decisions, and how the
 * operator's time_ms and the host's budget_ms split into the parts' deadlines.
 *
 * Memory (a server pays it per seat, see bench/bench_seats.c). Whole games of PDK and DDZ,
 * bidding included, are played through the plugin's vtable by one instance deciding for every
 * seat; after each decision the heap the instance holds must stay under IS_KEEP_BOUND. Between
 * decisions the instance frees its trees, solver tables and belief pool (is_release): before it
 * did, it kept some 3 MB. The heap an instance holds is the sum of the heap's net changes over
 * its own calls (create and each decision), so the test's own allocations between calls (the
 * engine) do not count. The heap is glibc's bytes in use (mallinfo2), or ASan's allocator when
 * built with it (glibc's counters then see nothing). Memory is deterministic for a given build,
 * unlike time, so a bound is asserted. One thread: the search threads' scratch would sit in
 * other malloc arenas, which mallinfo2 does not count.
 *
 * Time: is_limits_of's split (plain arithmetic, no clock), and decisions at time_ms = 1 that
 * must still be searched answers (each search thread makes one iteration whatever the clock),
 * not fallbacks. Nothing here measures time (bench/bench_deadline.c does). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <malloc.h>
#include <stdio.h>
#include <string.h>

#include "cardbot/bot.h"
#include "cardbot/game.h"
#include "support/botfix.h"
#include "support/plugin/ismfix.h"
#include "../plugin/ismcts/ismcts.h"

#define IS_KEEP_BOUND (256 * 1024) /* the target per seat; the instance alone is about 100 KB */

#ifdef __SANITIZE_ADDRESS__
size_t __sanitizer_get_current_allocated_bytes(void);
static long long heap_in_use(void) { return (long long)__sanitizer_get_current_allocated_bytes(); }
#else
static long long heap_in_use(void)
{
    struct mallinfo2 mi = mallinfo2();
    return (long long)(mi.uordblks + mi.hblkhd); /* small blocks in use + mmapped blocks */
}
#endif

typedef struct held {
    long long now, max;
    int decisions;
} held;

/* One whole game on preset's rules decided by inst for every seat. */
static void play_game(const cbt_bot_plugin *a, void *inst, const char *preset, uint64_t key, held *h)
{
    cb_rules r;
    assert_int_equal(cb_rules_preset(preset, &r), 0);
    cb_engine_opts o = {.struct_size = sizeof o, .key = key, .deal = key, .game = key, .first_bidder = -1,
                        .landlord = -1};
    char err[200];
    cb_engine *e = cb_engine_new(&r, &o, err, sizeof err);
    assert_non_null(e);
    while (cb_engine_phase(e) != CB_PHASE_OVER) {
        cb_view v;
        cb_decision d;
        cbt_dec_init(&d);
        assert_int_equal(cb_engine_view(e, cb_engine_turn(e), 0, &v), 0);
        bool bid = cb_engine_phase(e) == CB_PHASE_BID;
        long long before = heap_in_use();
        int rc = bid ? a->bot->decide_bid(inst, &v, &d) : a->bot->decide_play(inst, &v, &d);
        h->now += heap_in_use() - before;
        assert_int_equal(rc, 0);
        h->decisions++;
        if (h->now > h->max)
            h->max = h->now;
        if (h->now > IS_KEEP_BOUND)
            fail_msg("%s key %llu, decision %d (%s): the instance holds %lld bytes after it (bound %d)", preset,
                     (unsigned long long)key, h->decisions, bid ? "bid" : "play", h->now, IS_KEEP_BOUND);
        int refused = bid ? cb_engine_bid(e, d.bid, err, sizeof err) : cb_engine_play(e, d.cards, err, sizeof err);
        if (refused)
            fail_msg("%s: the engine refused the answer: %s", preset, err);
    }
    cb_engine_free(e);
}

static void test_kept_between_decisions(void **state)
{
    const cbt_bot_plugin *a = *state;
    uint64_t seed = cbt_seed(5);
    static const char *presets[] = {"pdk16", "ddz"};
    for (int gi = 0; gi < 2; gi++) {
        /* few iterations (the trees are freed whatever their size); the belief pool at its
         * game's default size, PDK's grown four times when few worlds explain the record */
        cb_param p[2] = {{"iterations", "300"}, {"threads", "1"}};
        held h = {0};
        long long before = heap_in_use();
        void *inst = cbt_ism_make(a, p, 2);
        assert_non_null(inst);
        h.now = h.max = heap_in_use() - before;
        /* the measure sees the instance itself (its workspaces are tens of KB): a heap counter
         * that saw nothing would pass any bound */
        assert_true(h.now >= 32 * 1024);
        long long created = h.now;
        for (int game = 0; game < 2; game++)
            play_game(a, inst, presets[gi], seed + (uint64_t)game, &h);
        print_message("seed %llu %s: %d decisions; the instance holds %.1f KB when created, at most %.1f KB "
                      "after a decision, %.1f KB at the end (bound %d KB)\n",
                      (unsigned long long)seed, presets[gi], h.decisions, created / 1024.0, h.max / 1024.0,
                      h.now / 1024.0, IS_KEEP_BOUND / 1024);
        assert_true(h.decisions >= 20);
        a->bot->destroy(inst);
    }
}

/* The split of ismcts.h (IS_POOL_NS_PER_TIME_MS): from time_ms alone, from budget_ms alone,
 * from both (each part at the earlier), from neither; the parts in order within time_ms. */
static void test_time_split(void **state)
{
    (void)state;
    const uint64_t t0 = 5000000000ull, ms = 1000000ull;
    is_limits l;
    /* neither: nothing stops but the node budget */
    is_limits_of(0, 0, t0, &l);
    assert_true(l.pool_deadline == 0 && l.endgame_deadline == 0 && l.search_deadline == 0 && l.search_ns == 0);
    assert_true(l.endgame_nodes == IS_ENDGAME_NODES);
    /* time_ms alone (the host gave no budget_ms): the pool, the endgame and the search stop at
     * their shares of it from the decision's start */
    is_limits_of(50, 0, t0, &l);
    assert_true(l.pool_deadline == t0 + 50 * IS_POOL_NS_PER_TIME_MS);
    assert_true(l.pool_deadline == t0 + 12500000ull); /* 25% of 50 ms */
    assert_true(l.endgame_deadline == t0 + 50 * IS_ENDGAME_NS_PER_TIME_MS);
    assert_true(l.search_deadline == t0 + 50 * IS_SEARCH_NS_PER_TIME_MS);
    assert_true(l.search_deadline == t0 + 45 * ms);
    assert_true(l.search_ns == 0);
    assert_true(l.endgame_nodes == 50 * IS_ENDGAME_NODES_PER_MS && l.endgame_nodes < IS_ENDGAME_NODES);
    /* budget_ms alone: as before time_ms counted (the pool at 25% from the start, the search's
     * cap from its own start, no endgame deadline) */
    is_limits_of(0, 1000, t0, &l);
    assert_true(l.pool_deadline == t0 + 1000 * IS_POOL_NS_PER_BUDGET_MS);
    assert_true(l.search_ns == 1000 * IS_SEARCH_NS_PER_BUDGET_MS);
    assert_true(l.search_deadline == 0 && l.endgame_deadline == 0 && l.endgame_nodes == IS_ENDGAME_NODES);
    /* both: each part at the earlier limit */
    is_limits_of(50, 1000, t0, &l);
    assert_true(l.pool_deadline == t0 + 50 * IS_POOL_NS_PER_TIME_MS);
    assert_true(l.search_deadline == t0 + 45 * ms && l.search_ns == 1000 * IS_SEARCH_NS_PER_BUDGET_MS);
    is_limits_of(10000, 1000, t0, &l);
    assert_true(l.pool_deadline == t0 + 1000 * IS_POOL_NS_PER_BUDGET_MS);
    assert_true(l.endgame_nodes == IS_ENDGAME_NODES); /* a long time_ms: the fixed budget */
    /* the parts in order, inside time_ms, for every size of it */
    for (uint32_t t = 1; t <= IS_MAX_TIME_MS; t = t < 100 ? t + 1 : t * 3 / 2) {
        is_limits_of(t, 0, t0, &l);
        assert_true(t0 < l.pool_deadline && l.pool_deadline <= l.endgame_deadline);
        assert_true(l.endgame_deadline <= l.search_deadline && l.search_deadline < t0 + t * ms);
        assert_true(l.endgame_nodes >= 1 && l.endgame_nodes <= IS_ENDGAME_NODES);
    }
}

/* time_ms = 1: the pool alone can take longer, yet every decision with a choice is a search's
 * answer (one iteration per thread at least) or the endgame's, never a fallback; and legal. */
static void test_tiny_time(void **state)
{
    const cbt_bot_plugin *a = *state;
    uint64_t seed = cbt_seed(13);
    cbt_player *P = cbt_player_new(a, seed);
    cb_param p[1] = {{"time_ms", "1"}};
    void *inst = cbt_ism_make(a, p, 1);
    assert_non_null(inst);
    static const char *presets[] = {"pdk16", "ddz"};
    int searched = 0;
    for (int gi = 0; gi < 2; gi++) {
        assert_int_equal(cb_rules_preset(presets[gi], &P->r), 0);
        bool ddz = P->r.game == CB_GAME_DDZ;
        int bids[3] = {1, 0, 0};
        for (int game = 0; game < 3; game++) {
            cbt_player_start(P, ddz ? 0 : -1);
            while (P->g.winner < 0) {
                cb_view v;
                cb_deal_view(&P->g, ddz ? bids : NULL, cbt_rng_next(&P->rng), &v);
                v.budget_ms = 0;
                cb_decision d;
                cbt_dec_init(&d);
                assert_int_equal(a->bot->decide_play(inst, &v, &d), 0);
                cbt_player_check_legal(P, &v, &d);
                bool search = strncmp(d.explain, "ismcts", 6) == 0, endgame = strncmp(d.explain, "ENDGAME", 7) == 0;
                bool quick = strstr(d.explain, "forced") || strstr(d.explain, "out in one play");
                if (!quick && !search && !endgame)
                    fail_msg("%s: neither searched nor quick: %s", presets[gi], d.explain);
                if (search) {
                    assert_true(d.simulations >= 1);
                    searched++;
                }
                cbt_player_step(P, false);
            }
        }
    }
    print_message("seed %llu: %d decisions at time_ms = 1 searched\n", (unsigned long long)seed, searched);
    assert_true(searched >= 20);
    a->bot->destroy(inst);
    cbt_player_free(P);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kept_between_decisions),
        cmocka_unit_test(test_time_split),
        cmocka_unit_test(test_tiny_time),
    };
    return cmocka_run_group_tests(tests, cbt_ism_setup, cbt_plugin_teardown);
}

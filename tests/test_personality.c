/* The heuristic's personalities (key `personality`, plugin/common/personality.c) through the
 * plugin's ABI: dlopen build/<v>/plugins/heuristic.so (env CB_BUILD, default build/plain).
 *
 * Each personality must play level 6's game moved in its stated direction, counted over many
 * decisions of fixed-seed whole deals (CB_SEED replays another set). One seat X (rotating over
 * the deals) is the personality, the other two level 6; every deal is played twice, once with
 * the personality at X and once with level 6 at X (the same hands, the same view seeds), and
 * at each of X's decisions in the first run a level-6 shadow answers the same view. Counted:
 *   - paired, decision by decision: how often the two answers differ, and for each answer
 *     whether it is a bomb (where a bomb was legal), a pass (where something beat the table),
 *     a chain (straight, pair chain, plane), a control card (A, 2, jokers) spent early;
 *   - whole deals: bombs played by X per deal and the cards X held when playing them.
 * The checks (each printed first, with the seed and the number of decisions):
 *   none      answers exactly as level 6, decision by decision, and plays the same deals;
 *   bomber    bombs more often where it may (DDZ: clearly); over whole deals at least as many bombs
 *             (PDK, where level 6 already bombs three times in four) or clearly more, from
 *             fuller hands (DDZ, where level 6 keeps them);
 *   hoarder   passes clearly more often where it could beat (DDZ: PDK's must-beat forbids it)
 *             and spends fewer control cards early (both);
 *   chain     leads a chain clearly more often where one is legal, and more chains overall;
 *   careless  disagrees with level 6 on a measurable share of decisions.
 * The margins are far inside the measured differences (printed) and far outside what level 6
 * against itself shows (none: exactly 0): a personality turned back into level 6 fails them.
 * Also: every name is accepted at every level; an unknown name is refused naming the key; and
 * the configurations themselves (cb_hcfg_personality, linked from libcbcommon.a): none leaves
 * a level's byte for byte, the others change the stated fields on top of any level.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/botfix.h"
#include "support/randhand.h"
#include "cardbot/bot.h"
#include "cardbot/game.h"
#include "../plugin/common/policy.h"

typedef cbt_bot_plugin api; /* tests/support/botfix.h */

static int setup(void **state) { return cbt_bot_plugin_setup(state, "heuristic"); }

static const char *const names[] = {"none", "bomber", "hoarder", "chain", "careless"};
#define NNAMES 5

static void *make(const api *a, const char *pers, int level, uint64_t seed)
{
    char lv[16], sd[32];
    snprintf(lv, sizeof lv, "%d", level);
    snprintf(sd, sizeof sd, "%llu", (unsigned long long)seed);
    cb_param p[3] = {{"level", lv}, {"seed", sd}, {"personality", pers}};
    char err[200] = "";
    void *inst = a->bot->create(p, pers ? 3 : 2, err, sizeof err);
    if (!inst)
        print_error("create %s: %s\n", pers ? pers : "(level)", err);
    return inst;
}

static void test_params(void **state)
{
    api *a = *state;
    for (int i = 0; i < NNAMES; i++)
        for (int lv = 1; lv <= 6; lv++) {
            void *inst = make(a, names[i], lv, 1);
            assert_non_null(inst);
            a->bot->destroy(inst);
        }
    /* personality alone: on top of the default level 6 */
    cb_param p1 = {"personality", "bomber"};
    void *inst = a->bot->create(&p1, 1, NULL, 0);
    assert_non_null(inst);
    a->bot->destroy(inst);
    cbt_expect_refused1(a->bot, "personality", "berserker", "personality");
    cbt_expect_refused1(a->bot, "personality", "Bomber", "personality");
    cbt_expect_refused1(a->bot, "personality", "", "personality");
    cbt_expect_refused1(a->bot, "personality", "1", "personality");
    /* a bad personality next to a good level is still refused, by its own key */
    cb_param p2[2] = {{"level", "3"}, {"personality", "chains"}};
    cbt_expect_refused(a->bot, p2, 2, "personality");
}

/* The configurations: what each personality changes on top of a level, and nothing else. */
static void test_configs(void **state)
{
    (void)state;
    for (int lv = 1; lv <= 6; lv++) {
        cb_hcfg base, c;
        cb_hcfg_level(&base, lv);
        /* none: the level's configuration, byte for byte (cb_hcfg_level zeroes the padding) */
        cb_hcfg_level(&c, lv);
        assert_int_equal(cb_hcfg_personality(&c, "none"), 0);
        assert_memory_equal(&c, &base, sizeof c);
        /* an unknown name: refused, the configuration untouched */
        assert_int_equal(cb_hcfg_personality(&c, "berserker"), -1);
        assert_memory_equal(&c, &base, sizeof c);
        for (int i = 1; i < NNAMES; i++) {
            cb_hcfg_level(&c, lv);
            assert_int_equal(cb_hcfg_personality(&c, names[i]), 0);
            /* a personality keeps the level's candidates and its name */
            assert_int_equal(c.level, lv);
            assert_int_equal(c.exact_top, base.exact_top);
            assert_int_equal(c.kick_layouts, base.kick_layouts);
            for (int g = 0; g < 2; g++) {
                const cb_hweights *w = &c.w[g], *b = &base.w[g];
                switch (i) {
                case 1: /* bomber: a bomb is a bonus, bomb points count more */
                    assert_true(w->bomb < 0);
                    assert_true(w->bombpts >= b->bombpts);
                    break;
                case 2: /* hoarder: control cards and bombs cost more, the lead is worth less */
                    assert_true(w->keep > b->keep && w->rank > b->rank && w->lead < b->lead);
                    assert_true(w->bomb > b->bomb);
                    break;
                case 3: /* chain: cards shed are worth more, control cards cost less */
                    assert_true(w->shed > b->shed && w->keep < b->keep);
                    break;
                default: /* careless: opponents near the end matter less */
                    assert_true(w->threat < b->threat);
                    break;
                }
            }
            if (i == 4) {
                /* no counting, no team play; sampling at least its own, at least the level's */
                assert_false(c.counting);
                assert_false(c.team);
                assert_true(c.temperature >= 0.3 && c.temperature >= base.temperature);
                assert_true(c.blunder >= 0.05 && c.blunder >= base.blunder);
                assert_true(c.loss_cap >= 1.0 && c.loss_cap >= base.loss_cap);
                assert_int_equal(c.endgame, base.endgame);
            } else {
                /* the others sample exactly as the level does, and count and team as it does */
                assert_true(c.temperature == base.temperature && c.blunder == base.blunder);
                assert_true(c.loss_cap == base.loss_cap);
                assert_int_equal(c.counting, base.counting);
                assert_int_equal(c.team, base.team);
                assert_int_equal(c.endgame, base.endgame);
            }
        }
    }
}

/* What one seat did, counted over its decisions that had more than one legal answer. */
typedef struct side {
    long bomb_chances, bombs;  /* a bomb was legal / the answer was one */
    long beat_chances, passes; /* following with something that beats / the answer passed */
    long plays, chains;        /* answers that play cards / chains among them */
    long cards;                /* cards in those plays */
    long leads, lead_chains;   /* leading decisions / chains led */
    long chain_leads, chain_led, chain_cards; /* leads with a chain legal / a chain led there / its cards */
    long early_plays, early_ctl; /* plays from a hand of more than 8 cards / control cards in them */
} side;

typedef struct stats {
    long decisions, differ;   /* X's decisions with a choice; the shadow answered otherwise */
    side pers, shadow;        /* paired: the personality's and the level-6 shadow's answers */
    long deal_bombs[2];       /* whole deals: X's bombs, [0] personality at X, [1] level 6 */
    long deal_bomb_left[2];   /* ... the cards X held when playing them, summed */
    long deals;
    uint64_t seed;
} stats;

static bool is_chain(int shape)
{
    return shape == CB_STRAIGHT || shape == CB_PAIR_CHAIN || shape == CB_PLANE || shape == CB_PLANE_1 ||
           shape == CB_PLANE_2;
}

/* Control cards of a play: aces, 2s and jokers (what nothing or little outranks). */
static int control_cards(cb_counts k)
{
    return cb_count(k, CB_RANK_A) + cb_count(k, CB_RANK_2) + cb_count(k, CB_RANK_X) + cb_count(k, CB_RANK_D);
}

/* Count an answer m (pass: shape CB_PASS) of a decision whose legal answers were moves[0..n). */
static void count(side *sd, const cb_move *moves, int n, bool following, int hand_n, const cb_move *m)
{
    bool bomb_legal = false, beat_legal = false, chain_legal = false;
    for (int i = 0; i < n; i++) {
        chain_legal |= is_chain(moves[i].shape);
        bomb_legal |= cb_move_is_bomb(&moves[i]);
        beat_legal |= moves[i].shape != CB_PASS;
    }
    if (bomb_legal) {
        sd->bomb_chances++;
        sd->bombs += cb_move_is_bomb(m);
    }
    if (following && beat_legal) {
        sd->beat_chances++;
        sd->passes += m->shape == CB_PASS;
    }
    if (!following && chain_legal) {
        sd->chain_leads++;
        sd->chain_led += is_chain(m->shape);
        sd->chain_cards += is_chain(m->shape) ? m->ncards : 0;
    }
    if (!following) {
        sd->leads++;
        sd->lead_chains += is_chain(m->shape);
    }
    if (m->shape != CB_PASS) {
        sd->plays++;
        sd->cards += m->ncards;
        sd->chains += is_chain(m->shape);
        if (hand_n > 8) {
            sd->early_plays++;
            sd->early_ctl += control_cards(m->counts);
        }
    }
}

/* core's reading of an answer to view v (pass: shape CB_PASS); fails the test when illegal. */
static void read_answer(const cb_rules *r, const cb_ctx *ctx, cb_cards cards, cb_move *m)
{
    char why[128] = "";
    if (!cards) {
        memset(m, 0, sizeof *m);
        m->shape = CB_PASS;
        return;
    }
    if (!cb_play_legal(r, ctx, cb_counts_of(cards), m, why, sizeof why))
        fail_msg("illegal answer: %s", why);
}

static cb_cards answer(const api *a, void *inst, const cb_view *v)
{
    cb_decision dec;
    memset(&dec, 0, sizeof dec);
    dec.struct_size = sizeof dec;
    assert_int_equal(a->bot->decide_play(inst, v, &dec), 0);
    assert_true((dec.cards & ~v->hand) == 0);
    return dec.cards;
}

/* One deal: inst[s] at seat s; at seat x, shadow (NULL: none) answers the same views and st
 * counts both (run 0) or only the deal's bombs (run 1). */
static void play_deal(const api *a, const cb_rules *r, const cb_cards hands[3], cb_cards bottom, int landlord,
                      void *const inst[3], int x, void *shadow, uint64_t seed, int run, stats *st,
                      cb_move **moves, int *cap)
{
    cb_play_rec hist[256];
    cb_deal d;
    int bids[3];
    cbt_deal_start(&d, hist, 256, r, hands, bottom, landlord, bids);
    int guard = 0;
    while (d.winner < 0) {
        int s = d.turn;
        cb_view v;
        cbt_deal_step_view(&d, bids, seed, ++guard, &v);
        cb_move table;
        if (v.table)
            assert_true(cb_classify(r, cb_counts_of(v.table), &table, NULL, 0));
        cb_ctx ctx;
        cb_view_ctx(&v, v.table ? &table : NULL, &ctx);
        cb_move m;
        read_answer(r, &ctx, answer(a, inst[s], &v), &m);
        if (s == x) {
            int hand_n = cb_cards_size(v.hand);
            if (cb_move_is_bomb(&m)) {
                st->deal_bombs[run]++;
                st->deal_bomb_left[run] += hand_n;
            }
            int n = cb_legal_moves(r, &ctx, *moves, *cap);
            if (n > *cap) {
                *cap = n;
                *moves = realloc(*moves, (size_t)n * sizeof **moves);
                assert_non_null(*moves);
                n = cb_legal_moves(r, &ctx, *moves, *cap);
            }
            if (shadow && n > 1) {
                cb_move ms;
                read_answer(r, &ctx, answer(a, shadow, &v), &ms);
                st->decisions++;
                st->differ += ms.counts != m.counts || ms.shape != m.shape;
                count(&st->pers, *moves, n, v.table != 0, hand_n, &m);
                count(&st->shadow, *moves, n, v.table != 0, hand_n, &ms);
            }
        }
        char why[128] = "";
        assert_true(cb_deal_step(&d, &m, why, sizeof why) >= 0);
    }
}

/* ndeals deals of preset (PDK without 包庄, DDZ with the landlord rotating); pers at seat
 * x = deal % 3 against two level 6, then level 6 at x on the same deal. */
static void run(const api *a, const char *preset, const char *pers, int ndeals, stats *st)
{
    cb_rules r;
    assert_int_equal(cb_rules_preset(preset, &r), 0);
    r.bao = false;
    memset(st, 0, sizeof *st);
    st->seed = cbt_seed(31);
    /* the shadow and the other seats: level 6 without the key (none must equal exactly that) */
    void *p = make(a, pers, 6, 7), *shadow = make(a, NULL, 6, 7);
    void *l6[3];
    for (int s = 0; s < 3; s++)
        l6[s] = make(a, NULL, 6, 7);
    assert_non_null(p);
    assert_non_null(shadow);
    int cap = 1024;
    cb_move *moves = malloc((size_t)cap * sizeof *moves);
    assert_non_null(moves);
    cbt_rng g;
    cbt_rng_seed_named(&g, st->seed, preset);
    for (int k = 0; k < ndeals; k++) {
        cb_cards hands[3], bottom;
        cbt_deal(&g, r.deck, r.hand_size, hands, &bottom);
        int landlord = -1;
        if (r.game == CB_GAME_DDZ) {
            landlord = (k / 3) % 3;
            hands[landlord] |= bottom;
        }
        int x = k % 3;
        uint64_t vseed = cbt_rng_next(&g);
        for (int rep = 0; rep < 2; rep++) {
            void *use[3] = {l6[0], l6[1], l6[2]};
            if (rep == 0)
                use[x] = p;
            play_deal(a, &r, hands, bottom, landlord, use, x, rep == 0 ? shadow : NULL, vseed, rep, st, &moves, &cap);
        }
        st->deals++;
    }
    free(moves);
    a->bot->destroy(p);
    a->bot->destroy(shadow);
    for (int s = 0; s < 3; s++)
        a->bot->destroy(l6[s]);
}

static double share(long a, long b) { return b > 0 ? (double)a / (double)b : 0.0; }

static void report(const char *preset, const char *pers, const stats *st)
{
    const side *P = &st->pers, *S = &st->shadow;
    printf("# %s %s vs level 6 (seed %llu, %ld deals, %ld decisions): differ %.1f%%; "
           "bomb where legal %.1f%% vs %.1f%% (%ld); pass where it could beat %.1f%% vs %.1f%% (%ld); "
           "chains %.1f%% vs %.1f%% of plays, %.1f%% vs %.1f%% of leads, cards per play %.2f vs %.2f; chain led where legal %.1f%% vs %.1f%% (%ld), %.2f vs %.2f cards; control cards per early play %.3f vs %.3f; "
           "bombs per deal %.3f vs %.3f, held %.1f vs %.1f cards when bombing\n",
           preset, pers, (unsigned long long)st->seed, st->deals, st->decisions,
           100 * share(st->differ, st->decisions), 100 * share(P->bombs, P->bomb_chances),
           100 * share(S->bombs, S->bomb_chances), P->bomb_chances, 100 * share(P->passes, P->beat_chances),
           100 * share(S->passes, S->beat_chances), P->beat_chances, 100 * share(P->chains, P->plays),
           100 * share(S->chains, S->plays), 100 * share(P->lead_chains, P->leads),
           100 * share(S->lead_chains, S->leads), share(P->cards, P->plays), share(S->cards, S->plays),
           100 * share(P->chain_led, P->chain_leads), 100 * share(S->chain_led, S->chain_leads), P->chain_leads,
           share(P->chain_cards, P->chain_led), share(S->chain_cards, S->chain_led),
           share(P->early_ctl, P->early_plays),
           share(S->early_ctl, S->early_plays), share(st->deal_bombs[0], st->deals),
           share(st->deal_bombs[1], st->deals), share(st->deal_bomb_left[0], st->deal_bombs[0]),
           share(st->deal_bomb_left[1], st->deal_bombs[1]));
    fflush(stdout);
}

#define NDEALS 900

static void test_none(void **state)
{
    const char *games[2] = {"pdk16", "ddz"};
    for (int i = 0; i < 2; i++) {
        stats st;
        run(*state, games[i], "none", NDEALS, &st);
        report(games[i], "none", &st);
        /* identical decision by decision, hence identical deals */
        assert_true(st.decisions > 500);
        assert_int_equal(st.differ, 0);
        assert_int_equal(st.deal_bombs[0], st.deal_bombs[1]);
        assert_int_equal(st.deal_bomb_left[0], st.deal_bomb_left[1]);
    }
}

static void test_bomber(void **state)
{
    const char *games[2] = {"pdk16", "ddz"};
    for (int i = 0; i < 2; i++) {
        stats st;
        run(*state, games[i], "bomber", NDEALS, &st);
        report(games[i], "bomber", &st);
        const side *P = &st.pers, *S = &st.shadow;
        assert_true(P->bomb_chances >= 20);
        /* where a bomb may go down, it goes down more often than level 6 drops one: PDK's
         * level 6 already bombs 75-92% of those times (bomb points), so there the bomber
         * takes the rest (more, never fewer); DDZ's keeps them, so there clearly more */
        assert_true(P->bombs > S->bombs);
        assert_true(share(P->bombs, P->bomb_chances) >= share(S->bombs, S->bomb_chances) + (i == 1 ? 0.10 : 0.0));
        /* and over whole deals, on the same hands, at least as many bombs as level 6 plays;
         * DDZ (where level 6 keeps them) clearly more, and earlier: from fuller hands */
        assert_true(st.deal_bombs[0] >= st.deal_bombs[1]);
        if (i == 1) {
            assert_true(st.deal_bombs[0] > st.deal_bombs[1] + st.deal_bombs[1] / 5);
            assert_true(share(st.deal_bomb_left[0], st.deal_bombs[0]) > share(st.deal_bomb_left[1], st.deal_bombs[1]));
        }
    }
}

static void test_hoarder(void **state)
{
    stats st;
    /* DDZ: a seat that can beat may pass */
    run(*state, "ddz", "hoarder", NDEALS, &st);
    report("ddz", "hoarder", &st);
    const side *P = &st.pers, *S = &st.shadow;
    assert_true(P->beat_chances >= 200);
    assert_true(share(P->passes, P->beat_chances) >= share(S->passes, S->beat_chances) + 0.08);
    assert_true(share(P->early_ctl, P->early_plays) < share(S->early_ctl, S->early_plays));
    /* PDK: must-beat leaves no such pass; the high cards are what it keeps */
    run(*state, "pdk16", "hoarder", NDEALS, &st);
    report("pdk16", "hoarder", &st);
    assert_true(P->early_plays >= 200);
    assert_true(share(P->early_ctl, P->early_plays) < share(S->early_ctl, S->early_plays));
}

static void test_chain(void **state)
{
    const char *games[2] = {"ddz", "pdk16"};
    stats st[2];
    for (int i = 0; i < 2; i++) {
        run(*state, games[i], "chain", NDEALS, &st[i]);
        report(games[i], "chain", &st[i]);
    }
    for (int i = 0; i < 2; i++) {
        const side *P = &st[i].pers, *S = &st[i].shadow;
        assert_true(P->chain_leads >= 300);
        assert_true(share(P->chain_led, P->chain_leads) >= share(S->chain_led, S->chain_leads) + 0.03);
        assert_true(share(P->chains, P->plays) > share(S->chains, S->plays));
    }
}

static void test_careless(void **state)
{
    const char *games[2] = {"pdk16", "ddz"};
    for (int i = 0; i < 2; i++) {
        stats st;
        run(*state, games[i], "careless", NDEALS, &st);
        report(games[i], "careless", &st);
        assert_true(st.decisions > 500);
        assert_true(share(st.differ, st.decisions) >= 0.10);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_configs),
        cmocka_unit_test(test_none),
        cmocka_unit_test(test_bomber),
        cmocka_unit_test(test_hoarder),
        cmocka_unit_test(test_chain),
        cmocka_unit_test(test_careless),
    };
    return cmocka_run_group_tests(tests, setup, cbt_plugin_teardown);
}

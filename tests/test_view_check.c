/* cb_view_check refuses every kind of impossible view with the field named: each case starts
 * from a real view the engine built (which the check accepts) and breaks one fact. A 1.0-size
 * view is read through cb_view_upgrade; cb_view_legal_bids follows the bidding. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "cardbot/game.h"

typedef struct fixture {
    cb_rules r;
    cb_engine *e;
    cb_view v;
    cb_play_rec hist[256]; /* a copy to break */
} fixture;

/* A real position: the game after `steps` actions (PDK: no 包庄; DDZ: the lowest bid above
 * a pass, so the bidding takes a few steps; plays: the second legal option). */
static void make(fixture *f, const char *preset, bool rob, int landlord, int steps)
{
    assert_int_equal(cb_rules_preset(preset, &f->r), 0);
    f->r.rob = rob;
    cb_engine_opts o = {.struct_size = sizeof o, .key = 42, .deal = 3, .first_bidder = -1, .landlord = landlord};
    f->e = cb_engine_new(&f->r, &o, NULL, 0);
    assert_non_null(f->e);
    char err[160];
    for (int i = 0; i < steps && cb_engine_phase(f->e) != CB_PHASE_OVER; i++) {
        if (cb_engine_phase(f->e) == CB_PHASE_BID) {
            int32_t b[4];
            int n = cb_engine_legal_bids(f->e, b, 4);
            assert_true(n >= 2);
            assert_int_equal(cb_engine_bid(f->e, f->r.game == CB_GAME_PDK ? 0 : b[1], err, sizeof err), 0);
        } else {
            cb_cards p[64];
            int n = cb_engine_legal_plays(f->e, p, 64);
            assert_true(n > 0);
            /* the second option: a pass when allowed, else a play, so tricks end now and then */
            assert_int_equal(cb_engine_play(f->e, p[n > 1 ? 1 : 0], err, sizeof err), 0);
        }
    }
    assert_int_equal(cb_engine_view(f->e, cb_engine_turn(f->e), 100, &f->v), 0);
    memcpy(f->hist, f->v.history, (size_t)f->v.nhistory * sizeof f->hist[0]);
    f->v.history = f->hist;
    assert_int_equal(cb_view_check(&f->r, &f->v, err, sizeof err), 0);
}

static void done(fixture *f)
{
    cb_engine_free(f->e);
}

/* The broken view is refused and the reason names the field. */
static void refused(const fixture *f, const cb_view *v, const char *field)
{
    char err[200] = "";
    int rc = cb_view_check(&f->r, v, err, sizeof err);
    print_message("%-14s -> %s\n", field, err);
    assert_int_equal(rc, -2);
    if (!strstr(err, field)) {
        print_error("expected the reason to name '%s': %s\n", field, err);
        fail();
    }
}

static void test_counts_and_hand(void **s)
{
    (void)s;
    fixture f;
    make(&f, "pdk16", false, -1, 8);
    cb_view v = f.v;
    v.cards_left[(v.seat + 1) % 3]--;
    refused(&f, &v, "cards_left");
    v = f.v;
    v.hand &= v.hand - 1; /* a card short of cards_left */
    refused(&f, &v, "hand");
    v = f.v;
    v.bombs[0]++;
    refused(&f, &v, "bombs");
    v = f.v;
    v.struct_size = 16;
    refused(&f, &v, "struct_size");
    v = f.v;
    v.nseats = 2;
    refused(&f, &v, "nseats");
    v = f.v;
    v.seat = (v.seat + 1) % 3;
    v.hand = cb_engine_hand(f.e, v.seat);
    refused(&f, &v, "seat");
    cb_rules other = f.r;
    other.must_beat = !other.must_beat;
    v = f.v;
    v.rules = &other;
    refused(&f, &v, "rules");
    done(&f);

    /* the first play: a hand of the wrong size */
    make(&f, "pdk16", false, -1, 3); /* 包庄 bids, then nothing played */
    assert_int_equal(f.v.phase, CB_PHASE_PLAY);
    assert_int_equal(f.v.nhistory, 0);
    v = f.v;
    v.hand &= v.hand - 1;
    v.cards_left[v.seat]--;
    refused(&f, &v, "cards_left");
    /* an empty history may come as NULL: the checker reads nothing from it (UBSan) */
    {
        cb_view_checker *c = cb_view_checker_new();
        cb_view z = f.v;
        z.history = NULL;
        assert_int_equal(cb_view_checker_check(c, &f.r, &z, NULL, 0), 0);
        assert_int_equal(cb_view_checker_check(c, &f.r, &z, NULL, 0), 0);
        cb_view_checker_free(c);
    }
    /* following with an empty history (the old fallback bug's view) */
    v = f.v;
    v.table = cb_engine_hand(f.e, (v.seat + 1) % 3) & -cb_engine_hand(f.e, (v.seat + 1) % 3);
    v.table_seat = (v.seat + 2) % 3;
    refused(&f, &v, "table");
    /* no first bidder under 包庄 rules: the reason says why a seat is needed */
    v = f.v;
    v.first_bidder = -1;
    refused(&f, &v, "first_bidder: -1 is not a seat (these rules have 包庄, asked from first_seat");
    done(&f);

    /* PDK: the first play holds the spade 3 */
    make(&f, "pdk16", false, -1, 12);
    v = f.v;
    int n;
    cb_engine_history(f.e, &n);
    for (int j = 3; j < n; j += 3)
        if (f.hist[j].cards && f.hist[0].cards) {
            cb_cards x = f.hist[0].cards;
            f.hist[0].cards = f.hist[j].cards;
            f.hist[j].cards = x;
            refused(&f, &v, "history[");
            break;
        }
    done(&f);
}

static void test_history(void **s)
{
    (void)s;
    fixture f;
    make(&f, "ddz", false, 1, 12);
    assert_true(f.v.nhistory >= 6);
    cb_view v = f.v;
    f.hist[2].seat = (f.hist[2].seat + 1) % 3;
    refused(&f, &v, "history[2]");
    int n;
    const cb_play_rec *h = cb_engine_history(f.e, &n);
    memcpy(f.hist, h, (size_t)n * sizeof *h);
    /* a card played twice */
    int a = -1, b = -1;
    for (int i = 0; i < n; i++)
        if (f.hist[i].cards)
            a < 0 ? (a = i) : b < 0 ? (b = i) : 0;
    assert_true(b > a && a >= 0);
    cb_cards save = f.hist[b].cards;
    f.hist[b].cards |= f.hist[a].cards & -f.hist[a].cards;
    refused(&f, &v, "played twice");
    f.hist[b].cards = save;
    /* a pass while leading: the very first entry */
    save = f.hist[0].cards;
    f.hist[0].cards = 0;
    refused(&f, &v, "passes while leading");
    f.hist[0].cards = save;
    /* an illegal play: swap two plays of one seat (its counts stay right); some swap puts a
     * play where it does not beat its trick */
    assert_int_equal(cb_view_check(&f.r, &v, NULL, 0), 0);
    int found = 0;
    for (int i = 0; i < n && !found; i++)
        for (int j = i + 1; j < n && !found; j++) {
            if (!f.hist[i].cards || !f.hist[j].cards || f.hist[i].seat != f.hist[j].seat)
                continue;
            cb_cards x = f.hist[i].cards;
            f.hist[i].cards = f.hist[j].cards;
            f.hist[j].cards = x;
            char err[200] = "";
            if (cb_view_check(&f.r, &v, err, sizeof err) != 0 && strstr(err, "does not beat")) {
                refused(&f, &v, "history[");
                found = 1;
            }
            f.hist[j].cards = f.hist[i].cards;
            f.hist[i].cards = x;
        }
    assert_true(found);
    v = f.v;
    v.nhistory = 0;
    v.table = 0;
    v.table_seat = -1;
    memset(v.bombs, 0, sizeof v.bombs);
    refused(&f, &v, "cards_left"); /* the cards played vanish: counts no longer add up */
    done(&f);
}

static void test_table_and_roles(void **s)
{
    (void)s;
    fixture f;
    make(&f, "ddz", false, -1, 5); /* bids, then plays */
    assert_int_equal(f.v.phase, CB_PHASE_PLAY);
    cb_view v = f.v;
    if (v.table) {
        v.table_seat = (v.table_seat + 1) % 3 == v.seat ? (v.table_seat + 2) % 3 : (v.table_seat + 1) % 3;
        refused(&f, &v, "table_seat");
        v = f.v;
        v.table = 0;
        v.table_seat = -1;
        refused(&f, &v, "table");
    } else {
        v.table = f.hist[0].cards;
        v.table_seat = f.hist[0].seat;
        refused(&f, &v, "table");
    }
    v = f.v;
    v.first_seat = (v.landlord + 1) % 3;
    refused(&f, &v, "first_seat");
    v = f.v;
    v.landlord = (v.landlord + 1) % 3;
    v.first_seat = v.landlord;
    refused(&f, &v, "landlord");
    v = f.v;
    v.bottom = 0;
    refused(&f, &v, "bottom");
    done(&f);

    /* during the bidding: no bottom, no landlord, bids in turn */
    make(&f, "ddz", false, -1, 1);
    assert_int_equal(f.v.phase, CB_PHASE_BID);
    v = f.v;
    v.bottom = cb_engine_bottom(f.e);
    refused(&f, &v, "bottom");
    v = f.v;
    v.bids[v.seat] = 1; /* the seat to bid has bid already */
    refused(&f, &v, "bids");
    v = f.v;
    v.first_seat = v.first_bidder;
    refused(&f, &v, "first_seat");
    v = f.v;
    v.first_bidder = (v.first_bidder + 1) % 3;
    refused(&f, &v, "bids");
    done(&f);
}

/* A 1.0 view (no first_bidder; DDZ's first_seat was the first bidder) reads as its 1.1 twin. */
static void test_upgrade(void **s)
{
    (void)s;
    fixture f;
    make(&f, "ddz", false, -1, 1);
    cb_view old = f.v;
    old.struct_size = CB_VIEW_SIZE_1_0;
    old.first_seat = f.v.first_bidder;
    char err[160];
    assert_int_equal(cb_view_check(&f.r, &old, err, sizeof err), 0);
    cb_view up;
    assert_int_equal(cb_view_upgrade(&old, &up), 0);
    assert_int_equal(up.first_bidder, f.v.first_bidder);
    assert_int_equal(up.first_seat, -1);
    assert_int_equal(up.struct_size, sizeof up);
    int32_t b[4];
    int n = cb_view_legal_bids(&f.v, b, 4);
    assert_true(n >= 2);
    assert_int_equal(b[0], 0);
    assert_int_equal(b[1], f.v.bids[0] > 0 || f.v.bids[1] > 0 || f.v.bids[2] > 0 ? 2 : 1);
    done(&f);
    make(&f, "ddz", true, -1, 1); /* rob: after a call, only 0 or 2 */
    n = cb_view_legal_bids(&f.v, b, 4);
    assert_int_equal(n, 2);
    assert_int_equal(b[1], 2);
    done(&f);
}

/* The incremental checker gives cb_view_check's verdict, word for word: on every real view of
 * random games (the checker resumes from the seat's last view) and on each view with one fact
 * broken at random (the history before the last view, the hand, counts, the table). */
static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void mutate(cb_view *v, cb_play_rec *hist, uint64_t *rng)
{
    int what = (int)(xorshift(rng) % 6);
    int n = v->nhistory;
    switch (what) {
    case 0: /* an early entry changes hands */
        if (n > 0) {
            int i = (int)(xorshift(rng) % (uint64_t)n);
            hist[i].cards = hist[i].cards ? 0 : v->hand & -v->hand;
            break;
        }
        /* fall through */
    case 1: /* my hand swaps a card for another seat's */
        v->hand = (v->hand & (v->hand - 1)) | ((cb_cards)1 << (xorshift(rng) % 48));
        break;
    case 2:
        v->cards_left[xorshift(rng) % 3] += 1;
        break;
    case 3: /* an early entry swapped with a later one */
        if (n > 3) {
            int i = (int)(xorshift(rng) % (uint64_t)(n - 3));
            cb_cards c = hist[i].cards;
            hist[i].cards = hist[i + 3].cards;
            hist[i + 3].cards = c;
        }
        break;
    case 4:
        v->table_seat = v->table_seat < 0 ? (v->seat + 2) % 3 : -1;
        break;
    default:
        v->bombs[xorshift(rng) % 3] += 1;
        break;
    }
}

static void test_checker_agrees(void **s)
{
    (void)s;
    const char *presets[] = {"pdk16", "ddz", "pdk15"};
    int views = 0, mutants = 0, refused_n = 0;
    uint64_t rng = 12345;
    for (int pi = 0; pi < 3; pi++) {
        cb_rules r;
        assert_int_equal(cb_rules_preset(presets[pi], &r), 0);
        cb_view_checker *chk = cb_view_checker_new();
        assert_non_null(chk);
        for (int g = 0; g < 60; g++) {
            cb_engine_opts o = {.struct_size = sizeof o, .key = 8, .deal = (uint64_t)g, .first_bidder = -1,
                                .landlord = -1};
            cb_engine *e = cb_engine_new(&r, &o, NULL, 0);
            while (cb_engine_phase(e) != CB_PHASE_OVER) {
                cb_view v;
                cb_engine_view(e, cb_engine_turn(e), 100, &v);
                char a[200] = "", b[200] = "";
                assert_int_equal(cb_view_checker_check(chk, &r, &v, b, sizeof b), 0);
                views++;
                if (xorshift(&rng) % 3 == 0) { /* a broken twin; the checker must not be fooled */
                    static cb_play_rec hist[256];
                    cb_view m = v;
                    memcpy(hist, v.history, (size_t)v.nhistory * sizeof hist[0]);
                    m.history = hist;
                    mutate(&m, hist, &rng);
                    int ra = cb_view_check(&r, &m, a, sizeof a);
                    int rb = cb_view_checker_check(chk, &r, &m, b, sizeof b);
                    assert_int_equal(ra, rb);
                    assert_string_equal(a, b);
                    mutants++;
                    refused_n += ra != 0;
                }
                if (cb_engine_phase(e) == CB_PHASE_BID) {
                    int32_t bids[4];
                    int n = cb_engine_legal_bids(e, bids, 4);
                    assert_int_equal(cb_engine_bid(e, bids[xorshift(&rng) % (uint64_t)n], NULL, 0), 0);
                } else {
                    cb_cards p[256];
                    int n = cb_engine_legal_plays(e, p, 256);
                    int pick = (int)(xorshift(&rng) % (uint64_t)(n < 256 ? n : 256));
                    assert_int_equal(cb_engine_play(e, p[pick], NULL, 0), 0);
                }
            }
            cb_engine_free(e);
        }
        cb_view_checker_free(chk);
    }
    print_message("checker: %d real views accepted, %d broken twins (%d refused) with the same verdict and reason\n",
                  views, mutants, refused_n);
    assert_true(refused_n > mutants / 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_and_hand),
        cmocka_unit_test(test_history),
        cmocka_unit_test(test_table_and_roles),
        cmocka_unit_test(test_upgrade),
        cmocka_unit_test(test_checker_agrees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

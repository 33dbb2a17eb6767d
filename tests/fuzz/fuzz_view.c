/* Fuzz target "view": host views through cb_view_check, the incremental checker and the shim.
 *
 * A view is either played (the engine of one of six rule sets plays a fuzzed number of fuzzed
 * actions, then gives the view of a seat) and then broken by up to eight fuzzed edits of its
 * members and history, or read raw from the input. Then:
 *  - cb_view_check must not crash, and its verdict must be the incremental checker's (one
 *    checker per rule set, living across inputs, so it sees views that go on from earlier
 *    ones and views that do not);
 *  - the shim (a table of the "lowest" test plugin at every seat, in-process) must refuse
 *    exactly the views cb_view_check refuses, and answer every view it accepts with a legal
 *    bid (one of cb_view_legal_bids) or a legal play (in the hand, cb_play_legal, the spade 3
 *    on PDK's first play) — checked here with core, as a host would;
 *  - an accepted view must have the facts of a real position that this file works out by
 *    itself: the hand matches its count and holds no played card, the history is in turn and
 *    plays no card twice, cards held and played add up to the deck, the table is the current
 *    trick's last play (a check that lets an impossible view through is caught here, not only
 *    one that refuses a real one).
 * The view's rules pointer is the table's, NULL or another rule set's (which the shim and the
 * check with the table's rules must refuse); the history buffer always holds nhistory entries
 * (a host that lies about its own array is not the shim's to catch), except that a NULL
 * history may come with any count.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cardbot/game.h"
#include "cardbot/shim.h"
#include "fuzzkit.h"

#define NV 6
#define HCAP 512

static const struct {
    const char *preset, *key, *value;
} variants[NV] = {
    {"pdk16", NULL, NULL},       {"pdk15", NULL, NULL}, {"guanpai", NULL, NULL},
    {"ddz", NULL, NULL},         {"ddz", "rob", "true"}, {"pdk16", "spade3_first", "false"},
};

static struct {
    cb_shim *shim;
    cb_table *table;
    const cb_rules *rules;
    cb_view_checker *checker;
} V[NV];

static void setup(void)
{
    if (V[0].shim)
        return;
    const char *tmp = getenv("CB_FUZZ_TMP");
    const char *b = getenv("CB_BUILD");
    char base[2048], cwd[2048];
    if (tmp && *tmp) {
        snprintf(base, sizeof base, "%s", tmp);
    } else {
        snprintf(base, sizeof base, "/tmp/cbfuzz-view-%d", (int)getpid());
        if (mkdir(base, 0700) != 0 && errno != EEXIST)
            fz_fail("mkdir %s: %s", base, strerror(errno));
    }
    if (!getcwd(cwd, sizeof cwd))
        fz_fail("getcwd");
    for (int i = 0; i < NV; i++) {
        char path[4096], err[1024];
        snprintf(path, sizeof path, "%s/view%d.ini", base, i);
        FILE *f = fopen(path, "w");
        if (!f)
            fz_fail("%s: %s", path, strerror(errno));
        fprintf(f,
                "[shim]\nplugin_dir = %s%s%s/tests/plugins\nbudget_ms = 5000\n[game]\nrules = %s\n[rules]\n%s%s%s%s"
                "[strategy.lo]\nplugin = lowest\n[seats]\n0 = lo\n1 = lo\n2 = lo\n",
                b && b[0] == '/' ? "" : cwd, b && b[0] == '/' ? "" : "/", b ? b : "build/fuzz", variants[i].preset,
                variants[i].key ? variants[i].key : "", variants[i].key ? " = " : "",
                variants[i].key ? variants[i].value : "", variants[i].key ? "\n" : "");
        fclose(f);
        V[i].shim = cb_shim_open(path, err, sizeof err);
        if (!V[i].shim)
            fz_fail("%s", err);
        V[i].table = cb_table_new(V[i].shim, NULL, err, sizeof err);
        if (!V[i].table)
            fz_fail("%s", err);
        V[i].rules = cb_shim_rules(V[i].shim);
        V[i].checker = cb_view_checker_new();
    }
}

static cb_play_rec hist[HCAP];
static cb_cards plays[CB_MOVES_CAP];

/* Play the engine `actions` steps with fuzzed choices; returns the engine (caller frees). */
static cb_engine *played(const cb_rules *r, fz_in *in)
{
    cb_engine_opts o = {.struct_size = sizeof o, .key = fz_u16(in), .first_bidder = -1, .landlord = -1};
    uint8_t roles = fz_u8(in);
    if (r->game == CB_GAME_DDZ) {
        o.first_bidder = roles & 3 ? (roles & 3) - 1 : -1;
        if (roles & 4)
            o.landlord = (roles >> 3) % 3; /* fixed roles: no bidding */
    }
    o.deal = o.game = fz_u8(in);
    char err[200];
    cb_engine *e = cb_engine_new(r, &o, err, sizeof err);
    FZ_CHECK(e != NULL, "cb_engine_new(%s): %s", r->preset, err);
    int actions = fz_u8(in);
    for (int i = 0; i < actions && cb_engine_phase(e) != CB_PHASE_OVER; i++) {
        if (cb_engine_phase(e) == CB_PHASE_BID) {
            int32_t bids[4];
            int n = cb_engine_legal_bids(e, bids, 4);
            FZ_CHECK(n > 0 && n <= 4, "legal bids %d", n);
            FZ_CHECK(cb_engine_bid(e, bids[fz_below(in, (unsigned)n)], err, sizeof err) == 0, "bid: %s", err);
        } else {
            int n = cb_engine_legal_plays(e, plays, CB_MOVES_CAP);
            FZ_CHECK(n > 0 && n <= CB_MOVES_CAP, "legal plays %d", n);
            FZ_CHECK(cb_engine_play(e, plays[fz_below(in, (unsigned)n)], err, sizeof err) == 0, "play: %s", err);
        }
    }
    return e;
}

static int8_t s8(fz_in *in) { return (int8_t)fz_u8(in); }

/* One fuzzed edit of the view. */
static void edit(cb_view *v, fz_in *in, int v_index)
{
    int i = fz_u8(in) % 3;
    uint8_t k = fz_u8(in);
    switch (k % 24) {
    case 0: v->phase = fz_u8(in) % 4; break;
    case 1: v->seat = s8(in) % 5; break;
    case 2: v->nseats = s8(in) % 5; break;
    case 3: v->first_seat = s8(in) % 4; break;
    case 4: v->first_bidder = s8(in) % 4; break;
    case 5: v->hand ^= (cb_cards)1 << (fz_u8(in) % 64); break;
    case 6: v->cards_left[i] += s8(in) % 4; break;
    case 7: v->bombs[i] = s8(in) % 3; break;
    case 8: v->bids[i] = s8(in) % 5; break;
    case 9: v->landlord = s8(in) % 4; break;
    case 10: v->bottom ^= (cb_cards)1 << (fz_u8(in) % 54); break;
    case 11: {
        int n = (int)fz_u8(in) - 2; /* -2..253: cut, extend into the buffer (stale entries) */
        v->nhistory = n;
        if (v->history && n > 0 && n > HCAP)
            v->nhistory = HCAP;
        break;
    }
    case 12:
        if (v->nhistory > 0 && v->history == hist)
            hist[fz_below(in, (unsigned)v->nhistory)].seat = s8(in) % 4;
        break;
    case 13:
        if (v->nhistory > 0 && v->history == hist)
            hist[fz_below(in, (unsigned)v->nhistory)].cards ^= (cb_cards)1 << (fz_u8(in) % 54);
        break;
    case 14: v->table_seat = s8(in) % 4; break;
    case 15: v->table ^= (cb_cards)1 << (fz_u8(in) % 54); break;
    case 16: {
        static const uint32_t sizes[] = {sizeof(cb_view), CB_VIEW_SIZE_1_0, 0, 8, CB_VIEW_SIZE_1_0 - 8,
                                         sizeof(cb_view) + 64};
        v->struct_size = sizes[fz_u8(in) % 6];
        break;
    }
    case 17: {
        static const uint32_t abis[] = {CB_ABI_VERSION, 1u << 16, 2u << 16, (1u << 16) | 9u, 0};
        v->abi_version = abis[fz_u8(in) % 5];
        break;
    }
    case 18: {
        int o = fz_u8(in) % (NV + 1);
        v->rules = o == NV ? NULL : V[o].rules; /* another table's rules, or none */
        (void)v_index;
        break;
    }
    case 19:
        /* NULL with a count is a lie the check must survive. NULL with none is what the
         * worker protocol itself hands plugins — and core/view_check.c's checker then passes
         * NULL to memcpy / memcmp (size 0, still undefined behaviour: UBSan stops there; a
         * finding of this target, reported). Until it is fixed that case runs only with
         * CB_FUZZ_KNOWN=1, so the brief run in make check keeps looking for new ones. */
        if (v->nhistory != 0 || getenv("CB_FUZZ_KNOWN"))
            v->history = NULL;
        break;
    case 20: v->budget_ms = fz_u32(in); break;
    case 21: v->seed = fz_u64(in); break;
    case 22: /* drop one entry of the history */
        if (v->nhistory > 0 && v->history == hist) {
            int j = (int)fz_below(in, (unsigned)v->nhistory);
            memmove(&hist[j], &hist[j + 1], (size_t)(v->nhistory - j - 1) * sizeof hist[0]);
            v->nhistory--;
        }
        break;
    case 23: /* repeat one entry at the end */
        if (v->nhistory > 0 && v->nhistory < HCAP && v->history == hist) {
            hist[v->nhistory] = hist[fz_below(in, (unsigned)v->nhistory)];
            v->nhistory++;
        }
        break;
    }
}

/* A view straight from the bytes. */
static void raw_view(cb_view *v, const cb_rules *r, fz_in *in)
{
    memset(v, 0, sizeof *v);
    v->struct_size = sizeof *v;
    v->abi_version = CB_ABI_VERSION;
    v->rules = r;
    v->phase = 1 + fz_u8(in) % 2;
    v->seat = fz_u8(in) % 3;
    v->nseats = 3;
    v->first_seat = s8(in) % 4;
    v->first_bidder = s8(in) % 4;
    v->hand = fz_u64(in) & r->deck;
    for (int s = 0; s < 3; s++) {
        v->cards_left[s] = fz_u8(in) % 24;
        v->bombs[s] = fz_u8(in) % 2;
        v->bids[s] = s8(in) % 4;
    }
    v->landlord = s8(in) % 4;
    if (fz_u8(in) & 1)
        v->bottom = fz_u64(in) & r->deck;
    v->nhistory = fz_u8(in) % 48;
    for (int i = 0; i < v->nhistory; i++) {
        hist[i].seat = fz_u8(in) % 3;
        hist[i].cards = fz_u8(in) & 1 ? 0 : fz_u64(in) & r->deck;
    }
    v->history = hist;
    v->table_seat = s8(in) % 4;
    v->table = fz_u8(in) & 1 ? 0 : fz_u64(in) & r->deck;
    v->seed = fz_u64(in);
}

/* A few facts every real position has, worked out here from the view alone (not by the
 * check): a view cb_view_check accepts must have them, or the check let an impossible view
 * through. v: the view as read (upgraded, rules set). */
static void check_facts(const cb_rules *r, const cb_view *v)
{
    char a[80];
    int left = 0;
    for (int s = 0; s < 3; s++)
        left += v->cards_left[s];
    FZ_CHECK((v->hand & ~r->deck) == 0 && cb_cards_size(v->hand) == v->cards_left[v->seat],
             "%s: accepted a hand of %d cards (cards_left says %d) or outside the deck", r->preset,
             cb_cards_size(v->hand), v->cards_left[v->seat]);
    if (v->phase == CB_PHASE_BID) {
        FZ_CHECK(v->nhistory == 0, "%s: accepted a bid view with a play history", r->preset);
        FZ_CHECK(r->game == CB_GAME_DDZ || r->bao, "%s: accepted a bid view without bidding", r->preset);
        FZ_CHECK(left == cb_cards_size(r->deck) - r->bottom, "%s: bidding, %d cards held", r->preset, left);
        return;
    }
    cb_cards played = 0, last = 0;
    int passes = 0, last_seat = -1;
    for (int i = 0; i < v->nhistory; i++) {
        const cb_play_rec *h = &v->history[i];
        FZ_CHECK(h->seat == (v->first_seat + i) % 3, "%s: accepted history entry %d by seat %d out of turn",
                 r->preset, i, h->seat);
        FZ_CHECK((h->cards & played) == 0 && (h->cards & ~r->deck) == 0, "%s: accepted history entry %d (%s) "
                 "playing a card twice or outside the deck", r->preset, i, fz_cards_text(h->cards, a, sizeof a));
        played |= h->cards;
        if (h->cards) {
            last = h->cards;
            last_seat = h->seat;
            passes = 0;
        } else if (++passes == 2) {
            last = 0; /* the trick is over: its winner leads */
            last_seat = -1;
            passes = 0;
        }
    }
    FZ_CHECK(v->seat == (v->first_seat + v->nhistory) % 3, "%s: accepted a view of seat %d out of turn",
             r->preset, v->seat);
    FZ_CHECK((v->hand & played) == 0, "%s: accepted a hand holding played cards", r->preset);
    FZ_CHECK(left + cb_cards_size(played) == cb_cards_size(r->deck), "%s: accepted %d cards held + %d played",
             r->preset, left, cb_cards_size(played));
    FZ_CHECK(v->table == last && v->table_seat == last_seat, "%s: accepted table %s (seat %d); the history's "
             "current trick says %s (seat %d)", r->preset, fz_cards_text(v->table, a, sizeof a), v->table_seat,
             last ? "a play" : "a lead", last_seat);
}

/* The shim's answer, checked with core as a host would (on the view as the shim read it: the
 * table's rules when it named none, a 1.0 view upgraded). */
static void check_answer(const cb_rules *r, const cb_view *given, const cb_decision *d)
{
    char a[80], h[80];
    cb_view in, up;
    memset(&in, 0, sizeof in);
    memcpy(&in, given, given->struct_size < sizeof in ? given->struct_size : sizeof in);
    if (!in.rules)
        in.rules = r;
    FZ_CHECK(cb_view_upgrade(&in, &up) == 0, "an accepted view of %u bytes does not upgrade", given->struct_size);
    const cb_view *v = &up;
    check_facts(r, v);
    if (v->phase == CB_PHASE_BID) {
        int32_t bids[8];
        int n = cb_view_legal_bids(v, bids, 8);
        bool ok = false;
        for (int i = 0; i < n && i < 8; i++)
            ok |= bids[i] == d->bid;
        FZ_CHECK(ok, "%s: the shim bid %d, not one of the %d legal bids", r->preset, d->bid, n);
        return;
    }
    FZ_CHECK((d->cards & ~v->hand) == 0, "%s: the shim played %s, not in the hand %s", r->preset,
             fz_cards_text(d->cards, a, sizeof a), fz_cards_text(v->hand, h, sizeof h));
    cb_ctx ctx = {.hand = cb_counts_of(v->hand)};
    cb_move table;
    if (v->table) {
        FZ_CHECK(cb_classify(r, cb_counts_of(v->table), &table, NULL, 0), "an accepted view's table is no play");
        ctx.table = &table;
    }
    ctx.next_has_one = v->cards_left[(v->seat + 1) % 3] == 1;
    ctx.first_play = r->game == CB_GAME_PDK && r->spade3_first && v->nhistory == 0;
    char why[160] = "";
    cb_move m;
    FZ_CHECK(cb_play_legal(r, &ctx, cb_counts_of(d->cards), &m, why, sizeof why),
             "%s: the shim answered %s from %s: %s", r->preset, fz_cards_text(d->cards, a, sizeof a),
             fz_cards_text(v->hand, h, sizeof h), why);
    if (ctx.first_play)
        FZ_CHECK(d->cards & cb_card_bit(0), "%s: the first play %s lacks the spade 3", r->preset,
                 fz_cards_text(d->cards, a, sizeof a));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup();
    fz_in in = {data, size};
    int vi = fz_u8(&in) % NV;
    const cb_rules *r = V[vi].rules;
    uint8_t mode = fz_u8(&in);
    cb_view v;
    cb_engine *e = NULL;
    if (!(mode & 1)) {
        e = played(r, &in);
        if (cb_engine_phase(e) == CB_PHASE_OVER) {
            cb_engine_free(e);
            return 0;
        }
        int seat = cb_engine_turn(e);
        if (mode & 2)
            seat = fz_u8(&in) % 3; /* another seat's view: not its turn */
        FZ_CHECK(cb_engine_view(e, seat, fz_u16(&in), &v) == 0, "cb_engine_view");
        /* a copy of the history the edits may change */
        FZ_CHECK(v.nhistory >= 0 && v.nhistory <= HCAP, "history of %d", v.nhistory);
        if (v.nhistory)
            memcpy(hist, v.history, (size_t)v.nhistory * sizeof hist[0]);
        v.history = hist;
        if (mode & 4)
            v.rules = NULL;
        int edits = (mode >> 3) % 9;
        for (int k = 0; k < edits; k++)
            edit(&v, &in, vi);
    } else {
        raw_view(&v, r, &in);
    }

    char err[512] = "", err2[512] = "";
    int full = cb_view_check(r, &v, err, sizeof err);
    int inc = cb_view_checker_check(V[vi].checker, r, &v, err2, sizeof err2);
    FZ_CHECK((full == 0) == (inc == 0), "%s: cb_view_check says %d (%s), the incremental checker %d (%s)",
             r->preset, full, err, inc, err2);
    FZ_CHECK(full == 0 || err[0], "%s: refused without a reason", r->preset);

    cb_decision d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    bool bid = v.phase == CB_PHASE_BID;
    int rc = bid ? cb_decide_bid(V[vi].table, &v, &d) : cb_decide_play(V[vi].table, &v, &d);
    if (full == 0 && (v.phase == CB_PHASE_BID || v.phase == CB_PHASE_PLAY)) {
        FZ_CHECK(rc >= 0, "%s: cb_view_check accepts the view, the shim refuses it: %d (%s)", r->preset, rc,
                 cb_table_last_error(V[vi].table));
        check_answer(r, &v, &d);
    } else {
        FZ_CHECK(rc < 0, "%s: cb_view_check refuses the view (%s), the shim answered (%d)", r->preset,
                 full ? err : "phase", rc);
    }
    if (e)
        cb_engine_free(e);
    return 0;
}

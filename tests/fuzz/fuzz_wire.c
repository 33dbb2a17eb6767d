/* Fuzz target "wire": the host's side of the worker protocol (host-shim/shim_process.c) on
 * fuzzed bytes from the worker, through the public API only.
 *
 * shim_process.c has no decoder that can be called alone (read_frame reads from the worker's
 * socket inside shim_worker_decide), so the bytes are put on the socket where a real worker
 * would: seat 0 of a process-isolated table runs the test plugin wirefuzz
 * (tests/plugins/wirefuzz.c; seats 1 and 2, never asked, run lowest), which before answering
 * reads this input from a file and writes it onto its reply channel — raw bytes, or a forged
 * reply frame with a sequence number near the request's (the target counts the requests, so
 * stale, current and future numbers are all reachable), then answers, or exits, or sleeps past
 * the deadline.
 * Input: byte 0 picks one of the seat's recorded views (bids and plays of a PDK game with
 * 包庄), byte 1 what the plugin does, the rest is the body (wirefuzz.c says how it is read).
 * Checked: cb_decide_* never fails or crashes on whatever the worker sends, and always gives
 * a legal answer with a NUL-terminated explanation; after any fallback the table is made
 * again (a fresh worker, no restart back-off to wait out).
 * The other direction — the worker decoding the host's requests — is fuzz_wirereq.c, on the
 * decoder alone (host-shim/shim_wire.c): through the public API a worker only ever sees the
 * shim's own well-formed frames.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cardbot/game.h"
#include "cardbot/shim.h"
#include "fuzzkit.h"

#define NVIEWS 12

static struct {
    cb_view v;
    cb_play_rec hist[128];
} views[NVIEWS];
static int nviews;
static cb_shim *shim;
static cb_table *table;
static uint64_t seq; /* requests sent to the current table's seat-0 worker */
static char infile[4096];
static cb_cards plays[CB_MOVES_CAP];

/* Record the views of seat 0 in a few engine games (lowest play for everybody). */
static void record_views(const cb_rules *r)
{
    for (uint64_t g = 0; nviews < NVIEWS && g < 16; g++) {
        cb_engine_opts o = {.struct_size = sizeof o, .key = 77, .deal = g, .game = g, .first_bidder = -1,
                            .landlord = -1};
        char err[200];
        cb_engine *e = cb_engine_new(r, &o, err, sizeof err);
        if (!e)
            fz_fail("cb_engine_new: %s", err);
        for (int step = 0; nviews < NVIEWS && cb_engine_phase(e) != CB_PHASE_OVER; step++) {
            if (cb_engine_turn(e) == 0 && step % 3 == 0) {
                cb_view *v = &views[nviews].v;
                cb_engine_view(e, 0, 0, v);
                if (v->nhistory > 128)
                    break;
                memcpy(views[nviews].hist, v->history, (size_t)v->nhistory * sizeof v->history[0]);
                v->history = views[nviews].hist;
                v->rules = NULL;
                nviews++;
            }
            if (cb_engine_phase(e) == CB_PHASE_BID) {
                if (cb_engine_bid(e, 0, err, sizeof err) != 0)
                    fz_fail("bid: %s", err);
            } else {
                int n = cb_engine_legal_plays(e, plays, CB_MOVES_CAP);
                if (n < 1 || cb_engine_play(e, plays[n > 1 && plays[0] == 0 ? 1 : 0], err, sizeof err) != 0)
                    fz_fail("play: %s", err);
            }
        }
        cb_engine_free(e);
    }
    if (nviews < 2)
        fz_fail("only %d views recorded", nviews);
}

static void setup(void)
{
    if (shim)
        return;
    const char *tmp = getenv("CB_FUZZ_TMP");
    const char *b = getenv("CB_BUILD");
    char base[2048], cwd[2048], path[4096], err[1024];
    if (tmp && *tmp) {
        snprintf(base, sizeof base, "%s", tmp);
    } else {
        snprintf(base, sizeof base, "/tmp/cbfuzz-wire-%d", (int)getpid());
        if (mkdir(base, 0700) != 0 && errno != EEXIST)
            fz_fail("mkdir %s: %s", base, strerror(errno));
    }
    if (!getcwd(cwd, sizeof cwd))
        fz_fail("getcwd");
    snprintf(infile, sizeof infile, "%s/wire.in", base);
    snprintf(path, sizeof path, "%s/wire.ini", base);
    FILE *f = fopen(path, "w");
    if (!f)
        fz_fail("%s: %s", path, strerror(errno));
    /* budget 10 ms: a worker that never answers costs 10 + 10 ms of margin */
    fprintf(f,
            "[shim]\nplugin_dir = %s%s%s/tests/plugins\nisolation = process\nbudget_ms = 10\n"
            "[game]\nrules = pdk16\n[strategy.w]\nplugin = wirefuzz\nfile = %s\n"
            "[strategy.lo]\nplugin = lowest\n[seats]\n0 = w\n1 = lo\n2 = lo\n",
            b && b[0] == '/' ? "" : cwd, b && b[0] == '/' ? "" : "/", b ? b : "build/fuzz", infile);
    fclose(f);
    shim = cb_shim_open(path, err, sizeof err);
    if (!shim)
        fz_fail("%s", err);
    record_views(cb_shim_rules(shim));
}

static void check_answer(const cb_rules *r, const cb_view *v0, const cb_decision *d)
{
    cb_view v = *v0;
    v.rules = r;
    FZ_CHECK(memchr(d->explain, '\0', sizeof d->explain) != NULL, "the explanation is not NUL-terminated");
    if (v.phase == CB_PHASE_BID) {
        int32_t bids[8];
        int n = cb_view_legal_bids(&v, bids, 8);
        bool ok = false;
        for (int i = 0; i < n && i < 8; i++)
            ok |= bids[i] == d->bid;
        FZ_CHECK(ok, "bid %d is not legal here (%d legal bids)", d->bid, n);
        return;
    }
    FZ_CHECK((d->cards & ~v.hand) == 0, "the answer is not in the hand");
    cb_ctx ctx = {.hand = cb_counts_of(v.hand)};
    cb_move table_move, m;
    if (v.table) {
        FZ_CHECK(cb_classify(r, cb_counts_of(v.table), &table_move, NULL, 0), "table");
        ctx.table = &table_move;
    }
    ctx.next_has_one = v.cards_left[1] == 1;
    ctx.first_play = r->spade3_first && v.nhistory == 0;
    char why[160] = "", a[80];
    FZ_CHECK(cb_play_legal(r, &ctx, cb_counts_of(d->cards), &m, why, sizeof why), "answer %s: %s",
             fz_cards_text(d->cards, a, sizeof a), why);
    if (ctx.first_play)
        FZ_CHECK(d->cards & cb_card_bit(0), "first play without the spade 3");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup();
    if (size > 2048)
        return 0;
    fz_in in = {data, size};
    const cb_view *v = &views[fz_u8(&in) % nviews].v;
    uint8_t what = fz_u8(&in);
    char err[1024];
    if (!table) {
        table = cb_table_new(shim, NULL, err, sizeof err);
        FZ_CHECK(table != NULL, "cb_table_new: %s", err);
        seq = 0;
    }
    /* the plugin's instructions: what to do, the coming request's number, the body */
    FILE *f = fopen(infile, "wb");
    FZ_CHECK(f != NULL, "%s: %s", infile, strerror(errno));
    uint64_t next = seq + 1;
    fputc(what, f);
    fwrite(&next, sizeof next, 1, f);
    fwrite(in.p, 1, in.n, f);
    fclose(f);

    cb_decision d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    int rc = v->phase == CB_PHASE_BID ? cb_decide_bid(table, v, &d) : cb_decide_play(table, v, &d);
    seq++;
    FZ_CHECK(rc >= 0, "cb_decide_*: %d (%s)", rc, cb_table_last_error(table));
    check_answer(cb_shim_rules(shim), v, &d);
    if (rc != CB_OK) {
        /* the worker may be gone or backing off: start the next input with a fresh one */
        cb_table_free(table);
        table = NULL;
    }
    return 0;
}

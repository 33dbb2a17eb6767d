/* cardbot tests — the fixture of the shim tests (see shimfix.h). */
#include "shimfix.h"

#include <dlfcn.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include <sys/mman.h>
#include <unistd.h>

#include "cardbot/game.h"

#include "../plugins/tplug.h"

static int resolve(const char *who, void *dl, const char *name, void *fnp)
{
    void *p = dlsym(dl, name);
    if (!p) {
        fprintf(stderr, "%s: %s missing from the shim\n", who, name);
        return -1;
    }
    memcpy(fnp, &p, sizeof p);
    return 0;
}

int cbt_shimfix_setup(void **state, const char *who, const char *tmpl)
{
    cbt_shimfix *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    const char *b = getenv("CB_BUILD");
    char abs[PATH_MAX];
    if (!realpath(b && *b ? b : "build/plain", abs)) {
        fprintf(stderr, "%s: no build directory %s\n", who, b ? b : "build/plain");
        free(f);
        return -1;
    }
    f->build = g_strdup(abs);
    f->tplugs = g_build_filename(abs, "tests", "plugins", NULL);
    char *so = g_build_filename(abs, "libcardbot-shim.so", NULL);
    f->api.dl = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    g_free(so);
    if (!f->api.dl) {
        fprintf(stderr, "%s: %s\n", who, dlerror());
        return -1;
    }
    cbt_shim_api *a = &f->api;
    const struct {
        const char *name;
        void *fnp;
    } syms[] = {
        {"cb_shim_open", &a->open},
        {"cb_shim_reload", &a->reload},
        {"cb_shim_free", &a->free},
        {"cb_shim_rules", &a->rules},
        {"cb_shim_get", &a->get},
        {"cb_table_new", &a->table_new},
        {"cb_table_new_seated", &a->table_new_seated},
        {"cb_table_free", &a->table_free},
        {"cb_table_strategy", &a->table_strategy},
        {"cb_decide_bid", &a->decide_bid},
        {"cb_decide_play", &a->decide_play},
        {"cb_shim_stats", &a->stats},
        {"cb_strerror", &a->strerror},
        {"cb_table_last_error", &a->last_error},
        {"cb_table_seat_info", &a->seat_info},
    };
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++)
        if (resolve(who, a->dl, syms[i].name, syms[i].fnp))
            return -1;
    GError *ge = NULL;
    f->tmp = g_dir_make_tmp(tmpl, &ge);
    if (!f->tmp) {
        fprintf(stderr, "%s: %s\n", who, ge->message);
        g_error_free(ge);
        return -1;
    }
    *state = f;
    return 0;
}

static void rm_tree(const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *n;
    while (d && (n = g_dir_read_name(d))) {
        char *p = g_build_filename(dir, n, NULL);
        g_unlink(p);
        g_free(p);
    }
    if (d)
        g_dir_close(d);
    g_rmdir(dir);
}

int cbt_shimfix_teardown(void **state)
{
    cbt_shimfix *f = *state;
    if (!f)
        return 0;
    if (f->tmp)
        rm_tree(f->tmp);
    /* the shim stays loaded: glib keeps process-wide state that must not vanish under it */
    g_free(f->tmp);
    g_free(f->tplugs);
    g_free(f->build);
    free(f);
    return 0;
}

/* ---- configs ---- */

char *cbt_conf_raw(cbt_shimfix *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *body = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    char name[32];
    snprintf(name, sizeof name, "c%03d.ini", f->nfiles++);
    char *path = g_build_filename(f->tmp, name, NULL);
    assert_true(g_file_set_contents(path, body, -1, NULL));
    g_free(body);
    return path;
}

char *cbt_conf_tp(cbt_shimfix *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *body = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    char *line = g_strdup_printf("plugin_dir = %s\n", f->tplugs);
    const char *hdr = "[shim]\n";
    const char *at = g_str_has_prefix(body, hdr) ? body : strstr(body, "\n[shim]\n");
    char *text;
    if (!at) {
        text = g_strconcat(hdr, line, body, NULL);
    } else {
        if (at != body)
            at++; /* past the newline before the header */
        gsize cut = (gsize)(at - body) + strlen(hdr);
        char *head = g_strndup(body, cut);
        text = g_strconcat(head, line, body + cut, NULL);
        g_free(head);
    }
    char *path = cbt_conf_raw(f, "%s", text);
    g_free(text);
    g_free(line);
    g_free(body);
    return path;
}

void cbt_rewrite(const char *path, const char *body)
{
    assert_true(g_file_set_contents(path, body, -1, NULL));
}

void cbt_expect_open_error(cbt_shimfix *f, const char *path, ...)
{
    char err[1024] = "";
    cb_shim *s = f->api.open(path, err, sizeof err);
    if (s) {
        f->api.free(s);
        fail_msg("%s opened, an error was expected", path);
    }
    if (getenv("CB_VERBOSE"))
        printf("    %s\n", err);
    va_list ap;
    va_start(ap, path);
    const char *needle;
    while ((needle = va_arg(ap, const char *)))
        if (!strstr(err, needle)) {
            va_end(ap);
            fail_msg("error \"%s\" lacks \"%s\"", err, needle);
        }
    va_end(ap);
}

cb_shim *cbt_open_ok(cbt_shimfix *f, const char *path)
{
    char err[1024] = "";
    cb_shim *s = f->api.open(path, err, sizeof err);
    if (!s)
        fail_msg("open %s: %s", path, err);
    return s;
}

cb_table *cbt_table_ok(cbt_shimfix *f, cb_shim *s, const char *id)
{
    char err[1024] = "";
    cb_table *t = f->api.table_new(s, id, err, sizeof err);
    if (!t)
        fail_msg("table %s: %s", id ? id : "(default)", err);
    return t;
}

/* ---- views ---- */

cb_cards cbt_cards(const cb_rules *r, const char *text)
{
    cb_cards c = 0;
    char err[128];
    if (cb_cards_parse(text, r->deck, &c, err, sizeof err) != 0)
        fail_msg("cards '%s': %s", text, err);
    return c;
}

/* ---- real positions ---- */

enum { ACT_BID, ACT_PLAY, ACT_DECLINE };
#define MAXACT 64
#define TRIES 2000 /* random deals tried before a position is declared unreachable */

typedef struct act {
    int kind, seat, bid;
    cb_cards cards;
} act;

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Card text among the cards avail (a bare rank takes the lowest suit still free there). */
static cb_cards parse_in(const char *text, cb_cards avail, const char *what)
{
    cb_cards c = 0;
    char err[128];
    if (cb_cards_parse(text, avail, &c, err, sizeof err) != 0)
        fail_msg("%s '%s': %s (among the cards still free for it)", what, text, err);
    return c;
}

static const char *fmt_cards(cb_cards c, char *buf, size_t len)
{
    cb_cards_format(c, true, buf, len);
    return c ? buf : "pass";
}

/* The given cards plus a random rest of the deck: each seat to the hand size, the rest the
 * DDZ bottom. */
static void deal_rest(const cb_rules *r, const cb_cards given[3], uint64_t seed, cb_cards hands[3],
                      cb_cards *bottom)
{
    cb_cards rest = r->deck & ~(given[0] | given[1] | given[2]);
    int ids[CB_NCARDS], n = 0;
    for (int id = 0; id < CB_NCARDS; id++)
        if (rest & cb_card_bit(id))
            ids[n++] = id;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(splitmix(&seed) % (uint64_t)(i + 1));
        int x = ids[i];
        ids[i] = ids[j];
        ids[j] = x;
    }
    int k = 0;
    for (int s = 0; s < 3; s++) {
        hands[s] = given[s];
        while (cb_cards_size(hands[s]) < r->hand_size)
            hands[s] |= cb_card_bit(ids[k++]);
    }
    *bottom = 0;
    while (k < n)
        *bottom |= cb_card_bit(ids[k++]);
}

/* Play the actions from the deal; NULL with the refusal in why. */
static cb_engine *run_acts(const cb_rules *r, const cb_cards hands[3], cb_cards bottom, int first_bidder,
                           const act *a, int na, char *why, size_t whylen)
{
    cb_engine_opts o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.key = 1;
    o.first_bidder = r->game == CB_GAME_DDZ ? first_bidder : -1;
    o.landlord = -1;
    o.hands = hands;
    o.bottom = bottom;
    char err[160] = "", txt[64];
    cb_engine *e = cb_engine_new(r, &o, err, sizeof err);
    if (!e) {
        snprintf(why, whylen, "cb_engine_new: %s", err);
        return NULL;
    }
    for (int i = 0; i < na; i++) {
        int turn = cb_engine_turn(e), rc = 0;
        if (a[i].kind == ACT_DECLINE) {
            while (rc == 0 && cb_engine_phase(e) == CB_PHASE_BID)
                rc = cb_engine_bid(e, 0, err, sizeof err);
            if (rc == 0)
                continue;
            snprintf(why, whylen, "action %d (*): %s", i + 1, err);
        } else if (turn != a[i].seat) {
            snprintf(why, whylen, "action %d: seat %d, but seat %d is to act", i + 1, a[i].seat, turn);
            rc = -1;
        } else if (a[i].kind == ACT_BID) {
            if ((rc = cb_engine_bid(e, a[i].bid, err, sizeof err)) != 0)
                snprintf(why, whylen, "action %d (%d=%d): %s", i + 1, a[i].seat, a[i].bid, err);
        } else if ((rc = cb_engine_play(e, a[i].cards, err, sizeof err)) != 0) {
            snprintf(why, whylen, "action %d (%d:%s): %s", i + 1, a[i].seat,
                     fmt_cards(a[i].cards, txt, sizeof txt), err);
        }
        if (rc != 0) {
            cb_engine_free(e);
            return NULL;
        }
    }
    if (cb_engine_phase(e) == CB_PHASE_OVER) {
        snprintf(why, whylen, "the script ends the game");
        cb_engine_free(e);
        return NULL;
    }
    return e;
}

void cbt_assert_real(const cb_rules *r, const cb_view *v, const char *what)
{
    char err[256] = "";
    if (cb_view_check(r, v, err, sizeof err) != 0)
        fail_msg("%s: the view check refuses the fixture's view: %s", what, err);
}

/* The position after the actions from given hands plus random rest (see cbt_pos). */
static void build(cbt_vb *b, const cb_rules *r, const cb_cards keep[3], int first_bidder, const act *a, int na)
{
    cb_cards given[3] = { keep[0], keep[1], keep[2] };
    char txt[64];
    for (int i = 0; i < na; i++) {
        if (a[i].kind != ACT_PLAY)
            continue;
        for (int s = 0; s < 3; s++)
            if (s != a[i].seat && (given[s] & a[i].cards))
                fail_msg("position: action %d plays %s of seat %d's cards", i + 1,
                         fmt_cards(given[s] & a[i].cards, txt, sizeof txt), s);
        given[a[i].seat] |= a[i].cards;
    }
    int need = 0;
    for (int s = 0; s < 3; s++) {
        if (cb_cards_size(given[s]) > r->hand_size)
            fail_msg("position: seat %d is given %d cards, the hand size is %d", s,
                     cb_cards_size(given[s]), r->hand_size);
        need += r->hand_size - cb_cards_size(given[s]);
    }
    /* nothing left to chance: one deal; else try the stream until the script plays */
    int tries = need == 0 ? 1 : TRIES;
    char why[512] = "";
    uint64_t seed = 0x5EEDu;
    for (int t = 0; t < tries; t++) {
        cb_cards hands[3], bottom;
        deal_rest(r, given, splitmix(&seed), hands, &bottom);
        cb_engine *e = run_acts(r, hands, bottom, first_bidder, a, na, why, sizeof why);
        if (!e)
            continue;
        int seat = cb_engine_turn(e), n = 0;
        assert_int_equal(cb_engine_view(e, seat, 0, &b->v), 0);
        const cb_play_rec *h = cb_engine_history(e, &n);
        if (n > CBT_MAXHIST)
            fail_msg("position: %d history entries, the fixture keeps %d", n, CBT_MAXHIST);
        memset(b->hist, 0, sizeof b->hist);
        if (n)
            memcpy(b->hist, h, (size_t)n * sizeof *h);
        b->v.history = b->hist;
        b->v.nhistory = n;
        b->v.rules = r;
        cb_engine_free(e);
        cbt_assert_real(r, &b->v, "position");
        if (getenv("CB_VERBOSE"))
            printf("    position: seat %d, %d history entries, deal %d of the stream\n", b->v.seat, n, t + 1);
        return;
    }
    fail_msg("position: not reached in %d deal(s); the last refusal: %s", tries, why);
}

void cbt_pos(cbt_vb *b, const cb_rules *r, const char *const keep[3], int first_bidder, const char *script)
{
    cb_cards k[3] = { 0, 0, 0 }, taken = 0;
    for (int s = 0; s < 3; s++)
        if (keep && keep[s] && keep[s][0]) {
            k[s] = parse_in(keep[s], r->deck & ~taken, "position: keep");
            taken |= k[s];
        }
    act a[MAXACT];
    int na = 0;
    char *copy = g_strdup(script ? script : ""), *save = NULL;
    for (char *tok = strtok_r(copy, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
        if (na == MAXACT)
            fail_msg("position: more than %d actions", MAXACT);
        act *x = &a[na++];
        memset(x, 0, sizeof *x);
        if (strcmp(tok, "*") == 0) {
            if (r->game == CB_GAME_DDZ)
                fail_msg("position: '*' in DDZ (all passing redeals)");
            x->kind = ACT_DECLINE;
            continue;
        }
        if (tok[0] < '0' || tok[0] > '2' || (tok[1] != '=' && tok[1] != ':'))
            fail_msg("position: bad action '%s' (S=N, S:CARDS, S:- or *)", tok);
        x->seat = tok[0] - '0';
        if (tok[1] == '=') {
            x->kind = ACT_BID;
            x->bid = atoi(tok + 2);
        } else {
            x->kind = ACT_PLAY;
            x->cards = strcmp(tok + 2, "-") == 0 ? 0 : parse_in(tok + 2, r->deck, "position: play");
        }
    }
    g_free(copy);
    build(b, r, k, first_bidder, a, na);
}

/* The lowest card of rank in deck but not in used; 0 when none. */
static cb_cards free_of_rank(const cb_rules *r, cb_cards used, int rank)
{
    cb_cards c = cb_cards_of_rank(r->deck & ~used, rank);
    return c & (~c + 1);
}

/* A straight of n cards from rank lo, lowest free suits; fails the test when a rank is out. */
static cb_cards straight(const cb_rules *r, cb_cards used, int lo, int n, const char *what)
{
    cb_cards st = 0;
    for (int rank = lo; rank < lo + n; rank++) {
        cb_cards c = free_of_rank(r, used | st, rank);
        if (!c)
            fail_msg("position: no %c left for %s", cb_rank_chars[rank], what);
        st |= c;
    }
    return st;
}

#define SPADE3 cb_card_bit(CB_CARD_S3)

static void pos_tmpl(cbt_vb *b, const cb_rules *r, int seat, const char *hand, const char *table, int ts)
{
    if (r->game != CB_GAME_PDK || !r->spade3_first || !(r->deck & SPADE3))
        fail_msg("position: the lead / follow positions are PDK with spade3_first");
    cb_cards h = parse_in(hand, r->deck & ~SPADE3, "position: hand");
    cb_cards t = table ? parse_in(table, r->deck & ~SPADE3 & ~h, "position: table") : 0;
    int n = r->hand_size - cb_cards_size(h), a1 = (seat + 1) % 3, a2 = (seat + 2) % 3;
    if (n < 5 || n > 12 || (t && n > 11))
        fail_msg("position: a hand of %d cards (the opening straight would have %d)", cb_cards_size(h), n);
    if (t && ts != a1 && ts != a2)
        fail_msg("position: table_seat %d for seat %d", ts, seat);
    /* the opening: the spade 3 and up, unbeatable but by an A-topped straight or a bomb */
    cb_cards open = SPADE3 | straight(r, h | t | SPADE3, CB_RANK_4, n - 1, "the opening straight");
    cb_cards keep[3] = { 0, 0, 0 };
    keep[seat] = h;
    act a[8];
    int na = 0;
    a[na++] = (act){ ACT_DECLINE, 0, 0, 0 };
    a[na++] = (act){ ACT_PLAY, seat, 0, open };
    if (!t) {
        a[na++] = (act){ ACT_PLAY, a1, 0, 0 };
        a[na++] = (act){ ACT_PLAY, a2, 0, 0 };
    } else {
        cb_cards top = straight(r, h | t | open, CB_RANK_A + 1 - n, n, "the straight up to the A");
        if (ts == a2) {
            a[na++] = (act){ ACT_PLAY, a1, 0, 0 };
            a[na++] = (act){ ACT_PLAY, a2, 0, top };
            a[na++] = (act){ ACT_PLAY, seat, 0, 0 };
            a[na++] = (act){ ACT_PLAY, a1, 0, 0 };
            a[na++] = (act){ ACT_PLAY, a2, 0, t };
        } else {
            a[na++] = (act){ ACT_PLAY, a1, 0, top };
            a[na++] = (act){ ACT_PLAY, a2, 0, 0 };
            a[na++] = (act){ ACT_PLAY, seat, 0, 0 };
            a[na++] = (act){ ACT_PLAY, a1, 0, t };
            a[na++] = (act){ ACT_PLAY, a2, 0, 0 };
        }
    }
    build(b, r, keep, -1, a, na);
    /* what the test asked for */
    assert_int_equal(b->v.seat, seat);
    assert_int_equal(b->v.phase, CB_PHASE_PLAY);
    assert_int_equal(b->v.hand, h);
    assert_int_equal(b->v.table, t);
    assert_int_equal(b->v.table_seat, t ? ts : -1);
}

void cbt_pos_lead(cbt_vb *b, const cb_rules *r, int seat, const char *hand)
{
    pos_tmpl(b, r, seat, hand, NULL, -1);
}

void cbt_pos_follow(cbt_vb *b, const cb_rules *r, int seat, const char *hand, const char *table, int table_seat)
{
    if (!table)
        fail_msg("position: follow without a table");
    pos_tmpl(b, r, seat, hand, table, table_seat);
}

void cbt_pos_first(cbt_vb *b, const cb_rules *r, int seat, const char *hand)
{
    if (r->game != CB_GAME_PDK)
        fail_msg("position: the first play positions are PDK");
    const char *keep[3] = { NULL, NULL, NULL };
    keep[seat] = hand;
    cbt_pos(b, r, keep, -1, "*");
    assert_int_equal(b->v.seat, seat);
    assert_int_equal(b->v.phase, CB_PHASE_PLAY);
    assert_int_equal(b->v.nhistory, 0);
    cb_cards want = cbt_cards(r, hand);
    assert_true(want & SPADE3);
    assert_int_equal(b->v.hand & want, want);
}

void cbt_vb_copy(cbt_vb *dst, const cbt_vb *src)
{
    *dst = *src;
    if (src->v.history == src->hist)
        dst->v.history = dst->hist;
}

cb_cards cbt_unseen(const cb_view *v, int rank)
{
    cb_cards seen = v->hand;
    for (int i = 0; i < v->nhistory; i++)
        seen |= v->history[i].cards;
    return free_of_rank(v->rules, seen | v->table, rank);
}

/* ---- real views ---- */

cb_engine *cbt_engine(const cb_rules *r, uint64_t key, int first_bidder)
{
    cb_engine_opts o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.key = key;
    o.first_bidder = first_bidder;
    o.landlord = -1;
    char err[256] = "";
    cb_engine *e = cb_engine_new(r, &o, err, sizeof err);
    if (!e)
        fail_msg("cb_engine_new: %s", err);
    return e;
}

void cbt_engine_view(const cb_engine *e, cb_view *v)
{
    int seat = cb_engine_turn(e);
    assert_true(seat >= 0);
    assert_int_equal(cb_engine_view(e, seat, 0, v), 0);
}

cb_view *cbt_view_1_0(const cb_view *v)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *base = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(base != MAP_FAILED);
    assert_int_equal(mprotect(base + page, page, PROT_NONE), 0);
    cb_view *old = (cb_view *)(base + page - CB_VIEW_SIZE_1_0);
    memcpy(old, v, CB_VIEW_SIZE_1_0);
    old->struct_size = CB_VIEW_SIZE_1_0;
    old->abi_version = (uint32_t)CB_ABI_MAJOR << 16;
    if (v->rules->game == CB_GAME_DDZ)
        old->first_seat = v->first_bidder;
    return old;
}

void cbt_view_1_0_free(cb_view *v)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    munmap((void *)((uintptr_t)v & ~(uintptr_t)(page - 1)), 2 * page);
}

/* ---- answers ---- */

void cbt_assert_legal(const cb_view *v, const cb_decision *d)
{
    char why[160] = "", txt[64];
    cb_cards_format(d->cards, true, txt, sizeof txt);
    if (d->cards & ~v->hand)
        fail_msg("answer %s not in hand", txt);
    cb_ctx ctx;
    cb_move table, m;
    assert_int_equal(tplug_ctx(v, &ctx, &table), 0);
    if (!cb_play_legal(v->rules, &ctx, cb_counts_of(d->cards), &m, why, sizeof why))
        fail_msg("answer '%s' is illegal: %s", txt, why);
    if (ctx.first_play)
        assert_true(d->cards & 1u); /* the spade 3 itself */
}

const cb_strategy_stats *cbt_stat_of(const cb_strategy_stats *st, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(st[i].name, name) == 0)
            return &st[i];
    fail_msg("no stats for strategy %s", name);
    return NULL;
}

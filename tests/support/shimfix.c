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

void cbt_view_play(cbt_vb *b, const cb_rules *r, int seat, const char *hand, const char *table,
                   int table_seat, bool first)
{
    memset(b, 0, sizeof *b);
    cb_view *v = &b->v;
    v->struct_size = sizeof *v;
    v->abi_version = CB_ABI_VERSION;
    v->rules = r;
    v->phase = CB_PHASE_PLAY;
    v->seat = seat;
    v->nseats = 3;
    v->first_seat = 0;
    v->hand = cbt_cards(r, hand);
    for (int i = 0; i < 3; i++) {
        v->cards_left[i] = 10;
        v->bids[i] = 0;
    }
    v->cards_left[seat] = cb_cards_size(v->hand);
    v->landlord = -1;
    v->table_seat = -1;
    v->history = b->hist;
    cb_cards t = table ? cbt_cards(r, table) : 0;
    if (!first) {
        /* one earlier play: the highest deck card that is neither mine nor on the table */
        cb_cards free_ = r->deck & ~v->hand & ~t;
        b->hist[v->nhistory].seat = (seat + 1) % 3;
        b->hist[v->nhistory++].cards = (cb_cards)1 << (63 - __builtin_clzll(free_));
    }
    if (t) {
        v->table = t;
        v->table_seat = table_seat;
        b->hist[v->nhistory].seat = table_seat;
        b->hist[v->nhistory++].cards = t;
    }
    v->budget_ms = 0;
    v->seed = 1;
}

void cbt_view_bid(cbt_vb *b, const cb_rules *r, int seat, const char *hand, int b0, int b1, int b2)
{
    cbt_view_play(b, r, seat, hand, NULL, -1, true);
    b->v.phase = CB_PHASE_BID;
    b->v.bids[0] = b0;
    b->v.bids[1] = b1;
    b->v.bids[2] = b2;
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

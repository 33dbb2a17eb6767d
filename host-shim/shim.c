/* cardbot shim — the public API of shim.h: open, reload, tables, decisions, statistics.
 *
 * A decision: check the view (CB_ERR_VIEW before any plugin runs) -> ask the seat's strategy,
 * timed with CLOCK_MONOTONIC -> check its answer with the rules -> on a wrong answer ask the
 * [shim] fallback strategy (its own instance per table seat, created on first need) -> if
 * that is wrong too, the rules-only safe answer (pass when legal, else the lowest legal play;
 * bid 0). The reason is returned and counted, and written into out->explain.
 *
 * In-process isolation cannot preempt a plugin: an answer that arrives after the budget is
 * counted CB_FB_LATE but still used when it is legal (asking a fallback then would only be
 * later still). Process isolation (shim_process.c) enforces the deadline: each instance —
 * the seats' and the fallback's — is a forked worker; one that gives no reply by the budget
 * plus a margin is killed (CB_FB_LATE, no answer: the fallback chain answers), one that dies
 * counts CB_FB_CRASHED; either is restarted at a later decision. A reply that came after the
 * budget but inside the margin is used like a late in-process answer.
 *
 * Reload (nginx style): the whole new config is built first — every plugin loaded, every
 * strategy's parameters checked — and the old one stays if anything fails. A successful
 * reload bumps the shim's generation; each live table notices at its next decision, destroys
 * its instances and creates new ones from the new config (the old config, and the plugin code
 * its instances run, stays loaded until its last table has switched). A reload may not change
 * the rules: hosts keep the cb_shim_rules pointer for the shim's whole life.
 */
#include "shim_int.h"
#include "shim_process.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define NONE_NAME "(none)"
#define NSLOTS (CB_MAX_SEATS + 2) /* each seat's strategy, the fallback, "(none)" */

typedef struct table_seat {
    int strat;       /* index in conf->strat, -1 = none */
    void *inst;      /* NULL: no strategy, or its create() failed on a reload switch;
                      * under process isolation a shim_worker * (see inst_new) */
    void *fb_inst;   /* the fallback strategy's instance for this seat, created lazily */
    bool fb_tried;
    shim_slot *slot; /* the seat strategy's counters */
} table_seat;

struct cb_table {
    cb_shim *shim;
    char *id;
    shim_conf *conf;  /* the config our instances come from (a reference) */
    unsigned gen;
    int nseats;
    table_seat seat[CB_MAX_SEATS];
    shim_slot *fb_slot;
    shim_slot slots[NSLOTS];
    shim_cls_cache cls;
    cb_table *prev, *next; /* the shim's live tables, under the shim's lock */
};

struct cb_shim {
    atomic_int refs;       /* the host's + one per live table */
    char *path;
    /* guards conf, totals, tables and slot names. A pthread mutex rather than a GMutex:
     * glib's GMutex is a bare futex that ThreadSanitizer cannot see, so every lock-protected
     * access would be reported as a race and a real one would drown. */
    pthread_mutex_t lock;
    shim_conf *conf;
    atomic_uint gen;
    cb_rules rules;        /* fixed at open: view->rules may point here for the shim's life */
    GArray *totals;        /* cb_strategy_stats of freed / switched tables */
    cb_table *tables;
};

const char *cb_strerror(int code)
{
    switch (code) {
    case CB_OK: return "ok";
    case CB_FB_ILLEGAL: return "illegal answer";
    case CB_FB_FAILED: return "plugin failed";
    case CB_FB_LATE: return "late answer";
    case CB_FB_NO_PLUGIN: return "no plugin";
    case CB_FB_CRASHED: return "plugin crashed";
    case CB_ERR_ARG: return "bad arguments";
    case CB_ERR_VIEW: return "malformed view";
    case CB_ERR_CONFIG: return "config error";
    default: return "unknown code";
    }
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- shim ---- */

static void touch_conf(cb_shim *s, const shim_conf *c)
{
    for (int i = 0; i < c->nstrat; i++)
        shim_totals_touch(s->totals, c->strat[i].name);
}

cb_shim *cb_shim_open(const char *config_path, char *err, size_t errlen)
{
    shim_conf *c = shim_conf_load(config_path, err, errlen);
    if (!c)
        return NULL;
    cb_shim *s = g_new0(cb_shim, 1);
    atomic_init(&s->refs, 1);
    s->path = g_strdup(config_path);
    pthread_mutex_init(&s->lock, NULL);
    s->conf = c;
    atomic_init(&s->gen, 1);
    s->rules = c->rules;
    s->totals = g_array_new(FALSE, TRUE, sizeof(cb_strategy_stats));
    touch_conf(s, c);
    return s;
}

static void shim_unref(cb_shim *s)
{
    if (atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) != 1)
        return;
    shim_conf_unref(s->conf);
    g_array_free(s->totals, TRUE);
    pthread_mutex_destroy(&s->lock);
    g_free(s->path);
    g_free(s);
}

/* Live tables keep the shim alive: it goes when the host has freed it and its last table. */
void cb_shim_free(cb_shim *s)
{
    if (s)
        shim_unref(s);
}

int cb_shim_reload(cb_shim *s, char *err, size_t errlen)
{
    if (!s) {
        if (err && errlen)
            snprintf(err, errlen, "cb_shim_reload: no shim");
        return -1;
    }
    shim_conf *nc = shim_conf_load(s->path, err, errlen);
    if (!nc)
        return -1;
    if (!cb_rules_equal(&nc->rules, &s->rules)) {
        if (err && errlen)
            snprintf(err, errlen, "%s: [game] rules: a reload cannot change the rules "
                     "(they were %s with the flags at open; reopen the shim to change them)",
                     s->path, s->rules.preset);
        shim_conf_unref(nc);
        return -1;
    }
    pthread_mutex_lock(&s->lock);
    shim_conf *old = s->conf;
    s->conf = nc;
    atomic_fetch_add_explicit(&s->gen, 1, memory_order_release);
    touch_conf(s, nc);
    pthread_mutex_unlock(&s->lock);
    shim_conf_unref(old);
    return 0;
}

const cb_rules *cb_shim_rules(const cb_shim *s)
{
    return s ? &s->rules : NULL;
}

const char *cb_shim_get(const cb_shim *cs, const char *group, const char *key)
{
    if (!cs || !group || !key)
        return NULL;
    cb_shim *s = (cb_shim *)cs; /* the lock is not part of the shim's logical state */
    pthread_mutex_lock(&s->lock);
    const char *v = shim_conf_get(s->conf, group, key);
    pthread_mutex_unlock(&s->lock);
    return v;
}

int cb_shim_stats(cb_shim *s, cb_strategy_stats *out, int cap)
{
    if (!s)
        return 0;
    pthread_mutex_lock(&s->lock);
    GArray *sum = g_array_sized_new(FALSE, TRUE, sizeof(cb_strategy_stats), s->totals->len);
    g_array_append_vals(sum, s->totals->data, s->totals->len);
    for (cb_table *t = s->tables; t; t = t->next)
        for (int i = 0; i < NSLOTS; i++)
            shim_totals_add(sum, &t->slots[i]);
    pthread_mutex_unlock(&s->lock);
    int n = (int)sum->len;
    for (int i = 0; out && i < n && i < cap; i++)
        out[i] = g_array_index(sum, cb_strategy_stats, i);
    g_array_free(sum, TRUE);
    return n;
}

/* ---- instances: the plugin's own, or (process isolation) a worker holding it ---- */

static void *inst_new(const shim_conf *c, int s, char *err, size_t errlen)
{
    if (c->isolation == SHIM_ISO_PROCESS)
        return shim_worker_new(c, s, err, errlen);
    return shim_strategy_create(c, s, err, errlen);
}

static void inst_free(const shim_conf *c, int s, void *inst)
{
    if (!inst)
        return;
    if (c->isolation == SHIM_ISO_PROCESS)
        shim_worker_free(inst);
    else
        c->strat[s].plugin->bot->destroy(inst);
}

/* ---- tables ---- */

static shim_slot *slot_for(cb_table *t, const char *name)
{
    for (int i = 0; i < NSLOTS; i++)
        if (t->slots[i].name && strcmp(t->slots[i].name, name) == 0)
            return &t->slots[i];
    for (int i = 0; i < NSLOTS; i++)
        if (!t->slots[i].name) {
            shim_slot_reset(&t->slots[i], name);
            return &t->slots[i];
        }
    return &t->slots[NSLOTS - 1]; /* unreachable: NSLOTS covers every name a table uses */
}

/* Under the shim's lock: take the shim's current config and name the slots after it. */
static void table_take_conf(cb_table *t)
{
    cb_shim *s = t->shim;
    t->conf = shim_conf_ref(s->conf);
    t->gen = atomic_load_explicit(&s->gen, memory_order_relaxed);
    for (int i = 0; i < NSLOTS; i++)
        shim_slot_reset(&t->slots[i], NULL);
    int seats[CB_MAX_SEATS];
    shim_conf_seating(t->conf, t->id, seats);
    for (int i = 0; i < t->nseats; i++) {
        table_seat *ts = &t->seat[i];
        ts->strat = seats[i];
        ts->slot = slot_for(t, ts->strat >= 0 ? t->conf->strat[ts->strat].name : NONE_NAME);
    }
    t->fb_slot = t->conf->fallback >= 0 ? slot_for(t, t->conf->strat[t->conf->fallback].name) : NULL;
}

/* Under the shim's lock: hand our counts to the shim. */
static void table_fold_stats(cb_table *t)
{
    for (int i = 0; i < NSLOTS; i++)
        shim_totals_add(t->shim->totals, &t->slots[i]);
}

static void table_destroy_instances(cb_table *t)
{
    for (int i = 0; i < t->nseats; i++) {
        table_seat *ts = &t->seat[i];
        inst_free(t->conf, ts->strat, ts->inst);
        inst_free(t->conf, t->conf->fallback, ts->fb_inst);
        ts->inst = ts->fb_inst = NULL;
        ts->fb_tried = false;
    }
}

static int table_create_instances(cb_table *t, char *err, size_t errlen)
{
    for (int i = 0; i < t->nseats; i++) {
        table_seat *ts = &t->seat[i];
        if (ts->strat < 0)
            continue;
        ts->inst = inst_new(t->conf, ts->strat, err, errlen);
        if (!ts->inst)
            return -1;
    }
    return 0;
}

cb_table *cb_table_new(cb_shim *s, const char *table_id, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (!s) {
        if (err && errlen)
            snprintf(err, errlen, "cb_table_new: no shim");
        return NULL;
    }
    cb_table *t = g_new0(cb_table, 1);
    atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed);
    t->shim = s;
    t->id = g_strdup(table_id);
    t->nseats = s->rules.players;
    pthread_mutex_lock(&s->lock);
    table_take_conf(t);
    t->next = s->tables;
    if (s->tables)
        s->tables->prev = t;
    s->tables = t;
    pthread_mutex_unlock(&s->lock);
    if (table_create_instances(t, err, errlen) != 0) {
        cb_table_free(t);
        return NULL;
    }
    return t;
}

void cb_table_free(cb_table *t)
{
    if (!t)
        return;
    cb_shim *s = t->shim;
    table_destroy_instances(t);
    pthread_mutex_lock(&s->lock);
    table_fold_stats(t);
    if (t->prev)
        t->prev->next = t->next;
    else
        s->tables = t->next;
    if (t->next)
        t->next->prev = t->prev;
    pthread_mutex_unlock(&s->lock);
    shim_conf_unref(t->conf);
    g_free(t->id);
    g_free(t);
    shim_unref(s);
}

const char *cb_table_strategy(const cb_table *t, int seat)
{
    if (!t || seat < 0 || seat >= t->nseats || t->seat[seat].strat < 0)
        return NULL;
    return t->conf->strat[t->seat[seat].strat].name;
}

/* After a reload: switch to the new config before this decision. A create() that fails now
 * leaves the seat without an instance (answered by the fallback, counted CB_FB_NO_PLUGIN):
 * the config was checked at reload, so this takes a plugin that fails only sometimes. */
static void table_refresh(cb_table *t)
{
    cb_shim *s = t->shim;
    if (atomic_load_explicit(&s->gen, memory_order_acquire) == t->gen)
        return;
    table_destroy_instances(t);
    pthread_mutex_lock(&s->lock);
    table_fold_stats(t);
    shim_conf *old = t->conf;
    table_take_conf(t);
    pthread_mutex_unlock(&s->lock);
    shim_conf_unref(old);
    for (int i = 0; i < t->nseats; i++) {
        table_seat *ts = &t->seat[i];
        if (ts->strat >= 0)
            ts->inst = inst_new(t->conf, ts->strat, NULL, 0);
    }
}

/* ---- decisions ---- */

typedef int (*decide_fn)(void *, const cb_view *, cb_decision *);

static void dec_init(cb_decision *d)
{
    memset(d, 0, sizeof *d);
    d->struct_size = sizeof *d;
    d->value = NAN;
    d->minhands_before = d->minhands_after = -1;
}

/* Ask strategy s's instance and judge the answer: CB_OK, CB_FB_FAILED, CB_FB_ILLEGAL or
 * CB_FB_LATE, and under process isolation CB_FB_CRASHED / CB_FB_NO_PLUGIN. *answered says
 * whether d holds a legal answer of the plugin's (CB_OK, and a CB_FB_LATE that did reply). */
static int ask(const shim_conf *c, int s, void *inst, const cb_view *v, const shim_play_check *pc,
               cb_decision *d, uint64_t *ns, char *why, size_t whylen, bool *answered)
{
    const cb_bot *bot = c->strat[s].plugin->bot;
    decide_fn fn = pc ? bot->decide_play : bot->decide_bid;
    *answered = false;
    dec_init(d);
    int rc = -1;
    if (!fn) {
        *ns = 0;
    } else if (c->isolation == SHIM_ISO_PROCESS) {
        int wr = shim_worker_decide(inst, v, pc ? CB_PHASE_PLAY : CB_PHASE_BID, d, &rc, ns, why, whylen);
        if (wr != CB_OK) {
            dec_init(d);
            return wr;
        }
    } else {
        uint64_t t0 = now_ns();
        rc = fn(inst, v, d);
        *ns = now_ns() - t0;
    }
    d->struct_size = sizeof *d;
    d->explain[sizeof d->explain - 1] = '\0';
    d->flags &= ~(uint32_t)CB_DEC_FALLBACK; /* only the shim says so */
    if (!fn) {
        snprintf(why, whylen, "the plugin has no decide_bid");
        return CB_FB_FAILED;
    }
    if (rc != 0) {
        snprintf(why, whylen, "returned %d", rc);
        return CB_FB_FAILED;
    }
    if (pc) {
        d->bid = 0;
        if (!shim_play_ok(v, pc, d->cards, why, whylen))
            return CB_FB_ILLEGAL;
    } else {
        d->cards = 0;
        if (!shim_bid_ok(v, d->bid, why, whylen))
            return CB_FB_ILLEGAL;
    }
    *answered = true;
    if (*ns > (uint64_t)v->budget_ms * 1000000u) {
        snprintf(why, whylen, "%.1f ms, budget %u ms", (double)*ns / 1e6, (unsigned)v->budget_ms);
        return CB_FB_LATE;
    }
    return CB_OK;
}

static int decide(cb_table *t, const cb_view *view, cb_decision *out, int phase)
{
    if (!t || !view || !out)
        return CB_ERR_ARG;
    if (view->struct_size < sizeof(cb_view))
        return CB_ERR_VIEW;
    table_refresh(t);
    const shim_conf *c = t->conf;

    /* our own copy: the size this shim knows, the config's rules when the host gave none,
     * and the budget capped by the config's */
    cb_view v = *view;
    v.struct_size = sizeof v;
    if (!v.rules)
        v.rules = &t->shim->rules;
    if (v.budget_ms == 0 || v.budget_ms > c->budget_ms)
        v.budget_ms = c->budget_ms;
    shim_play_check pc;
    shim_play_check *ppc = phase == CB_PHASE_PLAY ? &pc : NULL;
    int rc = shim_view_check(&v, phase, ppc, &t->cls, NULL, 0);
    if (rc != 0)
        return rc;
    if (v.nseats != t->nseats)
        return CB_ERR_VIEW;

    table_seat *ts = &t->seat[v.seat];
    cb_decision d;
    char why[96] = "";
    uint64_t ns = 0;
    int reason;
    bool answered = false;
    if (!ts->inst) {
        reason = CB_FB_NO_PLUGIN;
        snprintf(why, sizeof why, ts->strat < 0 ? "no strategy at seat %d" : "no instance at seat %d",
                 v.seat);
    } else {
        reason = ask(c, ts->strat, ts->inst, &v, ppc, &d, &ns, why, sizeof why, &answered);
    }
    shim_slot_record(ts->slot, ns, reason);
    if (answered) {
        *out = d;
        return reason;
    }

    const char *by = "rules";
    bool done = false;
    if (c->fallback >= 0 && c->fallback != ts->strat) {
        if (!ts->fb_inst && !ts->fb_tried) {
            ts->fb_tried = true;
            ts->fb_inst = inst_new(c, c->fallback, NULL, 0);
        }
        if (ts->fb_inst) {
            char fwhy[96] = "";
            uint64_t fns = 0;
            cb_decision fd;
            bool fans = false;
            int fr = ask(c, c->fallback, ts->fb_inst, &v, ppc, &fd, &fns, fwhy, sizeof fwhy, &fans);
            shim_slot_record(t->fb_slot, fns, fr);
            if (fans) {
                d = fd;
                done = true;
                by = c->strat[c->fallback].name;
            }
        }
    }
    if (!done) {
        dec_init(&d);
        if (ppc)
            d.cards = shim_safe_play(&v, ppc);
    }
    d.flags |= CB_DEC_FALLBACK;
    char text[256]; /* explain is short: cut the message there, not in snprintf */
    snprintf(text, sizeof text, "fallback %s for %s (%s: %s)", by,
             ts->strat >= 0 ? c->strat[ts->strat].name : NONE_NAME, cb_strerror(reason), why);
    g_strlcpy(d.explain, text, sizeof d.explain);
    *out = d;
    return reason;
}

int cb_decide_play(cb_table *t, const cb_view *view, cb_decision *out)
{
    return decide(t, view, out, CB_PHASE_PLAY);
}

int cb_decide_bid(cb_table *t, const cb_view *view, cb_decision *out)
{
    return decide(t, view, out, CB_PHASE_BID);
}

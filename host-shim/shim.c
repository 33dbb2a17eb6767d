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
 * its instances run, stays loaded until its last table has switched). A plugin file that did
 * not change is shared with the old config; a changed one is loaded anew, beside the old code
 * (shim_loader.c). A reload may not change the rules: hosts keep the cb_shim_rules pointer
 * for the shim's whole life.
 *
 * The host's side of the ABI: a view is copied at the host's struct_size and upgraded to ours
 * (cb_view_upgrade), a decision is written at the host's struct_size, and every refusal (< 0)
 * leaves its reason in the table for cb_table_last_error.
 */
#include "shim_int.h"
#include "shim_process.h"

#include "cardbot/game.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define NONE_NAME "(none)"
#define NSLOTS (CB_MAX_SEATS + 2) /* each seat's strategy, the fallback, "(none)" */
#define ERR_MAX 256 /* cb_table_last_error's text */
/* The decision of ABI 1.0, which a host's struct_size 0 stands for: this build's cb_decision
 * (a later minor that grows it must keep this number at the 1.0 size). */
#define DEC_SIZE_1_0 sizeof(cb_decision)
/* The smallest decision a host may ask for: every member before the text. */
#define DEC_SIZE_MIN offsetof(cb_decision, explain)

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
    /* cb_table_new_seated: the strategy name of each seat, looked up in each conf it runs
     * (NULL: seated by id / [seats]) */
    char *names[CB_MAX_SEATS];
    shim_conf *conf;  /* the config our instances come from (a reference) */
    unsigned gen;
    int nseats;
    table_seat seat[CB_MAX_SEATS];
    shim_slot *fb_slot;
    shim_slot slots[NSLOTS];
    shim_cls_cache cls;
    cb_view_checker *vcheck; /* views checked incrementally, seat by seat (NULL: in full) */
    cb_table *prev, *next; /* the shim's live tables, under the shim's lock */
    /* the last refusal's reason (cb_table_last_error); written by the table's own calls only,
     * "const" getters included: it is not part of the table's logical state */
    char err[ERR_MAX];
};

struct cb_shim {
    atomic_int refs;       /* the host's + one per live table */
    char *path;
    /* guards conf, totals, tables and slot names. A pthread mutex rather than a GMutex:
     * glib's GMutex is a bare futex that ThreadSanitizer cannot see, so every lock-protected
     * access would be reported as a race and a real one would drown. */
    pthread_mutex_t lock;
    /* serialises reloads (taken before lock, never under it): each new conf is built against
     * the one it replaces, which decides what plugin code it can share, and gets the next
     * generation number */
    pthread_mutex_t reload_lock;
    shim_conf *conf;
    atomic_uint gen;       /* conf->gen of the current conf */
    cb_rules rules;        /* fixed at open: view->rules may point here for the shim's life */
    GArray *totals;        /* cb_strategy_stats of freed / switched tables */
    cb_table *tables;
    /* every string handed to the host by cb_table_strategy / cb_table_seat_info, interned so
     * that it outlives the conf or plugin it came from (until the shim is released); under
     * lock */
    GHashTable *strs;
    /* process isolation: which plugin paths this shim's confs hold loaded from the path
     * (shim_loader.c); outlives every conf, so every plugin record */
    shim_names *names;
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

/* ---- refusals ---- */

/* Record why a call on t is refused and return code (< 0). */
__attribute__((format(printf, 3, 4)))
static int refuse(cb_table *t, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->err, sizeof t->err, fmt, ap);
    va_end(ap);
    return code;
}

/* ---- shim ---- */

/* Under the shim's lock: the interned copy of str (NULL stays NULL). */
static const char *intern(cb_shim *s, const char *str)
{
    if (!str)
        return NULL;
    char *k = g_hash_table_lookup(s->strs, str);
    if (!k) {
        k = g_strdup(str);
        g_hash_table_add(s->strs, k);
    }
    return k;
}

/* Under the shim's lock: a new current conf. */
static void touch_conf(cb_shim *s, const shim_conf *c)
{
    for (int i = 0; i < c->nstrat; i++) {
        shim_totals_touch(s->totals, c->strat[i].name);
        intern(s, c->strat[i].name);
    }
}

cb_shim *cb_shim_open(const char *config_path, char *err, size_t errlen)
{
    shim_names *names = shim_names_new();
    shim_conf *c = shim_conf_load(config_path, NULL, 1, names, err, errlen);
    if (!c) {
        shim_names_free(names);
        return NULL;
    }
    cb_shim *s = g_new0(cb_shim, 1);
    s->names = names;
    atomic_init(&s->refs, 1);
    s->path = g_strdup(config_path);
    pthread_mutex_init(&s->lock, NULL);
    pthread_mutex_init(&s->reload_lock, NULL);
    s->conf = c;
    atomic_init(&s->gen, c->gen);
    s->rules = c->rules;
    s->totals = g_array_new(FALSE, TRUE, sizeof(cb_strategy_stats));
    s->strs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    touch_conf(s, c);
    return s;
}

static void shim_unref(cb_shim *s)
{
    if (atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) != 1)
        return;
    shim_conf_unref(s->conf); /* the last conf: every plugin record goes with it */
    shim_names_free(s->names);
    g_array_free(s->totals, TRUE);
    g_hash_table_destroy(s->strs);
    pthread_mutex_destroy(&s->reload_lock);
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
    pthread_mutex_lock(&s->reload_lock);
    pthread_mutex_lock(&s->lock);
    shim_conf *prev = shim_conf_ref(s->conf);
    pthread_mutex_unlock(&s->lock);
    shim_conf *nc = shim_conf_load(s->path, prev, prev->gen + 1, s->names, err, errlen);
    shim_conf_unref(prev);
    if (!nc) {
        pthread_mutex_unlock(&s->reload_lock);
        return -1;
    }
    if (!cb_rules_equal(&nc->rules, &s->rules)) {
        if (err && errlen)
            snprintf(err, errlen, "%s: [game] rules: a reload cannot change the rules "
                     "(they were %s with the flags at open; reopen the shim to change them)",
                     s->path, s->rules.preset);
        shim_conf_unref(nc);
        pthread_mutex_unlock(&s->reload_lock);
        return -1;
    }
    pthread_mutex_lock(&s->lock);
    shim_conf *old = s->conf;
    s->conf = nc;
    atomic_store_explicit(&s->gen, nc->gen, memory_order_release);
    touch_conf(s, nc);
    pthread_mutex_unlock(&s->lock);
    pthread_mutex_unlock(&s->reload_lock);
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

/* The strategy index of each seat under conf: the table's own names when it was seated by
 * name (a name conf lacks: -1, the no-plugin fallback, as a seat [seats] leaves empty), else
 * [table.ID] / [seats]. */
static void table_seating(const cb_table *t, const shim_conf *c, int seats[CB_MAX_SEATS])
{
    shim_conf_seating(c, t->id, seats);
    for (int i = 0; i < t->nseats; i++) {
        if (!t->names[i])
            continue;
        seats[i] = -1;
        for (int k = 0; k < c->nstrat; k++)
            if (strcmp(c->strat[k].name, t->names[i]) == 0)
                seats[i] = k;
    }
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
    table_seating(t, t->conf, seats);
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

static cb_table *table_new(cb_shim *s, const char *table_id, const char *const *names, char *err,
                           size_t errlen)
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
    for (int i = 0; names && i < t->nseats; i++)
        t->names[i] = g_strdup(names[i]);
    t->vcheck = cb_view_checker_new();
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

cb_table *cb_table_new(cb_shim *s, const char *table_id, char *err, size_t errlen)
{
    return table_new(s, table_id, NULL, err, errlen);
}

cb_table *cb_table_new_seated(cb_shim *s, const char *const *strategies, int n, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (!s || !strategies) {
        if (err && errlen)
            snprintf(err, errlen, "cb_table_new_seated: %s", s ? "no strategies" : "no shim");
        return NULL;
    }
    if (n != s->rules.players) {
        if (err && errlen)
            snprintf(err, errlen, "cb_table_new_seated: %d strategies for a table of %d seats", n,
                     s->rules.players);
        return NULL;
    }
    pthread_mutex_lock(&s->lock);
    const shim_conf *c = s->conf;
    int missing = -1;
    for (int i = 0; i < n && missing < 0; i++) {
        bool found = false;
        for (int k = 0; strategies[i] && k < c->nstrat && !found; k++)
            found = strcmp(c->strat[k].name, strategies[i]) == 0;
        if (!found)
            missing = i;
    }
    if (missing >= 0 && err && errlen)
        snprintf(err, errlen, "cb_table_new_seated: seat %d: %s%s%s", missing,
                 strategies[missing] ? "no [strategy." : "no strategy named",
                 strategies[missing] ? strategies[missing] : "", strategies[missing] ? "] in the config" : "");
    pthread_mutex_unlock(&s->lock);
    if (missing >= 0)
        return NULL;
    return table_new(s, NULL, strategies, err, errlen);
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
    cb_view_checker_free(t->vcheck);
    for (int i = 0; i < CB_MAX_SEATS; i++)
        g_free(t->names[i]);
    g_free(t->id);
    g_free(t);
    shim_unref(s);
}

/* What the table's next decision runs: the shim's current conf (the table switches to it
 * then when it is not its own yet). Under the shim's lock. */
static int next_strategy(const cb_table *t, int seat)
{
    int seats[CB_MAX_SEATS];
    table_seating(t, t->shim->conf, seats);
    return seats[seat];
}

const char *cb_table_strategy(const cb_table *t, int seat)
{
    if (!t || seat < 0 || seat >= t->nseats)
        return NULL;
    cb_shim *s = t->shim;
    pthread_mutex_lock(&s->lock);
    int si = next_strategy(t, seat);
    const char *name = si >= 0 ? intern(s, s->conf->strat[si].name) : NULL;
    pthread_mutex_unlock(&s->lock);
    return name;
}

const char *cb_table_last_error(const cb_table *t)
{
    return t ? t->err : "cb_table_last_error: no table";
}

int cb_table_seat_info(const cb_table *ct, int seat, cb_seat_info *out)
{
    if (!ct)
        return CB_ERR_ARG;
    cb_table *t = (cb_table *)ct; /* only its error text changes (see struct cb_table) */
    t->err[0] = '\0';
    if (!out)
        return refuse(t, CB_ERR_ARG, "out: NULL");
    if (out->struct_size < CB_SEAT_INFO_SIZE_1_1)
        return refuse(t, CB_ERR_ARG, "out->struct_size: %u bytes, less than the first "
                      "cb_seat_info (%u)", (unsigned)out->struct_size, (unsigned)CB_SEAT_INFO_SIZE_1_1);
    if (seat < 0 || seat >= t->nseats)
        return refuse(t, CB_ERR_ARG, "seat: %d, the table has seats 0..%d", seat, t->nseats - 1);
    cb_seat_info si;
    memset(&si, 0, sizeof si);
    cb_shim *s = t->shim;
    pthread_mutex_lock(&s->lock);
    const shim_conf *c = s->conf;
    si.isolation = c->isolation;
    si.config_gen = c->gen;
    si.pending = t->conf != c;
    int k = next_strategy(t, seat);
    if (k >= 0) {
        const shim_plugin *p = c->strat[k].plugin;
        si.strategy = intern(s, c->strat[k].name);
        si.plugin_path = intern(s, p->path);
        si.plugin_name = intern(s, p->name);
        si.plugin_version = intern(s, p->version);
        si.load_gen = p->gen;
        si.file_dev = p->id.dev;
        si.file_ino = p->id.ino;
        si.file_size = p->id.size;
        si.file_mtime_sec = p->id.mtime_sec;
        si.file_mtime_nsec = p->id.mtime_nsec;
        si.private_copy = p->private_copy;
        memcpy(si.sha256, p->sha256, sizeof si.sha256);
    }
    pthread_mutex_unlock(&s->lock);
    size_t n = out->struct_size < sizeof si ? out->struct_size : sizeof si;
    si.struct_size = (uint32_t)n;
    memcpy(out, &si, n);
    return 0;
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

/* Does v open a game — its first bid (nobody has bid yet: a DDZ redeal opens a new deal too)
 * or its first play (nothing played yet)? The shim has no other sign of a new game, and
 * needs none: every game's first decision is such a view. */
static bool opens_game(const cb_view *v, int phase)
{
    if (phase == CB_PHASE_PLAY)
        return v->nhistory == 0;
    for (int i = 0; i < v->nseats && i < CB_MAX_SEATS; i++)
        if (v->bids[i] >= 0)
            return false;
    return true;
}

/* A new game at the table: what the table's instances went through in earlier games must not
 * change this one's answers. Under process isolation that is the restart back-off of each
 * worker (a plugin that crashed at the end of the last game is restarted at once, not after a
 * back-off it earned there) and a fallback whose start failed (tried again). So a game's
 * fallbacks depend on that game's views alone, whichever games the table served before: a
 * match gives the same results at any concurrency. */
static void table_new_game(cb_table *t)
{
    bool proc = t->conf->isolation == SHIM_ISO_PROCESS;
    for (int i = 0; i < t->nseats; i++) {
        table_seat *ts = &t->seat[i];
        if (proc) {
            if (ts->inst)
                shim_worker_new_game(ts->inst);
            if (ts->fb_inst)
                shim_worker_new_game(ts->fb_inst);
        }
        if (!ts->fb_inst)
            ts->fb_tried = false;
    }
}

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
    /* under process isolation the host has no cb_bot: what the worker reported of it */
    const shim_plugin *pl = c->strat[s].plugin;
    bool has_fn = pc || pl->has_bid; /* decide_play is checked at load */
    *answered = false;
    dec_init(d);
    /* A plugin built for ABI 1.0 was promised a seat in first_seat ("who bid first / led
     * first"; the 1.0 shim refused views without one): during a DDZ bidding, where 1.1 has
     * no first leader yet (-1), it gets the first bidder. */
    cb_view v10;
    const cb_view *pv = v;
    if ((pl->abi_version & 0xFFFFu) == 0 && v->first_seat < 0) {
        v10 = *v;
        v10.first_seat = v->first_bidder;
        pv = &v10;
    }
    int rc = -1;
    if (!has_fn) {
        *ns = 0;
    } else if (c->isolation == SHIM_ISO_PROCESS) {
        int wr = shim_worker_decide(inst, pv, pc ? CB_PHASE_PLAY : CB_PHASE_BID, d, &rc, ns, why, whylen);
        if (wr != CB_OK) {
            dec_init(d);
            return wr;
        }
    } else {
        decide_fn fn = pc ? pl->bot->decide_play : pl->bot->decide_bid;
        uint64_t t0 = now_ns();
        rc = fn(inst, pv, d);
        *ns = now_ns() - t0;
    }
    d->struct_size = sizeof *d;
    d->explain[sizeof d->explain - 1] = '\0';
    d->flags &= ~(uint32_t)CB_DEC_FALLBACK; /* only the shim says so */
    if (!has_fn) {
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

/* The first member where two rule sets differ (for the message), NULL when none is named. */
static const char *rules_diff(const cb_rules *a, const cb_rules *b)
{
#define DIFF(m) \
    if (a->m != b->m) \
        return #m
    DIFF(game);
    if (strncmp(a->preset, b->preset, sizeof a->preset) != 0)
        return "preset";
    DIFF(deck); DIFF(players); DIFF(hand_size); DIFF(bottom); DIFF(min_pair_chain);
    DIFF(short_triple); DIFF(four_with); DIFF(aaa_bomb); DIFF(rocket_kickers);
    DIFF(four_two_same); DIFF(must_beat); DIFF(must_beat_bomb); DIFF(spade3_first);
    DIFF(warn_single); DIFF(rob); DIFF(card_points); DIFF(spring_double); DIFF(bomb_points);
    DIFF(bao); DIFF(bao_points);
    DIFF(plane_single_wings); DIFF(plane_pair_wings); DIFF(short_follow); DIFF(max_pair_chain);
#undef DIFF
    return NULL;
}

/* Our copy of the host's view: read at the host's struct_size, never beyond, with the
 * table's rules for NULL ones, upgraded to this build's cb_view. 0, or a refusal. */
static int take_view(cb_table *t, const cb_view *view, cb_view *v)
{
    uint32_t size = view->struct_size;
    if (size < CB_VIEW_SIZE_1_0)
        return refuse(t, CB_ERR_VIEW, "struct_size: %u bytes, less than an ABI 1.0 view (%u)",
                      (unsigned)size, (unsigned)CB_VIEW_SIZE_1_0);
    cb_view in;
    memset(&in, 0, sizeof in);
    memcpy(&in, view, size < sizeof in ? size : sizeof in);
    const cb_rules *tr = &t->shim->rules;
    /* before the upgrade: it reads rules->game to give first_bidder its 1.0 meaning */
    if (!in.rules) {
        in.rules = tr;
    } else if (in.rules != tr && !cb_rules_equal(in.rules, tr)) {
        const char *m = rules_diff(in.rules, tr);
        if (m && strcmp(m, "preset") == 0)
            return refuse(t, CB_ERR_VIEW, "rules: the view's rules are %.16s, the table's %s",
                          in.rules->preset, tr->preset);
        return refuse(t, CB_ERR_VIEW, "rules: the view's rules differ from the table's (%s) in %s",
                      tr->preset, m ? m : "a member this shim cannot name");
    }
    if (in.nseats != t->nseats)
        return refuse(t, CB_ERR_VIEW, "nseats: %d, the table has %d seats", (int)in.nseats, t->nseats);
    if (in.seat < 0 || in.seat >= t->nseats) /* the view check says so too; we index by it */
        return refuse(t, CB_ERR_VIEW, "seat: %d is not a seat of this table (0..%d)", (int)in.seat,
                      t->nseats - 1);
    if (cb_view_upgrade(&in, v) != 0) /* cannot happen: the size was checked */
        return refuse(t, CB_ERR_VIEW, "struct_size: %u bytes: cb_view_upgrade refused it", (unsigned)size);
    return 0;
}

/* How many bytes of *out the host lets us write. 0, or a refusal. */
static int out_size(cb_table *t, const cb_decision *out, size_t *n)
{
    size_t want = out->struct_size ? out->struct_size : DEC_SIZE_1_0;
    if (want < DEC_SIZE_MIN)
        return refuse(t, CB_ERR_ARG, "out->struct_size: %u bytes, less than the smallest decision "
                      "the shim writes (%zu; 0 means the ABI 1.0 size, %zu)",
                      (unsigned)out->struct_size, (size_t)DEC_SIZE_MIN, (size_t)DEC_SIZE_1_0);
    *n = want < sizeof(cb_decision) ? want : sizeof(cb_decision);
    return 0;
}

/* Hand d to the host: n bytes, struct_size = n, the text NUL-terminated inside them. */
static void put_out(cb_decision *out, cb_decision d, size_t n)
{
    d.struct_size = (uint32_t)n;
    size_t at = offsetof(cb_decision, explain);
    if (n > at && n < at + sizeof d.explain)
        d.explain[n - at - 1] = '\0';
    memcpy(out, &d, n);
}

static int decide(cb_table *t, const cb_view *view, cb_decision *out, int phase)
{
    if (!t)
        return CB_ERR_ARG;
    t->err[0] = '\0';
    if (!view)
        return refuse(t, CB_ERR_ARG, "view: NULL");
    if (!out)
        return refuse(t, CB_ERR_ARG, "out: NULL");
    size_t outn = 0;
    int rc = out_size(t, out, &outn);
    if (rc != 0)
        return rc;
    /* our own copy: the size this shim knows, the config's rules when the host gave none */
    cb_view v;
    rc = take_view(t, view, &v);
    if (rc != 0)
        return rc;
    shim_play_check pc;
    shim_play_check *ppc = phase == CB_PHASE_PLAY ? &pc : NULL;
    rc = shim_view_check(&v, phase, ppc, &t->cls, t->vcheck, t->err, sizeof t->err);
    if (rc != 0) {
        if (!t->err[0])
            snprintf(t->err, sizeof t->err, "view: refused by the view check (%s view)",
                     phase == CB_PHASE_PLAY ? "play" : "bid");
        return rc < 0 ? rc : CB_ERR_VIEW;
    }
    t->err[0] = '\0'; /* a checker may leave text behind on success */

    /* a refused call changed nothing; from here the call answers, so the table may switch */
    table_refresh(t);
    if (opens_game(&v, phase))
        table_new_game(t);
    const shim_conf *c = t->conf;
    if (v.budget_ms == 0 || v.budget_ms > c->budget_ms)
        v.budget_ms = c->budget_ms;

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
        put_out(out, d, outn);
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
    put_out(out, d, outn);
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

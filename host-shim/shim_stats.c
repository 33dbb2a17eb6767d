/* cardbot shim — per-strategy statistics.
 *
 * A table counts into its own slots with no lock: one writer (the table's thread), relaxed
 * atomic loads and stores (plain moves on common hardware), so cb_shim_stats may sum live
 * tables from another thread without a data race. The shim's totals (a GArray of
 * cb_strategy_stats, guarded by the shim's lock) receive a table's counts when the table is
 * freed or switches to a reloaded config.
 */
#include "shim_int.h"

#include <stdio.h>
#include <string.h>

static inline uint64_t ld(const _Atomic uint64_t *a)
{
    return atomic_load_explicit(a, memory_order_relaxed);
}

static inline void st(_Atomic uint64_t *a, uint64_t x)
{
    atomic_store_explicit(a, x, memory_order_relaxed);
}

void shim_slot_record(shim_slot *s, uint64_t ns, int reason)
{
    st(&s->decisions, ld(&s->decisions) + 1);
    st(&s->total_ns, ld(&s->total_ns) + ns);
    if (ns > ld(&s->max_ns))
        st(&s->max_ns, ns);
    if (reason > 0 && reason < CB_FB_NREASONS)
        st(&s->fallbacks[reason], ld(&s->fallbacks[reason]) + 1);
}

void shim_slot_reset(shim_slot *s, const char *name)
{
    s->name = name;
    st(&s->decisions, 0);
    st(&s->total_ns, 0);
    st(&s->max_ns, 0);
    for (int i = 0; i < CB_FB_NREASONS; i++)
        st(&s->fallbacks[i], 0);
}

static cb_strategy_stats *totals_find(GArray *totals, const char *name, bool create)
{
    for (guint i = 0; i < totals->len; i++) {
        cb_strategy_stats *t = &g_array_index(totals, cb_strategy_stats, i);
        if (strncmp(t->name, name, sizeof t->name) == 0)
            return t;
    }
    if (!create)
        return NULL;
    cb_strategy_stats z;
    memset(&z, 0, sizeof z);
    snprintf(z.name, sizeof z.name, "%s", name);
    g_array_append_val(totals, z);
    return &g_array_index(totals, cb_strategy_stats, totals->len - 1);
}

void shim_totals_touch(GArray *totals, const char *name)
{
    (void)totals_find(totals, name, true);
}

void shim_totals_add(GArray *totals, const shim_slot *s)
{
    if (!s->name)
        return;
    /* configured strategies are already there; others ("(none)") only once they counted */
    cb_strategy_stats *t = totals_find(totals, s->name, ld(&s->decisions) > 0);
    if (!t)
        return;
    t->decisions += ld(&s->decisions);
    t->total_ns += ld(&s->total_ns);
    uint64_t mx = ld(&s->max_ns);
    if (mx > t->max_ns)
        t->max_ns = mx;
    for (int i = 0; i < CB_FB_NREASONS; i++)
        t->fallbacks[i] += ld(&s->fallbacks[i]);
}

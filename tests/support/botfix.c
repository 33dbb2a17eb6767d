/* cardbot tests — the fixture of the bot plugin tests (see botfix.h). */
#include "botfix.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

int cbt_bot_plugin_setup(void **state, const char *name)
{
    static const cbt_sym syms[] = {
        {CB_PLUGIN_ENTRY, offsetof(cbt_bot_plugin, entry)},
    };
    if (cbt_plugin_setup(state, name, sizeof(cbt_bot_plugin), syms, sizeof syms / sizeof syms[0]))
        return -1;
    cbt_bot_plugin *p = *state;
    p->bot = p->entry();
    return 0;
}

void cbt_view_init(cb_view *v, const cb_rules *r, int phase, int seat, int first, cb_cards hand)
{
    memset(v, 0, sizeof *v);
    v->struct_size = sizeof *v;
    v->abi_version = CB_ABI_VERSION;
    v->rules = r;
    v->phase = phase;
    v->seat = seat;
    v->nseats = 3;
    v->first_seat = first;
    v->hand = hand;
    for (int s = 0; s < 3; s++) {
        v->cards_left[s] = r->hand_size;
        v->bids[s] = -1;
    }
    v->landlord = -1;
    v->table_seat = -1;
}

void cbt_expect_refused(const cb_bot *bot, const cb_param *p, int n, const char *named)
{
    char err[300] = "";
    void *inst = bot->create(p, n, err, sizeof err);
    if (inst)
        bot->destroy(inst);
    assert_null(inst);
    if (!strstr(err, named))
        print_error("message for %s=%s does not name '%s': %s\n", p[n - 1].key, p[n - 1].value, named, err);
    assert_non_null(strstr(err, named));
}

void cbt_expect_refused1(const cb_bot *bot, const char *key, const char *value, const char *named)
{
    cb_param p = {key, value};
    cbt_expect_refused(bot, &p, 1, named);
}

void cbt_deal_start(cb_deal *d, cb_play_rec *hist, int cap, const cb_rules *r, const cb_cards hands[3],
                    cb_cards bottom, int landlord, int bids[3])
{
    memset(d, 0, sizeof *d);
    d->hist = hist;
    d->hist_cap = cap;
    cb_deal_init(d, r, hands, -1, landlord, 1, bottom);
    for (int s = 0; s < 3; s++)
        bids[s] = landlord < 0 ? -1 : s == landlord ? 1 : 0;
}

void cbt_deal_step_view(const cb_deal *d, const int bids[3], uint64_t seed, int step, cb_view *v)
{
    assert_true(step < 250);
    cb_deal_view(d, bids, seed + (uint64_t)step * 7919u, v);
}

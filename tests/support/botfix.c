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

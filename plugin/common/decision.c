/* cardbot plugins — shared ABI chores (see decision.h). */
#include "decision.h"

#include "cardbot/game.h"

#include <math.h>
#include <string.h>

bool cb_plug_view_ok(const cb_view *v)
{
    return v && v->rules && v->struct_size >= sizeof(cb_view) && CB_ABI_MAJOR_OF(v->abi_version) == CB_ABI_MAJOR &&
           v->seat >= 0 && v->seat < 3 && v->nseats == 3 && (v->nhistory == 0 || v->history) &&
           (v->rules->game == CB_GAME_PDK || v->rules->game == CB_GAME_DDZ);
}

void cb_plug_decision_init(cb_decision *d)
{
    memset(d, 0, sizeof *d);
    d->struct_size = sizeof *d;
    d->value = NAN;
    d->minhands_before = -1;
    d->minhands_after = -1;
}

void cb_plug_deliver(cb_decision *out, const cb_decision *d)
{
    uint32_t size = out->struct_size;
    if (size == 0 || size > sizeof *d)
        size = sizeof *d; /* 0: a host that did not say; a newer host: our members only */
    if (size <= sizeof d->struct_size)
        return;
    memcpy((char *)out + sizeof out->struct_size, (const char *)d + sizeof d->struct_size,
           size - sizeof d->struct_size);
}

int cb_plug_ddz_bid(const cb_view *v, int want)
{
    int32_t ok[4];
    int n = cb_view_legal_bids(v, ok, 4);
    if (n == 0) {
        /* a view the library's check refuses (a plugin called directly, not through the
         * shim): read the bids as they stand */
        int high = cb_view_high_bid(v);
        ok[n++] = 0;
        if (v->rules->rob)
            ok[n++] = high > 0 ? 2 : 1;
        else
            for (int x = high + 1; x <= 3; x++)
                ok[n++] = x;
    }
    if (v->rules->rob) {
        /* 0 and one of 1 (call) / 2 (rob): the second needs the stronger hand */
        if (n == 2 && want >= ok[1])
            return ok[1];
        return 0;
    }
    for (int i = 0; i < n; i++)
        if (ok[i] == want)
            return want;
    return 0;
}

/* cardbot — is this one play legal here? (cb_play_legal)
 *
 * The same verdict as "the play is in cb_legal_moves' list", found from the play's own
 * readings (cb_readings) and the flow rules, so the shim can check a plugin's answer without
 * generating every play. Only a pass under must_beat needs to know whether some play beats the
 * table; that asks cb_legal_moves for its first entry (following lists are short).
 */
#include "cardbot/rules.h"
#include "msg.h"
#include "classify_int.h"
#include "moves_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define READINGS_CAP 128 /* far above what one multiset can read as (PDK planes: a few dozen) */

/* the reason, and false */
#define refuse(why, whylen, ...) (core_msg_ret(0, (why), (whylen), __VA_ARGS__) != 0)

static bool accept(cb_move *m, const cb_move *chosen, char *why, size_t whylen)
{
    if (m)
        *m = *chosen;
    if (why && whylen)
        why[0] = '\0';
    return true;
}

bool cb_play_legal(const cb_rules *r, const cb_ctx *ctx, cb_counts play, cb_move *m, char *why,
                   size_t whylen)
{
    if (!r || !ctx)
        return refuse(why, whylen, "no rules or no situation given");
    const cb_move *table = ctx->table && ctx->table->shape != CB_PASS ? ctx->table : NULL;

    if (play == 0) {
        if (!table)
            return refuse(why, whylen, "cannot pass when leading");
        /* the pass comes first in the list exactly when it is allowed */
        cb_move first;
        int n = cb_legal_moves(r, ctx, &first, 1);
        if (n > 0 && first.shape == CB_PASS)
            return accept(m, &first, why, whylen);
        return refuse(why, whylen, "must beat: a beating play exists");
    }
    if (!cb_counts_within(play, ctx->hand))
        return refuse(why, whylen, "not in hand");

    cb_move rd[READINGS_CAP];
    int nr = cb_readings(r, play, rd, READINGS_CAP);
    if (nr > READINGS_CAP)
        nr = READINGS_CAP;
    if (nr <= 0) {
        if (!why || !whylen) /* rollouts ask without a reason: skip classifying it again */
            return false;
        char detail[160] = "";
        cb_classify(r, play, NULL, detail, sizeof detail);
        const char *d = detail;
        if (strncmp(d, "not a legal play: ", 18) == 0)
            d += 18;
        return refuse(why, whylen, "not a legal shape%s%s", *d ? ": " : "", d);
    }

    bool whole = play == ctx->hand;
    bool shapes_ok = false; /* some reading passes the short-play rule */
    const cb_move *best = NULL;
    for (int i = 0; i < nr; i++) {
        const cb_move *x = &rd[i];
        if (cb_move_is_short(r, x) &&
            (r->short_triple == CB_SHORT_NEVER || (r->short_triple == CB_SHORT_LAST && !whole)))
            continue;
        shapes_ok = true;
        if (table && !cb_beats(r, x, table, whole))
            continue;
        if (!best || cb_reading_before(r, x, best))
            best = x;
    }
    if (!shapes_ok)
        return refuse(why, whylen, "short triple only as the last play");
    if (cb_need_spade3(r, ctx, table != NULL) && cb_count(play, CB_RANK_3) == 0)
        return refuse(why, whylen, "first play must contain the spade 3");
    if (!best) {
        if (table && whole && r->game == CB_GAME_PDK && !r->short_follow && why && whylen) {
            /* name the flag when it is what refuses a 甩尾 */
            cb_rules tail = *r;
            tail.short_follow = true;
            for (int i = 0; i < nr; i++)
                if (cb_move_is_short(r, &rd[i]) && cb_beats(&tail, &rd[i], table, true))
                    return refuse(why, whylen, "does not beat the table: a short last play "
                                  "never follows a full one (short_follow = off)");
        }
        return refuse(why, whylen, "does not beat the table");
    }
    if (best->shape == CB_SINGLE && r->warn_single && ctx->next_has_one &&
        best->main != cb_counts_top(ctx->hand))
        return refuse(why, whylen, "warn_single: must play your highest single");
    return accept(m, best, why, whylen);
}

void cb_ctx_make(cb_ctx *ctx, const cb_rules *r, cb_cards hand, const cb_move *table, int next_left,
                 bool nothing_played)
{
    cb_ctx_fill(ctx, r, hand, table, next_left == 1, nothing_played);
}

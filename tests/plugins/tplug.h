/* cardbot tests — helpers shared by the fault-injection test plugins (each plugin is one .c
 * file built into its own .so; this header is all they share).
 *
 * Every test plugin takes its parameters as "key=value" through create(), rejects unknown
 * keys with a message naming the key (as real plugins must), and keeps its state in the
 * instance.
 */
#ifndef CARDBOT_TPLUG_H
#define CARDBOT_TPLUG_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cardbot/bot.h"

typedef struct tplug {
    int bid;               /* lowest: the bid it answers */
    int mode;              /* illegal: which wrong answer */
    unsigned sleep_ms;     /* slow: how long it dawdles */
    unsigned long calls;
    cb_cards play;         /* illegal, mode fixed: the answer */
} tplug;

/* Parse an integer parameter value lo..hi; -1 with a message naming the key. */
static inline int tplug_int(const char *plugin, const cb_param *p, long lo, long hi, long *out,
                            char *err, size_t errlen)
{
    char *end = NULL;
    long x = strtol(p->value, &end, 10);
    if (!p->value[0] || *end || x < lo || x > hi) {
        snprintf(err, errlen, "%s: %s: bad value '%s' (%ld..%ld)", plugin, p->key, p->value, lo, hi);
        return -1;
    }
    *out = x;
    return 0;
}

static inline int tplug_unknown(const char *plugin, const cb_param *p, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: unknown key '%s'", plugin, p->key);
    return -1;
}

/* The decision situation of a play view, as cb_legal_moves wants it. */
static inline int tplug_ctx(const cb_view *v, cb_ctx *ctx, cb_move *table)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->hand = cb_counts_of(v->hand);
    if (v->table) {
        if (!cb_classify(v->rules, cb_counts_of(v->table), table, NULL, 0))
            return -1;
        ctx->table = table;
    }
    ctx->next_has_one = v->cards_left[(v->seat + 1) % v->nseats] == 1;
    ctx->first_play = v->rules->game == CB_GAME_PDK && v->rules->spade3_first &&
                      v->nhistory == 0 && (v->hand & 1u);
    return 0;
}

/* The first play (not the pass) cb_legal_moves lists, or pass when there is none. */
static inline int tplug_lowest(const cb_view *v, cb_cards *out)
{
    cb_ctx ctx;
    cb_move table, moves[2];
    if (tplug_ctx(v, &ctx, &table) != 0)
        return -1;
    int n = cb_legal_moves(v->rules, &ctx, moves, 2);
    *out = 0;
    for (int i = 0; i < n && i < 2; i++)
        if (moves[i].shape != CB_PASS)
            return cb_cards_pick(v->hand, moves[i].counts, out);
    return 0;
}

#define TPLUG_ENTRY(bot_var)                                                                  \
    __attribute__((visibility("default"))) const cb_bot *cb_plugin_entry(void);               \
    const cb_bot *cb_plugin_entry(void) { return &bot_var; }

#endif

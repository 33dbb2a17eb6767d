/* cardbot tests — the legal-plays oracle (see oracle.h).
 *
 * Brute force on purpose: every sub-multiset of the hand is read by the classifier and kept
 * when one of its readings is allowed by the flow rules written out below. Nothing here knows
 * how core/moves.c generates plays.
 */
#include "oracle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "randhand.h"

long cbt_submultisets(cb_counts k, cb_counts *out, long cap)
{
    long n = 0;
    cb_counts cur = 0;
    for (;;) {
        if (n < cap)
            out[n] = cur;
        n++;
        /* odometer step: raise the lowest rank that can still grow, zero the ones below it */
        int r = 0;
        for (; r < CB_NRANKS; r++) {
            if (cb_count(cur, r) < cb_count(k, r)) {
                cur = cb_count_add(cur, r, 1);
                break;
            }
            cur = cb_count_add(cur, r, -cb_count(cur, r));
        }
        if (r == CB_NRANKS)
            return n;
    }
}

int cbt_readings(const cb_rules *r, cb_counts k, cb_move *out)
{
    int n = cb_readings(r, k, out, CBT_READINGS_CAP);
    return n > CBT_READINGS_CAP ? -1 : n;
}

bool cbt_is_short(const cb_rules *r, const cb_move *m)
{
    if (r->game != CB_GAME_PDK)
        return false;
    return m->shape == CB_TRIPLE || m->shape == CB_TRIPLE_1 || m->shape == CB_PLANE ||
           m->shape == CB_PLANE_1;
}

bool cbt_is_bomb(const cb_move *m) { return m->shape == CB_BOMB || m->shape == CB_ROCKET; }

static int highest_rank(cb_counts k)
{
    for (int r = CB_NRANKS - 1; r >= 0; r--)
        if (cb_count(k, r) > 0)
            return r;
    return -1;
}

bool cbt_reading_allowed(const cb_rules *r, const cb_ctx *ctx, const cb_move *m)
{
    cb_counts play = m->counts;
    if (play == 0 || !cbt_counts_le(play, ctx->hand))
        return false;
    bool whole = play == ctx->hand;
    if (cbt_is_short(r, m)) {
        if (r->short_triple == CB_SHORT_NEVER)
            return false;
        if (r->short_triple == CB_SHORT_LAST && !whole)
            return false;
    }
    if (r->warn_single && ctx->next_has_one && m->shape == CB_SINGLE &&
        highest_rank(play) != highest_rank(ctx->hand))
        return false;
    if (r->spade3_first && ctx->first_play && cb_count(play, CB_RANK_3) == 0)
        return false;
    if (ctx->table && !cb_beats(r, m, ctx->table, whole))
        return false;
    return true;
}

bool cbt_move_eq(const cb_move *a, const cb_move *b)
{
    return a->counts == b->counts && a->shape == b->shape && a->main == b->main &&
           a->len == b->len && a->ncards == b->ncards && a->kick == b->kick;
}

bool cbt_is_a_reading(const cb_rules *r, const cb_move *m)
{
    cb_move rd[CBT_READINGS_CAP];
    int n = cbt_readings(r, m->counts, rd);
    for (int i = 0; i < n; i++)
        if (cbt_move_eq(&rd[i], m))
            return true;
    return false;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int cbt_oracle_legal(const cb_rules *r, const cb_ctx *ctx, cbt_legal *out)
{
    memset(out, 0, sizeof *out);
    long total = cbt_submultisets(ctx->hand, NULL, 0);
    cb_counts *all = malloc((size_t)total * sizeof *all);
    out->legal = calloc((size_t)total, sizeof *out->legal);
    out->plays = malloc((size_t)total * sizeof *out->plays);
    if (!all || !out->legal || !out->plays) {
        free(all);
        cbt_legal_free(out);
        return -1;
    }
    cbt_submultisets(ctx->hand, all, total);
    /* all[0] is the empty multiset: keep only the non-empty ones */
    out->subs = all;
    memmove(all, all + 1, (size_t)(total - 1) * sizeof *all);
    out->nsubs = total - 1;

    cb_move rd[CBT_READINGS_CAP];
    for (long i = 0; i < out->nsubs; i++) {
        int n = cbt_readings(r, out->subs[i], rd);
        if (n < 0) {
            out->overflow = 1;
            continue;
        }
        for (int j = 0; j < n; j++) {
            if (!cbt_reading_allowed(r, ctx, &rd[j]))
                continue;
            out->legal[i] = true;
            if (cbt_is_bomb(&rd[j]))
                out->beat_bomb = true;
            else
                out->beat_plain = true;
        }
        if (out->legal[i])
            out->plays[out->nplays++] = out->subs[i];
    }
    qsort(out->plays, (size_t)out->nplays, sizeof *out->plays, cmp_u64);
    if (!ctx->table) {
        out->beat_plain = out->beat_bomb = false;
        out->pass_ok = false;
    } else {
        bool must = r->must_beat && (out->beat_plain || (r->must_beat_bomb && out->beat_bomb));
        out->pass_ok = !must;
    }
    return 0;
}

void cbt_legal_free(cbt_legal *l)
{
    free(l->subs);
    free(l->legal);
    free(l->plays);
    memset(l, 0, sizeof *l);
}

void cbt_move_text(const cb_move *m, char *buf, size_t len)
{
    char cards[64];
    cb_counts_format(m->counts, cards, sizeof cards);
    const char *name = m->shape < CB_NSHAPES ? cb_shape_names[m->shape] : "?";
    snprintf(buf, len, "%s %s main=%d len=%d n=%d kick=%d", m->shape == CB_PASS ? "-" : cards,
             name ? name : "?", m->main, m->len, m->ncards, m->kick);
}

void cbt_ctx_text(const cb_rules *r, const cb_ctx *ctx, char *buf, size_t len)
{
    char hand[64], table[128];
    cb_counts_format(ctx->hand, hand, sizeof hand);
    if (ctx->table)
        cbt_move_text(ctx->table, table, sizeof table);
    else
        snprintf(table, sizeof table, "(leading)");
    snprintf(buf, len,
             "preset=%s hand=%s table=%s next_has_one=%d first_play=%d "
             "[short_triple=%d four_with=%d min_pair_chain=%d aaa_bomb=%d must_beat=%d "
             "must_beat_bomb=%d warn_single=%d spade3_first=%d rocket_kickers=%d]",
             r->preset, hand, table, ctx->next_has_one, ctx->first_play, r->short_triple,
             r->four_with, r->min_pair_chain, r->aaa_bomb, r->must_beat, r->must_beat_bomb,
             r->warn_single, r->spade3_first, r->rocket_kickers);
}

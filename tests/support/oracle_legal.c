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

bool cbt_house_flags(const cb_rules *r)
{
    return r->game == CB_GAME_PDK && (r->plane_single_wings || r->plane_pair_wings ||
                                      !r->short_follow || r->max_pair_chain != 0);
}

/* Is rank i in the chain of plane reading m? */
static bool in_chain(const cb_move *m, int i) { return i >= m->main && i < m->main + m->len; }

/* plane_single_wings, from its text: a plane (CB_PLANE_1) of L triples whose other cards are L
 * singles, each of a different rank (none of the chain's: its ranks hold exactly 3). */
static bool single_wings(const cb_rules *r, const cb_move *m)
{
    if (r->game != CB_GAME_PDK || !r->plane_single_wings || m->shape != CB_PLANE_1)
        return false;
    int singles = 0;
    for (int i = 0; i < CB_NRANKS; i++) {
        int c = cb_count(m->counts, i);
        if (in_chain(m, i))
            continue;
        if (c > 1)
            return false;
        singles += c;
    }
    return singles == m->len;
}

/* plane_pair_wings, from its text: the 2L wings of a full plane are L pairs of L different
 * ranks. */
static bool pair_wings(const cb_move *m)
{
    int pairs = 0;
    for (int i = 0; i < CB_NRANKS; i++) {
        int c = cb_count(m->counts, i);
        if (in_chain(m, i) || c == 0)
            continue;
        if (c != 2)
            return false;
        pairs++;
    }
    return pairs == m->len;
}

int cbt_readings(const cb_rules *r, cb_counts k, cb_move *out)
{
    if (!cbt_house_flags(r)) {
        int n = cb_readings(r, k, out, CBT_READINGS_CAP);
        return n > CBT_READINGS_CAP ? -1 : n;
    }
    /* the flags off and short plays everywhere: every reading any setting could have */
    cb_rules base = *r;
    base.plane_single_wings = base.plane_pair_wings = false;
    base.short_follow = true;
    base.max_pair_chain = 0;
    base.short_triple = CB_SHORT_ALWAYS;
    int n = cb_readings(&base, k, out, CBT_READINGS_CAP);
    if (n > CBT_READINGS_CAP)
        return -1;
    int kept = 0;
    for (int i = 0; i < n; i++) {
        const cb_move *m = &out[i];
        if (m->shape == CB_PAIR_CHAIN && r->max_pair_chain && m->len > r->max_pair_chain)
            continue;
        if (m->shape == CB_PLANE_2 && r->plane_pair_wings && !pair_wings(m))
            continue;
        if (r->short_triple == CB_SHORT_NEVER && cbt_is_short(r, m))
            continue;
        out[kept++] = *m;
    }
    return kept;
}

bool cbt_is_short(const cb_rules *r, const cb_move *m)
{
    if (r->game != CB_GAME_PDK)
        return false;
    if (m->shape == CB_PLANE_1 && single_wings(r, m))
        return false;
    return m->shape == CB_TRIPLE || m->shape == CB_TRIPLE_1 || m->shape == CB_PLANE ||
           m->shape == CB_PLANE_1;
}

bool cbt_canonical(const cb_rules *r, cb_counts k, cb_move *out)
{
    cb_move rd[CBT_READINGS_CAP];
    int n = cbt_readings(r, k, rd);
    int best = -1;
    for (int i = 0; i < n; i++) {
        if (best >= 0) {
            const cb_move *a = &rd[i], *b = &rd[best];
            bool fa = !cbt_is_short(r, a), fb = !cbt_is_short(r, b);
            bool before = fa != fb ? fa
                        : a->shape != b->shape ? a->shape > b->shape
                        : a->len != b->len ? a->len > b->len : a->main > b->main;
            if (!before)
                continue;
        }
        best = i;
    }
    if (best < 0)
        return false;
    *out = rd[best];
    return true;
}

bool cbt_beats(const cb_rules *r, const cb_move *play, const cb_move *table, bool whole_hand)
{
    if (!cbt_house_flags(r))
        return cb_beats(r, play, table, whole_hand);
    /* PDK, from rules.h: bombs over everything else (AAA's main tops the fours); otherwise the
     * same shape, chain length and card count with a higher main rank — except that a short
     * play beats a full one only as 甩尾: emptying the hand, short_triple not never, and
     * short_follow on; 甩尾 also lets a bare triple / 三带一 follow a 三带二, and a plane with
     * fewer cards follow a full plane (+ 2L, or + L single wings) of as many triples. */
    if (play->shape == CB_PASS)
        return false;
    if (!table || table->shape == CB_PASS)
        return true;
    if (play->shape == CB_BOMB)
        return table->shape != CB_BOMB || play->main > table->main;
    if (table->shape == CB_BOMB)
        return false;
    bool ps = cbt_is_short(r, play), ts = cbt_is_short(r, table);
    bool tail = whole_hand && r->short_triple != CB_SHORT_NEVER && r->short_follow;
    if (ps && !ts && !tail)
        return false;
    if (play->main <= table->main)
        return false;
    if (play->shape == table->shape && play->len == table->len && play->ncards == table->ncards)
        return true;
    if (!tail)
        return false;
    bool p_triple = play->shape == CB_TRIPLE || play->shape == CB_TRIPLE_1;
    bool p_plane = play->shape == CB_PLANE || play->shape == CB_PLANE_1;
    bool t_full_plane = table->shape == CB_PLANE_2 || (table->shape == CB_PLANE_1 && !ts);
    return (p_triple && table->shape == CB_TRIPLE_2) ||
           (p_plane && t_full_plane && play->len == table->len && play->ncards < table->ncards);
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
    if (ctx->table && !cbt_beats(r, m, ctx->table, whole))
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
             "must_beat_bomb=%d warn_single=%d spade3_first=%d rocket_kickers=%d "
             "plane_single_wings=%d plane_pair_wings=%d short_follow=%d max_pair_chain=%d]",
             r->preset, hand, table, ctx->next_has_one, ctx->first_play, r->short_triple,
             r->four_with, r->min_pair_chain, r->aaa_bomb, r->must_beat, r->must_beat_bomb,
             r->warn_single, r->spade3_first, r->rocket_kickers, r->plane_single_wings,
             r->plane_pair_wings, r->short_follow, r->max_pair_chain);
}

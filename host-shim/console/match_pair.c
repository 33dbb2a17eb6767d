/* cardbot match — the paired head-to-head comparison of two strategies (match_verdict.h says
 * what the statistic is and why it is honest). Per deal: the sums of its games' scores and
 * points differences. Over deals: running sums of the per-deal means and their squares, and a
 * histogram of the deal scores (the SPRT's input: a deal of three games scores one of 13
 * values), so a result or an SPRT step costs the same however long the match. A game may join
 * a deal seen long before (the second seating of a tournament): the deal's old mean leaves the
 * sums and the histogram, its new one enters. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "match_num.h"
#include "match_verdict.h"

#define Z95 1.959963984540054

typedef struct deal_key {
    uint64_t seed;
    int deal;
} deal_key;

typedef struct deal_acc {
    long games;
    double score, pts; /* sums over the deal's games */
} deal_acc;

struct cb_pair {
    const cb_rules *r;
    char *a, *b;
    GHashTable *index;  /* deal_key -> position in deals + 1 */
    GArray *deals;      /* deal_acc, in order of first appearance */
    long last;          /* position of the last deal touched: rotations come in a row */
    deal_key last_key;
    long games, skipped;
    long seats_a, seats_b, wins_a, wins_b;
    double s1, s2, p1, p2; /* sums over deals of the deal score, its square, points, square */
    GArray *hist;          /* cb_score_count by increasing score: how many deals scored each */
};

static guint key_hash(gconstpointer k)
{
    const deal_key *d = k;
    uint64_t h = d->seed * 0x9E3779B97F4A7C15ull ^ (uint64_t)(uint32_t)d->deal;
    return (guint)(h ^ h >> 32);
}

static gboolean key_equal(gconstpointer a, gconstpointer b)
{
    const deal_key *x = a, *y = b;
    return x->seed == y->seed && x->deal == y->deal;
}

cb_pair *cb_pair_new(const cb_rules *r, const char *a, const char *b)
{
    if (!r || !a || !b || !strcmp(a, b))
        return NULL;
    cb_pair *p = g_new0(cb_pair, 1);
    p->r = r;
    p->a = g_strdup(a);
    p->b = g_strdup(b);
    p->index = g_hash_table_new_full(key_hash, key_equal, g_free, NULL);
    p->deals = g_array_new(FALSE, TRUE, sizeof(deal_acc));
    p->hist = g_array_new(FALSE, FALSE, sizeof(cb_score_count));
    p->last = -1;
    return p;
}

void cb_pair_free(cb_pair *p)
{
    if (!p)
        return;
    g_hash_table_destroy(p->index);
    g_array_free(p->deals, TRUE);
    g_array_free(p->hist, TRUE);
    g_free(p->a);
    g_free(p->b);
    g_free(p);
}

const char *cb_pair_name_a(const cb_pair *p) { return p->a; }
const char *cb_pair_name_b(const cb_pair *p) { return p->b; }

double cb_elo_of_score(double s)
{
    if (isnan(s))
        return NAN;
    if (s <= 0)
        return -INFINITY;
    if (s >= 1)
        return INFINITY;
    return 400.0 * log10(s / (1 - s));
}

double cb_score_of_elo(double elo)
{
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

/* Move one deal in the histogram: out of score from (unless from is NaN), into score to.
 * Scores compare exactly: the same fraction of quarter points always divides to the same
 * double. A bucket that empties goes, so the histogram holds the scores seen now. */
static void hist_move(GArray *h, double from, double to)
{
    for (int pass = 0; pass < 2; pass++) {
        double x = pass ? to : from;
        if (isnan(x))
            continue;
        guint lo = 0, hi = h->len; /* first bucket with score >= x */
        while (lo < hi) {
            guint mid = (lo + hi) / 2;
            if (g_array_index(h, cb_score_count, mid).score < x)
                lo = mid + 1;
            else
                hi = mid;
        }
        bool found = lo < h->len && g_array_index(h, cb_score_count, lo).score == x;
        if (pass) {
            if (found) {
                g_array_index(h, cb_score_count, lo).deals++;
            } else {
                cb_score_count c = {x, 1};
                g_array_insert_val(h, lo, c);
            }
        } else if (found && --g_array_index(h, cb_score_count, lo).deals == 0) {
            g_array_remove_index(h, lo);
        }
    }
}

const cb_score_count *cb_pair_scores(const cb_pair *p, size_t *m)
{
    *m = p->hist->len;
    return (const cb_score_count *)(const void *)p->hist->data;
}

static bool is(const cb_match_game *gm, int s, const char *name)
{
    const char *n = gm->strategy[s] ? gm->strategy[s] : gm->strategy_buf[s];
    return !strcmp(n, name);
}

static deal_acc *deal_of(cb_pair *p, const cb_match_game *gm)
{
    deal_key k = {gm->seed, gm->deal};
    if (p->last >= 0 && key_equal(&k, &p->last_key)) /* the next rotation of the same deal */
        return &g_array_index(p->deals, deal_acc, p->last);
    p->last_key = k;
    gpointer v = g_hash_table_lookup(p->index, &k);
    if (v) {
        p->last = GPOINTER_TO_SIZE(v) - 1;
    } else {
        deal_key *nk = g_new(deal_key, 1);
        *nk = k;
        g_array_set_size(p->deals, p->deals->len + 1);
        p->last = (long)p->deals->len - 1;
        g_hash_table_insert(p->index, nk, GSIZE_TO_POINTER((gsize)p->last + 1));
    }
    return &g_array_index(p->deals, deal_acc, p->last);
}

void cb_pair_add(cb_pair *p, const cb_match_game *gm)
{
    int sa[3], sb[3], na = 0, nb = 0;
    if (!gm->error)
        for (int s = 0; s < 3; s++) {
            if (is(gm, s, p->a))
                sa[na++] = s;
            else if (is(gm, s, p->b))
                sb[nb++] = s;
        }
    if (!na || !nb) {
        p->skipped++;
        return;
    }
    double score = 0, da = 0, db = 0;
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++) {
            int x = gm->delta[sa[i]], y = gm->delta[sb[j]];
            score += x > y ? 1.0 : x == y ? 0.5 : 0.0;
        }
    score /= na * nb;
    for (int i = 0; i < na; i++) {
        da += gm->delta[sa[i]];
        p->wins_a += cb_match_seat_won(p->r, gm, sa[i]);
    }
    for (int j = 0; j < nb; j++) {
        db += gm->delta[sb[j]];
        p->wins_b += cb_match_seat_won(p->r, gm, sb[j]);
    }
    p->seats_a += na;
    p->seats_b += nb;
    p->games++;
    double pts = da / na - db / nb;

    deal_acc *d = deal_of(p, gm);
    double old = NAN;
    if (d->games) { /* take the deal's old means out of the running sums */
        double ms = d->score / d->games, mp = d->pts / d->games;
        old = ms;
        p->s1 -= ms;
        p->s2 -= ms * ms;
        p->p1 -= mp;
        p->p2 -= mp * mp;
    }
    d->games++;
    d->score += score;
    d->pts += pts;
    double ms = d->score / d->games, mp = d->pts / d->games;
    p->s1 += ms;
    p->s2 += ms * ms;
    p->p1 += mp;
    p->p2 += mp * mp;
    hist_move(p->hist, old, ms);
}

/* Mean, sample variance and normal 95% half-width of n values from their sums. */
static void moments(long n, double s1, double s2, double *mean, double *var, double *half)
{
    *mean = n ? s1 / n : NAN;
    if (n < 2) {
        *var = *half = NAN;
        return;
    }
    double v = (s2 - s1 * s1 / n) / (n - 1);
    *var = v > 0 ? v : 0; /* rounding can leave -1e-17 where every deal scored the same */
    *half = Z95 * sqrt(*var / n);
}

void cb_pair_get(const cb_pair *p, cb_pair_result *out)
{
    memset(out, 0, sizeof *out);
    long n = (long)p->deals->len;
    out->deals = n;
    out->games = p->games;
    out->skipped = p->skipped;
    double half;
    moments(n, p->s1, p->s2, &out->score, &out->score_var, &half);
    /* clipped: a score cannot leave [0, 1] (fmax would also turn a NaN bound into 0) */
    out->score_lo = isnan(half) ? NAN : fmax(0.0, out->score - half);
    out->score_hi = isnan(half) ? NAN : fmin(1.0, out->score + half);
    out->elo = cb_elo_of_score(out->score);
    out->elo_lo = cb_elo_of_score(out->score_lo);
    out->elo_hi = cb_elo_of_score(out->score_hi);
    double pvar;
    moments(n, p->p1, p->p2, &out->pts_diff, &pvar, &half);
    out->pts_lo = out->pts_diff - half;
    out->pts_hi = out->pts_diff + half;
    out->win_a = p->seats_a ? (double)p->wins_a / p->seats_a : NAN;
    out->win_b = p->seats_b ? (double)p->wins_b / p->seats_b : NAN;
}

void cb_pair_print(const cb_pair *p, FILE *f)
{
    cb_pair_result r;
    cb_pair_get(p, &r);
    if (!r.deals) {
        fprintf(f, "Pair %s vs %s: no game with both seated\n", p->a, p->b);
        return;
    }
    char s[8][32];
    fprintf(f, "Pair %s vs %s: %ld deal%s (%ld game%s), score %s [%s, %s], Elo %s [%s, %s], ", p->a, p->b,
            r.deals, r.deals == 1 ? "" : "s", r.games, r.games == 1 ? "" : "s", cb_num(s[0], 32, "%.3f", r.score, false), cb_num(s[1], 32, "%.3f", r.score_lo, false),
            cb_num(s[2], 32, "%.3f", r.score_hi, false), cb_num(s[3], 32, "%.0f", r.elo, true),
            cb_num(s[4], 32, "%.0f", r.elo_lo, true), cb_num(s[5], 32, "%.0f", r.elo_hi, true));
    fprintf(f, "points %s [%s, %s] per game, ", cb_num(s[0], 32, "%.2f", r.pts_diff, true),
            cb_num(s[1], 32, "%.2f", r.pts_lo, true), cb_num(s[2], 32, "%.2f", r.pts_hi, true));
    fprintf(f, "wins %s %s%% %s %s%%\n", p->a, cb_num(s[3], 32, "%.1f", 100 * r.win_a, false), p->b,
            cb_num(s[4], 32, "%.1f", 100 * r.win_b, false));
}

/* cardbot tournament — the crosstable and the standings, as text and into the HTML report.
 * Numbers go through cb_num: '.' as the decimal point in any locale, one spelling for n/a and
 * infinities, so the same games print the same bytes. */
#include <glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "match_num.h"
#include "tour.h"

/* Cell (i, j): i's result against j, from the pairing they played in whichever order (B's side
 * of a pairing is its mirror: per game B scores 1 - A's score, so every figure flips). false
 * when they did not meet or no game of theirs counted. */
static bool cell(const cb_tour *t, int i, int j, cb_pair_result *out)
{
    for (int k = 0; k < t->npair; k++) {
        const cb_pair_result *r = &t->res[k];
        if (r->games <= 0)
            continue;
        if (t->pair[k].a == i && t->pair[k].b == j) {
            *out = *r;
            return true;
        }
        if (t->pair[k].a == j && t->pair[k].b == i) {
            *out = *r;
            out->score = 1 - r->score;
            out->score_lo = 1 - r->score_hi;
            out->score_hi = 1 - r->score_lo;
            out->elo = -r->elo;
            out->elo_lo = -r->elo_hi;
            out->elo_hi = -r->elo_lo;
            out->pts_diff = -r->pts_diff;
            out->pts_lo = -r->pts_hi;
            out->pts_hi = -r->pts_lo;
            out->win_a = r->win_b;
            out->win_b = r->win_a;
            return true;
        }
    }
    return false;
}

/* "0.563 +44±22 (10)": score, Elo with half the width of its 95% interval (the interval is
 * not symmetric in Elo; the half width says how far to trust the figure), deals. Without an
 * interval (fewer than 2 deals) or with an infinite Elo (every game won or lost) no "±". */
static char *cell_text(const cb_pair_result *r)
{
    char s[4][32];
    cb_num(s[0], 32, "%.3f", r->score, false);
    cb_num(s[1], 32, "%.0f", r->elo, true);
    double half = (r->elo_hi - r->elo_lo) / 2;
    GString *g = g_string_new(NULL);
    g_string_append_printf(g, "%s %s", s[0], s[1]);
    if (isfinite(r->elo) && !isnan(half))
        g_string_append_printf(g, "\xc2\xb1%s", cb_num(s[2], 32, "%.0f", half, false));
    g_string_append_printf(g, " (%ld)", r->deals);
    return g_string_free(g, FALSE);
}

/* Pad to a width in characters (the cells hold a multi-byte "±"). */
static void put_padded(FILE *f, const char *s, long width)
{
    fputs(s, f);
    for (long k = g_utf8_strlen(s, -1); k < width; k++)
        fputc(' ', f);
}

void cb_tour_print_crosstable(const cb_tour *t, FILE *f)
{
    int n = t->n;
    char **text = g_new0(char *, (size_t)n * n);
    long *w = g_new0(long, n + 1); /* w[0]: the row names; w[1 + j]: column j */
    for (int i = 0; i < n; i++) {
        w[0] = MAX(w[0], g_utf8_strlen(t->name[i], -1));
        w[1 + i] = g_utf8_strlen(t->name[i], -1);
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            cb_pair_result r;
            text[i * n + j] = i == j ? g_strdup("-") : cell(t, i, j, &r) ? cell_text(&r) : g_strdup(".");
            w[1 + j] = MAX(w[1 + j], g_utf8_strlen(text[i * n + j], -1));
        }
    fprintf(f, "Crosstable: the row's score against the column, Elo \xc2\xb1 half its 95%% interval, (deals); "
               ". = did not meet\n");
    put_padded(f, "", w[0]);
    for (int j = 0; j < n; j++) {
        fputs("  ", f);
        put_padded(f, t->name[j], j + 1 < n ? w[1 + j] : 0);
    }
    fputc('\n', f);
    for (int i = 0; i < n; i++) {
        put_padded(f, t->name[i], w[0]);
        for (int j = 0; j < n; j++) {
            fputs("  ", f);
            put_padded(f, text[i * n + j], j + 1 < n ? w[1 + j] : 0);
        }
        fputc('\n', f);
    }
    for (int k = 0; k < n * n; k++)
        g_free(text[k]);
    g_free(text);
    g_free(w);
}

typedef struct standing {
    int i;
    cb_pair_result r;
} standing;

/* Best score first; strategies without a counted game last; ties in the tournament's order. */
static int by_score(const void *x, const void *y)
{
    const standing *a = x, *b = y;
    bool na = a->r.deals == 0 || isnan(a->r.score), nb = b->r.deals == 0 || isnan(b->r.score);
    if (na != nb)
        return na ? 1 : -1;
    if (!na && a->r.score != b->r.score)
        return a->r.score > b->r.score ? -1 : 1;
    return a->i - b->i;
}

void cb_tour_print_standings(const cb_tour *t, FILE *f)
{
    int n = t->n;
    standing *st = g_new0(standing, n);
    long wn = 8;
    for (int i = 0; i < n; i++) {
        st[i].i = i;
        cb_pair_get(t->acc[i].field, &st[i].r);
        wn = MAX(wn, (long)strlen(t->name[i]));
    }
    qsort(st, (size_t)n, sizeof *st, by_score);
    fprintf(f, "Standings: each strategy against the rest of the field, over all its games, scored per deal\n");
    fprintf(f, "%4s  %-*s  %5s  %-14s  %5s  %-14s  %8s  %6s  %5s\n", "Rank", (int)wn, "Strategy", "Score", "95% CI",
            "Elo", "95% CI", "Pts diff", "Games", "Deals");
    for (int k = 0; k < n; k++) {
        const cb_pair_result *r = &st[k].r;
        char s[8][32], ci[80], eci[80];
        g_snprintf(ci, sizeof ci, "[%s, %s]", cb_num(s[0], 32, "%.3f", r->score_lo, false),
                   cb_num(s[1], 32, "%.3f", r->score_hi, false));
        g_snprintf(eci, sizeof eci, "[%s, %s]", cb_num(s[2], 32, "%.0f", r->elo_lo, true),
                   cb_num(s[3], 32, "%.0f", r->elo_hi, true));
        fprintf(f, "%4d  %-*s  %5s  %-14s  %5s  %-14s  %8s  %6ld  %5ld\n", k + 1, (int)wn, t->name[st[k].i],
                cb_num(s[4], 32, "%.3f", r->score, false), ci, cb_num(s[5], 32, "%.0f", r->elo, true), eci,
                cb_num(s[6], 32, "%.2f", r->pts_diff, true), r->games, r->deals);
    }
    g_free(st);
}

void cb_tour_fill_report(cb_tour *t)
{
    if (!t->rep)
        return;
    for (int k = 0; k < t->npair; k++) {
        if (t->res[k].games <= 0)
            continue;
        cb_report_pair(t->rep, t->name[t->pair[k].a], t->name[t->pair[k].b], &t->res[k]);
        if (t->pair_line[k])
            cb_report_line(t->rep, t->pair_line[k]);
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return;
    cb_tour_print_standings(t, f);
    fclose(f);
    char **lines = g_strsplit(text, "\n", -1);
    for (char **l = lines; *l; l++)
        if (**l)
            cb_report_line(t->rep, *l);
    g_strfreev(lines);
    free(text);
}

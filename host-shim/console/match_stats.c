/* cardbot match — the per-strategy summary: win share and points with 95% intervals, bidding,
 * fallbacks, decision times; the same figures row by row for live progress. Everything but the lines starting with "timing" is a function of
 * the games alone, so the same seed prints the same summary at any concurrency. */
#include <glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "match_num.h"

typedef struct agg {
    char name[48];
    long n, wins;
    double pts, pts2;
    long bid_games, bids_any, roles, role_wins; /* DDZ: bid > 0 / landlord; PDK: 包庄 */
    long fb[CB_FB_NREASONS];
    GArray *ns;        /* uint64_t per decision */
    GArray *ns_choice; /* ... per decision with a choice: bids, and plays with two or more legal */
} agg;

bool cb_match_seat_won(const cb_rules *r, const cb_match_game *g, int s)
{
    if (g->winner < 0)
        return false;
    if (r->game == CB_GAME_DDZ)
        return (g->winner == g->landlord) == (s == g->landlord);
    return g->winner == s;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void fmt_us(char *buf, size_t len, uint64_t ns)
{
    if (ns < 10000)
        snprintf(buf, len, "%.1fus", ns / 1000.0);
    else if (ns < 10000000)
        snprintf(buf, len, "%.0fus", ns / 1000.0);
    else
        snprintf(buf, len, "%.0fms", ns / 1e6);
}

static const char *const reason_names[CB_FB_NREASONS] = {"", "illegal", "failed", "late", "no-plugin", "crashed"};

/* One agg per strategy seen, in order of first appearance: a match seats at most three (and
 * a fallback's name is its seat's), a tournament's progress every strategy of the field. */
struct cb_match_stats {
    const cb_rules *r;
    agg *a;
    int na, cap;
    bool timed; /* keep every decision's time, for the timing lines */
    long games, errors;
};

cb_match_stats *cb_match_stats_new(const cb_rules *r)
{
    cb_match_stats *st = g_new0(cb_match_stats, 1);
    st->r = r;
    st->timed = true;
    return st;
}

cb_match_stats *cb_match_stats_new_untimed(const cb_rules *r)
{
    cb_match_stats *st = cb_match_stats_new(r);
    st->timed = false;
    return st;
}

void cb_match_stats_add(cb_match_stats *st, const cb_match_game *gm)
{
    const cb_rules *r = st->r;
    agg *a = st->a;
    st->games++;
    if (gm->error) {
        st->errors++;
        return;
    }
    {
        for (int s = 0; s < 3; s++) {
            int k;
            for (k = 0; k < st->na && strcmp(a[k].name, gm->strategy[s]); k++)
                ;
            if (k == st->na) {
                if (st->na == st->cap) {
                    st->cap = st->cap ? 2 * st->cap : 4;
                    st->a = g_renew(agg, st->a, st->cap);
                    a = st->a;
                }
                memset(&a[k], 0, sizeof a[k]);
                snprintf(a[k].name, sizeof a[k].name, "%s", gm->strategy[s]);
                if (st->timed) {
                    a[k].ns = g_array_new(FALSE, FALSE, sizeof(uint64_t));
                    a[k].ns_choice = g_array_new(FALSE, FALSE, sizeof(uint64_t));
                }
                st->na++;
            }
            agg *x = &a[k];
            x->n++;
            x->wins += cb_match_seat_won(r, gm, s);
            x->pts += gm->delta[s];
            x->pts2 += (double)gm->delta[s] * gm->delta[s];
            bool bid_any = false;
            for (int i = 0; i < gm->nbids; i++)
                if (gm->bids[i].seat == s) {
                    bid_any |= gm->bids[i].bid > 0;
                    if (gm->bids[i].code > 0 && gm->bids[i].code < CB_FB_NREASONS)
                        x->fb[gm->bids[i].code]++;
                    if (x->ns) {
                        g_array_append_val(x->ns, gm->bids[i].ns);
                        g_array_append_val(x->ns_choice, gm->bids[i].ns);
                    }
                }
            x->bid_games++;
            x->bids_any += bid_any;
            if (gm->landlord == s) {
                x->roles++;
                x->role_wins += cb_match_seat_won(r, gm, s);
            }
            for (int i = 0; i < gm->nplays; i++)
                if (gm->plays[i].seat == s) {
                    if (gm->plays[i].code > 0 && gm->plays[i].code < CB_FB_NREASONS)
                        x->fb[gm->plays[i].code]++;
                    if (x->ns) {
                        g_array_append_val(x->ns, gm->plays[i].ns);
                        if (!gm->plays[i].forced)
                            g_array_append_val(x->ns_choice, gm->plays[i].ns);
                    }
                }
        }
    }
}

/* The figures of one strategy with their 95% intervals: the one place the interval
 * arithmetic lives (summary and live progress both read it). */
static void row_of(const agg *x, cb_match_row *o)
{
    double nn = (double)x->n, p = nn > 0 ? x->wins / nn : 0, z = 1.96;
    o->name = x->name;
    o->n = x->n;
    o->win = p;
    o->win_lo = o->win_hi = p;
    o->pts = o->pts_lo = o->pts_hi = 0;
    if (x->n == 0)
        return;
    /* Wilson score interval: honest near 0% and 100% where the normal one is not. */
    cb_wilson((double)x->wins, nn, z, &o->win_lo, &o->win_hi);
    double mean = x->pts / nn, var = nn > 1 ? (x->pts2 - nn * mean * mean) / (nn - 1) : 0;
    double ph = z * sqrt(var > 0 ? var / nn : 0);
    o->pts = mean;
    o->pts_lo = mean - ph;
    o->pts_hi = mean + ph;
}

int cb_match_stats_rows(const cb_match_stats *st, cb_match_row *out, int cap)
{
    for (int k = 0; k < st->na && k < cap; k++)
        row_of(&st->a[k], &out[k]);
    return st->na;
}

long cb_match_stats_games(const cb_match_stats *st)
{
    return st->games;
}

/* "p50 X  p99 Y  max Z" of the times in a (sorted here) */
static void quantiles(char *buf, size_t len, GArray *a)
{
    uint64_t *v = (uint64_t *)(void *)a->data;
    size_t m = a->len;
    qsort(v, m, sizeof *v, cmp_u64);
    char p50[16], p99[16], mx[16];
    fmt_us(p50, sizeof p50, v[m / 2]);
    fmt_us(p99, sizeof p99, v[(size_t)((m - 1) * 0.99)]);
    fmt_us(mx, sizeof mx, v[m - 1]);
    snprintf(buf, len, "p50 %s  p99 %s  max %s", p50, p99, mx);
}

void cb_match_stats_print(cb_match_stats *st, FILE *f, double seconds)
{
    const cb_rules *r = st->r;
    agg *a = st->a;
    int na = st->na;
    long n = st->games, errors = st->errors;
    bool ddz = r->game == CB_GAME_DDZ;
    /* The role columns: DDZ's bidding always; PDK's 包庄 only under rules that have it (with bao
     * off every figure would be a meaningless 0). A rate whose denominator is 0 (no declaration,
     * never landlord) prints "-", not 0.0%: nothing was tried, nothing was lost. */
    bool bao = !ddz && r->bao;
    /* the last column is padded only when role columns follow it: no trailing blanks */
    int pw = ddz || bao ? 19 : 0;
    fprintf(f, "%-16s %7s %7s %-17s %9s %-*s", "Strategy", "Games", "Win%", "95% CI", "Pts/game", pw, "95% CI");
    if (ddz)
        fprintf(f, " %7s %7s %8s", "Bid%", "LL%", "LLwin%");
    else if (bao)
        fprintf(f, " %7s %7s", "Bao%", "BaoWin%");
    fputc('\n', f);
    for (int k = 0; k < na; k++) {
        agg *x = &a[k];
        cb_match_row w;
        row_of(x, &w);
        double nn = (double)x->n;
        char ci[40], pci[40], rolewin[16] = "-";
        snprintf(ci, sizeof ci, "[%.1f%%, %.1f%%]", 100 * w.win_lo, 100 * w.win_hi);
        snprintf(pci, sizeof pci, "[%+.2f, %+.2f]", w.pts_lo, w.pts_hi);
        if (x->roles)
            snprintf(rolewin, sizeof rolewin, "%.1f%%", 100.0 * x->role_wins / x->roles);
        fprintf(f, "%-16s %7ld %6.1f%% %-17s %+9.2f %-*s", x->name, x->n, 100 * w.win, ci, w.pts, pw, pci);
        if (ddz)
            fprintf(f, " %6.1f%% %6.1f%% %8s", 100.0 * x->bids_any / nn, 100.0 * x->roles / nn, rolewin);
        else if (bao)
            fprintf(f, " %6.1f%% %7s", 100.0 * x->roles / nn, rolewin);
        fputc('\n', f);
    }
    for (int k = 0; k < na; k++) {
        agg *x = &a[k];
        fprintf(f, "Fallbacks %-16s", x->name);
        long tot = 0;
        for (int i = 1; i < CB_FB_NREASONS; i++) {
            fprintf(f, " %s=%ld", reason_names[i], x->fb[i]);
            tot += x->fb[i];
        }
        fprintf(f, " total=%ld\n", tot);
    }
    if (errors)
        fprintf(f, "Games not completed: %ld\n", errors);
    for (int k = 0; k < na; k++) {
        agg *x = &a[k];
        size_t m = x->ns ? x->ns->len : 0; /* untimed (or printed already): no timing line */
        if (m) {
            char all[80], choice[80] = "";
            quantiles(all, sizeof all, x->ns);
            if (x->ns_choice->len)
                quantiles(choice, sizeof choice, x->ns_choice);
            fprintf(f, "timing %-16s decisions %zu  %s;  with a choice %u  %s\n", x->name, m, all, x->ns_choice->len,
                    x->ns_choice->len ? choice : "-");
        }
        if (x->ns) {
            g_array_free(x->ns, TRUE);
            g_array_free(x->ns_choice, TRUE);
            x->ns = x->ns_choice = NULL;
        }
    }
    fprintf(f, "timing %ld game%s in %.2f s: %.1f games/s\n", n, n == 1 ? "" : "s", seconds,
            seconds > 0 ? n / seconds : 0.0);
}

void cb_match_stats_free(cb_match_stats *st)
{
    for (int k = 0; k < st->na; k++)
        if (st->a[k].ns) {
            g_array_free(st->a[k].ns, TRUE);
            g_array_free(st->a[k].ns_choice, TRUE);
        }
    g_free(st->a);
    g_free(st);
}

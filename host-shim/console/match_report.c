/* cardbot match — the HTML report: one self-contained page (inline CSS, inline SVG drawn by
 * match_plot.c, no script, nothing fetched) with the crosstable of paired scores, verdict
 * lines, win share and points per game as the games went, and the SPRT's log-likelihood
 * ratio between its bounds. Every text that comes from outside (title, names, lines) is
 * escaped with g_markup_escape_text; numbers go through cb_num, so the page is the same in
 * any locale. */
#include <errno.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "match_num.h"
#include "match_plot.h"
#include "match_verdict.h"

/* ---- building ------------------------------------------------------------------------------ */

cb_report *cb_report_new(const char *title, const char *match_line)
{
    cb_report *rep = g_new0(cb_report, 1);
    rep->title = g_strdup(title ? title : "cardbot match");
    rep->match_line = g_strdup(match_line ? match_line : "");
    rep->lines = g_new0(char *, 1);
    return rep;
}

static void series_free(cb_report_series *s)
{
    g_free(s->p);
    memset(s, 0, sizeof *s);
}

void cb_report_free(cb_report *rep)
{
    if (!rep)
        return;
    for (int i = 0; i < rep->nstrat; i++) {
        g_free(rep->strategy[i]);
        series_free(&rep->win[i]);
        series_free(&rep->points[i]);
    }
    series_free(&rep->llr);
    g_free(rep->title);
    g_free(rep->match_line);
    g_free(rep->sprt_pair);
    g_strfreev(rep->lines);
    g_free(rep);
}

int cb_report_strategy(cb_report *rep, const char *name)
{
    for (int i = 0; i < rep->nstrat; i++)
        if (!strcmp(rep->strategy[i], name))
            return i;
    if (rep->nstrat == CB_REPORT_MAX)
        return -1;
    rep->strategy[rep->nstrat] = g_strdup(name);
    return rep->nstrat++;
}

int cb_report_pair(cb_report *rep, const char *a, const char *b, const cb_pair_result *r)
{
    int ia = cb_report_strategy(rep, a), ib = cb_report_strategy(rep, b);
    if (ia < 0 || ib < 0 || ia == ib)
        return -1;
    rep->cross[ia][ib] = *r;
    cb_pair_result m = *r; /* the same deals seen from B */
    m.score = 1 - r->score;
    m.score_lo = 1 - r->score_hi;
    m.score_hi = 1 - r->score_lo;
    m.elo = -r->elo;
    m.elo_lo = -r->elo_hi;
    m.elo_hi = -r->elo_lo;
    m.pts_diff = -r->pts_diff;
    m.pts_lo = -r->pts_hi;
    m.pts_hi = -r->pts_lo;
    m.win_a = r->win_b;
    m.win_b = r->win_a;
    rep->cross[ib][ia] = m;
    return 0;
}

static void series_add(cb_report_series *s, long x, double y, double lo, double hi)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->p = g_renew(cb_report_point, s->p, s->cap);
    }
    s->p[s->n++] = (cb_report_point){x, y, lo, hi};
}

int cb_report_series_add(cb_report *rep, const char *name, cb_report_kind kind, long games, double y, double lo,
                         double hi)
{
    int i = cb_report_strategy(rep, name);
    if (i < 0)
        return -1;
    series_add(kind == CB_REPORT_WIN ? &rep->win[i] : &rep->points[i], games, y, lo, hi);
    return 0;
}

void cb_report_sprt_add(cb_report *rep, const char *pair, const cb_sprt_opts *o, const cb_sprt_state *s)
{
    rep->has_sprt = true;
    rep->sprt = *o;
    if (pair && (!rep->sprt_pair || strcmp(pair, rep->sprt_pair))) {
        g_free(rep->sprt_pair);
        rep->sprt_pair = g_strdup(pair);
    }
    rep->sprt_lower = s->lower;
    rep->sprt_upper = s->upper;
    rep->sprt_verdict = s->verdict;
    series_add(&rep->llr, s->deals, s->llr, NAN, NAN);
}

void cb_report_line(cb_report *rep, const char *text)
{
    guint n = g_strv_length(rep->lines);
    rep->lines = g_renew(char *, rep->lines, n + 2);
    rep->lines[n] = g_strdup(text);
    rep->lines[n + 1] = NULL;
}

/* ---- the page ------------------------------------------------------------------------------ */

static const char css[] =
    "body{font:14px/1.45 system-ui,sans-serif;color:#222;background:#fff;margin:24px auto;max-width:1000px;"
    "padding:0 16px}\n"
    "h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd}\n"
    ".match{color:#555;margin:0 0 8px}.how{color:#555;font-size:13px;margin:4px 0 10px}\n"
    "table.cross{border-collapse:collapse}table.cross th,table.cross td{border:1px solid #ccc;padding:6px 10px;"
    "text-align:center;vertical-align:middle}\n"
    "table.cross th{background:#f4f4f4}td.diag,td.none{color:#aaa;background:#fafafa}\n"
    "td .score{display:block;font-size:16px;font-weight:600}td .elo,td .n{display:block;font-size:12px;color:#444}\n"
    "pre.lines{background:#f7f7f7;border:1px solid #e4e4e4;padding:8px;white-space:pre-wrap}\n"
    "svg.plot{display:block;margin:6px 0 4px}svg .grid path{stroke:#e6e6e6}svg .axis{stroke:#333;fill:none}\n"
    "svg .tick{font-size:11px;fill:#444}svg .label{font-size:12px;fill:#222}svg .title{font-size:13px;"
    "font-weight:600;fill:#222}\n"
    "svg .legend{font-size:12px;fill:#222}svg .note,svg .reflabel{font-size:11px;fill:#555}\n"
    "svg .line{fill:none;stroke-width:2}svg .band{fill-opacity:.16;stroke:none}\n"
    "svg .ref{stroke-width:1.5;stroke-dasharray:6 4;fill:none}\n"
    ".verdict{font-weight:600}footer{margin-top:32px;color:#888;font-size:12px}\n";

static void esc(GString *out, const char *s)
{
    char *e = g_markup_escape_text(s ? s : "", -1);
    g_string_append(out, e);
    g_free(e);
}

/* A cell's background: green where the row scored above 0.5, red below, stronger further out. */
static void cell_style(GString *out, double s)
{
    if (!isfinite(s))
        return;
    double t = fmin(1.0, fabs(s - 0.5) * 4); /* 0.75 or 0.25 is full strength */
    int r = s >= 0.5 ? (int)(255 - 75 * t) : 255, g = s >= 0.5 ? 255 : (int)(255 - 75 * t);
    int b = (int)(255 - 75 * t);
    g_string_append_printf(out, " style=\"background:#%02x%02x%02x\"", r, g, b);
}

static void crosstable(GString *out, const cb_report *rep)
{
    g_string_append(out, "<table class=\"cross\">\n<thead><tr><th>row vs column</th>");
    for (int j = 0; j < rep->nstrat; j++) {
        g_string_append(out, "<th>");
        esc(out, rep->strategy[j]);
        g_string_append(out, "</th>");
    }
    g_string_append(out, "</tr></thead>\n<tbody>\n");
    for (int i = 0; i < rep->nstrat; i++) {
        g_string_append(out, "<tr><th>");
        esc(out, rep->strategy[i]);
        g_string_append(out, "</th>");
        for (int j = 0; j < rep->nstrat; j++) {
            const cb_pair_result *c = &rep->cross[i][j];
            if (i == j) {
                g_string_append(out, "<td class=\"diag\">&#8212;</td>");
                continue;
            }
            if (c->games <= 0) {
                g_string_append(out, "<td class=\"none\" title=\"not played\">&#183;</td>");
                continue;
            }
            char s[6][32];
            g_string_append(out, "<td class=\"cell\"");
            cell_style(out, c->score);
            g_string_append_printf(out, "><span class=\"score\">%s</span><span class=\"elo\">Elo %s [%s, %s]</span>"
                                        "<span class=\"n\">%ld games, %ld deals</span></td>",
                                   cb_num(s[0], 32, "%.3f", c->score, false), cb_num(s[1], 32, "%.0f", c->elo, true),
                                   cb_num(s[2], 32, "%.0f", c->elo_lo, true), cb_num(s[3], 32, "%.0f", c->elo_hi, true),
                                   c->games, c->deals);
        }
        g_string_append(out, "</tr>\n");
    }
    g_string_append(out, "</tbody>\n</table>\n");
}

static bool any_points(const cb_report_series *s, int n)
{
    for (int i = 0; i < n; i++)
        if (s[i].n)
            return true;
    return false;
}

static void series_plot(GString *out, const cb_report *rep, const cb_report_series *s, const char *title,
                        const char *ylabel, bool percent)
{
    cb_plot_line lines[CB_REPORT_MAX];
    int n = 0;
    for (int i = 0; i < rep->nstrat; i++)
        if (s[i].n)
            lines[n++] = (cb_plot_line){rep->strategy[i], cb_plot_color(i), &s[i]};
    cb_plot pl = {title, "games", ylabel, lines, n, NULL, 0, percent};
    cb_plot_svg(out, &pl);
}

static void sprt_section(GString *out, const cb_report *rep)
{
    const cb_sprt_opts *o = &rep->sprt;
    char b[8][32];
    g_string_append(out, "<h2>SPRT</h2>\n<p>");
    if (rep->sprt_pair) {
        esc(out, rep->sprt_pair);
        g_string_append(out, ": ");
    }
    g_string_append_printf(out, "H0 Elo = %s against H1 Elo = %s, alpha %s, beta %s; bounds %s and %s. ",
                           cb_num(b[0], 32, "%.6g", o->elo0, false), cb_num(b[1], 32, "%.6g", o->elo1, false),
                           cb_num(b[2], 32, "%.6g", o->alpha, false), cb_num(b[3], 32, "%.6g", o->beta, false),
                           cb_num(b[4], 32, "%.2f", rep->sprt_lower, true),
                           cb_num(b[5], 32, "%.2f", rep->sprt_upper, true));
    const cb_report_point *last = rep->llr.n ? &rep->llr.p[rep->llr.n - 1] : NULL;
    g_string_append_printf(out, "<span class=\"verdict\">%s</span>",
                           rep->sprt_verdict > 0   ? "H1 accepted"
                           : rep->sprt_verdict < 0 ? "H0 accepted"
                                                   : "no verdict yet");
    if (last)
        g_string_append_printf(out, " after %ld deals (LLR %s).", last->x, cb_num(b[6], 32, "%.2f", last->y, true));
    g_string_append(out, "</p>\n");
    char up[64], lo[64];
    g_snprintf(up, sizeof up, "accept H1 (%s)", cb_num(b[0], 32, "%.2f", rep->sprt_upper, true));
    g_snprintf(lo, sizeof lo, "accept H0 (%s)", cb_num(b[1], 32, "%.2f", rep->sprt_lower, true));
    cb_plot_hline h[2] = {{rep->sprt_upper, up, "#2ca02c"}, {rep->sprt_lower, lo, "#d62728"}};
    cb_plot_line l = {rep->sprt_pair ? rep->sprt_pair : "LLR", "#333333", &rep->llr};
    cb_plot pl = {"SPRT log-likelihood ratio", "deals", "LLR", &l, 1, h, 2, false};
    cb_plot_svg(out, &pl);
}

static GString *page(const cb_report *rep)
{
    GString *out = g_string_sized_new(32768);
    g_string_append(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
    esc(out, rep->title);
    g_string_append_printf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", css);
    esc(out, rep->title);
    g_string_append(out, "</h1>\n<p class=\"match\">");
    esc(out, rep->match_line);
    g_string_append(out, "</p>\n<h2>Crosstable</h2>\n<p class=\"how\">Each cell: the row strategy against the column "
                         "strategy. Score: per game, the share of (row seat, column seat) pairs in which the row "
                         "finished with more points (a tie counts half), averaged per deal and over deals; 0.5 is "
                         "even. Elo = 400 log10(score / (1 - score)), with its 95% interval over deals.</p>\n");
    if (rep->nstrat)
        crosstable(out, rep);
    else
        g_string_append(out, "<p>No strategies.</p>\n");
    if (rep->lines && rep->lines[0]) {
        g_string_append(out, "<pre class=\"lines\">");
        for (char **l = rep->lines; *l; l++) {
            esc(out, *l);
            g_string_append_c(out, '\n');
        }
        g_string_append(out, "</pre>\n");
    }
    if (any_points(rep->win, rep->nstrat)) {
        g_string_append(out, "<h2>Win share</h2>\n");
        series_plot(out, rep, rep->win, "Win share as the games went", "win share", true);
    }
    if (any_points(rep->points, rep->nstrat)) {
        g_string_append(out, "<h2>Points per game</h2>\n");
        series_plot(out, rep, rep->points, "Points per game as the games went", "points / game", false);
    }
    if (rep->has_sprt)
        sprt_section(out, rep);
    g_string_append(out, "<footer>Written by cardbot. This page is self-contained: it runs no script and "
                         "loads nothing.</footer>\n</body>\n</html>\n");
    return out;
}

int cb_report_write(const char *path, const cb_report *rep, char *err, size_t errlen)
{
    GString *out = page(rep);
    FILE *f = fopen(path, "w");
    int rc = 0;
    if (!f) {
        g_snprintf(err, errlen, "cannot write report '%s': %s", path, g_strerror(errno));
        rc = -1;
    } else {
        size_t put = fwrite(out->str, 1, out->len, f);
        int werr = put == out->len ? 0 : errno ? errno : EIO;
        if (fclose(f) != 0 && !werr)
            werr = errno ? errno : EIO;
        if (werr) {
            g_snprintf(err, errlen, "error writing report '%s': %s", path, g_strerror(werr));
            rc = -1;
        }
    }
    g_string_free(out, TRUE);
    return rc;
}

/* cardbot match — the verdicts a match follows game by game: the paired comparison of its two
 * strategies (match_pair.c), the SPRT on it (match_sprt.c) that may stop the match, and the
 * series of an HTML report (match_report.c).
 *
 * Which two: a match that seats exactly two strategies compares them, the one seated alone
 * (A, against two Bs) first; with one strategy at all three seats, or three different ones,
 * there is no pair (and --sprt is refused before any game). The SPRT is evaluated when a deal
 * is complete — after its third game with --duplicate, after every game without — so its
 * verdict, like everything else on stdout, is a function of the games in game order. */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "match.h"
#include "match_verdict.h"

struct cb_match_verdicts {
    const cb_rules *r;
    bool duplicate;
    bool has_sprt;
    cb_sprt_opts sprt;
    cb_sprt_state state;
    long every;            /* an SPRT line on stderr every this many deals */
    char *a, *b;           /* the pair (NULL: none) */
    cb_pair *pair;
    cb_report *rep;        /* NULL: no --report */
    long step;             /* report series: a point every this many games */
};

int cb_match_pair_names(const char *const seats[3], const char **a, const char **b)
{
    *a = *b = NULL;
    const char *x = seats[0], *y = NULL;
    int nx = 0;
    for (int s = 0; s < 3; s++) {
        if (!seats[s])
            return -1;
        if (!strcmp(seats[s], x))
            nx++;
        else if (!y)
            y = seats[s];
        else if (strcmp(seats[s], y))
            return -1; /* three different strategies */
    }
    if (!y)
        return -1; /* one strategy everywhere: nothing to compare */
    /* A is the strategy seated alone: the one a "B against two As" question is about */
    *a = nx == 1 ? x : y;
    *b = nx == 1 ? y : x;
    return 0;
}

cb_match_verdicts *cb_match_verdicts_new(const cb_rules *r, bool duplicate, const cb_sprt_opts *sprt,
                                         const char *report_title, const char *match_line, int games)
{
    cb_match_verdicts *v = g_new0(cb_match_verdicts, 1);
    v->r = r;
    v->duplicate = duplicate;
    if (sprt) {
        v->has_sprt = true;
        v->sprt = *sprt;
    }
    v->every = 10;
    if (report_title)
        v->rep = cb_report_new(report_title, match_line);
    v->step = games > 200 ? games / 200 : 1; /* about 200 points a curve */
    return v;
}

void cb_match_verdicts_free(cb_match_verdicts *v)
{
    if (!v)
        return;
    cb_pair_free(v->pair);
    cb_report_free(v->rep);
    g_free(v->a);
    g_free(v->b);
    g_free(v);
}

static void report_series(cb_match_verdicts *v, const cb_match_stats *st)
{
    cb_match_row rows[CB_REPORT_MAX];
    int n = cb_match_stats_rows(st, rows, CB_REPORT_MAX);
    long games = cb_match_stats_games(st);
    for (int i = 0; i < n && i < CB_REPORT_MAX; i++) {
        cb_report_series_add(v->rep, rows[i].name, CB_REPORT_WIN, games, rows[i].win, rows[i].win_lo, rows[i].win_hi);
        cb_report_series_add(v->rep, rows[i].name, CB_REPORT_POINTS, games, rows[i].pts, rows[i].pts_lo,
                             rows[i].pts_hi);
    }
}

int cb_match_verdicts_add(cb_match_verdicts *v, const cb_match_game *gm, const cb_match_stats *st, FILE *log)
{
    const char *a, *b;
    if (!v->pair && !gm->error &&
        cb_match_pair_names((const char *const[]){gm->strategy[0], gm->strategy[1], gm->strategy[2]}, &a, &b) == 0) {
        v->a = g_strdup(a);
        v->b = g_strdup(b);
        v->pair = cb_pair_new(v->r, v->a, v->b);
    }
    if (v->pair)
        cb_pair_add(v->pair, gm);
    if (v->rep && cb_match_stats_games(st) % v->step == 0)
        report_series(v, st);
    bool deal_done = !v->duplicate || gm->rotation == 2;
    if (!v->has_sprt || !v->pair || !deal_done)
        return 0;
    cb_sprt_eval(&v->sprt, v->pair, &v->state);
    if (v->rep) {
        char name[120];
        snprintf(name, sizeof name, "%s vs %s", v->a, v->b);
        cb_report_sprt_add(v->rep, name, &v->sprt, &v->state);
    }
    if (log && (v->state.verdict || v->state.deals % v->every == 0)) {
        cb_sprt_print(&v->sprt, &v->state, log);
        fflush(log);
    }
    return v->state.verdict != 0;
}

int cb_match_verdicts_decided(const cb_match_verdicts *v)
{
    return v->has_sprt ? v->state.verdict : 0;
}

void cb_match_verdicts_print(const cb_match_verdicts *v, FILE *out)
{
    if (v->pair)
        cb_pair_print(v->pair, out);
    if (v->has_sprt && v->pair)
        cb_sprt_print(&v->sprt, &v->state, out);
}

int cb_match_verdicts_write_report(cb_match_verdicts *v, const cb_match_stats *st, const char *path, char *err,
                                   size_t errlen)
{
    if (!v->rep)
        return 0;
    report_series(v, st); /* the last point, whatever the step */
    if (v->pair) {
        cb_pair_result res;
        cb_pair_get(v->pair, &res);
        cb_report_pair(v->rep, v->a, v->b, &res);
        char *line = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&line, &len);
        if (mem) {
            cb_match_verdicts_print(v, mem);
            fclose(mem);
            char **lines = g_strsplit(line, "\n", -1);
            for (char **l = lines; *l; l++)
                if (**l)
                    cb_report_line(v->rep, *l);
            g_strfreev(lines);
            free(line);
        }
    }
    return cb_report_write(path, v->rep, err, errlen);
}

/* cardbot tournament — each strategy against the rest of the field, game by game.
 *
 * The standings need one score per strategy with an honest interval. Averaging its crosstable
 * cells would give the score but not the interval: every pairing plays the same deals, so a
 * deal that suits a strategy lifts all its cells at once, and the cells are not independent.
 * Instead each strategy keeps one cb_pair of its own against the name CB_TOUR_FIELD, fed
 * every game it plays with the other strategies renamed: cb_pair then groups the games of all
 * its pairings by deal (same seed, same deal number), scores each deal over all of them and
 * takes the interval across deals, the independent units. With equal games per pairing the
 * score is the mean of the row's cells. */
#include <glib.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "tour.h"
#include "match_num.h"

#define Z95 1.959963984540054

static const char *seat_name(const cb_match_game *gm, int s)
{
    return gm->strategy[s] ? gm->strategy[s] : gm->strategy_buf[s];
}

cb_tour *cb_tour_new(const cb_rules *r, char **names, const cb_tour_pairing *pairs, int npair, long games,
                     cb_report *rep)
{
    cb_tour *t = g_new0(cb_tour, 1);
    t->rules = r;
    t->name = names;
    t->n = (int)g_strv_length(names);
    t->npair = npair;
    t->pair = g_new0(cb_tour_pairing, npair > 0 ? npair : 1);
    if (npair > 0)
        memcpy(t->pair, pairs, sizeof *pairs * (size_t)npair);
    t->res = g_new0(cb_pair_result, npair > 0 ? npair : 1);
    t->pair_line = g_new0(char *, npair > 0 ? npair : 1);
    t->acc = g_new0(cb_tour_acc, t->n);
    t->rep = rep;
    t->scratch = g_new0(cb_match_game, 1);
    for (int i = 0; i < t->n; i++) {
        t->acc[i].field = cb_pair_new(r, names[i], CB_TOUR_FIELD);
        long mine = 0;
        for (int k = 0; k < npair; k++)
            mine += (pairs[k].a == i || pairs[k].b == i) ? games : 0;
        t->acc[i].step = mine / 100 > 1 ? mine / 100 : 1; /* about 100 points a line */
        if (rep)
            cb_report_strategy(rep, names[i]); /* columns in the tournament's order */
    }
    return t;
}

void cb_tour_free(cb_tour *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->n; i++)
        cb_pair_free(t->acc[i].field);
    for (int k = 0; k < t->npair; k++)
        g_free(t->pair_line[k]);
    g_free(t->pair_line);
    g_free(t->acc);
    g_free(t->res);
    g_free(t->pair);
    g_free(t->scratch);
    g_strfreev(t->name);
    g_free(t);
}

static void series_point(cb_tour *t, int i)
{
    cb_tour_acc *a = &t->acc[i];
    if (!t->rep || !a->seats)
        return;
    /* win share with its Wilson interval and points per game with a normal one, over seats,
     * as match_stats.c prints them */
    double n = (double)a->seats, p = a->wins / n, z = Z95, lo, hi;
    cb_wilson((double)a->wins, n, z, &lo, &hi);
    cb_report_series_add(t->rep, t->name[i], CB_REPORT_WIN, a->games, p, lo, hi);
    double mean = a->pts / n, var = n > 1 ? (a->pts2 - n * mean * mean) / (n - 1) : NAN;
    double ph = n > 1 ? z * sqrt(var > 0 ? var / n : 0) : NAN;
    cb_report_series_add(t->rep, t->name[i], CB_REPORT_POINTS, a->games, mean, mean - ph, mean + ph);
}

void cb_tour_add(cb_tour *t, const cb_match_game *gm)
{
    if (gm->error) /* as cb_pair and match_stats.c: a game that did not finish scores nothing */
        return;
    for (int i = 0; i < t->n; i++) {
        int mine = 0;
        for (int s = 0; s < 3; s++)
            mine += !strcmp(seat_name(gm, s), t->name[i]);
        if (!mine)
            continue;
        cb_match_game *x = t->scratch; /* the head only: cb_pair never reads the plays */
        memcpy(x, gm, offsetof(cb_match_game, plays));
        for (int s = 0; s < 3; s++)
            x->strategy[s] = strcmp(seat_name(gm, s), t->name[i]) ? CB_TOUR_FIELD : t->name[i];
        cb_pair_add(t->acc[i].field, x);
        cb_tour_acc *a = &t->acc[i];
        a->games++;
        for (int s = 0; s < 3; s++)
            if (x->strategy[s] == t->name[i]) {
                a->seats++;
                a->wins += cb_match_seat_won(t->rules, gm, s);
                a->pts += gm->delta[s];
                a->pts2 += (double)gm->delta[s] * gm->delta[s];
            }
        if (a->games % a->step == 0)
            series_point(t, i);
    }
}

void cb_tour_series_flush(cb_tour *t)
{
    for (int i = 0; i < t->n; i++)
        if (t->acc[i].games % t->acc[i].step)
            series_point(t, i);
}

void cb_tour_set_pair(cb_tour *t, int k, const cb_pair *p)
{
    cb_pair_get(p, &t->res[k]);
    char *line = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&line, &len);
    if (f) {
        cb_pair_print(p, f);
        fclose(f);
        g_strchomp(line);
    }
    g_free(t->pair_line[k]);
    t->pair_line[k] = line ? g_strdup(line) : NULL;
    free(line);
}

/* cardbot match — live progress on stderr, never on stdout (stdout must stay a function of
 * the games alone, and progress is a function of the clock).
 *
 * On a terminal: one status line rewritten in place, at most 4 times a second. Elsewhere (a
 * pipe, make, CI logs): the same text as a plain line every N games or S seconds — checked
 * as games finish, so a single long game delays a line rather than a thread waking up to
 * print. The line: games done / total, per strategy the running win share and points per
 * game with the summary's 95% intervals (cb_match_stats_rows), games per second and ETA:
 *
 *   progress 40/100 games: L6 win 63.3% [45.5%, 78.1%] pts +0.67 [-0.09, +1.43], L5 win ...; 73.5 games/s, ETA 1s
 *
 * Once per run, when the first few games are in (max(concurrency, 3) games, or the first
 * game after 5 s), one estimate line for the whole run:
 *
 *   estimate: about 12m 30s for 3000 games (0.25 s/game at -j 2)
 */
#include <glib.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "match.h"

struct cb_match_progress {
    cb_match_progress_cfg c;
    double t0, last;           /* start, last line (monotonic seconds) */
    long done, last_done;
    bool estimated, shown;     /* estimate printed; status line on screen */
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* "42s", "3m 05s", "2h 10m": a duration as a person reads it. */
static void fmt_duration(char *buf, size_t len, double s)
{
    long t = (long)(s + 0.5);
    if (t < 60)
        snprintf(buf, len, "%lds", t);
    else if (t < 3600)
        snprintf(buf, len, "%ldm %02lds", t / 60, t % 60);
    else
        snprintf(buf, len, "%ldh %02ldm", t / 3600, (t % 3600) / 60);
}

int cb_match_progress_parse(const char *text, int *games, double *seconds)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || v < 0 || v > 100000000)
        return -1;
    *games = 0;
    *seconds = 0;
    if (*end == 's' && end[1] == '\0')
        *seconds = (double)v;
    else if (*end == '\0')
        *games = (int)v;
    else
        return -1;
    return 0;
}

int cb_match_progress_option(const char *text, cb_match_progress_cfg *pc, bool *off)
{
    int games = 0;
    double seconds = 0;
    *off = false;
    if (!text) {
        pc->every_games = pc->total >= 10 ? (int)(pc->total / 10 < INT_MAX ? pc->total / 10 : INT_MAX) : 1;
        pc->every_s = 30;
        return 0;
    }
    if (cb_match_progress_parse(text, &games, &seconds) != 0)
        return -1;
    pc->every_games = games;
    pc->every_s = seconds;
    *off = games == 0 && seconds == 0;
    return 0;
}

cb_match_progress *cb_match_progress_new(const cb_match_progress_cfg *c)
{
    cb_match_progress *p = g_new0(cb_match_progress, 1);
    p->c = *c;
    p->t0 = p->last = now_s();
    return p;
}

static void print_estimate(cb_match_progress *p, double elapsed)
{
    double per = elapsed / p->done;
    char total[32];
    fmt_duration(total, sizeof total, per * p->c.total);
    cb_match_progress_hide(p);
    fprintf(stderr, "estimate: about %s for %ld games (%.3g s/game at -j %d)\n", total, p->c.total, per,
            p->c.concurrency);
}

/* The progress text (without line end), cut to width bytes on a UTF-8 boundary when
 * width > 0. */
static GString *progress_text(const cb_match_progress *p, const cb_match_stats *st, double elapsed)
{
    GString *g = g_string_new(NULL);
    g_string_append_printf(g, "progress %ld/%ld games", p->done, p->c.total);
    /* a tournament may field more strategies than a line holds: the first 8, then how many
     * more (the summaries name them all) */
    cb_match_row rows[8];
    int n = cb_match_stats_rows(st, rows, 8);
    for (int k = 0; k < n && k < 8; k++)
        g_string_append_printf(g, "%s %s win %.1f%% [%.1f%%, %.1f%%] pts %+.2f [%+.2f, %+.2f]", k ? "," : ":",
                               rows[k].name, 100 * rows[k].win, 100 * rows[k].win_lo, 100 * rows[k].win_hi,
                               rows[k].pts, rows[k].pts_lo, rows[k].pts_hi);
    if (n > 8)
        g_string_append_printf(g, ", and %d more", n - 8);
    double rate = elapsed > 0 ? p->done / elapsed : 0;
    char eta[32];
    fmt_duration(eta, sizeof eta, rate > 0 ? (p->c.total - p->done) / rate : 0);
    g_string_append_printf(g, "; %.1f games/s, ETA %s", rate, eta);
    return g;
}

static int terminal_width(void)
{
    struct winsize ws;
    if (ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10)
        return ws.ws_col;
    return 80;
}

void cb_match_progress_game(cb_match_progress *p, const cb_match_stats *st)
{
    if (!p)
        return;
    p->done++;
    double t = now_s(), elapsed = t - p->t0;
    int first_few = p->c.concurrency > 3 ? p->c.concurrency : 3;
    if (!p->estimated && p->done < p->c.total && (p->done >= first_few || elapsed >= 5)) {
        p->estimated = true;
        print_estimate(p, elapsed);
    }
    if (p->c.tty) {
        if (t - p->last < 0.25 && p->done < p->c.total && p->shown)
            return;
        GString *g = progress_text(p, st, elapsed);
        /* a line longer than the terminal would wrap, and \r would rewrite only its tail */
        int width = terminal_width() - 1;
        if ((int)g->len > width) {
            const char *cut = g->str + width;
            while (cut > g->str && ((unsigned char)*cut & 0xC0) == 0x80)
                cut--;
            g_string_truncate(g, (gsize)(cut - g->str));
        }
        if (p->c.out)
            fflush(p->c.out); /* result lines first, then the status line below them */
        fprintf(stderr, "\r%s\033[K", g->str);
        fflush(stderr);
        g_string_free(g, TRUE);
        p->shown = true;
        p->last = t;
        return;
    }
    bool by_games = p->c.every_games > 0 && p->done - p->last_done >= p->c.every_games;
    bool by_time = p->c.every_s > 0 && t - p->last >= p->c.every_s;
    if (!by_games && !by_time)
        return;
    GString *g = progress_text(p, st, elapsed);
    fprintf(stderr, "%s\n", g->str);
    g_string_free(g, TRUE);
    p->last = t;
    p->last_done = p->done;
}

void cb_match_progress_before_results(cb_match_progress *p)
{
    if (p && p->c.out)
        cb_match_progress_hide(p);
}

void cb_match_progress_hide(cb_match_progress *p)
{
    if (!p || !p->shown)
        return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    p->shown = false;
}

void cb_match_progress_free(cb_match_progress *p)
{
    if (!p)
        return;
    cb_match_progress_hide(p);
    g_free(p);
}

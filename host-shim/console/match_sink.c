/* cardbot match — what happens to each finished game, in game order: its "Finished game"
 * line, the summary's figures, its replay, results and deals lines, live progress.
 *
 * cardbot match feeds it the games it plays (cb_match_run's on_game); cardbot merge feeds it
 * the games it reads back from the shards' results files, in the same order. One function
 * for both is what makes a merged run print exactly what the single run prints; whatever
 * else must follow the match game by game (a sequential test such as SPRT) goes here too. */
#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "match.h"
#include "match_verdict.h"

struct cb_match_sink {
    cb_match_sink_cfg c;
    cb_match_stats *stats;
    int seen, errors, status;
    char first_err[300];
};

cb_match_sink *cb_match_sink_new(const cb_match_sink_cfg *c)
{
    cb_match_sink *k = g_new0(cb_match_sink, 1);
    k->c = *c;
    k->stats = cb_match_stats_new(c->rules);
    return k;
}

void cb_match_sink_free(cb_match_sink *k)
{
    if (!k)
        return;
    cb_match_stats_free(k->stats);
    g_free(k);
}

cb_match_stats *cb_match_sink_stats(cb_match_sink *k) { return k->stats; }
int cb_match_sink_seen(const cb_match_sink *k) { return k->seen; }
int cb_match_sink_status(const cb_match_sink *k) { return k->status; }

int cb_match_sink_errors(const cb_match_sink *k, const char **first_err)
{
    if (first_err)
        *first_err = k->first_err;
    return k->errors;
}

static void game_line(FILE *f, const cb_match_game *gm)
{
    if (gm->error) {
        fprintf(f, "Finished game %d: error: %s\n", gm->index + 1, gm->errmsg);
        return;
    }
    fprintf(f, "Finished game %d (%s, %s, %s): winner seat %d, points %+d %+d %+d", gm->index + 1,
            gm->strategy[0], gm->strategy[1], gm->strategy[2], gm->winner, gm->delta[0], gm->delta[1],
            gm->delta[2]);
    if (gm->landlord >= 0)
        fprintf(f, " {%s seat %d}", gm->bid_value ? "landlord" : "bao", gm->landlord);
    fputc('\n', f);
}

/* Write one line (freed here) and flush, so a crash or a signal leaves whole lines. */
static int put_line(cb_match_sink *k, FILE *f, const char *path, const char *what, char *line)
{
    int rc = 0;
    if (fprintf(f, "%s\n", line) < 0 || fflush(f) != 0) {
        cb_cli_error(k->c.cmd, "error writing %s file '%s': %s", what, path, g_strerror(errno));
        k->status = 1;
        rc = 1;
    }
    g_free(line);
    return rc;
}

int cb_match_sink_game(void *ud, cb_match_game *gm)
{
    cb_match_sink *k = ud;
    const cb_rules *r = k->c.rules;
    k->seen++;
    if (gm->error && !k->errors++)
        snprintf(k->first_err, sizeof k->first_err, "game %d: %s", gm->index + 1, gm->errmsg);
    cb_match_stats_add(k->stats, gm);
    if (!k->c.quiet && k->c.out) {
        cb_match_progress_before_results(k->c.progress);
        game_line(k->c.out, gm);
    }
    int stop = 0;
    if (k->c.replay)
        stop |= put_line(k, k->c.replay, k->c.replay_path, "replay", cb_match_game_json(r, gm));
    if (k->c.results && !stop)
        stop |= put_line(k, k->c.results, k->c.results_path, "results", cb_match_game_json_full(r, gm));
    /* one line per deal: the first game of a deal is its rotation 0 (also without --duplicate) */
    if (k->c.save_deals && !stop && gm->rotation == 0) {
        if (!gm->opened) {
            cb_cli_error(k->c.cmd, "game %d has no deal to save (%s)", gm->index + 1, gm->errmsg);
            k->status = 1;
            stop = 1;
        } else {
            stop |= put_line(k, k->c.save_deals, k->c.save_deals_path, "deals",
                             cb_match_deal_json(r, &gm->opening, k->c.bidding));
        }
    }
    cb_match_progress_game(k->c.progress, k->stats);
    /* the SPRT decided: no more games (not an error; the summary says why it stopped) */
    if (k->c.verdicts && !stop && cb_match_verdicts_add(k->c.verdicts, gm, k->stats, stderr))
        stop = 1;
    return stop;
}

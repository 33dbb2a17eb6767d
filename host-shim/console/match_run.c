/* cardbot match — running a match's games on worker threads and handing them over in game
 * order: the part every way of playing games shares (cardbot match, its shards and its
 * tournaments' pairings).
 *
 * Game g depends only on (seed, g): the engine deals from (seed, deal) and gives every
 * decision's view a seed from (seed, game, decision) — separate keyed streams, so a seed
 * reveals nothing of the deal — and neither thread scheduling nor earlier games change it.
 * Workers finish games in any order; the caller's thread gets them strictly in game order. */
#include <glib.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "match.h"

typedef struct run {
    const cb_match_run_cfg *cfg;
    int n;                 /* games to play: positions 0..n-1 */
    cb_match_game **slots; /* a finished game waits here until the caller consumes it */
    gint next;
    int consumed;          /* positions the caller has taken (under lock) */
    int window;            /* workers stay at most this far ahead, bounding memory */
    GMutex lock;
    GCond cond;
    int stop;              /* under lock: a signal number, or < 0 (the caller stopped): no new games */
    bool done;             /* the signal watcher may go */
} run;

/* The exit trap: a plugin that calls exit() in-process ends the whole program; the match is
 * then incomplete, and the trap says so and whose decision it was instead of leaving a silent
 * exit 0. Process-wide by nature (atexit), armed while games run. */
static atomic_int match_running;

static void exit_trap(void)
{
    if (!atomic_load(&match_running))
        return;
    const char *who = cb_match_deciding();
    fprintf(stderr, "cardbot match: the process was ended (exit) during a decision%s%s%s; the match is "
            "incomplete\n", who ? " of strategy '" : "", who ? who : "", who ? "'" : "");
    fflush(stderr);
    _exit(CB_CLI_EXIT_PLUGIN);
}

void cb_match_block_signals(sigset_t *old)
{
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &sigs, old);
}

/* SIGINT / SIGTERM are blocked in every thread (cb_match_block_signals) and taken here, so
 * the caller only ever stops between whole games. */
static gpointer signal_watch(gpointer data)
{
    run *R = data;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    /* the tick bounds how long a finished run waits for this thread to notice (a tournament
     * runs one per seating): 10 ms, a hundred cheap wakeups a second while games run */
    struct timespec tick = {0, 10 * 1000 * 1000};
    for (;;) {
        int sig = sigtimedwait(&set, NULL, &tick);
        g_mutex_lock(&R->lock);
        bool done = R->done;
        if (sig > 0 && !R->stop)
            R->stop = sig;
        g_cond_broadcast(&R->cond);
        g_mutex_unlock(&R->lock);
        if (done)
            return NULL;
    }
}

static int game_at(const cb_match_run_cfg *c, int pos)
{
    return c->game_list ? c->game_list[pos] : pos;
}

static gpointer worker(gpointer data)
{
    run *R = data;
    const cb_match_run_cfg *c = R->cfg;
    /* One table per worker, reused from game to game as a server reuses a table. The ABI
     * requires an answer to depend only on the view (and its seed) and the parameters, so
     * which worker plays a game cannot change it; the -j1 / -j2 end-to-end test checks that. */
    char err[200];
    cb_table *t = c->seating ? cb_table_new_seated(c->shim, c->seating, 3, err, sizeof err)
                             : cb_table_new(c->shim, c->table_id, err, sizeof err);
    for (;;) {
        int pos = g_atomic_int_add(&R->next, 1);
        if (pos >= R->n)
            break;
        g_mutex_lock(&R->lock);
        while (pos >= R->consumed + R->window && !R->stop)
            g_cond_wait(&R->cond, &R->lock);
        bool stop = R->stop != 0;
        g_mutex_unlock(&R->lock);
        if (stop)
            break;
        cb_match_game *gm = g_new(cb_match_game, 1); /* cb_match_play_game clears what it uses */
        int g = game_at(c, pos);
        if (!t) {
            memset(gm, 0, offsetof(cb_match_game, plays));
            gm->index = g;
            gm->error = CB_ERR_CONFIG;
            snprintf(gm->errmsg, sizeof gm->errmsg, "%s", err);
        } else {
            cb_match_play_game(t, c->rules, &c->opts, g, gm);
        }
        g_mutex_lock(&R->lock);
        R->slots[pos] = gm;
        g_cond_broadcast(&R->cond);
        g_mutex_unlock(&R->lock);
    }
    if (t)
        cb_table_free(t);
    return NULL;
}

int cb_match_run(const cb_match_run_cfg *c, cb_match_on_game on_game, void *ud, int *stopped)
{
    run R;
    memset(&R, 0, sizeof R);
    R.cfg = c;
    R.n = c->game_list ? c->ngames : c->games;
    int conc = c->concurrency > 0 ? c->concurrency : 1;
    R.slots = g_new0(cb_match_game *, R.n > 0 ? R.n : 1);
    R.window = 4 * conc + 16;
    g_mutex_init(&R.lock);
    g_cond_init(&R.cond);
    GThread *watch = g_thread_new("signals", signal_watch, &R);
    atomic_store(&match_running, 1);
    static atomic_int trap_set; /* atexit once per process, whatever the number of runs */
    if (!atomic_exchange(&trap_set, 1))
        atexit(exit_trap);
    GThread **th = g_new0(GThread *, conc);
    for (int i = 0; i < conc; i++)
        th[i] = g_thread_new("match", worker, &R);
    int played = 0;
    for (int pos = 0; pos < R.n; pos++) {
        g_mutex_lock(&R.lock);
        while (!R.slots[pos] && !R.stop)
            g_cond_wait(&R.cond, &R.lock);
        if (R.stop) { /* interrupted, or the caller said stop: whole games only */
            g_mutex_unlock(&R.lock);
            break;
        }
        cb_match_game *gm = R.slots[pos];
        R.slots[pos] = NULL;
        R.consumed = pos + 1;
        g_cond_broadcast(&R.cond);
        g_mutex_unlock(&R.lock);
        played++;
        int rc = on_game(ud, gm);
        g_free(gm);
        if (rc) {
            g_mutex_lock(&R.lock);
            if (!R.stop)
                R.stop = -1;
            g_cond_broadcast(&R.cond);
            g_mutex_unlock(&R.lock);
        }
    }
    g_mutex_lock(&R.lock);
    int st = R.stop > 0 ? R.stop : 0;
    if (!R.stop)
        R.stop = -2; /* all consumed: no worker has a game left to take */
    g_cond_broadcast(&R.cond);
    g_mutex_unlock(&R.lock);
    for (int i = 0; i < conc; i++)
        g_thread_join(th[i]);
    g_free(th);
    atomic_store(&match_running, 0);
    g_mutex_lock(&R.lock);
    R.done = true;
    g_mutex_unlock(&R.lock);
    g_thread_join(watch);
    for (int pos = 0; pos < R.n; pos++) /* finished after the stop: not reported */
        g_free(R.slots[pos]);
    g_free(R.slots);
    g_mutex_clear(&R.lock);
    g_cond_clear(&R.cond);
    if (stopped)
        *stopped = st;
    return played;
}

/* cardbot tests — [shim] isolation = process: each plugin instance in a forked worker.
 *
 * The shim is loaded from $CB_BUILD (default build/plain) with dlopen, as in test_shim.c, and
 * seats the fault plugins of tests/plugins/: crash (SIGSEGV), abort (SIGABRT), hang (a busy
 * loop or pause() forever), slow, garbage (writes behind the shim's back on the worker's
 * socket). Under process isolation each fault must be replaced by a legal answer — the
 * fallback strategy's, or the rules-only safe play without one — counted by its reason, with
 * the host alive, the worker restarted, and the other seats of the table answering.
 *
 * crash, abort and hang are never seated in-process here: in-process they would kill or hang
 * this test, which is exactly what only process isolation contains (test_shim.c covers the
 * in-process faults that can be survived: illegal, failing, slow). A healthy plugin gives the
 * same answers in both modes (lowest, and heuristic over whole games). No test leaves a
 * worker, a zombie or a descriptor behind (counted from /proc).
 *
 * The whole plugin life stays in workers: a plugin whose constructor segfaults fails the
 * config load (and a reload, which keeps the old config) with the strategy named, the host
 * alive (ctorcrash); a worker is a process group of its own and whatever a plugin forks dies
 * with it (forker); a plugin's stdout never reaches the host's (printer); [shim] worker_memory_mb and worker_cpu_s end a worker that passes them, counted
 * crashed (memhog, hang); [shim] sandbox = on refuses every escape a plugin tries while real
 * plugins answer as before (escape, heuristic, ismcts); and a plugin that crashes on some
 * seeds gives the same match at -j1, -j2 and -j4 (seedcrash: the restart back-off starts
 * afresh with every game).
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "cardbot/game.h"
#include "cardbot/shim.h"
#include "support/shimfix.h"

/* The fixture: the shim, the test plugins, a temp dir for configs (tests/support/shimfix.h). */
typedef cbt_shimfix fx;

static int group_setup(void **state)
{
    return cbt_shimfix_setup(state, "test_isolation", "cbiso-XXXXXX");
}

/* ---- processes and descriptors, from /proc ---- */

static int count_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += e->d_name[0] != '.';
    closedir(d);
    return n - 1; /* the directory's own descriptor */
}

/* Our child processes (zombies included); with name != NULL only those whose comm is name.
 * Writes up to cap pids. */
static int children(const char *name, pid_t *out, int cap)
{
    DIR *d = opendir("/proc");
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    pid_t me = getpid();
    while ((e = readdir(d))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        char path[300], buf[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *fp = fopen(path, "r");
        if (!fp)
            continue;
        size_t k = fread(buf, 1, sizeof buf - 1, fp);
        fclose(fp);
        buf[k] = '\0';
        char *lp = strchr(buf, '('), *rp = strrchr(buf, ')');
        if (!lp || !rp)
            continue;
        char state = 0;
        int ppid = 0;
        if (sscanf(rp + 1, " %c %d", &state, &ppid) != 2 || ppid != me)
            continue;
        *rp = '\0';
        if (name && strcmp(lp + 1, name) != 0)
            continue;
        if (out && n < cap)
            out[n] = (pid_t)atoi(e->d_name);
        n++;
    }
    closedir(d);
    return n;
}

/* ---- configs and views ---- */

#define PROC "[shim]\nisolation = process\n"
/* The budget of the fault tests: a hang costs it plus the margin (10 ms + budget/20); the
 * healthy answers (microseconds) have it all as slack on a loaded machine. */
#define FAULT_BUDGET "budget_ms = 250\n"
#define PDK_LO "[game]\nrules = pdk16\n[strategy.lo]\nplugin = lowest\n"
/* The hand of most play tests: no bomb, no straight, nothing above a K. */
#define H1 "4 5 6 7 9 9 J K"

/* A real play view for seat holding hand: it leads a later trick (table NULL), or follows
 * table, led by the seat before it (tests/support/shimfix.h: cbt_pos_lead / cbt_pos_follow). */
static void view_play(cbt_vb *b, const cb_rules *r, int seat, const char *hand, const char *table)
{
    if (table)
        cbt_pos_follow(b, r, seat, hand, table, (seat + 2) % 3);
    else
        cbt_pos_lead(b, r, seat, hand);
}

/* ---- config ---- */

static void test_config(void **state)
{
    fx *f = *state;
    int fds = count_fds();
    char *p = cbt_conf_tp(f, PDK_LO PROC "[seats]\n0 = lo\n1 = lo\n2 = lo\n");
    cb_shim *s = cbt_open_ok(f, p);
    /* the parameter check at open ran in a worker that is gone again */
    assert_int_equal(children(NULL, NULL, 0), 0);
    f->api.free(s);
    g_free(p);

    p = cbt_conf_tp(f, "[game]\nrules = pdk16\n[shim]\nisolation = vm\n");
    cbt_expect_open_error(f, p, p, "[shim] isolation", "'vm'", "inproc, process", NULL);
    g_free(p);
    /* parameters are checked by create() in a worker, messages as in-process */
    p = cbt_conf_tp(f, "[game]\nrules = pdk16\n" PROC "[strategy.lo]\nplugin = lowest\nbid = 9\n");
    cbt_expect_open_error(f, p, p, "[strategy.lo]", "bid", "'9'", NULL);
    g_free(p);
    p = cbt_conf_tp(f, "[game]\nrules = pdk16\n" PROC "[strategy.f]\nplugin = failing\ncreate = fail\n");
    cbt_expect_open_error(f, p, p, "[strategy.f]", "create", NULL);
    g_free(p);
    /* a create() that segfaults fails the open, not the host */
    p = cbt_conf_tp(f, "[game]\nrules = pdk16\n" PROC "[strategy.c]\nplugin = crash\nwhen = create\n");
    cbt_expect_open_error(f, p, p, "[strategy.c]", "died while creating", "SIGSEGV", NULL);
    g_free(p);
    assert_int_equal(children(NULL, NULL, 0), 0);
    assert_int_equal(count_fds(), fds);
}

/* create() failing after the check at open: cb_table_new fails with the file and group. */
static void test_table_create_fails(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, PDK_LO PROC "[strategy.f]\nplugin = failing\ncreate = env\n[seats]\n0 = lo\n1 = lo\n2 = f\n");
    g_unsetenv("CB_TEST_FAIL_CREATE");
    cb_shim *s = cbt_open_ok(f, p);
    char err[1024] = "";
    g_setenv("CB_TEST_FAIL_CREATE", "1", TRUE);
    assert_null(f->api.table_new(s, NULL, err, sizeof err));
    g_unsetenv("CB_TEST_FAIL_CREATE");
    assert_non_null(strstr(err, p));
    assert_non_null(strstr(err, "[strategy.f]"));
    assert_non_null(strstr(err, "CB_TEST_FAIL_CREATE"));
    assert_int_equal(children(NULL, NULL, 0), 0); /* seats 0 and 1's workers went with the table */
    cb_table *t = cbt_table_ok(f, s, NULL);
    assert_int_equal(children(NULL, NULL, 0), 3);
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);
}

/* ---- faults ---- */

typedef struct fault {
    const char *params; /* plugin and parameters of [strategy.bad] */
    int reason;         /* what a faulty decision counts */
    const char *why;    /* in the explanation */
} fault;

static const fault faults[] = {
    { "plugin = crash\n", CB_FB_CRASHED, "SIGSEGV" },
    { "plugin = abort\n", CB_FB_CRASHED, "SIGABRT" },
    { "plugin = hang\nmode = spin\n", CB_FB_LATE, "worker killed" },
    { "plugin = hang\nmode = sleep\n", CB_FB_LATE, "worker killed" },
};

/* Seat 0 holds the fault, seats 1 and 2 "lowest"; must_beat off so the rules-only answer to
 * a single 3 is a pass while "lowest" beats it: the two fallbacks are told apart. Each fault
 * every time: restarted, fails again; the back-off then skips one decision. */
static void run_fault(fx *f, const fault *ft, bool with_fallback)
{
    char *p = cbt_conf_tp(f, PDK_LO PROC FAULT_BUDGET "%s[rules]\nmust_beat = false\n"
                             "[strategy.bad]\n%s[seats]\n0 = bad\n1 = lo\n2 = lo\n",
                          with_fallback ? "fallback = lo\n" : "", ft->params);
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL);
    const cb_rules *r = f->api.rules(s);
    cbt_vb b0, b1;
    view_play(&b0, r, 0, H1, "3");
    view_play(&b1, r, 1, H1, "3");
    cb_decision d = CBT_DEC, d1 = CBT_DEC;
    /* what the healthy "lowest" says to the same hand */
    assert_int_equal(f->api.decide_play(t, &b1.v, &d1), CB_OK);
    assert_true(d1.cards != 0);
    static const int expect_rc[] = { 0, 0, CB_FB_NO_PLUGIN, 0 }; /* 0: the fault's reason */
    for (int k = 0; k < 4; k++) {
        int want = expect_rc[k] ? expect_rc[k] : ft->reason;
        int rc = f->api.decide_play(t, &b0.v, &d);
        if (rc != want)
            fail_msg("%s decision %d: %d (%s), expected %d", ft->params, k, rc, d.explain, want);
        assert_true(d.flags & CB_DEC_FALLBACK);
        cbt_assert_legal(&b0.v, &d);
        if (with_fallback) {
            assert_int_equal(d.cards, d1.cards);
            assert_non_null(strstr(d.explain, "fallback lo"));
        } else {
            assert_int_equal(d.cards, 0); /* the rules-only answer: pass */
            assert_non_null(strstr(d.explain, "fallback rules"));
        }
        if (k < 2 && !strstr(d.explain, ft->why))
            fail_msg("explanation \"%s\" lacks \"%s\"", d.explain, ft->why);
        /* the healthy seat of the same table keeps answering */
        assert_int_equal(f->api.decide_play(t, &b1.v, &d), CB_OK);
        assert_int_equal(d.cards, d1.cards);
    }
    cb_strategy_stats st[8];
    int n = f->api.stats(s, st, 8);
    const cb_strategy_stats *sb = cbt_stat_of(st, n, "bad");
    assert_int_equal(sb->decisions, 4);
    assert_int_equal(sb->fallbacks[ft->reason], 3);
    assert_int_equal(sb->fallbacks[CB_FB_NO_PLUGIN], 1);
    const cb_strategy_stats *sl = cbt_stat_of(st, n, "lo");
    assert_int_equal(sl->decisions, with_fallback ? 5 + 4 : 5);
    for (int i = 1; i < CB_FB_NREASONS; i++)
        assert_int_equal(sl->fallbacks[i], 0);
    if (ft->reason == CB_FB_LATE) /* the host waited about budget + margin, not forever */
        assert_true(sb->max_ns >= 250000000u && sb->max_ns < 5000000000u);
    f->api.table_free(t);
    assert_int_equal(children(NULL, NULL, 0), 0);
    f->api.free(s);
    g_free(p);
}

static void test_faults_no_fallback(void **state)
{
    fx *f = *state;
    int fds = count_fds();
    for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++)
        run_fault(f, &faults[i], false);
    assert_int_equal(count_fds(), fds);
    /* this process never took a SIGPIPE disposition from the shim */
    struct sigaction sa;
    assert_int_equal(sigaction(SIGPIPE, NULL, &sa), 0);
    assert_true(sa.sa_handler == SIG_DFL);
}

static void test_faults_fallback_lowest(void **state)
{
    fx *f = *state;
    int fds = count_fds();
    for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++)
        run_fault(f, &faults[i], true);
    assert_int_equal(count_fds(), fds);
}

/* The answer faults test_shim.c checks in-process — illegal, failing, passer — come back the
 * same through a worker: same reasons, same replacement answers, workers kept (no restart). */
static void test_answer_faults(void **state)
{
    fx *f = *state;
    cb_cards first[3] = { 0, 0, 0 }; /* the in-process answers */
    for (int iso = 0; iso < 2; iso++) {
        char *p = cbt_conf_tp(f, PDK_LO "[shim]\nisolation = %s\n[strategy.bad]\nplugin = illegal\n"
                                 "[strategy.f]\nplugin = failing\n[strategy.p]\nplugin = passer\n"
                                 "[seats]\n0 = bad\n1 = f\n2 = p\n", iso ? "process" : "inproc");
        cb_shim *s = cbt_open_ok(f, p);
        cb_table *t = cbt_table_ok(f, s, NULL);
        const cb_rules *r = f->api.rules(s);
        static const int want[3] = { CB_FB_ILLEGAL, CB_FB_FAILED, CB_FB_ILLEGAL };
        for (int round = 0; round < 3; round++)
            for (int seat = 0; seat < 3; seat++) {
                cbt_vb b;
                cb_decision d = CBT_DEC;
                view_play(&b, r, seat, H1, NULL);
                assert_int_equal(f->api.decide_play(t, &b.v, &d), want[seat]);
                assert_true(d.flags & CB_DEC_FALLBACK);
                cbt_assert_legal(&b.v, &d);
                if (iso == 0 && round == 0)
                    first[seat] = d.cards;
                else
                    assert_int_equal(d.cards, first[seat]);
            }
        /* 包庄 (on in pdk16): seat 0, the spade 3, said no; seat 1 is asked */
        cbt_vb b;
        cb_decision d = CBT_DEC;
        cbt_pos(&b, r, (const char *[3]){ "3s", H1, NULL }, -1, "0=0");
        assert_int_equal(b.v.seat, 1);
        assert_int_equal(b.v.phase, CB_PHASE_BID);
        assert_int_equal(f->api.decide_bid(t, &b.v, &d), CB_FB_FAILED);
        assert_int_equal(d.bid, 0);
        cb_strategy_stats st[8];
        int n = f->api.stats(s, st, 8);
        assert_int_equal(cbt_stat_of(st, n, "bad")->fallbacks[CB_FB_ILLEGAL], 3);
        assert_int_equal(cbt_stat_of(st, n, "f")->fallbacks[CB_FB_FAILED], 4);
        assert_int_equal(cbt_stat_of(st, n, "p")->fallbacks[CB_FB_ILLEGAL], 3);
        for (int k = 0; k < 3; k++)
            assert_int_equal(cbt_stat_of(st, n, k == 0 ? "bad" : k == 1 ? "f" : "p")->fallbacks[CB_FB_CRASHED], 0);
        if (iso)
            assert_int_equal(children(NULL, NULL, 0), 3); /* one per seat, none restarted */
        f->api.table_free(t);
        f->api.free(s);
        g_free(p);
    }
}

/* A fault after one good answer: every restarted worker answers once, then fails again; a
 * decision served resets the back-off, so the restart is at once every time. */
static void test_restart(void **state)
{
    fx *f = *state;
    static const char *const params[] = { "plugin = crash\nafter = 1\n", "plugin = abort\nafter = 1\n",
                                          "plugin = hang\nafter = 1\n" };
    static const int reason[] = { CB_FB_CRASHED, CB_FB_CRASHED, CB_FB_LATE };
    for (int k = 0; k < 3; k++) {
        char *p = cbt_conf_tp(f, PDK_LO PROC FAULT_BUDGET "fallback = lo\n"
                                 "[strategy.bad]\n%s[seats]\n0 = bad\n1 = lo\n2 = lo\n", params[k]);
        cb_shim *s = cbt_open_ok(f, p);
        cb_table *t = cbt_table_ok(f, s, NULL);
        const cb_rules *r = f->api.rules(s);
        cbt_vb b0, b1;
        view_play(&b0, r, 0, H1, NULL);
        view_play(&b1, r, 1, "5 6 8 8 T", "4");
        cb_decision d = CBT_DEC;
        for (int i = 0; i < 6; i++) {
            int rc = f->api.decide_play(t, &b0.v, &d);
            assert_int_equal(rc, i % 2 ? reason[k] : CB_OK);
            cbt_assert_legal(&b0.v, &d);
            assert_int_equal(!!(d.flags & CB_DEC_FALLBACK), i % 2);
            assert_int_equal(f->api.decide_play(t, &b1.v, &d), CB_OK);
        }
        cb_strategy_stats st[8];
        int n = f->api.stats(s, st, 8);
        assert_int_equal(cbt_stat_of(st, n, "bad")->decisions, 6);
        assert_int_equal(cbt_stat_of(st, n, "bad")->fallbacks[reason[k]], 3);
        assert_int_equal(cbt_stat_of(st, n, "bad")->fallbacks[CB_FB_NO_PLUGIN], 0);
        f->api.table_free(t);
        f->api.free(s);
        g_free(p);
    }
    assert_int_equal(children(NULL, NULL, 0), 0);
}

/* A worker that keeps dying: restarts back off 1, 2, 4, ... decisions (answered by the
 * fallback, counted no-plugin), so a broken plugin costs a fork only now and then. */
static void test_backoff(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, PDK_LO PROC "[strategy.bad]\nplugin = crash\n[seats]\n0 = bad\n1 = lo\n2 = lo\n");
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL);
    cbt_vb b;
    view_play(&b, f->api.rules(s), 0, H1, NULL);
    cb_decision d = CBT_DEC;
    /* C = crashed (a start, then a death), N = backing off */
    const char *want = "CCNCNNCNNNNCNNNNNNNNC";
    for (int i = 0; want[i]; i++) {
        int rc = f->api.decide_play(t, &b.v, &d);
        assert_int_equal(rc, want[i] == 'C' ? CB_FB_CRASHED : CB_FB_NO_PLUGIN);
        cbt_assert_legal(&b.v, &d);
        if (want[i] == 'N')
            assert_non_null(strstr(d.explain, "restart in"));
    }
    assert_int_equal(children("cbw-bad", NULL, 0), 0); /* only seats 1 and 2's workers live */
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);
}

/* Slow answers: past the budget and the margin the worker is killed and the fallback answers
 * (in-process the late answer would be used); inside the margin the late answer is used. */
static void test_slow(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, PDK_LO PROC "budget_ms = 50\n"
                             "[strategy.slow]\nplugin = slow\nsleep_ms = 400\n[seats]\n0 = slow\n1 = lo\n2 = lo\n");
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL);
    cbt_vb b;
    view_play(&b, f->api.rules(s), 0, H1, NULL);
    cb_decision d = CBT_DEC;
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_FB_LATE);
    assert_true(d.flags & CB_DEC_FALLBACK);
    assert_non_null(strstr(d.explain, "no answer in 50+12 ms"));
    cbt_assert_legal(&b.v, &d);
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);

    /* budget 1500 ms: margin 85 ms; an answer after 1505 ms is late but used */
    p = cbt_conf_tp(f, PDK_LO PROC "budget_ms = 1500\n"
                       "[strategy.slow]\nplugin = slow\nsleep_ms = 1505\n[seats]\n0 = slow\n1 = lo\n2 = lo\n");
    s = cbt_open_ok(f, p);
    t = cbt_table_ok(f, s, NULL);
    view_play(&b, f->api.rules(s), 0, H1, NULL);
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_FB_LATE);
    assert_false(d.flags & CB_DEC_FALLBACK);
    assert_true(d.cards != 0);
    cbt_assert_legal(&b.v, &d);
    cb_strategy_stats st[8];
    int n = f->api.stats(s, st, 8);
    assert_int_equal(cbt_stat_of(st, n, "slow")->fallbacks[CB_FB_LATE], 1);
    assert_true(cbt_stat_of(st, n, "slow")->max_ns >= 1505000000u);
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);
}

/* Frames forged on the worker's socket: a stale reply is dropped, a broken one kills. */
static void test_garbage(void **state)
{
    fx *f = *state;
    static const char *const modes[] = { "stale", "bytes", "length" };
    static const int reason[] = { CB_OK, CB_FB_CRASHED, CB_FB_CRASHED };
    for (int iso = 0; iso < 2; iso++) {
        for (int k = 0; k < 3; k++) {
            char *p = cbt_conf_tp(f, PDK_LO "[shim]\nisolation = %s\n"
                                     "[strategy.g]\nplugin = garbage\nmode = %s\n[seats]\n0 = g\n1 = lo\n2 = lo\n",
                                  iso ? "process" : "inproc", modes[k]);
            cb_shim *s = cbt_open_ok(f, p);
            cb_table *t = cbt_table_ok(f, s, NULL);
            const cb_rules *r = f->api.rules(s);
            cbt_vb b0, b1;
            view_play(&b0, r, 0, H1, "3");
            view_play(&b1, r, 1, H1, "3");
            cb_decision d = CBT_DEC, d1 = CBT_DEC;
            assert_int_equal(f->api.decide_play(t, &b1.v, &d1), CB_OK);
            /* in-process it writes nothing: the plain "lowest" answer */
            int want = iso ? reason[k] : CB_OK;
            int rc = f->api.decide_play(t, &b0.v, &d);
            if (rc != want)
                fail_msg("garbage %s (%s): %d (%s), expected %d", modes[k], iso ? "process" : "inproc",
                         rc, d.explain, want);
            cbt_assert_legal(&b0.v, &d);
            if (want == CB_OK)
                assert_int_equal(d.cards, d1.cards); /* not the stale frame's whole hand */
            else
                assert_non_null(strstr(d.explain, "protocol"));
            f->api.table_free(t);
            f->api.free(s);
            g_free(p);
        }
    }
    assert_int_equal(children(NULL, NULL, 0), 0);
}

/* A worker killed while idle: the next request meets a closed socket (EPIPE, never a
 * SIGPIPE: this process keeps the default disposition, which would end it), counts crashed,
 * and the one after restarts it. */
static void test_idle_death(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, PDK_LO PROC "[strategy.victim]\nplugin = lowest\n[seats]\n0 = victim\n1 = lo\n2 = lo\n");
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL);
    cbt_vb b;
    view_play(&b, f->api.rules(s), 0, H1, NULL);
    cb_decision d = CBT_DEC;
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_OK);
    pid_t pid[4];
    assert_int_equal(children("cbw-victim", pid, 4), 1);
    assert_int_equal(kill(pid[0], SIGKILL), 0);
    for (int i = 0; i < 2000; i++) { /* until it is a zombie: the shim reaps it */
        char path[64], buf[256];
        snprintf(path, sizeof path, "/proc/%d/stat", (int)pid[0]);
        FILE *fp = fopen(path, "r");
        assert_non_null(fp);
        size_t k = fread(buf, 1, sizeof buf - 1, fp);
        fclose(fp);
        buf[k] = '\0';
        char *rp = strrchr(buf, ')');
        if (rp && rp[1] == ' ' && rp[2] == 'Z')
            break;
        g_usleep(1000);
    }
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_FB_CRASHED);
    assert_non_null(strstr(d.explain, "SIGKILL"));
    cbt_assert_legal(&b.v, &d);
    assert_int_equal(children("cbw-victim", NULL, 0), 0);
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_OK);
    assert_int_equal(children("cbw-victim", pid, 4), 1);
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);
}

/* ---- the same answers in both modes ---- */

static void same_decision(const cb_decision *a, const cb_decision *b, int game, int step)
{
    bool same = a->struct_size == b->struct_size && a->flags == b->flags && a->cards == b->cards &&
                a->bid == b->bid && (a->value == b->value || (isnan(a->value) && isnan(b->value))) &&
                a->simulations == b->simulations && a->nodes == b->nodes &&
                a->minhands_before == b->minhands_before && a->minhands_after == b->minhands_after &&
                strcmp(a->explain, b->explain) == 0;
    if (!same)
        fail_msg("game %d decision %d differs: inproc %llx bid %d \"%s\", process %llx bid %d \"%s\"",
                 game, step, (unsigned long long)a->cards, a->bid, a->explain,
                 (unsigned long long)b->cards, b->bid, b->explain);
}

/* Whole pdk16 games of the engine (包庄 bidding on): every view, bid or play, is asked of the
 * in-process table a and of the process table b, the answers compared field by field, a's
 * answer played (the engine must take it). Returns the number of decisions compared. */
static int compare_games(fx *f, cb_table *a, cb_table *b, const cb_rules *r, int ngames, uint64_t key)
{
    int total = 0;
    char err[160];
    for (int g = 0; g < ngames; g++) {
        cb_engine *e = cbt_engine(r, key + (uint64_t)g, -1);
        while (cb_engine_phase(e) != CB_PHASE_OVER) {
            cb_view v;
            cbt_engine_view(e, &v);
            bool bid = v.phase == CB_PHASE_BID;
            cb_decision da = CBT_DEC, db = CBT_DEC;
            int ra = bid ? f->api.decide_bid(a, &v, &da) : f->api.decide_play(a, &v, &da);
            int rb = bid ? f->api.decide_bid(b, &v, &db) : f->api.decide_play(b, &v, &db);
            if (ra != CB_OK || rb != CB_OK)
                fail_msg("game %d decision %d: inproc %d, process %d (%s)", g, total, ra, rb,
                         ra < 0 ? f->api.last_error(a) : rb < 0 ? f->api.last_error(b) : db.explain);
            same_decision(&da, &db, g, total);
            total++;
            int rc = bid ? cb_engine_bid(e, da.bid, err, sizeof err) : cb_engine_play(e, da.cards, err, sizeof err);
            if (rc != 0)
                fail_msg("game %d decision %d: the engine refuses the answer: %s", g, total, err);
        }
        cb_engine_free(e);
    }
    return total;
}

static void same_answers(fx *f, const char *name, const char *strategy_group, int ngames)
{
    char *pa = cbt_conf_tp(f, "[game]\nrules = pdk16\n[rules]\nbao = true\n[shim]\nbudget_ms = 60000\n"
                              "%s[seats]\n0 = x\n1 = x\n2 = x\n", strategy_group);
    char *pb = cbt_conf_tp(f, "[game]\nrules = pdk16\n[rules]\nbao = true\n" PROC "budget_ms = 60000\n"
                              "%s[seats]\n0 = x\n1 = x\n2 = x\n", strategy_group);
    cb_shim *sa = cbt_open_ok(f, pa), *sb = cbt_open_ok(f, pb);
    cb_table *ta = cbt_table_ok(f, sa, NULL), *tb = cbt_table_ok(f, sb, NULL);
    int n = compare_games(f, ta, tb, f->api.rules(sa), ngames, 20240611u);
    printf("    %s: %d decisions, identical in both modes\n", name, n);
    assert_true(n >= 200);
    cb_strategy_stats st[4];
    int k = f->api.stats(sb, st, 4);
    assert_int_equal(cbt_stat_of(st, k, "x")->decisions, (uint64_t)n);
    for (int i = 1; i < CB_FB_NREASONS; i++)
        assert_int_equal(cbt_stat_of(st, k, "x")->fallbacks[i], 0);
    f->api.table_free(ta);
    f->api.table_free(tb);
    f->api.free(sa);
    f->api.free(sb);
    g_free(pa);
    g_free(pb);
}

static void test_same_answers_lowest(void **state)
{
    same_answers(*state, "lowest", "[strategy.x]\nplugin = lowest\n", 12);
}

static void test_same_answers_heuristic(void **state)
{
    fx *f = *state;
    /* heuristic.so of this build: found by its base name next to the shim library */
    char *so = g_build_filename(f->build, "plugins", "heuristic.so", NULL);
    if (!g_file_test(so, G_FILE_TEST_EXISTS)) {
        g_free(so);
        skip();
    }
    same_answers(f, "heuristic level 6", "[strategy.x]\nplugin = heuristic\nlevel = 6\n", 12);
    g_free(so);
}

/* ---- the whole view reaches a worker ---- */

/* Whole games of the engine, every decision asked of viewecho (which reports the view it
 * got: first_bidder, first_seat, landlord, bids, seed, budget, the history) in-process and in
 * a worker, as the host's 1.1 view and as the same view from a 1.0 host: the four answers
 * must agree field by field but for abi_version, and first_bidder must be the engine's. Bids
 * are chosen here (from the engine's legal ones), plays are viewecho's. */
static int whole_view_games(fx *f, cb_table *a, cb_table *b, const cb_rules *r, int ngames)
{
    int total = 0;
    uint64_t rng = 99;
    for (int g = 0; g < ngames; g++) {
        cb_engine *e = cbt_engine(r, 100 + (uint64_t)g, -1);
        char err[160];
        while (cb_engine_phase(e) != CB_PHASE_OVER) {
            cb_view v;
            cbt_engine_view(e, &v);
            cb_decision d[4];
            cb_view *old = cbt_view_1_0(&v);
            const cb_view *vs[4] = { &v, &v, old, old };
            cb_table *ts[4] = { a, b, a, b };
            for (int k = 0; k < 4; k++) {
                d[k] = (cb_decision)CBT_DEC;
                int rc = v.phase == CB_PHASE_BID ? f->api.decide_bid(ts[k], vs[k], &d[k])
                                                 : f->api.decide_play(ts[k], vs[k], &d[k]);
                if (rc != CB_OK)
                    fail_msg("game %d decision %d, answer %d: %d (%s) %s", g, total, k, rc,
                             f->api.strerror(rc), rc < 0 ? f->api.last_error(ts[k]) : d[k].explain);
            }
            cbt_view_1_0_free(old);
            if ((int)(int64_t)d[1].simulations - 100 != v.first_bidder ||
                (int)(int64_t)d[1].nodes - 100 != v.first_seat)
                fail_msg("game %d decision %d: the worker saw first_bidder %d first_seat %d, the "
                         "view has %d %d", g, total, (int)(int64_t)d[1].simulations - 100,
                         (int)(int64_t)d[1].nodes - 100, v.first_bidder, v.first_seat);
            same_decision(&d[0], &d[1], g, total);
            same_decision(&d[2], &d[3], g, total);
            /* 1.1 and 1.0 differ only in the abi the host gave */
            assert_int_equal(d[0].simulations, d[2].simulations);
            assert_int_equal(d[0].nodes, d[2].nodes);
            assert_int_equal(d[0].cards, d[2].cards);
            assert_string_equal(strstr(d[0].explain, " fb="), strstr(d[2].explain, " fb="));
            total++;
            if (v.phase == CB_PHASE_BID) {
                int32_t bids[8];
                int n = cb_engine_legal_bids(e, bids, 8);
                assert_true(n > 0);
                rng = rng * 6364136223846793005ull + 1442695040888963407ull;
                int bid = bids[(int)((rng >> 33) % (uint64_t)n)];
                assert_int_equal(cb_engine_bid(e, bid, err, sizeof err), 0);
            } else {
                if (cb_engine_play(e, d[1].cards, err, sizeof err) != 0)
                    fail_msg("game %d: the worker's play refused by the engine: %s", g, err);
            }
        }
        cb_engine_free(e);
    }
    return total;
}

static void test_whole_view(void **state)
{
    fx *f = *state;
    static const char *const rules[] = { "[game]\nrules = pdk16\n[rules]\nbao = true\n",
                                         "[game]\nrules = ddz\n" };
    int kids = children(NULL, NULL, 0);
    for (int i = 0; i < 2; i++) {
        char *pa = cbt_conf_tp(f, "%s[strategy.e]\nplugin = viewecho\n[seats]\n0 = e\n1 = e\n2 = e\n", rules[i]);
        char *pb = cbt_conf_tp(f, "%s" PROC "[strategy.e]\nplugin = viewecho\n[seats]\n0 = e\n1 = e\n2 = e\n", rules[i]);
        cb_shim *sa = cbt_open_ok(f, pa), *sb = cbt_open_ok(f, pb);
        cb_table *ta = cbt_table_ok(f, sa, NULL), *tb = cbt_table_ok(f, sb, NULL);
        int n = whole_view_games(f, ta, tb, f->api.rules(sa), 4);
        printf("    %s: %d decisions, each as a 1.1 and a 1.0 view, the same in both modes\n",
               i ? "ddz" : "pdk16 + bao", n);
        assert_true(n >= 60);
        f->api.table_free(ta);
        f->api.table_free(tb);
        f->api.free(sa);
        f->api.free(sb);
        g_free(pa);
        g_free(pb);
    }
    assert_int_equal(children(NULL, NULL, 0), kids);
}

/* ---- resources, threads, reload ---- */

/* Tables come and go, faults kill workers, a reload switches every table: afterwards not a
 * process, not a zombie, not a descriptor is left. */
static void test_no_leaks(void **state)
{
    fx *f = *state;
    int fds = count_fds();
    char *p = cbt_conf_tp(f, PDK_LO PROC FAULT_BUDGET "fallback = lo\n"
                             "[strategy.c]\nplugin = crash\nafter = 2\n[strategy.h]\nplugin = hang\nafter = 3\n"
                             "[seats]\n0 = c\n1 = h\n2 = lo\n");
    char *orig = NULL;
    assert_true(g_file_get_contents(p, &orig, NULL, NULL));
    cb_shim *s = cbt_open_ok(f, p);
    const cb_rules *r = f->api.rules(s);
    cb_table *t[3];
    for (int i = 0; i < 3; i++)
        t[i] = cbt_table_ok(f, s, NULL);
    assert_int_equal(children(NULL, NULL, 0), 9);
    cbt_vb b;
    cb_decision d = CBT_DEC;
    for (int k = 0; k < 5; k++)
        for (int i = 0; i < 3; i++)
            for (int seat = 0; seat < 3; seat++) {
                view_play(&b, r, seat, H1, NULL);
                int rc = f->api.decide_play(t[i], &b.v, &d);
                assert_true(rc == CB_OK || rc == CB_FB_CRASHED || rc == CB_FB_LATE);
                cbt_assert_legal(&b.v, &d);
            }
    /* three seat workers per table, plus one fallback worker per faulty seat */
    assert_int_equal(children(NULL, NULL, 0), 15);
    f->api.table_free(t[2]);
    assert_int_equal(children(NULL, NULL, 0), 10);
    /* reload to in-process lowest everywhere: the live tables drop their workers at their
     * next decision */
    char err[512];
    char *lo = g_strdup_printf("[shim]\nplugin_dir = %s\n" PDK_LO "[seats]\n0 = lo\n1 = lo\n2 = lo\n", f->tplugs);
    assert_true(g_file_set_contents(p, lo, -1, NULL));
    assert_int_equal(f->api.reload(s, err, sizeof err), 0);
    for (int i = 0; i < 2; i++) {
        view_play(&b, r, 0, H1, NULL);
        assert_int_equal(f->api.decide_play(t[i], &b.v, &d), CB_OK);
    }
    assert_int_equal(children(NULL, NULL, 0), 0);
    /* and back to process isolation */
    assert_true(g_file_set_contents(p, orig, -1, NULL));
    assert_int_equal(f->api.reload(s, err, sizeof err), 0);
    view_play(&b, r, 2, H1, NULL);
    assert_int_equal(f->api.decide_play(t[0], &b.v, &d), CB_OK);
    assert_int_equal(children(NULL, NULL, 0), 3);
    f->api.table_free(t[0]);
    f->api.table_free(t[1]);
    f->api.free(s);
    assert_int_equal(children(NULL, NULL, 0), 0);
    assert_int_equal(count_fds(), fds);
    g_free(lo);
    g_free(orig);
    g_free(p);
}

typedef struct worker {
    fx *f;
    cb_shim *s;
    GMutex *fork_lock;
    const cbt_vb *views; /* [seat * 2 + follows]: built by the main thread, where the
                          * fixture's checks may fail the test */
    int bad, done;
} worker;

static gpointer work(gpointer data)
{
    worker *w = data;
    char err[256];
    /* Under ASan the tables are created one at a time: GCC 12's ASan allocator is not
     * fork-safe, so a worker forked while another thread is inside malloc can hang in its own
     * first malloc (the shim retries such a start once, after SHIM_START_MS; see
     * shim_process.c). The plain build forks from all threads at once. */
#ifdef __SANITIZE_ADDRESS__
    g_mutex_lock(w->fork_lock);
#endif
    cb_table *t = w->f->api.table_new(w->s, NULL, err, sizeof err);
#ifdef __SANITIZE_ADDRESS__
    g_mutex_unlock(w->fork_lock);
#endif
    if (!t) {
        w->bad = -1;
        return NULL;
    }
    cb_decision d = CBT_DEC;
    for (int i = 0; i < 200; i++) {
        int rc = w->f->api.decide_play(t, &w->views[(i % 3) * 2 + i % 2].v, &d);
        if (rc != CB_OK || d.cards == 0) {
            if (!w->bad)
                fprintf(stderr, "    thread decision %d: %d (%s)\n", i, rc, d.explain);
            w->bad++;
        }
        w->done++;
    }
    w->f->api.table_free(t);
    return NULL;
}

/* Tables on several threads fork their workers concurrently. */
static void test_threads(void **state)
{
    fx *f = *state;
    int fds = count_fds();
    char *p = cbt_conf_tp(f, PDK_LO PROC "[seats]\n0 = lo\n1 = lo\n2 = lo\n");
    cb_shim *s = cbt_open_ok(f, p);
    enum { NT = 4 };
    /* every seat leading, and following a 3 (which "lowest" beats) */
    cbt_vb views[6];
    for (int k = 0; k < 6; k++)
        view_play(&views[k], f->api.rules(s), k / 2, H1, k % 2 ? "3" : NULL);
    worker w[NT];
    GThread *th[NT];
    GMutex fork_lock;
    g_mutex_init(&fork_lock);
    for (int i = 0; i < NT; i++) {
        w[i] = (worker){ f, s, &fork_lock, views, 0, 0 };
        th[i] = g_thread_new("w", work, &w[i]);
    }
    for (int i = 0; i < NT; i++) {
        g_thread_join(th[i]);
        assert_int_equal(w[i].bad, 0);
        assert_int_equal(w[i].done, 200);
    }
    cb_strategy_stats st[4];
    int n = f->api.stats(s, st, 4);
    assert_int_equal(cbt_stat_of(st, n, "lo")->decisions, NT * 200);
    g_mutex_clear(&fork_lock);
    f->api.free(s);
    assert_int_equal(children(NULL, NULL, 0), 0);
    assert_int_equal(count_fds(), fds);
    g_free(p);
}

/* ====================== the whole plugin life in the worker ====================== */

/* Processes of process group pgid that are still running (zombies do not count: they are
 * dead, only not reaped by whoever adopted them). */
static int group_alive(pid_t pgid)
{
    DIR *d = opendir("/proc");
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        char path[300], buf[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *fp = fopen(path, "r");
        if (!fp)
            continue;
        size_t k = fread(buf, 1, sizeof buf - 1, fp);
        fclose(fp);
        buf[k] = '\0';
        char *rp = strrchr(buf, ')');
        char state = 0;
        int ppid = 0, pgrp = 0;
        if (rp && sscanf(rp + 1, " %c %d %d", &state, &ppid, &pgrp) == 3 && pgrp == pgid && state != 'Z')
            n++;
    }
    closedir(d);
    return n;
}

/* Wait up to ms for group_alive(pgid) to be 0; returns what is left. */
static int group_wait_gone(pid_t pgid, int ms)
{
    int n = group_alive(pgid);
    for (int i = 0; n > 0 && i < ms; i += 10) {
        g_usleep(10000);
        n = group_alive(pgid);
    }
    return n;
}

/* A plugin whose constructor segfaults: in process mode the host never loads it, so the
 * config load fails naming the strategy, and a reload that brings it in fails too while the
 * old config runs on. */
static void test_ctor_crash(void **state)
{
    fx *f = *state;
    int fds = count_fds();
    /* a plugin refused at load reads the same in both modes, though only a worker loads it
     * under process isolation */
    static const char *const refused[] = { "bad_abi", "bad_noentry", "bad_size" };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        char msg[2][1024];
        for (int iso = 0; iso < 2; iso++) {
            char *p = cbt_conf_tp(f, PDK_LO "[shim]\nisolation = %s\n[strategy.b]\nplugin = %s\n",
                                  iso ? "process" : "inproc", refused[i]);
            msg[iso][0] = '\0';
            assert_null(f->api.open(p, msg[iso], sizeof msg[iso]));
            /* the same text but for the config file's own name */
            char *at = strstr(msg[iso], ": [strategy.b] plugin: ");
            if (!at)
                fail_msg("%s: \"%s\"", refused[i], msg[iso]);
            memmove(msg[iso], at, strlen(at) + 1);
            g_free(p);
        }
        assert_string_equal(msg[0], msg[1]);
    }
    g_setenv("CB_TEST_CTOR_CRASH", "1", TRUE);
    char *p = cbt_conf_tp(f, PDK_LO PROC "[strategy.bad]\nplugin = ctorcrash\n[seats]\n0 = bad\n1 = lo\n2 = lo\n");
    cbt_expect_open_error(f, p, p, "[strategy.bad]", "plugin crashed while loading", "ctorcrash.so",
                          "signal 11", NULL);
    assert_int_equal(children(NULL, NULL, 0), 0);

    /* a running config, then a reload that would seat it */
    char *good = g_strdup_printf("[shim]\nplugin_dir = %s\nisolation = process\n" PDK_LO
                                 "[seats]\n0 = lo\n1 = lo\n2 = lo\n", f->tplugs);
    cbt_rewrite(p, good);
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL);
    cbt_vb b;
    view_play(&b, f->api.rules(s), 0, H1, NULL);
    cb_decision d = CBT_DEC;
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_OK);
    char *bad = g_strdup_printf("[shim]\nplugin_dir = %s\nisolation = process\n" PDK_LO
                                "[strategy.bad]\nplugin = ctorcrash\n[seats]\n0 = bad\n1 = lo\n2 = lo\n", f->tplugs);
    cbt_rewrite(p, bad);
    char err[1024] = "";
    assert_int_equal(f->api.reload(s, err, sizeof err), -1);
    if (!strstr(err, "[strategy.bad]") || !strstr(err, "plugin crashed while loading"))
        fail_msg("reload error \"%s\"", err);
    /* the old config answers on, at the same generation */
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_OK);
    assert_false(d.flags & CB_DEC_FALLBACK);
    cb_seat_info si = { .struct_size = sizeof si };
    assert_int_equal(f->api.seat_info(t, 0, &si), 0);
    assert_int_equal(si.config_gen, 1);
    assert_string_equal(si.strategy, "lo");
    assert_int_equal(children(NULL, NULL, 0), 3);
    /* the same file, once its constructor behaves: the reload loads it, the seat runs it */
    g_unsetenv("CB_TEST_CTOR_CRASH");
    assert_int_equal(f->api.reload(s, err, sizeof err), 0);
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_OK);
    assert_int_equal(f->api.seat_info(t, 0, &si), 0);
    assert_string_equal(si.strategy, "bad");
    assert_string_equal(si.plugin_name, "ctorcrash"); /* as the worker reported it */
    assert_int_equal(si.config_gen, 2);
    f->api.table_free(t);
    f->api.free(s);
    assert_int_equal(children(NULL, NULL, 0), 0);
    assert_int_equal(count_fds(), fds);
    g_free(good);
    g_free(bad);
    g_free(p);
}

/* A worker is a process group of its own; what its plugin forks dies with it, whether the
 * table ends or the worker crashes. */
static void test_process_group(void **state)
{
    fx *f = *state;
    for (int crash = 0; crash < 2; crash++) {
        char *p = cbt_conf_tp(f, PDK_LO PROC FAULT_BUDGET "fallback = lo\n"
                                 "[strategy.fk]\nplugin = forker\ncrash = %d\n[seats]\n0 = fk\n1 = lo\n2 = lo\n", crash);
        cb_shim *s = cbt_open_ok(f, p);
        cb_table *t = cbt_table_ok(f, s, NULL);
        pid_t w[4];
        assert_int_equal(children("cbw-fk", w, 4), 1);
        assert_int_equal(getpgid(w[0]), w[0]); /* its own group, not the host's */
        assert_true(getpgid(w[0]) != getpgrp());
        cbt_vb b;
        view_play(&b, f->api.rules(s), 0, H1, NULL);
        cb_decision d = CBT_DEC;
        int rc = f->api.decide_play(t, &b.v, &d);
        cbt_assert_legal(&b.v, &d);
        if (!crash) {
            assert_int_equal(rc, CB_OK);
            pid_t kid = (pid_t)d.nodes;
            assert_true(kid > 0);
            assert_int_equal(getpgid(kid), w[0]); /* the plugin's child is in the group */
            assert_int_equal(group_alive(w[0]), 2);
            f->api.table_free(t);
        } else {
            /* the worker died after forking: the decision reaped it, and its group with it */
            assert_int_equal(rc, CB_FB_CRASHED);
            assert_non_null(strstr(d.explain, "SIGSEGV"));
        }
        int left = group_wait_gone(w[0], 3000);
        if (left)
            kill(-w[0], SIGKILL); /* leave nothing behind, even failing */
        if (crash)
            f->api.table_free(t);
        f->api.free(s);
        assert_int_equal(left, 0);
        assert_int_equal(children(NULL, NULL, 0), 0);
        g_free(p);
    }
}

/* Run the built cardbot with args (NULL-terminated); its exit status, stdout and stderr. */
static int run_cardbot(fx *f, char **out, char **err, ...)
{
    GPtrArray *av = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(av, g_build_filename(f->build, "cardbot", NULL));
    va_list ap;
    va_start(ap, err);
    for (const char *a; (a = va_arg(ap, const char *));)
        g_ptr_array_add(av, g_strdup(a));
    va_end(ap);
    g_ptr_array_add(av, NULL);
    int status = -1;
    GError *ge = NULL;
    if (!g_spawn_sync(NULL, (char **)av->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, out, err, &status, &ge))
        fail_msg("spawn cardbot: %s", ge->message);
    g_ptr_array_free(av, TRUE);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* What a plugin prints on stdout never reaches the host's stdout (it goes to the host's
 * stderr): here the test's own descriptor 1 is a pipe while process-mode tables play, and
 * nothing of the plugin's may come out of it; and cardbot match's results stay clean. */
static void test_stdout(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, PDK_LO "[rules]\nbao = true\n" PROC "[strategy.pr]\nplugin = printer\n"
                             "[seats]\n0 = pr\n1 = lo\n2 = pr\n");
    fflush(stdout);
    int saved = dup(1), pp[2];
    assert_true(saved >= 0);
    assert_int_equal(pipe(pp), 0);
    assert_int_equal(dup2(pp[1], 1), 1);
    close(pp[1]);
    char err[1024] = "";
    int decisions = 0, bad = 0;
    cb_shim *s = f->api.open(p, err, sizeof err);
    cb_table *t = s ? f->api.table_new(s, NULL, err, sizeof err) : NULL;
    if (t) {
        const cb_rules *r = f->api.rules(s);
        cb_engine *e = cbt_engine(r, 31337, -1);
        while (cb_engine_phase(e) != CB_PHASE_OVER && decisions < 200) {
            cb_view v;
            cbt_engine_view(e, &v);
            cb_decision d = CBT_DEC;
            bool bid = v.phase == CB_PHASE_BID;
            int rc = bid ? f->api.decide_bid(t, &v, &d) : f->api.decide_play(t, &v, &d);
            bad += rc != CB_OK;
            decisions++;
            if ((bid ? cb_engine_bid(e, d.bid, err, sizeof err) : cb_engine_play(e, d.cards, err, sizeof err)) != 0)
                break;
        }
        cb_engine_free(e);
        f->api.table_free(t);
    }
    if (s)
        f->api.free(s);
    /* the host's stdout back, then what came through the pipe (every writer is gone) */
    fflush(stdout);
    assert_int_equal(dup2(saved, 1), 1);
    close(saved);
    GString *got = g_string_new(NULL);
    char buf[4096];
    ssize_t k;
    while ((k = read(pp[0], buf, sizeof buf)) > 0)
        g_string_append_len(got, buf, k);
    close(pp[0]);
    if (!t)
        fail_msg("%s", err);
    assert_true(decisions >= 10);
    assert_int_equal(bad, 0);
    if (strstr(got->str, "PRINTER"))
        fail_msg("a plugin's output on the host's stdout: %.200s", got->str);
    g_string_free(got, TRUE);

    char *out = NULL, *cerr = NULL;
    int rc = run_cardbot(f, &out, &cerr, "match", "--config", p, "--games", "3", "--seed", "5", "--quiet", NULL);
    if (rc != 0)
        fail_msg("cardbot match: exit %d: %s", rc, cerr);
    assert_non_null(strstr(out, "Fallbacks pr"));
    if (strstr(out, "PRINTER"))
        fail_msg("a plugin's output in cardbot match's results:\n%s", out);
    assert_non_null(strstr(cerr, "PRINTER-STDOUT write play")); /* on stderr instead */
    g_free(out);
    g_free(cerr);
    g_free(p);
}

/* Whole pdk16 games with 包庄 through table t: every answer legal (the engine takes it),
 * return codes counted by reason in rcs. Returns the number of decisions. */
static int play_games(fx *f, cb_table *t, const cb_rules *r, int ngames, uint64_t key,
                      int rcs[CB_FB_NREASONS], void (*check)(const cb_decision *, void *), void *ctx)
{
    int total = 0;
    char err[160];
    for (int g = 0; g < ngames; g++) {
        cb_engine *e = cbt_engine(r, key + (uint64_t)g, -1);
        while (cb_engine_phase(e) != CB_PHASE_OVER) {
            cb_view v;
            cbt_engine_view(e, &v);
            cb_decision d = CBT_DEC;
            bool bid = v.phase == CB_PHASE_BID;
            int rc = bid ? f->api.decide_bid(t, &v, &d) : f->api.decide_play(t, &v, &d);
            if (rc < 0 || rc >= CB_FB_NREASONS)
                fail_msg("game %d decision %d: %d (%s)", g, total, rc, f->api.last_error(t));
            rcs[rc]++;
            if (check)
                check(&d, ctx);
            total++;
            if ((bid ? cb_engine_bid(e, d.bid, err, sizeof err) : cb_engine_play(e, d.cards, err, sizeof err)) != 0)
                fail_msg("game %d decision %d: the engine refuses the answer: %s", g, total, err);
        }
        cb_engine_free(e);
    }
    return total;
}

/* [shim] worker_memory_mb: a plugin that allocates without bound dies at the limit (counted
 * crashed), the fallback answers, the games end; worker_cpu_s: a spinning plugin dies of
 * SIGXCPU. Both keys are process-only. */
static void test_limits(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, PDK_LO "[rules]\nbao = true\n[shim]\nworker_memory_mb = 64\n"
                             "[strategy.hog]\nplugin = memhog\n[seats]\n0 = hog\n");
    cbt_expect_open_error(f, p, p, "[shim] worker_memory_mb", "isolation = process", NULL);
    g_free(p);
    p = cbt_conf_tp(f, PDK_LO PROC "worker_cpu_s = soon\n");
    cbt_expect_open_error(f, p, p, "[shim] worker_cpu_s", "'soon'", NULL);
    g_free(p);

    /* a budget far above what dying takes, even under ASan: a death, never a late answer */
    p = cbt_conf_tp(f, PDK_LO "[rules]\nbao = true\n" PROC "worker_memory_mb = 64\nbudget_ms = 60000\nfallback = lo\n"
                       "[strategy.hog]\nplugin = memhog\n[seats]\n0 = hog\n1 = lo\n2 = lo\n");
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL);
    int rcs[CB_FB_NREASONS] = { 0 };
    int n = play_games(f, t, f->api.rules(s), 2, 777, rcs, NULL, NULL);
    cb_strategy_stats st[4];
    int k = f->api.stats(s, st, 4);
    const cb_strategy_stats *h = cbt_stat_of(st, k, "hog");
    printf("    memhog under worker_memory_mb = 64: %d decisions, %llu of its own: %llu crashed, "
           "%llu backing off\n", n, (unsigned long long)h->decisions,
           (unsigned long long)h->fallbacks[CB_FB_CRASHED], (unsigned long long)h->fallbacks[CB_FB_NO_PLUGIN]);
    assert_true(h->decisions >= 10);
    assert_true(h->fallbacks[CB_FB_CRASHED] >= 2);
    /* every one of its decisions failed, none was late: the limit ended it at once */
    assert_int_equal(h->fallbacks[CB_FB_CRASHED] + h->fallbacks[CB_FB_NO_PLUGIN], h->decisions);
    assert_int_equal(cbt_stat_of(st, k, "lo")->fallbacks[CB_FB_CRASHED], 0);
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);

    /* budget far above the CPU limit: the worker dies of SIGXCPU, not of the deadline */
    p = cbt_conf_tp(f, PDK_LO PROC "worker_cpu_s = 1\nbudget_ms = 60000\n"
                       "[strategy.spin]\nplugin = hang\nmode = spin\n[seats]\n0 = spin\n1 = lo\n2 = lo\n");
    s = cbt_open_ok(f, p);
    t = cbt_table_ok(f, s, NULL);
    cbt_vb b;
    view_play(&b, f->api.rules(s), 0, H1, NULL);
    cb_decision d = CBT_DEC;
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_FB_CRASHED);
    if (!strstr(d.explain, "SIGXCPU") && !strstr(d.explain, "SIGKILL"))
        fail_msg("explanation \"%s\"", d.explain);
    cbt_assert_legal(&b.v, &d);
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);
    assert_int_equal(children(NULL, NULL, 0), 0);
}

typedef struct escape_tally {
    int decisions, attempts, through;
} escape_tally;

static void escape_check(const cb_decision *d, void *ctx)
{
    escape_tally *x = ctx;
    x->decisions++;
    x->attempts += (int)d->simulations;
    x->through += (int)d->nodes;
    if (d->simulations != 6 || d->nodes != 0 ||
        !strstr(d->explain, "cmdline=EPERM passwd=EPERM fork=EPERM exec=EPERM socket=EPERM connect=EPERM"))
        fail_msg("not refused: \"%s\" (%llu attempts, %llu through)", d->explain,
                 (unsigned long long)d->simulations, (unsigned long long)d->nodes);
}

/* [shim] sandbox = on: every escape the plugin tries fails with EPERM (it says so in its
 * answer), its answers are legal and its own; real plugins answer as they do in-process. */
static void test_sandbox(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, PDK_LO "[shim]\nsandbox = on\n");
    cbt_expect_open_error(f, p, p, "[shim] sandbox", "isolation = process", NULL);
    g_free(p);
    p = cbt_conf_tp(f, PDK_LO PROC "sandbox = maybe\n");
    cbt_expect_open_error(f, p, p, "[shim] sandbox", "'maybe'", "on or off", NULL);
    g_free(p);

    /* without the sandbox the plugin does get out: the test plugin really tries */
    p = cbt_conf_tp(f, PDK_LO PROC "[strategy.esc]\nplugin = escape\n[seats]\n0 = esc\n1 = lo\n2 = lo\n");
    cb_shim *s = cbt_open_ok(f, p);
    cb_table *t = cbt_table_ok(f, s, NULL);
    cbt_vb b;
    view_play(&b, f->api.rules(s), 0, H1, NULL);
    cb_decision d = CBT_DEC;
    assert_int_equal(f->api.decide_play(t, &b.v, &d), CB_OK);
    if (d.simulations != 6 || d.nodes < 3 || !strstr(d.explain, "passwd=0") || !strstr(d.explain, "fork=0"))
        fail_msg("unsandboxed: \"%s\"", d.explain);
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);

    /* with it: refused every time, and the games go on with the plugin's own legal answers */
    p = cbt_conf_tp(f, PDK_LO "[rules]\nbao = true\n" PROC "sandbox = on\n"
                       "[strategy.esc]\nplugin = escape\n[seats]\n0 = esc\n1 = esc\n2 = esc\n");
    s = cbt_open_ok(f, p);
    t = cbt_table_ok(f, s, NULL);
    int rcs[CB_FB_NREASONS] = { 0 };
    escape_tally x = { 0, 0, 0 };
    int n = play_games(f, t, f->api.rules(s), 3, 4242, rcs, escape_check, &x);
    printf("    sandbox: %d decisions, %d escape attempts, %d got through\n", n, x.attempts, x.through);
    assert_int_equal(rcs[CB_OK], n);
    assert_int_equal(x.attempts, 6 * n);
    assert_int_equal(x.through, 0);
    assert_int_equal(children(NULL, NULL, 0), 3); /* no worker died for it */
    f->api.table_free(t);
    f->api.free(s);
    g_free(p);
    assert_int_equal(children(NULL, NULL, 0), 0);

    /* the real plugins under the sandbox (this build's, found by base name next to the shim
     * library): heuristic gives its in-process answers exactly; ismcts with two search
     * threads (clone) answers every decision itself */
    char *so = g_build_filename(f->build, "plugins", "heuristic.so", NULL);
    char *ism = g_build_filename(f->build, "plugins", "ismcts.so", NULL);
    if (g_file_test(so, G_FILE_TEST_EXISTS)) {
        char *pa = cbt_conf_tp(f, "[game]\nrules = pdk16\n[rules]\nbao = true\n[shim]\nbudget_ms = 60000\n"
                                  "[strategy.x]\nplugin = heuristic\nlevel = 6\n[seats]\n0 = x\n1 = x\n2 = x\n");
        char *pb = cbt_conf_tp(f, "[game]\nrules = pdk16\n[rules]\nbao = true\n" PROC "budget_ms = 60000\n"
                                  "sandbox = on\n[strategy.x]\nplugin = heuristic\nlevel = 6\n"
                                  "[seats]\n0 = x\n1 = x\n2 = x\n");
        cb_shim *sa = cbt_open_ok(f, pa), *sb = cbt_open_ok(f, pb);
        cb_table *ta = cbt_table_ok(f, sa, NULL), *tb = cbt_table_ok(f, sb, NULL);
        int k = compare_games(f, ta, tb, f->api.rules(sa), 4, 99u);
        printf("    sandbox: heuristic, %d decisions identical to in-process\n", k);
        f->api.table_free(ta);
        f->api.table_free(tb);
        f->api.free(sa);
        f->api.free(sb);
        g_free(pa);
        g_free(pb);
    }
    if (g_file_test(ism, G_FILE_TEST_EXISTS)) {
        p = cbt_conf_tp(f, "[game]\nrules = pdk16\n[rules]\nbao = true\n" PROC "budget_ms = 60000\n"
                           "sandbox = on\n[strategy.m]\nplugin = ismcts\niterations = 200\nthreads = 2\n"
                           "[seats]\n0 = m\n1 = m\n2 = m\n");
        s = cbt_open_ok(f, p);
        t = cbt_table_ok(f, s, NULL);
        int r2[CB_FB_NREASONS] = { 0 };
        n = play_games(f, t, f->api.rules(s), 1, 5150, r2, NULL, NULL);
        printf("    sandbox: ismcts (2 threads), %d decisions, %d its own\n", n, r2[CB_OK]);
        assert_int_equal(r2[CB_OK], n);
        f->api.table_free(t);
        f->api.free(s);
        g_free(p);
    }
    g_free(so);
    g_free(ism);
    assert_int_equal(children(NULL, NULL, 0), 0);
}

/* A summary without its timing lines. */
static char *strip_timing(const char *text)
{
    GString *o = g_string_new(NULL);
    char **lines = g_strsplit(text, "\n", -1);
    for (char **l = lines; *l; l++)
        if (!g_str_has_prefix(*l, "timing"))
            g_string_append_printf(o, "%s\n", *l);
    g_strfreev(lines);
    return g_string_free(o, FALSE);
}

/* A plugin that crashes on some seeds (a function of the view alone): the match is the same
 * at any concurrency — summaries (timing aside) and replays — though each thread's table sees
 * other games before a given one: the restart back-off starts afresh with every game. */
static void test_concurrency_faulty(void **state)
{
    fx *f = *state;
    char *p = cbt_conf_tp(f, PDK_LO PROC "fallback = lo\n[strategy.sc]\nplugin = seedcrash\nrate = 15\n"
                             "[seats]\n0 = sc\n1 = lo\n2 = sc\n");
    static const char *const js[] = { "1", "2", "4" };
    char *sum[3], *rep[3];
    for (int i = 0; i < 3; i++) {
        char name[32];
        snprintf(name, sizeof name, "seedcrash-j%s.jsonl", js[i]);
        char *rp = g_build_filename(f->tmp, name, NULL);
        char *out = NULL, *err = NULL;
        int rc = run_cardbot(f, &out, &err, "match", "--config", p, "--games", "40", "--seed", "3",
                             "--concurrency", js[i], "--replay", rp, "--quiet", NULL);
        if (rc != 0)
            fail_msg("cardbot match -j%s: exit %d: %s", js[i], rc, err);
        sum[i] = strip_timing(out);
        gsize len = 0;
        assert_true(g_file_get_contents(rp, &rep[i], &len, NULL));
        g_unlink(rp);
        g_free(rp);
        g_free(out);
        g_free(err);
    }
    const char *fb = strstr(sum[0], "Fallbacks sc");
    assert_non_null(fb);
    char *line = g_strndup(fb, strcspn(fb, "\n"));
    printf("    %s\n", line);
    assert_null(strstr(line, "crashed=0 ")); /* it did crash */
    g_free(line);
    for (int i = 1; i < 3; i++) {
        if (strcmp(sum[0], sum[i]) != 0)
            fail_msg("-j1 and -j%s summaries differ:\n%s\n---\n%s", js[i], sum[0], sum[i]);
        if (strcmp(rep[0], rep[i]) != 0)
            fail_msg("-j1 and -j%s replays differ", js[i]);
    }
    for (int i = 0; i < 3; i++) {
        g_free(sum[i]);
        g_free(rep[i]);
    }
    g_free(p);
}

int main(void)
{
    /* replay headers carry the date: one fixed date, so two runs' replays compare byte for byte */
    g_setenv("SOURCE_DATE_EPOCH", "1700000000", TRUE);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_config),
        cmocka_unit_test(test_table_create_fails),
        cmocka_unit_test(test_faults_no_fallback),
        cmocka_unit_test(test_faults_fallback_lowest),
        cmocka_unit_test(test_answer_faults),
        cmocka_unit_test(test_restart),
        cmocka_unit_test(test_backoff),
        cmocka_unit_test(test_slow),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_idle_death),
        cmocka_unit_test(test_same_answers_lowest),
        cmocka_unit_test(test_same_answers_heuristic),
        cmocka_unit_test(test_whole_view),
        cmocka_unit_test(test_no_leaks),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_ctor_crash),
        cmocka_unit_test(test_process_group),
        cmocka_unit_test(test_stdout),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_sandbox),
        cmocka_unit_test(test_concurrency_faulty),
    };
    return cmocka_run_group_tests(tests, group_setup, cbt_shimfix_teardown);
}

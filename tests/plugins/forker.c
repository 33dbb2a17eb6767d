/* Test plugin "forker": at its first play decision it forks a child that sleeps (up to 30 s,
 * then exits by itself) and reports the child's pid in the decision's nodes, then answers
 * like "lowest" — or, with crash = 1, segfaults right after the fork. For the tests that a
 * worker's stop (table freed, restart after a crash) takes every process of its group with
 * it (isolation = process only: in-process the child would be the host's). Parameters:
 *   crash = 0|1   segfault after forking (default 0) */
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "tplug.h"

static void *create(const cb_param *params, int n, char *err, size_t errlen)
{
    tplug t = { 0 };
    for (int i = 0; i < n; i++) {
        long x;
        if (strcmp(params[i].key, "crash") == 0) {
            if (tplug_int("forker", &params[i], 0, 1, &x, err, errlen) != 0)
                return NULL;
            t.mode = (int)x;
        } else {
            tplug_unknown("forker", &params[i], err, errlen);
            return NULL;
        }
    }
    tplug *p = malloc(sizeof *p);
    if (p)
        *p = t;
    return p;
}

static void destroy(void *inst) { free(inst); }

static int decide_bid(void *inst, const cb_view *v, cb_decision *out)
{
    (void)inst;
    (void)v;
    out->bid = 0;
    return 0;
}

static int decide_play(void *inst, const cb_view *v, cb_decision *out)
{
    tplug *t = inst;
    if (t->calls++ == 0) {
        pid_t pid = fork();
        if (pid == 0) {
            for (int i = 0; i < 300; i++) {
                struct timespec ts = { 0, 100000000 };
                nanosleep(&ts, NULL);
            }
            _exit(0);
        }
        out->nodes = pid > 0 ? (uint64_t)pid : 0;
        snprintf(out->explain, sizeof out->explain, "forker: child %d", (int)pid);
        if (t->mode) {
            volatile uintptr_t addr = 16; /* a plain SIGSEGV (see crash.c) */
            *(volatile int *)addr = 1;
        }
    }
    return tplug_lowest(v, &out->cards);
}

static const cb_bot bot = {
    CB_ABI_VERSION, sizeof(cb_bot), "forker", "1.0", create, destroy, decide_bid, decide_play,
};
TPLUG_ENTRY(bot)

/* cardbot shim — process isolation ([shim] isolation = process): private to the shim.
 *
 * Each plugin instance (one per table seat, plus the fallback's) lives in a worker process
 * forked from the host after the plugin was dlopen'd: the child calls the plugin's create()
 * with the strategy's parameters, says hello, and then answers one request at a time over a
 * socketpair. The parent writes a request, waits with poll() until the deadline, reads the
 * reply. A segfault, an abort, an endless loop or a leak stays in the worker.
 *
 * This header holds the wire format too (the fault plugin tests/plugins/garbage.c forges
 * frames with it), so it includes no glib and nothing of shim_int.h.
 *
 * Wire format (host byte order and struct layouts of this very build: both ends are the same
 * program image, so raw struct copies are exact):
 *   every frame  = shim_wire_hdr + len payload bytes
 *   request      = hdr{type BID or PLAY, seq} + shim_wire_req + view.nhistory cb_play_rec
 *   reply        = hdr{type DECISION, seq of its request} + shim_wire_rep
 *   hello        = hdr{type HELLO, seq 0} + shim_wire_hello (the child, once create() ran)
 * Sequence numbers grow per worker object (across restarts); the first request is seq 1.
 */
#ifndef CARDBOT_SHIM_PROCESS_H
#define CARDBOT_SHIM_PROCESS_H

#include <stddef.h>
#include <stdint.h>

#include "cardbot/bot.h"

#define SHIM_WIRE_MAGIC 0x43425731u /* "CBW1" */

enum {
    SHIM_WIRE_BID = 1,      /* request: decide_bid */
    SHIM_WIRE_PLAY = 2,     /* request: decide_play */
    SHIM_WIRE_DECISION = 3, /* reply to a request */
    SHIM_WIRE_HELLO = 4,    /* the child's first frame: create() done (or failed) */
};

typedef struct shim_wire_hdr {
    uint32_t magic;
    uint32_t type;
    uint64_t seq;
    uint32_t len;  /* payload bytes after this header */
    uint32_t pad;
} shim_wire_hdr;

/* The whole view as the shim hands it to an in-process plugin — already upgraded to this
 * build's cb_view (struct_size = sizeof(cb_view)), every member of every ABI minor, ABI 1.1's
 * first_bidder included — and the rules by value. Its two pointers, view.rules and
 * view.history, travel as NULL and the child points them at its own copies (history NULL
 * when nhistory is 0), so the plugin reads the same values in both isolation modes. */
typedef struct shim_wire_req {
    cb_view view;
    cb_rules rules;
} shim_wire_req;

typedef struct shim_wire_rep {
    int32_t rc;    /* what decide_* returned */
    uint32_t pad;
    uint64_t ns;   /* the plugin's own time inside the worker (for the curious; unused) */
    cb_decision dec;
} shim_wire_rep;

typedef struct shim_wire_hello {
    int32_t ok;    /* 1: create() returned an instance; 0: it refused (err says why) */
    int32_t pid;
    char err[512];
} shim_wire_hello;

#ifndef SHIM_PROCESS_WIRE_ONLY

#pragma GCC visibility push(hidden)

struct shim_conf;
typedef struct shim_worker shim_worker;

/* Start a worker for strategy s of conf c (borrowed: the caller keeps c alive while the
 * worker lives): fork, create() in the child, wait for its hello. On failure NULL and
 * "FILE: [strategy.NAME]: message" in err, the child reaped. */
shim_worker *shim_worker_new(const struct shim_conf *c, int s, char *err, size_t errlen);
/* Stop the worker (close its socket, a short grace, SIGKILL) and reap it. NULL is fine. */
void shim_worker_free(shim_worker *w);
/* Check strategy s's parameters the way a table would create it, in a worker. 0, or -1 and a
 * message as shim_worker_new's. */
int shim_worker_check(const struct shim_conf *c, int s, char *err, size_t errlen);

/* Ask the worker for one decision (phase CB_PHASE_BID or CB_PHASE_PLAY) on v, whose budget_ms
 * is the final one. Returns
 *   CB_OK            d holds the plugin's answer, *prc what its decide_* returned;
 *   CB_FB_LATE       no reply by the deadline (budget + margin): the worker was killed;
 *   CB_FB_CRASHED    the worker died, or broke the protocol (then it was killed);
 *   CB_FB_NO_PLUGIN  no worker: restarts are backing off, or the restart's create() refused;
 * with why saying what happened and *ns the time the host waited (restart time excluded).
 * A worker that is gone is restarted at a later decision (see shim_process.c: back-off). */
int shim_worker_decide(shim_worker *w, const cb_view *v, int phase, cb_decision *d, int *prc,
                       uint64_t *ns, char *why, size_t whylen);

#pragma GCC visibility pop

#endif /* SHIM_PROCESS_WIRE_ONLY */
#endif

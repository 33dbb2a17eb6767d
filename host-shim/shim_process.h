/* cardbot shim — process isolation ([shim] isolation = process): private to the shim.
 *
 * Each plugin instance (one per table seat, plus the fallback's) lives in a worker process
 * forked from the host. The host never loads a plugin in this mode: the child loads it (from
 * the bytes the config read, see shim_loader.c), checks its entry point and ABI, reports what
 * it loaded, calls create() with the strategy's parameters, installs the sandbox when the
 * config asks for one, says hello, and then answers one request at a time over a socketpair.
 * The parent writes a request, waits with poll() until the deadline, reads the reply. A
 * segfault, an abort, an endless loop or a leak — in a constructor, in create() or in a
 * decision — stays in the worker.
 *
 * This header holds the wire format too (the fault plugin tests/plugins/garbage.c forges
 * frames with it), so it includes no glib and nothing of shim_int.h.
 *
 * Wire format (host byte order and struct layouts of this very build: both ends are the same
 * program image, so raw struct copies are exact):
 *   every frame  = shim_wire_hdr + len payload bytes
 *   loaded       = hdr{type LOADED, seq 0} + shim_wire_loaded (the child, once the plugin is
 *                  loaded and checked, or refused)
 *   hello        = hdr{type HELLO, seq 0} + shim_wire_hello (the child, once create() ran)
 *   request      = hdr{type BID or PLAY, seq} + shim_wire_req + view.nhistory cb_play_rec
 *   reply        = hdr{type DECISION, seq of its request} + shim_wire_rep
 * Sequence numbers grow per worker object (across restarts); the first request is seq 1.
 */
#ifndef CARDBOT_SHIM_PROCESS_H
#define CARDBOT_SHIM_PROCESS_H

#include <stddef.h>
#include <stdint.h>

#include "cardbot/bot.h"

#define SHIM_WIRE_MAGIC 0x43425731u /* "CBW1" */
#define SHIM_MAX_FRAME (1u << 30) /* payload bytes a frame may announce, either way */

enum {
    SHIM_WIRE_BID = 1,      /* request: decide_bid */
    SHIM_WIRE_PLAY = 2,     /* request: decide_play */
    SHIM_WIRE_DECISION = 3, /* reply to a request */
    SHIM_WIRE_HELLO = 4,    /* the child's second frame: create() done (or failed) */
    SHIM_WIRE_LOADED = 5,   /* the child's first frame: the plugin loaded (or refused) */
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

/* The worker's decoding of a request (shim_wire.c, pure): 0 when the header announces a
 * request this shim sends (magic, BID or PLAY, a length of one shim_wire_req plus whole
 * history records, at most SHIM_MAX_FRAME); then shim_wire_req_view fills *v from the h->len
 * payload bytes (suitably aligned), its rules and history pointing into payload, and refuses a
 * view whose nhistory or struct_size disagrees with the frame. -1: not a request. */
int shim_wire_req_header_ok(const shim_wire_hdr *h);
int shim_wire_req_view(const shim_wire_hdr *h, const unsigned char *payload, cb_view *v);

typedef struct shim_wire_rep {
    int32_t rc;    /* what decide_* returned */
    uint32_t pad;
    uint64_t ns;   /* the plugin's own time inside the worker (for the curious; unused) */
    cb_decision dec;
} shim_wire_rep;

/* What the worker loaded: the cb_bot as the host reports it (cb_seat_info) and calls it. */
typedef struct shim_wire_loaded {
    int32_t ok;           /* 1: loaded and checked; 0: refused (err says why, as in-process) */
    uint32_t abi_version;
    int32_t has_bid;      /* decide_bid is not NULL */
    int32_t from_copy;    /* 1: from the config's copy of the bytes, 0: by the path */
    char name[128];       /* cb_bot.name, cut to fit */
    char version[128];
    char err[512];
} shim_wire_loaded;

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
 * worker lives): fork, load the plugin and create() in the child, wait for its hello. On
 * failure NULL and "FILE: [strategy.NAME] plugin: message" (the plugin did not load: refused,
 * or crashed while loading) or "FILE: [strategy.NAME]: message" (create() refused or died) in
 * err, the child reaped. */
shim_worker *shim_worker_new(const struct shim_conf *c, int s, char *err, size_t errlen);
/* Stop the worker (close its socket, a short grace, SIGKILL to its process group) and reap
 * it. NULL is fine. */
void shim_worker_free(shim_worker *w);
/* Check strategy s the way a table would create it, in a short-lived worker: the plugin's
 * load, entry point and ABI, then create() with its parameters. A plugin not described yet
 * (shim_plugin_read) is described from what the worker loaded. 0, or -1 and a message as
 * shim_worker_new's. */
int shim_worker_check(const struct shim_conf *c, int s, char *err, size_t errlen);
/* A new game starts at the worker's table: forget the restart back-off, so that which
 * decisions of a game a failing plugin misses depends on that game alone (shim.c). */
void shim_worker_new_game(shim_worker *w);

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

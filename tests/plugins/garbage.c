/* Test plugin "garbage": writes onto the worker's reply channel behind the shim's back, for
 * the process isolation tests (the channel is the socket a worker holds; the frame layout is
 * the shim's private wire format, shim_process.h). Parameter mode:
 *   stale (default)  before each answer, a well-formed reply to an old request (seq 0) that
 *                    plays the whole hand; the shim must drop it and use the real answer,
 *                    which is "lowest"'s
 *   bytes            40 bytes of junk (a broken frame header): the worker is killed
 *   length           a header with the right magic and a wrong payload length: killed
 * Outside a worker (a process not named "cbw-*", i.e. isolation = inproc) it writes nothing
 * and only answers like "lowest", so it cannot corrupt a host's own sockets. */
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "tplug.h"
#define SHIM_PROCESS_WIRE_ONLY
#include "../../host-shim/shim_process.h"

enum { G_STALE, G_BYTES, G_LENGTH };

static void *create(const cb_param *params, int n, char *err, size_t errlen)
{
    tplug t = { .mode = G_STALE };
    for (int i = 0; i < n; i++) {
        if (strcmp(params[i].key, "mode") != 0) {
            tplug_unknown("garbage", &params[i], err, errlen);
            return NULL;
        }
        const char *m = params[i].value;
        if (strcmp(m, "stale") == 0)
            t.mode = G_STALE;
        else if (strcmp(m, "bytes") == 0)
            t.mode = G_BYTES;
        else if (strcmp(m, "length") == 0)
            t.mode = G_LENGTH;
        else {
            snprintf(err, errlen, "garbage: mode: bad value '%s' (stale, bytes, length)", m);
            return NULL;
        }
    }
    tplug *p = malloc(sizeof *p);
    if (p)
        *p = t;
    return p;
}

static void destroy(void *inst) { free(inst); }

/* The reply socket of this worker, or -1 when not in one. */
static int channel(void)
{
    char name[17] = "";
    if (prctl(PR_GET_NAME, name, 0, 0, 0) != 0 || strncmp(name, "cbw-", 4) != 0)
        return -1;
    for (int fd = 3; fd < 256; fd++) {
        struct stat st;
        if (fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode))
            return fd;
    }
    return -1;
}

static void spoil(const tplug *t, const cb_view *v)
{
    int fd = channel();
    if (fd < 0)
        return;
    if (t->mode == G_BYTES) {
        unsigned char junk[40];
        memset(junk, 0xAB, sizeof junk);
        (void)send(fd, junk, sizeof junk, MSG_NOSIGNAL);
        return;
    }
    struct {
        shim_wire_hdr h;
        shim_wire_rep r;
    } f;
    memset(&f, 0, sizeof f);
    f.h.magic = SHIM_WIRE_MAGIC;
    f.h.type = SHIM_WIRE_DECISION;
    f.h.seq = 0;
    f.h.len = t->mode == G_LENGTH ? 7 : (uint32_t)sizeof f.r;
    f.r.dec.struct_size = sizeof f.r.dec;
    f.r.dec.cards = v->hand;
    f.r.dec.bid = 3;
    (void)send(fd, &f, sizeof f, MSG_NOSIGNAL);
}

static int decide_bid(void *inst, const cb_view *v, cb_decision *out)
{
    spoil(inst, v);
    out->bid = 0;
    return 0;
}

static int decide_play(void *inst, const cb_view *v, cb_decision *out)
{
    spoil(inst, v);
    return tplug_lowest(v, &out->cards);
}

static const cb_bot bot = {
    CB_ABI_VERSION, sizeof(cb_bot), "garbage", "1.0", create, destroy, decide_bid, decide_play,
};
TPLUG_ENTRY(bot)

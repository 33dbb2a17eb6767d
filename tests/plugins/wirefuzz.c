/* Test plugin "wirefuzz": the fuzz target tests/fuzz/fuzz_wire.c's hand inside a worker. Before
 * each answer it reads the file named by its parameter `file` (the target rewrites it per input)
 * and writes onto the worker's reply channel behind the shim's back — the host's reply decoder
 * (shim_process.c) is the code under test. The file:
 *   byte 0       what to do (below)
 *   bytes 1..8   the sequence number of the request being answered (the target counts them)
 *   the rest     the body
 * what to do, byte 0 % 5:
 *   0  send the body as raw bytes, then answer like "lowest"
 *   1  send the body, then _exit(0): the reply never comes
 *   2  forge one reply frame from the body (below), send it, then answer like "lowest"
 *   3  forge one, then _exit(0): the forged frame is all the host gets
 *   4  send the body, then sleep past the deadline (the target's budget is 10 ms)
 * A forged frame: magic, type = body[0] % 6, seq = the request's + (int8_t)body[1], length =
 * body[2] ? body[2] * 4 : the right one; its payload (as much of a shim_wire_rep as the length
 * says) comes from the rest of the body, the decision's cards masked to the view's hand when
 * body[3] is odd.
 * Outside a worker (a process not named "cbw-*") it writes nothing and answers like "lowest". */
#include <fcntl.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tplug.h"
#define SHIM_PROCESS_WIRE_ONLY
#include "../../host-shim/shim_process.h"

typedef struct wf {
    char file[512];
} wf;

static void *create(const cb_param *params, int n, char *err, size_t errlen)
{
    wf *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    for (int i = 0; i < n; i++) {
        if (strcmp(params[i].key, "file") != 0) {
            tplug_unknown("wirefuzz", &params[i], err, errlen);
            free(w);
            return NULL;
        }
        snprintf(w->file, sizeof w->file, "%s", params[i].value);
    }
    return w;
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

static void send_all(int fd, const void *p, size_t n)
{
    const unsigned char *b = p;
    while (n > 0) {
        ssize_t k = send(fd, b, n, MSG_NOSIGNAL);
        if (k <= 0)
            return;
        b += k;
        n -= (size_t)k;
    }
}

static void meddle(const wf *w, const cb_view *v)
{
    int fd = channel();
    if (fd < 0 || !w->file[0])
        return;
    unsigned char in[4096];
    int f = open(w->file, O_RDONLY);
    if (f < 0)
        return;
    ssize_t n = read(f, in, sizeof in);
    close(f);
    if (n < 9)
        return;
    int what = in[0] % 5;
    uint64_t seq;
    memcpy(&seq, in + 1, sizeof seq);
    const unsigned char *body = in + 9;
    size_t nb = (size_t)n - 9;
    if (what == 2 || what == 3) {
        struct {
            shim_wire_hdr h;
            shim_wire_rep r;
        } fr;
        memset(&fr, 0, sizeof fr);
        unsigned char b4[4] = {0, 0, 0, 0};
        memcpy(b4, body, nb < 4 ? nb : 4);
        size_t rest = nb > 4 ? nb - 4 : 0;
        memcpy(&fr.r, body + (nb > 4 ? 4 : nb), rest < sizeof fr.r ? rest : sizeof fr.r);
        fr.h.magic = SHIM_WIRE_MAGIC;
        fr.h.type = b4[0] % 6;
        fr.h.seq = seq + (uint64_t)(int64_t)(int8_t)b4[1];
        fr.h.len = b4[2] ? (uint32_t)b4[2] * 4u : (uint32_t)sizeof fr.r;
        if (b4[3] & 1)
            fr.r.dec.cards &= v->hand;
        size_t len = sizeof fr.h + (fr.h.len < sizeof fr.r ? fr.h.len : sizeof fr.r);
        send_all(fd, &fr, len);
    } else {
        send_all(fd, body, nb);
    }
    if (what == 1 || what == 3)
        _exit(0);
    if (what == 4) {
        struct timespec ts = {0, 60 * 1000000L};
        nanosleep(&ts, NULL);
    }
}

static int decide_bid(void *inst, const cb_view *v, cb_decision *out)
{
    meddle(inst, v);
    out->bid = 0;
    return 0;
}

static int decide_play(void *inst, const cb_view *v, cb_decision *out)
{
    meddle(inst, v);
    return tplug_lowest(v, &out->cards);
}

static const cb_bot bot = {
    CB_ABI_VERSION, sizeof(cb_bot), "wirefuzz", "1.0", create, destroy, decide_bid, decide_play,
};
TPLUG_ENTRY(bot)

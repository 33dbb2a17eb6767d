/* cardbot shim — the worker's reading of a request frame (shim_process.h has the protocol):
 * pure functions, no I/O, so the decoder can be fuzzed on its own (tests/fuzz/fuzz_wirereq.c)
 * while child_main only reads bytes off its socket and hands them here. */
#include "shim_process.h"

#include <stddef.h>

int shim_wire_req_header_ok(const shim_wire_hdr *h)
{
    if (h->magic != SHIM_WIRE_MAGIC || (h->type != SHIM_WIRE_BID && h->type != SHIM_WIRE_PLAY))
        return -1;
    if (h->len < sizeof(shim_wire_req) || h->len > SHIM_MAX_FRAME)
        return -1;
    /* the history array must fill the rest exactly: a partial record means a broken frame */
    return (h->len - sizeof(shim_wire_req)) % sizeof(cb_play_rec) == 0 ? 0 : -1;
}

int shim_wire_req_view(const shim_wire_hdr *h, const unsigned char *payload, cb_view *v)
{
    if (shim_wire_req_header_ok(h) != 0)
        return -1;
    const shim_wire_req *rq = (const shim_wire_req *)(const void *)payload;
    size_t nh = (h->len - sizeof(shim_wire_req)) / sizeof(cb_play_rec);
    *v = rq->view;
    /* the view says how many entries it has; the frame must carry exactly that many, and the
     * view must be this build's (the host upgrades older ones before sending) */
    if (v->nhistory < 0 || (size_t)v->nhistory != nh || v->struct_size != sizeof *v)
        return -1;
    v->rules = &rq->rules;
    v->history = nh ? (const cb_play_rec *)(const void *)(payload + sizeof(shim_wire_req)) : NULL;
    return 0;
}

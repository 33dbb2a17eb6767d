/* Fuzz target "wirereq": the worker's side of the worker protocol — its decoding of the
 * host's request frames (host-shim/shim_wire.c, linked into this target on its own: the
 * decoder is pure, so no worker or socket is needed).
 *
 * Input: byte 0 says how the header's length is taken (0: the bytes the input has after the
 * header, so real-looking frames are reachable; else as the input gives it), then a
 * shim_wire_hdr, then the payload. The payload is copied into a buffer of exactly the length
 * the header announces (ASan catches a read past it). Checked against this file's own reading
 * of the protocol (shim_process.h):
 *  - the header is accepted exactly when magic, type (BID or PLAY), length bounds and whole
 *    history records hold;
 *  - a view is accepted exactly when its nhistory is the number of records the frame carries
 *    and its struct_size is this build's; then its rules point at the frame's rules, its
 *    history (NULL when empty) lies inside the frame, and every record can be read.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cardbot/bot.h"
#include "fuzzkit.h"
#include "../host-shim/shim_process.h"

static bool header_ok(const shim_wire_hdr *h)
{
    bool type = h->type == SHIM_WIRE_BID || h->type == SHIM_WIRE_PLAY;
    bool size = h->len >= sizeof(shim_wire_req) && h->len <= SHIM_MAX_FRAME;
    return h->magic == SHIM_WIRE_MAGIC && type && size &&
           (h->len - sizeof(shim_wire_req)) % sizeof(cb_play_rec) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 + sizeof(shim_wire_hdr))
        return 0;
    shim_wire_hdr h;
    memcpy(&h, data + 1, sizeof h);
    const uint8_t *body = data + 1 + sizeof h;
    size_t have = size - 1 - sizeof h;
    if (data[0] == 0)
        h.len = (uint32_t)have;
    bool ok = shim_wire_req_header_ok(&h) == 0;
    FZ_CHECK(ok == header_ok(&h), "header (magic %x type %u len %u): decoder says %d", h.magic, h.type,
             h.len, ok);
    if (!ok || h.len > have)
        return 0; /* the worker would wait for more bytes (or the host closed) */
    unsigned char *buf = malloc(h.len);
    if (!buf)
        return 0;
    memcpy(buf, body, h.len);
    cb_view v;
    memset(&v, 0xa5, sizeof v);
    int rc = shim_wire_req_view(&h, buf, &v);
    const shim_wire_req *rq = (const shim_wire_req *)(const void *)buf;
    size_t nrec = (h.len - sizeof(shim_wire_req)) / sizeof(cb_play_rec);
    bool want = rq->view.nhistory >= 0 && (size_t)rq->view.nhistory == nrec &&
                rq->view.struct_size == sizeof(cb_view);
    FZ_CHECK((rc == 0) == want, "view (nhistory %d, %zu records, struct_size %u): decoder says %d",
             (int)rq->view.nhistory, nrec, (unsigned)rq->view.struct_size, rc);
    if (rc == 0) {
        FZ_CHECK(v.rules == &rq->rules, "rules do not point at the frame's");
        FZ_CHECK((v.history == NULL) == (nrec == 0), "history NULL-ness vs %zu records", nrec);
        if (nrec) {
            const unsigned char *lo = buf + sizeof(shim_wire_req), *hi = buf + h.len;
            FZ_CHECK((const unsigned char *)v.history == lo &&
                         (const unsigned char *)(v.history + v.nhistory) == hi,
                     "history is not the frame's records");
            volatile uint64_t sum = 0; /* read every record: ASan sees any overread */
            for (int i = 0; i < v.nhistory; i++)
                sum += v.history[i].cards + (uint64_t)v.history[i].seat;
            (void)sum;
        }
        FZ_CHECK(v.seat == rq->view.seat && v.hand == rq->view.hand && v.seed == rq->view.seed,
                 "members not copied from the frame");
    }
    free(buf);
    return 0;
}

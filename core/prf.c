/* cardbot — the keyed stream behind shuffles and view seeds (game.h: cb_prf64).
 *
 * HMAC-SHA-256 from GLib, keyed by the match key, over a purpose label and three indices.
 * Outputs for different purposes (the shuffle of a deal, the seed of a view) are independent
 * to anyone without the key, so a plugin that sees its view seeds learns nothing about the
 * deal — the reason not to draw seeds from the dealing generator, whose outputs (splitmix64
 * is invertible) give its state away. */
#include "cardbot/game.h"

#include <string.h>

#include <glib.h>

static void put64(uint8_t *p, uint64_t x)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(x >> (8 * i));
}

uint64_t cb_prf64(uint64_t key, const char *purpose, uint64_t a, uint64_t b, uint64_t c)
{
    uint8_t k[8], msg[24], digest[32];
    put64(k, key);
    GHmac *h = g_hmac_new(G_CHECKSUM_SHA256, k, sizeof k);
    if (!h)
        return key ^ a ^ (b << 21) ^ (c << 42); /* unreachable: SHA-256 is always available */
    /* the label with its NUL, so "ab" + indices never equals "a" + other bytes */
    const char *p = purpose ? purpose : "";
    g_hmac_update(h, (const guchar *)p, (gssize)strlen(p) + 1);
    put64(msg, a);
    put64(msg + 8, b);
    put64(msg + 16, c);
    g_hmac_update(h, msg, sizeof msg);
    gsize len = sizeof digest;
    g_hmac_get_digest(h, digest, &len);
    g_hmac_unref(h);
    uint64_t x = 0;
    for (int i = 0; i < 8; i++)
        x |= (uint64_t)digest[i] << (8 * i);
    return x;
}

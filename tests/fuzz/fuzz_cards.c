/* Fuzz target "cards": card text in and out (cards.h).
 *
 * Input: one byte picks the deck (a preset's, or any 54-bit set from the next 7 bytes), one the
 * error buffer's size (0 = NULL), the rest is the text. Checked:
 *  - cb_cards_parse accepts only cards of the deck, and what it accepts formats (with suits)
 *    to text that parses back to the same set; without suits to text cb_counts_parse reads as
 *    the same rank counts; cb_counts_parse of the original text gives those counts too.
 *  - cb_counts_parse accepts only counts the deck can hold; they format and parse back, and
 *    cb_cards_pick finds them in the deck.
 *  - the formatters behave like snprintf at every buffer size: the full length returned, a
 *    NUL inside the buffer, the text a prefix of the whole one.
 *  - a refusal leaves a NUL-terminated message (a non-empty one when there is room).
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzzkit.h"

static cb_cards deck_of(fz_in *in)
{
    static const char *const presets[] = {"pdk16", "pdk15", "ddz"};
    unsigned k = fz_u8(in) % 4;
    if (k < 3) {
        cb_rules r;
        if (cb_rules_preset(presets[k], &r) != 0)
            fz_fail("preset %s", presets[k]);
        return r.deck;
    }
    uint64_t d = 0;
    for (int i = 0; i < 7; i++)
        d |= (uint64_t)fz_u8(in) << (8 * i);
    return d & CB_FULL_DECK;
}

/* Format at every size from 0 to the full length + 1 and compare with the whole text. */
static void check_format_sizes(cb_cards c, bool suits, const char *whole, size_t n)
{
    char buf[256];
    for (size_t len = 0; len <= n + 1 && len < sizeof buf; len++) {
        memset(buf, 'Z', sizeof buf);
        size_t got = cb_cards_format(c, suits, buf, len);
        FZ_CHECK(got == n, "cb_cards_format(len %zu) returned %zu, the whole text has %zu", len, got, n);
        if (len == 0) {
            FZ_CHECK(buf[0] == 'Z', "cb_cards_format wrote into a 0-byte buffer");
            continue;
        }
        size_t keep = len - 1 < n ? len - 1 : n;
        FZ_CHECK(buf[keep] == '\0', "cb_cards_format(len %zu): no NUL at %zu", len, keep);
        FZ_CHECK(memcmp(buf, whole, keep) == 0, "cb_cards_format(len %zu): not a prefix of '%s'", len, whole);
        FZ_CHECK(buf[len] == 'Z', "cb_cards_format(len %zu) wrote past it", len);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    cb_cards deck = deck_of(&in);
    size_t errlen = fz_u8(&in) % 160;
    char text[1024];
    size_t tn = in.n < sizeof text - 1 ? in.n : sizeof text - 1;
    memcpy(text, in.p, tn);
    text[tn] = '\0';

    char errbuf[160];
    char *err = errlen ? errbuf : NULL;
    memset(errbuf, 'Z', sizeof errbuf);
    cb_cards c = 0;
    int rc = cb_cards_parse(text, deck, &c, err, errlen);
    char out[256], out2[256];
    if (rc == 0) {
        FZ_CHECK((c & ~deck) == 0, "cb_cards_parse('%s') gave cards outside the deck", text);
        size_t n = cb_cards_format(c, true, out, sizeof out);
        FZ_CHECK(n < sizeof out && strlen(out) == n, "cb_cards_format: length %zu, text '%s'", n, out);
        cb_cards back = 0;
        FZ_CHECK(cb_cards_parse(out, deck, &back, NULL, 0) == 0 && back == c,
                 "'%s' parsed, formatted as '%s', which parses to another set", text, out);
        check_format_sizes(c, true, out, n);
        size_t m = cb_cards_format(c, false, out2, sizeof out2);
        check_format_sizes(c, false, out2, m);
        cb_counts k = 0, k2 = 0;
        FZ_CHECK(cb_counts_parse(out2, deck, &k, NULL, 0) == 0 && k == cb_counts_of(c),
                 "ranks of '%s' ('%s') do not parse back to its counts", out, out2);
        FZ_CHECK(cb_counts_parse(text, deck, &k2, NULL, 0) == 0 && k2 == cb_counts_of(c),
                 "'%s' parses as cards but not as the same rank counts", text);
        /* cards by ranks: the lowest ids of each rank in the parsed set itself */
        cb_cards picked = 0;
        FZ_CHECK(cb_cards_pick(c, k, &picked) == 0 && picked == c, "cb_cards_pick(c, counts of c) != c for '%s'",
                 out);
    } else {
        FZ_CHECK(rc == -1, "cb_cards_parse returned %d", rc);
        if (err) {
            FZ_CHECK(memchr(errbuf, '\0', errlen) != NULL, "error message not NUL-terminated in %zu bytes", errlen);
            FZ_CHECK(errlen < 2 || errbuf[0] != '\0', "refused '%s' without a message", text);
        }
    }

    cb_counts k = 0;
    rc = cb_counts_parse(text, deck, &k, NULL, 0);
    if (rc == 0) {
        cb_counts dk = cb_counts_of(deck);
        for (int r = 0; r < CB_NRANKS; r++)
            FZ_CHECK(cb_count(k, r) <= cb_count(dk, r), "cb_counts_parse('%s'): %d of rank %c, the deck has %d",
                     text, cb_count(k, r), cb_rank_chars[r], cb_count(dk, r));
        size_t n = cb_counts_format(k, out, sizeof out);
        FZ_CHECK(n < sizeof out && strlen(out) == n, "cb_counts_format: length %zu", n);
        FZ_CHECK((int)n == cb_counts_total(k), "cb_counts_format: %zu characters for %d cards", n, cb_counts_total(k));
        cb_counts back = 0;
        FZ_CHECK(cb_counts_parse(out, deck, &back, NULL, 0) == 0 && back == k,
                 "counts of '%s' format as '%s', which parses to other counts", text, out);
        cb_cards picked = 0;
        FZ_CHECK(cb_cards_pick(deck, k, &picked) == 0 && cb_counts_of(picked) == k && (picked & ~deck) == 0,
                 "cb_cards_pick cannot realise '%s' from its deck", out);
        for (size_t len = 0; len <= n + 1 && len < sizeof out2; len++) {
            memset(out2, 'Z', sizeof out2);
            FZ_CHECK(cb_counts_format(k, out2, len) == n, "cb_counts_format(len %zu) != %zu", len, n);
            if (len)
                FZ_CHECK(out2[len - 1 < n ? len - 1 : n] == '\0' && memcmp(out2, out, len - 1 < n ? len - 1 : n) == 0,
                         "cb_counts_format(len %zu): cut wrongly", len);
        }
    } else {
        FZ_CHECK(rc == -1, "cb_counts_parse returned %d", rc);
    }
    return 0;
}

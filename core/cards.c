/* Card text <-> card sets, and picking actual cards for a play given by ranks. */
#include <cardbot/cards.h>

#include <stdio.h>
#include <string.h>

const char cb_rank_chars[CB_NRANKS + 1] = "3456789TJQKA2XD";
const char cb_suit_chars[5] = "shcd";
const char *const cb_suit_symbols[4] = {"\xe2\x99\xa0", "\xe2\x99\xa5", "\xe2\x99\xa3", "\xe2\x99\xa6"};

static int rank_of_char(char ch)
{
    if (ch >= 'a' && ch <= 'z' && ch != 'x' && ch != 'd')
        ch = (char)(ch - 'a' + 'A');
    const char *p = strchr(cb_rank_chars, ch);
    return (p && ch) ? (int)(p - cb_rank_chars) : -1;
}

static int suit_of_char(char ch)
{
    const char *p = strchr(cb_suit_chars, ch);
    return (p && ch) ? (int)(p - cb_suit_chars) : -1;
}

static void set_err(char *err, size_t errlen, const char *fmt, const char *a, int n)
{
    if (err && errlen)
        snprintf(err, errlen, fmt, a, n);
}

/* One token of the text: a rank with an optional suit. Lower-case 'x' / 'd' after a rank are
 * ambiguous ("Xd"?) — a suit letter only follows ranks 3..2, jokers have none, so 'd' after a
 * joker or at a token start means the big joker. */
typedef struct { int rank, suit; } token;

/* The suit of a symbol ♠ ♥ ♣ ♦ (cb_suit_symbols: UTF-8, 3 bytes each) at p, or -1. */
static int suit_of_symbol(const char *p)
{
    for (int s = 0; s < 4; s++)
        if (strncmp(p, cb_suit_symbols[s], 3) == 0)
            return s;
    return -1;
}

/* Characters (not bytes) in text[0..at): a position a person counts, whatever the encoding. */
static int chars_before(const char *text, size_t at)
{
    int n = 0;
    for (size_t i = 0; i < at; i++)
        n += ((unsigned char)text[i] & 0xC0) != 0x80;
    return n;
}

static int tokenize(const char *text, token *toks, int cap, int *n, char *err, size_t errlen)
{
    *n = 0;
    for (size_t i = 0; text[i];) {
        char ch = text[i];
        if (ch == ' ' || ch == ',' || ch == '[' || ch == ']' || ch == '\t' || ch == '\n' || ch == '\r') {
            i++;
            continue;
        }
        int rank;
        size_t start = i;
        if (ch == '1' && text[i + 1] == '0') {
            rank = CB_RANK_T;
            i += 2;
        } else if (ch == 'x' || ch == 'X') {
            rank = CB_RANK_X;
            i++;
        } else if (ch == 'D') {
            rank = CB_RANK_D;
            i++;
        } else if (ch == 'd') {
            rank = CB_RANK_D; /* a lone lower-case d is the big joker */
            i++;
        } else {
            rank = rank_of_char(ch);
            if (rank < 0) {
                /* quote the whole character: all bytes of a UTF-8 sequence, not its first */
                unsigned char lead = (unsigned char)ch;
                size_t len = lead >= 0xF0 && lead < 0xF8 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
                char c[5] = {ch, 0, 0, 0, 0};
                for (size_t k = 1; k < len; k++) {
                    unsigned char b = (unsigned char)text[i + k];
                    if ((b & 0xC0) != 0x80) { /* not a whole sequence: the byte alone */
                        c[1] = 0;
                        break;
                    }
                    c[k] = (char)b;
                }
                set_err(err, errlen, "bad card character '%s' at position %d", c, chars_before(text, start) + 1);
                return -1;
            }
            i++;
        }
        int suit = -1;
        if (rank < CB_RANK_X && text[i] && suit_of_char(text[i]) >= 0) {
            suit = suit_of_char(text[i]);
            i++;
        } else if (rank < CB_RANK_X && (suit = suit_of_symbol(text + i)) >= 0) {
            i += 3; /* the symbols our own formatters and replays show: text shown can be typed back */
        }
        if (*n >= cap) {
            set_err(err, errlen, "too many cards%s (more than %d)", "", cap);
            return -1;
        }
        toks[*n].rank = rank;
        toks[*n].suit = suit;
        (*n)++;
    }
    return 0;
}

static void card_name(int id, char *buf)
{
    int r = cb_card_rank(id);
    buf[0] = cb_rank_chars[r];
    buf[1] = r < CB_RANK_X ? cb_suit_chars[cb_card_suit(id)] : 0;
    buf[2] = 0;
}

int cb_cards_parse(const char *text, cb_cards deck, cb_cards *out, char *err, size_t errlen)
{
    token toks[64];
    int n;
    if (!text) {
        set_err(err, errlen, "no cards given%s%d", "", 0);
        return -1;
    }
    if (tokenize(text, toks, 64, &n, err, errlen))
        return -1;
    cb_cards set = 0;
    /* Suited cards (and jokers) first, so a bare rank takes a suit nobody named. */
    for (int i = 0; i < n; i++) {
        if (toks[i].suit < 0 && toks[i].rank < CB_RANK_X)
            continue;
        int id = cb_card_id(toks[i].rank, toks[i].suit < 0 ? 0 : toks[i].suit);
        char name[3];
        card_name(id, name);
        if (!(deck & cb_card_bit(id))) {
            set_err(err, errlen, "card %s is not in the deck (card %d of the text)", name, i + 1);
            return -1;
        }
        if (set & cb_card_bit(id)) {
            set_err(err, errlen, "duplicate card %s (card %d of the text)", name, i + 1);
            return -1;
        }
        set |= cb_card_bit(id);
    }
    for (int i = 0; i < n; i++) {
        if (toks[i].suit >= 0 || toks[i].rank >= CB_RANK_X)
            continue;
        int r = toks[i].rank;
        cb_cards free_cards = cb_cards_of_rank(deck, r) & ~set;
        if (!free_cards) {
            char c[2] = {cb_rank_chars[r], 0};
            int have = cb_cards_size(cb_cards_of_rank(deck, r));
            if (have == 0)
                set_err(err, errlen, "card %s is not in the deck", c, 0);
            else
                set_err(err, errlen, "too many %ss: the deck has %d", c, have);
            return -1;
        }
        set |= free_cards & (~free_cards + 1); /* lowest free suit */
    }
    *out = set;
    return 0;
}

int cb_counts_parse(const char *text, cb_cards deck, cb_counts *out, char *err, size_t errlen)
{
    token toks[64];
    int n;
    if (!text) {
        set_err(err, errlen, "no cards given%s%d", "", 0);
        return -1;
    }
    if (tokenize(text, toks, 64, &n, err, errlen))
        return -1;
    cb_counts k = 0, in_deck = cb_counts_of(deck);
    for (int i = 0; i < n; i++) {
        int r = toks[i].rank;
        if (cb_count(k, r) >= cb_count(in_deck, r)) {
            char c[2] = {cb_rank_chars[r], 0};
            if (cb_count(in_deck, r) == 0)
                set_err(err, errlen, "card %s is not in the deck", c, 0);
            else
                set_err(err, errlen, "too many %ss: the deck has %d", c, cb_count(in_deck, r));
            return -1;
        }
        k = cb_count_add(k, r, 1);
    }
    *out = k;
    return 0;
}

int cb_cards_parse_held(const char *text, cb_cards deck, cb_cards hand, cb_cards *out, char *err,
                       size_t errlen)
{
    char why[160] = "";
    cb_cards any = 0;
    /* First as cards of the game, so a typo is named by its character and place. */
    if (cb_cards_parse(text, deck, &any, why, sizeof why) != 0) {
        if (err && errlen)
            snprintf(err, errlen, "not cards of this game: %s", why[0] ? why : "unreadable");
        return -1;
    }
    /* Then from the hand: bare ranks take the lowest suits held (the spade 3 when held). */
    if (cb_cards_parse(text, hand, out, why, sizeof why) == 0)
        return 0;
    if (!err || !errlen)
        return -2;
    /* Say what is missing by rank: every token of the text is one card of `any`, so its rank
     * counts are the text's, and a count the deck allows is at most four. */
    static const char *const count_words[] = {"no", "only one", "only two", "only three"};
    cb_counts want = cb_counts_of(any), have = cb_counts_of(hand);
    size_t n = 0;
    err[0] = 0;
    for (int r = 0; r < CB_NRANKS; r++) {
        int w = cb_count(want, r), h = cb_count(have, r);
        if (w <= h || h > 3)
            continue;
        if (n < errlen)
            n += (size_t)snprintf(err + n, errlen - n, "%s%s %c%s", n ? ", " : "", count_words[h],
                                  cb_rank_chars[r], h > 1 ? "s" : "");
    }
    if (n) {
        if (n < errlen)
            snprintf(err + n, errlen - n, " in the hand");
        return -2;
    }
    /* The ranks are all there, so a card named with its suit is not: the parse spoke of "the
     * deck", which here is the hand. */
    const char *deck_word = strstr(why, "is not in the deck");
    if (deck_word)
        snprintf(err, errlen, "%.*sis not in the hand%s", (int)(deck_word - why), why,
                 deck_word + strlen("is not in the deck"));
    else
        snprintf(err, errlen, "not in the hand: %s", why);
    return -2;
}

int cb_cards_pick(cb_cards from, cb_counts k, cb_cards *out)
{
    cb_cards set = 0;
    for (int r = 0; r < CB_NRANKS; r++) {
        int need = cb_count(k, r);
        cb_cards avail = cb_cards_of_rank(from, r);
        while (need-- > 0) {
            if (!avail)
                return -1;
            cb_cards low = avail & (~avail + 1);
            set |= low;
            avail &= ~low;
        }
    }
    *out = set;
    return 0;
}

size_t cb_cards_format(cb_cards c, bool with_suits, char *buf, size_t len)
{
    size_t n = 0;
    for (int id = 0; id < CB_NCARDS; id++) {
        if (!(c & cb_card_bit(id)))
            continue;
        char name[3];
        card_name(id, name);
        if (!with_suits)
            name[1] = 0;
        for (const char *p = name; *p; p++) {
            if (n + 1 < len)
                buf[n] = *p;
            n++;
        }
    }
    if (len)
        buf[n < len ? n : len - 1] = 0;
    return n;
}

size_t cb_counts_format(cb_counts k, char *buf, size_t len)
{
    size_t n = 0;
    for (int r = 0; r < CB_NRANKS; r++)
        for (int i = cb_count(k, r); i > 0; i--) {
            if (n + 1 < len)
                buf[n] = cb_rank_chars[r];
            n++;
        }
    if (len)
        buf[n < len ? n : len - 1] = 0;
    return n;
}

"""Cards as int bit sets (bit id = card id 0..53), as in cards.h.

Card id: rank = id >> 2, suit = id & 3 (0 s, 1 h, 2 c, 3 d) for ids < 52; 52 = small joker X,
53 = big joker D. Rank index 0..14 = "3456789TJQKA2XD".
"""
import ctypes

from . import _lib

RANK_CHARS = "3456789TJQKA2XD"
SUIT_CHARS = "shcd"
NRANKS = 15
CARD_X = 52
CARD_D = 53
NCARDS = 54
FULL_DECK = (1 << NCARDS) - 1


def card_rank(card_id):
    return card_id >> 2 if card_id < 52 else card_id - 39


def card_suit(card_id):
    return card_id & 3 if card_id < 52 else -1


def card_id(rank, suit=0):
    return rank * 4 + suit if rank < 13 else rank + 39


def size(cards):
    """Number of cards in a set."""
    return bin(cards).count("1")


def ids(cards):
    """The card ids of a set, ascending."""
    out = []
    i = 0
    while cards:
        if cards & 1:
            out.append(i)
        cards >>= 1
        i += 1
    return out


def from_ids(card_ids):
    c = 0
    for i in card_ids:
        if not 0 <= i < NCARDS:
            raise ValueError("card id %d is not 0..53" % i)
        c |= 1 << i
    return c


def counts_of(cards):
    """Rank counts (cb_counts: 4 bits per rank) of a card set (cb_counts_of)."""
    k = 0
    for r in range(13):
        k |= bin((cards >> (4 * r)) & 15).count("1") << (4 * r)
    k |= ((cards >> CARD_X) & 1) << (4 * 13)
    k |= ((cards >> CARD_D) & 1) << (4 * 14)
    return k


def count(k, rank):
    """Count of a rank in packed counts."""
    return (k >> (4 * rank)) & 15


def parse(text, deck=FULL_DECK):
    """Text ("33344", "3s3h4d", "10 J Q") -> cards of deck. A rank without a suit takes the
    lowest free suit of that rank in deck. ValueError with the library's message on bad text
    (also alone in its .reason)."""
    if not isinstance(text, str):
        raise TypeError("cards text must be str, not %s" % type(text).__name__)
    lib = _lib.core()
    out = _lib.cb_cards()
    err = _lib.errbuf()
    if lib.cb_cards_parse(text.encode(), deck, ctypes.byref(out), err, _lib.ERRLEN) != 0:
        ex = ValueError("cards %r: %s" % (text, _lib.text(err)))
        ex.reason = _lib.text(err)  # the library's words alone, for a caller's own message
        raise ex
    return out.value


def parse_held(text, deck, hand):
    """Text -> cards of hand, in a game dealt from deck (cb_cards_parse_held): read as cards of
    the deck first, then taken from the hand, bare ranks taking the lowest suits held.
    ValueError with the library's message in .reason and .code -1 (not cards of the game: the
    character is named) or -2 (cards of the game the hand lacks, said by rank)."""
    if not isinstance(text, str):
        raise TypeError("cards text must be str, not %s" % type(text).__name__)
    lib = _lib.core()
    out = _lib.cb_cards()
    err = _lib.errbuf()
    rc = lib.cb_cards_parse_held(text.encode(), deck, hand, ctypes.byref(out), err, _lib.ERRLEN)
    if rc != 0:
        ex = ValueError("cards %r: %s" % (text, _lib.text(err)))
        ex.reason = _lib.text(err)
        ex.code = rc
        raise ex
    return out.value


def parse_counts(text, deck=FULL_DECK):
    """Rank-only text -> packed counts (suits accepted and ignored)."""
    lib = _lib.core()
    out = _lib.cb_counts()
    err = _lib.errbuf()
    if lib.cb_counts_parse(text.encode(), deck, ctypes.byref(out), err, _lib.ERRLEN) != 0:
        raise ValueError("cards %r: %s" % (text, _lib.text(err)))
    return out.value


def format(cards, suits=False):  # noqa: A001 - the natural name in this module
    """Cards -> text, ranks ascending ("" for the empty set); suits adds the suit letters."""
    lib = _lib.core()
    cards &= FULL_DECK
    buf = ctypes.create_string_buffer(256)
    n = lib.cb_cards_format(cards, bool(suits), buf, 256)
    if n >= 256:
        buf = ctypes.create_string_buffer(n + 1)
        lib.cb_cards_format(cards, bool(suits), buf, n + 1)
    return buf.value.decode()


def format_counts(k):
    lib = _lib.core()
    buf = ctypes.create_string_buffer(256)
    lib.cb_counts_format(k, buf, 256)
    return buf.value.decode()


def pick(hand, counts):
    """Actual cards from hand realising rank counts, lowest ids first; ValueError if hand
    lacks a rank."""
    out = _lib.cb_cards()
    if _lib.core().cb_cards_pick(hand, counts, ctypes.byref(out)) != 0:
        raise ValueError("hand %s lacks cards for %s" % (format(hand), format_counts(counts)))
    return out.value

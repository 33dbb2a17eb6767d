"""Rule sets (rules.h): a preset plus flag overrides, classification, legal plays, min-hands."""
import ctypes
from collections import namedtuple

from . import _lib
from . import cards as _cards

GAME_PDK, GAME_DDZ, GAME_NOIP = 1, 2, 3
PRESETS = ("pdk16", "pdk15", "guanpai", "ddz", "noip2015")

SHAPES = ("pass", "single", "pair", "triple", "triple_1", "triple_2", "straight", "pair_chain",
          "plane", "plane_1", "plane_2", "four_2", "four_22", "four_3", "bomb", "rocket")
(PASS, SINGLE, PAIR, TRIPLE, TRIPLE_1, TRIPLE_2, STRAIGHT, PAIR_CHAIN, PLANE, PLANE_1, PLANE_2,
 FOUR_2, FOUR_22, FOUR_3, BOMB, ROCKET) = range(16)
MOVES_CAP = 32768


class Move(namedtuple("Move", "counts shape main len ncards kick")):
    """A play by ranks (cb_move). counts: packed rank counts."""
    __slots__ = ()

    @property
    def shape_name(self):
        return shape_names()[self.shape] if self.shape < len(shape_names()) else str(self.shape)

    def text(self):
        return _cards.format_counts(self.counts)

    @classmethod
    def _from_c(cls, m):
        return cls(m.counts, m.shape, m.main, m.len, m.ncards, m.kick)

    def _to_c(self):
        return _lib.CbMove(counts=self.counts, shape=self.shape, main=self.main, len=self.len,
                           ncards=self.ncards, kick=self.kick)


def _c_string_array(lib, symbol):
    head = ctypes.c_char_p.in_dll(lib, symbol)
    arr = ctypes.cast(ctypes.addressof(head), ctypes.POINTER(ctypes.c_char_p))
    out = []
    i = 0
    while arr[i] is not None and i < 256:
        out.append(arr[i].decode())
        i += 1
    return out


_keys_cache = None
_shape_cache = None


def rule_keys():
    """The flag names cb_rules_set accepts (cb_rules_keys)."""
    global _keys_cache
    if _keys_cache is None:
        _keys_cache = tuple(_c_string_array(_lib.core(), "cb_rules_keys"))
    return _keys_cache


def shape_names():
    global _shape_cache
    if _shape_cache is None:
        lib = _lib.core()
        arr = (ctypes.c_char_p * len(SHAPES)).in_dll(lib, "cb_shape_names")
        _shape_cache = tuple(a.decode() if a else "?" for a in arr)
    return _shape_cache


def _value_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _hand_counts(hand):
    """A hand given as cards (int) or text -> packed counts. Ints are card sets."""
    if isinstance(hand, str):
        return _cards.parse_counts(hand)
    return _cards.counts_of(hand)


class Rules:
    """A cb_rules value. Rules("pdk16", must_beat=False, min_pair_chain=2) or
    Rules("ddz", {"rob": "true"}). Members read as attributes (rules.deck, rules.rob, ...)."""

    def __init__(self, preset="pdk16", overrides=None, **flags):
        self._c = _lib.CbRules()
        if preset is None:
            return
        lib = _lib.core()
        if lib.cb_rules_preset(str(preset).encode(), ctypes.byref(self._c)) != 0:
            raise ValueError("rules preset %r: unknown (known: %s)" % (preset, ", ".join(PRESETS)))
        items = list((overrides or {}).items()) + list(flags.items())
        for k, v in items:
            self.set(k, v)

    @classmethod
    def from_struct(cls, c):
        """A copy of a CbRules (or a pointer to one)."""
        r = cls(None)
        if isinstance(c, ctypes._Pointer):
            c = c.contents
        ctypes.memmove(ctypes.byref(r._c), ctypes.byref(c), ctypes.sizeof(_lib.CbRules))
        return r

    def set(self, key, value):
        """Override one flag (cb_rules_set). ValueError naming the key on a bad key or value."""
        err = _lib.errbuf()
        if _lib.core().cb_rules_set(ctypes.byref(self._c), str(key).encode(),
                                    _value_text(value).encode(), err, _lib.ERRLEN) != 0:
            msg = _lib.text(err) or "refused"
            if str(key) not in msg:
                msg = "rules key %r: %s" % (key, msg)
            raise ValueError(msg)
        return self

    def copy(self):
        return Rules.from_struct(self._c)

    @property
    def struct(self):
        """The CbRules structure (owned by this object)."""
        return self._c

    @property
    def _as_parameter_(self):
        return ctypes.byref(self._c)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        c = self.__dict__.get("_c")
        if c is not None and name in {f[0] for f in _lib.CbRules._fields_}:
            v = getattr(c, name)
            return v.decode() if isinstance(v, bytes) else v
        raise AttributeError("Rules has no attribute %r" % name)

    def as_dict(self):
        return {f[0]: getattr(self, f[0]) for f in _lib.CbRules._fields_}

    def __eq__(self, other):
        if not isinstance(other, Rules):
            return NotImplemented
        return bool(_lib.core().cb_rules_equal(ctypes.byref(self._c), ctypes.byref(other._c)))

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None

    def __repr__(self):
        return "Rules(%r)" % self.preset

    # ---- cards of this deck ----
    def parse(self, text):
        return _cards.parse(text, self._c.deck)

    def format(self, cards, suits=False):
        return _cards.format(cards, suits)

    # ---- the rules' functions ----
    def classify(self, play):
        """cards (int) or text -> Move; ValueError with the reason when it is no play."""
        k = _hand_counts(play)
        m = _lib.CbMove()
        why = _lib.errbuf()
        if not _lib.core().cb_classify(ctypes.byref(self._c), k, ctypes.byref(m), why, _lib.ERRLEN):
            raise ValueError("%s: %s" % (_cards.format_counts(k), _lib.text(why)))
        return Move._from_c(m)

    def beats(self, play, table, whole_hand=False):
        a = play if isinstance(play, Move) else self.classify(play)
        b = table if isinstance(table, Move) else self.classify(table)
        ca, cb = a._to_c(), b._to_c()
        return bool(_lib.core().cb_beats(ctypes.byref(self._c), ctypes.byref(ca), ctypes.byref(cb),
                                         bool(whole_hand)))

    def _ctx(self, hand, table, next_has_one, first_play):
        ctx = _lib.CbCtx(hand=_hand_counts(hand), next_has_one=bool(next_has_one),
                         first_play=bool(first_play))
        keep = None
        if not (table is None or (isinstance(table, (int, str)) and not table)):
            t = table if isinstance(table, Move) else self.classify(table)
            keep = t._to_c()
            ctx.table = ctypes.pointer(keep)
        return ctx, keep

    def legal_moves(self, hand, table=None, next_has_one=False, first_play=False):
        """Every distinct legal play by ranks (a pass first when following allows it)."""
        ctx, keep = self._ctx(hand, table, next_has_one, first_play)
        lib = _lib.core()
        cap = 256
        while True:
            out = (_lib.CbMove * cap)()
            n = lib.cb_legal_moves(ctypes.byref(self._c), ctypes.byref(ctx), out, cap)
            if n <= cap:
                break
            cap = n
        del keep
        return [Move._from_c(out[i]) for i in range(max(n, 0))]

    def play_legal(self, hand, play, table=None, next_has_one=False, first_play=False):
        """(ok, reason) for one play (cb_play_legal)."""
        ctx, keep = self._ctx(hand, table, next_has_one, first_play)
        m = _lib.CbMove()
        why = _lib.errbuf()
        ok = _lib.core().cb_play_legal(ctypes.byref(self._c), ctypes.byref(ctx), _hand_counts(play),
                                       ctypes.byref(m), why, _lib.ERRLEN)
        del keep
        return bool(ok), ("" if ok else _lib.text(why))

    def min_hands(self, hand):
        n = _lib.core().cb_min_hands(ctypes.byref(self._c), _hand_counts(hand))
        if n < 0:
            raise ValueError("min_hands: the hand is impossible under %s" % self.preset)
        return n


def as_rules(rules):
    """Rules, a preset name or a CbRules -> Rules."""
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return Rules(rules)
    if isinstance(rules, (_lib.CbRules, ctypes._Pointer)):
        return Rules.from_struct(rules)
    raise TypeError("rules must be Rules, a preset name or CbRules, not %s" % type(rules).__name__)

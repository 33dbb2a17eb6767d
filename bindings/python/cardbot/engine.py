"""The game engine (game.h): deal, bidding, turns, legal actions, apply, views, settlement."""
import ctypes

from . import _lib
from . import cards as _cards
from .rules import as_rules

PHASE_BID = 1
PHASE_PLAY = 2
PHASE_OVER = 3
PHASE_NAMES = {PHASE_BID: "bid", PHASE_PLAY: "play", PHASE_OVER: "over"}


def prf64(key, purpose, a=0, b=0, c=0):
    """The keyed stream behind shuffles and view seeds (HMAC-SHA-256; 64-bit output)."""
    return _lib.core().cb_prf64(key & (2**64 - 1), purpose.encode(), a, b, c)


def version():
    """The loaded library's version text ("1.1.0")."""
    return _lib.core().cb_version().decode()


def view_check(rules, view):
    """Does the view describe a position a real game reaches? (ok, reason); rules may be None
    (then the view's own rules). The reason names the view's member."""
    _lib._check_view_current(view)
    rp = None
    if rules is not None:
        r = as_rules(rules)
        rp = ctypes.byref(r.struct)
    err = _lib.errbuf()
    rc = _lib.core().cb_view_check(rp, ctypes.byref(view), err, _lib.ERRLEN)
    return rc == 0, ("" if rc == 0 else _lib.text(err))


def view_legal_bids(view):
    """The bids the deciding seat may make in a bid-phase view (cb_view_legal_bids)."""
    _lib._check_view_current(view)
    out = (ctypes.c_int32 * 8)()
    n = _lib.core().cb_view_legal_bids(ctypes.byref(view), out, 8)
    return [out[i] for i in range(min(n, 8))]


class Engine(_lib.Handle):
    """One game from the deal to the settlement.

    Engine(rules, seed=1) deals from the match key `seed` (alias `key`); deal, game, rotation,
    first_bidder, landlord, max_redeals, hands, bottom are cb_engine_opts. Use it as a context
    manager or call close(); __del__ frees it as a last resort."""

    def __init__(self, rules="pdk16", seed=None, key=0, deal=0, game=0, rotation=0,
                 first_bidder=-1, landlord=-1, max_redeals=0, hands=None, bottom=0):
        self._h = None
        self._lib = lib = _lib.core()
        self._rules = as_rules(rules).copy()
        if seed is not None:
            key = seed
        o = _lib.CbEngineOpts()
        o.struct_size = ctypes.sizeof(_lib.CbEngineOpts)
        o.key = key & (2**64 - 1)
        o.deal = deal
        o.game = game
        o.rotation = rotation
        o.first_bidder = first_bidder
        o.landlord = landlord
        o.max_redeals = max_redeals
        hands_arr = None
        if hands is not None:
            hs = [self._rules.parse(h) if isinstance(h, str) else int(h) for h in hands]
            if len(hs) != 3:
                raise ValueError("hands: three hands are needed")
            hands_arr = (_lib.cb_cards * 3)(*hs)
            o.hands = hands_arr
            o.bottom = self._rules.parse(bottom) if isinstance(bottom, str) else int(bottom)
        err = _lib.errbuf()
        e = lib.cb_engine_new(ctypes.byref(self._rules.struct), ctypes.byref(o), err, _lib.ERRLEN)
        if not e:
            raise ValueError("engine: %s" % _lib.text(err))
        self._h = e
        self._actions = 0     # bumped by every accepted action: views older than that are stale
        self.key = key
        self.deal_index = deal
        self.game_index = game
        self.rotation = rotation

    @classmethod
    def _wrap(cls, ptr, rules, like):
        self = cls.__new__(cls)
        self._lib = like._lib
        self._rules = rules.copy()
        self._h = ptr
        self._actions = 0
        self.key, self.deal_index = like.key, like.deal_index
        self.game_index, self.rotation = like.game_index, like.rotation
        return self

    # ---- lifetime (close, with, _ptr: _lib.Handle) ----
    _what = "engine"

    def _free(self, e):
        self._actions += 1
        self._lib.cb_engine_free(e)

    def clone(self):
        """An independent copy of the game (to look ahead)."""
        p = self._lib.cb_engine_clone(self._ptr())
        if not p:
            raise MemoryError("cb_engine_clone")
        return Engine._wrap(p, self._rules, self)

    # ---- state ----
    @property
    def rules(self):
        """The engine's rules (a copy)."""
        return self._rules.copy()

    @property
    def phase(self):
        return self._lib.cb_engine_phase(self._ptr())

    @property
    def turn(self):
        """The seat to act, -1 when over."""
        return self._lib.cb_engine_turn(self._ptr())

    @property
    def is_over(self):
        return self.phase == PHASE_OVER

    def hand(self, seat):
        return self._lib.cb_engine_hand(self._ptr(), seat)

    def dealt(self, seat):
        return self._lib.cb_engine_dealt(self._ptr(), seat)

    @property
    def bottom(self):
        return self._lib.cb_engine_bottom(self._ptr())

    @property
    def landlord(self):
        return self._lib.cb_engine_landlord(self._ptr())

    @property
    def first_seat(self):
        return self._lib.cb_engine_first_seat(self._ptr())

    @property
    def first_bidder(self):
        return self._lib.cb_engine_first_bidder(self._ptr())

    @property
    def stake(self):
        return self._lib.cb_engine_stake(self._ptr())

    @property
    def redeals(self):
        return self._lib.cb_engine_redeals(self._ptr())

    def bids(self):
        """(bids per seat as in cb_view, [(seat, value), ...] in order)."""
        e = self._ptr()
        b = (ctypes.c_int32 * 3)()
        cap = 64
        while True:
            seats = (ctypes.c_int32 * cap)()
            vals = (ctypes.c_int32 * cap)()
            n = self._lib.cb_engine_bids(e, b, seats, vals, cap)
            if n <= cap:
                break
            cap = n
        return list(b), [(seats[i], vals[i]) for i in range(n)]

    @property
    def history(self):
        """The public play history: [(seat, cards), ...], passes as cards 0."""
        n = ctypes.c_int()
        h = self._lib.cb_engine_history(self._ptr(), ctypes.byref(n))
        if not h:
            return []
        return [(h[i].seat, h[i].cards) for i in range(n.value)]

    # ---- actions ----
    def legal_bids(self):
        out = (ctypes.c_int32 * 8)()
        n = self._lib.cb_engine_legal_bids(self._ptr(), out, 8)
        return [out[i] for i in range(min(n, 8))]

    def legal_plays(self):
        """Actual cards, one per distinct play by ranks; a pass (0) first when allowed."""
        e = self._ptr()
        n = self._lib.cb_engine_legal_plays(e, None, 0)
        if n < 0:
            raise MemoryError("cb_engine_legal_plays")
        if n == 0:
            return []
        out = (_lib.cb_cards * n)()
        n = self._lib.cb_engine_legal_plays(e, out, n)
        return list(out[:n])

    def bid(self, value):
        """Apply the bid of the seat to act; IllegalActionError with the engine's reason."""
        err = _lib.errbuf()
        if self._lib.cb_engine_bid(self._ptr(), int(value), err, _lib.ERRLEN) != 0:
            raise _lib.IllegalActionError("bid %s: %s" % (value, _lib.text(err)))
        self._actions += 1

    def play(self, cards):
        """Apply the play (int cards, or text chosen from the hand; 0, "" or "pass" = pass) of
        the seat to act; IllegalActionError with the engine's reason, the game unchanged. Text
        is read as cards of the game first (a typo is named with its character and place), then
        taken from the hand (bare ranks take the suits held)."""
        e = self._ptr()
        if isinstance(cards, str):
            text = cards
            if self.phase != PHASE_PLAY:
                # the engine says why no play is taken now (bidding, game over)
                err = _lib.errbuf()
                if self._lib.cb_engine_play(e, 0, err, _lib.ERRLEN) != 0:
                    raise _lib.IllegalActionError("play %r: %s" % (text, _lib.text(err)))
                raise _lib.CardbotError("play %r: the engine took a pass outside the play" % text)
            if text.strip().lower() in ("", "pass"):
                cards = 0
            else:
                cards = self._cards_from_hand(text)
        err = _lib.errbuf()
        if self._lib.cb_engine_play(e, int(cards) & (2**64 - 1), err, _lib.ERRLEN) != 0:
            raise _lib.IllegalActionError("play %s: %s" % (_cards.format(cards, True) or "pass",
                                                           _lib.text(err)))
        self._actions += 1

    def _cards_from_hand(self, text):
        turn = self.turn
        hand = self.hand(turn)
        try:
            return _cards.parse_held(text, self._rules.deck, hand)
        except ValueError as ex:
            if ex.code == -1:  # not cards of the game: the library names the character
                raise _lib.IllegalActionError("play %r: %s" % (text, ex.reason)) from None
            raise _lib.IllegalActionError("play %r: seat %d: %s (its hand: %s)"
                                          % (text, turn, ex.reason, _cards.format(hand, True))) from None

    def view(self, seat=None, budget_ms=1000):
        """The exact cb_view of seat (default: the seat to act). It points into the engine: the
        view keeps the engine alive and is stale after the engine's next action."""
        e = self._ptr()
        if seat is None:
            seat = self.turn
        v = _lib.CbView()
        if self._lib.cb_engine_view(e, seat, budget_ms, ctypes.byref(v)) != 0:
            raise _lib.CardbotError("view: no view of seat %s (game over or bad seat)" % seat)
        if v.struct_size != ctypes.sizeof(_lib.CbView):  # cannot happen after the import check
            raise _lib.LayoutError("cb_view: the library wrote %d bytes" % v.struct_size)
        v._engine = self
        v._stamp = self._actions
        return v

    def _view_current(self, view):
        return self._h is not None and getattr(view, "_stamp", None) == self._actions

    # ---- results ----
    @property
    def winner(self):
        return self._lib.cb_engine_winner(self._ptr())

    def points(self):
        """Points per seat once over (sum 0)."""
        d = (ctypes.c_int * 3)()
        if self._lib.cb_engine_points(self._ptr(), d) < 0:
            raise _lib.CardbotError("points: the game is not over")
        return list(d)

    @property
    def multiplier(self):
        """DDZ multiplier (PDK 1) once over, else None."""
        d = (ctypes.c_int * 3)()
        m = self._lib.cb_engine_points(self._ptr(), d)
        return None if m < 0 else m

    def plays_made(self, seat):
        return self._lib.cb_engine_plays_made(self._ptr(), seat)

    def bomb_tricks(self, seat):
        return self._lib.cb_engine_bomb_tricks(self._ptr(), seat)

    def __repr__(self):
        if not self._h:
            return "<Engine closed>"
        return "<Engine %s phase=%s turn=%d>" % (self._rules.preset, PHASE_NAMES.get(self.phase),
                                                 self.turn)

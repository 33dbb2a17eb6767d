"""The shim (shim.h): open a config, seat strategies at tables, ask them for bids and plays."""
import ctypes
import math
from collections import namedtuple

from . import _lib
from .rules import Rules

# result codes
OK = 0
FB_ILLEGAL, FB_FAILED, FB_LATE, FB_NO_PLUGIN, FB_CRASHED = 1, 2, 3, 4, 5
FB_NREASONS = 6
ERR_ARG, ERR_VIEW, ERR_CONFIG = -1, -2, -3
# decision flags
DEC_BOMB, DEC_ENDGAME, DEC_COUNTED, DEC_SUBOPTIMAL, DEC_FALLBACK = 1, 2, 4, 8, 16
ISOLATION_INPROC, ISOLATION_PROCESS = 0, 1


def strerror(code):
    s = _lib.shim().cb_strerror(code)
    return s.decode("utf-8", "replace") if s else "code %d" % code


class Decision(namedtuple("Decision", "cards bid flags value simulations nodes "
                                      "minhands_before minhands_after explain")):
    """A cb_decision as Python values. value is None when the strategy gave none (NAN)."""
    __slots__ = ()

    @property
    def fallback(self):
        return bool(self.flags & DEC_FALLBACK)

    @classmethod
    def _from_c(cls, d):
        v = float(d.value)
        return cls(d.cards, d.bid, d.flags, None if math.isnan(v) else v, d.simulations, d.nodes,
                   d.minhands_before, d.minhands_after, d.explain.decode("utf-8", "replace"))


StrategyStats = namedtuple("StrategyStats", "name decisions total_ns max_ns fallbacks")
SeatInfo = namedtuple("SeatInfo", "isolation strategy plugin_path plugin_name plugin_version "
                                  "config_gen load_gen file_dev file_ino file_size file_mtime_sec "
                                  "file_mtime_nsec pending private_copy sha256")


class Shim(_lib.Handle):
    """cb_shim_open(config). ConfigError with the message naming file, group and key."""

    def __init__(self, config_path):
        self._h = None
        self._lib = lib = _lib.shim()
        err = _lib.errbuf()
        s = lib.cb_shim_open(str(config_path).encode(), err, _lib.ERRLEN)
        if not s:
            raise _lib.ConfigError(_lib.text(err) or "cannot open %s" % config_path, ERR_CONFIG)
        self._h = s
        self.path = str(config_path)

    _what = "shim"

    def _free(self, s):
        """Release the shim (live tables keep the C object alive until they are closed)."""
        self._lib.cb_shim_free(s)

    @property
    def rules(self):
        """The config's rule set (a copy)."""
        return Rules.from_struct(self._lib.cb_shim_rules(self._ptr()))

    def get(self, group, key):
        v = self._lib.cb_shim_get(self._ptr(), group.encode(), key.encode())
        return None if v is None else v.decode("utf-8", "replace")

    def reload(self):
        err = _lib.errbuf()
        if self._lib.cb_shim_reload(self._ptr(), err, _lib.ERRLEN) != 0:
            raise _lib.ConfigError(_lib.text(err), ERR_CONFIG)

    def table(self, table_id=None):
        """A table seated by [table.ID] if given and present, else [seats]."""
        return Table(self, table_id)

    def stats(self):
        """[StrategyStats, ...] since open; fallbacks is a tuple indexed by reason code."""
        lib, s = self._lib, self._ptr()
        if "cb_strategy_stats" not in _lib._State.probed:
            self._probe_stats()
        n = lib.cb_shim_stats(s, None, 0)
        while True:
            out = (_lib.CbStrategyStats * max(n, 1))()
            m = lib.cb_shim_stats(s, out, max(n, 1))
            if m <= max(n, 1):
                break
            n = m
        return [StrategyStats(out[i].name.decode("utf-8", "replace"), out[i].decisions,
                              out[i].total_ns, out[i].max_ns, tuple(out[i].fallbacks))
                for i in range(m)]

    def _probe_stats(self):
        # one entry into a sentinel buffer: the extent the shim writes is sizeof(cb_strategy_stats)
        buf = _lib._sentinel_buffer(1024)
        if self._lib.cb_shim_stats(self._ptr(), buf, 1) >= 1:
            _lib.check_extent("cb_strategy_stats", _lib.CbStrategyStats, _lib.written_extent(buf))
            _lib._State.probed.add("cb_strategy_stats")


class Table(_lib.Handle):
    """One plugin instance per seat. decide_bid / decide_play(view) -> (code, Decision):
    code 0 = the strategy's own answer, > 0 = a fallback's (the reason); < 0 raises ShimError
    with cb_table_last_error's text."""

    def __init__(self, shim, table_id=None):
        self._h = None
        self._lib = shim._lib
        self.shim = shim  # the C table keeps the C shim alive; this keeps the Python one
        err = _lib.errbuf()
        tid = None if table_id is None else str(table_id).encode()
        t = self._lib.cb_table_new(shim._ptr(), tid, err, _lib.ERRLEN)
        if not t:
            raise _lib.ConfigError(_lib.text(err) or "cannot make table %r" % table_id, ERR_CONFIG)
        self._h = t
        self.table_id = table_id

    _what = "table"

    def _free(self, t):
        self._lib.cb_table_free(t)

    def strategy(self, seat):
        s = self._lib.cb_table_strategy(self._ptr(), seat)
        return None if s is None else s.decode("utf-8", "replace")

    @property
    def last_error(self):
        """cb_table_last_error ("" when the last call succeeded, or when the library lacks it)."""
        if not _lib.has_shim_symbol("cb_table_last_error"):
            return ""
        s = self._lib.cb_table_last_error(self._ptr())
        return s.decode("utf-8", "replace") if s else ""

    def seat_info(self, seat):
        """What the seat runs (cb_table_seat_info); NotImplementedError on an older shim."""
        if not _lib.has_shim_symbol("cb_table_seat_info"):
            raise NotImplementedError("this libcardbot-shim has no cb_table_seat_info")
        t = self._ptr()
        if "cb_seat_info" not in _lib._State.probed:
            # ask for more than the binding knows: the shim answers with its own sizeof
            size = ctypes.sizeof(_lib.CbSeatInfo)
            buf = (ctypes.c_uint8 * (size + 64))()
            ctypes.c_uint32.from_buffer(buf).value = size + 64
            rc = self._lib.cb_table_seat_info(t, seat, buf)
            if rc < 0:
                raise _lib.ShimError("seat_info: %s" % self._error(rc), rc)
            _lib.check_struct_size("cb_seat_info", _lib.CbSeatInfo,
                                   ctypes.c_uint32.from_buffer(buf).value)
            _lib._State.probed.add("cb_seat_info")
        si = _lib.CbSeatInfo()
        si.struct_size = ctypes.sizeof(si)
        rc = self._lib.cb_table_seat_info(t, seat, ctypes.byref(si))
        if rc < 0:
            raise _lib.ShimError("seat_info: %s" % self._error(rc), rc)

        def s(b):
            return None if b is None else b.decode("utf-8", "replace")
        return SeatInfo(si.isolation, s(si.strategy), s(si.plugin_path), s(si.plugin_name),
                        s(si.plugin_version), si.config_gen, si.load_gen, si.file_dev, si.file_ino,
                        si.file_size, si.file_mtime_sec, si.file_mtime_nsec, si.pending,
                        si.private_copy, si.sha256.decode())

    def _error(self, code):
        msg = self.last_error
        return msg or strerror(code)

    def _decide(self, fn, what, view):
        _lib._check_view_current(view)
        if not isinstance(view, _lib.CbView):
            raise TypeError("view must be a cardbot CbView (Engine.view())")
        t = self._ptr()
        if "cb_decision" not in _lib._State.probed:
            size = ctypes.sizeof(_lib.CbDecision)
            buf = (ctypes.c_uint8 * (size + 64))()
            ctypes.c_uint32.from_buffer(buf).value = size + 64
            code = fn(t, ctypes.byref(view), buf)
            if code < 0:
                raise _lib.ShimError("%s: %s" % (what, self._error(code)), code)
            _lib.probe_decision_size(ctypes.c_uint32.from_buffer(buf).value)
            _lib._State.probed.add("cb_decision")
            return code, Decision._from_c(_lib.CbDecision.from_buffer(buf))
        d = _lib.CbDecision()
        d.struct_size = ctypes.sizeof(d)
        code = fn(t, ctypes.byref(view), ctypes.byref(d))
        if code < 0:
            raise _lib.ShimError("%s: %s" % (what, self._error(code)), code)
        return code, Decision._from_c(d)

    def decide_bid(self, view):
        return self._decide(self._lib.cb_decide_bid, "decide_bid", view)

    def decide_play(self, view):
        return self._decide(self._lib.cb_decide_play, "decide_play", view)

    def decide(self, view):
        """decide_bid or decide_play by the view's phase."""
        if view.phase == 1:
            return self.decide_bid(view)
        return self.decide_play(view)

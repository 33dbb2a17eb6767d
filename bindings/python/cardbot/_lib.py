"""Loading libcardbot.so.1 / libcardbot-shim.so.1, the struct layouts, the prototypes and the
layout checks.

Where the libraries come from, first match wins:
  1. cardbot.load(lib_dir) - an explicit directory (or explicit file paths);
  2. the environment variable CARDBOT_LIB_DIR (read when the package is imported);
  3. the system loader: "libcardbot.so.1" (LD_LIBRARY_PATH, ld.so.cache, ...), then
     ctypes.util.find_library("cardbot").

The C side exports no sizeof, so the layouts are checked two ways: against a table of sizes and
offsets worked out by hand from the headers for LP64 (x86-64 SysV; aarch64 has the same), and
against what the library itself writes (cb_engine_view's struct_size, the extent cb_rules_preset
and cb_classify write, the smallest cb_engine_opts the engine accepts, the shim's
cb_decision.struct_size, ...). A mismatch raises LayoutError (an ImportError).
"""
import ctypes
import ctypes.util
import os
import threading
from ctypes import (POINTER, Structure, c_bool, c_char, c_char_p, c_float, c_int, c_int32,
                    c_int64, c_size_t, c_uint8, c_uint32, c_uint64, c_void_p)

# The C API this binding is written against (include/cardbot/game.h, bot.h).
VERSION_MAJOR = 1
VERSION_MINOR = 4
ABI_MAJOR = 1
ABI_MINOR = 1
ABI_VERSION = (ABI_MAJOR << 16) | ABI_MINOR

CORE_SONAME = "libcardbot.so.1"
SHIM_SONAME = "libcardbot-shim.so.1"

ERRLEN = 512


# ---- errors ----------------------------------------------------------------------------------

class CardbotError(Exception):
    """A refused call. .reason is the library's text, .code its result code (or None)."""

    def __init__(self, reason, code=None):
        super().__init__(reason)
        self.reason = reason
        self.code = code


class IllegalActionError(CardbotError):
    """The engine refused a bid or a play; the game is unchanged."""


class ConfigError(CardbotError):
    """cb_shim_open / cb_shim_reload / cb_table_new refused a config."""


class ShimError(CardbotError):
    """cb_decide_* (or cb_table_seat_info) returned < 0; .code is CB_ERR_*."""


# ---- handles -----------------------------------------------------------------------------------

class Handle:
    """The owner of one C object (an engine, a shim, a table): close() frees it once, as do the
    end of a with-block and, as a last resort, garbage collection; _ptr() refuses a closed one.
    A subclass names the object (_what) and frees it (_free)."""

    _what = "object"
    _h = None

    def _free(self, h):
        raise NotImplementedError

    def close(self):
        h, self._h = self._h, None
        if h:
            self._free(h)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def _ptr(self):
        if not self._h:
            raise CardbotError("%s: closed" % self._what)
        return self._h


class LayoutError(ImportError):
    """A ctypes Structure disagrees with the C layout of the loaded library."""


class NotLoadedError(CardbotError):
    """The native libraries were not found."""


# ---- struct layouts (mirrors of the public headers) ------------------------------------------

cb_cards = c_uint64
cb_counts = c_uint64

CB_MAX_SEATS = 3


class CbRules(Structure):
    _fields_ = [
        ("game", c_int),                # cb_game (enum)
        ("preset", c_char * 16),
        ("deck", cb_cards),
        ("players", c_uint8),
        ("hand_size", c_uint8),
        ("bottom", c_uint8),
        ("min_pair_chain", c_uint8),
        ("short_triple", c_uint8),
        ("four_with", c_uint8),
        ("aaa_bomb", c_bool),
        ("rocket_kickers", c_bool),
        ("four_two_same", c_bool),
        ("must_beat", c_bool),
        ("must_beat_bomb", c_bool),
        ("spade3_first", c_bool),
        ("warn_single", c_bool),
        ("rob", c_bool),
        ("card_points", c_int),
        ("spring_double", c_bool),
        ("bomb_points", c_int),
        ("bao", c_bool),
        ("bao_points", c_int),
        ("plane_single_wings", c_bool),
        ("plane_pair_wings", c_bool),
        ("short_follow", c_bool),
        ("max_pair_chain", c_uint8),
    ]


class CbMove(Structure):
    _fields_ = [
        ("counts", cb_counts),
        ("shape", c_uint8),
        ("main", c_uint8),
        ("len", c_uint8),
        ("ncards", c_uint8),
        ("kick", c_uint8),
        ("pad", c_uint8 * 3),
    ]


class CbCtx(Structure):
    _fields_ = [
        ("hand", cb_counts),
        ("table", POINTER(CbMove)),
        ("next_has_one", c_bool),
        ("first_play", c_bool),
    ]


class CbPlayRec(Structure):
    _fields_ = [
        ("cards", cb_cards),
        ("seat", c_int32),
        ("pad", c_int32),
    ]


class CbView(Structure):
    """cb_view (bot.h). Built by Engine.view(); the pointers (rules, history) point into the
    engine, which the view keeps alive, and are valid until the engine's next action."""
    _fields_ = [
        ("struct_size", c_uint32),
        ("abi_version", c_uint32),
        ("rules", POINTER(CbRules)),
        ("phase", c_int32),
        ("seat", c_int32),
        ("nseats", c_int32),
        ("first_seat", c_int32),
        ("hand", cb_cards),
        ("cards_left", c_int32 * CB_MAX_SEATS),
        ("bombs", c_int32 * CB_MAX_SEATS),
        ("bids", c_int32 * CB_MAX_SEATS),
        ("landlord", c_int32),
        ("bottom", cb_cards),
        ("history", POINTER(CbPlayRec)),
        ("nhistory", c_int32),
        ("table_seat", c_int32),
        ("table", cb_cards),
        ("budget_ms", c_uint32),
        ("pad", c_uint32),
        ("seed", c_uint64),
        # ABI 1.1
        ("first_bidder", c_int32),
        ("pad2", c_int32),
    ]

    def history_list(self):
        """The history as a list of (seat, cards) (copied; the view must still be current)."""
        _check_view_current(self)
        if not self.history:
            return []
        return [(self.history[i].seat, self.history[i].cards) for i in range(self.nhistory)]


class CbDecision(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("flags", c_uint32),
        ("cards", cb_cards),
        ("bid", c_int32),
        ("value", c_float),
        ("simulations", c_uint64),
        ("nodes", c_uint64),
        ("minhands_before", c_int32),
        ("minhands_after", c_int32),
        ("explain", c_char * 112),
    ]


class CbEngineOpts(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("pad", c_uint32),
        ("key", c_uint64),
        ("deal", c_uint64),
        ("game", c_uint64),
        ("rotation", c_int32),
        ("first_bidder", c_int32),
        ("landlord", c_int32),
        ("max_redeals", c_int32),
        ("hands", POINTER(cb_cards)),
        ("bottom", cb_cards),
    ]


CB_FB_NREASONS = 6


class CbStrategyStats(Structure):
    _fields_ = [
        ("name", c_char * 48),
        ("decisions", c_uint64),
        ("total_ns", c_uint64),
        ("max_ns", c_uint64),
        ("fallbacks", c_uint64 * CB_FB_NREASONS),
    ]


class CbSeatInfo(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("isolation", c_int32),
        ("strategy", c_char_p),
        ("plugin_path", c_char_p),
        ("plugin_name", c_char_p),
        ("plugin_version", c_char_p),
        ("config_gen", c_uint64),
        ("load_gen", c_uint64),
        ("file_dev", c_uint64),
        ("file_ino", c_uint64),
        ("file_size", c_int64),
        ("file_mtime_sec", c_int64),
        ("file_mtime_nsec", c_int64),
        ("pending", c_int32),
        ("private_copy", c_int32),
        ("sha256", c_char * 65),
    ]


# The documented C layouts (LP64: x86-64 SysV, worked out by hand from the headers):
# name -> (Structure, sizeof, {member: offsetof}).
EXPECTED_LAYOUTS = {
    "cb_rules": (CbRules, 72, {
        "game": 0, "preset": 4, "deck": 24, "players": 32, "hand_size": 33, "bottom": 34,
        "min_pair_chain": 35, "short_triple": 36, "four_with": 37, "aaa_bomb": 38,
        "rocket_kickers": 39, "four_two_same": 40, "must_beat": 41, "must_beat_bomb": 42,
        "spade3_first": 43, "warn_single": 44, "rob": 45, "card_points": 48,
        "spring_double": 52, "bomb_points": 56, "bao": 60, "bao_points": 64,
        "plane_single_wings": 68, "plane_pair_wings": 69, "short_follow": 70,
        "max_pair_chain": 71}),
    "cb_move": (CbMove, 16, {
        "counts": 0, "shape": 8, "main": 9, "len": 10, "ncards": 11, "kick": 12, "pad": 13}),
    "cb_ctx": (CbCtx, 24, {"hand": 0, "table": 8, "next_has_one": 16, "first_play": 17}),
    "cb_play_rec": (CbPlayRec, 16, {"cards": 0, "seat": 8, "pad": 12}),
    "cb_view": (CbView, 136, {
        "struct_size": 0, "abi_version": 4, "rules": 8, "phase": 16, "seat": 20, "nseats": 24,
        "first_seat": 28, "hand": 32, "cards_left": 40, "bombs": 52, "bids": 64,
        "landlord": 76, "bottom": 80, "history": 88, "nhistory": 96, "table_seat": 100,
        "table": 104, "budget_ms": 112, "pad": 116, "seed": 120, "first_bidder": 128,
        "pad2": 132}),
    "cb_decision": (CbDecision, 160, {
        "struct_size": 0, "flags": 4, "cards": 8, "bid": 16, "value": 20, "simulations": 24,
        "nodes": 32, "minhands_before": 40, "minhands_after": 44, "explain": 48}),
    "cb_engine_opts": (CbEngineOpts, 64, {
        "struct_size": 0, "pad": 4, "key": 8, "deal": 16, "game": 24, "rotation": 32,
        "first_bidder": 36, "landlord": 40, "max_redeals": 44, "hands": 48, "bottom": 56}),
    "cb_strategy_stats": (CbStrategyStats, 120, {
        "name": 0, "decisions": 48, "total_ns": 56, "max_ns": 64, "fallbacks": 72}),
    "cb_seat_info": (CbSeatInfo, 176, {
        "struct_size": 0, "isolation": 4, "strategy": 8, "plugin_path": 16, "plugin_name": 24,
        "plugin_version": 32, "config_gen": 40, "load_gen": 48, "file_dev": 56,
        "file_ino": 64, "file_size": 72, "file_mtime_sec": 80, "file_mtime_nsec": 88,
        "pending": 96, "private_copy": 100, "sha256": 104}),
}
CB_VIEW_SIZE_1_0 = 128        # offsetof(cb_view, first_bidder)
CB_SEAT_INFO_SIZE_1_1 = 169   # offsetof(cb_seat_info, sha256) + 65


def check_struct_size(name, cls, c_size):
    """Raise LayoutError unless ctypes.sizeof(cls) == c_size (the size the C side reports)."""
    py = ctypes.sizeof(cls)
    if py != c_size:
        raise LayoutError(
            "cardbot binding: struct %s is %d bytes in the loaded library but %d bytes in the "
            "Python binding (%s.%s); the binding (ABI %d.%d) does not match this library"
            % (name, c_size, py, cls.__module__, cls.__name__, ABI_MAJOR, ABI_MINOR))


def check_layouts(layouts=None):
    """Compare every Structure with the documented C layout (sizes and member offsets).
    Only meaningful on LP64 platforms; returns the number of structs checked."""
    layouts = EXPECTED_LAYOUTS if layouts is None else layouts
    if ctypes.sizeof(c_void_p) != 8 or ctypes.sizeof(ctypes.c_long) != 8:
        return 0  # not LP64: the hand-computed table does not apply (the probes still run)
    for name, (cls, size, offsets) in layouts.items():
        check_struct_size(name, cls, size)
        fields = {f[0] for f in cls._fields_}
        for member, off in offsets.items():
            if member not in fields:
                raise LayoutError("cardbot binding: struct %s has no member %s in %s"
                                  % (name, member, cls.__name__))
            got = getattr(cls, member).offset
            if got != off:
                raise LayoutError("cardbot binding: %s.%s is at offset %d in the binding, %d in C"
                                  % (name, member, got, off))
    return len(layouts)


# ---- prototypes ------------------------------------------------------------------------------

_P = POINTER
_CORE_PROTOS = {
    # cards.h
    "cb_cards_pick": (c_int, [cb_cards, cb_counts, _P(cb_cards)]),
    "cb_cards_parse": (c_int, [c_char_p, cb_cards, _P(cb_cards), c_char_p, c_size_t]),
    "cb_cards_parse_held": (c_int, [c_char_p, cb_cards, cb_cards, _P(cb_cards), c_char_p, c_size_t]),
    "cb_counts_parse": (c_int, [c_char_p, cb_cards, _P(cb_counts), c_char_p, c_size_t]),
    "cb_cards_format": (c_size_t, [cb_cards, c_bool, c_char_p, c_size_t]),
    "cb_counts_format": (c_size_t, [cb_counts, c_char_p, c_size_t]),
    # rules.h
    "cb_rules_preset": (c_int, [c_char_p, c_void_p]),
    "cb_rules_set": (c_int, [_P(CbRules), c_char_p, c_char_p, c_char_p, c_size_t]),
    "cb_rules_equal": (c_bool, [_P(CbRules), _P(CbRules)]),
    "cb_classify": (c_bool, [_P(CbRules), cb_counts, c_void_p, c_char_p, c_size_t]),
    "cb_beats": (c_bool, [_P(CbRules), _P(CbMove), _P(CbMove), c_bool]),
    "cb_legal_moves": (c_int, [_P(CbRules), _P(CbCtx), _P(CbMove), c_int]),
    "cb_play_legal": (c_bool, [_P(CbRules), _P(CbCtx), cb_counts, _P(CbMove), c_char_p, c_size_t]),
    "cb_min_hands": (c_int, [_P(CbRules), cb_counts]),
    # game.h
    "cb_version": (c_char_p, []),
    "cb_view_check": (c_int, [_P(CbRules), c_void_p, c_char_p, c_size_t]),
    "cb_view_legal_bids": (c_int, [c_void_p, _P(c_int32), c_int]),
    "cb_engine_new": (c_void_p, [_P(CbRules), _P(CbEngineOpts), c_char_p, c_size_t]),
    "cb_engine_free": (None, [c_void_p]),
    "cb_engine_clone": (c_void_p, [c_void_p]),
    "cb_engine_rules": (_P(CbRules), [c_void_p]),
    "cb_engine_phase": (c_int, [c_void_p]),
    "cb_engine_turn": (c_int, [c_void_p]),
    "cb_engine_hand": (cb_cards, [c_void_p, c_int]),
    "cb_engine_dealt": (cb_cards, [c_void_p, c_int]),
    "cb_engine_bottom": (cb_cards, [c_void_p]),
    "cb_engine_landlord": (c_int, [c_void_p]),
    "cb_engine_first_seat": (c_int, [c_void_p]),
    "cb_engine_first_bidder": (c_int, [c_void_p]),
    "cb_engine_stake": (c_int, [c_void_p]),
    "cb_engine_redeals": (c_int, [c_void_p]),
    "cb_engine_bids": (c_int, [c_void_p, _P(c_int32), _P(c_int32), _P(c_int32), c_int]),
    "cb_engine_history": (_P(CbPlayRec), [c_void_p, _P(c_int)]),
    "cb_engine_legal_bids": (c_int, [c_void_p, _P(c_int32), c_int]),
    "cb_engine_legal_plays": (c_int, [c_void_p, _P(cb_cards), c_int]),
    "cb_engine_bid": (c_int, [c_void_p, c_int, c_char_p, c_size_t]),
    "cb_engine_play": (c_int, [c_void_p, cb_cards, c_char_p, c_size_t]),
    "cb_engine_view": (c_int, [c_void_p, c_int, c_uint32, c_void_p]),
    "cb_engine_winner": (c_int, [c_void_p]),
    "cb_engine_points": (c_int, [c_void_p, _P(c_int)]),
    "cb_engine_plays_made": (c_int, [c_void_p, c_int]),
    "cb_engine_bomb_tricks": (c_int, [c_void_p, c_int]),
    "cb_prf64": (c_uint64, [c_uint64, c_char_p, c_uint64, c_uint64, c_uint64]),
}

_SHIM_PROTOS = {
    "cb_strerror": (c_char_p, [c_int]),
    "cb_shim_open": (c_void_p, [c_char_p, c_char_p, c_size_t]),
    "cb_shim_reload": (c_int, [c_void_p, c_char_p, c_size_t]),
    "cb_shim_free": (None, [c_void_p]),
    "cb_shim_rules": (_P(CbRules), [c_void_p]),
    "cb_shim_get": (c_char_p, [c_void_p, c_char_p, c_char_p]),
    "cb_table_new": (c_void_p, [c_void_p, c_char_p, c_char_p, c_size_t]),
    "cb_table_free": (None, [c_void_p]),
    "cb_table_strategy": (c_char_p, [c_void_p, c_int]),
    "cb_decide_bid": (c_int, [c_void_p, _P(CbView), c_void_p]),
    "cb_decide_play": (c_int, [c_void_p, _P(CbView), c_void_p]),
    "cb_shim_stats": (c_int, [c_void_p, c_void_p, c_int]),
}
# Newer shim calls: wrapped when the loaded library has them.
_SHIM_OPTIONAL = {
    "cb_table_last_error": (c_char_p, [c_void_p]),
    "cb_table_seat_info": (c_int, [c_void_p, c_int, c_void_p]),
}


def _declare(lib, protos, optional=False):
    for name, (res, args) in protos.items():
        try:
            fn = getattr(lib, name)
        except AttributeError:
            if optional:
                continue
            raise LayoutError("cardbot binding: %s has no symbol %s" % (lib._name, name))
        fn.restype = res
        fn.argtypes = args


# ---- loading ---------------------------------------------------------------------------------

class _State:
    core = None
    shim = None
    core_path = None
    shim_path = None
    shim_error = None
    not_found = None      # why the implicit load found nothing
    probed = set()        # deferred probes already done ("cb_decision", ...)
    lock = threading.Lock()


def _open(candidates):
    errors = []
    mode = getattr(os, "RTLD_GLOBAL", 0) | getattr(os, "RTLD_NOW", 2)
    for c in candidates:
        if not c:
            continue
        try:
            return ctypes.CDLL(c, mode=mode), c
        except OSError as e:  # the loader's text usually names the file already
            errors.append(str(e) if str(e).startswith(c + ":") else "%s: %s" % (c, e))
    raise OSError("; ".join(errors) if errors else "no candidate")


def load(lib_dir=None, core_path=None, shim_path=None):
    """Load the libraries (see the module text for the order) and check the layouts.
    Called at import with the environment's choice; call it yourself with lib_dir (or file
    paths) before using the binding when the libraries live elsewhere. Raises OSError when the
    core library cannot be loaded, LayoutError when it does not match this binding."""
    with _State.lock:
        if lib_dir is None and core_path is None:
            lib_dir = os.environ.get("CARDBOT_LIB_DIR") or None
        if lib_dir is not None:
            lib_dir = os.path.abspath(lib_dir)
            core_path = core_path or os.path.join(lib_dir, CORE_SONAME)
            shim_path = shim_path or os.path.join(lib_dir, SHIM_SONAME)
        if _State.core is not None:
            if core_path is None or os.path.realpath(core_path) == os.path.realpath(_State.core_path):
                return _State.core
            raise CardbotError("cardbot: the core library is already loaded from %s; "
                               "a process can load only one" % _State.core_path)
        if core_path is not None:
            core_cands = [core_path]
        else:
            core_cands = [CORE_SONAME, ctypes.util.find_library("cardbot")]
        core, cpath = _open(core_cands)
        _declare(core, _CORE_PROTOS)
        _check_version(core)
        _probe_core(core)
        if shim_path is not None:
            shim_cands = [shim_path]
        elif "/" in cpath:
            shim_cands = [os.path.join(os.path.dirname(cpath), SHIM_SONAME)]
        else:
            shim_cands = [SHIM_SONAME, ctypes.util.find_library("cardbot-shim")]
        shim = None
        try:
            shim, spath = _open(shim_cands)
            _declare(shim, _SHIM_PROTOS)
            _declare(shim, _SHIM_OPTIONAL, optional=True)
            _State.shim_path = spath
            _State.shim_error = None
        except OSError as e:
            _State.shim_error = str(e)
        _State.core, _State.core_path, _State.shim = core, cpath, shim
        _State.not_found = None
        return core


def autoload():
    """The import-time load: an explicit CARDBOT_LIB_DIR must work (ImportError otherwise);
    without it a library the system loader cannot find leaves the package importable, and the
    first call says how to load it."""
    env = os.environ.get("CARDBOT_LIB_DIR")
    try:
        load()
    except LayoutError:
        raise
    except (OSError, CardbotError) as e:
        if env:
            raise ImportError("cardbot: cannot load %s from CARDBOT_LIB_DIR=%s: %s"
                              % (CORE_SONAME, env, e)) from e
        _State.not_found = str(e)


def core():
    lib = _State.core
    if lib is None:
        raise NotLoadedError("cardbot: %s is not loaded (%s); set CARDBOT_LIB_DIR or call "
                             "cardbot.load(lib_dir)" % (CORE_SONAME, _State.not_found or "not tried"))
    return lib


def shim():
    core()
    lib = _State.shim
    if lib is None:
        raise NotLoadedError("cardbot: %s is not loaded: %s" % (SHIM_SONAME, _State.shim_error))
    return lib


def has_shim_symbol(name):
    lib = _State.shim
    return lib is not None and hasattr(lib, name)


def loaded_paths():
    return {"core": _State.core_path, "shim": _State.shim_path if _State.shim else None}


def errbuf():
    return ctypes.create_string_buffer(ERRLEN)


def text(b):
    """C text (bytes or a char buffer) -> str."""
    if b is None:
        return None
    if not isinstance(b, bytes):
        b = b.value
    return b.decode("utf-8", "replace")


# ---- checks against the library ---------------------------------------------------------------

def parse_version(s):
    parts = s.split(".")
    try:
        return tuple(int(p) for p in parts[:3])
    except ValueError:
        raise LayoutError("cardbot binding: cannot read the library version %r" % s)


def check_version(version_text):
    """Raise LayoutError unless the library's major version is the binding's."""
    v = parse_version(version_text)
    if v[0] != VERSION_MAJOR:
        raise LayoutError("cardbot binding: the library is version %s, the binding speaks major "
                          "version %d" % (version_text, VERSION_MAJOR))
    return v


def _check_version(lib):
    s = lib.cb_version()
    if not s:
        raise LayoutError("cardbot binding: cb_version() returned NULL")
    check_version(s.decode())


_SENTINEL = 0xA5


def _sentinel_buffer(n):
    buf = (c_uint8 * n)()
    ctypes.memset(buf, _SENTINEL, n)
    return buf


def written_extent(buf):
    """One past the last byte the library changed in a sentinel-filled buffer."""
    raw = bytes(buf)
    for i in range(len(raw) - 1, -1, -1):
        if raw[i] != _SENTINEL:
            return i + 1
    return 0


def check_extent(name, cls, extent):
    """A struct the library wrote by assignment (every byte, or every member at least) ends
    within the last alignment unit of the binding's struct."""
    size = ctypes.sizeof(cls)
    align = ctypes.alignment(cls)
    if extent > size or extent <= size - align:
        raise LayoutError("cardbot binding: the library wrote %d bytes of struct %s, the binding's "
                          "%s is %d bytes" % (extent, name, cls.__name__, size))


def _fail(what):
    raise LayoutError("cardbot binding: layout probe failed: " + what)


def _counts_of_text(lib, t, deck):
    k = cb_counts()
    if lib.cb_counts_parse(t.encode(), deck, ctypes.byref(k), None, 0) != 0:
        _fail("cb_counts_parse(%r)" % t)
    return k.value


FULL_DECK = (1 << 54) - 1


def _probe_core(lib):
    check_layouts()
    # cb_rules: the extent cb_rules_preset writes, and members it fills
    presets = {}
    for name, game, hand, bottom, ncards in (("pdk16", 1, 16, 0, 48), ("ddz", 2, 17, 3, 54)):
        buf = _sentinel_buffer(512)
        if lib.cb_rules_preset(name.encode(), buf) != 0:
            _fail("cb_rules_preset(%s) refused" % name)
        check_extent("cb_rules", CbRules, written_extent(buf))
        r = CbRules.from_buffer_copy(buf)
        if (r.game != game or r.preset != name.encode() or r.players != 3 or r.hand_size != hand
                or r.bottom != bottom or bin(r.deck).count("1") != ncards):
            _fail("cb_rules members of preset %s read wrong (game %d, preset %r, players %d, "
                  "hand_size %d, bottom %d)" % (name, r.game, r.preset, r.players, r.hand_size, r.bottom))
        presets[name] = r
    ddz = presets["ddz"]
    # cb_move: cb_classify of a pair of 3s
    buf = _sentinel_buffer(256)
    k33 = _counts_of_text(lib, "33", FULL_DECK)
    if not lib.cb_classify(ctypes.byref(ddz), k33, buf, None, 0):
        _fail("cb_classify(33) refused")
    check_extent("cb_move", CbMove, written_extent(buf))
    m = CbMove.from_buffer_copy(buf)
    if (m.counts, m.shape, m.main, m.len, m.ncards) != (k33, 2, 0, 1, 2):
        _fail("cb_move members read wrong from cb_classify(33)")
    # cb_ctx: legal moves leading with 345, and following 33 with 44 (DDZ: a pass first)
    ctx = CbCtx(hand=_counts_of_text(lib, "345", FULL_DECK))
    out = (CbMove * 64)()
    if lib.cb_legal_moves(ctypes.byref(ddz), ctypes.byref(ctx), out, 64) != 3:
        _fail("cb_ctx: cb_legal_moves(345, leading) is not 3 singles")
    ctx = CbCtx(hand=_counts_of_text(lib, "44", FULL_DECK), table=ctypes.pointer(m))
    n = lib.cb_legal_moves(ctypes.byref(ddz), ctypes.byref(ctx), out, 64)
    if n != 2 or out[0].shape != 0 or out[1].shape != 2:
        _fail("cb_ctx: cb_legal_moves(44 over 33) is not pass, 44")
    # cb_engine_opts: the smallest size the engine accepts, and members it reads
    opts = CbEngineOpts(struct_size=ctypes.sizeof(CbEngineOpts) - 1, key=7, first_bidder=-1,
                        landlord=0)
    e = lib.cb_engine_new(ctypes.byref(ddz), ctypes.byref(opts), None, 0)
    if e:
        lib.cb_engine_free(e)
        _fail("cb_engine_opts: the engine accepts %d bytes, the binding's struct is %d"
              % (opts.struct_size, ctypes.sizeof(CbEngineOpts)))
    opts.struct_size = ctypes.sizeof(CbEngineOpts)
    err = errbuf()
    e0 = lib.cb_engine_new(ctypes.byref(ddz), ctypes.byref(opts), err, ERRLEN)
    if not e0:
        _fail("cb_engine_opts: the engine refused the binding's options: " + text(err))
    opts.rotation = 1
    e1 = lib.cb_engine_new(ctypes.byref(ddz), ctypes.byref(opts), None, 0)
    try:
        if not e1 or lib.cb_engine_dealt(e1, 0) != lib.cb_engine_dealt(e0, 1):
            _fail("cb_engine_opts: rotation is not read where the binding writes it")
        if lib.cb_engine_phase(e0) != 2 or lib.cb_engine_landlord(e0) != 0:
            _fail("cb_engine_opts: the fixed landlord is not read where the binding writes it")
        _probe_view(lib, e0)
    finally:
        lib.cb_engine_free(e0)
        if e1:
            lib.cb_engine_free(e1)


def _probe_view(lib, e):
    # cb_view: the struct_size cb_engine_view writes (a big buffer: it writes its own sizeof)
    buf = _sentinel_buffer(2048)
    if lib.cb_engine_view(e, 0, 1234, buf) != 0:
        _fail("cb_engine_view refused")
    c_size = c_uint32.from_buffer(buf).value
    check_struct_size("cb_view", CbView, c_size)
    v = CbView.from_buffer(buf)
    hand = lib.cb_engine_hand(e, 0)
    if (v.abi_version >> 16 != ABI_MAJOR or v.seat != 0 or v.nseats != 3 or v.phase != 2
            or v.hand != hand or v.cards_left[0] != 20 or v.landlord != 0
            or v.budget_ms != 1234 or v.bottom != lib.cb_engine_bottom(e) or v.table_seat != -1
            or v.first_bidder != -1 or v.first_seat != 0):
        _fail("cb_view members read wrong from cb_engine_view")
    # cb_play_rec: play the first legal play and read it back from the history and a view
    plays = (cb_cards * 4096)()
    n = lib.cb_engine_legal_plays(e, plays, 4096)
    if n <= 0 or plays[0] == 0:
        _fail("cb_engine_legal_plays gave no lead")
    if lib.cb_engine_play(e, plays[0], None, 0) != 0:
        _fail("cb_engine_play refused the engine's own legal play")
    nh = c_int()
    h = lib.cb_engine_history(e, ctypes.byref(nh))
    if nh.value != 1 or not h or h[0].seat != 0 or h[0].cards != plays[0]:
        _fail("cb_play_rec members read wrong from cb_engine_history")
    buf2 = _sentinel_buffer(2048)
    lib.cb_engine_view(e, 1, 10, buf2)
    v1 = CbView.from_buffer(buf2)
    if (v1.nhistory != 1 or ctypes.addressof(v1.history.contents) != ctypes.addressof(h.contents)
            or v1.table != plays[0] or v1.table_seat != 0 or v1.seat != 1):
        _fail("cb_view history / table read wrong after a play")
    if lib.cb_view_check(None, buf2, None, 0) != 0:
        _fail("cb_view_check refused the engine's own view")


def probe_decision_size(returned_size):
    """The shim sets out->struct_size to the bytes it wrote: asked for more than the binding
    knows, that is the C sizeof(cb_decision)."""
    check_struct_size("cb_decision", CbDecision, returned_size)


def _check_view_current(view):
    eng = getattr(view, "_engine", None)
    if eng is not None and not eng._view_current(view):
        raise CardbotError("cardbot: this view is stale (the engine acted or was closed since "
                           "it was built; its pointers are no longer valid)")

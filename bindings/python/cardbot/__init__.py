"""cardbot: a ctypes binding of libcardbot.so.1 (cards, rules, game engine) and
libcardbot-shim.so.1 (configs, strategy plugins, decisions).

    import cardbot
    with cardbot.Shim("config/ddz.ini") as shim, shim.table() as table:
        with cardbot.Engine(shim.rules, seed=1) as e:
            while not e.is_over:
                view = e.view()
                if view.phase == cardbot.PHASE_BID:
                    e.bid(table.decide_bid(view)[1].bid)
                else:
                    e.play(table.decide_play(view)[1].cards)
            print(e.points())

The libraries are found through cardbot.load(lib_dir), the environment variable
CARDBOT_LIB_DIR (read at import) or the system loader. The struct layouts are checked against
the loaded library at load time (LayoutError, an ImportError, on a mismatch).
"""
from . import _lib
from ._lib import (ABI_MAJOR, ABI_MINOR, ABI_VERSION, CardbotError, CbDecision, CbEngineOpts,
                   CbMove, CbPlayRec, CbRules, CbSeatInfo, CbStrategyStats, CbCtx, CbView,
                   ConfigError, IllegalActionError, LayoutError, NotLoadedError, ShimError,
                   check_layouts, load, loaded_paths)
from . import cards
from .cards import FULL_DECK
from .rules import GAME_DDZ, GAME_NOIP, GAME_PDK, Move, Rules, rule_keys, shape_names
from .engine import (PHASE_BID, PHASE_OVER, PHASE_PLAY, Engine, prf64, version, view_check,
                     view_legal_bids)
from .shim import Decision, SeatInfo, Shim, StrategyStats, Table, strerror

__version__ = "%d.%d" % (_lib.VERSION_MAJOR, _lib.VERSION_MINOR)

parse_cards = cards.parse
format_cards = cards.format

_lib.autoload()

__all__ = [
    "ABI_MAJOR", "ABI_MINOR", "ABI_VERSION", "CardbotError", "ConfigError", "IllegalActionError",
    "LayoutError", "NotLoadedError", "ShimError", "CbDecision", "CbEngineOpts", "CbMove",
    "CbPlayRec", "CbRules", "CbSeatInfo", "CbStrategyStats", "CbCtx", "CbView", "check_layouts",
    "load", "loaded_paths", "cards", "FULL_DECK", "GAME_DDZ", "GAME_NOIP", "GAME_PDK", "Move",
    "Rules", "rule_keys", "shape_names", "PHASE_BID", "PHASE_OVER", "PHASE_PLAY", "Engine",
    "prf64", "version", "view_check", "view_legal_bids", "Decision", "SeatInfo", "Shim",
    "StrategyStats", "Table", "strerror", "parse_cards", "format_cards",
]

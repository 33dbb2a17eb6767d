#!/usr/bin/env python3
"""The Python binding (bindings/python/cardbot) end to end: full PDK and DDZ games played from
Python, exactly as host-shim/console/match_game.c plays them in C — the engine deals, the view
of the seat to act goes to the shim, the shim's answer goes back to the engine — plus the
binding's own checks (struct layouts, version, errors with reasons, determinism).

Run by `make check` as build/<variant>/tests/test_python with CB_BUILD=build/<variant>, from
the repository root. Under the ASan build (CB_BUILD ending in "asan") the script re-executes
itself with the ASan runtime preloaded (Python itself is not instrumented) and
ASAN_OPTIONS=detect_leaks=0 (the interpreter keeps memory until exit by design).
Exit status 0 = every test passed; the last line is "N passed, N failed".
"""
import os
import subprocess
import sys
import tempfile
import time
import unittest

REEXEC_MARK = "CB_PY_TEST_SANITIZED"


def _script_path():
    return os.path.realpath(os.path.abspath(__file__))


def _sanitizer_runtimes(lib):
    """The ASan (and UBSan) runtimes the instrumented library links, by ldd; gcc's as a backup."""
    found = []
    try:
        out = subprocess.run(["ldd", lib], capture_output=True, text=True, timeout=30).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) >= 3 and parts[1] == "=>" and parts[0].startswith(("libasan", "libubsan")):
                found.append((parts[0], parts[2]))
    except (OSError, subprocess.SubprocessError):
        pass
    paths = [p for name, p in sorted(found, key=lambda x: not x[0].startswith("libasan"))]
    if not any(os.path.basename(p).startswith("libasan") for p in paths):
        try:
            p = subprocess.run(["gcc", "-print-file-name=libasan.so"], capture_output=True,
                               text=True, timeout=30).stdout.strip()
            if os.path.isabs(p) and os.path.exists(p):
                paths.insert(0, p)
        except (OSError, subprocess.SubprocessError):
            pass
    return paths


def _maybe_reexec_under_asan():
    build = os.environ.get("CB_BUILD", "")
    if not os.path.basename(os.path.normpath(build)).endswith("asan") or os.environ.get(REEXEC_MARK):
        return
    lib = os.path.join(os.path.abspath(build), "libcardbot.so.1")
    runtimes = _sanitizer_runtimes(lib)
    if not runtimes or not os.path.basename(runtimes[0]).startswith("libasan"):
        print("skipped under asan: cannot find the ASan runtime to preload (ldd %s, gcc "
              "-print-file-name=libasan.so)" % lib)
        print("0 passed, 0 failed")
        sys.exit(0)
    env = dict(os.environ)
    pre = env.get("LD_PRELOAD", "")
    env["LD_PRELOAD"] = ":".join(runtimes + ([pre] if pre else []))
    opts = env.get("ASAN_OPTIONS", "")
    env["ASAN_OPTIONS"] = (opts + ":" if opts else "") + "detect_leaks=0"
    env[REEXEC_MARK] = "1"
    sys.stdout.flush()
    os.execve(sys.executable, [sys.executable, _script_path()] + sys.argv[1:], env)


def _find_root():
    here = os.path.dirname(_script_path())
    cands = [os.getcwd()]
    if os.environ.get("CB_BUILD"):
        cands.append(os.path.join(os.path.abspath(os.environ["CB_BUILD"]), "..", ".."))
    cands += [here, os.path.join(here, ".."), os.path.join(here, "..", "..", "..")]
    for c in cands:
        if os.path.isfile(os.path.join(c, "bindings", "python", "cardbot", "__init__.py")):
            return os.path.abspath(c)
    sys.exit("test_python: cannot find the repository root (bindings/python) from %s" % cands)


_maybe_reexec_under_asan()
ROOT = _find_root()
BUILD = os.path.abspath(os.environ.get("CB_BUILD") or os.path.join(ROOT, "build", "plain"))
if os.environ.get("CB_BUILD") or not os.environ.get("CARDBOT_LIB_DIR"):
    os.environ["CARDBOT_LIB_DIR"] = BUILD
sys.path.insert(0, os.path.join(ROOT, "bindings", "python"))
sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree

import ctypes  # noqa: E402

import cardbot  # noqa: E402
from cardbot import _lib, cards  # noqa: E402
from cardbot import shim as shimmod  # noqa: E402

PDK_CONFIG = os.path.join(ROOT, "config", "pdk16.ini")
DDZ_CONFIG = os.path.join(ROOT, "config", "ddz.ini")
N_PDK = 30
N_DDZ = 30
N_ROB = 10
TOTALS = {"games": 0, "decisions": 0, "fallback_codes": {}}

ROB_CONFIG = """\
# test_python: DDZ with 叫/抢地主 (written by tests/test_python.py)
[shim]
fallback = safe
budget_ms = 1000

[game]
rules = ddz

[rules]
rob = true

[strategy.heuristic]
plugin = heuristic
level = 6

[strategy.weak]
plugin = heuristic
level = 2

[strategy.safe]
plugin = heuristic
level = 6

[seats]
0 = heuristic
1 = weak
2 = heuristic
"""


def play_game(tc, table, rules, seed, game=0, budget_ms=1000):
    """One game through the engine and the shim; returns what a replay must reproduce."""
    played = []       # (seat, cards) of every play decision, as the engine must record them
    bids = []
    with cardbot.Engine(rules, seed=seed, game=game) as e:
        tc.assertIn(e.phase, (cardbot.PHASE_BID, cardbot.PHASE_PLAY))
        steps = 0
        while not e.is_over:
            steps += 1
            tc.assertLess(steps, 500, "the game does not end")
            seat = e.turn
            tc.assertIn(seat, (0, 1, 2))
            v = e.view(seat, budget_ms)
            tc.assertEqual(v.seat, seat)
            tc.assertEqual(v.struct_size, ctypes.sizeof(cardbot.CbView))
            tc.assertEqual(v.hand, e.hand(seat) if v.phase == cardbot.PHASE_PLAY else e.dealt(seat))
            ok, why = cardbot.view_check(rules, v)
            tc.assertTrue(ok, "view_check refused the engine's view: %s" % why)
            ok, why = cardbot.view_check(None, v)
            tc.assertTrue(ok, "view_check(None) refused the engine's view: %s" % why)
            if v.phase == cardbot.PHASE_BID:
                legal = e.legal_bids()
                tc.assertEqual(cardbot.view_legal_bids(v), legal)
                code, d = table.decide_bid(v)
                tc.assertIn(d.bid, legal, "the shim's bid is not a legal one")
                redeals = e.redeals
                e.bid(d.bid)  # raises IllegalActionError if the engine refuses it
                if e.redeals != redeals:
                    bids.clear()
                else:
                    bids.append((seat, d.bid))
            else:
                tc.assertEqual(v.phase, cardbot.PHASE_PLAY)
                legal = {cards.counts_of(c) for c in e.legal_plays()}
                code, d = table.decide_play(v)
                tc.assertEqual(d.cards & ~v.hand, 0, "the shim played cards not in the hand")
                tc.assertIn(cards.counts_of(d.cards), legal, "the shim's play is not legal")
                e.play(d.cards)
                played.append((seat, d.cards))
            tc.assertGreaterEqual(code, 0)
            tc.assertIn(code, (shimmod.OK, shimmod.FB_LATE),
                        "fallback %d (%s): %s" % (code, cardbot.strerror(code), d.explain))
            TOTALS["fallback_codes"][code] = TOTALS["fallback_codes"].get(code, 0) + 1
            TOTALS["decisions"] += 1
            tc.assertEqual(d.fallback, False)
        tc.assertEqual(e.turn, -1)
        with tc.assertRaises(cardbot.CardbotError):
            e.view(0)
        pts = e.points()
        tc.assertEqual(sum(pts), 0, "points do not sum to 0: %s" % pts)
        w = e.winner
        tc.assertIn(w, (0, 1, 2))
        tc.assertEqual(e.hand(w), 0)
        hist = e.history
        tc.assertEqual([h for h in hist], played, "the engine's history is not what was played")
        final_bids, record = e.bids()
        tc.assertEqual(record, bids)
        TOTALS["games"] += 1
        return {"points": pts, "history": hist, "bids": record, "landlord": e.landlord,
                "winner": w, "multiplier": e.multiplier,
                "dealt": [e.dealt(s) for s in range(3)], "bottom": e.bottom}


class TestLoading(unittest.TestCase):
    def test_loaded_from_build(self):
        paths = cardbot.loaded_paths()
        self.assertEqual(os.path.dirname(paths["core"]), BUILD)
        self.assertEqual(os.path.dirname(paths["shim"]), BUILD)

    def test_explicit_load_and_not_found(self):
        self.assertIs(cardbot.load(BUILD), _lib.core())  # the same directory: a no-op
        with self.assertRaises(cardbot.CardbotError):
            cardbot.load(os.path.join(ROOT, "no-such-dir"))  # one core library per process
        env = {k: v for k, v in os.environ.items()
               if k not in ("CARDBOT_LIB_DIR", "LD_LIBRARY_PATH")}
        env["PYTHONPATH"] = os.path.join(ROOT, "bindings", "python")
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        probe = (
            "import sys, cardbot\n"
            "if cardbot.loaded_paths()['core']: print('system'); sys.exit(0)\n"
            "try:\n"
            "    cardbot.Rules('ddz')\n"
            "except cardbot.NotLoadedError as e:\n"
            "    assert 'CARDBOT_LIB_DIR' in str(e), e\n"
            "cardbot.load(sys.argv[1])\n"
            "assert cardbot.Rules('ddz').preset == 'ddz'\n"
            "print('loaded')\n")
        out = subprocess.run([sys.executable, "-c", probe, BUILD], env=env, capture_output=True,
                             text=True, timeout=120)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn(out.stdout.strip(), ("loaded", "system"))
        env["CARDBOT_LIB_DIR"] = os.path.join(ROOT, "no-such-dir")
        out = subprocess.run([sys.executable, "-c", "import cardbot"], env=env,
                             capture_output=True, text=True, timeout=120)
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("ImportError", out.stderr)
        self.assertIn("no-such-dir", out.stderr)

    def test_version(self):
        v = cardbot.version()
        self.assertEqual(int(v.split(".")[0]), _lib.VERSION_MAJOR)
        _lib.check_version(v)
        _lib.check_version("%d.99.0" % _lib.VERSION_MAJOR)
        with self.assertRaises(cardbot.LayoutError):
            _lib.check_version("%d.0.0" % (_lib.VERSION_MAJOR + 1))

    def test_layout_table(self):
        self.assertGreaterEqual(cardbot.check_layouts(), 8)
        # the size the library reports for a view is the binding's
        with cardbot.Engine("ddz", seed=3) as e:
            self.assertEqual(e.view().struct_size, ctypes.sizeof(cardbot.CbView))

    def test_layout_mismatch_is_caught(self):
        # a size the library would report that differs from the binding's
        with self.assertRaises(cardbot.LayoutError) as cm:
            _lib.check_struct_size("cb_view", cardbot.CbView, 128)
        self.assertIn("cb_view", str(cm.exception))
        self.assertIsInstance(cm.exception, ImportError)
        with self.assertRaises(cardbot.LayoutError):
            _lib.probe_decision_size(ctypes.sizeof(cardbot.CbDecision) + 8)
        _lib.probe_decision_size(ctypes.sizeof(cardbot.CbDecision))
        with self.assertRaises(cardbot.LayoutError):
            _lib.check_extent("cb_rules", cardbot.CbRules, ctypes.sizeof(cardbot.CbRules) + 8)

        # a Structure missing the 1.1 member is refused by the layout table
        class OldView(ctypes.Structure):
            _fields_ = cardbot.CbView._fields_[:-2]
        size, offsets = _lib.EXPECTED_LAYOUTS["cb_view"][1:]
        with self.assertRaises(cardbot.LayoutError):
            cardbot.check_layouts({"cb_view": (OldView, size, offsets)})

        # a member at the wrong offset
        class Shifted(ctypes.Structure):
            _fields_ = [("struct_size", ctypes.c_uint32), ("flags", ctypes.c_uint32),
                        ("cards", ctypes.c_uint64), ("bid", ctypes.c_int64)] + \
                cardbot.CbDecision._fields_[5:]
        size, offsets = _lib.EXPECTED_LAYOUTS["cb_decision"][1:]
        with self.assertRaises(cardbot.LayoutError):
            cardbot.check_layouts({"cb_decision": (Shifted, size, offsets)})

    def test_probes_on_shim_structs(self):
        with cardbot.Shim(DDZ_CONFIG) as s, s.table() as t:
            with cardbot.Engine(s.rules, seed=9) as e:
                t.decide(e.view())
            self.assertIn("cb_decision", _lib._State.probed)
            self.assertTrue(s.stats())
            self.assertIn("cb_strategy_stats", _lib._State.probed)


class TestCardsRules(unittest.TestCase):
    def test_cards(self):
        c = cardbot.parse_cards("3s3h4d XD")
        self.assertEqual(cards.size(c), 5)
        self.assertEqual(cardbot.format_cards(c, True), "3s3h4dXD")
        self.assertEqual(cardbot.format_cards(c), "334XD")
        self.assertEqual(cards.parse("T J Q"), cards.parse("10JQ"))
        self.assertEqual(cards.format(0), "")
        self.assertEqual(cards.ids(cards.parse("3s")), [0])
        self.assertEqual(cards.count(cards.counts_of(cards.parse("333XD")), 0), 3)
        with self.assertRaises(ValueError) as cm:
            cards.parse("33z")
        self.assertIn("z", str(cm.exception))
        with self.assertRaises(ValueError):
            cards.parse("3s3s")
        pdk = cardbot.Rules("pdk16")
        with self.assertRaises(ValueError):
            pdk.parse("X")  # no jokers in PDK

    def test_rules(self):
        r = cardbot.Rules("ddz", rob=True)
        self.assertTrue(r.rob)
        self.assertEqual(r.preset, "ddz")
        self.assertEqual(r.game, cardbot.GAME_DDZ)
        self.assertEqual(r.deck, cardbot.FULL_DECK)
        self.assertNotEqual(r, cardbot.Rules("ddz"))
        self.assertEqual(r, cardbot.Rules("ddz", {"rob": "true"}))
        p = cardbot.Rules("pdk16", min_pair_chain=2, must_beat=False)
        self.assertEqual(p.min_pair_chain, 2)
        self.assertFalse(p.must_beat)
        self.assertEqual(cards.size(p.deck), 48)
        self.assertIn("rob", cardbot.rule_keys())
        with self.assertRaises(ValueError) as cm:
            cardbot.Rules("pdk16", nosuch_flag=1)
        self.assertIn("nosuch_flag", str(cm.exception))
        with self.assertRaises(ValueError) as cm:
            cardbot.Rules("ddz", must_beat="maybe")
        self.assertIn("must_beat", str(cm.exception))
        with self.assertRaises(ValueError):
            cardbot.Rules("nosuch_preset")
        m = r.classify("33344")
        self.assertEqual(m.shape_name, "triple_2")
        self.assertTrue(r.beats("44455", "33344"))
        with self.assertRaises(ValueError):
            r.classify("34")
        self.assertEqual(len(r.legal_moves("345")), 3)
        self.assertEqual([x.shape for x in r.legal_moves("44", table="33")], [0, 2])
        self.assertEqual(r.min_hands("3334445556"), 2)
        ok, why = r.play_legal("3456", "34")
        self.assertFalse(ok)
        self.assertTrue(why)
        self.assertEqual(cardbot.prf64(1, "seed", 1, 2, 3), cardbot.prf64(1, "seed", 1, 2, 3))


class TestEngine(unittest.TestCase):
    def _pdk_in_play(self, seed):
        e = cardbot.Engine("pdk16", seed=seed)
        while e.phase == cardbot.PHASE_BID:  # 包庄: nobody declares
            self.assertEqual(e.legal_bids(), [0, 1])
            e.bid(0)
        self.assertEqual(e.phase, cardbot.PHASE_PLAY)
        return e

    def test_illegal_actions_raise_with_reason(self):
        with cardbot.Engine("pdk16", seed=5) as e:
            self.assertEqual(e.phase, cardbot.PHASE_BID)
            with self.assertRaises(cardbot.IllegalActionError) as cm:
                e.bid(7)
            self.assertTrue(cm.exception.reason)
            with self.assertRaises(cardbot.IllegalActionError) as cm:
                e.play(0)
            self.assertIn("bidding", cm.exception.reason)
            with self.assertRaises(cardbot.IllegalActionError) as cm:
                e.play("33")  # text too: the bidding is why, not the cards
            self.assertIn("bidding", cm.exception.reason)
            self.assertIn("play '33'", cm.exception.reason)
        with self._pdk_in_play(5) as e:
            seat = e.turn
            hand = e.hand(seat)
            spade3 = cards.parse("3s")
            self.assertTrue(hand & spade3, "the spade-3 holder leads")
            before = (e.turn, e.hand(seat), e.history)
            # a card of another seat
            other = e.hand((seat + 1) % 3)
            with self.assertRaises(cardbot.IllegalActionError) as cm:
                e.play(other & -other)
            self.assertIn("not in", cm.exception.reason)
            # the first play must hold the spade 3
            top = 1 << (hand.bit_length() - 1)
            with self.assertRaises(cardbot.IllegalActionError) as cm:
                e.play(top)
            self.assertTrue(cm.exception.reason)
            # a pass while leading
            with self.assertRaises(cardbot.IllegalActionError) as cm:
                e.play(0)
            self.assertTrue(cm.exception.reason)
            # not a shape: the spade 3 with a card of another rank that is not a straight
            lone = [c for c in cards.ids(hand) if cards.card_rank(c) >= 5]
            if lone:
                with self.assertRaises(cardbot.IllegalActionError) as cm:
                    e.play(spade3 | (1 << lone[0]))
                self.assertTrue(cm.exception.reason)
            # text: a typo named by its character and place; cards of the game that the seat
            # does not hold said so (not "not in the deck"); "pass" read as a pass
            with self.assertRaises(cardbot.IllegalActionError) as cm:
                e.play("3s Z")
            self.assertIn("not cards of this game", cm.exception.reason)
            self.assertIn("'Z' at position 4", cm.exception.reason)
            with self.assertRaises(cardbot.IllegalActionError) as cm:
                e.play("3: Z")  # the text's own ": " does not garble the reason
            self.assertIn("not cards of this game: bad card character ':' at position 2",
                          cm.exception.reason)
            missing = cards.format(other & -other, True)
            with self.assertRaises(cardbot.IllegalActionError) as cm:
                e.play(missing)
            self.assertIn("seat %d: card %s is not in the hand" % (seat, missing),
                          cm.exception.reason)
            self.assertNotIn("deck", cm.exception.reason)
            with self.assertRaises(cardbot.IllegalActionError) as cm:
                e.play("Pass")  # leading: a pass is refused by the engine, not as cards
            self.assertNotIn("character", cm.exception.reason)
            self.assertEqual((e.turn, e.hand(seat), e.history), before, "a refused play changed the game")
            e.play("3\u2660")  # text: cards chosen from the hand, suits as letters or symbols
            self.assertEqual(e.history, [(seat, spade3)])

    def test_views_keep_engine_and_go_stale(self):
        e = cardbot.Engine("ddz", seed=11, landlord=1)
        v = e.view()
        self.assertEqual(v.seat, 1)
        del e  # the view keeps the engine alive
        ok, why = cardbot.view_check(None, v)
        self.assertTrue(ok, why)
        eng = v._engine
        eng.play(eng.legal_plays()[0])
        with self.assertRaises(cardbot.CardbotError):
            cardbot.view_check(None, v)  # stale: its history pointer may have moved
        v2 = eng.view()
        self.assertEqual(len(v2.history_list()), 1)
        eng.close()
        with self.assertRaises(cardbot.CardbotError):
            v2.history_list()
        with self.assertRaises(cardbot.CardbotError):
            eng.turn

    def test_view_check_rejects_bad_views(self):
        with cardbot.Engine("ddz", seed=12, landlord=0) as e:
            v = e.view()
            v.cards_left[1] += 1
            ok, why = cardbot.view_check(e.rules, v)
            self.assertFalse(ok)
            self.assertTrue(why)
            v = e.view()
            v.struct_size = 16
            ok, why = cardbot.view_check(None, v)
            self.assertFalse(ok)
            self.assertIn("struct_size", why)
            v = e.view()
            ok, why = cardbot.view_check(cardbot.Rules("ddz", rob=True), v)
            self.assertFalse(ok)
            self.assertIn("rules", why)

    def test_given_hands_and_clone(self):
        with cardbot.Engine("ddz", seed=21, landlord=2) as a:
            hands = [a.dealt(s) for s in range(3)]
            with cardbot.Engine("ddz", hands=hands, bottom=a.bottom, landlord=2) as b:
                self.assertEqual([b.hand(s) for s in range(3)], [a.hand(s) for s in range(3)])
            c = a.clone()
            c.play(c.legal_plays()[-1])
            self.assertEqual(a.history, [])
            self.assertEqual(len(c.history), 1)
            c.close()
        with self.assertRaises(ValueError):
            cardbot.Engine("ddz", hands=[0, 0, 0])


class TestGames(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="cardbot-py-")
        cls.rob_config = os.path.join(cls.tmp.name, "ddz-rob.ini")
        with open(cls.rob_config, "w", encoding="utf-8") as f:
            f.write(ROB_CONFIG)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def _series(self, config, table_id, n, seed0):
        t0 = time.time()
        with cardbot.Shim(config) as s, s.table(table_id) as t:
            rules = s.rules
            for seat in range(3):
                self.assertTrue(t.strategy(seat))
            decisions0 = TOTALS["decisions"]
            results = [play_game(self, t, rules, seed0 + g, game=g) for g in range(n)]
            asked = TOTALS["decisions"] - decisions0
            stats = s.stats()
            self.assertEqual(sum(x.decisions for x in stats), asked,
                             "the shim's counts are not the decisions asked: %s" % (stats,))
            self.assertTrue(all(sum(x.fallbacks[1:]) == 0 or x.fallbacks[shimmod.FB_LATE]
                                == sum(x.fallbacks[1:]) for x in stats))
        print("  %d games of %s (%s): %.2fs"
              % (n, os.path.basename(config), table_id or "[seats]", time.time() - t0))
        return rules, results

    def test_pdk_games(self):
        rules, res = self._series(PDK_CONFIG, "heuristic", N_PDK, 1000)
        self.assertEqual(rules.preset, "pdk16")
        self.assertEqual(len(res), N_PDK)

    def test_ddz_games(self):
        rules, res = self._series(DDZ_CONFIG, None, N_DDZ, 2000)
        self.assertEqual(rules.preset, "ddz")
        self.assertTrue(all(r["landlord"] in (0, 1, 2) for r in res))
        self.assertTrue(all(cards.size(r["bottom"]) == 3 for r in res))

    def test_ddz_rob_games(self):
        rules, res = self._series(self.rob_config, None, N_ROB, 3000)
        self.assertTrue(rules.rob)
        for r in res:
            self.assertTrue(all(b in (0, 1, 2) for _, b in r["bids"]), r["bids"])

    def test_same_seed_same_game(self):
        for config, table_id, seed in ((PDK_CONFIG, "heuristic", 77), (DDZ_CONFIG, None, 78),
                                       (self.rob_config, None, 79)):
            runs = []
            for _ in range(2):
                with cardbot.Shim(config) as s, s.table(table_id) as t:
                    runs.append(play_game(self, t, s.rules, seed, game=3))
            self.assertEqual(runs[0], runs[1], "same seed, different game (%s)" % config)
            self.assertTrue(runs[0]["history"])

    def test_seat_info_and_errors(self):
        with cardbot.Shim(DDZ_CONFIG) as s:
            self.assertEqual(s.get("game", "rules"), "ddz")
            t = s.table()
            if _lib.has_shim_symbol("cb_table_seat_info"):
                info = t.seat_info(0)
                self.assertEqual(info.strategy, "heuristic")
                self.assertTrue(info.plugin_path.endswith(".so"))
                self.assertEqual(len(info.sha256), 64)
                with self.assertRaises(cardbot.ShimError):
                    t.seat_info(5)
            with cardbot.Engine(s.rules, seed=4) as e:
                v = e.view()
                v.struct_size = 8  # smaller than any view: refused with the member named
                with self.assertRaises(cardbot.ShimError) as cm:
                    t.decide_bid(v)
                self.assertEqual(cm.exception.code, shimmod.ERR_VIEW)
                if _lib.has_shim_symbol("cb_table_last_error"):
                    self.assertIn("struct_size", cm.exception.reason)
                    self.assertIn("struct_size", t.last_error)
                v = e.view()
                code, d = t.decide_bid(v)
                self.assertEqual(t.last_error, "")
                # another rule set than the table's: refused
                with cardbot.Engine(cardbot.Rules("ddz", rob=True), seed=4) as e2:
                    with self.assertRaises(cardbot.ShimError):
                        t.decide_bid(e2.view())
            t.close()
            t.close()  # closing twice is harmless
            with self.assertRaisesRegex(cardbot.CardbotError, "^table: closed$"):
                t.strategy(0)

    def test_closed_handles_name_themselves(self):
        # every wrapper of a C object frees it once and refuses to be used after, naming itself
        s = cardbot.Shim(self.rob_config)
        with s:
            with s.table() as t:
                self.assertIsNotNone(t.strategy(0))
            with self.assertRaisesRegex(cardbot.CardbotError, "^table: closed$"):
                t.strategy(0)
        with self.assertRaisesRegex(cardbot.CardbotError, "^shim: closed$"):
            s.rules
        s.close()
        e = cardbot.Engine("pdk16", seed=3)
        e.close()
        e.close()
        with self.assertRaisesRegex(cardbot.CardbotError, "^engine: closed$"):
            e.turn
        self.assertEqual(repr(e), "<Engine closed>")

    def test_config_errors_name_the_key(self):
        bad = os.path.join(self.tmp.name, "bad.ini")
        with open(bad, "w", encoding="utf-8") as f:
            f.write(ROB_CONFIG.replace("rob = true", "no_such_rule = true"))
        with self.assertRaises(cardbot.ConfigError) as cm:
            cardbot.Shim(bad)
        msg = str(cm.exception)
        self.assertIn("no_such_rule", msg)
        self.assertIn("bad.ini", msg)
        with self.assertRaises(cardbot.ConfigError):
            cardbot.Shim(os.path.join(self.tmp.name, "missing.ini"))


def main():
    t0 = time.time()
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    runner = unittest.TextTestRunner(verbosity=2, stream=sys.stdout)
    res = runner.run(suite)
    failed = len(res.failures) + len(res.errors) + len(res.unexpectedSuccesses)
    passed = res.testsRun - failed - len(res.skipped)
    print("python binding: %d games played from Python, %d decisions (codes %s), %.1fs, "
          "libraries %s%s" % (TOTALS["games"], TOTALS["decisions"],
                              dict(sorted(TOTALS["fallback_codes"].items())), time.time() - t0,
                              BUILD, " (LD_PRELOAD=%s)" % os.environ.get("LD_PRELOAD")
                              if os.environ.get(REEXEC_MARK) else ""))
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

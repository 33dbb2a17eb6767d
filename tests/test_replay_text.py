#!/usr/bin/env python3
"""make check: `cardbot replay FILE [--game N]`, a game as text for a terminal.

1. Golden: the replays in tests/replay/ (fixed-seed heuristic matches: PDK with 包庄
   declared, DDZ 叫/抢地主; checked in, so a change of strategy play cannot move them) render
   byte for byte as the .txt files next to them. CB_REGEN=1 rewrites those (then read the diff).
2. Structure, on fresh replays of every kind (tests/support/replayfix.py) and on the golden
   inputs: against an independent reading of each game line — the hands as dealt (cards and
   counts), every bid, every play in turn order under the right trick number with its cards,
   the cards its seat has left, its value and its explanation, and each seat's points. A
   renderer that drops, reorders or misreads anything fails here even if a golden file was
   regenerated blindly.
3. A file written before replays had a header (game lines only, no "type") still renders the
   same game.
4. Errors are one line on stderr and exit 2: a malformed line names FILE:LINE, as do a header
   of another version and a header after the first line; a missing file, a game the file does
   not hold, bad options.

Prints "ok"/"FAIL" per check and "N passed, N failed"; exit 0 = all passed.
"""
import difflib
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, "tests/support")
import replayfix as rf  # noqa: E402
from checks import check, finish  # noqa: E402

SUIT = {"s": "\u2660", "h": "\u2665", "c": "\u2663", "d": "\u2666"}
GOLDEN = [("tests/replay/pdk-bao.jsonl", 3), ("tests/replay/ddz-rob.jsonl", 1)]




if not os.access(rf.CARDBOT, os.X_OK) or not os.path.isdir("tests/replay"):
    check(False, f"run from the repository root after building {rf.CARDBOT} (CB_BUILD)")
    finish()


def shown(text):
    """Card text as the renderer shows it, without the rank grouping: the set of cards."""
    return sorted(re.findall(r"(?:[3-9TJQKA2][\u2660\u2665\u2663\u2666])|\b[XD]\b", text))


def as_shown(cards):
    out, i = [], 0
    while i < len(cards):
        if cards[i] in "XD":
            out.append(cards[i])
            i += 1
        else:
            out.append(cards[i] + SUIT[cards[i + 1]])
            i += 2
    return sorted(out)


def structure(path, gno, text):
    """Check the rendering of game gno (1-based) of path against the game line. Returns a
    list of problems (empty: all good)."""
    with open(path, encoding="utf-8") as f:
        lines = [json.loads(x) for x in f if x.strip()]
    header = lines[0] if lines[0].get("type") == "header" else None
    game = next(g for g in lines if g.get("type", "game") == "game" and g["game"] == gno - 1)
    ddz = game["rules"] == "ddz"
    probs = []
    body = text.split("\n")
    if header and not body[0].startswith(f"Replay {path}: {len(lines) - 1} games"):
        probs.append("first line: " + body[0])
    if header and f"seed {header['seed']}" not in text:
        probs.append("the header's seed is not shown")
    for name in (header or {}).get("strategies") or {}:
        if not any(b.startswith(f"Strategy {name}:") for b in body):
            probs.append(f"strategy {name} not listed")
    if f"\nGame {gno} (deal {game['deal'] + 1}, rotation {game['rotation']}), rules {game['rules']}\n" not in text:
        probs.append("no game title")
    # hands as dealt
    h0 = body.index("Hands as dealt") if "Hands as dealt" in body else len(body) - 4
    for s in range(3):
        line, hand = body[h0 + 1 + s], as_shown(game["hands"][s])
        if (not line.startswith(f"  seat {s} {game['seats'][s]} ") or shown(line) != hand
                or not re.search(rf"\s{len(hand)}\s", line)):
            probs.append(f"hand of seat {s}: {line!r} want {hand}")
    if ddz and (not body[h0 + 4].startswith("  bottom ") or shown(body[h0 + 4]) != as_shown(game["bottom"])):
        probs.append(f"bottom: {body[h0 + 4]!r}")
    # bids, in order
    i = body.index("Bidding (seat %d first)" % game["bids"][0]["seat"]) if ddz and game["bids"] else None
    if not ddz and game["bids"]:
        i = body.index("包庄 declarations (seat %d first)" % game["bids"][0]["seat"])
    for b in game["bids"]:
        if i is None or not body[i + 1].startswith(f"  seat {b['seat']} {game['seats'][b['seat']]}"):
            probs.append(f"bid {b}: line {body[i + 1] if i is not None else '?'}")
            break
        why = body[i + 2]
        if b["explain"] not in why or ("value" in b and f"value {b['value']:.3f}" not in why):
            probs.append(f"bid explanation: {why}")
        i += 2
    # plays: trick headers, seat, cards, cards left, value and explanation
    plays, _ = rf.walk(game, ddz)
    at = body.index(f"Play (seat {game['first_seat']} leads)")
    trick = 0
    for p, t, left, _counts in plays:
        at += 1
        if t != trick:
            if body[at] != f"Trick {t}":
                probs.append(f"trick {t}: got {body[at]!r}")
                break
            trick = t
            at += 1
        line, why = body[at], body[at + 1]
        at += 1
        if not line.startswith(f"  seat {p['seat']} {game['seats'][p['seat']]}"):
            probs.append(f"play {p}: line {line!r}")
            break
        if (shown(line.split("[")[0]) != as_shown(p["cards"])) or (not p["cards"] and " pass " not in line):
            probs.append(f"play cards {p['cards']!r}: line {line!r}")
        if not line.endswith(f"({left} left)"):
            probs.append(f"cards left {left}: line {line!r}")
        vtxt = f"value {p['value']:.3f}" if "value" in p else "value -"
        if not why.startswith("      " + vtxt) or not why.endswith(p["explain"]):
            probs.append(f"explanation {p['explain']!r} {vtxt}: line {why!r}")
    if body[at + 1:at + 3] != ["", "Result"]:
        probs.append(f"no Result after the last play: {body[at + 1:at + 3]}")
    for s in range(3):
        pts = game["points"][s]
        if not any(b.startswith(f"  seat {s} {game['seats'][s]}") and f" {pts:+d} points" in b for b in body[at:]):
            probs.append(f"points of seat {s} ({pts:+d})")
    return probs


# 1 + 2 on the golden inputs
for path, gno in GOLDEN:
    gold = path[:-len(".jsonl")] + f"-game{gno}.txt"
    rc, out, err = rf.cardbot("replay", path, "--game", gno)
    if not check(rc == 0 and out, f"{path} --game {gno} renders", err):
        continue
    if os.environ.get("CB_REGEN"):
        with open(gold, "w", encoding="utf-8") as f:
            f.write(out)
    want = open(gold, encoding="utf-8").read() if os.path.exists(gold) else ""
    diff = "".join(difflib.unified_diff(want.splitlines(True), out.splitlines(True), gold, "cardbot replay", n=1))
    check(out == want, f"{path} --game {gno} renders as {gold}", diff[:3000])
    p = structure(path, gno, out)
    check(not p, f"{path} --game {gno}: structure", "\n".join(p[:8]))
    rc, out2, _ = rf.cardbot("replay", path, "--game", gno)
    check(out2 == out, f"{path} --game {gno}: the same text twice")

with tempfile.TemporaryDirectory(prefix="cb-replay-text-") as tmp:
    # 2 on fresh replays, every game
    for kind in rf.KINDS:
        try:
            path = rf.play(tmp, kind)
        except RuntimeError as e:
            check(False, f"{kind}: the match ran", e)
            continue
        n = sum(1 for _ in open(path)) - 1
        probs = []
        for g in range(1, n + 1):
            rc, out, err = rf.cardbot("replay", path, "--game", g)
            probs += [f"game {g}: status {rc} {err}"] if rc else [f"game {g}: {x}" for x in structure(path, g, out)]
        check(not probs, f"{kind}: all {n} games render with every bid, play, explanation and point", "\n".join(probs[:8]))
    rc, out, _ = rf.cardbot("replay", os.path.join(tmp, "pdk-bao.jsonl"))
    rc1, out1, _ = rf.cardbot("replay", os.path.join(tmp, "pdk-bao.jsonl"), "--game", "1")
    check(rc == 0 and out == out1, "without --game: the first game")
    rc, out, _ = rf.cardbot("replay", "--ascii", GOLDEN[1][0])
    check(rc == 0 and "3s" in out.replace("3s3", "3s") and "\u2660" not in out, "--ascii: suits as letters")

    # 3: a file from before headers
    src, gno = GOLDEN[0]
    lines = open(src, encoding="utf-8").read().splitlines()
    old = os.path.join(tmp, "old.jsonl")
    with open(old, "w", encoding="utf-8") as f:
        for line in lines[1:]:
            g = json.loads(line)
            del g["type"]
            f.write(json.dumps(g, ensure_ascii=False, separators=(",", ":")) + "\n")
    rc, out, err = rf.cardbot("replay", old, "--game", gno)
    _, new, _ = rf.cardbot("replay", src, "--game", gno)
    check(rc == 0 and "no header line" in out and out[out.index("\nGame "):] == new[new.index("\nGame "):],
          "a file without a header renders the same game", err)

    # 4: errors, one line, exit 2
    def refused(what, pattern, *args):
        rc, out, err = rf.cardbot("replay", *args)
        check(rc == 2 and err.count("\n") == 1 and re.search(pattern, err) and not out,
              f"refused: {what}: {err.strip()}", f"status {rc}, stderr {err!r}, want {pattern!r}")

    def variant(name, edit):
        path = os.path.join(tmp, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(edit(list(lines))) + "\n")
        return path

    def bad_cards(ls):
        ls[2] = ls[2].replace('"cards":"', '"cards":"3z', 1)
        return ls

    def cut(ls):
        ls[3] = ls[3][:len(ls[3]) // 2]
        return ls

    def v2(ls):
        ls[0] = ls[0].replace('"version":1,', '"version":2,')
        return ls

    def two_headers(ls):
        return ls[:2] + ls[:1] + ls[2:]

    def wrong_rules(ls):
        ls[1] = ls[1].replace('"rules":"pdk16"', '"rules":"ddz"')
        return ls

    p = variant("cards.jsonl", bad_cards)
    refused("bad card text", re.escape(p) + r":3: plays: .*'z'", p)
    p = variant("cut.jsonl", cut)
    refused("a cut line", re.escape(p) + r":4: not JSON", p)
    p = variant("v2.jsonl", v2)
    refused("header version 2", re.escape(p) + r":1: header: version 2: this cardbot reads version 1", p)
    p = variant("two.jsonl", two_headers)
    refused("a second header", re.escape(p) + r":3: a header line after the first line", p)
    p = variant("rules.jsonl", wrong_rules)
    refused("a game of other rules", re.escape(p) + r":2: rules 'ddz': not the match's", p)
    empty = os.path.join(tmp, "empty.jsonl")
    open(empty, "w").close()
    refused("an empty file", "no games in the file", empty)
    refused("a missing file", "nothing.jsonl: No such file", os.path.join(tmp, "nothing.jsonl"))
    refused("a game the file does not hold", r"--game 4: not in .* \(it holds 3 games\)", src, "--game", "4")
    refused("a negative game number", r"--game -1: games are numbered from 1", src, "--game", "-1")
    refused("game 0", r"--game 0: games are numbered from 1", src, "--game", "0")
    refused("an unknown option", "Unknown option", src, "--bogus")
    refused("no FILE", "missing FILE", )
    refused("two FILEs", "one FILE at a time", src, src)
    refused("-o without --html", "give --html too", src, "-o", os.path.join(tmp, "x.html"))
finish()

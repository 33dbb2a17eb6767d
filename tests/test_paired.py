#!/usr/bin/env python3
"""make check: bench/paired.py, the paired per-deal comparison every strength figure of
notes/DESIGN-NOTES.md comes from, on results files written here with known outcomes.

Checks the row's figures against the formula computed here independently (per deal the mean
over its rotations, the difference A - B, mean +- 1.96 sd / sqrt(deals)); that two pairs of
files (two seeds) pool as separate deals even where their deal numbers coincide — merging
them by number would count 3 deals instead of 6 and fail; that a DDZ farmer wins with its
side; that deals only one run finished are left out; and that an odd number of files is
refused. Run from the repository root; prints "ok"/"FAIL" per check and "N passed, N failed".
"""
import json
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, "tests/support")
from checks import check, finish  # noqa: E402


def write(path, games, rules="pdk16"):
    """games: (deal, seats, winner, points[, landlord]) per game"""
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps({"cardbot_results": 1, "rules": rules, "duplicate": True}) + "\n")
        for i, g in enumerate(games):
            deal, seats, winner, points = g[:4]
            line = {"type": "game", "game": i, "deal": deal, "rules": rules, "seats": seats,
                    "winner": winner, "points": points, "plays": []}
            if len(g) > 4:
                line["landlord"] = g[4]
            f.write(json.dumps(line) + "\n")


def run(*args):
    return subprocess.run([sys.executable, "bench/paired.py", *args], capture_output=True, text=True)


def expect(diffs, places=3):
    n = len(diffs)
    m = sum(diffs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in diffs) / (n - 1))
    return f"{m:+.{places}f} +- {1.96 * sd / math.sqrt(n):.{places}f}"


def row(out):
    """the printed row's fields: label, deals, A win%, B win%, diff, +-, half, ..."""
    return out.stdout.split()


S = ["me", "x", "x"]  # the compared seat is "me", at seat 0
with tempfile.TemporaryDirectory() as d:
    p = lambda name: os.path.join(d, name)  # noqa: E731
    # seed 1: deals 0..2, two rotations each; A wins 2, 1, 0 of them, B 1, 1, 1
    write(p("a1"), [(0, S, 0, [2, -1, -1]), (0, S, 0, [2, -1, -1]), (1, S, 0, [2, -1, -1]),
                    (1, S, 1, [-1, 2, -1]), (2, S, 1, [-1, 2, -1]), (2, S, 2, [-1, -1, 2])])
    write(p("b1"), [(0, S, 0, [2, -1, -1]), (0, S, 1, [-1, 2, -1]), (1, S, 0, [2, -1, -1]),
                    (1, S, 1, [-1, 2, -1]), (2, S, 0, [2, -1, -1]), (2, S, 2, [-1, -1, 2])])
    d1 = [1.0 - 0.5, 0.5 - 0.5, 0.0 - 0.5]
    # seed 2: the same deal numbers, other outcomes; A wins 1, 2, 2, B 0, 1, 2
    write(p("a2"), [(0, S, 0, [2, -1, -1]), (0, S, 1, [-1, 2, -1]), (1, S, 0, [2, -1, -1]),
                    (1, S, 0, [2, -1, -1]), (2, S, 0, [2, -1, -1]), (2, S, 0, [2, -1, -1])])
    write(p("b2"), [(0, S, 1, [-1, 2, -1]), (0, S, 2, [-1, -1, 2]), (1, S, 0, [2, -1, -1]),
                    (1, S, 1, [-1, 2, -1]), (2, S, 0, [2, -1, -1]), (2, S, 0, [2, -1, -1])])
    d2 = [0.5 - 0.0, 1.0 - 0.5, 1.0 - 1.0]

    out = run("--strategy", "me", "--label", "one", p("a1"), p("b1"))
    f = row(out)
    check(out.returncode == 0 and f[1] == "3", "one pair: 3 deals", out.stdout + out.stderr)
    check(" ".join(f[4:7]) == expect(d1), "one pair: the win-share difference and its interval",
          f"{f[4:7]} vs {expect(d1)}")
    pts = [2.0 - 0.5, 0.5 - 0.5, -1.0 - 0.5]  # per deal: A's mean points minus B's
    check(" ".join(f[9:12]) == expect(pts, 2), "one pair: the points difference and its interval",
          f"{f[9:12]} vs {expect(pts, 2)}")

    out = run("--strategy", "me", "--label", "two", p("a1"), p("b1"), p("a2"), p("b2"))
    f = row(out)
    check(out.returncode == 0 and f[1] == "6", "two pairs pool as 6 deals (deal numbers coincide)",
          out.stdout + out.stderr)
    check(len(f) > 6 and " ".join(f[4:7]) == expect(d1 + d2), "two pairs: the pooled difference and interval",
          f"{f[4:7] if len(f) > 6 else f} vs {expect(d1 + d2)}")
    wa = (1 + 0.5 + 0 + 0.5 + 1 + 1) / 6
    check(len(f) > 2 and f[2] == f"{100 * wa:.1f}%", "two pairs: A's win share over all deals", f)

    # a deal only A finished is left out
    write(p("b3"), [(0, S, 0, [2, -1, -1]), (0, S, 1, [-1, 2, -1]), (1, S, 0, [2, -1, -1]),
                    (1, S, 1, [-1, 2, -1])])
    f = row(run("--strategy", "me", p("a1"), p("b3")))
    check(len(f) > 6 and f[0] == "2" and " ".join(f[3:6]) == expect(d1[:2]),
          "deals one run did not finish are left out", f)

    # DDZ: "me" as a farmer (landlord seat 2) wins when the other farmer goes out first
    D = ["me", "x", "y"]
    write(p("da"), [(0, D, 1, [1, 1, -2], 2), (1, D, 2, [-1, -1, 2], 2)], rules="ddz")
    write(p("db"), [(0, D, 2, [-1, -1, 2], 2), (1, D, 2, [-1, -1, 2], 2)], rules="ddz")
    f = row(run("--strategy", "me", p("da"), p("db")))
    check(len(f) > 2 and f[1] == "50.0%" and f[2] == "0.0%", "DDZ: a farmer wins with its side", f)

    out = run(p("a1"), p("b1"), p("a2"))
    check(out.returncode != 0 and "pairs" in out.stderr, "an odd number of files is refused",
          out.stdout + out.stderr)

finish()

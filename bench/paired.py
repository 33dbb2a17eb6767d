#!/usr/bin/env python3
"""cardbot bench — the paired comparison of two runs on the same duplicate deals.

Two `cardbot match --duplicate --results FILE` runs with the same seed and games play the same
deals; they differ in one strategy's configuration (or build). Per deal, the seat named
STRATEGY (its first seat, when it holds two) scores its mean over the deal's rotations (win
share — in DDZ its side's: a farmer wins when either farmer goes out — and points per game); the
difference A - B per deal, averaged over the deals both runs finished, with a 95% interval
(mean +- 1.96 sd / sqrt(deals)), is the paired result: the deals' luck cancels.

  paired.py [--header] [--label L] [--strategy S [--strategy-b SB]] A.jsonl B.jsonl [A2 B2 ...]

More pairs (the same comparison under other seeds) pool into one sample: each pair's deals
stay its own (deal 7 of seed 3 and deal 7 of seed 4 are two deals), so the interval is over
all of them. It prints one row: label, deals, A and B win share, the difference, A and B
points per game, the difference, and the p50 of each run's decision times over the decisions
with a choice (a results file marks forced plays). --header prints the column names first.
Figures only.
"""
import argparse
import json
import math
import sys


def deals_of(path, strategy):
    """{deal: [(win, points)]} of the strategy's seat, and its times of decisions with a choice"""
    deals, ns = {}, []
    with open(path) as f:
        for line in f:
            g = json.loads(line)
            if g.get("type") != "game":
                continue
            if strategy not in g["seats"]:
                sys.exit(f"paired.py: {path}: game {g.get('game')} seats no {strategy}")
            me = g["seats"].index(strategy)
            mine = [s for s, name in enumerate(g["seats"]) if name == strategy]
            won = g["winner"] == me
            # DDZ is played by sides: a farmer wins when either farmer goes out first
            ll = g.get("landlord", -1)
            if g.get("rules") == "ddz" and ll is not None and ll >= 0 and me != ll and g["winner"] != ll:
                won = True
            deals.setdefault(g["deal"], []).append((1.0 if won else 0.0, float(g["points"][me])))
            ns += [b["ns"] for b in g.get("bids", []) if b["seat"] in mine and "ns" in b]
            ns += [p["ns"] for p in g.get("plays", []) if p["seat"] in mine and "ns" in p and not p.get("forced")]
    return deals, sorted(ns)


def interval(xs):
    n = len(xs)
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else float("nan")
    return mean, 1.96 * sd / math.sqrt(n)


def p50(ns):
    return f"{ns[len(ns) // 2] / 1e6:.1f}ms" if ns else "?"


def main():
    ap = argparse.ArgumentParser(description="paired per-deal difference of two cardbot match results files")
    ap.add_argument("runs", nargs="+", metavar="A B",
                    help="results files A.jsonl B.jsonl; more pairs (other seeds) are pooled")
    ap.add_argument("--strategy", default="ismcts", help="the seat compared (a strategy name in both runs)")
    ap.add_argument("--strategy-b", help="its name in run B when it differs there")
    ap.add_argument("--label", default="", help="the row's first column")
    ap.add_argument("--header", action="store_true", help="print the column names first")
    o = ap.parse_args()
    if o.header:
        print(f"{'':<10} {'deals':>5} {'A win%':>7} {'B win%':>7} {'A-B win share':<18} "
              f"{'A pts':>7} {'B pts':>7} {'A-B pts/game':<18} {'p50 choice A/B'}")
    if len(o.runs) % 2:
        ap.error("results files come in pairs: A.jsonl B.jsonl [A2.jsonl B2.jsonl ...]")
    # deals keyed by (pair, deal): the pairs' deals are different deals
    ga, gb, ta, tb = {}, {}, [], []
    for i in range(0, len(o.runs), 2):
        da, na = deals_of(o.runs[i], o.strategy)
        db, nb = deals_of(o.runs[i + 1], o.strategy_b or o.strategy)
        ga.update(((i, d), r) for d, r in da.items())
        gb.update(((i, d), r) for d, r in db.items())
        ta += na
        tb += nb
    ta.sort()
    tb.sort()
    common = sorted(d for d in ga if d in gb and len(ga[d]) == len(gb[d]))
    if len(common) < 2:
        print(f"{o.label:<10} fewer than 2 common deals")
        return
    def per_deal(g, k):
        return [sum(r[k] for r in g[d]) / len(g[d]) for d in common]
    wa, wb, pa, pb = per_deal(ga, 0), per_deal(gb, 0), per_deal(ga, 1), per_deal(gb, 1)
    dw, hw = interval([x - y for x, y in zip(wa, wb)])
    dp, hp = interval([x - y for x, y in zip(pa, pb)])
    n = len(common)
    print(f"{o.label:<10} {n:>5} {100 * sum(wa) / n:>6.1f}% {100 * sum(wb) / n:>6.1f}% "
          f"{f'{dw:+.3f} +- {hw:.3f}':<18} {sum(pa) / n:>+7.2f} {sum(pb) / n:>+7.2f} "
          f"{f'{dp:+.2f} +- {hp:.2f}':<18} {p50(ta)}/{p50(tb)}")


if __name__ == "__main__":
    main()

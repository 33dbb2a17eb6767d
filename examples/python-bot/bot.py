#!/usr/bin/env python3
"""An example cardbot bot in Python: the cardbot-1 JSON-lines protocol, nothing else.

A teaching example, not a strong bot. It reads one JSON object per line on stdin (a hello,
then one request per decision) and writes one JSON answer per line on stdout:

    in : {"type":"hello","protocol":"cardbot-1",...}
    out: {"protocol":"cardbot-1","name":"pybot","version":"1.0"}
    in : {"type":"play","id":7,"view":{"rules":{"preset":"pdk16"},"seat":0,"hand":"3s4h...",...}}
    out: {"play":"3s","id":7,"explain":"lowest single"}

How it plays, by its own small rules (no library): leading, it plays its lowest single (the
spade 3 on a PDK game's first play; its lowest pair, or else its highest single, when the next
seat holds one card, for PDK's 报单必顶); following, it plays the smallest play of the table's
shape that beats it (singles, pairs, triples with kickers, straights, pair chains, planes), or
else a bomb when PDK's must_beat obliges it, or else passes. It bids in DDZ with two or more of
2, X, D, and never declares PDK 包庄. Where its rules are thinner than the real ones (four with
kickers, AAA bombs, a short last play) it may answer a play the host refuses: the host then
counts it and its fallback answers, which is the point of a host that checks.

Run by `plugin = exec` (config/exec-python.ini), or by hand:
    printf '%s\n' '{"type":"hello","protocol":"cardbot-1"}' | python3 bot.py

For the host's tests it can also misbehave on purpose, on every EVERY-th decision:
    --fault badjson   answer a line that is not JSON
    --fault slow      answer after the decision's budget_ms (plus 300 ms)
    --fault illegal   answer a play the rules refuse (two cards of different ranks)
    --fault exit      exit in the middle of the game (the host starts it again)
    --every K         which decisions (default 5); the environment variable
                      CARDBOT_PYBOT_FAULT=MODE[:K] does the same as the options.
Diagnostics go to stderr: stdout is for answers only.
"""
import argparse
import json
import os
import sys
import time

RANKS = "3456789TJQKA2XD"
R2, RX, RD, RA = 12, 13, 14, 11  # rank indices of 2, small joker, big joker, A


def parse_hand(text):
    """'3s3h4dXD' -> list of (rank, card text), rank ascending."""
    cards, i = [], 0
    while i < len(text):
        ch = text[i]
        if ch in " ,":
            i += 1
            continue
        rank = RANKS.index(ch.upper())
        i += 1
        suit = ""
        if rank < RX and i < len(text) and text[i] in "shcd":
            suit = text[i]
            i += 1
        cards.append((rank, RANKS[rank] + suit))
    return sorted(cards)


def counts_of(text):
    c = [0] * 15
    for r, _ in parse_hand(text):
        c[r] += 1
    return c


class Rules:
    """The few rule facts this bot uses: the preset's defaults, then the flags the host sent."""

    def __init__(self, obj):
        self.preset = obj.get("preset", "pdk16")
        pdk = self.preset != "ddz"
        self.pdk = pdk
        self.must_beat = obj.get("must_beat", pdk)
        self.must_beat_bomb = obj.get("must_beat_bomb", pdk)
        self.spade3_first = obj.get("spade3_first", pdk)
        self.warn_single = obj.get("warn_single", pdk)
        self.min_pair_chain = obj.get("min_pair_chain", 3)


def classify(c, rules):
    """Rank counts of a table play -> (shape, main, length, kickers) or None when unsure."""
    n = sum(c)
    ranks = [r for r in range(15) if c[r]]
    if n == 2 and c[RX] and c[RD]:
        return ("rocket", RX, 1, 0)
    if n == 4 and len(ranks) == 1:
        return ("bomb", ranks[0], 1, 0)
    if len(ranks) == 1:
        return ({1: "single", 2: "pair", 3: "triple"}.get(n), ranks[0], 1, 0)
    fours = [r for r in ranks if c[r] == 4]
    if len(fours) == 1 and (n in (6, 8) if not rules.pdk else n in (6, 7)):
        return ("four", fours[0], 1, n - 4)  # four with kickers (not a bomb)
    if all(c[r] == 1 for r in ranks) and n >= 5 and consecutive(ranks):
        return ("straight", ranks[0], n, 0)
    if all(c[r] == 2 for r in ranks) and len(ranks) >= rules.min_pair_chain and consecutive(ranks):
        return ("pairs", ranks[0], len(ranks), 0)
    # triples and planes: the longest run of ranks holding 3+ (chains stop at A), kickers after
    best = None
    for start in range(15):
        for length in range(1, 13):
            run = range(start, start + length)
            if start + length > 15 or any(c[r] < 3 for r in run):
                break
            if length > 1 and start + length - 1 > RA:
                break
            kick = n - 3 * length
            full = kick in ((2 * length,) if rules.pdk else (0, length, 2 * length))
            key = (full, length, start)
            if kick >= 0 and (best is None or key > best[0]):
                best = (key, start, length, kick)
    if best:
        _, start, length, kick = best
        return ("triple" if length == 1 else "plane", start, length, kick)
    return None


def consecutive(ranks):
    return ranks[-1] <= RA and ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def take(hand, want):
    """Cards of the hand realising rank counts `want` (dict rank -> n)."""
    out, need = [], dict(want)
    for r, t in hand:
        if need.get(r, 0) > 0:
            out.append(t)
            need[r] -= 1
    return "".join(out)


def kickers(c, avoid, k, pairs, rules):
    """k kicker units from ranks outside `avoid`, lowest first: singles of distinct ranks (or
    any cards in PDK), or pairs (no jokers). None when the hand lacks them."""
    out = {}
    if pairs:
        for r in range(R2 + 1):
            if len(out) == k:
                break
            if r not in avoid and c[r] >= 2:
                out[r] = 2
        return out if len(out) == k else None
    if rules.pdk:  # PDK: any cards outside the main part
        left = k
        for r in range(15):
            if r in avoid or left == 0:
                continue
            use = min(c[r], left)
            if use:
                out[r] = use
                left -= use
        return out if left == 0 else None
    for r in range(15):  # DDZ: distinct ranks, never both jokers
        if len(out) == k:
            break
        if r not in avoid and c[r] >= 1 and not (r == RD and RX in out):
            out[r] = 1
    return out if len(out) == k else None


def beat_same_shape(c, table, rules):
    """The smallest play of the table's shape that beats it, as rank counts, or None."""
    shape, main, length, kick = table
    unit = {"single": 1, "pair": 2, "straight": 1, "pairs": 2, "triple": 3, "plane": 3, "four": 4}.get(shape)
    if unit is None:
        return None
    top = RD if length == 1 and shape in ("single",) else (R2 if length == 1 else RA)
    for start in range(main + 1, 15):
        if start + length - 1 > top:
            break
        run = list(range(start, start + length))
        if any(c[r] < unit for r in run):
            continue
        want = {r: unit for r in run}
        if kick:
            if shape == "four":  # DDZ: two singles or two pairs; PDK: any cards
                pairs = not rules.pdk and kick == 4
                units = 2 if not rules.pdk else kick
            else:
                pairs = not rules.pdk and kick == 2 * length
                units = length if pairs else kick
            extra = kickers(c, set(run), units, pairs, rules)
            if extra is None:
                continue
            for r, k in extra.items():
                want[r] = want.get(r, 0) + k
        return want
    return None


def bombs(c, rules):
    found = [{r: 4} for r in range(13) if c[r] == 4]
    if not rules.pdk and c[RX] and c[RD]:
        found.append({RX: 1, RD: 1})
    return found


def choose_play(view, rules):
    hand = parse_hand(view["hand"])
    c = counts_of(view["hand"])
    seat, n = view["seat"], view.get("nseats", 3)
    next_has_one = view["cards_left"][(seat + 1) % n] == 1
    if not view["table"]:
        if rules.pdk and rules.spade3_first and not view["history"] and any(t == "3s" for _, t in hand):
            return "3s", "first play: the spade 3"
        if rules.warn_single and next_has_one:
            for r in range(R2 + 1):
                if c[r] >= 2:
                    return take(hand, {r: 2}), "lowest pair (next seat holds one card)"
            return hand[-1][1], "highest single (next seat holds one card)"
        return hand[0][1], "lowest single"
    table = classify(counts_of(view["table"]), rules)
    if table is None:
        return "pass", "table play not understood"
    if table[0] in ("single",) and rules.warn_single and next_has_one:
        if hand[-1][0] > table[1]:
            return hand[-1][1], "highest single (next seat holds one card)"
    elif table[0] not in ("bomb", "rocket"):
        want = beat_same_shape(c, table, rules)
        if want:
            return take(hand, want), "smallest %s that beats" % table[0]
        whole = sum(c)
        if rules.pdk and table[0] in ("triple", "plane") and whole < 5 * table[2]:
            # a short last play (甩尾): the whole hand, when its triples beat the table's
            mine = classify(c, rules)
            if mine and mine[0] == table[0] and mine[2] == table[2] and mine[1] > table[1]:
                return view["hand"], "whole hand (short last play)"
    if rules.pdk and rules.must_beat and rules.must_beat_bomb or not rules.pdk and sum(c) <= 4:
        for b in bombs(c, rules):
            rocket = len(b) > 1
            if table[0] == "rocket" or (table[0] == "bomb" and not rocket and min(b) <= table[1]):
                continue
            return take(hand, b), "rocket" if rocket else "bomb"
    return "pass", "cannot beat"


def choose_bid(view, rules):
    legal = view.get("legal_bids", [0])
    if rules.pdk:
        return 0, "no 包庄"
    c = counts_of(view["hand"])
    strong = c[R2] + c[RX] + c[RD]
    offers = [b for b in legal if b > 0]
    if strong >= 2 and offers:
        return offers[0], "%d high cards: bid" % strong
    return 0, "%d high cards: pass" % strong


def fault_settings():
    ap = argparse.ArgumentParser(description="example cardbot-1 bot (see the module docstring)")
    ap.add_argument("--fault", choices=["none", "badjson", "slow", "illegal", "exit"], default=None)
    ap.add_argument("--every", type=int, default=None)
    a = ap.parse_args()
    env = os.environ.get("CARDBOT_PYBOT_FAULT", "")
    mode, _, every = env.partition(":")
    mode = a.fault or mode or "none"
    every = a.every or (int(every) if every else 5)
    return mode, max(1, every)


def main():
    fault, every = fault_settings()
    decisions = 0
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError as e:
            print("pybot: not JSON: %s" % e, file=sys.stderr)
            continue
        kind = msg.get("type")
        if kind == "hello":
            if msg.get("protocol") != "cardbot-1":
                print("pybot: unknown protocol %r" % msg.get("protocol"), file=sys.stderr)
            answer = {"protocol": "cardbot-1", "name": "pybot", "version": "1.0"}
        elif kind in ("bid", "play"):
            view = msg["view"]
            rules = Rules(view["rules"])
            decisions += 1
            if kind == "bid":
                bid, why = choose_bid(view, rules)
                answer = {"bid": bid, "explain": why}
            else:
                play, why = choose_play(view, rules)
                answer = {"play": play, "explain": why}
            if "id" in msg:
                answer["id"] = msg["id"]
            if fault != "none" and decisions % every == 0:
                if fault == "badjson":
                    sys.stdout.write("{this is not json\n")
                    sys.stdout.flush()
                    continue
                if fault == "slow":
                    time.sleep(view.get("budget_ms", 1000) / 1000.0 + 0.3)
                elif fault == "exit":
                    print("pybot: exiting on purpose (--fault exit)", file=sys.stderr)
                    sys.exit(3)
                elif fault == "illegal" and kind == "play":
                    hand = parse_hand(view["hand"])
                    odd = [t for r, t in hand if r != hand[0][0]]
                    answer["play"] = hand[0][1] + odd[-1] if odd else ("pass" if not view["table"] else hand[0][1] * 2)
                    answer["explain"] = "an illegal play on purpose (--fault illegal)"
        else:
            print("pybot: unknown message type %r" % kind, file=sys.stderr)
            continue
        sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""make check: replay files against their documented format, schema/cardbot-replay-1.schema.json.

Real replays of fixed-seed heuristic matches (PDK with 包庄 declared, DDZ with 叫分 bidding
and redeals, DDZ 叫/抢地主, DDZ with --landlord; all --duplicate but the last), a sharded
match put back together by `cardbot merge --replay`, and the files in tests/replay/ (the text
test's golden inputs) validate line by line: the header first, then one game line per game.
The header must name every rules flag the core knows (cardbot's --help lists them) with a
value, every [strategy.NAME] group with its keys, and the run (seed, games, duplicate,
landlord); a random seed is not written. Then the schema must refuse lines that break it
(wrong card text, a missing member, a header of another version, an unknown member) — so a
schema that accepts anything fails here.

Needs Python's jsonschema (Debian: python3-jsonschema, in the Makefile's DEBPKGS).
Prints "ok"/"FAIL" per check and "N passed, N failed"; exit 0 = all passed.
"""
import copy
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, "tests/support")
import replayfix as rf  # noqa: E402

from checks import check, finish  # noqa: E402


try:
    import jsonschema
except ImportError:
    check(False, "python3 jsonschema: not installed (make deps installs python3-jsonschema)")
    finish()

if not os.path.isfile(rf.SCHEMA) or not os.access(rf.CARDBOT, os.X_OK):
    check(False, f"run from the repository root after building {rf.CARDBOT} (CB_BUILD)")
    finish()

with open(rf.SCHEMA, encoding="utf-8") as f:
    schema = json.load(f)
try:
    jsonschema.Draft202012Validator.check_schema(schema)
    check(True, "the schema is a valid draft 2020-12 schema")
except jsonschema.SchemaError as e:
    check(False, "the schema is a valid draft 2020-12 schema", e.message)
    finish()
validator = jsonschema.Draft202012Validator(schema)


def errors(obj):
    return sorted(validator.iter_errors(obj), key=lambda e: list(e.path))


# The flag names, from the command's own help (the core's cb_rules_keys).
rc, help_text, _ = rf.cardbot("moves", "--help")
m = re.search(r"Flags \(--flag KEY=VALUE\):([^\n]*)", help_text)
FLAGS = m.group(1).split() if m else []
check(len(FLAGS) >= 20, f"cardbot moves --help lists the {len(FLAGS)} rules flags")


def validate_file(path, what, games=None):
    """Every line against the schema; returns (header, games) for more checks."""
    with open(path, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f if line.strip()]
    bad = [(i + 1, e) for i, obj in enumerate(lines) for e in errors(obj)[:1]]
    check(not bad, f"{what}: {len(lines)} lines valid",
          "\n".join(f"line {i}: {'/'.join(map(str, e.absolute_path))}: {e.message[:300]}" for i, e in bad[:5]))
    header, body = (lines[0], lines[1:]) if lines else ({}, [])
    check(header.get("type") == "header" and all(g.get("type") == "game" for g in body),
          f"{what}: the header first, then game lines only")
    if games is not None:
        check([g["game"] for g in body] == list(range(games)), f"{what}: games 0..{games - 1} in order")
    return header, body


with tempfile.TemporaryDirectory(prefix="cb-replay-schema-") as tmp:
    played = {}
    for kind in rf.KINDS:
        try:
            played[kind] = rf.play(tmp, kind)
        except RuntimeError as e:
            check(False, f"{kind}: the match ran", e)
    for kind, path in played.items():
        rules, _, args = rf.KINDS[kind]
        ngames = int(args[args.index("--games") + 1])
        h, games = validate_file(path, kind, ngames)
        # the header describes the run
        flags = (h.get("rules") or {}).get("flags") or {}
        check(sorted(flags) == sorted(FLAGS) and None not in flags.values(),
              f"{kind}: header names every rules flag with a value",
              f"missing {sorted(set(FLAGS) - set(flags))}, extra {sorted(set(flags) - set(FLAGS))}, "
              f"null {[k for k, v in flags.items() if v is None]}")
        st = h.get("strategies") or {}
        check(st.get("h6") == {"plugin": "heuristic", "level": "6"} and st.get("bao") == {"plugin": "lowest", "bid": "1"}
              and sorted(st) == ["bao", "h3", "h6"], f"{kind}: header lists every strategy with its parameters", st)
        check(h.get("seed") == args[args.index("--seed") + 1] and h.get("games") == ngames
              and h.get("duplicate") == ("--duplicate" in args) and h["rules"]["preset"] == rules
              and h.get("landlord") == (int(args[args.index("--landlord") + 1]) if "--landlord" in args else -1)
              and h.get("config", "").endswith(kind + ".ini") and h.get("date") == "2023-11-14T22:13:20Z",
              f"{kind}: header names the run (seed, games, duplicate, rules, landlord, config, date)", h)
        check(flags.get("rob") == (kind == "ddz-rob"), f"{kind}: rob flag as configured")
        # the games are the kind they should be
        if kind == "pdk-bao":
            check(any(g["landlord"] >= 0 and g["bid_value"] == 0 for g in games), "pdk-bao: 包庄 declared")
        if kind == "ddz-bid":
            check(any(g["redeals"] for g in games) and any(b["bid"] == 3 for g in games for b in g["bids"]),
                  "ddz-bid: redeals and a bid of 3")
        if kind == "ddz-rob":
            check(any(b["bid"] == 2 for g in games for b in g["bids"]), "ddz-rob: a seat robbed (bid 2)")
        if kind == "ddz-landlord":
            check(all(not g["bids"] and g["landlord"] == 1 for g in games), "ddz-landlord: no bidding, seat 1 landlord")
        check(all(g["plays"] and all(p["explain"] and "value" in p for p in g["plays"]
                                     if g["seats"][p["seat"]] != "bao") for g in games),
              f"{kind}: every heuristic play has its explanation and value")

    # merge --replay: the same header and games as the single run (shards of ddz-bid)
    if "ddz-bid" in played:
        cfg = os.path.join(tmp, "ddz-bid.ini")
        args = rf.KINDS["ddz-bid"][2]
        res = []
        for k in (1, 2):
            r = os.path.join(tmp, f"s{k}.res")
            rc, _, err = rf.cardbot("match", "--config", cfg, "--quiet", "--progress", "0", *args,
                                    "--shard", f"{k}/2", "--results", r)
            check(rc == 0, f"shard {k}/2 ran", err)
            res.append(r)
        merged = os.path.join(tmp, "merged.jsonl")
        rc, _, err = rf.cardbot("merge", "--quiet", "--replay", merged, *res)
        check(rc == 0, "merge --replay ran", err)
        validate_file(merged, "merge --replay", 12)
        with open(merged, "rb") as a, open(played["ddz-bid"], "rb") as b:
            check(a.read() == b.read(), "merge --replay writes the single run's file, header included")
        # a shard's own replay names its shard
        r = os.path.join(tmp, "s2.jsonl")
        rf.cardbot("match", "--config", cfg, "--quiet", "--progress", "0", *args, "--shard", "2/2",
                   "--results", os.path.join(tmp, "s2b.res"), "--replay", r)
        h, _ = validate_file(r, "a shard's replay")
        check(h.get("shard") == 2 and h.get("shards") == 2, "a shard's replay header names the shard")

    # a random seed is not written (plugins could read the file while the match runs)
    cfg = rf.write_config(tmp, "ddz-bid")  # no [match] seed in it
    r = os.path.join(tmp, "random.jsonl")
    rc, out, err = rf.cardbot("match", "--config", cfg, "--games", "2", "--quiet", "--progress", "0", "--replay", r)
    h, _ = validate_file(r, "a random-seed run")
    check(h.get("seed") is None and h.get("random_seed") is True and "chosen at random" in out,
          "a random seed: null in the header, printed after the summary")

    # the checked-in inputs of the text test
    for name in sorted(os.listdir("tests/replay")):
        if name.endswith(".jsonl"):
            validate_file(os.path.join("tests/replay", name), "tests/replay/" + name)

    # the schema refuses what breaks the format
    with open(played.get("ddz-rob", played.get("ddz-bid", "")), encoding="utf-8") as f:
        lines = [json.loads(line) for line in f]
    header, game = lines[0], lines[1]
    broken = []
    g = copy.deepcopy(game); g["plays"][0]["cards"] = "3z"; broken.append(("card text 3z", g))
    g = copy.deepcopy(game); g["hands"][0] = "3s4"; broken.append(("a rank without its suit", g))
    g = copy.deepcopy(game); del g["points"]; broken.append(("no points", g))
    g = copy.deepcopy(game); g["plays"][0]["seat"] = 3; broken.append(("seat 3", g))
    g = copy.deepcopy(game); g["bids"][0]["bid"] = 4; broken.append(("bid 4", g))
    g = copy.deepcopy(game); g["plays"][0]["flags"] = ["BLUFF"]; broken.append(("unknown decision flag", g))
    g = copy.deepcopy(game); g["extra"] = 1; broken.append(("unknown game member", g))
    g = copy.deepcopy(game); del g["type"]; broken.append(("no type", g))
    h = copy.deepcopy(header); h["version"] = 2; broken.append(("header version 2", h))
    h = copy.deepcopy(header); h["seed"] = 5; broken.append(("seed as a number", h))
    h = copy.deepcopy(header); h["rules"]["flags"]["rob"] = "yes"; broken.append(("rob = 'yes'", h))
    h = copy.deepcopy(header); del h["strategies"]; broken.append(("no strategies", h))
    h = copy.deepcopy(header); h["date"] = "yesterday"; broken.append(("date not ISO 8601", h))
    for what, obj in broken:
        check(bool(errors(obj)), f"the schema refuses: {what}")
finish()

"""Shared by the replay tests (tests/test_replay_*.py): real replays from fixed-seed matches,
the cardbot command, and an independent reading of a game (cards, tricks, hands) to check the
renderers against. Imported from the repository root (the tests run there: tests/run.sh)."""
import os
import subprocess

B = os.environ.get("CB_BUILD", "build/plain")
CARDBOT = os.path.abspath(os.path.join(B, "cardbot"))
TEST_PLUGINS = os.path.abspath(os.path.join(B, "tests", "plugins"))
SCHEMA = "schema/cardbot-replay-1.schema.json"
DATE_EPOCH = "1700000000"  # SOURCE_DATE_EPOCH: the header's date, fixed

RANKS = "3456789TJQKA2XD"


def cardbot(*args, env_extra=None):
    env = dict(os.environ, SOURCE_DATE_EPOCH=DATE_EPOCH)
    env.update(env_extra or {})
    p = subprocess.run([CARDBOT] + [str(a) for a in args], capture_output=True, env=env, timeout=600)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


# The kinds of game a replay must describe: PDK with 包庄 declared (the "lowest" test plugin
# declares whenever asked, bid = 1), DDZ with 叫分 bidding (and redeals), DDZ 叫/抢地主, DDZ
# with fixed roles. Heuristic players: fast, deterministic, with explanations and values.
KINDS = {
    "pdk-bao": ("pdk16", "", ["--games", "6", "--seed", "3", "--duplicate"]),
    "ddz-bid": ("ddz", "", ["--games", "12", "--seed", "5", "--duplicate"]),
    "ddz-rob": ("ddz", "[rules]\nrob = true\n", ["--games", "12", "--seed", "5", "--duplicate"]),
    "ddz-landlord": ("ddz", "", ["--games", "3", "--seed", "9", "--landlord", "1"]),
}


def write_config(tmp, kind):
    rules, extra, _ = KINDS[kind]
    seat0 = "bao" if kind == "pdk-bao" else "h6"
    path = os.path.join(tmp, kind + ".ini")
    with open(path, "w") as f:
        f.write(f"[shim]\nplugin_dir = {TEST_PLUGINS}\n[game]\nrules = {rules}\n{extra}"
                "[strategy.h6]\nplugin = heuristic\nlevel = 6\n"
                "[strategy.h3]\nplugin = heuristic\nlevel = 3\n"
                "[strategy.bao]\nplugin = lowest\nbid = 1\n"
                f"[seats]\n0 = {seat0}\n1 = h3\n2 = h6\n")
    return path


def play(tmp, kind):
    """Play one kind of match with --replay; returns the replay's path (raises on failure)."""
    cfg = write_config(tmp, kind)
    rep = os.path.join(tmp, kind + ".jsonl")
    rc, out, err = cardbot("match", "--config", cfg, "--quiet", "--progress", "0", "--replay", rep, *KINDS[kind][2])
    if rc != 0:
        raise RuntimeError(f"cardbot match ({kind}): status {rc}: {err}")
    return rep


def card_ids(text):
    """Card text ("3s3h4dXD") -> card ids, as core numbers them (rank * 4 + suit; X 52, D 53)."""
    ids, i = [], 0
    while i < len(text):
        r = RANKS.index(text[i])
        if r >= 13:
            ids.append(39 + r)
            i += 1
        else:
            ids.append(r * 4 + "shcd".index(text[i + 1]))
            i += 2
    return sorted(ids)


def walk(game, ddz):
    """Each play of a game with its trick number (from 1) and the cards its seat has left."""
    hands = [set(card_ids(h)) for h in game["hands"]]
    if ddz and game["landlord"] >= 0:
        hands[game["landlord"]] |= set(card_ids(game["bottom"]))
    out, trick, last = [], 0, -1
    for p in game["plays"]:
        if last < 0 or p["seat"] == last:
            trick += 1
        ids = card_ids(p["cards"])
        if ids:
            last = p["seat"]
        hands[p["seat"]] -= set(ids)
        out.append((p, trick, len(hands[p["seat"]]), [len(h) for h in hands]))
    return out, hands

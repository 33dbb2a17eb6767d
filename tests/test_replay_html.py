#!/usr/bin/env python3
"""make check: `cardbot replay --html`, the page a person steps through, in a real browser.

Headless Chromium (Debian's chromium, from the Makefile's DEBPKGS; `make deps` installs it)
loads the page written for the replays in tests/replay/ and dumps the DOM its script built.
The page puts its state in the DOM (main#viewer data-game / data-step / data-steps /
data-play, each seat's data-cards, the decision panel's data-play) and opens at a URL hash
(#game=N&step=S, then &keys=ArrowRight,... pressed or &press=next,... buttons clicked), so
each dump is one moment of a person's session. Checked against an independent reading of the
game lines (tests/support/replayfix.py):
  - the page is one file with nothing from the network (no src / href / link / @import);
  - it opens on the first game at the deal: every seat's hand drawn card by card as dealt
    (DDZ: the landlord with the bottom cards, 20);
  - #game=3&step=5 shows the fifth play: hands shrunk by every play so far, the play on the
    table and in the decision panel with its explanation, the log's current entry;
  - stepping: two ArrowRight from step 3 is step 5, ArrowLeft goes back one, the buttons
    (next, next, next, prev) do the same, ArrowDown / ArrowUp move by tricks, End shows the
    result with every seat's points, PageDown the next game;
  - an explanation holding "</script><script>...</script>" stays text: the page still works
    and shows it, and no script of it ran;
  - a screenshot that is not blank: the felt and red suits are painted (pixels counted).
Prints "ok"/"FAIL" per check and "N passed, N failed"; exit 0 = all passed.
"""
import html.parser
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, "tests/support")
import replayfix as rf  # noqa: E402
from checks import check, finish  # noqa: E402


if not os.access(rf.CARDBOT, os.X_OK) or not os.path.isdir("tests/replay"):
    check(False, f"run from the repository root after building {rf.CARDBOT} (CB_BUILD)")
    finish()


def find_browser():
    for c in ("chromium", "chromium-browser"):
        if shutil.which(c):
            return shutil.which(c)
    return None


BROWSER = find_browser()
if not BROWSER:
    print("chromium missing: installing the Makefile's missing packages (make deps)")
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    subprocess.run(["make", "--no-print-directory", "deps"], env=env)
    BROWSER = find_browser()
    if not check(BROWSER is not None, "chromium installed"):
        finish()


class Dom(html.parser.HTMLParser):
    """What the checks read from a dumped DOM: attributes of elements with an id, the cards
    drawn inside each seat and slot, the text of the decision panel, the bidding, the log's current item."""

    def __init__(self, text):
        super().__init__()
        self.ids, self.stack, self.seat_cards, self.text = {}, [], {}, {}
        self.at_step = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        owner = next((x for x in reversed(self.stack) if x), None)
        if "id" in a:
            self.ids[a["id"]] = a
        cls = (a.get("class") or "").split()
        if tag == "span" and "card" in cls and owner and owner.startswith("seat"):
            self.seat_cards.setdefault(owner, []).append(a.get("data-card"))
        if tag == "li" and "at" in cls:
            self.at_step = a.get("data-step")
        if tag not in ("br", "meta", "img", "input", "link"):
            self.stack.append(a.get("id") if a.get("id") in ("seat0", "seat1", "seat2", "current", "result", "center", "bids")
                              else None)

    def handle_endtag(self, tag):
        if tag not in ("br", "meta", "img", "input", "link") and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        owner = next((x for x in reversed(self.stack) if x), None)
        if owner:
            self.text[owner] = self.text.get(owner, "") + data


tmp = tempfile.mkdtemp(prefix="cb-replay-html-")
profile = os.path.join(tmp, "profile")


def browse(page, *args):
    p = subprocess.run(["timeout", "-k", "5", "120", BROWSER, "--headless", "--no-sandbox", "--disable-gpu",
                        "--disable-dev-shm-usage", "--no-first-run", f"--user-data-dir={profile}", *args, page],
                       capture_output=True)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def dom(page_path, hash_=""):
    rc, out, err = browse("file://" + os.path.abspath(page_path) + ("#" + hash_ if hash_ else ""), "--dump-dom")
    if rc != 0 or "<main" not in out:
        check(False, f"dump-dom {hash_}", err[-2000:])
        return None
    return Dom(out)


def state(d):
    v = d.ids["viewer"]
    return {"game": v.get("data-game"), "step": v.get("data-step"), "play": v.get("data-play"),
            "cards": [d.ids[f"seat{s}"].get("data-cards") for s in range(3)],
            "drawn": [len(d.seat_cards.get(f"seat{s}", [])) for s in range(3)],
            "current": d.text.get("current", "")}


def load(path):
    with open(path, encoding="utf-8") as f:
        lines = [json.loads(x) for x in f if x.strip()]
    return lines[0], lines[1:]


def expected(game, step):
    """Hands' sizes after `step` plays, and the play at that step ("" at the deal)."""
    ddz = game["rules"] == "ddz"
    plays, _ = rf.walk(game, ddz)
    if step == 0:
        sizes = [len(rf.card_ids(h)) for h in game["hands"]]
        if ddz and game["landlord"] >= 0:
            sizes[game["landlord"]] += len(rf.card_ids(game["bottom"]))
        return sizes, ""
    p, _, _, counts = plays[step - 1]
    return counts, p["cards"] or "pass"


def at_step(what, d, game, step):
    if d is None:
        return
    s = state(d)
    sizes, play = expected(game, step)
    want = {"game": str(game["game"] + 1), "step": str(step), "play": play, "cards": [str(x) for x in sizes],
            "drawn": sizes}
    got = {k: s[k] for k in want}
    ok = got == want
    if ok and step > 0:
        p = game["plays"][step - 1]
        ok = (p["explain"] in s["current"] and d.ids["current"].get("data-play") == play
              and d.at_step == str(step) and ("value" not in p or f"value {p['value']:.3f}" in s["current"]))
    check(ok, f"{what}: game {want['game']} step {step}, hands {sizes}, play {play or '-'}",
          f"got {got}, want {want}; panel {s['current'][:300]!r}")


try:
    # the pages
    pdk_src, ddz_src = "tests/replay/pdk-bao.jsonl", "tests/replay/ddz-rob.jsonl"
    header, pdk_games = load(pdk_src)
    _, ddz_games = load(ddz_src)
    pdk_page, ddz_page = os.path.join(tmp, "pdk.html"), os.path.join(tmp, "ddz.html")
    for src, page in ((pdk_src, pdk_page), (ddz_src, ddz_page)):
        rc, out, err = rf.cardbot("replay", "--html", src, "-o", page)
        check(rc == 0 and os.path.getsize(page) > 0 and f"wrote {page} (3 games)" in out,
              f"cardbot replay --html {src}", err)
    text = open(pdk_page, encoding="utf-8").read()
    check(all(x not in text for x in ("src=", "href=", "<link", "@import", "url(")),
          "one self-contained file: nothing loaded from elsewhere")
    check(text.count('<script type="application/json" id="replay-data">') == 1 and text.count("</script>") == 2,
          "the data in one application/json script element")

    # opens on the first game, at the deal
    at_step("opens", dom(pdk_page), pdk_games[0], 0)
    d = dom(ddz_page)
    at_step("DDZ opens", d, ddz_games[0], 0)
    if d:
        ll = ddz_games[0]["landlord"]
        check(d.ids[f"seat{ll}"].get("data-cards") == "20" and "Bottom:" in d.text.get("current", ""),
              f"DDZ: the landlord (seat {ll}) holds 20 cards with the bottom; the bottom shown")
        dealt = sorted(rf.card_ids(ddz_games[0]["hands"][(ll + 1) % 3]))
        drawn = d.seat_cards.get(f"seat{(ll + 1) % 3}", [])
        check(sorted(rf.card_ids("".join(drawn))) == dealt, "DDZ: a farmer's hand drawn card by card as dealt",
              f"{drawn}")
        stake = ddz_games[0]["bid_value"]
        check(f"landlord: seat {ll} " in d.text.get("bids", "") and f", stake {stake}" in d.text.get("bids", ""),
              f"DDZ: the bidding names the landlord and the stake it reached ({stake})", d.text.get("bids", ""))

    # a moment by URL, and stepping to it
    g3 = pdk_games[2]
    check(g3["landlord"] >= 0, "pdk-bao game 3: 包庄 declared (the page shows the role)")
    at_step("#game=3&step=5", dom(pdk_page, "game=3&step=5"), g3, 5)
    d5, d3 = dom(pdk_page, "game=3&step=5"), dom(pdk_page, "game=3&step=3&keys=ArrowRight,ArrowRight")
    if d5 and d3:
        check(state(d3) == state(d5) and d3.text.get("center") == d5.text.get("center"),
              "two ArrowRight from step 3: the same page as step 5", f"{state(d3)}\n{state(d5)}")
    at_step("ArrowLeft from step 5", dom(pdk_page, "game=3&step=5&keys=ArrowLeft"), g3, 4)
    at_step("buttons next, next, next, prev", dom(pdk_page, "game=3&press=next,next,next,prev"), g3, 2)
    at_step("step 3 of game 3 differs from step 5", dom(pdk_page, "game=3&step=3"), g3, 3)
    plays, _ = rf.walk(g3, False)
    firsts = [i + 1 for i, (_, t, _, _) in enumerate(plays) if i == 0 or plays[i - 1][1] != t]
    at_step("ArrowDown twice: the second trick's lead", dom(pdk_page, "game=3&keys=ArrowDown,ArrowDown"), g3, firsts[1])
    at_step("and ArrowUp back: the first trick's lead",
            dom(pdk_page, "game=3&keys=ArrowDown,ArrowDown,ArrowUp"), g3, firsts[0])
    at_step("button nexttrick from step 2", dom(pdk_page, "game=3&step=2&press=nexttrick"), g3, firsts[1])
    n = len(g3["plays"])
    d = dom(pdk_page, "game=3&keys=End")
    at_step("End", d, g3, n)
    if d:
        res = d.text.get("result", "")
        check(all((f"{p:+d}" if p else "0") in res for p in g3["points"]) and f"Seat {g3['winner']}" in res
              and "winner" in d.ids[f"seat{g3['winner']}"].get("class", ""),
              f"End: the result with every seat's points {g3['points']}", res)
    at_step("PageDown from game 1", dom(pdk_page, "game=1&step=4&keys=PageDown"), pdk_games[1], 0)
    at_step("a step beyond the end is the end", dom(pdk_page, f"game=2&step={10 ** 6}"), pdk_games[1],
            len(pdk_games[1]["plays"]))

    # an explanation that tries to end the script element
    lines = open(pdk_src, encoding="utf-8").read().splitlines()
    g = json.loads(lines[1])
    evil = "</script><script>document.title='pwned'</script><b>&"
    g["plays"][1]["explain"] = evil
    lines[1] = json.dumps(g, ensure_ascii=False, separators=(",", ":"))
    evil_src, evil_page = os.path.join(tmp, "evil.jsonl"), os.path.join(tmp, "evil.html")
    open(evil_src, "w", encoding="utf-8").write("\n".join(lines) + "\n")
    rc, _, err = rf.cardbot("replay", "--html", evil_src, "-o", evil_page)
    check(rc == 0, "a page of a replay with </script> in an explanation", err)
    rc, out, err = browse("file://" + evil_page + "#game=1&step=2", "--dump-dom")
    d = Dom(out) if rc == 0 else None
    at_step("</script> in an explanation: the page still works", d, g, 2)
    check(d is not None and "pwned" not in out.split("</title>")[0] and "pwned" in d.text.get("current", ""),
          "</script> in an explanation: shown as text, never run")

    # painted: a screenshot with felt and red suits
    shot = os.path.join(tmp, "shot.png")
    rc, _, err = browse("file://" + os.path.abspath(ddz_page) + "#game=1&step=0", "--window-size=1280,900",
                        f"--screenshot={shot}")
    if check(rc == 0 and os.path.exists(shot) and os.path.getsize(shot) > 20000,
             f"screenshot ({os.path.getsize(shot) if os.path.exists(shot) else 0} bytes)", err[-1000:]):
        data = open(shot, "rb").read()
        pos, idat, hdr = 8, [], None
        while pos < len(data):
            ln, kind = struct.unpack(">I4s", data[pos:pos + 8])
            if kind == b"IHDR":
                hdr = struct.unpack(">IIBBBBB", data[pos + 8:pos + 8 + ln])
            elif kind == b"IDAT":
                idat.append(data[pos + 8:pos + 8 + ln])
            pos += 12 + ln
        w, h, depth, ctype, _, _, interlace = hdr
        bpp = 3 if ctype == 2 else 4
        raw, stride = zlib.decompress(b"".join(idat)), w * bpp
        prev, felt, red = bytearray(stride), 0, 0
        for r in range(h):  # PNG row filters, plainly (a 1280 x 900 shot takes a few seconds)
            f, line = raw[r * (stride + 1)], bytearray(raw[r * (stride + 1) + 1:(r + 1) * (stride + 1)])
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                b = prev[x]
                c = prev[x - bpp] if x >= bpp else 0
                if f == 1:
                    line[x] = (line[x] + a) & 255
                elif f == 2:
                    line[x] = (line[x] + b) & 255
                elif f == 3:
                    line[x] = (line[x] + (a + b) // 2) & 255
                elif f == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            prev = line
            for x in range(0, stride, bpp):
                R, G, B_ = line[x], line[x + 1], line[x + 2]
                felt += G > R + 40 and G > B_ + 20  # the table's green
                red += R > 150 and G < 80 and B_ < 90  # hearts, diamonds, the big joker
        check(felt > 0.15 * w * h and red > 200, f"screenshot painted: {felt} felt pixels, {red} red-suit pixels "
              f"of {w} x {h}")
finally:
    shutil.rmtree(tmp, ignore_errors=True)
finish()

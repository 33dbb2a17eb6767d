#!/usr/bin/env python3
"""make check: `cardbot play`, a person's seat against the bots.

Under tmux (a real terminal: send-keys types, capture-pane reads the screen) a full PDK game
(包庄 on) and a full DDZ game (叫分) are played to the settlement. The "person" asks for a
hint at every decision and types the hinted play, so the game always completes whatever the
bots do; once per game it first types an illegal play and checks that the refusal carries
the core's reason (the one `cardbot classify` gives for the same cards).

Without a terminal (pipes): a DDZ 叫/抢地主 game and two PDK games answered through "another
game? [y/n]" are driven the same way over pipes, with --unicode and --hint; the lines typed
are then piped in all at once and must give the same transcript (deterministic from --seed,
and a script of moves works); the end of the input, "quit" and junk input (binary bytes, a
100 kB line, too many cards, escape sequences) end cleanly; bad options are one line and
exit status 2.

Waits poll the screen or the pipe with a deadline per step; there are no fixed sleeps.
Prints "ok"/"FAIL" per check and "N passed, N failed".
"""
import os
import re
import shlex
import select
import shutil
import subprocess
import sys
import tempfile
import time

B = os.environ.get("CB_BUILD", "build/plain")
CARDBOT = os.path.abspath(os.path.join(B, "cardbot"))
PLUGINS = os.path.abspath(os.path.join(B, "plugins"))
STEP = float(os.environ.get("CB_PLAY_STEP_TIMEOUT", "60"))  # seconds for one answer (ASan is slow)

PROMPT = re.compile(r"^(play>|bid>|another game\? \[y/n\])( |$)")
EXITED = re.compile(r"\[cardbot exited with status (\d+)\]")
HINT = re.compile(r"^hint from (\S+): (.*)\s+\[enter: ([^\]]+)\]$")

sys.path.insert(0, "tests/support")
from checks import check, finish  # noqa: E402


def write_config(tmp, name, rules, extra=""):
    path = os.path.join(tmp, name + ".ini")
    with open(path, "w") as f:
        f.write(f"""[shim]
plugin_dir = {PLUGINS}
fallback = h
[game]
rules = {rules}
[rules]
{extra}
[strategy.h]
plugin = heuristic
level = 6
[strategy.weak]
plugin = heuristic
level = 2
[seats]
0 = h
1 = weak
2 = h
""")
    return path


class Timeout(Exception):
    pass


class TmuxSession:
    """cardbot play in a detached tmux pane of a private tmux server."""

    def __init__(self, tmp, name, argv):
        self.sock = os.path.join(tmp, "tmux-" + name + ".sock")
        self.name = name
        conf = os.path.join(tmp, "tmux.conf")
        with open(conf, "w") as f:
            f.write("set -g history-limit 200000\n")
        env = dict(os.environ)
        env.pop("TMUX", None)  # a test run inside tmux still gets its own server
        env.setdefault("TERM", "xterm")
        env["LANG"] = env["LC_ALL"] = "C.UTF-8"
        self.env = env
        cmd = " ".join(shlex.quote(a) for a in argv)
        # the shell stays after cardbot so its last screen and status can be read
        shell = f'{cmd}; echo "[cardbot exited with status $?]"; sleep 120'
        self.tmux("-f", conf, "new-session", "-d", "-s", name, "-x", "200", "-y", "50", "sh", "-c", shell)
        self.sent = []

    def tmux(self, *args):
        r = subprocess.run(["tmux", "-u", "-S", self.sock] + list(args), env=self.env,
                           capture_output=True, text=True, timeout=30)
        if r.returncode != 0:
            raise RuntimeError("tmux " + " ".join(args[:3]) + ": " + r.stderr.strip())
        return r.stdout

    def text(self):
        # -J joins wrapped lines, -S - from the start of the history
        return self.tmux("capture-pane", "-p", "-J", "-t", self.name, "-S", "-", "-E", "-")

    def send(self, line):
        self.sent.append(line)
        self.tmux("send-keys", "-t", self.name, "-l", line)
        self.tmux("send-keys", "-t", self.name, "Enter")

    def close(self):
        try:
            self.tmux("kill-server")
        except Exception:
            pass


class PipeSession:
    """cardbot play with stdin and stdout as pipes (no terminal: input is echoed)."""

    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
        self.buf = b""
        self.done = False
        self.sent = []

    def text(self):
        # read what is there (a little wait so a poll loop does not spin)
        while not self.done:
            r, _, _ = select.select([self.p.stdout], [], [], 0.02)
            if not r:
                break
            chunk = os.read(self.p.stdout.fileno(), 65536)
            if not chunk:
                self.p.wait(timeout=STEP)
                self.buf += f"[cardbot exited with status {self.p.returncode}]\n".encode()
                self.done = True
                break
            self.buf += chunk
        return self.buf.decode("utf-8", "replace")

    def send(self, line):
        self.sent.append(line)
        self.p.stdin.write(line.encode() + b"\n")
        self.p.stdin.flush()

    def close(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()
        self.stderr = self.p.stderr.read().decode("utf-8", "replace")


def wait_prompt(sess, seen):
    """Wait for prompt number seen + 1 (or the end). Returns (text, lines, prompt line indexes)."""
    deadline = time.time() + STEP
    while True:
        text = sess.text()
        lines = text.splitlines()
        prompts = [i for i, l in enumerate(lines) if PROMPT.match(l)]
        if len(prompts) > seen or EXITED.search(text):
            return text, lines, prompts
        if time.time() > deadline:
            raise Timeout(f"no prompt {seen + 1} within {STEP:.0f} s; the screen ends:\n" +
                          "\n".join(lines[-15:]))
        if isinstance(sess, TmuxSession):  # a pipe's read already waits
            time.sleep(0.02)


def classify_reason(rules, cards):
    """What `cardbot classify` says of cards, less its "not a legal play: " (the engine says
    "not a legal shape: " before the same text)."""
    r = subprocess.run([CARDBOT, "classify", "--rules", rules, cards], capture_output=True, text=True)
    m = re.match(r"illegal: (?:not a legal play: )?(.*)", r.stdout.strip())
    return m.group(1) if m else None


def illegal_pair(lines, prompt_at):
    """Two cards of two ranks from the hand shown before this prompt (never a play: no pair,
    and not X + D, the rocket). None when the hand has no such two."""
    for i in range(prompt_at, -1, -1):
        m = re.match(r"^  your hand \(\d+\): (.*)$", lines[i])
        if m:
            ranks = [g[0] for g in m.group(1).split()]
            ranks = [r for r in ranks if r not in "XD"] + [r for r in ranks if r in "XD"]
            if len(ranks) >= 2 and set(ranks[:2]) != {"X", "D"}:
                return ranks[0] + ranks[1]
            return None
    return None


def drive(sess, label, rules, illegal=True, answers_another=()):
    """Play to the end: hint, then the hinted play; the first suitable play prompt gets an
    illegal play first. Returns the final text."""
    seen = 0
    hints = explained = 0
    illegal_checked = not illegal
    another = list(answers_another)
    while True:
        text, lines, prompts = wait_prompt(sess, seen)
        if EXITED.search(text):
            break
        seen = len(prompts)
        at = prompts[-1]
        prompt = lines[at]
        if prompt.startswith("another"):
            sess.send(another.pop(0) if another else "n")
            continue
        turn = max([i for i in range(at) if lines[i] == "-- your turn --"], default=at)
        first_trick = any(l.startswith("  you lead the first trick") for l in lines[turn:at])
        if not illegal_checked and prompt.startswith("play>") and not first_trick:
            cards = illegal_pair(lines, at)
            why = classify_reason(rules, cards) if cards else None
            if why:
                sess.send(cards)
                text, lines, prompts = wait_prompt(sess, seen)
                seen = len(prompts)
                refusal = [l for l in lines[at:prompts[-1]] if l.startswith("refused:")]
                check(len(refusal) == 1 and refusal[0] == f"refused: {cards}: not a legal shape: {why}",
                      f"{label}: the illegal play {cards} is refused with the core's reason ({why})",
                      "\n".join(lines[at:prompts[-1] + 1]))
                illegal_checked = True
        sess.send("hint")
        text, lines, prompts = wait_prompt(sess, seen)
        if EXITED.search(text):
            break
        seen = len(prompts)
        shown = lines[prompts[-2] + 1:prompts[-1]]
        hint = [HINT.match(l) for l in shown if HINT.match(l)]
        if not hint:
            check(False, f"{label}: a hint is shown", "\n".join(shown))
            return text
        hints += 1
        explained += any(l.startswith("  why: ") for l in shown)
        sess.send(hint[-1].group(3))
    check(hints > 0 and explained > 0, f"{label}: {hints} hints shown with their explanation, each one then typed")
    check(illegal_checked, f"{label}: an illegal play was tried and refused")
    return text


def check_result(text, label, games=1):
    status = EXITED.search(text)
    check(status and status.group(1) == "0", f"{label}: cardbot play exits 0 after the game",
          "\n".join(text.splitlines()[-12:]))
    overs = re.findall(r"^== game (\d+) over: .* went out first: you (win|lose) ==$", text, re.M)
    check(len(overs) == games, f"{label}: {games} game(s) played to the settlement", str(overs))
    rows = re.findall(r"^  seat (\d)  \S+\s+([+-]\d+)   ", text, re.M)
    sums = [sum(int(p) for _, p in rows[i:i + 3]) for i in range(0, len(rows), 3)]
    check(len(rows) == 3 * games and all(s == 0 for s in sums),
          f"{label}: points per seat shown, summing to 0", str(rows))
    # DDZ: the settlement line says what doubled the stake, and its figure is the points
    lords = re.findall(r"^  landlord seat .*$", text, re.M)
    for i, line in enumerate(lords):
        m = re.fullmatch(r"  landlord seat (\d): stake (\d+)(?:, (\d+) bombs? x2 each)?"
                         r"(?:, (spring|anti-spring) x2)?: (\d+) a farmer", line)
        ok = m is not None
        if ok:
            lord, stake, bombs, spring, each = (int(m.group(1)), int(m.group(2)), int(m.group(3) or 0),
                                                m.group(4), int(m.group(5)))
            ok = each == stake * 2 ** bombs * (2 if spring else 1) and \
                abs(int(rows[3 * i + lord][1])) == 2 * each
        check(ok, f"{label}: the DDZ settlement line adds up (stake, bombs, spring, points)", line)
    return status


def tmux_game(tmp, label, cfg, rules, seed, expect):
    sess = TmuxSession(tmp, label, [CARDBOT, "play", "--config", cfg, "--seat", "0", "--seed", str(seed),
                                    "--games", "1"])
    t0 = time.time()
    try:
        text = drive(sess, label, rules)
        check_result(text, label)
        for pat, what in expect:
            check(re.search(pat, text, re.M), f"{label}: {what}")
        print(f"     ({label}: {len(sess.sent)} lines typed, {time.time() - t0:.1f} s)")
    except Timeout as e:
        check(False, f"{label}: the game went on to the end", str(e))
    finally:
        sess.close()


def pipe_game(label, argv, rules, answers_another=(), illegal=True):
    sess = PipeSession(argv)
    t0 = time.time()
    try:
        text = drive(sess, label, rules, illegal=illegal, answers_another=answers_another)
    except Timeout as e:
        check(False, f"{label}: the game went on to the end", str(e))
        sess.close()
        return None, None
    sess.close()
    print(f"     ({label}: {len(sess.sent)} lines typed, {time.time() - t0:.1f} s)")
    return text, sess.sent


def run_script(argv, data, timeout=120):
    return subprocess.run(argv, input=data, capture_output=True, timeout=timeout)


def main():
    if not os.access(CARDBOT, os.X_OK):
        check(False, f"{CARDBOT} is built")
        return
    tmp = tempfile.mkdtemp(prefix="cbplay-")
    try:
        pdk = write_config(tmp, "pdk", "pdk16")
        ddz = write_config(tmp, "ddz", "ddz")
        rob = write_config(tmp, "rob", "ddz", "rob = true")

        # ---- a terminal: tmux ----
        if shutil.which("tmux") is None:
            check(False, "tmux is installed (make deps installs it)")
        else:
            tmux_game(tmp, "tmux-pdk", pdk, "pdk16", 11, [
                (r"^(seat \d \(\S+\)|you \(seat 0\)) 包庄: (no|yes)$", "包庄 is asked and answered"),
                (r"^(nobody declared 包庄|.* declared 包庄)$", "the 包庄 outcome is announced"),
                (r"^  to beat: .* from seat \d", "the play to beat and who made it are shown"),
                (r"^seat [12] \(\S+\) plays \S+.* \(\w+\), \d+ cards? left$", "the bots' plays are shown")])
            tmux_game(tmp, "tmux-ddz", ddz, "ddz", 7, [
                (r"^(seat \d \(\S+\)|you \(seat 0\)) bid: (pass|[123])$", "the bids are shown"),
                (r"^.* (is|are) the landlord at stake [123]; the bottom cards: ", "landlord and bottom announced"),
                (r"^  landlord seat \d: stake \d.*: \d+ a farmer$", "the multiplier is settled")])

        # ---- no terminal: pipes ----
        argv = [CARDBOT, "play", "--config", rob, "--seat", "2", "--seed", "5", "--games", "1", "--unicode"]
        text, sent = pipe_game("pipe-ddz-rob", argv, "ddz")
        if text is not None:
            check_result(text, "pipe-ddz-rob")
            check(re.search(r"^  your hand \(\d+\): .*[\u2660\u2665\u2663\u2666]", text, re.M),
                  "pipe-ddz-rob: --unicode shows the suits as symbols")
            check(re.search(r"bid: (call|rob|pass)", text), "pipe-ddz-rob: 叫/抢地主 bids are shown")
            again = run_script(argv, ("\n".join(sent) + "\n").encode())
            replayed = again.stdout.decode("utf-8", "replace") + "[cardbot exited with status 0]\n"
            check(again.returncode == 0 and replayed == text,
                  "pipe-ddz-rob: the same lines piped at once give the same transcript",
                  first_difference(text, replayed))

        # at the bid prompt: moves lists the legal bids; a word refused is named with the
        # engine's reason (seat 0 bids first: call or pass, so rob is refused)
        r = run_script([CARDBOT, "play", "--config", rob, "--seat", "0", "--seed", "1", "--games", "1"],
                       b"moves\nrob\nquit\n")
        out = r.stdout.decode("utf-8", "replace")
        check(r.returncode == 0 and re.search(r"^legal bids: 0 \(pass\), 1 \(call\)$", out, re.M) and
              re.search(r"^refused: rob: bid 2: .*\(choices: 0 \(pass\), 1 \(call\)\)$", out, re.M),
              "bid prompt: moves lists the bids; a refused rob is named", out[-400:])

        argv = [CARDBOT, "play", "--config", pdk, "--seat", "1", "--seed", "3", "--hint", "h"]
        text, sent = pipe_game("pipe-pdk-2games", argv, "pdk16", answers_another=("y", "n"))
        if text is not None:
            check_result(text, "pipe-pdk-2games", games=2)
            check(re.search(r"^hint from h: ", text, re.M) and "hints from h" in text,
                  "pipe-pdk-2games: --hint h answers the hints (the seat's own is weak)")
            check(len(re.findall(r"^another game\? \[y/n\] (y|n)$", text, re.M)) == 2 and
                  re.search(r"^2 games: seat 0 [+-]\d+, seat 1 \(you\) [+-]\d+, seat 2 [+-]\d+$", text, re.M),
                  "pipe-pdk-2games: another game? y plays on, n stops, totals over 2 games")

        base = [CARDBOT, "play", "--config", ddz, "--seat", "0", "--seed", "9", "--games", "1"]
        r = run_script(base, b"")
        out = r.stdout.decode("utf-8", "replace")
        check(r.returncode == 0 and "end of input: game 1 left unfinished" in out and r.stderr == b"",
              "empty input: leaves cleanly with a message, status 0", out[-300:] + r.stderr.decode())
        r = run_script(base, b"quit\n")
        check(r.returncode == 0 and "you quit: game 1 left unfinished" in r.stdout.decode(),
              "quit: leaves cleanly, status 0")
        junk = [b"", b"   ", b"abc\x00def", b"\xff\xfe\xfd", "♠♠♠".encode(), "3♠".encode(), b"10", b"-1",
                b"99999999999999999999", b"hint hint", b"x" * 100000, b"3" * 70, b"\x1b[A\x1b[B", b"%s%n%s",
                b"moves", b"hand", b"help", b"?", b"4 4 4", b"33334", b"2s2s", b"XD", b"\t", b"h"]
        data = b"\n".join(junk * 3) + b"\n"
        for name, cfg in (("ddz", ddz), ("pdk", pdk)):
            r = run_script([CARDBOT, "play", "--config", cfg, "--seat", "0", "--seed", "9"], data)
            out = r.stdout.decode("utf-8", "replace")
            check(r.returncode == 0 and "end of input" in out and out.count("refused:") >= 10,
                  f"junk input ({name}): refused line by line, then the end of input leaves cleanly",
                  f"status {r.returncode}; " + out[-400:] + r.stderr.decode("utf-8", "replace")[-400:])
        # the refusals name the core's reasons
        r = run_script(base, b"1\nzz\n")
        check("refused: zz: not cards of this game: bad card character 'z' at position 1" in r.stdout.decode(),
              "a typo is refused with the parser's reason")
        # cards of the game the hand lacks are said by rank and by the card (seed 9: seat 0 is
        # the landlord holding 2s2h2d, KhKd and the club J only)
        r = run_script(base, b"1\n2222\nKKKK\nJs\n")
        out = r.stdout.decode()
        check("refused: 2222: only three 2s in the hand" in out and
              "refused: KKKK: only two Ks in the hand" in out and
              "refused: Js: card Js is not in the hand" in out,
              "cards not held are refused by rank or by card", out[-400:])

        for args, what in ((["--seat", "0"], "missing --config"),
                           (["--config", ddz], "missing --seat"),
                           (["--config", ddz, "--seat", "3"], "--seat 3"),
                           (["--config", ddz, "--seat", "0", "--games", "0"], "--games 0"),
                           (["--config", ddz, "--seat", "0", "--seed", "-4"], "--seed -4"),
                           (["--config", ddz, "--seat", "0", "--hint", "nosuch"], "--hint nosuch"),
                           (["--config", os.path.join(tmp, "none.ini"), "--seat", "0"], "a missing config"),
                           (["--config", ddz, "--seat", "0", "--bogus"], "an unknown option"),
                           (["--config", ddz, "--seat", "0", "extra"], "an extra argument")):
            r = run_script([CARDBOT, "play"] + args, b"")
            err = r.stderr.decode("utf-8", "replace")
            check(r.returncode == 2 and err.count("\n") == 1 and err.startswith("cardbot play: ") and
                  r.stdout == b"", f"bad options ({what}): one error line, status 2", f"{r.returncode}: {err}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def first_difference(a, b):
    la, lb = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return f"line {i + 1}:\n  interactive: {x}\n  piped:       {y}"
    return f"lengths {len(la)} and {len(lb)} lines"


if __name__ == "__main__":
    t0 = time.time()
    main()
    print(f"test_play: {time.time() - t0:.1f} s")
    finish()

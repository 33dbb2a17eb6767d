#!/usr/bin/env python3
"""The exec strategy end to end through `cardbot match`: the example Python bot
(examples/python-bot/bot.py) plays PDK and DDZ against heuristic with no fallback, in process and
under isolation = process; the same bot broken on purpose (bad JSON, too slow, illegal plays,
exiting mid-game) has each fault counted in its Fallbacks line while the match completes; a
strategy served by `cardbot serve` through exec plays exactly the games the same strategy plays
in process (the codec and serve add nothing); the sandbox's refusal is explained; bad exec
parameters are refused with the key named; a program that dies before answering hello is
reported as dead (its status and last stderr line), not as a start_ms timeout, which a program
still running gets; relative paths (the program, its arguments, cwd, a stderr file) are the
config file's directory's, whatever the directory cardbot is started in, so the bundled
config/exec-python.ini runs from anywhere.

Run by `make check` as build/<variant>/tests/test_exec_match with CB_BUILD=build/<variant>, from
the repository root. Exit status 0 = every test passed.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

BUILD = os.path.abspath(os.environ.get("CB_BUILD", "build/plain"))
ROOT = os.path.abspath(os.path.join(BUILD, "..", ".."))
CARDBOT = os.path.join(BUILD, "cardbot")
BOT = os.path.join(ROOT, "examples", "python-bot", "bot.py")
PYTHON = sys.executable or "python3"
FALLBACKS = re.compile(r"^Fallbacks (\S+) +illegal=(\d+) failed=(\d+) late=(\d+) no-plugin=(\d+) crashed=(\d+) total=(\d+)", re.M)


def config(tmp, name, rules, command, shim_extra="", budget=1000, seat0="bot", extra_strategies=""):
    text = f"""[shim]
fallback = safe
budget_ms = {budget}
{shim_extra}
[game]
rules = {rules}

[strategy.bot]
plugin = exec
command = {command}

[strategy.heuristic]
plugin = heuristic
level = 6

[strategy.safe]
plugin = heuristic
level = 6
{extra_strategies}
[seats]
0 = {seat0}
1 = heuristic
2 = heuristic
"""
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def match(cfg, games, seed=1, extra=(), timeout=120, cwd=None):
    t0 = time.time()
    p = subprocess.run([CARDBOT, "match", "--config", cfg, "--games", str(games), "--seed", str(seed), *extra],
                       capture_output=True, text=True, timeout=timeout, cwd=cwd)
    fb = {m.group(1): dict(zip(("illegal", "failed", "late", "no_plugin", "crashed", "total"), map(int, m.groups()[1:])))
          for m in FALLBACKS.finditer(p.stdout)}
    return p, fb, time.time() - t0


class ExecMatch(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="cbexec-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def bot(self, args=""):
        return f"{PYTHON} {BOT} {args}".strip()

    def clean_match(self, rules, games, shim_extra=""):
        # a generous budget: these matches check that every answer is the bot's own, and a
        # loaded machine (ASan, process isolation, two cores) must not turn one into "late";
        # lateness has its own test (fault "slow", budget 300 ms)
        cfg = config(self.tmp, f"{rules}.ini", rules, self.bot(), shim_extra, budget=20000)
        p, fb, took = match(cfg, games, seed=3)
        print(f"{rules} {shim_extra or 'inproc'}: {games} games in {took:.1f} s; fallbacks {fb.get('bot')}")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(f"Finished game {games} ", p.stdout)
        self.assertEqual(fb["bot"]["total"], 0, p.stdout + p.stderr)
        self.assertNotIn("decision failed", p.stderr)

    def test_pdk_no_fallback(self):
        self.clean_match("pdk16", 30)

    def test_ddz_no_fallback(self):
        self.clean_match("ddz", 30)

    def test_process_isolation(self):
        self.clean_match("pdk15", 8, "isolation = process")
        self.clean_match("ddz", 8, "isolation = process")

    def fault(self, mode, counter, games=6, budget=1000, every=4, rules="pdk16"):
        cfg = config(self.tmp, f"{mode}.ini", rules, self.bot(f"--fault {mode} --every {every}"), budget=budget)
        p, fb, took = match(cfg, games, seed=2)
        print(f"fault {mode} ({rules}): {games} games in {took:.1f} s; fallbacks {fb.get('bot')}")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(f"Finished game {games} ", p.stdout)
        got = fb["bot"]
        self.assertGreater(got[counter], 0, p.stdout)
        other = "failed" if counter == "illegal" else "illegal"
        self.assertEqual(got[other], 0, p.stdout)
        self.assertEqual(got["crashed"], 0, p.stdout)
        self.assertEqual(fb["heuristic"]["total"], 0, p.stdout)
        return p, got

    def test_fault_bad_json(self):
        p, got = self.fault("badjson", "failed")
        self.assertIn("bad answer {this is not json", p.stderr)

    def test_fault_illegal(self):
        p, got = self.fault("illegal", "illegal", rules="ddz")
        self.assertNotIn("decision failed", p.stderr)  # an illegal play is the program's answer

    def test_fault_exit(self):
        p, got = self.fault("exit", "failed")
        self.assertIn("exited with status 3", p.stderr)
        # said once, without a guess or a budget that played no part
        self.assertNotRegex(p.stderr, r"exited\?|\(the program|closed its output \(budget")
        self.assertIn("exiting on purpose", p.stderr)  # its stderr, prefixed
        self.assertRegex(p.stderr, r"\[exec pybot \d+\] pybot: exiting on purpose")

    def test_fault_slow(self):
        p, got = self.fault("slow", "failed", games=2, budget=300, every=6)
        self.assertIn("no answer in time (budget 300 ms)", p.stderr)

    def test_closed_output_no_sigpipe(self):
        """A program that closes its stdin / stdout after hello and lives on: the host's writes
        meet a closed socket (EPIPE), or its reads a reset (the request unread) or the end of
        the file — a race — which must fail the decision, not kill the host, and say so."""
        script = os.path.join(self.tmp, "closer.py")
        with open(script, "w") as f:
            f.write("import os, sys, time\nsys.stdin.readline()\n"
                    "sys.stdout.write('{\"protocol\":\"cardbot-1\",\"name\":\"closer\"}\\n')\n"
                    "sys.stdout.flush()\nos.close(0)\nos.close(1)\ntime.sleep(30)\n")
        cfg = config(self.tmp, "closer.ini", "ddz", f"{PYTHON} {script}")
        p, fb, took = match(cfg, 2, seed=1)
        print(f"closer: 2 games in {took:.1f} s; fallbacks {fb.get('bot')}; status {p.returncode}")
        self.assertEqual(p.returncode, 0, p.stderr)  # -13 would be SIGPIPE
        self.assertIn("Finished game 2 ", p.stdout)
        self.assertGreater(fb["bot"]["failed"], 0)
        self.assertRegex(p.stderr, r"Broken pipe|closed its output")
        self.assertNotIn("Connection reset", p.stderr)  # worded as what it is, whichever came first

    def test_serve_through_exec_is_identical(self):
        """exec -> cardbot-1 -> cardbot serve -> shim -> heuristic plays the in-process games."""
        for rules, ref in (("pdk16", "pdk16.ini"), ("ddz", "ddz.ini")):
            served = f"{CARDBOT} serve --config {os.path.join(ROOT, 'config', ref)} --strategy heuristic"
            cfg = config(self.tmp, f"served-{rules}.ini", rules, served)
            ref_cfg = config(self.tmp, f"ref-{rules}.ini", rules, served, seat0="heuristic")
            p, fb, took = match(cfg, 12, seed=11)
            q, _, _ = match(ref_cfg, 12, seed=11)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(fb["bot"]["total"], 0, p.stdout)
            games = [l.replace("(bot,", "(heuristic,") for l in p.stdout.splitlines() if l.startswith("Finished")]
            want = [l for l in q.stdout.splitlines() if l.startswith("Finished")]
            print(f"served {rules}: 12 games in {took:.1f} s")
            self.assertEqual(len(games), 12)
            self.assertEqual(games, want)

    def test_sandbox_refuses_exec(self):
        cfg = config(self.tmp, "sandbox.ini", "pdk16", self.bot(), "isolation = process\nsandbox = on")
        p, fb, took = match(cfg, 2, seed=1)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("Finished game 2 ", p.stdout)
        self.assertGreater(fb["bot"]["failed"] + fb["bot"]["no_plugin"] + fb["bot"]["crashed"], 0, p.stdout)
        self.assertIn("sandbox = off", p.stderr)

    def test_bad_parameters(self):
        cases = [
            ("", "command: missing"),
            ("/nonexistent/bot --x", "'/nonexistent/bot' is not an executable file"),
            (f"{PYTHON} -c 'import sys; sys.exit(4)'", "exited with status 4"),
            (f"{PYTHON} -c 'print(1)'", "bad hello answer"),
            ("no-such-program-anywhere", "not found along PATH"),
            ("'unclosed", "exec: command:"),
        ]
        for command, want in cases:
            cfg = config(self.tmp, "bad.ini", "pdk16", command)
            if not command:
                with open(cfg) as f:
                    text = f.read().replace("command = \n", "")
                with open(cfg, "w") as f:
                    f.write(text)
            p, _, _ = match(cfg, 1)
            self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
            self.assertIn("[strategy.bot]", p.stderr)
            self.assertIn(want, p.stderr)
        cfg = config(self.tmp, "bad.ini", "pdk16", self.bot() + "\ncolour = blue")
        p, _, _ = match(cfg, 1)
        self.assertEqual(p.returncode, 2)
        self.assertIn("unknown parameter 'colour'", p.stderr)
        cfg = config(self.tmp, "bad.ini", "pdk16", self.bot() + "\nstart_ms = soon")
        p, _, _ = match(cfg, 1)
        self.assertIn("start_ms: 'soon'", p.stderr)


    def test_died_before_hello(self):
        """A program that exits at once: what happened, first, with its last stderr line; no
        word of start_ms (it never waited for it)."""
        command = "sh -c 'echo no bot here >&2; exit 2'"
        cfg = config(self.tmp, "dies.ini", "pdk16", command)
        p, _, took = match(cfg, 1)
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        # "reading hello" when it was gone before the shim's hello reached its pipe (a race the
        # program wins on a loaded machine), "answering hello" otherwise: both say what happened
        self.assertRegex(p.stderr, re.escape(f"dies.ini: [strategy.bot]: exec: command '{command}': the program "
                                             "exited with status 2 before ") + r"(answering|reading) hello; " +
                         re.escape("the last line it wrote on stderr: no bot here\n"))
        self.assertNotIn("start_ms", p.stderr)
        self.assertLess(took, 5)  # not start_ms = 10000
        # the trial's case: python3 with a script that is not there
        cfg = config(self.tmp, "noscript.ini", "pdk16", f"{PYTHON} no-such-bot.py")
        p, _, _ = match(cfg, 1)
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertRegex(p.stderr, r"the program exited with status 2 before (answering|reading) hello; the last line it "
                         r"wrote on stderr: .*can't open file '" + re.escape(os.path.join(self.tmp, "no-such-bot.py")))
        self.assertNotIn("start_ms", p.stderr)

    def test_hello_timeout(self):
        """A program still running when start_ms runs out: the timeout wording."""
        cfg = config(self.tmp, "mute.ini", "pdk16", "sleep 30\nstart_ms = 300")
        p, _, took = match(cfg, 1)
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertIn("mute.ini: [strategy.bot]: exec: command 'sleep 30': no hello answer within start_ms = 300 ms "
                      "(the program was still running: stopped)\n", p.stderr)
        self.assertLess(took, 10)

    def test_relative_paths(self):
        """Relative paths are the config file's directory's: cardbot started elsewhere still
        finds the bot an argument names, a program named by a relative path, a relative cwd, and
        writes a relative stderr file there."""
        # elsewhere is two levels down: ../bots from there is no directory
        cfgdir, botdir, elsewhere = (os.path.join(self.tmp, d) for d in ("cfg", "bots", "else/where"))
        for d in (cfgdir, botdir, elsewhere):
            os.makedirs(d)
        shutil.copy(BOT, botdir)
        runner = os.path.join(botdir, "run.sh")
        with open(runner, "w") as f:
            f.write(f"#!/bin/sh\necho starting in $(pwd) >&2\nexec {PYTHON} ../bots/bot.py\n")
        os.chmod(runner, 0o755)
        cases = [
            ("arg.ini", f"{PYTHON} ../bots/bot.py", ""),               # an argument the program opens
            ("prog.ini", "../bots/run.sh\nstderr = run.log", ""),      # the program, and a stderr file
            ("cwd.ini", f"{PYTHON} bot.py\ncwd = ../bots", ""),        # a relative cwd
            ("worker.ini", f"{PYTHON} ../bots/bot.py", "isolation = process"),  # created in a worker
        ]
        for name, command, shim_extra in cases:
            cfg = config(cfgdir, name, "pdk16", command, shim_extra)
            p, fb, _ = match(cfg, 1, cwd=elsewhere)
            self.assertEqual(p.returncode, 0, name + ": " + p.stderr)
            self.assertIn("Finished game 1 ", p.stdout)
            self.assertEqual(fb["bot"]["total"], 0, name + ": " + p.stdout + p.stderr)
        with open(os.path.join(cfgdir, "run.log")) as f:
            self.assertIn(f"starting in {cfgdir}\n", f.read())
        self.assertFalse(os.path.exists(os.path.join(elsewhere, "run.log")))
        # what is not there is named with the directory it was looked for from
        cfg = config(cfgdir, "missing.ini", "pdk16", "../nowhere/bot")
        p, _, _ = match(cfg, 1, cwd=elsewhere)
        self.assertIn(f"exec: command: '../nowhere/bot' is not an executable file (relative to {cfgdir}, the "
                      "program's working directory)", p.stderr)
        cfg = config(cfgdir, "nocwd.ini", "pdk16", f"{PYTHON} bot.py\ncwd = nowhere")
        p, _, _ = match(cfg, 1, cwd=elsewhere)
        self.assertIn(f"exec: cwd: 'nowhere' is not a directory ({os.path.join(cfgdir, 'nowhere')}: relative paths "
                      "are the config file's directory's)", p.stderr)
        # config_dir is the shim's to give
        cfg = config(cfgdir, "dir.ini", "pdk16", f"{PYTHON} bot.py\nconfig_dir = {botdir}")
        p, _, _ = match(cfg, 1, cwd=elsewhere)
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertIn("[strategy.bot]: exec: config_dir: given twice; the shim sets it to the config file's directory",
                      p.stderr)

    def test_bundled_config_anywhere(self):
        """config/exec-python.ini, run from a directory that is not the source tree's root."""
        p, fb, _ = match(os.path.join(ROOT, "config", "exec-python.ini"), 1, extra=("--concurrency", "1"), cwd=self.tmp)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("Finished game 1 ", p.stdout)
        self.assertEqual(fb["python"]["total"], 0, p.stdout + p.stderr)


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=2).result
    failed = len(result.failures) + len(result.errors)
    print(f"{result.testsRun - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)

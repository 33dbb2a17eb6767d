#!/bin/sh
# Run every test binary of one build variant; each test prints cmocka's own summary.
# Ends with "N passed, N failed" over binaries (a binary passes when it exits 0).
#   sh tests/run.sh [BUILD_DIR [NAME...]]   NAMEs: only these tests (e.g. test_tsan_reload);
#                                           a NAME that was not built counts as failed
# Each binary gets CB_TEST_TIMEOUT seconds (default 1200; the slowest, test_match under ASan,
# takes a few minutes): a test that hangs — a deadline regression, a lost wakeup — fails the
# run and is named, instead of stalling it.
B=${1:-build/plain}
[ $# -gt 0 ] && shift
LIMIT=${CB_TEST_TIMEOUT:-1200}
named=$#
if [ "$named" -gt 0 ]; then
  for n in "$@"; do set -- "$@" "$B/tests/$n"; shift; done
else
  set -- "$B"/tests/test_*
fi
pass=0; fail=0; failed=""
for t in "$@"; do
  if ! [ -f "$t" ] || ! [ -x "$t" ]; then
    [ "$named" -gt 0 ] || continue # .d files and the like
    echo "== $t: not built"; fail=$((fail+1)); failed="$failed $(basename "$t")"; continue
  fi
  echo "== $t"
  # timeout signals the test's whole process group, so its children (cardbot match, plugin
  # workers) go too; -k: one that ignores SIGTERM is killed 10 s later.
  t0=$(date +%s)
  CB_BUILD="$B" timeout -k 10 "$LIMIT" "$t"
  rc=$?
  echo "== $(basename "$t"): exit $rc after $(( $(date +%s) - t0 )) s"
  if [ "$rc" -eq 0 ]; then pass=$((pass+1)); continue; fi
  fail=$((fail+1)); failed="$failed $(basename "$t")"
  case $rc in
    124) echo "TIMEOUT: $(basename "$t") was still running after $LIMIT s (CB_TEST_TIMEOUT): stopped"
         failed="$failed(timeout)" ;;
    137) echo "KILLED: $(basename "$t") by SIGKILL (ignored the timeout's SIGTERM, or out of memory)"
         failed="$failed(killed)" ;;
  esac
done
[ -n "$failed" ] && echo "failed:$failed"
echo "$B: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

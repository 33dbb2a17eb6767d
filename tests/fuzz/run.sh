#!/bin/sh
# Run libFuzzer targets for a while each: sh tests/fuzz/run.sh BUILD SECONDS NAME...
# Seeds come from tests/fuzz/corpus/NAME (read only); new inputs go to BUILD/corpus/NAME, a
# failing input to BUILD/crash/NAME/. Prints per target the executions and their rate, and
# ends with "BUILD: N passed, N failed" (tests/tally.sh) — a target fails when libFuzzer
# reports a crash, a sanitizer error, a failed cross-check (abort), a timeout or a leak.
B=$1; T=$2; shift 2
pass=0; fail=0; failed=""
for name in "$@"; do
  bin=$B/fuzz/fuzz_$name
  seeds=tests/fuzz/corpus/$name
  mkdir -p "$B/corpus/$name" "$B/crash/$name"
  log=$B/fuzz/fuzz_$name.log
  echo "== fuzz $name: $T s"
  if [ ! -x "$bin" ]; then
    echo "fuzz $name: not built"; fail=$((fail+1)); failed="$failed $name"; continue
  fi
  # -timeout: one input may take 30 s (a worker start the shim retries after 10 s); the outer
  # timeout only guards against libFuzzer itself hanging. CB_FUZZ_TMP: a scratch directory the
  # shim targets write their configs and inputs into.
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/cbfuzz-XXXXXX")
  CB_FUZZ_TMP=$tmp CB_BUILD=$B timeout -k 10 $((T + 120)) "$bin" -max_total_time="$T" -timeout=30 \
    -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$B/crash/$name/" \
    "$B/corpus/$name" "$seeds" > "$log" 2>&1
  rc=$?
  rm -rf "$tmp"
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  cov=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | sed -n 's/.*cov: \([0-9]*\).*corp: \([0-9]*\).*/cov \1, corpus \2/p')
  if [ "$rc" -eq 0 ]; then
    pass=$((pass+1))
    echo "fuzz $name: ${execs:-?} executions in $T s (${rate:-?}/s), ${cov:-?}: ok"
  else
    fail=$((fail+1)); failed="$failed $name"
    echo "fuzz $name: FAILED (exit $rc) after ${execs:-?} executions; the log:"
    grep -v -E '^#[0-9]+|^INFO:' "$log" | tail -n 60
    ls "$B/crash/$name/" 2>/dev/null | sed 's/^/  input: /'
  fi
done
[ -n "$failed" ] && echo "failed:$failed"
echo "$B: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

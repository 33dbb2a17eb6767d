#!/bin/sh
# Run every test binary of one build variant; each test prints cmocka's own summary.
# Ends with "N passed, N failed" over binaries (a binary passes when it exits 0).
B=${1:-build/plain}
pass=0; fail=0; failed=""
for t in "$B"/tests/test_*; do
  [ -x "$t" ] || continue
  echo "== $t"
  if CB_BUILD="$B" "$t"; then pass=$((pass+1)); else fail=$((fail+1)); failed="$failed $(basename "$t")"; fi
done
[ -n "$failed" ] && echo "failed:$failed"
echo "$B: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

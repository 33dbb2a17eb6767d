#!/bin/sh
# Sum the per-variant "N passed, N failed" lines into one closing line.
p=0; f=0
for log in "$@"; do
  line=$(grep -E '^[^ ]+: [0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
  [ -n "$line" ] || { f=$((f+1)); continue; }
  a=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/'); b=$(echo "$line" | sed -E 's/.* ([0-9]+) failed$/\1/')
  p=$((p+a)); f=$((f+b))
done
echo "$p passed, $f failed"
[ "$f" -eq 0 ]

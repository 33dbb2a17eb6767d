#!/usr/bin/env bash
# Heuristic-only games per second through the whole stack (console host -> shim -> plugin),
# 1 and 2 threads, both games. Prints seed and size; never asserts.
set -euo pipefail
B=${1:-build/plain}
GAMES=${GAMES:-30000}
SEED=${SEED:-1}
echo "throughput: heuristic level 6 on all seats, $GAMES games per run, seed $SEED"
# pdk16.ini seats ismcts at seat 0; its [table.heuristic] is the heuristic-only seating.
run() { # name, then extra cardbot arguments
  local name=$1; shift
  for j in 1 2; do
    line=$("$B/cardbot" match --config "config/$name.ini" "$@" --games "$GAMES" --seed "$SEED" --concurrency "$j" --quiet \
           | grep -E '^timing [0-9]+ games')
    echo "  $name  threads=$j  ${line#timing }"
  done
}
run pdk16 --table heuristic
run ddz

#!/usr/bin/env bash
# Heuristic-only games per second through the whole stack (console host -> shim -> plugin),
# 1 and 2 threads, both games. Prints seed and size; never asserts.
set -euo pipefail
B=${1:-build/plain}
GAMES=${GAMES:-30000}
SEED=${SEED:-1}
echo "throughput: heuristic level 6 on all seats, $GAMES games per run, seed $SEED"
for cfg in pdk16 ddz; do
  for j in 1 2; do
    line=$("$B/cardbot" match --config "config/$cfg.ini" --games "$GAMES" --seed "$SEED" --concurrency "$j" --quiet \
           | grep -E '^timing [0-9]+ games')
    echo "  $cfg  threads=$j  ${line#timing }"
  done
done

#!/usr/bin/env bash
# Difficulty ladder: heuristic level k+1 (seat 0) against two level-k seats, duplicate deals
# (each deal played 3 times with the hands rotated). Target: every step positive in points
# per game for the single seat. Prints the table with 95% intervals, seed and size.
set -euo pipefail
B=${1:-build/plain}
DEALS=${DEALS:-2000}
SEED=${SEED:-11}
GAMES=$((DEALS * 3))
for game in pdk ddz; do
  echo "levels-$game: $DEALS deals x 3 rotations = $GAMES games per step, seed $SEED"
  printf '  %-6s %-8s %-9s %-19s %-10s %-19s\n' step games win% "95% CI" pts/game "95% CI"
  for k in 2 3 4 5 6; do
    out=$("$B/cardbot" match --config "config/levels-$game.ini" --table "${k}v$((k - 1))" --duplicate \
          --games "$GAMES" --seed "$SEED" --concurrency 2 --quiet)
    row=$(echo "$out" | grep -E "^L$k " | head -n 1)
    # Strategy Games Win% [lo, hi] Pts [lo, hi] ...
    read -r _ n win lo hi pts plo phi _ <<<"$(echo "$row" | tr -d '[],')"
    printf '  %-6s %-8s %-9s %-19s %-10s %-19s\n' "L$k/L$((k - 1))" "$n" "$win" "[$lo, $hi]" "$pts" "[$plo, $phi]"
  done
done

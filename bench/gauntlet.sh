#!/usr/bin/env bash
# cardbot — gauntlet: the default strategy (ismcts) against two seats of each opponent of
# config/gauntlet-GAME.ini — heuristic levels 1..6, random, rulebot, pimc, the heuristic's
# personalities bomber, hoarder, chain, careless — through the console host with duplicate
# deals. Prints, per opponent, ismcts's win share and points per game with their 95% intervals,
# both sides' decision time p50 / p99 over the decisions with a choice (bids, and plays with two or
# more legal: forced answers take microseconds and would hide a search's cost) and the
# fallbacks (must be 0).
# Asserts nothing: the figures, seed and size are the result.
#
#   bench/gauntlet.sh [BUILD_DIR]            (default build/plain)
# Environment:
#   GAME=pdk|ddz       which config (default pdk)
#   GAMES=N            games per opponent (default 150 = 50 deals x 3 rotations: small, so
#                      the intervals are wide; raise it for a verdict)
#   SEED=S             match seed (default 1): every opponent plays the same deals
#   ITER=N             run ismcts at N iterations (a copy of the config; default: its own)
#   OPPONENTS="a b"    which [table.X] (default: all of L1..L6 random rulebot pimc bomber
#                      hoarder chain careless)
#   CONCURRENCY=K      games at once (default 1)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/support/common.sh
B=${1:-build/plain}
GAME=${GAME:-pdk}
GAMES=${GAMES:-150}
SEED=${SEED:-1}
CONCURRENCY=${CONCURRENCY:-1}
OPPONENTS=${OPPONENTS:-"L1 L2 L3 L4 L5 L6 random rulebot pimc bomber hoarder chain careless"}
BIN=${CARDBOT:-$B/cardbot}
CONFIG=config/gauntlet-$GAME.ini
[ -x "$BIN" ] || { echo "gauntlet.sh: no $BIN (make first)" >&2; exit 1; }
[ -f "$CONFIG" ] || { echo "gauntlet.sh: no $CONFIG" >&2; exit 1; }

label="default iterations"
if [ -n "${ITER:-}" ]; then
  tmp=$(mktemp "${TMPDIR:-/tmp}/gauntlet-$GAME.XXXXXX.ini")
  trap 'rm -f "$tmp"' EXIT
  # the ismcts group's plugin line gains an iterations key (the config's only ismcts group)
  ismcts_keys "$CONFIG" "iterations = $ITER" > "$tmp"
  CONFIG=$tmp
  label="iterations = $ITER"
fi

echo "gauntlet-$GAME: ismcts ($label) at seat 0 vs two seats of each opponent"
echo "$GAMES games per opponent (duplicate: $((GAMES / 3)) deals x 3 rotations), seed $SEED, concurrency $CONCURRENCY"
echo "machine: $(nproc) cores, $(uname -m); $(date -u '+%Y-%m-%d %H:%M UTC')"
printf '%-8s %6s %7s %-17s %8s %-17s %-19s %-19s %s\n' opponent games win% "95% CI" pts/game "95% CI" \
  "ismcts p50/p99" "opponent p50/p99" fallbacks
for x in $OPPONENTS; do
  out=$("$BIN" match --config "$CONFIG" --table "$x" --duplicate --games "$GAMES" --seed "$SEED" \
        --concurrency "$CONCURRENCY" --quiet 2>&1) || { echo "$x: cardbot match failed:"; echo "$out"; exit 1; }
  # Strategy Games Win% [lo, hi] Pts [lo, hi] ...
  read -r _ n win lo hi pts plo phi _ <<<"$(echo "$out" | awk '$1 == "ismcts" { print; exit }' | tr -d '[],')"
  t_me=$(echo "$out" | awk '$1 == "timing" && $2 == "ismcts" { print $16 "/" $18; exit }')
  t_op=$(echo "$out" | awk -v s="$x" '$1 == "timing" && $2 == s { print $16 "/" $18; exit }')
  fb=$(echo "$out" | awk '$1 == "Fallbacks" { split($NF, a, "="); t += a[2] } END { print t + 0 }')
  printf '%-8s %6s %7s %-17s %8s %-17s %-19s %-19s %s\n' "$x" "$n" "$win" "[$lo, $hi]" "$pts" "[$plo, $phi]" \
    "$t_me" "$t_op" "$fb"
done

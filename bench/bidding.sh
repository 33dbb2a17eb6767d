#!/usr/bin/env bash
# cardbot — DDZ bidding: does bidding by expected points (ismcts bid_by = points) pay against
# bidding by the win-rate thresholds (bid_by = winrate, bid1..bid3)? ismcts at seat 0 against
# two heuristic level-6 seats with the bidding ON (no --landlord), config/ddz-ismcts-vs-
# heuristic.ini's [seats], once per variant on the SAME duplicate deals (same seed). Prints each
# run's summary row (win share, points per game, Bid%, LL%, LLwin%) and the PAIRED difference
# per deal — a deal's figure is the mean over its 3 rotations — of ismcts's win share and
# points per game, with a 95% interval (bench/paired.py). Only the bids differ between the two
# runs; play is the same strategy, so a difference is what the bids lead to (which deals
# ismcts plays as landlord, at which stake, and which deals are redealt). Asserts nothing: the
# figures, seed and size are the result.
#
#   bench/bidding.sh [BUILD_DIR]          (default build/plain)
# Environment:
#   GAMES=N            games per variant and rule set (default 300 = 100 deals x 3 rotations)
#   SEED=S             match seed (default 1)
#   RULES="score rob"  which bidding: score = 叫分 (the ddz preset), rob = 叫/抢地主 ([rules]
#                      rob = true); default both
#   ITER=N             ismcts iterations ("" keeps the config's own, the default)
#   CONCURRENCY=K      games at once (default 1)
#   OUT=DIR            keep the per-game results (DIR/RULES-VARIANT.jsonl) and match output
#                      there; with REUSE=1 a run already there is read instead of played again
#                      (same GAMES/SEED/ITER and build: the caller's word) — e.g. the winrate
#                      runs, which a change to the points rule leaves as they were
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/support/common.sh
B=${1:-build/plain}
GAMES=${GAMES:-300}
SEED=${SEED:-1}
RULES=${RULES:-"score rob"}
ITER=${ITER-}
CONCURRENCY=${CONCURRENCY:-1}
REUSE=${REUSE:-0}
BIN=${CARDBOT:-$B/cardbot}
CONFIG=config/ddz-ismcts-vs-heuristic.ini
paired_setup bidding.sh

# a copy of the config: the ismcts group gains bid_by (and ITER), rob adds a [rules] group
config_of() {
  local rules=$1 var=$2 f=$tmpd/$1-$2.ini keys="bid_by = $2"
  [ -n "$ITER" ] && keys="iterations = $ITER"$'\n'"$keys"
  ismcts_keys "$CONFIG" "$keys" > "$f"
  if [ "$rules" = rob ]; then printf '\n[rules]\nrob = true\n' >> "$f"; fi
  echo "$f"
}

echo "bidding: ismcts (iterations ${ITER:-config}) at seat 0 vs two heuristic level 6, bidding on, bid_by points vs winrate"
echo "$GAMES games per variant (duplicate: $((GAMES / 3)) deals x 3 rotations), seed $SEED, concurrency $CONCURRENCY"
echo "machine: $(nproc) cores, $(uname -m); $(date -u '+%Y-%m-%d %H:%M UTC')"
for rules in $RULES; do
  case $rules in score | rob) ;; *) echo "bidding.sh: unknown rules $rules (score, rob)" >&2; exit 1 ;; esac
  echo
  echo "== $rules: the runs' summary rows (Strategy Games Win% CI Pts/game CI Bid% LL% LLwin%)"
  for var in points winrate; do
    cfg=$(config_of "$rules" "$var")
    [ "$REUSE" = 1 ] && [ -s "$OUT/$rules-$var.jsonl" ] && grep -q '^ismcts ' "$OUT/$rules-$var.out" 2>/dev/null ||
    "$BIN" match --config "$cfg" --duplicate --games "$GAMES" --seed "$SEED" --concurrency "$CONCURRENCY" \
      --quiet --progress 0 --results "$OUT/$rules-$var.jsonl" > "$OUT/$rules-$var.out" 2>&1 ||
      { echo "$rules $var: cardbot match failed:"; cat "$OUT/$rules-$var.out"; exit 1; }
    printf '%-8s %s\n' "$var" "$(grep '^ismcts ' "$OUT/$rules-$var.out")"
  done
  echo "A = points, B = winrate: paired per deal (mean over its rotations), 95% intervals"
  python3 bench/paired.py --header --label "$rules" "$OUT/$rules-points.jsonl" "$OUT/$rules-winrate.jsonl"
done

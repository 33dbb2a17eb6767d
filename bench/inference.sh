#!/usr/bin/env bash
# cardbot — inference: does weighting the belief pool by the other seats' past choices pay
# against each opponent of config/gauntlet-GAME.ini? ismcts at seat 0 plays every opponent's
# table once per variant on the SAME duplicate deals (same seed), and the script prints the
# PAIRED difference per deal — a deal's figure is the mean over its 3 rotations — of the
# ismcts seat's win share and points per game, with a 95% interval (bench/paired.py), plus
# each variant's decision time p50 over the decisions with a choice (a pass or a forced play
# answers in microseconds and would be the p50 of all of them; the time includes the belief
# pool, which the shim's budget_ms cuts at 25%, so a loaded machine shrinks the pools of
# fit and fixed but not off). Asserts nothing: the figures, seed and size are the result.
#
# Variants (ismcts keys added to a copy of the config):
#   fit     the default: PDK inference = fixed_mix (belief 0.1 per past choice neither level
#           6 nor the rule agent would have made there, each seat's factor the mean of the
#           two models', belief_fit 0.01 once some world explains them all; 3000 worlds grown
#           to 12,000 by belief_explained = 100; the search plays each seat by the likelier
#           model in each world), DDZ inference = fit (each seat's agreement with level 6
#           fitted, plugin/common/belief.h); KEYS_FIT="inference = mix" (PDK's former default,
#           with belief_worlds = 300, belief_explained = 0, belief_uniform = 0.67) picks another
#   off     belief = 1: no inference, uniform worlds
#   fixed   inference = fixed: level 6 alone at the fixed weights
# Pairs printed: fit - off and fit - fixed (a variant left out of VARIANTS drops its pair).
#
#   bench/inference.sh [BUILD_DIR]          (default build/plain)
# Environment:
#   GAME=pdk|ddz       which config (default pdk)
#   GAMES=N            games per opponent and variant (default 30 = 10 deals x 3 rotations:
#                      some minutes, not a verdict; raise it for one)
#   SEED=S             match seed (default 1)
#   ITER=N             ismcts iterations (default 2000, so that a run takes minutes; "" keeps
#                      the config's own)
#   OPPONENTS="a b"    which [table.X] (default: every table of the config)
#   VARIANTS="a b"     which variants (default "fit off fixed")
#   CONCURRENCY=K      games at once (default 2)
#   KEYS_FIT, KEYS_OFF, KEYS_FIXED  the keys of those variants instead (e.g. KEYS_FIXED= with CARDBOT=
#                      an older build, whose default was the fixed weights)
#   OUT=DIR            keep the per-game results (DIR/OPP-VARIANT.jsonl, cardbot match
#                      --results) and match output there; with REUSE=1 a file already there is
#                      read instead of played again (same GAME/GAMES/SEED/ITER: the caller's word)
#                      Two seeds' OUT directories pool into one interval:
#                      bench/paired.py DIR1/X-fit.jsonl DIR1/X-off.jsonl DIR2/X-fit.jsonl DIR2/X-off.jsonl
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/support/common.sh
B=${1:-build/plain}
GAME=${GAME:-pdk}
GAMES=${GAMES:-30}
SEED=${SEED:-1}
ITER=${ITER-2000}
CONCURRENCY=${CONCURRENCY:-2}
VARIANTS=${VARIANTS:-"fit off fixed"}
REUSE=${REUSE:-0}
BIN=${CARDBOT:-$B/cardbot}
CONFIG=config/gauntlet-$GAME.ini
[ -f "$CONFIG" ] || { echo "inference.sh: no $CONFIG" >&2; exit 1; }
paired_setup inference.sh
# every [table.X] of the config, in its order: tables added later join without an edit here
OPPONENTS=${OPPONENTS:-$(sed -n 's/^\[table\.\(.*\)\]$/\1/p' "$CONFIG" | tr '\n' ' ')}

keys_of() {
  case $1 in
    fit) echo "${KEYS_FIT-}" ;; # the default: the table's ismcts group as it is (plus ITER)
    off) echo "${KEYS_OFF-belief = 1}" ;;
    fixed) echo "${KEYS_FIXED-inference = fixed}" ;;
    *) echo "inference.sh: unknown variant $1 (fit, off, fixed)" >&2; return 1 ;;
  esac
}

# a copy of the config whose ismcts group gains the variant's keys (the config's only ismcts
# group: the same edit as bench/gauntlet.sh's ITER)
config_of() {
  local keys=$1 f=$tmpd/$2.ini
  [ -n "$ITER" ] && keys="iterations = $ITER"$'\n'"$keys"
  ismcts_keys "$CONFIG" "$keys" > "$f"
  echo "$f"
}

echo "inference-$GAME: ismcts (iterations ${ITER:-config}) at seat 0 vs two seats of each opponent, variants: $VARIANTS"
echo "$GAMES games per opponent and variant (duplicate: $((GAMES / 3)) deals x 3 rotations), seed $SEED, concurrency $CONCURRENCY"
echo "machine: $(nproc) cores, $(uname -m); $(date -u '+%Y-%m-%d %H:%M UTC')"
for x in $OPPONENTS; do
  for var in $VARIANTS; do
    res=$OUT/$x-$var.jsonl
    if [ "$REUSE" = 1 ] && [ -s "$res" ] && [ -s "$OUT/$x-$var.out" ]; then
      continue
    fi
    cfg=$(config_of "$(keys_of "$var")" "$var")
    "$BIN" match --config "$cfg" --table "$x" --duplicate --games "$GAMES" --seed "$SEED" \
      --concurrency "$CONCURRENCY" --quiet --progress 0 --results "$res" > "$OUT/$x-$var.out" 2>&1 ||
      { echo "$x $var: cardbot match failed:"; cat "$OUT/$x-$var.out"; exit 1; }
  done
done

for pair in "fit off" "fit fixed"; do
  read -r a b <<<"$pair"
  case " $VARIANTS " in *" $a "*) ;; *) continue ;; esac
  case " $VARIANTS " in *" $b "*) ;; *) continue ;; esac
  echo
  echo "A = $a, B = $b: paired per deal (mean over its rotations), 95% intervals"
  header=--header
  for x in $OPPONENTS; do
    python3 bench/paired.py $header --label "$x" "$OUT/$x-$a.jsonl" "$OUT/$x-$b.jsonl"
    header=
  done
done

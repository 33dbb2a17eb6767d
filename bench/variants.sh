#!/usr/bin/env bash
# cardbot — ismcts variants, each PAIRED with a baseline on the same duplicate deals: per table
# the win share and points per game of the ismcts seat(s), the paired difference per deal with
# a 95% interval (bench/paired.py) and the decision time p50 / p99 over decisions with a choice.
# Asserts nothing: the figures, seed and size are the result.
#   GAME=ddz  config/ddz-ismcts-vs-heuristic.ini with --landlord 0 (no bidding: seat 0 is the
#             landlord at bid 1): [table.landlord] = an ismcts landlord against two heuristic
#             level-6 farmers, [table.farmers] = a level-6 landlord against two ismcts farmers;
#             also the combined win rate (mean of the two roles; issue 16's DDZ figure).
#   GAME=pdk  config/gauntlet-pdk.ini: ismcts at seat 0 against two seats of each opponent
#             named in TABLES (its [table.X]; L6 = the heuristic at level 6, pimc, rulebot, ...).
#
#   bench/variants.sh [BUILD_DIR]            (default build/plain)
# Environment:
#   GAME=ddz|pdk  (default ddz)
#   TABLES="a b"  the tables played (default: ddz "landlord farmers", pdk "L6 pimc rulebot")
#   GAMES=N       games per table and variant (default 300 = 100 deals x 3 rotations)
#   SEED=S        match seed (default 1)
#   BASE="key=value,..."  ismcts keys of the baseline, also given to every variant first
#                 (default none: the baseline is the plugin's default)
#   VARIANTS="name:key=value,key=value ..."   ismcts keys per variant (default, ddz:
#                 "untempered:belief_ess=0 off:inference=off partner2:partner_width=2";
#                 pdk: "pool300:belief_worlds=300,belief_explained=0 off:inference=off":
#                 the former PDK pool of 300 worlds, never grown, and uniform worlds)
#   OPP=PLUGIN    ddz: the level-6 seats play this plugin at its defaults instead (rulebot, pimc:
#                 ismcts as landlord against two of them, and as the two farmers against one)
#   BUDGET_MS=N   the shim's budget_ms in the copies (default: the config's). The plugin cuts
#                 a decision's pool and search by it, so a loaded machine changes the play: a
#                 large value keeps iteration budgets deterministic.
#   CONCURRENCY=K games at once (default 2)
#   OUT=DIR       keep the results files (DIR/VARIANT-TABLE.jsonl) and match outputs
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/support/common.sh
B=${1:-build/plain}
GAME=${GAME:-ddz}
GAMES=${GAMES:-300}
SEED=${SEED:-1}
CONCURRENCY=${CONCURRENCY:-2}
BASE=${BASE:-}
case $GAME in
  ddz) CONFIG=config/ddz-ismcts-vs-heuristic.ini; LL=(--landlord 0)
       TABLES=${TABLES:-"landlord farmers"}
       VARIANTS=${VARIANTS:-"untempered:belief_ess=0 off:inference=off partner2:partner_width=2"} ;;
  pdk) CONFIG=config/gauntlet-pdk.ini; LL=()
       [ -z "${OPP:-}" ] || { echo "variants.sh: OPP is for GAME=ddz (pdk: TABLES)" >&2; exit 1; }
       TABLES=${TABLES:-"L6 pimc rulebot"}
       VARIANTS=${VARIANTS:-"pool300:belief_worlds=300,belief_explained=0 off:inference=off"} ;;
  *) echo "variants.sh: unknown GAME $GAME (ddz, pdk)" >&2; exit 1 ;;
esac
BIN=${CARDBOT:-$B/cardbot}
paired_setup variants.sh

# a copy of the config whose [strategy.ismcts] gains BASE and then the keys (comma separated
# key=value; a key given twice keeps the last) and whose [shim] budget_ms is BUDGET_MS
config_of() {
  local keys=$BASE,$1 f=$tmpd/$2.ini
  keys=${keys#,}
  keys=${keys%,}
  keys=${keys//,/$'\n'}
  keys=${keys//=/ = }
  if [ -n "${BUDGET_MS:-}" ]; then
    sed "s/^budget_ms = .*/budget_ms = $BUDGET_MS/" "$CONFIG" > "$f.base"
  else
    cp "$CONFIG" "$f.base"
  fi
  if [ -n "${OPP:-}" ]; then # the [strategy.heuristic] group becomes the plugin OPP
    awk -v p="$OPP" '/^\[/ { g = ($0 == "[strategy.heuristic]") } g && /^(plugin|level) =/ { next }
      { print } $0 == "[strategy.heuristic]" { print "plugin = " p }' "$f.base" > "$f.opp"
    mv "$f.opp" "$f.base"
  fi
  ismcts_keys "$f.base" "$keys" > "$f"
  echo "$f"
}

# play one variant at one table; leaves the summary in $OUT/NAME-TABLE.out
play() { # name keys table
  local cfg
  cfg=$(config_of "$2" "$1")
  "$BIN" match --config "$cfg" --table "$3" "${LL[@]}" --duplicate --games "$GAMES" --seed "$SEED" \
    --concurrency "$CONCURRENCY" --quiet --results "$OUT/$1-$3.jsonl" > "$OUT/$1-$3.out" 2>&1 ||
    { echo "variants.sh: cardbot match failed ($1, $3):"; cat "$OUT/$1-$3.out"; exit 1; }
}

# win%, points per game and the timing of the ismcts seat(s) in one summary
figures() { # file
  awk '$1 == "ismcts" && !w { w = $3; p = $6 } /^timing ismcts / { t = $0 }
    END { sub(/.*with a choice/, "choice", t); printf "win %s  pts %s  %s", w, p, t }' "$1"
}

echo "variants-$GAME: ismcts variants paired with the baseline (${BASE:-the default keys}), tables: $TABLES${OPP:+, opponents $OPP}"
echo "$GAMES games per table (duplicate: $((GAMES / 3)) deals x 3), seed $SEED, budget_ms ${BUDGET_MS:-of the config}"
echo "machine: $(nproc) cores, $(uname -m); $(date -u '+%Y-%m-%d %H:%M UTC')"
for t in $TABLES; do
  play baseline "" "$t"
done
for v in $VARIANTS; do
  for t in $TABLES; do
    play "${v%%:*}" "${v#*:}" "$t"
  done
done
echo
printf '%-12s %-9s %s\n' variant table "ismcts figures"
for v in baseline $VARIANTS; do
  for t in $TABLES; do
    printf '%-12s %-9s %s\n' "${v%%:*}" "$t" "$(figures "$OUT/${v%%:*}-$t.out")"
  done
done
echo
echo "paired per deal: A = the variant, B = the baseline (95% intervals):"
hdr=--header
for v in $VARIANTS; do
  for t in $TABLES; do
    python3 bench/paired.py $hdr --strategy ismcts --label "${v%%:*}/$t" "$OUT/${v%%:*}-$t.jsonl" "$OUT/baseline-$t.jsonl"
    hdr=
  done
done
if [ "$GAME" = ddz ] && [ "$TABLES" = "landlord farmers" ]; then
  echo
  echo "combined win rate (mean of the landlord's and the farmers' win share):"
  for v in baseline $VARIANTS; do
    a=$(awk '$1 == "ismcts" { print $3; exit }' "$OUT/${v%%:*}-landlord.out" | tr -d '%')
    b=$(awk '$1 == "ismcts" { print $3; exit }' "$OUT/${v%%:*}-farmers.out" | tr -d '%')
    awk -v n="${v%%:*}" -v a="$a" -v b="$b" 'BEGIN { printf "  %-12s %.3f\n", n, (a + b) / 200 }'
  done
fi

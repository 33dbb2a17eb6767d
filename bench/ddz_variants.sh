#!/usr/bin/env bash
# cardbot — DDZ play: ismcts variants against heuristic level 6, as the landlord and as the
# farmers, each variant PAIRED with the default on the same duplicate deals. The evaluation
# protocol of config/ddz-ismcts-vs-heuristic.ini: --landlord 0 (no bidding: seat 0 is the
# landlord at bid 1), [table.landlord] = ismcts landlord against two heuristic farmers,
# [table.farmers] = a heuristic landlord against two ismcts farmers. Prints per variant and
# role the win share and points per game of the ismcts seat(s), the paired difference from
# the default per deal with a 95% interval (bench/paired.py), the combined win rate (mean of
# the two roles; the issue's figure) and the decision time p50 / p99 over decisions with a
# choice. Asserts nothing: the figures, seed and size are the result.
#
#   bench/ddz_variants.sh [BUILD_DIR]        (default build/plain)
# Environment:
#   GAMES=N       games per role and variant (default 300 = 100 deals x 3 rotations)
#   SEED=S        match seed (default 1)
#   VARIANTS="name:key=value,key=value ..."   ismcts keys per variant, added to the config's
#                 [strategy.ismcts] (default: "untempered:belief_ess=0 off:inference=off
#                 partner2:partner_width=2")
#   CONCURRENCY=K games at once (default 2)
#   OUT=DIR       keep the results files (DIR/VARIANT-ROLE.jsonl) and match outputs
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/support/ismcts_keys.sh
B=${1:-build/plain}
GAMES=${GAMES:-300}
SEED=${SEED:-1}
CONCURRENCY=${CONCURRENCY:-2}
VARIANTS=${VARIANTS:-"untempered:belief_ess=0 off:inference=off partner2:partner_width=2"}
BIN=${CARDBOT:-$B/cardbot}
CONFIG=config/ddz-ismcts-vs-heuristic.ini
[ -x "$BIN" ] || { echo "ddz_variants.sh: no $BIN (make first)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "ddz_variants.sh: needs python3 (the pairing)" >&2; exit 1; }

tmpd=$(mktemp -d "${TMPDIR:-/tmp}/ddz-variants.XXXXXX")
trap 'rm -rf "$tmpd"' EXIT
OUT=${OUT:-$tmpd}
mkdir -p "$OUT"

# a copy of the config whose [strategy.ismcts] gains the keys (comma separated key=value)
config_of() {
  local keys=${1//,/$'\n'} f=$tmpd/$2.ini
  keys=${keys//=/ = }
  ismcts_keys "$CONFIG" "$keys" > "$f"
  echo "$f"
}

# play one variant in one role; leaves the summary in $OUT/NAME-ROLE.out
play() { # name keys role
  local cfg
  cfg=$(config_of "$2" "$1")
  "$BIN" match --config "$cfg" --table "$3" --landlord 0 --duplicate --games "$GAMES" --seed "$SEED" \
    --concurrency "$CONCURRENCY" --quiet --results "$OUT/$1-$3.jsonl" > "$OUT/$1-$3.out" 2>&1
}

# win%, points per game and the timing of the ismcts seat(s) in one summary
figures() { # file
  awk '$1 == "ismcts" && !w { w = $3 } /^timing ismcts / { t = $0 }
    END { sub(/.*with a choice/, "choice", t); printf "win %s  %s", w, t }' "$1"
}

echo "ddz-variants: ismcts vs heuristic level 6, --landlord 0, $GAMES games per role (duplicate: $((GAMES / 3)) deals x 3), seed $SEED"
echo "machine: $(nproc) cores, $(uname -m); $(date -u '+%Y-%m-%d %H:%M UTC')"
for role in landlord farmers; do
  play default "" "$role"
done
for v in $VARIANTS; do
  name=${v%%:*}
  keys=${v#*:}
  for role in landlord farmers; do
    play "$name" "$keys" "$role"
  done
done
echo
printf '%-10s %-9s %s\n' variant role "ismcts figures"
for v in default $VARIANTS; do
  name=${v%%:*}
  for role in landlord farmers; do
    printf '%-10s %-9s %s\n' "$name" "$role" "$(figures "$OUT/$name-$role.out")"
  done
done
echo
echo "paired per deal: A = the variant, B = the default (95% intervals):"
first=1
for v in $VARIANTS; do
  name=${v%%:*}
  for role in landlord farmers; do
    hdr=
    [ $first = 1 ] && hdr=--header
    first=0
    python3 bench/paired.py $hdr --strategy ismcts --label "$name/$role" "$OUT/$name-$role.jsonl" "$OUT/default-$role.jsonl"
  done
done
echo
echo "combined win rate (mean of the landlord's and the farmers' win share):"
for v in default $VARIANTS; do
  name=${v%%:*}
  a=$(awk '$1 == "ismcts" { print $3; exit }' "$OUT/$name-landlord.out" | tr -d '%')
  b=$(awk '$1 == "ismcts" { print $3; exit }' "$OUT/$name-farmers.out" | tr -d '%')
  awk -v n="$name" -v a="$a" -v b="$b" 'BEGIN { printf "  %-10s %.3f\n", n, (a + b) / 200 }'
done

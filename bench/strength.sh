#!/usr/bin/env bash
# cardbot — strength of the default strategy (ismcts) against heuristic level 6, through the
# console host (duplicate deals, so luck cancels). Prints figures; asserts nothing.
#
#   bench/strength.sh [SEED [PDK_GAMES [DDZ_GAMES]]]     (defaults 1, 6000, 6000)
#
#   PDK: one ismcts seat against two heuristic level-6 seats (config/pdk-ismcts-vs-heuristic.ini),
#        --duplicate: parity is a 33.3% win share. Target: >= 55% at the default budget with
#        the decision p99 <= 500 ms (the timing line's decisions with a choice). Also 包庄 (Bao%: declared
#        in that share of its games; BaoWin%: won that share of its declarations; target >= 60%).
#   DDZ: --landlord 0 (no bidding, seat 0 is the landlord at bid 1), config/ddz-ismcts-vs-heuristic.ini:
#        [table.landlord] ismcts landlord against heuristic farmers, [table.farmers] ismcts
#        farmers against a heuristic landlord. Combined = the mean of ismcts's two win rates
#        (0.5 = as good as the heuristic). Target: >= 0.78 at a decision p50 <= 20 ms.
#   Inference: the PDK match is played again with `belief = 1` (no inference: uniform worlds),
#   config/pdk-ismcts-vs-heuristic.ini's [table.nobelief], to show what inference is worth.
# --duplicate plays each deal three times (hands rotated), so 6000 games = 2000 deals.
# Sized for about 75 minutes on 2 cores (--concurrency 2; the PDK rows about 30 each).
# Uses build/plain (built with `make` first when missing). Set CARDBOT=path to use another binary.
set -euo pipefail
cd "$(dirname "$0")/.."

SEED=${1:-1}
PDK_GAMES=${2:-6000}
DDZ_GAMES=${3:-6000}
BIN=${CARDBOT:-build/plain/cardbot}
[ -x "$BIN" ] || make --no-print-directory >/dev/null
[ -x "$BIN" ] || { echo "strength.sh: no $BIN" >&2; exit 1; }

echo "cardbot strength: ismcts (default parameters) vs heuristic level 6"
echo "seed $SEED; PDK $PDK_GAMES games; DDZ $DDZ_GAMES games as landlord + $DDZ_GAMES as farmers; duplicate, concurrency 2"
echo "machine: $(nproc) cores, $(uname -m); $(date -u '+%Y-%m-%d %H:%M UTC')"
echo

run() { # label, then the cardbot arguments; prints the summary, leaves it in $OUT
    local label=$1; shift
    local t0=$SECONDS
    OUT=$("$BIN" match "$@" --seed "$SEED" --duplicate --concurrency 2 --quiet 2>&1)
    echo "== $label ($((SECONDS - t0)) s): cardbot match $*"
    echo "$OUT" | sed 's/^/   /'
    echo
}

# the figures of one strategy's summary line: win%, then the last columns (Bao% BaoWin% or
# Bid% LL% LLwin%)
field() { # $1 = strategy name, $2 = awk field expression
    echo "$OUT" | awk -v s="$1" '$1 == s { print '"$2"'; exit }' | tr -d '%'
}

tmpd=$(mktemp -d "${TMPDIR:-/tmp}/strength.XXXXXX")
trap 'rm -rf "$tmpd"' EXIT

run "PDK: ismcts at seat 0, heuristic L6 at seats 1 and 2" \
    --config config/pdk-ismcts-vs-heuristic.ini --games "$PDK_GAMES" --results "$tmpd/pdk.jsonl"
PDK_WIN=$(field ismcts '$3')
PDK_CI=$(echo "$OUT" | awk '$1 == "ismcts" { print $4, $5; exit }')
BAO=$(field ismcts '$(NF-1)')
BAOWIN=$(field ismcts '$NF')
PDK_T=$(echo "$OUT" | grep '^timing ismcts ' || true)

run "PDK without inference (belief = 1): ismcts at seat 0, heuristic L6 at seats 1 and 2" \
    --config config/pdk-ismcts-vs-heuristic.ini --table nobelief --games "$PDK_GAMES" --results "$tmpd/nobelief.jsonl"
NB_WIN=$(field ismcts_nobelief '$3')
NB_CI=$(echo "$OUT" | awk '$1 == "ismcts_nobelief" { print $4, $5; exit }')

run "DDZ: ismcts landlord (seat 0) vs heuristic farmers" \
    --config config/ddz-ismcts-vs-heuristic.ini --table landlord --landlord 0 --games "$DDZ_GAMES"
LL_WIN=$(field ismcts '$3')
LL_CI=$(echo "$OUT" | awk '$1 == "ismcts" { print $4, $5; exit }')
LL_T=$(echo "$OUT" | grep '^timing ismcts ' || true)

run "DDZ: heuristic landlord (seat 0) vs ismcts farmers" \
    --config config/ddz-ismcts-vs-heuristic.ini --table farmers --landlord 0 --games "$DDZ_GAMES"
FA_WIN=$(field ismcts '$3')
FA_CI=$(echo "$OUT" | awk '$1 == "ismcts" { print $4, $5; exit }')
FA_T=$(echo "$OUT" | grep '^timing ismcts ' || true)

COMBINED=$(awk -v a="$LL_WIN" -v b="$FA_WIN" 'BEGIN { printf "%.3f", (a + b) / 200 }')
echo "== summary (seed $SEED)"
printf '   PDK win share        %6s%%  %s   (%s games; parity 33.3%%, target >= 55%%)\n' "$PDK_WIN" "$PDK_CI" "$PDK_GAMES"
printf '   PDK no inference     %6s%%  %s   (belief = 1, same deals)\n' "$NB_WIN" "$NB_CI"
echo "   PDK inference (A) against none (B), paired per deal, 95% intervals:"
python3 bench/paired.py --header --label "   PDK" --strategy ismcts --strategy-b ismcts_nobelief \
  "$tmpd/pdk.jsonl" "$tmpd/nobelief.jsonl" | sed 's/^/   /'
echo "   PDK $PDK_T"
if [ "$BAOWIN" = "-" ]; then BAOWIN_TEXT="none declared"; else BAOWIN_TEXT="won $BAOWIN% of them"; fi
printf '   PDK 包庄 declared    %6s%%  of its games; %s (target >= 60%%)\n' "$BAO" "$BAOWIN_TEXT"
printf '   DDZ as landlord      %6s%%  %s   (%s games)\n' "$LL_WIN" "$LL_CI" "$DDZ_GAMES"
printf '   DDZ as farmers       %6s%%  %s   (%s games)\n' "$FA_WIN" "$FA_CI" "$DDZ_GAMES"
printf '   DDZ combined         %6s    (mean of the two; target >= 0.78)\n' "$COMBINED"
echo "   DDZ landlord $LL_T"
echo "   DDZ farmers  $FA_T"
echo "   total time $SECONDS s"

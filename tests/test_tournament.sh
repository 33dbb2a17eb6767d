#!/bin/sh
# cardbot tournament end to end, on a tiny PDK round robin of heuristic levels 1, 3 and 6 and
# the test plugin `lowest` (2 deals a pairing: seconds, not minutes):
#  - the crosstable has a score in every cell off the diagonal, B's cell against A mirrors A's
#    (score[A][B] + score[B][A] = 1 within rounding), and each cell is its pair line's score;
#  - the standings are sorted, and a strategy's score against the field is the mean of its row
#    (every pairing plays the same number of games on the same deals);
#  - the same seed prints the same bytes at -j 1 and -j 2 (but the timing lines); every game
#    has one result line, numbered over the whole tournament;
#  - a gauntlet plays only its strategy's pairings; --strategies picks a subset;
#  - --progress: plain lines on stderr (every N games, default a tenth of the run, 0 none),
#    stdout unchanged;
#  - --report writes a page naming every strategy; a DDZ run with --landlord;
#  - SIGINT / SIGTERM in the middle: the tables of the finished games, exit status 128 + signal;
#  - bad input: one line on stderr and exit 2 (unknown --gauntlet name, fewer than 2
#    strategies, a name given twice or unknown, neither or both of --gauntlet/--round-robin,
#    --landlord under PDK or out of range, a [match] key other than games and seed or a bad
#    value there, --report naming the config), the exact line where it is the console's own.
# Prints "ok"/"FAIL" per check and a final "N passed, N failed" line; exit 0 = all passed.
set -u

B=${CB_BUILD:-build/plain}
BIN=$B/cardbot
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cb-tournament-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
is() { # COMMANDS; is "what" $?: ok when the status is 0
    if [ "$2" -eq 0 ]; then ok "$1"; else bad "$1"; fi
}
finish() {
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit $?
}
if ! [ -x "$BIN" ] || ! [ -f "$B/plugins/heuristic.so" ] || ! [ -f "$B/tests/plugins/lowest.so" ]; then
    bad "build: $BIN, the heuristic plugin and the test plugin lowest must be built (make test-build)"
    finish
fi
abs() { (cd "$1" && pwd); }
PLUGINS="$(abs "$B/plugins"):$(abs "$B/tests/plugins")"

conf() { # conf FILE RULES: the four strategies under RULES
    cat >"$1" <<EOF
[shim]
plugin_dir = $PLUGINS
[game]
rules = $2
[strategy.L1]
plugin = heuristic
level = 1
[strategy.L3]
plugin = heuristic
level = 3
[strategy.L6]
plugin = heuristic
level = 6
[strategy.low]
plugin = lowest
[seats]
0 = L1
1 = L3
2 = L6
EOF
}
CONF=$tmp/pdk.ini
conf "$CONF" pdk16
run() { # run OUT ARGS...: status in $rc, stdout in OUT, stderr in OUT.err
    out=$1
    shift
    "$BIN" tournament --config "$CONF" "$@" >"$out" 2>"$out.err"
    rc=$?
}

# ---- round robin, -j 1 and -j 2 --------------------------------------------------------------
run "$tmp/rr1" --round-robin --games 12 --seed 7 -j 1
rc1=$rc
run "$tmp/rr2" --round-robin --games 12 --seed 7 -j 2
[ "$rc1" -eq 0 ] && [ "$rc" -eq 0 ]
is "round robin exits 0 (-j 1: $rc1, -j 2: $rc)" $?
grep -v '^timing' "$tmp/rr1" >"$tmp/rr1.t"
grep -v '^timing' "$tmp/rr2" >"$tmp/rr2.t"
cmp -s "$tmp/rr1.t" "$tmp/rr2.t"
is "same seed, same stdout at -j 1 and -j 2 (timing lines aside)" $?
run "$tmp/rr3" --round-robin --games 12 --seed 8 -j 2 --quiet
grep -v '^timing' "$tmp/rr3" | sed -n '/^Crosstable/,$p' >"$tmp/rr3.t"
sed -n '/^Crosstable/,$p' "$tmp/rr2.t" >"$tmp/rr2.x"
! cmp -s "$tmp/rr3.t" "$tmp/rr2.x"
is "another seed, other games (the comparison above can fail)" $?
[ "$(grep -c '^Finished game ' "$tmp/rr1")" -eq 72 ] && [ "$(grep -c '^Finished game 72 ' "$tmp/rr1")" -eq 1 ]
is "4 x 3 / 2 pairings of 12 games: result lines numbered 1..72" $?
[ "$(grep -c '^Finished game ' "$tmp/rr3")" -eq 0 ]
is "--quiet: no result line" $?
[ "$(grep -c '^Seating L1, L3, L3: 6 games$' "$tmp/rr1")" -eq 1 ] && \
    [ "$(grep -c '^Seating L3, L1, L1: 6 games$' "$tmp/rr1")" -eq 1 ]
is "each pairing plays both seatings" $?

# The crosstable as "ROW COL SCORE" lines ("." for cells not played, "-" on the diagonal).
cells() {
    awk '
        /^Crosstable/ { on = 1; next }
        on == 1 { n = split($0, names, " "); on = 2; next }
        on == 2 && NF == 0 { exit }
        on == 2 {
            col = 0
            for (k = 2; k <= NF; k++)
                if ($k == "-" || $k == "." || $k ~ /^[01]\.[0-9][0-9][0-9]$/)
                    print $1, names[++col], $k
        }' "$1"
}
cells "$tmp/rr1" >"$tmp/cells"
[ "$(wc -l <"$tmp/cells")" -eq 16 ]
is "crosstable: 4 x 4 cells" $?
[ "$(awk '$1 != $2 && $3 ~ /^[01]\./' "$tmp/cells" | wc -l)" -eq 12 ]
is "crosstable: a score in every cell off the diagonal" $?
awk '
    { s[$1 " " $2] = $3 }
    END {
        bad = 0
        for (k in s) { split(k, p, " "); if (p[1] == p[2]) continue
            d = s[k] + s[p[2] " " p[1]] - 1; if (d > 0.0011 || d < -0.0011) { print "  " k ": " d; bad = 1 } }
        exit bad
    }' "$tmp/cells"
is "crosstable: score[A][B] + score[B][A] = 1 (within rounding)" $?
# "Pair A vs B: ... score 0.563 [..." -> "A B 0.563"
sed -n 's/^Pair \([^ ]*\) vs \([^:]*\): .* score \([0-9.]*\) .*/\1 \2 \3/p' "$tmp/rr1" >"$tmp/pairs"
unordered=$(awk '{ print ($1 < $2) ? $1 " " $2 : $2 " " $1 }' "$tmp/pairs" | sort -u | wc -l)
[ "$(wc -l <"$tmp/pairs")" -eq 6 ] && [ "$unordered" -eq 6 ]
is "6 pair lines, one per unordered pair" $?
awk '
    NR == FNR { s[$1 " " $2] = $3; next }
    { if (!(($1 " " $2) in s) || s[$1 " " $2] != $3) { print "  " $0 " vs cell " s[$1 " " $2]; bad = 1 } }
    END { exit bad }' "$tmp/cells" "$tmp/pairs"
is "each pair's score is its crosstable cell" $?

# Standings: "   1  L6  0.625  [..." -> rank name score
sed -n '/^Standings/,/^timing/p' "$tmp/rr1" | awk '$1 ~ /^[0-9]+$/ { print $1, $2, $3 }' >"$tmp/stand"
awk '
    { if ($1 != NR) bad = 1; if (NR > 1 && $3 > prev) bad = 1; prev = $3 }
    END { exit bad || NR != 4 }' "$tmp/stand"
is "standings: 4 strategies, ranked 1..4 by score" $?
awk '
    NR == FNR { if ($1 != $2) { sum[$1] += $3; n[$1]++ } next }
    {
        d = sum[$2] / n[$2] - $3
        if (d > 0.0015 || d < -0.0015) { print "  " $2 ": " $3 " vs mean " sum[$2] / n[$2]; bad = 1 }
    }
    END { exit bad }' "$tmp/cells" "$tmp/stand"
is "standings: score against the field = the mean of the row's cells" $?

# ---- gauntlet, subsets ---------------------------------------------------------------------------
run "$tmp/g" --gauntlet L6 --games 6 --seed 3 --quiet -j 2
[ "$rc" -eq 0 ]
is "gauntlet exits 0 ($rc)" $?
[ "$(grep -c '^Pair ' "$tmp/g")" -eq 3 ] && [ "$(grep -c '^Pair L6 vs ' "$tmp/g")" -eq 3 ]
is "gauntlet: 3 pairings, all of them L6's" $?
cells "$tmp/g" >"$tmp/gcells"
awk '
    $1 == $2 { next }
    ($1 == "L6" || $2 == "L6") && $3 !~ /^[01]\./ { bad = 1 }
    $1 != "L6" && $2 != "L6" && $3 != "." { bad = 1 }
    END { exit bad || NR != 16 }' "$tmp/gcells"
is "gauntlet: cells between the others are not played, L6's are" $?
run "$tmp/sub" --round-robin --strategies 'low, L1' --games 6 --seed 3 --quiet
[ "$rc" -eq 0 ] && [ "$(grep -c '^Pair ' "$tmp/sub")" -eq 1 ] && grep -q '^Pair low vs L1: ' "$tmp/sub"
is "--strategies low,L1: one pairing, low vs L1 ($rc)" $?
run "$tmp/gsub" --gauntlet L3 --strategies L1,low --games 6 --seed 3 --quiet
[ "$rc" -eq 0 ] && [ "$(grep -c '^Pair L3 vs ' "$tmp/gsub")" -eq 2 ]
is "--gauntlet L3 --strategies L1,low: L3 plays both ($rc)" $?

# ---- progress on stderr ----------------------------------------------------------------------
# stderr is a file here, so plain lines: --progress 6 one every 6 games of all the pairings'
# (4 x 3 / 2 pairings of 6 games: 36), each with the running win shares; stdout as without.
run "$tmp/p6" --round-robin --games 6 --seed 3 --quiet --progress 6
[ "$rc" -eq 0 ] && [ "$(grep -c '^progress [0-9]*/36 games: ' "$tmp/p6.err")" -eq 6 ] &&
    grep -q '^progress 36/36 games: .*L6 win [0-9.]*% \[' "$tmp/p6.err" && ! grep -q '^progress' "$tmp/p6"
is "--progress 6: six lines on stderr over 36 games, with each strategy's win share ($rc)" $?
run "$tmp/p0" --round-robin --games 6 --seed 3 --quiet --progress 0
grep -v '^timing' "$tmp/p0" >"$tmp/p0.t"
grep -v '^timing' "$tmp/p6" >"$tmp/p6.t"
[ "$rc" -eq 0 ] && [ ! -s "$tmp/p0.err" ] && cmp -s "$tmp/p0.t" "$tmp/p6.t"
is "--progress 0: nothing on stderr; stdout the same as with progress ($rc)" $?
run "$tmp/pd" --round-robin --games 6 --seed 3 --quiet
[ "$rc" -eq 0 ] && [ "$(grep -c '^progress [0-9]*/36 games: ' "$tmp/pd.err")" -ge 10 ]
is "no --progress: a line every tenth of the games ($rc)" $?
# a field of 10: the line holds 8 strategies and says how many more (each had its games counted)
BIG=$tmp/big.ini
conf "$BIG" pdk16
for n in 2 4 5 a b c; do printf '[strategy.X%s]\nplugin = heuristic\nlevel = 2\n' "$n" >>"$BIG"; done
"$BIN" tournament --config "$BIG" --gauntlet L6 --games 6 --seed 3 --quiet --progress 54 >"$tmp/big" 2>"$tmp/big.err"
rc=$?
[ "$rc" -eq 0 ] && grep -q '^progress 54/54 games: .*, and 2 more; ' "$tmp/big.err"
is "--progress over a field of 10: 8 shown, 'and 2 more' ($rc)" $?

# ---- report, DDZ -----------------------------------------------------------------------------
run "$tmp/rep" --round-robin --strategies L1,L6,low --games 6 --seed 3 --quiet --report "$tmp/r.html"
[ "$rc" -eq 0 ] && grep -q '<table class="cross">' "$tmp/r.html" && grep -q '<svg' "$tmp/r.html" && \
    grep -q '>L1<' "$tmp/r.html" && grep -q '>L6<' "$tmp/r.html" && grep -q '>low<' "$tmp/r.html"
is "--report: exit 0 and a page with the crosstable, plots and every name ($rc)" $?
run "$tmp/badrep" --round-robin --games 6 --report "$tmp/nosuchdir/r.html"
[ "$rc" -eq 2 ] && [ ! -s "$tmp/badrep" ] && [ "$(wc -l <"$tmp/badrep.err")" -eq 1 ]
is "--report into a missing directory: exit 2 before any game ($rc)" $?
DDZ=$tmp/ddz.ini
conf "$DDZ" ddz
"$BIN" tournament --config "$DDZ" --round-robin --strategies L1,L6 --games 6 --seed 2 --landlord 0 -q >"$tmp/ddz" 2>&1
rc=$?
[ "$rc" -eq 0 ] && grep -q '^Pair L1 vs L6: ' "$tmp/ddz"
is "DDZ --landlord 0: exit 0, a crosstable ($rc)" $?

# ---- SIGINT / SIGTERM in the middle --------------------------------------------------------------
# (SIGINT too: the program blocks it and waits for it, so the SIG_IGN a background job of a
# non-interactive shell inherits does not discard it)
for sig in INT:2 TERM:15; do
    num=${sig#*:}
    sig=${sig%:*}
    "$BIN" tournament --config "$CONF" --round-robin --games 600000 --seed 1 -q -j 2 >"$tmp/int" 2>/dev/null &
    pid=$!
    i=0
    while [ "$i" -lt 300 ] && ! grep -q '^Seating' "$tmp/int" 2>/dev/null; do
        sleep 0.1
        i=$((i + 1))
    done
    sleep 0.5
    kill -"$sig" "$pid"
    wait "$pid"
    rc=$?
    want=$((128 + num))
    [ "$rc" -eq "$want" ] && grep -q "^Interrupted by SIG$sig after " "$tmp/int" && grep -q '^Crosstable' "$tmp/int" &&
        grep -q '^Standings' "$tmp/int"
    is "SIG$sig: exit $want, the finished games' tables ($rc)" $?
done

# ---- bad input ----------------------------------------------------------------------------------
usage() { # usage "what" WORD ARGS...: exit 2, nothing on stdout, one stderr line containing WORD
    what=$1
    word=$2
    shift 2
    "$BIN" tournament "$@" >"$tmp/u" 2>"$tmp/u.err"
    rc=$?
    if [ "$rc" -eq 2 ] && [ ! -s "$tmp/u" ] && [ "$(wc -l <"$tmp/u.err")" -eq 1 ] && grep -q -- "$word" "$tmp/u.err"; then
        ok "$what"
    else
        bad "$what (status $rc)"
        sed 's/^/     | /' "$tmp/u" "$tmp/u.err" | head -n 5
    fi
}
usage "unknown --gauntlet name" "nosuch" --config "$CONF" --gauntlet nosuch
usage "fewer than 2 strategies (--strategies)" "at least 2" --config "$CONF" --round-robin --strategies L1
ONE=$tmp/one.ini
printf '[shim]\nplugin_dir = %s\n[game]\nrules = pdk16\n[strategy.L1]\nplugin = heuristic\n[seats]\n0 = L1\n1 = L1\n2 = L1\n' \
    "$PLUGINS" >"$ONE"
usage "fewer than 2 strategies (config)" "at least 2" --config "$ONE" --round-robin
usage "a name given twice" "twice" --config "$CONF" --round-robin --strategies L1,L3,L1
usage "an unknown name in --strategies" "nosuch" --config "$CONF" --round-robin --strategies L1,nosuch
usage "neither --gauntlet nor --round-robin" "round-robin" --config "$CONF"
usage "both --gauntlet and --round-robin" "round-robin" --config "$CONF" --gauntlet L1 --round-robin
usage "--landlord under PDK" "landlord" --config "$CONF" --round-robin --landlord 0
usage "--games 0" "games" --config "$CONF" --round-robin --games 0
usage "--progress 5x" "progress" --config "$CONF" --round-robin --progress 5x
usage "missing --config" "config" --round-robin
exactly() { # exactly "what" "LINE" ARGS...: exit 2, nothing on stdout, stderr the one line LINE
    what=$1
    want=$2
    shift 2
    "$BIN" tournament "$@" >"$tmp/u" 2>"$tmp/u.err"
    rc=$?
    if [ "$rc" -eq 2 ] && [ ! -s "$tmp/u" ] && [ "$(cat "$tmp/u.err")" = "$want" ] &&
        [ "$(wc -l <"$tmp/u.err")" -eq 1 ]; then
        ok "$what"
    else
        bad "$what (status $rc)"
        printf '     | want: %s\n' "$want"
        sed 's/^/     | /' "$tmp/u" "$tmp/u.err" | head -n 5
    fi
}
M=$tmp/match-key.ini
conf "$M" pdk16
printf '[match]\ngames = 6\nduplicate = true\n' >>"$M"
exactly "[match] key other than games, seed" "cardbot tournament: $M: [match] duplicate: unknown key (games, seed)" \
    --config "$M" --round-robin
conf "$M" pdk16
printf '[match]\ngames = 0\n' >>"$M"
exactly "[match] games = 0" "cardbot tournament: $M: [match] games: 0: must be 1..10000000" --config "$M" --round-robin
conf "$M" pdk16
printf '[match]\nseed = abc\n' >>"$M"
exactly "[match] seed = abc" "cardbot tournament: $M: [match] seed: not a number: 'abc'" --config "$M" --round-robin
exactly "--landlord 3 under DDZ" "cardbot tournament: --landlord 3: must be a seat 0..2" --config "$DDZ" --round-robin \
    --landlord 3
exactly "--landlord 0 under PDK" "cardbot tournament: --landlord 0: only ddz has a landlord; $CONF plays pdk16" \
    --config "$CONF" --round-robin --landlord 0
cp "$CONF" "$tmp/keep.ini"
exactly "--report over the config" \
    "cardbot tournament: --report $CONF: that is the --config file (refusing to overwrite an input)" \
    --config "$CONF" --round-robin --games 6 --report "$CONF"
cmp -s "$CONF" "$tmp/keep.ini"
is "--report over the config: the config untouched" $?
finish

#!/bin/sh
# make check: the SPRT and the pair comparison inside cardbot match and cardbot merge, end to
# end on heuristic levels (a lopsided pairing: level 6 alone against two level 1 seats).
#  - --sprt stops the match at its verdict (H1: level 6 is stronger), well before --games, and
#    says so; the stop and every line but timing are the same at -j 1 and -j 2;
#  - the summary's pair line names A (the strategy seated alone) first;
#  - --sprt with one strategy at every seat, a bad spec, or --shard is refused (exit 2);
#  - cardbot merge --sprt over 3 shards of the same match prints what the single run with
#    --sprt prints (timing lines aside): it stops where the single run stopped;
#  - --report writes a page with the SPRT plot.
# Prints "ok"/"FAIL" per check and "N passed, N failed".
set -u
B=${CB_BUILD:-build/plain}
BIN=$B/cardbot
pass=0; fail=0
ok() { echo "ok   $1"; pass=$((pass+1)); }
bad() { echo "FAIL $1"; fail=$((fail+1)); }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cbsprt-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/c.ini" <<EOC
[shim]
plugin_dir = $(pwd)/$B/plugins
[game]
rules = pdk16
[strategy.L6]
plugin = heuristic
level = 6
[strategy.L1]
plugin = heuristic
level = 1
[seats]
0 = L6
1 = L1
2 = L1
[table.same]
0 = L6
1 = L6
2 = L6
EOC
notiming() { grep -v '^timing' "$1"; }
"$BIN" match -c "$tmp/c.ini" --games 3000 --seed 4 --duplicate -q --progress 0 --sprt elo0=0,elo1=20 \
    --report "$tmp/r.html" >"$tmp/j1" 2>"$tmp/j1.err"
rc=$?
check "--sprt: exit 0" "[ $rc -eq 0 ]"
check "--sprt: stops at H1 before the 3000 games" \
    "grep -q '^SPRT decided after [0-9]* of 3000 games' '$tmp/j1' && grep -q '^SPRT elo0=0 elo1=20 .*: H1 accepted' '$tmp/j1'"
check "--sprt: at least 30 deals before the verdict" \
    "n=\$(sed -n 's/^SPRT elo0.*: \([0-9]*\) deals,.*/\1/p' '$tmp/j1'); [ \"\${n:-0}\" -ge 30 ]"
check "--sprt: the LLR is logged on stderr as it goes" "[ \$(grep -c '^SPRT .*continue' '$tmp/j1.err') -ge 2 ]"
check "pair line: L6 (seated alone) against L1, score above 0.5" \
    "grep -Eq '^Pair L6 vs L1: [0-9]+ deals \([0-9]+ games\), score 0\.[5-9]' '$tmp/j1'"
"$BIN" match -c "$tmp/c.ini" --games 3000 --seed 4 --duplicate -q --progress 0 --sprt elo0=0,elo1=20 -j 2 \
    >"$tmp/j2" 2>/dev/null
check "--sprt: -j 1 and -j 2 print the same (timing aside)" "notiming '$tmp/j1' > '$tmp/a'; notiming '$tmp/j2' > '$tmp/b'; cmp -s '$tmp/a' '$tmp/b'"
check "--report: a page with the SPRT's LLR plot and the pair" \
    "grep -q '<svg' '$tmp/r.html' && grep -q 'H1 accepted' '$tmp/r.html' && grep -q 'L6 vs L1' '$tmp/r.html'"
usage() { # name expect-in-stderr args...
    n=$1; want=$2; shift 2
    "$BIN" match -c "$tmp/c.ini" --games 30 --seed 4 -q --progress 0 "$@" >"$tmp/u" 2>"$tmp/u.err"
    r=$?
    check "$n: exit 2 naming it" "[ $r -eq 2 ] && grep -q -- '$want' '$tmp/u.err' && [ ! -s '$tmp/u' ]"
}
usage "--sprt with one strategy everywhere" "two strategies" --table same --sprt elo0=0,elo1=20
usage "--sprt with a bad spec" "elo1" --sprt elo0=20,elo1=0
usage "--sprt with --shard" "shard" --sprt elo0=0,elo1=20 --shard 1/2 --results "$tmp/x.jsonl"
# shards, merged with --sprt: the single run's output
for k in 1 2 3; do
    "$BIN" match -c "$tmp/c.ini" --games 600 --seed 4 --duplicate -q --progress 0 --shard $k/3 \
        --results "$tmp/s$k.jsonl" >/dev/null 2>&1 || bad "shard $k/3 ran"
done
"$BIN" merge -q --sprt elo0=0,elo1=20 "$tmp/s1.jsonl" "$tmp/s2.jsonl" "$tmp/s3.jsonl" >"$tmp/m" 2>"$tmp/m.err"
rc=$?
"$BIN" match -c "$tmp/c.ini" --games 600 --seed 4 --duplicate -q --progress 0 --sprt elo0=0,elo1=20 >"$tmp/one" 2>/dev/null
check "merge --sprt: exit 0" "[ $rc -eq 0 ]"
check "merge --sprt: the single run's output, stopped at the same game" \
    "notiming '$tmp/m' > '$tmp/a'; notiming '$tmp/one' > '$tmp/b'; cmp -s '$tmp/a' '$tmp/b' && grep -q '^SPRT decided after' '$tmp/a'"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

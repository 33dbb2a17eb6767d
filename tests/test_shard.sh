#!/bin/sh
# make check's shard test: a match cut with --shard K/N, its shards run under GNU parallel,
# put back together with cardbot merge, prints what the single run prints.
#
# Run from the repository root with CB_BUILD=build/<variant> (tests/run.sh does). It
#  1. plays a small heuristic-only DDZ duplicate match (bidding, redeals) in one run, and as
#     4 shards under `parallel -j 2`; `cardbot merge` of the shards (given in any order) must
#     print the same bytes as the single run, lines starting with "timing" aside, with and
#     without --quiet, and `merge --replay` must write the single run's replay file (its
#     header line included: the merge rebuilds it from the results headers and the config;
#     SOURCE_DATE_EPOCH fixes the date both write), from another directory than the run's too;
#  2. the same for PDK without --duplicate, 3 shards, one of them at --concurrency 2;
#  3. refuses, with one line naming the file and exit 2: a missing shard, a shard of another
#     run (another seed; an edited config), the same shard twice, an unfinished shard (no end
#     line), a game line removed, a file that is no results file; and --shard without
#     --results or without a fixed seed.
# Prints "ok"/"FAIL" per check and a final "N passed, N failed" line; exit 0 = all passed.
set -u

B=${CB_BUILD:-build/plain}
CB=$B/cardbot
# replay headers carry the date they were written: one date, so files compare byte for byte
SOURCE_DATE_EPOCH=1700000000
export SOURCE_DATE_EPOCH
if [ ! -x "$CB" ]; then
    echo "test_shard: run from the repository root with CB_BUILD=build/<variant> (no $CB)"
    echo "0 passed, 1 failed"
    exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cb-shard-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
finish() {
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit $?
}
if ! command -v parallel >/dev/null 2>&1; then
    bad "GNU parallel is not installed (make deps installs it: Debian package parallel)"
    finish
fi

# heuristic level 6 against level 3: milliseconds a game
config() { # config RULES FILE
    printf '[game]\nrules = %s\n[strategy.strong]\nplugin = heuristic\nlevel = 6\n[strategy.weak]\nplugin = heuristic\nlevel = 3\n[seats]\n0 = strong\n1 = weak\n2 = weak\n' "$1" >"$2"
}
untimed() { grep -v '^timing' "$1"; }
same() { # same WHAT A B: the files agree but for timing lines
    if untimed "$2" >"$tmp/x" && untimed "$3" >"$tmp/y" && diff "$tmp/x" "$tmp/y" >"$tmp/diff"; then
        ok "$1"
    else
        bad "$1"
        head -n 20 "$tmp/diff" | sed 's/^/     | /'
    fi
}
refused() { # refused WHAT PATTERN COMMAND...: exit 2, one stderr line matching PATTERN, no stdout
    what=$1
    pat=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q -- "$pat" "$tmp/err" && [ ! -s "$tmp/out" ]; then
        ok "$what: $(cat "$tmp/err")"
    else
        bad "$what (status $rc, wanted 2 and '$pat')"
        sed 's/^/     | /' "$tmp/err" | head -n 5
    fi
}

# ---- 1. DDZ, duplicate, 4 shards under GNU parallel
config ddz "$tmp/ddz.ini"
M="match --config $tmp/ddz.ini --games 48 --seed 21 --duplicate --progress 0"
$CB $M --replay "$tmp/single.jsonl" >"$tmp/single.txt" 2>"$tmp/single.err" || bad "the single DDZ run"
$CB $M --quiet >"$tmp/single-q.txt" 2>/dev/null
if parallel -j 2 "$CB $M --shard {}/4 --results $tmp/ddz-{}.res > $tmp/ddz-{}.txt" ::: 1 2 3 4; then
    ok "4 DDZ shards under GNU parallel"
else
    bad "4 DDZ shards under GNU parallel"
fi
grep -q '^Match: .*, shard 2/4 (12 of the games)$' "$tmp/ddz-2.txt" && ok "a shard names itself" || bad "a shard names itself"
$CB merge "$tmp/ddz-3.res" "$tmp/ddz-1.res" "$tmp/ddz-4.res" "$tmp/ddz-2.res" --replay "$tmp/merged.jsonl" \
    >"$tmp/merged.txt" 2>"$tmp/merged.err" || bad "merge of the DDZ shards: $(cat "$tmp/merged.err")"
same "DDZ: merged shards print what the single run prints" "$tmp/single.txt" "$tmp/merged.txt"
$CB merge --quiet "$tmp"/ddz-?.res >"$tmp/merged-q.txt" 2>/dev/null
same "DDZ: merge --quiet as the single run's --quiet" "$tmp/single-q.txt" "$tmp/merged-q.txt"
cmp -s "$tmp/single.jsonl" "$tmp/merged.jsonl" && ok "DDZ: merge --replay writes the single run's replay file" ||
    bad "DDZ: merge --replay writes the single run's replay file"
grep -q '"redeals":[1-9]' "$tmp/single.jsonl" && ok "DDZ: the match has redeals" || bad "DDZ: the match has redeals"

# a run whose config was given relative to its directory, merged from another directory:
# the results carry the config's absolute path, so the replay is still the single run's
ACB=$(cd "$(dirname "$CB")" && pwd)/$(basename "$CB")
config pdk16 "$tmp/rel.ini"
(cd "$tmp" && "$ACB" match --config rel.ini --games 6 --seed 4 --progress 0 --replay rel-single.jsonl \
    --results rel.res >/dev/null 2>&1) || bad "a run with a relative config"
(cd / && "$ACB" merge "$tmp/rel.res" --replay "$tmp/rel-merged.jsonl" >/dev/null 2>&1) ||
    bad "a merge from another directory"
if cmp -s "$tmp/rel-single.jsonl" "$tmp/rel-merged.jsonl" && grep -q '"flags":{' "$tmp/rel-merged.jsonl"; then
    ok "merge --replay from another directory than the run's writes the single run's replay file"
else
    bad "merge --replay from another directory than the run's writes the single run's replay file"
    head -c 400 "$tmp/rel-merged.jsonl" | sed 's/^/     | /'
fi

# ---- 2. PDK, not duplicate, 3 shards, one at -j 2
config pdk16 "$tmp/pdk.ini"
P="match --config $tmp/pdk.ini --games 31 --seed 5 --progress 0"
$CB $P >"$tmp/pdk.txt" 2>/dev/null || bad "the single PDK run"
parallel -j 2 "$CB $P --shard {}/3 --results $tmp/pdk-{}.res --concurrency {} > /dev/null" ::: 1 2 3 ||
    bad "3 PDK shards under GNU parallel"
$CB merge "$tmp"/pdk-?.res >"$tmp/pdk-merged.txt" 2>"$tmp/pdk-merged.err" || bad "merge of the PDK shards"
same "PDK: merged shards print what the single run prints" "$tmp/pdk.txt" "$tmp/pdk-merged.txt"

# ---- 3. refusals
refused "a missing shard" "shard 3/4 is missing" $CB merge "$tmp/ddz-1.res" "$tmp/ddz-2.res" "$tmp/ddz-4.res"
$CB $M --seed 22 --shard 3/4 --results "$tmp/other-3.res" >/dev/null 2>&1
refused "a shard of another run (seed)" "other-3.res is not from the run of .*: seed 22, not 21" \
    $CB merge "$tmp/ddz-1.res" "$tmp/ddz-2.res" "$tmp/other-3.res" "$tmp/ddz-4.res"
cp "$tmp/ddz.ini" "$tmp/ddz-edited.ini"
sed -i 's/level = 3/level = 4/' "$tmp/ddz.ini"
$CB $M --shard 3/4 --results "$tmp/edited-3.res" >/dev/null 2>&1
cp "$tmp/ddz-edited.ini" "$tmp/ddz.ini"
refused "a shard of an edited config" "edited-3.res is not from the run of .*: config contents (sha256)" \
    $CB merge "$tmp/ddz-1.res" "$tmp/ddz-2.res" "$tmp/edited-3.res" "$tmp/ddz-4.res"
refused "the same shard twice" "are both shard 2/4" \
    $CB merge "$tmp/ddz-1.res" "$tmp/ddz-2.res" "$tmp/ddz-2.res" "$tmp/ddz-3.res" "$tmp/ddz-4.res"
head -n -1 "$tmp/ddz-3.res" >"$tmp/cut-3.res"
refused "an unfinished shard" "cut-3.res: shard 3/4 is incomplete" \
    $CB merge "$tmp/ddz-1.res" "$tmp/ddz-2.res" "$tmp/cut-3.res" "$tmp/ddz-4.res"
sed '3d' "$tmp/ddz-3.res" >"$tmp/hole-3.res"
refused "a game line removed" "hole-3.res:.*end line counts 12 games, the file has 11" \
    $CB merge "$tmp/ddz-1.res" "$tmp/ddz-2.res" "$tmp/hole-3.res" "$tmp/ddz-4.res"
refused "a file that is no results file" "single.jsonl: not a cardbot results file" \
    $CB merge "$tmp/single.jsonl"
refused "--shard without --results" "needs --results" $CB $M --shard 1/4
printf '[game]\nrules = ddz\n[strategy.h]\nplugin = heuristic\n[seats]\n0 = h\n1 = h\n2 = h\n' >"$tmp/noseed.ini"
refused "--shard without a fixed seed" "needs a fixed seed" \
    $CB match --config "$tmp/noseed.ini" --games 6 --shard 1/2 --results "$tmp/x.res"
refused "--shard 5/4" "expected K/N" $CB $M --shard 5/4 --results "$tmp/x.res"
finish

#!/bin/sh
# make check: the worker protocol sends no uninitialised bytes. cardbot match plays PDK (包庄
# on) and DDZ (bidding) under isolation = process inside valgrind (memcheck, children traced:
# the host and every worker). A request or reply frame with uninitialised padding shows as
# "Syscall param sendmsg(...) points to uninitialised byte(s)" in the side that sends it, and
# memcheck's error exit status fails the run; so does any other memory error on either side.
# The sandbox stays off here: valgrind's own system calls would meet the seccomp filter.
# Plain build only (memcheck cannot run ASan's instrumented code): elsewhere it says so and
# passes. Prints "ok"/"FAIL" per game and "N passed, N failed".
set -u
B=${CB_BUILD:-build/plain}
case $(basename "$B") in
plain) ;;
*) echo "test_valgrind_worker: memcheck runs on the plain build only (this is $B)"; echo "0 passed, 0 failed"; exit 0 ;;
esac
if ! command -v valgrind >/dev/null 2>&1; then
    echo "test_valgrind_worker: valgrind is not installed (make deps installs it)"
    echo "0 passed, 1 failed"
    exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cbvg-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
play() { # name rules extra-rules-lines
    cat > "$tmp/$1.ini" <<EOC
[shim]
plugin_dir = $(pwd)/$B/plugins
isolation = process
fallback = h
[game]
rules = $2
[rules]
$3
[strategy.h]
plugin = heuristic
level = 3
[seats]
0 = h
1 = h
2 = h
EOC
    if valgrind -q --trace-children=yes --error-exitcode=9 --track-origins=yes \
        "$B/cardbot" match --config "$tmp/$1.ini" --games 2 --seed 5 --quiet >"$tmp/$1.out" 2>"$tmp/$1.err" &&
        grep -q "^h " "$tmp/$1.out"; then
        echo "ok   $1: 2 games under memcheck, host and workers clean"
        pass=$((pass+1))
    else
        echo "FAIL $1: memcheck found errors (or the match failed):"
        grep -v -e "unhandled amd64-linux syscall" -e "your own handler" -e "README_MISSING" \
            -e "consider this a bug" -e "bug_reports" "$tmp/$1.err" | head -40
        fail=$((fail+1))
    fi
}
play pdk pdk16 "bao = true"
play ddz ddz ""
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

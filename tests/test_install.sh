#!/bin/sh
# make check's install test: what a packager, a server author and a plugin author get.
#
# Run from the repository root with CB_BUILD=build/<variant> (tests/run.sh does). It
#  1. stages `make install DESTDIR=$tmp PREFIX=/usr` of that variant and checks the layout, the
#     SONAMEs (readelf -d), the pkg-config files (modversion = CB_VERSION, plugindir);
#  2. builds examples/plugin and examples/host from a copy, with nothing but pkg-config against
#     the staged files, and plays their PDK and DDZ games: the example plugin found by base
#     name through CARDBOT_PLUGIN_PATH, then through a [shim] plugin_dir list, then installed
#     into `pkg-config --variable=plugindir`; the installed heuristic plugin found in its
#     default directory next to the installed shim;
#  3. builds the ABI 1.0 host and plugin (tests/abi) against the frozen 1.0 headers and the
#     staged libraries, and plays PDK (包庄 off and on) and DDZ (bidding, fixed landlord);
#  4. runs the installed cardbot on an installed config, and on the installed exec-python.ini
#     from another directory (the Python bot it runs installed beside it), then `make uninstall`.
# Under build/asan the same runs with the examples and ABI programs built with the sanitizers
# too (a sanitized library needs a sanitized program to load it).
# Prints "ok"/"FAIL" per check and a final "N passed, N failed" line; exit 0 = all passed.
# shellcheck disable=SC2317,SC2086,SC2046
# (the checks are functions run through check(); $SAN, $CFLAGS_EX and pkg-config's output are
# word-split on purpose, as flags)
set -u

B=${CB_BUILD:-build/plain}
V=$(basename "$B")
ROOT=$(pwd)
if [ ! -f "$ROOT/mk/install.mk" ] || [ ! -d "$ROOT/$B" ]; then
    echo "test_install: run from the repository root with CB_BUILD=build/<variant> (got $B)"
    echo "0 passed, 1 failed"
    exit 1
fi
VERSION=$(sed -n 's/^#define CB_VERSION "\(.*\)"/\1/p' include/cardbot/game.h)
SOMAJOR=${VERSION%%.*}
SAN=""
[ "$V" = asan ] && SAN="-fsanitize=address,undefined -fno-omit-frame-pointer"
CFLAGS_EX="-std=c11 -O1 -g -Wall -Wextra -Werror $SAN"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cb-install-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
STAGE=$tmp/stage
LIB=$STAGE/usr/lib
PCDIR=$LIB/pkgconfig
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
check() { # check "what" command...: ok when the command succeeds
    what=$1
    shift
    if "$@" >"$tmp/out" 2>&1; then ok "$what"; else bad "$what"; sed 's/^/     | /' "$tmp/out" | tail -n 25; fi
}
finish() {
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit $?
}
# A make of this tree from inside `make test`: not the caller's flags, jobserver or variables.
submake() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -C "$ROOT" "$@"; }
# pkg-config finding the staged .pc files first; --define-prefix moves ${prefix} to where the
# .pc file is.
pc() { env PKG_CONFIG_PATH="$PCDIR" pkg-config "$@"; }
# pkg-config seeing the staged .pc files only: a host without glib's development files
pc_alone() { env PKG_CONFIG_LIBDIR="$PCDIR" PKG_CONFIG_PATH= pkg-config "$@"; }
unset CARDBOT_PLUGIN_PATH

# ---- 1. the staged install ---------------------------------------------------------------
if ! submake install V="$V" DESTDIR="$STAGE" PREFIX=/usr >"$tmp/install.log" 2>&1; then
    bad "make install V=$V DESTDIR=... PREFIX=/usr"
    tail -n 30 "$tmp/install.log" | sed 's/^/     | /'
    finish
fi
ok "make install V=$V DESTDIR=... PREFIX=/usr"

layout() {
    for f in bin/cardbot lib/libcardbot.so.$VERSION lib/libcardbot-shim.so.$VERSION \
             lib/cardbot/plugins/heuristic.so lib/cardbot/plugins/ismcts.so \
             include/cardbot/cards.h include/cardbot/rules.h include/cardbot/game.h \
             include/cardbot/bot.h include/cardbot/shim.h lib/pkgconfig/cardbot.pc \
             lib/pkgconfig/cardbot-plugin.pc share/cardbot/config/pdk16.ini share/cardbot/config/ddz.ini \
             lib/cardbot/plugins/exec.so lib/cardbot/plugins/rulebot.so lib/cardbot/plugins/pimc.so \
             include/cardbot/json.h share/cardbot/config/exec-python.ini \
             share/cardbot/examples/python-bot/bot.py share/cardbot/examples/python-bot/README.md; do
        [ -f "$STAGE/usr/$f" ] || { echo "missing usr/$f"; return 1; }
    done
    for l in libcardbot libcardbot-shim; do
        for n in "$l.so.$SOMAJOR" "$l.so"; do
            if [ ! -L "$LIB/$n" ] || [ "$(readlink "$LIB/$n")" != "$l.so.$VERSION" ]; then
                echo "usr/lib/$n is not a link to $l.so.$VERSION"
                return 1
            fi
        done
    done
}
check "layout: binary, libraries and their links, plugins, headers, configs, .pc files" layout

sonames() {
    readelf -d "$LIB/libcardbot.so.$VERSION" | grep -F "Library soname: [libcardbot.so.$SOMAJOR]" &&
        readelf -d "$LIB/libcardbot-shim.so.$VERSION" | grep -F "Library soname: [libcardbot-shim.so.$SOMAJOR]" &&
        readelf -d "$LIB/libcardbot-shim.so.$VERSION" | grep -F "Shared library: [libcardbot.so.$SOMAJOR]" &&
        readelf -d "$LIB/cardbot/plugins/heuristic.so" | grep -F "Shared library: [libcardbot.so.$SOMAJOR]"
}
check "readelf -d: SONAMEs libcardbot.so.$SOMAJOR and libcardbot-shim.so.$SOMAJOR (and who needs them)" sonames

pcfiles() {
    [ "$(pc --modversion cardbot)" = "$VERSION" ] && [ "$(pc --modversion cardbot-plugin)" = "$VERSION" ] &&
        [ "$(pc --variable=plugindir cardbot)" = /usr/lib/cardbot/plugins ] &&
        [ "$(pc --define-prefix --variable=plugindir cardbot)" = "$LIB/cardbot/plugins" ] &&
        [ "$(pc --define-prefix --variable=plugindir cardbot-plugin)" = "$LIB/cardbot/plugins" ] &&
        pc --libs cardbot | grep -q -- '-lcardbot-shim -lcardbot' &&
        pc --libs cardbot-plugin | grep -q -- '-lcardbot' && ! pc --libs cardbot-plugin | grep -q shim &&
        [ "$(pc --define-prefix --variable=includedir cardbot)" = "$STAGE/usr/include" ] &&
        pc_alone --cflags --libs cardbot >/dev/null && pc_alone --cflags --libs cardbot-plugin >/dev/null &&
        ! pc --cflags cardbot | grep -q glib
}
check "pkg-config: modversion $VERSION = CB_VERSION, libs, plugindir (also relocated), no glib needed" pcfiles

# ---- 2. the examples, with pkg-config only -----------------------------------------------
EX=$tmp/examples
cp -R examples "$EX"
PKGC="pkg-config --define-prefix"
build_examples() {
    env PKG_CONFIG_PATH="$PCDIR" make -C "$EX/plugin" PKG_CONFIG="$PKGC" \
        CFLAGS="$CFLAGS_EX" LDFLAGS="$SAN" &&
        env PKG_CONFIG_PATH="$PCDIR" make -C "$EX/host" PKG_CONFIG="$PKGC" \
            CFLAGS="$CFLAGS_EX" LDFLAGS="$SAN"
}
if build_examples >"$tmp/exbuild.log" 2>&1 && ! grep -F -e "$ROOT" -e "-Iinclude" "$tmp/exbuild.log" >/dev/null; then
    ok "examples/plugin and examples/host build with pkg-config only (no path into the source tree)"
else
    bad "examples/plugin and examples/host build with pkg-config only"
    tail -n 25 "$tmp/exbuild.log" | sed 's/^/     | /'
    finish
fi

# Both games finished, points of each sum to zero, no fallback.
results_ok() { # results_ok OUTPUT_FILE
    awk '
        /^result / {
            n++; games[$2] = 1
            for (i = 1; i <= NF; i++) {
                if ($i == "points") s = $(i + 1) + $(i + 2) + $(i + 3)
                if ($i == "fallbacks") fb = $(i + 1)
                if ($i == "winner") w = $(i + 1)
            }
            if (s != 0 || fb != 0 || w < 0 || w > 2) { print "bad result line: " $0; bad = 1 }
        }
        END {
            if (n != 2 || !games["pdk16"] || !games["ddz"]) { print "want a pdk16 and a ddz result, got " n; bad = 1 }
            exit bad
        }' "$1"
}
run_host() { # run_host OUTPUT PDK_CONFIG DDZ_CONFIG: in the host directory, staged libraries
    (cd "$EX/host" && env LD_LIBRARY_PATH="$LIB" ./host "$2" "$3" 5) >"$1" 2>&1 || { tail -n 20 "$1"; return 1; }
}

env_path() {
    CARDBOT_PLUGIN_PATH="$tmp/nowhere:$EX/plugin" run_host "$tmp/host1.out" pdk.ini ddz.ini &&
        results_ok "$tmp/host1.out" &&
        (cd "$EX/host" && env LD_LIBRARY_PATH="$LIB" ldd ./host) | grep -F "libcardbot-shim.so.$SOMAJOR => $LIB/"
}
check "example host: mybot via CARDBOT_PLUGIN_PATH, installed heuristic; both games over, points sum 0" env_path
[ -f "$tmp/host1.out" ] && grep -E '^(==|result)' "$tmp/host1.out" | sed 's/^/     /'

dir_list() {
    for g in pdk ddz; do
        sed 's|^\[shim\]$|[shim]\nplugin_dir = /nonexistent;../plugin : ../../nowhere|' "$EX/host/$g.ini" >"$EX/host/$g-dirs.ini"
    done
    grep -q '^plugin_dir = ' "$EX/host/pdk-dirs.ini" &&
        run_host "$tmp/host2.out" pdk-dirs.ini ddz-dirs.ini && results_ok "$tmp/host2.out"
}
check "example host: mybot via a [shim] plugin_dir list (relative to the config)" dir_list

not_found() {
    ! run_host "$tmp/host3.out" pdk.ini ddz.ini >/dev/null &&
        grep -F "[strategy.mybot] plugin" "$tmp/host3.out" && grep -F "cannot load plugin 'mybot'" "$tmp/host3.out" &&
        grep -F "$LIB/cardbot/plugins/mybot.so" "$tmp/host3.out" && grep -F "$LIB/plugins/mybot.so" "$tmp/host3.out"
}
check "example host: mybot nowhere on the path -> an error naming every file tried" not_found

installed_plugin() {
    env PKG_CONFIG_PATH="$PCDIR" make -C "$EX/plugin" PKG_CONFIG="$PKGC" \
        CFLAGS="$CFLAGS_EX" LDFLAGS="$SAN" install &&
        [ -f "$LIB/cardbot/plugins/mybot.so" ] &&
        run_host "$tmp/host4.out" pdk.ini ddz.ini && results_ok "$tmp/host4.out"
}
check "example plugin installed into pkg-config's plugindir: found with no setting" installed_plugin
rm -f "$LIB/cardbot/plugins/mybot.so"

# ---- 3. ABI 1.0 from the other side ------------------------------------------------------
ABI=$tmp/abi
mkdir -p "$ABI"
cp tests/abi/*.ini "$ABI/"
build_abi() {
    # only the frozen 1.0 headers (no --cflags: they would add the installed 1.1 headers)
    cc $CFLAGS_EX -I"$ROOT/tests/abi/1.0/include" -fPIC -fvisibility=hidden -shared \
        -o "$ABI/plugin10.so" tests/abi/plugin10.c $SAN $(pc --define-prefix --libs cardbot-plugin) &&
        cc $CFLAGS_EX -I"$ROOT/tests/abi/1.0/include" -o "$ABI/host10" tests/abi/host10.c $SAN \
            $(pc --define-prefix --libs cardbot) -ldl
}
check "ABI 1.0 host and plugin build against the frozen 1.0 headers and the installed libraries" build_abi

abi_run() { # abi_run CONFIG GAMES [host10 options]
    cfg=$1
    games=$2
    shift 2
    (cd "$ABI" && env CARDBOT_PLUGIN_PATH="$ABI" LD_LIBRARY_PATH="$LIB" ./host10 "$@" "$cfg" "$games" 11) \
        >"$tmp/abi.out" 2>&1 || { cat "$tmp/abi.out"; return 1; }
    grep '^host10: ok' "$tmp/abi.out"
}
if [ -x "$ABI/host10" ] && [ -f "$ABI/plugin10.so" ]; then
    check "ABI 1.0: PDK, 包庄 off (1.0 views, 1.0 plugin beside heuristic)" abi_run pdk10.ini 6 --rules shim
    check "ABI 1.0: PDK with 包庄 (1.0 bid views; rules NULL)" abi_run pdk10-bao.ini 6 --rules null
    check "ABI 1.0: DDZ with 叫分 (first_seat = the first bidder; the host's own rules copy)" abi_run ddz10.ini 6 --rules copy
    check "ABI 1.0: DDZ, fixed landlord, no bidding (as the 1.0 console's --landlord)" abi_run ddz10.ini 6 --landlord 1
    check "ABI 1.0: DDZ with 叫分 under isolation = process" abi_run ddz10-process.ini 3
else
    bad "ABI 1.0: not built, nothing to run"
fi

# ---- 4. the installed command, and uninstall ---------------------------------------------
cli() {
    # RUNPATH $ORIGIN/../lib finds the installed libraries; the config finds the installed
    # plugins in their default directory.
    env -u LD_LIBRARY_PATH "$STAGE/usr/bin/cardbot" classify --rules ddz 33344 | grep -q '^triple_2' &&
        env -u LD_LIBRARY_PATH "$STAGE/usr/bin/cardbot" match --config "$STAGE/usr/share/cardbot/config/levels-pdk.ini" \
            --games 3 --seed 1 --quiet
}
check "installed cardbot: classify, and a match on an installed config with installed plugins" cli

exec_python() {
    # The exec plugin runs the bot from the config's directory (../examples/python-bot/bot.py):
    # started elsewhere, the installed config must find the installed bot, and the bot must play
    # every decision itself (no fallback).
    command -v python3 >/dev/null || { echo "no python3"; return 1; }
    grep -qx 'command = python3 ../examples/python-bot/bot.py' "$STAGE/usr/share/cardbot/config/exec-python.ini" ||
        { grep '^command' "$STAGE/usr/share/cardbot/config/exec-python.ini"; return 1; }
    mkdir -p "$tmp/elsewhere"
    (cd "$tmp/elsewhere" && env -u LD_LIBRARY_PATH "$STAGE/usr/bin/cardbot" match \
        --config "$STAGE/usr/share/cardbot/config/exec-python.ini" --games 2 --seed 1 --concurrency 1) \
        >"$tmp/exec.out" 2>&1 || { tail -n 20 "$tmp/exec.out"; return 1; }
    grep -q '^Finished game 2 ' "$tmp/exec.out" &&
        grep -Eq '^Fallbacks python +illegal=0 failed=0 late=0 no-plugin=0 crashed=0 total=0' "$tmp/exec.out" ||
        { tail -n 20 "$tmp/exec.out"; return 1; }
}
check "installed exec-python.ini, run from another directory: the installed Python bot plays every decision" exec_python

uninstall() {
    submake uninstall V="$V" DESTDIR="$STAGE" PREFIX=/usr &&
        [ -z "$(find "$STAGE" ! -type d)" ] &&
        [ ! -e "$LIB/cardbot" ] && [ ! -e "$STAGE/usr/include/cardbot" ] && [ ! -e "$STAGE/usr/share/cardbot" ]
}
check "make uninstall removes every installed file and the cardbot directories" uninstall

finish

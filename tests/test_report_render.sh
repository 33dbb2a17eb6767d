#!/bin/sh
# make check's page test: the HTML report (host-shim/console/match_report.c) as a browser shows
# it. test_report writes its sample page (CB_REPORT_HTML); headless Chromium then
#  1. parses it (--dump-dom): the crosstable with its numbers and escaped names, three SVG plots
#     with their interval bands and the SPRT's two bounds survive into the rendered DOM;
#  2. paints it (--screenshot): a PNG that is not blank, where the strategies' line colours
#     appear (the SVG was drawn, not only the text) — counted with python3 when it is there.
# Chromium comes from the Makefile's DEBPKGS: when it is missing, `make deps` installs it.
# Run from the repository root with CB_BUILD=build/<variant> (tests/run.sh does).
# Prints "ok"/"FAIL" per check and a final "N passed, N failed" line; exit 0 = all passed.
set -u

B=${CB_BUILD:-build/plain}
ROOT=$(pwd)
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
finish() {
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit $?
}
if [ ! -f "$ROOT/Makefile" ] || [ ! -x "$ROOT/$B/tests/test_report" ]; then
    bad "run from the repository root after building $B/tests/test_report (CB_BUILD=$B)"
    finish
fi

find_browser() {
    for c in chromium chromium-browser; do
        if command -v "$c" >/dev/null 2>&1; then
            command -v "$c"
            return 0
        fi
    done
    return 1
}
if ! BROWSER=$(find_browser); then
    echo "chromium missing: installing the Makefile's missing packages (make deps)"
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -C "$ROOT" deps
    BROWSER=$(find_browser) || { bad "chromium: not installed, and make deps could not install it"; finish; }
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cb-render-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
PAGE=$tmp/report.html
if CB_REPORT_HTML="$PAGE" "$ROOT/$B/tests/test_report" >"$tmp/unit.log" 2>&1 && [ -s "$PAGE" ]; then
    ok "test_report wrote the sample page"
else
    bad "test_report wrote the sample page"
    sed 's/^/     | /' "$tmp/unit.log" | tail -n 20
    finish
fi

# A private profile, no sandbox (root, containers), no GPU; a hung browser is stopped.
browse() {
    timeout -k 5 120 "$BROWSER" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
        --user-data-dir="$tmp/profile" "$@" "file://$PAGE" 2>"$tmp/browser.err"
}

if browse --dump-dom >"$tmp/dom.html" && [ -s "$tmp/dom.html" ]; then
    ok "dump-dom ($("$BROWSER" --version 2>/dev/null))"
else
    bad "dump-dom"
    tail -n 20 "$tmp/browser.err" | sed 's/^/     | /'
    finish
fi
# check "what" PATTERN [COUNT]: the rendered DOM holds PATTERN (fixed string), COUNT times if given
check() {
    n=$(grep -oF -- "$2" "$tmp/dom.html" | wc -l)
    if [ $# -ge 3 ]; then
        if [ "$n" -eq "$3" ]; then ok "$1"; else bad "$1: '$2' $n times, want $3"; fi
    elif [ "$n" -gt 0 ]; then ok "$1"; else bad "$1: '$2' not in the rendered page"; fi
}
check "crosstable" '<table class="cross">' 1
check "crosstable cell ismcts vs <b&>" '<span class="score">0.563</span><span class="elo">Elo +44 [+22, +67]</span>' 1
check "mirrored cell" '<span class="score">0.437</span><span class="elo">Elo -44 [-67, -22]</span>' 1
check "diagonal cells" '<td class="diag">' 3
check "unplayed cells" '<td class="none"' 2
check "escaped name in the header" '<th>&lt;b&amp;&gt;</th>' 2
check "no raw <b> from a name" '<b&>' 0
check "three SVG plots" '<svg ' 3
check "interval bands" '<polygon class="band"' 6
check "SPRT bounds" '<path class="ref"' 2
check "SPRT verdict" '<span class="verdict">H1 accepted</span>' 1
check "no script in the page" '<script' 0

if browse --window-size=1100,1900 --screenshot="$tmp/shot.png" >/dev/null && [ -s "$tmp/shot.png" ]; then
    ok "screenshot"
else
    bad "screenshot"
    tail -n 20 "$tmp/browser.err" | sed 's/^/     | /'
    finish
fi
size=$(wc -c <"$tmp/shot.png")
# a blank 1100x1900 page compresses to a few KB; plots, bands and text to far more
if [ "$size" -gt 40000 ]; then ok "screenshot is not blank ($size bytes)"; else bad "screenshot is $size bytes: blank?"; fi

if command -v python3 >/dev/null 2>&1; then
    # Decode the PNG with the standard library (zlib and big integers: no imaging package, and
    # whole rows at a time, so a 1100 x 1900 shot takes seconds) and count the bytes that are
    # not white and the pixels of the first three palette colours (match_plot.c).
    if python3 - "$tmp/shot.png" >"$tmp/pixels.txt" 2>&1 <<'EOF'; then
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, hdr = 8, [], None
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    if kind == b"IHDR":
        hdr = struct.unpack(">IIBBBBB", data[pos + 8:pos + 8 + n])
    elif kind == b"IDAT":
        idat.append(data[pos + 8:pos + 8 + n])
    pos += 12 + n
w, h, depth, ctype, _, _, interlace = hdr
assert depth == 8 and ctype in (2, 6) and interlace == 0, "PNG layout %r" % (hdr,)
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(b"".join(idat)), w * bpp
M7, M8 = int.from_bytes(b"\x7f" * stride, "big"), int.from_bytes(b"\x80" * stride, "big")
def add(a, b):  # bytewise (a + b) mod 256 on whole rows at once, as big integers
    x, y = int.from_bytes(a, "big"), int.from_bytes(b, "big")
    return (((x & M7) + (y & M7)) ^ ((x ^ y) & M8)).to_bytes(stride, "big")
prev, ink, found = bytes(stride), 0, {}
colours = {k: bytes(int(k[j:j + 2], 16) for j in (0, 2, 4)) for k in ("1f77b4", "d62728", "2ca02c")}
for r in range(h):
    f, line = raw[r * (stride + 1)], raw[r * (stride + 1) + 1:(r + 1) * (stride + 1)]
    if f == 1:  # Sub: a prefix sum over pixels, by doubling
        k = bpp
        while k < stride:
            line = add(line, bytes(k) + line[:-k])
            k *= 2
    elif f == 2:
        line = add(line, prev)
    elif f in (3, 4):
        out = bytearray(line)
        for x in range(stride):
            a = out[x - bpp] if x >= bpp else 0
            b = prev[x]
            if f == 3:
                out[x] = (out[x] + (a + b) // 2) & 255
            else:
                c = prev[x - bpp] if x >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                out[x] = (out[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        line = bytes(out)
    prev = line
    ink += stride - line.count(255)
    for k, v in colours.items():
        found[k] = found.get(k, 0) + line.count(v)
print("pixels %d x %d, ink %.2f%%, line colours %s" % (w, h, 100.0 * ink / (h * stride), found))
assert ink > 0.02 * h * stride, "almost blank"
# the legend swatches alone give 2 x 14 x 4 = 112 pixels of each colour; the lines ~1000
assert all(v >= 400 for v in found.values()), "a plot line colour is missing"
EOF
        ok "screenshot pixels: $(cat "$tmp/pixels.txt")"
    else
        bad "screenshot pixels"
        sed 's/^/     | /' "$tmp/pixels.txt" | tail -n 10
    fi
else
    echo "skip screenshot pixels: no python3 (the size check above stands)"
fi
finish

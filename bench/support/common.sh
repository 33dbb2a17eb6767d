# cardbot bench — sourced by the bench scripts (bench/*.sh).

# A copy of a config in which the [strategy.ismcts] group gains keys, written right after its
# "plugin = ismcts" line (the configs hold one ismcts group; a key given twice keeps the last,
# so these win over any the group already has below that line).
#   ismcts_keys CONFIG "key = value<newline>key = value" > COPY      (empty keys: a plain copy)
ismcts_keys() {
  awk -v k="$2" '{ print } /^\[strategy\.ismcts\]$/ { g = 1 }
    g && /^plugin = ismcts$/ { if (k != "") print k; g = 0 }' "$1"
}

# The set-up of a script that pairs runs: $BIN must be built and python3 present (bench/paired.py),
# else the script stops naming what is missing; sets tmpd (a temporary directory removed at exit)
# and OUT (the caller's OUT, else tmpd), which it creates.
#   paired_setup NAME         (NAME: the script's name, for the messages and the directory)
paired_setup() {
  [ -x "$BIN" ] || { echo "$1: no $BIN (make first)" >&2; exit 1; }
  command -v python3 >/dev/null || { echo "$1: needs python3 (the pairing)" >&2; exit 1; }
  tmpd=$(mktemp -d "${TMPDIR:-/tmp}/${1%.sh}.XXXXXX")
  trap 'rm -rf "$tmpd"' EXIT
  OUT=${OUT:-$tmpd}
  mkdir -p "$OUT"
}

# cardbot bench — sourced by the bench scripts (bench/*.sh): a copy of a config in which the
# [strategy.ismcts] group gains keys, written right after its "plugin = ismcts" line (the
# configs hold one ismcts group; a key given twice keeps the last, so these win over any the
# group already has below that line).
#   ismcts_keys CONFIG "key = value<newline>key = value" > COPY      (empty keys: a plain copy)
ismcts_keys() {
  awk -v k="$2" '{ print } /^\[strategy\.ismcts\]$/ { g = 1 }
    g && /^plugin = ismcts$/ { if (k != "") print k; g = 0 }' "$1"
}

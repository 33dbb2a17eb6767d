#!/bin/sh
# Each built plugin exports exactly one symbol, cb_plugin_entry (bot.h): plugin code is built
# with hidden visibility, so no helper of plugin/common or of the plugin itself can be bound by
# the host or by another plugin loaded beside it. Run by tests/run.sh with CB_BUILD set; fails
# when a plugin exports anything else, lacks the entry, or when no plugin was built.
B=${CB_BUILD:-build/plain}
pass=0; fail=0
for so in "$B"/plugins/*.so; do
    [ -f "$so" ] || continue
    syms=$(nm -D --defined-only "$so" | awk '{print $NF}' | sort | tr '\n' ' ')
    if [ "$syms" = "cb_plugin_entry " ]; then
        echo "ok   $(basename "$so"): exports cb_plugin_entry only"; pass=$((pass+1))
    else
        echo "FAIL $(basename "$so"): exports: $syms"; fail=$((fail+1))
    fi
done
[ "$pass" -gt 0 ] || { echo "FAIL no plugin in $B/plugins"; fail=$((fail+1)); }
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

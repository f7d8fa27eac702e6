#!/bin/sh
# Outputs a person reads: byte counts are whole bytes, the train table says
# what each time counts.
. "$(dirname "$0")/../lib.sh"

"$DLASIM" train --platform mc-ring-8 --workload alexnet --batch 256 --json --link-stats "$TMP/links.csv" > "$TMP/t.json" 2> /dev/null
# Every *_bytes value of the JSON, and the bytes column of --link-stats.
frac=$(grep -o '"[a-z_]*bytes": [-0-9.eE+]*' "$TMP/t.json" | grep -v ': -\?[0-9]*$')
if [ -z "$frac" ] && [ "$(grep -c '_bytes": ' "$TMP/t.json")" -ge 6 ]; then ok "train --json: byte counts are integers"
else not_ok "train --json: byte counts" "$frac"; fi
frac=$(awk -F, 'NR > 1 && $5 !~ /^[0-9]+$/' "$TMP/links.csv" | head -3)
if [ -z "$frac" ] && [ "$(wc -l < "$TMP/links.csv")" -gt 8 ]; then ok "--link-stats: byte counts are integers"
else not_ok "--link-stats: byte counts" "$frac"; fi

# The table: exposed times say what they are, byte counts in full.
"$DLASIM" train --platform dc-8 --workload googlenet > "$TMP/t.txt" 2> /dev/null
if grep -q 'compute stalled on them .* exposed: compute waiting on both lines above' "$TMP/t.txt" &&
   grep -q 'compute stalled on it .* exposed: compute waiting on DMAs' "$TMP/t.txt" &&
   grep -q 'synchronization .* collectives, last arrival to end' "$TMP/t.txt" &&
   grep -Eq 'bytes per link class +nvlink [0-9]+, pcie [0-9]+, dram [0-9]+, other [0-9]+$' "$TMP/t.txt"; then
	ok "train table: each time says what it counts, bytes in full"
else
	not_ok "train table" "$(head -c 600 "$TMP/t.txt")"
fi

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

# Figures: no series in a key whose every value is 0 (it draws nothing);
# Figure 11's labels stand upright under their bars, the benchmarks below.
"$DLASIM" study mcdla --parallel data --plot "$TMP/figs" > /dev/null 2>&1
bad=""
for gp in "$TMP"/figs/*.gp; do
	dat=${gp%.gp}.dat
	# Series with a key entry (index k ... title), then each one's values.
	for k in $(sed -n "s/.* index \([0-9]*\) using 1:2 with \(boxes\|linespoints\).* title '.*/\1/p" "$gp"); do
		nonzero=$(awk -v k="$k" '/^# series / { s = $3 + 0; next } /^# / { s = -1; next }
			s == k && NF == 2 && $2 + 0 != 0 { n++ } END { print n + 0 }' "$dat")
		[ "$nonzero" -gt 0 ] || bad="$bad $(basename "$gp"):series$k"
	done
done
if [ -z "$bad" ] && [ -s "$TMP/figs/fig12.gp" ]; then ok "figures: no all-zero series in a key"
else not_ok "figures: all-zero series in a key" "$bad"; fi
if grep -q "MC-DLA(B): 0 at every point" "$TMP/figs/fig12.gp"; then ok "figure 12 says MC-DLA(B) is 0 everywhere"
else not_ok "figure 12: zero series" "no line naming MC-DLA(B)"; fi
groups=$(grep -c "^set label '[a-z0-9-]*' at first .* offset 0,-6.5 center" "$TMP/figs/fig11-data.gp")
if grep -q "set xtics rotate by 90" "$TMP/figs/fig11-data.gp" && [ "$groups" -eq 8 ]; then
	ok "figure 11: design labels upright, 8 benchmark names under them"
else
	not_ok "figure 11 labels" "$groups benchmark labels: $(grep xtics "$TMP/figs/fig11-data.gp" | head -c 200)"
fi
# The table's breakdown shows the designs the figure draws.
"$DLASIM" study mcdla --parallel data > "$TMP/study.txt" 2> /dev/null
if grep -A1 'breakdown, seconds per iteration (Figure 11)' "$TMP/study.txt" | grep -q 'DC-DLA .* HC-DLA .* MC-DLA(B) ' &&
   ! grep -A8 'breakdown, seconds' "$TMP/study.txt" | grep -q 'MC-DLA(S)'; then
	ok "study table: Figure 11's breakdown for DC-DLA, HC-DLA and MC-DLA(B), as the figure"
else
	not_ok "study table breakdown" "$(grep -A1 'breakdown, seconds' "$TMP/study.txt" | head -c 300)"
fi

# nvm --check says whether the audit passed, and how often it ran.
"$DLASIM" nvm --workload mix1 --persist vadr --check --tx 100 > "$TMP/nvm.txt" 2> /dev/null
n=$(sed -n 's/^audits  *\([0-9]*\)$/\1/p' "$TMP/nvm.txt")
if grep -q "^audit (--check): passed, invariants I1-I6 held at each of $n audits$" "$TMP/nvm.txt" && [ "${n:-0}" -gt 0 ]; then
	ok "nvm --check: the audit's verdict and count"
else
	not_ok "nvm --check verdict" "$(tail -3 "$TMP/nvm.txt")"
fi
"$DLASIM" nvm --workload mix1 --persist vadr --tx 100 --json > "$TMP/nvm.json" 2> /dev/null
holds "nvm without --check: no audit" "$(json_num "$TMP/nvm.json" audits) == 0"

# tier's byte counts and page walks are counts: whole numbers (5:1 makes
# the capacities fractional before rounding).
"$DLASIM" tier --workload bert-large --policy tm_training --tier1-ratio 5 --json > "$TMP/tier.json" 2> /dev/null
frac=$(grep -o '"[a-z0-9_]*\(bytes\|walks\)": [-0-9.eE+]*' "$TMP/tier.json" | grep -v ': -\?[0-9]*$')
if [ -z "$frac" ] && [ "$(grep -c '_bytes": \|_walks": ' "$TMP/tier.json")" -ge 15 ]; then ok "tier --json: bytes and walks are integers"
else not_ok "tier --json: bytes and walks" "$frac"; fi

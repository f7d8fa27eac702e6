#!/bin/sh
# dlasim merge on one result of 25,000 to 200,000 keys (a 3.6 MB file at
# the top): CPU seconds against the keys, with the growth exponent
# between consecutive sizes (log2 of the ratio for a doubling: 1 is
# linear, 2 quadratic), and the target at 200,000 keys (1 s; a search
# through the columns' list took minutes).
: "${BUILD:=build}"
D=$BUILD/dlasim
TMP=$(mktemp -d "${TMPDIR:-/tmp}/dlasim-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

printf "%8s %8s %8s\n" keys cpu_s growth
prev=
for k in 25000 50000 100000 200000; do
	mkdir -p "$TMP/$k"
	awk -v n=$k 'BEGIN { printf "{"; for (i = 0; i < n; i++) printf "%s\"k%d\": %d", i ? ", " : "", i, i; print "}" }' \
		> "$TMP/$k/0001.json"
	/usr/bin/time -f "%U %S" -o "$TMP/time" $D merge "$TMP/$k" -o "$TMP/$k.csv" || { echo "merge failed at $k keys"; exit 1; }
	t=$(awk '{ printf "%.3f", $1 + $2 }' "$TMP/time")
	awk -v k=$k -v t=$t -v p="$prev" 'BEGIN { g = (p != "" && p > 0 && t > 0) ? sprintf("%.2f", log(t / p) / log(2)) : "-"; printf "%8d %8s %8s\n", k, t, g }'
	prev=$t
done
awk -v t=$t 'BEGIN { printf "200,000 keys: %.3f s (target 1 s): %s\n", t, t <= 1 ? "met" : "MISSED" }'

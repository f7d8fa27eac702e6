#!/bin/sh
# Data-parallel VGG-E on a generated 1024-device MC-DLA ring (BW_AWARE,
# ring_flow collectives, batch 2048 = 2 samples per device): wall time and
# peak RSS against the targets (60 s, 2 GB), with the 8-device run of the
# same command as the reference.
: "${BUILD:=build}"
D=$BUILD/dlasim
TMP=$(mktemp -d "${TMPDIR:-/tmp}/dlasim-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

run() {	# devices batch -> "wall_s rss_kB"
	$D platform --topology mc-ring --devices "$1" > "$TMP/p.xml" || exit 1
	/usr/bin/time -f "%e %M" -o "$TMP/t" $D train --platform "$TMP/p.xml" \
		--workload workloads/vgg-e.dnn --batch "$2" --coll ring_flow \
		--page-alloc bw_aware --json > "$TMP/out" || exit 1
	cat "$TMP/t"
}
set -- $(run 8 16)
w8=$1 m8=$2
set -- $(run 1024 2048)
w=$1 m=$2
it=$(sed -n 's/.*"iteration_time_s": *\([0-9.e+-]*\).*/\1/p' "$TMP/out")
awk -v w8="$w8" -v m8="$m8" -v w="$w" -v m="$m" -v it="$it" 'BEGIN {
	printf "8 devices:    %6.2f s wall, %7.1f MB peak RSS\n", w8, m8 / 1024
	printf "1024 devices: %6.2f s wall (target <= 60 s: %s), %7.1f MB peak RSS (target <= 2048 MB: %s)\n",
		w, w <= 60 ? "met" : "MISSED", m / 1024, m / 1024 <= 2048 ? "met" : "MISSED"
	printf "ratios 1024 / 8 devices: wall %.1fx, RSS %.1fx; simulated iteration %.4f s\n", w / w8, m / m8, it
}'

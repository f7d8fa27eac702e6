#!/bin/sh
# Data-parallel VGG-E, one iteration, on scale-out MC-DLA platforms
# (system nodes of 8 devices joined by device-side switches, BW_AWARE page
# allocation, the default collective: hier), 2 samples per device: wall time
# and peak RSS against N, the growth exponent between sizes, and the
# targets at 4096 devices (20 s, 2 GiB).
: "${BUILD:=build}"
D=$BUILD/dlasim
TMP=$(mktemp -d "${TMPDIR:-/tmp}/dlasim-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

echo "VGG-E data-parallel on scale-out MC-DLA (default collective; load average $(cut -d' ' -f1 /proc/loadavg))"
printf "%6s %6s | %8s %8s %9s | %8s | %12s %s\n" N nodes wall_s cpu_s rss_MiB exp_cpu iteration_s coll
prev_c=
for k in 8 64 512; do
	n=$((8 * k))
	$D platform --topology mc-ring --nodes $k -o "$TMP/p.xml" || exit 1
	/usr/bin/time -f "%e %M %U %S" -o "$TMP/t" $D train --platform "$TMP/p.xml" \
		--workload workloads/vgg-e.dnn --batch $((2 * n)) --page-alloc bw_aware \
		--json > "$TMP/out" 2> "$TMP/err" || { cat "$TMP/err"; exit 1; }
	set -- $(cat "$TMP/t")
	w=$1 m=$2 c=$(awk -v u=$3 -v s=$4 'BEGIN { print u + s }')
	it=$(sed -n 's/.*"iteration_time_s": *\([0-9.e+-]*\).*/\1/p' "$TMP/out")
	coll=$(sed -n 's/.*"coll": *"\([^"]*\)".*/\1/p' "$TMP/out")
	awk -v n=$n -v k=$k -v w=$w -v c=$c -v m=$m -v pc="$prev_c" -v it=$it -v coll=$coll 'BEGIN {
		e = pc > 0 && c > 0 ? log(c / pc) / log(8) : 0
		printf "%6d %6d | %8.2f %8.2f %9.1f | %8s | %12.6f %s\n", n, k, w, c, m / 1024,
			(pc > 0 ? sprintf("%.2f", e) : "-"), it, coll
		if (n == 4096)
			printf "  N = 4096: %.2f s wall (target <= 20: %s), %.0f MiB peak RSS (target <= 2048: %s)\n",
				w, (w <= 20 ? "met" : "MISSED"), m / 1024, (m <= 2097152 ? "met" : "MISSED")
	}'
	prev_c=$c
done
